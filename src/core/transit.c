/* transit.c: on a topology with links, when each message arrives depends on every message that
 * crossed its links before it, so arrivals are decided in one canonical order: by injection
 * time, then source, then sequence (docs/model.md, "Link contention").
 *
 * A sender stamps its message with the injection time and submits it here; nobody knows its
 * arrival yet. The least submitted message is routed (net/network.c reserves its links) once
 * no processor can still inject one before it: every other processor's published clock is past
 * its key, as for receives from any (p2p.c) but with no lookahead, since an injection can come
 * at the sender's clock itself. Whoever finds that true routes what it can: the sender after it
 * publishes, a receiver that waits for the message. A receiver whose message cannot be routed
 * waits with the message's injection time as its pending event; if every processor waits, the
 * resolver grants the least event (machine.c), and the grantee routes up to its message: safe,
 * because everything the grant lets happen happens at that time or later, and arrives tau later.
 *
 * Every field is under the lock. A routed message's arrive is published with its routed flag
 * (release); the receiver reads it after the flag (acquire), and from then on owns it.
 */
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sync.h"

struct hr_transit {
    pthread_mutex_t lock;
    hr_net          net;
    hr_msg        **heap;      /* submitted, not routed: a binary heap by key */
    size_t          n, cap;
    /* The least published clock at the last decision, read without the lock: a sender whose
     * clock was past it cannot be what holds routing back, and need not try (a hint only). */
    _Atomic hr_time least;
    /* The key of the last message routed: every later one must come after it. A message
     * submitted below it would have been routed out of order (the canonical order promised
     * has a hole): the run fails, naming both (order_broken). */
    struct { hr_time sent; int src, dst; uint64_t seq; } last;
    int             routed_any;
    hr_msg        **open;      /* open rendezvous messages, not yet committed (hr__transit_open) */
    size_t          nopen, capopen;
};

/* route_top's decider when routing is serial: every processor waits, no bounds are kept. */
#define SERIAL (-2)

/* Is msg's key below the last routed one's? */
static int below_last(const hr_transit *tr, const hr_msg *msg)
{
    if (!tr->routed_any || msg->sent != tr->last.sent)
        return tr->routed_any && msg->sent < tr->last.sent;
    return msg->src != tr->last.src ? msg->src < tr->last.src : msg->seq < tr->last.seq;
}

/* Fail the run: msg comes after a message routed before it, whose arrival may be wrong. Called
 * with the lock held; releases it. */
__attribute__((noreturn)) static void order_broken(hr_proc *p, hr_transit *tr, const hr_msg *msg)
{
    char why[400];
    snprintf(why, sizeof why,
             "internal error, the canonical order broke: P%d's message %llu to P%d, injected at "
             "%.9g s, was submitted after P%d's message %llu to P%d, injected at %.9g s, had been "
             "routed before it (model times may be wrong; please report this run)",
             msg->src, (unsigned long long)msg->seq, msg->dst, hr__time_to_s(msg->sent),
             tr->last.src, (unsigned long long)tr->last.seq, tr->last.dst,
             hr__time_to_s(tr->last.sent));
    hr__mutex_unlock(&tr->lock);
    hr_fail(p, "%s", why);
}

static int key_less(const hr_msg *a, const hr_msg *b)
{
    return hr__msg_before(a->sent, a, b->sent, b);
}

int hr__transit_create(hr_machine *m, hr_transit **out)
{
    hr_transit *tr = calloc(1, sizeof *tr);
    if (tr == NULL)
        return HR_ENOMEM;
    if (hr__net_init(&tr->net, m->net, &m->cost, m->switching) != HR_OK) {
        free(tr);
        return HR_ENOMEM;
    }
    tr->net.busy_arg = m;      /* busy: hr__transit_reset */
    hr__mutex_init(&tr->lock);
    *out = tr;
    return HR_OK;
}

void hr__transit_reset(hr_transit *tr, int links_recorded)
{
    if (tr == NULL)
        return;
    tr->net.busy = links_recorded ? hr__ev_link : NULL;
    tr->n = 0;     /* the messages themselves are the mailboxes' (hr__p2p_reset) */
    tr->nopen = 0;
    tr->routed_any = 0;
    hr__net_reset(&tr->net);
}

void hr__transit_destroy(hr_transit *tr)
{
    if (tr == NULL)
        return;
    hr__net_destroy(&tr->net);
    hr__mutex_destroy(&tr->lock);
    free(tr->heap);
    free(tr->open);
    free(tr);
}

