/* route.c: seed 000's two-phase h-relation algorithm (section 3, Steps (1)-(4); Algorithm 1 of
 * Appendix B) for elements of any size.
 *
 * Choices, where Algorithm 1 and the text differ:
 * - Block sizes are the proven bounds floor(h1/p + (p-1)/2) and floor(h2/p + (p-1)/2) (eqs. 4, 5;
 *   tight, so floors of the half-integers), not Algorithm 1's n/p^2 + p/2 + 1 and h/p + p/2, plus
 *   one slot per block for its count (Algorithm 1 counts in slot 0 of the first transpose's
 *   blocks but gives the second's none).
 * - Section 3.3's general case: h1 (the most elements any processor holds) replaces n/p and
 *   h2 = h. Both are parameters of the problem that every processor knows, as the paper assumes
 *   of n/p and h. The bounds are checked on every run.
 */
#include "alg/route.h"

#include <string.h>

/* floor(x/p + (p-1)/2), the bin bound of eqs. (4) and (5), in integers. */
static size_t bin_bound(uint64_t x, int p)
{
    return (size_t)((2 * x + (uint64_t)p * (uint64_t)(p - 1)) / (2 * (uint64_t)p));
}

/* p bins of 1 + cap slots of size bytes: slot 0 of a bin holds its count (a uint32), as
 * Algorithm 1 keeps it (steps 2.1 and 6.1). While dealing, the counts live in fill[] (one small
 * array, in cache) and go to the bins' first slots at the end: writing them per element touched a
 * second cache line each time. */
typedef struct bins {
    unsigned char *slots;
    size_t         cap, size;
    uint32_t      *fill;
} bins;

static bins bins_new(hr_proc *p, size_t cap, size_t size)
{
    int n = hr_nprocs(p);
    bins b = { hr_malloc(p, (size_t)n * (cap + 1) * size), cap, size,
               hr_calloc(p, (size_t)n, sizeof(uint32_t)) };
    return b;
}

/* One element: constant sizes for the common cases, so the compiler copies them inline. */
static inline void copy_elem(unsigned char *d, const unsigned char *s, size_t size)
{
    switch (size) {
    case 8:  memcpy(d, s, 8); break;
    case 12: memcpy(d, s, 12); break;
    case 16: memcpy(d, s, 16); break;
    default: memcpy(d, s, size); break;
    }
}

/* Put element e into bin `bin`. Fails the run if the bin would pass its bound, which the paper
 * proves cannot happen: a check on every run. */
static inline void bin_put(hr_proc *p, bins *b, int bin, const unsigned char *e, const char *step)
{
    if (b->fill[bin] == b->cap)
        hr_fail(p, "%s: bin %d is over its bound of %zu elements", step, bin, b->cap);
    copy_elem(b->slots + ((size_t)bin * (b->cap + 1) + 1 + b->fill[bin]++) * b->size, e, b->size);
}

static void bins_close(hr_proc *p, bins *b)
{
    for (int k = 0; k < hr_nprocs(p); k++)
        memcpy(b->slots + (size_t)k * (b->cap + 1) * b->size, &b->fill[k], sizeof(uint32_t));
    hr_free(p, b->fill);
}

static uint32_t count_of(const unsigned char *block)
{
    uint32_t c;
    memcpy(&c, block, sizeof c);
    return c;
}

static uint32_t dest_of(const unsigned char *e, size_t dest_off)
{
    uint32_t d;
    memcpy(&d, e + dest_off, sizeof d);
    return d;
}

void *hr__route_two_phase(hr_proc *p, const void *in, size_t cnt, size_t size, size_t dest_off,
                          uint64_t h1, uint64_t h2, size_t *out_count)
{
    int n = hr_nprocs(p), me = hr_pid(p);
    const unsigned char *src = in;
    size_t cap1 = bin_bound(h1, n), cap2 = bin_bound(h2, n);
    size_t blk1 = (cap1 + 1) * size, blk2 = (cap2 + 1) * size;

    /* Step (1): element k with destination l goes to bin T[l], starting at (i + l) mod p. */
    bins c = bins_new(p, cap1, size);
    int *t = hr_malloc(p, (size_t)n * sizeof *t);
    for (int l = 0; l < n; l++)
        t[l] = (me + l) % n;
    for (size_t k = 0; k < cnt; k++) {
        const unsigned char *e = src + k * size;
        uint32_t l = dest_of(e, dest_off);
        if (l >= (uint32_t)n)
            hr_fail(p, "element %zu has destination %u, but p = %d", k, l, n);
        bin_put(p, &c, t[l], e, "step (1)");
        t[l] = t[l] + 1 == n ? 0 : t[l] + 1;
    }
    bins_close(p, &c);
    hr_free(p, t);
    hr_compute(p, (double)cnt);

    /* Step (2): bin j to processor j, a transpose of blocks of 1 + cap1 slots. */
    unsigned char *d = hr_malloc(p, (size_t)n * blk1);
    hr_transpose(p, c.slots, d, blk1);
    hr_free(p, c.slots);

    /* Step (3): rebin what arrived by final destination. */
    bins e = bins_new(p, cap2, size);
    size_t moved = 0;
    for (int k = 0; k < n; k++) {
        const unsigned char *b = d + (size_t)k * blk1;
        uint32_t got = count_of(b);
        for (uint32_t j = 1; j <= got; j++)
            bin_put(p, &e, (int)dest_of(b + j * size, dest_off), b + j * size, "step (3)");
        moved += got;
    }
    bins_close(p, &e);
    hr_compute(p, (double)moved);
    hr_free(p, d);

    /* Step (4): bin j to processor j again, blocks of 1 + cap2 slots. */
    unsigned char *f = hr_malloc(p, (size_t)n * blk2);
    hr_transpose(p, e.slots, f, blk2);
    hr_free(p, e.slots);

    /* Algorithm 1, steps 9-10: pack the received blocks. */
    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += count_of(f + (size_t)k * blk2);
    unsigned char *out = hr_malloc(p, total * size + 1);
    size_t z = 0;
    for (int k = 0; k < n; k++) {
        const unsigned char *b = f + (size_t)k * blk2;
        size_t got = count_of(b);
        memcpy(out + z * size, b + size, got * size);
        z += got;
    }
    hr_compute(p, (double)total);
    hr_free(p, f);
    *out_count = total;
    return out;
}
