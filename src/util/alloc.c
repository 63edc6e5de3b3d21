/* alloc.c: a header before each block links it into its owner's list. */
#include "util/alloc.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>

struct hr_alloc_hdr {
    alignas(max_align_t) hr_alloc_hdr *prev;
    hr_alloc_hdr *next;
    size_t bytes;
};

void *hr__alloc(hr_alloc *a, size_t bytes)
{
    if (bytes > SIZE_MAX - sizeof(hr_alloc_hdr))
        return NULL;
    hr_alloc_hdr *h = malloc(sizeof *h + bytes);
    if (h == NULL)
        return NULL;
    h->prev = NULL;
    h->next = a->head;
    h->bytes = bytes;
    if (a->head != NULL)
        a->head->prev = h;
    a->head = h;
    a->live += bytes;
    return h + 1;
}

void hr__alloc_free(hr_alloc *a, void *ptr)
{
    if (ptr == NULL)
        return;
    hr_alloc_hdr *h = (hr_alloc_hdr *)ptr - 1;
    if (h->prev != NULL)
        h->prev->next = h->next;
    else
        a->head = h->next;
    if (h->next != NULL)
        h->next->prev = h->prev;
    a->live -= h->bytes;
    free(h);
}

void hr__alloc_free_all(hr_alloc *a)
{
    hr_alloc_hdr *h = a->head;
    while (h != NULL) {
        hr_alloc_hdr *next = h->next;
        free(h);
        h = next;
    }
    a->head = NULL;
    a->live = 0;
}
