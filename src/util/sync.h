/* sync.h: checked pthread wrappers and a futex parking word.
 *
 * A failed pthread call is a programmer error, not an error code: it aborts with file:line
 * (HR_ASSERT), as libuv's uv_mutex_lock does. Any thread may call these.
 */
#ifndef HREMU_UTIL_SYNC_H
#define HREMU_UTIL_SYNC_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define HR_ASSERT(cond) \
    ((cond) ? (void)0 : hr__assert_fail(#cond, __FILE__, __LINE__))
__attribute__((noreturn)) void hr__assert_fail(const char *what, const char *file, int line);

void hr__mutex_init(pthread_mutex_t *m);
void hr__mutex_lock(pthread_mutex_t *m);
void hr__mutex_unlock(pthread_mutex_t *m);
void hr__mutex_destroy(pthread_mutex_t *m);

/* Sleep while *word == expected (a futex wait; spurious returns are possible: re-check). */
void hr__futex_wait(_Atomic uint32_t *word, uint32_t expected);
/* Wake up to n threads sleeping on word (INT32_MAX: all). */
void hr__futex_wake(_Atomic uint32_t *word, int n);

/* HREMU_JITTER: at communication points, sometimes yield or sleep a few microseconds, to shake
 * out any dependence of results on thread schedule. state is the caller's private PRNG word. */
void hr__jitter(uint64_t *state);

#endif
