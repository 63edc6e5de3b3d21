/* topo_complete.c: the complete graph of seed 000's BDM model: one link between every pair. */
#include "net/topology.h"

#include <stddef.h>

static const char *complete_check(int p)
{
    (void)p;
    return NULL;
}

static int complete_hops(int p, int src, int dst)
{
    (void)p;
    return src == dst ? 0 : 1;
}

const hr_topology hr__topo_complete = {
    .name = "complete",
    .summary = "complete graph: every pair one link apart, contention only at the nodes (BDM)",
    .check = complete_check,   /* any p */
    .hops = complete_hops,     /* one link between distinct processors */
};
