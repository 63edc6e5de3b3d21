/* p2p.c: the point-to-point engine: hr_send, hr_recv, hr_probe, and the borrowed-buffer
 * messages the collectives are built from. The formulas are those of docs/model.md:
 *
 *   send of m bytes at clock t to d:  s = max(t, out_free); out_free = s + sigma*m;
 *                                     a = s + tau + hops(me, d)*hop; clock = t + overhead
 *   receive of that message:          r = max(a, in_free) + sigma*m;  in_free = r;
 *                                     clock = max(clock, r) + overhead
 *   (cost model bdm; the machine's cost model says s, out_free, the clocks, r and in_free:
 *   net/cost_model.c, whose lead is tau here)
 *   rendezvous (sync): the transfer starts at s = max(issue time, receive post time), and the
 *   sender's clock becomes max(its clock, r) + overhead.
 *   a message to oneself crosses no network: a = s, no port time.
 *
 * Receives from a named source take that source's messages in sending order, so they need no
 * knowledge of other processors. Receives from ANY return the message with the least
 * (arrival, source, sequence); one is safe to return once every other processor's published clock
 * plus tau exceeds its arrival (no message sent later can arrive earlier). If that never becomes
 * true by itself, the resolver of wait.c grants it at quiescence.
 */
#include "core/core.h"

#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sync.h"

static hr_time latency(const hr_proc *p, int peer)
{
    return hr__net_latency(p->m->net, &p->m->cost, p->id, peer);
}

/* Are rendezvous and collective blocks routed here in canonical order (a topology with links:
 * transit.c)? Asked where the receive side works differently then: a rendezvous' transfer is
 * committed when found, and a collective may await its blocks at once. */
static int routed_here(const hr_proc *p)
{
    return hr__transit_on(p->m);
}

/* Name msg as p's next message to dest. It goes out in p's next communication step: a step is
 * one message from each processor, so a processor's sends are steps one after another, and a
 * message received in step s can be passed on in step s + 1 at the earliest (took). The largest
 * step any processor reaches is the run's steps (docs/model.md, "Communication steps"); a message
 * to oneself crosses no link and takes no step. */
static void number(hr_proc *p, hr_msg *msg, int dest)
{
    msg->src = p->id;
    msg->dst = dest;
    msg->seq = p->seq++;
    msg->step = dest != p->id ? ++p->step : p->step;
}

/* p has received msg: what it does next comes after msg's step. */
static void took(hr_proc *p, const hr_msg *msg)
{
    if (msg->step > p->step)
        p->step = msg->step;
}

/* Stamp msg as sent now by p to dest with async costs, as the cost model charges them (its
 * injection, the sender's port and clock after it); a message to oneself is injected at once
 * and costs the overhead. On a topology with links its arrival is decided later, in canonical
 * order (transit.c). */
static void stamp_async(hr_proc *p, hr_msg *msg, int dest)
{
    hr_time s = p->clock, clock = hr__tadd(p->clock, p->m->cost.overhead);
    if (dest != p->id) {
        hr_cm_send x = hr__cm_send(p->m->cm, &p->m->cost, p->clock, p->out_free, msg->len);
        s = x.inject;
        clock = x.clock;
        p->out_free = x.port;
        p->msgs_out++;
        p->bytes_out += msg->len;
    }
    number(p, msg, dest);
    msg->sent = s;
    hr__ev_send(p, msg, s, dest != p->id ? p->out_free : s);
    hr__transit_stamp(p, msg);
    p->clock = clock;
}

static void deliver(hr_proc *p, int dest, hr_msg *msg)
{
    hr_proc *q = &p->m->procs[dest];
    /* A message whose arrival is left to routing is routed only once it is in the queue, as
     * the receiver's parking relies on (transit.c). Asked before: once in the queue, a routed
     * message may be taken and freed at any time. */
    int unrouted = !atomic_load_explicit(&msg->routed, memory_order_relaxed);
    if (p->m->serial && q != p)          /* nobody else runs: straight into q's lists */
        hr__mbox_put_serial(&q->box, msg);
    else
        hr__mbox_put(&q->box, msg);
    hr__wake_for(q, p->id);
    if (unrouted)
        hr__transit_submit(p, msg);
}

/* After a send is published: route what the new clock lets be routed. */
static void after_send(hr_proc *p, hr_time before)
{
    hr__transit_sent(p, before);
}

/* A receive being found and taken (recv_ready, take). */
typedef struct recv_ctx {
    int     src, tag;
    int     probe;         /* hr_probe: finds, takes nothing (a rendezvous is not begun) */
    int     none;          /* bounded lookups: decided that nothing is in by the clock */
    hr_time post;          /* clock when the receive was posted */
    hr_msg *msg, *prev;    /* the message found */
    int     laned;         /* msg was put aside for it as it slept (mailbox.h: the lane) */
    int     direct;        /* hr_recv's (p->rx_*): a sender may complete it (send_direct) */
} recv_ctx;

static hr_time absorb_msg(hr_proc *p, const hr_msg *msg, hr_time post);

/* ---- sending ------------------------------------------------------------------------------ */

static int taken_ready(hr_proc *p, void *ctx)
{
    (void)p;
    hr_msg *msg = ctx;
    hr__proc_event(p, HR_TIME_INF);
    return atomic_load_explicit(&msg->taken, memory_order_acquire) != 0;
}

/* Records of borrowed messages come from slabs of the sender's memory, kept for the run and
 * reused, as requests are: a collective that posts a block to every other processor holds p - 1
 * records at once, 128 bytes each, with no allocation header or malloc chunk of their own
 * (176 bytes a record before, 27 % of hrel.direct's peak at p = 4096). */
enum { MSG_SLAB = 64 };

/* A message that borrows buf (SYNC, REF, LEND): it lives in p's memory until its sender is
 * done (unborrow). */
static hr_msg *borrowed(hr_proc *p, uint8_t kind, int tag, const void *buf, size_t len)
{
    if (p->msg_free == NULL) {
        hr_msg *slab = hr__alloc(&p->mem, MSG_SLAB * sizeof *slab);
        if (slab == NULL)
            hr_fail(p, "out of memory for a message");
        for (int i = 0; i < MSG_SLAB; i++)
            slab[i].next = i + 1 < MSG_SLAB ? &slab[i + 1] : NULL;
        p->msg_free = slab;
    }
    hr_msg *msg = p->msg_free;
    p->msg_free = msg->next;
    memset(msg, 0, sizeof *msg);
    msg->kind = kind;
    msg->tag = tag;
    msg->len = len;
    msg->data = buf;
    return msg;
}

static void unborrow(hr_proc *p, hr_msg *msg)
{
    msg->next = p->msg_free;
    p->msg_free = msg;
}

/* Post a rendezvous message; it is done when its receiver takes it (sync_finish). open: the
 * sender receives before it waits for it, and so may not park until its transfer is submitted
 * (transit.c). */
static hr_msg *sync_post(hr_proc *p, int dest, int tag, const void *buf, size_t len, int open)
{
    hr_msg *msg = borrowed(p, HR_MSG_SYNC, tag, buf, len);
    msg->sent = hr__max(p->clock, p->out_free);
    msg->issued = msg->sent;
    if (dest != p->id) {
        p->msgs_out++;
        p->bytes_out += len;
    }
    number(p, msg, dest);
    atomic_store_explicit(&msg->routed, 1, memory_order_relaxed);
    /* Its sender goes on (receives, computes) and publishes later clocks while the transfer is
     * not submitted yet: routing must not pass its key meanwhile (transit.c). */
    if (open)
        hr__transit_open(p, msg);
    deliver(p, dest, msg);
    return msg;
}

static void sync_finish(hr_proc *p, hr_msg *msg, const char *call)
{
    hr_wait_desc d = { HR_WAIT_SYNC_SEND, msg->dst, msg->tag, msg->len, call, 0 };
    hr__wait(p, &d, taken_ready, msg);
    /* A rendezvous whose receiver was not ready when it was issued stalled its sender until the
     * receive was posted (docs/model.md, "Stalls"). */
    if (msg->start > msg->issued) {
        p->stalls++;
        hr__ev_stall(p, msg->dst, msg->seq, msg->len, msg->tag, msg->issued, msg->start);
    }
    hr__ev_send(p, msg, msg->sent, msg->done);
    p->clock = hr__tadd(hr__max(p->clock, msg->done), p->m->cost.overhead);
    unborrow(p, msg);
    hr__proc_publish(p);
}

/* Records of small copied messages (at most COPY_SMALL bytes kept) all have room for
 * COPY_SMALL, and the receiver keeps up to COPY_KEEP of those it takes, for its own next sends:
 * a processor that sends about as much as it receives (an exchange) then allocates nothing.
 * Through malloc, whose per-thread cache holds 7 chunks of a size, the rest went through its
 * bins: a free and a malloc were 130 instructions of xchg.pex's 1,600 a message on fibers. At
 * most COPY_KEEP * 144 bytes a processor stay kept until the run ends (hr__p2p_reset). */
