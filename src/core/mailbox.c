/* mailbox.c: the only module that sees liburcu (wfcqueue), so any sanitizer note names it alone. */
#define _LGPL_SOURCE
#include "core/mailbox.h"

#include <stdlib.h>
#include <urcu/wfcqueue.h>

#include "core/core.h"
#include "util/sync.h"

#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
/* TSan cannot see the atomics inside wfcqueue: give it the happens-before edge that the queue
 * provides from an enqueue to the dequeue of the same node (DESIGN.md section 6). */
#define TSAN_RELEASE(x) __tsan_release(x)
#define TSAN_ACQUIRE(x) __tsan_acquire(x)
#else
#define TSAN_RELEASE(x) ((void)0)
#define TSAN_ACQUIRE(x) ((void)0)
#endif

_Static_assert(sizeof(struct cds_wfcq_node) == sizeof(hr__mbox_link), "wfcq node size");
_Static_assert(offsetof(hr_msg, link) == 0, "the queue link leads the message");

typedef struct mbox_q {
    struct __cds_wfcq_head head;
    _Alignas(64) struct cds_wfcq_tail tail;   /* producers hit the tail, the owner the head */
} mbox_q;

int hr__mbox_init(hr__mbox *b, int p)
{
    mbox_q *q = aligned_alloc(64, (sizeof(mbox_q) + 63) / 64 * 64);
    if (q == NULL)
        goto fail_q;
    __cds_wfcq_init(&q->head, &q->tail);
    /* calloc: for large p the untouched per-source slots stay unmapped zero pages. */
    if ((b->src = calloc((size_t)p, sizeof *b->src)) == NULL)
        goto fail_src;
    if ((b->active = malloc((size_t)p * sizeof *b->active)) == NULL)
        goto fail_active;
    if ((b->pos = malloc((size_t)p * sizeof *b->pos)) == NULL)
        goto fail_pos;
    for (int i = 0; i < p; i++)
        b->pos[i] = -1;
    b->q = q;
    b->p = p;
    b->nactive = 0;
    return HR_OK;
fail_pos:
    free(b->active);
fail_active:
    free(b->src);
fail_src:
    free(q);
fail_q:
    return HR_ENOMEM;
}

void hr__mbox_destroy(hr__mbox *b)
{
    hr__mbox_clear(b);
    free(b->pos);
    free(b->active);
    free(b->src);
    free(b->q);
}

void hr__mbox_put(hr__mbox *b, hr_msg *msg)
{
    mbox_q *q = b->q;
    struct cds_wfcq_node *node = (struct cds_wfcq_node *)&msg->link;
    cds_wfcq_node_init(node);
    TSAN_RELEASE(msg);
    cds_wfcq_enqueue(&q->head, &q->tail, node);
}

static void append(hr__mbox *b, hr_msg *msg)
{
    hr__mbox_src *s = &b->src[msg->src];
    msg->next = NULL;
    if (s->tail != NULL) {
        s->tail->next = msg;
    } else {
        s->head = msg;
        b->pos[msg->src] = b->nactive;
        b->active[b->nactive++] = msg->src;
    }
    s->tail = msg;
}

int hr__mbox_drain(hr__mbox *b)
{
    mbox_q *q = b->q;
    for (;;) {
        /* Non-blocking: a producer preempted mid-enqueue makes us stop here; it wakes the owner
         * once its enqueue is complete, so the message is seen on the next drain. */
        struct cds_wfcq_node *node = __cds_wfcq_dequeue_nonblocking(&q->head, &q->tail);
        if (node == NULL)
            return 1;
        if (node == CDS_WFCQ_WOULDBLOCK)
            return 0;
        hr_msg *msg = (hr_msg *)node;
        TSAN_ACQUIRE(msg);
        append(b, msg);
    }
}

static int tag_matches(int want, int have)
{
    if (want == HR_ANY_TAG)
        return have >= 0;
    return want == have;
}

hr_msg *hr__mbox_find(const hr__mbox *b, int src, int tag, hr_msg **prev)
{
    hr_msg *before = NULL;
    for (hr_msg *msg = b->src[src].head; msg != NULL; before = msg, msg = msg->next)
        if (tag_matches(tag, msg->tag)) {
            *prev = before;
            return msg;
        }
    return NULL;
}

void hr__mbox_remove(hr__mbox *b, int src, hr_msg *prev, hr_msg *msg)
{
    hr__mbox_src *s = &b->src[src];
    if (prev != NULL)
        prev->next = msg->next;
    else
        s->head = msg->next;
    if (s->tail == msg)
        s->tail = prev;
    if (s->head == NULL) {
        /* Swap-remove src from the active list. */
        int at = b->pos[src];
        int last = b->active[--b->nactive];
        b->active[at] = last;
        b->pos[last] = at;
        b->pos[src] = -1;
    }
}

void hr__mbox_clear(hr__mbox *b)
{
    hr__mbox_drain(b);
    while (b->nactive > 0) {
        int src = b->active[0];
        hr_msg *msg = b->src[src].head;
        hr__mbox_remove(b, src, NULL, msg);
        if (msg->kind == HR_MSG_COPY)
            free(msg);
    }
}
