/* mailbox.c: the only module that sees liburcu (wfcqueue), so any sanitizer note names it alone. */
#define _LGPL_SOURCE
#include "core/mailbox.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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

/* The index is open-addressed with linear probing, at most half full, by the high bits of a
 * Fibonacci hash: the sources a processor hears from are often one bit apart (a hypercube's
 * neighbours), which the low bits of most hashes would pile on one slot. */
#define INIT_CAP 4

static int home(const hr__mbox *b, int src)
{
    return (int)(((uint64_t)(uint32_t)src * 0x9E3779B97F4A7C15u) >> b->shift);
}

/* The index slot that holds src, or the empty slot where it would go. */
static int slot_of(const hr__mbox *b, int src)
{
    int s = home(b, src);
    while (b->index[s] >= 0 && b->active[b->index[s]].src != src)
        s = (s + 1) & b->mask;
    return s;
}

/* Make the index 2 * slots and hash every listed source into it again. */
static int rehash(hr__mbox *b, int slots)
{
    int *index = malloc((size_t)slots * sizeof *index);
    if (index == NULL)
        return HR_ENOMEM;
    free(b->index);
    b->index = index;
    b->mask = slots - 1;
    b->shift = 64 - __builtin_ctz((unsigned)slots);
    for (int s = 0; s < slots; s++)
        index[s] = -1;
    for (int i = 0; i < b->nactive; i++)
        index[slot_of(b, b->active[i].src)] = i;
    return HR_OK;
}

/* Room to list one more source. */
static int reserve(hr__mbox *b)
{
    if (b->nactive == b->cap) {
        hr__mbox_src *a = realloc(b->active, 2 * (size_t)b->cap * sizeof *a);
        if (a == NULL)
            return HR_ENOMEM;
        b->active = a;
        b->cap *= 2;
    }
    if (2 * (b->nactive + 1) > b->mask + 1)
        return rehash(b, 2 * (b->mask + 1));
    return HR_OK;
}

int hr__mbox_init(hr__mbox *b)
{
    *b = (hr__mbox){ .cap = INIT_CAP, .lane_src = -1 };
    mbox_q *q = aligned_alloc(64, (sizeof(mbox_q) + 63) / 64 * 64);
    if (q == NULL)
        return HR_ENOMEM;
    __cds_wfcq_init(&q->head, &q->tail);
    b->q = q;
    if ((b->active = malloc(INIT_CAP * sizeof *b->active)) == NULL ||
        rehash(b, 2 * INIT_CAP) != HR_OK) {
        free(b->active);
        free(q);
        return HR_ENOMEM;
    }
    return HR_OK;
}

void hr__mbox_destroy(hr__mbox *b)
{
    hr__mbox_clear(b);
    free(b->index);
    free(b->active);
    free(b->q);
}

void hr__mbox_serial(hr__mbox *b)
{
    b->serial = 1;
    b->queued = !cds_wfcq_empty(&((mbox_q *)b->q)->head, &((mbox_q *)b->q)->tail);
}

void hr__mbox_put(hr__mbox *b, hr_msg *msg)
{
    mbox_q *q = b->q;
    /* Serial: the drain will look, and an armed lane that msg matches would take a later
     * message before it: it is unarmed, so that an armed lane says that nothing it wants is
     * queued (hr__mbox_posted). */
    if (b->serial) {
        b->queued = 1;
        if (msg->src == b->lane_src && hr__mbox_tag_matches(b->lane_tag, msg->tag))
            b->lane_src = -1;
    }
    struct cds_wfcq_node *node = (struct cds_wfcq_node *)&msg->link;
    cds_wfcq_node_init(node);
    TSAN_RELEASE(msg);
    cds_wfcq_enqueue(&q->head, &q->tail, node);
}

/* reserve() has made room for a new source. */
static void append(hr__mbox *b, hr_msg *msg);

