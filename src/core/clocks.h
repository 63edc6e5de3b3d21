/* clocks.h: the least published clocks of a machine, found without reading every processor's.
 *
 * Receives from any source, bounded tests, buffer admissions (lookahead.c) and routing on a
 * topology with links (transit.c) ask which processors have published the least clocks, ties
 * by id. A scan of p clocks per question made a run of p processors cost O(p) a message; at
 * p = 2^16 that is most of the run. Here the clocks sit in a tournament tree (O(log p) to
 * change one, O(1) to read the least, O(log p) for the least but one or two given processors),
 * kept twice on a topology with links: once as published (`all`) and once with a parked
 * processor counted as HR_TIME_INF (`route`: transit.c leaves parked receivers out of its
 * bounds, and keeps a snapshot of who was parked in `parked`). A third tree holds the pending
 * events (`events`, core.h's p->event), whose least the resolver grants (wait.c).
 *
 * A processor that publishes a clock, parks, unparks or changes its event marks itself stale (hr__clocks_touch:
 * one atomic exchange, and a wait-free push onto a list the first time since it was last read).
 * Whoever asks takes the lock and first reads the stale ones again. A
 * question sees every change whose touch came before it, as a scan that started then would.
 *
 *   operation              who                      lock
 *   hr__clocks_touch       anyone, after the change  none
 *   least, was_parked,     anyone                    c->lock, taken inside (innermost:
 *   unpark                                           nothing is taken while it is held)
 *   init, reset, destroy   the machine's thread      none: no processor runs
 */
#ifndef HREMU_CORE_CLOCKS_H
#define HREMU_CORE_CLOCKS_H

#include <pthread.h>
#include <stdint.h>

#include <stdatomic.h>

#include "net/cost.h"

struct hr_proc;
struct hr_machine;

typedef struct hr__ctree {
    hr_time *key;     /* [n] by processor; HR_TIME_INF past p */
    int     *win;     /* [2n] win[i]: the processor with the least (key, id) below node i */
} hr__ctree;

typedef struct hr_clocks {
    pthread_mutex_t          lock;
    int                      n;        /* leaves: the least power of two >= p */
    hr__ctree                all, route, events;  /* route.key is NULL without links */
    uint8_t                 *parked;   /* [p] parked when last read (with route) */
    _Atomic(struct hr_proc *) stale;   /* touched since last read, linked by stale_next */
} hr_clocks;

int  hr__clocks_init(hr_clocks *c, int p, int route);   /* HR_OK or HR_ENOMEM */
void hr__clocks_destroy(hr_clocks *c);
/* Every clock 0, nobody parked or stale: a run's start. */
void hr__clocks_reset(hr_clocks *c, struct hr_machine *m);
/* q's published clock or parked flag has changed: hr__clocks_touch, inline in core.h (it is
 * on every publish). */
/* Which tree hr__clocks_least reads. */
enum { HR_CLOCKS_ALL, HR_CLOCKS_ROUTE, HR_CLOCKS_EVENTS };
/* The n (at most 3) least (key, id) pairs of a tree (which), other than not1 and not2 (-1:
 * nobody), into t[0 .. n) and id[0 .. n): HR_TIME_INF and -1 past the last finite one. Reads
 * the stale ones first. */
void hr__clocks_least(hr_clocks *c, int which, int not1, int not2, int n, hr_time *t, int *id);
/* Whether q was parked when last read (route only). */
int  hr__clocks_was_parked(hr_clocks *c, int q);
/* Forget that q was parked: a message routed to it ends its receive, and it injects nothing
 * before `from` (transit.c). The route tree holds `from` for q until q is read again: until
 * then, q's own touch may still be on its way (q may have left its wait and be touching on
 * another thread), and without a key the tree would leave q out of every decision meanwhile. */
void hr__clocks_unpark(hr_clocks *c, int q, hr_time from);

#endif
