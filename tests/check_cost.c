/* check_cost.c: presets, conversion to picoseconds and its rounding, bad cost models, and runs
 * that leave the model clock's range. */
#include "hr_test.h"

#include <math.h>
#include <string.h>

#include "net/cost.h"
#include "net/cost_model.h"

START_TEST(test_cost_presets)
{
    hr_cost c;
    ck_assert_int_eq(hr_cost_preset("cm5", &c), HR_OK);
    ck_assert_double_eq(c.tau, 88e-6);
    ck_assert_double_eq_tol(1.0 / c.sigma, 20e6, 1e-3);   /* 20 MB/s */
    ck_assert_int_eq(hr_cost_preset("sp2", &c), HR_OK);
    ck_assert_double_eq(c.tau, 40e-6);
    ck_assert_int_eq(hr_cost_preset("cm6", &c), HR_ENOENT);
    /* Each model's presets sorted by name, each citing its source; every model has its default. */
    const hr_cost_model *cm;
    for (int m = 0; (cm = hr__cost_model_at(m)) != NULL; m++) {
        const char *sum = NULL, *prev = "";
        int n = 0;
        for (const char *name; (name = hr_cost_model_preset_name(cm->name, n, &sum)) != NULL;
             n++, prev = name) {
            ck_assert(strcmp(prev, name) < 0);
            ck_assert(strstr(sum, "(") != NULL);
        }
        ck_assert_msg(n >= 1, "cost model %s has no preset", cm->name);
        ck_assert_msg(hr_cost_model_preset(cm->name, NULL, &c) == HR_OK,
                      "cost model %s: its default preset %s is not one of its presets", cm->name,
                      cm->preset);
    }
    ck_assert_int_eq(hr_cost_preset_name(2, NULL) == NULL, 1);   /* bdm's: cm5 and sp2 */
    ck_assert_int_eq(hr_cost_model_preset("logp", NULL, &c), HR_ENOENT);
}
END_TEST

/* The presets of loggp and bsp are published figures converted by hand here: Netgauge's table
 * for Tukey (us: L = half the 1-byte round trip 13.564364, o_s 1.103756, o_r 1.139558, the
 * 2-byte row's g 1.079925, the 1 MiB row's G 0.000498 a byte) and the Oxford BSP Toolset's
 * (s Mflop/s, l flops, g flops per 32-bit word). A figure of one model is not another's: sp2 is
 * bdm's and bsp's, each with its own, and loggp has no cm5. */
