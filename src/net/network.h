/* network.h: the one place that says how long a message takes to cross the network. core/ asks
 * here for every point-to-point message, collective message and superstep transfer; it never
 * writes the formula itself (docs/model.md, "Topologies").
 *
 * Today a route adds hop latency per link and messages contend only at the ports; link
 * contention along routes (each link carries one message at a time) is to come here too.
 */
#ifndef HREMU_NET_NETWORK_H
#define HREMU_NET_NETWORK_H

#include "net/cost.h"
#include "net/topology.h"

/* From injection to the head's arrival: tau + hops * hop between distinct processors, 0 to
 * oneself (no network). HR_TIME_INF past the clock's range. Any thread. */
static inline hr_time hr__net_latency(const hr_topo *t, const hr_costps *c, int src, int dst)
{
    if (src == dst)
        return 0;
    return hr__tadd(c->tau, hr__tmul(hr__topo_hops(t, src, dst), c->hop));
}

#endif
