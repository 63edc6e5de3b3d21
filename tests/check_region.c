/* check_region.c: the results of a run beyond hr_run_result: per processor (hand-computed clocks
 * and counters, and their sums against the run's), timed regions (two phases and nesting by
 * hand, recursion, misuse), determinism under jitter, and the --regions lines. */
#include "hr_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hremu/algorithm.h>
#include <hremu/workload.h>

#include "cli/regions.h"

/* Run fn on a fresh machine of cfg and return the machine, whose results the test reads and
 * which it destroys. */
static hr_machine *run_kept(const hr_machine_config *cfg, void (*fn)(hr_proc *, void *),
                            void *arg, hr_run_result *res)
{
    hr_machine *m = NULL;
    const char *why = NULL;
    ck_assert_msg(hr_machine_create(cfg, &m, &why) == HR_OK, "create: %s", why ? why : "?");
    ck_assert_int_eq(hr_machine_run(m, fn, arg, res), HR_OK);
    return m;
}

static hr_proc_result proc_of(const hr_machine *m, int pid)
{
    hr_proc_result r;
    ck_assert_int_eq(hr_machine_proc_result(m, pid, &r), HR_OK);
    return r;
}

static hr_region_result region_of(const hr_machine *m, size_t i)
{
    hr_region_result r;
    ck_assert_int_eq(hr_machine_region_result(m, i, &r), HR_OK);
    return r;
}

#define US(x) ((x) * 1e-6)
#define ck_assert_time(got, want) ck_assert_double_eq_tol((got), (want), 1e-12)

/* Two phases on p = 4 (cm5: tau 88 us, 20 MB/s, no overhead, 1 ns a unit), nested in a third:
 * "shift": P_i sends (i+1) * 1000 bytes to P_(i+1 mod 4) and receives from P_(i-1). All leave at
 * 0 and arrive at tau; P_j absorbs j * 1000 bytes (P0: 4000) by 88 + 50 j us: P0 288 us, P1
 * 138, P2 188, P3 238. "work": P_i computes (i+1) * 10 us. */
static void body_phases(hr_proc *p, void *arg)
{
    (void)arg;
    static char out[4][4000], in[4][4000];
    int me = hr_pid(p), n = hr_nprocs(p);
    hr_region_begin(p, "total");
    hr_region_begin(p, "shift");
    hr_send(p, (me + 1) % n, 0, out[me], (size_t)(me + 1) * 1000);
    hr_recv(p, (me + n - 1) % n, 0, in[me], sizeof in[me], NULL);
    hr_region_end(p, "shift");
    hr_region_begin(p, "work");
    hr_compute(p, (me + 1) * 10000.0);
    hr_region_end(p, "work");
    hr_region_end(p, "total");
}

START_TEST(test_region_proc_results_by_hand)
{
    hr_machine_config cfg = hr_test_config(4, NULL);
    hr_run_result res;
    hr_machine *m = run_kept(&cfg, body_phases, NULL, &res);
    ck_assert_int_eq(res.status, HR_OK);
    static const double clock_us[4] = { 288 + 10, 138 + 20, 188 + 30, 238 + 40 };
    for (int i = 0; i < 4; i++) {
        hr_proc_result r = proc_of(m, i);
        ck_assert_time(r.clock_s, US(clock_us[i]));
        ck_assert_time(r.end_s, US(clock_us[i]));   /* every port is free by then */
        ck_assert_time(r.work_s, US(10 * (i + 1)));
        ck_assert_uint_eq(r.messages_out, 1);
        ck_assert_uint_eq(r.messages_in, 1);
        ck_assert_uint_eq(r.bytes_out, (uint64_t)(i + 1) * 1000);
        ck_assert_uint_eq(r.bytes_in, i == 0 ? 4000 : (uint64_t)i * 1000);
        ck_assert_uint_eq(r.stalls, 0);
        ck_assert_uint_eq(r.rounds, 0);
    }
    ck_assert_time(res.model_time_s, US(298));
    hr_proc_result r;
    ck_assert_int_eq(hr_machine_proc_result(m, 4, &r), HR_EINVAL);
    ck_assert_int_eq(hr_machine_proc_result(m, -1, &r), HR_EINVAL);
    hr_machine_destroy(m);
}
END_TEST

