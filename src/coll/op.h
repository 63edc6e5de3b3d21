/* op.h: element types and built-in reduction operators of the collectives. */
#ifndef HREMU_COLL_OP_H
#define HREMU_COLL_OP_H

#include <stddef.h>
#include <hremu/hremu.h>

/* A built-in operator on one element type: the ctx of hr__op_fn. */
typedef struct hr_builtin_op {
    hr_type type;
    hr_op   op;
} hr_builtin_op;

/* Bytes per element of t, or 0 if t is not a type. */
size_t      hr__type_size(hr_type t);
/* "HR_DOUBLE" for HR_DOUBLE; NULL if t is not a type. Likewise hr__op_name. */
const char *hr__type_name(hr_type t);
const char *hr__op_name(hr_op op);
/* NULL if op applies to elements of t (both valid), else what op needs, for a message:
 * "an integer type". */
const char *hr__op_needs(hr_type t, hr_op op);
/* The built-in operators as an hr_reduce_fn, ctx a const hr_builtin_op * that hr__op_needs
 * accepted: inout[i] = in[i] op inout[i], in from the lower-numbered processors. */
void        hr__op_fn(void *inout, const void *in, size_t count, void *ctx);
/* Fill out with count copies of op's identity on t (hremu.h lists them at hr_exscan). */
void        hr__op_identity(hr_type t, hr_op op, void *out, size_t count);

#endif
