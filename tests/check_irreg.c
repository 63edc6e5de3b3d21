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

/* Make a pattern instance: generator gen, density, bytes, seed (and for seed 002's generators
 * d, msg_unit and range); HR_OK or the code, why filled. */
static int make2(const char *gen, double density, uint64_t bytes, uint64_t d, uint64_t unit,
                 uint64_t range, int p, uint64_t seed, void **inst, char *why, size_t len)
{
    hr_wkey_value keys[6] = { { .word = gen }, { .num = density }, { .num = (double)bytes },
                              { .num = (double)d }, { .num = (double)unit },
                              { .num = (double)range } };
    hr_workload_spec spec = { .kind = "pattern", .keys = keys, .seed = seed };
    *inst = NULL;
    return pattern()->make(&spec, p, inst, why, len);
}

static int make(const char *gen, double density, uint64_t bytes, int p, uint64_t seed,
                void **inst, char *why, size_t len)
{
    return make2(gen, density, bytes, 8, 8, (uint64_t)p, p, seed, inst, why, len);
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

/* Seed 002's generators against their definitions: random_d (Appendix D) sends and receives
 * exactly d messages a processor, none to itself, sizes 1 .. range units; set2 (test set 2)
 * has its five sets of senders, distinct receivers, 16 units a sender; a file counts msg_unit
 * bytes an x entry. */
START_TEST(test_irreg_seed002_generators)
{
    static const struct { int p; uint64_t d; } cases[] = { { 8, 1 }, { 32, 4 }, { 32, 8 },
                                                           { 32, 16 }, { 32, 31 }, { 33, 20 },
                                                           { 512, 32 } };
    char why[256];
    void *inst;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int p = cases[c].p;
        ck_assert_int_eq(make2("random_d", 0, 0, cases[c].d, 16, 32, p, c + 1, &inst, why,
                               sizeof why), HR_OK);
        const hr_pattern *x = inst;
        for (int i = 0; i < p; i++) {
            uint64_t out = 0, in = 0;
            for (int j = 0; j < p; j++) {
                uint64_t a = x->com[(size_t)i * p + j], b = x->com[(size_t)j * p + i];
                ck_assert(a == 0 || (a % 16 == 0 && a >= 16 && a <= 32 * 16));
                out += a != 0;
                in += b != 0;
            }
            ck_assert_uint_eq(x->com[(size_t)i * p + i], 0);
            ck_assert_msg(out == cases[c].d && in == cases[c].d, "p %d d %llu: processor %d "
                          "sends %llu, receives %llu", p, (unsigned long long)cases[c].d, i,
                          (unsigned long long)out, (unsigned long long)in);
        }
        pattern()->destroy(inst);
    }
    ck_assert_int_eq(make2("random_d", 0, 0, 8, 16, 32, 8, 1, &inst, why, sizeof why), HR_EINVAL);
    ck_assert_msg(strstr(why, "needs d < p = 8") != NULL, "%s", why);
    /* set2: senders 0; 1-2; 3-6; 7-14; 15-31 with 1, 2, 4, 8, 16 messages of 16, 8, 4, 2, 1
     * units. */
    ck_assert_int_eq(make2("set2", 0, 0, 0, 10, 1, 32, 5, &inst, why, sizeof why), HR_OK);
    static const int first[6] = { 0, 1, 3, 7, 15, 32 }, dense[5] = { 1, 2, 4, 8, 16 },
                     length[5] = { 16, 8, 4, 2, 1 };
    const hr_pattern *x = inst;
    for (int k = 0; k < 5; k++)
        for (int i = first[k]; i < first[k + 1]; i++) {
            int n = 0;
            for (int j = 0; j < 32; j++)
                if (x->com[i * 32 + j] != 0) {
                    ck_assert_uint_eq(x->com[i * 32 + j], 10 * (uint64_t)length[k]);
                    ck_assert_int_ne(i, j);
                    n++;
                }
            ck_assert_int_eq(n, dense[k]);
        }
    pattern()->destroy(inst);
    ck_assert_int_eq(make2("set2", 0, 0, 0, 10, 1, 16, 5, &inst, why, sizeof why), HR_EINVAL);
    /* A file at msg_unit 24: three times mtx.c's 8 bytes an entry. */
    hr_mtx m;
    uint64_t com[16];
    ck_assert_int_eq(hr__mtx_read("tests/data/mtx/west0067.mtx", &m, why, sizeof why), HR_OK);
    ck_assert_int_eq(hr__mtx_spmv_pattern(&m, 4, com, why, sizeof why), HR_OK);
    hr__mtx_free(&m);
    ck_assert_int_eq(make2("file:tests/data/mtx/west0067.mtx", 0, 0, 0, 24, 1, 4, 1, &inst, why,
                           sizeof why), HR_OK);
    for (int k = 0; k < 16; k++)
        ck_assert_uint_eq(((hr_pattern *)inst)->com[k], com[k] * 3);
    pattern()->destroy(inst);
}
END_TEST

typedef struct outcome {
    hr_run_result res;
    int           verify;
    uint64_t      steps;
    char          why[256];
} outcome;