enum { COPY_SMALL = 16, COPY_KEEP = 4 };

/* The records p keeps for its sends (a list): take the last one kept (there is one), or keep
 * one more. */
static hr_msg *unkeep(hr_proc *p)
{
    hr_msg *msg = p->copy_free;
    p->copy_free = msg->next;
    p->ncopy_free--;
    return msg;
}

static void keep(hr_proc *p, hr_msg *msg)
{
    msg->next = p->copy_free;
    p->copy_free = msg;
    p->ncopy_free++;
}

static hr_msg *copy_record(hr_proc *p, size_t kept)
{
    if (kept > COPY_SMALL)
        return malloc(sizeof(hr_msg) + kept);
    if (p->copy_free == NULL)
        return malloc(sizeof(hr_msg) + COPY_SMALL);
    return unkeep(p);
}

/* p took msg, a copied message, and is done with it. */
static void copy_done(hr_proc *p, hr_msg *msg)
{
    if (hr__kept(p->m, msg->len) <= COPY_SMALL && p->ncopy_free < COPY_KEEP)
        keep(p, msg);
    else
        free(msg);
}

/* A cost model that does not define point-to-point messages (bsp) fails the run, naming the
 * call (out of line: the sends' path stays as short as under bdm). */
static __attribute__((noinline, cold, noreturn)) void refuse_p2p(hr_proc *p, const char *call)
{
    const hr_cost_model *cm = p->m->cm;
    hr_fail(p, "%s: cost model %s does not define point-to-point messages%s", call, cm->name,
            cm->superstep != NULL ? " (hr_put and hr_get, ended by hr_sync, do)" : "");
}

/* The start of every send (its arguments are checked: api/p2p.c); inline, as a call of its own
 * cost xchg.pex 20 instructions a message. */
static inline __attribute__((always_inline)) void send_begin(hr_proc *p, int dest,
                                                             const char *call)
{
    if (__builtin_expect(p->m->no_p2p, 0))
        refuse_p2p(p, call);
    hr__proc_comm_point(p);
    hr__proc_check_link(p, dest, call);
}

/* A COPY record of len bytes, tag and bytes set, to be stamped. */
static hr_msg *new_copy(hr_proc *p, int tag, const void *buf, size_t len)
{
    hr_msg *msg = copy_record(p, hr__kept(p->m, len));
    if (msg == NULL)
        hr_fail(p, "out of memory sending %zu bytes", len);
    *msg = (hr_msg){ .kind = HR_MSG_COPY, .tag = tag, .len = len, .data = msg->payload };
    hr__copy_bytes(p->m, msg->payload, buf, len);
    return msg;
}

/* May p complete the receive q sleeps in, armed open for p's next message with this tag
 * (mailbox.h: the lane), as it sends? One processor runs at a time, so q's state is p's to
 * change, and the run goes on (an aborted one may have left a lane armed as its owner left).
 * The buffer must hold the message (else q fails itself, in take_into) and not overlap buf. */
static int posted(const hr_proc *p, const hr_proc *q, int tag, const void *buf, size_t len)
{
    if (!p->m->serial || q == p || p->m->cfg.buffer != 0 ||
        atomic_load_explicit(&p->m->abort, memory_order_relaxed) ||
        !hr__mbox_posted(&q->box, p->id, tag) || len > q->rx_cap)
        return 0;
    uintptr_t into = (uintptr_t)q->rx_into, from = (uintptr_t)buf;
    return len == 0 || into + len <= from || from + len <= into;
}

/* p sends msg (stamped: m->direct) with the bytes of buf to q, whose hr_recv waits for it:
 * q takes it now, as it would on waking (take_into, without a record to free), and publishes
 * its clock when it runs (recv_ready), where a clock past its range fails q itself. A message
 * whose arrival is past that range goes the usual way: its sender fails first (stamp_async). */
static void send_direct(hr_proc *p, hr_proc *q, hr_msg *msg, const void *buf)
{
    if (msg->arrive == HR_TIME_INF) {
        hr_msg *rec = new_copy(p, msg->tag, buf, msg->len);
        *rec = *msg;
        rec->data = rec->payload;
        deliver(p, q->id, rec);
        return;
    }
    hr__mbox_unarm(&q->box, p->id, msg->tag);
    /* A record goes with it all the same, as a copied message's goes from sender to receiver
     * (copy_done): otherwise a processor whose receives its senders complete and whose own
     * sends wait in queues would use up its kept records while others' overflow (xchg.pex on
     * fibers: a malloc and a free in three messages). */
    if (p->copy_free != NULL && q->ncopy_free < COPY_KEEP)
        keep(q, unkeep(p));
    absorb_msg(q, msg, q->rx_post);
    took(q, msg);
    hr__copy_bytes(p->m, q->rx_into, buf, msg->len);
    if (q->rx_st != NULL)
        *q->rx_st = (hr_status){ p->id, msg->tag, msg->len };
    q->rx_got = msg->len;
    q->rx_done = 1;
    hr__wake_for(q, p->id);
}

static void send_async(hr_proc *p, int dest, int tag, const void *buf, size_t len)
{
    hr_time before = atomic_load_explicit(&p->pub_clock, memory_order_relaxed);
    hr_proc *q = &p->m->procs[dest];
    if (posted(p, q, tag, buf, len)) {
        /* One processor runs at a time, and nothing in send_direct lets another run: one
         * record serves the machine's direct sends. A send sets kind, tag, len and data, and
         * the stamp the rest of what any reader of it reads; every other field stays zero. */
        hr_msg *msg = &p->m->direct;
        msg->kind = HR_MSG_COPY;
        msg->tag = tag;
        msg->len = len;
        msg->data = buf;
        stamp_async(p, msg, dest);
        send_direct(p, q, msg, buf);
    } else {
        hr_msg *msg = new_copy(p, tag, buf, len);
        stamp_async(p, msg, dest);
        if (p->m->cfg.buffer != 0 && dest != p->id) {
            hr__rbuf_send(p, dest, msg);
            return;
        }
        deliver(p, dest, msg);
    }
    hr__proc_publish(p);
    after_send(p, before);
}

/* Does p's send of len bytes complete at its receive (sync, or eager above its limit)? */
static int rendezvous(const hr_proc *p, size_t len)
{
    return hr__disc_rendezvous(p->m->disc, len, p->m->cfg.eager_limit);
}

void hr__eng_send(hr_proc *p, int dest, int tag, const void *buf, size_t len)
{
    send_begin(p, dest, "hr_send");
    if (rendezvous(p, len))
        sync_finish(p, sync_post(p, dest, tag, buf, len, 0), "hr_send (sync)");
    else
        send_async(p, dest, tag, buf, len);
}

/* ---- receiving ---------------------------------------------------------------------------- */

/* The arrival time that orders msg among receives from ANY. */
static hr_time arrival_of(const hr_proc *p, const hr_msg *msg, hr_time post)
{
    if (msg->kind == HR_MSG_SYNC && !msg->committed)
        return hr__tadd(hr__max(msg->sent, post), latency(p, msg->src));
    return msg->arrive;
}

/* The least-keyed matching message from any source, or NULL. A matching message whose arrival
 * is not decided yet (transit.c) is not a candidate: the least such (by injection time) goes to
 * *unrouted, and the caller must wait for it first. */
static hr_msg *least_any(hr_proc *p, recv_ctx *c, hr_time *at, const hr_msg **unrouted)
{
    hr_msg *best = NULL, *bprev = NULL;
    hr_time ba = 0;
    *unrouted = NULL;
    for (int i = 0; i < p->box.nactive; i++) {
        hr_msg *prev;
        hr_msg *msg = hr__mbox_find_at(&p->box, i, c->tag, &prev);
        if (msg == NULL)
            continue;
        if (!hr__msg_routed(msg)) {
            if (*unrouted == NULL || hr__msg_before(msg->sent, msg, (*unrouted)->sent, *unrouted))
                *unrouted = msg;
            continue;
        }
        hr_time a = arrival_of(p, msg, c->post);
        if (best == NULL || hr__msg_before(a, msg, ba, best)) {
            best = msg;
            bprev = prev;
            ba = a;
        }
    }
    c->prev = bprev;
    *at = ba;
    return best;
}

/* Drain the whole queue. A sender preempted mid-enqueue hides the messages queued behind it, and
 * its own wake goes only to receivers that wait for it: so never sleep on a partial drain; yield
 * until that sender has finished (a few instructions once it runs). */
static inline __attribute__((always_inline)) void drain_all(hr_proc *p)
{
    int drained;
    while ((drained = hr__mbox_drain(&p->box)) == 0)
        hr__exec_yield(p);
    if (drained < 0)
        hr_fail(p, "out of memory for its mailbox");
}

