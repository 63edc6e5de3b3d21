/* personalized.c: the collectives in which every block has one source and one destination:
 * transpose, alltoallv, gather, scatter, allgather.
 *
 * Each is one round of messages: processor i posts its blocks in the order i+1, i+2, ... (mod p)
 * and takes them in the order i-1, i-2, ..., so that in each "slot" every processor is the target
 * of exactly one message. Under the cost model the sends pipeline through the injection port and
 * arrivals never collide, so a transpose of b-byte blocks costs exactly
 *     tau + sigma*(p-1)*b            (+ overheads; seed 000 section 3, from [7])
 * and gather, scatter and allgather of b-byte blocks cost the same (the root's port, or every
 * port, carries (p-1)*b bytes). alltoallv costs tau + sigma * max(bytes out, bytes in) when the
 * blocks are equal, and follows the same formulas message by message when they are not.
 * Blocks to oneself are plain copies and cost nothing.
 */
#include "core/engine.h"

#include <string.h>

#include "coll/group.h"

static int proc_at(int me, int k, int n)
{
    return (int)(((long)me + k % n + n) % n);
}

/* Post every other member d its block, base + d * stride (stride 0: the same for all), in the
 * order me + 1, me + 2, ...: on the world as one batch where the engine can (no record a pair),
 * else a message each. lend: the receivers view the blocks in place. */
static void post_all(hr_proc *p, const hr_group *g, const void *base, size_t stride, size_t len,
                     int lend)
{
    if (g->pids == NULL && hr__coll_batch(p, base, stride, len, lend))
        return;
    int n = g->size, me = g->rank;
    for (int k = 1; k < n; k++) {
        int d = proc_at(me, k, n);
        const unsigned char *block = (const unsigned char *)base + (size_t)d * stride;
        if (lend)
            hr__coll_lend(p, hr__group_pid(g, d), block, len);
        else
            hr__coll_post(p, hr__group_pid(g, d), block, len);
    }
}

static void transpose(hr_proc *p, const hr_group *g, const void *send, void *recv, size_t block)
{
    int n = g->size, me = g->rank;
    const unsigned char *s = send;
    unsigned char *r = recv;
    post_all(p, g, send, block, block, 0);
    memcpy(r + (size_t)me * block, s + (size_t)me * block, block);
    hr__coll_await(p, n - 1);
    for (int k = 1; k < n; k++) {
        int src = proc_at(me, -k, n);
        hr__coll_take(p, hr__group_pid(g, src), r + (size_t)src * block, block);
    }
    hr__coll_complete(p);
}

void hr_transpose(hr_proc *p, const void *send, void *recv, size_t block)
{
    hr__group_begin(p, hr_world(p), "hr_transpose", NULL, -1);
    transpose(p, hr_world(p), send, recv, block);
    hr__coll_end(p);
}

void hr_group_transpose(hr_proc *p, const hr_group *g, const void *send, void *recv, size_t block)
{
    hr__group_begin(p, g, "hr_group_transpose", NULL, -1);
    transpose(p, g, send, recv, block);
    hr__coll_end(p);
}

/* As hr_transpose, costed the same, but nothing is copied: the blocks stay where they are and
 * view[k] points at processor k's (the caller's own too) until hr_view_end. */
void hr_transpose_view(hr_proc *p, const void *send, size_t block, const void **view)
{
    int n = hr_nprocs(p), me = hr_pid(p);
    const unsigned char *s = send;
    hr__group_begin(p, hr_world(p), "hr_transpose_view", NULL, -1);
    post_all(p, hr_world(p), send, block, block, 1);
    view[me] = s + (size_t)me * block;
    hr__coll_await(p, n - 1);
    for (int k = 1; k < n; k++) {
        int src = proc_at(me, -k, n);
        view[src] = hr__coll_view(p, src, block);
    }
    hr__coll_complete(p);
    hr__coll_end(p);
}

void hr_view_end(hr_proc *p)
{
    hr__view_end(p);
}

static void alltoallv(hr_proc *p, const hr_group *g, const void *send, const size_t *scounts,
                      const size_t *sdispls, void *recv, const size_t *rcounts,
                      const size_t *rdispls, size_t elem, const char *call)
{
    int n = g->size, me = g->rank;
    const unsigned char *s = send;
    unsigned char *r = recv;
    /* As MPI_Alltoallv: an empty block is no message, on both sides. */
    for (int k = 1; k < n; k++) {
        int d = proc_at(me, k, n);
        if (scounts[d] > 0)
            hr__coll_post(p, hr__group_pid(g, d), s + sdispls[d] * elem, scounts[d] * elem);
    }
    if (scounts[me] != rcounts[me])
        hr__misuse(p, "%s: %zu elements to self but %zu expected", call, scounts[me], rcounts[me]);
    memcpy(r + rdispls[me] * elem, s + sdispls[me] * elem, scounts[me] * elem);
    int blocks = 0;
    for (int src = 0; src < n; src++)
        blocks += src != me && rcounts[src] > 0;
    hr__coll_await(p, blocks);
    for (int k = 1; k < n; k++) {
        int src = proc_at(me, -k, n);
        if (rcounts[src] > 0)
            hr__coll_take(p, hr__group_pid(g, src), r + rdispls[src] * elem, rcounts[src] * elem);
    }
    hr__coll_complete(p);
}

