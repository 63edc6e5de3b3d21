/* check_nonblock.c: hr_isend, hr_irecv, hr_wait, hr_waitall, hr_test, hr_iprobe.
 *
 * Costs are cm5's (tau = 88 us, sigma = 50 ns/byte, no overhead, so a failed test or probe costs
 * 1 ns), worked out by hand from docs/model.md: a 1000-byte message sent at s arrives at s + 88 us
 * and is absorbed by s + 138 us. */
#include "hr_test.h"

#include <stdio.h>
#include <string.h>
#include <hremu/hremu.h>

#define US 1e-6
#define TOL 1e-12

/* Per-processor figures a body records for the test to check. */
typedef struct nb_out {
    double clock[16];
    int    count[16];
    int    bad[16];
} nb_out;

static void run_ok(hr_machine_config cfg, void (*body)(hr_proc *, void *), nb_out *out,
                   hr_run_result *res)
{
    memset(out, 0, sizeof *out);
    hr_test_run(&cfg, body, out, res);
    ck_assert_msg(res->status == HR_OK, "%s", res->report);
    for (int i = 0; i < 16; i++)
        ck_assert_msg(out->bad[i] == 0, "P%d saw wrong data (%d)", i, out->bad[i]);
}

/* Under sync, a receive posted before a long computation lets the rendezvous run meanwhile:
 * issue 0, post 0, so the transfer ends at 138 us, inside P1's 200 us of work. A blocking
 * receive after the work would post at 200 us and end at 338 us. */
static void body_posted_early(hr_proc *p, void *arg)
{
    nb_out *o = arg;
    char buf[1000];
    if (hr_pid(p) == 0) {
        memset(buf, 5, sizeof buf);
        hr_request *r = hr_isend(p, 1, 3, buf, sizeof buf);
        hr_wait(p, &r, NULL);
        if (r != NULL)
            o->bad[0] = 1;
    } else {
        hr_request *r = hr_irecv(p, 0, 3, buf, sizeof buf);
        hr_compute(p, 200e3);
        hr_status st;
        size_t len = hr_wait(p, &r, &st);
        if (len != sizeof buf || st.source != 0 || st.tag != 3 || buf[999] != 5 || r != NULL)
            o->bad[1] = 1;
    }
    o->clock[hr_pid(p)] = hr_now(p);
}

START_TEST(test_nonblock_posted_receive_absorbs_in_background)
{
    nb_out o;
    hr_run_result res;
    for (int jitter = 0; jitter < 2; jitter++) {
        hr_machine_config cfg = hr_test_config(2, "sync");
        cfg.jitter = jitter;
        run_ok(cfg, body_posted_early, &o, &res);
        ck_assert_double_eq_tol(o.clock[0], 138 * US, TOL);
        ck_assert_double_eq_tol(o.clock[1], 200 * US, TOL);
        cfg.discipline = "async";
        run_ok(cfg, body_posted_early, &o, &res);
        ck_assert_double_eq_tol(o.clock[0], 0, TOL);
        ck_assert_double_eq_tol(o.clock[1], 200 * US, TOL);
    }
}
END_TEST

/* Two messages with one tag; P1 posts a receive from any source, then one from P0, and waits for
 * the second first: messages match receives in posting order, so the first receive still gets
 * the first message. */
