/* buffer.c: bounded receive buffers of discipline async (buffer = BYTES), as in seed 002's AC:
 * a message occupies its receiver's buffer from its admission until the receiver takes it, and
 * a sender whose message does not fit waits until enough is taken.
 *
 * Determinism. Whether a message fits depends on what else arrived and what was taken by then,
 * in model time, so admissions are decided per receiver in (arrival, source, sequence) order and
 * only when the outcome is fixed: every message that could come earlier has been sent (every
 * other processor's clock + tau is past the decision time, as for receives from ANY) and the
 * receiver's clock is past it too (its later receives cannot free space earlier). Otherwise the
 * sender waits, and at quiescence the resolver grants the earliest decision (machine.c).
 *
 *   admission time  t = max(arrival, previous admission)      (first come, first served)
 *   fits            bytes admitted by t and not taken by t, plus this message, <= capacity
 *   taken at        max(receive posted, absorbed)             (the receiver copies it out)
 *   a message that does not fit at t is admitted at the first take after t that makes room,
 *   and arrives then; later messages to the same receiver wait behind it.
 *
 * Every field of hr_rbuf is under its lock; the sender owns its message until it is admitted,
 * then the receiver does, as for any message.
 */
#include "core/core.h"

#include <stdlib.h>

#include "util/sync.h"

/* One admitted message's stay in the buffer. */
typedef struct stay {
    struct stay *next;
    hr_time      in, out;      /* out: HR_TIME_INF until taken */
    size_t       bytes;
} stay;

struct hr_rbuf {
    pthread_mutex_t lock;
    uint64_t        cap;
    hr_msg         *pending;   /* submitted, not admitted, in key order; linked by ->next */
    stay           *stays;     /* admitted messages not known to be gone before last_in */
    hr_time         last_in;   /* the latest admission time */
};

int hr__rbuf_create(hr_rbuf **out, uint64_t cap)
{
    hr_rbuf *b = calloc(1, sizeof *b);
    if (b == NULL)
        return HR_ENOMEM;
    hr__mutex_init(&b->lock);
    b->cap = cap;
    *out = b;
    return HR_OK;
}

void hr__rbuf_reset(hr_rbuf *b)
{
    while (b->pending != NULL) {
        hr_msg *next = b->pending->next;
        free(b->pending->stay);
        free(b->pending);
        b->pending = next;
    }
    while (b->stays != NULL) {
        stay *next = b->stays->next;
        free(b->stays);
        b->stays = next;
    }
    b->last_in = 0;
}

void hr__rbuf_destroy(hr_rbuf *b)
{
    if (b == NULL)
        return;
    hr__rbuf_reset(b);
    hr__mutex_destroy(&b->lock);
    free(b);
}

static int key_before(const hr_msg *x, const hr_msg *y)
{
    return hr__msg_before(x->arrive, x, y->arrive, y);
}

static uint64_t held_at(hr_rbuf *b, hr_time t)
{
    uint64_t held = 0;
    for (stay **s = &b->stays; *s != NULL;) {
        if ((*s)->out <= b->last_in) {    /* gone before any future admission: forget it */
            stay *gone = *s;
            *s = gone->next;
            free(gone);
            continue;
        }
        if ((*s)->in <= t && (*s)->out > t)
            held += (*s)->bytes;
        s = &(*s)->next;
    }
    return held;
}

/* The first time >= t at which len more bytes fit, among t and the recorded takes; HR_TIME_INF if
 * only a take still to come can make room. Recorded takes are final: a receiver's takes happen
 * in its program order at non-decreasing times, and the next one no earlier than its clock. */
static hr_time fit_time(hr_rbuf *b, hr_time t, size_t len)
{
    if (held_at(b, t) + len <= b->cap)
        return t;
    hr_time best = HR_TIME_INF;
    for (stay *s = b->stays; s != NULL; s = s->next)
        if (s->out > t && s->out < best && held_at(b, s->out) + len <= b->cap)
            best = s->out;
    return best;
}

/* Admit the head of pending at time t: it arrives then and goes to the receiver's mailbox. Its
 * stay record came with it (hr__rbuf_send), so admission cannot fail. */
static void admit(hr_proc *r, hr_rbuf *b, hr_time t)
{
    hr_msg *msg = b->pending;
    stay *s = msg->stay;
    *s = (stay){ b->stays, t, HR_TIME_INF, msg->len };
    b->stays = s;
    b->pending = msg->next;
    b->last_in = t;
    msg->arrive = t;
    msg->stay = s;
    hr_proc *sender = &r->m->procs[msg->src];
    /* The sender learns through its own fields: msg is the receiver's once it is in the mailbox. */
    sender->buf_admit = t;
    atomic_store_explicit(&sender->buf_admitted, 1, memory_order_release);
    int src = msg->src;
    hr__mbox_put(&r->box, msg);       /* the receiver owns msg from here on */
    hr__wake_for(r, src);
    hr__wake(sender);
    /* The next message is at the head now: its sender's published event (what the resolver
     * reads) was computed when it was not, so let it look again. */
    if (b->pending != NULL)
        hr__wake(&r->m->procs[b->pending->src]);
}

