/* rng.h: xoshiro256** streams seeded through splitmix64; one private stream per processor. */
#ifndef HREMU_UTIL_RNG_H
#define HREMU_UTIL_RNG_H

#include <stdint.h>
#include <hremu/rng.h>

/* A processor's stream is the public one (hremu/rng.h); these are its internal names. */
typedef hr_stream hr_rng;

/* One step of splitmix64 (Steele, Lea, Flood 2014): advances *x and returns its output. */
uint64_t hr__splitmix64(uint64_t *x);
/* Seed r as stream `stream` of generator `seed`: distinct streams are independent for practical
 * purposes (each is seeded from splitmix64 over a distinct 64-bit start). */
void     hr__rng_seed(hr_rng *r, uint64_t seed, uint64_t stream);
uint64_t hr__rng_next(hr_rng *r);
uint64_t hr__rng_below(hr_rng *r, uint64_t bound);   /* Lemire's unbiased bounded draw */
double   hr__rng_unit(hr_rng *r);                     /* 53 random bits in [0, 1) */

#endif
