/* superstep.c: the barrier, hr_sync, and one-sided puts and gets on registered memory.
 *
 * One real-time barrier serves both. Its model cost is that of a dissemination barrier built from
 * zero-byte messages (Hensgen, Finkel, Manber 1988): in round k = 0 .. ceil(lg p)-1 processor i
 * sends to i + 2^k and receives from i - 2^k (mod p). Rather than pass those messages through the
 * mailboxes, the last processor to arrive computes every processor's clock exactly as those
 * messages would have set it (docs/model.md), in O(p lg p), while the others wait.
 *
 * Puts and gets wait in their issuer's list until hr_sync, whose serial part applies them in a
 * canonical order: all gets first (they read the values of the superstep's end), then all puts
 * by (source, issue order), so a later put to the same bytes wins, whatever the thread schedule.
 */
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/region.h"
#include "util/sync.h"

static hr_time link_latency(const hr_machine *m, int src, int dst)
{
    return hr__net_latency(m->net, &m->cost, src, dst);
}

/* Under a cost model other than bdm, the barrier's zero-byte messages are charged by its row
 * (net/cost_model.h), as the processors' own sends and receives would be: in round d each
 * processor i sends to i + d (its injection, and its clock and port after), then takes the
 * message from i - d, which arrives the model's lead after its injection. Ports carry on from
 * the processors' last messages, and keep what the barrier leaves them. */
static void dissemination_by_row(hr_machine *m)
{
    int p = m->p;
    const hr_cost_model *cm = m->cm;
    const hr_costps *c = &m->cost;
    hr_time *t = m->bar_time, *sent = t + p, *out = t + 2 * (size_t)p, *in = t + 3 * (size_t)p;
    for (int i = 0; i < p; i++) {
        t[i] = m->procs[i].clock;
        out[i] = m->procs[i].out_free;
        in[i] = m->procs[i].in_free;
    }
    for (int d = 1; d < p; d <<= 1) {
        for (int i = 0; i < p; i++) {
            hr_cm_send x = cm->send(c, t[i], out[i], 0);
            sent[i] = x.inject;
            t[i] = x.clock;
            out[i] = x.port;
        }
        for (int i = 0; i < p; i++) {
            hr_cm_take y = cm->take(c, t[i], hr__tadd(sent[(i - d + p) % p], c->tau), in[i], 0);
            t[i] = y.clock;
            in[i] = y.port;
            m->procs[i].msgs_out++;
            m->procs[i].msgs_in++;
        }
    }
    for (int i = 0; i < p; i++) {
        m->procs[i].clock = t[i];
        m->procs[i].out_free = out[i];
        m->procs[i].in_free = in[i];
    }
}

/* Every proc's clock after a dissemination barrier entered at bar_in (bdm's closed form). */
static void dissemination(hr_machine *m)
{
    if (m->cm != hr__cm_bdm) {
        dissemination_by_row(m);
        return;
    }
    int p = m->p;
    hr_time o = m->cost.overhead;
    hr_time *t = m->bar_time, *nt = m->bar_time + p;
    for (int i = 0; i < p; i++)
        t[i] = m->procs[i].bar_in;
    for (int d = 1; d < p; d <<= 1) {
        for (int i = 0; i < p; i++) {
            int from = (i - d + p) % p;
            hr_time sent = hr__tadd(t[i], o);
            hr_time heard = hr__tadd(hr__tadd(t[from], o), link_latency(m, from, i));
            nt[i] = hr__tadd(hr__max(sent, heard), o);
            m->procs[i].msgs_out++;
            m->procs[i].msgs_in++;
        }
        hr_time *swap = t;
        t = nt;
        nt = swap;
    }
    for (int i = 0; i < p; i++)
        m->procs[i].clock = t[i];
}

/* What the processors did since their tallies at the previous superstep's end (the run's start:
 * zero), summed as a superstep's figures are. */
static hr_tsum since_superstep(const hr_machine *m)
{
    hr_tsum sum = { 0 };
    for (int i = 0; i < m->p; i++) {
        hr_tally now = hr__tally(&m->procs[i]), zero = { 0 };
        hr_tally d = hr__tally_since(m->step_at != NULL ? &m->step_at[i] : &zero, &now);
        hr__tsum_add(&sum, &d);
    }
    return sum;
}

