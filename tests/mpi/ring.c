/* ring.c: examples/ring_sum on P processors under a discipline and a topology, one source file
 * linked with either engine (make mpi builds both): it prints the run's model figures, one line,
 * and fails the run unless every processor's sum is the sequential one.
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