void hr_alltoallv(hr_proc *p, const void *send, const size_t *scounts, const size_t *sdispls,
                  void *recv, const size_t *rcounts, const size_t *rdispls, size_t elem)
{
    hr__group_begin(p, hr_world(p), "hr_alltoallv", NULL, -1);
    alltoallv(p, hr_world(p), send, scounts, sdispls, recv, rcounts, rdispls, elem, "hr_alltoallv");
    hr__coll_end(p);
}

void hr_group_alltoallv(hr_proc *p, const hr_group *g, const void *send, const size_t *scounts,
                        const size_t *sdispls, void *recv, const size_t *rcounts,
                        const size_t *rdispls, size_t elem)
{
    hr__group_begin(p, g, "hr_group_alltoallv", NULL, -1);
    alltoallv(p, g, send, scounts, sdispls, recv, rcounts, rdispls, elem, "hr_group_alltoallv");
    hr__coll_end(p);
}

static void gather(hr_proc *p, const hr_group *g, int root, const void *send, void *recv,
                   size_t block)
{
    int n = g->size, me = g->rank;
    if (me != root) {
        hr__coll_post(p, hr__group_pid(g, root), send, block);
        hr__coll_complete(p);
        return;
    }
    unsigned char *r = recv;
    memcpy(r + (size_t)me * block, send, block);
    hr__coll_await(p, n - 1);
    for (int k = 1; k < n; k++) {
        int src = proc_at(me, k, n);
        hr__coll_take(p, hr__group_pid(g, src), r + (size_t)src * block, block);
    }
}

void hr_gather(hr_proc *p, int root, const void *send, void *recv, size_t block)
{
    hr__group_begin(p, hr_world(p), "hr_gather", "to", root);
    gather(p, hr_world(p), root, send, recv, block);
    hr__coll_end(p);
}

void hr_group_gather(hr_proc *p, const hr_group *g, int root, const void *send, void *recv,
                     size_t block)
{
    hr__group_begin(p, g, "hr_group_gather", "to", root);
    gather(p, g, root, send, recv, block);
    hr__coll_end(p);
}

static void scatter(hr_proc *p, const hr_group *g, int root, const void *send, void *recv,
                    size_t block)
{
    int n = g->size, me = g->rank;
    if (me != root) {
        hr__coll_take(p, hr__group_pid(g, root), recv, block);
        return;
    }
    const unsigned char *s = send;
    for (int k = 1; k < n; k++) {
        int d = proc_at(me, k, n);
        hr__coll_post(p, hr__group_pid(g, d), s + (size_t)d * block, block);
    }
    memcpy(recv, s + (size_t)me * block, block);
    hr__coll_complete(p);
}

void hr_scatter(hr_proc *p, int root, const void *send, void *recv, size_t block)
{
    hr__group_begin(p, hr_world(p), "hr_scatter", "from", root);
    scatter(p, hr_world(p), root, send, recv, block);
    hr__coll_end(p);
}

void hr_group_scatter(hr_proc *p, const hr_group *g, int root, const void *send, void *recv,
                      size_t block)
{
    hr__group_begin(p, g, "hr_group_scatter", "from", root);
    scatter(p, g, root, send, recv, block);
    hr__coll_end(p);
}

static void allgather(hr_proc *p, const hr_group *g, const void *send, void *recv, size_t block)
{
    int n = g->size, me = g->rank;
    unsigned char *r = recv;
    post_all(p, g, send, 0, block, 0);
    memcpy(r + (size_t)me * block, send, block);
    hr__coll_await(p, n - 1);
    for (int k = 1; k < n; k++) {
        int src = proc_at(me, -k, n);
        hr__coll_take(p, hr__group_pid(g, src), r + (size_t)src * block, block);
    }
    hr__coll_complete(p);
}

void hr_allgather(hr_proc *p, const void *send, void *recv, size_t block)
{
    hr__group_begin(p, hr_world(p), "hr_allgather", NULL, -1);
    allgather(p, hr_world(p), send, recv, block);
    hr__coll_end(p);
}

void hr_group_allgather(hr_proc *p, const hr_group *g, const void *send, void *recv, size_t block)
{
    hr__group_begin(p, g, "hr_group_allgather", NULL, -1);
    allgather(p, g, send, recv, block);
    hr__coll_end(p);
}

/* Dissemination among the members: in round k each sends a zero-byte message to the rank 2^k
 * ahead and takes one from the rank 2^k behind; ceil(lg n) rounds. */
void hr_group_barrier(hr_proc *p, const hr_group *g)
{
    hr__group_begin(p, g, "hr_group_barrier", NULL, -1);
    int n = g->size, me = g->rank;
    for (int d = 1; d < n; d <<= 1) {
        hr__coll_post(p, hr__group_pid(g, proc_at(me, d, n)), NULL, 0);
        hr__coll_take(p, hr__group_pid(g, proc_at(me, -d, n)), NULL, 0);
        hr__coll_complete(p);
    }
    hr__coll_end(p);
}