/* Under a model that charges whole supersteps (bsp, net/cost_model.h): every processor leaves
 * at the previous superstep's end plus the row's cost of this one, from its w (the largest work
 * charged in it) and h (the most bytes a processor sent or received in it). Inside a superstep
 * such a model moves a clock by work alone (and inside a collective, a sender's to its blocks'
 * takes, at most the lead l after a clock), so no clock is past the end it is moved to. */
static void superstep_by_row(hr_machine *m)
{
    hr_tsum sum = since_superstep(m);
    hr_time end = hr__tadd(m->step_end, m->cm->superstep(&m->cost, sum.work_max, sum.h));
    for (int i = 0; i < m->p; i++) {
        hr_proc *q = &m->procs[i];
        q->clock = q->out_free = q->in_free = end;
    }
}

/* The superstep that this hr_sync ends, recorded by the last arriver once every clock is set
 * (the barrier's messages are the superstep's): each processor's part is what it did since its
 * tally at the previous hr_sync (the run's start: zero). */
static void record_superstep(hr_machine *m)
{
    if (m->nsteps == m->capsteps) {
        size_t cap = m->capsteps ? 2 * m->capsteps : 16;
        hr_superstep_result *s = realloc(m->steps, cap * sizeof *s);
        if (s == NULL)
            goto oom;
        m->steps = s;
        m->capsteps = cap;
    }
    hr_tsum sum = since_superstep(m);
    if (m->step_at == NULL && (m->step_at = calloc((size_t)m->p, sizeof *m->step_at)) == NULL)
        goto oom;
    hr_time end = 0;
    for (int i = 0; i < m->p; i++) {
        m->step_at[i] = hr__tally(&m->procs[i]);
        end = hr__max(end, m->step_at[i].clock);
    }
    m->steps[m->nsteps++] = (hr_superstep_result){
        .time_s = hr__secs(hr__tsub(end, m->step_end)), .time_sum_s = hr__secs(sum.time_sum),
        .work_s = hr__secs(sum.work_max), .messages = sum.msgs, .bytes = sum.bytes, .h = sum.h,
    };
    m->step_end = end;
    return;
oom:
    /* Every processor leaves the superstep through hr__barrier's check of bar_broken. */
    hr__report(m, "hr_sync: out of memory recording superstep %zu\n", m->nsteps + 1);
    atomic_store(&m->failed, 1);
    atomic_store(&m->bar_broken, 1);
}

static int bar_ready(hr_proc *p, void *ctx)
{
    (void)ctx;
    hr__proc_event(p, HR_TIME_INF);
    return atomic_load(&p->m->bar_gen) != p->bar_gen;
}

/* "P0, P2, P5": the processors whose barrier call is `call`, up to a few. */
static void list_callers(hr_machine *m, const char *call, char *buf, size_t len)
{
    size_t used = 0;
    int n = 0, shown = 0;
    buf[0] = '\0';
    for (int i = 0; i < m->p; i++) {
        if (strcmp(m->procs[i].bar_call, call) != 0)
            continue;
        if (shown < 8 && used < len) {
            int w = snprintf(buf + used, len - used, "%sP%d", n ? ", " : "", i);
            used += w > 0 ? (size_t)w : 0;
            shown++;
        }
        n++;
    }
    if (n > shown && used < len)
        snprintf(buf + used, len - used, " and %d more", n - shown);
}

/* hr_sync applies the superstep's puts and gets, hr_barrier does not: if some processors call
 * one and some the other, whether a put lands depends on which arrives last. Such a program is
 * wrong (as is one whose processors end a superstep with different collectives, under a model
 * that takes them as supersteps); the last arriver, which sees every call, fails the run and
 * names who called which. */
static int mixed_calls(hr_machine *m)
{
    const char *first = m->procs[0].bar_call;
    int i = 1;
    while (i < m->p && strcmp(m->procs[i].bar_call, first) == 0)
        i++;
    if (i == m->p)
        return 0;
    const char *other = m->procs[i].bar_call;
    char a[160], b[160];
    list_callers(m, first, a, sizeof a);
    list_callers(m, other, b, sizeof b);
    hr__report(m, "%s and %s in one superstep: %s called %s; %s called %s\n", first, other, a,
               first, b, other);
    atomic_store(&m->failed, 1);
    atomic_store(&m->bar_broken, 1);
    return 1;
}

