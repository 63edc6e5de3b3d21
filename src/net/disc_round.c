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
    free(q->e);
    memset(q, 0, sizeof *q);
}

/* Room for need entries; a fifo ring is laid out again from index 0. 0, or -1 without memory. */
static int reserve(hr_rqueue *q, int need)
{
    if (need <= q->cap)
        return 0;
    int cap = q->cap ? q->cap : 8;
    while (cap < need)
        cap *= 2;
    hr_qentry *e = malloc((size_t)cap * sizeof *e);
    if (e == NULL)
        return -1;
    for (int k = 0; k < q->n; k++)
        e[k] = q->e[(q->head + k) % q->cap];
    free(q->e);
    q->e = e;
    q->head = 0;
    q->cap = cap;
    return 0;
}

int hr__rule_fifo(hr_rqueue *q, const hr_arrival *a, int na, hr_rng *rng, uint8_t *lost)
{
    (void)lost;                       /* nothing is lost */
    if (q->n + na > q->cap && reserve(q, q->n + na) != 0)
        return -2;
    /* The round's arrivals join at the tail in a uniformly random order. */
    int tail = (q->head + q->n) % q->cap;
    for (int k = 0; k < na; k++)
        q->e[(tail + k) % q->cap].src = a[k].src;
    for (int k = na - 1; k > 0; k--) {
        int j = (int)hr__rng_below(rng, (uint64_t)k + 1);
        int x = (tail + k) % q->cap, y = (tail + j) % q->cap;
        int32_t t = q->e[x].src;
        q->e[x].src = q->e[y].src;
        q->e[y].src = t;
    }
    q->n += na;
    if (q->n == 0)
        return -1;
    int32_t got = q->e[q->head].src;
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return got;
}

/* Heap order: higher priority first, then higher tie key. */
static int above(const hr_qentry *x, const hr_qentry *y)
{
    return x->prio != y->prio ? x->prio > y->prio : x->tie > y->tie;
}

int hr__rule_priority(hr_rqueue *q, const hr_arrival *a, int na, hr_rng *rng, uint8_t *lost)
{
    (void)lost;                       /* nothing is lost */
    if (q->n + na > q->cap && reserve(q, q->n + na) != 0)
        return -2;
    hr_qentry *h = q->e;
    for (int k = 0; k < na; k++) {
        hr_qentry x = { a[k].prio, hr__rng_next(rng), a[k].src };
        int i = q->n++;
        for (; i > 0 && above(&x, &h[(i - 1) / 2]); i = (i - 1) / 2)
            h[i] = h[(i - 1) / 2];
        h[i] = x;
    }
    if (q->n == 0)
        return -1;
    int32_t got = h[0].src;
    hr_qentry x = h[--q->n];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, r = l + 1, top = l;
        if (l >= q->n)
            break;
        if (r < q->n && above(&h[r], &h[l]))
            top = r;
        if (!above(&h[top], &x))
            break;
        h[i] = h[top];
        i = top;
    }
    h[i] = x;
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
