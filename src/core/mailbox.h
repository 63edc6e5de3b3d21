/* mailbox.h: a processor's incoming messages.
 *
 * Senders append to a shared wait-free queue (liburcu's wfcqueue: any number of producers, no
 * lock). Only the owner drains it, into private per-source lists that keep each source's messages
 * in sending order. The lists are kept for the sources that have messages pending only, in a
 * dense array found through a small open-addressed index: a mailbox's memory grows with the
 * sources it hears from, never with p (p may be 2^20 under fibers).
 *
 * When the machine runs one processor at a time (fibers on one carrier: m->serial), a sender
 * that is not the owner puts straight into the owner's lists (hr__mbox_put_serial): nobody can
 * be draining meanwhile, and the queue's two locked instructions a message are saved.
 *
 * There too, an owner about to sleep in a receive from one source arms the mailbox's lane
 * (hr__mbox_arm): the first message from that source whose tag matches is put aside for it,
 * and it takes that one when it wakes (hr__mbox_unarm), with no list, index or lookup. This is
 * what an MPI library does with a posted receive: an arriving message is matched against it
 * before it is queued as unexpected. Every other reader puts a message left in the lane back
 * in its place in the lists first (by its sequence number: the lists are in sending order).
 * A receive that copies into a buffer of its own arms the lane open, and then a sender may find
 * it there (hr__mbox_posted) and complete it, as an MPI library copies into a posted receive's
 * buffer: no message record, and one copy instead of two (p2p.c, send_direct).
 *
 *   operation          who may call            exclusion needed with
 *   hr__mbox_put       any proc                nothing (wait-free)
 *   hr__mbox_put_serial  any proc but the owner, with no other proc running
 *   drain/find/remove  owner only              (owner is single-threaded)
 *   arm/unarm          owner only, with no other proc running (the lane: m->serial)
 *   serial             machine thread, before the first run
 *   init/destroy       machine thread          every other operation
 *
 * A processor asleep in a wait is never left with a message in its lane (whoever puts one there
 * wakes it), so the lists of a blocked processor (hr__mbox_sorted, for reports) hold all it has.
 */
#ifndef HREMU_CORE_MAILBOX_H
#define HREMU_CORE_MAILBOX_H

#include <stddef.h>

#include "hremu/hremu.h"

struct hr_msg;

/* Stands for liburcu's queue node, which only mailbox.c may see (it checks the size matches). */
typedef struct hr__mbox_link {
    void *next;
} hr__mbox_link;

/* One source's pending messages, in sending order (never empty while listed). */
typedef struct hr__mbox_src {
    struct hr_msg *head, *tail;
    int            src;
} hr__mbox_src;

typedef struct hr__mbox {
    void         *q;        /* the shared queue (mailbox.c) */
    hr__mbox_src *active;   /* [nactive] the sources with pending messages, in no order */
    int          *index;    /* [mask + 1] by a hash of the source: its place in active, or -1 */
    int           nactive, cap, mask, shift;
    /* Its puts come one at a time, none beside its owner (hr__mbox_serial: m->serial); then
     * queued is set by every put into the queue, and cleared by the drain that empties it, so
     * that a drain need not look at the queue's lines to find it empty. */
    int           serial, queued;
    struct hr_msg *lane;    /* the message put aside for an armed receive, or NULL */
    int           lane_src, lane_tag;   /* what the armed receive takes; lane_src -1: unarmed */
    int           lane_open;            /* a sender may complete the armed receive (p2p.c) */
} hr__mbox;

int  hr__mbox_init(hr__mbox *b);                    /* HR_OK or HR_ENOMEM */
void hr__mbox_destroy(hr__mbox *b);                 /* frees undelivered COPY messages */
/* From now on, puts come one at a time with no other proc running (machine.c: m->serial). */
void hr__mbox_serial(hr__mbox *b);
void hr__mbox_put(hr__mbox *b, struct hr_msg *msg);
/* As hr__mbox_put, where the caller is not the owner and nothing else runs: straight into the
 * owner's list for msg's source, as a drain would put it, or aside into its armed lane (or into
 * the queue, behind what waits there already, or when there is no memory for a new source's
 * list). */