START_TEST(test_region_two_phases_by_hand)
{
    hr_machine_config cfg = hr_test_config(4, NULL);
    hr_run_result res;
    hr_machine *m = run_kept(&cfg, body_phases, NULL, &res);
    ck_assert_int_eq(res.status, HR_OK);
    /* Canonical order: total and shift both first entered at 0 by P0, total first; work at
     * 138 us (P1). */
    ck_assert_uint_eq(hr_machine_regions(m), 3);
    hr_region_result total = region_of(m, 0), shift = region_of(m, 1), work = region_of(m, 2);
    ck_assert_str_eq(total.name, "total");
    ck_assert_str_eq(shift.name, "shift");
    ck_assert_str_eq(work.name, "work");
    for (size_t i = 0; i < 3; i++) {
        ck_assert_int_eq(region_of(m, i).procs, 4);
        ck_assert_uint_eq(region_of(m, i).entries, 4);
    }
    /* shift: 288, 138, 188, 238 us; h: P0 and P3 each move 4000 bytes one way */
    ck_assert_time(shift.time_s, US(288));
    ck_assert_time(shift.time_sum_s, US(288 + 138 + 188 + 238));
    ck_assert_time(shift.work_s, 0);
    ck_assert_uint_eq(shift.messages, 4);
    ck_assert_uint_eq(shift.bytes, 10000);
    ck_assert_uint_eq(shift.h, 4000);
    /* work: 10, 20, 30, 40 us of work and nothing sent */
    ck_assert_time(work.time_s, US(40));
    ck_assert_time(work.time_sum_s, US(100));
    ck_assert_time(work.work_s, US(40));
    ck_assert_uint_eq(work.messages, 0);
    ck_assert_uint_eq(work.bytes, 0);
    ck_assert_uint_eq(work.h, 0);
    /* total: both, per processor 298, 158, 218, 278 us */
    ck_assert_time(total.time_s, US(298));
    ck_assert_time(total.time_sum_s, US(298 + 158 + 218 + 278));
    ck_assert_time(total.work_s, US(40));
    ck_assert_uint_eq(total.messages, 4);
    ck_assert_uint_eq(total.bytes, 10000);
    ck_assert_uint_eq(total.h, 4000);
    hr_region_result r;
    ck_assert_int_eq(hr_machine_region_result(m, 3, &r), HR_EINVAL);
    /* Regions cost nothing: the same program without them ends at the same time. */
    ck_assert_time(res.model_time_s, US(298));
    hr_machine_destroy(m);
}
END_TEST

/* Processors may enter different regions, and a region re-entered while open (recursion) counts
 * its time once: P0 recurses three deep with 1 us of work at each level, P1 enters "odd" only. */
static void recurse(hr_proc *p, int depth)
{
    hr_region_begin(p, "r");
    hr_compute(p, 1000);
    if (depth > 0)
        recurse(p, depth - 1);
    hr_region_end(p, "r");
}

static void body_recursion(hr_proc *p, void *arg)
{
    (void)arg;
    if (hr_pid(p) == 0) {
        recurse(p, 2);
        return;
    }
    hr_compute(p, 5000);
    hr_region_begin(p, "odd");
    hr_compute(p, 2000);
    hr_region_end(p, "odd");
}

