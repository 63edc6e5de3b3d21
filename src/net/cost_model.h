/* cost_model.h: the table of cost models, how the model charges a message's send and its
 * receive (docs/model.md). A model reads the machine's cost parameters (hr_costps) and says,
 * for one message, when it is injected, when the sender's clock and port are free again, and
 * when its receiver has it, with the receiver's clock and port after. Disciplines decide who
 * waits for whom, topologies and link models where a message goes and how long its links are
 * busy; a model knows neither.
 *
 * A model is a few functions and one row in cost_model.c. [machine] cost_model = NAME chooses a
 * row by name (hr_machine_config.cost_model). A row says what it defines (HR_CM_*): a machine
 * whose discipline, buffers or topology need what its model does not define is refused when it
 * is made (machine.c), with the reason, and a call the model does not define fails the run
 * with its name.
 */
#ifndef HREMU_NET_COST_MODEL_H
#define HREMU_NET_COST_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "net/cost.h"

/* What a model defines, beyond collective blocks (which every model charges, as messages or as a
 * superstep). */
enum {
    HR_CM_RENDEZVOUS = 1u << 0,   /* sends that complete when taken (sync, eager above its limit) */
    HR_CM_BUFFERS    = 1u << 1,   /* bounded receive buffers */
    HR_CM_ROUNDS     = 1u << 2,   /* the round disciplines */
    HR_CM_LINKS      = 1u << 3,   /* topologies with links: hops and link contention */
    HR_CM_SUPERSTEPS = 1u << 4,   /* hr_sync, hr_put and hr_get */
    HR_CM_BATCHES    = 1u << 5,   /* a world collective's blocks as one batch (p2p.c) */
    HR_CM_GAP        = 1u << 6,   /* a gap g between messages (hr_cost.gap) */
    HR_CM_BARRIER    = 1u << 7,   /* hr_barrier: under bdm its own closed form, else the row's
                                   * charge of its zero-byte messages */
    HR_CM_P2P        = 1u << 8,   /* point-to-point messages (hr_send, hr_isend, ...) */
    HR_CM_OVERHEAD   = 1u << 9,   /* an overhead o a message (hr_cost.overhead) */
    HR_CM_NEIGHBOURS = 1u << 10,  /* without HR_CM_LINKS, on a topology with links: messages
                                   * between linked processors, each charged as on the complete
                                   * graph (no hop, no link contention); a message to another
                                   * fails the run (core/proc.c) */
};

/* A send of `bytes` to another processor by a sender whose clock is `clock` and whose port is
 * free from `port`: its injection, and the sender's clock and port after it. */
typedef struct hr_cm_send {
    hr_time inject, clock, port;
} hr_cm_send;

/* Its receiver takes it, arrived at `arrive`, with its clock at `clock` and its receiving port
 * free from `port`: when the data is in, and its clock and port after. */
typedef struct hr_cm_take {
    hr_time in, clock, port;
} hr_cm_take;

/* A row. Every field is set; the table is const, so any thread may read it. */
typedef struct hr_cost_model {
    const char *name;      /* what [machine] cost_model = NAME, the column and --list say */
    const char *summary;   /* one line for --list: the model and its source */
    const char *params;    /* one line for --list: what the cost keys mean under it */
    const char *preset;    /* its preset a config takes when it sets no cost (net/cost.c) */
    unsigned    defines;   /* HR_CM_* */
    /* The least time from an injection to its arrival on the complete graph: the lookahead of
     * receives from any (core/lookahead.c), and the latency hr__net_latency adds. */
    hr_time (*lead)(const hr_costps *c);
    hr_cm_send (*send)(const hr_costps *c, hr_time clock, hr_time port, size_t bytes);
    hr_cm_take (*take)(const hr_costps *c, hr_time clock, hr_time arrive, hr_time port,
                       size_t bytes);
    /* A model that charges whole supersteps (bsp): the length of one whose largest local work
     * is w and whose largest bytes a processor sent or received is h. Under it every world
     * collective ends a superstep, sends and takes charge nothing, and hr_sync sets every clock
     * to the previous superstep's end plus this (core/superstep.c). NULL: the model charges a
     * superstep as its messages and barrier. */
    hr_time (*superstep)(const hr_costps *c, hr_time w, uint64_t h);
} hr_cost_model;

/* bdm's rules (cost_model.c's first row), here so that the hot paths inline them: s = max(clock,
 * port), the port busy sigma*m, the sender's clock paying its overhead alone (an asynchronous
 * send leaves the bytes to the port); r = max(a, port) + sigma*m, the receiving port busy until
 * r, the receiver's clock max(clock, r) + overhead. */
static inline hr_cm_send hr__bdm_send(const hr_costps *c, hr_time clock, hr_time port,
                                      size_t bytes)
{
    hr_time s = hr__tmax(clock, port);
    return (hr_cm_send){ .inject = s, .clock = hr__tadd(clock, c->overhead),
                         .port = hr__tadd(s, hr__cost_bytes(c, bytes)) };
}

static inline hr_cm_take hr__bdm_take(const hr_costps *c, hr_time clock, hr_time arrive,
                                      hr_time port, size_t bytes)
{
    hr_time r = hr__tadd(hr__tmax(arrive, port), hr__cost_bytes(c, bytes));
    return (hr_cm_take){ .in = r, .clock = hr__tadd(hr__tmax(clock, r), c->overhead), .port = r };
}

extern const hr_cost_model *const hr__cm_bdm;   /* the first row */

/* A send and a take as cm charges them: bdm's inline (a call through the row cost xchg.pex 3.6 %
 * at p = 256 on fibers), any other model's through its row. */
static inline hr_cm_send hr__cm_send(const hr_cost_model *cm, const hr_costps *c, hr_time clock,
                                     hr_time port, size_t bytes)
{
    return cm == hr__cm_bdm ? hr__bdm_send(c, clock, port, bytes)
                            : cm->send(c, clock, port, bytes);
}

static inline hr_cm_take hr__cm_take(const hr_cost_model *cm, const hr_costps *c, hr_time clock,
                                     hr_time arrive, hr_time port, size_t bytes)
{
    return cm == hr__cm_bdm ? hr__bdm_take(c, clock, arrive, port, bytes)
                            : cm->take(c, clock, arrive, port, bytes);
}

/* The row called name (NULL: the first, bdm), or NULL. Any thread. */
const hr_cost_model *hr__cost_model_find(const char *name);
/* Row i (from 0), or NULL past the end or below 0 (--list walks it). Any thread. */
const hr_cost_model *hr__cost_model_at(int i);
/* Row i's name (and its summary, if summary is not NULL), or NULL past the end: the signature
 * the other tables' name lists share. Any thread. */
const char *hr__cost_model_name(int i, const char **summary);

#endif
