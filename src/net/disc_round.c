/* disc_round.c: the rules of the round disciplines of seed 003 (section 1), one receiver's round
 * at a time. The round engine (core/round.c) hands each rule the round's arrivals in source order
 * and the receiver's own random stream, so every choice below is the same whatever the thread
 * schedule.
 *
 * Choices where the paper leaves room:
 * - fifo: "incoming messages destined for a given receiver are placed in a first-in first-out
 *   queue"; messages that arrive in the same round join it in a uniformly random order (a
 *   Fisher-Yates shuffle), and the head leaves in the round it arrives if the queue was empty.
 * - priority: "ties broken arbitrarily": each arrival draws a 64-bit tie key, and of equal
 *   priorities the larger key leaves first; a uniformly random order, as for fifo.
 * - arbitrary: the winner is uniform among the round's arrivals; a lone arrival draws nothing.
 */
#include "net/discipline.h"

#include <stdlib.h>
#include <string.h>

void hr__rqueue_free(hr_rqueue *q)
{
    free(q->src);
    free(q->prio);
    free(q->tie);
    memset(q, 0, sizeof *q);
}

/* Room for need entries; a fifo ring is laid out again from index 0. 0, or -1 without memory. */
static int reserve(hr_rqueue *q, int need, int keyed)
{
    if (need <= q->cap)
        return 0;
    int cap = q->cap ? q->cap : 8;
    while (cap < need)
        cap *= 2;
    int32_t *src = malloc((size_t)cap * sizeof *src);
    uint64_t *prio = keyed ? realloc(q->prio, (size_t)cap * sizeof *prio) : NULL;
    if (keyed && prio != NULL)
        q->prio = prio;
    uint64_t *tie = keyed && prio != NULL ? realloc(q->tie, (size_t)cap * sizeof *tie) : NULL;
    if (keyed && tie != NULL)
        q->tie = tie;
    if (src == NULL || (keyed && (prio == NULL || tie == NULL))) {
        free(src);
        return -1;
    }
    for (int k = 0; k < q->n; k++)
        src[k] = q->src[(q->head + k) % q->cap];
    free(q->src);
    q->src = src;
    q->head = 0;
    q->cap = cap;
    return 0;
}

int hr__rule_fifo(hr_rqueue *q, const hr_arrival *a, int na, hr_rng *rng, uint8_t *lost)
{
    memset(lost, 0, (size_t)na);
    if (reserve(q, q->n + na, 0) != 0)
        return -2;
    /* The round's arrivals join at the tail in a uniformly random order. */
    int tail = (q->head + q->n) % q->cap;
    for (int k = 0; k < na; k++)
        q->src[(tail + k) % q->cap] = a[k].src;
    for (int k = na - 1; k > 0; k--) {
        int j = (int)hr__rng_below(rng, (uint64_t)k + 1);
        int x = (tail + k) % q->cap, y = (tail + j) % q->cap;
        int32_t t = q->src[x];
        q->src[x] = q->src[y];
        q->src[y] = t;
    }
    q->n += na;
    if (q->n == 0)
        return -1;
    int32_t got = q->src[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return got;
}

/* Heap order: higher priority first, then higher tie key. */
static int above(const hr_rqueue *q, int i, int j)
{
    return q->prio[i] != q->prio[j] ? q->prio[i] > q->prio[j] : q->tie[i] > q->tie[j];
}

static void swap_at(hr_rqueue *q, int i, int j)
{
    int32_t s = q->src[i];
    q->src[i] = q->src[j];
    q->src[j] = s;
    uint64_t t = q->prio[i];
    q->prio[i] = q->prio[j];
    q->prio[j] = t;
    t = q->tie[i];
    q->tie[i] = q->tie[j];
    q->tie[j] = t;
}

int hr__rule_priority(hr_rqueue *q, const hr_arrival *a, int na, hr_rng *rng, uint8_t *lost)
{
    memset(lost, 0, (size_t)na);
    if (reserve(q, q->n + na, 1) != 0)
        return -2;
    for (int k = 0; k < na; k++) {
        int i = q->n++;
        q->src[i] = a[k].src;
        q->prio[i] = a[k].prio;
        q->tie[i] = hr__rng_next(rng);
        while (i > 0 && above(q, i, (i - 1) / 2)) {
            swap_at(q, i, (i - 1) / 2);
            i = (i - 1) / 2;
        }
    }
    if (q->n == 0)
        return -1;
    int32_t got = q->src[0];
    swap_at(q, 0, --q->n);
    for (int i = 0;;) {
        int l = 2 * i + 1, r = l + 1, top = i;
        if (l < q->n && above(q, l, top))
            top = l;
        if (r < q->n && above(q, r, top))
            top = r;
        if (top == i)
            break;
        swap_at(q, i, top);
        i = top;
    }
    return got;
}

int hr__rule_arbitrary(hr_rqueue *q, const hr_arrival *a, int na, hr_rng *rng, uint8_t *lost)
{
    (void)q;
    if (na == 0)
        return -1;
    int win = na == 1 ? 0 : (int)hr__rng_below(rng, (uint64_t)na);
    for (int k = 0; k < na; k++)
        lost[k] = k != win;
    return a[win].src;
}

int hr__rule_ocpc(hr_rqueue *q, const hr_arrival *a, int na, hr_rng *rng, uint8_t *lost)
{
    (void)q;
    (void)rng;
    for (int k = 0; k < na; k++)
        lost[k] = na > 1;
    return na == 1 ? a[0].src : -1;
}
