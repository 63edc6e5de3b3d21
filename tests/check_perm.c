/* check_perm.c: seed 002's schedules of permutations (alg/perm.c) and the checker and printer
 * options they need (alg/sched.c): every variant valid on random and Appendix-D patterns (each
 * step a partial permutation, every byte once), LP's p - 1 full pairings, the heaps' order
 * (a sender's largest message goes first when its receiver is free), the resetting of lambda,
 * the lower bound of d permutations, determinism by seed, hr__sched_check_flags catching what
 * each flag forbids, and hr__sched_print_opts's text with bytes.
 *
 * With HREMU_PERM_TABLES=1 in the environment, test_perm_tables also prints seed 002's Tables
 * 1 and 2 (permutations of CGMH with a fixed lambda, with and without resetting) beside this
 * code's figures, CGM's step counts on uniform sizes, and the schedulers' wall times; it
 * asserts nothing about the paper's numbers (they are for the docs). */
#include "hr_test.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>
#include "util/clock.h"
#include "alg/perm.h"
#include "alg/sched.h"
#include "util/rng.h"
#include "sched_test.h"


/* ---- helpers ------------------------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A pattern of p processors: each off-diagonal message present with probability permille/1000,
 * of 1 .. maxb bytes; the diagonal holds junk, which the schedulers must ignore. */
static uint64_t *random_pattern(int p, int permille, uint64_t maxb, uint64_t seed)
{
    uint64_t *com = malloc((size_t)p * p * sizeof *com);
    ck_assert_ptr_nonnull(com);
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++) {
            uint64_t r = splitmix64(&seed);
            com[(size_t)i * p + j] = i == j                       ? r % 7
                                     : (int)(r % 1000) < permille ? 1 + (r >> 32) % maxb
                                                                  : 0;
        }
    return com;
}

/* seed 002, Appendix D: COM(j, (i + j) mod n) = 1 for i < d (a band of d diagonals), then
 * ManyTimes (here 4n) swaps of two random rows and of two random columns, then Msg_len =
 * random() mod Msg_Range, plus 1 here so that no message is empty (the paper's 0 would be no
 * message at all in hremu). Msg_Range = n as in the paper, or 1 for uniform sizes (every
 * message 1 byte). The paper's COM(i, j) is P_j sending to P_i: com[j * n + i] here. An entry
 * that lands on the diagonal (a processor "sending" to itself) is dropped, as hremu ignores the
 * diagonal: a processor then has d - 1 messages. */
static uint64_t *appendix_d(int n, int d, uint64_t range, uint64_t seed)
{
    unsigned char *c = calloc((size_t)n * n, 1);
    int *row = malloc((size_t)n * sizeof *row), *col = malloc((size_t)n * sizeof *col);
    uint64_t *com = calloc((size_t)n * n, sizeof *com);
    ck_assert(c && row && col && com);
    for (int i = 0; i < n; i++)
        row[i] = col[i] = i;
    /* Swapping rows (columns) of the band is relabelling them: track the labels. */
    for (int t = 0; t < 4 * n; t++) {
        int a = (int)(splitmix64(&seed) % (uint64_t)n), b = (int)(splitmix64(&seed) % (uint64_t)n);
        int tmp = row[a];
        row[a] = row[b], row[b] = tmp;
        a = (int)(splitmix64(&seed) % (uint64_t)n), b = (int)(splitmix64(&seed) % (uint64_t)n);
        tmp = col[a];
        col[a] = col[b], col[b] = tmp;
    }
    for (int i = 0; i < d; i++)
        for (int j = 0; j < n; j++)
            c[(size_t)row[j] * n + col[(i + j) % n]] = 1; /* COM(row, col) */
    for (int i = 0; i < n; i++)        /* receiver (the paper's row) */
        for (int j = 0; j < n; j++)    /* sender (the paper's column) */
            if (c[(size_t)i * n + j] && i != j)
                com[(size_t)j * n + i] = 1 + splitmix64(&seed) % range;
    free(c);
    free(row);
    free(col);
    return com;
}

/* The most messages any processor sends or receives: a lower bound on a permutation schedule. */
static int max_degree(int p, const uint64_t *com)
{
    int best = 0;
    for (int i = 0; i < p; i++) {
        int out = 0, in = 0;
        for (int j = 0; j < p; j++) {
            out += j != i && com[(size_t)i * p + j] != 0;
            in += j != i && com[(size_t)j * p + i] != 0;
        }
        best = out > best ? out : best;
        best = in > best ? in : best;
    }
    return best;
}

static int next_pow2(int p)
{
    int q = 1;
    while (q < p)
        q <<= 1;
    return q;
}

static int is_cgmh(hr_perm_variant v)
{
    return v == HR_PERM_CGMH_FIXED || v == HR_PERM_CGMH_MS || v == HR_PERM_CGMH_BJ;
}

/* The flags a variant's schedule must pass: PERM always, SPLITS for CGMH, DUMMIES (and PAIRS)
 * for LP. */
static unsigned flags_of(hr_perm_variant v)
{
    return HR_SCHED_PERM | (is_cgmh(v) ? HR_SCHED_SPLITS : 0u) |
           (v == HR_PERM_LP ? HR_SCHED_DUMMIES | HR_SCHED_PAIRS : 0u);
}

static void sched_of(int p, const uint64_t *com, hr_perm_variant v, double lambda, int no_reset,
                     uint64_t seed, hr_sched *s)
{
    hr_perm_opts o = hr__perm_opts_default(v);
    o.lambda = lambda;
    o.no_reset = no_reset;
    o.seed = seed;
    int err = hr__perm_schedule(p, com, &o, s);
    ck_assert_msg(err == HR_OK, "%s: %s", hr__perm_name(v), hr_strerror(err));
}

static void assert_valid(const hr_sched *s, const uint64_t *com, unsigned flags, const char *what)
{
    char why[200];
    int err = hr__sched_check_flags(s, com, flags, why, sizeof why);
    ck_assert_msg(err == HR_OK, "%s (p = %d): %s", what, s->p, why);
}

/* Independently of the checker: the bytes of every message, summed over its parts, are the
 * pattern's, and a 0-byte transfer stands only where there is no message. */
static void assert_bytes_once(const hr_sched *s, const uint64_t *com)
{
    int p = s->p;
    uint64_t *got = calloc((size_t)p * p, sizeof *got);
    ck_assert_ptr_nonnull(got);
    for (size_t e = 0; e < s->start[s->nsteps]; e++) {
        const hr_xfer *x = &s->xfer[e];
        size_t m = (size_t)x->src * p + x->dst;
        ck_assert_int_ne(x->src, x->dst);
        if (x->bytes == 0)
            ck_assert_uint_eq(com[m], 0);
        got[m] += x->bytes;
    }
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++)
            if (i != j)
                ck_assert_uint_eq(got[(size_t)i * p + j], com[(size_t)i * p + j]);
    free(got);
}

/* Transfers of s that carry less than what their message had left: split parts. */
static size_t count_partial(const hr_sched *s, const uint64_t *com)
{
    int p = s->p;
    uint64_t *rem = malloc((size_t)p * p * sizeof *rem);
    ck_assert_ptr_nonnull(rem);
    memcpy(rem, com, (size_t)p * p * sizeof *rem);
    size_t k = 0;
    for (size_t e = 0; e < s->start[s->nsteps]; e++) {
        const hr_xfer *x = &s->xfer[e];
        size_t m = (size_t)x->src * p + x->dst;
        k += x->bytes < rem[m];
        rem[m] -= x->bytes;
    }
    free(rem);
    return k;
}

static const hr_perm_variant all_variants[] = {
    HR_PERM_LP,         HR_PERM_CGM,     HR_PERM_CGM_SORT, HR_PERM_CGM_HEAP,
    HR_PERM_CGMH_FIXED, HR_PERM_CGMH_MS, HR_PERM_CGMH_BJ,
};
#define NVAR (sizeof all_variants / sizeof all_variants[0])

