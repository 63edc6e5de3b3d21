/* check_sched.c: seed 001's schedules (alg/sched.c) against the paper: GS on the pattern 'P'
 * step by step against Table 10 (with its one misprint), the step counts of LS, PS, BS, GS on P
 * (8, 6, 7, 6), the complete exchanges LEX, PEX, REX, BEX of 8 processors against Tables 1-4
 * (derived by hand where the text lost them), every scheduler valid on seeded random patterns,
 * GS on the complete pattern equal to PS, hr__sched_check catching broken schedules, and
 * hr__sched_print's exact text. */
#include "hr_test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>
#include "alg/sched.h"
#include "sched_test.h"

/* ---- helpers ------------------------------------------------------------------------------- */

typedef int (*sched_fn)(int, const uint64_t *, hr_sched *);

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A pattern of p processors: each off-diagonal message present with probability permille/1000,
 * of 1 .. 4096 bytes; the diagonal holds junk, which the schedulers must ignore. */
static uint64_t *random_pattern(int p, int permille, uint64_t seed)
{
    uint64_t *com = malloc((size_t)p * p * sizeof *com);
    ck_assert_ptr_nonnull(com);
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++) {
            uint64_t r = splitmix64(&seed);
            com[(size_t)i * p + j] = i == j ? r % 7 : (int)(r % 1000) < permille ? 1 + (r >> 32) % 4096 : 0;
        }
    return com;
}

/* The complete exchange: every off-diagonal message, bytes telling them apart. */
static uint64_t *complete_pattern(int p)
{
    uint64_t *com = calloc((size_t)p * p, sizeof *com);
    ck_assert_ptr_nonnull(com);
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++)
            com[(size_t)i * p + j] = i == j ? 0 : 1 + (uint64_t)i * p + j;
    return com;
}

/* seed 001, Table 6: the irregular pattern 'P', row i the sender, column j the receiver. */
static const int table6[8][8] = {
    { 0, 1, 0, 1, 0, 1, 1, 0 },
    { 1, 0, 1, 0, 1, 1, 1, 1 },
    { 0, 1, 0, 1, 0, 0, 0, 0 },
    { 1, 0, 1, 0, 1, 1, 1, 0 },
    { 0, 1, 1, 1, 0, 1, 0, 1 },
    { 0, 1, 0, 0, 1, 0, 1, 0 },
    { 1, 0, 1, 1, 0, 1, 0, 1 },
    { 1, 1, 0, 0, 1, 0, 1, 0 },
};

static void pattern_p(uint64_t com[64])
{
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            com[i * 8 + j] = table6[i][j] ? 100 + (uint64_t)i * 8 + j : 0;
}

static void assert_valid(const hr_sched *s, const uint64_t *com, int pairs, const char *what)
{
    char why[200];
    int err = hr__sched_check(s, com, pairs, why, sizeof why);
    ck_assert_msg(err == HR_OK, "%s (p = %d): %s", what, s->p, why);
}

/* A step as the paper writes it: {a, b, X} is a <-> b (X = 2) or a -> b (X = 1). */
enum { ONE = 1, EXCH = 2 };
typedef struct entry { int a, b, kind; } entry;

static int cmp_pair(const void *x, const void *y)
{
    const int *u = x, *v = y;
    return u[0] != v[0] ? u[0] - v[0] : u[1] - v[1];
}

/* Step st (0-based) of s holds exactly the transfers of e[0 .. n), with the pattern's bytes. */
static void assert_step(const hr_sched *s, const uint64_t *com, int st, const entry *e, int n,
                        const char *what)
{
    int want[64][2], k = 0;
    for (int i = 0; i < n; i++) {
        want[k][0] = e[i].a, want[k][1] = e[i].b, k++;
        if (e[i].kind == EXCH)
            want[k][0] = e[i].b, want[k][1] = e[i].a, k++;
    }
    qsort(want, (size_t)k, sizeof want[0], cmp_pair);
    ck_assert_int_lt(st, s->nsteps);
    size_t a = s->start[st], b = s->start[st + 1];
    ck_assert_msg(b - a == (size_t)k, "%s step %d: %zu transfers, the table %d", what, st + 1,
                  b - a, k);
    for (int i = 0; i < k; i++) {
        const hr_xfer *x = &s->xfer[a + (size_t)i];
        ck_assert_msg(x->src == want[i][0] && x->dst == want[i][1],
                      "%s step %d: transfer %d is %d -> %d, the table %d -> %d", what, st + 1, i,
                      x->src, x->dst, want[i][0], want[i][1]);
        ck_assert(x->bytes == com[(size_t)x->src * s->p + x->dst]);
    }
}

