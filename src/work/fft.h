/* fft.h: the "fft2d" workload (seed 001 sec. 3.5, Table 5): an N x N array of complex doubles
 * distributed by rows, its two-dimensional DFT, and the verifier; and FFTW's planner behind the
 * one lock that every planning call of the program takes (FFTW's planner is not thread-safe,
 * and processors are threads).
 *
 * The kind's instance type lives here, not in the public headers: the algorithm that takes it
 * (src/alg/fft2d.c, app.fft2d) includes this file. Built-in kinds after the first three number
 * themselves in their own header, below HR_KIND_USER; the registry's test checks the numbers
 * are distinct.
 */
#ifndef HREMU_WORK_FFT_H
#define HREMU_WORK_FFT_H

#include <stddef.h>
#include <stdint.h>

#include <fftw3.h>
#include <hremu/workload.h>

#define HR_KIND_FFT2D ((hr_kind)6)

/* The verifier's tolerance, as a factor: see hr_fft2d. */
#define HR_FFT2D_TOL 1e-9

/* A two-dimensional DFT. x is N x N, row-major, x[r][c] = the seed's value for (r, c), both
 * parts uniform in [-1, 1) with 53 random bits; the same seed and N give the same array on any p.
 * With b = N/p (N must be a multiple of p), processor i starts with in[i]: rows i*b .. i*b+b-1 of
 * x, b*N elements, row after row (seed 001: "distributed along rows").
 *
 * The result is X[k][l] = sum over r, c of x[r][c] exp(-2 pi sqrt(-1) (k r + l c) / N) (FFTW's
 * forward sign, no scaling). Processor i ends with out[i] (memory from hr_malloc, set on
 * processor i only, and done[i] = 1): b*N elements, rows i*b .. i*b+b-1 of the *transpose* of X,
 * so out[i][c*N + r] = X[r][i*b + c]. That is the layout the paper's algorithm leaves (row FFTs,
 * a complete exchange, column FFTs): processor i holds the columns i*b .. of X, each as a row.
 *
 * The verifier computes X again, sequentially with FFTW (fftw_plan_dft_2d), from an input it
 * makes again from the seed (so an algorithm that wrote into in[] is caught too), and accepts
 * element e when |got - want| <= tol = HR_FFT2D_TOL * N * log2(N) * max|x| (moduli of complex
 * numbers; max|x| over the whole input, < sqrt(2)). Why that is safe and still tight: a
 * Cooley-Tukey FFT of length M computed in floating point has ||err||_2 <= log2(M) eta ||X||_2,
 * eta = mu + gamma_4 (sqrt 2 + mu) ~ 8e-16 with accurate twiddles (Higham, Accuracy and Stability
 * of Numerical Algorithms, 2nd ed., Thm. 24.2): the error grows like log N eps. Here M = N^2 and
 * ||X||_2 = N ||x||_2 <= N^2 max|x|, so any one element of either result is off by at most
 * 2 log2(N) 8e-16 N^2 max|x|, and the two results differ by at most twice that:
 * 3.2e-15 N^2 log2(N) max|x|. tol is 1e-9 / (3.2e-15 N) >= 38 times that for every N <= 8192,
 * while a misplaced or wrong element is off by about N (a typical |X| is 0.8 N): even at N = 8192
 * tol is 1.1e-4. FFTW's non-power-of-two algorithms (mixed radix, Rader, Bluestein) have errors
 * of the same O(log N eps) form in its accuracy benchmarks, not a proof. */
typedef struct hr_fft2d {
    int            p;
    int            N;         /* the array is N x N; N % p == 0 */
    int            rows;      /* b = N/p: rows a processor holds, before and after */
    fftw_complex **in;        /* in[i]: b*N elements */
    fftw_complex **out;       /* out[i]: b*N elements of X's transpose, set by processor i */
    char          *done;      /* done[i]: processor i set out[i] */
} hr_fft2d;

/* The kind's keys: size (N). make reads spec->keys in this order, spec->keys NULL being N = 256. */
extern const hr_wkey_spec hr__fft2d_keys[];

/* The hr_workload row's slots (contracts in workload.h). make: HR_OK, HR_EINVAL with one line
 * in why (N not a multiple of p, N outside 2 .. 8192) or HR_ENOMEM; the inputs are made from
 * spec->seed. verify: as hr_fft2d says; HR_EVERIFY names the first processor, row and element
 * that is wrong with both values and the tolerance; HR_ENOMEM if its N^2 elements of scratch
 * cannot be had. min_bytes: 16 bytes for every element whose row block and column block differ
 * (it starts on processor r/b and ends on c/b): p (p - 1) b^2 elements, 16 p (p - 1) b^2 bytes.
 * h: (p - 1) b^2, the elements each processor receives from the others. mem_bytes: 16 N^2
 * bytes each for the inputs, the outputs and the verifier's scratch, and the pointers. */
int      hr__fft2d_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen);
void     hr__fft2d_reset(void *inst);
int      hr__fft2d_parts(void *inst, int pid, hr_part *out, int max);
int      hr__fft2d_verify(const void *inst, char *why, size_t whylen);
uint64_t hr__fft2d_min_bytes(const void *inst, uint64_t *moved);
uint64_t hr__fft2d_h(const void *inst);
uint64_t hr__fft2d_mem_bytes(const hr_workload_spec *s, int p);
void     hr__fft2d_destroy(void *inst);

/* ---- FFTW's planner, behind one lock ---------------------------------------------------------
 * fftw_execute is thread-safe; planning and destroying a plan are not (they share the planner's
 * tables). Every plan the program makes or destroys goes through these two calls, which hold
 * one process-wide lock while FFTW plans. Any thread, processors included; neither blocks on
 * anything but that lock, and neither may be called while a processor holds it (nothing inside
 * communicates). */

/* A plan of `howmany` forward DFTs of length n (FFTW_ESTIMATE: chosen by FFTW's heuristics
 * without timing anything, and the arrays untouched while planning): vector k is
 * in[k*n .. k*n+n) -> out[k*n .. k*n+n). in and out may be equal (in place); out of place, in
 * is preserved. Execute it with fftw_execute on these arrays only. NULL if FFTW cannot plan it. */
fftw_plan hr__fft_plan_rows(int n, int howmany, fftw_complex *in, fftw_complex *out);
/* The forward two-dimensional DFT of the n x n row-major array a, in place (FFTW_ESTIMATE). */
fftw_plan hr__fft_plan_2d(int n, fftw_complex *a);
/* Destroy a plan of the two above (NULL is fine). */
void      hr__fft_destroy(fftw_plan plan);

#endif /* HREMU_WORK_FFT_H */
