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

#include <unistd.h>

#include <hremu/algorithm.h>
#include <hremu/main.h>
#include <hremu/workload.h>
#include "alg/irreg.h"
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

/* What each scheduler's schedule must be (sched.h): LS's steps are stars, one receiver each in
 * ascending order; PS's, BS's and LP's pairs of one XOR a step (of the virtual numbers for BS;
 * LP with dummies); GS's pairs; seed 002's CGMs permutations (CGMH's with split messages). */
static unsigned sched_flags(const char *name)
{
    if (strcmp(name, "irreg.ls") == 0)
        return HR_SCHED_LINEAR;
    if (strcmp(name, "irreg.ps") == 0)
        return HR_SCHED_PAIRS | HR_SCHED_XOR;
    if (strcmp(name, "irreg.bs") == 0)
        return HR_SCHED_PAIRS | HR_SCHED_XOR_BS;
    if (strcmp(name, "irreg.lp") == 0)
        return HR_SCHED_PAIRS | HR_SCHED_PERM | HR_SCHED_XOR | HR_SCHED_DUMMIES;
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
    if (HR_TEST_TSAN)
        hr_test_skip("p > 8 on fattree or under sync: too slow under TSan", 1);
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

/* Every scheduler's plan, which checks its schedule before keeping it, succeeds on a sweep of p
 * and patterns; and the schedule it keeps holds this test's own list of what each promises. */
START_TEST(test_irreg_plans_keep_promises)
{
    static const int ps[] = { 1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 32, 33, 64, 100 };
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        for (int g = 0; g < 6; g++) {
            int p = ps[i];
            void *inst;
            char why[512];
            int err;
            if (g < 3)   /* density 5, 40, 100 percent, 8 * 8 bytes a unit */
                err = make("density", g == 0 ? 5 : g == 1 ? 40 : 100, 64, p, i + 1, &inst, why,
                           sizeof why);
            else if (g == 3 && p > 2)   /* d = p / 2 messages each of 1 .. 16 units */
                err = make2("random_d", 0, 0, (uint64_t)p / 2, 8, 16, p, i + 1, &inst, why,
                            sizeof why);
            else if (g == 4 && p == 32)
                err = make2("set2", 0, 0, 0, 10, 1, 32, 5, &inst, why, sizeof why);
            else if (g == 5 && p == 8)
                err = make("table6", 0, 256, 8, 1, &inst, why, sizeof why);
            else
                continue;
            ck_assert_msg(err == HR_OK, "p %d, pattern %d: %s", p, g, why);
            const hr_pattern *x = inst;
            for (int a = 0; a < NALGS; a++) {
                const hr_algorithm *alg = hr_algorithm_find(algs[a]);
                /* Each row's declared parameters, at their defaults but lambda = 3/4 */
                double params[HR_TEST_MAX_PARAMS];
                int np = 0;
                for (const hr_param_spec *q = alg->params; q != NULL && q->name != NULL; q++)
                    params[np++] = strcmp(q->name, "lambda") == 0 ? 0.75 : q->def;
                hr_plan_args args = { .params = params, .seed = (uint64_t)g + 1 };
                ck_assert_int_eq(hr_cost_preset("cm5", &args.cost), HR_OK);
                ck_assert_msg(alg->plan(inst, &args, why, sizeof why) == HR_OK,
                              "%s, p %d, pattern %d: %s", algs[a], p, g, why);
                ck_assert_msg(hr__sched_check_flags(x->plan, x->com, sched_flags(algs[a]), why,
                                                    sizeof why) == HR_OK,
                              "%s, p %d, pattern %d: %s", algs[a], p, g, why);
                alg->unplan(inst);
            }
            pattern()->destroy(inst);
        }
}
END_TEST

/* A scheduler gone wrong: every message of the pattern in one step (so a processor with two
 * messages sends twice in it), kept through hr__irreg_keep_plan as the real plans are, with
 * seed 002's promise (partial permutations). */
static int plan_all_at_once(void *inst, const hr_plan_args *args, char *why, size_t whylen)
{
    (void)args;
    const hr_pattern *x = inst;
    int p = x->p;
    hr_sched *s = malloc(sizeof *s);
    ck_assert_ptr_nonnull(s);
    size_t m = 0;
    for (size_t e = 0; e < (size_t)p * (size_t)p; e++)
        m += e / (size_t)p != e % (size_t)p && x->com[e] != 0;
    *s = (hr_sched){ .p = p, .nsteps = m > 0, .start = malloc(2 * sizeof(size_t)),
                     .xfer = malloc((m ? m : 1) * sizeof(hr_xfer)) };
    ck_assert(s->start != NULL && s->xfer != NULL);
    s->start[0] = 0;
    s->start[1] = m;
    m = 0;
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++)
            if (i != j && x->com[(size_t)i * p + j] != 0)
                s->xfer[m++] = (hr_xfer){ .src = i, .dst = j, .bytes = x->com[(size_t)i * p + j] };
    return hr__irreg_keep_plan(inst, s, HR_OK, HR_SCHED_PERM, 1, why, whylen);
}

