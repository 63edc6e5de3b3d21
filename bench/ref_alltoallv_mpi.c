/* ref_alltoallv_mpi.c: the plain MPI reference for `make bench-mpi`: p ranks route the uniform
 * h-relation of configs/bench/hrel.ini (n elements of 8 bytes) with MPI_Alltoallv, as an MPI
 * programmer would, with no emulator in between; hremu-mpi's hrel.direct does the same through
 * the hremu API (sort by destination, one alltoallv).
 *
 *     mpirun -np P ref_alltoallv_mpi [P [n [runs [seed]]]]
 *
 * Timed, per run: each rank counts its elements by destination and packs them in destination
 * order; MPI_Alltoall of the counts; MPI_Alltoallv of the elements. Not timed: generating the
 * input (each rank draws the whole sequence and keeps its own elements, g mod p = rank, as
 * src/work/hrel.c deals them). The clock runs from a barrier to the rank's end of the exchange;
 * the run's time is the slowest rank's, as hremu's wall_s is. Checked: every element received
 * is for its receiver, and the ids over all ranks sum to n (n - 1) / 2.
 */
#include <mpi.h>

#include "bench_common.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bench_args a = bench_parse(argc, argv, "ref_alltoallv_mpi");
    if (a.p != size) {
        if (rank == 0)
            fprintf(stderr, "ref_alltoallv_mpi: p = %d, but mpirun started %d ranks\n", a.p, size);
        MPI_Finalize();
        return 2;
    }
    int p = a.p;
    size_t mine = (size_t)(a.n / (uint64_t)p + ((uint64_t)rank < a.n % (uint64_t)p));
    elem *in = bench_alloc(mine * sizeof *in), *packed = bench_alloc(mine * sizeof *packed);
    uint64_t s[4];
    bench_seed(s, a.seed);
    for (uint64_t g = 0; g < a.n; g++) {
        uint32_t d = bench_below(s, (uint32_t)p);
        if (g % (uint64_t)p == (uint64_t)rank)
            in[g / (uint64_t)p] = (elem){ .data = (uint32_t)g, .dest = d };
    }
    size_t ints = (size_t)p * sizeof(int);
    int *scount = bench_alloc(ints), *sdispl = bench_alloc(ints), *rcount = bench_alloc(ints);
    int *rdispl = bench_alloc(ints), *at = bench_alloc(ints);
    elem *out = NULL;
    size_t out_cap = 0;
    double *t = bench_alloc((size_t)a.runs * sizeof *t);
    int bad = 0;
    for (int run = 0; run < a.runs; run++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        memset(scount, 0, (size_t)p * sizeof *scount);
        for (size_t k = 0; k < mine; k++)
            scount[in[k].dest] += (int)sizeof(elem);
        for (int d = 0, off = 0; d < p; d++) {
            sdispl[d] = off;
            at[d] = off / (int)sizeof(elem);
            off += scount[d];
        }
        for (size_t k = 0; k < mine; k++)
            packed[at[in[k].dest]++] = in[k];
        MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
        size_t total = 0;
        for (int d = 0; d < p; d++) {
            rdispl[d] = (int)total;
            total += (size_t)rcount[d];
        }
        if (total > out_cap) {     /* the first run only: the same sizes every run */
            free(out);
            out = bench_alloc(total);
            out_cap = total;
        }
        MPI_Alltoallv(packed, scount, sdispl, MPI_BYTE, out, rcount, rdispl, MPI_BYTE,
                      MPI_COMM_WORLD);
        double mine_s = MPI_Wtime() - t0;
        MPI_Allreduce(&mine_s, &t[run], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        uint64_t sum = 0, all = 0;
        for (size_t k = 0; k < total / sizeof(elem); k++) {
            bad |= out[k].dest != (uint32_t)rank;
            sum += out[k].data;
        }
        MPI_Allreduce(&sum, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        bad |= all != a.n * (a.n - 1) / 2;
    }
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
        if (any)
            fprintf(stderr, "ref_alltoallv_mpi: the elements did not arrive where they belong\n");
        else
            bench_report("ref_alltoallv_mpi", &a, bench_median(t, a.runs));
    }
    free(in);
    free(packed);
    free(out);
    free(t);
    free(scount);
    free(sdispl);
    free(rcount);
    free(rdispl);
    free(at);
    MPI_Finalize();
    return any ? 1 : 0;
}
