/* check_rng.c: the processors' random streams: reference values, independence, reproducibility. */
#include "hr_test.h"

#include <hremu/rng.h>

#include <stdlib.h>

#include "util/rng.h"

START_TEST(test_rng_reference_values)
{
    /* splitmix64's first output from state 0 is a published constant (Vigna's splitmix64.c). */
    uint64_t x = 0;
    ck_assert_uint_eq(hr__splitmix64(&x), 0xe220a8397b1dcdafULL);
    /* Stream values from an independent Python implementation of the seeding and xoshiro256**
     * described in util/rng.c. */
    hr_rng r;
    hr__rng_seed(&r, 1, 0);
    ck_assert_uint_eq(hr__rng_next(&r), 0xae2898f01f6f0cfcULL);
    ck_assert_uint_eq(hr__rng_next(&r), 0x2e648738d7ab0a58ULL);
    ck_assert_uint_eq(hr__rng_next(&r), 0x34323e134e6e4cc5ULL);
    hr__rng_seed(&r, 1, 1);
    ck_assert_uint_eq(hr__rng_next(&r), 0x71fc4e1355249284ULL);
    hr__rng_seed(&r, 2, 0);
    ck_assert_uint_eq(hr__rng_next(&r), 0x21ed5d266bd058f3ULL);
}
END_TEST

START_TEST(test_rng_below_is_in_range_and_uniform)
{
    hr_rng r;
    hr__rng_seed(&r, 7, 3);
    int hist[10] = { 0 };
    for (int i = 0; i < 100000; i++) {
        uint64_t v = hr__rng_below(&r, 10);
        ck_assert_uint_lt(v, 10);
        hist[v]++;
    }
    /* each bucket expects 10000 with sd ~95: 6 sd of slack */
    for (int i = 0; i < 10; i++)
        ck_assert_int_lt(abs(hist[i] - 10000), 600);
    for (int i = 0; i < 1000; i++) {
        double u = hr__rng_unit(&r);
        ck_assert(u >= 0.0 && u < 1.0);
    }
}
END_TEST

/* Each processor records its first draw; streams must differ and repeat run to run. */
static void body_draw(hr_proc *p, void *arg)
{
    uint64_t *out = arg;
    out[hr_pid(p)] = hr_rand(p);
}

START_TEST(test_rng_streams_per_processor)
{
    enum { P = 64 };
    uint64_t a[P], b[P];
    hr_machine_config cfg = hr_test_config(P, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_draw, a, &res);
    hr_test_run(&cfg, body_draw, b, &res);
    for (int i = 0; i < P; i++) {
        ck_assert_uint_eq(a[i], b[i]);
        for (int j = 0; j < i; j++)
            ck_assert_uint_ne(a[i], a[j]);
    }
    hr_rng r;
    hr__rng_seed(&r, cfg.seed, 5);
    ck_assert_uint_eq(a[5], hr__rng_next(&r));
    cfg.seed = 2;
    hr_test_run(&cfg, body_draw, b, &res);
    ck_assert_uint_ne(a[0], b[0]);
}
END_TEST

/* The public stream (hremu/rng.h) that planners outside a processor draw from is the
 * processors' own: the same (seed, stream) gives the same draws, so a schedule's seed means
 * what a processor's does. */
START_TEST(test_rng_public_stream)
{
    static const uint64_t seeds[] = { 0, 1, 42, UINT64_C(1) << 63, UINT64_MAX };
    static const uint64_t streams[] = { 0, 0x5eed002u, UINT64_MAX };
    for (size_t a = 0; a < sizeof seeds / sizeof seeds[0]; a++)
        for (size_t b = 0; b < sizeof streams / sizeof streams[0]; b++) {
            hr_rng u;
            hr_stream v;
            hr__rng_seed(&u, seeds[a], streams[b]);
            hr_stream_seed(&v, seeds[a], streams[b]);
            for (uint64_t k = 1; k <= 2000; k++) {
                if (k % 2)
                    ck_assert_uint_eq(hr_stream_next(&v), hr__rng_next(&u));
                else
                    ck_assert_uint_eq(hr_stream_below(&v, k * k), hr__rng_below(&u, k * k));
            }
        }
}
END_TEST

Suite *hr_rng_suite(void)
{
    Suite *s = suite_create("rng");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_rng_reference_values);
    tcase_add_test(tc, test_rng_public_stream);
    tcase_add_test(tc, test_rng_below_is_in_range_and_uniform);
    tcase_add_test(tc, test_rng_streams_per_processor);
    suite_add_tcase(s, tc);
    return s;
}