/* p waits for msg, keyed by its injection, to be routed: its pending event (core.h). */
static void route_wait(hr_proc *p, const hr_msg *msg)
{
    atomic_store(&p->route_src, msg->src);
    atomic_store(&p->route_seq, msg->seq);
    hr__proc_event(p, msg->sent);
}

/* msg is in the mailbox but its arrival is not decided (transit.c): route what can be routed,
 * and with the resolver's grant for this message's injection time, up to it. 0 if msg is
 * routed now; else msg's injection time is the pending event, and 1: wait. */
static int unrouted_wait(hr_proc *p, const hr_msg *msg)
{
    /* A grant is for the event it was given for: it forces this message only if it is keyed
     * no later (everyone else waited for later times then). */
    int grant = atomic_exchange(&p->granted, 0);
    hr_time e = atomic_load(&p->grant_ev);
    int forced = grant && e != HR_TIME_INF && e >= msg->sent;
    hr__transit_decide(p, forced ? msg : NULL, grant == HR__GRANT_PAST_FLOORS);
    if (hr__msg_routed(msg))
        return 0;
    route_wait(p, msg);
    return 1;
}

/* Submit the rendezvous msg's transfer for routing, from max(issue, post) on. */
static void commit(hr_proc *p, hr_msg *msg, hr_time post)
{
    msg->committed = 1;
    atomic_store_explicit(&msg->routed, 0, memory_order_relaxed);
    hr__transit_commit(p, msg, post);
}

/* On a topology with links, a rendezvous message found by a receive is matched by its
 * uncontended arrival (arrival_of). Once found, its transfer is submitted for routing from
 * max(issue, post) on, as an async message would be from its injection: safe in key order, since
 * its sender (blocked until it is taken, or, if it goes on, by its open message's floor:
 * transit.c) and its receiver hold routing back at times no later. 1 if c->msg is ready to take,
 * else 0 (wait for its routing). */
static int commit_sync(hr_proc *p, recv_ctx *c)
{
    hr_msg *msg = c->msg;
    p->seen_news = atomic_load(&p->news);
    if (!msg->committed)
        commit(p, msg, c->post);
    if (hr__msg_routed(msg) || !unrouted_wait(p, msg))
        return 1;
    p->recv_idle = 1;    /* it takes this one next: nothing else until it is routed */
    return 0;
}

/* c->msg is the message the receive takes: ready, unless it is a rendezvous whose transfer is
 * still to be routed. A probe takes nothing, and begins no rendezvous. */
static int found(hr_proc *p, recv_ctx *c)
{
    const hr_msg *msg = c->msg;
    if (msg->kind == HR_MSG_SYNC && routed_here(p) && msg->src != p->id && !c->probe)
        return commit_sync(p, c);
    return 1;
}

/* Could unrouted, a message whose arrival is not decided yet, arrive before the candidate
 * (arriving at a), or is there no candidate? It arrives tau after its injection at the
 * earliest: one injected later cannot, and the receive need not wait for its routing (the
 * receiver's next injection then comes after the candidate's arrival, past unrouted's key). */
static int may_precede(const hr_proc *p, const hr_msg *unrouted, const hr_msg *cand, hr_time a)
{
    return cand == NULL || !hr__past(hr__tadd(unrouted->sent, p->m->cost.tau), unrouted->src, a, cand->src);
}

/* May a receive that finds nothing arm p's lane? Only one processor at a time runs (nobody
 * else drains or takes meanwhile), every message is routed as it is sent (no links), and no
 * request posted earlier could want the message (mailbox.h). */
static int may_arm(const hr_proc *p, const recv_ctx *c)
{
    return p->m->serial && !c->probe && p->pending == NULL && !routed_here(p);
}

static int recv_ready(hr_proc *p, void *ctx)
{
    recv_ctx *c = ctx;
    if (c->direct && p->rx_done) {     /* completed by its sender as it slept (send_direct) */
        hr__proc_publish(p);
        return 1;
    }
    if (c->msg != NULL && c->msg->committed)   /* found before: only its routing is awaited */
        return commit_sync(p, c);
    hr_msg *laned = c->probe ? NULL : hr__mbox_unarm(&p->box, c->src, c->tag);
    if (laned != NULL) {
        /* Its sender put it aside as it came: it is the first from c->src that matches. (A
         * probe leaves it for the drain below to put back in the lists.) */
        hr__proc_event(p, HR_TIME_INF);
        c->msg = laned;
        c->prev = NULL;
        c->laned = 1;
        return 1;
    }
    drain_all(p);
    p->recv_idle = 1;    /* until a routed message to take is found */
    /* Messages submitted or routed to p from here on are counted; parking compares (transit.c). */
    p->seen_news = atomic_load(&p->news);
    if (c->src != HR_ANY) {
        c->msg = hr__mbox_find(&p->box, c->src, c->tag, &c->prev);
        if (c->msg != NULL && !hr__msg_routed(c->msg) && unrouted_wait(p, c->msg))
            return 0;
        hr__proc_event(p, HR_TIME_INF);
        if (c->msg != NULL)
            return found(p, c);
        if (may_arm(p, c))
            hr__mbox_arm(&p->box, c->src, c->tag, c->direct && p->m->taken == NULL);
        return 0;
    }
    for (;;) {
        hr_time a;
        const hr_msg *unrouted;
        c->msg = least_any(p, c, &a, &unrouted);
        if (c->msg != NULL)
            p->recv_idle = 0;   /* it may take this one later: its next send may come early */
        if (unrouted != NULL && may_precede(p, unrouted, c->msg, a)) {
            if (unrouted_wait(p, unrouted))
                return 0;
            continue;     /* routed now: look again */
        }
        if (c->msg == NULL) {
            hr__proc_event(p, HR_TIME_INF);
            return 0;
        }
        if (atomic_exchange(&p->granted, 0))
            return found(p, c);
        /* The candidate's own source is skipped: its later messages come after it anyway. */
        if (!hr__clocks_past(p, a, c->msg->src, c->msg->src, -1))
            return 0;
        /* Everything sent before those clocks were published is in the queue now. If the
         * whole queue brings no earlier message, the candidate stands. */
        hr_msg *head = c->msg;
        drain_all(p);
        if (least_any(p, c, &a, &unrouted) == head &&
            (unrouted == NULL || !may_precede(p, unrouted, head, a)))
            return found(p, c);
    }
}

/* Find c's message, waiting for it; c->post is set by the caller. */
static void find_message(hr_proc *p, recv_ctx *c, const char *call)
{
    hr__proc_comm_point(p);
    hr_wait_desc d = { HR_WAIT_RECV, c->src, c->tag, 0, call, 0 };
    hr__wait(p, &d, recv_ready, c);
}

/* Take msg (found by c): advance the clocks and return the time r its data is in. The caller
 * copies the data, or views it, and then releases the message. */
static hr_time absorb_msg(hr_proc *p, const hr_msg *msg, hr_time post)
{
    hr_time a = arrival_of(p, msg, post);
    hr_time r = a;
    if (msg->src != p->id) {
        hr_cm_take x = hr__cm_take(p->m->cm, &p->m->cost, p->clock, a, p->in_free, msg->len);
        r = x.in;
        p->in_free = x.port;
        p->clock = x.clock;
        p->bytes_in += msg->len;
        p->msgs_in++;
    } else {
        p->clock = hr__tadd(hr__max(p->clock, r), p->m->cost.overhead);
    }
    hr__ev_recv(p, msg, post, r);
    return r;
}

static hr_time absorb(hr_proc *p, const recv_ctx *c)
{
    if (!c->laned)
        hr__mbox_remove(&p->box, c->msg->src, c->prev, c->msg);
    return absorb_msg(p, c->msg, c->post);
}

/* Tell msg's sender that it is taken: a COPY is freed, a SYNC or REF (or LEND) sender may go on. */
static void release(hr_proc *p, const recv_ctx *c, hr_time r)
{
    hr_msg *msg = c->msg;
    hr_proc *sender = &p->m->procs[msg->src];
    switch (msg->kind) {
    case HR_MSG_COPY:
        if (msg->stay != NULL)   /* it leaves the receive buffer when the program takes it */
            hr__rbuf_taken(p, msg, hr__max(c->post, r));
        copy_done(p, msg);
        break;
    case HR_MSG_SYNC:
        msg->done = r;
        msg->start = hr__max(msg->sent, c->post);
        atomic_store_explicit(&msg->taken, 1, memory_order_release);
        hr__wake(sender);        /* msg may be gone from here on */
        break;
    case HR_MSG_REF:
    case HR_MSG_LEND:
        /* The sender learns the message is taken no earlier than the receive is posted. */
        msg->done = hr__max(c->post, r);
        if (atomic_fetch_sub_explicit(&sender->outstanding, 1, memory_order_acq_rel) == 1)
            hr__wake(sender);
        break;
    }
    hr__proc_publish(p);
}

