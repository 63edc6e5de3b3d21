/* op.c: the built-in reduction operators over the element types: one row per type and one per
 * operator, the type's row holding its element loop and its identities. */
#include "coll/op.h"

#include <math.h>
#include <stdint.h>

/* What a type is, and so which operators take it. */
enum { K_INT = 1, K_FLOAT = 2, K_PAIR = 4 };

typedef void (*apply_fn)(hr_op op, const void *in, void *inout, size_t count);
typedef void (*identity_fn)(hr_op op, void *out, size_t count);

/* One loop per operator, a = in op a with l = in. Unsigned and floating sums and products are
 * defined on overflow; signed ones wrap through the unsigned type U. Logical results are 1 or 0;
 * !x != !y is the exclusive or of truth values. */
#define LOOP(EXPR)                                                                 \
    for (size_t i = 0; i < count; i++)                                             \
        a[i] = (EXPR);                                                             \
    break
#define NUMBER_CASES(T, U)                                                         \
    case HR_SUM:  LOOP((T)((U)l[i] + (U)a[i]));                                    \
    case HR_PROD: LOOP((T)((U)l[i] * (U)a[i]));                                    \
    case HR_MIN:  LOOP(l[i] < a[i] ? l[i] : a[i]);                                 \
    case HR_MAX:  LOOP(l[i] > a[i] ? l[i] : a[i]);                                 \
    case HR_LAND: LOOP((T)(l[i] && a[i]));                                         \
    case HR_LOR:  LOOP((T)(l[i] || a[i]));                                         \
    case HR_LXOR: LOOP((T)(!l[i] != !a[i]))
#define BIT_CASES(T)                                                               \
    case HR_BAND: LOOP((T)(l[i] & a[i]));                                          \
    case HR_BOR:  LOOP((T)(l[i] | a[i]));                                          \
    case HR_BXOR: LOOP((T)(l[i] ^ a[i]))

#define INT_APPLY(NAME, T, U)                                                      \
    static void NAME(hr_op op, const void *in, void *inout, size_t count)          \
    {                                                                              \
        const T *l = in;                                                           \
        T *a = inout;                                                              \
        switch (op) {                                                              \
        NUMBER_CASES(T, U);                                                        \
        BIT_CASES(T);                                                              \
        default: break;                                                            \
        }                                                                          \
    }
INT_APPLY(apply_int32, int32_t, uint32_t)
INT_APPLY(apply_uint32, uint32_t, uint32_t)
INT_APPLY(apply_int64, int64_t, uint64_t)
INT_APPLY(apply_uint64, uint64_t, uint64_t)

static void apply_double(hr_op op, const void *in, void *inout, size_t count)
{
    const double *l = in;
    double *a = inout;
    switch (op) {
    NUMBER_CASES(double, double);
    default: break;
    }
}

/* MINLOC and MAXLOC: in's pair replaces inout's if its value is better, or equal with a smaller
 * index (MPI's rule, which makes the result independent of the combining order). */
#define PAIR_APPLY(NAME, T)                                                        \
    static void NAME(hr_op op, const void *in, void *inout, size_t count)          \
    {                                                                              \
        const T *l = in;                                                           \
        T *a = inout;                                                              \
        for (size_t i = 0; i < count; i++)                                         \
            if ((op == HR_MINLOC ? l[i].value < a[i].value : l[i].value > a[i].value) \
                || (l[i].value == a[i].value && l[i].index < a[i].index))          \
                a[i] = l[i];                                                       \
    }
PAIR_APPLY(apply_int32_int, hr_int32_int)
PAIR_APPLY(apply_int64_int, hr_int64_int)
PAIR_APPLY(apply_double_int, hr_double_int)

/* Identities: x op identity = x for every x of the type. ONES is all bits set (band). */
#define NUMBER_IDENTITY(NAME, T, LO, HI, ONES)                                     \
    static void NAME(hr_op op, void *out, size_t count)                            \
    {                                                                              \
        T *o = out;                                                                \
        T v = op == HR_PROD || op == HR_LAND ? (T)1                                \
            : op == HR_MIN                   ? (HI)                                \
            : op == HR_MAX                   ? (LO)                                \
            : op == HR_BAND                  ? (ONES)                              \
            :                                  (T)0;                               \
        for (size_t i = 0; i < count; i++)                                         \
            o[i] = v;                                                              \
    }
NUMBER_IDENTITY(identity_int32, int32_t, INT32_MIN, INT32_MAX, -1)
NUMBER_IDENTITY(identity_uint32, uint32_t, 0, UINT32_MAX, UINT32_MAX)
NUMBER_IDENTITY(identity_int64, int64_t, INT64_MIN, INT64_MAX, -1)
NUMBER_IDENTITY(identity_uint64, uint64_t, 0, UINT64_MAX, UINT64_MAX)
NUMBER_IDENTITY(identity_double, double, -INFINITY, INFINITY, 0)

/* The index INT32_MAX loses every tie, so the identity never wins one. */
#define PAIR_IDENTITY(NAME, T, LO, HI)                                             \
    static void NAME(hr_op op, void *out, size_t count)                            \
    {                                                                              \
        T *o = out;                                                                \
        T v = { op == HR_MINLOC ? (HI) : (LO), INT32_MAX };                        \
        for (size_t i = 0; i < count; i++)                                         \
            o[i] = v;                                                              \
    }
