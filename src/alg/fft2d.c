/* fft2d.c: seed 001's 2D FFT (sec. 3.5, Table 5): "The 2D array is distributed along rows among
 * processors. Each processor initially performs 1D FFT operation on its local data and performs
 * a complete exchange using any one of the algorithms described. Each processor then performs 1D
 * FFT on new data." The paper does not say how a processor lays out what it sends and receives;
 * here block j of a processor's send buffer is the b x b submatrix of its rows in columns
 * j*b .. j*b+b-1 (b = N/p), row by row, and after the exchange it transposes the p received
 * blocks so that it holds the columns me*b .. as rows (work/fft.h's output layout): the second
 * pass of 1-D FFTs then runs on contiguous rows, as the first does. */
#include "alg/app.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "alg/seed001.h"
#include "work/fft.h"

/* The parameter xchg's values, in Table 5's order after hremu's own transpose. */
static const hr_xchg_alg exchanges[] = { HR_XCHG_SYSTEM, HR_XCHG_LEX, HR_XCHG_PEX, HR_XCHG_REX,
                                         HR_XCHG_BEX };

#define DEFAULT_XCHG   2        /* PEX */
#define DEFAULT_MFLOPS 128.0    /* seed 001 sec. 2: "each node is capable of peak 128 MFLOPS" */

/* Charge flops at mflops: flops / (mflops 1e6) seconds, in hr_compute units of compute_unit
 * seconds, whatever compute_unit is. compute_unit = 0 charges nothing (there is no count of
 * units that costs anything then); compute = measured charges CPU time instead of units. */
static void charge_flops(hr_proc *p, double flops, double mflops)
{
    hr_cost c = hr_costs(p);
    if (c.measured || !(c.compute_unit > 0))
        return;
    hr_compute(p, flops / (mflops * 1e6) / c.compute_unit);
}

/* The b x b block src (rows of b) into dst transposed (rows of ld): dst[c ld + r] = src[r b + c].
 * In tiles, so that at large b (p = 1, N = 8192) both sides stay in cache. */
static void transpose_block(const fftw_complex *src, size_t b, fftw_complex *dst, size_t ld)
{
    enum { T = 16 };
    for (size_t r0 = 0; r0 < b; r0 += T)
        for (size_t c0 = 0; c0 < b; c0 += T)
            for (size_t c = c0; c < c0 + T && c < b; c++)
                for (size_t r = r0; r < r0 + T && r < b; r++) {
                    dst[c * ld + r][0] = src[r * b + c][0];
                    dst[c * ld + r][1] = src[r * b + c][1];
                }
}

int hr_alg_app_fft2d_check(const double *params, int procs, const char *topology, char *why,
                           size_t whylen)
{
    int xchg = params != NULL ? (int)params[0] : DEFAULT_XCHG;
    char rex[160];
    if (xchg >= 0 && xchg <= 4 && exchanges[xchg] == HR_XCHG_REX &&
        hr_alg_xchg_rex_check(NULL, procs, topology, rex, sizeof rex) != HR_OK) {
        snprintf(why, whylen, "xchg = %d (REX): %s", xchg, rex);
        return HR_EINVAL;
    }
    return HR_OK;
}

void hr_alg_app_fft2d(hr_proc *p, void *inst, const double *params)
{
    hr_fft2d *f = inst;
    int me = hr_pid(p), np = hr_nprocs(p), N = f->N, b = f->rows;
    int xchg = params ? (int)params[0] : DEFAULT_XCHG;
    double mflops = params ? params[1] : DEFAULT_MFLOPS;
    size_t elems = (size_t)b * (size_t)N, blk = (size_t)b * (size_t)b;
    size_t bytes = elems * sizeof(fftw_complex), block_bytes = blk * sizeof(fftw_complex);
    /* One pass of b 1-D FFTs of length N: 5 N log2 N flops each (the radix-2 count, which
     * benchFFT uses for every N). */
    double pass_flops = (double)b * 5.0 * N * log2((double)N);

    /* Every buffer first: hr_malloc may fail the run, and no plan may be alive then (a plan is
     * plain malloc memory, which a failed run does not reclaim). a holds the transformed rows,
     * then what the exchange brings. */
    fftw_complex *a = hr_malloc(p, bytes), *send = hr_malloc(p, bytes), *out = hr_malloc(p, bytes);

    /* seed 001 sec. 3.5: "each processor initially performs 1D FFT operation on its local data". */
    hr_region_begin(p, "fft.rows");
    fftw_plan plan = hr__fft_plan_rows(N, b, f->in[me], a);
    if (plan == NULL)
        hr_fail(p, "app.fft2d: FFTW could not plan %d DFTs of length %d", b, N);
    fftw_execute(plan);
    hr__fft_destroy(plan);
    charge_flops(p, pass_flops, mflops);
    /* Block j: the b x b submatrix of columns j*b .., row by row. */
    for (int j = 0; j < np; j++)
        for (int r = 0; r < b; r++)
            memcpy(send + (size_t)j * blk + (size_t)r * (size_t)b,
                   a + (size_t)r * (size_t)N + (size_t)j * (size_t)b, (size_t)b * sizeof *a);
    hr_compute(p, (double)bytes);
    hr_region_end(p, "fft.rows");

    /* "... and performs a complete exchange using any one of the algorithms described": block i
     * of a is then processor i's rows me*b .. of its columns. No plan is alive across it: REX
     * fails the run on p not a power of two, and a deadlock ends it too. */
    hr_region_begin(p, "fft.exchange");
    if (xchg < 0 || xchg > 4)
        hr_fail(p, "app.fft2d: xchg = %d is not 0 .. 4", xchg);
    hr__xchg(p, exchanges[xchg], send, a, block_bytes);
    hr_region_end(p, "fft.exchange");

    /* Row r of block k is row k*b + r of the array: out's row c (the array's column me*b + c)
     * takes it at k*b + r. Then "each processor then performs 1D FFT on new data". */
    hr_region_begin(p, "fft.columns");
    for (int k = 0; k < np; k++)
        transpose_block(a + (size_t)k * blk, (size_t)b, out + (size_t)k * (size_t)b, (size_t)N);
    hr_compute(p, (double)bytes);
    plan = hr__fft_plan_rows(N, b, out, out);
    if (plan == NULL)
        hr_fail(p, "app.fft2d: FFTW could not plan %d DFTs of length %d", b, N);
    fftw_execute(plan);
    hr__fft_destroy(plan);
    charge_flops(p, pass_flops, mflops);
    hr_region_end(p, "fft.columns");

    hr_free(p, a);
    hr_free(p, send);
    f->out[me] = out;
    f->done[me] = 1;
}
