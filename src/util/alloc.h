/* alloc.h: tracked allocations, so a processor's memory can be reclaimed in one call even when its
 * run ended early (hr_fail, deadlock). Owner thread only, except hr__alloc_free_all which the
 * machine thread calls while the owner is parked. */
#ifndef HREMU_UTIL_ALLOC_H
#define HREMU_UTIL_ALLOC_H

#include <stddef.h>

typedef struct hr_alloc_hdr hr_alloc_hdr;
typedef struct hr_alloc {
    hr_alloc_hdr *head;     /* doubly linked list of live blocks */
    size_t        live;     /* bytes */
} hr_alloc;

void *hr__alloc(hr_alloc *a, size_t bytes);   /* NULL when memory runs out */
void  hr__alloc_free(hr_alloc *a, void *ptr); /* NULL is fine */
void  hr__alloc_free_all(hr_alloc *a);

#endif
