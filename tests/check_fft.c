/* check_fft.c: seed 001's 2D FFT (sec. 3.5): the fft2d workload's verifier against DFTs worked
 * out by hand (N = 2) and summed term by term (N = 8), make's refusals and figures, app.fft2d
 * verified for N in {8, 32, 64, 256} on p in {1, 2, 4, 8, 16} (and N = 24 on p = 3, 6) with every
 * exchange under async and sync, its model time worked out by hand from docs/model.md and its
 * flop count, the same figures under jitter, and corrupted outputs caught. The algorithm and the
 * workload are called directly (no registry lookup). */
#include "hr_test.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <hremu/workload.h>
#include "alg/app.h"
#include "work/fft.h"

/* The registry's row, for hr_workload_verify. */
static const hr_workload *fft_row(void)
{
    const hr_workload *w = hr_workload_find("fft2d");
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(w->kind, HR_KIND_FFT2D);
    return w;
}

static hr_fft2d *make_fft(int N, int p, uint64_t seed)
{
    hr_wkey_value keys[1] = { { .num = N } };
    hr_workload_spec spec = { .kind = "fft2d", .keys = keys, .seed = seed };
    void *inst = NULL;
    char why[256] = "";
    ck_assert_msg(hr__fft2d_make(&spec, p, &inst, why, sizeof why) == HR_OK, "N %d p %d: %s", N,
                  p, why);
    return inst;
}

/* ---- the workload ----------------------------------------------------------------------- */

/* N = 2 by hand: exp(-2 pi sqrt(-1) k r / 2) = (-1)^(k r), so with x = [a b; c d]
 *   X[0][0] = a + b + c + d    X[0][1] = a - b + c - d
 *   X[1][0] = a + b - c - d    X[1][1] = a - b - c + d.
 * out[i] holds rows of X's transpose: on p = 1, out[0] = [X00 X10; X01 X11]; on p = 2,
 * out[0] = [X00 X10] (X's column 0) and out[1] = [X01 X11]. Swapping X01 and X10 (X itself,
 * not its transpose) must fail. */
START_TEST(test_fft_verifier_by_hand_n2)
{
    for (int p = 1; p <= 2; p++) {
        hr_fft2d *f = make_fft(2, p, 5);
        ck_assert_int_eq(f->rows, 2 / p);
        fftw_complex x[4], o[4];
        for (int e = 0; e < 4; e++) {     /* a, b, c, d: x[e / 2][e % 2], on processor r / b */
            int r = e / 2, b = f->rows;
            const double *v = f->in[r / b][(r % b) * 2 + e % 2];
            x[e][0] = v[0];
            x[e][1] = v[1];
            ck_assert(v[0] >= -1 && v[0] < 1 && v[1] >= -1 && v[1] < 1);
        }
        for (int part = 0; part < 2; part++) {
            double a = x[0][part], b = x[1][part], c = x[2][part], d = x[3][part];
            o[0][part] = a + b + c + d;   /* X00 */
            o[1][part] = a + b - c - d;   /* X10 */
            o[2][part] = a - b + c - d;   /* X01 */
            o[3][part] = a - b - c + d;   /* X11 */
        }
        for (int i = 0; i < p; i++) {
            f->out[i] = o + 2 * i;        /* p = 1: all four; p = 2: two each */
            f->done[i] = 1;
        }
        char why[512] = "";
        ck_assert_msg(hr__fft2d_verify(f, why, sizeof why) == HR_OK, "p %d: %s", p, why);
        /* Not transposed: X01 where X10 belongs. */
        for (int part = 0; part < 2; part++) {
            double t = o[1][part];
            o[1][part] = o[2][part];
            o[2][part] = t;
        }
        ck_assert_int_eq(hr__fft2d_verify(f, why, sizeof why), HR_EVERIFY);
        ck_assert_msg(strstr(why, "element") != NULL && strchr(why, '\n') == NULL, "%s", why);
        hr__fft2d_reset(f);
        ck_assert_int_eq(hr__fft2d_verify(f, why, sizeof why), HR_EVERIFY);
        ck_assert_str_eq(why, "processor 0 set no output");
        hr__fft2d_destroy(f);
    }
}
END_TEST

/* N = 8: the outputs summed term by term from the definition (work/fft.h), on p = 4, pass; the
 * same with the opposite sign of the exponent fail. */