/* ---- validity ------------------------------------------------------------------------------ */

START_TEST(test_perm_random_valid)
{
    static const int ps[] = { 1, 2, 3, 5, 8, 32, 64 };
    static const int dens[] = { 0, 100, 300, 700, 1000 };
    static const double lambdas[] = { 0.5, 0.75, 0.96875, 1.0 };
    uint64_t seed = 2;
    for (size_t a = 0; a < sizeof ps / sizeof ps[0]; a++)
        for (size_t b = 0; b < sizeof dens / sizeof dens[0]; b++)
            for (int rep = 0; rep < 2; rep++) {
                int p = ps[a];
                uint64_t *com = random_pattern(p, dens[b], rep ? 1 + (uint64_t)p : 4096,
                                               splitmix64(&seed));
                int lower = max_degree(p, com);
                for (size_t v = 0; v < NVAR; v++) {
                    for (int nr = 0; nr < 2; nr++) {
                        hr_sched s;
                        double lam = lambdas[(b + (size_t)rep + v) % 4];
                        sched_of(p, com, all_variants[v], lam, nr, splitmix64(&seed), &s);
                        assert_valid(&s, com, flags_of(all_variants[v]),
                                     hr__perm_name(all_variants[v]));
                        assert_bytes_once(&s, com);
                        ck_assert_int_ge(s.nsteps, lower);
                        if (all_variants[v] == HR_PERM_LP) {
                            ck_assert_int_eq(s.nsteps, next_pow2(p) - 1);
                        } else if (!is_cgmh(all_variants[v])) {
                            /* Whole messages: the checker without SPLITS accepts it. */
                            assert_valid(&s, com, HR_SCHED_PERM, "whole");
                        }
                        hr__sched_free(&s);
                    }
                }
                free(com);
            }
}
END_TEST

START_TEST(test_perm_appendix_d_valid)
{
    /* The paper's own kind of pattern (Appendix D), sizes 1 .. n, every variant and seed. */
    static const struct { int n, d; } c[] = { { 8, 3 }, { 32, 4 }, { 32, 8 }, { 32, 32 },
                                              { 64, 16 } };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
        for (uint64_t sd = 1; sd <= 3; sd++) {
            uint64_t *com = appendix_d(c[k].n, c[k].d, (uint64_t)c[k].n, sd);
            int lower = max_degree(c[k].n, com);
            ck_assert_int_le(lower, c[k].d);
            for (size_t v = 0; v < NVAR; v++) {
                hr_sched s;
                sched_of(c[k].n, com, all_variants[v], 0.75, 0, sd, &s);
                assert_valid(&s, com, flags_of(all_variants[v]), hr__perm_name(all_variants[v]));
                assert_bytes_once(&s, com);
                ck_assert_int_ge(s.nsteps, lower);
                hr__sched_free(&s);
            }
            free(com);
        }
}
END_TEST

START_TEST(test_perm_lp_full_pairings)
{
    /* Figure 1: p - 1 steps for p a power of two, whatever the pattern (empty, sparse,
     * complete); step k is i <-> i XOR k for every i, a dummy where com has no message. */
    static const int ps[] = { 2, 4, 8, 16, 64 };
    static const int dens[] = { 0, 50, 1000 };
    uint64_t seed = 7;
    for (size_t a = 0; a < sizeof ps / sizeof ps[0]; a++)
        for (size_t b = 0; b < sizeof dens / sizeof dens[0]; b++) {
            int p = ps[a];
            uint64_t *com = random_pattern(p, dens[b], 100, splitmix64(&seed));
            hr_sched s;
            sched_of(p, com, HR_PERM_LP, 1.0, 0, 1, &s);
            ck_assert_int_eq(s.nsteps, p - 1);
            for (int st = 0; st < s.nsteps; st++) {
                ck_assert_uint_eq(s.start[st + 1] - s.start[st], (size_t)p);
                for (int i = 0; i < p; i++) {
                    const hr_xfer *x = &s.xfer[s.start[st] + (size_t)i];
                    ck_assert_int_eq(x->src, i);
                    ck_assert_int_eq(x->dst, i ^ (st + 1));
                    ck_assert_uint_eq(x->bytes, com[(size_t)i * p + x->dst]);
                }
            }
            assert_valid(&s, com, HR_SCHED_PERM | HR_SCHED_PAIRS | HR_SCHED_DUMMIES, "LP");
            /* Without DUMMIES the 0-byte transfers are faults, unless there are none. */
            char why[200];
            int err = hr__sched_check_flags(&s, com, HR_SCHED_PERM, why, sizeof why);
            ck_assert_int_eq(err, dens[b] == 1000 ? HR_OK : HR_EINVAL);
            hr__sched_free(&s);
            free(com);
        }
    /* p not a power of two: P2 - 1 steps, idle pairs left out; p = 1: nothing. */
    uint64_t none[25] = { 0 };
    hr_sched s;
    sched_of(5, none, HR_PERM_LP, 1.0, 0, 1, &s);
    ck_assert_int_eq(s.nsteps, 7);
    assert_valid(&s, none, HR_SCHED_PERM | HR_SCHED_PAIRS | HR_SCHED_DUMMIES, "LP p = 5");
    hr__sched_free(&s);
    sched_of(1, none, HR_PERM_LP, 1.0, 0, 1, &s);
    ck_assert_int_eq(s.nsteps, 0);
    hr__sched_free(&s);
}
END_TEST

/* ---- the heaps' order ---------------------------------------------------------------------- */

/* In every step of s: (a) a sender that sends while it has a strictly larger message left
 * (by remaining bytes; by original size when keep) sends it not because that message's
 * receiver is busy with another sender in the step (Figure 3: the heap gives the largest
 * first, a busy receiver's entry goes to S); only for heap variants. (b) A sender with a
 * message left that sends nothing finds every one of its receivers busy (the loop tries them
 * all): every variant. */
static void assert_greedy_order(const hr_sched *s, const uint64_t *com, int heap, int keep)
{
    int p = s->p;
    uint64_t *rem = malloc((size_t)p * p * sizeof *rem);
    int *from = malloc((size_t)p * sizeof *from), *to = malloc((size_t)p * sizeof *to);
    ck_assert(rem && from && to);
    for (size_t m = 0; m < (size_t)p * p; m++)
        rem[m] = m / (size_t)p == m % (size_t)p ? 0 : com[m];
    for (int st = 0; st < s->nsteps; st++) {
        for (int i = 0; i < p; i++)
            from[i] = to[i] = -1;
        for (size_t e = s->start[st]; e < s->start[st + 1]; e++)
            from[s->xfer[e].dst] = s->xfer[e].src, to[s->xfer[e].src] = s->xfer[e].dst;
        for (int j = 0; j < p; j++) {
            const uint64_t *r = rem + (size_t)j * p;
            for (int k = 0; k < p; k++) {
                if (!r[k])
                    continue;
                if (to[j] < 0)
                    ck_assert_msg(from[k] >= 0, "step %d: %d idles while %d is free", st + 1, j, k);
                else if (heap && (keep ? com[(size_t)j * p + k] > com[(size_t)j * p + to[j]]
                                       : r[k] > r[to[j]]))
                    ck_assert_msg(from[k] >= 0 && from[k] != j,
                                  "step %d: %d sends %llu to %d before %llu to free %d", st + 1, j,
                                  (unsigned long long)r[to[j]], to[j], (unsigned long long)r[k], k);
            }
        }
        for (size_t e = s->start[st]; e < s->start[st + 1]; e++)
            rem[(size_t)s->xfer[e].src * p + s->xfer[e].dst] -= s->xfer[e].bytes;
    }
    free(rem);
    free(from);
    free(to);
}

