/* op.c: element-wise sum, min and max over the five element types. */
#include "coll/op.h"

#include <float.h>
#include <math.h>
#include <stdint.h>

size_t hr__type_size(hr_type t)
{
    switch (t) {
    case HR_INT32:  return sizeof(int32_t);
    case HR_UINT32: return sizeof(uint32_t);
    case HR_INT64:  return sizeof(int64_t);
    case HR_UINT64: return sizeof(uint64_t);
    case HR_DOUBLE: return sizeof(double);
    }
    return 0;
}

int hr__op_valid(hr_op op)
{
    return op == HR_SUM || op == HR_MIN || op == HR_MAX;
}

/* Unsigned and floating sums are defined on overflow; signed sums wrap through unsigned. */
#define APPLY(T, U)                                                                \
    do {                                                                           \
        const T *l = left;                                                         \
        T *a = acc;                                                                \
        for (size_t i = 0; i < count; i++)                                         \
            switch (op) {                                                          \
            case HR_SUM: a[i] = (T)((U)l[i] + (U)a[i]); break;                     \
            case HR_MIN: a[i] = l[i] < a[i] ? l[i] : a[i]; break;                  \
            case HR_MAX: a[i] = l[i] > a[i] ? l[i] : a[i]; break;                  \
            }                                                                      \
    } while (0)

void hr__op_apply(hr_type t, hr_op op, const void *left, void *acc, size_t count)
{
    switch (t) {
    case HR_INT32:  APPLY(int32_t, uint32_t); break;
    case HR_UINT32: APPLY(uint32_t, uint32_t); break;
    case HR_INT64:  APPLY(int64_t, uint64_t); break;
    case HR_UINT64: APPLY(uint64_t, uint64_t); break;
    case HR_DOUBLE: APPLY(double, double); break;
    }
}

#define IDENTITY(T, LO, HI)                                                        \
    do {                                                                           \
        T *o = out;                                                                \
        T v = op == HR_SUM ? (T)0 : op == HR_MIN ? (HI) : (LO);                    \
        for (size_t i = 0; i < count; i++)                                         \
            o[i] = v;                                                              \
    } while (0)

void hr__op_identity(hr_type t, hr_op op, void *out, size_t count)
{
    switch (t) {
    case HR_INT32:  IDENTITY(int32_t, INT32_MIN, INT32_MAX); break;
    case HR_UINT32: IDENTITY(uint32_t, 0, UINT32_MAX); break;
    case HR_INT64:  IDENTITY(int64_t, INT64_MIN, INT64_MAX); break;
    case HR_UINT64: IDENTITY(uint64_t, 0, UINT64_MAX); break;
    case HR_DOUBLE: IDENTITY(double, -INFINITY, INFINITY); break;
    }
}