/* What each scheduler's schedule must be (sched.h): LS's steps are stars, seed 001's others and
 * LP pairs (LP with dummies), seed 002's CGMs permutations (CGMH's with split messages). */
static unsigned sched_flags(const char *name)
{
    if (strcmp(name, "irreg.ls") == 0)
        return 0;
    if (strcmp(name, "irreg.lp") == 0)
        return HR_SCHED_PAIRS | HR_SCHED_DUMMIES;
    if (strncmp(name, "irreg.cgmh", 10) == 0)
        return HR_SCHED_PERM | HR_SCHED_SPLITS;
    if (strncmp(name, "irreg.cgm", 9) == 0)
        return HR_SCHED_PERM;
    return HR_SCHED_PAIRS;
}

static void run_irreg(const char *name, void *inst, int p, const char *topology,
                      const char *disc, int jitter, outcome *o)
{
    const hr_algorithm *a = hr_algorithm_find(name);
    ck_assert_ptr_nonnull(a);
    memset(o, 0, sizeof *o);
    hr_plan_args args = { .params = NULL, .seed = 1 };
    ck_assert_int_eq(hr_cost_preset("cm5", &args.cost), HR_OK);
    ck_assert_int_eq(a->plan(inst, &args, o->why, sizeof o->why), HR_OK);
    o->steps = a->plan_steps(inst);
    /* The plan is a valid schedule of the instance's pattern. */
    const hr_pattern *x = inst;
    ck_assert_msg(hr__sched_check_flags(x->plan, x->com, sched_flags(name), o->why,
                                  sizeof o->why) == HR_OK, "%s: %s", name, o->why);
    hr_machine_config cfg = hr_test_config(p, disc);
    cfg.topology = topology;
    cfg.jitter = jitter;
    o->verify = hr_test_run_alg(&cfg, name, "pattern", inst, NULL, &o->res, o->why,
                                sizeof o->why);
    a->unplan(inst);
}

static const char *const algs[] = { "irreg.ls", "irreg.ps", "irreg.bs", "irreg.gs",
                                    "irreg.lp", "irreg.cgm", "irreg.cgm_sort", "irreg.cgm_heap",
                                    "irreg.cgmh_fixed", "irreg.cgmh_ms", "irreg.cgmh_bj" };
#define NALGS ((int)(sizeof algs / sizeof algs[0]))

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
                /* sizes 1 .. 16 units of 24 + i bytes: CGMH has messages to split */
                ck_assert_int_eq(i == 0 ? make("density", density, 24, p, 1, &inst, why,
                                               sizeof why)
                                        : make2("random_d", 0, 0, (uint64_t)(p - 1) / 2 + 1,
                                                24 + i, 16, p, i + 1, &inst, why, sizeof why),
                                 HR_OK);
                for (int a = 0; a < NALGS; a++) {
                    outcome o;
                    run_irreg(algs[a], inst, p, topos[t], discs[d], 0, &o);
                    ck_assert_msg(o.res.status == HR_OK && o.verify == HR_OK,
                                  "%s p %d %s %s: %s %s", algs[a], p, topos[t], discs[d],
                                  o.res.report, o.why);
                    /* Each message once, or in its parts; LP's dummies on top. */
                    uint64_t moved;
                    pattern()->min_bytes(inst, &moved);
                    if (a < 4 || strcmp(algs[a], "irreg.cgm") == 0)
                        ck_assert_uint_eq(o.res.messages, moved);
                    else
                        ck_assert_uint_ge(o.res.messages, moved);
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
    ck_assert_int_eq(make2("random_d", 0, 0, 5, 100, 16, 16, 3, &inst, why, sizeof why), HR_OK);
    for (int a = 0; a < NALGS; a++) {
        outcome x, y;
        run_irreg(algs[a], inst, 16, "fattree", "sync", 0, &x);
        run_irreg(algs[a], inst, 16, "fattree", "sync", 1, &y);
        ck_assert(x.verify == HR_OK && y.verify == HR_OK);
        ck_assert(x.res.model_time_s == y.res.model_time_s);
    }
    pattern()->destroy(inst);
}
END_TEST

/* AC: every byte with unlimited buffers; with a buffer too small for what arrives, everyone
 * blocks in hr_send and the report names the full buffers; strip mining completes with the same
 * buffer; jitter changes nothing. */