/* Decide what can be decided, in key order. grant: the resolver allows deciding the head now. */
static void decide(hr_proc *r, hr_rbuf *b, int grant)
{
    while (b->pending != NULL) {
        hr_msg *msg = b->pending;
        hr_time t = hr__max(msg->arrive, b->last_in);
        if (msg->stalled)
            return;    /* waits for a take (hr__rbuf_taken); later ones wait behind it */
        if (!grant) {
            hr_time rclock = atomic_load_explicit(&r->pub_clock, memory_order_acquire);
            if (rclock <= t || !hr__nothing_before(r, t, msg->src, msg->src))
                return;
        }
        grant = 0;
        hr_time at = fit_time(b, t, msg->len);
        if (at == HR_TIME_INF) {
            msg->stalled = 1;
            return;
        }
        admit(r, b, at);
    }
}

typedef struct submit_ctx {
    hr_proc *r;
    hr_msg  *msg;
} submit_ctx;

static int admitted_ready(hr_proc *p, void *ctx)
{
    submit_ctx *c = ctx;
    hr_rbuf *b = c->r->rbuf;
    if (atomic_load_explicit(&p->buf_admitted, memory_order_acquire))
        return 1;
    hr__mutex_lock(&b->lock);
    int grant = atomic_exchange(&p->granted, 0) && b->pending == c->msg;
    decide(c->r, b, grant);
    /* Not admitted means still pending, so msg may be read under the lock. */
    int done = atomic_load_explicit(&p->buf_admitted, memory_order_acquire);
    hr_time ev = HR_TIME_INF;
    if (!done && b->pending == c->msg && !c->msg->stalled)
        ev = hr__max(c->msg->arrive, b->last_in);
    hr__proc_event(p, ev);
    hr__mutex_unlock(&b->lock);
    return done;
}

void hr__rbuf_send(hr_proc *p, int dest, hr_msg *msg)
{
    hr_proc *r = &p->m->procs[dest];
    hr_rbuf *b = r->rbuf;
    if (msg->len > b->cap) {
        size_t len = msg->len;
        free(msg);
        hr__misuse(p, "hr_send: a %zu-byte message can never fit in P%d's %llu-byte receive buffer",
                len, dest, (unsigned long long)b->cap);
    }
    /* The stay record is allocated here, where a failure can fail the sender, and not when the
     * message is admitted, which may happen on another processor's thread. */
    if ((msg->stay = malloc(sizeof(stay))) == NULL) {
        free(msg);
        hr_fail(p, "out of memory sending to P%d's receive buffer", dest);
    }
    hr_time arrival = msg->arrive, before = p->clock;
    /* What a stall event names: msg may be freed once admitted. */
    uint64_t seq = msg->seq;
    size_t len = msg->len;
    int tag = msg->tag;
    msg->stalled = 0;
    atomic_store(&p->buf_admitted, 0);
    hr__mutex_lock(&b->lock);
    hr_msg **at = &b->pending;
    while (*at != NULL && key_before(*at, msg))
        at = &(*at)->next;
    msg->next = *at;
    *at = msg;
    hr__mutex_unlock(&b->lock);
    hr__proc_publish(p);    /* others' decisions may wait on this clock */
    submit_ctx c = { r, msg };
    hr_wait_desc d = { HR_WAIT_BUFFER, dest, msg->tag, msg->len, "hr_send", 0 };
    hr__wait(p, &d, admitted_ready, &c);
    /* From here msg is the receiver's (it may be taken and freed already). */
    if (p->buf_admit > arrival) {
        p->stalls++;
        p->clock = hr__max(p->clock, p->buf_admit);
        hr__ev_stall(p, dest, seq, len, tag, before, p->clock);
        hr__proc_publish(p);
    }
}

void hr__rbuf_taken(hr_proc *r, hr_msg *msg, hr_time when)
{
    hr_rbuf *b = r->rbuf;
    hr__mutex_lock(&b->lock);
    ((stay *)msg->stay)->out = when;
    /* The first stalled message gets in at the first take that makes room for it. */
    hr_msg *head = b->pending;
    if (head != NULL && head->stalled) {
        hr_time t = hr__max(when, b->last_in);
        if (held_at(b, t) + head->len <= b->cap) {
            head->stalled = 0;
            admit(r, b, t);
            decide(r, b, 0);
        }
    }
    hr__mutex_unlock(&b->lock);
}
