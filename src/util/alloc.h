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
 * Owner thread only while a run is on; the machine thread between runs.
 */
#ifndef HREMU_UTIL_ALLOC_H
#define HREMU_UTIL_ALLOC_H

#include <stddef.h>

#define HR_ALLOC_CACHE_MIN (64u * 1024)

typedef struct hr_alloc_hdr hr_alloc_hdr;
typedef struct hr_alloc {
    hr_alloc_hdr *head;     /* doubly linked list of live blocks */
    hr_alloc_hdr *cache;    /* large free blocks cached before the current run */
    hr_alloc_hdr *fresh;    /* large free blocks cached during the current run */
    size_t        live;     /* bytes */
} hr_alloc;

void *hr__alloc(hr_alloc *a, size_t bytes);   /* NULL when memory runs out */
/* Free ptr, a live block of a, or NULL; large blocks go to the cache. HR_OK, or HR_EINVAL (and
 * nothing changes) when ptr is not a live block of a: freed already, another hr_alloc's, or not
 * from hr__alloc at all. */
int   hr__alloc_free(hr_alloc *a, void *ptr);
/* End of a run: large live blocks go to the cache, the rest (and the unused cache) are freed. */
void  hr__alloc_recycle(hr_alloc *a);
/* Free everything, cache included. */
void  hr__alloc_free_all(hr_alloc *a);

#endif