void hr__mbox_put_serial(hr__mbox *b, hr_msg *msg)
{
    mbox_q *q = b->q;
    /* The owner's lists hold what it drained; what waits in the queue came before msg. (A
     * serial mailbox knows when nothing does without a look at the queue's lines.) */
    if ((!b->serial || b->queued) && !cds_wfcq_empty(&q->head, &q->tail)) {
        hr__mbox_put(b, msg);
        return;
    }
    if (msg->src == b->lane_src && hr__mbox_tag_matches(b->lane_tag, msg->tag)) {
        b->lane = msg;
        b->lane_src = -1;
        return;
    }
    if (reserve(b) != HR_OK) {
        hr__mbox_put(b, msg);
        return;
    }
    append(b, msg);
}

static void append(hr__mbox *b, hr_msg *msg)
{
    int s = slot_of(b, msg->src);
    msg->next = NULL;
    if (b->index[s] < 0) {
        b->index[s] = b->nactive;
        b->active[b->nactive++] = (hr__mbox_src){ msg, msg, msg->src };
        return;
    }
    hr__mbox_src *l = &b->active[b->index[s]];
    l->tail->next = msg;
    l->tail = msg;
}

void hr__mbox_arm(hr__mbox *b, int src, int tag, int open)
{
    b->lane_src = src;
    b->lane_tag = tag;
    b->lane_open = open;
}

hr_msg *hr__mbox_take_lane(hr__mbox *b, int src, int tag)
{
    hr_msg *msg = b->lane;
    if (msg->src != src || !hr__mbox_tag_matches(tag, msg->tag))
        return NULL;
    b->lane = NULL;
    return msg;
}

/* Put the lane's message back in its source's list, in sending order: behind the messages of
 * that source listed when the lane was armed (none matched), ahead of those that came after. */
static int fold_lane(hr__mbox *b)
{
    hr_msg *msg = b->lane;
    if (reserve(b) != HR_OK)
        return HR_ENOMEM;
    b->lane = NULL;
    b->lane_src = -1;
    int i = b->index[slot_of(b, msg->src)];
    if (i < 0) {
        append(b, msg);
        return HR_OK;
    }
    hr__mbox_src *l = &b->active[i];
    hr_msg *prev = NULL, *at = l->head;
    for (; at != NULL && at->seq < msg->seq; prev = at, at = at->next)
        ;
    msg->next = at;
    if (prev != NULL)
        prev->next = msg;
    else
        l->head = msg;
    if (at == NULL)
        l->tail = msg;
    return HR_OK;
}

/* The owner found the queue empty. (Only serial mailboxes keep count: elsewhere the senders
 * read this line, and the owner does not write it at every drain.) */
static void emptied(hr__mbox *b)
{
    if (b->serial)
        b->queued = 0;
}

void hr__mbox_putback(hr__mbox *b, hr_msg *msg)
{
    /* With no memory for a list, it stays in the lane, where a drain folds it or a clear
     * frees it. */
    b->lane = msg;
    fold_lane(b);
}

int hr__mbox_drain_queue(hr__mbox *b)
{
    mbox_q *q = b->q;
    if (b->lane != NULL && fold_lane(b) != HR_OK)
        return -1;
    if (b->serial && !b->queued)
        return 1;
    if (cds_wfcq_empty(&q->head, &q->tail)) {
        emptied(b);
        return 1;
    }
    for (;;) {
        if (reserve(b) != HR_OK)
            return -1;
        /* Non-blocking: a producer preempted mid-enqueue makes us stop here; it wakes the owner
         * once its enqueue is complete, so the message is seen on the next drain. */
        struct cds_wfcq_node *node = __cds_wfcq_dequeue_nonblocking(&q->head, &q->tail);
        if (node == NULL) {
            emptied(b);
            return 1;
        }
        if (node == CDS_WFCQ_WOULDBLOCK)
            return 0;
        hr_msg *msg = (hr_msg *)node;
        TSAN_ACQUIRE(msg);
        append(b, msg);
    }
}