START_TEST(test_cost_model_presets)
{
    hr_cost c;
    ck_assert_int_eq(hr_cost_model_preset("loggp", NULL, &c), HR_OK);   /* tukey */
    ck_assert_double_eq_tol(c.tau, 4.538868e-6, 1e-15);
    ck_assert_double_eq_tol(c.overhead, 1.121657e-6, 1e-15);
    ck_assert_double_eq_tol(c.gap, 1.079925e-6, 1e-15);
    ck_assert_double_eq_tol(c.sigma, 0.498e-9, 1e-18);
    ck_assert_double_eq_tol(2 * c.overhead + c.tau, 13.564364e-6 / 2, 1e-15);
    ck_assert_double_eq(c.hop, 0);
    ck_assert_int_eq(hr_cost_model_preset("loggp", "cm5", &c), HR_ENOENT);
    ck_assert_int_eq(hr_cost_model_preset("bsp", "t3e", &c), HR_OK);
    ck_assert_double_eq_tol(c.tau, 16.0814e-6, 1e-10);     /* 751 / 46.7 us */
    ck_assert_double_eq_tol(c.sigma, 8.8865e-9, 1e-13);    /* 1.66 / 46.7 / 4 us a byte */
    ck_assert_double_eq(c.overhead, 0);
    ck_assert_double_eq(c.gap, 0);
    hr_cost d;
    ck_assert_int_eq(hr_cost_model_preset("bsp", NULL, &d), HR_OK);
    ck_assert_double_eq(d.tau, c.tau);
    ck_assert_int_eq(hr_cost_model_preset("bsp", "sp2", &c), HR_OK);
    ck_assert_double_eq_tol(c.tau, 208.1538e-6, 1e-10);    /* 5412 / 26 us */
    ck_assert_double_eq_tol(c.sigma, 109.6154e-9, 1e-13);  /* 11.4 / 26 / 4 us a byte */
    ck_assert_int_eq(hr_cost_model_preset(NULL, "sp2", &d), HR_OK);
    ck_assert_double_eq(d.tau, 40e-6);
    ck_assert_int_eq(hr_cost_model_preset("bsp", "cm5", &c), HR_ENOENT);
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

START_TEST(test_cost_saturating_arithmetic)
{
    ck_assert_int_eq(hr__tadd(3, 4), 7);
    ck_assert_int_eq(hr__tadd(INT64_MAX - 5, 4), INT64_MAX - 1);
    ck_assert_int_eq(hr__tadd(INT64_MAX - 5, 5), HR_TIME_INF);   /* the range ends below INF */
    ck_assert_int_eq(hr__tadd(INT64_MAX - 5, 6), HR_TIME_INF);
    ck_assert_int_eq(hr__tadd(HR_TIME_INF, 0), HR_TIME_INF);
    ck_assert_int_eq(hr__tmul(4096, 86400000000000000LL), HR_TIME_INF);
    ck_assert_int_eq(hr__tmul(3, 5), 15);
    ck_assert_int_eq(hr__tmul(0, HR_TIME_INF), HR_TIME_INF);
    hr_costps c = { .sigma = 1e12 };                            /* 1 s per byte */
    ck_assert_int_eq(hr__cost_bytes(&c, 1000), 1000000000000000LL);
    ck_assert_int_eq(hr__cost_bytes(&c, (size_t)1 << 24), HR_TIME_INF);   /* 1.7e19 ps */
    ck_assert_int_eq(hr__time_from_ps(1e30), HR_TIME_INF);
}
END_TEST

typedef struct range_case {
    int    what;
    double units;
} range_case;

/* Ways to pass the end of the clock: compute, one message's bytes, latencies of many blocking
 * steps, barriers, rounds. */
static void body_range(hr_proc *p, void *arg)
{
    const range_case *rc = arg;
    static char big[1 << 24];
    int me = hr_pid(p), peer = 1 - me, v = 0;
    switch (rc->what) {
    case 0:
        hr_compute(p, rc->units);
        hr_barrier(p);
        break;
    case 1:
        if (me == 0)
            hr_send(p, 1, 0, big, sizeof big);
        else
            hr_recv(p, 0, 0, big, sizeof big, NULL);
        break;
    case 2:
        for (int k = 0; k < 400; k++) {
            hr_send(p, peer, 0, &v, sizeof v);
            hr_recv(p, peer, 0, &v, sizeof v, NULL);
        }
        break;
    case 3:
        for (int k = 0; k < 400; k++)
            hr_barrier(p);
        break;
    case 4:
        for (int k = 0; k < 400; k++) {
            hr_round_send(p, peer, &v, sizeof v, 0);
            hr_round_end(p, 1);
            hr_round_recv(p, &v, sizeof v, NULL);
        }
        hr_round_end(p, 0);
        break;
    }
}

START_TEST(test_cost_run_leaving_the_range_fails)
{
    /* A day of latency per message: about 107 blocking steps reach the end of the range. */
    static const range_case cases[] = { { 0, 1e30 }, { 1, 0 }, { 2, 0 }, { 3, 0 }, { 4, 0 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hr_machine_config cfg = hr_test_config(2, cases[i].what == 4 ? "fifo" : NULL);
        cfg.cost.tau = 86400;
        cfg.cost.sigma = 1;
        hr_run_result res;
        hr_test_run(&cfg, body_range, (void *)&cases[i], &res);
        ck_assert_msg(res.status == HR_ERANGE, "case %d: status %d (%s)", cases[i].what,
                      res.status, res.report);
        ck_assert(isinf(res.model_time_s));
        ck_assert_msg(strstr(res.report, "model time passes the end of the clock's range") !=
                          NULL, "%s", res.report);
    }
}
END_TEST

static void body_compute(hr_proc *p, void *arg)
{
    hr_compute(p, *(const double *)arg);
}

START_TEST(test_cost_compute_must_be_finite)
{
    const double bad[] = { INFINITY, NAN, -1 };
    for (size_t i = 0; i < 3; i++) {
        hr_machine_config cfg = hr_test_config(1, NULL);
        hr_run_result res;
        hr_test_run(&cfg, body_compute, (void *)&bad[i], &res);
        ck_assert_int_eq(res.status, HR_EMISUSE);
        ck_assert_msg(strstr(res.report, "hr_compute: units must be finite and >= 0") != NULL,
                      "%s", res.report);
    }
    /* The last call of a run leaves the range: caught although it publishes nothing. */
    double huge = 1e19;
    hr_machine_config cfg = hr_test_config(1, NULL);
    cfg.cost.compute_unit = 1.0;
    hr_run_result res;
    hr_test_run(&cfg, body_compute, &huge, &res);
    ck_assert_int_eq(res.status, HR_ERANGE);
}
END_TEST

Suite *hr_cost_suite(void)
{
    Suite *s = suite_create("cost");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_cost_presets);
    tcase_add_test(tc, test_cost_model_presets);
    tcase_add_test(tc, test_cost_picoseconds);
    tcase_add_test(tc, test_cost_rejects_bad_models);
    tcase_add_test(tc, test_cost_saturating_arithmetic);
    tcase_add_test(tc, test_cost_run_leaving_the_range_fails);
    tcase_add_test(tc, test_cost_compute_must_be_finite);
    suite_add_tcase(s, tc);
    return s;
}
