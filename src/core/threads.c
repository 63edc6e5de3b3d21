/* threads.c: the thread engine's way of running processors: each is a POSIX thread, created
 * once with the machine and parked on a futex between runs; a processor that must wait sleeps
 * on a futex word, and whoever ends its wait wakes it there. This file and util/sync.c are the
 * only ones that create a thread or touch a futex: an engine that runs processors otherwise
 * (several per thread, switched in user space) replaces these functions (core.h, "threads.c"),
 * and the rest of core/ (the waits, the resolver, the model) stays as it is.
 */
#include "core/core.h"

#include <sched.h>
#include <stdlib.h>

#include "util/sync.h"

#define PROC_STACK (1u << 20)

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
        hr__proc_run(p);
    }
}

int hr__exec_start(hr_machine *m)
{
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

void hr__exec_stop(hr_machine *m)
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

void hr__exec_run(hr_machine *m)
{
    atomic_store(&m->ndone, 0);
    atomic_fetch_add(&m->gen, 1);
    hr__futex_wake(&m->gen, INT32_MAX);
    uint32_t n;
    while ((n = atomic_load(&m->ndone)) != (uint32_t)m->p)
        hr__futex_wait(&m->ndone, n);
}

void hr__exec_done(hr_proc *p)
{
    hr_machine *m = p->m;
    if (atomic_fetch_add(&m->ndone, 1) + 1 == (uint32_t)m->p)
        hr__futex_wake(&m->ndone, 1);
}

void hr__exec_sleep(hr_proc *p, _Atomic uint32_t *word, uint32_t val)
{
    (void)p;
    hr__futex_wait(word, val);
}

void hr__exec_wake(_Atomic uint32_t *word, int n)
{
    hr__futex_wake(word, n);
}

void hr__exec_yield(hr_proc *p)
{
    (void)p;
    sched_yield();
}
