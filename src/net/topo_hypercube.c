/* topo_hypercube.c: the binary d-cube on p = 2^d processors: i and j are linked when their
 * addresses differ in one bit. e-cube routing corrects the differing bits lowest first. */
#include "net/topology.h"

#include <stdio.h>

static int hypercube_procs(const char *args, char *why, size_t len)
{
    if (*args != '\0') {
        snprintf(why, len, "hypercube takes no shape (got '%.40s'); p sets its dimension", args);
        return -1;
    }
    return 0;
}

static int hypercube_nbrs(const hr_topo *t, int u, int *out)
{
    for (int b = 0; b < t->dims[0]; b++)
        out[b] = u ^ (1 << b);
    return t->dims[0];
}

static int hypercube_hops(const hr_topo *t, int src, int dst)
{
    (void)t;
    return __builtin_popcount((unsigned)(src ^ dst));
}

static int hypercube_route(const hr_topo *t, int src, int dst, int *links)
{
    int n = 0, u = src;
    for (unsigned diff = (unsigned)(src ^ dst); diff != 0; diff &= diff - 1) {
        int v = u ^ (int)(diff & -diff);   /* the lowest differing bit first */
        links[n++] = hr__topo_link(t, u, v);
        u = v;
    }
    return n;
}

static int hypercube_make(hr_topo *t, const char *args, int p, char *why, size_t len)
{
    (void)args;
    if (p & (p - 1)) {
        snprintf(why, len, "hypercube needs p to be a power of two (it is %d)", p);
        return -1;
    }
    int d = 0;
    while ((1 << d) < p)
        d++;
    t->p = p;
    t->dims[0] = d;
    t->ndims = 1;
    snprintf(t->shape, sizeof t->shape, "hypercube");
    t->route = hypercube_route;
    t->hops = hypercube_hops;
    t->max_route = d > 0 ? d : 1;
    t->bisection = p / 2;
    if (hr__topo_links(t, hypercube_nbrs) != 0) {
        snprintf(why, len, "out of memory for the hypercube's links");
        return -1;
    }
    return 0;
}

const hr_topology hr__topo_hypercube = {
    .name = "hypercube",
    .syntax = "hypercube",
    .summary = "binary hypercube on p = 2^d processors, e-cube routing (lowest bit first; seed 004)",
    .procs = hypercube_procs,
    .make = hypercube_make,
};