/* Take msg off the open list: its receiver commits it (under the lock). */
static void unopen(hr_transit *tr, const hr_msg *msg)
{
    for (size_t i = 0; i < tr->nopen; i++)
        if (tr->open[i] == msg) {
            tr->open[i] = tr->open[--tr->nopen];
            return;
        }
    HR_ASSERT(0 && "an open rendezvous is on the open list");
}

void hr__transit_open(hr_proc *p, hr_msg *msg)
{
    hr_transit *tr = p->m->transit;
    if (tr == NULL || msg->dst == p->id)
        return;
    msg->open = 1;
    atomic_fetch_add(&p->sync_open, 1);
    hr__mutex_lock(&tr->lock);
    if (tr->nopen == tr->capopen) {
        size_t cap = tr->capopen ? 2 * tr->capopen : 64;
        hr_msg **o = realloc(tr->open, cap * sizeof *o);
        if (o == NULL) {
            hr__mutex_unlock(&tr->lock);
            hr_fail(p, "out of memory routing a message");
        }
        tr->open = o;
        tr->capopen = cap;
    }
    tr->open[tr->nopen++] = msg;
    hr__mutex_unlock(&tr->lock);
}

/* The least floor of the open messages (hr__transit_open), under the lock. A receive that will
 * take msg is posted no earlier than its receiver's first pending request, nor than its clock:
 * both are published after the receiver changes them, and only rise, so the values read now
 * bound what is posted later. */
static int least_floor(const hr_machine *m, const hr_transit *tr, hr_time *t, int *id,
                       uint64_t *seq)
{
    *t = HR_TIME_INF;
    *id = -1;
    for (size_t i = 0; i < tr->nopen; i++) {
        const hr_msg *msg = tr->open[i];
        const hr_proc *r = &m->procs[msg->dst];
        hr_time post = hr__min(atomic_load_explicit(&r->pub_clock, memory_order_acquire),
                               atomic_load(&r->post_floor));
        hr_time f = hr__max(msg->sent, post);
        if (*id < 0 || f < *t || (f == *t && (msg->src < *id || (msg->src == *id &&
                                                                 msg->seq < *seq)))) {
            *t = f;
            *id = msg->src;
            *seq = msg->seq;
        }
    }
    return *id >= 0;
}

int hr__transit_floor(hr_machine *m, hr_time *t, int *id, uint64_t *seq)
{
    hr_transit *tr = m->transit;
    if (tr == NULL)
        return 0;
    hr__mutex_lock(&tr->lock);
    int any = least_floor(m, tr, t, id, seq);
    hr__mutex_unlock(&tr->lock);
    return any;
}

void hr__transit_submit(hr_proc *p, hr_msg *msg)
{
    hr__transit_commit(p, msg, 0);
}

void hr__transit_commit(hr_proc *p, hr_msg *msg, hr_time post)
{
    hr_transit *tr = p->m->transit;
    hr__mutex_lock(&tr->lock);
    /* An open message's key is read under the lock (least_floor): it changes under it, on its
     * receiver's thread (an async message's never changes: its receiver reads it unlocked). */
    if (post > msg->sent)
        msg->sent = post;
    if (below_last(tr, msg))
        order_broken(p, tr, msg);
    if (msg->open)
        unopen(tr, msg);
    if (tr->n == tr->cap) {
        size_t cap = tr->cap ? 2 * tr->cap : 256;
        hr_msg **h = realloc(tr->heap, cap * sizeof *h);
        if (h == NULL) {
            hr__mutex_unlock(&tr->lock);
            hr_fail(p, "out of memory routing a message");
        }
        tr->heap = h;
        tr->cap = cap;
    }
    size_t i = tr->n++;
    while (i > 0 && key_less(msg, tr->heap[(i - 1) / 2])) {
        tr->heap[i] = tr->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    tr->heap[i] = msg;
    /* A receiver that awaits a collective's blocks is not woken for each one (p2p.c): if it is
     * parked, its event (for the resolver) becomes the least of its unrouted blocks' keys; if
     * not, it has not parked yet, and its park will fail and make it look again. */
    hr_proc *r = &p->m->procs[msg->dst];
    atomic_fetch_add(&r->news, 1);
    /* A rendezvous' sender may park from now on (a key at or after its clock is submitted):
     * if it sleeps unparked in a receive, wake it to park. */
    if (msg->open && atomic_fetch_sub(&p->m->procs[msg->src].sync_open, 1) == 1)
        hr__wake(&p->m->procs[msg->src]);
    if (atomic_load(&r->parked) && msg->tag < HR_ANY_TAG && atomic_load(&r->event) > msg->sent)
        hr__proc_event(r, msg->sent);
    hr__mutex_unlock(&tr->lock);
}

static hr_msg *pop(hr_transit *tr)
{
    hr_msg *top = tr->heap[0], *last = tr->heap[--tr->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= tr->n)
            break;
        if (c + 1 < tr->n && key_less(tr->heap[c + 1], tr->heap[c]))
            c++;
        if (!key_less(tr->heap[c], last))
            break;
        tr->heap[i] = tr->heap[c];
        i = c;
    }
    if (tr->n > 0)
        tr->heap[i] = last;
    return top;
}