/* p took msg into `into` (NULL: viewed in place): tell the MPI engine's model rank, if any. */
static void tell_taken(hr_proc *p, const hr_msg *msg, const void *into)
{
    if (p->m->taken != NULL)
        p->m->taken(p->m->taken_arg, p, msg->src, msg->tag, msg->seq, msg->len, into);
}

/* Take msg (found by c) into buf. */
static void take(hr_proc *p, const recv_ctx *c, void *buf)
{
    hr_msg *msg = c->msg;
    int lent = msg->kind == HR_MSG_LEND;
    hr_proc *sender = &p->m->procs[msg->src];
    hr_time r = absorb(p, c);
    took(p, msg);
    tell_taken(p, msg, buf);
    hr__copy_bytes(p->m, buf, msg->data, msg->len);
    release(p, c, r);
    /* A lent block that is copied is given back at once (mismatched views, e.g. hr_transpose
     * against hr_transpose_view: wrong, but not this side's harm). */
    if (lent && atomic_fetch_sub_explicit(&sender->lent, 1, memory_order_acq_rel) == 1)
        hr__wake(sender);
}

/* Take c's message (found) into buf of cap bytes. */
static size_t take_into(hr_proc *p, recv_ctx *c, void *buf, size_t cap, hr_status *st,
                        const char *call)
{
    size_t len = c->msg->len;
    if (len > cap) {
        /* Taken from the lane, it goes back in its place, as one found in the lists stays
         * there: the run's report counts it, and the mailbox frees it (it leaked before). */
        if (c->laned)
            hr__mbox_putback(&p->box, c->msg);
        hr__misuse(p, "%s: a %zu-byte message from P%d (tag %d) does not fit in %zu bytes", call,
                len, c->msg->src, c->msg->tag, cap);
    }
    if (st != NULL)
        *st = (hr_status){ c->msg->src, c->msg->tag, len };
    take(p, c, buf);
    return len;
}

static void complete_overlapping(hr_proc *p, int src, int tag, const hr_request *upto);

size_t hr__eng_recv(hr_proc *p, int src, int tag, void *buf, size_t cap, hr_status *st,
                    const char *call)
{
    if (p->pending != NULL)
        complete_overlapping(p, src, tag, NULL);
    recv_ctx c = { .src = src, .tag = tag, .post = p->clock, .direct = 1 };
    p->rx_into = buf;
    p->rx_cap = cap;
    p->rx_st = st;
    p->rx_post = c.post;
    p->rx_done = 0;
    find_message(p, &c, call);
    if (p->rx_done)
        return p->rx_got;
    return take_into(p, &c, buf, cap, st, call);
}

/* One step: under sync the message is posted, the receive done, and then the send waits to be
 * taken, so that a ring of them does not deadlock; otherwise a send and a receive. */
size_t hr__eng_sendrecv(hr_proc *p, int dest, int sendtag, const void *sendbuf, size_t sendlen,
                        int src, int recvtag, void *recvbuf, size_t cap, hr_status *st)
{
    send_begin(p, dest, "hr_sendrecv");
    if (!rendezvous(p, sendlen)) {
        send_async(p, dest, sendtag, sendbuf, sendlen);
        return hr__eng_recv(p, src, recvtag, recvbuf, cap, st, "hr_sendrecv");
    }
    hr_msg *msg = sync_post(p, dest, sendtag, sendbuf, sendlen, 1);
    size_t len = hr__eng_recv(p, src, recvtag, recvbuf, cap, st, "hr_sendrecv");
    sync_finish(p, msg, "hr_sendrecv (sync)");
    return len;
}

void hr__eng_probe(hr_proc *p, int src, int tag, hr_status *st)
{
    recv_ctx c = { .src = src, .tag = tag, .probe = 1, .post = p->clock };
    find_message(p, &c, "hr_probe");
    /* A message is seen when it has arrived: the clock moves to its arrival (a rendezvous
     * message arrives only once it is received, so its probe costs nothing). Every later
     * send is then no earlier, as the routing of messages on a topology counts on (transit.c). */
    if (c.msg->kind != HR_MSG_SYNC && c.msg->arrive > p->clock) {
        p->clock = c.msg->arrive;
        hr__proc_publish(p);
    }
    if (st != NULL)
        *st = (hr_status){ c.msg->src, c.msg->tag, c.msg->len };
}

/* ---- non-blocking communication -------------------------------------------------------------
 *
 * A send request does at the call what hr_send does, but under sync it does not wait for the
 * rendezvous: completing the request does. A receive request is matched when it is completed,
 * in posting order among the receives that could take the same message; its rendezvous starts
 * at max(issue, post) and its absorption is charged from the arrival, as if the receive had
 * waited since it was posted.
 *
 * hr_test and hr_iprobe answer for the caller's model clock t: is the message in by t? They
 * may have to wait, in real time, for the answer: until a matching message is routed, or until
 * no processor can still send one that arrives by t (its published clock plus tau is past t),
 * or until the resolver grants the wait (every other processor waits for a later event). */

/* Can no processor but p send p a message, from src (or any), that arrives by t? If not, t is
 * p's pending event, and it watches the clocks (clocks_past). */
static int nothing_by(hr_proc *p, int src, hr_time t)
{
    if (src == HR_ANY)
        return hr__clocks_past(p, t, p->m->p, -1, -1);
    if (src == p->id)
        return 1;
    return hr__clocks_past(p, t, p->m->p, -1, src);
}

/* When a bounded lookup counts msg in: a probe at its arrival (a rendezvous, with post 0: its
 * envelope, at issue plus the latency), a receive at the end of its absorption. */
static hr_time in_at(const hr_proc *p, const recv_ctx *c, const hr_msg *msg)
{
    hr_time a = arrival_of(p, msg, c->post);
    if (c->probe || msg->src == p->id)
        return a;
    return hr__cm_take(p->m->cm, &p->m->cost, p->clock, a, p->in_free, msg->len).in;
}

/* c->msg is the message a bounded lookup would take: decide whether it is in by t. A receive
 * commits a rendezvous first (found), whose arrival is then the routed one. */
static int bounded_found(hr_proc *p, recv_ctx *c, hr_time t)
{
    if (in_at(p, c, c->msg) > t) {
        c->none = 1;
        return 1;
    }
    if (!found(p, c)) {
        p->recv_idle = 0;
        return 0;
    }
    c->none = in_at(p, c, c->msg) > t;
    return 1;
}

static int bounded_none(hr_proc *p, recv_ctx *c)
{
    hr__proc_event(p, HR_TIME_INF);
    c->msg = NULL;
    c->none = 1;
    return 1;
}

/* The ready function of hr_test and hr_iprobe: c->none or c->msg says what is in by t. */
static int bounded_ready(hr_proc *p, void *ctx)
{
    recv_ctx *c = ctx;
    hr_time t = p->clock, tau = p->m->cost.tau;
    p->recv_idle = 0;    /* it goes on at t whatever it finds: it must not park (transit.c) */
    c->none = 0;
    if (c->msg != NULL && c->msg->committed) {       /* a rendezvous it matched before */
        if (!hr__msg_routed(c->msg) && unrouted_wait(p, c->msg))
            return 0;
        hr__proc_event(p, HR_TIME_INF);
        c->none = in_at(p, c, c->msg) > t;
        return 1;
    }
    for (;;) {
        drain_all(p);
        hr_time a = 0;
        const hr_msg *unrouted = NULL;
        if (c->src != HR_ANY) {
            c->msg = hr__mbox_find(&p->box, c->src, c->tag, &c->prev);
            if (c->msg != NULL && !hr__msg_routed(c->msg)) {
                unrouted = c->msg;
                c->msg = NULL;
            }
        } else {
            c->msg = least_any(p, c, &a, &unrouted);
        }
        /* A message still to be routed may be in by t only if it was injected by t - tau. */
        if (unrouted != NULL && hr__tadd(unrouted->sent, tau) <= t) {
            if (unrouted_wait(p, unrouted))
                return 0;
            continue;
        }
        if (c->src != HR_ANY) {
            if (c->msg != NULL) {
                hr__proc_event(p, HR_TIME_INF);
                return bounded_found(p, c, t);
            }
            /* The source's later messages come after one still in transit. */
            if (unrouted != NULL || atomic_exchange(&p->granted, 0))
                return bounded_none(p, c);
            if (!nothing_by(p, c->src, t))
                return 0;
            drain_all(p);      /* what the source sent before its clock was published */
            if (hr__mbox_find(&p->box, c->src, c->tag, &c->prev) == NULL)
                return bounded_none(p, c);
            continue;
        }
        /* From any source: the least candidate is the answer once nothing can precede it. */
        int granted = atomic_exchange(&p->granted, 0);
        if (c->msg != NULL && a <= t) {
            if (granted) {
                hr__proc_event(p, HR_TIME_INF);
                return bounded_found(p, c, t);
            }
            if (!hr__clocks_past(p, a, c->msg->src, c->msg->src, -1))
                return 0;
            /* A message still in transit was injected past t - tau (else it was waited for
             * above): it arrives after t, so after the candidate. */
            hr_msg *head = c->msg;
            drain_all(p);
            if (least_any(p, c, &a, &unrouted) == head &&
                (unrouted == NULL || hr__tadd(unrouted->sent, tau) > t)) {
                hr__proc_event(p, HR_TIME_INF);
                return bounded_found(p, c, t);
            }
            continue;
        }
        if (granted)
            return bounded_none(p, c);
        if (!nothing_by(p, HR_ANY, t))
            return 0;
        hr_msg *head = c->msg;
        drain_all(p);
        if (least_any(p, c, &a, &unrouted) == head &&
            (unrouted == NULL || hr__tadd(unrouted->sent, tau) > t))
            return bounded_none(p, c);
    }
}

