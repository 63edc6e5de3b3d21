/* round_floor.c: the fiber engine's own cost of a round, beside the round table's references:
 * p processors on one carrier (engine fibers, the default carriers), under the priority
 * discipline, doing nothing but rounds. "empty": each round every processor only ends it;
 * "one": every processor first sends one 8-byte message to (id + 1 + r) mod p, so that every
 * receiver gets exactly one and takes it (no queue builds up), and then reads it. What
 * hrel.pq_random's rounds cost beyond these is the algorithm's own work and the queues its
 * conflicts build.
 *
 * Arguments as the other references: `round_floor [p [n [runs [seed]]]]`; n is not used. R is
 * chosen so that a run takes about 2^21 processor-rounds. Timed, per run: hr_machine_run of the
 * R rounds (its run includes starting and ending the fibers: a few microseconds a processor,
 * under 1 % at these R). Printed: the medians, and per_proc_round_s, the seconds of one
 * processor's round (median_s / (R * p)).
 */
#include <inttypes.h>
#include <hremu/hremu.h>
#include <hremu/machine.h>

#include "bench_common.h"

typedef struct job {
    int rounds;
    int send;
} job;

static void body(hr_proc *p, void *arg)
{
    const job *j = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    uint64_t x = (uint64_t)me;
    for (int r = 0; r < j->rounds; r++) {
        if (j->send)
            hr_round_send(p, (int)(((int64_t)me + 1 + r % (n - 1)) % n), &x, sizeof x,
                          (uint64_t)r);
        hr_round_end(p, r + 1 < j->rounds);
        if (j->send && !hr_round_recv(p, &x, sizeof x, NULL))
            hr_fail(p, "round %d: nothing received", r);
    }
}

static double timed(hr_machine *m, job *j, int runs)
{
    double *t = bench_alloc((size_t)runs * sizeof *t);
    for (int k = 0; k < runs; k++) {
        hr_run_result res;
        double t0 = bench_now();
        int err = hr_machine_run(m, body, j, &res);
        t[k] = bench_now() - t0;
        if (err != HR_OK || res.status != HR_OK) {
            fprintf(stderr, "round_floor: the run failed (%d): %s\n", err, res.report);
            exit(1);
        }
    }
    double med = bench_median(t, runs);
    free(t);
    return med;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "round_floor");
    if (a.p < 2) {
        fprintf(stderr, "round_floor: p must be at least 2\n");
        return 2;
    }
    hr_machine_config cfg = { .procs = a.p, .discipline = "priority", .engine = "fibers",
                              .seed = a.seed, .jitter = 0 };
    cfg.cost.tau = 1e-6;
    cfg.cost.sigma = 1e-9;
    hr_machine *m;
    const char *why;
    if (hr_machine_create(&cfg, &m, &why) != HR_OK) {
        fprintf(stderr, "round_floor: %s\n", why);
        return 1;
    }
    job j = { .rounds = (1 << 21) / a.p };
    if (j.rounds < 100)
        j.rounds = 100;
    double empty = timed(m, &j, a.runs);
    j.send = 1;
    double one = timed(m, &j, a.runs);
    hr_machine_destroy(m);
    double pr = (double)j.rounds * a.p;
    printf("round_floor p=%d n=%" PRIu64 " rounds=%d runs=%d empty_s=%.6f one_s=%.6f "
           "empty_per_proc_round_s=%.3e one_per_proc_round_s=%.3e\n",
           a.p, a.n, j.rounds, a.runs, empty, one, empty / pr, one / pr);
    return 0;
}