PAIR_IDENTITY(identity_int32_int, hr_int32_int, INT32_MIN, INT32_MAX)
PAIR_IDENTITY(identity_int64_int, hr_int64_int, INT64_MIN, INT64_MAX)
PAIR_IDENTITY(identity_double_int, hr_double_int, -INFINITY, INFINITY)

/* The element types, indexed by hr_type. */
static const struct type_row {
    const char *name;
    size_t      size;
    unsigned    kind;          /* K_INT, K_FLOAT or K_PAIR */
    apply_fn    apply;         /* inout = in op inout, element by element */
    identity_fn identity;      /* fill with op's identity */
} types[] = {
    [HR_INT32]      = { "HR_INT32", sizeof(int32_t), K_INT, apply_int32, identity_int32 },
    [HR_UINT32]     = { "HR_UINT32", sizeof(uint32_t), K_INT, apply_uint32, identity_uint32 },
    [HR_INT64]      = { "HR_INT64", sizeof(int64_t), K_INT, apply_int64, identity_int64 },
    [HR_UINT64]     = { "HR_UINT64", sizeof(uint64_t), K_INT, apply_uint64, identity_uint64 },
    [HR_DOUBLE]     = { "HR_DOUBLE", sizeof(double), K_FLOAT, apply_double, identity_double },
    [HR_INT32_INT]  = { "HR_INT32_INT", sizeof(hr_int32_int), K_PAIR, apply_int32_int,
                        identity_int32_int },
    [HR_INT64_INT]  = { "HR_INT64_INT", sizeof(hr_int64_int), K_PAIR, apply_int64_int,
                        identity_int64_int },
    [HR_DOUBLE_INT] = { "HR_DOUBLE_INT", sizeof(hr_double_int), K_PAIR, apply_double_int,
                        identity_double_int },
};
#define NTYPES (int)(sizeof types / sizeof types[0])

#define NUMBERS "a number type (HR_INT32, HR_UINT32, HR_INT64, HR_UINT64, HR_DOUBLE)"
#define INTEGERS "an integer type (HR_INT32, HR_UINT32, HR_INT64, HR_UINT64)"
#define PAIRS "a value-index pair type (HR_INT32_INT, HR_INT64_INT, HR_DOUBLE_INT)"

/* The operators, indexed by hr_op: the kinds of type each takes, and how to say so. */
static const struct op_row {
    const char *name;
    unsigned    kinds;
    const char *needs;
} ops[] = {
    [HR_SUM]    = { "HR_SUM", K_INT | K_FLOAT, NUMBERS },
    [HR_MIN]    = { "HR_MIN", K_INT | K_FLOAT, NUMBERS },
    [HR_MAX]    = { "HR_MAX", K_INT | K_FLOAT, NUMBERS },
    [HR_PROD]   = { "HR_PROD", K_INT | K_FLOAT, NUMBERS },
    [HR_LAND]   = { "HR_LAND", K_INT | K_FLOAT, NUMBERS },
    [HR_LOR]    = { "HR_LOR", K_INT | K_FLOAT, NUMBERS },
    [HR_LXOR]   = { "HR_LXOR", K_INT | K_FLOAT, NUMBERS },
    [HR_BAND]   = { "HR_BAND", K_INT, INTEGERS },
    [HR_BOR]    = { "HR_BOR", K_INT, INTEGERS },
    [HR_BXOR]   = { "HR_BXOR", K_INT, INTEGERS },
    [HR_MINLOC] = { "HR_MINLOC", K_PAIR, PAIRS },
    [HR_MAXLOC] = { "HR_MAXLOC", K_PAIR, PAIRS },
};
#define NOPS (int)(sizeof ops / sizeof ops[0])

static const struct type_row *type_row(hr_type t)
{
    return (int)t >= 0 && (int)t < NTYPES ? &types[t] : NULL;
}

static const struct op_row *op_row(hr_op op)
{
    return (int)op >= 0 && (int)op < NOPS ? &ops[op] : NULL;
}

size_t hr__type_size(hr_type t)
{
    return type_row(t) ? types[t].size : 0;
}

const char *hr__type_name(hr_type t)
{
    return type_row(t) ? types[t].name : NULL;
}

const char *hr__op_name(hr_op op)
{
    return op_row(op) ? ops[op].name : NULL;
}

const char *hr__op_needs(hr_type t, hr_op op)
{
    const struct type_row *tr = type_row(t);
    const struct op_row *orow = op_row(op);
    if (tr == NULL || orow == NULL)
        return "a known type and operator";
    return (orow->kinds & tr->kind) ? NULL : orow->needs;
}

void hr__op_fn(void *inout, const void *in, size_t count, void *ctx)
{
    const hr_builtin_op *b = ctx;
    types[b->type].apply(b->op, in, inout, count);
}

void hr__op_identity(hr_type t, hr_op op, void *out, size_t count)
{
    types[t].identity(op, out, count);
}
