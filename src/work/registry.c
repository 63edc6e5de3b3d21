/* registry.c: the table of workload kinds, found by name (include/hremu/workload.h). */
#include <hremu/workload.h>

#include <string.h>

#include "work/hrel.h"
#include "work/sort.h"

/* Rows sorted by name, ended by a row with name NULL; tests/check_workload.c checks the order. */
static const hr_workload workloads[] = {
    { .name = "hrelation",
      .summary = "route every element to its destination (seed 000 section 3)",
      .kind = HR_KIND_HRELATION,
      .distributions = "alltoall, difficult, file:PATH, permutation, random, skewed, transpose, "
                       "uniform",
      .make = hr__hrel_make,          /* generate one instance, cyclic layout */
      .reset = hr__hrel_reset,        /* forget outputs before the next run */
      .verify = hr__hrel_verify,      /* exactly-once delivery, O(n) bitmap */
      .h = hr__hrel_h,                /* max elements any processor receives */
      .destroy = hr__hrel_destroy },
    { .name = "sort",
      .summary = "sort 32-bit integer keys, stably, in processor order (seed 000 section 5)",
      .kind = HR_KIND_SORT,
      .datasets = "C, N, R, S",
      .make = hr__sort_make,          /* generate one dataset of section 5.1, block layout */
      .reset = hr__sort_reset,        /* forget outputs before the next run */
      .verify = hr__sort_verify,      /* stable global sort, O(n) bitmap and fingerprint */
      .h = hr__sort_h,                /* ceil(n/p): the most keys a processor starts with */
      .destroy = hr__sort_destroy },
    { .name = NULL }  /* sentinel */
};

const hr_workload *hr_workload_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (const hr_workload *w = workloads; w->name != NULL; w++)
        if (strcmp(w->name, name) == 0)
            return w;
    return NULL;
}

const hr_workload *hr_workload_at(int i)
{
    int rows = (int)(sizeof workloads / sizeof workloads[0]) - 1;
    return i >= 0 && i < rows ? &workloads[i] : NULL;
}
