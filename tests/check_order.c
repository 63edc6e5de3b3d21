/* check_order.c: the canonical order on topologies with links. Each case is a run whose model
 * figures once depended on the thread schedule (or that hung): it must give the same figures on
 * every run, with and without jitter, and where a figure is worked out by hand, that one.
 *
 * Costs are cm5's (tau = 88 us, sigma = 50 ns/byte, no overhead or hop cost). */
#include "hr_test.h"

#include <stdio.h>
#include <string.h>
#include <hremu/hremu.h>

#define US 1e-6
#define TOL 1e-12
#define MAXP 16

typedef struct order_out {
    double clock[MAXP];
    int    bad[MAXP];
} order_out;

/* Run body `runs` times, half of them under jitter; every run must end ok, with no processor
 * reporting bad data, and with the clocks of the first. The first run's clocks go to *first. */
static void same_every_run(hr_machine_config cfg, void (*body)(hr_proc *, void *), int runs,
                           order_out *first)
{
    for (int i = 0; i < runs; i++) {
        order_out o;
        memset(&o, 0, sizeof o);
        cfg.jitter = i % 2;
        hr_run_result res;
        hr_test_run(&cfg, body, &o, &res);
        ck_assert_msg(res.status == HR_OK, "run %d: %s", i, res.report);
        for (int q = 0; q < cfg.procs; q++)
            ck_assert_msg(o.bad[q] == 0, "run %d: P%d saw wrong data (%d)", i, q, o.bad[q]);
        if (i == 0) {
            *first = o;
            continue;
        }
        for (int q = 0; q < cfg.procs; q++)
            ck_assert_msg(o.clock[q] == first->clock[q],
                          "run %d: P%d ends at %.6f us, run 0 at %.6f us", i, q,
                          o.clock[q] / US, first->clock[q] / US);
    }
}

static hr_machine_config on(int p, const char *disc, const char *topology)
{
    hr_machine_config cfg = hr_test_config(p, disc);
    cfg.topology = topology;
    return cfg;
}

/* Fat tree, p = 16, sync: P0 sends 192 B to P1; P1 sends 448 B to P12 and receives P0's message
 * in one hr_sendrecv; P3 sends 384 B to P5. All three transfers start at 0 and are routed in key
 * order (0, P0), (0, P1), (0, P3): 1 -> 12 holds the up-link that 3 -> 5 shares for
 * 448 * 50 ns = 22.4 us ... from its start, so 3 -> 5 starts once 1 -> 12 has left the shared
 * link. docs/model.md's cut-through formula holds every link of the path until the transfer's
 * end: 3 -> 5 ends at 118.4 us (not 107.2 us, its time alone, nor 120 us, routed before 1 -> 12). */
static void body_sendrecv_fattree(hr_proc *p, void *arg)
{
    order_out *o = arg;
    char z[448], in[512];
    memset(z, 7, sizeof z);
    switch (hr_pid(p)) {
    case 0:
        hr_send(p, 1, 0, z, 192);
        break;
    case 1: {
        hr_status st;
        size_t n = hr_sendrecv(p, 12, 0, z, 448, 0, 0, in, sizeof in, &st);
        if (n != 192 || st.source != 0 || in[191] != 7)
            o->bad[1] = 1;
        break;
    }
    case 3:
        hr_send(p, 5, 0, z, 384);
        break;
    case 5:
    case 12: {
        size_t n = hr_recv(p, HR_ANY, 0, in, sizeof in, NULL);
        if (n != (hr_pid(p) == 5 ? 384u : 448u) || in[n - 1] != 7)
            o->bad[hr_pid(p)] = 1;
        break;
    }
    default:
        break;
    }
    o->clock[hr_pid(p)] = hr_now(p);
}

START_TEST(test_order_sync_sendrecv_on_fattree)
{
    order_out o;
    same_every_run(on(16, "sync", "fattree"), body_sendrecv_fattree, HR_TEST_TSAN ? 20 : 200, &o);
    /* P5: 384 B absorbed 88 + 19.2 us after its transfer starts, which waits for 1 -> 12. */
    ck_assert_double_eq_tol(o.clock[5], 118.4 * US, TOL);
}
END_TEST

/* A sync ring of 4: each processor posts two receives from any source and two sends of
 * 100 + 300 * ((7 * me + k) % 11) bytes to me + 1 and me + 2, then waits for all four. */
static void body_isend_ring(hr_proc *p, void *arg)
{
    order_out *o = arg;
    int me = hr_pid(p), n = hr_nprocs(p);
    static const char fill[4000] = { 1 };
    char in[2][4000];
    hr_request *r[4];
    r[0] = hr_irecv(p, HR_ANY, 0, in[0], sizeof in[0]);
    r[1] = hr_irecv(p, HR_ANY, 0, in[1], sizeof in[1]);
    for (int k = 1; k <= 2; k++)
        r[1 + k] = hr_isend(p, (me + k) % n, 0, fill, (size_t)(100 + 300 * ((7 * me + k) % 11)));
    hr_status st[4];
    hr_waitall(p, 4, r, st);
    /* From me - 1 and me - 2, in some order. */
    int a = st[0].source, b = st[1].source;
    if (!((a == (me + n - 1) % n && b == (me + n - 2) % n) ||
          (b == (me + n - 1) % n && a == (me + n - 2) % n)))
        o->bad[me] = 1;
    o->clock[me] = hr_now(p);
}

