/* ring.c: examples/ring_sum on P processors under a discipline and a topology, then requests
 * (hr_isend, hr_irecv, hr_waitall; an hr_recv that a pending hr_irecv overtakes; hr_test and
 * hr_iprobe), the topology's enquiries, hr_sendrecv, receives from any source, and collectives (hr_bcast, hr_allreduce,
 * hr_transpose, and hr_group_allreduce in the halves hr_group_split makes), and supersteps
 * (hr_put and hr_get to others and to itself, hr_sync, hr_barrier). One source file
 * linked with either engine (make mpi builds both): it prints the run's model figures, one
 * line, and fails the run unless every result is the sequential one.
 *
 *   ring-threads P DISCIPLINE TOPOLOGY
 *   mpirun -np P ring-mpi P DISCIPLINE TOPOLOGY      (every rank prints the same line; the
 *                                                     region's line comes from rank 0)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <hremu/hremu.h>
#include <hremu/machine.h>

#include "ring_sum.h"

/* Requests around the ring; values say which message each receive took. */
static void requests(hr_proc *p, int me, int left, int right)
{
    int64_t a = -1, b = -1, one = 1, two = 2, mine = me;
    hr_request *reqs[2];
    reqs[0] = hr_irecv(p, left, 7, &a, sizeof a);
    reqs[1] = hr_isend(p, right, 7, &mine, sizeof mine);
    hr_status st[2];
    hr_waitall(p, 2, reqs, st);
    if (a != left || st[0].source != left || st[0].bytes != sizeof a)
        hr_fail(p, "hr_waitall gave %" PRId64 " from P%d, not P%d's id", a, st[0].source, left);
    /* The pending receive takes the first of two messages, hr_recv the second. */
    hr_send(p, right, 8, &one, sizeof one);
    hr_send(p, right, 8, &two, sizeof two);
    hr_request *early = hr_irecv(p, left, 8, &a, sizeof a);
    hr_recv(p, left, 8, &b, sizeof b, NULL);
    hr_wait(p, &early, NULL);
    if (a != 1 || b != 2 || early != NULL)
        hr_fail(p, "a pending hr_irecv took %" PRId64 " and hr_recv %" PRId64, a, b);
    /* hr_test until it is there, hr_iprobe before taking. */
    hr_send(p, left, 9, &mine, sizeof mine);
    hr_request *t = hr_irecv(p, right, 9, &a, sizeof a);
    int tries = 0;
    while (!hr_test(p, &t, NULL)) {      /* a few tries: each is a call to rank 0 on MPI */
        hr_compute(p, 5000);
        tries++;
    }
    hr_send(p, right, 10, &mine, sizeof mine);
    hr_status ps;
    while (!hr_iprobe(p, left, 10, &ps))
        hr_compute(p, 5000 + tries % 3);
    hr_recv(p, left, 10, &b, sizeof b, NULL);
    if (a != right || b != left || ps.source != left)
        hr_fail(p, "hr_test gave %" PRId64 " and hr_iprobe %" PRId64, a, b);
}

/* Every processor puts 1000 + its id into word `me` of everyone's array, itself included, and
 * gets word 0 of its right neighbour's, which must be the value from before the superstep's
 * puts; then a get and a put to itself across a barrier, which applies neither. */
