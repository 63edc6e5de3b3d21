/* threads.c: the thread engine's way of running processors: each is a POSIX thread, created
 * once with the machine and parked on a futex between runs; a processor that must wait sleeps
 * on a futex word, and whoever ends its wait wakes it there. This file is the only one that
 * touches a futex (fibers.c's idle carriers sleep through hr__futex_wait), and with fibers.c
 * the only one that creates a thread or shakes the schedule (HREMU_JITTER): an engine that runs
 * processors otherwise (several per thread, switched in user space) replaces these functions
 * (core.h, "threads.c"), and the rest of core/ (the waits, the resolver, the model) stays as
 * it is.
 */
#include "core/core.h"

#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/sync.h"

#define PROC_STACK (1u << 20)

void hr__futex_wait(_Atomic uint32_t *word, uint32_t expected)
{
    long r = syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
    HR_ASSERT(r == 0 || errno == EAGAIN || errno == EINTR);
}

void hr__futex_wake(_Atomic uint32_t *word, int n)
{
    long r = syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
    HR_ASSERT(r >= 0);
}

/* ---- waking a processor ---------------------------------------------------------------------
 * A processor that must wait marks itself BLOCKED and sleeps on its state word (wait.c,
 * hr__wait); whoever ends its wait flips it back to RUNNING and wakes it here. */

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
    hr__exec_wake(m, &q->state, 1);
}

void hr__wake(hr_proc *q)
{
    if (read_state(q) == HR_PROC_BLOCKED)
        wake_blocked(q);
}

void hr__wake_for(hr_proc *q, int src)
{
    /* The owner stores wake_on before it marks itself BLOCKED (both sequentially consistent),
     * so a sender that sees BLOCKED sees the wait it belongs to. */
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

/* ---- running the processors ----------------------------------------------------------------- */

static void *proc_main(void *arg)
{
    hr_proc *p = arg;
    hr_machine *m = p->m;
    uint32_t seen = 0;
    for (;;) {
        uint32_t g;
        while ((g = atomic_load(&m->gen)) == seen)
            hr__futex_wait(&m->gen, seen);
        seen = g;
        if (atomic_load(&m->quit))
            return NULL;
        m->entry(p);
    }
}

static int threads_start(hr_machine *m, void (*entry)(hr_proc *p))
{
    m->entry = entry;
    if ((m->threads = malloc(sizeof(pthread_t) * (size_t)m->p)) == NULL)
        return HR_ENOMEM;
    pthread_attr_t attr;
    HR_ASSERT(pthread_attr_init(&attr) == 0);
    HR_ASSERT(pthread_attr_setstacksize(&attr, PROC_STACK) == 0);
    for (; m->started < m->p; m->started++)
        if (pthread_create(&m->threads[m->started], &attr, proc_main, &m->procs[m->started]) != 0)
            break;
    HR_ASSERT(pthread_attr_destroy(&attr) == 0);
    return m->started < m->p ? HR_ESYS : HR_OK;
}

static void threads_stop(hr_machine *m)
{
    atomic_store(&m->quit, 1);
    atomic_fetch_add(&m->gen, 1);
    hr__futex_wake(&m->gen, INT32_MAX);
    for (int i = 0; i < m->started; i++)
        HR_ASSERT(pthread_join(m->threads[i], NULL) == 0);
    free(m->threads);
    m->threads = NULL;
    m->started = 0;
}

static void threads_run(hr_machine *m)
{
    atomic_store(&m->ndone, 0);
    atomic_fetch_add(&m->gen, 1);
    hr__futex_wake(&m->gen, INT32_MAX);
    uint32_t n;
    while ((n = atomic_load(&m->ndone)) != (uint32_t)m->p)
        hr__futex_wait(&m->ndone, n);
}

static void threads_done(hr_proc *p)
{
    hr_machine *m = p->m;
    if (atomic_fetch_add(&m->ndone, 1) + 1 == (uint32_t)m->p)
        hr__futex_wake(&m->ndone, 1);
}

static void threads_sleep(hr_proc *p, _Atomic uint32_t *word, uint32_t val)
{
    (void)p;
    hr__futex_wait(word, val);
}

static void threads_wake(hr_machine *m, _Atomic uint32_t *word, int n)
{
    (void)m;
    hr__futex_wake(word, n);
}

static void threads_yield(hr_proc *p)
{
    (void)p;
    sched_yield();
}

static void threads_jitter(hr_proc *p)
{
    uint64_t x = hr__jitter_draw(p);
    switch (x % 8) {
    case 0:
    case 1:
        sched_yield();
        break;
    case 2: {
        struct timespec ts = { 0, (long)(1000 + (x >> 8) % 20000) };
        nanosleep(&ts, NULL);
        break;
    }
    default:
        break;
    }
}

const hr_exec hr__exec_threads = {
    .name = "threads", .start = threads_start, .stop = threads_stop, .run = threads_run,
    .done = threads_done, .sleep = threads_sleep, .wake = threads_wake, .yield = threads_yield,
    .jitter = threads_jitter,
};
