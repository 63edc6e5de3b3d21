/* seq_route.c: the one-thread reference: route the uniform h-relation of configs/bench/hrel.ini
 * (the same elements as bench/ref_alltoall.c and hremu) into p destination buffers with one loop.
 *
 * Timed, per run: a counting pass over all elements by destination, then each element copied to
 * its destination's buffer at its destination's cursor. Not timed: generating the input and
 * allocating and touching the output buffers. On a 2-core box this is the floor that p threads
 * on 2 cores can at best halve.
 */
#include "bench_common.h"

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "seq_route");
    int p = a.p;
    size_t *dest_total = bench_alloc((size_t)p * sizeof *dest_total);
    size_t *count = bench_alloc((size_t)p * sizeof *count);
    size_t *in_count = bench_alloc((size_t)p * sizeof *in_count);
    elem **in = bench_alloc((size_t)p * sizeof *in);
    elem **out = bench_alloc((size_t)p * sizeof *out);
    elem **dst = bench_alloc((size_t)p * sizeof *dst);
    bench_uniform_input(&a, in, in_count, dest_total);
    for (int d = 0; d < p; d++)
        out[d] = bench_alloc(dest_total[d] * sizeof(elem));

    double *t = bench_alloc((size_t)a.runs * sizeof *t);
    for (int run = 0; run < a.runs; run++) {
        double t0 = bench_now();
        memset(count, 0, (size_t)p * sizeof *count);
        for (int s = 0; s < p; s++)
            for (size_t k = 0; k < in_count[s]; k++)
                count[in[s][k].dest]++;
        /* The buffers are separate, so every cursor starts at 0; the counts size them (here,
         * as in any router that allocates, they would be the allocation's length). */
        for (int d = 0; d < p; d++) {
            if (count[d] != dest_total[d]) {
                fprintf(stderr, "seq_route: counted %zu elements for %d, expected %zu\n",
                        count[d], d, dest_total[d]);
                return 1;
            }
            dst[d] = out[d];
        }
        for (int s = 0; s < p; s++)
            for (size_t k = 0; k < in_count[s]; k++)
                *dst[in[s][k].dest]++ = in[s][k];
        t[run] = bench_now() - t0;
    }

    if (bench_check(&a, out, dest_total) != 0) {
        fprintf(stderr, "seq_route: the routed elements are wrong\n");
        return 1;
    }
    bench_report("seq_route", &a, bench_median(t, a.runs));

    for (int i = 0; i < p; i++) {
        free(in[i]);
        free(out[i]);
    }
    free(t);
    free(in);
    free(out);
    free(dst);
    free(in_count);
    free(count);
    free(dest_total);
    return 0;
}
