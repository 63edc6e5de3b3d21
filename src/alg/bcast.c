/* bcast.c: the broadcasts of m values from any root: on the hypercube (binomial tree) and on
 * the reduced hypercube (seed 004 chapter 2: the double-rooted binary tree of BBs), and seed
 * 001's linear and recursive broadcasts (sec. 3.6), to all or to the rows or columns of a mesh,
 * beside the machine's own hr_bcast.
 *
 * Both build the whole tree at every processor (parent of every node: as the thesis's Phase I
 * has every node run the set-up for itself, and cheap: p <= 1024 entries) and send down it with
 * hr__tree_bcast, which lets each node serve first the child whose subtree takes the most steps.
 * The thesis gives the trees, not the order of a node's two sends; that order is ours, and it is
 * the one that makes a tree finish soonest. Set-up is charged as local work: the thesis's
 * O(2^n) loop of Phase I and bit checks of Phase II, one unit each. */
#include "alg/seed004.h"

#include <stdio.h>
#include <string.h>

#include "alg/cube.h"
#include "alg/drtree.h"
#include "alg/sched.h"
#include "alg/seed001.h"

#define TAG_BCAST 1

/* Every processor ends with the root's values; out is the buffer the tree fills. */
static void bcast_tree(hr_proc *p, hr_values *v, hr_tree_parent parent, const void *tree)
{
    int me = hr_pid(p);
    void *out = hr__vals_out(p, v);
    if (me == v->root)
        memcpy(out, v->in[me], hr__vals_bytes(v));
    hr__tree_bcast(p, parent, tree, TAG_BCAST, out, hr__vals_bytes(v));
    if (me == 0)
        v->goal = HR_GOAL_BCAST;
}

/* The binomial tree of the hypercube (the many-to-one mapping of sec. 3.1 read root to leaves):
 * node y = x ^ root hangs below y with its lowest set bit cleared, so the root sends across the
 * highest dimension first and every node is reached in nu steps. */
static int binomial_parent(const void *tree, int x)
{
    int r = *(const int *)tree, y = x ^ r;
    return y == 0 ? -1 : (y & (y - 1)) ^ r;
}

void hr_alg_bcast_binomial(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_values *v = inst;
    hr_compute(p, (double)hr__cube_of(p, "bcast.binomial").nu);
    bcast_tree(p, v, binomial_parent, &v->root);
}

/* The RH tree, sec. 2.1 and 2.2, root r = (BB b0, SB s0, place l0):
 *  - (k > n, sec. 2.2) the (k-n)-cube of r's SB in r's BB gets the value first, down a
 *    double-rooted tree rooted at r (translated by l0, a symmetry of the subcube); each of its
 *    nodes is then the root of its own copy of RH(n,n), the nodes with its place l;
 *  - in a copy, Phase I's double-rooted tree of BBs, translated by b0 (the 2^n-cube of BBs is
 *    symmetric under xor, and so is RH's wiring, which depends on SB addresses only);
 *  - Phase II: the node of BB b with the SB address of the dimension to b's parent BB is its
 *    node of entry (NOE); a node whose SB address is the dimension to a child BB is a node of
 *    exit (NOX); in r's BB the entry is r's SB. Inside a BB the value goes down a double-rooted
 *    tree of the n-cube of SB addresses rooted at the NOE (translated by it);
 *  - Phase III: the broadcast down these trees; a NOX passes the value to its child BB. */
typedef struct rh_tree {
    hr_cube    c;
    const int *bbt, *sbt, *lowt;   /* double-rooted trees of the BB cube, the SB cube, the subcube */
    int        r;
} rh_tree;

static int rh_parent(const void *tree, int x)
{
    const rh_tree *t = tree;
    const hr_cube *c = &t->c;
    int r = t->r;
    int b = hr__cube_bb(c, x), s = hr__cube_sb(c, x), l = hr__cube_low(c, x);
    int b0 = hr__cube_bb(c, r), s0 = hr__cube_sb(c, r), l0 = hr__cube_low(c, r);
    if (x == r)
        return -1;
    if (b == b0 && s == s0)                    /* the (k-n)-cube of sec. 2.2 */
        return hr__cube_node(c, b0, s0, l0 ^ t->lowt[l ^ l0]);
    int d = b ^ b0;
    int entry = d == 0 ? s0 : __builtin_ctz((unsigned)(d ^ t->bbt[d]));
    if (s == entry)                            /* the NOE: across the link to the parent BB */
        return hr__cube_node(c, b ^ (1 << entry), entry, l);
    return hr__cube_node(c, b, entry ^ t->sbt[s ^ entry], l);
}

void hr_alg_bcast_rh_tree(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_values *v = inst;
    hr_cube c = hr__cube_rh(p, "bcast.rh_tree");
    int *bbt = hr_malloc(p, ((size_t)1 << c.D) * sizeof *bbt);
    int *sbt = hr_malloc(p, ((size_t)1 << c.n) * sizeof *sbt);
    int *lowt = hr_malloc(p, ((size_t)1 << (c.k - c.n)) * sizeof *lowt);
    hr__drtree(c.D, bbt);
    hr__drtree(c.n, sbt);
    lowt[0] = -1;                               /* k = n: the subcube is r alone */
    if (c.k > c.n)
        hr__drtree(c.k - c.n, lowt);
    hr_compute(p, (double)(c.D + c.D + c.n));   /* Phase I's loop, Phase II's checks */
    rh_tree t = { c, bbt, sbt, lowt, v->root };
    bcast_tree(p, v, rh_parent, &t);
}