/* LS's schedule of x with its first two steps made one (one step, two receivers). */
static int plan_ls_merged(void *inst, const hr_plan_args *args, char *why, size_t whylen)
{
    (void)args;
    const hr_pattern *x = inst;
    hr_sched *s = malloc(sizeof *s);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(hr__sched_ls(x->p, x->com, s), HR_OK);
    ck_assert_int_ge(s->nsteps, 2);
    for (int st = 1; st < s->nsteps; st++)
        s->start[st] = s->start[st + 1];
    s->nsteps--;
    return hr__irreg_keep_plan(inst, s, HR_OK, HR_SCHED_LINEAR, 0, why, whylen);
}

/* Gone wrong in a way the data cannot show: LS's steps in reverse order, the receivers
 * descending. It runs and delivers every byte, but it is not seed 001's LS. */
static int plan_ls_reversed(void *inst, const hr_plan_args *args, char *why, size_t whylen)
{
    (void)args;
    const hr_pattern *x = inst;
    hr_sched ls, *s = malloc(sizeof *s);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(hr__sched_ls(x->p, x->com, &ls), HR_OK);
    size_t m = ls.start[ls.nsteps];
    *s = (hr_sched){ .p = ls.p, .nsteps = ls.nsteps,
                     .start = malloc(((size_t)ls.nsteps + 1) * sizeof(size_t)),
                     .xfer = malloc((m ? m : 1) * sizeof(hr_xfer)) };
    ck_assert(s->start != NULL && s->xfer != NULL);
    s->start[0] = 0;
    for (int st = 0; st < ls.nsteps; st++) {
        size_t a = ls.start[ls.nsteps - 1 - st], b = ls.start[ls.nsteps - st];
        memcpy(s->xfer + s->start[st], ls.xfer + a, (b - a) * sizeof(hr_xfer));
        s->start[st + 1] = s->start[st] + (b - a);
    }
    hr__sched_free(&ls);
    return hr__irreg_keep_plan(inst, s, HR_OK, HR_SCHED_LINEAR, 0, why, whylen);
}

/* Pattern P (Table 6): processor 0 sends to 1, 3, 5 and 6. All at once, P0 sends twice in step
 * 1: the plan fails, naming the step and the processors, and keeps nothing; LS's schedule of P
 * with its first two steps made one fails LS's promise of one receiver a step. */
START_TEST(test_irreg_broken_schedule_refused)
{
    void *inst;
    char why[512];
    ck_assert_int_eq(make("table6", 0, 256, 8, 1, &inst, why, sizeof why), HR_OK);
    hr_plan_args args = { .seed = 1 };
    ck_assert_int_eq(plan_all_at_once(inst, &args, why, sizeof why), HR_EFAIL);
    ck_assert_str_eq(why, "the schedule breaks its promise: step 1: 0 sends twice (to 1 and 3)");
    ck_assert_ptr_null(((hr_pattern *)inst)->plan);

    /* LS's schedule of P with its first two steps made one: receivers 0 and 1 in step 1. */
    ck_assert_int_eq(plan_ls_merged(inst, &args, why, sizeof why), HR_EFAIL);
    ck_assert_str_eq(why, "the schedule breaks its promise: step 1: 0 -> 1 has receiver 1, the "
                          "step's first transfer 1 -> 0 receiver 0");
    ck_assert_ptr_null(((hr_pattern *)inst)->plan);
    /* The scheduler's own failure is said as before, and frees what it was given. */
    ck_assert_int_eq(hr__irreg_keep_plan(inst, calloc(1, sizeof(hr_sched)), HR_ENOMEM,
                                         HR_SCHED_LINEAR, 0, why, sizeof why), HR_ENOMEM);
    ck_assert_msg(strstr(why, "could not be made") != NULL, "%s", why);
    pattern()->destroy(inst);
}
END_TEST

