/* world.c: the thread engine's world (world.h): one process, which runs machines of any procs. */
#include "core/world.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <hremu/error.h>

#include "util/sync.h"

const hr_world_info *hr__world(void)
{
    static const hr_world_info one = { .engine = "threads", .rank = 0, .ranks = 1, .procs = 0,
                                  .hosts = 1, .note = NULL };
    return &one;
}

int hr__world_worst(int code, int *who)
{
    if (who != NULL)
        *who = 0;
    return code;
}

void hr__world_bcast(void *buf, size_t len)
{
    (void)buf, (void)len;
}

/* One process has no other to talk to: cli/ never calls these with one rank. */
void hr__world_send(int to, const void *buf, size_t len)
{
    (void)to, (void)buf, (void)len;
    HR_ASSERT(!"hr__world_send with one rank");
}

void *hr__world_recv(int from, size_t *len)
{
    (void)from, (void)len;
    HR_ASSERT(!"hr__world_recv with one rank");
    return NULL;
}

_Noreturn void hr__world_abort(int status)
{
    exit(status);
}

void hr__world_quiet(void)
{
}

void hr__world_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

int hr__world_calibrate(hr_calibration *c, char *why, size_t len)
{
    (void)c;
    snprintf(why, len, "--calibrate measures messages between MPI ranks: run it on hremu-mpi "
             "(mpirun -np P build/hremu-mpi --calibrate)");
    return HR_EINVAL;
}