START_TEST(test_perm_heap_order)
{
    /* Hand-made: sender 0 alone, 10 B to 1, 50 B to 2, 30 B to 3. Its receivers are always
     * free, so a heap sends 50, then 30, then 10, whatever the seed; lambda 3/4 of one message
     * a permutation is that message whole (ceil(0.75 * 1) = 1). */
    uint64_t com[16] = { 0 };
    com[0 * 4 + 1] = 10, com[0 * 4 + 2] = 50, com[0 * 4 + 3] = 30;
    static const hr_perm_variant heaps[] = { HR_PERM_CGM_HEAP, HR_PERM_CGMH_FIXED,
                                             HR_PERM_CGMH_MS, HR_PERM_CGMH_BJ };
    for (size_t v = 0; v < 4; v++)
        for (int nr = 0; nr < 2; nr++)
            for (uint64_t sd = 1; sd <= 5; sd++) {
                hr_sched s;
                sched_of(4, com, heaps[v], 0.75, nr, sd, &s);
                ck_assert_int_eq(s.nsteps, 3);
                static const int want[3] = { 2, 3, 1 };
                for (int st = 0; st < 3; st++) {
                    ck_assert_uint_eq(s.start[st + 1] - s.start[st], 1);
                    ck_assert_int_eq(s.xfer[s.start[st]].dst, want[st]);
                    ck_assert_uint_eq(s.xfer[s.start[st]].bytes, com[want[st]]);
                }
                hr__sched_free(&s);
            }

    /* Two senders whose largest messages both go to 2: 0 has 100 B for 2 and 5 B for 3; 1 has
     * 90 B for 2 and 4 B for 3. In step 1 the first of them the loop visits takes 2 with its
     * largest, the other finds 2 busy and sends its 3-message; step 2 swaps them. */
    uint64_t two[16] = { 0 };
    two[0 * 4 + 2] = 100, two[0 * 4 + 3] = 5, two[1 * 4 + 2] = 90, two[1 * 4 + 3] = 4;
    for (uint64_t sd = 1; sd <= 8; sd++) {
        hr_sched s;
        sched_of(4, two, HR_PERM_CGM_HEAP, 1.0, 0, sd, &s);
        ck_assert_int_eq(s.nsteps, 2);
        ck_assert_uint_eq(s.start[1], 2);
        const hr_xfer *x = s.xfer;
        ck_assert(x[0].src == 0 && x[1].src == 1);
        ck_assert((x[0].dst == 2 && x[1].dst == 3) || (x[0].dst == 3 && x[1].dst == 2));
        ck_assert(s.xfer[2].dst == x[1].dst && s.xfer[3].dst == x[0].dst);
        assert_greedy_order(&s, two, 1, 0);
        hr__sched_free(&s);
    }

    /* The same two properties on random patterns, every variant (order: heap variants). */
    uint64_t seed = 11;
    for (int rep = 0; rep < 20; rep++) {
        int p = rep < 10 ? 8 : 32;
        uint64_t *r = random_pattern(p, rep % 2 ? 300 : 800, 1000, splitmix64(&seed));
        for (size_t v = 1; v < NVAR; v++) {
            hr_sched s;
            hr_perm_opts o = hr__perm_opts_default(all_variants[v]);
            o.no_reset = rep % 3 == 0, o.keep_place = rep % 2, o.seed = splitmix64(&seed);
            ck_assert_int_eq(hr__perm_schedule(p, r, &o, &s), HR_OK);
            int heap = all_variants[v] != HR_PERM_CGM && all_variants[v] != HR_PERM_CGM_SORT;
            assert_greedy_order(&s, r, heap, o.keep_place);
            assert_valid(&s, r, flags_of(all_variants[v]), "keep_place");
            hr__sched_free(&s);
        }
        free(r);
    }
}
END_TEST

START_TEST(test_perm_keep_place)
{
    /* 0 -> 4 10 B, 1 -> 5 20 B, 2 -> 6 30 B, 3 -> 7 40 B and 3 -> 6 35 B; lambda = 3/4, no
     * resetting. Step 1: 3 sends its largest, 40 to 7; c = 4, M_eff = 30, so 30 of 40 goes and
     * 10 B are left for 7. Step 2: by remaining bytes 3 sends 35 to 6 (6 is free: 2 is done);
     * with keep_place the remainder keeps the 40-byte message's place and goes to 7. */
    uint64_t com[64] = { 0 };
    com[0 * 8 + 4] = 10, com[1 * 8 + 5] = 20, com[2 * 8 + 6] = 30, com[3 * 8 + 7] = 40;
    com[3 * 8 + 6] = 35;
    for (int keep = 0; keep < 2; keep++)
        for (uint64_t sd = 1; sd <= 4; sd++) {
            hr_perm_opts o = hr__perm_opts_default(HR_PERM_CGMH_FIXED);
            o.no_reset = 1, o.keep_place = keep, o.seed = sd;
            hr_sched s;
            ck_assert_int_eq(hr__perm_schedule(8, com, &o, &s), HR_OK);
            ck_assert_int_eq(s.nsteps, 3);
            ck_assert_uint_eq(s.start[1], 4);
            ck_assert(s.xfer[3].src == 3 && s.xfer[3].dst == 7 && s.xfer[3].bytes == 30);
            ck_assert_uint_eq(s.start[2], 5);
            ck_assert_int_eq(s.xfer[4].dst, keep ? 7 : 6);
            ck_assert_uint_eq(s.xfer[4].bytes, keep ? 10 : 35);
            assert_valid(&s, com, HR_SCHED_PERM | HR_SCHED_SPLITS, "keep_place");
            hr__sched_free(&s);
        }
}
END_TEST

START_TEST(test_perm_cgm_sort_first_step)
{
    /* CGM+sort sorts each sender's list once: in step 1, with no receiver contested, each
     * sender sends its largest message. Senders 0, 1 have disjoint receivers. */
    uint64_t com[36] = { 0 };
    com[0 * 6 + 2] = 3, com[0 * 6 + 3] = 9, com[1 * 6 + 4] = 8, com[1 * 6 + 5] = 20;
    for (uint64_t sd = 1; sd <= 6; sd++) {
        hr_sched s;
        sched_of(6, com, HR_PERM_CGM_SORT, 1.0, 0, sd, &s);
        ck_assert_int_eq(s.nsteps, 2);
        ck_assert_int_eq(s.xfer[0].dst, 3);
        ck_assert_int_eq(s.xfer[1].dst, 5);
        hr__sched_free(&s);
    }
}
END_TEST

START_TEST(test_perm_heap_is_fixed_one)
{
    /* CGM+heap is "CGMH+fixed with lambda = 1" (sec. 5.1 item 7): the same schedule. */
    uint64_t seed = 5;
    for (int rep = 0; rep < 6; rep++) {
        uint64_t *com = appendix_d(32, 4 + 4 * rep, 32, splitmix64(&seed));
        hr_sched a, b;
        uint64_t sd = splitmix64(&seed);
        sched_of(32, com, HR_PERM_CGM_HEAP, 1.0, 0, sd, &a);
        sched_of(32, com, HR_PERM_CGMH_FIXED, 1.0, rep % 2, sd, &b);
        ck_assert(same_sched(&a, &b));
        ck_assert_uint_eq(count_partial(&b, com), 0);
        hr__sched_free(&a);
        hr__sched_free(&b);
        free(com);
    }
}
END_TEST

/* ---- lambda and its resetting ------------------------------------------------------------- */

/* The reset zone starts before the first step at which d* <= max(2, d / 16): left <= 2n or
 * 16 left <= msgs (left: messages not yet wholly sent). Returns that step (0-based; nsteps if
 * never) and, in *before and *after, the partial transfers before it and from it on. */