/* The same schedulers as rows of the hremu command (a program's own algorithms, registered as
 * examples/own_command does): each row's status is failed, one line names the step and the
 * processors, and the exit status is 1. Without the check, all at once deadlocked and the
 * reversed LS ran and verified. */
static void run_command(char **argv, int argc, const char *out, const char *err, int *status)
{
    fflush(stdout);
    fflush(stderr);
    int o = dup(1), e = dup(2);
    FILE *fo = fopen(out, "w"), *fe = fopen(err, "w");
    ck_assert(o >= 0 && e >= 0 && fo != NULL && fe != NULL);
    ck_assert(dup2(fileno(fo), 1) >= 0 && dup2(fileno(fe), 2) >= 0);
    *status = hremu_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    ck_assert(dup2(o, 1) >= 0 && dup2(e, 2) >= 0);
    close(o);
    close(e);
    fclose(fo);
    fclose(fe);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

START_TEST(test_irreg_broken_schedule_fails_the_row)
{
    const char *fork = getenv("CK_FORK");
    if (fork != NULL && strcmp(fork, "no") == 0)
        HR_TEST_SKIP("registers an algorithm for good: only in a forked test, not CK_FORK=no");
    static const hr_algorithm all_at_once = {
        .name = "test.all_at_once", .summary = "every message in one step (a broken scheduler)",
        .kind = HR_KIND_PATTERN, .run = hr_alg_irreg_run, .plan = plan_all_at_once,
        .unplan = hr_alg_irreg_unplan, .plan_steps = hr_alg_irreg_plan_steps,
        .plan_print = hr_alg_irreg_plan_print };
    static const hr_algorithm ls_reversed = {
        .name = "test.ls_reversed", .summary = "LS's steps in reverse order (not seed 001's)",
        .kind = HR_KIND_PATTERN, .run = hr_alg_irreg_run, .plan = plan_ls_reversed,
        .unplan = hr_alg_irreg_unplan, .plan_steps = hr_alg_irreg_plan_steps,
        .plan_print = hr_alg_irreg_plan_print };
    const char *rwhy = NULL;
    ck_assert_int_eq(hr_algorithm_register(&all_at_once, &rwhy), HR_OK);
    ck_assert_int_eq(hr_algorithm_register(&ls_reversed, &rwhy), HR_OK);
    char cfg[64], out[64], err[64];
    snprintf(cfg, sizeof cfg, "/tmp/hremu_check_irreg_%ld.ini", (long)getpid());
    snprintf(out, sizeof out, "/tmp/hremu_check_irreg_%ld.out", (long)getpid());
    snprintf(err, sizeof err, "/tmp/hremu_check_irreg_%ld.err", (long)getpid());
    FILE *f = fopen(cfg, "w");
    ck_assert_ptr_nonnull(f);
    fputs("[machine]\nprocs = 8\ncost = cm5\nseed = 1\n[workload]\nkind = pattern\n"
          "pattern = table6\nbytes = 256\n[run]\n"
          "algorithms = irreg.gs, test.all_at_once, test.ls_reversed\n", f);
    ck_assert_int_eq(fclose(f), 0);
    char a0[] = "hremu", a2[] = "--format", a3[] = "csv", a4[] = "--columns",
         a5[] = "algorithm,plan_steps,verified,status";
    char *argv[] = { a0, cfg, a2, a3, a4, a5, NULL };
    int status;
    run_command(argv, 6, out, err, &status);
    ck_assert_int_eq(status, 1);
    ck_assert_str_eq(slurp(out), "algorithm,plan_steps,verified,status\n"
                                 "irreg.gs,6,true,ok\n"
                                 "test.all_at_once,,false,failed\n"
                                 "test.ls_reversed,,false,failed\n");
    const char *e = slurp(err);
    ck_assert_msg(strstr(e, "the off-line plan failed: the schedule breaks its promise: step 1: 0 "
                         "sends twice (to 1 and 3)\n") != NULL, "%s", e);
    ck_assert_msg(strstr(e, "hremu: test.ls_reversed: the off-line plan failed: the schedule "
                         "breaks its promise: step 2: 0 -> 6 has receiver 6, not above step 1's "
                         "7\n") != NULL, "%s", e);
    unlink(cfg);
    unlink(out);
    unlink(err);
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
    tcase_add_test(tc, test_irreg_plans_keep_promises);
    tcase_add_test(tc, test_irreg_broken_schedule_refused);
    tcase_add_test(tc, test_irreg_broken_schedule_fails_the_row);
    suite_add_tcase(s, tc);
    return s;
}
