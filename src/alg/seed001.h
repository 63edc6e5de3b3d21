/* seed001.h: the algorithms of seed 001 (Ponnusamy, Thakur, Choudhary, Fox 1992) on the CM-5
 * model: the complete exchanges LEX, PEX, REX and BEX (xchg.c, on the exchange workload) and
 * the broadcasts LIB and REB (bcast.c, on the values workload). Its irregular schedulers are in
 * irreg.h, with seed 002's. */
#ifndef HREMU_ALG_SEED001_H
#define HREMU_ALG_SEED001_H

#include <stddef.h>

#include <hremu/hremu.h>

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
/* xchg.rex's check (hr_algorithm.check): p a power of two. */
int  hr_alg_xchg_rex_check(const double *params, int procs, const char *topology, char *why,
                           size_t whylen);
void hr_alg_xchg_bex(hr_proc *p, void *inst, const double *params);
void hr_alg_xchg_system(hr_proc *p, void *inst, const double *params);

/* Broadcasts of sec. 3.6 on the values workload (bcast.c), from any root, to every processor
 * or in every row or column of a mesh at once; params: group (0 all, 1 rows, 2 columns), rows
 * (0: the squarest mesh). bcast.system is the machine's own hr_bcast / hr_group_bcast. */
void hr_alg_bcast_linear(hr_proc *p, void *inst, const double *params);
void hr_alg_bcast_recursive(hr_proc *p, void *inst, const double *params);
void hr_alg_bcast_system(hr_proc *p, void *inst, const double *params);
/* The three broadcasts' check (hr_algorithm.check): rows, when set, divides p. */
int  hr_alg_bcast_group_check(const double *params, int procs, const char *topology, char *why,
                              size_t whylen);

#endif /* HREMU_ALG_SEED001_H */
