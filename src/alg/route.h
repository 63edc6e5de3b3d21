/* route.h: routing elements of any size to their destinations with seed 000's two-phase
 * h-relation algorithm, for the algorithms that need an h-relation as a step (the sorts). */
#ifndef HREMU_ALG_ROUTE_H
#define HREMU_ALG_ROUTE_H

#include <stddef.h>
#include <stdint.h>
#include <hremu/hremu.h>

/* Route cnt elements of size bytes (a multiple of 4, at least 4) from in, each to the processor
 * named by the uint32 at byte dest_off of the element. Every processor holds at most h1 elements
 * and receives at most h2 (section 3.3). Returns the elements that arrive here, in hr_malloc
 * memory, with their number in *out_count. Fails the run on a bad destination or if a bin passes
 * its proven bound. Every processor calls it together (it is two transposes). */
void *hr__route_two_phase(hr_proc *p, const void *in, size_t cnt, size_t size, size_t dest_off,
                          uint64_t h1, uint64_t h2, size_t *out_count);

#endif
