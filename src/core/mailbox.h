/* mailbox.h: a processor's incoming messages.
 *
 * Senders append to a shared wait-free queue (liburcu's wfcqueue: any number of producers, no
 * lock). Only the owner drains it, into private per-source lists that keep each source's messages
 * in sending order, and a list of the sources that have messages pending.
 *
 *   operation          who may call            exclusion needed with
 *   hr__mbox_put       any proc                nothing (wait-free)
 *   drain/find/remove  owner only              (owner is single-threaded)
 *   init/destroy       machine thread          every other operation
 */
#ifndef HREMU_CORE_MAILBOX_H
#define HREMU_CORE_MAILBOX_H

#include <stddef.h>

struct hr_msg;

/* Stands for liburcu's queue node, which only mailbox.c may see (it checks the size matches). */
typedef struct hr__mbox_link {
    void *next;
} hr__mbox_link;

typedef struct hr__mbox_src {
    struct hr_msg *head, *tail;
} hr__mbox_src;

typedef struct hr__mbox {
    void         *q;        /* the shared queue (mailbox.c) */
    int           p;
    hr__mbox_src *src;      /* [p] private lists, indexed by source */
    int          *active;   /* sources with pending messages, nactive of them */
    int          *pos;      /* [p] index into active, or -1 */
    int           nactive;
} hr__mbox;

int  hr__mbox_init(hr__mbox *b, int p);            /* HR_OK or HR_ENOMEM */
void hr__mbox_destroy(hr__mbox *b);                 /* frees undelivered COPY messages */
void hr__mbox_put(hr__mbox *b, struct hr_msg *msg);
/* Move newly arrived messages to the private lists. Returns 1 if the queue was seen empty, 0 if a
 * sender preempted mid-enqueue hid what lies behind it (messages enqueued after it are not seen
 * yet; the preempted sender wakes the owner once its enqueue completes). */
int  hr__mbox_drain(hr__mbox *b);
/* First message from src whose tag matches (tag < -1: that internal tag exactly; HR_ANY_TAG: any
 * tag >= 0; else that tag); NULL if none. *prev gets its predecessor in the source's list. */
struct hr_msg *hr__mbox_find(const hr__mbox *b, int src, int tag, struct hr_msg **prev);
void hr__mbox_remove(hr__mbox *b, int src, struct hr_msg *prev, struct hr_msg *msg);
/* Drop every pending message (between runs): COPY ones are freed, others belong to senders. */
void hr__mbox_clear(hr__mbox *b);

#endif
