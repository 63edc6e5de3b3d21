/* check_superstep.c: barriers, hr_sync and one-sided puts and gets: values, order, cost. */
#include "hr_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

typedef struct ss_out {
    int  arr[8][8];
    int  got[8];
    int  bad;
} ss_out;

/* Everyone writes its id into slot `me` of everyone's array, and reads the right neighbour's
 * element 0 in the same superstep (it must see the old value). */
static void body_put_get(hr_proc *p, void *arg)
{
    ss_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    int *a = o->arr[me];
    for (int k = 0; k < n; k++)
        a[k] = -1;
    a[0] = 100 + me;
    int slot = hr_register(p, a, sizeof(int) * (size_t)n);
    hr_sync(p);                              /* everyone registered and initialised */
    for (int d = 0; d < n; d++)
        if (d != me)
            hr_put(p, d, slot, sizeof(int) * (size_t)me, &me, sizeof me);
    hr_get(p, (me + 1) % n, slot, 0, &o->got[me], sizeof(int));
    /* two writers to element 0 of processor 0: the higher source id must win */
    if (me == 2 || me == 1)
        hr_put(p, 0, slot, 0, &me, sizeof me);
    hr_sync(p);
}

START_TEST(test_superstep_put_get_values_and_order)
{
    ss_out o;
    memset(&o, 0, sizeof o);
    hr_machine_config cfg = hr_test_config(4, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_put_get, &o, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_uint_eq(res.rounds, 2);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(o.got[i], 100 + (i + 1) % 4);    /* the value before the puts */
        for (int k = 0; k < 4; k++) {
            /* element k is written by processor k, except one's own (untouched, -1) and P0's
             * element 0, written by P1 then P2: P2 wins */
            int want = k != i ? k : i == 0 ? 2 : -1;
            ck_assert_msg(o.arr[i][k] == want, "arr[%d][%d] = %d, want %d", i, k, o.arr[i][k],
                          want);
        }
    }
}
END_TEST

static void body_sync_only(hr_proc *p, void *arg)
{
    (void)arg;
    hr_sync(p);
}

static void body_put_cost(hr_proc *p, void *arg)
{
    (void)arg;
    static char mem[2][1000];
    int slot = hr_register(p, mem[hr_pid(p)], 1000);
    if (hr_pid(p) == 1)
        hr_put(p, 0, slot, 0, mem[1], 1000);
    hr_sync(p);
}