static int reset_zone(const hr_sched *s, const uint64_t *com, size_t *before, size_t *after)
{
    int p = s->p;
    uint64_t *rem = malloc((size_t)p * p * sizeof *rem);
    ck_assert_ptr_nonnull(rem);
    size_t msgs = 0;
    for (size_t m = 0; m < (size_t)p * p; m++) {
        rem[m] = m / (size_t)p == m % (size_t)p ? 0 : com[m];
        msgs += rem[m] != 0;
    }
    size_t left = msgs;
    int zone = s->nsteps;
    *before = *after = 0;
    for (int st = 0; st < s->nsteps; st++) {
        if (zone == s->nsteps && (left <= 2 * (size_t)p || 16 * left <= msgs))
            zone = st;
        for (size_t e = s->start[st]; e < s->start[st + 1]; e++) {
            const hr_xfer *x = &s->xfer[e];
            size_t m = (size_t)x->src * p + x->dst;
            if (x->bytes < rem[m])
                ++*(zone <= st ? after : before);
            rem[m] -= x->bytes;
            left -= rem[m] == 0;
        }
    }
    free(rem);
    return zone;
}

START_TEST(test_perm_lambda_reset)
{
    /* Hand-made: the complete pattern of 8 processors (d = 7), every message a distinct size,
     * lambda = 3/4. Before d* <= max(2, 7/16) = 2 both split (a permutation of c >= 4 distinct
     * sizes sends ceil(3c/4) < c whole); from then on, with resetting nothing is split, and
     * without it splitting goes on. lambda counts the permutation's messages here (base
     * messages): counted against the senders or n, a short permutation of the tail sends all
     * whole anyway (test_perm_lambda_base). */
    uint64_t com[64];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            com[i * 8 + j] = i == j ? 0 : 1000 + (uint64_t)((i * 37 + j * 11) % 64) * 13;
    for (uint64_t sd = 1; sd <= 6; sd++) {
        size_t pre, post;
        hr_sched s;
        hr_perm_opts o = hr__perm_opts_default(HR_PERM_CGMH_FIXED);
        o.base = HR_PERM_BASE_MESSAGES;
        o.seed = sd;
        ck_assert_int_eq(hr__perm_schedule(8, com, &o, &s), HR_OK);
        int zone = reset_zone(&s, com, &pre, &post);
        ck_assert_int_lt(zone, s.nsteps);
        ck_assert_uint_gt(pre, 0);
        ck_assert_uint_eq(post, 0);
        hr__sched_free(&s);

        o.no_reset = 1;
        ck_assert_int_eq(hr__perm_schedule(8, com, &o, &s), HR_OK);
        zone = reset_zone(&s, com, &pre, &post);
        ck_assert_int_lt(zone, s.nsteps);
        ck_assert_uint_gt(pre, 0);
        ck_assert_msg(post > 0, "seed %llu: no split after the reset point without resetting",
                      (unsigned long long)sd);
        hr__sched_free(&s);
    }

    /* MS and BJ reset too; with resetting, random Appendix-D patterns never split in the zone. */
    uint64_t seed = 3;
    static const hr_perm_variant v[] = { HR_PERM_CGMH_FIXED, HR_PERM_CGMH_MS, HR_PERM_CGMH_BJ };
    for (int rep = 0; rep < 9; rep++) {
        uint64_t *r = appendix_d(32, 8 * (1 + rep % 3), 32, splitmix64(&seed));
        hr_sched s;
        size_t pre, post;
        sched_of(32, r, v[rep % 3], 0.75, 0, splitmix64(&seed), &s);
        reset_zone(&s, r, &pre, &post);
        ck_assert_uint_eq(post, 0);
        hr__sched_free(&s);
        free(r);
    }
}
END_TEST

START_TEST(test_perm_uniform_no_split)
{
    /* Equal sizes: M_eff is that size, so no CGMH variant splits, and the schedule has the
     * number of steps CGM+heap has. */
    uint64_t seed = 9;
    for (int rep = 0; rep < 6; rep++) {
        uint64_t *com = appendix_d(32, 4 << (rep % 3), 1, splitmix64(&seed));
        for (size_t v = 0; v < NVAR; v++) {
            hr_sched s;
            sched_of(32, com, all_variants[v], 0.75, 0, (uint64_t)rep, &s);
            ck_assert_uint_eq(count_partial(&s, com), 0);
            hr__sched_free(&s);
        }
        free(com);
    }
}
END_TEST

START_TEST(test_perm_decide_size_fixed)
{
    /* Four senders to four distinct receivers, 10, 20, 30, 40 B: one permutation. lambda =
     * 3/4 sends ceil(3) = 3 whole, M_eff = 30: 40 goes as 30 + 10. lambda = 1/2: M_eff = 20,
     * 30 as 20 + 10, 40 as 20 + 20. lambda = 1: all whole. Resetting off (d = 1 < 2 would reset
     * at once). */
    uint64_t com[64] = { 0 };
    com[0 * 8 + 4] = 10, com[1 * 8 + 5] = 20, com[2 * 8 + 6] = 30, com[3 * 8 + 7] = 40;
    static const struct { double lambda; int steps; uint64_t first[4]; } c[] = {
        { 0.75, 2, { 10, 20, 30, 30 } },
        { 0.5, 3, { 10, 20, 20, 20 } }, /* then 10 of 20 left (ceil(0.5 * 2) = 1), then 10 */
        { 0.25, 4, { 10, 10, 10, 10 } },
        { 1.0, 1, { 10, 20, 30, 40 } },
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        hr_sched s;
        sched_of(8, com, HR_PERM_CGMH_FIXED, c[k].lambda, 1, 1, &s);
        ck_assert_int_eq(s.nsteps, c[k].steps);
        ck_assert_uint_eq(s.start[1], 4);
        for (int i = 0; i < 4; i++)
            ck_assert_uint_eq(s.xfer[i].bytes, c[k].first[i]);
        assert_valid(&s, com, HR_SCHED_PERM | HR_SCHED_SPLITS, "Decide_Size");
        hr__sched_free(&s);
        /* With resetting on, d = 1/2 <= 2 from the start: no split at all. */
        sched_of(8, com, HR_PERM_CGMH_FIXED, c[k].lambda, 0, 1, &s);
        ck_assert_int_eq(s.nsteps, 1);
        hr__sched_free(&s);
    }

    /* MS and BJ on the same permutation, tau / phi = 0 (bytes cost all): every Gain_k = -dM_k
     * <= 0; MS keeps lambda_0 (r0 = 3, M_eff = 30); BJ's largest Gain is the last, Gain_K = 0
     * (dM = 0 past lambda = 1): lambda = 1, no split. tau / phi huge: MS goes to lambda = 1. */
    hr_perm_opts o = hr__perm_opts_default(HR_PERM_CGMH_MS);
    o.no_reset = 1;
    o.tau = 0.0;
    hr_sched s;
    ck_assert_int_eq(hr__perm_schedule(8, com, &o, &s), HR_OK);
    ck_assert_int_eq(s.nsteps, 2);
    ck_assert_uint_eq(s.xfer[3].bytes, 30);
    hr__sched_free(&s);
    o.variant = HR_PERM_CGMH_BJ;
    ck_assert_int_eq(hr__perm_schedule(8, com, &o, &s), HR_OK);
    ck_assert_int_eq(s.nsteps, 1);
    hr__sched_free(&s);
    o.variant = HR_PERM_CGMH_MS;
    o.tau = 1.0;
    ck_assert_int_eq(hr__perm_schedule(8, com, &o, &s), HR_OK);
    ck_assert_int_eq(s.nsteps, 1);
    hr__sched_free(&s);
}
END_TEST

