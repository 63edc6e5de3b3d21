/* world.c: the MPI engine's world (core/world.h): one process a rank, on a communicator of its
 * own (a duplicate of MPI_COMM_WORLD) so that the command's words never meet a run's.
 * MPI starts here, at the first call, with MPI_THREAD_MULTIPLE (the model rank's dispatcher and
 * proxies call MPI beside the rank's processor), and ends at exit.
 */
#include <fcntl.h>
#include <malloc.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/world.h"
#include <hremu/error.h>
#include "util/sync.h"

static hr_world_info world;
static MPI_Comm cmd = MPI_COMM_NULL;
static int      started;     /* HR_OK, or why MPI could not start */
static int      said = -1;   /* the standard error a quiet rank had (hr__world_quiet) */

static void mpi_end(void)
{
    int done;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Distinct host names among the ranks. */
static int count_hosts(void)
{
    char *all = calloc((size_t)world.ranks, MPI_MAX_PROCESSOR_NAME);
    char me[MPI_MAX_PROCESSOR_NAME] = "";
    int len, hosts = 1;
    HR_ASSERT(all != NULL);
    MPI_Get_processor_name(me, &len);
    MPI_Allgather(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                  cmd);
    qsort(all, (size_t)world.ranks, MPI_MAX_PROCESSOR_NAME, by_name);
    for (int i = 1; i < world.ranks; i++)
        hosts += strcmp(all + (size_t)i * MPI_MAX_PROCESSOR_NAME,
                        all + (size_t)(i - 1) * MPI_MAX_PROCESSOR_NAME) != 0;
    free(all);
    return hosts;
}

/* Started by a launcher (Open MPI's mpirun, Hydra's mpiexec, srun with PMIx), or alone. */
static int launched(void)
{
    static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
                                        "PMI_RANK", NULL };
    for (int i = 0; vars[i] != NULL; i++)
        if (getenv(vars[i]) != NULL)
            return 1;
    return 0;
}

static int start(void)
{
    if (cmd != MPI_COMM_NULL || started != 0)
        return started;
    int on, provided = 0, alone = !launched();    /* before MPI_Init, which may set them */
    /* A rank receives a run's messages into memory it frees after the run, and the next run's
     * are as large: keep freed memory in the heap rather than handing it back to the kernel
     * (glibc maps blocks from 128 KiB up afresh, and every page of a fresh map faults when it is
     * first written), so that a run's wall_s is not its page faults. */
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    MPI_Initialized(&on);
    if (!on) {
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
            return started = HR_ESYS;
        atexit(mpi_end);
    } else {
        MPI_Query_thread(&provided);
    }
    if (provided != MPI_THREAD_MULTIPLE)
        return started = HR_ESYS;
    MPI_Comm_dup(MPI_COMM_WORLD, &cmd);
    MPI_Comm_rank(cmd, &world.rank);
    MPI_Comm_size(cmd, &world.ranks);
    world.engine = "mpi";
    world.procs = world.ranks;
    world.hosts = count_hosts();
    world.note = !alone ? NULL : "not started by mpirun (or mpiexec): one rank, so rows of "
                                 "procs = 1 run and the others are skipped";
    return HR_OK;
}

const hr_world_info *hr__world(void)
{
    if (start() != HR_OK) {
        fprintf(stderr, "hremu: MPI could not start with MPI_THREAD_MULTIPLE\n");
        exit(2);
    }
    return &world;
}

int hr__world_worst(int code, int *who)
{
    hr__world();
    struct { int code, rank; } mine = { code, world.rank }, worst;
    /* MAXLOC gives the lowest index among equal values: the lowest rank. */
    MPI_Allreduce(&mine, &worst, 1, MPI_2INT, MPI_MAXLOC, cmd);
    if (who != NULL)
        *who = worst.rank;
    return worst.code;
}

void hr__world_bcast(void *buf, size_t len)
{
    hr__world();
    HR_ASSERT(len <= INT32_MAX);
    MPI_Bcast(buf, (int)len, MPI_BYTE, 0, cmd);
}

void hr__world_send(int to, const void *buf, size_t len)
{
    hr__world();
    uint64_t n = len;
    MPI_Send(&n, 1, MPI_UINT64_T, to, 1, cmd);
    for (size_t at = 0; at < len;) {     /* in pieces that an int counts */
        size_t piece = len - at < (1u << 30) ? len - at : (1u << 30);
        MPI_Send((const char *)buf + at, (int)piece, MPI_BYTE, to, 2, cmd);
        at += piece;
    }
}

void *hr__world_recv(int from, size_t *len)
{
    hr__world();
    uint64_t n;
    MPI_Recv(&n, 1, MPI_UINT64_T, from, 1, cmd, MPI_STATUS_IGNORE);
    char *buf = malloc(n > 0 ? (size_t)n : 1);
    HR_ASSERT(buf != NULL);
    for (size_t at = 0; at < n;) {
        size_t piece = n - at < (1u << 30) ? n - at : (1u << 30);
        MPI_Recv(buf + at, (int)piece, MPI_BYTE, from, 2, cmd, MPI_STATUS_IGNORE);
        at += piece;
    }
    *len = (size_t)n;
    return buf;
}

_Noreturn void hr__world_abort(int status)
{
    fflush(stdout);
    fflush(stderr);     /* rank 0's; another rank said what it had to by hr__world_say */
    MPI_Abort(MPI_COMM_WORLD, status);
    exit(status);
}

void hr__world_quiet(void)
{
    if (hr__world()->rank == 0 || said >= 0)
        return;
    fflush(stdout);
    fflush(stderr);
    int null = open("/dev/null", O_WRONLY);
    said = dup(STDERR_FILENO);
    if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        close(null);
    }
}

void hr__world_say(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    fflush(stderr);
    if (write(said >= 0 ? said : STDERR_FILENO, line, len) < 0)
        return;
}
