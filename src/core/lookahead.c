/* lookahead.c: what the published clocks allow. A processor's published clock plus tau is its
 * lookahead: nothing it sends from now on arrives earlier (docs/architecture.md, "Choices").
 * A receive from any source, a bounded test, a buffer admission ask here whether every other
 * processor is past a time; if not, the asker waits with a watch (core.h), and the resolver,
 * when every processor waits, wakes the watches that hold before it grants anything. The
 * point-to-point calls (p2p.c), the bounded buffers (buffer.c) and the resolver (wait.c)
 * share this one rule. */
#include "core/core.h"

int hr__nothing_before(hr_proc *p, hr_time a, int src, int skip)
{
    /* Every processor but p and skip is past (a, src) if the least of them, by (clock, id), is. */
    hr_time lb;
    int q;
    hr__clocks_least(&p->m->clocks, HR_CLOCKS_ALL, p->id, skip, 1, &lb, &q);
    return q < 0 || hr__past(hr__tadd(lb, p->m->cost.tau), q, a, src);
}

int hr__clocks_past(hr_proc *p, hr_time a, int src, int skip, int one)
{
    int ok;
    if (one >= 0) {
        hr_time lb = atomic_load_explicit(&p->m->procs[one].pub_clock, memory_order_acquire);
        ok = lb == HR_TIME_INF || hr__past(hr__tadd(lb, p->m->cost.tau), one, a, src);
    } else {
        ok = hr__nothing_before(p, a, src, skip);
    }
    if (!ok) {
        atomic_store(&p->watch_src, src);
        atomic_store(&p->watch_skip, skip);
        atomic_store(&p->watch_one, one);
        if (atomic_exchange(&p->watch_a, a) == HR_TIME_INF)
            atomic_fetch_add(&p->m->watching, 1);
        hr__proc_event(p, a);
    }
    return ok;
}

/* Does q's watch hold, given the least (published clock + tau, id) pairs lo[0..2] of the
 * machine (ties by id; HR_TIME_INF where fewer)? The same test as q's own (hr__clocks_past). */
static int watch_holds(const hr_proc *q, const hr_time lo[3], const int lo_id[3])
{
    hr_time a = atomic_load(&q->watch_a);
    int src = atomic_load(&q->watch_src), skip = atomic_load(&q->watch_skip);
    int one = atomic_load(&q->watch_one);
    if (a == HR_TIME_INF)
        return 0;
    if (one >= 0) {
        hr_time c = atomic_load_explicit(&q->m->procs[one].pub_clock, memory_order_acquire);
        return c == HR_TIME_INF || hr__past(hr__tadd(c, q->m->cost.tau), one, a, src);
    }
    /* The least pair other than q and skip decides: every other is past it. */
    for (int i = 0; i < 3; i++)
        if (lo_id[i] != q->id && lo_id[i] != skip)
            return lo[i] == HR_TIME_INF || hr__past(lo[i], lo_id[i], a, src);
    return 1;
}

/* Wake every blocked processor whose watch holds (core.h): its wait has ended, though nobody
 * told it, since publishing a clock wakes no one. This comes before any grant: a grant lets a
 * processor act as if nothing could come before its event, and a wait that has ended may lead
 * to something that does (a rendezvous committed at a key below a grantee's message). How many
 * were woken. */
int hr__watchers_wake(hr_machine *m)
{
    if (atomic_load(&m->watching) == 0)
        return 0;
    hr_time lo[3];
    int lo_id[3];
    hr__clocks_least(&m->clocks, HR_CLOCKS_ALL, -1, -1, 3, lo, lo_id);
    for (int k = 0; k < 3; k++)
        if (lo_id[k] >= 0)
            lo[k] = hr__tadd(lo[k], m->cost.tau);
    int woken = 0;
    for (int i = 0; i < m->p; i++) {
        hr_proc *q = &m->procs[i];
        if (atomic_load(&q->state) == HR_PROC_BLOCKED && watch_holds(q, lo, lo_id)) {
            hr__wake(q);
            woken++;
        }
    }
    return woken;
}
