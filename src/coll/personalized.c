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
#include "core/core.h"

#include <string.h>

static int proc_at(int me, int k, int n)
{
    return (int)(((long)me + k % n + n) % n);
}

void hr_transpose(hr_proc *p, const void *send, void *recv, size_t block)
{
    int n = hr_nprocs(p), me = hr_pid(p);
    const unsigned char *s = send;
    unsigned char *r = recv;
    hr__coll_begin(p, "hr_transpose");
    for (int k = 1; k < n; k++) {
        int d = proc_at(me, k, n);
        hr__coll_post(p, d, s + (size_t)d * block, block);
    }
    memcpy(r + (size_t)me * block, s + (size_t)me * block, block);
    hr__coll_await(p, n - 1);
    for (int k = 1; k < n; k++) {
        int src = proc_at(me, -k, n);
        hr__coll_take(p, src, r + (size_t)src * block, block);
    }
    hr__coll_complete(p);
}

/* As hr_transpose, costed the same, but nothing is copied: the blocks stay where they are and
 * view[k] points at processor k's (the caller's own too) until hr_view_end. */
void hr_transpose_view(hr_proc *p, const void *send, size_t block, const void **view)
{
    int n = hr_nprocs(p), me = hr_pid(p);
    const unsigned char *s = send;
    hr__coll_begin(p, "hr_transpose_view");
    for (int k = 1; k < n; k++) {
        int d = proc_at(me, k, n);
        hr__coll_lend(p, d, s + (size_t)d * block, block);
    }
    view[me] = s + (size_t)me * block;
    hr__coll_await(p, n - 1);
    for (int k = 1; k < n; k++) {
        int src = proc_at(me, -k, n);
        view[src] = hr__coll_view(p, src, block);
    }
    hr__coll_complete(p);
}

void hr_view_end(hr_proc *p)
{
    hr__view_end(p);
}

void hr_alltoallv(hr_proc *p, const void *send, const size_t *scounts, const size_t *sdispls,
                  void *recv, const size_t *rcounts, const size_t *rdispls, size_t elem)
{
    int n = hr_nprocs(p), me = hr_pid(p);
    const unsigned char *s = send;
    unsigned char *r = recv;
    hr__coll_begin(p, "hr_alltoallv");
    /* As MPI_Alltoallv: an empty block is no message, on both sides. */
    for (int k = 1; k < n; k++) {
        int d = proc_at(me, k, n);
        if (scounts[d] > 0)
            hr__coll_post(p, d, s + sdispls[d] * elem, scounts[d] * elem);
    }
    if (scounts[me] != rcounts[me])
        hr_fail(p, "hr_alltoallv: %zu elements to self but %zu expected", scounts[me], rcounts[me]);
    memcpy(r + rdispls[me] * elem, s + sdispls[me] * elem, scounts[me] * elem);
    int blocks = 0;
    for (int src = 0; src < n; src++)
        blocks += src != me && rcounts[src] > 0;
    hr__coll_await(p, blocks);
    for (int k = 1; k < n; k++) {
        int src = proc_at(me, -k, n);
        if (rcounts[src] > 0)
            hr__coll_take(p, src, r + rdispls[src] * elem, rcounts[src] * elem);
    }
    hr__coll_complete(p);
}

void hr_gather(hr_proc *p, int root, const void *send, void *recv, size_t block)
{
    int n = hr_nprocs(p), me = hr_pid(p);
    hr__coll_check_root(p, root, "hr_gather");
    hr__coll_begin(p, "hr_gather to root %d", root);
    if (me != root) {
        hr__coll_post(p, root, send, block);
        hr__coll_complete(p);
        return;
    }
    unsigned char *r = recv;
    memcpy(r + (size_t)me * block, send, block);
    hr__coll_await(p, n - 1);
    for (int k = 1; k < n; k++) {
        int src = proc_at(me, k, n);
        hr__coll_take(p, src, r + (size_t)src * block, block);
    }
}

void hr_scatter(hr_proc *p, int root, const void *send, void *recv, size_t block)
{
    int n = hr_nprocs(p), me = hr_pid(p);
    hr__coll_check_root(p, root, "hr_scatter");
    hr__coll_begin(p, "hr_scatter from root %d", root);
    if (me != root) {
        hr__coll_take(p, root, recv, block);
        return;
    }
    const unsigned char *s = send;
    for (int k = 1; k < n; k++) {
        int d = proc_at(me, k, n);
        hr__coll_post(p, d, s + (size_t)d * block, block);
    }
    memcpy(recv, s + (size_t)me * block, block);
    hr__coll_complete(p);
}

void hr_allgather(hr_proc *p, const void *send, void *recv, size_t block)
{
    int n = hr_nprocs(p), me = hr_pid(p);
    unsigned char *r = recv;
    hr__coll_begin(p, "hr_allgather");
    for (int k = 1; k < n; k++)
        hr__coll_post(p, proc_at(me, k, n), send, block);
    memcpy(r + (size_t)me * block, send, block);
    hr__coll_await(p, n - 1);
    for (int k = 1; k < n; k++) {
        int src = proc_at(me, -k, n);
        hr__coll_take(p, src, r + (size_t)src * block, block);
    }
    hr__coll_complete(p);
}