static void body_posting_order(hr_proc *p, void *arg)
{
    nb_out *o = arg;
    int a = 1, b = 2, x = 0, y = 0;
    if (hr_pid(p) == 0) {
        hr_send(p, 1, 4, &a, sizeof a);
        hr_send(p, 1, 4, &b, sizeof b);
        return;
    }
    hr_request *first = hr_irecv(p, HR_ANY, 4, &x, sizeof x);
    hr_request *second = hr_irecv(p, 0, 4, &y, sizeof y);
    hr_status st;
    hr_wait(p, &second, &st);
    if (y != 2 || st.source != 0)
        o->bad[1] = 1;
    hr_wait(p, &first, &st);
    if (x != 1 || st.source != 0 || st.bytes != sizeof x)
        o->bad[1] = 2;
    /* A blocking receive completes the pending receives that could take its message first. */
    int z = 0;
    hr_request *third = hr_irecv(p, HR_ANY, HR_ANY_TAG, &z, sizeof z);
    hr_send(p, 1, 9, &a, sizeof a);
    hr_send(p, 1, 9, &b, sizeof b);
    hr_recv(p, 1, 9, &y, sizeof y, NULL);
    if (z != 1 || y != 2 || third == NULL)
        o->bad[1] = 3;
    hr_wait(p, &third, &st);
    if (st.tag != 9 || st.source != 1)
        o->bad[1] = 4;
}

START_TEST(test_nonblock_receives_match_in_posting_order)
{
    nb_out o;
    hr_run_result res;
    for (int jitter = 0; jitter < 2; jitter++) {
        hr_machine_config cfg = hr_test_config(2, NULL);
        cfg.jitter = jitter;
        run_ok(cfg, body_posting_order, &o, &res);
    }
}
END_TEST

/* P0 computes 100 us and sends 1000 bytes: in at P1 by 238 us (arrival 188 us). P1 polls with
 * 10 us of work between tests, each failed test costing 1 ns: test k happens at
 * k * 10.001 us, and the first at or past 238 us is k = 24 (240.024 us). With hr_iprobe the
 * arrival counts: k = 19 (190.019 us), then hr_recv ends at 238 us. */
typedef struct poll_arg {
    nb_out out;
    int    probe;
} poll_arg;

static void body_poll(hr_proc *p, void *arg)
{
    poll_arg *pa = arg;
    nb_out *o = &pa->out;
    char buf[1000];
    int me = hr_pid(p), probe = pa->probe;
    if (me > 1)
        return;
    if (me == 0) {
        hr_compute(p, 100e3);
        memset(buf, 7, sizeof buf);
        hr_send(p, 1, 0, buf, sizeof buf);
        return;
    }
    if (probe) {
        hr_status st;
        while (!hr_iprobe(p, HR_ANY, HR_ANY_TAG, &st)) {
            o->count[me]++;
            hr_compute(p, 10e3);
        }
        if (st.source != 0 || st.bytes != sizeof buf || hr_now(p) > 190.02 * US)
            o->bad[me] = 1;
        hr_recv(p, 0, 0, buf, sizeof buf, NULL);
    } else {
        hr_request *r = hr_irecv(p, 0, 0, buf, sizeof buf);
        while (!hr_test(p, &r, NULL)) {
            o->count[me]++;
            hr_compute(p, 10e3);
        }
        if (r != NULL)
            o->bad[me] = 1;
    }
    if (buf[0] != 7)
        o->bad[me] = 2;
    o->clock[me] = hr_now(p);
}

START_TEST(test_nonblock_test_and_iprobe_answer_by_the_clock)
{
    static const char *const topo[2] = { "complete", "ring" };
    for (int t = 0; t < 2; t++)
        for (int jitter = 0; jitter < 2; jitter++)
            for (int probe = 0; probe < 2; probe++) {
                poll_arg a = { .probe = probe };
                hr_machine_config cfg = hr_test_config(4, NULL);
                cfg.topology = topo[t];
                cfg.jitter = jitter;
                hr_run_result res;
                hr_test_run(&cfg, body_poll, &a, &res);
                ck_assert_msg(res.status == HR_OK, "%s", res.report);
                ck_assert_int_eq(a.out.bad[1], 0);
                ck_assert_int_eq(a.out.count[1], probe ? 19 : 24);
                ck_assert_double_eq_tol(a.out.clock[1], probe ? 238 * US : 240.024 * US, TOL);
            }
}
END_TEST