START_TEST(test_region_recursion_and_partial_entry)
{
    hr_machine_config cfg = hr_test_config(2, NULL);
    hr_run_result res;
    hr_machine *m = run_kept(&cfg, body_recursion, NULL, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_uint_eq(hr_machine_regions(m), 2);
    hr_region_result r = region_of(m, 0), odd = region_of(m, 1);
    ck_assert_str_eq(r.name, "r");           /* first entered at 0; odd at 5 us */
    ck_assert_int_eq(r.procs, 1);
    ck_assert_uint_eq(r.entries, 3);
    ck_assert_time(r.time_s, US(3));         /* not 3 + 2 + 1 */
    ck_assert_time(r.time_sum_s, US(3));
    ck_assert_time(r.work_s, US(3));
    ck_assert_str_eq(odd.name, "odd");
    ck_assert_int_eq(odd.procs, 1);
    ck_assert_uint_eq(odd.entries, 1);
    ck_assert_time(odd.time_s, US(2));
    hr_machine_destroy(m);
}
END_TEST

/* ---- misuse ----------------------------------------------------------------------------- */

static const char long_name[] =
    "a-region-name-of-sixty-four-bytes-which-is-one-more-than-allowed";
static const char max_name[] =
    "a-region-name-of-sixty-three-bytes-which-is-the-most-allowed-ok";

static void body_misuse(hr_proc *p, void *arg)
{
    int what = *(int *)arg;
    if (hr_pid(p) != 1)
        return;
    switch (what) {
    case 0: hr_region_end(p, "a"); break;
    case 1:
        hr_region_begin(p, "a");
        hr_region_begin(p, "b");
        hr_region_end(p, "a");
        break;
    case 2: hr_region_begin(p, "a"); break;
    case 3: hr_region_begin(p, long_name); break;
    case 4: hr_region_begin(p, ""); break;
    case 5: hr_region_begin(p, NULL); break;
    case 6: hr_region_begin(p, "tab\there"); break;
    case 7:
        hr_region_begin(p, "a");
        hr_region_begin(p, "b");
        break;
    case 8:
        hr_region_begin(p, max_name);
        hr_region_end(p, max_name);
        break;
    }
}

START_TEST(test_region_misuse_fails_the_run)
{
    ck_assert_uint_eq(strlen(long_name), HR_REGION_NAME_MAX + 1);
    ck_assert_uint_eq(strlen(max_name), HR_REGION_NAME_MAX);
    static const char *const want[] = {
        "P1: misuse: hr_region_end(\"a\"): no region is open",
        "P1: misuse: hr_region_end(\"a\"): the innermost open region is \"b\" (regions nest: end it first)",
        "P1: misuse: returned from the algorithm with 1 region open, the innermost \"a\" (every "
        "hr_region_begin needs its hr_region_end)",
        "P1: misuse: hr_region_begin(\"a-region-name-of-sixty-f...\"): the name is longer than 63 bytes",
        "P1: misuse: hr_region_begin: the name is empty",
        "P1: misuse: hr_region_begin: the name is NULL",
        "P1: misuse: hr_region_begin: the name has a control character (byte 3)",
        "P1: misuse: returned from the algorithm with 2 regions open, the innermost \"b\"",
    };
    for (int what = 0; what < 9; what++) {
        hr_machine_config cfg = hr_test_config(3, NULL);
        hr_run_result res;
        hr_machine *m = run_kept(&cfg, body_misuse, &what, &res);
        if (what == 8) {
            ck_assert_msg(res.status == HR_OK, "%s", res.report);
            ck_assert_str_eq(region_of(m, 0).name, max_name);
        } else {
            ck_assert_int_eq(res.status, HR_EMISUSE);
            ck_assert_msg(strstr(res.report, want[what]) != NULL, "case %d: %s", what,
                          res.report);
            ck_assert_msg(strchr(res.report, '\n') == res.report + strlen(res.report) - 1,
                          "case %d: one line: %s", what, res.report);
        }
        hr_machine_destroy(m);
    }
}
END_TEST

/* A run that leaves regions open on many processors names eight and counts the rest. */
static void body_all_open(hr_proc *p, void *arg)
{
    (void)arg;
    hr_region_begin(p, "left open");
}

START_TEST(test_region_open_on_many_is_one_report)
{
    hr_machine_config cfg = hr_test_config(12, NULL);
    hr_run_result res;
    hr_machine *m = run_kept(&cfg, body_all_open, NULL, &res);
    ck_assert_int_eq(res.status, HR_EMISUSE);
    /* Twelve identical lines are one, naming the three lowest and counting the rest. */
    ck_assert_str_eq(res.report, "P0, P1, P2 and 9 more processors: misuse: returned from the "
                                 "algorithm with 1 region open, the innermost \"left open\" "
                                 "(every hr_region_begin needs its hr_region_end)\n");
    /* The figures are still there: the region was entered by all, never closed. */
    ck_assert_uint_eq(hr_machine_regions(m), 1);
    ck_assert_int_eq(region_of(m, 0).procs, 12);
    ck_assert_time(region_of(m, 0).time_s, 0);
    hr_machine_destroy(m);
}
END_TEST

/* ---- the counters add up ---------------------------------------------------------------- */

/* Point to point, collectives, a get and puts in supersteps, a barrier: every message sent is
 * received, so the processors' messages in and out have the same sum. */
static void body_mix(hr_proc *p, void *arg)
{
    (void)arg;
    static int64_t cells[8][8];
    int me = hr_pid(p), n = hr_nprocs(p);
    char buf[300] = { 0 };
    hr_send(p, (me + 3) % n, 1, buf, (size_t)(me * 37 % 300));
    hr_recv(p, HR_ANY, 1, buf, sizeof buf, NULL);
    int64_t x = me, y;
    hr_allreduce(p, &x, &y, 1, HR_INT64, HR_SUM);
    hr_bcast(p, n - 1, buf, 100);
    int slot = hr_register(p, cells[me], sizeof cells[me]);
    hr_sync(p);
    hr_put(p, (me + 1) % n, slot, sizeof x * (size_t)me, &x, sizeof x);
    hr_get(p, (me + 2) % n, slot, 0, &y, sizeof y);
    hr_sync(p);
    hr_barrier(p);
    if (me == 0 && n > 1)
        hr_send(p, 1, 2, buf, 300);    /* the last send: P0's port is busy past its clock */
    if (me == 1)
        hr_recv(p, 0, 2, buf, sizeof buf, NULL);
}

START_TEST(test_region_counters_add_up_to_the_run)
{
    static const int sizes[] = { 1, 2, 5, 8 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        hr_machine_config cfg = hr_test_config(n, NULL);
        hr_run_result res;
        hr_machine *m = run_kept(&cfg, body_mix, NULL, &res);
        ck_assert_msg(res.status == HR_OK, "%s", res.report);
        uint64_t out = 0, in = 0, bytes = 0, bytes_in = 0, max_out = 0, max_in = 0, rounds = 0;
        double end = 0;
        for (int i = 0; i < n; i++) {
            hr_proc_result r = proc_of(m, i);
            out += r.messages_out;
            in += r.messages_in;
            bytes += r.bytes_out;
            bytes_in += r.bytes_in;
            max_out = r.bytes_out > max_out ? r.bytes_out : max_out;
            max_in = r.bytes_in > max_in ? r.bytes_in : max_in;
            rounds = r.rounds > rounds ? r.rounds : rounds;
            end = fmax(end, r.end_s);
            ck_assert(r.end_s >= r.clock_s);
        }
        ck_assert_uint_eq(out, res.messages);
        ck_assert_uint_eq(in, out);
        ck_assert_uint_eq(bytes, res.bytes);
        ck_assert_uint_eq(bytes_in, bytes);
        ck_assert_uint_eq(max_out, res.max_out_bytes);
        ck_assert_uint_eq(max_in, res.max_in_bytes);
        ck_assert_uint_eq(rounds, res.rounds);
        ck_assert(end == res.model_time_s);
        if (n > 1) {   /* P0's 300 bytes leave its port 15 us after its clock stops */
            hr_proc_result r0 = proc_of(m, 0);
            ck_assert_time(r0.end_s - r0.clock_s, US(15));
        }
        hr_machine_destroy(m);
    }
}
END_TEST

/* Under arbitrary every processor but P0 sends to P0 until its message gets through: messages
 * out are the transmissions, in are the deliveries, and the difference is what was lost. */
static void body_to_zero(hr_proc *p, void *arg)
{
    (void)arg;
    int me = hr_pid(p), done = me == 0, v;
    for (;;) {
        if (!done)
            hr_round_send(p, 0, &me, sizeof me, 0);
        if (hr_round_end(p, !done) == 0)
            break;
        if (!done && hr_round_fate(p) == HR_FATE_DELIVERED)
            done = 1;
        if (me == 0)
            hr_round_recv(p, &v, sizeof v, NULL);
    }
}

START_TEST(test_region_round_counters)
{
    hr_machine_config cfg = hr_test_config(6, "arbitrary");
    hr_run_result res;
    hr_machine *m = run_kept(&cfg, body_to_zero, NULL, &res);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    uint64_t out = 0, in = 0, lost = 0;
    for (int i = 0; i < 6; i++) {
        hr_proc_result r = proc_of(m, i);
        out += r.messages_out;
        in += r.messages_in;
        lost += r.lost;
        ck_assert_uint_eq(r.rounds, res.rounds);   /* everyone takes part in every round */
    }
    ck_assert_uint_eq(proc_of(m, 0).messages_in, 5);
    ck_assert_uint_eq(proc_of(m, 0).bytes_in, 5 * sizeof(int));
    ck_assert_uint_eq(in, 5);
    ck_assert_uint_eq(lost, res.lost);
    ck_assert_uint_eq(out, in + lost);
    ck_assert_uint_eq(res.rounds, 5);   /* one delivery a round */
    hr_machine_destroy(m);
}
END_TEST

/* ---- determinism ------------------------------------------------------------------------ */

/* Random traffic received from ANY inside regions that differ by processor, a reduction, and
 * supersteps of random puts: every figure must be the same under any schedule. */
static void body_random(hr_proc *p, void *arg)
{
    (void)arg;
    static char cells[16][16 * 64];
    int me = hr_pid(p), n = hr_nprocs(p);
    int counts[16] = { 0 }, in[16];
    hr_region_begin(p, "scatter");
    int sends = (int)hr_rand_below(p, 6);
    for (int k = 0; k < sends; k++) {
        int d = (int)hr_rand_below(p, (uint64_t)n);
        counts[d]++;
        hr_compute(p, (double)hr_rand_below(p, 3000));
        hr_send(p, d, 1, cells[me], 1 + hr_rand_below(p, 500));
    }
    hr_region_end(p, "scatter");
    hr_region_begin(p, me % 2 ? "odd" : "even");
    hr_transpose(p, counts, in, sizeof(int));
    int expect = 0;
    for (int s = 0; s < n; s++)
        expect += in[s];
    char buf[600] = { 0 };
    for (int k = 0; k < expect; k++) {
        hr_recv(p, HR_ANY, 1, buf, sizeof buf, NULL);
        hr_compute(p, (double)hr_rand_below(p, 2000));
    }
    hr_region_end(p, me % 2 ? "odd" : "even");
    int slot = hr_register(p, cells[me], sizeof cells[me]);
    for (int step = 0; step < 3; step++) {
        hr_region_begin(p, "superstep");
        hr_compute(p, (double)hr_rand_below(p, 5000));
        for (int k = (int)hr_rand_below(p, 4); k > 0; k--)
            hr_put(p, (int)hr_rand_below(p, (uint64_t)n), slot, 64 * (size_t)me, buf,
                   hr_rand_below(p, 64));
        hr_sync(p);
        hr_region_end(p, "superstep");
    }
}

typedef struct figures {
    hr_run_result       res;
    hr_proc_result      procs[16];
    size_t              nregions, nsteps;
    hr_region_result    regions[4];
    hr_superstep_result steps[4];
} figures;

static void figures_of(int jitter, figures *f)
{
    hr_machine_config cfg = hr_test_config(16, NULL);
    cfg.jitter = jitter;
    hr_machine *m = run_kept(&cfg, body_random, NULL, &f->res);
    ck_assert_msg(f->res.status == HR_OK, "%s", f->res.report);
    for (int i = 0; i < 16; i++)
        f->procs[i] = proc_of(m, i);
    f->nregions = hr_machine_regions(m);
    f->nsteps = hr_machine_supersteps(m);
    ck_assert_uint_eq(f->nregions, 4);
    ck_assert_uint_eq(f->nsteps, 3);
    for (size_t i = 0; i < f->nregions; i++)
        f->regions[i] = region_of(m, i);
    for (size_t s = 0; s < f->nsteps; s++)
        ck_assert_int_eq(hr_machine_superstep_result(m, s, &f->steps[s]), HR_OK);
    hr_machine_destroy(m);
}

#define SAME(a, b, field) ck_assert_msg(memcmp(&(a).field, &(b).field, sizeof (a).field) == 0, \
                                        #field " differs")

START_TEST(test_region_figures_do_not_depend_on_the_schedule)
{
    figures quiet, loud;
    figures_of(0, &quiet);
    for (int rep = 0; rep < 3; rep++) {
        figures_of(1, &loud);
        for (int i = 0; i < 16; i++) {
            SAME(quiet.procs[i], loud.procs[i], clock_s);
            SAME(quiet.procs[i], loud.procs[i], end_s);
            SAME(quiet.procs[i], loud.procs[i], work_s);
            SAME(quiet.procs[i], loud.procs[i], messages_out);
            SAME(quiet.procs[i], loud.procs[i], messages_in);
            SAME(quiet.procs[i], loud.procs[i], bytes_out);
            SAME(quiet.procs[i], loud.procs[i], bytes_in);
        }
        for (size_t i = 0; i < 4; i++) {
            ck_assert_str_eq(quiet.regions[i].name, loud.regions[i].name);
            SAME(quiet.regions[i], loud.regions[i], procs);
            SAME(quiet.regions[i], loud.regions[i], entries);
            SAME(quiet.regions[i], loud.regions[i], time_s);
            SAME(quiet.regions[i], loud.regions[i], time_sum_s);
            SAME(quiet.regions[i], loud.regions[i], work_s);
            SAME(quiet.regions[i], loud.regions[i], messages);
            SAME(quiet.regions[i], loud.regions[i], bytes);
            SAME(quiet.regions[i], loud.regions[i], h);
        }
        for (size_t s = 0; s < 3; s++) {
            SAME(quiet.steps[s], loud.steps[s], time_s);
            SAME(quiet.steps[s], loud.steps[s], time_sum_s);
            SAME(quiet.steps[s], loud.steps[s], work_s);
            SAME(quiet.steps[s], loud.steps[s], messages);
            SAME(quiet.steps[s], loud.steps[s], bytes);
            SAME(quiet.steps[s], loud.steps[s], h);
        }
    }
    /* scatter is entered first by everyone at 0; even (P0, at its first receive's arrival or
     * later) and odd follow; every processor is in superstep for the three supersteps */
    ck_assert_str_eq(quiet.regions[0].name, "scatter");
    ck_assert_int_eq(quiet.regions[0].procs, 16);
    ck_assert_int_eq(quiet.regions[1].procs + quiet.regions[2].procs, 16);
    ck_assert_str_eq(quiet.regions[3].name, "superstep");
    ck_assert_uint_eq(quiet.regions[3].entries, 3 * 16);
}
END_TEST

/* ---- results between runs --------------------------------------------------------------- */

static void body_plain(hr_proc *p, void *arg)
{
    (void)arg;
    hr_compute(p, 1000);
}

START_TEST(test_region_results_are_the_last_runs)
{
    hr_machine_config cfg = hr_test_config(4, NULL);
    hr_machine *m = NULL;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    /* before any run: zeros */
    ck_assert_uint_eq(hr_machine_regions(m), 0);
    ck_assert_uint_eq(hr_machine_supersteps(m), 0);
    ck_assert_time(proc_of(m, 3).clock_s, 0);
    hr_run_result res;
    ck_assert_int_eq(hr_machine_run(m, body_phases, NULL, &res), HR_OK);
    ck_assert_uint_eq(hr_machine_regions(m), 3);
    hr_region_result kept = region_of(m, 1);
    ck_assert_int_eq(hr_machine_run(m, body_plain, NULL, &res), HR_OK);
    ck_assert_uint_eq(hr_machine_regions(m), 0);
    ck_assert_uint_eq(proc_of(m, 3).bytes_in, 0);
    ck_assert_time(proc_of(m, 3).clock_s, US(1));
    ck_assert_str_eq(kept.name, "shift");     /* a copy outlives the run */
    ck_assert_time(kept.time_s, US(288));
    hr_machine_destroy(m);
}
END_TEST

/* ---- hremu --regions's lines ------------------------------------------------------------ */

/* Two processors: region "a" around a superstep in which P1 puts 1000 bytes on P0; a second
 * superstep of 2 us of work on P1. Superstep 1: P0 has the put by tau + 50 us = 138 us; the
 * barrier's one round leaves P0 at max(138, 50 + 88) = 138 us and P1 at 138 + 88 = 226 us
 * (sum 364 us; messages: the put and two barrier messages). Superstep 2: P1 works until 228 us;
 * P0 leaves at 228 + 88 = 316 us, P1 at max(228, 138 + 88) = 228 us: 316 - 226 = 90 us long,
 * the clocks advance by 178 + 2 = 180 us. */
static void body_lines(hr_proc *p, void *arg)
{
    (void)arg;
    static char mem[2][1000];
    int me = hr_pid(p);
    int slot = hr_register(p, mem[me], sizeof mem[me]);
    hr_region_begin(p, "a, \"quoted\"");
    if (me == 1)
        hr_put(p, 0, slot, 0, mem[1], 1000);
    hr_sync(p);
    hr_region_end(p, "a, \"quoted\"");
    hr_compute(p, me * 2000.0);
    hr_sync(p);
}

static char *lines_of(hr_format format, const hr_machine *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    hr__regions_begin(f, format);
    hr__regions_write(f, format, 3, "my.alg", m);
    ck_assert_int_eq(fclose(f), 0);
    return text;
}

START_TEST(test_region_lines_in_each_format)
{
    hr_machine_config cfg = hr_test_config(2, NULL);
    hr_run_result res;
    hr_machine *m = run_kept(&cfg, body_lines, NULL, &res);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    char *csv = lines_of(HR_FORMAT_CSV, m);
    ck_assert_str_eq(csv,
        "row,algorithm,kind,name,procs,entries,time_s,time_sum_s,work_s,messages,bytes,h\n"
        "3,my.alg,region,\"a, \"\"quoted\"\"\",2,2,0.000226,0.000364,0,3,1000,1000\n"
        "3,my.alg,superstep,1,2,2,0.000226,0.000364,0,3,1000,1000\n"
        "3,my.alg,superstep,2,2,2,9e-05,0.00018,2e-06,2,0,0\n");
    char *json = lines_of(HR_FORMAT_JSON, m);
    ck_assert_str_eq(json,
        "{\"row\":3,\"algorithm\":\"my.alg\",\"kind\":\"region\",\"name\":\"a, \\\"quoted\\\"\","
        "\"procs\":2,\"entries\":2,\"time_s\":0.000226,\"time_sum_s\":0.000364,\"work_s\":0,"
        "\"messages\":3,\"bytes\":1000,\"h\":1000}\n"
        "{\"row\":3,\"algorithm\":\"my.alg\",\"kind\":\"superstep\",\"name\":\"1\",\"procs\":2,"
        "\"entries\":2,\"time_s\":0.000226,\"time_sum_s\":0.000364,\"work_s\":0,\"messages\":3,"
        "\"bytes\":1000,\"h\":1000}\n"
        "{\"row\":3,\"algorithm\":\"my.alg\",\"kind\":\"superstep\",\"name\":\"2\",\"procs\":2,"
        "\"entries\":2,\"time_s\":9e-05,\"time_sum_s\":0.00018,\"work_s\":2e-06,\"messages\":2,"
        "\"bytes\":0,\"h\":0}\n");
    char *table = lines_of(HR_FORMAT_TABLE, m);
    ck_assert_str_eq(table,
        " row  algorithm           kind       name              procs  entries        time_s"
        "    time_sum_s        work_s   messages        bytes          h\n"
        "   3  my.alg              region     a, \"quoted\"           2        2      0.000226"
        "      0.000364             0          3         1000       1000\n"
        "   3  my.alg              superstep  1                     2        2      0.000226"
        "      0.000364             0          3         1000       1000\n"
        "   3  my.alg              superstep  2                     2        2         9e-05"
        "       0.00018         2e-06          2            0          0\n");
    free(csv);
    free(json);
    free(table);
    hr_machine_destroy(m);
}
END_TEST

Suite *hr_region_suite(void)
{
    Suite *s = suite_create("region");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_region_proc_results_by_hand);
    tcase_add_test(tc, test_region_two_phases_by_hand);
    tcase_add_test(tc, test_region_recursion_and_partial_entry);
    tcase_add_test(tc, test_region_misuse_fails_the_run);
    tcase_add_test(tc, test_region_open_on_many_is_one_report);
    tcase_add_test(tc, test_region_counters_add_up_to_the_run);
    tcase_add_test(tc, test_region_round_counters);
    tcase_add_test(tc, test_region_results_are_the_last_runs);
    tcase_add_test(tc, test_region_lines_in_each_format);
    suite_add_tcase(s, tc);
    tc = tcase_create("jitter");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_region_figures_do_not_depend_on_the_schedule);
    suite_add_tcase(s, tc);
    return s;
}