START_TEST(test_superstep_cost)
{
    hr_run_result res;
    /* a dissemination barrier: ceil(lg p) rounds of tau; p = 8 and p = 5 both take 3 */
    hr_machine_config cfg = hr_test_config(8, NULL);
    hr_test_run(&cfg, body_sync_only, NULL, &res);
    ck_assert_double_eq_tol(res.model_time_s, 3 * 88e-6, 1e-12);
    ck_assert_uint_eq(res.messages, 8 * 3);
    cfg = hr_test_config(5, NULL);
    hr_test_run(&cfg, body_sync_only, NULL, &res);
    ck_assert_double_eq_tol(res.model_time_s, 3 * 88e-6, 1e-12);
    cfg = hr_test_config(1, NULL);
    hr_test_run(&cfg, body_sync_only, NULL, &res);
    ck_assert_double_eq_tol(res.model_time_s, 0, 1e-12);
    /* a 1000-byte put P1 -> P0: absorbed at P0 by tau + 50 us; P1 then hears P0's barrier
     * message tau later: 2 tau + 50 us = 226 us */
    cfg = hr_test_config(2, NULL);
    hr_test_run(&cfg, body_put_cost, NULL, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_double_eq_tol(res.model_time_s, 226e-6, 1e-12);
}
END_TEST

/* P0 puts 1000 bytes on P2 and P1 on P3. On ring 4 the two share link 1-2: 0 -> 2 goes first
 * (its key is less), 1 -> 3 waits 50 us for the link; P2 has its data at 88 + 50 = 138 us, P3 at
 * 50 + 88 + 50 = 188 us. The dissemination barrier from (0, 0, 138, 188) then ends at 364 us,
 * where complete gives P3 138 us and the barrier ends at 314 us (rounds worked out below). */
static void body_shared_puts(hr_proc *p, void *arg)
{
    (void)arg;
    static char region[4][1000], data[1000];
    int me = hr_pid(p);
    int slot = hr_register(p, region[me], sizeof region[me]);
    if (me < 2)
        hr_put(p, me + 2, slot, 0, data, sizeof data);
    hr_sync(p);
}

START_TEST(test_superstep_puts_share_links)
{
    /* barrier rounds, d = 1 then 2, t_i = max(t_i, t_(i-d) + tau):
     *   ring:     (0, 0, 138, 188) -> (276, 88, 138, 226) -> (276, 314, 364, 226)
     *   complete: (0, 0, 138, 138) -> (226, 88, 138, 226) -> (226, 314, 314, 226) */
    hr_run_result res;
    hr_machine_config cfg = hr_test_config(4, NULL);
    hr_test_run(&cfg, body_shared_puts, NULL, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_double_eq_tol(res.model_time_s, 314e-6, 1e-12);
    cfg.topology = "ring";
    for (int jitter = 0; jitter <= 1; jitter++)
        for (int k = 0; k < 5; k++) {
            cfg.jitter = jitter;
            hr_test_run(&cfg, body_shared_puts, NULL, &res);
            ck_assert_int_eq(res.status, HR_OK);
            ck_assert_double_eq_tol(res.model_time_s, 364e-6, 1e-12);
        }
}
END_TEST

static void body_bad_put(hr_proc *p, void *arg)
{
    (void)arg;
    int x = 0;
    hr_register(p, &x, sizeof x);
    if (hr_pid(p) == 1)
        hr_put(p, 0, 0, 2, &x, sizeof x);    /* bytes 2..6 of a 4-byte region */
    hr_sync(p);
}

START_TEST(test_superstep_bad_put_fails)
{
    hr_machine_config cfg = hr_test_config(2, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_bad_put, NULL, &res);
    ck_assert_int_eq(res.status, HR_EMISUSE);
    ck_assert_msg(strstr(res.report, "P1: misuse: hr_put: bytes 2..6 are outside P0's slot 0") != NULL,
                  "%s", res.report);
}
END_TEST

/* Many barriers in a row with uneven work: clocks stay in step, nobody passes early. */
static void body_many_barriers(hr_proc *p, void *arg)
{
    int *count = arg;
    for (int k = 0; k < 200; k++) {
        hr_compute(p, (double)((hr_pid(p) * 7 + k) % 13));
        hr_barrier(p);
        count[hr_pid(p)]++;
    }
}

START_TEST(test_superstep_many_barriers)
{
    int count[64] = { 0 };
    hr_machine_config cfg = hr_test_config(64, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_many_barriers, count, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_uint_eq(res.rounds, 200);
    for (int i = 0; i < 64; i++)
        ck_assert_int_eq(count[i], 200);
}
END_TEST

/* Half the processors end a superstep with hr_sync, half with hr_barrier: whether P1's put lands
 * would depend on who arrives last, so the run fails and says who called which. */
static void body_mixed(hr_proc *p, void *arg)
{
    int *cell = arg;
    int me = hr_pid(p), x = 7;
    int slot = hr_register(p, &cell[me], sizeof cell[me]);
    hr_sync(p);
    if (me == 1)
        hr_put(p, 0, slot, 0, &x, sizeof x);
    if (me % 2 == 0)
        hr_sync(p);
    else
        hr_barrier(p);
    hr_sync(p);
}

START_TEST(test_superstep_mixed_sync_and_barrier_fails)
{
    for (int jitter = 0; jitter <= 1; jitter++)
        for (int k = 0; k < 6; k++) {
            int cell[4] = { 0 };
            hr_machine_config cfg = hr_test_config(4, NULL);
            cfg.jitter = jitter;
            hr_run_result res;
            hr_test_run(&cfg, body_mixed, cell, &res);
            ck_assert_int_eq(res.status, HR_EFAIL);
            ck_assert_msg(strstr(res.report, "hr_sync and hr_barrier in one superstep") != NULL &&
                              strstr(res.report, "P0, P2 called hr_sync") != NULL &&
                              strstr(res.report, "P1, P3 called hr_barrier") != NULL,
                          "%s", res.report);
            ck_assert_int_eq(cell[0], 0);   /* the put was not applied */
        }
}
END_TEST

/* A put after the last hr_sync never takes effect: the run says so instead of dropping it. */
static void body_late_put(hr_proc *p, void *arg)
{
    int *cell = arg;
    int me = hr_pid(p), x = 5;
    int slot = hr_register(p, &cell[me], sizeof cell[me]);
    hr_sync(p);
    if (me == 1) {
        hr_put(p, 0, slot, 0, &x, sizeof x);
        hr_put(p, 0, slot, 0, &x, sizeof x);
    }
}

START_TEST(test_superstep_put_after_last_sync_fails)
{
    int cell[2] = { 0 };
    hr_machine_config cfg = hr_test_config(2, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_late_put, cell, &res);
    ck_assert_int_eq(res.status, HR_EMISUSE);
    ck_assert_msg(strstr(res.report, "P1: misuse: 2 hr_put or hr_get calls after the last hr_sync never "
                                     "took effect") != NULL, "%s", res.report);
    ck_assert_int_eq(cell[0], 0);
}
END_TEST

/* hr_sync orders the superstep's transfers in memory of its own: when that memory is refused, the
 * run fails with a report instead of the process aborting. P0 issues many puts, then limits the
 * address space (this forked test process only) so that the ordering's array no longer fits.
 * The array (32 bytes a transfer, 80 MB) is larger than a thread's malloc arena may ever be (64
 * MB), so it can only come from a new mapping, which the limit refuses. */
enum { LATE_PUTS = 2500000 };

static void body_sync_oom(hr_proc *p, void *arg)
{
    struct rlimit *old = arg;
    static int cell[2];
    int me = hr_pid(p), x = 1;
    int slot = hr_register(p, &cell[me], sizeof cell[me]);
    hr_sync(p);
    if (me == 0) {
        for (int k = 0; k < LATE_PUTS; k++)
            hr_put(p, 1, slot, 0, &x, 0);   /* zero bytes: only the records take memory */
        if (hr_test_limit_memory(1u << 20, old) != 0)
            hr_fail(p, "cannot limit the address space");
    }
    hr_sync(p);
}

START_TEST(test_superstep_sync_out_of_memory_fails_the_run)
{
    if (!hr_test_may_limit_memory())
        HR_TEST_SKIP("limits the address space: only with the plain allocator, in a forked test");
    struct rlimit old;
    ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);   /* restored below, whatever P0 did */
    hr_machine_config cfg = hr_test_config(2, NULL);
    hr_machine *m = NULL;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    hr_run_result res;
    ck_assert_int_eq(hr_machine_run(m, body_sync_oom, &old, &res), HR_OK);
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
    hr_machine_destroy(m);
    ck_assert_int_eq(res.status, HR_EFAIL);
    char want[128];
    snprintf(want, sizeof want, "hr_sync: out of memory ordering the superstep's %d transfers",
             LATE_PUTS);
    ck_assert_msg(strstr(res.report, want) != NULL, "%s", res.report);
}
END_TEST

/* BSP on p = 4 with cm5 (tau 88 us, sigma 0.05 us a byte, no overhead): the supersteps' figures
 * by hand. A barrier round is tau, and there are two. Clocks in us.
 *   1: register only; the barrier: 176 long, h 0.
 *   2: each puts k = 1000 bytes on its right neighbour, then 3k on its left: h = 4k, out and in,
 *      on every processor. The second put leaves at 176 + 50; the receiver has the first by
 *      176 + 88 + 50 = 314 and the second by 314 + 150 = 464, then the barrier: 640. Length
 *      464 = g h + tau + 2 tau (g = sigma: 200 us for h = 4000).
 *   3: P_i works (i+1) us: w = 4 us. The barrier from 641, 642, 643, 644 leaves at 818, 819, 820
 *      and 817 (round 1: 732, 729, 730, 731; round 2: each max(t_i, t_(i-2) + 88)): 180 long.
 *   4: P0 gets 2000 bytes from each of P1..P3, all three requests at 818; each reply is in at
 *      818 + 2 tau + 100 = 1094 and they are absorbed one after another: P0 ready at 1394, the
 *      others at 819, 820, 817; the barrier leaves at 1394, 1482, 1482, 1570: 750 long; h 6000.
 * The lengths add up to the run's model time, 1570 us. */
static void body_bsp(hr_proc *p, void *arg)
{
    (void)arg;
    enum { K = 1000 };
    static char in[4][4 * K], out[4][3 * K], got[3][2000];
    int me = hr_pid(p), n = hr_nprocs(p);
    int slot = hr_register(p, in[me], sizeof in[me]);
    hr_sync(p);
    hr_put(p, (me + 1) % n, slot, 0, out[me], K);
    hr_put(p, (me + n - 1) % n, slot, K, out[me], 3 * K);
    hr_sync(p);
    hr_compute(p, (me + 1) * 1000.0);
    hr_sync(p);
    if (me == 0)
        for (int k = 1; k < n; k++)
            hr_get(p, k, slot, 0, got[k - 1], sizeof got[k - 1]);
    hr_sync(p);
}

START_TEST(test_superstep_bsp_figures_by_hand)
{
    hr_machine_config cfg = hr_test_config(4, NULL);
    for (int jitter = 0; jitter <= 1; jitter++) {
        cfg.jitter = jitter;
        hr_machine *m = NULL;
        ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
        hr_run_result res;
        ck_assert_int_eq(hr_machine_run(m, body_bsp, NULL, &res), HR_OK);
        ck_assert_msg(res.status == HR_OK, "%s", res.report);
        ck_assert_uint_eq(hr_machine_supersteps(m), 4);
        static const struct {
            double   time, sum, work;
            uint64_t msgs, bytes, h;
        } want[4] = {
            { 176, 4 * 176, 0, 8, 0, 0 },
            { 464, 4 * 464, 0, 8 + 8, 4 * 4000, 4000 },
            { 180, 178 + 179 + 180 + 177, 4, 8, 0, 0 },
            { 750, 576 + 663 + 662 + 753, 0, 3 + 3 + 8, 6000, 6000 },
        };
        double total = 0;
        for (size_t s = 0; s < 4; s++) {
            hr_superstep_result r;
            ck_assert_int_eq(hr_machine_superstep_result(m, s, &r), HR_OK);
            ck_assert_double_eq_tol(r.time_s, want[s].time * 1e-6, 1e-12);
            ck_assert_double_eq_tol(r.time_sum_s, want[s].sum * 1e-6, 1e-12);
            ck_assert_double_eq_tol(r.work_s, want[s].work * 1e-6, 1e-12);
            ck_assert_uint_eq(r.messages, want[s].msgs);
            ck_assert_uint_eq(r.bytes, want[s].bytes);
            ck_assert_uint_eq(r.h, want[s].h);
            total += r.time_s;
        }
        hr_superstep_result r;
        ck_assert_int_eq(hr_machine_superstep_result(m, 4, &r), HR_EINVAL);
        ck_assert_double_eq_tol(total, res.model_time_s, 1e-12);
        ck_assert_double_eq_tol(res.model_time_s, 1570e-6, 1e-12);
        /* A barrier ends no superstep; a run without hr_sync has none. */
        ck_assert_int_eq(hr_machine_run(m, body_sync_only, NULL, &res), HR_OK);
        ck_assert_uint_eq(hr_machine_supersteps(m), 1);
        ck_assert_int_eq(hr_machine_run(m, body_many_barriers, (int[64]){ 0 }, &res), HR_OK);
        ck_assert_uint_eq(hr_machine_supersteps(m), 0);
        hr_machine_destroy(m);
    }
}
END_TEST

Suite *hr_superstep_suite(void)
{
    Suite *s = suite_create("superstep");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_superstep_put_get_values_and_order);
    tcase_add_test(tc, test_superstep_cost);
    tcase_add_test(tc, test_superstep_puts_share_links);
    tcase_add_test(tc, test_superstep_bad_put_fails);
    tcase_add_test(tc, test_superstep_many_barriers);
    tcase_add_test(tc, test_superstep_mixed_sync_and_barrier_fails);
    tcase_add_test(tc, test_superstep_put_after_last_sync_fails);
    tcase_add_test(tc, test_superstep_sync_out_of_memory_fails_the_run);
    tcase_add_test(tc, test_superstep_bsp_figures_by_hand);
    suite_add_tcase(s, tc);
    return s;
}
