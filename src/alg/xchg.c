/* xchg.c: the four complete exchanges of seed 001 sec. 3, each processor running the paper's
 * figure for itself on the exchange workload (work/exchange.h): processor me sends block j of
 * its input to j and ends with out[me], block i from i.
 *
 * The order of a pair's send and receive is the figures': the lower number receives first, the
 * higher sends first, so that an exchange completes under rendezvous (discipline sync, CMMD's
 * only mode in 1992) without deadlock. LEX has no pairs: in its step s every processor sends to
 * s, which receives from 0, 1, ... in turn, so under sync the senders queue (sec. 3.1's
 * "synchronous communication will adversely affect the performance"). */
#include "alg/seed001.h"

#include <stdio.h>
#include <string.h>

#include "alg/sched.h"
#include "work/exchange.h"

#define TAG_XCHG 11

/* One step of a pairwise schedule (Figures 2 and 4): exchange blocks with node. */
static void pair_step(hr_proc *p, const uint8_t *send, uint8_t *recv, size_t block, int node)
{
    int me = hr_pid(p);
    const uint8_t *mine = send + (size_t)node * block;
    uint8_t *theirs = recv + (size_t)node * block;
    if (me < node) {
        hr_recv(p, node, TAG_XCHG, theirs, block, NULL);
        hr_send(p, node, TAG_XCHG, mine, block);
    } else {
        hr_send(p, node, TAG_XCHG, mine, block);
        hr_recv(p, node, TAG_XCHG, theirs, block, NULL);
    }
}

/* LEX (sec. 3.1, Table 1): N steps; in step s processor s receives from every other processor,
 * in increasing order, and every other processor sends it its block. */
static void lex(hr_proc *p, const uint8_t *send, uint8_t *recv, size_t block)
{
    int me = hr_pid(p), np = hr_nprocs(p);
    for (int s = 0; s < np; s++) {
        if (s != me) {
            hr_send(p, s, TAG_XCHG, send + (size_t)s * block, block);
            continue;
        }
        for (int j = 0; j < np; j++)
            if (j != me)
                hr_recv(p, j, TAG_XCHG, recv + (size_t)j * block, block, NULL);
    }
}

/* me's partner in step j of BEX (balanced) or PEX; -1: none (idle, or past the last step). */
static int partner(int balanced, int np, int j, int me)
{
    return balanced ? hr__sched_bex_partner(np, j, me) : hr__sched_pex_partner(np, j, me);
}

/* PEX (sec. 3.2, Figure 2, Table 2): in step j = 1 .. N-1 exchange with me XOR j; BEX (sec.
 * 3.4, Figure 4, Table 4): the same on the virtual numbers (me + 1) mod N. For p not a power of
 * two, sched.h's partners extend both (a step whose partner is past p is idle). */
static void pairwise(hr_proc *p, const uint8_t *send, uint8_t *recv, size_t block, int balanced)
{
    int me = hr_pid(p), np = hr_nprocs(p), span = hr__sched_span(np);
    int next = partner(balanced, np, 1, me);
    for (int j = 1; j < span; j++) {
        int node = next;
        next = partner(balanced, np, j + 1, me);
        if (next >= 0) {
            /* The next step's blocks, while this one waits for its partner: between a
             * processor's steps the others run, and its lines leave the caches (fibers). */
            __builtin_prefetch(send + (size_t)next * block);
            __builtin_prefetch(recv + (size_t)next * block, 1);
        }
        if (node >= 0)
            pair_step(p, send, recv, block, node);
    }
}

/* REX (sec. 3.3, Figure 3, Table 3): lg N steps, each exchanging N/2 blocks (n N / 2 bytes) with
 * the partner across one bit, highest bit first, store and forward. The reshuffling: slot j of
 * a processor's buffer holds the block from me ^ (j & M) to me ^ (j & ~M), M the bits done. At
 * the step of bit b the slots with bit b set hold the blocks whose destination differs from me
 * in b; the partner's same slots hold exactly the blocks that belong in them afterwards (slot j
 * of me ^ b: from me ^ (j & M'), to me ^ (j & ~M'), M' = M | b). So a step packs the slots with
 * bit b set, in order, sends them, and unpacks what comes back into the same slots; at the end
 * slot j holds the block from me ^ j. Packing and unpacking are charged one hr_compute unit a
 * byte copied (a memory copy; our constant, not the paper's). Figure 3 is for N a power of two,
 * and so is this: other p fail the run with the reason. */
