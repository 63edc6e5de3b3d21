/* planrng.h: the random stream of the off-line planners (perm.c's CGM family), which run before
 * any processor exists and so cannot draw from hr_rand. It is util/rng.c's xoshiro256** seeded
 * through splitmix64, copied here so that alg/ includes only public headers and its own (the
 * layering of docs/architecture.md); tests/check_perm.c checks that the two give the same
 * stream, so a seed gives the same schedule as before the copy.
 *
 * Plain functions on caller-owned state: any thread, one state per thread. */
#ifndef HREMU_ALG_PLANRNG_H
#define HREMU_ALG_PLANRNG_H

#include <stdint.h>

typedef struct hr_plan_rng {
    uint64_t s[4];
} hr_plan_rng;

/* One step of splitmix64 (Steele, Lea, Flood 2014): advances *x and returns its output. */
static inline uint64_t hr__plan_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Seed r as stream `stream` of generator `seed` (util/rng.c's hr__rng_seed). */
static inline void hr__plan_rng_seed(hr_plan_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed;
    uint64_t y = hr__plan_splitmix64(&x) ^ stream;
    (void)hr__plan_splitmix64(&y);
    for (int i = 0; i < 4; i++)
        r->s[i] = hr__plan_splitmix64(&y);
}

/* xoshiro256** (Blackman, Vigna 2018). */
static inline uint64_t hr__plan_rng_next(hr_plan_rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* A draw in [0, bound), bound >= 1, unbiased (Lemire 2019: multiply-shift, the low zone
 * rejected). */
static inline uint64_t hr__plan_rng_below(hr_plan_rng *r, uint64_t bound)
{
    unsigned __int128 m = (unsigned __int128)hr__plan_rng_next(r) * bound;
    uint64_t low = (uint64_t)m;
    if (low < bound) {
        uint64_t floor = -bound % bound;
        while (low < floor) {
            m = (unsigned __int128)hr__plan_rng_next(r) * bound;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

#endif /* HREMU_ALG_PLANRNG_H */