/* What lambda counts against (o->base), by hand. Six senders on eight processors, one message
 * each: 0, 1 and 2 all to 7 (100, 200, 300 B), 3 -> 4 (10 B), 4 -> 5 (20 B), 5 -> 6 (40 B);
 * lambda = 1/2, no resetting (d < 2 would reset at once). Whatever the random start, the first
 * permutation has c = 4 messages, 10, 20, 40 and one of 0, 1, 2's whole s to 7, from 6 senders
 * holding messages, of n = 8:
 * - messages (N = c = 4): ceil(2) = 2 go whole, M_eff = 20; 40 goes as 20 + 20 and s as 20 +
 *   rest. Then 5's 20 and a message to 7 (c = 2: M_eff = 20, its smaller), then the three
 *   parts left to 7 whole, one a permutation (c = 1): 5 permutations.
 * - senders (N = 6): ceil(3) = 3 go whole, M_eff = 40: s sends 40; then the three left to 7
 *   (c = 1, from 3 senders: ceil(1.5) = 2 >= c, whole): 4 permutations.
 * - processors (N = 8): ceil(4) = 4 >= c: all whole; then the two left to 7: 3 permutations.
 * MS with tau = 0 (Gain_k = -dM_k) starts at rank ceil(3N/4): N = 4 gives rank 3 (M_eff = 40,
 * the transfer to 7 is 40 B); N = 6 and 8 give ranks 5 and 6 >= c: all whole. BJ with tau /
 * phi = 2e7 B: for N = 4, Gain_0 = 2e7/3 - (s - 40) beats Gain_1 = 2e7/4, so lambda stays at
 * rank 3 and s sends 40 (then three whole parts to 7: 4 permutations); N = 6 and 8: all whole. */
START_TEST(test_perm_lambda_base)
{
    uint64_t com[64] = { 0 };
    com[0 * 8 + 7] = 100, com[1 * 8 + 7] = 200, com[2 * 8 + 7] = 300;
    com[3 * 8 + 4] = 10, com[4 * 8 + 5] = 20, com[5 * 8 + 6] = 40;
    static const struct {
        hr_perm_variant v;
        hr_perm_base base;
        int steps;
        uint64_t to6, to7; /* step 1's bytes to 6 and to 7 (0: the whole message) */
        double tau;
    } c[] = {
        { HR_PERM_CGMH_FIXED, HR_PERM_BASE_MESSAGES, 5, 20, 20, 0.0 },
        { HR_PERM_CGMH_FIXED, HR_PERM_BASE_SENDERS, 4, 40, 40, 0.0 },
        { HR_PERM_CGMH_FIXED, HR_PERM_BASE_PROCS, 3, 40, 0, 0.0 },
        { HR_PERM_CGMH_MS, HR_PERM_BASE_MESSAGES, 4, 40, 40, 0.0 },
        { HR_PERM_CGMH_MS, HR_PERM_BASE_SENDERS, 3, 40, 0, 0.0 },
        { HR_PERM_CGMH_MS, HR_PERM_BASE_PROCS, 3, 40, 0, 0.0 },
        { HR_PERM_CGMH_BJ, HR_PERM_BASE_MESSAGES, 4, 40, 40, 1.0 },
        { HR_PERM_CGMH_BJ, HR_PERM_BASE_SENDERS, 3, 40, 0, 1.0 },
        { HR_PERM_CGMH_BJ, HR_PERM_BASE_PROCS, 3, 40, 0, 1.0 },
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++)
        for (uint64_t seed = 1; seed <= 8; seed++) {
            hr_perm_opts o = hr__perm_opts_default(c[k].v);
            o.lambda = 0.5;
            o.no_reset = 1;
            o.tau = c[k].tau;
            o.phi = 5e-8;
            o.base = c[k].base;
            o.seed = seed;
            hr_sched s;
            ck_assert_int_eq(hr__perm_schedule(8, com, &o, &s), HR_OK);
            ck_assert_msg(s.nsteps == c[k].steps, "case %zu, seed %" PRIu64 ": %d permutations, "
                          "want %d", k, seed, s.nsteps, c[k].steps);
            ck_assert_uint_eq(s.start[1], 4);
            for (size_t e = 0; e < s.start[1]; e++) {
                const hr_xfer *x = &s.xfer[e];
                uint64_t whole = com[(size_t)x->src * 8 + x->dst];
                uint64_t want = x->dst == 6 ? c[k].to6 : x->dst == 7 ? c[k].to7 : 0;
                ck_assert_msg(x->bytes == (want ? want : whole), "case %zu, seed %" PRIu64
                              ": %d -> %d sends %" PRIu64 " B", k, seed, x->src, x->dst, x->bytes);
            }
            assert_valid(&s, com, HR_SCHED_PERM | HR_SCHED_SPLITS, "lambda's base");
            assert_bytes_once(&s, com);
            hr__sched_free(&s);
        }
}
END_TEST

/* ---- bounds, determinism, arguments -------------------------------------------------------- */

START_TEST(test_perm_d_regular)
{
    /* Appendix-D patterns: every variant needs at least max_degree permutations (a processor
     * sends or receives one message a step), and that is d unless every row and column lost
     * its diagonal entry. d = 1 (a permutation): exactly 1 step. With uniform sizes CGM is
     * NOT exactly d in general (a greedy maximal matching, Theorem 2: about n / (d + 1) entries
     * a permutation go unmatched): only >= d is asserted; HREMU_PERM_TABLES prints the
     * distribution. */
    static const int ds[] = { 1, 2, 4, 8, 16 };
    for (size_t a = 0; a < sizeof ds / sizeof ds[0]; a++)
        for (uint64_t sd = 1; sd <= 4; sd++) {
            int n = 32, d = ds[a];
            uint64_t *com = appendix_d(n, d, sd % 2 ? 1 : (uint64_t)n, sd);
            int lower = max_degree(n, com);
            ck_assert_int_eq(lower, d);
            for (size_t v = 1; v < NVAR; v++) {
                hr_sched s;
                sched_of(n, com, all_variants[v], 0.9375, 0, sd, &s);
                ck_assert_int_ge(s.nsteps, d);
                if (d == 1)
                    ck_assert_int_eq(s.nsteps, 1);
                hr__sched_free(&s);
            }
            free(com);
        }
}
END_TEST

START_TEST(test_perm_deterministic)
{
    uint64_t *com = appendix_d(32, 8, 32, 77);
    for (size_t v = 0; v < NVAR; v++) {
        hr_sched a, b;
        sched_of(32, com, all_variants[v], 0.75, 0, 1234, &a);
        sched_of(32, com, all_variants[v], 0.75, 0, 1234, &b);
        ck_assert(same_sched(&a, &b));
        hr__sched_free(&b);
        /* Another seed: LP has no random choice; the others differ for some seed. */
        int differ = 0;
        for (uint64_t sd = 1; sd <= 8 && !differ; sd++) {
            sched_of(32, com, all_variants[v], 0.75, 0, sd, &b);
            differ = !same_sched(&a, &b);
            hr__sched_free(&b);
        }
        ck_assert_int_eq(differ, all_variants[v] != HR_PERM_LP);
        hr__sched_free(&a);
    }
    free(com);
}
END_TEST