int hr_alg_xchg_rex_check(const double *params, int procs, const char *topology, char *why,
                          size_t whylen)
{
    (void)params;
    (void)topology;
    if ((procs & (procs - 1)) != 0) {
        snprintf(why, whylen, "xchg.rex needs p a power of two (seed 001 Figure 3), not %d",
                 procs);
        return HR_EINVAL;
    }
    return HR_OK;
}

static void rex(hr_proc *p, const uint8_t *send, uint8_t *recv, size_t block)
{
    int np = hr_nprocs(p), me = hr_pid(p);
    size_t half = (size_t)(np / 2) * block;
    if ((np & (np - 1)) != 0) {
        hr_fail(p, "xchg.rex needs p a power of two (seed 001 Figure 3), not %d", np);
        return;
    }
    uint8_t *buf = hr_malloc(p, (size_t)np * block);
    uint8_t *pack = hr_malloc(p, half ? half : 1), *unpack = hr_malloc(p, half ? half : 1);
    for (int j = 0; j < np; j++)
        memcpy(buf + (size_t)j * block, send + (size_t)(me ^ j) * block, block);
    for (int step = 0; (1 << step) < np; step++) {
        int node = hr__sched_rex_partner(np, step, me), b = node ^ me;
        size_t at = 0;
        for (int j = 0; j < np; j++)
            if (j & b) {
                memcpy(pack + at, buf + (size_t)j * block, block);
                at += block;
            }
        /* Figure 3's order, charged as it is written (the lower packs and sends first, the
         * higher receives and unpacks first); the copy into pack is made first here only so
         * that unpacking cannot overwrite a slot still to be sent. */
        if (me < node) {
            hr_compute(p, (double)half);
            hr_send(p, node, TAG_XCHG, pack, half);
            hr_recv(p, node, TAG_XCHG, unpack, half, NULL);
            hr_compute(p, (double)half);
        } else {
            hr_recv(p, node, TAG_XCHG, unpack, half, NULL);
            hr_compute(p, 2.0 * (double)half);
            hr_send(p, node, TAG_XCHG, pack, half);
        }
        at = 0;
        for (int j = 0; j < np; j++)
            if (j & b) {
                memcpy(buf + (size_t)j * block, unpack + at, block);
                at += block;
            }
    }
    for (int j = 0; j < np; j++)
        if ((me ^ j) != me)
            memcpy(recv + (size_t)(me ^ j) * block, buf + (size_t)j * block, block);
    hr_free(p, buf);
    hr_free(p, pack);
    hr_free(p, unpack);
}

void hr__xchg(hr_proc *p, hr_xchg_alg alg, const void *send, void *recv, size_t block)
{
    int me = hr_pid(p);
    if (alg == HR_XCHG_SYSTEM) {
        hr_transpose(p, send, recv, block);
        return;
    }
    memcpy((uint8_t *)recv + (size_t)me * block, (const uint8_t *)send + (size_t)me * block, block);
    switch (alg) {
    case HR_XCHG_SYSTEM: break;
    case HR_XCHG_LEX: lex(p, send, recv, block); break;
    case HR_XCHG_PEX: pairwise(p, send, recv, block, 0); break;
    case HR_XCHG_REX: rex(p, send, recv, block); break;
    case HR_XCHG_BEX: pairwise(p, send, recv, block, 1); break;
    }
}

/* The exchange workload's processor me: out[me] from in[me]. */
static void on_workload(hr_proc *p, void *inst, hr_xchg_alg alg)
{
    hr_exchange *x = inst;
    int me = hr_pid(p);
    uint8_t *out = hr_malloc(p, (size_t)x->p * x->bytes);
    hr__xchg(p, alg, x->in[me], out, x->bytes);
    x->out[me] = out;
    x->done[me] = 1;
}

void hr_alg_xchg_lex(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    on_workload(p, inst, HR_XCHG_LEX);
}

void hr_alg_xchg_pex(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    on_workload(p, inst, HR_XCHG_PEX);
}

void hr_alg_xchg_rex(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    on_workload(p, inst, HR_XCHG_REX);
}

void hr_alg_xchg_bex(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    on_workload(p, inst, HR_XCHG_BEX);
}

void hr_alg_xchg_system(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    on_workload(p, inst, HR_XCHG_SYSTEM);
}