/* Polls in a row for a message that cannot come before the run fails (poll_failed). */
#define HR_FUTILE_POLLS (1u << 20)

/* Can a message from src (HR_ANY: any other processor) with tag still come to p, which polls
 * for it at its clock t? Not once every processor that could send it finished by t - tau (its
 * last clock plus tau is not past t) and none is in p's mailbox. The same in every schedule: a
 * sender still running with its clock plus tau not past t holds the poll's wait (nothing_by)
 * until it publishes a later clock or finishes, so one that finished by then is seen finished. */
static int may_come(hr_proc *p, int src, int tag)
{
    hr_machine *m = p->m;
    hr_time t = p->clock, tau = m->cost.tau;
    if (src == p->id)
        return 1;
    if (src != HR_ANY) {
        const hr_proc *q = &m->procs[src];
        if (atomic_load_explicit(&q->state, memory_order_acquire) != HR_PROC_DONE ||
            hr__tadd(q->clock, tau) > t)
            return 1;
    } else {
        if (atomic_load(&m->live) > 1)
            return 1;
        if (p->futile_from == HR_TIME_INF) {   /* all others done: their clocks are final */
            hr_time last = 0;
            for (int i = 0; i < m->p; i++)
                if (i != p->id && m->procs[i].clock > last)
                    last = m->procs[i].clock;
            p->futile_from = hr__tadd(last, tau);
        }
        if (p->futile_from > t)
            return 1;
    }
    drain_all(p);
    hr_msg *prev;
    if (src != HR_ANY)
        return hr__mbox_find(&p->box, src, tag, &prev) != NULL;
    for (int i = 0; i < p->box.nactive; i++)
        if (hr__mbox_find_at(&p->box, i, tag, &prev) != NULL)
            return 1;
    return 0;
}

/* "from P3 with tag 7", "from any processor with any tag". */
static void poll_what(const hr_proc *p, int src, int tag, char *buf, size_t len)
{
    char s[32], t[32];
    if (src == HR_ANY)
        snprintf(s, sizeof s, "any processor");
    else
        snprintf(s, sizeof s, "P%d", src);
    if (tag == HR_ANY_TAG)
        snprintf(t, sizeof t, "any tag");
    else
        snprintf(t, sizeof t, "tag %d", tag);
    snprintf(buf, len, "from %s with %s (%s finished and none is queued)", s, t,
             src == HR_ANY ? (p->m->p > 2 ? "every other processor has" : "the other processor has")
                           : "it has");
}

static void poll_cost(hr_proc *p);

/* A test or probe for a message from src with tag found none. A loop of them that waits for a
 * message nobody can send any more would run for ever, each poll a nanosecond of model time:
 * after HR_FUTILE_POLLS of them in a row, the run fails and says so, as a deadlock would. */
static void poll_failed(hr_proc *p, int src, int tag, const char *call)
{
    if (may_come(p, src, tag)) {
        p->futile = 0;
    } else if (++p->futile == HR_FUTILE_POLLS) {
        char what[160];
        poll_what(p, src, tag, what, sizeof what);
        hr_fail(p, "%s: polled %u times in a row for a message %s: a loop that cannot end",
                call, HR_FUTILE_POLLS, what);
    }
    poll_cost(p);
}

/* A failed test or probe: the overhead, at least 1 ns, so that a loop of them advances. */
static void poll_cost(hr_proc *p)
{
    hr_time before = atomic_load_explicit(&p->pub_clock, memory_order_relaxed);
    hr_time o = p->m->cost.overhead;
    p->clock = hr__tadd(p->clock, o > 1000 ? o : 1000);
    hr__proc_publish(p);
    after_send(p, before);
}

static int overlaps(int src1, int tag1, int src2, int tag2)
{
    return (src1 == HR_ANY || src2 == HR_ANY || src1 == src2) &&
           (tag1 == HR_ANY_TAG || tag2 == HR_ANY_TAG || tag1 == tag2);
}

/* Requests come from slabs of the owner's memory, kept for the run (core.h). */
enum { REQ_SLAB = 64 };

static hr_request *request_new(hr_proc *p, int is_recv)
{
    if (p->req_free == NULL) {
        hr_request *slab = hr__alloc(&p->mem, REQ_SLAB * sizeof *slab);
        if (slab == NULL)
            hr_fail(p, "out of memory for a request");
        for (int i = 0; i < REQ_SLAB; i++) {
            slab[i].owner = p->id;
            atomic_store_explicit(&slab[i].magic, HR__REQ_FREE, memory_order_relaxed);
            slab[i].free_next = i + 1 < REQ_SLAB ? &slab[i + 1] : NULL;
        }
        p->req_free = slab;
        p->req_free_tail = &slab[REQ_SLAB - 1];
    }
    hr_request *r = p->req_free;
    if ((p->req_free = r->free_next) == NULL)
        p->req_free_tail = NULL;
    memset(&r->next, 0, sizeof *r - offsetof(hr_request, next));
    atomic_store_explicit(&r->magic, HR__REQ_LIVE, memory_order_relaxed);
    r->is_recv = (uint8_t)is_recv;
    p->nrequests++;
    return r;
}

static void request_free(hr_proc *p, hr_request **req)
{
    hr_request *r = *req;
    p->nrequests--;
    atomic_store_explicit(&r->magic, HR__REQ_FREE, memory_order_relaxed);
    r->free_next = NULL;
    if (p->req_free_tail != NULL)
        p->req_free_tail->free_next = r;
    else
        p->req_free = r;
    p->req_free_tail = r;
    *req = NULL;
}

void hr__eng_request_check(hr_proc *p, const hr_request *r, const char *call)
{
    if (r->owner != p->id)
        hr__misuse(p, "%s: the request is P%d's, not this processor's (requests are completed by the "
                "processor that made them)", call, r->owner);
    if (atomic_load_explicit(&r->magic, memory_order_relaxed) != HR__REQ_LIVE)
        hr__misuse(p, "%s: the request was completed already (a copy of its handle, kept after "
                "hr_wait, hr_waitall or hr_test set the handle to NULL?)", call);
}

/* Publish when p's first pending receive was posted (core.h, post_floor). */
static void post_floor(hr_proc *p)
{
    atomic_store(&p->post_floor, p->pending != NULL ? p->pending->post : HR_TIME_INF);
}

/* Take r out of p's pending receives. */
static void unlink_request(hr_proc *p, const hr_request *r)
{
    hr_request **at = &p->pending;
    while (*at != r)
        at = &(*at)->next;
    *at = r->next;
    post_floor(p);
}

/* The predecessor of msg, a message from src still in p's mailbox, in src's list. */
static hr_msg *prev_of(hr_proc *p, const hr_msg *msg)
{
    hr_msg *prev = NULL;
    for (hr_msg *at = hr__mbox_head(&p->box, msg->src); at != msg; at = at->next)
        prev = at;
    return prev;
}

/* A receive context for r, resuming a rendezvous r has committed. */
static recv_ctx request_ctx(hr_proc *p, const hr_request *r)
{
    recv_ctx c = { .src = r->src, .tag = r->tag, .post = r->post, .msg = r->msg };
    if (c.msg != NULL)
        c.prev = prev_of(p, c.msg);
    return c;
}

/* r's message, found by c, is in: take it, and r is done (its status kept for the wait). */
static void take_request(hr_proc *p, hr_request *r, recv_ctx *c, const char *call)
{
    unlink_request(p, r);
    r->st.bytes = take_into(p, c, r->buf, r->cap, &r->st, call);
    r->msg = NULL;
    r->done = 1;
}

