/* reduce.c: reduction of m values to a root on the hypercube and on the reduced hypercube
 * (seed 004 chapter 3), with the workload's op (sum, max or min).
 *
 * Both use the many-to-one mapping of a binary tree onto a cube (sec. 3.1, after Kumar et al.):
 * the root's left child is itself and its right child differs in the highest bit, and so on
 * down, so that the leaves are the nodes in order. The text's rule is garbled ("inverting bit
 * p j + 1"); the reading that makes "the leaves are consecutively numbered" true is: a node at
 * depth j has its right child across bit p - j (p the highest bit). Reduction runs it leaves
 * first: across bit 0, then bit 1, ... The tree is translated by xor with the root (a symmetry
 * of the hypercube, of each BB, and of the cube of BBs). Each combination is the lower
 * address's values (in the translated order) then the higher's, m units of work. */
#include "alg/seed004.h"

#include <string.h>

#include "alg/cube.h"

#define TAG_IN 1       /* inside a BB (or the hypercube) */
#define TAG_BB 16      /* + the dimension of the cube of BBs */

/* Reduce acc over dimensions 0 .. dims-1 of y = x ^ a (only those bits of x): after it, the
 * node with y's low dims bits zero holds the op of its 2^dims block. Returns nonzero if the
 * caller sent its values away (and is done). */
static int cube_reduce(hr_proc *p, const hr_values *v, int a, int dims, void *acc, void *tmp)
{
    int me = hr_pid(p), y = me ^ a;
    size_t bytes = hr__vals_bytes(v);
    for (int j = 0; j < dims; j++) {
        if ((y >> j) & 1) {
            hr_send(p, me ^ (1 << j), TAG_IN, acc, bytes);
            return 1;
        }
        hr_recv(p, me ^ (1 << j), TAG_IN, tmp, bytes, NULL);
        hr_compute(p, (double)v->m);
        hr__vals_combine(v, acc, tmp, acc);
    }
    return 0;
}

static void finish(hr_proc *p, hr_values *v, const void *acc)
{
    if (hr_pid(p) == v->root)
        memcpy(hr__vals_out(p, v), acc, hr__vals_bytes(v));
    if (hr_pid(p) == 0)
        v->goal = HR_GOAL_REDUCE;
}

void hr_alg_reduce_binomial(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_values *v = inst;
    hr_cube c = hr__cube_of(p, "reduce.binomial");
    void *acc = hr_malloc(p, hr__vals_bytes(v)), *tmp = hr_malloc(p, hr__vals_bytes(v));
    memcpy(acc, v->in[hr_pid(p)], hr__vals_bytes(v));
    cube_reduce(p, v, v->root, c.nu, acc, tmp);
    finish(p, v, acc);
}

/* Sec. 3.1 on RH(k,n), root r: the mapping inside each k-cube BB to the node a0 = r's low k
 * bits, then the mapping of a (2^n + 1)-level tree onto the 2^n-cube of BBs (translated by r's
 * BB). A BB-level edge across dimension i joins the a0 nodes of two BBs through the SB that
 * holds that dimension's links: at most n hops to it, the link, and at most n hops back (the
 * thesis's "dilation of at most 2n + 1"); the nodes on the way pass the values on. */
void hr_alg_reduce_rh_tree(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_values *v = inst;
    hr_cube c = hr__cube_rh(p, "reduce.rh_tree");
    int me = hr_pid(p);
    size_t bytes = hr__vals_bytes(v);
    void *acc = hr_malloc(p, bytes), *tmp = hr_malloc(p, bytes);
    memcpy(acc, v->in[me], bytes);
    int a0 = v->root & ((1 << c.k) - 1), b0 = hr__cube_bb(&c, v->root);
    cube_reduce(p, v, a0, c.k, acc, tmp);
    int b = hr__cube_bb(&c, me), t = b ^ b0, path[HR_CUBE_MAX_PATH];
    for (int i = 0; i < c.D; i++) {
        if (t & ((1 << i) - 1))
            break;                               /* this BB sent its values at a lower level */
        int sender = (t >> i) & 1;
        int from = hr__cube_node(&c, sender ? b : b ^ (1 << i), 0, 0) | a0;
        int len = hr__cube_path(&c, from, i, path);
        int q = hr__cube_carry(p, path, len, TAG_BB + i, me == from ? acc : tmp, bytes);
        if (q == len - 1) {
            hr_compute(p, (double)v->m);
            hr__vals_combine(v, acc, tmp, acc);
        }
        if (sender)
            break;
    }
    finish(p, v, acc);
}
