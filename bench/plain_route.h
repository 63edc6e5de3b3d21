/* plain_route.h: seed 000's two-phase routing (section 3, Steps (1)-(4)) for the plain pthreads
 * programs bench/ref_two_phase.c and bench/ref_radix.c, with no hremu code: the same data movement
 * as hremu's router (src/alg/route.c), each thread reading the other threads' bins in place where
 * the algorithm transposes them, as hremu's views do.
 *
 * A thread's p bins of cap elements of `size` bytes, bin k at slots + k * cap * size. The bins have
 * room for the proven bounds; unlike hremu, nothing checks them per element: plain_bins_check
 * after a step stops the program if one was passed (it cannot be, by eqs. (4) and (5)).
 */
#ifndef HREMU_BENCH_PLAIN_ROUTE_H
#define HREMU_BENCH_PLAIN_ROUTE_H

#include "bench_common.h"

typedef struct plain_bins {
    unsigned char *slots;
    size_t        *fill;   /* [p] */
    size_t         cap;
} plain_bins;

/* floor(x/p + (p-1)/2), the bin bound of eqs. (4) and (5). */
static inline size_t plain_bound(uint64_t x, int p)
{
    return (size_t)((2 * x + (uint64_t)p * (uint64_t)(p - 1)) / (2 * (uint64_t)p));
}

static inline void plain_bins_init(plain_bins *b, int p, size_t cap, size_t size)
{
    b->cap = cap;
    b->slots = bench_alloc((size_t)p * cap * size);
    b->fill = bench_alloc((size_t)p * sizeof *b->fill);
}

static inline void plain_bins_free(plain_bins *b)
{
    free(b->slots);
    free(b->fill);
}

static inline void plain_bins_check(const plain_bins *b, int p, const char *who, const char *step)
{
    for (int k = 0; k < p; k++)
        if (b->fill[k] > b->cap) {
            fprintf(stderr, "%s: %s: bin %d holds %zu, over its bound %zu\n", who, step, k,
                    b->fill[k], b->cap);
            exit(1);
        }
}

/* Bin k's first element. */
static inline unsigned char *plain_bin(const plain_bins *b, int k, size_t size)
{
    return b->slots + (size_t)k * b->cap * size;
}

/* Step (1), before the first element: the first element for destination j goes to bin
 * (i + j) mod p; next[] holds each destination's next bin. */
static inline void plain_deal_start(plain_bins *b, int *next, int p, int i)
{
    for (int j = 0; j < p; j++) {
        next[j] = (i + j) % p;
        b->fill[j] = 0;
    }
}

/* PLAIN_ROUTE(T) defines, for elements of type T with a uint32_t field dest:
 *   plain_deal_T(b, next, p, e):  Step (1) for element e: the bin after the one that e's
 *       destination's last element went to;
 *   plain_rebin_T(second, first, p, me):  Steps (2)-(3) on thread me: bin me of every thread's
 *       first bins, rebinned into second by destination.
 * Typed stores, so the compiler knows that they do not change the bins' counts. */
#define PLAIN_ROUTE(T)                                                                          \
    static inline void plain_deal_##T(plain_bins *b, int *next, int p, const T *e)             \
    {                                                                                           \
        int k = next[e->dest];                                                                  \
        next[e->dest] = k + 1 == p ? 0 : k + 1;                                                 \
        ((T *)(void *)plain_bin(b, k, sizeof(T)))[b->fill[k]++] = *e;                           \
    }                                                                                           \
    static inline void plain_rebin_##T(plain_bins *second, const plain_bins *first, int p,     \
                                       int me)                                                  \
    {                                                                                           \
        for (int d = 0; d < p; d++)                                                             \
            second->fill[d] = 0;                                                                \
        for (int s = 0; s < p; s++) {                                                           \
            const T *blk = (const T *)(const void *)plain_bin(&first[s], me, sizeof(T));        \
            for (size_t k = 0; k < first[s].fill[me]; k++) {                                    \
                uint32_t d = blk[k].dest;                                                       \
                ((T *)(void *)plain_bin(second, (int)d, sizeof(T)))[second->fill[d]++] = blk[k]; \
            }                                                                                   \
        }                                                                                       \
    }

#endif /* HREMU_BENCH_PLAIN_ROUTE_H */
