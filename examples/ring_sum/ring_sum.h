/* ring_sum.h: an example of a user's own algorithm, written against the public hremu API only. */
#ifndef RING_SUM_H
#define RING_SUM_H

#include <stdint.h>
#include <hremu/hremu.h>

/* Every processor ends with the sum of all processors' values: p-1 steps around a ring, each
 * passing on the value received in the step before (the textbook ring allreduce of one word). */
int64_t ring_sum(hr_proc *p, int64_t mine);

#endif
