/* proc.c: the calls of hremu.h that are the same on every engine: who a processor is, its
 * random stream, its memory and the machine's topology, read from the processor's head
 * (core/engine.h). */
#include "core/engine.h"

#include <stdint.h>
#include <string.h>

#include "net/topology.h"

int hr_pid(const hr_proc *p)    { return hr__eng_chead(p)->id; }
int hr_nprocs(const hr_proc *p) { return hr__eng_chead(p)->nprocs; }

uint64_t hr_rand(hr_proc *p)    { return hr__rng_next(&hr__eng_head(p)->rng); }
double hr_rand_unit(hr_proc *p) { return hr__rng_unit(&hr__eng_head(p)->rng); }

uint64_t hr_rand_below(hr_proc *p, uint64_t bound)
{
    if (bound == 0)
        hr__misuse(p, "hr_rand_below: bound must be > 0");
    return hr__rng_below(&hr__eng_head(p)->rng, bound);
}

void *hr_malloc(hr_proc *p, size_t bytes)
{
    void *ptr = hr__alloc(&hr__eng_head(p)->mem, bytes);
    if (ptr == NULL)
        hr_fail(p, "out of memory allocating %zu bytes", bytes);
    return ptr;
}

void *hr_calloc(hr_proc *p, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size)
        hr__misuse(p, "hr_calloc: %zu x %zu bytes overflows", n, size);
    void *ptr = hr_malloc(p, n * size);
    memset(ptr, 0, n * size);
    return ptr;
}

void hr_free(hr_proc *p, void *ptr)
{
    if (hr__alloc_free(&hr__eng_head(p)->mem, ptr) != HR_OK)
        hr__misuse(p, "hr_free: the pointer is not a live block hr_malloc gave P%d (freed "
                   "already, another processor's, or not from hr_malloc)", hr_pid(p));
}

const char *hr_topology_shape(const hr_proc *p)
{
    return hr__eng_chead(p)->topo->shape;
}

int hr_topology_dims(const hr_proc *p, int *dims, int max)
{
    const hr_topo *t = hr__eng_chead(p)->topo;
    for (int i = 0; i < t->ndims && i < max; i++)
        dims[i] = t->dims[i];
    return t->ndims;
}

int hr_neighbours(const hr_proc *p, int node, int *out, int max)
{
    const hr_topo *t = hr__eng_chead(p)->topo;
    if (node < 0 || node >= t->p)
        hr__misuse((hr_proc *)p, "hr_neighbours: processor %d does not exist (p = %d)", node, t->p);
    if (t->nlinks == 0) {   /* complete: every other processor */
        int n = 0;
        for (int q = 0; q < t->p; q++)
            if (q != node && n++ < max)
                out[n - 1] = q;
        return t->p - 1;
    }
    int n = 0;
    for (int l = t->first[node]; l < t->first[node + 1]; l++)
        if (t->to[l] < t->p && n++ < max)   /* processors only: not a fat tree's switches */
            out[n - 1] = t->to[l];
    return n;
}

int hr_distance(const hr_proc *p, int a, int b)
{
    const hr_topo *t = hr__eng_chead(p)->topo;
    if (a < 0 || a >= t->p || b < 0 || b >= t->p)
        hr__misuse((hr_proc *)p, "hr_distance: processors %d and %d: p = %d", a, b, t->p);
    return hr__topo_hops(t, a, b);
}
