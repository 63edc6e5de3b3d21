/* ref_two_phase.c: seed 000's two-phase h-relation algorithm (section 3, Steps (1)-(4), then the
 * pack of Algorithm 1's steps 9-10) written as a plain pthreads program, with no emulator: p
 * threads route the uniform h-relation of configs/bench/hrel.ini. `make bench` sets hrel.two_phase
 * beside it, so the table shows what emulating the algorithm costs apart from what the algorithm
 * itself costs (ref_alltoall routes the same elements in one pass).
 *
 * Timed, per run, with the same data movement as hremu's router (src/alg/route.c), the
 * transposes being reads of the other threads' bins in place as hremu's views are:
 *   Step (1): each thread deals its elements into its p bins, the k-th element for destination j
 *             to bin (i + j + k) mod p; a barrier (Step (2): bin b is read by thread b);
 *   Step (3): thread b rebins what the p threads' bins b hold by destination; a barrier
 *             (Step (4): bin d is read by thread d);
 *   pack:     thread d copies the p bins d into its output, one after the other.
 * The routing is bench/plain_route.h's. Not timed: creating the threads,
 * generating the input, allocating and touching the bins and the outputs.
 */
#include <pthread.h>

#include "plain_route.h"

PLAIN_ROUTE(elem)

typedef struct shared {
    bench_args        a;
    elem            **in;
    size_t           *in_count;
    elem            **out;
    size_t           *out_count;
    plain_bins       *first, *second;   /* [p]: each thread's bins of Steps (1) and (3) */
    pthread_barrier_t start;            /* p workers + the timing thread: a run begins */
    pthread_barrier_t step;             /* p workers: a step's bins are filled */
    pthread_barrier_t done;             /* p workers + the timing thread: a run ends */
} shared;

typedef struct worker {
    shared   *sh;
    int       id;
    int      *next;     /* [p] Step (1): the bin of the next element to each destination */
    pthread_t thread;
} worker;

static void check(int err, const char *what)
{
    if (err != 0 && err != PTHREAD_BARRIER_SERIAL_THREAD) {
        fprintf(stderr, "ref_two_phase: %s failed (%d)\n", what, err);
        exit(1);
    }
}

static void *work(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    int p = sh->a.p, me = w->id;
    plain_bins *mine1 = &sh->first[me], *mine2 = &sh->second[me];
    const size_t size = sizeof(elem);
    for (int run = 0; run < sh->a.runs; run++) {
        check(pthread_barrier_wait(&sh->start), "barrier");
        /* Step (1): deal, round robin per destination. */
        const elem *in = sh->in[me];
        plain_deal_start(mine1, w->next, p, me);
        for (size_t k = 0; k < sh->in_count[me]; k++)
            plain_deal_elem(mine1, w->next, p, &in[k]);
        plain_bins_check(mine1, p, "ref_two_phase", "step (1)");
        check(pthread_barrier_wait(&sh->step), "barrier");

        /* Steps (2)-(3): bin me of every thread, rebinned by destination. */
        plain_rebin_elem(mine2, sh->first, p, me);
        plain_bins_check(mine2, p, "ref_two_phase", "step (3)");
        check(pthread_barrier_wait(&sh->step), "barrier");

        /* Step (4) and the pack: bin me of every thread, one after the other. */
        size_t z = 0;
        for (int b = 0; b < p; b++) {
            const plain_bins *from = &sh->second[b];
            memcpy(sh->out[me] + z, plain_bin(from, me, size), from->fill[me] * size);
            z += from->fill[me];
        }
        sh->out_count[me] = z;
        check(pthread_barrier_wait(&sh->done), "barrier");
    }
    return NULL;
}

int main(int argc, char **argv)
{
    shared sh = { .a = bench_parse(argc, argv, "ref_two_phase") };
    int p = sh.a.p;
    size_t *dest_total = bench_alloc((size_t)p * sizeof *dest_total);
    sh.in = bench_alloc((size_t)p * sizeof *sh.in);
    sh.in_count = bench_alloc((size_t)p * sizeof *sh.in_count);
    sh.out = bench_alloc((size_t)p * sizeof *sh.out);
    sh.out_count = bench_alloc((size_t)p * sizeof *sh.out_count);
    sh.first = bench_alloc((size_t)p * sizeof *sh.first);
    sh.second = bench_alloc((size_t)p * sizeof *sh.second);
    bench_uniform_input(&sh.a, sh.in, sh.in_count, dest_total);
    /* h1 and h2 as hremu's hrelation workload gives them: the most any processor holds and the
     * most any receives. */
    uint64_t h1 = 0, h2 = 0;
    for (int i = 0; i < p; i++) {
        h1 = sh.in_count[i] > h1 ? sh.in_count[i] : h1;
        h2 = dest_total[i] > h2 ? dest_total[i] : h2;
    }
    for (int i = 0; i < p; i++) {
        plain_bins_init(&sh.first[i], p, plain_bound(h1, p), sizeof(elem));
        plain_bins_init(&sh.second[i], p, plain_bound(h2, p), sizeof(elem));
        sh.out[i] = bench_alloc(dest_total[i] * sizeof(elem));
    }
    check(pthread_barrier_init(&sh.start, NULL, (unsigned)p + 1), "barrier_init");
    check(pthread_barrier_init(&sh.step, NULL, (unsigned)p), "barrier_init");
    check(pthread_barrier_init(&sh.done, NULL, (unsigned)p + 1), "barrier_init");

    worker *w = bench_alloc((size_t)p * sizeof *w);
    for (int i = 0; i < p; i++) {
        w[i] = (worker){ .sh = &sh, .id = i };
        w[i].next = bench_alloc((size_t)p * sizeof *w[i].next);
        check(pthread_create(&w[i].thread, NULL, work, &w[i]), "pthread_create");
    }
    double median = bench_time_runs("ref_two_phase", sh.a.runs, &sh.start, &sh.done);
    for (int i = 0; i < p; i++)
        check(pthread_join(w[i].thread, NULL), "pthread_join");

    int bad = 0;
    for (int i = 0; i < p; i++)
        bad |= sh.out_count[i] != dest_total[i];
    if (bad || bench_check(&sh.a, sh.out, dest_total) != 0) {
        fprintf(stderr, "ref_two_phase: the routed elements are wrong\n");
        return 1;
    }
    bench_report("ref_two_phase", &sh.a, median);

    check(pthread_barrier_destroy(&sh.start), "barrier_destroy");
    check(pthread_barrier_destroy(&sh.step), "barrier_destroy");
    check(pthread_barrier_destroy(&sh.done), "barrier_destroy");
    for (int i = 0; i < p; i++) {
        free(w[i].next);
        free(sh.in[i]);
        free(sh.out[i]);
        plain_bins_free(&sh.first[i]);
        plain_bins_free(&sh.second[i]);
    }
    free(w);
    free(sh.in);
    free(sh.in_count);
    free(sh.out);
    free(sh.out_count);
    free(sh.first);
    free(sh.second);
    free(dest_total);
    return 0;
}
