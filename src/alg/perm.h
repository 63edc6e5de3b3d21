/* perm.h: seed 002's schedules of partial permutations (Ranka, Wang, Kumar 1992, "All-to-Many
 * Communication Avoiding Node Contention") as pure functions: LP (sec. 3.1, Figure 1), CGM,
 * CGM+sort, CGM+heap and CGMH with a fixed lambda, the MS or the BJ choice of lambda (sec. 3.2,
 * 4, 5.1, Figures 2-3, Appendix A).
 *
 * The pattern is sched.h's: com[i * p + j] = the bytes processor i sends to j, row = sender,
 * 0 = no message, the diagonal ignored. The paper's COM(i, j) = 1 means P_j sends to P_i
 * (column = sender), so the paper's column j is row j of com here, and its CCOM(*, j), "the
 * receivers of column j", are the receivers of sender j.
 *
 * The result is an hr_sched (sched.h) whose every step is a partial permutation: each processor
 * sends at most one transfer and receives at most one (hr__sched_check_flags with
 * HR_SCHED_PERM). CGMH's variants may split a message over several steps (HR_SCHED_SPLITS);
 * LP alone sends 0-byte dummies (HR_SCHED_DUMMIES).
 *
 * No state, no threads: every function here may be called from any thread, on distinct or
 * const-shared arguments. The random choices come from o->seed alone: the same arguments give
 * the same schedule.
 */
#ifndef HREMU_ALG_PERM_H
#define HREMU_ALG_PERM_H

#include <stdint.h>

#include "alg/sched.h"

/* The schedulers of seed 002's sec. 5.1. */
typedef enum hr_perm_variant {
    HR_PERM_LP,         /* Linear Permutation, Figure 1: step k pairs i with i XOR k, dummies */
    HR_PERM_CGM,        /* Compact Global Masking [16]: columns shuffled once, no heap, whole */
    HR_PERM_CGM_SORT,   /* CGM with each column sorted by size once, at the start */
    HR_PERM_CGM_HEAP,   /* heaps maintained, every message whole (CGMH with lambda = 1) */
    HR_PERM_CGMH_FIXED, /* CGMH (Figures 2-3), lambda fixed (sec. 4.1) */
    HR_PERM_CGMH_MS,    /* CGMH, lambda maximising the prefix sum of Gain (sec. 5.1, item 3) */
    HR_PERM_CGMH_BJ,    /* CGMH, lambda of the largest Gain_k, 0 <= k <= n/4 (sec. 5.1, item 4) */
    HR_PERM_NVARIANTS
} hr_perm_variant;

/* What lambda is a fraction of (Decide_Size, sec. 3.2, 4, 5.1): the paper defines lambda = k/n,
 * k the messages sent whole in a permutation of n processors, and its analysis assumes every
 * processor sends in every permutation; most permutations have fewer messages than n, and the
 * three readings differ there. In each, N is the count below, the ceil(lambda N) smallest of
 * the permutation's c messages go whole (at least one; all of them when ceil(lambda N) >= c)
 * and the others send M_eff, the largest size that goes whole; MS and BJ step lambda by 1/N
 * from 3/4 (their first rank ceil(3N/4)). */
typedef enum hr_perm_base {
    HR_PERM_BASE_MESSAGES, /* N = c, the messages of this permutation */
    HR_PERM_BASE_SENDERS,  /* N = the senders that hold messages at the permutation's start */
    HR_PERM_BASE_PROCS,    /* N = n, the processors ("lambda = k/n", "n - k entries") */
    HR_PERM_NBASES
} hr_perm_base;