static void supersteps(hr_proc *p, int me, int n)
{
    int64_t *words = hr_malloc(p, sizeof *words * (size_t)n), before = 0, after = 0;
    for (int j = 0; j < n; j++)
        words[j] = -1;
    int slot = hr_register(p, words, sizeof *words * (size_t)n), right = (me + 1) % n;
    for (int j = 0; j < n; j++) {
        int64_t v = 1000 + me;
        hr_put(p, j, slot, sizeof v * (size_t)me, &v, sizeof v);
    }
    hr_get(p, right, slot, 0, &before, sizeof before);
    hr_sync(p);
    for (int j = 0; j < n; j++)
        if (words[j] != 1000 + j)
            hr_fail(p, "after hr_sync, word %d is %" PRId64 ", not %d", j, words[j], 1000 + j);
    if (before != -1)
        hr_fail(p, "hr_get read %" PRId64 ", not the superstep's start value -1", before);
    int64_t seven = 7;
    hr_get(p, right, slot, sizeof after * (size_t)(n - 1), &after, sizeof after);
    hr_put(p, me, slot, 0, &seven, sizeof seven);
    hr_barrier(p);
    if (words[0] != 1000 || after != 0)
        hr_fail(p, "hr_barrier applied a put or a get");
    hr_sync(p);
    if (words[0] != 7 || after != 1000 + n - 1)
        hr_fail(p, "the second superstep left %" PRId64 " and got %" PRId64, words[0], after);
}

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
    /* hr_now after quiet calls on MPI: fold the clock into the next step. */
    hr_compute(p, (double)((long long)(hr_now(p) * 1e9) % 1000));

    int me = hr_pid(p), right = (me + 1) % n, left = (me + n - 1) % n;
    /* The topology's enquiries, folded into the clock: any difference shows in model time. */
    int nb[64], dims[4];
    int nnb = hr_neighbours(p, me, nb, 64), nd = hr_topology_dims(p, dims, 4);
    hr_compute(p, 100.0 * hr_distance(p, me, right) + 10.0 * nnb + nd +
                  (double)(hr_topology_shape(p)[0] - 'a'));
    hr_region_begin(p, "requests");
    requests(p, me, left, right);
    hr_region_end(p, "requests");
    int64_t from_left = -1, mine_word = me;
    hr_sendrecv(p, right, 11, &mine_word, sizeof mine_word, left, 11, &from_left,
                sizeof from_left, NULL);
    if (from_left != left)
        hr_fail(p, "hr_sendrecv gave %" PRId64 ", not %d", from_left, left);
    if (me != 0) {
        hr_send(p, 0, 12, &mine_word, sizeof mine_word);
    } else {
        int64_t seen = 0;
        for (int k = 1; k < n; k++) {
            hr_status st;
            int64_t v;
            hr_recv(p, HR_ANY, 12, &v, sizeof v, &st);
            if (v != st.source)
                hr_fail(p, "a receive from any source gave %" PRId64 " from P%d", v, st.source);
            seen += v;
        }
        if (seen != (int64_t)n * (n - 1) / 2)
            hr_fail(p, "receives from any source summed %" PRId64, seen);
    }
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
    supersteps(p, me, n);
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
    if (rc != HR_OK)
        return 1;
    printf("status %d model_time_s %.17g messages %" PRIu64 " bytes %" PRIu64 " steps %" PRIu64
           " stalls %" PRIu64 " max_in_bytes %" PRIu64 "\n", res.status, res.model_time_s,
           res.messages, res.bytes, res.steps, res.stalls, res.max_in_bytes);
    /* The timed region, where this process has it (on MPI, rank 0, from the model). */
    hr_region_result rr;
    if (res.status == HR_OK && hr_machine_regions(m) == 1 &&
        hr_machine_region_result(m, 0, &rr) == HR_OK)
        printf("region %s time_s %.17g messages %" PRIu64 "\n", rr.name, rr.time_s,
               rr.messages);
    /* The supersteps, likewise. */
    for (size_t k = 0; res.status == HR_OK && k < hr_machine_supersteps(m); k++) {
        hr_superstep_result sr;
        if (hr_machine_superstep_result(m, k, &sr) == HR_OK)
            printf("superstep %zu time_s %.17g messages %" PRIu64 " bytes %" PRIu64 " h %" PRIu64
                   "\n", k, sr.time_s, sr.messages, sr.bytes, sr.h);
    }
    hr_machine_destroy(m);
    if (res.status != HR_OK)
        printf("%s", res.report);
    return res.status == HR_OK ? 0 : 1;
}
