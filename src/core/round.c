/* round.c: the round engine of seed 003's disciplines (fifo, priority, arbitrary, ocpc).
 *
 * A round is one barrier. Each processor leaves at most one message in its slot (hr_round_send)
 * and ends the round (hr_round_end). The last processor to end it resolves the whole round while
 * the others sleep: it groups the new messages by receiver in source order, runs the
 * discipline's rule (net/disc_round.c) for every receiver in id order with that receiver's own
 * random stream, moves each received message to its receiver, writes every sender's fate and
 * the round's end, and wakes everyone (hr__release_word). Each processor then moves its own clock
 * to the round's end. Serial resolution is O(p + messages) per round, and makes the outcome
 * independent of the schedule by construction. It scans the compact slots (core.h,
 * hr_round_slot), and touches a processor's own state only where it receives or its message is
 * taken. It also writes the trace events (hr_machine_events) when they are on: in resolution
 * order, so the same for every schedule.
 *
 * Model time (docs/model.md): a round in which anything happens lasts
 *     tau + sigma * m + 2 * overhead,
 * m the longest message sent or received in it; it starts when the last processor ends its
 * local work (the largest clock), and every clock leaves the round at its end. The call in which
 * every processor says it has nothing more to do is no round: it costs nothing and is not counted.
 */
#include "core/core.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The discipline's streams: receiver j draws from stream 2^32 + j of the seed, apart from the
 * algorithm's stream j. */
#define RULE_STREAM (UINT64_C(1) << 32)

int hr__round_init(hr_machine *m)
{
    if (!(m->disc->traits & HR_DISC_IN_ROUNDS))
        return HR_OK;                 /* hr_round_* refuse to run: nothing to keep */
    size_t p = (size_t)m->p;
    m->rnd_head = malloc(p * sizeof *m->rnd_head);
    m->rnd_link = malloc(p * sizeof *m->rnd_link);
    m->rnd_arr = malloc(p * sizeof *m->rnd_arr);
    m->rnd_lost = malloc(p);
    m->rnd_slot = calloc(p, sizeof *m->rnd_slot);
    m->rnd_in = calloc(p, sizeof *m->rnd_in);
    m->rnd_queued = calloc(p, sizeof *m->rnd_queued);
    if (m->rnd_head == NULL || m->rnd_link == NULL || m->rnd_arr == NULL || m->rnd_lost == NULL ||
        m->rnd_slot == NULL || m->rnd_in == NULL || m->rnd_queued == NULL)
        return HR_ENOMEM;
    return HR_OK;
}

void hr__round_destroy(hr_machine *m)
{
    for (int i = 0; m->procs != NULL && i < m->p; i++) {
        hr_round_proc *r = &m->procs[i].rnd;
        free(r->buf);
        free(r->got);
        if (m->rnd_in != NULL)
            hr__rqueue_free(&m->rnd_in[i].queue);
    }
    free(m->rnd_head);
    free(m->rnd_link);
    free(m->rnd_arr);
    free(m->rnd_lost);
    free(m->rnd_slot);
    free(m->rnd_in);
    free(m->rnd_queued);
}

void hr__round_reset(hr_proc *p)
{
    hr_machine *m = p->m;
    if (m->rnd_slot == NULL)
        return;                       /* not a round discipline */
    m->rnd_slot[p->id] = (hr_round_slot){ .state = HR_ROUT_NONE, .fate = HR_FATE_NONE };
    hr_round_in *in = &m->rnd_in[p->id];
    in->queue.n = in->queue.head = 0;
    in->got_src = -1;
    in->got_len = 0;
    hr__rng_seed(&in->rng, m->cfg.seed, RULE_STREAM + (uint64_t)p->id);
    m->rnd_queued[p->id] = 0;
    m->rnd_head[p->id] = -1;
}

static void need_rounds(hr_proc *p, const char *call)
{
    if (!(p->traits & HR_DISC_IN_ROUNDS))
        hr__misuse(p, "%s: discipline %s has no rounds (the round disciplines are fifo, priority, "
                   "arbitrary and ocpc)", call, p->m->disc->name);
}

