/* hrel.h: the h-relation algorithms (seed 000 section 3). */
#ifndef HREMU_ALG_HREL_H
#define HREMU_ALG_HREL_H

#include <hremu/hremu.h>

void hr_alg_hrel_direct(hr_proc *p, void *inst, const double *params);
void hr_alg_hrel_two_phase(hr_proc *p, void *inst, const double *params);
void hr_alg_hrel_xor(hr_proc *p, void *inst, const double *params);

#endif
