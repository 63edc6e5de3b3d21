/* irreg.h: the schedulers of irregular communication on the pattern workload (irreg.c): seed
 * 001's LS, PS, BS and GS (sec. 4), seed 002's partial permutations LP, CGM and CGMH and its
 * asynchronous AC. Each scheduler's plan computes its schedule into the instance before the
 * processors start (algorithm.h's plan hooks); one runner follows any of them. */
#ifndef HREMU_ALG_IRREG_H
#define HREMU_ALG_IRREG_H

#include <stdint.h>
#include <stdio.h>

#include <hremu/algorithm.h>

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
/* Keep schedule s, which a scheduler made with result err, as the plan of pattern instance inst,
 * once it holds what the scheduler promises: hr__sched_check_flags(s, pattern, promise), the
 * HR_SCHED_* flags of sched.h. overlap as hr_sched's. Every plan above ends here, so a schedule
 * that breaks its promise never runs. HR_OK (inst owns s, freed by hr_alg_irreg_unplan); or,
 * s freed (err != HR_OK: s is only freed, its contents untouched), err, HR_EFAIL with
 * "the schedule breaks its promise: step N: ..." in why (the first fault, naming the step and
 * the processors) or HR_ENOMEM. Any thread. */
struct hr_sched;
int      hr__irreg_keep_plan(void *inst, struct hr_sched *s, int err, unsigned promise,
                             int overlap, char *why, size_t whylen);
/* Seed 002's asynchronous communication (AC, sec. 3.3), with strip mining: params[0] = strip. */
void     hr_alg_irreg_ac(hr_proc *p, void *inst, const double *params);

#endif /* HREMU_ALG_IRREG_H */
