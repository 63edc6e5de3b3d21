/* network.c: link reservations along routes (the formulas are in network.h). */
#include "net/network.h"

#include <stdlib.h>
#include <hremu/error.h>

int hr__net_init(hr_net *n, const hr_topo *t, const hr_costps *c, int switching)
{
    *n = (hr_net){ .topo = t, .cost = c, .switching = switching };
    if (!hr__net_shared(t))
        return HR_OK;
    n->free_at = calloc((size_t)t->nlinks, sizeof *n->free_at);
    n->route = malloc((size_t)t->max_route * sizeof *n->route);
    if (n->free_at == NULL || n->route == NULL) {
        hr__net_destroy(n);
        return HR_ENOMEM;
    }
    return HR_OK;
}

void hr__net_reset(hr_net *n)
{
    if (n->free_at != NULL)
        for (int l = 0; l < n->topo->nlinks; l++)
            n->free_at[l] = 0;
}

void hr__net_destroy(hr_net *n)
{
    free(n->free_at);
    free(n->route);
    n->free_at = NULL;
    n->route = NULL;
}

/* The time link l takes for m bytes: at its own bandwidth, or at sigma per byte. */
static hr_time carry(const hr_net *n, int l, size_t m)
{
    const double *bw = n->topo->bw;
    if (bw == NULL)
        return hr__cost_bytes(n->cost, m);
    return hr__time_from_ps((double)m * (HR_PS_PER_S / bw[l]));
}

hr_time hr__net_route(hr_net *n, int src, int dst, hr_time t, size_t bytes)
{
    if (src == dst)
        return t;
    const hr_topo *topo = n->topo;
    const hr_costps *c = n->cost;
    if (!hr__net_shared(topo))
        return hr__tadd(t, hr__net_latency(topo, c, src, dst));
    int h = topo->route(topo, src, dst, n->route);
    hr_time hops = hr__tmul(h, c->hop), slowest = 0, done;
    if (n->switching == HR_NET_STORE_FORWARD) {
        hr_time tk = t;
        for (int k = 0; k < h; k++) {
            int l = n->route[k];
            hr_time start = hr__tmax(tk, n->free_at[l]);
            tk = hr__tadd(hr__tadd(start, c->hop), carry(n, l, bytes));
            n->free_at[l] = tk;
            if (n->busy != NULL)
                n->busy(n->busy_arg, l, start, tk, bytes);
        }
        done = hr__tadd(tk, c->tau);
        hr_time head = hr__tadd(t, hr__tadd(c->tau, hops));
        hr_time from = done >= hr__cost_bytes(c, bytes) ? done - hr__cost_bytes(c, bytes) : 0;
        return hr__tmax(head, from);
    }
    hr_time s = t;
    for (int k = 0; k < h; k++)
        s = hr__tmax(s, n->free_at[n->route[k]]);
    for (int k = 0; k < h; k++) {
        int l = n->route[k];
        hr_time busy = carry(n, l, bytes);
        slowest = hr__tmax(slowest, busy);
        n->free_at[l] = hr__tadd(hr__tadd(s, hops), busy);
        if (n->busy != NULL)
            n->busy(n->busy_arg, l, s, n->free_at[l], bytes);
    }
    hr_time head = hr__tadd(hr__tadd(s, c->tau), hops);
    done = hr__tadd(head, slowest);
    hr_time own = hr__cost_bytes(c, bytes);
    return hr__tmax(head, done >= own ? done - own : 0);
}
