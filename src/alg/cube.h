/* cube.h: the hypercube and the reduced hypercube RH(k,n) as seed 004's algorithms see them:
 * addresses and their fields, read from the machine's topology.
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

#include <hremu/hremu.h>

typedef struct hr_cube {
    int k;        /* BB dimensions (the hypercube: nu) */
    int n;        /* the RH's n (the hypercube: 0) */
    int D;        /* dimensions of the cube of BBs, 2^n (the hypercube: 0) */
    int nu;       /* address bits, k + D; p = 2^nu */
} hr_cube;

/* The machine's shape: rh K N gives (k, n, 2^n, k + 2^n); hypercube d gives (d, 0, 0, d).
 * Fails the run (hr_fail, naming call) on any other topology. */
hr_cube hr__cube_of(hr_proc *p, const char *call);

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

#endif
