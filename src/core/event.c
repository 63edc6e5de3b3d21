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

void hr__ev_add(hr_evbuf *b, size_t limit, hr_event e, hr_time t0, hr_time t1)
{
    if (b->n >= limit) {
        b->dropped++;
        return;
    }
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        hr_ev *v = realloc(b->v, cap * sizeof *v);
        if (v == NULL) {
            b->dropped++;
            return;
        }
        b->v = v;
        b->cap = cap;
    }
    e.t0 = hr__time_to_s(t0);
    e.t1 = hr__time_to_s(t1);
    b->v[b->n] = (hr_ev){ e, t0, b->n };
    b->n++;
}

void hr__ev_reset(hr_evbuf *b)
{
    b->n = 0;
    b->dropped = 0;
}

void hr__ev_free(hr_evbuf *b)
{
    free(b->v);
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

void hr__ev_send(hr_proc *p, const hr_msg *msg, hr_time t0, hr_time t1)
{
    if (p->m->ev_limit == 0 || msg->dst == p->id)
        return;
    hr_event e = { .kind = HR_EV_SEND, .proc = p->id, .peer = msg->dst, .msg = msg_id(msg),
                   .bytes = msg->len, .tag = msg->tag, .queue = -1 };
    hr__ev_add(&p->ev, share(p->m), e, t0, t1);
}

void hr__ev_recv(hr_proc *p, const hr_msg *msg, hr_time t0, hr_time t1)
{
    if (p->m->ev_limit == 0 || msg->src == p->id)
        return;
    hr_event e = { .kind = HR_EV_RECV, .proc = p->id, .peer = msg->src, .msg = msg_id(msg),
                   .bytes = msg->len, .tag = msg->tag, .queue = -1 };
    hr__ev_add(&p->ev, share(p->m), e, t0, t1);
}

void hr__ev_compute(hr_proc *p, hr_time t0, hr_time t1)
{
    if (p->m->ev_limit == 0 || t1 == t0)
        return;
    hr_event e = { .kind = HR_EV_COMPUTE, .proc = p->id, .peer = -1, .queue = -1 };
    hr__ev_add(&p->ev, share(p->m), e, t0, t1);
}

void hr_machine_events(hr_machine *m, size_t limit)
{
    m->ev_limit = limit;
}

size_t hr_machine_event_count(const hr_machine *m, size_t *dropped)
{
    size_t n = m->rev.n, d = m->rev.dropped;
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
    if (a->e.kind == HR_EV_ROUND)          /* the resolution's own order */
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
    qsort(all, n, sizeof *all, before);
    for (size_t j = 0; j < n; j++)
        sink(arg, &all[j]->e);
    free(all);
    return HR_OK;
}
