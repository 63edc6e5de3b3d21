/* rng.c: xoshiro256** (Blackman, Vigna 2018) with splitmix64 seeding. */
#include "util/rng.h"

uint64_t hr__splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void hr__rng_seed(hr_rng *r, uint64_t seed, uint64_t stream)
{
    /* Mix seed and stream through splitmix64 twice so that (seed, stream) and (seed+1, stream-1)
     * start far apart; the four state words then come from consecutive splitmix64 outputs. */
    uint64_t x = seed;
    uint64_t k = hr__splitmix64(&x) ^ stream;
    uint64_t y = k;
    (void)hr__splitmix64(&y);
    for (int i = 0; i < 4; i++)
        r->s[i] = hr__splitmix64(&y);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t hr__rng_next(hr_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t hr__rng_below(hr_rng *r, uint64_t bound)
{
    /* Lemire 2019: multiply-shift with rejection of the biased low zone. */
    unsigned __int128 m = (unsigned __int128)hr__rng_next(r) * bound;
    uint64_t low = (uint64_t)m;
    if (low < bound) {
        uint64_t floor = -bound % bound;
        while (low < floor) {
            m = (unsigned __int128)hr__rng_next(r) * bound;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

double hr__rng_unit(hr_rng *r)
{
    return (double)(hr__rng_next(r) >> 11) * 0x1.0p-53;
}

void hr_stream_seed(hr_stream *r, uint64_t seed, uint64_t stream)
{
    hr__rng_seed(r, seed, stream);
}

uint64_t hr_stream_next(hr_stream *r)
{
    return hr__rng_next(r);
}

uint64_t hr_stream_below(hr_stream *r, uint64_t bound)
{
    return hr__rng_below(r, bound);
}