/* A sync send tested in a loop: P1 posts its receive at 100 us, so the rendezvous ends at
 * 238 us, and P0's test k at k * 10.001 us first sees it done at k = 24. */
static void body_sync_send_test(hr_proc *p, void *arg)
{
    nb_out *o = arg;
    char buf[1000];
    int me = hr_pid(p);
    if (me == 0) {
        memset(buf, 9, sizeof buf);
        hr_request *r = hr_isend(p, 1, 0, buf, sizeof buf);
        while (!hr_test(p, &r, NULL)) {
            o->count[0]++;
            hr_compute(p, 10e3);
        }
    } else {
        hr_compute(p, 100e3);
        hr_recv(p, 0, 0, buf, sizeof buf, NULL);
        if (buf[500] != 9)
            o->bad[1] = 1;
    }
    o->clock[me] = hr_now(p);
}

START_TEST(test_nonblock_sync_send_test)
{
    for (int jitter = 0; jitter < 2; jitter++) {
        nb_out o;
        hr_run_result res;
        hr_machine_config cfg = hr_test_config(2, "sync");
        cfg.jitter = jitter;
        run_ok(cfg, body_sync_send_test, &o, &res);
        ck_assert_int_eq(o.count[0], 24);
        ck_assert_double_eq_tol(o.clock[0], 240.024 * US, TOL);
        ck_assert_double_eq_tol(o.clock[1], 238 * US, TOL);
    }
}
END_TEST

/* Every processor exchanges with both ring neighbours by hr_isend and hr_irecv, then hr_waitall
 * (sends listed first: waitall completes the receives first, so sync cannot deadlock). Under
 * async and sync, on complete and on a ring: both 1000-byte messages leave at 0 and 50 us (the
 * injection port), arrive at 88 and 138 us, are absorbed by 138 and 188 us. */
static void body_neighbours(hr_proc *p, void *arg)
{
    nb_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p), left = (me + n - 1) % n, right = (me + 1) % n;
    char out[2][1000], in[2][1000];
    memset(out[0], me, sizeof out[0]);
    memset(out[1], me + 100, sizeof out[1]);
    hr_request *r[4];
    r[0] = hr_isend(p, right, 1, out[0], sizeof out[0]);
    r[1] = hr_isend(p, left, 2, out[1], sizeof out[1]);
    r[2] = hr_irecv(p, left, 1, in[0], sizeof in[0]);
    r[3] = hr_irecv(p, right, 2, in[1], sizeof in[1]);
    hr_status st[4];
    hr_waitall(p, 4, r, st);
    for (int i = 0; i < 4; i++)
        if (r[i] != NULL)
            o->bad[me] = 1;
    if (in[0][999] != (char)left || in[1][0] != (char)(right + 100) || st[2].source != left ||
        st[3].source != right || st[3].tag != 2)
        o->bad[me] = 2;
    o->clock[me] = hr_now(p);
}

START_TEST(test_nonblock_waitall_exchange)
{
    static const char *const disc[2] = { "async", "sync" };
    static const char *const topo[2] = { "complete", "ring" };
    for (int d = 0; d < 2; d++)
        for (int t = 0; t < 2; t++)
            for (int jitter = 0; jitter < 2; jitter++) {
                nb_out o;
                hr_run_result res;
                hr_machine_config cfg = hr_test_config(8, disc[d]);
                cfg.topology = topo[t];
                cfg.jitter = jitter;
                run_ok(cfg, body_neighbours, &o, &res);
                ck_assert_double_eq_tol(res.model_time_s, 188 * US, TOL);
            }
}
END_TEST

/* All to all by receives from any source, in the virtual-arrival order, checked against a
 * sequential expectation: P_i's messages leave at k * 5 us for its k-th destination (i+k mod n)
 * and arrive 88 us later, so each receiver sees its sources in order of k = (me - src) mod n,
 * and the whole run is the same under jitter, on complete and on a torus. */
