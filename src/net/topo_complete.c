/* topo_complete.c: the complete graph of seed 000's BDM model: one link between every pair. It
 * stores no links: a message shares its link with no other, and contends only at the two ports. */
#include "net/topology.h"

#include <stdio.h>

static int complete_procs(const char *args, char *why, size_t len)
{
    if (*args != '\0') {
        snprintf(why, len, "complete takes no shape (got '%.40s')", args);
        return -1;
    }
    return 0;
}

static int complete_route(const hr_topo *t, int src, int dst, int *links)
{
    (void)t;
    (void)links;
    return src == dst ? 0 : 1;
}

static int complete_make(hr_topo *t, const char *args, int p, char *why, size_t len)
{
    (void)args;
    (void)why;
    (void)len;
    t->p = p;
    snprintf(t->shape, sizeof t->shape, "complete");
    t->route = complete_route;
    t->max_route = 1;
    t->bisection = (long)(p / 2) * (long)(p - p / 2);
    return 0;
}

const hr_topology hr__topo_complete = {
    .name = "complete",
    .syntax = "complete",
    .summary = "complete graph: every pair one link apart, contention only at the nodes (BDM)",
    .procs = complete_procs,   /* any p */
    .make = complete_make,
    .no_links = 1,
};
