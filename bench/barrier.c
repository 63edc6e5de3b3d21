/* barrier.c: the floor of the round table of `make bench`: p threads doing nothing but
 * pthread_barrier_wait, R times in a row. A round of hremu's round engine (configs/bench/rounds.ini)
 * needs at least one such barrier over its p processor threads, so this per-barrier time is what a
 * round costs with no work at all in it.
 *
 * Arguments as the other references: `barrier [p [n [runs [seed]]]]`; n and seed are not used
 * (they are printed, so the line says what it was run beside). R is chosen from p so that a run
 * stays well under a second even at p = 1024, where one barrier takes a few milliseconds on two
 * cores. Timed, per run: thread 0's clock from its return from one barrier to its return from
 * the R-th barrier after it, so exactly R barrier periods and no thread start-up. Not timed:
 * creating and joining the threads. Threads get small (64 KiB) stacks, so 1024 of them are cheap.
 */
#include <limits.h>
#include <pthread.h>

#include "bench_common.h"

#define STACK_BYTES (64 * 1024)

/* Shared by all threads. t[run] is written by thread 0 only and read by the main thread after
 * the join. */
typedef struct shared {
    bench_args        a;
    int               rounds;   /* R: barriers timed per run */
    double           *t;        /* [runs] seconds of R barriers */
    pthread_barrier_t bar;      /* the p threads */
} shared;

typedef struct worker {
    shared   *sh;
    int       id;
    pthread_t thread;
} worker;

static void check(int err, const char *what)
{
    if (err != 0 && err != PTHREAD_BARRIER_SERIAL_THREAD) {
        fprintf(stderr, "barrier: %s failed (%d)\n", what, err);
        exit(1);
    }
}

static void *work(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    for (int run = 0; run < sh->a.runs; run++) {
        /* The untimed barrier lines the threads up, so the clock starts at a release. */
        check(pthread_barrier_wait(&sh->bar), "barrier");
        double t0 = bench_now();
        for (int r = 0; r < sh->rounds; r++)
            check(pthread_barrier_wait(&sh->bar), "barrier");
        if (w->id == 0)
            sh->t[run] = bench_now() - t0;
    }
    return NULL;
}

/* R: about 2^17 / p barriers (128 at p = 1024, 2048 at p = 64), at least 100, at most 20000. */
static int rounds_for(int p)
{
    int r = (1 << 17) / p;
    return r < 100 ? 100 : r > 20000 ? 20000 : r;
}

int main(int argc, char **argv)
{
    shared sh = { .a = bench_parse(argc, argv, "barrier") };
    int p = sh.a.p;
    sh.rounds = rounds_for(p);
    sh.t = bench_alloc((size_t)sh.a.runs * sizeof *sh.t);
    check(pthread_barrier_init(&sh.bar, NULL, (unsigned)p), "barrier_init");

    pthread_attr_t attr;
    check(pthread_attr_init(&attr), "pthread_attr_init");
    size_t stack = STACK_BYTES < PTHREAD_STACK_MIN ? PTHREAD_STACK_MIN : STACK_BYTES;
    check(pthread_attr_setstacksize(&attr, stack), "pthread_attr_setstacksize");
    worker *w = bench_alloc((size_t)p * sizeof *w);
    for (int i = 0; i < p; i++) {
        w[i] = (worker){ .sh = &sh, .id = i };
        check(pthread_create(&w[i].thread, &attr, work, &w[i]), "pthread_create");
    }
    for (int i = 0; i < p; i++)
        check(pthread_join(w[i].thread, NULL), "pthread_join");
    check(pthread_attr_destroy(&attr), "pthread_attr_destroy");
    check(pthread_barrier_destroy(&sh.bar), "barrier_destroy");

    double median = bench_median(sh.t, sh.a.runs);
    printf("barrier p=%d n=%" PRIu64 " rounds=%d runs=%d median_s=%.6f per_round_s=%.3e\n", p,
           sh.a.n, sh.rounds, sh.a.runs, median, median / sh.rounds);
    free(w);
    free(sh.t);
    return 0;
}