/* Room for len bytes at *buf; 0, or -1 without memory. */
static int reserve(unsigned char **buf, size_t *cap, size_t len)
{
    if (len <= *cap)
        return 0;
    size_t c = *cap ? *cap : 16;
    while (c < len)
        c *= 2;
    unsigned char *b = realloc(*buf, c);
    if (b == NULL)
        return -1;
    *buf = b;
    *cap = c;
    return 0;
}

/* Whether a message of len bytes travels inside its slot and in-box: when it fits, or when
 * nothing is kept (hr__kept); else in its sender's and receiver's buffers. */
static int fits_inline(const hr_machine *m, size_t len)
{
    return hr__kept(m, len) <= HR_ROUND_INLINE;
}

/* Where a message of len bytes is kept: inline_bytes when it fits, else the processor's buffer
 * *buf, grown to fit. NULL without memory. */
static unsigned char *room(const hr_machine *m, unsigned char *inline_bytes, unsigned char **buf,
                          size_t *cap, size_t len)
{
    if (fits_inline(m, len))
        return inline_bytes;
    return reserve(buf, cap, hr__kept(m, len)) == 0 ? *buf : NULL;
}

hr_fate hr_round_send(hr_proc *p, int dest, const void *buf, size_t len, uint64_t prio)
{
    need_rounds(p, "hr_round_send");
    hr__check_peer(p, dest, "hr_round_send", 0);
    if (buf == NULL && len > 0)
        hr__misuse(p, "hr_round_send: NULL buffer of %zu bytes", len);
    hr__proc_comm_point(p);
    hr__proc_check_link(p, dest, "hr_round_send");
    hr_round_proc *r = &p->rnd;
    hr_round_slot *sl = &p->m->rnd_slot[p->id];
    if (sl->sent)
        hr__misuse(p, "hr_round_send: a second message in one round (one per round)");
    if (sl->state == HR_ROUT_QUEUED)
        return HR_FATE_STALLED;
    unsigned char *to = room(p->m, sl->bytes, &r->buf, &r->cap, len);
    if (to == NULL)
        hr_fail(p, "out of memory sending %zu bytes", len);
    hr__copy_bytes(p->m, to, buf, len);
    sl->dest = dest;
    sl->len = len;
    sl->prio = prio;
    sl->state = HR_ROUT_NEW;
    sl->sent = 1;
    sl->nsent++;
    p->msgs_out++;
    p->bytes_out += len;
    return HR_FATE_SENT;
}

/* Receiver j takes sender s's message, in the serial part: from s's slot (or buffer) into j's
 * in-box (or buffer). j counts it as received when it runs again (hr_round_end). 0, or -1
 * without memory. */
static int deliver(hr_machine *m, int j, int s)
{
    hr_round_slot *sl = &m->rnd_slot[s];
    hr_round_in *in = &m->rnd_in[j];
    size_t len = sl->len;
    const unsigned char *from = fits_inline(m, len) ? sl->bytes : m->procs[s].rnd.buf;
    hr_round_proc *rj = &m->procs[j].rnd;
    unsigned char *to = room(m, in->got, &rj->got, &rj->got_cap, len);
    if (to == NULL)
        return -1;
    hr__copy_bytes(m, to, from, len);
    in->got_src = s;
    in->got_len = len;
    if (m->taken != NULL)      /* the sender's round message number nsent - 1 */
        m->taken(m->taken_arg, &m->procs[j], s, HR__TAG_ROUND, sl->nsent - 1, len, NULL);
    sl->state = HR_ROUT_NONE;
    sl->fate = HR_FATE_DELIVERED;
    return 0;
}

/* On a topology with links, every message sent in the round crosses the network from the
 * round's start, in source order; the round lasts until the last one is absorbed, so its length
 * follows from its most loaded link (docs/model.md). On complete that is tau + sigma * the
 * longest message. */
typedef struct round_job {
    hr_machine *m;
    hr_time     start, end;
} round_job;

