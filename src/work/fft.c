/* fft.c: the "fft2d" workload of seed 001 sec. 3.5 (fft.h), and FFTW's planner behind one lock. */
#include "work/fft.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

#include "util/sync.h"
#include "work/common.h"

#define N_MAX 8192

const hr_wkey_spec hr__fft2d_keys[] = {
    { .name = "size", .summary = "N: the array is N x N complex doubles, by rows, N a multiple of p",
      .type = HR_WKEY_INT, .def = "256", .min = 2, .max = N_MAX },
    { .name = NULL },
};

/* ---- the planner -------------------------------------------------------------------------- */

/* FFTW keeps one planner per process (its tables of solved problems and twiddles are globals of
 * the library), and planning or destroying a plan from two threads at once corrupts them. So
 * the lock that serialises them must be one per process too: a lock per machine or per instance
 * would not stop two machines of one process, or a verifier and a run, from planning together.
 * That is why this is a static mutex, against the habit of passing state. The other choice,
 * fftw_make_planner_thread_safe(), lives in libfftw3_threads on Debian's 3.3.10, which
 * `pkg-config fftw3` does not link; and making the plans in make, before the machine runs,
 * would tie the instance to one algorithm's buffers. */
static pthread_mutex_t planner_lock = PTHREAD_MUTEX_INITIALIZER;

fftw_plan hr__fft_plan_rows(int n, int howmany, fftw_complex *in, fftw_complex *out)
{
    unsigned flags = FFTW_ESTIMATE | (in != out ? FFTW_PRESERVE_INPUT : 0);
    hr__mutex_lock(&planner_lock);
    fftw_plan plan = fftw_plan_many_dft(1, &n, howmany, in, NULL, 1, n, out, NULL, 1, n,
                                        FFTW_FORWARD, flags);
    hr__mutex_unlock(&planner_lock);
    return plan;
}

fftw_plan hr__fft_plan_2d(int n, fftw_complex *a)
{
    hr__mutex_lock(&planner_lock);
    fftw_plan plan = fftw_plan_dft_2d(n, n, a, a, FFTW_FORWARD, FFTW_ESTIMATE);
    hr__mutex_unlock(&planner_lock);
    return plan;
}

void hr__fft_destroy(fftw_plan plan)
{
    if (plan == NULL)
        return;
    hr__mutex_lock(&planner_lock);
    fftw_destroy_plan(plan);
    hr__mutex_unlock(&planner_lock);
}

/* ---- the workload ------------------------------------------------------------------------- */

typedef struct fft_inst {
    hr_fft2d      pub;        /* first: the pointer make returns */
    uint64_t      seed;
    fftw_complex *data;       /* the inputs, N^2 elements; in[i] points into it */
} fft_inst;

static int size_of(const hr_workload_spec *s)
{
    return s->keys ? (int)s->keys[0].num : 256;
}

/* A uniform double in [-1, 1) from the top 53 bits of w. */
static double unit(uint64_t w)
{
    return (double)(w >> 11) * 0x1.0p-52 - 1.0;
}

/* Rows r0 .. r0+rows-1 of x (N columns) into out: element (r, c) is the mixed words of
 * (seed, 2 (r N + c)) and (seed, 2 (r N + c) + 1), real and imaginary part, so it does not
 * depend on p. */
static void fill_rows(uint64_t seed, int N, int r0, int rows, fftw_complex *out)
{
    uint64_t base = hr__work_mix(seed);
    uint64_t g = 2 * (uint64_t)r0 * (uint64_t)N;
    size_t count = (size_t)rows * (size_t)N;
    for (size_t e = 0; e < count; e++, g += 2) {
        out[e][0] = unit(hr__work_mix(base + g));
        out[e][1] = unit(hr__work_mix(base + g + 1));
    }
}

void hr__fft2d_destroy(void *inst)
{
    fft_inst *I = inst;
    if (I == NULL)
        return;
    fftw_free(I->data);
    free(I->pub.in);
    free(I->pub.out);
    free(I->pub.done);
    free(I);
}

int hr__fft2d_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    *inst = NULL;
    int N = size_of(s);
    if (N < 2 || N > N_MAX)
        return hr__work_fail(why, whylen, HR_EINVAL, "size = %d: N must lie in 2 .. %d", N, N_MAX);
    if (p < 1 || N % p != 0)
        return hr__work_fail(why, whylen, HR_EINVAL, "size = %d is not a multiple of p = %d: "
                             "each processor holds N/p whole rows", N, p);
    size_t elems = (size_t)N * (size_t)N;
    fft_inst *I = calloc(1, sizeof *I);
    if (I != NULL) {
        I->pub.in = calloc((size_t)p, sizeof *I->pub.in);
        I->pub.out = calloc((size_t)p, sizeof *I->pub.out);
        I->pub.done = calloc((size_t)p, 1);
        I->data = fftw_malloc(elems * sizeof *I->data);
    }
    if (I == NULL || !I->pub.in || !I->pub.out || !I->pub.done || !I->data) {
        hr__fft2d_destroy(I);
        return hr__work_fail(why, whylen, HR_ENOMEM, "out of memory for %zu complex elements",
                             elems);
    }
    I->pub.p = p;
    I->pub.N = N;
    I->pub.rows = N / p;
    I->seed = s->seed;
    fill_rows(s->seed, N, 0, N, I->data);
    for (int i = 0; i < p; i++)
        I->pub.in[i] = I->data + (size_t)i * (size_t)I->pub.rows * (size_t)N;
    *inst = I;
    return HR_OK;
}

