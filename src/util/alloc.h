/* alloc.h: tracked allocations, so a processor's memory can be reclaimed in one call even when its
 * run ended early (hr_fail, deadlock), and large blocks can serve the next run again.
 *
 * Why the cache: a run that allocates fresh megabytes pays a page fault per 4 KiB on first touch,
 * which a preallocated plain-pthreads program does not; repeated runs of the same algorithm reuse
 * the same sizes. Blocks of at least HR_ALLOC_CACHE_MIN bytes are kept when freed (hr__alloc_free)
 * and when a run ends (hr__alloc_recycle), and handed out again by best fit. A cached block that
 * a whole run leaves unused is freed at the next recycle, so the cache holds no more than about
 * one run's worth of large blocks.
 *
 * Why the region: on an engine that runs one processor at a time (fibers on one carrier), the
 * smaller blocks of all processors come from one region of the machine (hr_alloc_region) on
 * transparent huge pages, instead of from malloc's 4 KiB pages. A thousand processors that each
 * touch their own few blocks every round (hrel.pq_random's lists at p = 1024) touch a few
 * thousand 4 KiB pages a round, more than this box's TLB holds, and each touch paid a page walk;
 * in the region they touch a few huge pages (docs/architecture.md, "Processor memory"). A
 * block's size is rounded up to one of 40 classes (multiples of 64 bytes up to 256, then four
 * a power of two: at most a quarter more), and a freed block waits in the region's bin of its
 * class for the next block of that class, any processor's, as malloc would hand it on. The
 * region is handed out front to back and starts over when the machine's next run starts
 * (hr__alloc_region_reset). A block the region cannot hold comes from malloc as before; so do
 * all of them under AddressSanitizer, which checks malloc's blocks.
 *
 * Owner thread only while a run is on; the machine thread between runs. The region is used by
 * one thread at a time: the one carrier.
 */
#ifndef HREMU_UTIL_ALLOC_H
#define HREMU_UTIL_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#define HR_ALLOC_CACHE_MIN (64u * 1024)

typedef struct hr_alloc_hdr hr_alloc_hdr;
#define HR_ALLOC_CLASSES 40

typedef struct hr_alloc_region {
    uint8_t      *base;    /* 2 MiB aligned; NULL: none (every block from malloc) */
    size_t        len;
    size_t        used;    /* handed out this run: [base, base + used) */
    void         *map;     /* the mapping (base rounded up in it) */
    size_t        map_len;
    hr_alloc_hdr *bins[HR_ALLOC_CLASSES];   /* freed blocks by class */
} hr_alloc_region;

/* Reserve a region of address space (pages are committed as they are touched); without one (no
 * room, or under AddressSanitizer) r->base stays NULL. */
void hr__alloc_region_init(hr_alloc_region *r);
/* Between runs, once every owner has recycled (hr__alloc_recycle): hand it out from the start. */
void hr__alloc_region_reset(hr_alloc_region *r);
void hr__alloc_region_free(hr_alloc_region *r);

typedef struct hr_alloc {
    hr_alloc_hdr *head;     /* doubly linked list of live blocks */
    hr_alloc_hdr *cache;    /* large free blocks cached before the current run */
    hr_alloc_hdr *fresh;    /* large free blocks cached during the current run */
    size_t        live;     /* bytes */
    hr_alloc_region *region;   /* where blocks under HR_ALLOC_CACHE_MIN come from, or NULL */
} hr_alloc;

void *hr__alloc(hr_alloc *a, size_t bytes);   /* NULL when memory runs out */
/* Free ptr, a live block of a, or NULL; large blocks go to the cache, region blocks to their
 * bin. HR_OK, or HR_EINVAL (and nothing changes) when ptr is not a live block of a: freed
 * already, another hr_alloc's, or not from hr__alloc at all. */
int   hr__alloc_free(hr_alloc *a, void *ptr);
/* End of a run: large live blocks go to the cache, the rest (and the unused cache) are freed;
 * region blocks are dropped with the region's next reset. */
void  hr__alloc_recycle(hr_alloc *a);
/* Free everything, cache included. */
void  hr__alloc_free_all(hr_alloc *a);

#endif
