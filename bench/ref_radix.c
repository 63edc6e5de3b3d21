/* ref_radix.c: seed 000's radix sort (section 4, Algorithm 2 per pass) written as a plain pthreads
 * program, with no emulator: p threads sort the dataset R keys of configs/bench/radix.ini, as
 * sort.radix does with its default r = 11 (3 passes of 11-bit digits). `make bench` sets
 * sort.radix beside it, so the table shows what emulating the algorithm costs apart from what the
 * algorithm itself costs (seq_radix sorts the same keys on one thread).
 *
 * Timed, per run and pass, the data movement of src/alg/sort.c's count_pass, each thread reading
 * the others' counts and bins in place where the algorithm transposes them:
 *   steps 1-2:  each thread counts its keys per bucket; a barrier;
 *   steps 3-9:  each thread computes the first rank of each of its buckets from every thread's
 *               counts (the transposes and scans of Algorithm 2, read in place);
 *   step 10:    each key gets its rank's (processor, index) and is dealt, as a 16-byte
 *               (key, id, processor, index) element, into the two-phase router's bins;
 *   step 11:    the two-phase route (bench/plain_route.h), then each thread puts what arrived
 *               at its index, reading the p blocks in lockstep as sort.c does.
 * Thread i holds block i of the keys (the first n mod p threads one key more), as the sort
 * workload deals them. Not timed: creating the threads, generating the keys, allocating and
 * touching the buffers, and the check, after the last run (bench_check_sorted).
 */
#include <pthread.h>

#include "plain_route.h"

#define DIGIT_BITS 11
#define RADIX      (1u << DIGIT_BITS)

typedef struct routed {
    uint32_t key, id;
    uint32_t dest, pos;
} routed;

PLAIN_ROUTE(routed)

typedef struct slot {
    uint32_t dest, pos;
} slot;

typedef struct shared {
    bench_args        a;
    bench_key       **in;          /* [p] the unsorted blocks, never written */
    bench_key       **buf[2];      /* [p] each: the blocks between passes */
    size_t           *count;       /* [p] keys per block */
    uint32_t         *hist;        /* [p * RADIX]: thread t's counts at t * RADIX */
    plain_bins       *first, *second;
    pthread_barrier_t start, step, done;
} shared;

typedef struct worker {
    shared   *sh;
    int       id;
    int      *next;     /* [p] */
    slot     *place;    /* [RADIX] */
    pthread_t thread;
} worker;

static void check(int err, const char *what)
{
    if (err != 0 && err != PTHREAD_BARRIER_SERIAL_THREAD) {
        fprintf(stderr, "ref_radix: %s failed (%d)\n", what, err);
        exit(1);
    }
}

/* sort.c's owner_of: the thread and index that hold global rank addr. */
static slot owner_of(uint64_t addr, uint64_t n, int p)
{
    uint64_t q = n / (uint64_t)p, rem = n % (uint64_t)p;
    uint64_t big = rem * (q + 1);
    uint64_t d = addr < big ? addr / (q + 1) : rem + (addr - big) / q;
    uint64_t start = d < rem ? d * (q + 1) : big + (d - rem) * q;
    return (slot){ (uint32_t)d, (uint32_t)(addr - start) };
}

/* One pass on digit (key >> shift) mod RADIX: from's blocks to to's, thread me's part. */
static void pass(worker *w, const bench_key *from, bench_key *to, unsigned shift)
{
    shared *sh = w->sh;
    int p = sh->a.p, me = w->id;
    uint64_t n = sh->a.n;
    size_t cnt = sh->count[me];
    uint32_t *mine = &sh->hist[(size_t)me * RADIX];

    memset(mine, 0, RADIX * sizeof *mine);
    for (size_t k = 0; k < cnt; k++)
        mine[(from[k].key >> shift) & (RADIX - 1)]++;
    check(pthread_barrier_wait(&sh->step), "barrier");

    uint64_t offset = 0;
    for (unsigned b = 0; b < RADIX; b++) {
        uint64_t before = 0, total = 0;
        for (int t = 0; t < p; t++) {
            uint32_t c = sh->hist[(size_t)t * RADIX + b];
            before += t < me ? c : 0;
            total += c;
        }
        w->place[b] = mine[b] != 0 ? owner_of(offset + before, n, p) : (slot){ 0, 0 };
        offset += total;
    }

    uint32_t q = (uint32_t)(n / (uint64_t)p), rem = (uint32_t)(n % (uint64_t)p);
    plain_bins *bins1 = &sh->first[me];
    plain_deal_start(bins1, w->next, p, me);
    for (size_t k = 0; k < cnt; k++) {
        slot *at = &w->place[(from[k].key >> shift) & (RADIX - 1)];
        routed e = { from[k].key, from[k].id, at->dest, at->pos };
        if (++at->pos == q + (at->dest < rem)) {
            at->dest++;
            at->pos = 0;
        }
        plain_deal_routed(bins1, w->next, p, &e);
    }
    plain_bins_check(bins1, p, "ref_radix", "step (1)");
    check(pthread_barrier_wait(&sh->step), "barrier");

    plain_rebin_routed(&sh->second[me], sh->first, p, me);
    plain_bins_check(&sh->second[me], p, "ref_radix", "step (3)");
    check(pthread_barrier_wait(&sh->step), "barrier");

    size_t most = 0;
    for (int b = 0; b < p; b++)
        most = sh->second[b].fill[me] > most ? sh->second[b].fill[me] : most;
    for (size_t j = 0; j < most; j++)
        for (int b = 0; b < p; b++) {
            if (j >= sh->second[b].fill[me])
                continue;
            const routed *a = (const routed *)(const void *)plain_bin(&sh->second[b], me,
                                                                      sizeof(routed)) + j;
            to[a->pos] = (bench_key){ a->key, a->id };
        }
    /* Nobody counts the next pass's digit before every thread has placed its keys here, nor
     * deals into bins that are still being read. */
    check(pthread_barrier_wait(&sh->step), "barrier");
}