/* ---- seed 001 sec. 3.6: LIB, REB and the system's broadcast -------------------------------- */

#define TAG_SEED001 2

/* The group a processor broadcasts in (params: group 0 all, 1 rows, 2 columns; rows of the
 * mesh, 0 the squarest: the largest divisor of p not above its square root), as processor ids
 * in rank order into pids; returns the group's size, the root's rank in *root and the caller's
 * in *me. The mesh is row-major, so a row is consecutive ids and a column ids cols apart. */
static int bcast_group(hr_proc *p, hr_values *v, const double *params, int *pids, int *root,
                       int *me)
{
    int np = hr_nprocs(p), x = hr_pid(p), group = (int)params[0], rows = (int)params[1];
    if (rows == 0)
        for (int r = 1; r * r <= np; r++)
            if (np % r == 0)
                rows = r;
    if (np % rows != 0) {
        hr_fail(p, "rows = %d does not divide p = %d", rows, np);
        return 0;
    }
    int cols = np / rows, n = 0;
    for (int y = 0; y < np; y++) {
        int in = group == HR_BCAST_ROWS ? y / cols == x / cols
               : group == HR_BCAST_COLUMNS ? y % cols == x % cols : 1;
        if (!in)
            continue;
        int src = group == HR_BCAST_ROWS ? x / cols * cols + v->root % cols
                : group == HR_BCAST_COLUMNS ? v->root / cols * cols + x % cols : v->root;
        if (y == src)
            *root = n;
        if (y == x)
            *me = n;
        pids[n++] = y;
    }
    if (x == 0) {
        v->goal = HR_GOAL_BCAST;
        v->group = group;
        v->rows = rows;
    }
    return n;
}

int hr_alg_bcast_group_check(const double *params, int procs, const char *topology, char *why,
                             size_t whylen)
{
    (void)topology;   /* the mesh is logical: any topology carries it */
    int rows = params != NULL ? (int)params[1] : 0;
    if (rows != 0 && procs % rows != 0) {
        snprintf(why, whylen, "rows = %d does not divide p = %d", rows, procs);
        return HR_EINVAL;
    }
    return HR_OK;
}

/* A processor's broadcast group: pids in rank order, n of them (0: the run failed), the root's
 * rank and its own, and its output, holding the root's values at the root. */
typedef struct bgroup {
    int  *pids, n, root, me;
    void *out;
} bgroup;

static int bcast_start(hr_proc *p, hr_values *v, const double *params, bgroup *g)
{
    g->pids = hr_malloc(p, (size_t)hr_nprocs(p) * sizeof *g->pids);
    g->root = g->me = 0;
    g->n = bcast_group(p, v, params, g->pids, &g->root, &g->me);
    g->out = hr__vals_out(p, v);
    if (g->n > 0 && g->me == g->root)
        memcpy(g->out, v->in[hr_pid(p)], hr__vals_bytes(v));
    return g->n;
}

/* LIB: N - 1 steps; the root sends the message to the others one by one, in rank order after
 * its own. */
void hr_alg_bcast_linear(hr_proc *p, void *inst, const double *params)
{
    hr_values *v = inst;
    bgroup g;
    if (bcast_start(p, v, params, &g) == 0)
        return;
    if (g.me != g.root) {
        hr_recv(p, g.pids[g.root], TAG_SEED001, g.out, hr__vals_bytes(v), NULL);
        return;
    }
    for (int k = 1; k < g.n; k++)
        hr_send(p, g.pids[(g.root + k) % g.n], TAG_SEED001, g.out, hr__vals_bytes(v));
}

/* REB, Figure 9: lg N steps; in step j the ranks that are multiples of distance = N / 2^j and
 * have the message (an even multiple) send it distance ranks on. Ranks are relative to the
 * root's (the paper's "without loss of generality, processor 0"). For N not a power of two the
 * loop runs over the next power of two and a target past N is skipped: still ceil(lg N) steps,
 * every rank reached once. */
void hr_alg_bcast_recursive(hr_proc *p, void *inst, const double *params)
{
    hr_values *v = inst;
    bgroup g;
    if (bcast_start(p, v, params, &g) == 0)
        return;
    int n = g.n, r = (g.me - g.root + n) % n;
    for (int distance = hr__sched_span(n) / 2; distance >= 1; distance /= 2) {
        if (r % distance != 0)
            continue;
        if ((r / distance) % 2 == 0) {
            if (r + distance < n)
                hr_send(p, g.pids[(r + distance + g.root) % n], TAG_SEED001, g.out,
                        hr__vals_bytes(v));
        } else {
            hr_recv(p, g.pids[(r - distance + g.root) % n], TAG_SEED001, g.out,
                    hr__vals_bytes(v), NULL);
        }
    }
}

/* The machine's own broadcast (hr_bcast, hr_group_bcast on the group), for Figures 10-11's
 * "system broadcast". */
void hr_alg_bcast_system(hr_proc *p, void *inst, const double *params)
{
    hr_values *v = inst;
    bgroup g;
    if (bcast_start(p, v, params, &g) == 0)
        return;
    if ((int)params[0] == HR_BCAST_ALL)
        hr_bcast(p, v->root, g.out, hr__vals_bytes(v));
    else
        hr_group_bcast(p, hr_group_make(p, g.pids, g.n), g.root, g.out, hr__vals_bytes(v));
}
