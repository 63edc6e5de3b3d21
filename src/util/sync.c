/* sync.c: checked pthread wrappers. */
#include "util/sync.h"

#include <stdio.h>
#include <stdlib.h>

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

void hr__mutex_destroy(pthread_mutex_t *m) { HR_ASSERT(pthread_mutex_destroy(m) == 0); }
