/* sched_test.h: what the schedule tests share (check_sched.c, check_perm.c): a hand-made
 * schedule for the checker and printer (up to 8 transfers in up to 4 steps), and comparing two
 * schedules. */
#ifndef HREMU_TESTS_SCHED_TEST_H
#define HREMU_TESTS_SCHED_TEST_H

#include <string.h>

#include "alg/sched.h"

typedef struct handmade {
    hr_sched s;
    size_t   start[5];
    hr_xfer  x[8];
} handmade;

static inline void make(handmade *h, int p, int nsteps, const size_t *start, const hr_xfer *x)
{
    memset(h, 0, sizeof *h);
    memcpy(h->start, start, (size_t)(nsteps + 1) * sizeof *start);
    memcpy(h->x, x, start[nsteps] * sizeof *x);
    h->s = (hr_sched){ .p = p, .nsteps = nsteps, .start = h->start, .xfer = h->x };
}

/* Do two schedules have the same steps, transfer for transfer? */
static inline int same_sched(const hr_sched *x, const hr_sched *y)
{
    if (x->p != y->p || x->nsteps != y->nsteps)
        return 0;
    for (int st = 0; st <= x->nsteps; st++)
        if (x->start[st] != y->start[st])
            return 0;
    for (size_t e = 0; e < x->start[x->nsteps]; e++)
        if (x->xfer[e].src != y->xfer[e].src || x->xfer[e].dst != y->xfer[e].dst ||
            x->xfer[e].bytes != y->xfer[e].bytes)
            return 0;
    return 1;
}

#endif
