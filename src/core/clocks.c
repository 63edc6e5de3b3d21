/* clocks.c: the least published clocks, by tournament trees (clocks.h). */
#include "core/clocks.h"

#include <stdlib.h>

#include "core/core.h"
#include "util/sync.h"

static int before(const hr__ctree *t, int x, int y)
{
    return t->key[x] < t->key[y] || (t->key[x] == t->key[y] && x < y);
}

static void set(const hr_clocks *c, const hr__ctree *t, int q, hr_time key)
{
    if (t->key[q] == key)
        return;
    t->key[q] = key;
    for (int i = (c->n + q) / 2; i >= 1; i /= 2) {
        int l = t->win[2 * i], r = t->win[2 * i + 1];
        int w = before(t, l, r) ? l : r;
        if (t->win[i] == w && w != q)
            break;          /* nothing above changes (q lost here, and the winner is as it was) */
        t->win[i] = w;
    }
}

static void build(const hr_clocks *c, const hr__ctree *t)
{
    for (int q = 0; q < c->n; q++)
        t->win[c->n + q] = q;
    for (int i = c->n - 1; i >= 1; i--) {
        int l = t->win[2 * i], r = t->win[2 * i + 1];
        t->win[i] = before(t, l, r) ? l : r;
    }
}

static int tree_init(hr__ctree *t, int n)
{
    t->key = malloc((size_t)n * sizeof *t->key);
    t->win = malloc(2 * (size_t)n * sizeof *t->win);
    return t->key != NULL && t->win != NULL ? HR_OK : HR_ENOMEM;
}

int hr__clocks_init(hr_clocks *c, int p, int route)
{
    *c = (hr_clocks){ .n = 1 };
    while (c->n < p)
        c->n *= 2;
    hr__mutex_init(&c->lock);
    if (tree_init(&c->all, c->n) != HR_OK || tree_init(&c->events, c->n) != HR_OK ||
        (route && (tree_init(&c->route, c->n) != HR_OK ||
                   (c->parked = calloc((size_t)p, 1)) == NULL))) {
        hr__clocks_destroy(c);
        return HR_ENOMEM;
    }
    return HR_OK;
}

void hr__clocks_destroy(hr_clocks *c)
{
    free(c->all.key);
    free(c->all.win);
    free(c->route.key);
    free(c->route.win);
    free(c->events.key);
    free(c->events.win);
    free(c->parked);
    hr__mutex_destroy(&c->lock);
}

void hr__clocks_reset(hr_clocks *c, hr_machine *m)
{
    /* Clocks start at 0, events at none (HR_TIME_INF: proc.c's reset). */
    const hr__ctree *trees[3] = { &c->all, &c->events, c->route.key != NULL ? &c->route : NULL };
    for (int k = 0; k < 3 && trees[k] != NULL; k++) {
        for (int q = 0; q < c->n; q++)
            trees[k]->key[q] = q < m->p && trees[k] != &c->events ? 0 : HR_TIME_INF;
        build(c, trees[k]);
    }
    if (c->parked != NULL)
        memset(c->parked, 0, (size_t)m->p);
    for (int q = 0; q < m->p; q++)
        atomic_store_explicit(&m->procs[q].stale, 0, memory_order_relaxed);
    atomic_store(&c->stale, NULL);
}

/* Under the lock: read the stale processors again. */
static void fresh(hr_clocks *c)
{
    /* The whole list at once: no pop of one node, so no ABA. */
    hr_proc *q = atomic_exchange_explicit(&c->stale, NULL, memory_order_acquire);
    while (q != NULL) {
        hr_proc *next = q->stale_next;     /* before q may list itself again */
        atomic_exchange_explicit(&q->stale, 0, memory_order_acq_rel);
        hr_time t = atomic_load_explicit(&q->pub_clock, memory_order_acquire);
        set(c, &c->all, q->id, t);
        set(c, &c->events, q->id, atomic_load(&q->event));
        if (c->route.key != NULL) {
            int parked = atomic_load(&q->parked) != 0;
            c->parked[q->id] = (uint8_t)parked;
            set(c, &c->route, q->id, parked ? HR_TIME_INF : t);
        }
        q = next;
    }
}

/* The least of t below node i other than the nx processors of not[], or -1. */
static int least_below(const hr_clocks *c, const hr__ctree *t, int i, const int *not, int nx)
{
    int w = t->win[i], out = 0;
    for (int k = 0; k < nx; k++)
        out |= not[k] == w;
    if (!out)
        return w;
    if (i >= c->n)
        return -1;
    int l = least_below(c, t, 2 * i, not, nx), r = least_below(c, t, 2 * i + 1, not, nx);
    if (l < 0 || r < 0)
        return l < 0 ? r : l;
    return before(t, l, r) ? l : r;
}

void hr__clocks_least(hr_clocks *c, int which, int not1, int not2, int n, hr_time *t, int *id)
{
    const hr__ctree *tree = which == HR_CLOCKS_ROUTE    ? &c->route
                          : which == HR_CLOCKS_EVENTS ? &c->events
                                                      : &c->all;
    int not[5] = { not1, not2 };
    for (int k = 0; k < n; k++) {
        t[k] = HR_TIME_INF;
        id[k] = -1;
    }
    hr__mutex_lock(&c->lock);
    fresh(c);
    for (int k = 0; k < n; k++) {
        int q = least_below(c, tree, 1, not, 2 + k);
        if (q < 0 || tree->key[q] == HR_TIME_INF)
            break;
        t[k] = tree->key[q];
        id[k] = not[2 + k] = q;
    }
    hr__mutex_unlock(&c->lock);
}

int hr__clocks_was_parked(hr_clocks *c, int q)
{
    hr__mutex_lock(&c->lock);
    int was = c->parked[q];
    hr__mutex_unlock(&c->lock);
    return was;
}

void hr__clocks_unpark(hr_clocks *c, int q, hr_time from)
{
    hr__mutex_lock(&c->lock);
    c->parked[q] = 0;
    set(c, &c->route, q, from);
    hr__mutex_unlock(&c->lock);
}
