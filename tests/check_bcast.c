/* check_bcast.c: seed 001's broadcasts (LIB, REB) and the system's, on the values workload:
 * every root of several p on complete and fattree under async and sync, to all and to the rows
 * and columns of a mesh, checked by the workload's verifier; model times by hand; a mesh that
 * does not divide p refused; the same figures under jitter. */
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

/* Broadcast m 64-bit values from root on p processors; group and rows as the parameters. */
static void run_bcast(const char *name, const char *topology, int p, uint64_t m, int root,
                      int group, int rows, const char *disc, int jitter, outcome *o)
{
    const hr_workload *w = hr_workload_find("values");
    hr_wkey_value keys[2] = { { .word = "sum" }, { .num = root } };
    hr_workload_spec spec = { .kind = "values", .n = m * (uint64_t)p, .dataset = "int",
                              .keys = keys, .seed = 3 };
    void *inst = NULL;
    char why[256] = "";
    ck_assert_msg(w->make(&spec, p, &inst, why, sizeof why) == HR_OK, "%s", why);
    hr_machine_config cfg = hr_test_config(p, disc);
    cfg.topology = topology;
    cfg.jitter = jitter;
    const double params[2] = { group, rows };
    memset(o, 0, sizeof *o);
    o->verify = hr_test_run_alg(&cfg, name, "values", inst, params, &o->res, o->why,
                                sizeof o->why);
    w->destroy(inst);
}

static const char *const algs[] = { "bcast.linear", "bcast.recursive", "bcast.system" };

START_TEST(test_bcast_every_root)
{
    static const int ps[] = { 2, 3, 5, 8, 32, 64 };
    static const char *const topos[] = { "complete", "fattree" };
    static const char *const discs[] = { "async", "sync" };
    for (int a = 0; a < 3; a++)
        for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
            for (int t = 0; t < 2; t++)
                for (int d = 0; d < 2; d++) {
                    int p = ps[i], step = p > 8 ? (HR_TEST_TSAN ? 29 : 7) : 1;
                    for (int r = 0; r < p; r += step) {
                        outcome o;
                        run_bcast(algs[a], topos[t], p, 3, r, 0, 0, discs[d], 0, &o);
                        ck_assert_msg(o.res.status == HR_OK && o.verify == HR_OK,
                                      "%s p %d root %d %s %s: %s %s", algs[a], p, r, topos[t],
                                      discs[d], o.res.report, o.why);
                        if (a < 2)   /* one message to each processor but the root */
                            ck_assert_uint_eq(o.res.messages, (uint64_t)(p - 1));
                    }
                }
}
END_TEST

/* Rows and columns of a mesh at once (the selective broadcast of sec. 3.6). */
START_TEST(test_bcast_rows_and_columns)
{
    static const struct { int p, rows; } meshes[] = { { 8, 2 }, { 32, 4 }, { 64, 0 }, { 12, 3 } };
    for (int a = 0; a < 3; a++)
        for (size_t m = 0; m < sizeof meshes / sizeof meshes[0]; m++)
            for (int group = 1; group <= 2; group++)
                for (int r = 0; r < meshes[m].p; r += 5) {
                    outcome o;
                    run_bcast(algs[a], "complete", meshes[m].p, 2, r, group, meshes[m].rows,
                              "sync", 0, &o);
                    ck_assert_msg(o.res.status == HR_OK && o.verify == HR_OK,
                                  "%s p %d rows %d group %d root %d: %s %s", algs[a],
                                  meshes[m].p, meshes[m].rows, group, r, o.res.report, o.why);
                    /* One message to each processor that is not its group's root. */
                    int rows = meshes[m].rows ? meshes[m].rows : 8;
                    int groups = group == 1 ? rows : meshes[m].p / rows;
                    if (a < 2)
                        ck_assert_uint_eq(o.res.messages, (uint64_t)(meshes[m].p - groups));
                }
    outcome o;
    run_bcast("bcast.recursive", "complete", 12, 1, 0, 1, 5, "async", 0, &o);
    ck_assert_int_eq(o.res.status, HR_EFAIL);
    ck_assert_msg(strstr(o.res.report, "rows = 5 does not divide p = 12") != NULL, "%s",
                  o.res.report);
}
END_TEST

/* By hand, cm5 (tau 88 us, sigma 50 ns a byte), 125 values = 1000 bytes, p = 4, root 0:
 * - LIB async: three sends leave the port at 0, 50, 100, arrive 88, 138, 188 and are absorbed
 *   at 138, 188, 238: 238 us. Under sync each rendezvous waits for the one before: 3 x 138.
 * - REB: 0 -> 2 absorbed at 138; then 0 -> 1 (async: the port is free at 50, absorbed at 188;
 *   sync: from 138, at 276) and 2 -> 3 from 138, absorbed at 276: 276 us either way. */
START_TEST(test_bcast_by_hand)
{
    static const struct { const char *alg, *disc; double us; } cases[] = {
        { "bcast.linear", "async", 238 }, { "bcast.linear", "sync", 414 },
        { "bcast.recursive", "async", 276 }, { "bcast.recursive", "sync", 276 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        outcome o;
        run_bcast(cases[c].alg, "complete", 4, 125, 0, 0, 0, cases[c].disc, 0, &o);
        ck_assert_msg(o.verify == HR_OK, "%s", o.why);
        ck_assert_msg(o.res.model_time_s > cases[c].us * 1e-6 - 1e-12 &&
                      o.res.model_time_s < cases[c].us * 1e-6 + 1e-12, "%s %s: %.9g s, want %g us",
                      cases[c].alg, cases[c].disc, o.res.model_time_s, cases[c].us);
    }
}
END_TEST

START_TEST(test_bcast_jitter)
{
    for (int a = 0; a < 3; a++) {
        outcome x, y;
        run_bcast(algs[a], "fattree", 32, 64, 5, 0, 0, "sync", 0, &x);
        run_bcast(algs[a], "fattree", 32, 64, 5, 0, 0, "sync", 1, &y);
        ck_assert(x.verify == HR_OK && y.verify == HR_OK);
        ck_assert(x.res.model_time_s == y.res.model_time_s);
    }
}
END_TEST

Suite *hr_bcast_suite(void)
{
    Suite *s = suite_create("bcast");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_bcast_every_root);
    tcase_add_test(tc, test_bcast_rows_and_columns);
    tcase_add_test(tc, test_bcast_by_hand);
    tcase_add_test(tc, test_bcast_jitter);
    suite_add_tcase(s, tc);
    return s;
}
