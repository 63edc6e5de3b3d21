/* clock.h: this computer's monotonic clock, for wall-clock figures (wall_s, plan_s, progress,
 * events' wall times). Never a model figure. Any thread. */
#ifndef HREMU_UTIL_CLOCK_H
#define HREMU_UTIL_CLOCK_H

#include <time.h>

/* Seconds on CLOCK_MONOTONIC. */
static inline double hr__wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
