/* ring.c: examples/ring_sum on P processors under a discipline and a topology, then collectives
 * (hr_bcast, hr_allreduce, hr_transpose, and hr_group_allreduce in the halves hr_group_split
 * makes), one source file linked with either engine (make mpi builds both): it prints the run's
 * model figures, one line, and fails the run unless every result is the sequential one.
 *
 *   ring-threads P DISCIPLINE TOPOLOGY
 *   mpirun -np P ring-mpi P DISCIPLINE TOPOLOGY      (every rank prints the same line)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <hremu/hremu.h>
#include <hremu/machine.h>

#include "ring_sum.h"

static void body(hr_proc *p, void *arg)
{
    (void)arg;
    int n = hr_nprocs(p);
    int64_t got = ring_sum(p, 10 * hr_pid(p) + 1), want = 0;
    for (int i = 0; i < n; i++)
        want += 10 * i + 1;
    if (got != want)
        hr_fail(p, "ring_sum gave %" PRId64 ", not %" PRId64, got, want);
    hr_compute(p, 1000.0 * (hr_pid(p) + 1));

    int me = hr_pid(p);
    int64_t root_word = me == n - 1 ? 4242 : -1;
    hr_bcast(p, n - 1, &root_word, sizeof root_word);
    if (root_word != 4242)
        hr_fail(p, "hr_bcast gave %" PRId64 ", not 4242", root_word);
    int64_t mine = me + 1, total = 0;
    hr_allreduce(p, &mine, &total, 1, HR_INT64, HR_SUM);
    if (total != (int64_t)n * (n + 1) / 2)
        hr_fail(p, "hr_allreduce gave %" PRId64 ", not %d", total, n * (n + 1) / 2);
    int64_t *out = hr_malloc(p, sizeof *out * (size_t)n), *in = hr_malloc(p, sizeof *in * (size_t)n);
    for (int j = 0; j < n; j++)
        out[j] = 100 * me + j;
    hr_transpose(p, out, in, sizeof *out);
    for (int j = 0; j < n; j++)
        if (in[j] != 100 * j + me)
            hr_fail(p, "hr_transpose: block %d is %" PRId64 ", not %d", j, in[j], 100 * j + me);
    hr_group *half = hr_group_split(p, hr_world(p), me < n / 2, me);
    int64_t sum = 0;
    hr_group_allreduce(p, half, &mine, &sum, 1, HR_INT64, HR_SUM);
    int lo = me < n / 2 ? 0 : n / 2, hi = me < n / 2 ? n / 2 : n;
    if (sum != (int64_t)(hi * (hi + 1) - lo * (lo + 1)) / 2)
        hr_fail(p, "hr_group_allreduce gave %" PRId64 " in [%d, %d)", sum, lo, hi);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s P DISCIPLINE TOPOLOGY\n", argv[0]);
        return 2;
    }
    hr_machine_config cfg = { .procs = atoi(argv[1]), .discipline = argv[2],
                              .topology = argv[3], .seed = 1, .jitter = -1 };
    if (hr_cost_preset("cm5", &cfg.cost) != HR_OK)
        return 1;
    hr_machine *m;
    const char *why = NULL;
    if (hr_machine_create(&cfg, &m, &why) != HR_OK) {
        fprintf(stderr, "ring: %s\n", why != NULL ? why : "cannot create the machine");
        return 2;
    }
    hr_run_result res;
    int rc = hr_machine_run(m, body, NULL, &res);
    hr_machine_destroy(m);
    if (rc != HR_OK)
        return 1;
    printf("status %d model_time_s %.17g messages %" PRIu64 " bytes %" PRIu64 " steps %" PRIu64
           " stalls %" PRIu64 " max_in_bytes %" PRIu64 "\n", res.status, res.model_time_s,
           res.messages, res.bytes, res.steps, res.stalls, res.max_in_bytes);
    if (res.status != HR_OK)
        printf("%s", res.report);
    return res.status == HR_OK ? 0 : 1;
}
