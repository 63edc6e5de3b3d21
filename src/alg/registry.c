/* registry.c: every algorithm, one row each, sorted by name (a test checks the order). */
#include <hremu/algorithm.h>

#include <string.h>

#include "alg/hrel.h"
#include "alg/sort.h"

static const hr_param_spec radix_params[] = {
    { .name = "r", .summary = "bits per pass: R = 2^r counters (the paper's R = 1024 is r = 10)",
      .def = 11, .min = 1, .max = 16, .integer = 1 },
    { .name = NULL },
};

static const hr_algorithm algorithms[] = {
    { .name = "hrel.direct",
      .summary = "sort by destination, then one alltoallv (seed 000 sec. 3, the MPI_Alltoallv baseline)",
      .kind = HR_KIND_HRELATION,
      .run = hr_alg_hrel_direct },
    { .name = "hrel.two_phase",
      .summary = "two transposes with bins dealt round robin (seed 000 sec. 3, Algorithm 1)",
      .kind = HR_KIND_HRELATION,
      .run = hr_alg_hrel_two_phase },
    { .name = "hrel.xor",
      .summary = "p-1 blocking exchanges with j XOR s, or j+s for other p (seed 000 sec. 3.2)",
      .kind = HR_KIND_HRELATION,
      .disciplines = "async",
      .run = hr_alg_hrel_xor },
    { .name = "sort.counting",
      .summary = "stable counting sort of keys below 2^20: counts, transposes, ranks, an h-relation (seed 000 Alg. 2)",
      .kind = HR_KIND_SORT,
      .run = hr_alg_sort_counting },
    { .name = "sort.radix",
      .summary = "radix sort of 32-bit keys by ceil(32/r) passes of counting sort (seed 000 sec. 4.2)",
      .kind = HR_KIND_SORT,
      .run = hr_alg_sort_radix,
      .params = radix_params },
    { .name = NULL },
};

const hr_algorithm *hr_algorithm_at(int i)
{
    if (i < 0 || (size_t)i >= sizeof algorithms / sizeof algorithms[0] - 1)
        return NULL;
    return &algorithms[i];
}

const hr_algorithm *hr_algorithm_find(const char *name)
{
    for (const hr_algorithm *a = algorithms; a->name != NULL; a++)
        if (strcmp(a->name, name) == 0)
            return a;
    return NULL;
}

int hr_algorithm_allows(const hr_algorithm *alg, const char *discipline)
{
    if (alg->disciplines == NULL)
        return 1;
    size_t len = strlen(discipline);
    for (const char *s = alg->disciplines; *s != '\0';) {
        const char *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        if (n == len && strncmp(s, discipline, len) == 0)
            return 1;
        if (end == NULL)
            break;
        s = end + 1;
    }
    return 0;
}