/* Commit, on a topology with links, every rendezvous that a posted receive from a named source
 * is sure to take, before p waits for any of them. Its key, max(issue, post), is what it would
 * be when that receive is completed, but its sender's floor (transit.c) holds routing back
 * until it is committed: a processor completing its receives one by one (hr_waitall) would
 * otherwise hold back, with a later receive's message, the routing of an earlier one's, as its
 * partners do with its own. A receive is sure of its message when no receive from any source
 * is posted before it (that one might take it) and the receives from its source posted before
 * it have been matched to earlier messages. */
static void commit_posted(hr_proc *p)
{
    enum { MAXCLAIM = 64 };
    const hr_msg *claimed[MAXCLAIM];
    int nclaimed = 0;
    if (!routed_here(p))
        return;
    drain_all(p);
    for (hr_request *r = p->pending; r != NULL && nclaimed < MAXCLAIM; r = r->next) {
        if (r->src == HR_ANY)
            return;
        if (r->msg != NULL) {
            claimed[nclaimed++] = r->msg;
            continue;
        }
        hr_msg *msg = hr__mbox_head(&p->box, r->src);
        for (; msg != NULL; msg = msg->next) {
            if (r->tag != HR_ANY_TAG && msg->tag != r->tag)
                continue;
            if (msg->tag < 0)
                continue;       /* a collective's */
            int taken = 0;
            for (int i = 0; i < nclaimed && !taken; i++)
                taken = claimed[i] == msg;
            if (!taken)
                break;
        }
        if (msg == NULL)
            continue;           /* not sent yet: it comes after every message in the queue */
        claimed[nclaimed++] = msg;
        if (msg->kind == HR_MSG_SYNC && !msg->committed && msg->src != p->id) {
            commit(p, msg, r->post);
            r->msg = msg;
        }
    }
}

/* The ready function of a posted receive's completion: first commit what other posted receives
 * are sure to take (it is woken by any arrival for that). */
static int posted_ready(hr_proc *p, void *ctx)
{
    commit_posted(p);
    return recv_ready(p, ctx);
}

static void complete_recv(hr_proc *p, hr_request *r, const char *call)
{
    complete_overlapping(p, r->src, r->tag, r);
    recv_ctx c = request_ctx(p, r);
    hr__proc_comm_point(p);
    int others = routed_here(p) && p->m->disc->send != HR_SEND_COPY &&
                 (p->pending != r || r->next != NULL);
    hr_wait_desc d = { HR_WAIT_RECV, c.src, c.tag, 0, call, others };
    hr__wait(p, &d, others ? posted_ready : recv_ready, &c);
    take_request(p, r, &c, call);
}

/* Complete, in posting order, the pending receives before upto (NULL: all) that could take a
 * message from src with tag. */
static void complete_overlapping(hr_proc *p, int src, int tag, const hr_request *upto)
{
    hr_request *q = p->pending;
    while (q != NULL && q != upto) {
        if (overlaps(q->src, q->tag, src, tag)) {
            complete_recv(p, q, "hr_irecv");
            q = p->pending;
        } else {
            q = q->next;
        }
    }
}

/* Complete r if its message is in by the clock; 1 if it is (or was already). */
static int test_recv(hr_proc *p, hr_request *r)
{
    if (r->done)
        return 1;
    for (hr_request *q = p->pending, *next; q != r; q = next) {
        next = q->next;   /* testing q completes only receives before it */
        if (overlaps(q->src, q->tag, r->src, r->tag) && !test_recv(p, q))
            return 0;
    }
    recv_ctx c = request_ctx(p, r);
    hr__proc_comm_point(p);
    hr_wait_desc d = { HR_WAIT_RECV, r->src, r->tag, 0, "hr_test", 0 };
    hr__wait(p, &d, bounded_ready, &c);
    if (c.none) {
        r->msg = c.msg != NULL && c.msg->committed ? c.msg : NULL;
        return 0;
    }
    take_request(p, r, &c, "hr_test");
    return 1;
}

static int taken_by(hr_proc *p, void *ctx)
{
    const hr_msg *msg = ctx;
    if (atomic_load_explicit(&msg->taken, memory_order_acquire) || atomic_exchange(&p->granted, 0)) {
        hr__proc_event(p, HR_TIME_INF);
        return 1;
    }
    hr__proc_event(p, p->clock);
    return 0;
}

/* A sync send's request: done once its receiver has taken it with the transfer over by the
 * clock. Until it is taken, the receiver decides; the resolver's grant says it will not be by t. */
static int test_send(hr_proc *p, hr_request *r)
{
    hr_msg *msg = r->msg;
    hr_wait_desc d = { HR_WAIT_SYNC_SEND, msg->dst, msg->tag, msg->len, "hr_test", 0 };
    hr__wait(p, &d, taken_by, msg);
    return atomic_load_explicit(&msg->taken, memory_order_acquire) && msg->done <= p->clock;
}

static void finish_send(hr_proc *p, hr_request *r, const char *call)
{
    sync_finish(p, r->msg, call);
    r->msg = NULL;
    HR_ASSERT(hr__alloc_free(&p->mem, r->buf) == HR_OK);
    r->buf = NULL;
}

hr_request *hr__eng_isend(hr_proc *p, int dest, int tag, const void *buf, size_t len)
{
    send_begin(p, dest, "hr_isend");
    hr_request *r = request_new(p, 0);
    if (rendezvous(p, len)) {
        /* The rendezvous reads a copy: a request left pending when the algorithm returns (a
         * failure) may still be taken, after buf's frame is gone. */
        size_t kept = hr__kept(p->m, len);
        void *copy = kept > 0 ? hr__alloc(&p->mem, kept) : NULL;
        if (kept > 0 && copy == NULL)
            hr_fail(p, "hr_isend: out of memory for %zu bytes", len);
        hr__copy_bytes(p->m, copy, buf, len);
        r->buf = copy;
        r->msg = sync_post(p, dest, tag, copy, len, 1);
    } else {
        send_async(p, dest, tag, buf, len);    /* done: the data is copied */
    }
    return r;
}

hr_request *hr__eng_irecv(hr_proc *p, int src, int tag, void *buf, size_t cap)
{
    hr_request *r = request_new(p, 1);
    r->src = src;
    r->tag = tag;
    r->buf = buf;
    r->cap = cap;
    r->post = p->clock;
    hr_request **at = &p->pending;
    while (*at != NULL)
        at = &(*at)->next;
    *at = r;
    post_floor(p);
    return r;
}

size_t hr__eng_wait(hr_proc *p, hr_request **req, hr_status *st, const char *call)
{
    hr_request *r = *req;
    if (r->is_recv && !r->done)
        complete_recv(p, r, call);
    else if (!r->is_recv && r->msg != NULL)
        finish_send(p, r, call);
    size_t len = r->is_recv ? r->st.bytes : 0;
    if (r->is_recv && st != NULL)
        *st = r->st;
    request_free(p, req);
    return len;
}

void hr__eng_waitall(hr_proc *p, int n, hr_request **reqs, hr_status *st)
{
    /* Receives first: a sync send waits for its receiver, who may wait for one of them. */
    for (int pass = 1; pass >= 0; pass--)
        for (int i = 0; i < n; i++)
            if (reqs[i] != NULL && reqs[i]->is_recv == pass) {
                hr__eng_request_check(p, reqs[i], "hr_waitall");   /* one handle listed twice */
                hr__eng_wait(p, &reqs[i], st != NULL ? &st[i] : NULL, "hr_waitall");
            }
}

int hr__eng_test(hr_proc *p, hr_request **req, hr_status *st)
{
    hr_request *r = *req;
    int done = r->is_recv ? test_recv(p, r) : r->msg == NULL || test_send(p, r);
    if (!done) {
        if (r->is_recv) {
            poll_failed(p, r->src, r->tag, "hr_test");
        } else {
            p->futile = 0;
            poll_cost(p);
        }
        return 0;
    }
    hr__eng_wait(p, req, st, "hr_test");
    return 1;
}

int hr__eng_iprobe(hr_proc *p, int src, int tag, hr_status *st)
{
    hr__proc_comm_point(p);
    recv_ctx c = { .src = src, .tag = tag, .probe = 1, .post = 0 };
    hr_wait_desc d = { HR_WAIT_RECV, src, tag, 0, "hr_iprobe", 0 };
    hr__wait(p, &d, bounded_ready, &c);
    if (c.none) {
        poll_failed(p, src, tag, "hr_iprobe");
        return 0;
    }
    p->futile = 0;
    if (st != NULL)
        *st = (hr_status){ c.msg->src, c.msg->tag, c.msg->len };
    return 1;
}

void hr__p2p_finish(hr_proc *p)
{
    int n = p->nrequests;
    if (n == 0)
        return;
    /* A sync send still pending may yet be taken: it reads a copy in p's memory, which lasts
     * until the next run. */
    hr__misuse(p, "returned with %d request%s not completed (hr_wait, hr_waitall or hr_test them)",
            n, n == 1 ? "" : "s");
}

