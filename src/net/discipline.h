/* discipline.h: contention disciplines, rows in a table.
 *
 * A point-to-point discipline says when a send completes (at once into a buffer, or at the
 * matching receive). A round discipline (fifo, priority, arbitrary, ocpc) has a rule that
 * resolves one receiver's round: which of the messages that arrived, or that wait in its queue,
 * it receives, and which are lost (disc_round.c). The round engine (core/round.c) calls the rule
 * for every receiver, in a fixed order, once every processor has ended the round.
 */
#ifndef HREMU_NET_DISCIPLINE_H
#define HREMU_NET_DISCIPLINE_H

#include <stddef.h>
#include <stdint.h>

#include "util/rng.h"

/* How a point-to-point send completes. */
typedef enum hr_disc_send {
    HR_SEND_NONE,          /* no point-to-point sends: the discipline works in rounds */
    HR_SEND_COPY,          /* at once, its data copied out (into a receive buffer) */
    HR_SEND_RENDEZVOUS,    /* when its receive takes it */
    HR_SEND_EAGER,         /* copied up to the machine's eager limit in bytes, rendezvous above */
} hr_disc_send;

/* A receiver's waiting messages (fifo, priority), named by their senders: a sender has at most
 * one message out, so there are at most p. fifo keeps a ring from head; priority a binary heap
 * on (prio, tie) in [0, n). An entry's fields lie together: a step of the heap reads one line. */
typedef struct hr_qentry {
    uint64_t prio, tie;    /* priority only */
    int32_t  src;
} hr_qentry;
typedef struct hr_rqueue {
    hr_qentry *e;
    int        n, cap, head;
} hr_rqueue;

/* One message arriving at a receiver in a round. */
typedef struct hr_arrival {
    int32_t  src;
    uint64_t prio;
} hr_arrival;

/* Resolve one receiver's round: a[0 .. na) arrived in it, in source order; q holds what waits
 * from earlier rounds (fifo, priority; unused otherwise). Returns the sender whose message is
 * received in this round, or -1 if none, or -2 if memory ran out. A discipline that loses
 * messages (HR_DISC_LOSES) sets lost[k] = 1 for each arrival k that is lost and 0 for the
 * others; the others leave lost alone, and the engine does not read it. What neither is
 * received nor lost waits in q. Random choices are drawn from rng in a fixed order. */
typedef int (*hr_round_rule)(hr_rqueue *q, const hr_arrival *a, int na, hr_rng *rng,
                             uint8_t *lost);

/* What code outside the engine needs to know of a discipline: it asks these, never the name. */
enum {
    HR_DISC_IN_ROUNDS  = 1u << 0,  /* communicates in synchronous rounds (hr_round_send) */
    HR_DISC_QUEUES     = 1u << 1,  /* round messages wait in their receiver's queue */
    HR_DISC_PRIORITIES = 1u << 2,  /* the queue serves the highest priority first */
    HR_DISC_LOSES      = 1u << 3,  /* round messages may be lost */
    HR_DISC_DESTROYS   = 1u << 4,  /* ... all of a collision's, not all but one (ocpc) */
    HR_DISC_RENDEZVOUS = 1u << 5,  /* every send completes when its receive takes it */
    HR_DISC_BUFFERED   = 1u << 6,  /* takes a bounded receive buffer (buffer = BYTES) */
    HR_DISC_STALLS     = 1u << 7,  /* senders may wait: a queued message, a rendezvous */
    HR_DISC_EAGER      = 1u << 8,  /* sends above the eager limit are rendezvous */
};

typedef struct hr_disc {
    const char    *name;
    const char    *summary;
    hr_disc_send   send;    /* how a point-to-point send completes */
    unsigned       traits;  /* HR_DISC_* bits above */
    hr_round_rule  rule;    /* in rounds: the rule that resolves a receiver's round */
} hr_disc;

/* Does a send of len bytes under d, with the machine's eager limit, complete at its receive? */
static inline int hr__disc_rendezvous(const hr_disc *d, size_t len, uint64_t eager_limit)
{
    return d->send == HR_SEND_RENDEZVOUS || (d->send == HR_SEND_EAGER && len > eager_limit);
}

const hr_disc *hr__discipline_find(const char *name);
/* The traits of the discipline called name (0 for an unknown name). Any thread. */
unsigned hr__discipline_traits(const char *name);
/* Of needs (an algorithm's HR_NEEDS_* bits), those a discipline of these traits does not meet. */
unsigned hr__discipline_unmet(unsigned traits, unsigned needs);

int  hr__rule_fifo(hr_rqueue *q, const hr_arrival *a, int na, hr_rng *rng, uint8_t *lost);
int  hr__rule_priority(hr_rqueue *q, const hr_arrival *a, int na, hr_rng *rng, uint8_t *lost);
int  hr__rule_arbitrary(hr_rqueue *q, const hr_arrival *a, int na, hr_rng *rng, uint8_t *lost);
int  hr__rule_ocpc(hr_rqueue *q, const hr_arrival *a, int na, hr_rng *rng, uint8_t *lost);
void hr__rqueue_free(hr_rqueue *q);

#endif
