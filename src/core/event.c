/* event.c: what a run did, recorded for timelines and traces (machine.h, "events").
 *
 * Each processor appends its own events to its own buffer, so recording takes no lock and no
 * real-time order can enter it; the round resolution, which runs alone, appends round events to
 * the machine's. After the run hr_machine_event_each merges them by a key every event has the
 * same whatever the thread schedule: (t0, kind, processor, message, the owner's append order).
 * The model times are the machine's own, so two runs of one config give the same events. */
#include "core/core.h"

#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

/* Append e; returns it, or NULL if it was dropped. */
static hr_ev *add(hr_evbuf *b, size_t limit, hr_event e, hr_time t0, hr_time t1)
{
    if (b->n >= limit) {
        b->dropped++;
        return NULL;
    }
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        hr_ev *v = realloc(b->v, cap * sizeof *v);
        if (v == NULL) {
            b->dropped++;
            return NULL;
        }
        b->v = v;
        b->cap = cap;
    }
    e.t0 = hr__time_to_s(t0);
    e.t1 = hr__time_to_s(t1);
    e.wall_s = hr__wall_s() - b->wall0;
    b->v[b->n] = (hr_ev){ e, t0, b->n, 0 };
    return &b->v[b->n++];
}

void hr__ev_add(hr_evbuf *b, size_t limit, hr_event e, hr_time t0, hr_time t1)
{
    add(b, limit, e, t0, t1);
}

void hr__ev_reset(hr_evbuf *b, double wall0)
{
    b->wall0 = wall0;
    b->n = 0;
    b->dropped = 0;
    b->nlen = 0;
}

void hr__ev_free(hr_evbuf *b)
{
    free(b->v);
    free(b->names);
    *b = (hr_evbuf){ 0 };
}

/* A processor's share of the machine's limit: the limit over p, at least one event (so a run
 * records at most max(limit, p) events besides its rounds'). */
static size_t share(const hr_machine *m)
{
    size_t each = m->ev_limit / (size_t)m->p;
    return each < 1 ? 1 : each;
}

static uint64_t msg_id(const hr_msg *msg)
{
    return (uint64_t)msg->src << 32 | (msg->seq & 0xffffffffu);
}

void hr__ev_link(void *arg, int l, hr_time t0, hr_time t1, size_t bytes)
{
    hr_machine *m = arg;
    hr_event e = { .kind = HR_EV_LINK, .proc = m->net->from[l], .peer = m->net->to[l],
                   .msg = m->link_msg, .bytes = bytes, .queue = -1, .link = l };
    hr__ev_add(&m->lev, m->ev_limit, e, t0, t1);
}

void hr__ev_send_on(hr_proc *p, const hr_msg *msg, hr_time t0, hr_time t1)
{
    if (msg->dst == p->id)
        return;
    hr_event e = { .kind = HR_EV_SEND, .proc = p->id, .peer = msg->dst, .msg = msg_id(msg),
                   .bytes = msg->len, .tag = msg->tag, .queue = -1, .link = -1 };
    hr__ev_add(&p->ev, share(p->m), e, t0, t1);
}

void hr__ev_recv_on(hr_proc *p, const hr_msg *msg, hr_time t0, hr_time t1)
{
    if (msg->src == p->id)
        return;
    hr_event e = { .kind = HR_EV_RECV, .proc = p->id, .peer = msg->src, .msg = msg_id(msg),
                   .bytes = msg->len, .tag = msg->tag, .queue = -1, .link = -1 };
    hr__ev_add(&p->ev, share(p->m), e, t0, t1);
}

void hr__ev_stall(hr_proc *p, int dest, uint64_t seq, size_t len, int tag, hr_time t0,
                  hr_time t1)
{
    if (p->m->ev_limit == 0)
        return;
    hr_event e = { .kind = HR_EV_STALL, .proc = p->id, .peer = dest,
                   .msg = (uint64_t)p->id << 32 | (seq & 0xffffffffu), .bytes = len, .tag = tag,
                   .queue = -1, .link = -1 };
    hr__ev_add(&p->ev, share(p->m), e, t0, t1);
}