void hr__mbox_put_serial(hr__mbox *b, struct hr_msg *msg);
/* The owner, with no message from src matching tag listed or queued, sleeps until one comes:
 * hr__mbox_put_serial puts the first such aside for it (m->serial only). open: a sender may
 * complete the receive instead (hr__mbox_posted). */
void hr__mbox_arm(hr__mbox *b, int src, int tag, int open);
/* Does a receive for tag `want` (HR_ANY_TAG: any) take a message with tag `have`? */
static inline int hr__mbox_tag_matches(int want, int have)
{
    return want == HR_ANY_TAG ? have >= 0 : want == have;
}
/* Is a receive armed open (hr__mbox_arm) for the next message from src with tag? Nothing it
 * would take is queued: on a serial mailbox, a message put in the queue unarms the lane it
 * matches (hr__mbox_put). The caller, a sender with no other proc running, then completes that
 * receive and unarms the lane (hr__mbox_unarm), or puts its message as ever. Inline: a sender
 * reads the receiver's lane and nothing else of its mailbox. */
static inline int hr__mbox_posted(const hr__mbox *b, int src, int tag)
{
    return src == b->lane_src && b->lane_open && hr__mbox_tag_matches(b->lane_tag, tag);
}
/* Unarm the lane, and take the message put aside if it is from src and matches tag (it then
 * lies in no list); else NULL, and a message left there goes back in place at the next drain. */
struct hr_msg *hr__mbox_take_lane(hr__mbox *b, int src, int tag);
/* A message the owner took from the lane (hr__mbox_unarm) and does not take after all goes back
 * in its place in the lists, by its sequence number. */
void hr__mbox_putback(hr__mbox *b, struct hr_msg *msg);
static inline struct hr_msg *hr__mbox_unarm(hr__mbox *b, int src, int tag)
{
    b->lane_src = -1;
    return b->lane != NULL ? hr__mbox_take_lane(b, src, tag) : NULL;
}
/* Move newly arrived messages to the private lists. Returns 1 if the queue was seen empty, 0 if a
 * sender preempted mid-enqueue hid what lies behind it (messages enqueued after it are not seen
 * yet; the preempted sender wakes the owner once its enqueue completes), -1 if a list for a new
 * source could not be made (out of memory; the message stays queued). */
int  hr__mbox_drain_queue(hr__mbox *b);
static inline int hr__mbox_drain(hr__mbox *b)
{
    /* Most drains find nothing (a receiver looks again at every step of its wait); a serial
     * mailbox knows it without a call or a look at the queue. */
    if (b->lane == NULL && b->serial && !b->queued)
        return 1;
    return hr__mbox_drain_queue(b);
}
/* First message from src (or from active[i].src) whose tag matches (tag < -1: that internal tag
 * exactly; HR_ANY_TAG: any tag >= 0; else that tag); NULL if none. *prev gets its predecessor in
 * the source's list. */
struct hr_msg *hr__mbox_find(const hr__mbox *b, int src, int tag, struct hr_msg **prev);
struct hr_msg *hr__mbox_find_at(const hr__mbox *b, int i, int tag, struct hr_msg **prev);
/* The first pending message from src (its list follows msg->next), or NULL. */
struct hr_msg *hr__mbox_head(const hr__mbox *b, int src);
void hr__mbox_remove(hr__mbox *b, int src, struct hr_msg *prev, struct hr_msg *msg);
/* The pending lists sorted by source, for reports (a copy: b is not changed); the caller frees
 * it. *n gets their number. NULL (and *n = 0) when none are pending or memory runs out. */
hr__mbox_src *hr__mbox_sorted(const hr__mbox *b, int *n);
/* Drop every pending message (between runs): COPY ones are freed, others belong to senders. */
void hr__mbox_clear(hr__mbox *b);

#endif
