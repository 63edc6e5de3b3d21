/* sync.c: checked pthread wrappers, futex parking and schedule jitter. */
#include "util/sync.h"

#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void hr__assert_fail(const char *what, const char *file, int line)
{
    fprintf(stderr, "hremu: %s:%d: internal error: assertion '%s' failed\n", file, line, what);
    abort();
}

void hr__mutex_init(pthread_mutex_t *m)
{
    pthread_mutexattr_t a;
    HR_ASSERT(pthread_mutexattr_init(&a) == 0);
#ifndef NDEBUG
    HR_ASSERT(pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK) == 0);
#endif
    HR_ASSERT(pthread_mutex_init(m, &a) == 0);
    HR_ASSERT(pthread_mutexattr_destroy(&a) == 0);
}

void hr__mutex_lock(pthread_mutex_t *m)    { HR_ASSERT(pthread_mutex_lock(m) == 0); }
void hr__mutex_unlock(pthread_mutex_t *m)  { HR_ASSERT(pthread_mutex_unlock(m) == 0); }
void hr__mutex_destroy(pthread_mutex_t *m) { HR_ASSERT(pthread_mutex_destroy(m) == 0); }

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

void hr__jitter(uint64_t *state)
{
    /* xorshift64: jitter needs no quality, only independence from the model's streams. */
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
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
