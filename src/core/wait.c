/* wait.c: blocking waits and the wakes that end them (on any engine), and the resolver that
 * keeps receives from ANY deterministic and turns a stuck machine into a deadlock report.
 *
 * Blocking and quiescence. A processor that must wait publishes what it waits for and the model
 * time of its pending event (hr_wait_desc, p->event), marks itself BLOCKED, re-checks its
 * condition, and only then counts itself in m->blocked. Whoever makes a condition true (a sender,
 * the barrier's last arriver) flips the waiter back to RUNNING and wakes it (below); the
 * waiter uncounts itself when it runs again. So m->blocked == m->live means every live processor
 * has settled into a wait; if moreover every one of them is still BLOCKED, nothing runs that
 * could send, and the machine is quiescent. The processor whose wait (or finish) made it so runs
 * the resolver: it first wakes the waits whose clocks have passed (lookahead.c), then grants the
 * pending event with the least model time (ties by processor id), which is safe because anything
 * sent later is sent at a later model time plus the latency tau; if no processor has a pending
 * event, the machine is deadlocked (or stuck behind a failed processor) and every waiter leaves
 * with a report (runlog.c). No watchdog, no timeout: detection is immediate.
 */
#include "core/core.h"

#include "util/sync.h"

/* ---- waking a processor ---------------------------------------------------------------------
 * A processor that must wait marks itself BLOCKED and sleeps on its state word (hr__wait,
 * below); whoever ends its wait flips it back to RUNNING and wakes it here, through its
 * engine (hr__exec_wake: a futex on threads, a push on the ready queue under fibers). */

/* The wake-up protocol is a store-buffering pattern. The waiter marks itself BLOCKED, then reads
 * its condition (the mailbox's tail, msg->taken, outstanding ...); the waker makes the condition
 * true, then reads the state. One of them must see the other's write, or the waiter sleeps on a
 * condition that is already true and nobody wakes it (a lost wake-up, then a false deadlock).
 * The condition's stores and loads are not all seq_cst (liburcu's queue uses its own volatile
 * accesses; taken and outstanding are release/acquire), and the C11 model lets a later load pass
 * an earlier store. So both sides touch the state word with a read-modify-write: the waiter's
 * exchange to BLOCKED and the waker's read of the state as fetch_or(0) (read_state). RMWs on one
 * word are totally ordered (its modification order). If the waker's comes first, it is a
 * release that the waiter's exchange, an acquire, reads from: the waiter's look at its condition
 * then happens after the waker made it true. If the waiter's comes first, the waker reads
 * BLOCKED and wakes it. (A pair of seq_cst fences would do as well, but ThreadSanitizer cannot
 * model fences.) x86 needs it as much as weaker machines: its store buffer lets a load pass an
 * earlier store to another location, the one reordering x86-TSO allows, and this pattern's. */
static uint32_t read_state(hr_proc *q)
{
    if (q->m->serial)    /* one processor at a time (core.h, hr__add): the waiter is asleep */
        return atomic_load_explicit(&q->state, memory_order_relaxed);
    return atomic_fetch_or(&q->state, 0);
}

static void wake_blocked(hr_proc *q)
{
    hr_machine *m = q->m;
    if (!hr__cas_u32(m, &q->state, HR_PROC_BLOCKED, HR_PROC_RUNNING))
        return;
    hr__add_u64(m, &m->wakes, 1);
    hr__exec_wake_proc(q);
}

void hr__wake(hr_proc *q)
{
    if (read_state(q) == HR_PROC_BLOCKED)
        wake_blocked(q);
}

void hr__wake_for(hr_proc *q, int src)
{
    /* The owner stores wake_on before it marks itself BLOCKED (both sequentially consistent
     * unless one processor runs at a time), so a sender that sees BLOCKED sees the wait it
     * belongs to. */
    if (read_state(q) != HR_PROC_BLOCKED)
        return;
    int w = atomic_load(&q->wake_on);
    if (w == HR_ANY || w == src)
        wake_blocked(q);
}