static void *work(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    int me = w->id;
    for (int run = 0; run < sh->a.runs; run++) {
        check(pthread_barrier_wait(&sh->start), "barrier");
        const bench_key *from = sh->in[me];
        int to = 0;
        for (unsigned shift = 0; shift < 32; shift += DIGIT_BITS) {
            pass(w, from, sh->buf[to][me], shift);
            from = sh->buf[to][me];
            to ^= 1;
        }
        check(pthread_barrier_wait(&sh->done), "barrier");
    }
    return NULL;
}

int main(int argc, char **argv)
{
    shared sh = { .a = bench_parse(argc, argv, "ref_radix") };
    int p = sh.a.p;
    size_t n = (size_t)sh.a.n;
    if ((uint64_t)p > sh.a.n) {
        fprintf(stderr, "ref_radix: n must be at least p\n");
        return 2;
    }
    bench_key *all = bench_alloc(n * sizeof *all);
    bench_dataset_r(&sh.a, all);
    uint64_t print = bench_fingerprint(all, sh.a.n);

    sh.in = bench_alloc((size_t)p * sizeof *sh.in);
    sh.buf[0] = bench_alloc((size_t)p * sizeof *sh.buf[0]);
    sh.buf[1] = bench_alloc((size_t)p * sizeof *sh.buf[1]);
    sh.count = bench_alloc((size_t)p * sizeof *sh.count);
    sh.hist = bench_alloc((size_t)p * RADIX * sizeof *sh.hist);
    sh.first = bench_alloc((size_t)p * sizeof *sh.first);
    sh.second = bench_alloc((size_t)p * sizeof *sh.second);
    size_t at = 0, h = n / (size_t)p + (n % (size_t)p != 0);
    for (int i = 0; i < p; i++) {
        sh.count[i] = n / (size_t)p + ((size_t)i < n % (size_t)p);
        sh.in[i] = bench_alloc(sh.count[i] * sizeof(bench_key));
        memcpy(sh.in[i], all + at, sh.count[i] * sizeof(bench_key));
        at += sh.count[i];
        sh.buf[0][i] = bench_alloc(sh.count[i] * sizeof(bench_key));
        sh.buf[1][i] = bench_alloc(sh.count[i] * sizeof(bench_key));
        plain_bins_init(&sh.first[i], p, plain_bound(h, p), sizeof(routed));
        plain_bins_init(&sh.second[i], p, plain_bound(h, p), sizeof(routed));
    }
    check(pthread_barrier_init(&sh.start, NULL, (unsigned)p + 1), "barrier_init");
    check(pthread_barrier_init(&sh.step, NULL, (unsigned)p), "barrier_init");
    check(pthread_barrier_init(&sh.done, NULL, (unsigned)p + 1), "barrier_init");

    worker *w = bench_alloc((size_t)p * sizeof *w);
    for (int i = 0; i < p; i++) {
        w[i] = (worker){ .sh = &sh, .id = i };
        w[i].next = bench_alloc((size_t)p * sizeof *w[i].next);
        w[i].place = bench_alloc(RADIX * sizeof *w[i].place);
        check(pthread_create(&w[i].thread, NULL, work, &w[i]), "pthread_create");
    }
    double median = bench_time_runs("ref_radix", sh.a.runs, &sh.start, &sh.done);
    for (int i = 0; i < p; i++)
        check(pthread_join(w[i].thread, NULL), "pthread_join");

    /* The passes alternate buffers: the last pass wrote buf[(passes - 1) mod 2]. */
    int passes = (32 + DIGIT_BITS - 1) / DIGIT_BITS;
    at = 0;
    for (int i = 0; i < p; i++) {
        memcpy(all + at, sh.buf[(passes - 1) % 2][i], sh.count[i] * sizeof(bench_key));
        at += sh.count[i];
    }
    if (bench_check_sorted(all, sh.a.n, print) != 0) {
        fprintf(stderr, "ref_radix: the sorted keys are wrong\n");
        return 1;
    }
    bench_report("ref_radix", &sh.a, median);

    check(pthread_barrier_destroy(&sh.start), "barrier_destroy");
    check(pthread_barrier_destroy(&sh.step), "barrier_destroy");
    check(pthread_barrier_destroy(&sh.done), "barrier_destroy");
    for (int i = 0; i < p; i++) {
        free(w[i].next);
        free(w[i].place);
        free(sh.in[i]);
        free(sh.buf[0][i]);
        free(sh.buf[1][i]);
        plain_bins_free(&sh.first[i]);
        plain_bins_free(&sh.second[i]);
    }
    free(w);
    free(all);
    free(sh.in);
    free(sh.buf[0]);
    free(sh.buf[1]);
    free(sh.count);
    free(sh.hist);
    free(sh.first);
    free(sh.second);
    return 0;
}
