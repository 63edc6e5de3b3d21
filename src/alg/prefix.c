/* prefix.c: inclusive prefix of m values a processor, in address order, on the hypercube and on
 * the reduced hypercube (seed 004 chapter 4), with the workload's op.
 *
 * The hypercube's is the algorithm the thesis starts from (sec. 4.1, after Kumar et al.): each
 * node keeps rslt and msg; in step i it swaps msg with its neighbour across dimension i, adds
 * what it got to msg, and to rslt if it came from below. nu steps. */
#include "alg/seed004.h"

#include <string.h>

#include "alg/cube.h"

#define TAG_CUBE 1
#define TAG_BB   2      /* + the transfer's index in Phase II's plan */

/* Sec. 4.1 over dimensions 0 .. dims-1: rslt becomes x's prefix inside its aligned block of
 * 2^dims nodes, msg the block's total. */
static void cube_prefix(hr_proc *p, const hr_values *v, int dims, void *rslt, void *msg, void *tmp)
{
    int me = hr_pid(p);
    size_t bytes = hr__vals_bytes(v);
    for (int i = 0; i < dims; i++) {
        int peer = me ^ (1 << i);
        hr_sendrecv(p, peer, TAG_CUBE, msg, bytes, peer, TAG_CUBE, tmp, bytes, NULL);
        if (peer < me) {
            hr_compute(p, 2.0 * (double)v->m);
            hr__vals_combine(v, tmp, rslt, rslt);
            hr__vals_combine(v, tmp, msg, msg);
        } else {
            hr_compute(p, (double)v->m);
            hr__vals_combine(v, msg, tmp, msg);
        }
    }
}

void hr_alg_prefix_hypercube(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_values *v = inst;
    hr_cube c = hr__cube_of(p, "prefix.hypercube");
    size_t bytes = hr__vals_bytes(v);
    void *rslt = hr__vals_out(p, v), *msg = hr_malloc(p, bytes), *tmp = hr_malloc(p, bytes);
    memcpy(rslt, v->in[hr_pid(p)], bytes);
    memcpy(msg, rslt, bytes);
    cube_prefix(p, v, c.nu, rslt, msg, tmp);
    if (hr_pid(p) == 0) {
        v->goal = HR_GOAL_PREFIX;
        v->split = 0;
    }
}

/* ---- the RH: Phase II's plan ----------------------------------------------------------------
 * Sec. 4.2: "for i = 0 to 2^n - 1: each BB which has ones in bit positions 0, 1, ..., i of its
 * address receives the prefix value from the BB whose address differs only in bit position i",
 * and a BB that received from the BB 2^m away passes the value on "to the BB's which are
 * labeled 2^0, 2^1, ..., and 2^(m-1) lower than themselves". Read with its count, "1 + 2 + 3 +
 * ... + 2^n" substeps (step i: the direct transfer and i more), the passing on is a binomial
 * tree: each BB sends to 2^(m-1) lower first, then 2^(m-2), ..., 2^0, one a substep, and each
 * receiver does the same with its own m; in the listed order (2^0 first) step i would take
 * 2i substeps, not i + 1. What a BB sends in the loop is the total of its aligned block of 2^i
 * BBs (the block's last BB holds it: it received the lower half's in the step before); what it
 * passes on is the value it received in this step. */

typedef struct holder {
    int bb, m, sent;
} holder;

