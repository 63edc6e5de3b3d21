/* seed004.h: broadcast, reduction and prefix on the hypercube and on the reduced hypercube
 * RH(k,n) (seed 004 chapters 2-4, bcast.c, reduce.c, prefix.c), on the values workload; bitonic
 * sort on both (chapter 5, bitonic.c), on the sort workload with n a multiple of p. */
#ifndef HREMU_ALG_SEED004_H
#define HREMU_ALG_SEED004_H

#include <hremu/hremu.h>

void hr_alg_bcast_binomial(hr_proc *p, void *inst, const double *params);
void hr_alg_bcast_rh_tree(hr_proc *p, void *inst, const double *params);
void hr_alg_reduce_binomial(hr_proc *p, void *inst, const double *params);
void hr_alg_reduce_rh_tree(hr_proc *p, void *inst, const double *params);
void hr_alg_prefix_hypercube(hr_proc *p, void *inst, const double *params);
void hr_alg_prefix_rh(hr_proc *p, void *inst, const double *params);
void hr_alg_sort_bitonic(hr_proc *p, void *inst, const double *params);
void hr_alg_sort_rh_bitonic(hr_proc *p, void *inst, const double *params);

/* One transfer between BBs in Phase II of the RH prefix (sec. 4.2): in substep `sub` (from 1,
 * over the whole phase), BB from sends to BB to = from ^ 2^dim, directly (the loop's step) or
 * passing on what it received in this step. */
typedef struct hr_rh_xfer {
    int sub, from, to, dim, direct;
} hr_rh_xfer;

/* Phase II's transfers for a cube of BBs of D dimensions (1 <= D <= 10), in order of substep
 * and sender, into out (room for cap; D * 2^(D-1) are needed). Returns how many, or -1 if cap is
 * short; *substeps gets the phase's substeps (1 + 2 + ... + D). */
int hr__rh_prefix_plan(int D, hr_rh_xfer *out, int cap, int *substeps);

#endif
