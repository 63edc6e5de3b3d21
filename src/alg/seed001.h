/* seed001.h: the algorithms of seed 001 (Ponnusamy, Thakur, Choudhary, Fox 1992) on the CM-5
 * model, and seed 002's (Ranka, Wang, Kumar 1992) that share their pattern workload and runner: the complete exchanges LEX, PEX, REX and BEX (xchg.c, on the exchange workload) and the
 * broadcasts LIB and REB (bcast.c, on the values workload). */
#ifndef HREMU_ALG_SEED001_H
#define HREMU_ALG_SEED001_H

#include <hremu/algorithm.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The complete exchanges as calls, for any algorithm that needs one (app.fft2d): send holds p
 * blocks of `block` bytes, block j for processor j; recv gets block i from processor i (its own
 * copied). Every processor calls it with the same alg and block. REX fails the run unless p is a
 * power of two. Blocking; costs what its messages cost (and REX's reshuffling, one
 * hr_compute unit a byte copied). HR_XCHG_SYSTEM is the machine's own hr_transpose. */
typedef enum hr_xchg_alg {
    HR_XCHG_LEX, HR_XCHG_PEX, HR_XCHG_REX, HR_XCHG_BEX, HR_XCHG_SYSTEM
} hr_xchg_alg;
void hr__xchg(hr_proc *p, hr_xchg_alg alg, const void *send, void *recv, size_t block);

void hr_alg_xchg_lex(hr_proc *p, void *inst, const double *params);
void hr_alg_xchg_pex(hr_proc *p, void *inst, const double *params);
void hr_alg_xchg_rex(hr_proc *p, void *inst, const double *params);
void hr_alg_xchg_bex(hr_proc *p, void *inst, const double *params);
void hr_alg_xchg_system(hr_proc *p, void *inst, const double *params);

/* Broadcasts of sec. 3.6 on the values workload (bcast.c), from any root, to every processor
 * or in every row or column of a mesh at once; params: group (0 all, 1 rows, 2 columns), rows
 * (0: the squarest mesh). bcast.system is the machine's own hr_bcast / hr_group_bcast. */
void hr_alg_bcast_linear(hr_proc *p, void *inst, const double *params);
void hr_alg_bcast_recursive(hr_proc *p, void *inst, const double *params);
void hr_alg_bcast_system(hr_proc *p, void *inst, const double *params);

/* The irregular schedulers of sec. 4 on the pattern workload (irreg.c): plan computes the
 * schedule (LS, PS, BS or GS, sched.c) into the instance, run follows it; one run for all four. */
int      hr_alg_irreg_ls_plan(void *inst, const hr_plan_args *args, char *why, size_t whylen);
int      hr_alg_irreg_ps_plan(void *inst, const hr_plan_args *args, char *why, size_t whylen);
int      hr_alg_irreg_bs_plan(void *inst, const hr_plan_args *args, char *why, size_t whylen);
int      hr_alg_irreg_gs_plan(void *inst, const hr_plan_args *args, char *why, size_t whylen);
void     hr_alg_irreg_unplan(void *inst);
uint64_t hr_alg_irreg_plan_steps(const void *inst);
int      hr_alg_irreg_plan_print(const void *inst, FILE *out);
void     hr_alg_irreg_run(hr_proc *p, void *inst, const double *params);
/* Seed 002's schedules of partial permutations (sec. 3.1-3.2, 5.1; perm.c), run by
 * hr_alg_irreg_run: LP, CGM, CGM+sort, CGM+heap, CGMH with fixed lambda (params lambda, reset),
 * CGMH+MS and CGMH+BJ; printed with each transfer's bytes. */
int      hr_alg_irreg_lp_plan(void *inst, const hr_plan_args *args, char *why, size_t whylen);
int      hr_alg_irreg_cgm_plan(void *inst, const hr_plan_args *args, char *why, size_t whylen);
int      hr_alg_irreg_cgm_sort_plan(void *inst, const hr_plan_args *args, char *why,
                                    size_t whylen);
int      hr_alg_irreg_cgm_heap_plan(void *inst, const hr_plan_args *args, char *why,
                                    size_t whylen);
int      hr_alg_irreg_cgmh_fixed_plan(void *inst, const hr_plan_args *args, char *why,
                                      size_t whylen);
int      hr_alg_irreg_cgmh_ms_plan(void *inst, const hr_plan_args *args, char *why,
                                   size_t whylen);
int      hr_alg_irreg_cgmh_bj_plan(void *inst, const hr_plan_args *args, char *why,
                                   size_t whylen);
int      hr_alg_irreg_perm_print(const void *inst, FILE *out);
/* Seed 002's asynchronous communication (AC, sec. 3.3), with strip mining: params[0] = strip. */
void     hr_alg_irreg_ac(hr_proc *p, void *inst, const double *params);

#endif /* HREMU_ALG_SEED001_H */