void hr__fft2d_reset(void *inst)
{
    fft_inst *I = inst;
    memset(I->pub.out, 0, (size_t)I->pub.p * sizeof *I->pub.out);
    memset(I->pub.done, 0, (size_t)I->pub.p);
}

int hr__fft2d_parts(void *inst, int pid, hr_part *out, int max)
{
    hr_fft2d *f = &((fft_inst *)inst)->pub;
    if (max < 2)
        return 0;
    out[0] = (hr_part){ &f->done[pid], 1, 0 };
    out[1] = (hr_part){ (void *)&f->out[pid],
                        f->out[pid] != NULL ? (size_t)f->rows * (size_t)f->N * sizeof(fftw_complex)
                                            : 0, 1 };
    return 2;
}

int hr__fft2d_verify(const void *inst, char *why, size_t whylen)
{
    const fft_inst *I = inst;
    const hr_fft2d *f = &I->pub;
    int N = f->N, b = f->rows;
    for (int i = 0; i < f->p; i++)
        if (!f->done[i] || f->out[i] == NULL)
            return hr__work_fail(why, whylen, HR_EVERIFY, "processor %d set no output", i);
    fftw_complex *ref = fftw_malloc((size_t)N * (size_t)N * sizeof *ref);
    if (ref == NULL)
        return hr__work_fail(why, whylen, HR_ENOMEM, "out of memory to verify");
    /* FFTW_ESTIMATE leaves the array alone while planning; fill it afterwards all the same. */
    fftw_plan plan = hr__fft_plan_2d(N, ref);
    if (plan == NULL) {
        fftw_free(ref);
        return hr__work_fail(why, whylen, HR_ENOMEM, "FFTW could not plan a %d x %d DFT", N, N);
    }
    fill_rows(I->seed, N, 0, N, ref);
    double xmax = 0;
    for (size_t e = 0; e < (size_t)N * (size_t)N; e++)
        xmax = fmax(xmax, hypot(ref[e][0], ref[e][1]));
    fftw_execute(plan);
    hr__fft_destroy(plan);
    double tol = HR_FFT2D_TOL * N * log2(N) * xmax;
    /* out[i][c N + r] = X[r][i b + c]: one side is read down a column whatever the order, so
     * walk tiles of T x T to keep both sides' lines in cache at large N. */
    enum { T = 32 };
    int err = HR_OK;
    for (int i = 0; i < f->p && err == HR_OK; i++)
        for (int c0 = 0; c0 < b && err == HR_OK; c0 += T)
            for (int r0 = 0; r0 < N && err == HR_OK; r0 += T)
                for (int c = c0; c < c0 + T && c < b && err == HR_OK; c++)
                    for (int r = r0; r < r0 + T && r < N; r++) {
                        const double *got = f->out[i][(size_t)c * (size_t)N + (size_t)r];
                        const double *want = ref[(size_t)r * (size_t)N + (size_t)(i * b + c)];
                        double e = hypot(got[0] - want[0], got[1] - want[1]);
                        if (e <= tol)
                            continue;
                        err = hr__work_fail(why, whylen, HR_EVERIFY, "processor %d, row %d (column "
                                            "%d of the 2D FFT), element %d: (%.17g, %.17g), want "
                                            "(%.17g, %.17g): |error| %.3g > %.3g", i, c, i * b + c,
                                            r, got[0], got[1], want[0], want[1], e, tol);
                        break;
                    }
    fftw_free(ref);
    return err;
}

uint64_t hr__fft2d_min_bytes(const void *inst, uint64_t *moved)
{
    const hr_fft2d *f = inst;
    uint64_t b = (uint64_t)f->rows;
    uint64_t elems = (uint64_t)f->p * (uint64_t)(f->p - 1) * b * b;
    if (moved != NULL)
        *moved = elems;
    return elems * sizeof(fftw_complex);
}

uint64_t hr__fft2d_h(const void *inst)
{
    const hr_fft2d *f = inst;
    return (uint64_t)(f->p - 1) * (uint64_t)f->rows * (uint64_t)f->rows;
}

uint64_t hr__fft2d_mem_bytes(const hr_workload_spec *s, int p)
{
    uint64_t N = (uint64_t)size_of(s);
    return 3 * N * N * sizeof(fftw_complex) + (2 * sizeof(void *) + 1) * (uint64_t)p;
}