/* Barriers and supersteps are charged by the machine's cost model only where it defines them
 * (net/cost_model.h): elsewhere the call fails the run, naming itself. */
static void need_model(hr_proc *p, unsigned what, const char *call)
{
    const hr_cost_model *cm = p->m->cm;
    if (!(cm->defines & what))
        hr_fail(p, "%s: cost model %s does not define %s", call, cm->name,
                what == HR_CM_BARRIER
                    ? cm->superstep != NULL ? "barriers (hr_sync ends a superstep)" : "barriers"
                    : "supersteps (hr_sync, hr_put, hr_get)");
}

/* The barrier that hr_barrier (serial NULL) and the ends of supersteps (serial: the puts and
 * gets) share, called `call` in its event, a deadlock report and a check of mixed calls. A
 * superstep's end is charged by its row where the model charges whole supersteps, else as the
 * dissemination barrier's messages; the superstep is recorded. `event`: record the wait as the
 * call's own event (a collective that ends a superstep records its own). */
static void barrier(hr_proc *p, const char *call, void (*serial)(hr_machine *m, void *ctx),
                    void *ctx, int event)
{
    hr_machine *m = p->m;
    hr__proc_comm_point(p);
    hr_time entered = p->clock;
    p->bar_in = hr__max(p->clock, p->out_free);
    p->bar_gen = atomic_load(&m->bar_gen);
    p->bar_call = call;
    if (atomic_fetch_add(&m->bar_arrived, 1) + 1 == m->p) {
        /* Every other proc has arrived and waits: their fields are ours until the release. */
        if (!mixed_calls(m)) {
            if (serial != NULL)
                serial(m, ctx);
            if (serial != NULL && m->cm->superstep != NULL)
                superstep_by_row(m);
            else
                dissemination(m);
            if (serial != NULL && !atomic_load(&m->bar_broken))   /* a superstep */
                record_superstep(m);
        }
        atomic_store(&m->bar_arrived, 0);
        atomic_fetch_add(&m->bar_gen, 1);
        for (int i = 0; i < m->p; i++)
            if (i != p->id)
                hr__wake(&m->procs[i]);
    } else {
        hr_wait_desc d = { HR_WAIT_BARRIER, HR_ANY, 0, 0, call, 0 };
        hr__wait(p, &d, bar_ready, NULL);
    }
    if (atomic_load(&m->bar_broken))
        hr__proc_exit(p);    /* the last arriver has reported it */
    if (event)
        hr__ev_named(p, HR_EV_COLL, call, entered, p->clock);   /* its wait */
    hr__proc_publish(p);
}

void hr_barrier(hr_proc *p)
{
    need_model(p, HR_CM_BARRIER, "hr_barrier");
    if (p->m->one_link)    /* its messages go to i + 2^k, linked or not */
        hr_fail(p, "hr_barrier: cost model %s defines messages along one link only, and a "
                "barrier's go further", p->m->cm->name);
    p->rounds++;
    barrier(p, "hr_barrier", NULL, NULL, 1);
}

/* ---- registered memory -------------------------------------------------------------------- */

int hr_register(hr_proc *p, void *base, size_t bytes)
{
    if (base == NULL && bytes > 0)
        hr__misuse(p, "hr_register: NULL region of %zu bytes", bytes);
    if (p->nregions == p->capregions) {
        int cap = p->capregions ? 2 * p->capregions : 8;
        hr_region *r = realloc(p->regions, (size_t)cap * sizeof *r);
        if (r == NULL)
            hr_fail(p, "out of memory in hr_register");
        p->regions = r;
        p->capregions = cap;
    }
    p->regions[p->nregions] = (hr_region){ base, bytes };
    return p->nregions++;
}