static void body_any_all(hr_proc *p, void *arg)
{
    nb_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    char out[100], in[16][100];
    hr_request *r[32];
    memset(out, me, sizeof out);
    for (int k = 1; k < n; k++)
        r[k - 1] = hr_irecv(p, HR_ANY, 0, in[k], sizeof in[k]);
    for (int k = 1; k < n; k++)
        r[n - 2 + k] = hr_isend(p, (me + k) % n, 0, out, sizeof out);
    hr_status st[32];
    hr_waitall(p, 2 * (n - 1), r, st);
    for (int k = 1; k < n; k++)
        if (st[k - 1].source != (me - k + n) % n || in[k][0] != (char)st[k - 1].source)
            o->bad[me] = k;
}

START_TEST(test_nonblock_any_order_deterministic)
{
    static const char *const topo[2] = { "complete", "torus 4x4" };
    for (int t = 0; t < 2; t++) {
        double first = -1;
        for (int run = 0; run < 12; run++) {
            nb_out o;
            hr_run_result res;
            hr_machine_config cfg = hr_test_config(16, NULL);
            cfg.topology = topo[t];
            cfg.jitter = run % 2;
            memset(&o, 0, sizeof o);
            hr_test_run(&cfg, body_any_all, &o, &res);
            ck_assert_msg(res.status == HR_OK, "%s", res.report);
            if (t == 0)
                for (int i = 0; i < 16; i++)
                    ck_assert_msg(o.bad[i] == 0, "P%d: source %d out of order", i, o.bad[i]);
            if (first < 0)
                first = res.model_time_s;
            ck_assert_msg(res.model_time_s == first, "%s run %d: %.12g against %.12g", topo[t],
                          run, res.model_time_s, first);
        }
    }
}
END_TEST

/* Two processors wait for each other's message, which neither sends. */
static void body_wait_deadlock(hr_proc *p, void *arg)
{
    (void)arg;
    int x;
    hr_request *r = hr_irecv(p, 1 - hr_pid(p), 5, &x, sizeof x);
    hr_wait(p, &r, NULL);
}

static void body_left_pending(hr_proc *p, void *arg)
{
    (void)arg;
    static int x[2];
    if (hr_pid(p) == 0)
        (void)hr_irecv(p, 1, 0, &x[0], sizeof x[0]);
}

static void body_misuse(hr_proc *p, void *arg)
{
    (void)arg;
    int x;
    if (hr_pid(p) == 0)
        (void)hr_irecv(p, 0, -3, &x, sizeof x);
}

/* Polls for a message nobody can send any more end the run after 2^20 of them in a row,
 * naming what was polled for; polls for one that is still to come, or in flight from a
 * processor that finished, do not. arg: 0 a test from any source, 1 a probe from P1, 2 a
 * test whose message P1 sent before it finished (it arrives 88 us later: 88,000 polls). */
static void body_futile_poll(hr_proc *p, void *arg)
{
    int kind = *(int *)arg, x = 7, y = 0;
    if (hr_pid(p) == 1) {
        if (kind == 2)
            hr_send(p, 0, 7, &x, sizeof x);
        return;
    }
    hr_status st;
    if (kind == 1) {
        while (!hr_iprobe(p, 1, 0, &st))
            continue;
        return;
    }
    hr_request *r = hr_irecv(p, HR_ANY, 7, &y, sizeof y);
    while (!hr_test(p, &r, &st))
        continue;
    if (y != 7)
        hr_fail(p, "got %d", y);
}

