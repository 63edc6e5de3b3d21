/* cube.h: what seed 004's algorithms share: the hypercube and the reduced hypercube RH(k,n) read
 * from the machine's topology, paths between building blocks, broadcast down a tree, and the
 * values they combine.
 *
 * RH(k,n) (seed 004 sec. 1.3): node x has nu = k + 2^n address bits. Bits 0 .. k-1 address it
 * inside its building block (BB), a k-cube; bits k .. nu-1 are the BB's address, a vertex of
 * the 2^n-cube of BBs; the n high bits of the BB part, k-n .. k-1, are its subblock (SB)
 * address m, and the node's one link out of its BB goes to the node with the same low k bits
 * in BB (its BB ^ 2^m). The k-n low bits are the node's place in its SB ("low" here).
 *
 * The hypercube of the same p is read as RH with no reduction: k = nu, no BB dimensions. */
#ifndef HREMU_ALG_CUBE_H
#define HREMU_ALG_CUBE_H

#include <stddef.h>

#include <hremu/hremu.h>
#include <hremu/workload.h>

typedef struct hr_cube {
    int k;        /* BB dimensions (the hypercube: nu) */
    int n;        /* the RH's n (the hypercube: 0) */
    int D;        /* dimensions of the cube of BBs, 2^n (the hypercube: 0) */
    int nu;       /* address bits, k + D; p = 2^nu */
} hr_cube;

/* The machine's shape: rh K N gives (k, n, 2^n, k + 2^n); hypercube d gives (d, 0, 0, d).
 * Fails the run (hr_fail, naming call) on any other topology. */
hr_cube hr__cube_of(hr_proc *p, const char *call);

/* As hr__cube_of, on a reduced hypercube only. */
hr_cube hr__cube_rh(hr_proc *p, const char *call);

static inline int hr__cube_bb(const hr_cube *c, int x)  { return x >> c->k; }
static inline int hr__cube_sb(const hr_cube *c, int x)
{
    return (x >> (c->k - c->n)) & ((1 << c->n) - 1);
}
static inline int hr__cube_low(const hr_cube *c, int x) { return x & ((1 << (c->k - c->n)) - 1); }
/* The node of BB bb, SB sb, place low in its SB. */
static inline int hr__cube_node(const hr_cube *c, int bb, int sb, int low)
{
    return (bb << c->k) | (sb << (c->k - c->n)) | low;
}

/* The most nodes a path between neighbouring BBs visits: n SB bits each side and the link. */
#define HR_CUBE_MAX_PATH 16

/* The path from node `from` to the node with the same low k bits in the BB across BB dimension
 * dim, along links: inside from's BB to SB dim, flipping SB bits lowest first (e-cube), across
 * the link, and back to from's SB address the same way (seed 004 sec. 3: "at most n hops ...
 * and then at most another n hops", dilation 2n + 1). Fills path[] and returns its nodes. */
int hr__cube_path(const hr_cube *c, int from, int dim, int *path);

/* Carry bytes of buf along path[0 .. len): path[0] sends them, every later node receives them
 * from the one before (into buf) and passes them on; nodes off the path do nothing. Returns
 * the caller's place on the path, or -1. */
int hr__cube_carry(hr_proc *p, const int *path, int len, int tag, void *buf, size_t bytes);

/* A forest over the processors: tree_parent(tree, x) is x's parent, or -1 at a root. Every
 * parent is a neighbour of its child in the machine's topology (of at most HR_TREE_MAX_DEGREE
 * neighbours), which is how a node finds its children without holding the whole forest. */
typedef int (*hr_tree_parent)(const void *tree, int x);
#define HR_TREE_MAX_DEGREE 32

/* Broadcast bytes of buf from the root of each tree of the forest down its edges: each
 * processor receives from its parent, then sends to its children, the one whose subtree takes
 * the most steps first, ties by id (so a tree finishes in the fewest steps it allows). Every
 * processor must call it with the same forest. A node learns its subtree's steps by walking it:
 * O(subtree * degree) time, O(depth) stack, no memory that grows with p. */
void hr__tree_bcast(hr_proc *p, hr_tree_parent parent, const void *tree, int tag, void *buf,
                    size_t bytes);

/* ---- values ---------------------------------------------------------------------------------- */
/* out[i] = lo[i] op hi[i] for i < v->m, lo from the lower addresses; out may be lo or hi. */
void hr__vals_combine(const hr_values *v, const void *lo, const void *hi, void *out);
/* Processor p's out, m values from hr_malloc, set in v. */
void *hr__vals_out(hr_proc *p, hr_values *v);
/* The bytes of a processor's m values. */
static inline size_t hr__vals_bytes(const hr_values *v) { return v->m * 8; }

#endif
