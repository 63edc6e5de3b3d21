/* app.h: applications built on the papers' communication algorithms: seed 001's 2D FFT by
 * complete exchange (fft2d.c, on the fft2d workload of work/fft.h). */
#ifndef HREMU_ALG_APP_H
#define HREMU_ALG_APP_H

#include <hremu/hremu.h>

/* app.fft2d (seed 001 sec. 3.5, Table 5): on the fft2d workload, every processor transforms its
 * N/p rows, exchanges N/p x N/p blocks with every processor, transposes what it received into
 * N/p columns and transforms them; it leaves out[me] as work/fft.h's hr_fft2d says (rows of the
 * transpose of the 2D DFT). params, in order (NULL: the defaults):
 *   xchg   the complete exchange: 0 hr_transpose (the built-in collective), 1 LEX, 2 PEX
 *          (default), 3 REX (p a power of two, else the run fails), 4 BEX (alg/seed001.h);
 *   mflops the node's rate for the model's charge of the FFTs (default 128, the CM-5 node's
 *          peak with its four vector units, seed 001 sec. 2: a peak, not a measured rate).
 * Model charge (besides the exchange's messages): each 1-D FFT of length N is 5 N log2 N flops
 * at mflops, so a processor's two phases cost 2 (N/p) 5 N log2 N / (mflops 1e6) seconds; packing
 * its rows into blocks and transposing the received blocks each copy 16 N^2/p bytes, charged one
 * hr_compute unit a byte as xchg.rex's reshuffling is. With compute_unit = 0 nothing local is
 * charged; with compute = measured the CPU time is, as for every algorithm. Owner proc. */
void hr_alg_app_fft2d(hr_proc *p, void *inst, const double *params);
/* app.fft2d's check (hr_algorithm.check): xchg = 3 (REX) needs p a power of two. */
int  hr_alg_app_fft2d_check(const double *params, int procs, const char *topology, char *why,
                            size_t whylen);

#endif /* HREMU_ALG_APP_H */