int hr__rh_prefix_plan(int D, hr_rh_xfer *out, int cap, int *substeps)
{
    if (D < 1 || D > 10)
        return -1;
    int nx = 0, sub = 0, nb = 1 << D;
    holder hold[1 << 10];
    for (int i = 0; i < D; i++) {
        int mask = (1 << (i + 1)) - 1, nh = 0;
        sub++;
        for (int b = 0; b < nb; b++)
            if ((b & mask) == mask) {
                if (nx == cap)
                    return -1;
                out[nx++] = (hr_rh_xfer){ sub, b ^ (1 << i), b, i, 1 };
                hold[nh++] = (holder){ b, i, 0 };
            }
        for (int t = 1; t <= i; t++) {
            sub++;
            int before = nh;
            for (int h = 0; h < before; h++) {
                if (hold[h].sent == hold[h].m)
                    continue;
                int dim = hold[h].m - 1 - hold[h].sent++;
                if (nx == cap)
                    return -1;
                out[nx++] = (hr_rh_xfer){ sub, hold[h].bb, hold[h].bb ^ (1 << dim), dim, 0 };
                hold[nh++] = (holder){ hold[h].bb ^ (1 << dim), dim, 0 };
            }
        }
    }
    /* Senders in increasing order within a substep: the loop above appends in holder order. */
    for (int a = 1; a < nx; a++)
        for (int j = a; j > 0 && out[j - 1].sub == out[j].sub && out[j - 1].from > out[j].from;
             j--) {
            hr_rh_xfer x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    *substeps = sub;
    return nx;
}

/* Phase III's forest: in every BB but 0, the binomial tree of its k-cube rooted at its
 * collector, node 2^k - 1 of the BB. */
static int collector_parent(const void *tree, int x)
{
    const hr_cube *c = tree;
    int ones = (1 << c->k) - 1, y = (x & ones) ^ ones;
    return hr__cube_bb(c, x) == 0 || y == 0 ? -1 : ((y & (y - 1)) ^ ones) | (x & ~ones);
}

/* Sec. 4 on RH(k,n):
 *  Phase I: sec. 4.1 inside each k-cube BB (k steps): rslt is x's prefix in its BB, msg the
 *    BB's total, at every node of the BB.
 *  Phase II: the plan above between BBs. Each BB's values are gathered at its node 2^k - 1, the
 *    "collector" (all low k bits ones); a transfer between BBs runs from collector to collector
 *    through the SB of its dimension (hr__cube_path: 2 (n - popcount(dim)) + 1 steps, the node
 *    2^k - 1 being in SB 2^n - 1). The collector keeps S, its aligned block's total (at first
 *    msg), and E, the op of every BB below its own, which each value received is put in front of
 *    (it comes from lower BBs than any before it).
 *  Phase III (the end of sec. 4.2): the collector broadcasts E inside its BB (a binomial tree
 *    rooted at it, k steps) and every node's prefix is E op rslt. BB 0 has nothing below it. */
void hr_alg_prefix_rh(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_values *v = inst;
    hr_cube c = hr__cube_rh(p, "prefix.rh");
    int me = hr_pid(p), ones = (1 << c.k) - 1;
    size_t bytes = hr__vals_bytes(v);
    void *rslt = hr__vals_out(p, v), *msg = hr_malloc(p, bytes), *tmp = hr_malloc(p, bytes);
    void *val = hr_malloc(p, bytes), *e = hr_malloc(p, bytes);
    memcpy(rslt, v->in[me], bytes);
    memcpy(msg, rslt, bytes);
    cube_prefix(p, v, c.k, rslt, msg, tmp);

    /* Of the plan, this node keeps the transfers of its BB, each with its place j (its tag). The
     * whole plan (D 2^(D-1) transfers, 20 KiB at D = 8) is made and dropped before anything is
     * sent: on fibers, one whole plan exists at a time a carrier, not one a processor. */
    int cap = c.D << (c.D - 1), subs, path[HR_CUBE_MAX_PATH], has_e = 0, bb = hr__cube_bb(&c, me);
    hr_rh_xfer *plan = hr_malloc(p, (size_t)cap * sizeof *plan);
    int nx = hr__rh_prefix_plan(c.D, plan, cap, &subs), mine = 0;
    for (int j = 0; j < nx; j++)
        mine += plan[j].from == bb || plan[j].to == bb;
    struct { int j; hr_rh_xfer x; } *own = hr_malloc(p, (size_t)(mine + 1) * sizeof *own);
    mine = 0;
    for (int j = 0; j < nx; j++)
        if (plan[j].from == bb || plan[j].to == bb) {
            own[mine].j = j;
            own[mine++].x = plan[j];
        }
    hr_free(p, plan);
    for (int i = 0; i < mine; i++) {
        const hr_rh_xfer *x = &own[i].x;
        int j = own[i].j;
        int from = hr__cube_node(&c, x->from, 0, 0) | ones;
        int len = hr__cube_path(&c, from, x->dim, path);
        void *buf = me == from ? (x->direct ? msg : val) : tmp;
        if (hr__cube_carry(p, path, len, TAG_BB + j, buf, bytes) != len - 1)
            continue;
        memcpy(val, tmp, bytes);                   /* the value of this step, to pass on */
        hr_compute(p, (double)v->m * (has_e + x->direct));
        if (has_e)
            hr__vals_combine(v, val, e, e);
        else
            memcpy(e, val, bytes);
        has_e = 1;
        if (x->direct)
            hr__vals_combine(v, val, msg, msg);   /* S: the block grows downwards */
    }

    /* Phase III: E from the collector to its BB, a binomial tree rooted at it. */
    hr__tree_bcast(p, collector_parent, &c, TAG_CUBE, e, bytes);
    if (hr__cube_bb(&c, me) != 0) {
        hr_compute(p, (double)v->m);
        hr__vals_combine(v, e, rslt, rslt);
    }
    if (me == 0) {
        v->goal = HR_GOAL_PREFIX;
        v->split = c.k;
    }
}