static hr_rma *rma_new(hr_proc *p, int peer, int slot, size_t off, size_t len, size_t payload,
                       const char *call)
{
    hr__check_peer(p, peer, call, 0);
    need_model(p, HR_CM_SUPERSTEPS, call);
    hr__proc_comm_point(p);
    hr__proc_check_link(p, peer, call);
    hr_rma *r = malloc(sizeof *r + hr__kept(p->m, payload));
    if (r == NULL)
        hr_fail(p, "out of memory in %s", call);
    *r = (hr_rma){ .peer = peer, .slot = slot, .off = off, .len = len };
    /* The request (a put's data, a get's zero-byte request) leaves through the injection port. */
    r->sent = hr__max(p->clock, p->out_free);
    if (peer != p->id) {
        p->out_free = hr__tadd(r->sent, hr__cost_bytes(&p->m->cost, payload));
        p->msgs_out++;
        p->bytes_out += payload;
    }
    p->clock = hr__tadd(p->clock, p->m->cost.overhead);
    if (p->rma_tail != NULL)
        p->rma_tail->next = r;
    else
        p->rma_head = r;
    p->rma_tail = r;
    hr__proc_publish(p);
    return r;
}

void hr_put(hr_proc *p, int dest, int slot, size_t off, const void *src, size_t len)
{
    if (src == NULL && len > 0)
        hr__misuse(p, "hr_put: NULL source of %zu bytes", len);
    hr_rma *r = rma_new(p, dest, slot, off, len, len, "hr_put");
    hr__copy_bytes(p->m, r->payload, src, len);
}

void hr_get(hr_proc *p, int src, int slot, size_t off, void *dst, size_t len)
{
    if (dst == NULL && len > 0)
        hr__misuse(p, "hr_get: NULL destination of %zu bytes", len);
    hr_rma *r = rma_new(p, src, slot, off, len, 0, "hr_get");
    r->is_get = 1;
    r->dst = dst;
}

/* One transfer into a processor's absorption port during hr_sync. */
typedef struct inflow {
    hr_time arrive;
    int     dst, src;
    size_t  seq, len;
    hr_time sent;         /* the issuer's injection of the put, or of the get's request */
    int     issuer, is_get;
} inflow;