static void route_round(hr_net *net, void *ctx)
{
    round_job *j = ctx;
    for (int s = 0; s < j->m->p; s++) {
        const hr_round_slot *sl = &j->m->rnd_slot[s];
        if (!sl->sent)
            continue;
        j->m->link_msg = (uint64_t)s << 32 | ((j->m->procs[s].msgs_out - 1) & 0xffffffffu);
        hr_time a = hr__net_route(net, s, sl->dest, j->start, sl->len);
        j->end = hr__max(j->end, hr__tadd(a, hr__cost_bytes(&j->m->cost, sl->len)));
    }
}

/* Record a round message's fate (the serial part's: the machine's buffer is its own). */
static void round_event(hr_machine *m, hr_time start, int src, int dst, uint64_t prio,
                        const char *fate, int queue)
{
    if (m->ev_limit == 0)
        return;
    hr_event e = { .kind = HR_EV_ROUND, .proc = src, .peer = dst,
                   /* a sender's message stays until it leaves the receiver's queue: its count
                    * of messages names it */
                   .msg = (uint64_t)src << 32 | ((m->procs[src].msgs_out - 1) & 0xffffffffu),
                   .bytes = m->rnd_slot[src].len, .tag = 0, .prio = prio,
                   .queue = queue, .round = m->rnd_count + 1, .fate = fate, .link = -1 };
    hr__ev_add(&m->rev, m->ev_limit, e, start, start);
}

/* The serial part: every other processor sleeps in hr_round_end. 0, or -1 without memory. Not
 * inlined: its locals would make hr_round_end's frame, which every sleeping processor keeps on
 * its stack, 256 bytes instead of 64 (on fibers that is three more lines of each stack to bring
 * back at each round: hrel.pq_random at p = 1024, 7 % fewer of cachegrind's 512 KiB L2 misses). */
static __attribute__((noinline)) int end_round(hr_machine *m)
{
    int np = m->p, more = 0, busy = 0, rec = m->ev_limit != 0;
    const uint8_t *lost = m->disc->traits & HR_DISC_LOSES ? m->rnd_lost : NULL;
    size_t mmax = 0;
    hr_time start = 0;
    int *head = m->rnd_head, *link = m->rnd_link;
    hr_round_slot *slot = m->rnd_slot;
    /* In locals: the slots' one-byte fields are stores through a character type, which may
     * alias m itself, and the compiler would read these again after each. */
    hr_round_in *inbox = m->rnd_in;
    uint32_t *queued = m->rnd_queued;
    uint8_t *lost_at = m->rnd_lost;
    hr_round_rule rule = m->disc->rule;

    /* The round's new messages, listed by receiver in source order: the senders from the last
     * down, each put first in its receiver's list (one pass; the lists are emptied as the
     * receivers take them below). */
    for (int s = np - 1; s >= 0; s--) {
        hr_round_slot *sl = &slot[s];
        start = hr__max(start, sl->clock);
        more += sl->more;
        if (sl->state != HR_ROUT_QUEUED)
            sl->fate = HR_FATE_NONE;
        if (sl->state == HR_ROUT_NEW) {
            link[s] = head[sl->dest];
            head[sl->dest] = s;
            busy = 1;
            mmax = sl->len > mmax ? sl->len : mmax;
        }
    }

    /* Every receiver's rule, in id order. */
    hr_arrival *a = m->rnd_arr;
    for (int j = 0; j < np; j++) {
        int na = 0;
        for (int s = head[j]; s >= 0; s = link[s])
            a[na++] = (hr_arrival){ s, slot[s].prio };
        head[j] = -1;
        if (na == 0 && queued[j] == 0)
            continue;
        hr_round_in *in = &inbox[j];
        hr_rqueue *queue = &in->queue;
        busy = 1;
        int got = rule(queue, a, na, &in->rng, lost_at);
        if (got == -2)
            return -1;
        int from_queue = got >= 0;
        for (int k = 0; k < na; k++) {
            hr_round_slot *sl = &slot[a[k].src];
            if (lost != NULL && lost[k]) {
                sl->state = HR_ROUT_NONE;
                sl->fate = HR_FATE_LOST;
                m->procs[a[k].src].lost++;
            } else if (a[k].src != got) {
                sl->state = HR_ROUT_QUEUED;
                sl->fate = HR_FATE_QUEUED;
            } else {
                from_queue = 0;
            }
            if (rec)
                round_event(m, start, a[k].src, j, a[k].prio,
                            lost != NULL && lost[k] ? "lost"
                            : a[k].src != got      ? "queued"
                                                   : "delivered",
                            queue->n);
        }
        if (from_queue && rec)
            round_event(m, start, got, j, slot[got].prio, "delivered", queue->n);
        if (got >= 0) {
            mmax = slot[got].len > mmax ? slot[got].len : mmax;
            if (deliver(m, j, got) != 0)
                return -1;
        }
        queued[j] = (uint32_t)queue->n;
    }

    m->rnd_more = more;
    m->rnd_counted = busy || more > 0;
    m->rnd_count += (uint64_t)m->rnd_counted;
    round_job job = { m, start, hr__tadd(hr__tadd(start, m->cost.tau),
                                         hr__cost_bytes(&m->cost, mmax)) };
    hr__transit_serial(m, route_round, &job);
    m->rnd_end = hr__tadd(job.end, hr__tmul(2, m->cost.overhead));
    return 0;
}

