/* threads.c: the thread engine's way of running processors: each is a POSIX thread, created
 * once with the machine and parked on a futex between runs; a processor that must wait sleeps
 * on a futex word, and whoever ends its wait wakes it there. This file is the only one that
 * touches a futex (fibers.c's idle carriers sleep through hr__futex_wait), and with fibers.c
 * the only one that creates a thread or shakes the schedule (HREMU_JITTER). An engine that runs
 * processors otherwise (several per thread, switched in user space: fibers.c) fills the same
 * table (hr_exec, core.h), and the rest of core/ (the waits and wakes, the resolver, the
 * model) stays as it is.
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
        hr__self = p;
        m->entry(p);
        hr__self = NULL;
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

static void threads_wake_proc(hr_proc *q)
{
    hr__futex_wake(&q->state, 1);
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
    .done = threads_done, .sleep = threads_sleep, .wake = threads_wake,
    .wake_proc = threads_wake_proc, .yield = threads_yield,
    .jitter = threads_jitter,
};
