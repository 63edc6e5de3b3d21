/* world.h: the processes the hremu command runs in, as an engine sees them. The thread engine
 * is one process (core/world.c); the MPI engine is one process a rank (src/mpi/world.c), each
 * running the same command on the same config. cli/ asks here who it is, agrees with the other
 * ranks on what went wrong, and carries a processor's outputs to rank 0, which verifies and
 * writes every row (docs/mpi.md). Main thread only, outside a run.
 */
#ifndef HREMU_CORE_WORLD_H
#define HREMU_CORE_WORLD_H

#include <stddef.h>

typedef struct hr_world_info {
    const char *engine;   /* "threads" or "mpi": the engine column */
    int         rank;     /* this process: 0 writes the rows */
    int         ranks;    /* the processes: 1 on threads */
    int         procs;    /* the procs a machine must have here; 0: any */
    int         hosts;    /* distinct host names among the ranks: the hosts column */
    const char *note;     /* a line to say once before the rows (hremu-mpi without mpirun), or
                           * NULL */
} hr_world_info;

/* Who this process is; the MPI engine starts MPI at the first call. */
const hr_world_info *hr__world(void);

/* The worst (highest) code over the ranks; *who gets the lowest rank that has it. */
int hr__world_worst(int code, int *who);

/* len bytes at buf from rank 0 to every rank. */
void hr__world_bcast(void *buf, size_t len);

/* Rank `to` receives len bytes from this rank (hr__world_recv). */
void hr__world_send(int to, const void *buf, size_t len);

/* What rank `from` sent with hr__world_send, in memory to free(); its size in *len. */
void *hr__world_recv(int from, size_t *len);

/* End every rank's command now with this exit status, the reason said already (MPI_Abort). */
_Noreturn void hr__world_abort(int status);

/* What `hremu-mpi --calibrate` measures (src/mpi/calibrate.c): seconds, medians of repeats. */
typedef struct hr_calibration {
    double tau, sigma, overhead;  /* bdm's figures, fitted */
    double rtt0;                  /* an empty message's round trip, measured */
    double sigma_all;             /* seconds a byte a processor, every pair exchanging at once:
                                     also BSP's g */
    double loggp_L, loggp_o, loggp_g;   /* LogGP's (G is sigma) */
    double bsp_l;                 /* BSP's l: a barrier's time, the slowest rank's */
    int    ranks, hosts;
    int    repeats;               /* each pattern's repeats (0 asks for the default, 11) */
    int    pairs;                 /* pairs measured: rank 0 with every other rank */
    int    rt_rounds, burst, stream_msgs, space;
    size_t stream_bytes, all_bytes;
} hr_calibration;

/* Measure the machine the ranks run on (every rank calls it; rank 0 gets the figures). HR_OK,
 * or HR_EINVAL with the reason in why (the thread engine; one rank). */
int hr__world_calibrate(hr_calibration *c, char *why, size_t len);

/* Silence this process's standard output and error unless it is rank 0, so that the command
 * speaks once; a line another rank must say all the same goes through hr__world_say, to the
 * standard error it had. */
void hr__world_quiet(void);
void hr__world_say(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
