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

/* ---- hrel.two_phase: seed 000 section 3, Steps (1)-(4), Algorithm 1 (Appendix B) ---------- */

/* floor(x/p + (p-1)/2), the bin bound of eqs. (4) and (5), in integers. */
static size_t bin_bound(uint64_t x, int p)
{
    return (size_t)((2 * x + (uint64_t)p * (uint64_t)(p - 1)) / (2 * (uint64_t)p));
}

/* p bins of 1 + cap elements: slot 0 of a bin holds its count, as Algorithm 1 keeps it (steps 2.1
 * and 6.1). While dealing, the counts live in fill[] (one small array, in cache) and go to the
 * bins' first slots at the end: writing them per element touched a second cache line each time. */
typedef struct bins {
    hr_elem  *slots;
    size_t    cap;
    uint32_t *fill;
} bins;

static bins bins_new(hr_proc *p, size_t cap)
{
    int n = hr_nprocs(p);
    bins b = { hr_malloc(p, (size_t)n * (cap + 1) * sizeof(hr_elem)), cap,
               hr_calloc(p, (size_t)n, sizeof(uint32_t)) };
    return b;
}

/* Put e into bin `bin`. Fails the run if the bin would pass its bound, which the paper proves
 * cannot happen: a check on every run. */
static inline void bin_put(hr_proc *p, bins *b, int bin, hr_elem e, const char *step)
{
    if (b->fill[bin] == b->cap)
        hr_fail(p, "%s: bin %d is over its bound of %zu elements", step, bin, b->cap);
    b->slots[(size_t)bin * (b->cap + 1) + 1 + b->fill[bin]++] = e;
}

static void bins_close(hr_proc *p, bins *b)
{
    for (int k = 0; k < hr_nprocs(p); k++)
        b->slots[(size_t)k * (b->cap + 1)] = (hr_elem){ b->fill[k], 0 };
    hr_free(p, b->fill);
}

/* Choices, where Algorithm 1 and the text differ:
 * - Block sizes are the proven bounds floor(h1/p + (p-1)/2) and floor(h/p + (p-1)/2) (eqs. 4, 5;
 *   tight, so floors of the half-integers), not Algorithm 1's n/p^2 + p/2 + 1 and h/p + p/2, plus
 *   one word per block for its count (Algorithm 1 counts in slot 0 of the first transpose's
 *   blocks but gives the second's none).
 * - Section 3.3's general case: h1 (the most elements any processor holds) replaces n/p, h2 = h.
 *   Both are parameters of the problem that every processor knows, as the paper assumes of n/p
 *   and h. */
void hr_alg_hrel_two_phase(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_hrel *r = inst;
    int n = hr_nprocs(p), me = hr_pid(p);
    const hr_elem *in = r->in[me];
    size_t cnt = r->in_count[me];
    size_t cap1 = bin_bound(r->h1, n), cap2 = bin_bound(r->h, n);
    size_t blk1 = cap1 + 1, blk2 = cap2 + 1;

    /* Step (1): element k with destination l goes to bin T[l], starting at (i + l) mod p. */
    bins c = bins_new(p, cap1);
    int *t = hr_malloc(p, (size_t)n * sizeof *t);
    for (int l = 0; l < n; l++)
        t[l] = (me + l) % n;
    for (size_t k = 0; k < cnt; k++) {
        uint32_t l = in[k].dest;
        if (l >= (uint32_t)n)
            hr_fail(p, "element %zu has destination %u, but p = %d", k, l, n);
        bin_put(p, &c, t[l], in[k], "step (1)");
        t[l] = t[l] + 1 == n ? 0 : t[l] + 1;
    }
    bins_close(p, &c);
    hr_free(p, t);
    hr_compute(p, (double)cnt);

    /* Step (2): bin j to processor j, a transpose of blocks of 1 + cap1 elements. */
    hr_elem *d = hr_malloc(p, (size_t)n * blk1 * sizeof *d);
    hr_transpose(p, c.slots, d, blk1 * sizeof *d);
    hr_free(p, c.slots);

    /* Step (3): rebin what arrived by final destination. */
    bins e = bins_new(p, cap2);
    size_t moved = 0;
    for (int k = 0; k < n; k++) {
        const hr_elem *b = d + (size_t)k * blk1;
        for (uint32_t j = 1; j <= b[0].data; j++)
            bin_put(p, &e, (int)b[j].dest, b[j], "step (3)");
        moved += b[0].data;
    }
    bins_close(p, &e);
    hr_compute(p, (double)moved);
    hr_free(p, d);

    /* Step (4): bin j to processor j again, blocks of 1 + cap2 elements. */
    hr_elem *f = hr_malloc(p, (size_t)n * blk2 * sizeof *f);
    hr_transpose(p, e.slots, f, blk2 * sizeof *f);
    hr_free(p, e.slots);

    /* Algorithm 1, steps 9-10: pack the received blocks into the output. */
    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += f[(size_t)k * blk2].data;
    hr_elem *out = hr_malloc(p, total * sizeof *out + 1);
    size_t z = 0;
    for (int k = 0; k < n; k++) {
        const hr_elem *b = f + (size_t)k * blk2;
        for (uint32_t j = 1; j <= b[0].data; j++)
            out[z++] = b[j];
    }
    hr_compute(p, (double)total);
    hr_free(p, f);
    r->out[me] = out;
    r->out_count[me] = total;
}

/* ---- hrel.xor: seed 000 section 3.2, the single-phase algorithm -------------------------- */

/* p - 1 steps. For p a power of two, in step s processor j exchanges with j XOR s, as the paper
 * says; otherwise (a choice: the paper assumes a power of two) processor j sends to (j + s) mod p
 * and receives from (j - s) mod p, which is just as contention-free. Each step is a blocking
 * exchange, so the algorithm pays about (p-1) (tau + sigma m): the cost the paper compares the
 * two-phase algorithm against. The messages carry the elements sorted by destination. */
void hr_alg_hrel_xor(hr_proc *p, void *inst, const double *params)
{
    (void)params;
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
    }
    hr_free(p, sorted);
    r->out[me] = out;
    r->out_count[me] = z;
}
