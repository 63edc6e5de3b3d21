/* rng.h: a seeded random stream for code that runs outside a processor, where hr_rand is not at
 * hand (a scheduler's plan, a workload's generator): xoshiro256** (Blackman, Vigna 2018) seeded
 * through splitmix64 (Steele, Lea, Flood 2014), the generator behind every processor's hr_rand.
 * The same (seed, stream) gives the same draws on every machine and build.
 *
 * Plain data the caller owns: any thread, one stream per thread. */
#ifndef HREMU_RNG_H
#define HREMU_RNG_H

#include <stdint.h>

typedef struct hr_stream {
    uint64_t s[4];
} hr_stream;

/* Seed r as stream `stream` of generator `seed`: distinct streams are independent for practical
 * purposes (each is seeded from splitmix64 over a distinct 64-bit start). */
void     hr_stream_seed(hr_stream *r, uint64_t seed, uint64_t stream);
uint64_t hr_stream_next(hr_stream *r);                       /* 64 uniform bits */
uint64_t hr_stream_below(hr_stream *r, uint64_t bound);      /* uniform in [0, bound), bound > 0,
                                                                unbiased (Lemire 2019) */

#endif