START_TEST(test_order_sync_isend_on_ring)
{
    order_out o;
    same_every_run(on(4, "sync", "ring"), body_isend_ring, HR_TEST_TSAN ? 20 : 100, &o);
}
END_TEST

/* Torus 4x4 (and rh 2 1), async: each processor computes a random while, then sends to every
 * other; then p - 1 receives from any source; then an allgather (or a transpose). */
static int after_any_coll;   /* 0: hr_allgather, 1: hr_transpose; set by the test, read-only */

static void body_any_then_coll(hr_proc *p, void *arg)
{
    order_out *o = arg;
    int me = hr_pid(p), n = hr_nprocs(p);
    char buf[1000], in[1000];
    memset(buf, me, sizeof buf);
    for (int k = 1; k < n; k++) {
        hr_compute(p, (double)hr_rand_below(p, 20000));
        hr_send(p, (me + k) % n, 0, buf, (size_t)(100 + 50 * ((me + k) % 12)));
    }
    for (int k = 1; k < n; k++)
        hr_recv(p, HR_ANY, 0, in, sizeof in, NULL);
    int64_t mine[MAXP], all[MAXP * MAXP];
    for (int i = 0; i < n; i++)
        mine[i] = 100 * me + i;
    if (after_any_coll == 0) {
        hr_allgather(p, mine, all, 8 * 8);
        for (int i = 0; i < n; i++)
            if (all[8 * i] != 100 * i)
                o->bad[me] = 1;
    } else {
        hr_transpose(p, mine, all, 8);
        for (int i = 0; i < n; i++)
            if (all[i] != 100 * i + me)
                o->bad[me] = 1;
    }
    o->clock[me] = hr_now(p);
}

START_TEST(test_order_any_then_collective)
{
    static const char *const topo[] = { "torus 4x4", "rh 2 1", "mesh 4x4" };
    int runs = HR_TEST_TSAN ? 6 : 40;
    for (int t = 0; t < 3; t++)
        for (int coll = 0; coll < 2; coll++) {
            after_any_coll = coll;
            hr_machine_config cfg = on(16, "async", topo[t]);
            cfg.switching = t == 2;      /* the mesh store-and-forward */
            order_out o;
            same_every_run(cfg, body_any_then_coll, runs, &o);
        }
}
END_TEST

/* Ring of 3: P0 posts a receive from any source, computes 200 us and tests it; P1's 1000 B sent
 * at 0 is in at 138 us, P2's sent at 150 us cannot arrive before 238 us: the test is true, with
 * P1's message, and the wait for the second receive takes P2's at 288 us. */
static void body_test_any(hr_proc *p, void *arg)
{
    order_out *o = arg;
    char buf[1000], in[1000];
    memset(buf, hr_pid(p), sizeof buf);
    switch (hr_pid(p)) {
    case 0: {
        hr_request *r = hr_irecv(p, HR_ANY, 0, in, sizeof in);
        hr_compute(p, 200e3);
        hr_status st;
        int done = hr_test(p, &r, &st);
        if (!done || st.source != 1 || in[0] != 1)
            o->bad[0] = 1;
        if (hr_iprobe(p, HR_ANY, 0, NULL) != 0)   /* P2's is not in by 200 us */
            o->bad[0] = 2;
        hr_recv(p, HR_ANY, 0, in, sizeof in, &st);
        if (st.source != 2 || in[0] != 2)
            o->bad[0] = 3;
        break;
    }
    case 1:
        hr_send(p, 0, 0, buf, sizeof buf);
        break;
    case 2:
        hr_compute(p, 150e3);
        hr_send(p, 0, 0, buf, sizeof buf);
        break;
    }
    o->clock[hr_pid(p)] = hr_now(p);
}

START_TEST(test_order_test_any_with_later_message_in_transit)
{
    order_out o;
    same_every_run(on(3, "async", "ring"), body_test_any, HR_TEST_TSAN ? 6 : 40, &o);
    /* The probe's "no" costs 1 ns at 200 us; the receive ends when P2's message is absorbed. */
    ck_assert_double_eq_tol(o.clock[0], 288 * US, 2e-9);
}
END_TEST

Suite *hr_order_suite(void)
{
    Suite *s = suite_create("order");
    TCase *tc = tcase_create("links");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_order_sync_sendrecv_on_fattree);
    tcase_add_test(tc, test_order_sync_isend_on_ring);
    tcase_add_test(tc, test_order_any_then_collective);
    tcase_add_test(tc, test_order_test_any_with_later_message_in_transit);
    suite_add_tcase(s, tc);
    return s;
}
