/* common.h: what the workloads' generators and verifiers share: the one-line failure reason, the
 * fingerprint bijection, and the bitmap of ids seen. Any thread. */
#ifndef HREMU_WORK_COMMON_H
#define HREMU_WORK_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <hremu/workload.h>

/* Write a reason into why (if there is room) and return code, so callers can `return fail(...)`. */
int hr__work_fail(char *why, size_t whylen, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* splitmix64's finalizer: a bijection of 64-bit words, so two distinct inputs never mix to the
 * same value; sums of it fingerprint sets (a verifier's check that no element changed). */
static inline uint64_t hr__work_mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* bytes of data for a message drawn from (seed, tag): bytes 8w .. 8w+7 are the mixed word of
 * (seed, tag, w), low byte first. A verifier makes them again to check what arrived. */
void hr__work_fill(uint64_t seed, uint64_t tag, size_t bytes, uint8_t *out);

/* A processor's output of count elements of `size` bytes at *out, as an instance's parts
 * (hr_workload.parts): the count, then the array. 2, or 0 when max is short. */
int hr__work_counted_parts(size_t *count, void **out, size_t size, hr_part *parts, int max);

/* A zeroed bitmap of n bits, to free(); NULL when memory runs out, with the reason in why. */
uint64_t *hr__work_bitmap(uint64_t n, char *why, size_t whylen);

static inline int hr__bit_test(const uint64_t *bits, uint64_t i)
{
    return (int)((bits[i >> 6] >> (i & 63)) & 1);
}

#endif
