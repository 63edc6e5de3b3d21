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

#include <stdlib.h>

#include "util/sync.h"

struct hr_transit {
    pthread_mutex_t lock;
    hr_net          net;
    hr_msg        **heap;      /* submitted, not routed: a binary heap by key */
    size_t          n, cap;
    /* The least published clock at the last decision, read without the lock: a sender whose
     * clock was past it cannot be what holds routing back, and need not try (a hint only). */
    _Atomic hr_time least;
};

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
    tr->net.busy = hr__ev_link;
    tr->net.busy_arg = m;
    hr__mutex_init(&tr->lock);
    *out = tr;
    return HR_OK;
}

void hr__transit_reset(hr_transit *tr)
{
    tr->n = 0;     /* the messages themselves are the mailboxes' (hr__p2p_reset) */
    hr__net_reset(&tr->net);
}

void hr__transit_destroy(hr_transit *tr)
{
    if (tr == NULL)
        return;
    hr__net_destroy(&tr->net);
    hr__mutex_destroy(&tr->lock);
    free(tr->heap);
    free(tr);
}

void hr__transit_submit(hr_proc *p, hr_msg *msg)
{
    hr_transit *tr = p->m->transit;
    hr__mutex_lock(&tr->lock);
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
        atomic_store(&r->event, msg->sent);
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

/* Route the least message and tell its receiver. If that ends the receiver's parked receive,
 * return the time from which it may inject again, else HR_TIME_INF. It takes a message first:
 * this one, arriving at a, when it waits for exactly this one; else this one or one routed
 * later, which is keyed no earlier and arrives tau or more after its key (every receive takes
 * the clock to the arrival at least). */
static hr_time route_top(hr_machine *m, hr_transit *tr)
{
    hr_msg *msg = pop(tr);
    int src = msg->src;
    hr_proc *r = &m->procs[msg->dst];
    int unparked = atomic_load(&r->parked) && ends_park(r, msg) && atomic_exchange(&r->parked, 0);
    atomic_fetch_add(&r->news, 1);
    m->link_msg = (uint64_t)src << 32 | (msg->seq & 0xffffffffu);
    hr_time a = hr__net_route(&tr->net, src, msg->dst, msg->sent, msg->len);
    msg->arrive = a;
    hr_time back = r->park_need == 0 && r->park_src == src &&
                           (r->park_tag == HR_ANY_TAG || r->park_tag == msg->tag)
                       ? a : hr__tadd(msg->sent, m->cost.tau);
    atomic_store_explicit(&msg->routed, 1, memory_order_release);   /* msg is r's from here */
    if (!unparked) {
        hr__wake_for(r, src);
        return HR_TIME_INF;
    }
    hr__wake(r);
    return back;
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

void hr__transit_decide(hr_proc *p, const hr_msg *upto)
{
    hr_machine *m = p->m;
    hr_transit *tr = m->transit;
    hr__mutex_lock(&tr->lock);
    if (tr->n == 0) {
        hr__mutex_unlock(&tr->lock);
        return;
    }
    /* The least two published clocks, ties by id: the second for a head from the first. */
    hr_time lo = HR_TIME_INF, lo2 = HR_TIME_INF;
    int lo_id = -1, lo2_id = -1;
    for (int q = 0; q < m->p; q++) {
        /* A processor parked in a receive with nothing routed to take injects nothing until a
         * message is routed to it, here, under this lock, at a key no less than the head's;
         * it arrives tau later, so the parked one's next injection comes after the head. */
        if (q != p->id && atomic_load(&m->procs[q].parked))
            continue;
        hr_time c = atomic_load_explicit(&m->procs[q].pub_clock, memory_order_acquire);
        least_two(c, q, &lo, &lo_id, &lo2, &lo2_id);
    }
    atomic_store_explicit(&tr->least, lo, memory_order_relaxed);
    while (tr->n > 0) {
        hr_msg *top = tr->heap[0];
        if (upto == NULL || key_less(upto, top)) {
            /* The first processor other than top's source in (clock, id) order. */
            hr_time c = lo_id == top->src ? lo2 : lo;
            int id = lo_id == top->src ? lo2_id : lo_id;
            if (c != HR_TIME_INF && (c < top->sent || (c == top->sent && id < top->src)))
                break;
        }
        /* A parked receiver that now has a message may inject again from its arrival on: it
         * bounds what may be routed after this one. */
        int dst = top->dst;              /* top may be taken and freed once routed */
        hr_time back = route_top(m, tr);
        if (back != HR_TIME_INF)
            least_two(back, dst, &lo, &lo_id, &lo2, &lo2_id);
    }
    hr__mutex_unlock(&tr->lock);
}

void hr__transit_sent(hr_proc *p, hr_time before)
{
    /* Only the processor with the least clock holds routing back: when it moves on, the head
     * may go. Anyone else's advance changes nothing, and its scan of every clock would cost
     * O(p) a message for nothing. Receivers that wait try for themselves (p2p.c). */
    if (before <= atomic_load_explicit(&p->m->transit->least, memory_order_relaxed))
        hr__transit_decide(p, NULL);
}

int hr__transit_park(hr_proc *p)
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
    }
    hr__mutex_unlock(&tr->lock);
    return r;
}

void hr__transit_serial(hr_machine *m, void (*fn)(hr_net *net, void *ctx), void *ctx)
{
    hr_transit *tr = m->transit;
    hr__mutex_lock(&tr->lock);
    while (tr->n > 0)
        route_top(m, tr);
    fn(&tr->net, ctx);
    hr__mutex_unlock(&tr->lock);
}
