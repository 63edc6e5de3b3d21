/* check_cost.c: presets, conversion to picoseconds and its rounding, bad cost models. */
#include "hr_test.h"

#include <string.h>

#include "net/cost.h"

START_TEST(test_cost_presets)
{
    hr_cost c;
    ck_assert_int_eq(hr_cost_preset("cm5", &c), HR_OK);
    ck_assert_double_eq(c.tau, 88e-6);
    ck_assert_double_eq_tol(1.0 / c.sigma, 20e6, 1e-3);   /* 20 MB/s */
    ck_assert_int_eq(hr_cost_preset("sp2", &c), HR_OK);
    ck_assert_double_eq(c.tau, 40e-6);
    ck_assert_int_eq(hr_cost_preset("cm6", &c), HR_ENOENT);
    const char *sum = NULL, *prev = "";
    int n = 0;
    for (const char *name; (name = hr_cost_preset_name(n, &sum)) != NULL; n++, prev = name) {
        ck_assert(strcmp(prev, name) < 0);
        ck_assert(strstr(sum, "(") != NULL);     /* every preset cites its source */
    }
    ck_assert_int_ge(n, 2);
}
END_TEST

START_TEST(test_cost_picoseconds)
{
    hr_cost c = { .tau = 88e-6, .sigma = 1.0 / 20e6, .overhead = 2e-6, .hop = 1e-7,
                  .compute_unit = 1e-9 };
    hr_costps ps;
    const char *why;
    ck_assert_int_eq(hr__cost_convert(&c, &ps, &why), HR_OK);
    ck_assert_int_eq(ps.tau, 88000000);
    ck_assert_int_eq(ps.overhead, 2000000);
    ck_assert_int_eq(ps.hop, 100000);
    ck_assert_int_eq(hr__cost_bytes(&ps, 1), 50000);
    ck_assert_int_eq(hr__cost_bytes(&ps, 1u << 20), 52428800000LL);
    /* 3 ns per 10 bytes: 0.3 ns per byte rounds to the nearest picosecond per message */
    c.sigma = 0.3e-9;
    ck_assert_int_eq(hr__cost_convert(&c, &ps, &why), HR_OK);
    ck_assert_int_eq(hr__cost_bytes(&ps, 7), 2100);
    ck_assert_double_eq(hr__time_to_s(hr__time_from_s(1.5)), 1.5);
}
END_TEST

START_TEST(test_cost_rejects_bad_models)
{
    hr_cost c = { .tau = 0, .sigma = 1e-9 };
    hr_costps ps;
    const char *why = NULL;
    ck_assert_int_eq(hr__cost_convert(&c, &ps, &why), HR_EINVAL);
    ck_assert_ptr_nonnull(why);
    c.tau = 1e-6;
    c.sigma = -1;
    ck_assert_int_eq(hr__cost_convert(&c, &ps, &why), HR_EINVAL);
    c.sigma = 1e-9;
    c.hop = 1e9;
    ck_assert_int_eq(hr__cost_convert(&c, &ps, &why), HR_EINVAL);
    /* and a machine with such a model is refused with the reason */
    hr_machine_config cfg = hr_test_config(2, NULL);
    cfg.cost.tau = -1;
    hr_machine *m = NULL;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, &why), HR_EINVAL);
    ck_assert(strstr(why, "tau") != NULL);
    ck_assert_ptr_null(m);
}
END_TEST

Suite *hr_cost_suite(void)
{
    Suite *s = suite_create("cost");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_cost_presets);
    tcase_add_test(tc, test_cost_picoseconds);
    tcase_add_test(tc, test_cost_rejects_bad_models);
    suite_add_tcase(s, tc);
    return s;
}
