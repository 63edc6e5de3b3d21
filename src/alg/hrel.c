/* hrel.c: algorithms that route an h-relation (seed 000 section 3). */
#include "alg/hrel.h"

#include <hremu/workload.h>

/* Count p's elements by destination into counts[0..n) and check every destination exists. */
static void count_dests(hr_proc *p, const hr_elem *in, size_t cnt, size_t *counts)
{
    int n = hr_nprocs(p);
    for (size_t k = 0; k < cnt; k++) {
        if (in[k].dest >= (uint32_t)n)
            hr_fail(p, "element %zu has destination %u, but p = %d", k, in[k].dest, n);
        counts[in[k].dest]++;
    }
}

/* seed 000 section 3, "a straightforward solution": sort the elements by destination (a stable
 * counting sort), exchange the counts with a transpose, and route everything with one
 * MPI_Alltoallv-style exchange. Cost: tau + sigma*(p-1)*8 for the counts, then up to
 * tau + sigma*max(n/p, h)*8 bytes, with node contention wherever the blocks are uneven. */
void hr_alg_hrel_direct(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_hrel *r = inst;
    int n = hr_nprocs(p), me = hr_pid(p);
    const hr_elem *in = r->in[me];
    size_t cnt = r->in_count[me];
    size_t *scount = hr_calloc(p, (size_t)n, sizeof *scount);
    size_t *sdispl = hr_malloc(p, (size_t)n * sizeof *sdispl);
    size_t *rcount = hr_malloc(p, (size_t)n * sizeof *rcount);
    size_t *rdispl = hr_malloc(p, (size_t)n * sizeof *rdispl);

    count_dests(p, in, cnt, scount);
    size_t at = 0;
    for (int d = 0; d < n; d++) {
        sdispl[d] = at;
        at += scount[d];
    }
    hr_elem *sorted = hr_malloc(p, cnt * sizeof *sorted + 1);
    size_t *next = rdispl;              /* borrowed as the scatter cursor until the transpose */
    for (int d = 0; d < n; d++)
        next[d] = sdispl[d];
    for (size_t k = 0; k < cnt; k++)
        sorted[next[in[k].dest]++] = in[k];
    hr_compute(p, 2.0 * (double)cnt);   /* the counting pass and the scatter */

    hr_transpose(p, scount, rcount, sizeof *scount);
    size_t total = 0;
    for (int s = 0; s < n; s++) {
        rdispl[s] = total;
        total += rcount[s];
    }
    hr_elem *out = hr_malloc(p, total * sizeof *out + 1);
    hr_alltoallv(p, sorted, scount, sdispl, out, rcount, rdispl, sizeof *out);
    hr_free(p, sorted);
    r->out[me] = out;
    r->out_count[me] = total;
}
