/* check_alg.c: the algorithm registry, and every algorithm run on real machines and verified. */
#include "hr_test.h"

#include <stdio.h>
#include <string.h>
#include <hremu/algorithm.h>
#include <hremu/workload.h>

START_TEST(test_alg_registry_sorted_unique_described)
{
    const hr_algorithm *prev = NULL;
    int n = 0;
    for (const hr_algorithm *a; (a = hr_algorithm_at(n)) != NULL; n++, prev = a) {
        ck_assert_ptr_nonnull(a->run);
        ck_assert(a->summary != NULL && strlen(a->summary) > 10);
        ck_assert_ptr_eq(hr_algorithm_find(a->name), a);
        ck_assert(strchr(a->name, '.') != NULL);
        if (prev != NULL)
            ck_assert_msg(strcmp(prev->name, a->name) < 0, "%s before %s", prev->name, a->name);
        ck_assert_ptr_nonnull(hr_workload_at(0));
        for (const hr_param_spec *ps = a->params; ps != NULL && ps->name != NULL; ps++)
            ck_assert(ps->min <= ps->def && ps->def <= ps->max);
    }
    ck_assert_int_ge(n, 1);
    ck_assert_ptr_null(hr_algorithm_find("hrel.nonesuch"));
    ck_assert_ptr_null(hr_algorithm_at(-1));
}
END_TEST

START_TEST(test_alg_allows_disciplines)
{
    hr_algorithm a = { .name = "x.y", .disciplines = "fifo,priority" };
    ck_assert(hr_algorithm_allows(&a, "fifo"));
    ck_assert(hr_algorithm_allows(&a, "priority"));
    ck_assert(!hr_algorithm_allows(&a, "prio"));
    ck_assert(!hr_algorithm_allows(&a, "async"));
    a.disciplines = NULL;
    ck_assert(hr_algorithm_allows(&a, "async"));
}
END_TEST

typedef struct alg_job {
    const hr_algorithm *alg;
    void               *inst;
    double              params[8];
    int                 corrupt;     /* drop processor 0's last received element */
} alg_job;

static void body_alg(hr_proc *p, void *arg)
{
    alg_job *j = arg;
    j->alg->run(p, j->inst, j->params);
    if (j->corrupt && hr_pid(p) == 0) {
        hr_hrel *h = j->inst;
        if (h->out_count[0] > 0)
            h->out_count[0]--;
    }
}

/* Run alg on a fresh machine of p processors with distribution dist; returns the verify code. */
static int run_alg(const hr_algorithm *a, int p, const char *dist, uint64_t n, uint64_t h,
                   int corrupt, hr_run_result *res, char *why, size_t whylen)
{
    const hr_workload *w = hr_workload_find("hrelation");
    hr_workload_spec spec = { "hrelation", n, h, dist, 3 };
    alg_job j = { .alg = a, .corrupt = corrupt };
    for (int k = 0; a->params != NULL && a->params[k].name != NULL; k++)
        j.params[k] = a->params[k].def;
    ck_assert_msg(w->make(&spec, p, &j.inst, why, whylen) == HR_OK, "make: %s", why);
    hr_machine_config cfg = hr_test_config(p, NULL);
    hr_machine *m;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    ck_assert_int_eq(hr_machine_run(m, body_alg, &j, res), HR_OK);
    /* outputs are the processors' memory: verify before the machine goes */
    int v = res->status == HR_OK ? w->verify(j.inst, why, whylen) : res->status;
    hr_machine_destroy(m);
    w->destroy(j.inst);
    return v;
}

START_TEST(test_alg_every_algorithm_verifies)
{
    static const int sizes[] = { 1, 2, 3, 8, 64 };
    static const char *dists[] = { "uniform", "transpose", "skewed" };
    char why[256];
    for (int i = 0; hr_algorithm_at(i) != NULL; i++) {
        const hr_algorithm *a = hr_algorithm_at(i);
        if (a->kind != HR_KIND_HRELATION)
            continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (size_t d = 0; d < 3; d++) {
                int p = sizes[s];
                uint64_t n = (uint64_t)p * p * 16;
                hr_run_result res;
                uint64_t h = d != 2 ? 0 : p >= 4 ? 4 * n / p : n / p;
                int v = run_alg(a, p, dists[d], n, h, 0, &res, why, sizeof why);
                ck_assert_msg(v == HR_OK, "%s p=%d %s: %s %s", a->name, p, dists[d], why,
                              res.report);
            }
    }
}
END_TEST

START_TEST(test_alg_verifier_catches_corruption)
{
    char why[256] = "";
    hr_run_result res;
    int v = run_alg(hr_algorithm_find("hrel.direct"), 4, "uniform", 4096, 0, 1, &res, why,
                    sizeof why);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_int_eq(v, HR_EVERIFY);
    ck_assert(strlen(why) > 0);
}
END_TEST

START_TEST(test_alg_direct_model_cost)
{
    /* transpose distribution, p = 4, n = 4096: every processor sends 256 elements (2 KiB) to each
     * other one. Counts: tau + 3 * 8 bytes * sigma; data: tau + 3 * 2048 * sigma; the counting sort
     * charges 2 * 1024 units of 1 ns. 2.048 us + 88 + 1.2 + 88 + 307.2 us = 486.448 us */
    char why[256];
    hr_run_result res;
    int v = run_alg(hr_algorithm_find("hrel.direct"), 4, "transpose", 4096, 0, 0, &res, why,
                    sizeof why);
    ck_assert_int_eq(v, HR_OK);
    ck_assert_double_eq_tol(res.model_time_s, 486.448e-6, 1e-12);
    ck_assert_uint_eq(res.rounds, 2);
    ck_assert_uint_eq(res.messages, 2 * 4 * 3);
    ck_assert_uint_eq(res.max_in_bytes, 3 * 8 + 3 * 2048);
}
END_TEST

START_TEST(test_alg_direct_on_1024_processors)
{
    char why[256];
    hr_run_result res;
    /* 64 elements each: up to 64 messages per processor, 1024 threads on this box's cores */
    int p = HR_TEST_SCALE_PROCS;
    int v = run_alg(hr_algorithm_find("hrel.direct"), p, "uniform", 64u * (unsigned)p, 0, 0, &res,
                    why, sizeof why);
    ck_assert_msg(v == HR_OK, "%s %s", why, res.report);
    ck_assert_uint_eq(res.rounds, 2);
}
END_TEST

Suite *hr_alg_suite(void)
{
    Suite *s = suite_create("alg");
    TCase *tc = tcase_create("registry");
    tcase_add_test(tc, test_alg_registry_sorted_unique_described);
    tcase_add_test(tc, test_alg_allows_disciplines);
    suite_add_tcase(s, tc);
    tc = tcase_create("run");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_alg_every_algorithm_verifies);
    tcase_add_test(tc, test_alg_verifier_catches_corruption);
    tcase_add_test(tc, test_alg_direct_model_cost);
    suite_add_tcase(s, tc);
    tc = tcase_create("limits");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_alg_direct_on_1024_processors);
    suite_add_tcase(s, tc);
    return s;
}
