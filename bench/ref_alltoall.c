/* ref_alltoall.c: the plain-pthreads reference for the h-relations: p threads route the uniform
 * h-relation of configs/bench/hrel.ini (n elements of 8 bytes) straight into the destinations'
 * buffers, with no emulator in between. `make bench` sets hremu's wall time beside this one's.
 *
 * Timed, per run: each thread counts its elements by destination; a barrier; each thread computes
 * its write offset in every destination's buffer from all threads' counts (an exclusive prefix
 * over sources); each thread copies each of its elements to its destination's buffer at its
 * offset. Not timed: creating the threads, generating the input, allocating and touching the
 * output buffers (their sizes are known from the input). The clock runs from the release of the
 * threads to the last one's arrival at the closing barrier, as hremu's wall_s does.
 */
#include <pthread.h>

#include "bench_common.h"

/* Shared by all threads. counts[s * p + d] is written by thread s only, before the `counted`
 * barrier, and read by every thread after it; out[d] is written by every thread, each in its own
 * disjoint range [offset of s, offset of s + counts[s * p + d]). */
typedef struct shared {
    bench_args        a;
    elem            **in;
    size_t           *in_count;
    elem            **out;
    size_t           *counts;
    pthread_barrier_t start;     /* p workers + the timing thread: a run begins */
    pthread_barrier_t counted;   /* p workers: every count is written */
    pthread_barrier_t done;      /* p workers + the timing thread: a run ends */
} shared;

typedef struct worker {
    shared   *sh;
    int       id;
    size_t   *mine;     /* [p] this thread's counts, then its offsets */
    elem    **dst;      /* [p] cursors into the destinations' buffers */
    pthread_t thread;
} worker;

static void check(int err, const char *what)
{
    if (err != 0 && err != PTHREAD_BARRIER_SERIAL_THREAD) {
        fprintf(stderr, "ref_alltoall: %s failed (%d)\n", what, err);
        exit(1);
    }
}

static void *work(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    int p = sh->a.p, s = w->id;
    const elem *in = sh->in[s];
    size_t count = sh->in_count[s];
    for (int run = 0; run < sh->a.runs; run++) {
        check(pthread_barrier_wait(&sh->start), "barrier");
        /* Count locally, then publish: other threads' rows stay untouched in our cache. */
        memset(w->mine, 0, (size_t)p * sizeof *w->mine);
        for (size_t k = 0; k < count; k++)
            w->mine[in[k].dest]++;
        memcpy(&sh->counts[(size_t)s * (size_t)p], w->mine, (size_t)p * sizeof *w->mine);
        check(pthread_barrier_wait(&sh->counted), "barrier");
        for (int d = 0; d < p; d++) {
            size_t off = 0;
            for (int src = 0; src < s; src++)
                off += sh->counts[(size_t)src * (size_t)p + (size_t)d];
            w->dst[d] = sh->out[d] + off;
        }
        for (size_t k = 0; k < count; k++)
            *w->dst[in[k].dest]++ = in[k];
        check(pthread_barrier_wait(&sh->done), "barrier");
    }
    return NULL;
}

int main(int argc, char **argv)
{
    shared sh = { .a = bench_parse(argc, argv, "ref_alltoall") };
    int p = sh.a.p;
    size_t *dest_total = bench_alloc((size_t)p * sizeof *dest_total);
    sh.in = bench_alloc((size_t)p * sizeof *sh.in);
    sh.in_count = bench_alloc((size_t)p * sizeof *sh.in_count);
    sh.out = bench_alloc((size_t)p * sizeof *sh.out);
    sh.counts = bench_alloc((size_t)p * (size_t)p * sizeof *sh.counts);
    bench_uniform_input(&sh.a, sh.in, sh.in_count, dest_total);
    for (int d = 0; d < p; d++)
        sh.out[d] = bench_alloc(dest_total[d] * sizeof(elem));
    check(pthread_barrier_init(&sh.start, NULL, (unsigned)p + 1), "barrier_init");
    check(pthread_barrier_init(&sh.counted, NULL, (unsigned)p), "barrier_init");
    check(pthread_barrier_init(&sh.done, NULL, (unsigned)p + 1), "barrier_init");

    worker *w = bench_alloc((size_t)p * sizeof *w);
    for (int i = 0; i < p; i++) {
        w[i] = (worker){ .sh = &sh, .id = i };
        w[i].mine = bench_alloc((size_t)p * sizeof *w[i].mine);
        w[i].dst = bench_alloc((size_t)p * sizeof *w[i].dst);
        check(pthread_create(&w[i].thread, NULL, work, &w[i]), "pthread_create");
    }
    double median = bench_time_runs("ref_alltoall", sh.a.runs, &sh.start, &sh.done);
    for (int i = 0; i < p; i++)
        check(pthread_join(w[i].thread, NULL), "pthread_join");

    if (bench_check(&sh.a, sh.out, dest_total) != 0) {
        fprintf(stderr, "ref_alltoall: the routed elements are wrong\n");
        return 1;
    }
    bench_report("ref_alltoall", &sh.a, median);

    check(pthread_barrier_destroy(&sh.start), "barrier_destroy");
    check(pthread_barrier_destroy(&sh.counted), "barrier_destroy");
    check(pthread_barrier_destroy(&sh.done), "barrier_destroy");
    for (int i = 0; i < p; i++) {
        free(w[i].mine);
        free(w[i].dst);
        free(sh.in[i]);
        free(sh.out[i]);
    }
    free(w);
    free(sh.in);
    free(sh.in_count);
    free(sh.out);
    free(sh.counts);
    free(dest_total);
    return 0;
}
