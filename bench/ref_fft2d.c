/* ref_fft2d.c: the reference of make bench's seed 001 table: FFTW's own 2D DFT of the N x N
 * complex array app.fft2d transforms, on one thread, with an FFTW_ESTIMATE plan (as app.fft2d's
 * row plans are) and, for the record, an FFTW_MEASURE one. Usage: ref_fft2d [p [n [runs
 * [seed]]]] as the other references; n is N^2 (the elements), p and seed are not used (the
 * values do not change the time). Prints the ESTIMATE plan's median execute time, then a second
 * line for MEASURE. */
#include "bench_common.h"

#include <math.h>
#include <fftw3.h>

static double run(fftw_complex *x, int N, int runs, unsigned flags)
{
    fftw_plan plan = fftw_plan_dft_2d(N, N, x, x, FFTW_FORWARD, flags);
    if (plan == NULL) {
        fprintf(stderr, "ref_fft2d: FFTW could not plan %d x %d\n", N, N);
        exit(1);
    }
    for (size_t i = 0; i < (size_t)N * (size_t)N; i++) {   /* MEASURE overwrote the array */
        x[i][0] = sin((double)i);
        x[i][1] = cos((double)i * 0.5);
    }
    double *t = bench_alloc((size_t)runs * sizeof *t);
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now();
        fftw_execute(plan);
        t[r] = bench_now() - t0;
    }
    double m = bench_median(t, runs);
    free(t);
    fftw_destroy_plan(plan);
    return m;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "ref_fft2d");
    int N = (int)lround(sqrt((double)a.n));
    if ((uint64_t)N * (uint64_t)N != a.n) {
        fprintf(stderr, "ref_fft2d: n = %" PRIu64 " is not a square\n", a.n);
        return 2;
    }
    fftw_complex *x = fftw_malloc((size_t)a.n * sizeof *x);
    if (x == NULL)
        return 1;
    bench_report("ref_fft2d", &a, run(x, N, a.runs, FFTW_ESTIMATE));
    bench_report("ref_fft2d_measure", &a, run(x, N, a.runs, FFTW_MEASURE));
    fftw_free(x);
    return 0;
}