START_TEST(test_perm_args)
{
    uint64_t com[4] = { 0, 5, 6, 0 };
    hr_perm_opts o = hr__perm_opts_default(HR_PERM_CGMH_FIXED);
    hr_sched s = { .p = -7 }, keep = s;
    ck_assert_int_eq(hr__perm_schedule(0, com, &o, &s), HR_EINVAL);
    ck_assert_int_eq(hr__perm_schedule(2, NULL, &o, &s), HR_EINVAL);
    ck_assert_int_eq(hr__perm_schedule(2, com, NULL, &s), HR_EINVAL);
    ck_assert_int_eq(hr__perm_schedule(2, com, &o, NULL), HR_EINVAL);
    ck_assert_int_eq(hr__perm_schedule(HR_SCHED_MAX_P + 1, com, &o, &s), HR_ERANGE);
    o.lambda = 0.0;
    ck_assert_int_eq(hr__perm_schedule(2, com, &o, &s), HR_EINVAL);
    o.lambda = 1.5;
    ck_assert_int_eq(hr__perm_schedule(2, com, &o, &s), HR_EINVAL);
    o.lambda = NAN;
    ck_assert_int_eq(hr__perm_schedule(2, com, &o, &s), HR_EINVAL);
    o = hr__perm_opts_default(HR_PERM_CGMH_MS);
    o.phi = 0.0;
    ck_assert_int_eq(hr__perm_schedule(2, com, &o, &s), HR_EINVAL);
    o = hr__perm_opts_default(HR_PERM_CGMH_BJ);
    o.tau = -1.0;
    ck_assert_int_eq(hr__perm_schedule(2, com, &o, &s), HR_EINVAL);
    o.variant = HR_PERM_NVARIANTS;
    ck_assert_int_eq(hr__perm_schedule(2, com, &o, &s), HR_EINVAL);
    o = hr__perm_opts_default(HR_PERM_CGMH_FIXED);
    o.base = HR_PERM_NBASES;
    ck_assert_int_eq(hr__perm_schedule(2, com, &o, &s), HR_EINVAL);
    ck_assert_ptr_null(hr__perm_name(HR_PERM_NVARIANTS));
    ck_assert_int_eq(s.p, keep.p);
    /* lambda is not looked at outside CGMH fixed; nor tau, phi outside MS and BJ. */
    o = hr__perm_opts_default(HR_PERM_CGM);
    o.lambda = -1, o.phi = 0;
    ck_assert_int_eq(hr__perm_schedule(2, com, &o, &s), HR_OK);
    ck_assert_int_eq(s.nsteps, 1);
    hr__sched_free(&s);
    for (size_t v = 0; v < NVAR; v++)
        ck_assert_ptr_nonnull(hr__perm_name(all_variants[v]));
}
END_TEST

/* ---- the checker's flags and the printer's bytes ------------------------------------------- */


static void assert_broken(const hr_sched *s, const uint64_t *com, unsigned flags,
                          const char *needle)
{
    char why[200];
    ck_assert_int_eq(hr__sched_check_flags(s, com, flags, why, sizeof why), HR_EINVAL);
    ck_assert_msg(strstr(why, needle), "why = \"%s\", expected \"%s\" in it", why, needle);
}

START_TEST(test_perm_check_flags)
{
    /* Pattern: 0 -> 1 300 B, 2 -> 3 7 B, 1 -> 2 12 B. */
    uint64_t com[16] = { 0 };
    com[0 * 4 + 1] = 300, com[2 * 4 + 3] = 7, com[1 * 4 + 2] = 12;
    handmade h;

    /* 300 as 100 + 200: SPLITS only. */
    static const size_t st_split[] = { 0, 2, 4 };
    static const hr_xfer x_split[] = { { 0, 1, 100 }, { 2, 3, 7 }, { 0, 1, 200 }, { 1, 2, 12 } };
    make(&h, 4, 2, st_split, x_split);
    assert_valid(&h.s, com, HR_SCHED_PERM | HR_SCHED_SPLITS, "split");
    assert_broken(&h.s, com, HR_SCHED_PERM, "carries 100 bytes, the pattern 300");
    /* Parts short of, or past, the message. */
    static const hr_xfer x_short[] = { { 0, 1, 100 }, { 2, 3, 7 }, { 0, 1, 199 }, { 1, 2, 12 } };
    make(&h, 4, 2, st_split, x_short);
    assert_broken(&h.s, com, HR_SCHED_SPLITS, "0 -> 1: its parts sum to 299 of 300 bytes");
    static const hr_xfer x_over[] = { { 0, 1, 100 }, { 2, 3, 7 }, { 0, 1, 201 }, { 1, 2, 12 } };
    make(&h, 4, 2, st_split, x_over);
    assert_broken(&h.s, com, HR_SCHED_SPLITS, "step 2: 0 -> 1: its parts reach 301 bytes");
    /* A part of 0 bytes is no part, even with DUMMIES (the pattern has the message). */
    static const size_t st_zero[] = { 0, 2, 5 };
    static const hr_xfer x_zero[] = { { 0, 1, 100 }, { 2, 3, 7 }, { 0, 1, 200 }, { 1, 2, 12 },
                                      { 2, 3, 0 } };
    make(&h, 4, 2, st_zero, x_zero);
    assert_broken(&h.s, com, HR_SCHED_SPLITS | HR_SCHED_DUMMIES, "2 -> 3 carries 0 bytes");

    /* A dummy where the pattern is empty (3 -> 2): DUMMIES only. */
    static const size_t st_dummy[] = { 0, 3, 4 };
    static const hr_xfer x_dummy[] = { { 0, 1, 300 }, { 2, 3, 7 }, { 3, 2, 0 }, { 1, 2, 12 } };
    make(&h, 4, 2, st_dummy, x_dummy);
    assert_valid(&h.s, com, HR_SCHED_PERM | HR_SCHED_PAIRS | HR_SCHED_DUMMIES, "dummy");
    assert_broken(&h.s, com, HR_SCHED_PERM, "step 1: 3 -> 2 carries 0 bytes");
    /* Bytes where the pattern has nothing are a fault in any case. */
    static const hr_xfer x_bogus[] = { { 0, 1, 300 }, { 2, 3, 7 }, { 3, 2, 5 }, { 1, 2, 12 } };
    make(&h, 4, 2, st_dummy, x_bogus);
    assert_broken(&h.s, com, HR_SCHED_DUMMIES, "carries 5 bytes, the pattern 0");
    assert_broken(&h.s, com, HR_SCHED_SPLITS, "its parts reach 5 bytes, the pattern 0");

    /* PERM: two sends of one processor, two receives of one. Without PERM (LS's kind) fine. */
    uint64_t fan[16] = { 0 };
    fan[1 * 4 + 0] = 1, fan[1 * 4 + 2] = 2, fan[3 * 4 + 2] = 3;
    static const size_t st_one[] = { 0, 2 };
    static const hr_xfer x_out[] = { { 1, 0, 1 }, { 1, 2, 2 } };
    make(&h, 4, 1, st_one, x_out);
    assert_broken(&h.s, fan, HR_SCHED_PERM, "step 1: 1 sends twice (to 0 and 2)");
    static const hr_xfer x_in[] = { { 1, 2, 2 }, { 3, 2, 3 } };
    make(&h, 4, 1, st_one, x_in);
    assert_broken(&h.s, fan, HR_SCHED_PERM, "step 1: 2 receives twice (from 1 and 3)");
    static const size_t st_all[] = { 0, 3 };
    static const hr_xfer x_all[] = { { 1, 0, 1 }, { 1, 2, 2 }, { 3, 2, 3 } };
    make(&h, 4, 1, st_all, x_all);
    assert_valid(&h.s, fan, 0, "not a permutation, not asked");
    /* A permutation that is not pairs: 0 -> 1 -> 2 -> 0. */
    uint64_t cyc[9] = { 0, 1, 0, 0, 0, 1, 1, 0, 0 };
    static const size_t st_cyc[] = { 0, 3 };
    static const hr_xfer x_cyc[] = { { 0, 1, 1 }, { 1, 2, 1 }, { 2, 0, 1 } };
    make(&h, 3, 1, st_cyc, x_cyc);
    assert_valid(&h.s, cyc, HR_SCHED_PERM, "cycle");
    assert_broken(&h.s, cyc, HR_SCHED_PERM | HR_SCHED_PAIRS, "two pairs");

    /* Unknown flags; hr__sched_check is the PAIRS case word for word. */
    assert_broken(&h.s, cyc, 1u << 9, "unknown flags");
    char w1[200], w2[200];
    ck_assert_int_eq(hr__sched_check(&h.s, cyc, 1, w1, sizeof w1), HR_EINVAL);
    ck_assert_int_eq(hr__sched_check_flags(&h.s, cyc, HR_SCHED_PAIRS, w2, sizeof w2), HR_EINVAL);
    ck_assert_str_eq(w1, w2);
    ck_assert_int_eq(hr__sched_check(&h.s, cyc, 0, NULL, 0), HR_OK);
}
END_TEST

