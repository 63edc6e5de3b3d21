/* check_determinism.c: model figures do not depend on the thread schedule. Each program runs
 * several times with HREMU_JITTER's random yields and sleeps and must give bit-identical model
 * figures (and per-processor clocks) to a quiet run. */
#include "hr_test.h"

#include <stdlib.h>
#include <string.h>
#include <hremu/algorithm.h>
#include <hremu/workload.h>

typedef struct det_job {
    void   *inst;
    double  clocks[64];
} det_job;

/* A busy mix: hrel.direct, then random point-to-point traffic received from ANY, a scan and a
 * superstep with puts, all with random local work. */
static void body_mix(hr_proc *p, void *arg)
{
    det_job *j = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    hr_algorithm_find("hrel.direct")->run(p, j->inst, NULL);
    int sends = (int)hr_rand_below(p, 5);
    int counts[64] = { 0 }, in[64];
    for (int k = 0; k < sends; k++) {
        int d = (int)hr_rand_below(p, (uint64_t)n);
        counts[d]++;
        hr_compute(p, (double)hr_rand_below(p, 5000));
        hr_send(p, d, 1, &me, sizeof me);
    }
    hr_alltoallv(p, counts, (size_t[64]){ 0 }, (size_t[64]){ 0 }, in, (size_t[64]){ 0 },
                 (size_t[64]){ 0 }, sizeof(int));   /* an empty exchange: no messages */
    hr_transpose(p, counts, in, sizeof(int));
    int expect = 0;
    for (int s = 0; s < n; s++)
        expect += in[s];
    for (int k = 0; k < expect; k++) {
        int v;
        hr_recv(p, HR_ANY, 1, &v, sizeof v, NULL);
        hr_compute(p, (double)(v % 7) * 100);
    }
    int64_t x = me, y;
    hr_scan(p, &x, &y, 1, HR_INT64, HR_SUM);
    static int slots[64][64];
    int slot = hr_register(p, slots[me], sizeof slots[me]);
    hr_put(p, (me + 3) % n, slot, sizeof(int) * (size_t)me, &me, sizeof me);
    hr_sync(p);
    j->clocks[me] = hr_now(p);
}

static void run_mix_seed(int p, int jitter, hr_run_result *res, det_job *j, uint64_t seed)
{
    const hr_workload *w = hr_workload_find("hrelation");
    hr_workload_spec spec = { .kind = "hrelation", .n = (uint64_t)p * 512, .h = 4 * 512,
                              .distribution = "skewed", .seed = seed };
    char why[200];
    ck_assert_msg(w->make(&spec, p, &j->inst, why, sizeof why) == HR_OK, "%s", why);
    hr_machine_config cfg = hr_test_config(p, NULL);
    cfg.jitter = jitter;
    cfg.seed = seed;
    hr_test_run(&cfg, body_mix, j, res);
    w->destroy(j->inst);
    ck_assert_msg(res->status == HR_OK, "status %d: %s", res->status, res->report);
}

/* p even and >= 4: skewed with h = 4 * 512 needs 2n/h = p/2 to be a whole number >= 2. */
static void run_mix(int p, int jitter, hr_run_result *res, det_job *j)
{
    run_mix_seed(p, jitter, res, j, 9);
}

START_TEST(test_determinism_under_jitter)
{
    static const int sizes[] = { 4, 16, 64 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int p = sizes[s];
        det_job quiet, loud;
        hr_run_result a, b;
        memset(&quiet, 0, sizeof quiet);
        run_mix(p, 0, &a, &quiet);
        for (int rep = 0; rep < 3; rep++) {
            memset(&loud, 0, sizeof loud);
            run_mix(p, 1, &b, &loud);
            ck_assert(a.model_time_s == b.model_time_s);
            ck_assert_uint_eq(a.messages, b.messages);
            ck_assert_uint_eq(a.bytes, b.bytes);
            ck_assert_uint_eq(a.max_in_bytes, b.max_in_bytes);
            ck_assert_uint_eq(a.max_out_bytes, b.max_out_bytes);
            ck_assert_uint_eq(a.rounds, b.rounds);
            for (int i = 0; i < p; i++)
                ck_assert_msg(quiet.clocks[i] == loud.clocks[i], "P%d: %.12g vs %.12g", i,
                              quiet.clocks[i], loud.clocks[i]);
        }
    }
}
END_TEST

/* make stress: many seeds and sizes, each against a quiet run (HREMU_STRESS=1 only). */
START_TEST(test_determinism_stress_many_seeds)
{
    static const int sizes[] = { 4, 6, 10, 16, 24, 36, 54, 64 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    for (uint64_t seed = 1; seed <= 10; seed++) {
        det_job quiet, loud;
        hr_run_result a, b;
        int n = sizes[k];
        memset(&quiet, 0, sizeof quiet);
        run_mix_seed(n, 0, &a, &quiet, seed);
        for (int rep = 0; rep < 3; rep++) {
            memset(&loud, 0, sizeof loud);
            run_mix_seed(n, 1, &b, &loud, seed);
            ck_assert(a.model_time_s == b.model_time_s);
            ck_assert_uint_eq(a.messages, b.messages);
            for (int i = 0; i < n; i++)
                ck_assert(quiet.clocks[i] == loud.clocks[i]);
        }
    }
}
END_TEST

/* HREMU_JITTER, read by a machine whose .jitter is -1: 1 jitters, 0, empty or unset do not, and
 * any other value is refused by name (hr_machine_jitter_env, hr_machine_check). One that sets
 * .jitter itself does not read it. */
START_TEST(test_determinism_jitter_env)
{
    const char *was = getenv("HREMU_JITTER");
    char *saved = was != NULL ? strdup(was) : NULL;
    static const struct { const char *v; int on; } cases[] = {
        { NULL, 0 }, { "", 0 }, { "0", 0 }, { "1", 1 }, { "yes", -1 }, { "2", -1 }, { " 1", -1 },
    };
    hr_machine_config cfg = hr_test_config(4, "async");
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        if (cases[k].v == NULL)
            unsetenv("HREMU_JITTER");
        else
            ck_assert_int_eq(setenv("HREMU_JITTER", cases[k].v, 1), 0);
        ck_assert_int_eq(hr_machine_jitter_env(), cases[k].on);
        const char *why = NULL;
        cfg.jitter = -1;
        ck_assert_int_eq(hr_machine_check(&cfg, &why), cases[k].on < 0 ? HR_EINVAL : HR_OK);
        if (cases[k].on < 0)
            ck_assert_str_eq(why, "HREMU_JITTER must be 1 (yield and sleep at random at every "
                                  "communication point), 0 or unset");
        cfg.jitter = 0;
        ck_assert_int_eq(hr_machine_check(&cfg, NULL), HR_OK);
    }
    if (saved != NULL)
        setenv("HREMU_JITTER", saved, 1);
    else
        unsetenv("HREMU_JITTER");
    free(saved);
}
END_TEST

Suite *hr_determinism_suite(void)
{
    Suite *s = suite_create("determinism");
    TCase *tc = tcase_create("jitter");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_determinism_under_jitter);
    tcase_add_test(tc, test_determinism_jitter_env);
    suite_add_tcase(s, tc);
    if (getenv("HREMU_STRESS") != NULL) {
        tc = tcase_create("stress");
        tcase_set_timeout(tc, 1200);
        tcase_add_test(tc, test_determinism_stress_many_seeds);
        suite_add_tcase(s, tc);
    }
    return s;
}
