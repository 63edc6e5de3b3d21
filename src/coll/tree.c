/* tree.c: the collectives along binomial trees and doubling steps: bcast, reduce, allreduce,
 * scan and exscan, with built-in operators or a user's function.
 *
 * bcast uses the binomial tree of MPICH over ranks relative to the root: rank r hears from r
 * minus its lowest set bit and forwards to r + 2^j for each 2^j below that bit, the farthest
 * subtree first. reduce uses a binomial tree whose subtrees are intervals of processor numbers,
 * so that a combination never wraps from p-1 round to 0 and a non-commutative operator gets its
 * operands in rank order whatever the root (see reduce below). Each level costs one message, so a
 * bcast or reduce of m bytes costs
 *     ceil(lg p) * (tau + sigma*m)           (+ overheads)
 * allreduce is a reduce to processor 0 and a bcast from it: 2 ceil(lg p) (tau + sigma*m).
 * scan and exscan are Hillis-Steele doubling: in step d = 1, 2, 4, ... processor i sends its
 * partial result to i+d and combines the one from i-d: ceil(lg p) (tau + sigma*m).
 *
 * Every collective runs on the ranks of a group (coll/group.c): the world's forms on the group of
 * every processor, where rank = pid, so both send the same messages.
 *
 * The built-in operators are one hr_reduce_fn (coll/op.c) given to the same code as a user's
 * function, so both send the same messages and cost the same. Combining is local work that the
 * model does not charge. Every combination is done in a fixed order, so floating-point results
 * are the same on every run.
 */
#include "core/engine.h"

#include <stdint.h>
#include <string.h>

#include "coll/group.h"
#include "coll/op.h"

/* How a reduction combines, checked once by the public call: fn(inout, in, count, ctx) with in
 * from the lower-numbered processors; len = count * the element's size, without overflow. */
typedef struct combiner {
    hr_reduce_fn fn;
    void        *ctx;
    size_t       count;     /* elements */
    size_t       len;       /* bytes */
    const char  *call;      /* the public call, for the report */
} combiner;

static combiner combine_with(hr_proc *p, hr_reduce_fn fn, void *ctx, size_t count, size_t size,
                             const char *call)
{
    if (count > SIZE_MAX / size)
        hr_fail(p, "%s: %zu elements of %zu bytes do not fit in memory", call, count, size);
    return (combiner){ .fn = fn, .ctx = ctx, .count = count, .len = count * size, .call = call };
}

/* A built-in operator: b is the caller's storage for fn's context. */
static combiner builtin(hr_proc *p, hr_type t, hr_op op, size_t count, hr_builtin_op *b,
                        const char *call)
{
    const char *tname = hr__type_name(t), *oname = hr__op_name(op), *needs;
    if (tname == NULL)
        hr__misuse(p, "%s: unknown element type %d", call, (int)t);
    if (oname == NULL)
        hr__misuse(p, "%s: unknown operator %d", call, (int)op);
    if ((needs = hr__op_needs(t, op)) != NULL)
        hr__misuse(p, "%s: %s needs %s, not %s", call, oname, needs, tname);
    *b = (hr_builtin_op){ .type = t, .op = op };
    return combine_with(p, hr__op_fn, b, count, hr__type_size(t), call);
}

static combiner user(hr_proc *p, hr_reduce_fn fn, void *ctx, size_t count, size_t elem_size,
                     const char *call)
{
    if (fn == NULL)
        hr__misuse(p, "%s: the function is NULL", call);
    if (elem_size == 0)
        hr__misuse(p, "%s: elem_size is 0", call);
    return combine_with(p, fn, ctx, count, elem_size, call);
}

