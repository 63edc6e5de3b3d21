/* sync.h: checked pthread wrappers.
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
void hr__mutex_destroy(pthread_mutex_t *m);
static inline void hr__mutex_lock(pthread_mutex_t *m)   { HR_ASSERT(pthread_mutex_lock(m) == 0); }
static inline void hr__mutex_unlock(pthread_mutex_t *m) { HR_ASSERT(pthread_mutex_unlock(m) == 0); }

#endif