void hr__release_word(hr_machine *m, hr_proc *self, _Atomic uint32_t *word)
{
    hr__add_u32(m, word, 1);
    if (m->serial) {
        /* One processor at a time (core.h, hr__add): the engine queues the waiters, and each
         * marks itself running when it runs (hr__wait_word). Meanwhile nobody resolves: the
         * engine says the machine does not stand still while a fiber is queued. The loop below
         * would read every processor's state, a line each. */
        hr__exec_wake(m, word, INT32_MAX);
        return;
    }
    uint64_t woken = 0;
    for (int i = 0; i < m->p; i++) {
        hr_proc *q = &m->procs[i];
        /* seq_cst, as the waiter's store of BLOCKED and load of the word are: of four seq_cst
         * accesses in a store-buffering pattern, one load sees the other side's store. */
        if (q != self && atomic_load(&q->state) == HR_PROC_BLOCKED &&
            hr__cas_u32(m, &q->state, HR_PROC_BLOCKED, HR_PROC_RUNNING))
            woken++;
    }
    if (woken > 0)
        hr__add_u64(m, &m->wakes, woken);
    hr__exec_wake(m, word, INT32_MAX);
}

/* The report is built before the abort is published: once it is, a waiter may leave (a spurious
 * futex wake-up suffices) and finish, and would then be named among those that returned. */
static void abort_run(hr_machine *m, int why)
{
    if (why == HR_EDEADLK)
        hr__runlog_deadlock(m);
    atomic_store(&m->abort, why);
    for (int i = 0; i < m->p; i++)
        hr__wake(&m->procs[i]);
    hr__exec_wake(m, &m->rnd_gen, INT32_MAX);    /* round waiters sleep on the round's word */
}

/* Is q waiting for a message to be routed whose key (ev, ...) is above the floor (fl, fl_id,
 * fl_seq) of an uncommitted rendezvous? */
static int floor_below(const hr_proc *q, hr_time ev, hr_time fl, int fl_id, uint64_t fl_seq)
{
    int src = atomic_load(&q->route_src);
    if (src < 0 || fl != ev)
        return src >= 0 && fl < ev;
    return fl_id != src ? fl_id < src : fl_seq < atomic_load(&q->route_seq);
}

/* Runs with every live processor settled in a wait (see the file comment). The scan reads one
 * processor at a time, so it is a true snapshot only if nobody was woken while it ran: a woken
 * processor could send, wake one already scanned, and block again before the scan reaches it.
 * Every wake bumps m->wakes; an unchanged count after the scan proves the snapshot. */
static void resolve(hr_machine *m, int still)
{
    hr__mutex_lock(&m->resolve_lock);
    uint64_t wakes = atomic_load(&m->wakes);
    int live = atomic_load(&m->live);
    /* A resolver called late may find that everyone has since been woken and finished. */
    if (live == 0 || atomic_load(&m->abort) != 0 || atomic_load(&m->blocked) != live)
        goto out;
    /* The least event, ties by processor id; but a wait for routing that an uncommitted
     * rendezvous may precede comes last: its receiver's wait, granted first, may commit it. */
    hr_time fl;
    int fl_id;
    uint64_t fl_seq = 0;
    int floors = hr__transit_floor(m, &fl, &fl_id, &fl_seq);
    hr_proc *best = NULL, *held = NULL;
    hr_time best_ev = HR_TIME_INF, held_ev = HR_TIME_INF;
    int seen = 0, vouched = still == HR_STILL_YES && !floors;
    if (vouched) {
        /* The engine vouches that every live processor sleeps in its wait (still, asked by the
         * caller): the least event is the event tree's (clocks.h), ties by id as here. */
        int id;
        hr__clocks_least(&m->clocks, HR_CLOCKS_EVENTS, -1, -1, 1, &best_ev, &id);
        best = id >= 0 ? &m->procs[id] : NULL;
        seen = live;
    }
    for (int i = 0; i < m->p && !vouched; i++) {
        hr_proc *q = &m->procs[i];
        uint32_t st = atomic_load(&q->state);
        if (st == HR_PROC_DONE)
            continue;
        if (st != HR_PROC_BLOCKED)
            goto out;   /* woken but not yet running: it will block or finish and resolve again */
        seen++;
        hr_time ev = atomic_load(&q->event);
        if (floors && ev != HR_TIME_INF && floor_below(q, ev, fl, fl_id, fl_seq)) {
            if (ev < held_ev) {
                held_ev = ev;
                held = q;
            }
        } else if (ev < best_ev) {
            best_ev = ev;
            best = q;
        }
    }
    /* Procs woken before the scan began may have run and finished during it: the snapshot holds
     * only if the procs seen blocked are all the live ones and nobody was woken since. */
    if (seen == 0 || atomic_load(&m->wakes) != wakes || atomic_load(&m->live) != seen ||
        atomic_load(&m->blocked) != seen)
        goto out;
    if (atomic_load(&m->failed)) {
        /* A failed processor may be what the others wait for (its messages never sent): the
         * run has failed, so nothing is granted; every waiter leaves. */
        abort_run(m, HR_EFAIL);
    } else if (hr__watchers_wake(m)) {
        /* woken to find their clocks passed: no grant while any wait ends by itself */
    } else if (best != NULL) {
        atomic_store(&best->grant_ev, best_ev);
        atomic_store(&best->granted, HR__GRANT);
        hr__wake(best);
    } else if (held != NULL) {
        atomic_store(&held->grant_ev, held_ev);
        atomic_store(&held->granted, HR__GRANT_PAST_FLOORS);
        hr__wake(held);
    } else {
        abort_run(m, HR_EDEADLK);
    }
out:
    hr__mutex_unlock(&m->resolve_lock);
}

