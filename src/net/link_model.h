/* link_model.h: the table of link models, how a message crosses the links of its route on a
 * topology with links (docs/model.md, "Link contention"). A topology gives a message's route,
 * its links in order (topology.h); a link model times it: when it takes each link and for how
 * long, and when its head and its last byte reach the receiver. A model knows no topology and a
 * topology no model, as SimGrid's network models know nothing of its routing zones. network.c
 * is the one caller: it routes, asks the machine's model, and turns the arrival into the time
 * the receiver may start absorbing.
 *
 * A model is one function and one row in link_model.c. [machine] switching = NAME chooses a row
 * by name; hr_machine_config.switching holds the row's number, its place in the table. Rows are
 * appended, never reordered: the public API numbers the first two (0 cut-through, 1
 * store-and-forward; hr_store_forward), and HR_NET_* name them for core/.
 */
#ifndef HREMU_NET_LINK_MODEL_H
#define HREMU_NET_LINK_MODEL_H

#include <stddef.h>

#include "net/cost.h"

enum { HR_NET_CUT_THROUGH = 0, HR_NET_STORE_FORWARD = 1 };   /* the rows' numbers */

struct hr_net;

/* When a message reaches its receiver. */
typedef struct hr_link_arrival {
    hr_time head;   /* its head arrives */
    hr_time last;   /* its last byte does (head <= last) */
} hr_link_arrival;

/* A row. Every field is set; the table is const, so any thread may read it. */
typedef struct hr_link_model {
    const char *name;      /* what [machine] switching = NAME, the report's column and --list say */
    const char *summary;   /* one line for --list: the rule, in words */
    /* Time a message of `bytes` injected at t along the links n->route[0 .. h-1] (h >= 1),
     * taking each with hr__net_reserve, in route order; it reads n->free_at, n->cost and
     * hr__net_carry (network.h), nothing else of the network, and never the topology. Called
     * by the routing caller only, one message at a time in canonical order. */
    hr_link_arrival (*cross)(struct hr_net *n, int h, hr_time t, size_t bytes);
} hr_link_model;

/* Row i (from 0), or NULL past the end or below 0. Any thread. */
const hr_link_model *hr__link_model_at(int i);
/* The number of the row called name, or -1. Any thread. */
int hr__link_model_find(const char *name);
/* Row i's name and, if summary is not NULL, its summary; NULL past the end (--list walks it).
 * Any thread. */
const char *hr__link_model_name(int i, const char **summary);
/* The names as a choice in words, "a, b or c", into buf (truncated to len, always ended by
 * 0), for a message that refuses another name. Any thread. */
void hr__link_model_choices(char *buf, size_t len);

#endif