START_TEST(test_fft_verifier_naive_dft)
{
    enum { N = 8, P = 4, B = N / P };
    hr_fft2d *f = make_fft(N, P, 11);
    static fftw_complex out[P][B * N];
    for (int sign = -1; sign <= 1; sign += 2) {
        for (int i = 0; i < P; i++) {
            for (int c = 0; c < B; c++)
                for (int r = 0; r < N; r++) {
                    int k = r, l = i * B + c;     /* out[i][c N + r] = X[r][i b + c] */
                    double re = 0, im = 0;
                    for (int y = 0; y < N; y++)
                        for (int z = 0; z < N; z++) {
                            const double *v = f->in[y / B][(y % B) * N + z];
                            double ang = sign * 2 * M_PI * (double)((k * y + l * z) % N) / N;
                            re += v[0] * cos(ang) - v[1] * sin(ang);
                            im += v[0] * sin(ang) + v[1] * cos(ang);
                        }
                    out[i][c * N + r][0] = re;
                    out[i][c * N + r][1] = im;
                }
            f->out[i] = out[i];
            f->done[i] = 1;
        }
        char why[512] = "";
        int err = hr__fft2d_verify(f, why, sizeof why);
        ck_assert_msg(err == (sign < 0 ? HR_OK : HR_EVERIFY), "sign %d: %s", sign, why);
    }
    hr__fft2d_destroy(f);
}
END_TEST

START_TEST(test_fft_make_refuses_and_figures)
{
    void *inst = (void *)1;
    char why[256] = "";
    hr_wkey_value keys[1] = { { .num = 6 } };
    hr_workload_spec spec = { .kind = "fft2d", .keys = keys, .seed = 1 };
    ck_assert_int_eq(hr__fft2d_make(&spec, 4, &inst, why, sizeof why), HR_EINVAL);
    ck_assert_ptr_null(inst);
    ck_assert_str_eq(why, "size = 6 is not a multiple of p = 4: each processor holds N/p whole "
                          "rows");
    keys[0].num = 1;
    ck_assert_int_eq(hr__fft2d_make(&spec, 1, &inst, why, sizeof why), HR_EINVAL);
    keys[0].num = 16384;
    ck_assert_int_eq(hr__fft2d_make(&spec, 1, &inst, why, sizeof why), HR_EINVAL);
    /* N = 12 on 3: any multiple of p; keys NULL is N = 256. */
    keys[0].num = 12;
    ck_assert_int_eq(hr__fft2d_make(&spec, 3, &inst, why, sizeof why), HR_OK);
    hr__fft2d_destroy(inst);
    spec.keys = NULL;
    ck_assert_int_eq(hr__fft2d_make(&spec, 2, &inst, why, sizeof why), HR_OK);
    ck_assert_int_eq(((hr_fft2d *)inst)->N, 256);
    hr__fft2d_destroy(inst);
    /* N = 8, p = 4, b = 2: of the 16 elements of each b x b block, the 4 x 3 off-diagonal blocks
     * move: 48 elements, 768 bytes; each processor receives 3 blocks of 4. */
    hr_fft2d *f = make_fft(8, 4, 1);
    uint64_t moved = 0;
    ck_assert_uint_eq(hr__fft2d_min_bytes(f, &moved), 768);
    ck_assert_uint_eq(moved, 48);
    ck_assert_uint_eq(hr__fft2d_h(f), 12);
    keys[0].num = 8;
    spec.keys = keys;
    ck_assert_uint_eq(hr__fft2d_mem_bytes(&spec, 4), 3 * 64 * 16 + 4 * (2 * sizeof(void *) + 1));
    /* The same N and seed give the same array on any p. */
    hr_fft2d *g = make_fft(8, 1, 1);
    ck_assert(memcmp(f->in[0], g->in[0], 64 * sizeof(fftw_complex)) == 0);
    hr__fft2d_destroy(g);
    hr__fft2d_destroy(f);
    hr__fft2d_destroy(NULL);
}
END_TEST

/* ---- the algorithm ---------------------------------------------------------------------- */

typedef struct job {
    hr_fft2d *f;
    double    params[2];
} job;

static void body(hr_proc *p, void *arg)
{
    job *j = arg;
    hr_alg_app_fft2d(p, j->f, j->params);
}

typedef struct outcome {
    hr_run_result res;
    int           verify;     /* hr_workload_verify on the registry's row: the verifier and min_bytes */
    char          why[512];
} outcome;

/* Run app.fft2d with xchg and mflops on f, on p processors of cfg; verify while the outputs are
 * alive; leave the machine in *keep (if not NULL: the caller destroys it) so that a test can
 * tamper with the outputs. */
static void run_fft(hr_fft2d *f, hr_machine_config cfg, int xchg, double mflops, outcome *o,
                    hr_machine **keep)
{
    hr_machine *m = NULL;
    const char *mwhy = NULL;
    ck_assert_msg(hr_machine_create(&cfg, &m, &mwhy) == HR_OK, "create: %s", mwhy ? mwhy : "?");
    job j = { f, { xchg, mflops } };
    memset(o, 0, sizeof *o);
    hr__fft2d_reset(f);
    ck_assert_int_eq(hr_machine_run(m, body, &j, &o->res), HR_OK);
    o->verify = o->res.status == HR_OK
                    ? hr_workload_verify(fft_row(), f, o->res.bytes, o->why, sizeof o->why)
                    : HR_EFAIL;
    if (keep != NULL)
        *keep = m;
    else
        hr_machine_destroy(m);
}

