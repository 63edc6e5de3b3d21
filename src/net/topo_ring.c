/* topo_ring.c: p processors in a cycle, i linked both ways to i +- 1 (mod p). A message goes the
 * shorter way round; at exactly half way round (p even) it goes up, i -> i + 1. */
#include "net/topology.h"

#include <stdio.h>

static int ring_procs(const char *args, char *why, size_t len)
{
    if (*args != '\0') {
        snprintf(why, len, "ring takes no shape (got '%.40s')", args);
        return -1;
    }
    return 0;
}

static int ring_nbrs(const hr_topo *t, int u, int *out)
{
    int n = 0, p = t->p;
    if (p > 1)
        out[n++] = (u + 1) % p;
    if (p > 2)
        out[n++] = (u + p - 1) % p;
    return n;
}

/* Steps up (> 0) or down (< 0) from src to dst, the shorter way, ties up. */
static int ring_steps(const hr_topo *t, int src, int dst)
{
    int up = (dst - src + t->p) % t->p;
    return up <= t->p - up ? up : up - t->p;
}

static int ring_hops(const hr_topo *t, int src, int dst)
{
    int s = ring_steps(t, src, dst);
    return s < 0 ? -s : s;
}

static int ring_route(const hr_topo *t, int src, int dst, int *links)
{
    int s = ring_steps(t, src, dst), dir = s < 0 ? -1 : 1, n = 0;
    for (int u = src; u != dst; u = (u + dir + t->p) % t->p)
        links[n++] = hr__topo_link(t, u, (u + dir + t->p) % t->p);
    return n;
}

static int ring_make(hr_topo *t, const char *args, int p, char *why, size_t len)
{
    (void)args;
    t->p = p;
    snprintf(t->shape, sizeof t->shape, "ring");
    t->route = ring_route;
    t->hops = ring_hops;
    t->max_route = p / 2 > 0 ? p / 2 : 1;
    t->bisection = p > 2 ? 2 : p - 1;
    if (hr__topo_links(t, ring_nbrs) != 0) {
        snprintf(why, len, "out of memory for the ring's links");
        return -1;
    }
    return 0;
}

const hr_topology hr__topo_ring = {
    .name = "ring",
    .syntax = "ring",
    .summary = "ring: i linked to i+1 and i-1 (mod p), the shorter way round",
    .procs = ring_procs,
    .make = ring_make,
};