START_TEST(test_irreg_ac)
{
    char why[256];
    void *inst;
    ck_assert_int_eq(make2("random_d", 0, 0, 8, 64, 32, 32, 1, &inst, why, sizeof why), HR_OK);
    hr_machine_config cfg = hr_test_config(32, "async");
    hr_run_result res;
    char vwhy[256];
    double strip0[1] = { 0 }, strip2[1] = { 2 };
    ck_assert_int_eq(hr_test_run_alg(&cfg, "irreg.ac", "pattern", inst, strip0, &res, vwhy,
                                     sizeof vwhy), HR_OK);
    cfg.buffer = 4096;
    ck_assert_int_eq(hr_test_run_alg(&cfg, "irreg.ac", "pattern", inst, strip0, &res, vwhy,
                                     sizeof vwhy), HR_EFAIL);
    ck_assert_int_eq(res.status, HR_EDEADLK);
    ck_assert_msg(strstr(res.report, "receive buffer is full") != NULL, "%s", res.report);
    ck_assert_int_eq(hr_test_run_alg(&cfg, "irreg.ac", "pattern", inst, strip2, &res, vwhy,
                                     sizeof vwhy), HR_OK);
    double t = res.model_time_s;
    cfg.jitter = 1;
    ck_assert_int_eq(hr_test_run_alg(&cfg, "irreg.ac", "pattern", inst, strip2, &res, vwhy,
                                     sizeof vwhy), HR_OK);
    ck_assert(res.model_time_s == t);
    pattern()->destroy(inst);
    /* Several p, unlimited buffers. */
    static const int ps[] = { 2, 3, 5, 8, 64 };
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        ck_assert_int_eq(make("density", 30, 100, ps[i], 2, &inst, why, sizeof why), HR_OK);
        hr_machine_config c2 = hr_test_config(ps[i], "async");
        ck_assert_msg(hr_test_run_alg(&c2, "irreg.ac", "pattern", inst, strip2, &res, vwhy,
                                      sizeof vwhy) == HR_OK, "p %d: %s %s", ps[i], res.report,
                      vwhy);
        pattern()->destroy(inst);
    }
}
END_TEST

/* Seed 002's assumption 1: a permutation takes tau + M phi, M its largest message. The runner
 * lets each processor go on as soon as its own part is done (loosely synchronous, as the paper
 * says its CM-5 runs were), so on complete the model time is at most the sum over the
 * permutations; and a ring shift of m bytes, one permutation, takes exactly tau + sigma m (a
 * cycle of rendezvous by sendrecv). */
START_TEST(test_irreg_permutation_time)
{
    char why[256];
    void *inst;
    static const char *const perm[] = { "irreg.cgm", "irreg.cgm_heap", "irreg.cgmh_fixed",
                                        "irreg.cgmh_ms" };
    for (int d = 0; d < 2; d++)
        for (int a = 0; a < 4; a++) {
            ck_assert_int_eq(make2("random_d", 0, 0, 6, 64, 32, 16, 7, &inst, why, sizeof why),
                             HR_OK);
            const hr_algorithm *alg = hr_algorithm_find(perm[a]);
            hr_plan_args args = { .seed = 1 };
            /* In the order each row declares: cgmh_fixed's lambda, reset and base, cgmh_ms's
             * base (1: the senders still holding messages); the CGMs declare none. */
            static const double fixed[3] = { 0.75, 1, 1 }, ms[1] = { 1 };
            const double *params = a == 2 ? fixed : a == 3 ? ms : NULL;
            args.params = params;
            ck_assert_int_eq(hr_cost_preset("cm5", &args.cost), HR_OK);
            ck_assert_int_eq(alg->plan(inst, &args, why, sizeof why), HR_OK);
            const hr_sched *s = ((hr_pattern *)inst)->plan;
            double bound = 0;
            for (int k = 0; k < s->nsteps; k++) {
                uint64_t most = 0;
                for (size_t q = s->start[k]; q < s->start[k + 1]; q++)
                    most = s->xfer[q].bytes > most ? s->xfer[q].bytes : most;
                bound += 88e-6 + 50e-9 * (double)most;
            }
            hr_machine_config cfg = hr_test_config(16, d ? "sync" : "async");
            hr_run_result res;
            ck_assert_int_eq(hr_test_run_alg(&cfg, perm[a], "pattern", inst, params, &res, why,
                                             sizeof why), HR_OK);
            ck_assert_msg(res.model_time_s <= bound * (1 + 1e-12), "%s: %.9g s > %.9g s",
                          perm[a], res.model_time_s, bound);
            alg->unplan(inst);
            pattern()->destroy(inst);
        }
    /* A ring shift: i sends 1000 bytes to i + 1; one permutation, 138 us under cm5. */
    ck_assert_int_eq(make2("random_d", 0, 0, 1, 1000, 1, 8, 1, &inst, why, sizeof why), HR_OK);
    const hr_algorithm *alg = hr_algorithm_find("irreg.cgm");
    hr_plan_args args = { .seed = 1 };
    ck_assert_int_eq(hr_cost_preset("cm5", &args.cost), HR_OK);
    ck_assert_int_eq(alg->plan(inst, &args, why, sizeof why), HR_OK);
    ck_assert_uint_eq(alg->plan_steps(inst), 1);
    hr_machine_config cfg = hr_test_config(8, "sync");
    hr_run_result res;
    ck_assert_int_eq(hr_test_run_alg(&cfg, "irreg.cgm", "pattern", inst, NULL, &res, why,
                                     sizeof why), HR_OK);
    ck_assert_msg(fabs(res.model_time_s - 138e-6) < 1e-12, "%.9g", res.model_time_s);
    alg->unplan(inst);
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
    tcase_add_test(tc, test_irreg_seed002_generators);
    tcase_add_test(tc, test_irreg_ac);
    tcase_add_test(tc, test_irreg_permutation_time);
    suite_add_tcase(s, tc);
    return s;
}
