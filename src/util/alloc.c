/* alloc.c: a header before each block links it into its owner's list. */
#include "util/alloc.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <hremu/error.h>

#if defined(__SANITIZE_ADDRESS__)
#define HR_ALLOC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HR_ALLOC_ASAN 1
#endif
#endif
#ifdef HR_ALLOC_ASAN
#include <sanitizer/asan_interface.h>
#endif

/* A live block's seal is SEAL ^ its owner's hr_alloc ^ its header's address; a cached or freed
 * block's is 0. hr__alloc_free checks it before unlinking, so a pointer that is not a live block
 * of this owner (freed already, another processor's, from malloc, on the stack) is refused in
 * O(1), without walking the live list. */
#define SEAL ((uintptr_t)0x6872656d75a110c5u)

struct hr_alloc_hdr {
    alignas(max_align_t) hr_alloc_hdr *prev;
    hr_alloc_hdr *next;
    size_t bytes;          /* what was asked for */
    size_t cap;            /* what the block holds */
    uintptr_t seal;        /* live: seal_of(owner, header); otherwise 0 */
};

static uintptr_t seal_of(const hr_alloc *a, const hr_alloc_hdr *h)
{
    return SEAL ^ (uintptr_t)a ^ (uintptr_t)h;
}

/* ---- the region ------------------------------------------------------------------------- */

#define HUGE_PAGE   ((size_t)2 << 20)
#define REGION_MAX  ((size_t)64 << 30)     /* address space, not memory: pages commit as touched */
#define REGION_MIN  ((size_t)256 << 20)

/* The class of a block of t bytes, header included (t <= HR_ALLOC_CACHE_MIN + the header), and
 * its size in *size: a multiple of 64 up to 256, then 2^e + k 2^(e-2), k = 1 .. 4, for
 * 2^e < t <= 2^(e+1). Every size is a multiple of 64: every block starts a cache line. */
_Static_assert(HR_ALLOC_CACHE_MIN + sizeof(hr_alloc_hdr) <= (1u << 17) && HR_ALLOC_CLASSES == 40,
               "the classes run to 2^17 bytes: 4 up to 256, then 4 for each power of two");
static unsigned size_class(size_t t, size_t *size)
{
    if (t <= 256) {
        size_t c = t <= 64 ? 1 : (t + 63) / 64;
        *size = c * 64;
        return (unsigned)c - 1;
    }
    unsigned e = 63u - (unsigned)__builtin_clzll((unsigned long long)(t - 1));
    size_t step = (size_t)1 << (e - 2);
    size_t k = (t - ((size_t)1 << e) + step - 1) / step;
    *size = ((size_t)1 << e) + k * step;
    return 4 + (e - 8) * 4 + (unsigned)k - 1;
}