/* ---- collectives' messages ---------------------------------------------------------------- */

void hr__coll_begin(hr_proc *p, int tag, const char *fmt, ...)
{
    p->coll_tag = tag;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->coll_what, sizeof p->coll_what, fmt, ap);
    va_end(ap);
    hr__proc_comm_point(p);
    p->rounds++;
    p->colls++;
    p->world_colls += tag == HR__TAG_COLL;
    p->coll_batch = 0;
    if (p->coll_depth++ == 0) {
        memcpy(p->coll_name, p->coll_what, sizeof p->coll_name);
        p->coll_t0 = p->clock;
        p->coll_lent = 0;
        const hr_cost_model *cm = p->m->cm;
        if (cm->superstep != NULL && tag != HR__TAG_COLL)
            hr_fail(p, "%s: cost model %s takes a collective of the world as a superstep; one "
                    "of a group is none", p->coll_name, cm->name);
    }
}

/* Under a model that charges whole supersteps (bsp), a world collective ends one when it
 * returns, or if it lent its blocks at hr__view_end (its receivers read them until then): its
 * blocks are its h. */
void hr__coll_end(hr_proc *p)
{
    if (--p->coll_depth == 0) {
        if (p->m->cm->superstep != NULL && !p->coll_lent)
            hr__superstep_end(p, p->coll_name);
        hr__ev_named(p, HR_EV_COLL, p->coll_name, p->coll_t0, p->clock);
    }
}

static void post(hr_proc *p, int dest, const void *buf, size_t len, uint8_t kind)
{
    hr__proc_check_link(p, dest, p->coll_what);
    hr_time before = atomic_load_explicit(&p->pub_clock, memory_order_relaxed);
    hr_msg *msg = borrowed(p, kind, p->coll_tag, buf, len);
    stamp_async(p, msg, dest);
    atomic_fetch_add_explicit(&p->outstanding, 1, memory_order_relaxed);
    if (kind == HR_MSG_LEND)
        atomic_fetch_add_explicit(&p->lent, 1, memory_order_relaxed);
    msg->own = p->refs;
    p->refs = msg;
    deliver(p, dest, msg);
    hr__proc_publish(p);
    after_send(p, before);
}

void hr__coll_post(hr_proc *p, int dest, const void *buf, size_t len)
{
    post(p, dest, buf, len, HR_MSG_REF);
}

/* A LEND message: as REF, but the receiver may view buf in place until its hr__view_end. */
void hr__coll_lend(hr_proc *p, int dest, const void *buf, size_t len)
{
    p->coll_lent = 1;
    post(p, dest, buf, len, HR_MSG_LEND);
}

/* p views src's lent block from here to its hr__view_end. */
static void add_view(hr_proc *p, int src)
{
    /* One view per source between hr__coll_begin and hr__view_end: at most p. */
    if (p->nviews == p->views_cap) {
        int cap = p->views_cap > 0 ? 2 * p->views_cap : 16;
        int *v = hr__alloc(&p->mem, (size_t)cap * sizeof *v);
        if (v == NULL)
            hr_fail(p, "out of memory for a view");
        if (p->nviews > 0)
            memcpy(v, p->views, (size_t)p->nviews * sizeof *v);
        HR_ASSERT(hr__alloc_free(&p->mem, p->views) == HR_OK);
        p->views = v;
        p->views_cap = cap;
    }
    p->views[p->nviews++] = src;
}

/* A collective's block of msg->len bytes where the taker expects len. */
static void check_len(hr_proc *p, const hr_msg *msg, size_t len)
{
    if (msg->len != len)
        hr__misuse(p, "collective: P%d sent %zu bytes where %zu were expected (mismatched calls?)",
                msg->src, msg->len, len);
}

/* ---- batches ------------------------------------------------------------------------------
 * A world collective that posts a block to every other processor (transpose, allgather) posts
 * them as one batch where no link routes them: the sender steps its clock, port, counters and
 * events block by block as post does, but writes one hr_batch instead of p - 1 messages, and
 * receivers compute their block's injection from it (hr__batch_sent). Every processor counts
 * the world's collectives alike, so a receiver knows the batch it wants by that count. Model
 * figures are those of the messages it stands for, bit for bit. */

/* The processor k after id (k before it, k < 0) of n, in a ring. */
static int after(int id, int64_t k, int n)
{
    return (int)((((int64_t)id + k) % n + n) % n);
}

int hr__coll_batch(hr_proc *p, const void *base, size_t stride, size_t len, int lend)
{
    if (p->coll_tag != HR__TAG_COLL || routed_here(p) || !(p->m->cm->defines & HR_CM_BATCHES))
        return 0;
    int n = p->m->p;
    uint8_t kind = lend ? HR_MSG_LEND : HR_MSG_REF;
    hr_time before = atomic_load_explicit(&p->pub_clock, memory_order_relaxed);
    hr_batch *b = &p->batch;
    *b = (hr_batch){ .base = base, .stride = stride, .len = len, .kind = kind,
                     .first = hr__max(p->clock, p->out_free), .clock0 = p->clock,
                     .overhead = p->m->cost.overhead, .cost = hr__cost_bytes(&p->m->cost, len),
                     .seq1 = p->seq, .step1 = p->step + 1 };
    atomic_store_explicit(&p->batch_done, 0, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->outstanding, n - 1, memory_order_relaxed);
    if (lend)
        atomic_fetch_add_explicit(&p->lent, n - 1, memory_order_relaxed);
    for (int k = 1; k < n; k++) {
        int d = after(p->id, k, n);
        hr__proc_check_link(p, d, p->coll_what);
        hr_msg msg = { .kind = kind, .tag = p->coll_tag, .len = len,
                       .data = (const unsigned char *)base + (size_t)d * stride };
        stamp_async(p, &msg, d);
    }
    /* Sequentially consistent, as the waits' state store: a receiver that blocked before it is
     * seen blocked below, and one that blocks after sees it. */
    atomic_store(&p->batch_serial, p->world_colls);
    p->coll_batch = 1;
    for (int k = 1; k < n; k++)
        hr__wake_for(&p->m->procs[after(p->id, k, n)], p->id);
    hr__proc_publish(p);
    after_send(p, before);
    return 1;
}

static int batch_ready(hr_proc *p, void *ctx)
{
    hr_proc *src = ctx;
    hr__proc_event(p, HR_TIME_INF);
    return atomic_load(&src->batch_serial) == p->world_colls;
}

/* Wait for src's batch of this collective; *msg gets the message that p's block in it stands
 * for. */
static void batch_block(hr_proc *p, int src, size_t len, hr_msg *msg)
{
    hr_proc *q = &p->m->procs[src];
    hr_wait_desc d = { HR_WAIT_RECV, src, p->coll_tag, len, p->coll_what, 0 };
    hr__wait(p, &d, batch_ready, q);
    const hr_batch *b = &q->batch;
    int64_t k = after(p->id, -(int64_t)src, p->m->p);      /* p is the k-th after src */
    *msg = (hr_msg){ .src = src, .dst = p->id, .tag = p->coll_tag, .kind = b->kind,
                     .seq = b->seq1 + (uint64_t)(k - 1), .step = b->step1 + (uint64_t)(k - 1),
                     .len = b->len, .data = b->base + (size_t)p->id * b->stride };
    msg->sent = hr__batch_sent(b, k);
    msg->arrive = hr__tadd(msg->sent, hr__net_latency(p->m->net, &p->m->cost, src, p->id));
    check_len(p, msg, len);
}

/* p has taken msg, a block of its source's batch, at r (posted at post): as release does. */
static void batch_release(hr_proc *p, const hr_msg *msg, hr_time post, hr_time r)
{
    hr_proc *q = &p->m->procs[msg->src];
    hr_time done = hr__max(post, r);
    hr_time t = atomic_load_explicit(&q->batch_done, memory_order_relaxed);
    while (t < done && !atomic_compare_exchange_weak_explicit(&q->batch_done, &t, done,
                                                              memory_order_relaxed,
                                                              memory_order_relaxed))
        ;
    if (atomic_fetch_sub_explicit(&q->outstanding, 1, memory_order_acq_rel) == 1)
        hr__wake(q);
    hr__proc_publish(p);
}

/* Take p's block of src's batch into buf, or (view) view it in place until hr__view_end: as
 * take and hr__coll_view do a message. Returns where its bytes are. */
