/* check_xchg.c: seed 001's complete exchanges on the exchange workload: every byte where it
 * belongs for p in {2, 3, 5, 8, 32, 64} on complete and fattree, under async and sync; model
 * times worked out by hand from docs/model.md's formulas; LEX's rendezvous penalty; message
 * counts; REX's refusal of p not a power of two; the same figures under jitter; and the machine's
 * own transpose (xchg.system) on the same workload. */
#include "hr_test.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <hremu/algorithm.h>
#include <hremu/workload.h>

typedef struct outcome {
    hr_run_result res;
    int           verify;     /* the workload's verdict, or HR_EFAIL (hr_test_run_alg) */
    char          why[256];
} outcome;

/* Run alg on an exchange of `bytes` a block, p processors, on topology under disc. */
static void run_xchg(const char *name, const char *topology, int p, uint64_t bytes,
                     const char *disc, int jitter, outcome *o)
{
    const hr_workload *w = hr_workload_find("exchange");
    hr_wkey_value keys[1] = { { .num = (double)bytes } };
    hr_workload_spec spec = { .kind = "exchange", .keys = keys, .seed = 7 };
    void *inst = NULL;
    char why[256] = "";
    ck_assert_msg(w->make(&spec, p, &inst, why, sizeof why) == HR_OK, "%s", why);
    hr_machine_config cfg = hr_test_config(p, disc);
    cfg.topology = topology;
    cfg.jitter = jitter;
    memset(o, 0, sizeof *o);
    o->verify = hr_test_run_alg(&cfg, name, "exchange", inst, NULL, &o->res, o->why,
                                sizeof o->why);
    w->destroy(inst);
}

static const char *const algs[] = { "xchg.lex", "xchg.pex", "xchg.rex", "xchg.bex",
                                    "xchg.system" };

START_TEST(test_xchg_every_byte)
{
    static const int ps[] = { 2, 3, 5, 8, 32, 64 };
    static const char *const topos[] = { "complete", "fattree" };
    static const char *const discs[] = { "async", "sync" };
    if (HR_TEST_TSAN)
        hr_test_skip("p > 8 on fattree or under sync: too slow under TSan", 1);
    for (size_t a = 0; a < 5; a++)
        for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
            for (int t = 0; t < 2; t++)
                for (int d = 0; d < 2; d++) {
                    int p = ps[i];
                    if (HR_TEST_TSAN && p > 8 && (t || d))
                        continue;
                    outcome o;
                    uint64_t bytes = (uint64_t)(13 * i + 3 * a + (size_t)d);
                    run_xchg(algs[a], topos[t], p, bytes, discs[d], 0, &o);
                    if (a == 2 && (p & (p - 1)) != 0) {
                        /* REX is Figure 3's, for N a power of two. */
                        ck_assert_int_eq(o.res.status, HR_EFAIL);
                        ck_assert_msg(strstr(o.res.report, "xchg.rex needs p a power of two") !=
                                      NULL, "%s", o.res.report);
                        continue;
                    }
                    ck_assert_msg(o.res.status == HR_OK && o.verify == HR_OK,
                                  "%s p %d %s %s: %s %s", algs[a], p, topos[t], discs[d],
                                  o.res.report, o.why);
                    /* Messages: p (p - 1) blocks one at a time, or REX's p lg p messages. */
                    uint64_t lg = 0;
                    while ((1 << lg) < p)
                        lg++;
                    ck_assert_uint_eq(o.res.messages, a == 2 ? (uint64_t)p * lg
                                                             : (uint64_t)p * (uint64_t)(p - 1));
                    ck_assert_uint_eq(o.res.bytes, a == 2 ? (uint64_t)p * lg * (uint64_t)(p / 2) * bytes
                                                          : (uint64_t)p * (uint64_t)(p - 1) * bytes);
                }
}
END_TEST

