/* hrel.c: algorithms that route an h-relation (seed 000 section 3). */
#include "alg/hrel.h"

#include <stddef.h>
#include <string.h>
#include <hremu/workload.h>

#include "alg/route.h"

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

/* ---- hrel.two_phase: seed 000 section 3, Steps (1)-(4), Algorithm 1 (Appendix B) ---------- */

/* Steps (1)-(4) are alg/route.c's, which the sorts use too; here they route the elements as
 * they are, and Algorithm 1's steps 9-10 pack what arrives. */
void hr_alg_hrel_two_phase(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_hrel *r = inst;
    int n = hr_nprocs(p), me = hr_pid(p);
    const hr_elem *in = r->in[me];
    size_t cnt = r->in_count[me];
    hr_router rt;
    hr__route_start(p, &rt, sizeof *in, offsetof(hr_elem, dest), r->h1, r->h);
    hr__route_deal(p, &rt, in, cnt);
    hr__route_exchange(p, &rt);

    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += hr__route_count(&rt, k);
    hr_elem *out = hr_malloc(p, total * sizeof *out + 1);
    size_t z = 0;
    for (int k = 0; k < n; k++) {
        size_t got = hr__route_count(&rt, k);
        memcpy(out + z, hr__route_block(&rt, k), got * sizeof *out);
        z += got;
    }
    hr_compute(p, (double)total);
    hr__route_end(p, &rt);
    r->out[me] = out;
    r->out_count[me] = total;
}

/* ---- hrel.xor: seed 000 section 3.2, the single-phase algorithm -------------------------- */

/* p - 1 steps. For p a power of two, in step s processor j exchanges with j XOR s, as the paper
 * says; otherwise (a choice: the paper assumes a power of two) processor j sends to (j + s) mod p
 * and receives from (j - s) mod p, which is just as contention-free. Each step is a blocking
 * exchange, so the algorithm pays about (p-1) (tau + sigma m). The messages carry the elements
 * sorted by destination.
 *
 * params[0], sync: 1 (the default) ends every exchange step with a global synchronization
 * (hr_barrier), as the paper describes single-phase algorithms; 0 leaves it out. With sync the
 * cost is about (p-1) (tau + sigma m + ceil(lg p) tau), and the rounds column counts the p - 1
 * barriers (it is 0 without them: the exchanges are point to point). */
void hr_alg_hrel_xor(hr_proc *p, void *inst, const double *params)
{
    int sync = params[0] != 0;
    hr_hrel *r = inst;
    int n = hr_nprocs(p), me = hr_pid(p);
    const hr_elem *in = r->in[me];
    size_t cnt = r->in_count[me];
    size_t *count = hr_calloc(p, (size_t)n, sizeof *count);
    size_t *first = hr_malloc(p, ((size_t)n + 1) * sizeof *first);
    count_dests(p, in, cnt, count);
    first[0] = 0;
    for (int k = 0; k < n; k++)
        first[k + 1] = first[k] + count[k];
    hr_elem *sorted = hr_malloc(p, cnt * sizeof *sorted + 1);
    for (int k = 0; k < n; k++)
        count[k] = first[k];
    for (size_t k = 0; k < cnt; k++)
        sorted[count[in[k].dest]++] = in[k];
    hr_compute(p, 2.0 * (double)cnt);

    /* Every processor receives at most h elements: the problem's promise sizes the output. */
    size_t cap = (size_t)r->h;
    hr_elem *out = hr_malloc(p, cap * sizeof *out + 1);
    size_t z = first[me + 1] - first[me];
    for (size_t k = 0; k < z; k++)
        out[k] = sorted[first[me] + k];
    int pow2 = (n & (n - 1)) == 0;
    for (int s = 1; s < n; s++) {
        int to = pow2 ? me ^ s : (me + s) % n;
        int from = pow2 ? me ^ s : (me - s + n) % n;
        size_t bytes = (first[to + 1] - first[to]) * sizeof *sorted;
        hr_send(p, to, s, sorted + first[to], bytes);
        size_t got = hr_recv(p, from, s, out + z, (cap - z) * sizeof *out, NULL);
        z += got / sizeof *out;
        /* Seed 000 sec. 3.2: single-phase algorithms "partition messages into contention-free
         * routing steps separated by global synchronizations"; its algorithm has p steps,
         * i = 0 .. p-1, in which j sends to i XOR j. Step 0 is j's own data, the copy above,
         * which crosses no network. So a synchronization ends each of the p - 1 exchange steps:
         * no processor starts step s + 1 (and contends at a receiver) before step s is over
         * everywhere, and the routing ends when every processor's data has arrived. That is
         * p - 1 in all, as many as separate p steps.
         * The paper prices no synchronization. The reading here is hr_barrier: a dissemination
         * barrier of zero-byte messages over the data network, ceil(lg p) tau (docs/model.md).
         * BDM's count of one tau per collective primitive is less for p > 2, and a separate
         * synchronization network far less (seed 001: 2-5 us on the CM-5, against tau = 88 us);
         * docs/seed000.md (Figure 3) says what each would change. */
        if (sync)
            hr_barrier(p);
    }
    hr_free(p, sorted);
    r->out[me] = out;
    r->out_count[me] = z;
}