hr_msg *hr__mbox_find_at(const hr__mbox *b, int i, int tag, hr_msg **prev)
{
    hr_msg *before = NULL;
    for (hr_msg *msg = b->active[i].head; msg != NULL; before = msg, msg = msg->next)
        if (hr__mbox_tag_matches(tag, msg->tag)) {
            *prev = before;
            return msg;
        }
    return NULL;
}

hr_msg *hr__mbox_find(const hr__mbox *b, int src, int tag, hr_msg **prev)
{
    if (b->nactive == 0)    /* nothing listed: the index (a line of its own) need not be read */
        return NULL;
    int i = b->index[slot_of(b, src)];
    return i < 0 ? NULL : hr__mbox_find_at(b, i, tag, prev);
}

hr_msg *hr__mbox_head(const hr__mbox *b, int src)
{
    int i = b->index[slot_of(b, src)];
    return i < 0 ? NULL : b->active[i].head;
}

/* Take the emptied list that index slot `hole` names out: swap-remove it from active, and
 * close the gap its slot leaves in the index by moving back the entries of the run behind it
 * that may move. */
static void unlist(hr__mbox *b, int hole)
{
    int at = b->index[hole], last = --b->nactive;
    if (at != last) {
        b->index[slot_of(b, b->active[last].src)] = at;    /* found while src is still listed */
        b->active[at] = b->active[last];
    }
    b->index[hole] = -1;
    for (int s = (hole + 1) & b->mask; b->index[s] >= 0; s = (s + 1) & b->mask) {
        int h = home(b, b->active[b->index[s]].src);
        /* The entry at s stays if its home lies cyclically in (hole, s]. */
        if (hole < s ? (h > hole && h <= s) : (h > hole || h <= s))
            continue;
        b->index[hole] = b->index[s];
        b->index[s] = -1;
        hole = s;
    }
}

void hr__mbox_remove(hr__mbox *b, int src, hr_msg *prev, hr_msg *msg)
{
    int s = slot_of(b, src);
    hr__mbox_src *l = &b->active[b->index[s]];
    if (prev != NULL)
        prev->next = msg->next;
    else
        l->head = msg->next;
    if (l->tail == msg)
        l->tail = prev;
    if (l->head == NULL)
        unlist(b, s);
}

static int by_source(const void *x, const void *y)
{
    int a = ((const hr__mbox_src *)x)->src, c = ((const hr__mbox_src *)y)->src;
    return (a > c) - (a < c);
}

hr__mbox_src *hr__mbox_sorted(const hr__mbox *b, int *n)
{
    hr__mbox_src *v = b->nactive > 0 ? malloc((size_t)b->nactive * sizeof *v) : NULL;
    *n = v != NULL ? b->nactive : 0;
    if (v != NULL) {
        memcpy(v, b->active, (size_t)b->nactive * sizeof *v);
        qsort(v, (size_t)b->nactive, sizeof *v, by_source);
    }
    return v;
}

void hr__mbox_clear(hr__mbox *b)
{
    mbox_q *q = b->q;
    struct cds_wfcq_node *node;
    hr_msg *laned = b->lane;
    b->lane = NULL;
    b->lane_src = -1;
    if (laned != NULL && laned->kind == HR_MSG_COPY)
        free(laned);
    /* Between runs nobody is enqueueing: the blocking dequeue cannot wait. */
    while ((node = __cds_wfcq_dequeue_blocking(&q->head, &q->tail)) != NULL) {
        hr_msg *msg = (hr_msg *)node;
        TSAN_ACQUIRE(msg);
        if (msg->kind == HR_MSG_COPY)
            free(msg);
    }
    emptied(b);
    while (b->nactive > 0) {
        hr_msg *msg = b->active[0].head;
        hr__mbox_remove(b, msg->src, NULL, msg);
        if (msg->kind == HR_MSG_COPY)
            free(msg);
    }
}
