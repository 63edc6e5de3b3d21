/* check_ring_sum.c: unit-testing ring_sum on a laptop, no mpirun: build a machine in the test, run
 * the algorithm, and assert its result and a bound on its model cost. */
#include <check.h>
#include <stdlib.h>
#include <hremu/machine.h>

#include "ring_sum.h"

typedef struct job {
    int64_t result[64];
} job;

static void body(hr_proc *p, void *arg)
{
    job *j = arg;
    j->result[hr_pid(p)] = ring_sum(p, 10 * hr_pid(p) + 1);
}

START_TEST(test_ring_sum_result_and_cost)
{
    for (int n = 1; n <= 64; n *= 2) {
        hr_machine_config cfg = { .procs = n, .seed = 1, .jitter = -1 };
        ck_assert_int_eq(hr_cost_preset("cm5", &cfg.cost), HR_OK);
        hr_machine *m;
        ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
        job j;
        hr_run_result res;
        ck_assert_int_eq(hr_machine_run(m, body, &j, &res), HR_OK);
        hr_machine_destroy(m);
        ck_assert_int_eq(res.status, HR_OK);
        int64_t want = 0;                       /* sum of 10 i + 1 over i < n */
        for (int i = 0; i < n; i++)
            want += 10 * i + 1;
        for (int i = 0; i < n; i++)
            ck_assert_int_eq(j.result[i], want);
        /* p-1 blocking steps of one 8-byte message: at most (p-1)(tau + 8 sigma), and since each
         * step waits for the previous one, no less either. */
        double bound = (n - 1) * (cfg.cost.tau + 8 * cfg.cost.sigma);
        ck_assert_double_le_tol(res.model_time_s, bound, 1e-12);
        ck_assert_double_ge_tol(res.model_time_s, bound, 1e-12);
        ck_assert_uint_eq(res.messages, (uint64_t)n * (n - 1));
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ring_sum");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_ring_sum_result_and_cost);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
