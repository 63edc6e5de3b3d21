/* route.h: routing elements of any size to their destinations with seed 000's two-phase
 * h-relation algorithm (section 3, Steps (1)-(4); Algorithm 1), for hrel.two_phase and for the
 * algorithms that need an h-relation as a step (the sorts).
 *
 * A route is five calls, so that a caller can build elements a few at a time as it deals them,
 * and use what arrives where it lies, without a copy of its own on either side:
 *
 *     hr_router rt;
 *     hr__route_start(p, &rt, sizeof(elem), offsetof(elem, dest), h1, h2);
 *     hr__route_deal(p, &rt, elems, count);   (any number of times)          Step (1)
 *     hr__route_exchange(p, &rt);                                             Steps (2)-(4)
 *     for k in 0 .. p-1:   read hr__route_count(&rt, k) elements at hr__route_block(&rt, k)
 *     hr__route_end(p, &rt);
 *
 * Every processor makes the calls together (exchange is two transposes). Every processor deals at
 * most h1 elements and receives at most h2 (section 3.3). A bad destination or a bin past its
 * proven bound fails the run.
 */
#ifndef HREMU_ALG_ROUTE_H
#define HREMU_ALG_ROUTE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <hremu/hremu.h>

/* p bins of 1 + cap slots of size bytes: slot 0 of a bin holds its count (a uint32), as
 * Algorithm 1 keeps it (steps 2.1 and 6.1). While dealing, the counts live in fill[] (one small
 * array, in cache) and go to the bins' first slots when the bins are sent: writing them per
 * element touched a second cache line each time. */
typedef struct hr_bins {
    unsigned char *slots;
    size_t         cap;
    uint32_t      *fill;
} hr_bins;

typedef struct hr_router {
    int                   p;
    size_t                size, dest_off;
    uint64_t              h1, h2;
    hr_bins               first;        /* Step (1)'s bins */
    int                  *next;         /* Step (1): the bin of the next element to each dest */
    size_t                dealt;
    const unsigned char **view;         /* after exchange: the blocks that arrived, in place */
    unsigned char        *second;       /* Step (3)'s bins, viewed by their receivers */
    size_t                blk2;
} hr_router;

void hr__route_start(hr_proc *p, hr_router *rt, size_t size, size_t dest_off, uint64_t h1,
                     uint64_t h2);
void hr__route_exchange(hr_proc *p, hr_router *rt);
void hr__route_end(hr_proc *p, hr_router *rt);

/* Step (1) for count elements: the k-th element with destination l goes to bin (i + l + k) mod p,
 * round-robin from (i + l) mod p. */
void hr__route_deal(hr_proc *p, hr_router *rt, const void *elems, size_t count);

/* After exchange: what processor k routed here, in place until hr__route_end. */
static inline size_t hr__route_count(const hr_router *rt, int k)
{
    uint32_t c;
    memcpy(&c, rt->view[k], sizeof c);
    return c;
}

static inline const void *hr__route_block(const hr_router *rt, int k)
{
    return rt->view[k] + rt->size;
}

#endif
