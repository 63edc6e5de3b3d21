/* op.h: element types and reduction operators of the collectives. */
#ifndef HREMU_COLL_OP_H
#define HREMU_COLL_OP_H

#include <stddef.h>
#include <hremu/hremu.h>

/* Bytes per element of t, or 0 if t is not a type. */
size_t hr__type_size(hr_type t);
/* 1 if op is an operator. */
int    hr__op_valid(hr_op op);
/* acc[i] = left[i] op acc[i] for i < count: `left` holds the lower-numbered processors' part, so
 * the grouping of a floating-point sum is fixed by the algorithm, never by the schedule. */
void   hr__op_apply(hr_type t, hr_op op, const void *left, void *acc, size_t count);
/* Fill out with count copies of op's identity (0; the type's max for min; its min for max). */
void   hr__op_identity(hr_type t, hr_op op, void *out, size_t count);

#endif
