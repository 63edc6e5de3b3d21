/* common.c: the workloads' shared helpers (common.h). */
#include "work/common.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <hremu/error.h>

int hr__work_fail(char *why, size_t whylen, int code, const char *fmt, ...)
{
    if (why != NULL && whylen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return code;
}

uint64_t *hr__work_bitmap(uint64_t n, char *why, size_t whylen)
{
    uint64_t *bits = calloc((size_t)((n + 63) / 64), sizeof *bits);
    if (bits == NULL)
        hr__work_fail(why, whylen, HR_ENOMEM,
                      "no memory for the verifier's bitmap of %" PRIu64 " bits", n);
    return bits;
}

void hr__work_fill(uint64_t seed, uint64_t tag, size_t bytes, uint8_t *out)
{
    uint64_t base = hr__work_mix(seed ^ tag);
    size_t k = 0;
    /* Whole words apart from the tail: eight byte stores written out, which GCC merges into
     * one 64-bit store on a little-endian host (a loop over b, bounded by the tail, took 14
     * instructions a byte). */
    for (; k + 8 <= bytes; k += 8) {
        uint64_t w = hr__work_mix(base + k);
        uint8_t *o = out + k;
        o[0] = (uint8_t)w;
        o[1] = (uint8_t)(w >> 8);
        o[2] = (uint8_t)(w >> 16);
        o[3] = (uint8_t)(w >> 24);
        o[4] = (uint8_t)(w >> 32);
        o[5] = (uint8_t)(w >> 40);
        o[6] = (uint8_t)(w >> 48);
        o[7] = (uint8_t)(w >> 56);
    }
    if (k < bytes) {
        uint64_t w = hr__work_mix(base + k);
        for (size_t b = 0; k + b < bytes; b++)
            out[k + b] = (uint8_t)(w >> (8 * b));
    }
}

int hr__work_counted_parts(size_t *count, void **out, size_t size, hr_part *parts, int max)
{
    if (max < 2)
        return 0;
    parts[0] = (hr_part){ count, sizeof *count, 0 };
    parts[1] = (hr_part){ (void *)out, *count * size, 1 };
    return 2;
}
