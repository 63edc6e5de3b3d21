/* topology.h: interconnection topologies. A row of the table (hr_topology) names a shape and
 * builds an instance (hr_topo) for one machine: its nodes, its directed links, and a
 * deterministic route between any two nodes as a list of link ids. One file per topology,
 * topo_<name>.c, each defining one row; topology.c holds the table and what every topology
 * shares (building the link arrays, neighbours, the link between two nodes).
 *
 * Nodes are the processors 0 .. p-1, then any switches. Node u's out-links are the ids first[u] .. first[u+1]-1, in increasing order of the
 * node they lead to; link l leads from from[l] to to[l] and carries bw[l] bytes per second (bw
 * NULL: every link at the cost model's rate, 1/sigma). The complete graph stores no links
 * (nlinks = 0): a message between two processors shares no link with any other, and contends
 * only at the two ports, as BDM says.
 *
 * An instance is immutable once made: any thread may read it and call route at once.
 */
#ifndef HREMU_NET_TOPOLOGY_H
#define HREMU_NET_TOPOLOGY_H

#include <stddef.h>

#define HR_TOPO_MAX_DIMS 4

typedef struct hr_topo hr_topo;

typedef struct hr_topology {
    const char *name;        /* "mesh": the first word of a topology string */
    const char *syntax;      /* "mesh RxC": the whole string's form, for --list and errors */
    const char *summary;     /* one line, with its source */
    /* The p that the shape args (the text after the name, "" if none) fix, 0 if any p fits
     * some other check, or -1 with a reason in why if args are malformed. */
    int (*procs)(const char *args, char *why, size_t len);
    /* Build the instance on p processors into t (zeroed by the caller, shape args parsed
     * again): fill p, nlinks and the link arrays (hr__topo_links), dims, route and diameter.
     * 0, or -1 with a reason in why (p does not fit the shape, out of memory). */
    int (*make)(hr_topo *t, const char *args, int p, char *why, size_t len);
    /* 1: the instance stores no links (the complete graph: every pair one link apart, so no
     * hops and no link contention); 0: messages cross links. Asked by name through
     * hr__topology_has_links, and of an instance by hr__net_shared (net/network.h). */
    int no_links;
} hr_topology;

struct hr_topo {
    const hr_topology *row;
    char    shape[64];               /* the canonical string, "mesh 4x8" */
    int     p;                       /* processors: nodes 0 .. p-1 */
    int     nodes;                   /* all nodes: the processors, then any switches (a fat
                                      * tree's): nodes p .. nodes-1; nodes = p if none */
    int     dims[HR_TOPO_MAX_DIMS];  /* the shape's parameters (sides, k and n, ...) */
    int     ndims;
    int     nlinks;                  /* directed links */
    int    *first;                   /* [nodes+1] */
    int    *from, *to;               /* [nlinks] */
    double *bw;                      /* [nlinks] bytes/s, or NULL */
    int     max_route;               /* no route is longer (the routing's diameter) */
    long    bisection;               /* undirected links a minimum bisection of the processors
                                      * cuts, where known; 0 if not */
    /* Write the links of the route from src to dst into links (room for max_route) and
     * return their number: 0 when src == dst. The complete graph returns 1 and writes
     * nothing. Deterministic: the same pair always gives the same route. */
    int   (*route)(const hr_topo *t, int src, int dst, int *links);
    /* The route's length, without writing it (NULL: route's count). */
    int   (*hops)(const hr_topo *t, int src, int dst);
};

/* The row named by the first word of spec ("mesh 4x8"), and in *args the text after it
 * (spaces skipped); NULL if no row has that name. */
const hr_topology *hr__topology_find(const char *spec, const char **args);
/* Whether spec's messages cross links (its row's no_links is 0): what a config asks before any
 * machine is made. 0 for an unknown spec (which fails where the machine is made). */
int hr__topology_has_links(const char *spec);
/* Build spec's instance on p processors (p = 0: the p its shape fixes). 0, or -1 with a reason
 * in why. The caller frees it with hr__topo_destroy. */
int  hr__topo_make(const char *spec, int p, hr_topo **out, char *why, size_t len);
void hr__topo_destroy(hr_topo *t);

/* For make: allocate the link arrays from every node's neighbours: nbrs(t, u, out) writes u's
 * neighbours into out (room for nodes - 1) and returns their number; each neighbour once, any order
 * (they are sorted here). t->p and t->nodes must be set (nodes 0: p). 0, or -1 out of
 * memory. */
int  hr__topo_links(hr_topo *t, int (*nbrs)(const hr_topo *t, int u, int *out));
/* The id of the link from u to v, or -1 if there is none: inline, since every route asks it
 * once a hop. */
static inline int hr__topo_link(const hr_topo *t, int u, int v)
{
    /* Out-links are sorted by the node they reach: binary search. */
    int lo = t->first[u], hi = t->first[u + 1] - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (t->to[mid] == v)
            return mid;
        if (t->to[mid] < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}
/* Distances over the links from src to every node (-1: unreached), by breadth-first search;
 * dist and queue have room for t->nodes. The yardstick routes are checked against (tests) and
 * --topology's figures. Any thread. */
void hr__topo_bfs(const hr_topo *t, int src, int *dist, int *queue);
/* Links crossed from src to dst by the route (0 when src == dst): one between any two nodes of
 * a topology that stores no links, so that the complete graph's messages run no code of its
 * row; else the row's hops, or the length of its route. */
int  hr__topo_route_hops(const hr_topo *t, int src, int dst);
static inline int hr__topo_hops(const hr_topo *t, int src, int dst)
{
    if (src == dst)
        return 0;
    return t->nlinks == 0 ? 1 : hr__topo_route_hops(t, src, dst);
}

/* Shape arguments: up to max whole numbers, each 0 .. 4096, separated by sep ('x' for "4x8",
 * ' ' for "3 1"); their count, or -1 with a reason in why (junk, a number out of range). */
int  hr__topo_args(const char *args, char sep, int *v, int max, char *why, size_t len);

extern const hr_topology hr__topo_complete;
extern const hr_topology hr__topo_fattree;
extern const hr_topology hr__topo_ring;
extern const hr_topology hr__topo_mesh;
extern const hr_topology hr__topo_torus;
extern const hr_topology hr__topo_hypercube;

#endif
