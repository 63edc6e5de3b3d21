/* rounds.h: seed 003's h-relation algorithms, on the round disciplines. */
#ifndef HREMU_ALG_ROUNDS_H
#define HREMU_ALG_ROUNDS_H

#include <stddef.h>
#include <hremu/algorithm.h>

void hr_alg_hrel_fifo_staged(hr_proc *p, void *inst, const double *params);
void hr_alg_hrel_pq_random(hr_proc *p, void *inst, const double *params);
void hr_alg_hrel_aw_weighted(hr_proc *p, void *inst, const double *params);
void hr_alg_hrel_aw_uniform(hr_proc *p, void *inst, const double *params);
void hr_alg_hrel_ocpc_gt(hr_proc *p, void *inst, const double *params);
void hr_alg_hrel_offline(hr_proc *p, void *inst, const double *params);
/* hrel.offline's plan (algorithm.h): the colouring of the instance's messages. */
int  hr_alg_hrel_offline_plan(void *inst, const hr_plan_args *args, char *why, size_t len);
void hr_alg_hrel_offline_unplan(void *inst);

#endif
