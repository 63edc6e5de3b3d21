/* check_irreg.c: the pattern workload (density, table6, file:PATH) against its definitions, and
 * seed 001's schedulers LS, PS, BS and GS running their plans on it: every byte where it belongs
 * for p in {2, 3, 5, 8, 32, 64} on complete and fattree, under async and sync; the plan's steps
 * against the schedule's; pattern P's 8, 6, 7 and 6 steps; a model time by hand; refusals; the
 * same figures under jitter. */
#include "hr_test.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/algorithm.h>
#include <hremu/workload.h>
#include "alg/sched.h"
#include "work/mtx.h"
#include "work/pattern.h"

static const hr_workload *pattern(void)
{
    const hr_workload *w = hr_workload_find("pattern");
    ck_assert_ptr_nonnull(w);
    return w;
}

/* Make a pattern instance: generator gen, density, bytes, seed; HR_OK or the code, why filled. */
static int make(const char *gen, double density, uint64_t bytes, int p, uint64_t seed,
                void **inst, char *why, size_t len)
{
    hr_wkey_value keys[3] = { { .word = gen }, { .num = density }, { .num = (double)bytes } };
    hr_workload_spec spec = { .kind = "pattern", .keys = keys, .seed = seed };
    *inst = NULL;
    return pattern()->make(&spec, p, inst, why, len);
}

START_TEST(test_irreg_density_generator)
{
    static const int ps[] = { 2, 5, 32 };
    static const double ds[] = { 0, 10, 25, 50, 75, 100 };
    for (size_t i = 0; i < 3; i++)
        for (size_t d = 0; d < 6; d++) {
            int p = ps[i];
            void *inst;
            char why[256];
            ck_assert_int_eq(make("density", ds[d], 300, p, 9, &inst, why, sizeof why), HR_OK);
            const hr_pattern *x = inst;
            /* Exactly round(d p (p-1) / 100) messages of 300 bytes, none on the diagonal. */
            long want = lround(ds[d] / 100.0 * p * (p - 1)), got = 0;
            for (int a = 0; a < p; a++)
                for (int b = 0; b < p; b++) {
                    uint64_t c = x->com[a * p + b];
                    ck_assert(c == 0 || c == 300);
                    ck_assert(a != b || c == 0);
                    got += c != 0;
                }
            ck_assert_int_eq(got, want);
            uint64_t moved;
            ck_assert_uint_eq(pattern()->min_bytes(inst, &moved), 300 * (uint64_t)want);
            ck_assert_uint_eq(moved, (uint64_t)want);
            pattern()->destroy(inst);
        }
    /* Another seed, another choice of pairs (at 50 % of 32 x 31 two draws agreeing would be
     * astronomically unlikely). */
    void *a, *b;
    char why[256];
    ck_assert_int_eq(make("density", 50, 8, 32, 1, &a, why, sizeof why), HR_OK);
    ck_assert_int_eq(make("density", 50, 8, 32, 2, &b, why, sizeof why), HR_OK);
    ck_assert(memcmp(((hr_pattern *)a)->com, ((hr_pattern *)b)->com, 32 * 32 * 8) != 0);
    pattern()->destroy(a);
    pattern()->destroy(b);
}
END_TEST

