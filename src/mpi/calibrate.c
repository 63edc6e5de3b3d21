/* calibrate.c: `hremu-mpi --calibrate` (docs/mpi.md, "Calibration"): the model's cost figures
 * of the machine the ranks run on, measured as Netgauge and SMPI's calibration do, with
 * repeated patterns and medians:
 *
 *   round trip   an empty message to a partner and back, RT_ROUNDS times in a row: rtt0
 *   overhead     a burst of BURST one-byte sends into receives posted before it: a send's time
 *   stream       STREAM_MSGS messages of STREAM_BYTES one way, then an empty answer: the
 *                seconds a byte takes once the stream flows, (T - rtt0) / bytes
 *   all pairs    MPI_Alltoall of ALL_BYTES blocks between every pair at once: the seconds a byte
 *                a processor, beside the stream's, is what the network loses when every pair
 *                talks (the model's complete graph has no shared links to lose it on)
 *   spaced       BURST one-byte sends, each after a pause of SPACE round trips: a send's own
 *                time, which no gap holds back (LogGP's o)
 *   small stream BURST one-byte messages one way back to back, then an empty answer: the
 *                seconds from one to the next once they flow, (T - rtt0) / (BURST - 1) (LogGP's g)
 *   barrier      MPI_Barrier after a barrier, the slowest rank's time (BSP's l)
 *
 * The first three run between rank 0 and every other rank in turn (a cluster's pairs cross its
 * hosts); each is repeated `repeats` times, its median taken per pair, and the median over the
 * pairs kept. Each model's figures follow from its own formulas (docs/model.md):
 * - bdm: an idle one-way message of m bytes takes tau + sigma m + overhead, so tau = rtt0 / 2 -
 *   overhead, sigma the stream's seconds a byte;
 * - loggp, after Netgauge's method (Hoefler, Lichei, Rehm, "Low-Overhead LogGP Parameter
 *   Assessment for Modern Interconnection Networks", IPDPS 2007), with one message size a
 *   pattern where Netgauge fits many: o the spaced send's time, g the small stream's spacing, G
 *   the stream's seconds a byte, and L what is left of an empty message's one-way time 2o + L,
 *   rtt0 / 2 - 2o;
 * - bsp: g the seconds a byte a processor when every pair exchanges at once (BSP's g is the rate
 *   of an h-relation, not of one pair), l the barrier's time.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

#include "core/world.h"

#define RT_ROUNDS    100
#define BURST        100
#define STREAM_MSGS  8
#define STREAM_BYTES ((size_t)4 << 20)
#define ALL_BYTES    ((size_t)64 << 10)
#define SPACE        4        /* round trips between spaced sends: more than a gap */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One pair's round trip of an empty message, seconds (rank 0's figure). */
static double round_trip(MPI_Comm c, int me, int peer)
{
    char b = 0;
    MPI_Barrier(c);
    double t0 = MPI_Wtime();
    for (int k = 0; k < RT_ROUNDS; k++) {
        if (me == 0) {
            MPI_Send(&b, 0, MPI_BYTE, peer, 1, c);
            MPI_Recv(&b, 0, MPI_BYTE, peer, 1, c, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&b, 0, MPI_BYTE, 0, 1, c, MPI_STATUS_IGNORE);
            MPI_Send(&b, 0, MPI_BYTE, 0, 1, c);
        }
    }
    return (MPI_Wtime() - t0) / RT_ROUNDS;
}

/* BURST one-byte sends on rank 0 into receives posted before them (tag), each after `pause`
 * seconds of waiting: a send's time. Without a pause the burst's time over BURST (a send in a
 * burst: bdm's overhead); with one, each send's own call (a send no gap holds back: LogGP's o). */
static double sends(MPI_Comm c, int me, int peer, char *buf, double pause, int tag)
{
    MPI_Request r[BURST];
    MPI_Status done[BURST];       /* not MPI_STATUSES_IGNORE: MPICH's trips gcc's bounds check */
    double t = 0;
    if (me != 0)
        for (int k = 0; k < BURST; k++)
            MPI_Irecv(buf + k, 1, MPI_BYTE, 0, tag, c, &r[k]);
    MPI_Barrier(c);
    if (me == 0) {
        double t0 = MPI_Wtime();
        for (int k = 0; k < BURST; k++) {
            if (pause > 0) {
                double until = MPI_Wtime() + pause;
                while (MPI_Wtime() < until)
                    ;
                t0 = MPI_Wtime();
            }
            MPI_Send(buf + k, 1, MPI_BYTE, peer, tag, c);
            if (pause > 0)
                t += MPI_Wtime() - t0;
        }
        t = (pause > 0 ? t : MPI_Wtime() - t0) / BURST;
    } else {
        MPI_Waitall(BURST, r, done);
    }
    return t;
}

/* n messages of `bytes` one way back to back (tag), then an empty answer (tag + 1): rank 0's
 * time to the answer. The stream and the small stream. */
static double one_way(MPI_Comm c, int me, int peer, char *buf, int n, size_t bytes, int tag)
{
    char b = 0;
    MPI_Barrier(c);
    double t0 = MPI_Wtime();
    if (me == 0) {
        for (int k = 0; k < n; k++)
            MPI_Send(buf, (int)bytes, MPI_BYTE, peer, tag, c);
        MPI_Recv(&b, 0, MPI_BYTE, peer, tag + 1, c, MPI_STATUS_IGNORE);
    } else {
        for (int k = 0; k < n; k++)
            MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, tag, c, MPI_STATUS_IGNORE);
        MPI_Send(&b, 0, MPI_BYTE, 0, tag + 1, c);
    }
    return MPI_Wtime() - t0;
}

