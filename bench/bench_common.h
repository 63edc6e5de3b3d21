/* bench_common.h: what the plain references in bench/ share, with no hremu code: the uniform
 * h-relation input exactly as src/work/hrel.c makes it, the sort workload's dataset R keys exactly
 * as src/work/sort.c makes them, a clock, the median and the result line.
 *
 * Keep the generators in step with hremu:
 * - src/work/hrel.c draws from src/util/rng.c's stream UINT64_MAX of the seed (element
 *   g = { g, below(p) } drawn in order of g, placed on processor g mod p at local index g / p):
 *   then ref_alltoall and seq_route move exactly the elements that
 *   `hremu configs/bench/hrel.ini` moves.
 * - src/work/sort.c's dataset R draws from stream UINT64_MAX - 1 of the seed: key g is the top
 *   31 bits of draw g, its id is g: then seq_radix sorts exactly the keys that
 *   `hremu configs/bench/radix.ini` sorts.
 * - src/core/proc.c seeds processor i's hr_rand with stream i of the seed (bench_seed_stream(s,
 *   seed, i)), and hrel.pq_random draws its priorities from it in the order of its messages: then
 *   seq_rounds draws the priorities that `hremu configs/bench/rounds.ini` draws.
 * Static inline functions only: each reference is a single translation unit.
 */
#ifndef HREMU_BENCH_COMMON_H
#define HREMU_BENCH_COMMON_H

#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct elem {
    uint32_t data;   /* the element's global id */
    uint32_t dest;
} elem;

/* What a reference is asked for: `NAME [p [n [runs [seed]]]]`, defaults those of
 * configs/bench/hrel.ini and configs/bench/radix.ini. */
typedef struct bench_args {
    int      p;
    uint64_t n;
    int      runs;
    uint64_t seed;
} bench_args;

static inline void bench_usage(const char *name)
{
    fprintf(stderr, "usage: %s [p [n [runs [seed]]]]  (defaults: 16 16777216 11 1)\n", name);
    exit(2);
}

static inline uint64_t bench_number(const char *name, const char *s, uint64_t min, uint64_t max)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (*s == '\0' || *end != '\0' || s[0] == '-' || v < min || v > max)
        bench_usage(name);
    return v;
}

static inline bench_args bench_parse(int argc, char **argv, const char *name)
{
    bench_args a = { .p = 16, .n = UINT64_C(1) << 24, .runs = 11, .seed = 1 };
    if (argc > 5)
        bench_usage(name);
    if (argc > 1)
        a.p = (int)bench_number(name, argv[1], 1, 4096);
    if (argc > 2)
        a.n = bench_number(name, argv[2], 1, UINT64_C(1) << 32);
    if (argc > 3)
        a.runs = (int)bench_number(name, argv[3], 1, 1000);
    if (argc > 4)
        a.seed = bench_number(name, argv[4], 0, UINT64_MAX);
    return a;
}

