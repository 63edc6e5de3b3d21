/* proc.c: the calls of hremu.h that are the same on every engine: who a processor is, its
 * random stream and its memory, read from the processor's head (core/engine.h). */
#include "core/engine.h"

#include <stdint.h>
#include <string.h>

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

void hr_free(hr_proc *p, void *ptr) { hr__alloc_free(&hr__eng_head(p)->mem, ptr); }
