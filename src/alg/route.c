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

static hr_bins bins_new(hr_proc *p, size_t cap, size_t size)
{
    int n = hr_nprocs(p);
    hr_bins b = { hr_malloc(p, (size_t)n * (cap + 1) * size), cap,
                  hr_calloc(p, (size_t)n, sizeof(uint32_t)) };
    return b;
}

/* The counts go to the bins' first slots; the bins are ready to send. */
static void bins_close(hr_proc *p, hr_bins *b, size_t size)
{
    for (int k = 0; k < hr_nprocs(p); k++)
        memcpy(b->slots + (size_t)k * (b->cap + 1) * size, &b->fill[k], sizeof(uint32_t));
    hr_free(p, b->fill);
    b->fill = NULL;
}

void hr__route_start(hr_proc *p, hr_router *rt, size_t size, size_t dest_off, uint64_t h1,
                     uint64_t h2)
{
    int n = hr_nprocs(p), me = hr_pid(p);
    *rt = (hr_router){ .p = n, .size = size, .dest_off = dest_off, .h1 = h1, .h2 = h2 };
    rt->first = bins_new(p, bin_bound(h1, n), size);
    rt->next = hr_malloc(p, (size_t)n * sizeof *rt->next);
    for (int l = 0; l < n; l++)
        rt->next[l] = (me + l) % n;
}

static uint32_t dest_of(const unsigned char *e, size_t dest_off)
{
    uint32_t d;
    memcpy(&d, e + dest_off, sizeof d);
    return d;
}

/* Put element e of `size` bytes into bin `bin`, failing the run past the bin's bound, which the
 * paper proves cannot be reached: a check on every run. */
static inline void bin_put(hr_proc *p, hr_bins *b, int bin, const void *e, size_t size,
                           const char *step)
{
    uint32_t f = b->fill[bin];
    if (f == b->cap)
        hr_fail(p, "%s: bin %d is over its bound of %zu elements", step, bin, b->cap);
    b->fill[bin] = f + 1;   /* before the copy, which the compiler must assume may change it */
    memcpy(b->slots + ((size_t)bin * (b->cap + 1) + 1 + f) * size, e, size);
}

/* The dealing loops of steps (1) and (3) are inlined for the layouts hremu routes (hr_elem: 8
 * bytes, destination at 4; the sorts' elements: 16 bytes, destination at 8), so that each element
 * is copied with a constant size, and work on local copies of the bins, which the copies into
 * them could otherwise overwrite as far as the compiler knows. */
#define ALWAYS_INLINE inline __attribute__((always_inline))

static ALWAYS_INLINE void deal1_at(hr_proc *p, hr_router *rt, const unsigned char *src,
                                   size_t cnt, size_t size, size_t dest_off)
{
    int n = rt->p, *t = rt->next;
    hr_bins c = rt->first;
    for (size_t k = 0; k < cnt; k++) {
        const unsigned char *e = src + k * size;
        uint32_t l = dest_of(e, dest_off);
        if (l >= (uint32_t)n)
            hr_fail(p, "element %zu has destination %u, but p = %d", rt->dealt + k, l, n);
        int bin = t[l];
        t[l] = bin + 1 == n ? 0 : bin + 1;
        bin_put(p, &c, bin, e, size, "step (1)");
    }
    rt->dealt += cnt;
}

void hr__route_deal(hr_proc *p, hr_router *rt, const void *elems, size_t count)
{
    if (rt->size == 8 && rt->dest_off == 4)
        deal1_at(p, rt, elems, count, 8, 4);
    else if (rt->size == 16 && rt->dest_off == 8)
        deal1_at(p, rt, elems, count, 16, 8);
    else
        deal1_at(p, rt, elems, count, rt->size, rt->dest_off);
}

/* Step (3) for the got elements of block b: each goes to the bin of its destination. */
static ALWAYS_INLINE void deal3_at(hr_proc *p, hr_bins *bins, const unsigned char *b, size_t got,
                                   size_t size, size_t dest_off)
{
    hr_bins e = *bins;
    for (size_t j = 0; j < got; j++)
        bin_put(p, &e, (int)dest_of(b + j * size, dest_off), b + j * size, size, "step (3)");
}

static void deal3(hr_proc *p, hr_bins *e, const unsigned char *b, size_t got, size_t size,
                  size_t dest_off)
{
    if (size == 8 && dest_off == 4)
        deal3_at(p, e, b, got, 8, 4);
    else if (size == 16 && dest_off == 8)
        deal3_at(p, e, b, got, 16, 8);
    else
        deal3_at(p, e, b, got, size, dest_off);
}

void hr__route_exchange(hr_proc *p, hr_router *rt)
{
    int n = rt->p;
    size_t size = rt->size;
    size_t blk1 = (rt->first.cap + 1) * size;
    hr_region_begin(p, "route.balance");   /* steps (1)-(2); hremu --regions reports them */
    bins_close(p, &rt->first, size);
    hr_free(p, rt->next);
    rt->next = NULL;
    hr_compute(p, (double)rt->dealt);

    /* Step (2): bin j to processor j, a transpose of blocks of 1 + cap1 slots. The blocks are
     * only read, so they are viewed where they were binned (hr_transpose_view): the model
     * charges the same transpose, and the emulator saves a copy of every element. */
    rt->view = hr_malloc(p, (size_t)n * sizeof *rt->view);
    hr_transpose_view(p, rt->first.slots, blk1, (const void **)rt->view);
    hr_region_end(p, "route.balance");

    /* Step (3): rebin what arrived by final destination. */
    hr_region_begin(p, "route.deliver");   /* steps (3)-(4) */
    hr_bins e = bins_new(p, bin_bound(rt->h2, n), size);
    size_t moved = 0;
    for (int k = 0; k < n; k++) {
        size_t got = hr__route_count(rt, k);
        deal3(p, &e, hr__route_block(rt, k), got, size, rt->dest_off);
        moved += got;
    }
    bins_close(p, &e, size);
    hr_compute(p, (double)moved);
    hr_view_end(p);
    hr_free(p, rt->first.slots);
    rt->first.slots = NULL;

    /* Step (4): bin j to processor j again, blocks of 1 + cap2 slots, viewed as in step (2)
     * until hr__route_end. */
    rt->second = e.slots;
    rt->blk2 = (e.cap + 1) * size;
    hr_transpose_view(p, rt->second, rt->blk2, (const void **)rt->view);
    hr_region_end(p, "route.deliver");
}

void hr__route_end(hr_proc *p, hr_router *rt)
{
    hr_view_end(p);
    hr_free(p, rt->second);
    hr_free(p, rt->view);
    *rt = (hr_router){ 0 };
}
