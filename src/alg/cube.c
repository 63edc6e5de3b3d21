/* cube.c: the shape of the machine's hypercube or reduced hypercube, paths between BBs, tree
 * broadcast and value combining, for seed 004's algorithms (cube.h). */
#include "alg/cube.h"

#include <stdint.h>
#include <string.h>

hr_cube hr__cube_of(hr_proc *p, const char *call)
{
    int dims[2];
    const char *shape = hr_topology_shape(p);
    int nd = hr_topology_dims(p, dims, 2);
    if (strncmp(shape, "rh ", 3) == 0 && nd == 2)
        return (hr_cube){ .k = dims[0], .n = dims[1], .D = 1 << dims[1],
                          .nu = dims[0] + (1 << dims[1]) };
    if (strcmp(shape, "hypercube") == 0 && nd == 1)
        return (hr_cube){ .k = dims[0], .n = 0, .D = 0, .nu = dims[0] };
    hr_fail(p, "%s runs on a hypercube or a reduced hypercube, not on %s", call, shape);
}

hr_cube hr__cube_rh(hr_proc *p, const char *call)
{
    hr_cube c = hr__cube_of(p, call);
    if (c.D == 0)
        hr_fail(p, "%s runs on a reduced hypercube (rh K N), not on a hypercube", call);
    return c;
}

/* Append to path the nodes from x to the node of x's BB with SB address sb, SB bits flipped
 * lowest first. Returns the node reached. */
static int walk_sb(const hr_cube *c, int x, int sb, int *path, int *len)
{
    int shift = c->k - c->n;
    for (int b = 0; b < c->n; b++)
        if (((x >> (shift + b)) ^ (sb >> b)) & 1) {
            x ^= 1 << (shift + b);
            path[(*len)++] = x;
        }
    return x;
}

int hr__cube_path(const hr_cube *c, int from, int dim, int *path)
{
    int len = 0;
    path[len++] = from;
    int x = walk_sb(c, from, dim, path, &len);
    x ^= 1 << (c->k + dim);                         /* the link between the BBs */
    path[len++] = x;
    walk_sb(c, x, hr__cube_sb(c, from), path, &len);
    return len;
}

int hr__cube_carry(hr_proc *p, const int *path, int len, int tag, void *buf, size_t bytes)
{
    int me = hr_pid(p);
    for (int q = 0; q < len; q++)
        if (path[q] == me) {
            if (q > 0)
                hr_recv(p, path[q - 1], tag, buf, bytes, NULL);
            if (q + 1 < len)
                hr_send(p, path[q + 1], tag, buf, bytes);
            return q;
        }
    return -1;
}

/* ---- tree broadcast ----------------------------------------------------------------------- */

/* Sort kids[0 .. n) by their subtree's steps, most first, ties by id (a handful of children:
 * insertion sort). */
static void sort_kids(int *kids, int n, const int *steps)
{
    for (int i = 1; i < n; i++) {
        int x = kids[i], j = i;
        for (; j > 0 && (steps[kids[j - 1]] < steps[x] ||
                         (steps[kids[j - 1]] == steps[x] && kids[j - 1] > x)); j--)
            kids[j] = kids[j - 1];
        kids[j] = x;
    }
}

/* Children of every node, in the order they are sent to, and the steps each subtree takes:
 * a node's children sorted by their subtree's steps, most first (ties by id), and its own steps
 * max over the i-th child (from 1) of i + the child's. Top-down order by a breadth-first walk
 * from the roots, then leaves first: O(p). */
static void plan_tree(hr_proc *p, const int *parent, int *first, int *kids, int *steps)
{
    int np = hr_nprocs(p);
    int *order = hr_malloc(p, (size_t)np * sizeof *order);
    int *cnt = hr_calloc(p, (size_t)np + 1, sizeof *cnt);
    for (int x = 0; x < np; x++)
        if (parent[x] >= 0)
            cnt[parent[x] + 1]++;
    for (int x = 0; x < np; x++)
        cnt[x + 1] += cnt[x];
    memcpy(first, cnt, ((size_t)np + 1) * sizeof *first);
    for (int x = 0; x < np; x++)
        if (parent[x] >= 0)
            kids[cnt[parent[x]]++] = x;
    int at = 0;
    for (int x = 0; x < np; x++)
        if (parent[x] < 0)
            order[at++] = x;
    for (int i = 0; i < at; i++)
        for (int j = first[order[i]]; j < first[order[i] + 1]; j++)
            order[at++] = kids[j];
    for (int i = at; i-- > 0;) {
        int x = order[i], s = 0;
        sort_kids(kids + first[x], first[x + 1] - first[x], steps);
        for (int j = first[x]; j < first[x + 1]; j++)
            if (j - first[x] + 1 + steps[kids[j]] > s)
                s = j - first[x] + 1 + steps[kids[j]];
        steps[x] = s;
    }
    hr_free(p, order);
    hr_free(p, cnt);
}

int hr__tree_bcast(hr_proc *p, const int *parent, int tag, void *buf, size_t bytes)
{
    int np = hr_nprocs(p), me = hr_pid(p), total = 0;
    int *first = hr_malloc(p, ((size_t)np + 1) * sizeof *first);
    int *kids = hr_malloc(p, (size_t)np * sizeof *kids);
    int *steps = hr_malloc(p, (size_t)np * sizeof *steps);
    plan_tree(p, parent, first, kids, steps);
    for (int x = 0; x < np; x++)
        if (parent[x] < 0 && steps[x] > total)
            total = steps[x];
    if (parent[me] >= 0)
        hr_recv(p, parent[me], tag, buf, bytes, NULL);
    for (int j = first[me]; j < first[me + 1]; j++)
        hr_send(p, kids[j], tag, buf, bytes);
    hr_free(p, first);
    hr_free(p, kids);
    hr_free(p, steps);
    return total;
}

/* ---- values ---------------------------------------------------------------------------------- */

void hr__vals_combine(const hr_values *v, const void *lo, const void *hi, void *out)
{
    if (v->type == HR_DOUBLE) {
        const double *a = lo, *b = hi;
        double *o = out;
        for (size_t i = 0; i < v->m; i++)
            o[i] = v->op == HR_SUM ? a[i] + b[i] : v->op == HR_MAX ? (a[i] >= b[i] ? a[i] : b[i])
                                                                   : (a[i] <= b[i] ? a[i] : b[i]);
        return;
    }
    const int64_t *a = lo, *b = hi;
    int64_t *o = out;
    for (size_t i = 0; i < v->m; i++)
        o[i] = v->op == HR_SUM ? (int64_t)((uint64_t)a[i] + (uint64_t)b[i])
             : v->op == HR_MAX ? (a[i] >= b[i] ? a[i] : b[i]) : (a[i] <= b[i] ? a[i] : b[i]);
}

void *hr__vals_out(hr_proc *p, hr_values *v)
{
    void *out = hr_malloc(p, hr__vals_bytes(v));
    v->out[hr_pid(p)] = out;
    return out;
}
