/* tree.c: the collectives along binomial trees and doubling steps: bcast, reduce, allreduce,
 * scan and exscan.
 *
 * bcast and reduce use the binomial tree of MPICH over ranks relative to the root: rank r hears
 * from r minus its lowest set bit and forwards to r + 2^j for each 2^j below that bit, the
 * farthest subtree first. Each level costs one message, so a bcast or reduce of m bytes costs
 *     ceil(lg p) * (tau + sigma*m)           (+ overheads)
 * allreduce is a reduce to processor 0 and a bcast from it: 2 ceil(lg p) (tau + sigma*m).
 * scan and exscan are Hillis-Steele doubling: in step d = 1, 2, 4, ... processor i sends its
 * partial result to i+d and combines the one from i-d: ceil(lg p) (tau + sigma*m).
 * Combining is local work that the model does not charge. Every combination is done in a fixed
 * order, so floating-point results are the same on every run.
 */
#include "core/core.h"

#include <string.h>

#include "coll/op.h"

static size_t elem_size(hr_proc *p, hr_type t, hr_op op, const char *call)
{
    size_t sz = hr__type_size(t);
    if (sz == 0 || !hr__op_valid(op))
        hr_fail(p, "%s: unknown element type or operator", call);
    return sz;
}

static void bcast(hr_proc *p, int root, void *buf, size_t len)
{
    int n = hr_nprocs(p);
    int r = (hr_pid(p) - root + n) % n;
    int mask = 1;
    while (mask < n) {
        if (r & mask) {
            hr__coll_take(p, (r - mask + root) % n, buf, len);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (r + mask < n)
            hr__coll_post(p, (r + mask + root) % n, buf, len);
    hr__coll_complete(p);
}

void hr_bcast(hr_proc *p, int root, void *buf, size_t len)
{
    if (root < 0 || root >= hr_nprocs(p))
        hr_fail(p, "hr_bcast: root %d does not exist (p = %d)", root, hr_nprocs(p));
    hr__coll_begin(p);
    bcast(p, root, buf, len);
}

/* Reduce into out at root; out may be NULL elsewhere. */
static void reduce(hr_proc *p, int root, const void *in, void *out, size_t count, hr_type t,
                   hr_op op, size_t sz)
{
    int n = hr_nprocs(p);
    int r = (hr_pid(p) - root + n) % n;
    size_t len = count * sz;
    unsigned char *acc = hr_malloc(p, len ? len : 1);
    unsigned char *tmp = hr_malloc(p, len ? len : 1);
    memcpy(acc, in, len);
    for (int mask = 1; mask < n; mask <<= 1) {
        if (r & mask) {
            hr__coll_post(p, (r - mask + root) % n, acc, len);
            hr__coll_complete(p);
            break;
        }
        if (r + mask < n) {
            hr__coll_take(p, (r + mask + root) % n, tmp, len);
            hr__op_apply(t, op, acc, tmp, count);   /* lower ranks on the left */
            memcpy(acc, tmp, len);
        }
    }
    if (r == 0)
        memcpy(out, acc, len);
    hr_free(p, tmp);
    hr_free(p, acc);
}

void hr_reduce(hr_proc *p, int root, const void *in, void *out, size_t count, hr_type t, hr_op op)
{
    size_t sz = elem_size(p, t, op, "hr_reduce");
    if (root < 0 || root >= hr_nprocs(p))
        hr_fail(p, "hr_reduce: root %d does not exist (p = %d)", root, hr_nprocs(p));
    hr__coll_begin(p);
    reduce(p, root, in, out, count, t, op, sz);
}

void hr_allreduce(hr_proc *p, const void *in, void *out, size_t count, hr_type t, hr_op op)
{
    size_t sz = elem_size(p, t, op, "hr_allreduce");
    hr__coll_begin(p);
    reduce(p, 0, in, out, count, t, op, sz);
    bcast(p, 0, out, count * sz);
}

/* Hillis-Steele: acc holds the combination of in over processors i-2d+1 .. i, ex over i-2d+1 .. i-1. */
static void scan(hr_proc *p, const void *in, void *out, size_t count, hr_type t, hr_op op,
                 int inclusive, const char *call)
{
    size_t sz = elem_size(p, t, op, call);
    int n = hr_nprocs(p), me = hr_pid(p);
    size_t len = count * sz;
    unsigned char *acc = hr_malloc(p, len ? len : 1);
    unsigned char *ex = hr_malloc(p, len ? len : 1);
    unsigned char *tmp = hr_malloc(p, len ? len : 1);
    memcpy(acc, in, len);
    hr__op_identity(t, op, ex, count);
    hr__coll_begin(p);
    for (int d = 1; d < n; d <<= 1) {
        if (me + d < n)
            hr__coll_post(p, me + d, acc, len);
        if (me - d >= 0) {
            hr__coll_take(p, me - d, tmp, len);
            hr__op_apply(t, op, tmp, ex, count);
        }
        /* acc may change only once the processor to the right has taken it. */
        hr__coll_complete(p);
        if (me - d >= 0)
            hr__op_apply(t, op, tmp, acc, count);
    }
    memcpy(out, inclusive ? acc : ex, len);
    hr_free(p, tmp);
    hr_free(p, ex);
    hr_free(p, acc);
}

void hr_scan(hr_proc *p, const void *in, void *out, size_t count, hr_type t, hr_op op)
{
    scan(p, in, out, count, t, op, 1, "hr_scan");
}

void hr_exscan(hr_proc *p, const void *in, void *out, size_t count, hr_type t, hr_op op)
{
    scan(p, in, out, count, t, op, 0, "hr_exscan");
}