static char *print_to_string(const hr_sched *s, unsigned opts)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(hr__sched_print_opts(s, opts, f), HR_OK);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

START_TEST(test_perm_print_bytes)
{
    handmade h;
    static const size_t st[] = { 0, 3, 5 };
    static const hr_xfer x[] = { { 0, 1, 100 }, { 1, 0, 7 }, { 2, 3, 128 }, { 0, 1, 200 },
                                 { 3, 2, 0 } };
    make(&h, 4, 2, st, x);
    char *txt = print_to_string(&h.s, HR_SCHED_PRINT_BYTES);
    ck_assert_str_eq(txt, "step 1: 0 -> 1 (100 of 300 B), 1 -> 0 (7 B), 2 -> 3 (128 B)\n"
                          "step 2: 0 -> 1 (200 of 300 B), 3 -> 2 (dummy)\n");
    free(txt);
    /* Without the option: hr__sched_print's text. */
    txt = print_to_string(&h.s, 0);
    ck_assert_str_eq(txt, "step 1: 0 <-> 1, 2 -> 3\n"
                          "step 2: 0 -> 1, 3 -> 2\n");
    free(txt);

    /* LP on 4 processors, one message 0 -> 3: pairings as before, dummies in the bytes. */
    uint64_t com[16] = { 0 };
    com[0 * 4 + 3] = 9;
    hr_sched s;
    sched_of(4, com, HR_PERM_LP, 1.0, 0, 1, &s);
    txt = print_to_string(&s, 0);
    ck_assert_str_eq(txt, "step 1: 0 <-> 1, 2 <-> 3\n"
                          "step 2: 0 <-> 2, 1 <-> 3\n"
                          "step 3: 0 <-> 3, 1 <-> 2\n");
    free(txt);
    txt = print_to_string(&s, HR_SCHED_PRINT_BYTES);
    ck_assert_str_eq(txt, "step 1: 0 -> 1 (dummy), 1 -> 0 (dummy), 2 -> 3 (dummy), 3 -> 2 (dummy)\n"
                          "step 2: 0 -> 2 (dummy), 1 -> 3 (dummy), 2 -> 0 (dummy), 3 -> 1 (dummy)\n"
                          "step 3: 0 -> 3 (9 B), 1 -> 2 (dummy), 2 -> 1 (dummy), 3 -> 0 (dummy)\n");
    free(txt);
    hr__sched_free(&s);
    ck_assert_int_eq(hr__sched_print_opts(&h.s, 1u << 5, stdout), HR_EINVAL);
    ck_assert_int_eq(hr__sched_print_opts(NULL, HR_SCHED_PRINT_BYTES, stdout), HR_EINVAL);

    /* The empty schedule prints nothing, with or without bytes. */
    uint64_t none[4] = { 0 };
    sched_of(2, none, HR_PERM_CGMH_FIXED, 0.75, 0, 1, &s);
    ck_assert_int_eq(s.nsteps, 0);
    txt = print_to_string(&s, HR_SCHED_PRINT_BYTES);
    ck_assert_str_eq(txt, "");
    free(txt);
    hr__sched_free(&s);
}
END_TEST

/* ---- seed 002's Tables 1 and 2, CGM on uniform sizes, timing (printed on request) ---------- */

/* Mean permutations of variant v over reps Appendix-D matrices (sizes 1 .. range). */
static double mean_steps(int n, int d, uint64_t range, hr_perm_variant v, double lambda,
                         int no_reset, int keep, hr_perm_base base, int reps, int *lo, int *hi,
                         int hist[64])
{
    double sum = 0;
    *lo = 1 << 30, *hi = 0;
    for (int r = 0; r < reps; r++) {
        uint64_t *com = appendix_d(n, d, range, 1000u * (uint64_t)d + (uint64_t)r + 1);
        hr_sched s;
        hr_perm_opts o = hr__perm_opts_default(v);
        o.lambda = lambda, o.no_reset = no_reset, o.keep_place = keep, o.seed = (uint64_t)r + 1;
        o.base = base;
        ck_assert_int_eq(hr__perm_schedule(n, com, &o, &s), HR_OK);
        sum += s.nsteps;
        *lo = s.nsteps < *lo ? s.nsteps : *lo;
        *hi = s.nsteps > *hi ? s.nsteps : *hi;
        if (hist && s.nsteps - d >= 0 && s.nsteps - d < 64)
            hist[s.nsteps - d]++;
        hr__sched_free(&s);
        free(com);
    }
    return sum / reps;
}

/* seed 002, Tables 1-2: n, d, lambda, the bounds d1 = d/lambda + lg d / lambda^2 (eq. 3) and
 * d2 = (15d / (16 lambda) + 4 / lambda^2) + (d/16 + lg(d/16)) (eq. 4) as printed, then the
 * paper's mean permutations with "resetting lambda" and with "no resetting". */
static const struct { int n, d; double lam, d1, d2, reset, noreset; } tables12[] = {
    { 32, 4, 0.75, 8.89, 10.36, 6.62, 8.46 },      { 32, 8, 0.75, 16.00, 16.61, 13.52, 15.34 },
    { 32, 16, 0.75, 28.44, 28.11, 26.00, 27.78 },  { 32, 32, 0.75, 51.56, 50.11, 48.86, 50.84 },
    { 32, 4, 0.9375, 6.54, 6.80, 6.02, 6.42 },     { 32, 8, 0.9375, 11.95, 12.05, 11.02, 11.42 },
    { 32, 16, 0.9375, 21.62, 21.55, 20.34, 20.72 }, { 32, 32, 0.9375, 39.82, 39.55, 37.76, 38.00 },
    { 32, 4, 0.96875, 6.26, 6.38, 5.72, 6.12 },    { 32, 8, 0.96875, 11.45, 11.50, 10.54, 10.96 },
    { 32, 16, 0.96875, 20.78, 20.75, 19.38, 19.72 }, { 32, 32, 0.96875, 38.36, 38.23, 35.90, 36.24 },
    { 512, 64, 0.75, 96.00, 93.11, 99.86, 103.22 }, { 512, 128, 0.75, 183.11, 178.11, 189.26, 194.86 },
    { 512, 256, 0.75, 355.56, 347.11, 364.42, 374.20 }, { 512, 512, 0.75, 698.67, 684.11, 712.26, 728.74 },
    { 512, 64, 0.9375, 75.09, 74.55, 77.10, 77.88 }, { 512, 128, 0.9375, 144.50, 143.55, 148.04, 149.44 },
    { 512, 256, 0.9375, 282.17, 280.55, 288.12, 290.58 }, { 512, 512, 0.9375, 556.37, 553.55, 566.62, 570.38 },
    { 512, 64, 0.96875, 72.46, 72.20, 73.84, 74.16 }, { 512, 128, 0.96875, 139.59, 139.13, 142.02, 142.78 },
    { 512, 256, 0.96875, 272.78, 272.00, 277.08, 277.88 }, { 512, 512, 0.96875, 538.11, 536.75, 546.40, 547.34 },
};
#define NTABLES12 (sizeof tables12 / sizeof tables12[0])

/* Table 1 (n = 32) as irreg.cgmh_fixed schedules it (the remainder of a split message at the
 * place of its whole size: irreg.c's keep_place): within 12% of the paper's mean permutations
 * in every row, with resetting and without, over 20 Appendix-D matrices a row (the paper
 * averages 50); the bounds of eq. 3 and 4 as the paper prints them; and never fewer
 * permutations than the d messages a sender has. With HREMU_PERM_TABLES=N set it also prints
 * both tables over N matrices a row (Table 2's n = 512 rows over N/5), in both readings of the
 * remainder's place, CGM's extra permutations on uniform sizes and each scheduler's wall time. */