int hr_round_end(hr_proc *p, int more)
{
    need_rounds(p, "hr_round_end");
    hr__proc_comm_point(p);
    hr_machine *m = p->m;
    hr_round_slot *sl = &m->rnd_slot[p->id];
    hr_round_in *in = &m->rnd_in[p->id];
    sl->more = more != 0;
    sl->clock = p->clock;
    in->got_src = -1;
    uint32_t gen = atomic_load(&m->rnd_gen);
    if (hr__add(m, &m->rnd_arrived, 1) + 1 == m->p) {
        atomic_store_explicit(&m->rnd_arrived, 0, memory_order_relaxed);   /* the others wait */
        int ok = end_round(m) == 0;
        hr__release_word(m, p, &m->rnd_gen);
        if (!ok)
            hr_fail(p, "out of memory in the round engine");
    } else {
        /* Constant, not built on the stack just before the call, whose copy of it then
         * waited on those stores (perf put 6 % of a round's samples there at p = 1024 on
         * fibers; wall time fell 1 to 2 %). */
        static const hr_wait_desc d = { HR_WAIT_ROUND, HR_ANY, 0, 0, "hr_round_end", 0 };
        hr__wait_word(p, &d, &m->rnd_gen, gen);
    }
    /* The round's end, applied by each processor to itself (the serial part leaves the
     * processors alone): its clock, what it received, and the stalls of the senders waiting
     * in its queue, each a round. */
    sl->sent = 0;
    if (m->rnd_counted) {
        p->clock = m->rnd_end;
        p->rounds++;
    }
    if (in->got_src >= 0) {
        p->msgs_in++;
        p->bytes_in += in->got_len;
    }
    p->stalls += m->rnd_queued[p->id];
    hr__proc_publish(p);
    return m->rnd_more;
}

hr_fate hr_round_fate(const hr_proc *p)
{
    return (hr_fate)p->m->rnd_slot[p->id].fate;
}

int hr_round_recv(hr_proc *p, void *buf, size_t cap, hr_status *st)
{
    need_rounds(p, "hr_round_recv");
    hr_round_in *in = &p->m->rnd_in[p->id];
    if (in->got_src < 0)
        return 0;
    size_t len = in->got_len;
    if (len > cap)
        hr__misuse(p, "hr_round_recv: a message of %zu bytes from P%d, but room for %zu", len,
                   in->got_src, cap);
    hr__copy_bytes(p->m, buf, fits_inline(p->m, len) ? in->got : p->rnd.got, len);
    if (st != NULL)
        *st = (hr_status){ in->got_src, 0, len };
    in->got_src = -1;
    return 1;
}
