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

/* x's children, into kids, sorted by their subtree's steps (into steps), most first, ties by
 * id; returns how many. x's own subtree takes max over its i-th child (from 1) of i + the
 * child's steps. */
static int children(hr_proc *p, hr_tree_parent parent, const void *tree, int x, int *kids,
                    int *steps);

static int subtree_steps(hr_proc *p, hr_tree_parent parent, const void *tree, int x)
{
    int kids[HR_TREE_MAX_DEGREE], steps[HR_TREE_MAX_DEGREE], s = 0;
    int n = children(p, parent, tree, x, kids, steps);
    for (int j = 0; j < n; j++)
        if (j + 1 + steps[j] > s)
            s = j + 1 + steps[j];
    return s;
}

static int children(hr_proc *p, hr_tree_parent parent, const void *tree, int x, int *kids,
                    int *steps)
{
    int deg = hr_neighbours(p, x, kids, HR_TREE_MAX_DEGREE), n = 0;
    if (deg > HR_TREE_MAX_DEGREE)
        hr_fail(p, "tree broadcast: P%d has %d neighbours, above the %d it walks", x, deg,
                HR_TREE_MAX_DEGREE);
    for (int j = 0; j < deg; j++)
        if (parent(tree, kids[j]) == x)
            kids[n++] = kids[j];
    for (int j = 0; j < n; j++)
        steps[j] = subtree_steps(p, parent, tree, kids[j]);
    for (int i = 1; i < n; i++) {       /* a handful: insertion sort */
        int k = kids[i], s = steps[i], j = i;
        for (; j > 0 && (steps[j - 1] < s || (steps[j - 1] == s && kids[j - 1] > k)); j--) {
            kids[j] = kids[j - 1];
            steps[j] = steps[j - 1];
        }
        kids[j] = k;
        steps[j] = s;
    }
    return n;
}

void hr__tree_bcast(hr_proc *p, hr_tree_parent parent, const void *tree, int tag, void *buf,
                    size_t bytes)
{
    int me = hr_pid(p), up = parent(tree, me);
    int kids[HR_TREE_MAX_DEGREE], steps[HR_TREE_MAX_DEGREE];
    if (up >= 0) {
        int nb[HR_TREE_MAX_DEGREE], deg = hr_neighbours(p, me, nb, HR_TREE_MAX_DEGREE), linked = 0;
        for (int j = 0; j < deg && j < HR_TREE_MAX_DEGREE; j++)
            linked |= nb[j] == up;
        if (!linked)
            hr_fail(p, "tree broadcast: P%d's parent P%d is not its neighbour", me, up);
        hr_recv(p, up, tag, buf, bytes, NULL);
    }
    int n = children(p, parent, tree, me, kids, steps);
    for (int j = 0; j < n; j++)
        hr_send(p, kids[j], tag, buf, bytes);
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
