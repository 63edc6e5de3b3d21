/* sort.h: integer sorting (seed 000 section 4). */
#ifndef HREMU_ALG_SORT_H
#define HREMU_ALG_SORT_H

#include <hremu/hremu.h>

void hr_alg_sort_counting(hr_proc *p, void *inst, const double *params);
void hr_alg_sort_radix(hr_proc *p, void *inst, const double *params);

#endif