int hr__world_calibrate(hr_calibration *cal, char *why, size_t len)
{
    const hr_world_info *w = hr__world();
    if (w->ranks < 2) {
        snprintf(why, len, "--calibrate measures messages between ranks: start two or more "
                 "(mpirun -np P build/hremu-mpi --calibrate)");
        return HR_EINVAL;
    }
    int repeats = cal->repeats > 0 ? cal->repeats : 11;
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    int me, p;
    MPI_Comm_rank(c, &me);
    MPI_Comm_size(c, &p);
    size_t big = STREAM_BYTES > ALL_BYTES * (size_t)p ? STREAM_BYTES : ALL_BYTES * (size_t)p;
    char *buf = calloc(1, big), *all = calloc(1, ALL_BYTES * (size_t)p);
    size_t r = sizeof(double) * (size_t)repeats, q = sizeof(double) * (size_t)p;
    double *rt = malloc(r), *oh = malloc(r), *st = malloc(r), *al = malloc(r);
    double *sp = malloc(r), *ss = malloc(r), *ba = malloc(r);
    double *pair_rt = malloc(q), *pair_oh = malloc(q), *pair_st = malloc(q);
    double *pair_sp = malloc(q), *pair_ss = malloc(q);
    if (!buf || !all || !rt || !oh || !st || !al || !sp || !ss || !ba || !pair_rt || !pair_oh ||
        !pair_st || !pair_sp || !pair_ss) {
        snprintf(why, len, "out of memory to calibrate");
        hr__world_abort(2);
    }
    for (int peer = 1; peer < p; peer++) {
        /* The pair alone, on a communicator of its own; the others wait at the next split. */
        int in = me == 0 || me == peer;
        MPI_Comm pair;
        MPI_Comm_split(c, in ? 0 : MPI_UNDEFINED, me, &pair);
        if (in) {
            int pm;
            MPI_Comm_rank(pair, &pm);
            for (int k = 0; k < repeats; k++) {
                rt[k] = round_trip(pair, pm, 1);
                oh[k] = sends(pair, pm, 1, buf, 0, 2);
                st[k] = one_way(pair, pm, 1, buf, STREAM_MSGS, STREAM_BYTES, 3);
                /* Both ranks space the sends alike: rank 0's round trip, told to the other. */
                double pause = SPACE * rt[k];
                MPI_Bcast(&pause, 1, MPI_DOUBLE, 0, pair);
                sp[k] = sends(pair, pm, 1, buf, pause, 5);
                ss[k] = one_way(pair, pm, 1, buf, BURST, 1, 6);
            }
            MPI_Comm_free(&pair);
        }
        if (me == 0) {
            pair_rt[peer - 1] = median(rt, repeats);
            pair_oh[peer - 1] = median(oh, repeats);
            pair_st[peer - 1] = median(st, repeats);
            pair_sp[peer - 1] = median(sp, repeats);
            pair_ss[peer - 1] = median(ss, repeats);
        }
    }
    for (int k = 0; k < repeats; k++) {
        MPI_Barrier(c);
        double t0 = MPI_Wtime();
        MPI_Alltoall(buf, (int)ALL_BYTES, MPI_BYTE, all, (int)ALL_BYTES, MPI_BYTE, c);
        double mine = MPI_Wtime() - t0;
        MPI_Allreduce(&mine, &al[k], 1, MPI_DOUBLE, MPI_MAX, c);
    }
    for (int k = 0; k < repeats; k++) {
        MPI_Barrier(c);
        double t0 = MPI_Wtime();
        MPI_Barrier(c);
        double mine = MPI_Wtime() - t0;
        MPI_Allreduce(&mine, &ba[k], 1, MPI_DOUBLE, MPI_MAX, c);
    }
    if (me == 0) {
        double rtt0 = median(pair_rt, p - 1), o = median(pair_oh, p - 1);
        double stream_s = median(pair_st, p - 1), all_s = median(al, repeats);
        double sigma = (stream_s - rtt0) / (double)(STREAM_MSGS * STREAM_BYTES);
        double lo = median(pair_sp, p - 1), lg = (median(pair_ss, p - 1) - rtt0) / (BURST - 1);
        *cal = (hr_calibration){
            /* tau and L must be more than 0 (each is the lookahead of receives from any
             * source): a send's time measured above what the round trip leaves them leaves
             * them a quarter of the round trip */
            .rtt0 = rtt0, .overhead = o, .tau = rtt0 / 2 - o > rtt0 / 4 ? rtt0 / 2 - o : rtt0 / 4,
            .sigma = sigma > 0 ? sigma : 0,
            .sigma_all = all_s / ((double)(p - 1) * (double)ALL_BYTES),
            .loggp_o = lo, .loggp_g = lg > 0 ? lg : 0,
            .loggp_L = rtt0 / 2 - 2 * lo > rtt0 / 4 ? rtt0 / 2 - 2 * lo : rtt0 / 4,
            .bsp_l = median(ba, repeats),
            .ranks = p, .hosts = w->hosts, .repeats = repeats, .pairs = p - 1,
            .rt_rounds = RT_ROUNDS, .burst = BURST, .stream_msgs = STREAM_MSGS,
            .stream_bytes = STREAM_BYTES, .all_bytes = ALL_BYTES, .space = SPACE,
        };
    }
    free(buf);
    free(all);
    free(rt);
    free(oh);
    free(st);
    free(al);
    free(sp);
    free(ss);
    free(ba);
    free(pair_sp);
    free(pair_ss);
    free(pair_rt);
    free(pair_oh);
    free(pair_st);
    MPI_Comm_free(&c);
    return HR_OK;
}
