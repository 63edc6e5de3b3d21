/* seq_radix.c: the one-thread reference for sort.radix: one LSD radix sort of the dataset R keys of
 * configs/bench/radix.ini (the same n keys, same seed, same generator as hremu's sort workload).
 *
 * It sorts (key, id) pairs of 8 bytes, not bare keys: those are the records that sort.radix moves
 * (include/hremu/workload.h's hr_key), so both move the same bytes per pass, and the ids make the
 * stability of the result checkable. Digits of 11 bits, least significant first, 3 passes: the
 * keys are 31-bit, so 3 x 11 = 33 bits cover them, as sort.radix's default r = 11 does (its
 * ceil(32/11) = 3 passes). Each pass is a stable counting sort.
 *
 * Timed, per run: one read of the input that counts all three digits' histograms, then three
 * scatter passes (input -> a, a -> b, b -> a), each preceded by the exclusive prefix sum of its
 * histogram. The input is never written, so every run sorts the same unsorted keys. Not timed:
 * generating the keys, allocating and touching the two buffers, and the check, which runs once,
 * after the last run: non-descending keys, equal keys in ascending id order, ids a permutation of
 * 0 .. n-1 and the (id, key) fingerprint unchanged.
 *
 * The p argument is not used by the sort; it is accepted (and printed) so that every reference
 * takes the same arguments.
 */
#include "bench_common.h"

#define DIGIT_BITS 11
#define RADIX      (1u << DIGIT_BITS)
#define PASSES     3

static void radix_sort(const bench_key *in, bench_key *a, bench_key *b, size_t n)
{
    static size_t count[PASSES][RADIX];
    memset(count, 0, sizeof count);
    for (size_t k = 0; k < n; k++) {
        uint32_t key = in[k].key;
        count[0][key & (RADIX - 1)]++;
        count[1][(key >> DIGIT_BITS) & (RADIX - 1)]++;
        count[2][(key >> 2 * DIGIT_BITS) & (RADIX - 1)]++;
    }
    const bench_key *src[PASSES] = { in, a, b };
    bench_key *dst[PASSES] = { a, b, a };
    for (int pass = 0; pass < PASSES; pass++) {
        size_t *c = count[pass], sum = 0;
        for (unsigned d = 0; d < RADIX; d++) {
            size_t t = c[d];
            c[d] = sum;
            sum += t;
        }
        unsigned shift = (unsigned)pass * DIGIT_BITS;
        const bench_key *s = src[pass];
        bench_key *o = dst[pass];
        for (size_t k = 0; k < n; k++)
            o[c[(s[k].key >> shift) & (RADIX - 1)]++] = s[k];
    }
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "seq_radix");
    size_t n = (size_t)a.n;
    bench_key *in = bench_alloc(n * sizeof *in);
    bench_key *buf_a = bench_alloc(n * sizeof *buf_a);
    bench_key *buf_b = bench_alloc(n * sizeof *buf_b);
    bench_dataset_r(&a, in);
    uint64_t print = bench_fingerprint(in, a.n);
    if (getenv("BENCH_PRINT") != NULL)   /* to compare the keys with hremu's sort workload */
        fprintf(stderr, "seq_radix: dataset R, n = %zu, seed %" PRIu64 ": fingerprint %016" PRIx64
                "\n", n, a.seed, print);

    double *t = bench_alloc((size_t)a.runs * sizeof *t);
    for (int run = 0; run < a.runs; run++) {
        double t0 = bench_now();
        radix_sort(in, buf_a, buf_b, n);
        t[run] = bench_now() - t0;
    }

    if (bench_check_sorted(buf_a, a.n, print) != 0) {
        fprintf(stderr, "seq_radix: the sorted keys are wrong\n");
        return 1;
    }
    bench_report("seq_radix", &a, bench_median(t, a.runs));

    free(t);
    free(in);
    free(buf_a);
    free(buf_b);
    return 0;
}