static inline void *bench_alloc(size_t bytes)
{
    void *ptr = malloc(bytes > 0 ? bytes : 1);
    if (ptr == NULL) {
        fprintf(stderr, "bench: out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    /* Touch every page now, so no run pays first-touch page faults the others do not. */
    memset(ptr, 0, bytes);
    return ptr;
}

/* ---- the uniform input, as src/work/hrel.c makes it ---------------------------------------- */

static inline uint64_t bench_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static inline uint64_t bench_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t bench_next(uint64_t *s)
{
    uint64_t result = bench_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = bench_rotl(s[3], 45);
    return result;
}

/* util/rng.c's hr__rng_below: Lemire's multiply-shift with rejection. */
static inline uint32_t bench_below(uint64_t *s, uint32_t bound)
{
    unsigned __int128 m = (unsigned __int128)bench_next(s) * bound;
    uint64_t low = (uint64_t)m;
    if (low < bound) {
        uint64_t floor = -(uint64_t)bound % bound;
        while (low < floor) {
            m = (unsigned __int128)bench_next(s) * bound;
            low = (uint64_t)m;
        }
    }
    return (uint32_t)(m >> 64);
}

/* util/rng.c's hr__rng_seed(seed, stream). */
static inline void bench_seed_stream(uint64_t *s, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed;
    uint64_t y = bench_splitmix64(&x) ^ stream;
    (void)bench_splitmix64(&y);
    for (int k = 0; k < 4; k++)
        s[k] = bench_splitmix64(&y);
}

/* The hrelation workload's stream UINT64_MAX. */
static inline void bench_seed(uint64_t *s, uint64_t seed)
{
    bench_seed_stream(s, seed, UINT64_MAX);
}

/* in[i] gets processor i's elements (in_count[i] of them); dest_total[d] counts those for d. */
static inline void bench_uniform_input(const bench_args *a, elem **in, size_t *in_count,
                                size_t *dest_total)
{
    int p = a->p;
    for (int i = 0; i < p; i++) {
        in_count[i] = (size_t)(a->n / (uint64_t)p + ((uint64_t)i < a->n % (uint64_t)p));
        in[i] = bench_alloc(in_count[i] * sizeof(elem));
        dest_total[i] = 0;
    }
    uint64_t s[4];
    bench_seed(s, a->seed);
    for (uint64_t g = 0; g < a->n; g++) {
        uint32_t d = bench_below(s, (uint32_t)p);
        in[g % (uint64_t)p][g / (uint64_t)p] = (elem){ .data = (uint32_t)g, .dest = d };
        dest_total[d]++;
    }
}

/* Every out[d][0 .. dest_total[d]) holds elements for d, and the ids add up as the inputs' do. */
static inline int bench_check(const bench_args *a, elem *const *out, const size_t *dest_total)
{
    uint64_t sum = 0, count = 0;
    for (int d = 0; d < a->p; d++)
        for (size_t k = 0; k < dest_total[d]; k++) {
            if (out[d][k].dest != (uint32_t)d)
                return -1;
            sum += out[d][k].data;
            count++;
        }
    return count == a->n && sum == a->n * (a->n - 1) / 2 ? 0 : -1;
}

/* ---- the sort workload's dataset R, as src/work/sort.c makes it ---------------------------- */

/* One key and its id, as include/hremu/workload.h's hr_key. */
typedef struct bench_key {
    uint32_t key;
    uint32_t id;   /* the key's position g in the global input sequence */
} bench_key;

/* sort.c's SORT_STREAM: the sort workload's stream for datasets R and S. */
#define BENCH_SORT_STREAM (UINT64_MAX - 1)

/* sort.c's key31: the top 31 bits of one draw. */
static inline uint32_t bench_key31(uint64_t *s)
{
    return (uint32_t)(bench_next(s) >> 33);
}

/* key[g] = { R key g, g } for g = 0 .. n-1: the global sequence that sort.c deals to the
 * processors in blocks (processor 0's keys first), so its order is the same for every p. */
static inline void bench_dataset_r(const bench_args *a, bench_key *key)
{
    uint64_t s[4];
    bench_seed_stream(s, a->seed, BENCH_SORT_STREAM);
    for (uint64_t g = 0; g < a->n; g++)
        key[g] = (bench_key){ .key = bench_key31(s), .id = (uint32_t)g };
}

/* src/work/common.h's hr__work_mix: a fingerprint term of one (id, key) pair. */
static inline uint64_t bench_mix(uint64_t x)
{
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

/* The sum of bench_mix(id << 32 | key): sort.c's fingerprint of its input (the print field),
 * which any permutation of the pairs keeps. */
static inline uint64_t bench_fingerprint(const bench_key *key, uint64_t n)
{
    uint64_t f = 0;
    for (uint64_t k = 0; k < n; k++)
        f += bench_mix((uint64_t)key[k].id << 32 | key[k].key);
    return f;
}

/* 0 when out is the stable sort of the n pairs whose fingerprint is print. */
static inline int bench_check_sorted(const bench_key *out, uint64_t n, uint64_t print)
{
    uint64_t *seen = bench_alloc((size_t)((n + 63) / 64) * sizeof *seen);
    int bad = 0;
    for (uint64_t k = 0; k < n && !bad; k++) {
        uint32_t id = out[k].id;
        if (id >= n || (seen[id / 64] >> (id % 64) & 1))
            bad = 1;
        else
            seen[id / 64] |= UINT64_C(1) << (id % 64);
        if (k > 0 && (out[k - 1].key > out[k].key ||
                      (out[k - 1].key == out[k].key && out[k - 1].id > id)))
            bad = 1;
    }
    free(seen);
    return bad || bench_fingerprint(out, n) != print ? -1 : 0;
}

/* ---- timing ---------------------------------------------------------------------------------- */

static inline double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static inline int bench_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The median of t[0 .. runs) (sorts t); the mean of the middle two for an even count. */
static inline double bench_median(double *t, int runs)
{
    qsort(t, (size_t)runs, sizeof *t, bench_cmp);
    return runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
}

/* The timing thread of a plain pthreads reference: runs times, release the workers waiting at
 * start and wait for them at done (each barrier counts the workers and this thread); the median
 * of those wall times. Exits on a failed barrier. */
static inline double bench_time_runs(const char *name, int runs, pthread_barrier_t *start,
                                     pthread_barrier_t *done)
{
    double *t = bench_alloc((size_t)runs * sizeof *t);
    for (int run = 0; run < runs; run++) {
        double t0 = bench_now();
        int a = pthread_barrier_wait(start), b = pthread_barrier_wait(done);
        if ((a != 0 && a != PTHREAD_BARRIER_SERIAL_THREAD) ||
            (b != 0 && b != PTHREAD_BARRIER_SERIAL_THREAD)) {
            fprintf(stderr, "%s: barrier failed\n", name);
            exit(1);
        }
        t[run] = bench_now() - t0;
    }
    double median = bench_median(t, runs);
    free(t);
    return median;
}

/* The one line scripts/bench.sh parses: NAME p=.. n=.. runs=.. median_s=.. elements_per_s=.. */
static inline void bench_report(const char *name, const bench_args *a, double median_s)
{
    printf("%s p=%d n=%" PRIu64 " runs=%d median_s=%.6f elements_per_s=%.3e\n", name, a->p, a->n,
           a->runs, median_s, (double)a->n / median_s);
}

#endif /* HREMU_BENCH_COMMON_H */