static int lg(int p)
{
    int l = 0;
    while ((1 << l) < p)
        l++;
    return l;
}

START_TEST(test_fft_every_case_verifies)
{
    static const int Ns[] = { 8, 32, 64, 256, 24 };
    static const int ps[] = { 1, 2, 4, 8, 16, 3, 6 };
    static const char *const discs[] = { "async", "sync" };
    if (HR_TEST_TSAN)
        hr_test_skip("N > 64: too slow under TSan", 1);
    for (size_t n = 0; n < sizeof Ns / sizeof Ns[0]; n++)
        for (size_t q = 0; q < sizeof ps / sizeof ps[0]; q++) {
            int N = Ns[n], p = ps[q];
            if (N % p != 0 || (HR_TEST_TSAN && N > 64))
                continue;
            hr_fft2d *f = make_fft(N, p, 3);
            uint64_t block = (uint64_t)(N / p) * (uint64_t)(N / p) * 16;
            for (int x = 0; x <= 4; x++)
                for (int d = 0; d < 2; d++) {
                    outcome o;
                    run_fft(f, hr_test_config(p, discs[d]), x, 128, &o, NULL);
                    if (x == 3 && (p & (p - 1)) != 0) {
                        /* REX is seed 001 Figure 3's, for p a power of two. */
                        ck_assert_int_eq(o.res.status, HR_EFAIL);
                        ck_assert_msg(strstr(o.res.report, "xchg.rex needs p a power of two") !=
                                      NULL, "%s", o.res.report);
                        continue;
                    }
                    ck_assert_msg(o.res.status == HR_OK && o.verify == HR_OK,
                                  "N %d p %d xchg %d %s: %s %s", N, p, x, discs[d],
                                  o.res.report, o.why);
                    /* Every block once (REX: lg p messages of p/2 blocks from each). */
                    uint64_t want = x == 3 ? (uint64_t)p * (uint64_t)lg(p) * (uint64_t)(p / 2)
                                           : (uint64_t)p * (uint64_t)(p - 1);
                    ck_assert_uint_eq(o.res.bytes, want * block);
                }
            hr__fft2d_destroy(f);
        }
}
END_TEST

/* By hand, cm5 (tau 88 us, sigma 50 ns a byte, compute_unit 1 ns), mflops = 128:
 * - p = 1, N = 8: two passes of 8 FFTs of 5 * 8 * 3 = 120 flops: 1920 flops / 128e6 = 15 us;
 *   packing and transposing copy 64 elements of 16 bytes each, 2048 bytes = 2.048 us; no
 *   message: 17.048 us, for every exchange. With mflops = 1: 1920 + 2.048 us. With
 *   compute_unit = 1 us: the copies are 2048 us, the flops 15 us still: 2063 us. With
 *   compute_unit = 0: nothing is charged, 0.
 * - p = 2, N = 4, b = 2, blocks of 2 x 2 x 16 = 64 bytes: each processor does 2 FFTs of
 *   5 * 4 * 2 = 40 flops (0.625 us) and packs 128 bytes (0.128 us): ready at 0.753 us. PEX or
 *   BEX (P0 receives first, P1 sends first; the same under sync and async): P1's block arrives
 *   at 0.753 + 88 and is absorbed at + 3.2 = 91.953; P0's reply then at 91.953 + 88 + 3.2 =
 *   183.153; P1 transposes and transforms (0.753): 183.906 us. LEX: P0 receives P1's block first
 *   (step 0), then sends in step 1: the same. REX at p = 2: its pack 64 (0.064 us), the
 *   exchange, P1's unpack and pack (0.128), P0's unpack (0.064): 0.753 + 0.064 + 91.2 + 0.128
 *   + 91.2 + 0.064 + 0.753 = 184.162 us. hr_transpose: both send at 0.753, tau + sigma b:
 *   91.953, + 0.753 = 92.706 us. */