void hr__resolve_idle(hr_machine *m, int still)
{
    resolve(m, still);
}

/* p, marked BLOCKED, counts itself settled (running the resolver if it is the last), sleeps
 * while *word == val, and uncounts itself; it leaves the run if the run was aborted. */
static inline __attribute__((always_inline)) void settle(hr_proc *p, _Atomic uint32_t *word,
                                                          uint32_t val)
{
    hr_machine *m = p->m;
    int settled = hr__add(m, &m->blocked, 1) + 1;
    /* Not if p itself was woken meanwhile: it runs on, and resolves when it settles again. The
     * word is read after the engine says whether all stand still: once it vouches, nobody else
     * runs who could change it, but before, p's own wait may have ended meanwhile (its carrier
     * preempted while others ran on: fibers on several carriers). */
    int still;
    if (settled == atomic_load(&m->live) && (still = hr__exec_still(m)) != HR_STILL_NO &&
        atomic_load(word) == val)
        resolve(m, still);
    while (atomic_load(word) == val && atomic_load(&m->abort) == 0)
        hr__exec_sleep(p, word, val);
    hr__add(m, &m->blocked, -1);
    if (atomic_load(&m->abort) != 0)
        hr__proc_exit(p);
}

/* Before a ready function runs: it says anew what its wait watches or routes (core.h). Only
 * the owner writes either, so it reads them first and writes only a change. */
static void no_watch(hr_proc *p)
{
    if (atomic_load_explicit(&p->watch_a, memory_order_relaxed) != HR_TIME_INF) {
        atomic_store(&p->watch_a, HR_TIME_INF);
        hr__add(p->m, &p->m->watching, -1);
    }
    if (atomic_load_explicit(&p->route_src, memory_order_relaxed) != -1)
        atomic_store(&p->route_src, -1);
}

void hr__wait(hr_proc *p, const hr_wait_desc *d, hr_ready_fn ready, void *ctx)
{
    p->wait = *d;
    p->wait_from = NULL;          /* d is the caller's, and its wait may change p->wait */
    p->recv_idle = 0;
    p->await_need = 0;
    hr__store_int(p->m, &p->wake_on, d->kind != HR_WAIT_RECV ? HR__WAKE_NEVER
                                      : d->wake_any          ? HR_ANY
                                                             : d->peer);
    for (;;) {
        no_watch(p);
        if (ready(p, ctx))
            break;
        hr__xchg_u32(p->m, &p->state, HR_PROC_BLOCKED);   /* an RMW: see read_state */
        /* The second look is for a waker that ran between the first and the store above: with
         * one processor at a time (m->serial) none did, and it would see what the first saw. */
        if (!p->m->serial && (no_watch(p), ready(p, ctx))) {
            /* Satisfied after all; whoever else flipped us to RUNNING meanwhile did no harm. */
            hr__cas_u32(p->m, &p->state, HR_PROC_BLOCKED, HR_PROC_RUNNING);
            break;
        }
        /* A message routed to p since it looked may be the one it waits for: look again
         * rather than sleep unparked, holding routing back with its clock. */
        if (p->recv_idle && hr__transit_park(p) == HR__PARK_LOOK) {
            hr__cas_u32(p->m, &p->state, HR_PROC_BLOCKED, HR_PROC_RUNNING);
            continue;
        }
        settle(p, &p->state, HR_PROC_BLOCKED);
        /* Only p parks itself (transit.c): unparked now, it stays so, and needs no locked
         * exchange to say so (3.7 % of xchg.pex at p = 256 on fibers). */
        if (atomic_load_explicit(&p->parked, memory_order_relaxed))
            hr__proc_unpark(p);
    }
    /* A grant is for the wait it was given in: one that ended without using it must not
     * decide a later wait. A collective's await leaves it to the takes that follow, whose
     * routing it forces only up to the granted event (p2p.c, blocks_ready, unrouted_wait). */
    if (d->kind != HR_WAIT_BLOCKS && atomic_load_explicit(&p->granted, memory_order_relaxed))
        atomic_store(&p->granted, 0);   /* nobody grants a running processor */
}

