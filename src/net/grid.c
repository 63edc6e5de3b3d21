/* grid.c: meshes and tori. A node's id is its coordinates in row-major order: in "RxC" node
 * (r, c) is r*C + c, in "XxYxZ" node (x, y, z) is (x*Y + y)*Z + z. Routes are dimension order,
 * the last (fastest-varying) dimension first: in RxC along the row to the destination's column,
 * then along the column. On a torus each dimension goes the shorter way round; exactly half way
 * round (an even side) it goes up, towards higher coordinates. */
#include "net/grid.h"

#include <stdio.h>
#include <hremu/machine.h>

static int parse(const char *name, const char *args, int ndims_min, int ndims_max, int *dims,
                 char *why, size_t len)
{
    int n = hr__topo_args(args, 'x', dims, HR_TOPO_MAX_DIMS, why, len);
    if (n < 0)
        return -1;
    if (n < ndims_min || n > ndims_max) {
        snprintf(why, len, ndims_max == 2 ? "%s needs a shape RxC (e.g. %s 4x8), got '%.40s'"
                                          : "%s needs a shape RxC or XxYxZ (e.g. %s 8x8), got "
                                            "'%.40s'", name, name, args);
        return -1;
    }
    long p = 1;
    for (int i = 0; i < n; i++) {
        if (dims[i] < 1) {
            snprintf(why, len, "every side must be at least 1");
            return -1;
        }
        p *= dims[i];
        if (p > HR_MAX_PROCS) {
            snprintf(why, len, "more than %d processors", HR_MAX_PROCS);
            return -1;
        }
    }
    return n;
}

int hr__grid_procs(const char *name, const char *args, int ndims_min, int ndims_max, char *why,
                   size_t len)
{
    int dims[HR_TOPO_MAX_DIMS];
    int n = parse(name, args, ndims_min, ndims_max, dims, why, len);
    if (n < 0)
        return -1;
    int p = 1;
    for (int i = 0; i < n; i++)
        p *= dims[i];
    return p;
}

/* The stride of dimension i: ids of neighbours along it differ by this much. */
static int stride(const hr_topo *t, int i)
{
    int s = 1;
    for (int j = t->ndims - 1; j > i; j--)
        s *= t->dims[j];
    return s;
}

static int coord(const hr_topo *t, int u, int i)
{
    return u / stride(t, i) % t->dims[i];
}

/* dims[HR_TOPO_MAX_DIMS - 1] is unused by the shapes (at most 3 sides): it holds the wrap flag. */
#define WRAP(t) ((t)->dims[HR_TOPO_MAX_DIMS - 1])

static int grid_nbrs(const hr_topo *t, int u, int *out)
{
    int n = 0;
    for (int i = 0; i < t->ndims; i++) {
        int side = t->dims[i], c = coord(t, u, i), s = stride(t, i);
        int cand[2] = { c + 1 < side ? c + 1 : WRAP(t) ? 0 : -1,
                        c > 0 ? c - 1 : WRAP(t) ? side - 1 : -1 };
        for (int k = 0; k < 2; k++) {
            /* A side of 2 reaches one neighbour both ways, a side of 1 none. */
            if (cand[k] < 0 || cand[k] == c || (k == 1 && cand[1] == cand[0]))
                continue;
            out[n++] = u + (cand[k] - c) * s;
        }
    }
    return n;
}

/* Steps along dimension i from coordinate a to b: the sign is the direction. */
static int steps(const hr_topo *t, int i, int a, int b)
{
    int d = b - a;
    if (!WRAP(t))
        return d;
    int side = t->dims[i], up = (d + side) % side;
    return up <= side - up ? up : up - side;
}

static int grid_hops(const hr_topo *t, int src, int dst)
{
    int h = 0;
    for (int i = 0; i < t->ndims; i++) {
        int s = steps(t, i, coord(t, src, i), coord(t, dst, i));
        h += s < 0 ? -s : s;
    }
    return h;
}

static int grid_route(const hr_topo *t, int src, int dst, int *links)
{
    int n = 0, u = src;
    for (int i = t->ndims - 1; i >= 0; i--) {
        int s = steps(t, i, coord(t, u, i), coord(t, dst, i));
        int dir = s < 0 ? -1 : 1, side = t->dims[i], str = stride(t, i);
        for (int k = 0; k < (s < 0 ? -s : s); k++) {
            int c = coord(t, u, i), nc = (c + dir + side) % side;
            int v = u + (nc - c) * str;
            links[n++] = hr__topo_link(t, u, v);
            u = v;
        }
    }
    return n;
}

int hr__grid_make(hr_topo *t, const char *name, const char *args, int p, int ndims_min,
                  int ndims_max, int wrap, char *why, size_t len)
{
    int n = parse(name, args, ndims_min, ndims_max, t->dims, why, len);
    if (n < 0)
        return -1;
    (void)p;   /* hr__topo_make has checked it against the product of the sides */
    t->ndims = n;
    WRAP(t) = wrap;
    int used = snprintf(t->shape, sizeof t->shape, "%s ", name), maxr = 0;
    for (int i = 0; i < n; i++) {
        used += snprintf(t->shape + used, sizeof t->shape - (size_t)used, i ? "x%d" : "%d",
                         t->dims[i]);
        maxr += wrap ? t->dims[i] / 2 : t->dims[i] - 1;
    }
    t->p = 1;
    for (int i = 0; i < n; i++)
        t->p *= t->dims[i];
    /* Cutting across the longest side, when it is even, halves the nodes and cuts one link per
     * line along it (two on a torus, whose lines close), the known minimum for such grids. A
     * mesh (two sides, R <= C) whose sides are not both so: across an even side s the cut is
     * p / s links; across an odd side it takes one jog from a column to the next to split the
     * nodes floor(p/2) and ceil(p/2), one link more (none on a 1 x C line). The least of these
     * is R (C even), R + 1 (C odd, R > 1) or 1, the minimum bisection of a two-dimensional
     * mesh. A torus with an odd longest side is left unknown. */
    int longest = 0;
    for (int i = 1; i < n; i++)
        if (t->dims[i] > t->dims[longest])
            longest = i;
    if (t->dims[longest] % 2 == 0) {
        t->bisection = (long)(t->p / t->dims[longest]) * (wrap && t->dims[longest] > 2 ? 2 : 1);
    } else if (!wrap && n == 2) {
        for (int i = 0; i < 2; i++) {
            long other = t->p / t->dims[i];
            long cut = other + (t->dims[i] % 2 == 1 && other > 1 ? 1 : 0);
            if (t->dims[i] > 1 && (t->bisection == 0 || cut < t->bisection))
                t->bisection = cut;
        }
    }
    t->route = grid_route;
    t->hops = grid_hops;
    t->max_route = maxr > 0 ? maxr : 1;
    if (hr__topo_links(t, grid_nbrs) != 0) {
        snprintf(why, len, "out of memory for the %s's links", name);
        return -1;
    }
    return 0;
}
