/* network.h: the one place that says how long a message takes to cross the network. core/ asks
 * here for every point-to-point message, collective message, superstep transfer and round; it
 * never writes the formula itself (docs/model.md, "Topologies").
 *
 * On the complete graph a message shares no link, so its head arrives tau + hop after it starts
 * and nothing is stored. On a topology with links each link carries one message at a time, at
 * its own bandwidth, and hr_net holds when each link is free again: a message must be routed in
 * one canonical order, the same for every thread schedule (core/transit.c decides that order).
 *
 * The topology gives a message's route; the machine's link model (link_model.h: cut-through,
 * store-and-forward) says how the message takes those links and when its head and its last
 * byte arrive. What a route returns is the time the receiver may start absorbing: the head's
 * arrival, or later if the bytes come slower than the receiver absorbs them (sigma per byte), so
 * that the absorption ends when the last byte is in.
 */
#ifndef HREMU_NET_NETWORK_H
#define HREMU_NET_NETWORK_H

#include "net/cost.h"
#include "net/link_model.h"
#include "net/topology.h"

typedef struct hr_net {
    const hr_topo       *topo;
    const hr_costps     *cost;
    const hr_link_model *model;     /* how messages take the links of a route (link_model.h) */
    hr_time             *free_at;   /* [nlinks] */
    int                 *route;     /* [max_route] scratch of the one routing caller */
    /* If set, told each link's occupancy as it is reserved: link l is busy from t0 to t1
     * carrying bytes (for traces; called by the routing caller, in routing order). */
    void               (*busy)(void *arg, int l, hr_time t0, hr_time t1, size_t bytes);
    void                *busy_arg;
} hr_net;

/* From injection to the head's arrival, with no link contention: tau + hops * hop between
 * distinct processors, 0 to oneself. HR_TIME_INF past the clock's range. Any thread. */
static inline hr_time hr__net_latency(const hr_topo *t, const hr_costps *c, int src, int dst)
{
    if (src == dst)
        return 0;
    return hr__tadd(c->tau, hr__tmul(hr__topo_hops(t, src, dst), c->hop));
}

/* Does this topology store links, so that messages must be routed in canonical order? */
static inline int hr__net_shared(const hr_topo *t) { return t->nlinks > 0; }

/* With link model number `switching`, a row of link_model.c's table. HR_OK or HR_ENOMEM.
 * Machine thread. */
int  hr__net_init(hr_net *n, const hr_topo *t, const hr_costps *c, int switching);
void hr__net_reset(hr_net *n);      /* every link free from time 0; between runs */
void hr__net_destroy(hr_net *n);
/* Route m bytes from src to dst, injected at t, reserving the links: returns when the receiver
 * may start absorbing them (see above). Calls must come one at a time, in the canonical order of
 * (t, src, sequence); a message to oneself crosses nothing (returns t). The topology's row gives
 * the route and the link model's row times it; inline, so that a message's way is theirs. */
static inline hr_time hr__net_route(hr_net *n, int src, int dst, hr_time t, size_t bytes)
{
    if (src == dst)
        return t;
    const hr_topo *topo = n->topo;
    const hr_costps *c = n->cost;
    if (!hr__net_shared(topo))
        return hr__tadd(t, hr__net_latency(topo, c, src, dst));
    int h = topo->route(topo, src, dst, n->route);
    hr_link_arrival a = n->model->cross(n, h, t, bytes);
    hr_time own = hr__cost_bytes(c, bytes);
    return hr__tmax(a.head, a.last >= own ? a.last - own : 0);
}

/* For link models (link_model.h), inside hr__net_route: the time link l takes to carry m bytes,
 * at its own bandwidth or at sigma per byte where the topology sets none; and link l taken from
 * `from` until `until` (free again then; the busy hook is told). */
static inline hr_time hr__net_carry(const hr_net *n, int l, size_t m)
{
    const double *bw = n->topo->bw;
    if (bw == NULL)
        return hr__cost_bytes(n->cost, m);
    return hr__time_from_ps((double)m * (HR_PS_PER_S / bw[l]));
}

static inline void hr__net_reserve(hr_net *n, int l, hr_time from, hr_time until, size_t bytes)
{
    n->free_at[l] = until;
    if (n->busy != NULL)
        n->busy(n->busy_arg, l, from, until, bytes);
}

#endif