/* Does msg end r's parked receive? (Under the lock; counts a collective's blocks down.) */
static int ends_park(hr_proc *r, const hr_msg *msg)
{
    if (r->park_need > 0)
        return msg->tag < HR_ANY_TAG && --r->park_need == 0;
    return r->park_src == HR_ANY || r->park_src == msg->src;
}

/* Route the least message and tell its receiver. If the decision under way (by decider) left
 * the receiver out, parked when the clocks were last read (clocks.h), and this message ends its
 * receive, return the time from which it may inject again, else HR_TIME_INF. A receiver left
 * out may wake meanwhile (a grant, a rendezvous delivered), but injects nothing before it
 * takes a message routed to it, so the first one that ends its receive bounds it again. It
 * takes a message first: this one, arriving at a, when it waits for exactly this one; else this
 * one or one routed later, which is keyed no earlier and arrives tau or more after its key
 * (every receive takes the clock to the arrival at least). */
static hr_time route_top(hr_machine *m, hr_transit *tr, int decider)
{
    hr_msg *msg = pop(tr);
    int src = msg->src;
    HR_ASSERT(!below_last(tr, msg));    /* the heap pops in key order; submit checked the rest */
    tr->last.sent = msg->sent;
    tr->last.src = src;
    tr->last.dst = msg->dst;
    tr->last.seq = msg->seq;
    tr->routed_any = 1;
    hr_proc *r = &m->procs[msg->dst];
    /* Its park's fields stand while the lock is held, whether or not it has woken since. */
    int ends = decider != SERIAL && msg->dst != decider &&
               hr__clocks_was_parked(&m->clocks, msg->dst) && ends_park(r, msg);
    atomic_fetch_add(&r->news, 1);
    m->link_msg = (uint64_t)src << 32 | (msg->seq & 0xffffffffu);
    hr_time a = hr__net_route(&tr->net, src, msg->dst, msg->sent, msg->len);
    msg->arrive = a;
    hr_time back = r->park_need == 0 && r->park_src == src &&
                           (r->park_tag == HR_ANY_TAG || r->park_tag == msg->tag)
                       ? a : hr__tadd(msg->sent, m->cost.tau);
    /* The route tree keeps back for r until it reads r again. It once forgot the park and kept
     * no key: r, woken meanwhile by a message put in its mailbox, had unparked itself, and its
     * touch had not reached the stale list yet (its carrier preempted between the two, seen
     * with three carriers under ThreadSanitizer). The next decision left r out as parked, with
     * nothing to bound it, and routed past the message r sent once it took this one: the
     * canonical order broke. */
    if (ends)
        hr__clocks_unpark(&m->clocks, msg->dst, back);
    int unparked = ends && hr__proc_unpark(r);
    atomic_store_explicit(&msg->routed, 1, memory_order_release);   /* msg is r's from here */
    if (unparked)
        hr__wake(r);
    else
        hr__wake_for(r, src);
    return ends ? back : HR_TIME_INF;
}

/* Keep (lo, lo_id) and (lo2, lo2_id) the two least (clock, id) pairs with (c, id) added. */
static void least_two(hr_time c, int id, hr_time *lo, int *lo_id, hr_time *lo2, int *lo2_id)
{
    if (c < *lo || (c == *lo && id < *lo_id)) {
        *lo2 = *lo;
        *lo2_id = *lo_id;
        *lo = c;
        *lo_id = id;
    } else if (c < *lo2 || (c == *lo2 && id < *lo2_id)) {
        *lo2 = c;
        *lo2_id = id;
    }
}

/* Is the key (t, id, seq) below msg's? */
static int key_below(hr_time t, int id, uint64_t seq, const hr_msg *msg)
{
    if (t != msg->sent)
        return t < msg->sent;
    return id != msg->src ? id < msg->src : seq < msg->seq;
}