void hr__alloc_region_init(hr_alloc_region *r)
{
    *r = (hr_alloc_region){ 0 };
#ifndef HR_ALLOC_ASAN
    for (size_t len = REGION_MAX; len >= REGION_MIN; len /= 2) {
        void *map = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (map == MAP_FAILED)
            continue;
        uint8_t *base = (uint8_t *)(((uintptr_t)map + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
        madvise(base, len, MADV_HUGEPAGE);   /* a hint: without it, 4 KiB pages as malloc's */
        *r = (hr_alloc_region){ .base = base, .len = len, .map = map, .map_len = len + HUGE_PAGE };
        return;
    }
#endif
}

void hr__alloc_region_reset(hr_alloc_region *r)
{
    r->used = 0;
    memset(r->bins, 0, sizeof r->bins);
}

void hr__alloc_region_free(hr_alloc_region *r)
{
    if (r->map != NULL)
        munmap(r->map, r->map_len);
    *r = (hr_alloc_region){ 0 };
}

static int in_region(const hr_alloc *a, const hr_alloc_hdr *h)
{
    const hr_alloc_region *r = a->region;
    return r != NULL && (const uint8_t *)h >= r->base && (const uint8_t *)h < r->base + r->len;
}

/* A block for `bytes` from the region's bin of its class, or from its next free bytes; NULL
 * without a region or room in it (then malloc). */
static hr_alloc_hdr *take_region(hr_alloc *a, size_t bytes)
{
    hr_alloc_region *r = a->region;
    if (r == NULL || r->base == NULL)
        return NULL;
    size_t size;
    unsigned c = size_class(sizeof(hr_alloc_hdr) + bytes, &size);
    hr_alloc_hdr *h = r->bins[c];
    if (h != NULL) {
        r->bins[c] = h->next;
        return h;
    }
    if (size > r->len - r->used)
        return NULL;                       /* full for this run */
    h = (hr_alloc_hdr *)(void *)(r->base + r->used);
    r->used += size;
    h->cap = size - sizeof *h;
    return h;
}

/* A region block no longer live waits in its class's bin. */
static void bin(hr_alloc *a, hr_alloc_hdr *h)
{
    size_t size;
    unsigned c = size_class(sizeof *h + h->cap, &size);
    h->next = a->region->bins[c];
    a->region->bins[c] = h;
}

static void link_live(hr_alloc *a, hr_alloc_hdr *h, size_t bytes)
{
    h->seal = seal_of(a, h);
    h->prev = NULL;
    h->next = a->head;
    h->bytes = bytes;
    if (a->head != NULL)
        a->head->prev = h;
    a->head = h;
    a->live += bytes;
}

/* The smallest cached block that holds bytes without wasting more than half of it. */
static hr_alloc_hdr *take_cached(hr_alloc *a, size_t bytes)
{
    hr_alloc_hdr **best = NULL;
    hr_alloc_hdr **lists[2] = { &a->fresh, &a->cache };
    for (int l = 0; l < 2; l++)
        for (hr_alloc_hdr **h = lists[l]; *h != NULL; h = &(*h)->next)
            if ((*h)->cap >= bytes && (*h)->cap / 2 <= bytes &&
                (best == NULL || (*h)->cap < (*best)->cap))
                best = h;
    if (best == NULL)
        return NULL;
    hr_alloc_hdr *got = *best;
    *best = got->next;
    return got;
}

void *hr__alloc(hr_alloc *a, size_t bytes)
{
    if (bytes > SIZE_MAX - sizeof(hr_alloc_hdr))
        return NULL;
    hr_alloc_hdr *h = bytes >= HR_ALLOC_CACHE_MIN ? take_cached(a, bytes) : take_region(a, bytes);
    if (h == NULL) {
        if ((h = malloc(sizeof *h + bytes)) == NULL)
            return NULL;
        h->cap = bytes;
        /* Blocks of 4 MiB and more ask for transparent huge pages over their aligned middle:
         * fewer TLB misses where an algorithm writes all over a large block (sort.radix placing
         * keys by rank: 3 % less wall time in make bench, measured interleaved). */
        if (bytes >= (4u << 20)) {
            uintptr_t lo = ((uintptr_t)(h + 1) + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1);
            uintptr_t hi = ((uintptr_t)(h + 1) + bytes) & ~(uintptr_t)((2u << 20) - 1);
            if (hi > lo)
                madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
        }
    }
    link_live(a, h, bytes);
    return h + 1;
}

/* A block no longer live: large ones join a cache list, the rest go back to malloc; a region
 * block freed waits in its bin, and one live at a run's end (binned 0) waits for the region's
 * reset. */
static void retire(hr_alloc *a, hr_alloc_hdr *h, hr_alloc_hdr **cache, int binned)
{
    h->seal = 0;
    if (in_region(a, h)) {
        if (binned)
            bin(a, h);
    } else if (h->cap >= HR_ALLOC_CACHE_MIN) {
        h->next = *cache;
        *cache = h;
    } else {
        free(h);
    }
}

/* Is ptr a live block of a? Known limit: the check reads the header's place before an arbitrary
 * pointer, which faults only if that place is unmapped: ptr within sizeof(hr_alloc_hdr) bytes of
 * the start of a mapping (a stack full to its guard page), or a block freed twice whose pages
 * malloc has since given back to the system (possible for small blocks, which go back to malloc
 * at once; large ones stay in the cache for the run). A stack array, another processor's block
 * or malloc's are readable. ASan builds ask ASan first, as the read would be an underflow or a
 * use after free there. */
static int is_live(const hr_alloc *a, const void *ptr)
{
    if ((uintptr_t)ptr % alignof(max_align_t) != 0 || (uintptr_t)ptr < sizeof(hr_alloc_hdr))
        return 0;
    const hr_alloc_hdr *h = (const hr_alloc_hdr *)ptr - 1;
#ifdef HR_ALLOC_ASAN
    if (__asan_region_is_poisoned((void *)(uintptr_t)h, sizeof *h) != NULL)
        return 0;
#endif
    return h->seal == seal_of(a, h);
}

int hr__alloc_free(hr_alloc *a, void *ptr)
{
    if (ptr == NULL)
        return HR_OK;
    if (!is_live(a, ptr))
        return HR_EINVAL;
    hr_alloc_hdr *h = (hr_alloc_hdr *)ptr - 1;
    if (h->prev != NULL)
        h->prev->next = h->next;
    else
        a->head = h->next;
    if (h->next != NULL)
        h->next->prev = h->prev;
    a->live -= h->bytes;
    retire(a, h, &a->fresh, 1);
    return HR_OK;
}

/* Free a list's blocks (region blocks stay with the region). */
static void free_list(const hr_alloc *a, hr_alloc_hdr *h)
{
    while (h != NULL) {
        hr_alloc_hdr *next = h->next;
        h->seal = 0;
        if (!in_region(a, h))
            free(h);
        h = next;
    }
}

void hr__alloc_recycle(hr_alloc *a)
{
    free_list(a, a->cache);        /* unused for a whole run */
    a->cache = a->fresh;
    a->fresh = NULL;
    hr_alloc_hdr *h = a->head;
    while (h != NULL) {
        hr_alloc_hdr *next = h->next;
        retire(a, h, &a->cache, 0);
        h = next;
    }
    a->head = NULL;
    a->live = 0;
}

void hr__alloc_free_all(hr_alloc *a)
{
    free_list(a, a->head);
    free_list(a, a->cache);
    free_list(a, a->fresh);
    a->head = a->cache = a->fresh = NULL;
    a->live = 0;
}