/* By hand under cm5 (tau = 88 us, sigma = 50 ns a byte) on complete, 1000-byte blocks:
 * - PEX and BEX at p = 2 (one exchange; P0 receives first): the rendezvous (or async message)
 *   from P1 arrives at 88 and is absorbed at 138; P0's reply starts at 138 and ends at 276.
 * - REX at p = 2: P0 packs 1000 bytes (1 us), sends at 1 (absorbed by P1 at 139), P1 unpacks
 *   and packs (2 us), sends at 141, absorbed at 279, P0 unpacks: 280 us, sync or async.
 * - LEX at p = 3 under sync: six rendezvous one after another, 6 x 138 = 828 us. Under async:
 *   P0 absorbs P1's and P2's blocks at 138 and 188 and sends to P1 at 188 (absorbed at 326,
 *   P2's block to P1 then at 376) and to P2 at 238 (port busy until then), absorbed at 376;
 *   P1 sends to P2 at 376, absorbed at 464 + 50 = 514. */
START_TEST(test_xchg_by_hand)
{
    static const struct { const char *alg, *disc; int p; double us; } cases[] = {
        { "xchg.pex", "sync", 2, 276 },  { "xchg.pex", "async", 2, 276 },
        { "xchg.bex", "sync", 2, 276 },  { "xchg.bex", "async", 2, 276 },
        { "xchg.rex", "sync", 2, 280 },  { "xchg.rex", "async", 2, 280 },
        { "xchg.lex", "sync", 3, 828 },  { "xchg.lex", "async", 3, 514 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        outcome o;
        run_xchg(cases[c].alg, "complete", cases[c].p, 1000, cases[c].disc, 0, &o);
        ck_assert_msg(o.verify == HR_OK, "%s", o.why);
        ck_assert_msg(o.res.model_time_s > cases[c].us * 1e-6 - 1e-12 &&
                      o.res.model_time_s < cases[c].us * 1e-6 + 1e-12, "%s %s p %d: %.9g s, want %g us",
                      cases[c].alg, cases[c].disc, cases[c].p, o.res.model_time_s, cases[c].us);
    }
}
END_TEST

/* Sec. 3.1: LEX under synchronous sends pays for every sender waiting its turn; the pairwise
 * exchanges do not (at p = 32, 256 bytes: LEX sync is slower than LEX async and than PEX). */
START_TEST(test_xchg_lex_sync_penalty)
{
    outcome ls, la, ps;
    run_xchg("xchg.lex", "complete", 32, 256, "sync", 0, &ls);
    run_xchg("xchg.lex", "complete", 32, 256, "async", 0, &la);
    run_xchg("xchg.pex", "complete", 32, 256, "sync", 0, &ps);
    ck_assert(ls.verify == HR_OK && la.verify == HR_OK && ps.verify == HR_OK);
    ck_assert(ls.res.model_time_s > 2 * la.res.model_time_s);
    ck_assert(ls.res.model_time_s > 2 * ps.res.model_time_s);
    /* Processor s takes its p - 1 rendezvous one after another, each tau + sigma m, and cannot
     * start before processor s - 1's first: LEX sync takes at least (2p - 3)(tau + sigma m)
     * (and p = 3's case above shows all 6 serial). */
    double step = 88e-6 + 256 * 50e-9;
    ck_assert(ls.res.model_time_s >= (2 * 32 - 3) * step - 1e-9);
}
END_TEST

START_TEST(test_xchg_jitter)
{
    for (size_t a = 0; a < 5; a++) {
        outcome x, y;
        run_xchg(algs[a], "fattree", 16, 100, "sync", 0, &x);
        run_xchg(algs[a], "fattree", 16, 100, "sync", 1, &y);
        ck_assert(x.verify == HR_OK && y.verify == HR_OK);
        ck_assert(x.res.model_time_s == y.res.model_time_s);
        ck_assert_uint_eq(x.res.messages, y.res.messages);
    }
}
END_TEST

Suite *hr_xchg_suite(void)
{
    Suite *s = suite_create("xchg");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_xchg_every_byte);
    tcase_add_test(tc, test_xchg_by_hand);
    tcase_add_test(tc, test_xchg_lex_sync_penalty);
    tcase_add_test(tc, test_xchg_jitter);
    suite_add_tcase(s, tc);
    return s;
}