static const void *batch_take(hr_proc *p, int src, void *buf, size_t len, int view)
{
    hr_msg msg;
    hr_time post = p->clock;
    batch_block(p, src, len, &msg);
    hr_time r = absorb_msg(p, &msg, post);
    took(p, &msg);
    tell_taken(p, &msg, view ? NULL : buf);
    if (!view)
        hr__copy_bytes(p->m, buf, msg.data, len);
    batch_release(p, &msg, post, r);
    hr_proc *q = &p->m->procs[src];
    if (msg.kind == HR_MSG_LEND && view)
        add_view(p, src);
    else if (msg.kind == HR_MSG_LEND && atomic_fetch_sub_explicit(&q->lent, 1, memory_order_acq_rel) == 1)
        hr__wake(q);     /* copied: given back at once, as take does */
    return msg.data;
}

void hr__coll_take(hr_proc *p, int src, void *buf, size_t len)
{
    if (p->coll_batch) {
        batch_take(p, src, buf, len, 0);
        return;
    }
    recv_ctx c = { .src = src, .tag = p->coll_tag, .post = p->clock };
    hr_wait_desc d = { HR_WAIT_RECV, src, p->coll_tag, len, p->coll_what, 0 };
    hr__wait(p, &d, recv_ready, &c);
    check_len(p, c.msg, len);
    take(p, &c, buf);
}

/* Ready when count sources have a routed collective block in p's queue. A grant (everyone
 * waits) is left for the takes, which force their blocks' routing up to the granted event. */
static int blocks_ready(hr_proc *p, void *ctx)
{
    int count = *(const int *)ctx;
    drain_all(p);
    p->recv_idle = 1;
    p->seen_news = atomic_load(&p->news);
    hr__transit_decide(p, NULL, 0);
    int have = 0;
    const hr_msg *least = NULL;
    for (int i = 0; i < p->box.nactive; i++) {
        hr_msg *prev;
        const hr_msg *msg = hr__mbox_find_at(&p->box, i, p->coll_tag, &prev);
        if (msg == NULL)
            continue;
        if (hr__msg_routed(msg))
            have++;
        else if (least == NULL || hr__msg_before(msg->sent, msg, least->sent, least))
            least = msg;
    }
    if (have >= count || atomic_load(&p->granted)) {
        hr__proc_event(p, HR_TIME_INF);
        return 1;
    }
    p->await_need = count - have;
    p->wait.bytes = (size_t)(count - have);
    if (least != NULL)
        route_wait(p, least);
    else
        hr__proc_event(p, HR_TIME_INF);
    return 0;
}

void hr__coll_await(hr_proc *p, int count)
{
    /* p takes every block before it sends again, so it may stay parked, out of the routing
     * decisions, until they are all routed, and sleeps once instead of once a block. Blocks of
     * a later collective from a source not in this one may be counted: the wait then ends
     * early, which is safe (the takes wait for the rest). */
    if (!routed_here(p) || count <= 0)
        return;
    hr_wait_desc d = { HR_WAIT_BLOCKS, HR_ANY, p->coll_tag, (size_t)count, p->coll_what, 0 };
    hr__wait(p, &d, blocks_ready, &count);
}

const void *hr__coll_view(hr_proc *p, int src, size_t len)
{
    if (p->coll_batch)
        return batch_take(p, src, NULL, len, 1);
    recv_ctx c = { .src = src, .tag = p->coll_tag, .post = p->clock };
    hr_wait_desc d = { HR_WAIT_RECV, src, p->coll_tag, len, p->coll_what, 0 };
    hr__wait(p, &d, recv_ready, &c);
    hr_msg *msg = c.msg;
    check_len(p, msg, len);
    const void *data = msg->data;
    int lent = msg->kind == HR_MSG_LEND;
    hr_time r = absorb(p, &c);
    took(p, msg);
    tell_taken(p, msg, NULL);
    release(p, &c, r);              /* taken, in the model; the data stays the sender's */
    if (lent)
        add_view(p, src);
    return data;
}

static int refs_ready(hr_proc *p, void *ctx)
{
    (void)ctx;
    hr__proc_event(p, HR_TIME_INF);
    return atomic_load_explicit(&p->outstanding, memory_order_acquire) == 0;
}

void hr__coll_complete(hr_proc *p)
{
    /* A collective returns on a processor once its messages are received: until then their data
     * is still read from its buffers. The model clock waits as the thread does, to the time each
     * receiver posted its receive (or absorbed the data, if later). That keeps every real-time
     * wait a model-time wait, which the resolver's safety argument needs (wait.c). LEND
     * messages stay on the list until hr__view_end: their data is still being read. */
    hr_wait_desc d = { HR_WAIT_REFS, HR_ANY, HR__TAG_COLL, 0, p->coll_what, 0 };
    hr__wait(p, &d, refs_ready, NULL);
    if (p->coll_batch)
        p->clock = hr__max(p->clock, atomic_load_explicit(&p->batch_done, memory_order_relaxed));
    hr_msg **at = &p->refs;
    while (*at != NULL) {
        hr_msg *msg = *at;
        p->clock = hr__max(p->clock, msg->done);
        if (msg->kind == HR_MSG_LEND) {
            at = &msg->own;
            continue;
        }
        *at = msg->own;
        unborrow(p, msg);
    }
    hr__proc_publish(p);
}

static int lent_ready(hr_proc *p, void *ctx)
{
    (void)ctx;
    hr__proc_event(p, HR_TIME_INF);
    return atomic_load_explicit(&p->lent, memory_order_acquire) == 0;
}

void hr__view_end(hr_proc *p)
{
    /* Views cost nothing in the model: the blocks were taken, and charged, by hr__coll_view.
     * The wait is real time only. It cannot take part in a quiescent state the resolver would
     * act on: between a view and its end nobody communicates (hr__proc_comm_point), so whoever
     * still views the caller's blocks is computing, or is here having released them. */
    for (int k = 0; k < p->nviews; k++) {
        hr_proc *sender = &p->m->procs[p->views[k]];
        if (atomic_fetch_sub_explicit(&sender->lent, 1, memory_order_acq_rel) == 1)
            hr__wake(sender);
    }
    p->nviews = 0;
    hr_wait_desc d = { HR_WAIT_LENT, HR_ANY, HR__TAG_COLL, 0, "hr_view_end", 0 };
    hr__wait(p, &d, lent_ready, NULL);
    while (p->refs != NULL) {    /* all LEND now: hr__coll_complete freed the rest */
        hr_msg *next = p->refs->own;
        unborrow(p, p->refs);
        p->refs = next;
    }
    if (p->coll_lent && p->m->cm->superstep != NULL) {   /* the lending collective's superstep */
        p->coll_lent = 0;
        hr__superstep_end(p, p->coll_name);
    }
}

void hr__p2p_unreceived(hr_machine *m, hr_run_result *res)
{
    /* Runs of one (src, dst, tag) are named together, in receiver, then sender order, the
     * first four; every one is counted. */
    size_t at = 0;
    int named = 0;
    res->unreceived = 0;
    res->unreceived_why[0] = '\0';
    for (int d = 0; d < m->p; d++) {
        hr_proc *q = &m->procs[d];
        while (hr__mbox_drain(&q->box) == 0)    /* -1 (no memory): count what is listed */
            hr__exec_yield(q);
        int nsrc;
        hr__mbox_src *sorted = hr__mbox_sorted(&q->box, &nsrc);
        const hr__mbox_src *pending = sorted != NULL ? sorted : q->box.active;
        if (sorted == NULL)
            nsrc = q->box.nactive;            /* no memory to sort: named out of order */
        for (int i = 0; i < nsrc; i++) {
            int s = pending[i].src;
            const hr_msg *msg = pending[i].head;
            while (msg != NULL) {
                if (msg->tag < 0) {          /* a collective's: never the user's to receive */
                    msg = msg->next;
                    continue;
                }
                int tag = msg->tag;
                uint64_t n = 0, bytes = 0;
                for (; msg != NULL && msg->tag == tag; msg = msg->next) {
                    n++;
                    bytes += msg->len;
                }
                res->unreceived += n;
                if (named++ < 4) {
                    int w = snprintf(res->unreceived_why + at, sizeof res->unreceived_why - at,
                                     "%sP%d -> P%d tag %d: %llu message%s (%llu bytes)",
                                     at > 0 ? "; " : "", s, d, tag, (unsigned long long)n,
                                     n == 1 ? "" : "s", (unsigned long long)bytes);
                    if (w > 0 && (size_t)w < sizeof res->unreceived_why - at)
                        at += (size_t)w;
                } else if (named == 5 && at + 8 < sizeof res->unreceived_why) {
                    memcpy(res->unreceived_why + at, "; ...", 6);
                    at += 5;
                }
            }
        }
        free(sorted);
    }
}

void hr__p2p_reset(hr_proc *p)
{
    hr__mbox_clear(&p->box);
    while (p->copy_free != NULL) {
        hr_msg *next = p->copy_free->next;
        free(p->copy_free);
        p->copy_free = next;
    }
    p->ncopy_free = 0;
}