/* The distinct partners of each processor: a lower bound on the steps of any pairs schedule. */
static int max_partners(int p, const uint64_t *com)
{
    int best = 0;
    for (int i = 0; i < p; i++) {
        int d = 0;
        for (int j = 0; j < p; j++)
            d += j != i && (com[(size_t)i * p + j] || com[(size_t)j * p + i]);
        best = d > best ? d : best;
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

/* ---- the paper's tables -------------------------------------------------------------------- */

START_TEST(test_sched_table10_gs)
{
    uint64_t com[64];
    pattern_p(com);
    /* seed 001, Table 10, GS on P. Step 5's "2 <-> 4" is printed so, but P has 4 -> 2 and not
     * 2 -> 4 (row 2 of Table 6 is 0 1 0 1 0 0 0 0); GS sends 4 -> 2 there, and with that entry
     * the table sends each of P's 34 messages once (hr__sched_check below). */
    ck_assert_int_eq(table6[2][4], 0);
    ck_assert_int_eq(table6[4][2], 1);
    static const entry s1[] = { { 0, 1, EXCH }, { 2, 3, EXCH }, { 4, 5, EXCH }, { 6, 7, EXCH } };
    static const entry s2[] = { { 0, 3, EXCH }, { 1, 2, EXCH }, { 4, 7, EXCH }, { 5, 6, EXCH } };
    static const entry s3[] = { { 0, 5, ONE }, { 1, 4, EXCH }, { 3, 6, EXCH } };
    static const entry s4[] = { { 0, 6, EXCH }, { 1, 5, EXCH }, { 3, 4, EXCH } };
    static const entry s5[] = { { 1, 6, ONE }, { 3, 5, ONE }, { 4, 2, ONE } /* printed 2 <-> 4 */,
                                { 7, 0, ONE } };
    static const entry s6[] = { { 1, 7, EXCH }, { 6, 2, ONE } };
    static const struct { const entry *e; int n; } t10[] = {
        { s1, 4 }, { s2, 4 }, { s3, 3 }, { s4, 3 }, { s5, 4 }, { s6, 2 },
    };
    hr_sched s;
    ck_assert_int_eq(hr__sched_gs(8, com, &s), HR_OK);
    ck_assert_int_eq(s.nsteps, 6);
    for (int st = 0; st < 6; st++)
        assert_step(&s, com, st, t10[st].e, t10[st].n, "Table 10");
    ck_assert_uint_eq(s.start[6], 34);
    assert_valid(&s, com, 1, "GS on P");
    hr__sched_free(&s);

    /* The table as printed, made into a schedule, fails P: 2 -> 4 is no message of P (and 4 ->
     * 2 would then be sent twice); as corrected, it is every message of P once. */
    for (int printed = 0; printed < 2; printed++) {
        hr_xfer x[40];
        size_t start[7] = { 0 }, n = 0;
        for (int st = 0; st < 6; st++) {
            int want[16][2], k = 0;
            for (int i = 0; i < t10[st].n; i++) {
                entry e = t10[st].e[i];
                if (printed && e.a == 4 && e.b == 2)
                    e = (entry){ 2, 4, EXCH };
                want[k][0] = e.a, want[k][1] = e.b, k++;
                if (e.kind == EXCH)
                    want[k][0] = e.b, want[k][1] = e.a, k++;
            }
            qsort(want, (size_t)k, sizeof want[0], cmp_pair);
            for (int i = 0; i < k; i++) {
                uint64_t b = com[want[i][0] * 8 + want[i][1]];
                x[n++] = (hr_xfer){ want[i][0], want[i][1], b ? b : 1 };
            }
            start[st + 1] = n;
        }
        hr_sched t = { .p = 8, .nsteps = 6, .start = start, .xfer = x };
        char why[200];
        int err = hr__sched_check(&t, com, 1, why, sizeof why);
        if (printed) {
            ck_assert_int_eq(err, HR_EINVAL);
            ck_assert_msg(strstr(why, "step 5: 2 -> 4"), "why = %s", why);
        } else {
            ck_assert_msg(err == HR_OK, "Table 10 corrected: %s", why);
            ck_assert_uint_eq(n, 34);
        }
    }
}
END_TEST

START_TEST(test_sched_step_counts_on_p)
{
    /* Sec. 4.1-4.4: "completed in 8 steps" (LS), 6 (PS), 7 (BS), 6 (GS), counting the steps
     * that communicate: PS's loop step j = 2 (pairs 0-2, 1-3, 4-6, 5-7) has nothing in P. */
    uint64_t com[64];
    pattern_p(com);
    static const struct { sched_fn fn; int steps, pairs; const char *name; } c[] = {
        { hr__sched_ls, 8, 0, "LS" },
        { hr__sched_ps, 6, 1, "PS" },
        { hr__sched_bs, 7, 1, "BS" },
        { hr__sched_gs, 6, 1, "GS" },
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        hr_sched s;
        ck_assert_int_eq(c[k].fn(8, com, &s), HR_OK);
        ck_assert_msg(s.nsteps == c[k].steps, "%s on P: %d steps, the paper %d", c[k].name,
                      s.nsteps, c[k].steps);
        assert_valid(&s, com, c[k].pairs, c[k].name);
        hr__sched_free(&s);
    }
}
END_TEST

START_TEST(test_sched_table1_lex)
{
    /* seed 001, Table 1 (LEX, sec. 3.1): in step i processor i receives from every j != i. */
    uint64_t *com = complete_pattern(8);
    hr_sched s;
    ck_assert_int_eq(hr__sched_ls(8, com, &s), HR_OK);
    ck_assert_int_eq(s.nsteps, 8);
    for (int i = 0; i < 8; i++) {
        entry e[7];
        int n = 0;
        for (int j = 0; j < 8; j++)
            if (j != i)
                e[n++] = (entry){ j, i, ONE };
        assert_step(&s, com, i, e, n, "Table 1");
    }
    assert_valid(&s, com, 0, "LEX");
    hr__sched_free(&s);
    free(com);
}
END_TEST

START_TEST(test_sched_table2_pex)
{
    /* seed 001, Table 2 (PEX, Figure 2), derived by hand, step j pairs i with i XOR j:
     *   j = 1: 0-1 2-3 4-5 6-7      j = 2: 0-2 1-3 4-6 5-7      j = 3: 0-3 1-2 4-7 5-6
     *   j = 4: 0-4 1-5 2-6 3-7      j = 5: 0-5 1-4 2-7 3-6      j = 6: 0-6 1-7 2-4 3-5
     *   j = 7: 0-7 1-6 2-5 3-4 */
    static const int t2[7][4][2] = {
        { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 } }, { { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 } },
        { { 0, 3 }, { 1, 2 }, { 4, 7 }, { 5, 6 } }, { { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } },
        { { 0, 5 }, { 1, 4 }, { 2, 7 }, { 3, 6 } }, { { 0, 6 }, { 1, 7 }, { 2, 4 }, { 3, 5 } },
        { { 0, 7 }, { 1, 6 }, { 2, 5 }, { 3, 4 } },
    };
    uint64_t *com = complete_pattern(8);
    hr_sched s;
    ck_assert_int_eq(hr__sched_ps(8, com, &s), HR_OK);
    ck_assert_int_eq(s.nsteps, 7);
    for (int st = 0; st < 7; st++) {
        entry e[4];
        for (int k = 0; k < 4; k++) {
            e[k] = (entry){ t2[st][k][0], t2[st][k][1], EXCH };
            ck_assert_int_eq(hr__sched_pex_partner(8, st + 1, e[k].a), e[k].b);
            ck_assert_int_eq(hr__sched_pex_partner(8, st + 1, e[k].b), e[k].a);
        }
        assert_step(&s, com, st, e, 4, "Table 2");
    }
    assert_valid(&s, com, 1, "PEX");
    hr__sched_free(&s);
    free(com);
}
END_TEST

START_TEST(test_sched_table3_rex)
{
    /* seed 001, Table 3 (REX, Figure 3): step i pairs me with me +- k/2, k = 8 / 2^i. The text
     * prints step 1 as 0-4, 1-5, "3-6", "5-7": misprints (5 would be in two pairs, 2 and 6 in
     * none) for Figure 3's 2-6 and 3-7. Steps 2 and 3 are printed right. */
    static const int t3[3][4][2] = {
        { { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } },
        { { 0, 2 }, { 1, 3 }, { 4, 6 }, { 5, 7 } },
        { { 0, 1 }, { 2, 3 }, { 4, 5 }, { 6, 7 } },
    };
    for (int st = 0; st < 3; st++)
        for (int k = 0; k < 4; k++) {
            int a = t3[st][k][0], b = t3[st][k][1];
            ck_assert_int_eq(hr__sched_rex_partner(8, st, a), b);
            ck_assert_int_eq(hr__sched_rex_partner(8, st, b), a);
        }
    /* Every power of two: a perfect matching across bit lg p - 1 - step. */
    for (int p = 2; p <= 1024; p *= 2)
        for (int st = 0; (p >> st) >= 2; st++)
            for (int me = 0; me < p; me++) {
                int q = hr__sched_rex_partner(p, st, me);
                ck_assert_int_eq(q, me ^ (p >> (st + 1)));
                ck_assert_int_eq(hr__sched_rex_partner(p, st, q), me);
            }
    ck_assert_int_eq(hr__sched_rex_partner(8, 3, 0), HR_EINVAL);
    ck_assert_int_eq(hr__sched_rex_partner(8, -1, 0), HR_EINVAL);
    ck_assert_int_eq(hr__sched_rex_partner(8, 0, 8), HR_EINVAL);
    ck_assert_int_eq(hr__sched_rex_partner(6, 0, 0), HR_EINVAL);
    ck_assert_int_eq(hr__sched_rex_partner(1, 0, 0), HR_EINVAL);
}
END_TEST

START_TEST(test_sched_table4_bex)
{
    /* seed 001, Table 4 (BEX, Figure 4), lost in the text, derived by hand. virtual v = me + 1
     * mod 8; the partner is (v XOR j) - 1, -1 meaning 7. Physical me -> v: 0->1 1->2 2->3 3->4
     * 4->5 5->6 6->7 7->0, and back w -> w - 1 (0 -> 7).
     *   j = 1: v pairs 1-0 2-3 4-5 6-7 -> 0-7 1-2 3-4 5-6
     *   j = 2: v pairs 1-3 2-0 4-6 5-7 -> 0-2 1-7 3-5 4-6
     *   j = 3: v pairs 1-2 3-0 4-7 5-6 -> 0-1 2-7 3-6 4-5
     *   j = 4: v pairs 1-5 2-6 3-7 4-0 -> 0-4 1-5 2-6 3-7
     *   j = 5: v pairs 1-4 2-7 3-6 5-0 -> 0-3 1-6 2-5 4-7
     *   j = 6: v pairs 1-7 2-4 3-5 6-0 -> 0-6 1-3 2-4 5-7
     *   j = 7: v pairs 1-6 2-5 3-4 7-0 -> 0-5 1-4 2-3 6-7
     * Step j = 4 is PEX's; the others mix pairs inside a cluster of four (0-3, 4-7) with pairs
     * across, the balance of sec. 3.4. */
    static const int t4[7][4][2] = {
        { { 0, 7 }, { 1, 2 }, { 3, 4 }, { 5, 6 } }, { { 0, 2 }, { 1, 7 }, { 3, 5 }, { 4, 6 } },
        { { 0, 1 }, { 2, 7 }, { 3, 6 }, { 4, 5 } }, { { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } },
        { { 0, 3 }, { 1, 6 }, { 2, 5 }, { 4, 7 } }, { { 0, 6 }, { 1, 3 }, { 2, 4 }, { 5, 7 } },
        { { 0, 5 }, { 1, 4 }, { 2, 3 }, { 6, 7 } },
    };
    uint64_t *com = complete_pattern(8);
    hr_sched s;
    ck_assert_int_eq(hr__sched_bs(8, com, &s), HR_OK);
    ck_assert_int_eq(s.nsteps, 7);
    for (int st = 0; st < 7; st++) {
        entry e[4];
        for (int k = 0; k < 4; k++) {
            e[k] = (entry){ t4[st][k][0], t4[st][k][1], EXCH };
            ck_assert_int_eq(hr__sched_bex_partner(8, st + 1, e[k].a), e[k].b);
            ck_assert_int_eq(hr__sched_bex_partner(8, st + 1, e[k].b), e[k].a);
        }
        assert_step(&s, com, st, e, 4, "Table 4");
    }
    assert_valid(&s, com, 1, "BEX");
    hr__sched_free(&s);
    free(com);
}
END_TEST

/* ---- properties ---------------------------------------------------------------------------- */

START_TEST(test_sched_partners_cover_pairs)
{
    /* For every p, PEX's and BEX's steps 1 .. span - 1 are involutions without fixed points
     * (idle allowed), and every pair of processors meets in exactly one step. */
    static int met[100 * 100];
    for (int p = 1; p <= 100; p++) {
        ck_assert_int_eq(hr__sched_span(p), next_pow2(p));
        for (int t = 0; t < 2; t++) {
            memset(met, 0, sizeof met);
            for (int j = 1; j < hr__sched_span(p); j++)
                for (int me = 0; me < p; me++) {
                    int q = t ? hr__sched_bex_partner(p, j, me) : hr__sched_pex_partner(p, j, me);
                    if (q < 0)
                        continue;
                    ck_assert_int_lt(q, p);
                    ck_assert_int_ne(q, me);
                    ck_assert_int_eq(t ? hr__sched_bex_partner(p, j, q)
                                       : hr__sched_pex_partner(p, j, q), me);
                    met[me * p + q]++;
                }
            for (int a = 0; a < p; a++)
                for (int b = 0; b < p; b++)
                    ck_assert_int_eq(met[a * p + b], a != b);
        }
    }
    /* Out of range: no partner. */
    ck_assert_int_eq(hr__sched_pex_partner(8, 0, 1), -1);
    ck_assert_int_eq(hr__sched_pex_partner(8, 8, 1), -1);
    ck_assert_int_eq(hr__sched_bex_partner(8, 1, 8), -1);
    ck_assert_int_eq(hr__sched_bex_partner(0, 1, 0), -1);
    ck_assert_int_eq(hr__sched_span(0), 1);
    /* p = 6, BEX j = 1: virtual 1-0 2-3 4-5 -> physical 0-5 1-2 3-4. */
    ck_assert_int_eq(hr__sched_bex_partner(6, 1, 0), 5);
    ck_assert_int_eq(hr__sched_bex_partner(6, 1, 1), 2);
    ck_assert_int_eq(hr__sched_bex_partner(6, 1, 3), 4);
    /* p = 6, j = 7: 0's virtual 1 meets 6 >= p, idle; 5's virtual 0 meets 7, idle; 1's
     * virtual 2 meets 5, physical 4. */
    ck_assert_int_eq(hr__sched_bex_partner(6, 7, 0), -1);
    ck_assert_int_eq(hr__sched_bex_partner(6, 7, 5), -1);
    ck_assert_int_eq(hr__sched_bex_partner(6, 7, 1), 4);
}
END_TEST

START_TEST(test_sched_random_valid)
{
    static const int ps[] = { 1, 2, 3, 5, 8, 32, 64 };
    static const int dens[] = { 0, 50, 100, 250, 500, 750, 1000 };
    uint64_t seed = 1;
    for (size_t a = 0; a < sizeof ps / sizeof ps[0]; a++)
        for (size_t b = 0; b < sizeof dens / sizeof dens[0]; b++)
            for (int rep = 0; rep < 3; rep++) {
                int p = ps[a], p2 = next_pow2(p);
                uint64_t *com = random_pattern(p, dens[b], splitmix64(&seed));
                int lower = max_partners(p, com);
                hr_sched s;

                /* LS: one receiver a step, in ascending order; a step per receiving column. */
                ck_assert_int_eq(hr__sched_ls(p, com, &s), HR_OK);
                assert_valid(&s, com, 0, "LS");
                int cols = 0, last = -1;
                for (int j = 0; j < p; j++) {
                    int any = 0;
                    for (int i = 0; i < p; i++)
                        any |= i != j && com[(size_t)i * p + j];
                    cols += any;
                }
                ck_assert_int_eq(s.nsteps, cols);
                ck_assert_int_eq(hr__sched_check_flags(&s, com, HR_SCHED_LINEAR, NULL, 0), HR_OK);
                for (int st = 0; st < s.nsteps; st++) {
                    int r = s.xfer[s.start[st]].dst;
                    ck_assert_int_gt(r, last);
                    last = r;
                    for (size_t e = s.start[st]; e < s.start[st + 1]; e++)
                        ck_assert_int_eq(s.xfer[e].dst, r);
                }
                hr__sched_free(&s);

                /* PS: each step one XOR distance, at most P2 - 1 steps. */
                ck_assert_int_eq(hr__sched_ps(p, com, &s), HR_OK);
                assert_valid(&s, com, 1, "PS");
                ck_assert_int_eq(hr__sched_check_flags(&s, com, HR_SCHED_PAIRS | HR_SCHED_XOR,
                                                       NULL, 0), HR_OK);
                ck_assert_int_le(s.nsteps, p2 - 1);
                ck_assert_int_ge(s.nsteps, lower);
                for (int st = 0; st < s.nsteps; st++) {
                    int j = s.xfer[s.start[st]].src ^ s.xfer[s.start[st]].dst;
                    for (size_t e = s.start[st]; e < s.start[st + 1]; e++)
                        ck_assert_int_eq(s.xfer[e].src ^ s.xfer[e].dst, j);
                }
                hr__sched_free(&s);

                /* BS: each step one XOR distance of the virtual numbers (me + 1) mod p. */
                ck_assert_int_eq(hr__sched_bs(p, com, &s), HR_OK);
                assert_valid(&s, com, 1, "BS");
                ck_assert_int_eq(hr__sched_check_flags(&s, com, HR_SCHED_PAIRS | HR_SCHED_XOR_BS,
                                                       NULL, 0), HR_OK);
                ck_assert_int_le(s.nsteps, p2 - 1);
                ck_assert_int_ge(s.nsteps, lower);
                for (int st = 0; st < s.nsteps; st++) {
                    const hr_xfer *x = &s.xfer[s.start[st]];
                    int j = ((x->src + 1) % p) ^ ((x->dst + 1) % p);
                    for (size_t e = s.start[st]; e < s.start[st + 1]; e++)
                        ck_assert_int_eq(((s.xfer[e].src + 1) % p) ^ ((s.xfer[e].dst + 1) % p), j);
                }
                hr__sched_free(&s);

                /* GS: valid, and a greedy maximal schedule never needs more than 2 * lower - 1
                 * steps (a pair waits only while one of its ends is busy elsewhere). */
                ck_assert_int_eq(hr__sched_gs(p, com, &s), HR_OK);
                assert_valid(&s, com, 1, "GS");
                ck_assert_int_ge(s.nsteps, lower);
                ck_assert_int_le(s.nsteps, lower ? 2 * lower - 1 : 0);
                hr__sched_free(&s);
                free(com);
            }
}
END_TEST

START_TEST(test_sched_gs_complete_is_ps)
{
    /* Sec. 4.4: "For a complete exchange operation this algorithm creates the same
     * communication schedule as pairwise exchange." With the lowest-first reading it does, for
     * every power of two and (with PS's extension) every p tried. */
    for (int p = 1; p <= 130; p += p < 70 ? 1 : 29) {
        uint64_t *com = complete_pattern(p);
        hr_sched g, s;
        ck_assert_int_eq(hr__sched_gs(p, com, &g), HR_OK);
        ck_assert_int_eq(hr__sched_ps(p, com, &s), HR_OK);
        ck_assert_msg(same_sched(&g, &s), "p = %d: GS differs from PS on the complete pattern", p);
        ck_assert_int_eq(g.nsteps, p == 1 ? 0 : next_pow2(p) - 1);
        hr__sched_free(&g);
        hr__sched_free(&s);
        free(com);
    }
}
END_TEST

START_TEST(test_sched_gs_complete_scale)
{
    /* The quadratic-per-step scan at the size the header promises. */
    int p = HR_TEST_TSAN ? 256 : 1024;
    uint64_t *com = complete_pattern(p);
    hr_sched g, s;
    ck_assert_int_eq(hr__sched_gs(p, com, &g), HR_OK);
    ck_assert_int_eq(hr__sched_ps(p, com, &s), HR_OK);
    ck_assert(same_sched(&g, &s));
    assert_valid(&g, com, 1, "GS");
    hr__sched_free(&g);
    hr__sched_free(&s);
    free(com);
}
END_TEST

START_TEST(test_sched_args)
{
    uint64_t com[4] = { 5, 0, 0, 0 };
    hr_sched s = { .p = -7 }, old = s;
    static const sched_fn fns[] = { hr__sched_ls, hr__sched_ps, hr__sched_bs, hr__sched_gs };
    for (size_t k = 0; k < 4; k++) {
        ck_assert_int_eq(fns[k](0, com, &s), HR_EINVAL);
        ck_assert_int_eq(fns[k](2, NULL, &s), HR_EINVAL);
        ck_assert_int_eq(fns[k](2, com, NULL), HR_EINVAL);
        ck_assert_int_eq(fns[k](HR_SCHED_MAX_P + 1, com, &s), HR_ERANGE);
        ck_assert(memcmp(&s, &old, sizeof s) == 0);
        /* The diagonal is ignored: p = 1 and the pattern { 5 } has no message. */
        ck_assert_int_eq(fns[k](1, com, &s), HR_OK);
        ck_assert_int_eq(s.nsteps, 0);
        ck_assert_uint_eq(s.start[0], 0);
        assert_valid(&s, com, 1, "p = 1");
        hr__sched_free(&s);
        ck_assert_ptr_null(s.start);
        hr__sched_free(&s); /* twice is fine */
        /* Only the diagonal of p = 2 is nonzero. */
        uint64_t diag[4] = { 3, 0, 0, 9 };
        ck_assert_int_eq(fns[k](2, diag, &s), HR_OK);
        ck_assert_int_eq(s.nsteps, 0);
        hr__sched_free(&s);
        s = old;
    }
    hr__sched_free(NULL);
}
END_TEST

/* ---- the checker --------------------------------------------------------------------------- */


static void assert_broken(const hr_sched *s, const uint64_t *com, int pairs, const char *needle)
{
    char why[200];
    ck_assert_int_eq(hr__sched_check(s, com, pairs, why, sizeof why), HR_EINVAL);
    ck_assert_msg(strstr(why, needle), "why = \"%s\", expected \"%s\" in it", why, needle);
}

START_TEST(test_sched_check_catches)
{
    /* Pattern: 0 <-> 1 (10, 11 bytes), 2 -> 3 (23), 1 -> 2 (12). */
    uint64_t com[16] = { 0 };
    com[0 * 4 + 1] = 10, com[1 * 4 + 0] = 11, com[2 * 4 + 3] = 23, com[1 * 4 + 2] = 12;
    static const size_t st_ok[] = { 0, 3, 4 };
    static const hr_xfer x_ok[] = { { 0, 1, 10 }, { 1, 0, 11 }, { 2, 3, 23 }, { 1, 2, 12 } };
    handmade h;
    make(&h, 4, 2, st_ok, x_ok);
    assert_valid(&h.s, com, 1, "hand-made");

    /* A message twice (1 -> 2 in both steps), one missing (1 -> 2 never). */
    static const hr_xfer x_dup[] = { { 0, 1, 10 }, { 1, 0, 11 }, { 2, 3, 23 }, { 1, 2, 12 },
                                     { 1, 2, 12 } };
    static const size_t st_dup[] = { 0, 3, 4, 5 };
    make(&h, 4, 3, st_dup, x_dup);
    assert_broken(&h.s, com, 0, "second time");
    static const size_t st_miss[] = { 0, 3 };
    make(&h, 4, 1, st_miss, x_ok);
    assert_broken(&h.s, com, 0, "1 -> 2 (12 bytes) is never sent");

    /* A processor in two pairs of one step: 1 with 0 and with 2; fine when pairs are not
     * asked for (LS's kind of step). */
    static const hr_xfer x_two[] = { { 0, 1, 10 }, { 1, 0, 11 }, { 1, 2, 12 }, { 2, 3, 23 } };
    static const size_t st_two[] = { 0, 4 };
    make(&h, 4, 1, st_two, x_two);
    assert_broken(&h.s, com, 1, "1 is in two pairs");
    assert_valid(&h.s, com, 0, "one step, not pairs");
    /* One sender to two receivers in one step. */
    static const hr_xfer x_recv[] = { { 0, 1, 10 }, { 2, 3, 23 }, { 1, 0, 11 }, { 1, 2, 12 } };
    static const size_t st_recv[] = { 0, 2, 4 };
    make(&h, 4, 2, st_recv, x_recv);
    assert_broken(&h.s, com, 1, "step 2: 1 is in two pairs");

    /* Wrong bytes, 0 bytes, the diagonal, out of range, out of order, an empty step. */
    static const hr_xfer x_bytes[] = { { 0, 1, 10 }, { 1, 0, 99 }, { 2, 3, 23 }, { 1, 2, 12 } };
    make(&h, 4, 2, st_ok, x_bytes);
    assert_broken(&h.s, com, 1, "carries 99 bytes, the pattern 11");
    uint64_t zero[16];
    memcpy(zero, com, sizeof zero);
    zero[1 * 4 + 0] = 0;
    static const hr_xfer x_zero[] = { { 0, 1, 10 }, { 1, 0, 0 }, { 2, 3, 23 }, { 1, 2, 12 } };
    make(&h, 4, 2, st_ok, x_zero);
    assert_broken(&h.s, zero, 1, "carries 0 bytes");
    static const hr_xfer x_diag[] = { { 0, 1, 10 }, { 1, 0, 11 }, { 3, 3, 23 }, { 1, 2, 12 } };
    make(&h, 4, 2, st_ok, x_diag);
    assert_broken(&h.s, com, 1, "on the diagonal");
    static const hr_xfer x_range[] = { { 0, 1, 10 }, { 1, 0, 11 }, { 2, 4, 23 }, { 1, 2, 12 } };
    make(&h, 4, 2, st_ok, x_range);
    assert_broken(&h.s, com, 1, "out of range");
    static const hr_xfer x_order[] = { { 1, 0, 11 }, { 0, 1, 10 }, { 2, 3, 23 }, { 1, 2, 12 } };
    make(&h, 4, 2, st_ok, x_order);
    assert_broken(&h.s, com, 1, "canonical");
    static const size_t st_empty[] = { 0, 3, 3, 4 };
    make(&h, 4, 3, st_empty, x_ok);
    assert_broken(&h.s, com, 1, "step 2 is empty");
    /* why may be NULL. */
    ck_assert_int_eq(hr__sched_check(&h.s, com, 1, NULL, 0), HR_EINVAL);
}
END_TEST

/* hr__sched_check_flags(s, com, flags) finds a fault with needle in its reason. */
static void assert_broken_flags(const hr_sched *s, const uint64_t *com, unsigned flags,
                                const char *needle)
{
    char why[200];
    ck_assert_int_eq(hr__sched_check_flags(s, com, flags, why, sizeof why), HR_EINVAL);
    ck_assert_msg(strstr(why, needle), "why = \"%s\", expected \"%s\" in it", why, needle);
}

/* The shapes of the paper's schedules: LS's one receiver a step, ascending; PS's one XOR a step,
 * ascending; BS's one XOR of the virtual numbers (i + 1) mod p. */
START_TEST(test_sched_check_shapes)
{
    /* Pattern on 4: 0 -> 1, 2 -> 1, 0 -> 3, 1 -> 2 (bytes 1, 2, 3, 4). */
    uint64_t com[16] = { 0 };
    com[0 * 4 + 1] = 1, com[2 * 4 + 1] = 2, com[0 * 4 + 3] = 3, com[1 * 4 + 2] = 4;
    handmade h;
    /* LS's own: receivers 1, 2, 3. */
    static const size_t st_ls[] = { 0, 2, 3, 4 };
    static const hr_xfer x_ls[] = { { 0, 1, 1 }, { 2, 1, 2 }, { 1, 2, 4 }, { 0, 3, 3 } };
    make(&h, 4, 3, st_ls, x_ls);
    ck_assert_int_eq(hr__sched_check_flags(&h.s, com, HR_SCHED_LINEAR, NULL, 0), HR_OK);
    /* Two receivers in one step; receivers out of order. */
    static const size_t st_two[] = { 0, 3, 4 };
    static const hr_xfer x_two[] = { { 0, 1, 1 }, { 1, 2, 4 }, { 2, 1, 2 }, { 0, 3, 3 } };
    make(&h, 4, 2, st_two, x_two);
    assert_broken_flags(&h.s, com, HR_SCHED_LINEAR,
                        "step 1: 1 -> 2 has receiver 2, the step's first transfer 0 -> 1 "
                        "receiver 1");
    static const size_t st_back[] = { 0, 1, 3, 4 };
    static const hr_xfer x_back[] = { { 1, 2, 4 }, { 0, 1, 1 }, { 2, 1, 2 }, { 0, 3, 3 } };
    make(&h, 4, 3, st_back, x_back);
    assert_broken_flags(&h.s, com, HR_SCHED_LINEAR, "step 2: 0 -> 1 has receiver 1, not above "
                        "step 1's 2");
    ck_assert_int_eq(hr__sched_check_flags(&h.s, com, 0, NULL, 0), HR_OK);

    /* PS's own on this pattern: XOR 1 (0 -> 1), 2 (none), 3 (0 -> 3, 1 -> 2), then 2 -> 1 has
     * XOR 3 too. */
    uint64_t ps_com[16] = { 0 };
    ps_com[0 * 4 + 1] = 1, ps_com[0 * 4 + 3] = 3, ps_com[1 * 4 + 2] = 4, ps_com[2 * 4 + 1] = 2;
    static const size_t st_ps[] = { 0, 1, 4 };
    static const hr_xfer x_ps[] = { { 0, 1, 1 }, { 0, 3, 3 }, { 1, 2, 4 }, { 2, 1, 2 } };
    make(&h, 4, 2, st_ps, x_ps);
    ck_assert_int_eq(hr__sched_check_flags(&h.s, ps_com, HR_SCHED_PAIRS | HR_SCHED_XOR, NULL, 0),
                     HR_OK);
    /* The same steps in the other order; and 0 -> 1 moved to step 2: pairs still, not PS's. */
    static const size_t st_psb[] = { 0, 3, 4 };
    static const hr_xfer x_psb[] = { { 0, 3, 3 }, { 1, 2, 4 }, { 2, 1, 2 }, { 0, 1, 1 } };
    make(&h, 4, 2, st_psb, x_psb);
    assert_broken_flags(&h.s, ps_com, HR_SCHED_XOR, "step 2: 0 -> 1 has XOR 1, not above step "
                        "1's 3");
    static const size_t st_psm[] = { 0, 2, 4 };
    static const hr_xfer x_psm[] = { { 0, 1, 1 }, { 2, 1, 2 }, { 0, 3, 3 }, { 1, 2, 4 } };
    make(&h, 4, 2, st_psm, x_psm);
    assert_broken_flags(&h.s, ps_com, HR_SCHED_XOR, "step 1: 2 -> 1 has XOR 3, the step's first "
                        "transfer 0 -> 1 XOR 1");

    /* BS on 4: virtual numbers 1, 2, 3, 0, so 0 -> 3, 1 -> 2 and 2 -> 1 have virtual XOR 1 and
     * 0 -> 1 has 3: the order PS's check refused above is BS's own. */
    make(&h, 4, 2, st_psb, x_psb);
    ck_assert_int_eq(hr__sched_check_flags(&h.s, ps_com, HR_SCHED_PAIRS | HR_SCHED_XOR_BS, NULL,
                                           0), HR_OK);
    make(&h, 4, 2, st_ps, x_ps);
    assert_broken_flags(&h.s, ps_com, HR_SCHED_XOR_BS, "step 2: 0 -> 3 has XOR 1, not above "
                        "step 1's 3");
    make(&h, 4, 2, st_psm, x_psm);
    assert_broken_flags(&h.s, ps_com, HR_SCHED_XOR_BS, "step 1: 2 -> 1 has XOR 1, the step's "
                        "first transfer 0 -> 1 XOR 3");

    /* Two shapes at once are no promise at all. */
    assert_broken_flags(&h.s, ps_com, HR_SCHED_XOR | HR_SCHED_LINEAR, "two shapes");

    /* Each scheduler's schedule has its own shape and not the others' (complete pattern, p =
     * 8: LS has 7 senders a step, PS's and BS's pairings differ). */
    uint64_t *full = complete_pattern(8);
    hr_sched s;
    static const unsigned shape[3] = { HR_SCHED_LINEAR, HR_SCHED_XOR, HR_SCHED_XOR_BS };
    int (*const fn[3])(int, const uint64_t *, hr_sched *) = { hr__sched_ls, hr__sched_ps,
                                                             hr__sched_bs };
    for (int a = 0; a < 3; a++) {
        ck_assert_int_eq(fn[a](8, full, &s), HR_OK);
        for (int b = 0; b < 3; b++)
            ck_assert_int_eq(hr__sched_check_flags(&s, full, shape[b], NULL, 0) == HR_OK, a == b);
        hr__sched_free(&s);
    }
    free(full);
}
END_TEST

/* ---- printing ------------------------------------------------------------------------------ */

/* hr__sched_print of s, as a string to free. */
static char *print_to_string(const hr_sched *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(hr__sched_print(s, f), HR_OK);
    ck_assert_int_eq(fclose(f), 0);
    return buf;
}

START_TEST(test_sched_print)
{
    uint64_t com[64];
    pattern_p(com);
    hr_sched s;
    /* Table 10 in the paper's own order of entries (step 5 with the misprint corrected). */
    ck_assert_int_eq(hr__sched_gs(8, com, &s), HR_OK);
    char *txt = print_to_string(&s);
    ck_assert_str_eq(txt, "step 1: 0 <-> 1, 2 <-> 3, 4 <-> 5, 6 <-> 7\n"
                          "step 2: 0 <-> 3, 1 <-> 2, 4 <-> 7, 5 <-> 6\n"
                          "step 3: 0 -> 5, 1 <-> 4, 3 <-> 6\n"
                          "step 4: 0 <-> 6, 1 <-> 5, 3 <-> 4\n"
                          "step 5: 1 -> 6, 3 -> 5, 4 -> 2, 7 -> 0\n"
                          "step 6: 1 <-> 7, 6 -> 2\n");
    free(txt);
    hr__sched_free(&s);

    /* LS (Table 1's notation) on a small pattern: 1, 2, 3 -> 0; 0 -> 2; nothing to 1 or 3...
     * except 2 -> 3, one sender, which is a pair and so printed as one. */
    uint64_t small[16] = { 0 };
    small[1 * 4 + 0] = small[2 * 4 + 0] = small[3 * 4 + 0] = 1;
    small[0 * 4 + 2] = 1;
    small[2 * 4 + 3] = 1;
    ck_assert_int_eq(hr__sched_ls(4, small, &s), HR_OK);
    txt = print_to_string(&s);
    ck_assert_str_eq(txt, "step 1: 0 <- 1, 2, 3\n"
                          "step 2: 0 -> 2\n"
                          "step 3: 2 -> 3\n");
    free(txt);
    hr__sched_free(&s);

    /* A step not of pairs with two receivers. */
    handmade h;
    static const size_t st[] = { 0, 4 };
    static const hr_xfer x[] = { { 0, 3, 1 }, { 1, 2, 1 }, { 1, 3, 1 }, { 3, 2, 1 } };
    make(&h, 4, 1, st, x);
    txt = print_to_string(&h.s);
    ck_assert_str_eq(txt, "step 1: 2 <- 1, 3; 3 <- 0, 1\n");
    free(txt);

    /* The empty schedule prints nothing. */
    uint64_t none[4] = { 0 };
    ck_assert_int_eq(hr__sched_ps(2, none, &s), HR_OK);
    txt = print_to_string(&s);
    ck_assert_str_eq(txt, "");
    free(txt);
    hr__sched_free(&s);
    ck_assert_int_eq(hr__sched_print(NULL, stdout), HR_EINVAL);
}
END_TEST

Suite *hr_sched_suite(void)
{
    Suite *s = suite_create("sched");
    TCase *tc = tcase_create("paper");
    tcase_add_test(tc, test_sched_table10_gs);
    tcase_add_test(tc, test_sched_step_counts_on_p);
    tcase_add_test(tc, test_sched_table1_lex);
    tcase_add_test(tc, test_sched_table2_pex);
    tcase_add_test(tc, test_sched_table3_rex);
    tcase_add_test(tc, test_sched_table4_bex);
    suite_add_tcase(s, tc);

    tc = tcase_create("properties");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_sched_partners_cover_pairs);
    tcase_add_test(tc, test_sched_random_valid);
    tcase_add_test(tc, test_sched_gs_complete_is_ps);
    tcase_add_test(tc, test_sched_gs_complete_scale);
    tcase_add_test(tc, test_sched_args);
    suite_add_tcase(s, tc);

    tc = tcase_create("check_print");
    tcase_add_test(tc, test_sched_check_catches);
    tcase_add_test(tc, test_sched_check_shapes);
    tcase_add_test(tc, test_sched_print);
    suite_add_tcase(s, tc);
    return s;
}
