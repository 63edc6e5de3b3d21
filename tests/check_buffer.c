/* check_buffer.c: bounded receive buffers (async, buffer = BYTES): hand-computed stalls, the
 * deadlock of seed 002's AC with too small a buffer, and determinism. */
#include "hr_test.h"

#include <string.h>

typedef struct buf_out {
    double t[64];
    int    bad;
} buf_out;

/* P0 sends two 100-byte messages to P1, whose buffer holds one; P1 computes 1000 us first. */
static void body_stall(hr_proc *p, void *arg)
{
    buf_out *o = arg;
    char m[100] = { 0 };
    if (hr_pid(p) == 0) {
        hr_send(p, 1, 0, m, sizeof m);
        hr_send(p, 1, 0, m, sizeof m);
    } else {
        hr_compute(p, 1e6);
        hr_recv(p, 0, 0, m, sizeof m, NULL);
        hr_recv(p, 0, 0, m, sizeof m, NULL);
    }
    o->t[hr_pid(p)] = hr_now(p);
}

START_TEST(test_buffer_stall_hand_computed)
{
    /* cm5: 100 bytes = 5 us. msg 1 leaves at 0 and arrives at 88 us: admitted. msg 2 leaves at
     * 5 us, arrives at 93 us: the buffer holds msg 1, so it waits. P1 takes msg 1 at 1000 us
     * (absorbed long before); msg 2 is admitted then and absorbed by 1005 us. P0's second send
     * completes at 1000 us: one stall. */
    buf_out o = { 0 };
    hr_machine_config cfg = hr_test_config(2, NULL);
    cfg.buffer = 100;
    hr_run_result res;
    hr_test_run(&cfg, body_stall, &o, &res);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    ck_assert_double_eq_tol(o.t[0], 1000e-6, 1e-12);
    ck_assert_double_eq_tol(o.t[1], 1005e-6, 1e-12);
    ck_assert_uint_eq(res.stalls, 1);
    /* unbounded: no stall, P1 done at 1000 us, P0 at once */
    cfg.buffer = 0;
    hr_test_run(&cfg, body_stall, &o, &res);
    ck_assert_double_eq_tol(o.t[0], 0, 1e-12);
    ck_assert_double_eq_tol(o.t[1], 1000e-6, 1e-12);
    ck_assert_uint_eq(res.stalls, 0);
}
END_TEST

/* Seed 002's AC: every processor sends all its messages, then receives. */
static void body_ac(hr_proc *p, void *arg)
{
    buf_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    char m[100];
    memset(m, me, sizeof m);
    for (int k = 1; k < n; k++)
        for (int r = 0; r < 3; r++)
            hr_send(p, (me + k) % n, 0, m, sizeof m);
    for (int k = 0; k < 3 * (n - 1); k++) {
        hr_status st;
        hr_recv(p, HR_ANY, 0, m, sizeof m, &st);
        if (m[0] != st.source)
            o->bad = 1;
    }
    o->t[me] = hr_now(p);
}

START_TEST(test_buffer_ac_deadlocks_when_too_small)
{
    buf_out o = { 0 };
    hr_machine_config cfg = hr_test_config(4, NULL);
    cfg.buffer = 250;              /* 9 messages of 100 bytes arrive at each processor */
    hr_run_result res;
    hr_test_run(&cfg, body_ac, &o, &res);
    ck_assert_int_eq(res.status, HR_EDEADLK);
    ck_assert_msg(strstr(res.report, "receive buffer is full") != NULL, "%s", res.report);
    ck_assert_msg(strstr(res.report, "P0 waits in hr_send to P") != NULL, "%s", res.report);
}
END_TEST

START_TEST(test_buffer_ac_runs_when_large_enough)
{
    buf_out a = { 0 }, b = { 0 };
    hr_machine_config cfg = hr_test_config(4, NULL);
    hr_run_result ra, rb;
    cfg.buffer = 900;
    hr_test_run(&cfg, body_ac, &a, &ra);
    ck_assert_msg(ra.status == HR_OK, "%s", ra.report);
    ck_assert_uint_eq(ra.stalls, 0);
    cfg.buffer = 0;
    hr_test_run(&cfg, body_ac, &b, &rb);
    ck_assert_int_eq(a.bad + b.bad, 0);
    /* room for everything: the same model times as an unbounded buffer */
    ck_assert(ra.model_time_s == rb.model_time_s);
    for (int i = 0; i < 4; i++)
        ck_assert(a.t[i] == b.t[i]);
}
END_TEST

/* A ring pipeline through buffers that hold one message: send right, receive left, with random
 * work, so that senders stall whenever their right neighbour is behind. */
static void body_ring_pipe(hr_proc *p, void *arg)
{
    buf_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    char m[100] = { 0 };
    for (int j = 0; j < 20; j++) {
        hr_compute(p, (double)hr_rand_below(p, 500000));
        hr_send(p, (me + 1) % n, 1, m, 60 + hr_rand_below(p, 41));
        hr_compute(p, (double)hr_rand_below(p, 500000));
        hr_recv(p, (me + n - 1) % n, 1, m, sizeof m, NULL);
    }
    o->t[me] = hr_now(p);
}

START_TEST(test_buffer_deterministic_under_jitter)
{
    buf_out a = { 0 }, b = { 0 };
    hr_machine_config cfg = hr_test_config(16, NULL);
    cfg.buffer = 100;
    hr_run_result ra, rb;
    hr_test_run(&cfg, body_ring_pipe, &a, &ra);
    ck_assert_msg(ra.status == HR_OK, "%s", ra.report);
    ck_assert_uint_gt(ra.stalls, 0);
    cfg.jitter = 1;
    for (int rep = 0; rep < 3; rep++) {
        memset(&b, 0, sizeof b);
        hr_test_run(&cfg, body_ring_pipe, &b, &rb);
        ck_assert_int_eq(rb.status, HR_OK);
        ck_assert(ra.model_time_s == rb.model_time_s);
        ck_assert_uint_eq(ra.stalls, rb.stalls);
        for (int i = 0; i < 16; i++)
            ck_assert(a.t[i] == b.t[i]);
    }
    /* and the AC deadlock report is the same every time */
    cfg = hr_test_config(16, NULL);
    cfg.buffer = 130;
    hr_test_run(&cfg, body_ac, &a, &ra);
    cfg.jitter = 1;
    hr_test_run(&cfg, body_ac, &b, &rb);
    ck_assert_int_eq(ra.status, HR_EDEADLK);
    ck_assert_str_eq(ra.report, rb.report);
}
END_TEST

START_TEST(test_buffer_message_larger_than_buffer_fails)
{
    buf_out o = { 0 };
    hr_machine_config cfg = hr_test_config(2, NULL);
    cfg.buffer = 50;
    hr_run_result res;
    hr_test_run(&cfg, body_stall, &o, &res);
    ck_assert_int_eq(res.status, HR_EMISUSE);
    ck_assert_msg(strstr(res.report, "can never fit in P1's 50-byte receive buffer") != NULL, "%s",
                  res.report);
}
END_TEST

Suite *hr_buffer_suite(void)
{
    Suite *s = suite_create("buffer");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_buffer_stall_hand_computed);
    tcase_add_test(tc, test_buffer_ac_deadlocks_when_too_small);
    tcase_add_test(tc, test_buffer_ac_runs_when_large_enough);
    tcase_add_test(tc, test_buffer_deterministic_under_jitter);
    tcase_add_test(tc, test_buffer_message_larger_than_buffer_fails);
    suite_add_tcase(s, tc);
    return s;
}