/* What the caller fills in; hr__perm_opts_default gives the paper's defaults.
 * - lambda (CGMH_FIXED only): the fraction of a permutation's messages that go whole, in
 *   (0, 1]; the paper tries 3/4, 7/8, 15/16, 31/32 and 1.
 * - no_reset: 0 (the default) applies sec. 3.2's resetting scheme to the CGMH variants: lambda
 *   becomes 1 for good once d* <= max(2, d / 16), d the average messages a sender has at the
 *   start, d* the average it still has. Nonzero keeps lambda throughout (Tables 1-2's "no
 *   resetting").
 * - keep_place (CGMH variants): where the remainder of a split message goes back in its
 *   sender's heap (Figure 3 step 5, "its proper location"). 0 (the default): by its remaining
 *   bytes, so the sender next sends its largest remaining message (sec. 3.2: "trying to send
 *   out the biggest message size possible"). Nonzero: by its message's original size, so the
 *   remainder goes next when its receiver is free (see perm.c for the numbers of both).
 * - base (CGMH variants): what lambda counts against, above. The default,
 *   HR_PERM_BASE_SENDERS, is the paper's n wherever every processor holds messages (its
 *   analysis) and the reading closest to its Tables 1 and 2 (perm.c, docs/seed002.md).
 * - tau (s) and phi (s/byte), MS and BJ only: Gain_k = (dlambda / lambda_k)(tau / phi) - dM_k.
 *   phi > 0, tau >= 0.
 * - seed: Create_Permutation's x = random(1..n) each iteration and the one shuffle of every
 *   sender's messages at the start (see perm.c). LP uses none. */
typedef struct hr_perm_opts {
    hr_perm_variant variant;
    double          lambda;
    int             no_reset;
    int             keep_place;
    hr_perm_base    base;
    double          tau, phi;
    uint64_t        seed;
} hr_perm_opts;

/* The defaults for variant v: lambda 3/4 (the paper's lambda_0), resetting on, lambda counted
 * against the senders holding messages, the whole-size place of a remainder off, tau and phi the
 * cm5 cost preset's (88 us, 1 / 20 MB/s: src/net/cost.c), seed 1. Can't fail (an unknown v is
 * copied as is, and hr__perm_schedule rejects it). */
hr_perm_opts hr__perm_opts_default(hr_perm_variant v);

/* The variant's short name ("lp", "cgm", "cgm_sort", "cgm_heap", "cgmh_fixed", "cgmh_ms",
 * "cgmh_bj"), or NULL for an unknown one. */
const char *hr__perm_name(hr_perm_variant v);

/* Schedule pattern com on p processors (1 <= p <= HR_SCHED_MAX_P) as o says, into *out (freed
 * with hr__sched_free). HR_OK; HR_EINVAL (p < 1, a NULL pointer, an unknown variant, lambda not
 * in (0, 1] for CGMH_FIXED, an unknown base, phi <= 0 or tau < 0 or either not finite for MS
 * and BJ); HR_ERANGE (p too large); HR_ENOMEM. On failure *out is untouched and nothing leaks.
 *
 * What each variant guarantees (the tests check it):
 * - every step a partial permutation; every message's bytes sent exactly once in all;
 * - LP: P2 - 1 steps, P2 the least power of two >= p (p - 1 for p a power of two, whatever the
 *   pattern), step k (1-based) the exchanges i <-> i XOR k for i, i XOR k < p, each direction
 *   carrying the pattern's bytes or a 0-byte dummy; the empty pattern too (p >= 2);
 * - CGM, CGM_SORT, CGM_HEAP: every message whole, in one step;
 * - CGMH_*: a message may be split; with resetting, none is split once d* <= max(2, d / 16);
 *   a sender sends its largest message (remaining bytes; original size with keep_place)
 *   whose receiver is free when its turn comes (the heap order), as CGM+heap does;
 * - every variant but LP: a sender with messages left idles in a step only when all their
 *   receivers are busy in it (each step is a maximal matching, greedily);
 * - CGM_HEAP and CGMH_FIXED with lambda = 1 give the same schedule for the same seed.
 * Time O(p^2) to read the pattern, then O(senders left + tries + sent * log d) an iteration,
 * tries the entries Figure 3's while loop looks at (perm.c). */
int hr__perm_schedule(int p, const uint64_t *com, const hr_perm_opts *o, hr_sched *out);

#endif /* HREMU_ALG_PERM_H */
