/* sched_test.h: a hand-made schedule for the tests of the schedule checker and printer
 * (check_sched.c, check_perm.c): up to 8 transfers in up to 4 steps. */
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

#endif