START_TEST(test_fft_model_by_hand)
{
    static const struct { int N, p, x; double mflops, unit, us; } cases[] = {
        { 8, 1, 0, 128, 1e-9, 17.048 }, { 8, 1, 1, 128, 1e-9, 17.048 },
        { 8, 1, 2, 128, 1e-9, 17.048 }, { 8, 1, 3, 128, 1e-9, 17.048 },
        { 8, 1, 4, 128, 1e-9, 17.048 }, { 8, 1, 2, 1, 1e-9, 1922.048 },
        { 8, 1, 2, 128, 1e-6, 2063 },   { 8, 1, 2, 128, 0, 0 },
        { 4, 2, 2, 128, 1e-9, 183.906 }, { 4, 2, 4, 128, 1e-9, 183.906 },
        { 4, 2, 1, 128, 1e-9, 183.906 }, { 4, 2, 3, 128, 1e-9, 184.162 },
        { 4, 2, 0, 128, 1e-9, 92.706 },
    };
    static const char *const discs[] = { "async", "sync" };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int d = 0; d < 2; d++) {
            hr_fft2d *f = make_fft(cases[c].N, cases[c].p, 9);
            hr_machine_config cfg = hr_test_config(cases[c].p, discs[d]);
            cfg.cost.compute_unit = cases[c].unit;
            outcome o;
            run_fft(f, cfg, cases[c].x, cases[c].mflops, &o, NULL);
            ck_assert_msg(o.verify == HR_OK, "%s", o.why);
            ck_assert_msg(fabs(o.res.model_time_s - cases[c].us * 1e-6) < 1e-12,
                          "case %zu %s: %.12g s, want %g us", c, discs[d], o.res.model_time_s,
                          cases[c].us);
            hr__fft2d_destroy(f);
        }
}
END_TEST

/* Model figures do not depend on the thread schedule. */
START_TEST(test_fft_jitter)
{
    hr_fft2d *f = make_fft(64, 8, 2);
    for (int x = 0; x <= 4; x++) {
        outcome a, b;
        hr_machine_config cfg = hr_test_config(8, "sync");
        cfg.topology = "fattree";
        cfg.jitter = 0;
        run_fft(f, cfg, x, 128, &a, NULL);
        cfg.jitter = 1;
        run_fft(f, cfg, x, 128, &b, NULL);
        ck_assert_msg(a.verify == HR_OK && b.verify == HR_OK, "%s %s", a.why, b.why);
        ck_assert_msg(a.res.model_time_s == b.res.model_time_s, "xchg %d: %.12g vs %.12g", x,
                      a.res.model_time_s, b.res.model_time_s);
        ck_assert_uint_eq(a.res.messages, b.res.messages);
        ck_assert_uint_eq(a.res.bytes, b.res.bytes);
        ck_assert_uint_eq(a.res.steps, b.res.steps);
    }
    hr__fft2d_destroy(f);
}
END_TEST

/* A wrong element, a NaN, a missing output: each caught, named in one line. */
START_TEST(test_fft_corrupt_caught)
{
    hr_fft2d *f = make_fft(32, 4, 4);
    for (int t = 0; t < 3; t++) {
        hr_machine *m = NULL;
        outcome o;
        run_fft(f, hr_test_config(4, NULL), 2, 128, &o, &m);
        ck_assert_msg(o.verify == HR_OK, "%s", o.why);
        char why[512] = "";
        if (t == 0) {
            /* tol at N = 32 is 1e-9 * 32 * 5 * max|x| < 2.3e-7. */
            f->out[2][5 * 32 + 17][1] += 1e-5;
            ck_assert_int_eq(hr__fft2d_verify(f, why, sizeof why), HR_EVERIFY);
            ck_assert_msg(strstr(why, "processor 2, row 5 (column 21 of the 2D FFT), element 17")
                          == why, "%s", why);
        } else if (t == 1) {
            f->out[0][3][0] = NAN;
            ck_assert_int_eq(hr__fft2d_verify(f, why, sizeof why), HR_EVERIFY);
            ck_assert_msg(strstr(why, "processor 0, row 0 (column 0 of the 2D FFT), element 3")
                          == why, "%s", why);
        } else {
            f->done[3] = 0;
            ck_assert_int_eq(hr__fft2d_verify(f, why, sizeof why), HR_EVERIFY);
            ck_assert_str_eq(why, "processor 3 set no output");
        }
        ck_assert_msg(strchr(why, '\n') == NULL, "%s", why);
        hr_machine_destroy(m);
    }
    hr__fft2d_destroy(f);
}
END_TEST

Suite *hr_fft_suite(void)
{
    Suite *s = suite_create("fft");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_fft_verifier_by_hand_n2);
    tcase_add_test(tc, test_fft_verifier_naive_dft);
    tcase_add_test(tc, test_fft_make_refuses_and_figures);
    tcase_add_test(tc, test_fft_every_case_verifies);
    tcase_add_test(tc, test_fft_model_by_hand);
    tcase_add_test(tc, test_fft_jitter);
    tcase_add_test(tc, test_fft_corrupt_caught);
    suite_add_tcase(s, tc);
    return s;
}