START_TEST(test_nonblock_futile_poll_ends)
{
    static const char *const engine[2] = { "threads", "fibers" };
    static const char *const want[2] = {
        "P0: hr_test: polled 1048576 times in a row for a message from any processor with tag "
        "7 (the other processor has finished and none is queued): a loop that cannot end",
        "P0: hr_iprobe: polled 1048576 times in a row for a message from P1 with tag 0 (it has "
        "finished and none is queued): a loop that cannot end" };
    for (int e = 0; e < 2; e++)
        for (int kind = 0; kind < 3; kind++) {
            hr_machine_config cfg = hr_test_config(2, NULL);
            cfg.engine = engine[e];
            hr_run_result res;
            hr_test_run(&cfg, body_futile_poll, &kind, &res);
            if (kind == 2) {
                ck_assert_msg(res.status == HR_OK, "%s", res.report);
                continue;
            }
            ck_assert_int_eq(res.status, HR_EFAIL);
            ck_assert_msg(strstr(res.report, want[kind]) != NULL, "%s", res.report);
            /* Poll k, each 1 ns, is at k ns; from 88 us on (P1 finished at 0, plus tau) none
             * can succeed, and the 2^20-th of those fails before its own nanosecond: the
             * same model time on both engines. */
            ck_assert_double_eq_tol(res.model_time_s, 88e-6 + 1048575e-9, 1e-12);
        }
}
END_TEST

START_TEST(test_nonblock_deadlock_and_misuse)
{
    hr_run_result res;
    hr_machine_config cfg = hr_test_config(2, NULL);
    hr_test_run(&cfg, body_wait_deadlock, NULL, &res);
    ck_assert_int_eq(res.status, HR_EDEADLK);
    ck_assert_msg(strstr(res.report, "P0 waits in hr_wait from P1 (tag 5)") != NULL, "%s",
                  res.report);
    ck_assert_msg(strstr(res.report, "P1 waits in hr_wait from P0 (tag 5)") != NULL, "%s",
                  res.report);
    hr_test_run(&cfg, body_left_pending, NULL, &res);
    ck_assert_int_eq(res.status, HR_EMISUSE);
    ck_assert_msg(strstr(res.report, "P0: misuse: returned with 1 request not completed") != NULL, "%s",
                  res.report);
    hr_test_run(&cfg, body_misuse, NULL, &res);
    ck_assert_int_eq(res.status, HR_EMISUSE);
    ck_assert_msg(strstr(res.report, "hr_irecv: tag -3 is negative") != NULL, "%s", res.report);
}
END_TEST

/* A sync send left pending when its sender returns is still taken safely, then reported. */
static void body_pending_sync_send(hr_proc *p, void *arg)
{
    nb_out *o = arg;
    int x = 42, y = 0;
    if (hr_pid(p) == 0) {
        (void)hr_isend(p, 1, 0, &x, sizeof x);
        return;
    }
    hr_recv(p, 0, 0, &y, sizeof y, NULL);
    if (y != 42)
        o->bad[1] = 1;
}

START_TEST(test_nonblock_pending_sync_send_at_return)
{
    nb_out o;
    memset(&o, 0, sizeof o);
    hr_run_result res;
    hr_machine_config cfg = hr_test_config(2, "sync");
    hr_test_run(&cfg, body_pending_sync_send, &o, &res);
    ck_assert_int_eq(res.status, HR_EMISUSE);
    ck_assert_int_eq(o.bad[1], 0);
    ck_assert_msg(strstr(res.report, "returned with 1 request not completed") != NULL, "%s",
                  res.report);
}
END_TEST

/* hr_sendrecv and hr_waitall whose receives name a tag the partner never sends: under async and
 * sync both processors wait, and the report names the call and the unmatched message. */
static void body_sendrecv_wrong_tag(hr_proc *p, void *arg)
{
    int x = 1, y, other = 1 - hr_pid(p);
    if (*(int *)arg) {
        hr_sendrecv(p, other, 1, &x, sizeof x, other, 2, &y, sizeof y, NULL);
        return;
    }
    hr_request *r[2] = { hr_isend(p, other, 1, &x, sizeof x), hr_irecv(p, other, 2, &y, sizeof y) };
    hr_waitall(p, 2, r, NULL);
}