START_TEST(test_irreg_table6_and_file)
{
    /* Table 6's pattern P, row by row (sender i, receiver j). */
    static const char P[8][9] = { "01010110", "10101111", "01010000", "10101110",
                                  "01110101", "01001010", "10110101", "11001010" };
    void *inst;
    char why[256];
    ck_assert_int_eq(make("table6", 0, 512, 8, 1, &inst, why, sizeof why), HR_OK);
    const hr_pattern *x = inst;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            ck_assert_uint_eq(x->com[i * 8 + j], P[i][j] == '1' ? 512 : 0);
    ck_assert_uint_eq(pattern()->h(inst), 5 * 512);   /* processors 1, 5 and 6 receive 5 */
    pattern()->destroy(inst);
    /* A file: the SpMV pattern of mtx.c, the same matrix read apart. */
    ck_assert_int_eq(make("file:tests/data/mtx/west0067.mtx", 0, 1, 4, 1, &inst, why, sizeof why),
                     HR_OK);
    hr_mtx m;
    uint64_t com[16];
    ck_assert_int_eq(hr__mtx_read("tests/data/mtx/west0067.mtx", &m, why, sizeof why), HR_OK);
    ck_assert_int_eq(hr__mtx_spmv_pattern(&m, 4, com, why, sizeof why), HR_OK);
    ck_assert(memcmp(((hr_pattern *)inst)->com, com, sizeof com) == 0);
    hr__mtx_free(&m);
    pattern()->destroy(inst);
    /* Refusals, one line each. */
    static const struct { const char *gen; int p; const char *why; } bad[] = {
        { "table6", 16, "pattern table6 is seed 001's pattern P of 8 processors, not 16" },
        { "file:tests/data/mtx/west0067.mtx", 68, "" },
        { "file:tests/data/mtx/empty.mtx", 2, "" },
        { "file:tests/data/mtx/mangled1.mtx", 2, "tests/data/mtx/mangled1.mtx:1: " },
        { "file:tests/data/mtx/no-such.mtx", 2, "tests/data/mtx/no-such.mtx: cannot open" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        why[0] = '\0';
        ck_assert_int_eq(make(bad[k].gen, 0, 1, bad[k].p, 1, &inst, why, sizeof why), HR_EINVAL);
        ck_assert_ptr_null(inst);
        ck_assert_msg(why[0] != '\0' && strchr(why, '\n') == NULL && strstr(why, bad[k].why),
                      "%s: %s", bad[k].gen, why);
    }
}
END_TEST

typedef struct outcome {
    hr_run_result res;
    int           verify;
    uint64_t      steps;
    char          why[256];
} outcome;

static void run_irreg(const char *name, void *inst, int p, const char *topology,
                      const char *disc, int jitter, outcome *o)
{
    const hr_algorithm *a = hr_algorithm_find(name);
    ck_assert_ptr_nonnull(a);
    memset(o, 0, sizeof *o);
    ck_assert_int_eq(a->plan(inst, o->why, sizeof o->why), HR_OK);
    o->steps = a->plan_steps(inst);
    /* The plan is a valid schedule of the instance's pattern. */
    const hr_pattern *x = inst;
    ck_assert_msg(hr__sched_check(x->plan, x->com, strcmp(name, "irreg.ls") != 0, o->why,
                                  sizeof o->why) == HR_OK, "%s: %s", name, o->why);
    hr_machine_config cfg = hr_test_config(p, disc);
    cfg.topology = topology;
    cfg.jitter = jitter;
    o->verify = hr_test_run_alg(&cfg, name, "pattern", inst, NULL, &o->res, o->why,
                                sizeof o->why);
    a->unplan(inst);
}

static const char *const algs[] = { "irreg.ls", "irreg.ps", "irreg.bs", "irreg.gs" };

START_TEST(test_irreg_every_byte)
{
    static const int ps[] = { 2, 3, 5, 8, 32, 64 };
    static const char *const topos[] = { "complete", "fattree" };
    static const char *const discs[] = { "async", "sync" };
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        for (int t = 0; t < 2; t++)
            for (int d = 0; d < 2; d++) {
                int p = ps[i];
                if (HR_TEST_TSAN && p > 8 && (t || d))
                    continue;
                void *inst;
                char why[256];
                double density = 10.0 + 20.0 * (double)((i + (size_t)t + (size_t)d) % 4);
                ck_assert_int_eq(make("density", density, 24 + i, p, i + 1, &inst, why,
                                      sizeof why), HR_OK);
                for (int a = 0; a < 4; a++) {
                    outcome o;
                    run_irreg(algs[a], inst, p, topos[t], discs[d], 0, &o);
                    ck_assert_msg(o.res.status == HR_OK && o.verify == HR_OK,
                                  "%s p %d %s %s: %s %s", algs[a], p, topos[t], discs[d],
                                  o.res.report, o.why);
                    uint64_t moved;
                    pattern()->min_bytes(inst, &moved);
                    ck_assert_uint_eq(o.res.messages, moved);   /* each message once */
                }
                pattern()->destroy(inst);
            }
}
END_TEST

/* Pattern P: the paper's step counts; and p = 2 with the one message 0 -> 1 of 1000 bytes: one
 * step, one rendezvous, tau + sigma m = 88 + 50 = 138 us under cm5 for every scheduler. */
START_TEST(test_irreg_steps_and_time)
{
    static const uint64_t steps[4] = { 8, 6, 7, 6 };
    void *inst;
    char why[256];
    ck_assert_int_eq(make("table6", 0, 256, 8, 1, &inst, why, sizeof why), HR_OK);
    for (int a = 0; a < 4; a++) {
        outcome o;
        run_irreg(algs[a], inst, 8, "fattree", "sync", 0, &o);
        ck_assert_uint_eq(o.steps, steps[a]);
        ck_assert_int_eq(o.verify, HR_OK);
    }
    pattern()->destroy(inst);
    ck_assert_int_eq(make("density", 50, 1000, 2, 1, &inst, why, sizeof why), HR_OK);
    const hr_pattern *x = inst;
    ck_assert_uint_eq(x->com[1] + x->com[2], 1000);   /* one of the two pairs */
    for (int a = 0; a < 4; a++) {
        outcome o;
        run_irreg(algs[a], inst, 2, "complete", "sync", 0, &o);
        ck_assert_uint_eq(o.steps, 1);
        ck_assert_msg(fabs(o.res.model_time_s - 138e-6) < 1e-12, "%s: %.9g", algs[a],
                      o.res.model_time_s);
    }
    pattern()->destroy(inst);
}
END_TEST

START_TEST(test_irreg_jitter)
{
    void *inst;
    char why[256];
    ck_assert_int_eq(make("density", 40, 100, 16, 3, &inst, why, sizeof why), HR_OK);
    for (int a = 0; a < 4; a++) {
        outcome x, y;
        run_irreg(algs[a], inst, 16, "fattree", "sync", 0, &x);
        run_irreg(algs[a], inst, 16, "fattree", "sync", 1, &y);
        ck_assert(x.verify == HR_OK && y.verify == HR_OK);
        ck_assert(x.res.model_time_s == y.res.model_time_s);
    }
    pattern()->destroy(inst);
}
END_TEST

Suite *hr_irreg_suite(void)
{
    Suite *s = suite_create("irreg");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_irreg_density_generator);
    tcase_add_test(tc, test_irreg_table6_and_file);
    tcase_add_test(tc, test_irreg_every_byte);
    tcase_add_test(tc, test_irreg_steps_and_time);
    tcase_add_test(tc, test_irreg_jitter);
    suite_add_tcase(s, tc);
    return s;
}