static void bcast(hr_proc *p, const hr_group *g, int root, void *buf, size_t len)
{
    int n = g->size;
    int r = (g->rank - root + n) % n;
    int mask = 1;
    while (mask < n) {
        if (r & mask) {
            hr__coll_take(p, hr__group_pid(g, (r - mask + root) % n), buf, len);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (r + mask < n)
            hr__coll_post(p, hr__group_pid(g, (r + mask + root) % n), buf, len);
    hr__coll_complete(p);
}

void hr_group_bcast(hr_proc *p, const hr_group *g, int root, void *buf, size_t len)
{
    hr__group_begin(p, g, "hr_group_bcast", "from", root);
    bcast(p, g, root, buf, len);
    hr__coll_end(p);
}

void hr_bcast(hr_proc *p, int root, void *buf, size_t len)
{
    hr__group_begin(p, hr_world(p), "hr_bcast", "from", root);
    bcast(p, hr_world(p), root, buf, len);
    hr__coll_end(p);
}

/* Reduce into out at root; out may be NULL elsewhere.
 *
 * The tree: an interval of processors [lo, hi) holding the root t splits at mid = lo + h, h the
 * largest power of two below hi - lo. The half without t reduces to its processor next to the
 * other half (mid, or mid - 1), which then sends to t; the half with t reduces to t. Both halves
 * do so the same way, at once. With root 0 this is MPICH's binomial tree (rank r hears from
 * r + 2^j for each 2^j below its lowest set bit, nearest first); with another root it is the same
 * tree with some subtrees mirrored, of the same depth ceil(lg p) and one message per level.
 * Every partial result covers an interval, so the combination is in rank order. */
static void reduce(hr_proc *p, const hr_group *g, int root, const void *in, void *out,
                   const combiner *c)
{
    int n = g->size, me = g->rank;
    int from[8 * sizeof(int)], nfrom = 0, to = -1;   /* each level halves an int's range */
    int lo = 0, hi = n, t = root;
    while (hi - lo > 1) {
        int h = 1;
        while (2 * h < hi - lo)
            h <<= 1;
        int mid = lo + h, me_low = me < mid, t_low = t < mid;
        if (me_low == t_low) {
            if (me == t)
                from[nfrom++] = t_low ? mid : mid - 1;
        } else {
            int near = me_low ? mid - 1 : mid;
            if (me == near)
                to = t;
            t = near;
        }
        if (me_low)
            hi = mid;
        else
            lo = mid;
    }
    /* The levels were found from the top; the messages flow from the bottom. */
    unsigned char *acc = hr_malloc(p, c->len ? c->len : 1);
    unsigned char *tmp = hr_malloc(p, c->len ? c->len : 1);
    memcpy(acc, in, c->len);
    while (nfrom > 0) {
        int src = from[--nfrom];
        hr__coll_take(p, hr__group_pid(g, src), tmp, c->len);
        if (src < me) {
            c->fn(acc, tmp, c->count, c->ctx);          /* acc = tmp (+) acc */
        } else {
            c->fn(tmp, acc, c->count, c->ctx);          /* acc = acc (+) tmp */
            unsigned char *swap = acc;
            acc = tmp;
            tmp = swap;
        }
    }
    if (to >= 0) {
        hr__coll_post(p, hr__group_pid(g, to), acc, c->len);
        hr__coll_complete(p);
    } else {
        memcpy(out, acc, c->len);
    }
    hr_free(p, tmp);
    hr_free(p, acc);
}

static void rooted_reduce(hr_proc *p, const hr_group *g, int root, const void *in, void *out,
                          const combiner *c)
{
    hr__group_begin(p, g, c->call, "to", root);
    reduce(p, g, root, in, out, c);
    hr__coll_end(p);
}

static void allreduce(hr_proc *p, const hr_group *g, const void *in, void *out, const combiner *c)
{
    hr__group_begin(p, g, c->call, NULL, -1);
    reduce(p, g, 0, in, out, c);
    bcast(p, g, 0, out, c->len);
    hr__coll_end(p);
}

/* Hillis-Steele: acc holds the combination of in over processors i-2d+1 .. i, ex over
 * i-2d+1 .. i-1 once have_ex says it holds anything (a user's operator has no identity to start
 * from). Returns whether out was written: not by an exclusive scan on processor 0. */
static int scan(hr_proc *p, const hr_group *g, const void *in, void *out, const combiner *c,
                int inclusive)
{
    int n = g->size, me = g->rank, have_ex = 0;
    size_t len = c->len;
    unsigned char *acc = hr_malloc(p, len ? len : 1);
    unsigned char *ex = hr_malloc(p, len ? len : 1);
    unsigned char *tmp = hr_malloc(p, len ? len : 1);
    memcpy(acc, in, len);
    hr__group_begin(p, g, c->call, NULL, -1);
    for (int d = 1; d < n; d <<= 1) {
        if (me + d < n)
            hr__coll_post(p, hr__group_pid(g, me + d), acc, len);
        if (me - d >= 0) {
            hr__coll_take(p, hr__group_pid(g, me - d), tmp, len);
            if (!inclusive && have_ex)
                c->fn(ex, tmp, c->count, c->ctx);       /* ex = tmp (+) ex */
            else if (!inclusive)
                memcpy(ex, tmp, len);
            have_ex = 1;
        }
        /* acc may change only once the processor to the right has taken it. */
        hr__coll_complete(p);
        if (me - d >= 0)
            c->fn(acc, tmp, c->count, c->ctx);          /* acc = tmp (+) acc */
    }
    if (inclusive || have_ex)
        memcpy(out, inclusive ? acc : ex, len);
    hr_free(p, tmp);
    hr_free(p, ex);
    hr_free(p, acc);
    hr__coll_end(p);
    return inclusive || have_ex;
}

/* ---- built-in operators and a user's function, on a group or the world ---------------------- */

/* Each public call is one line: its combiner, then the shared code on its group. */
#define BUILTIN(call) \
    hr_builtin_op b;  \
    combiner c = builtin(p, t, op, count, &b, call)
#define USER(call) combiner c = user(p, fn, ctx, count, elem_size, call)

void hr_group_reduce(hr_proc *p, const hr_group *g, int root, const void *in, void *out,
                     size_t count, hr_type t, hr_op op)
{
    BUILTIN("hr_group_reduce");
    rooted_reduce(p, g, root, in, out, &c);
}

void hr_group_allreduce(hr_proc *p, const hr_group *g, const void *in, void *out, size_t count,
                        hr_type t, hr_op op)
{
    BUILTIN("hr_group_allreduce");
    allreduce(p, g, in, out, &c);
}

void hr_group_scan(hr_proc *p, const hr_group *g, const void *in, void *out, size_t count,
                   hr_type t, hr_op op)
{
    BUILTIN("hr_group_scan");
    scan(p, g, in, out, &c, 1);
}

void hr_group_exscan(hr_proc *p, const hr_group *g, const void *in, void *out, size_t count,
                     hr_type t, hr_op op)
{
    BUILTIN("hr_group_exscan");
    if (!scan(p, g, in, out, &c, 0))
        hr__op_identity(t, op, out, count);
}

void hr_group_reduce_user(hr_proc *p, const hr_group *g, int root, const void *in, void *out,
                          size_t count, size_t elem_size, hr_reduce_fn fn, void *ctx)
{
    USER("hr_group_reduce_user");
    rooted_reduce(p, g, root, in, out, &c);
}

void hr_group_allreduce_user(hr_proc *p, const hr_group *g, const void *in, void *out,
                             size_t count, size_t elem_size, hr_reduce_fn fn, void *ctx)
{
    USER("hr_group_allreduce_user");
    allreduce(p, g, in, out, &c);
}

void hr_group_scan_user(hr_proc *p, const hr_group *g, const void *in, void *out, size_t count,
                        size_t elem_size, hr_reduce_fn fn, void *ctx)
{
    USER("hr_group_scan_user");
    scan(p, g, in, out, &c, 1);
}

void hr_group_exscan_user(hr_proc *p, const hr_group *g, const void *in, void *out, size_t count,
                          size_t elem_size, hr_reduce_fn fn, void *ctx)
{
    USER("hr_group_exscan_user");
    scan(p, g, in, out, &c, 0);
}

void hr_reduce(hr_proc *p, int root, const void *in, void *out, size_t count, hr_type t, hr_op op)
{
    BUILTIN("hr_reduce");
    rooted_reduce(p, hr_world(p), root, in, out, &c);
}

void hr_allreduce(hr_proc *p, const void *in, void *out, size_t count, hr_type t, hr_op op)
{
    BUILTIN("hr_allreduce");
    allreduce(p, hr_world(p), in, out, &c);
}

void hr_scan(hr_proc *p, const void *in, void *out, size_t count, hr_type t, hr_op op)
{
    BUILTIN("hr_scan");
    scan(p, hr_world(p), in, out, &c, 1);
}

void hr_exscan(hr_proc *p, const void *in, void *out, size_t count, hr_type t, hr_op op)
{
    BUILTIN("hr_exscan");
    if (!scan(p, hr_world(p), in, out, &c, 0))
        hr__op_identity(t, op, out, count);
}

void hr_reduce_user(hr_proc *p, int root, const void *in, void *out, size_t count,
                    size_t elem_size, hr_reduce_fn fn, void *ctx)
{
    USER("hr_reduce_user");
    rooted_reduce(p, hr_world(p), root, in, out, &c);
}

void hr_allreduce_user(hr_proc *p, const void *in, void *out, size_t count, size_t elem_size,
                       hr_reduce_fn fn, void *ctx)
{
    USER("hr_allreduce_user");
    allreduce(p, hr_world(p), in, out, &c);
}

void hr_scan_user(hr_proc *p, const void *in, void *out, size_t count, size_t elem_size,
                  hr_reduce_fn fn, void *ctx)
{
    USER("hr_scan_user");
    scan(p, hr_world(p), in, out, &c, 1);
}

void hr_exscan_user(hr_proc *p, const void *in, void *out, size_t count, size_t elem_size,
                    hr_reduce_fn fn, void *ctx)
{
    USER("hr_exscan_user");
    scan(p, hr_world(p), in, out, &c, 0);
}