START_TEST(test_nonblock_sendrecv_and_waitall_deadlock)
{
    static const char *const disc[2] = { "async", "sync" };
    static const char *const call[2] = { "hr_waitall", "hr_sendrecv" };
    for (int d = 0; d < 2; d++)
        for (int sr = 0; sr < 2; sr++) {
            hr_machine_config cfg = hr_test_config(2, disc[d]);
            hr_run_result res;
            hr_test_run(&cfg, body_sendrecv_wrong_tag, &sr, &res);
            ck_assert_int_eq(res.status, HR_EDEADLK);
            char want[160];
            snprintf(want, sizeof want, "P0 waits in %s from P1 (tag 2) at model time 0 s; "
                     "unmatched: P1 tag 1 (4 bytes)\n", call[sr]);
            ck_assert_msg(strstr(res.report, want) != NULL, "%s: %s", disc[d], res.report);
        }
}
END_TEST

/* A copy of a request handle kept after hr_wait completed the request (and set the handle to
 * NULL): waiting on the copy is refused by name, not read after a free (ASan checks the
 * latter); so is a handle listed twice in hr_waitall, and another processor's request. */
static hr_request *shared_req[2];

static void body_stale_request(hr_proc *p, void *arg)
{
    int how = *(const int *)arg, x = hr_pid(p), y;
    hr_request *r = hr_irecv(p, 1 - hr_pid(p), 0, &y, sizeof y);
    hr_request *s = hr_isend(p, 1 - hr_pid(p), 0, &x, sizeof x);
    if (how == 2) {
        shared_req[hr_pid(p)] = r;
        hr_barrier(p);
        if (hr_pid(p) == 0)
            hr_wait(p, &shared_req[1], NULL);     /* P1's */
        hr_wait(p, &r, NULL);
        hr_wait(p, &s, NULL);
        return;
    }
    hr_request *copy = r;
    hr_request *both[3] = { r, s, r };
    if (how == 1) {
        hr_waitall(p, 3, both, NULL);
        return;
    }
    hr_wait(p, &r, NULL);
    hr_wait(p, &s, NULL);
    hr_wait(p, &copy, NULL);                      /* completed already */
}

START_TEST(test_nonblock_stale_request_is_misuse)
{
    static const char *const want[3] = {
        "P0 and P1: misuse: hr_wait: the request was completed already",
        "P0 and P1: misuse: hr_waitall: the request was completed already",
        "P0: misuse: hr_wait: the request is P1's, not this processor's",
    };
    for (int how = 0; how < 3; how++) {
        hr_machine_config cfg = hr_test_config(2, how == 1 ? "sync" : NULL);
        hr_run_result res;
        hr_test_run(&cfg, body_stale_request, &how, &res);
        ck_assert_int_eq(res.status, HR_EMISUSE);
        ck_assert_msg(strstr(res.report, want[how]) == res.report, "case %d: %s", how, res.report);
    }
}
END_TEST

Suite *hr_nonblock_suite(void)
{
    Suite *s = suite_create("nonblock");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_nonblock_posted_receive_absorbs_in_background);
    tcase_add_test(tc, test_nonblock_receives_match_in_posting_order);
    tcase_add_test(tc, test_nonblock_test_and_iprobe_answer_by_the_clock);
    tcase_add_test(tc, test_nonblock_sync_send_test);
    tcase_add_test(tc, test_nonblock_waitall_exchange);
    tcase_add_test(tc, test_nonblock_any_order_deterministic);
    tcase_add_test(tc, test_nonblock_futile_poll_ends);
    tcase_add_test(tc, test_nonblock_deadlock_and_misuse);
    tcase_add_test(tc, test_nonblock_pending_sync_send_at_return);
    tcase_add_test(tc, test_nonblock_sendrecv_and_waitall_deadlock);
    tcase_add_test(tc, test_nonblock_stale_request_is_misuse);
    suite_add_tcase(s, tc);
    return s;
}