/* The order transfers take the network in: by injection, then issuer, then issue order. */
static int issue_cmp(const void *a, const void *b)
{
    const inflow *x = a, *y = b;
    if (x->sent != y->sent)
        return x->sent < y->sent ? -1 : 1;
    if (x->issuer != y->issuer)
        return x->issuer < y->issuer ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

typedef struct route_job {
    inflow     *in;
    size_t      k;
    hr_machine *m;
} route_job;

/* On a topology with links, the transfers' arrivals come from the network, in issue order, after
 * every point-to-point message of the superstep (transit.c). A get's data leaves the owner when
 * its request arrives and is routed right after the request: an approximation of the exact
 * order, which would interleave replies with later puts by time. The transfers are sorted in
 * place; the caller sorts them again by receiver. */
static void route_transfers(hr_net *net, void *ctx)
{
    route_job *j = ctx;
    qsort(j->in, j->k, sizeof *j->in, issue_cmp);
    j->m->link_msg = 0;
    for (size_t i = 0; i < j->k; i++) {
        inflow *f = &j->in[i];
        if (f->is_get) {
            hr_time req = hr__net_route(net, f->issuer, f->src, f->sent, 0);
            f->arrive = hr__net_route(net, f->src, f->issuer, req, f->len);
        } else {
            f->arrive = hr__net_route(net, f->issuer, f->dst, f->sent, f->len);
        }
    }
}

static int inflow_cmp(const void *a, const void *b)
{
    const inflow *x = a, *y = b;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->arrive != y->arrive)
        return x->arrive < y->arrive ? -1 : 1;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The region r addresses, or NULL with the issuer's rma_error set. */
static unsigned char *rma_target(hr_machine *m, hr_proc *issuer, const hr_rma *r)
{
    const hr_proc *owner = &m->procs[r->peer];
    const char *call = r->is_get ? "hr_get" : "hr_put";
    if (r->slot < 0 || r->slot >= owner->nregions) {
        snprintf(issuer->rma_why, sizeof issuer->rma_why,
                 "%s: P%d has no registered slot %d", call, r->peer, r->slot);
    } else if (r->off > owner->regions[r->slot].bytes ||
               r->len > owner->regions[r->slot].bytes - r->off) {
        snprintf(issuer->rma_why, sizeof issuer->rma_why,
                 "%s: bytes %zu..%zu are outside P%d's slot %d (%zu bytes)", call, r->off,
                 r->off + r->len, r->peer, r->slot, owner->regions[r->slot].bytes);
    } else {
        return (unsigned char *)owner->regions[r->slot].base + r->off;
    }
    issuer->rma_error = issuer->rma_why;
    return NULL;
}

static void sync_serial(hr_machine *m, void *ctx)
{
    (void)ctx;
    size_t n = 0, k = 0;
    for (int i = 0; i < m->p; i++)
        for (hr_rma *r = m->procs[i].rma_head; r != NULL; r = r->next)
            n += r->peer != i;
    inflow *in = n ? malloc(n * sizeof *in) : NULL;
    if (n > 0 && in == NULL) {
        /* Every processor leaves the superstep through hr__barrier's check of bar_broken. */
        hr__report(m, "hr_sync: out of memory ordering the superstep's %zu transfers\n", n);
        atomic_store(&m->failed, 1);
        atomic_store(&m->bar_broken, 1);
        return;
    }
    /* Gets first, so they read the superstep's final values; then puts in (source, issue) order. */
    for (int pass = 1; pass >= 0; pass--)
        for (int i = 0; i < m->p; i++) {
            hr_proc *q = &m->procs[i];
            size_t seq = 0;
            for (hr_rma *r = q->rma_head; r != NULL; r = r->next, seq++) {
                if (r->is_get != pass)
                    continue;
                unsigned char *at = rma_target(m, q, r);
                if (at != NULL)
                    hr__copy_bytes(m, r->is_get ? r->dst : at, r->is_get ? at : r->payload,
                                   r->len);
                if (r->peer == i)
                    continue;
                hr_time lat = link_latency(m, i, r->peer);
                /* A get is a request there and the data back: twice the latency, then the data
                 * leaves the owner's port. */
                hr_time a = r->is_get ? hr__tadd(hr__tadd(r->sent, hr__tmul(2, lat)),
                                                 hr__cost_bytes(&m->cost, r->len))
                                      : hr__tadd(r->sent, lat);
                int dst = r->is_get ? i : r->peer;
                in[k++] = (inflow){ a, dst, r->is_get ? r->peer : i, seq, r->len, r->sent, i,
                                    r->is_get };
                if (r->is_get) {
                    m->procs[r->peer].msgs_in++;     /* the request */
                    m->procs[r->peer].msgs_out++;
                    m->procs[r->peer].bytes_out += r->len;
                }
            }
        }
    if (k > 0) {
        route_job job = { in, k, m };
        hr__transit_serial(m, route_transfers, &job);
    }
    if (k > 0)
        qsort(in, k, sizeof *in, inflow_cmp);
    for (size_t j = 0; j < k; j++) {
        hr_proc *d = &m->procs[in[j].dst];
        hr_time r = hr__tadd(hr__max(in[j].arrive, d->in_free),
                             hr__cost_bytes(&m->cost, in[j].len));
        d->in_free = r;
        d->msgs_in++;
        d->bytes_in += in[j].len;
        d->bar_in = hr__max(d->bar_in, r);
    }
    free(in);
    for (int i = 0; i < m->p; i++) {
        hr_proc *q = &m->procs[i];
        while (q->rma_head != NULL) {
            hr_rma *next = q->rma_head->next;
            free(q->rma_head);
            q->rma_head = next;
        }
        q->rma_tail = NULL;
    }
}

void hr_sync(hr_proc *p)
{
    need_model(p, HR_CM_SUPERSTEPS, "hr_sync");
    p->rounds++;
    barrier(p, "hr_sync", sync_serial, NULL, 1);
    if (p->rma_error != NULL)
        hr__misuse(p, "%s", p->rma_error);
}

void hr__superstep_end(hr_proc *p, const char *call)
{
    barrier(p, call, sync_serial, NULL, 0);
    if (p->rma_error != NULL)
        hr__misuse(p, "%s", p->rma_error);
}
