/* link_model.c: the table of link models (link_model.h) and their rules, the formulas of
 * docs/model.md, "Link contention". A new model is one function here and one row at the end of
 * the table. */
#include "net/link_model.h"

#include <stdio.h>
#include <string.h>

#include "net/network.h"

/* A message starts when its injection port and every link of its route are free,
 * s = max(t, free_at[l] for l on the route); its head arrives at s + tau + hops*hop; its bytes
 * flow at the slowest link's rate, so the last one arrives m/bw_min later; each link is busy
 * until s + hops*hop + m/bw(l), the time it takes to carry the bytes at its own rate (a fat
 * link carries more messages in that time than a thin one). */
static hr_link_arrival cut_through(hr_net *n, int h, hr_time t, size_t bytes)
{
    const hr_costps *c = n->cost;
    hr_time hops = hr__tmul(h, c->hop), slowest = 0;
    hr_time s = t;
    for (int k = 0; k < h; k++)
        s = hr__tmax(s, n->free_at[n->route[k]]);
    for (int k = 0; k < h; k++) {
        int l = n->route[k];
        hr_time busy = hr__net_carry(n, l, bytes);
        slowest = hr__tmax(slowest, busy);
        hr__net_reserve(n, l, s, hr__tadd(hr__tadd(s, hops), busy), bytes);
    }
    hr_time head = hr__tadd(hr__tadd(s, c->tau), hops);
    return (hr_link_arrival){ .head = head, .last = hr__tadd(head, slowest) };
}

/* Hop by hop, t_k = max(t_{k-1}, free_at[l_k]) + hop + m/bw(l_k), the link busy until t_k;
 * the message is whole at the receiver at t_h + tau. Its head is counted as arriving when it
 * would on idle links, t + tau + hops*hop, so that the receiver's absorption starts no earlier
 * than that. */
static hr_link_arrival store_forward(hr_net *n, int h, hr_time t, size_t bytes)
{
    const hr_costps *c = n->cost;
    hr_time tk = t;
    for (int k = 0; k < h; k++) {
        int l = n->route[k];
        hr_time start = hr__tmax(tk, n->free_at[l]);
        tk = hr__tadd(hr__tadd(start, c->hop), hr__net_carry(n, l, bytes));
        hr__net_reserve(n, l, start, tk, bytes);
    }
    return (hr_link_arrival){ .head = hr__tadd(t, hr__tadd(c->tau, hr__tmul(h, c->hop))),
                         .last = hr__tadd(tk, c->tau) };
}

/* In the order of the public numbers (link_model.h): append, never insert. */
static const hr_link_model models[] = {
    { .name = "cut_through",
      .summary = "a message takes every link of its route at once and its bytes flow at the "
                 "slowest link's rate (the default)",
      .cross = cut_through },
    { .name = "store_forward",
      .summary = "a message crosses its route hop by hop, whole at each node before it takes "
                 "the next link",
      .cross = store_forward },
};
#define NMODELS ((int)(sizeof models / sizeof models[0]))

const hr_link_model *hr__link_model_at(int i)
{
    return i >= 0 && i < NMODELS ? &models[i] : NULL;
}

int hr__link_model_find(const char *name)
{
    for (int i = 0; i < NMODELS; i++)
        if (strcmp(models[i].name, name) == 0)
            return i;
    return -1;
}

const char *hr__link_model_name(int i, const char **summary)
{
    const hr_link_model *m = hr__link_model_at(i);
    if (m != NULL && summary != NULL)
        *summary = m->summary;
    return m != NULL ? m->name : NULL;
}

void hr__link_model_choices(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < NMODELS && used < len; i++) {
        const char *sep = i == 0 ? "" : i == NMODELS - 1 ? " or " : ", ";
        int k = snprintf(buf + used, len - used, "%s%s", sep, models[i].name);
        used += k > 0 ? (size_t)k : 0;
    }
}
