/* topo_rh.h: the reduced hypercube RH(k,n) of seed 004 (sec. 1.3) beyond its table row: an
 * instance of any size the analysis needs (up to 2^20 nodes, as the fiber engine's machines),
 * and the dilation of emulating the hypercube on the same nodes (sec. 1.3.1).
 *
 * Addresses (seed 004 sec. 1.3): node x has nu = k + 2^n bits. Bits 0 .. k-1 (the 0th field)
 * are its address inside its building block (BB), a k-cube; bits k .. nu-1 (the 1st field) are
 * the BB's address; bits k-n .. k-1 (the 0th subfield, the high n bits of the 0th field) are
 * its subblock (SB) address m. The hypercube edge of dimension j joins x and x ^ 2^j: the thesis
 * maps each hypercube node to the RH node with the same address, and so does this module.
 */
#ifndef HREMU_NET_TOPO_RH_H
#define HREMU_NET_TOPO_RH_H

#include <stddef.h>

#include "net/topology.h"

extern const hr_topology hr__topo_rh;

#define HR_RH_MAX_N   3                       /* n of the largest instance hr__rh_new builds */
#define HR_RH_MAX_NU  20                      /* its k + 2^n: up to 2^20 nodes */
#define HR_RH_MAX_DIL (2 * HR_RH_MAX_N + 1)   /* Corollary 1's 2n+1 at n = HR_RH_MAX_N */

/* Build RH(k, n) with no processor limit but nu = k + 2^n <= HR_RH_MAX_NU (and 1 <= n <= k as
 * for the row): the same nodes, links and routes as the row's make. 0, or -1 with a reason in
 * why. Free with hr__topo_destroy. Any thread. */
int hr__rh_new(int k, int n, hr_topo **out, char *why, size_t len);

/* The dilation of the nu-cube on t (an rh instance), by breadth-first search over t's links:
 * for every node x and dimension j, the RH distance from x to x ^ 2^j.
 *
 * Per-dimension classes, to set beside the theorem of sec. 1.3.1: at node x with SB address m,
 * class 0 holds the k dimensions inside x's BB (j < k); class 1 + q, q = 0 .. n, holds the BB
 * dimensions j = k + i whose i is q bits away from m (popcount(i ^ m) = q; C(n, q) of them at
 * every node). The theorem says: dilation 1 in classes 0 and 1 (k + 1 edges a node), 2q + 1 in
 * class 1 + q (C(n, q) edges a node). */
typedef struct hr_rh_dilation {
    int    max;                             /* largest dilation of any hypercube edge */
    double avg;                             /* mean over all p * nu / 2 hypercube edges */
    int    sources;                         /* BFS sources: p, or the 2^n translation classes */
    int    per_node[HR_RH_MAX_DIL + 1];     /* node 0's nu edges by dilation 0 .. MAX_DIL */
    int    uniform;                         /* 1: every node's edges have per_node's dilations */
    int    class_count[HR_RH_MAX_N + 2];    /* edges of each class at a node (k, then C(n, q)) */
    int    class_min[HR_RH_MAX_N + 2];      /* smallest dilation in the class, over all nodes */
    int    class_max[HR_RH_MAX_N + 2];      /* largest */
    int    dim_max[HR_RH_MAX_NU];           /* dimension j's largest dilation, j < nu */
    double dim_avg[HR_RH_MAX_NU];           /* and its mean over the p / 2 edges of dimension j */
} hr_rh_dilation;

/* Fill d for t. every_node 1: a BFS from every node. every_node 0: a BFS from one node of each
 * class of the translations x -> x ^ a, a with zero SB bits, after checking on t's links that
 * each such translation maps every link to a link (so distances, and dilations, are the same
 * throughout a class); for instances too big for the first (RH(8,3)). 0, or -1 if t is not an
 * rh instance, the translations are not automorphisms of it, a dilation exceeds HR_RH_MAX_DIL
 * or memory runs out. Any thread. */
int hr__rh_dilation_of(const hr_topo *t, int every_node, hr_rh_dilation *d);

/* Max and mean dilation (every_node when t->p <= HR_MAX_PROCS, else by classes). 0 or -1. */
int hr__rh_dilation(const hr_topo *t, int *max, double *avg);

#endif