/* p waits as the constant d says: copied only if the last wait's description came from
 * elsewhere (a round's wait is the same every round, and its copy would be a line written). */
static inline void copy_wait(hr_proc *p, const hr_wait_desc *d)
{
    if (p->wait_from != d) {
        p->wait = *d;
        p->wait_from = d;
    }
}

/* hr__wait_word where one processor runs at a time (m->serial: fibers on one carrier), every
 * round's wait but the last arriver's: the same steps, in the same order, as relaxed loads and
 * stores. Nobody else runs until p sleeps, so nothing it reads can change under it, and the
 * word is read once before it sleeps. A seq_cst load is a plain load on x86 but a barrier to
 * the compiler, which then reads m, m->serial and the rest again after each: written apart,
 * the wait takes 17 fewer instructions a round (callgrind, hrel.pq_random at p = 256). */
static void wait_word_alone(hr_proc *p, const hr_wait_desc *d, _Atomic uint32_t *word,
                            uint32_t val)
{
    hr_machine *m = p->m;
    copy_wait(p, d);
    if (atomic_load_explicit(&p->wake_on, memory_order_relaxed) != HR__WAKE_NEVER)
        atomic_store_explicit(&p->wake_on, HR__WAKE_NEVER, memory_order_relaxed);
    hr__proc_event(p, HR_TIME_INF);
    if (atomic_load_explicit(word, memory_order_relaxed) != val)
        return;
    atomic_store_explicit(&p->state, HR_PROC_BLOCKED, memory_order_relaxed);
    int settled = atomic_load_explicit(&m->blocked, memory_order_relaxed) + 1;
    atomic_store_explicit(&m->blocked, settled, memory_order_relaxed);
    int still;
    if (settled == atomic_load_explicit(&m->live, memory_order_relaxed) &&
        (still = hr__exec_still(m)) != HR_STILL_NO)
        resolve(m, still);
    while (atomic_load_explicit(word, memory_order_relaxed) == val &&
           atomic_load_explicit(&m->abort, memory_order_relaxed) == 0)
        hr__exec_sleep(p, word, val);
    atomic_store_explicit(&m->blocked, atomic_load_explicit(&m->blocked, memory_order_relaxed) - 1,
                          memory_order_relaxed);
    if (atomic_load_explicit(&m->abort, memory_order_relaxed) != 0)
        hr__proc_exit(p);
    /* its releaser left that to it (hr__release_word) */
    atomic_store_explicit(&p->state, HR_PROC_RUNNING, memory_order_relaxed);
}

void hr__wait_word(hr_proc *p, const hr_wait_desc *d, _Atomic uint32_t *word, uint32_t val)
{
    hr_machine *m = p->m;
    if (m->serial) {
        wait_word_alone(p, d, word, val);
        return;
    }
    copy_wait(p, d);
    if (atomic_load_explicit(&p->wake_on, memory_order_relaxed) != HR__WAKE_NEVER)
        atomic_store(&p->wake_on, HR__WAKE_NEVER);
    hr__proc_event(p, HR_TIME_INF);
    hr__store_u32(m, &p->state, HR_PROC_BLOCKED);
    /* The releaser bumps the word before it marks the waiters running: either it sees us blocked
     * here, or we see the new word now. */
    if (atomic_load(word) != val) {
        hr__cas_u32(m, &p->state, HR_PROC_BLOCKED, HR_PROC_RUNNING);
        return;
    }
    settle(p, word, val);
}

void hr__proc_finished(hr_proc *p)
{
    hr_machine *m = p->m;
    atomic_store(&p->pub_clock, HR_TIME_INF);   /* sends nothing more: no bound on ANY receives */
    atomic_store(&p->event, HR_TIME_INF);       /* and waits for nothing (the event tree) */
    hr__clocks_touch(&m->clocks, p);
    atomic_store(&p->state, HR_PROC_DONE);
    int live = atomic_fetch_sub(&m->live, 1) - 1;
    int still;
    if (live > 0 && atomic_load(&m->blocked) == live && (still = hr__exec_still(m)) != HR_STILL_NO)
        resolve(m, still);
    p->m->exec->done(p);
}
