/* check_p2p.c: point-to-point semantics and cost: FIFO per source, tags, virtual-arrival order of
 * receives from ANY whatever the real-time order, blocking exchange steps, rendezvous costs. */
#include "hr_test.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

typedef struct p2p_out {
    int    order[64];
    int    norder;
    int    bad;
    double t[64];
} p2p_out;

/* P1..P3 compute (model time) before sending to P0; the one that computed least must come first
 * from ANY, even though it is made to send last in real time. */
static void body_any_order(hr_proc *p, void *arg)
{
    p2p_out *o = arg;
    int me = hr_pid(p);
    static const double work[] = { 0, 3000, 1000, 2000, 1000 };   /* units of 1 ns */
    if (me == 0) {
        for (int k = 1; k < hr_nprocs(p); k++) {
            int v;
            hr_status st;
            hr_recv(p, HR_ANY, HR_ANY_TAG, &v, sizeof v, &st);
            if (v != st.source || st.bytes != sizeof v)
                o->bad = 1;
            o->order[o->norder++] = v;
        }
        return;
    }
    hr_compute(p, work[me]);
    if (me == 2) {     /* the earliest in model time is the latest in real time */
        struct timespec ts = { 0, 20 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    hr_send(p, 0, 0, &me, sizeof me);
}

START_TEST(test_p2p_any_is_virtual_arrival_order)
{
    p2p_out o = { 0 };
    hr_machine_config cfg = hr_test_config(5, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_any_order, &o, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_int_eq(o.bad, 0);
    /* arrivals: P2 and P4 at 1 us + tau (tie: lower id first), P3 at 2 us, P1 at 3 us */
    ck_assert_int_eq(o.order[0], 2);
    ck_assert_int_eq(o.order[1], 4);
    ck_assert_int_eq(o.order[2], 3);
    ck_assert_int_eq(o.order[3], 1);
}
END_TEST

/* Messages from one source keep their order; a tag picks past others. */
static void body_fifo_tags(hr_proc *p, void *arg)
{
    p2p_out *o = arg;
    if (hr_pid(p) == 1) {
        for (int k = 0; k < 10; k++)
            hr_send(p, 0, k % 2, &k, sizeof k);
        return;
    }
    int v;
    for (int k = 1; k < 10; k += 2) {          /* all tag-1 messages first, in order */
        hr_recv(p, 1, 1, &v, sizeof v, NULL);
        o->order[o->norder++] = v;
    }
    hr_status st;
    hr_probe(p, 1, HR_ANY_TAG, &st);
    if (st.tag != 0 || st.bytes != sizeof v)
        o->bad = 1;
    for (int k = 0; k < 10; k += 2) {
        hr_recv(p, 1, HR_ANY_TAG, &v, sizeof v, NULL);
        o->order[o->norder++] = v;
    }
}

START_TEST(test_p2p_fifo_per_source_and_tags)
{
    p2p_out o = { 0 };
    hr_machine_config cfg = hr_test_config(2, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_fifo_tags, &o, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_int_eq(o.bad, 0);
    static const int want[] = { 1, 3, 5, 7, 9, 0, 2, 4, 6, 8 };
    ck_assert_int_eq(o.norder, 10);
    for (int k = 0; k < 10; k++)
        ck_assert_int_eq(o.order[k], want[k]);
}
END_TEST

/* p-1 blocking exchange steps with partner me XOR i (p a power of two). */
static void body_exchange(hr_proc *p, void *arg)
{
    size_t m = *(size_t *)arg;
    char *buf = hr_calloc(p, 1, m), *in = hr_malloc(p, m);
    for (int i = 1; i < hr_nprocs(p); i++) {
        int partner = hr_pid(p) ^ i;
        hr_send(p, partner, 0, buf, m);
        hr_recv(p, partner, 0, in, m, NULL);
    }
}

START_TEST(test_p2p_blocking_steps_pay_latency_each)
{
    /* 7 steps of tau + sigma*m: 7 * (88 + 0.05 * 400) us = 7 * 108 us = 756 us */
    size_t m = 400;
    hr_machine_config cfg = hr_test_config(8, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_exchange, &m, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_double_eq_tol(res.model_time_s, 756e-6, 1e-12);
    ck_assert_uint_eq(res.messages, 8 * 7);
    ck_assert_uint_eq(res.max_out_bytes, 7 * 400);
}
END_TEST

/* Non-blocking sends pipeline: P0 sends k messages of m bytes to P1..Pk, each receiver finishes
 * at its message's injection end + tau: the last at k sigma m + tau. */
static void body_pipeline(hr_proc *p, void *arg)
{
    (void)arg;
    char buf[1000] = { 0 };
    if (hr_pid(p) == 0)
        for (int d = 1; d < hr_nprocs(p); d++)
            hr_send(p, d, 0, buf, sizeof buf);
    else
        hr_recv(p, 0, 0, buf, sizeof buf, NULL);
}

START_TEST(test_p2p_sends_pipeline)
{
    hr_machine_config cfg = hr_test_config(6, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_pipeline, NULL, &res);
    /* 5 sends of 1000 bytes: 5 * 50 us + 88 us = 338 us, not 5 taus */
    ck_assert_double_eq_tol(res.model_time_s, 338e-6, 1e-12);
}
END_TEST

/* Node contention: 4 senders to one receiver at once serialise at its port. */
static void body_contention(hr_proc *p, void *arg)
{
    (void)arg;
    char buf[1000] = { 0 };
    if (hr_pid(p) != 0) {
        hr_send(p, 0, 0, buf, sizeof buf);
        return;
    }
    for (int k = 1; k < hr_nprocs(p); k++)
        hr_recv(p, HR_ANY, 0, buf, sizeof buf, NULL);
}

START_TEST(test_p2p_receiver_serialises)
{
    hr_machine_config cfg = hr_test_config(5, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_contention, NULL, &res);
    /* all arrive at tau; absorbed one after another: tau + 4 * 50 us = 288 us */
    ck_assert_double_eq_tol(res.model_time_s, 288e-6, 1e-12);
    ck_assert_uint_eq(res.max_in_bytes, 4000);
}
END_TEST

/* Rendezvous: the transfer starts when the receive is posted. */
static void body_sync(hr_proc *p, void *arg)
{
    p2p_out *o = arg;
    char buf[1000] = { 0 };
    if (hr_pid(p) == 0) {
        hr_send(p, 1, 0, buf, sizeof buf);    /* at 0 */
        o->t[0] = hr_now(p);
    } else {
        hr_compute(p, 500000);                /* 500 us */
        hr_recv(p, 0, 0, buf, sizeof buf, NULL);
        o->t[1] = hr_now(p);
    }
}

START_TEST(test_p2p_sync_is_rendezvous)
{
    p2p_out o = { 0 };
    hr_machine_config cfg = hr_test_config(2, "sync");
    hr_run_result res;
    hr_test_run(&cfg, body_sync, &o, &res);
    ck_assert_int_eq(res.status, HR_OK);
    /* starts at 500 us, + tau + sigma*m = 500 + 88 + 50 = 638 us, for both */
    ck_assert_double_eq_tol(o.t[0], 638e-6, 1e-12);
    ck_assert_double_eq_tol(o.t[1], 638e-6, 1e-12);
    /* the same program under async: P0 is done at once; the message is absorbed in the background
     * from tau = 88 us to 138 us while P1 computes, so P1 is done at 500 us */
    memset(&o, 0, sizeof o);
    cfg = hr_test_config(2, "async");
    hr_test_run(&cfg, body_sync, &o, &res);
    ck_assert_double_eq_tol(o.t[0], 0, 1e-12);
    ck_assert_double_eq_tol(o.t[1], 500e-6, 1e-12);
}
END_TEST

/* eager: the program of body_sync, with m bytes. */
static void body_eager(hr_proc *p, void *arg)
{
    p2p_out *o = arg;
    static char buf[5000];
    size_t m = (size_t)o->norder;
    if (hr_pid(p) == 0) {
        hr_send(p, 1, 0, buf, m);             /* at 0 */
        o->t[0] = hr_now(p);
    } else {
        hr_compute(p, 500000);                /* 500 us */
        hr_recv(p, 0, 0, buf, sizeof buf, NULL);
        o->t[1] = hr_now(p);
    }
}

static void run_eager(size_t m, uint64_t limit, double t0, double t1)
{
    p2p_out o = { .norder = (int)m };
    hr_machine_config cfg = hr_test_config(2, "eager");
    cfg.eager_limit = limit;
    hr_run_result res;
    hr_test_run(&cfg, body_eager, &o, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_double_eq_tol(o.t[0], t0, 1e-12);
    ck_assert_double_eq_tol(o.t[1], t1, 1e-12);
    ck_assert_uint_eq(res.stalls, t0 > 0);
}

/* Two senders to one receive from any source under eager: P1's 100 bytes are copied, P2's 5000
 * rendezvous. */
static void body_eager_any(hr_proc *p, void *arg)
{
    p2p_out *o = arg;
    static char buf[3][5000];
    int me = hr_pid(p);
    if (me == 0) {
        hr_compute(p, 500000);
        for (int k = 0; k < 2; k++) {
            hr_status st;
            hr_recv(p, HR_ANY, 0, buf[0], sizeof buf[0], &st);
            o->order[k] = st.source;
            o->t[k] = hr_now(p);
        }
    } else {
        hr_send(p, 0, 0, buf[me], me == 1 ? 100 : 5000);
        o->t[me + 1] = hr_now(p);
    }
}

/* eager: up to eager_limit bytes a send is async, above it a rendezvous (cm5: tau = 88 us,
 * sigma = 50 ns a byte). */
START_TEST(test_p2p_eager_limit)
{
    /* 1000 bytes up to the limit: as async, P0 is done at 0, P1 absorbed them while it computed */
    run_eager(1000, 1000, 0, 500e-6);
    /* one byte past it: as sync, the transfer starts at the post, 500 + 88 + 50 = 638 us */
    run_eager(1000, 999, 638e-6, 638e-6);
    /* the default limit, 4096 bytes: 1000 bytes are copied, 5000 are a rendezvous of
     * 500 + 88 + 250 = 838 us */
    run_eager(1000, 0, 0, 500e-6);
    run_eager(5000, 0, 838e-6, 838e-6);

    /* From any source: P1's copied message arrived at 88 us and was absorbed by 93 us, so the
     * first receive (posted at 500 us) takes it at once; P2's rendezvous is keyed by
     * max(issue, post) + tau = 588 us, and its transfer ends at 588 + 250 = 838 us. */
    p2p_out o = { 0 };
    hr_machine_config cfg = hr_test_config(3, "eager");
    hr_run_result res;
    hr_test_run(&cfg, body_eager_any, &o, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_int_eq(o.order[0], 1);
    ck_assert_int_eq(o.order[1], 2);
    ck_assert_double_eq_tol(o.t[0], 500e-6, 1e-12);
    ck_assert_double_eq_tol(o.t[1], 838e-6, 1e-12);
    ck_assert_double_eq_tol(o.t[2], 0, 1e-12);
    ck_assert_double_eq_tol(o.t[3], 838e-6, 1e-12);
    ck_assert_uint_eq(res.stalls, 1);
}
END_TEST

/* A message too long for the buffer, a bad destination, a negative tag: failures, not crashes. */
static void body_misuse(hr_proc *p, void *arg)
{
    int what = *(int *)arg;
    char buf[8] = { 0 };
    if (what == 0) {
        if (hr_pid(p) == 0)
            hr_send(p, 1, 0, buf, 8);
        else
            hr_recv(p, 0, 0, buf, 4, NULL);
    } else if (what == 1) {
        hr_send(p, hr_nprocs(p), 0, buf, 1);
    } else {
        hr_send(p, 0, -3, buf, 1);
    }
}

START_TEST(test_p2p_misuse_fails_the_run)
{
    static const char *want[] = { "does not fit", "does not exist", "negative" };
    for (int what = 0; what < 3; what++) {
        hr_machine_config cfg = hr_test_config(2, NULL);
        hr_run_result res;
        hr_test_run(&cfg, body_misuse, &what, &res);
        ck_assert_int_eq(res.status, HR_EMISUSE);
        ck_assert_msg(strstr(res.report, want[what]) != NULL, "report: %s", res.report);
    }
}
END_TEST

/* Many processors, ANY receives, self messages: everyone sends to everyone, receives from ANY. */
static void body_all_any(hr_proc *p, void *arg)
{
    p2p_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    for (int k = 0; k < n; k++) {
        int d = (me + k) % n, v = me * 1000 + d;
        hr_compute(p, (double)(hr_rand_below(p, 100)));
        hr_send(p, d, 3, &v, sizeof v);
    }
    long sum = 0;
    for (int k = 0; k < n; k++) {
        int v;
        hr_status st;
        hr_recv(p, HR_ANY, 3, &v, sizeof v, &st);
        if (v != st.source * 1000 + me)
            o->bad = 1;
        sum += st.source;
    }
    if (sum != (long)n * (n - 1) / 2)
        o->bad = 1;
    o->t[me] = hr_now(p);
}

START_TEST(test_p2p_all_to_all_any_is_deterministic)
{
    p2p_out a = { 0 }, b = { 0 };
    hr_machine_config cfg = hr_test_config(32, NULL);
    hr_run_result ra, rb;
    hr_test_run(&cfg, body_all_any, &a, &ra);
    cfg.jitter = 1;
    hr_test_run(&cfg, body_all_any, &b, &rb);
    ck_assert_int_eq(a.bad + b.bad, 0);
    ck_assert_int_eq(ra.status, HR_OK);
    ck_assert(ra.model_time_s == rb.model_time_s);
    for (int i = 0; i < 32; i++)
        ck_assert(a.t[i] == b.t[i]);
}
END_TEST

/* A probe returns when the message has arrived, and the clock says so: P1 sends P0 1000 bytes at
 * 0 (in at tau = 88 us); P0 probes, answers with an empty message (in at 88 + 88 us), then takes
 * the first (done at 88 + 50 us). Had the probe left P0's clock at 0, P1 would be done at 88. */
static void body_probe_then_answer(hr_proc *p, void *arg)
{
    double *t = arg;
    char buf[1000] = { 0 };
    if (hr_pid(p) == 1) {
        hr_send(p, 0, 0, buf, sizeof buf);
        hr_recv(p, 0, 1, NULL, 0, NULL);
    } else {
        hr_probe(p, 1, 0, NULL);
        t[0] = hr_now(p);
        hr_send(p, 1, 1, NULL, 0);
        hr_recv(p, 1, 0, buf, sizeof buf, NULL);
    }
    t[1 + hr_pid(p)] = hr_now(p);
}

START_TEST(test_p2p_probe_waits_for_the_arrival)
{
    double t[3] = { 0 };
    hr_machine_config cfg = hr_test_config(2, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_probe_then_answer, t, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_double_eq_tol(t[0], 88e-6, 1e-12);
    ck_assert_double_eq_tol(t[1], 138e-6, 1e-12);
    ck_assert_double_eq_tol(t[2], 176e-6, 1e-12);
}
END_TEST

/* A ring shift by hr_sendrecv: every processor sends right and receives from the left in one
 * step, under sync too (a send-then-receive ring deadlocks there), on complete and on a ring
 * of links: one message time, 88 + 50 us for 1000 bytes, and every value where it belongs. */
static void body_sendrecv_ring(hr_proc *p, void *arg)
{
    int *bad = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    char out[1000], in[1000];
    memset(out, me, sizeof out);
    hr_status st;
    size_t len = hr_sendrecv(p, (me + 1) % n, 7, out, sizeof out, (me + n - 1) % n, 7, in,
                             sizeof in, &st);
    if (len != sizeof in || st.source != (me + n - 1) % n || st.tag != 7 ||
        in[0] != (char)((me + n - 1) % n) || in[999] != in[0])
        bad[me] = 1;
}

START_TEST(test_p2p_sendrecv_ring_is_one_step)
{
    static const char *const disc[2] = { "async", "sync" };
    static const char *const topo[2] = { "complete", "ring" };
    for (int d = 0; d < 2; d++)
        for (int t = 0; t < 2; t++)
            for (int jitter = 0; jitter < 2; jitter++) {
                int bad[8] = { 0 };
                hr_machine_config cfg = hr_test_config(8, disc[d]);
                cfg.topology = topo[t];
                cfg.jitter = jitter;
                hr_run_result res;
                hr_test_run(&cfg, body_sendrecv_ring, bad, &res);
                ck_assert_msg(res.status == HR_OK, "%s on %s: %s", disc[d], topo[t], res.report);
                ck_assert_double_eq_tol(res.model_time_s, 138e-6, 1e-12);
                ck_assert_uint_eq(res.steps, 1);
                for (int i = 0; i < 8; i++)
                    ck_assert_int_eq(bad[i], 0);
            }
}
END_TEST

/* Steps: P0 sends to P1, P2 and P3 in turn (steps 1, 2, 3), P3 passes its message to P4
 * (step 4), which sends to itself under async (no step); P5 and P6 swap one message each (step 1) and P6
 * sends to P7 after (step 2). By hand: 4 steps; per processor, the step of its last message. */
static void body_steps(hr_proc *p, void *arg)
{
    (void)arg;
    int me = hr_pid(p), v = me;
    if (me == 0)
        for (int d = 1; d <= 3; d++)
            hr_send(p, d, 0, &v, sizeof v);
    if (me >= 1 && me <= 3)
        hr_recv(p, 0, 0, &v, sizeof v, NULL);
    if (me == 3)
        hr_send(p, 4, 0, &v, sizeof v);
    if (me == 4) {
        hr_recv(p, 3, 0, &v, sizeof v, NULL);
        if (strcmp(hr_discipline(p), "async") == 0) {   /* under sync it would wait for itself */
            hr_send(p, 4, 1, &v, sizeof v);
            hr_recv(p, 4, 1, &v, sizeof v, NULL);
        }
    }
    if (me == 5 || me == 6)
        hr_sendrecv(p, 11 - me, 0, &me, sizeof me, 11 - me, 0, &v, sizeof v, NULL);
    if (me == 6)
        hr_send(p, 7, 0, &v, sizeof v);
    if (me == 7)
        hr_recv(p, 6, 0, &v, sizeof v, NULL);
}

START_TEST(test_p2p_steps_are_the_longest_chain)
{
    static const uint64_t want[8] = { 3, 1, 2, 4, 4, 1, 2, 2 };
    for (int d = 0; d < 2; d++)
        for (int nb = 0; nb < 2; nb++) {
            hr_machine_config cfg = hr_test_config(8, d ? "sync" : "async");
            cfg.jitter = 1;
            hr_machine *m;
            ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
            hr_machine_neighbour_only(m, nb);
            hr_run_result res;
            ck_assert_int_eq(hr_machine_run(m, body_steps, NULL, &res), HR_OK);
            ck_assert_msg(res.status == HR_OK, "%s", res.report);
            ck_assert_uint_eq(res.steps, 4);
            /* Under neighbour_only the rounds column counts steps; else calls (none here). */
            ck_assert_uint_eq(res.rounds, nb ? 4 : 0);
            for (int i = 0; i < 8; i++) {
                hr_proc_result pr;
                ck_assert_int_eq(hr_machine_proc_result(m, i, &pr), HR_OK);
                ck_assert_uint_eq(pr.steps, want[i]);
            }
            hr_machine_destroy(m);
        }
}
END_TEST

/* What the machine tells its algorithm is what it was built with. */
typedef struct asked {
    char     disc[16];
    hr_cost  cost;
    uint64_t buffer;
    int      store_forward;
} asked;

static void body_ask(hr_proc *p, void *arg)
{
    asked *a = arg;
    if (hr_pid(p) != 1)
        return;
    snprintf(a->disc, sizeof a->disc, "%s", hr_discipline(p));
    a->cost = hr_costs(p);
    a->buffer = hr_buffer(p);
    a->store_forward = hr_store_forward(p);
}

START_TEST(test_p2p_machine_queries)
{
    hr_machine_config cfg = hr_test_config(4, "sync");
    cfg.cost.overhead = 3e-6;
    cfg.cost.hop = 1e-7;
    cfg.topology = "ring";
    cfg.switching = 1;
    asked a;
    hr_run_result res;
    hr_test_run(&cfg, body_ask, &a, &res);
    ck_assert_str_eq(a.disc, "sync");
    ck_assert_double_eq(a.cost.tau, 88e-6);
    ck_assert_double_eq(a.cost.sigma, 1.0 / 20e6);
    ck_assert_double_eq(a.cost.overhead, 3e-6);
    ck_assert_double_eq(a.cost.hop, 1e-7);
    ck_assert_int_eq(a.cost.measured, 0);
    ck_assert_int_eq(a.buffer, 0);
    ck_assert_int_eq(a.store_forward, 1);
    cfg = hr_test_config(4, NULL);
    cfg.buffer = 4096;
    hr_test_run(&cfg, body_ask, &a, &res);
    ck_assert_str_eq(a.disc, "async");
    ck_assert_int_eq(a.buffer, 4096);
    ck_assert_int_eq(a.store_forward, 0);
}
END_TEST

/* Messages sent and never received are counted and named when the run ends ok: P0's two of tag
 * 3 to P1 and P2's one of tag 0 to P1, none received; P3's to P1 is received. */
static void body_unreceived(hr_proc *p, void *arg)
{
    (void)arg;
    int x = hr_pid(p);
    if (hr_pid(p) == 0) {
        hr_send(p, 1, 3, &x, sizeof x);
        hr_send(p, 1, 3, &x, sizeof x);
    } else if (hr_pid(p) == 2) {
        hr_send(p, 1, 0, &x, sizeof x);
    } else if (hr_pid(p) == 3) {
        hr_send(p, 1, 5, &x, sizeof x);
    } else {
        hr_recv(p, 3, 5, &x, sizeof x, NULL);
    }
}

START_TEST(test_p2p_unreceived_messages_are_named)
{
    static const char *const topo[2] = { "complete", "ring" };
    for (int t = 0; t < 2; t++) {
        hr_machine_config cfg = hr_test_config(4, NULL);
        cfg.topology = topo[t];
        hr_run_result res;
        hr_test_run(&cfg, body_unreceived, NULL, &res);
        ck_assert_msg(res.status == HR_OK, "%s", res.report);
        ck_assert_uint_eq(res.unreceived, 3);
        ck_assert_str_eq(res.unreceived_why, "P0 -> P1 tag 3: 2 messages (8 bytes); "
                                             "P2 -> P1 tag 0: 1 message (4 bytes)");
    }
}
END_TEST

Suite *hr_p2p_suite(void)
{
    Suite *s = suite_create("p2p");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_p2p_any_is_virtual_arrival_order);
    tcase_add_test(tc, test_p2p_unreceived_messages_are_named);
    tcase_add_test(tc, test_p2p_fifo_per_source_and_tags);
    tcase_add_test(tc, test_p2p_blocking_steps_pay_latency_each);
    tcase_add_test(tc, test_p2p_sends_pipeline);
    tcase_add_test(tc, test_p2p_receiver_serialises);
    tcase_add_test(tc, test_p2p_sync_is_rendezvous);
    tcase_add_test(tc, test_p2p_eager_limit);
    tcase_add_test(tc, test_p2p_misuse_fails_the_run);
    tcase_add_test(tc, test_p2p_all_to_all_any_is_deterministic);
    tcase_add_test(tc, test_p2p_probe_waits_for_the_arrival);
    tcase_add_test(tc, test_p2p_sendrecv_ring_is_one_step);
    tcase_add_test(tc, test_p2p_steps_are_the_longest_chain);
    tcase_add_test(tc, test_p2p_machine_queries);
    suite_add_tcase(s, tc);
    return s;
}