void hr__transit_decide(hr_proc *p, const hr_msg *upto, int past_floors)
{
    hr_machine *m = p->m;
    hr_transit *tr = m->transit;
    hr__mutex_lock(&tr->lock);
    if (tr->n == 0) {
        hr__mutex_unlock(&tr->lock);
        return;
    }
    /* The least two published clocks, ties by id: the second for a head from the first. A
     * processor parked in a receive with nothing routed to take injects nothing until a message
     * is routed to it, here, under this lock, at a key no less than the head's; it arrives tau
     * later, so the parked one's next injection comes after the head: it is left out (the
     * route tree counts it as HR_TIME_INF), but never p itself. */
    hr_time lo[2], fl;
    int lo_id[2], fl_id;
    uint64_t fl_seq = 0;
    hr__clocks_least(&m->clocks, HR_CLOCKS_ROUTE, p->id, -1, 2, lo, lo_id);
    least_two(atomic_load_explicit(&p->pub_clock, memory_order_acquire), p->id, &lo[0],
              &lo_id[0], &lo[1], &lo_id[1]);
    /* Rendezvous transfers their receivers have not committed yet are keyed no earlier than
     * their floors. Commits are under this lock: the open list stands while it is held. */
    least_floor(m, tr, &fl, &fl_id, &fl_seq);
    atomic_store_explicit(&tr->least, hr__min(lo[0], fl), memory_order_relaxed);
    while (tr->n > 0) {
        hr_msg *top = tr->heap[0];
        int bounded = upto == NULL || key_less(upto, top);
        if (bounded) {
            /* The first processor other than top's source in (clock, id) order: the source's
             * own later injections come after top. */
            hr_time c = lo_id[0] == top->src ? lo[1] : lo[0];
            int id = lo_id[0] == top->src ? lo_id[1] : lo_id[0];
            if (c != HR_TIME_INF && (c < top->sent || (c == top->sent && id < top->src)))
                break;
        }
        /* An uncommitted rendezvous may precede top, even one of top's source. A grant does not
         * pass it either, unless the resolver found nothing else to grant (machine.c). */
        if ((bounded || !past_floors) && fl_id >= 0 && key_below(fl, fl_id, fl_seq, top))
            break;
        /* A parked receiver that now has a message may inject again from its arrival on: it
         * bounds what may be routed after this one. */
        int dst = top->dst;              /* top may be taken and freed once routed */
        hr_time back = route_top(m, tr, p->id);
        if (back != HR_TIME_INF)
            least_two(back, dst, &lo[0], &lo_id[0], &lo[1], &lo_id[1]);
    }
    hr__mutex_unlock(&tr->lock);
}

void hr__transit_sent_on(hr_proc *p, hr_time before)
{
    /* Only the processor with the least clock holds routing back: when it moves on, the head
     * may go. Anyone else's advance changes nothing, and its scan of every clock would cost
     * O(p) a message for nothing. Receivers that wait try for themselves (p2p.c). */
    if (before <= atomic_load_explicit(&p->m->transit->least, memory_order_relaxed))
        hr__transit_decide(p, NULL, 0);
}

int hr__transit_park_on(hr_proc *p)
{
    /* p's last look at its queue found no routed message to take (or too few blocks). Every
     * message is in its receiver's queue before it is submitted and routed (p2p.c's deliver),
     * and both count in news under the lock: if news is what it was when p looked, p saw every
     * message it has, and none can be submitted or routed while it parks. Then, while it stays
     * parked, p has nothing to take until a message that ends its receive is routed (one from
     * its source with its tag, or its last awaited block), and that unparks it. */
    hr_transit *tr = p->m->transit;
    hr__mutex_lock(&tr->lock);
    int r = atomic_load(&p->news) != p->seen_news ? HR__PARK_LOOK
            : atomic_load(&p->sync_open) > 0     ? HR__PARK_NOT
                                                 : HR__PARKED;
    if (r == HR__PARKED) {
        p->park_src = p->wait.peer;
        p->park_tag = p->wait.tag;
        p->park_need = p->await_need;
        atomic_store(&p->parked, 1);
        hr__clocks_touch(&p->m->clocks, p);
    }
    hr__mutex_unlock(&tr->lock);
    return r;
}

void hr__transit_serial(hr_machine *m, void (*fn)(hr_net *net, void *ctx), void *ctx)
{
    hr_transit *tr = m->transit;
    if (tr == NULL)
        return;
    hr__mutex_lock(&tr->lock);
    while (tr->n > 0)
        route_top(m, tr, SERIAL);    /* everyone waits: no bounds to keep */
    fn(&tr->net, ctx);
    hr__mutex_unlock(&tr->lock);
}