START_TEST(test_perm_tables)
{
    for (size_t k = 0; k < NTABLES12; k++) {
        double l = tables12[k].lam, d = tables12[k].d;
        double d1 = d / l + log2(d) / (l * l);
        double d2 = (15 * d / (16 * l) + 4 / (l * l)) + (d / 16 + log2(d / 16));
        ck_assert_msg(fabs(d1 - tables12[k].d1) < 0.006 && fabs(d2 - tables12[k].d2) < 0.006,
                      "row %zu: eq. 3 gives %.3f, eq. 4 %.3f; the paper prints %.2f, %.2f", k,
                      d1, d2, tables12[k].d1, tables12[k].d2);
        if (tables12[k].n != 32)
            continue;
        for (int w = 0; w < 2; w++) {
            int lo, hi;
            /* Both readings of lambda that Table 1 supports (docs/seed002.md): counted
             * against the permutation's messages within 12 %, against the senders (the
             * default) within 16 % and below the paper's but for 5 % (measured on these 20
             * matrices: at most 11.8 % and 15.1 % off, the latter at d = 4). */
            static const struct { hr_perm_base base; double below, above; } rd[2] = {
                { HR_PERM_BASE_MESSAGES, 0.12, 0.12 }, { HR_PERM_BASE_SENDERS, 0.16, 0.05 } };
            double paper = w ? tables12[k].noreset : tables12[k].reset;
            for (int b = 0; b < 2; b++) {
                double m = mean_steps(32, tables12[k].d, 32, HR_PERM_CGMH_FIXED, l, w, 1,
                                      rd[b].base, 20, &lo, &hi, NULL);
                ck_assert_int_ge(lo, tables12[k].d);
                ck_assert_msg(m >= (1 - rd[b].below) * paper && m <= (1 + rd[b].above) * paper,
                              "Table 1, base %d, lambda %g, d %d, %s: %.2f permutations, the "
                              "paper %.2f", (int)rd[b].base, l, tables12[k].d,
                              w ? "no resetting" : "resetting", m, paper);
            }
        }
    }
    const char *env = getenv("HREMU_PERM_TABLES");
    if (env == NULL)
        return;
    int reps = atoi(env);
    reps = reps > 1 ? reps : 50;
    printf("seed 002 Tables 1-2: CGMH fixed lambda, mean permutations over %d Appendix-D matrices"
           " (sizes 1..n)\n", reps);
    printf("%5s %8s %4s | %7s %7s | %7s %7s | paper %7s %7s | ours %7s %7s | keep_place %7s %7s\n",
           "n", "lambda", "d", "d1", "d2", "d1", "d2", "reset", "noreset", "reset", "noreset",
           "reset", "noreset");
    for (size_t k = 0; k < NTABLES12; k++) {
        double l = tables12[k].lam, d = tables12[k].d;
        double d1 = d / l + log2(d) / (l * l);
        double d2 = (15 * d / (16 * l) + 4 / (l * l)) + (d / 16 + log2(d / 16));
        int lo, hi;
        int rr = tables12[k].n > 32 ? (reps + 4) / 5 : reps;
        double m[4];
        for (int w = 0; w < 4; w++)
            m[w] = mean_steps(tables12[k].n, tables12[k].d, (uint64_t)tables12[k].n,
                              HR_PERM_CGMH_FIXED, l, w & 1, w >> 1, HR_PERM_BASE_SENDERS, rr,
                              &lo, &hi, NULL);
        printf("%5d %8.5f %4d | %7.2f %7.2f | %7.2f %7.2f | paper %7.2f %7.2f | ours %7.2f %7.2f"
               " | keep_place %7.2f %7.2f  (%d matrices)\n",
               tables12[k].n, l, tables12[k].d, tables12[k].d1, tables12[k].d2, d1, d2,
               tables12[k].reset, tables12[k].noreset, m[0], m[1], m[2], m[3], rr);
        fflush(stdout);
    }

    /* CGM with uniform sizes (every message 1 byte): permutations beyond d. */
    printf("\nCGM, uniform sizes, Appendix-D matrices: permutations (min, mean, max; histogram of"
           " steps - d)\n");
    static const struct { int n, d; } u[] = { { 32, 4 }, { 32, 8 }, { 32, 16 }, { 32, 31 },
                                              { 512, 8 }, { 512, 32 } };
    for (size_t k = 0; k < sizeof u / sizeof u[0]; k++) {
        static const hr_perm_variant cv[] = { HR_PERM_CGM, HR_PERM_CGM_HEAP };
        for (int w = 0; w < 2; w++) {
            int lo, hi, hist[64] = { 0 };
            double m = mean_steps(u[k].n, u[k].d, 1, cv[w], 1.0, 0, 0, HR_PERM_BASE_SENDERS, reps,
                                  &lo, &hi, hist);
            printf("n = %3d d = %2d %-9s: %d, %.2f, %d;", u[k].n, u[k].d, hr__perm_name(cv[w]),
                   lo, m, hi);
            for (int e = 0; e < 64; e++)
                if (hist[e])
                    printf(" +%d: %d", e, hist[e]);
            printf("\n");
        }
    }

    /* Wall time of each scheduler, n = 512, d = 32, sizes 1 .. n (best of 5, a fresh matrix). */
    printf("\nscheduling wall time, n = 512, d = 32, sizes 1..512 (median of 9 matrices)\n");
    for (size_t v = 0; v < NVAR; v++) {
        double ts[9];
        int steps = 0;
        for (int r = 0; r < 9; r++) {
            uint64_t *com = appendix_d(512, 32, 512, 99 + (uint64_t)r);
            hr_sched s;
            double t0 = hr__wall_s();
            sched_of(512, com, all_variants[v], 0.75, 0, (uint64_t)r + 1, &s);
            ts[r] = hr__wall_s() - t0;
            steps += s.nsteps;
            hr__sched_free(&s);
            free(com);
        }
        for (int i = 1; i < 9; i++)
            for (int j = i; j > 0 && ts[j] < ts[j - 1]; j--) {
                double tmp = ts[j];
                ts[j] = ts[j - 1], ts[j - 1] = tmp;
            }
        printf("%-10s %8.3f ms  %6.1f permutations\n", hr__perm_name(all_variants[v]),
               1e3 * ts[4], steps / 9.0);
    }
}
END_TEST

Suite *hr_perm_suite(void)
{
    Suite *s = suite_create("perm");
    TCase *tc = tcase_create("properties");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_perm_random_valid);
    tcase_add_test(tc, test_perm_appendix_d_valid);
    tcase_add_test(tc, test_perm_lp_full_pairings);
    tcase_add_test(tc, test_perm_heap_order);
    tcase_add_test(tc, test_perm_keep_place);
    tcase_add_test(tc, test_perm_cgm_sort_first_step);
    tcase_add_test(tc, test_perm_heap_is_fixed_one);
    tcase_add_test(tc, test_perm_lambda_reset);
    tcase_add_test(tc, test_perm_uniform_no_split);
    tcase_add_test(tc, test_perm_decide_size_fixed);
    tcase_add_test(tc, test_perm_lambda_base);
    tcase_add_test(tc, test_perm_d_regular);
    tcase_add_test(tc, test_perm_deterministic);
    tcase_add_test(tc, test_perm_args);
    suite_add_tcase(s, tc);

    tc = tcase_create("check_print");
    tcase_add_test(tc, test_perm_check_flags);
    tcase_add_test(tc, test_perm_print_bytes);
    suite_add_tcase(s, tc);

    /* Table 1 always; with HREMU_PERM_TABLES set, both tables printed (its value: the matrices
     * a row, default 50). */
    tc = tcase_create("tables");
    tcase_set_timeout(tc, 3600);
    tcase_add_test(tc, test_perm_tables);
    suite_add_tcase(s, tc);
    return s;
}