void hr__ev_compute(hr_proc *p, hr_time t0, hr_time t1)
{
    if (p->m->ev_limit == 0 || t1 == t0)
        return;
    hr_event e = { .kind = HR_EV_COMPUTE, .proc = p->id, .peer = -1, .queue = -1, .link = -1 };
    hr__ev_add(&p->ev, share(p->m), e, t0, t1);
}

void hr__ev_named(hr_proc *p, int kind, const char *name, hr_time t0, hr_time t1)
{
    if (p->m->ev_limit == 0)
        return;
    hr_evbuf *b = &p->ev;
    size_t len = strlen(name) + 1;
    if (b->nlen + len > b->ncap) {
        size_t cap = b->ncap ? 2 * b->ncap : 1024;
        while (cap < b->nlen + len)
            cap *= 2;
        char *v = realloc(b->names, cap);
        if (v == NULL) {
            b->dropped++;
            return;
        }
        b->names = v;
        b->ncap = cap;
    }
    hr_event e = { .kind = kind, .proc = p->id, .peer = -1, .queue = -1, .link = -1 };
    hr_ev *ev = add(b, share(p->m), e, t0, t1);
    if (ev == NULL)
        return;
    ev->name = b->nlen;
    memcpy(b->names + b->nlen, name, len);
    b->nlen += len;
}

void hr_machine_events(hr_machine *m, size_t limit)
{
    m->ev_limit = limit;
}

size_t hr_machine_event_count(const hr_machine *m, size_t *dropped)
{
    size_t n = m->rev.n + m->lev.n, d = m->rev.dropped + m->lev.dropped;
    for (int i = 0; i < m->p; i++) {
        n += m->procs[i].ev.n;
        d += m->procs[i].ev.dropped;
    }
    if (dropped != NULL)
        *dropped = d;
    return n;
}

static int before(const void *x, const void *y)
{
    const hr_ev *a = *(const hr_ev *const *)x, *b = *(const hr_ev *const *)y;
    if (a->t0 != b->t0)
        return a->t0 < b->t0 ? -1 : 1;
    if (a->e.kind != b->e.kind)
        return a->e.kind < b->e.kind ? -1 : 1;
    if (a->e.kind == HR_EV_ROUND || a->e.kind == HR_EV_LINK)   /* the serial part's order */
        return a->seq < b->seq ? -1 : a->seq > b->seq;
    if (a->e.proc != b->e.proc)
        return a->e.proc < b->e.proc ? -1 : 1;
    if (a->e.msg != b->e.msg)
        return a->e.msg < b->e.msg ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

int hr_machine_event_each(const hr_machine *m, void (*sink)(void *arg, const hr_event *e),
                          void *arg)
{
    size_t n = hr_machine_event_count(m, NULL), k = 0;
    const hr_ev **all = malloc((n ? n : 1) * sizeof *all);
    if (all == NULL)
        return HR_ENOMEM;
    for (int i = 0; i < m->p; i++)
        for (size_t j = 0; j < m->procs[i].ev.n; j++)
            all[k++] = &m->procs[i].ev.v[j];
    for (size_t j = 0; j < m->rev.n; j++)
        all[k++] = &m->rev.v[j];
    for (size_t j = 0; j < m->lev.n; j++)
        all[k++] = &m->lev.v[j];
    qsort(all, n, sizeof *all, before);
    for (size_t j = 0; j < n; j++) {
        hr_event e = all[j]->e;
        if (e.kind == HR_EV_REGION || e.kind == HR_EV_COLL)
            e.name = m->procs[e.proc].ev.names + all[j]->name;
        sink(arg, &e);
    }
    free(all);
    return HR_OK;
}
