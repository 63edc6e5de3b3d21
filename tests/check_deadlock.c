/* check_deadlock.c: a stuck machine ends at once with a report of who waits for whom. */
#include "hr_test.h"

#include <string.h>

/* Two processors that both do a sync send to each other first. */
static void body_sync_cross(hr_proc *p, void *arg)
{
    (void)arg;
    int v = 1, other = 1 - hr_pid(p);
    hr_send(p, other, 0, &v, sizeof v);
    hr_recv(p, other, 0, &v, sizeof v, NULL);
}

/* On both engines: the report is the resolver's, which the fiber engine shares. */
START_TEST(test_deadlock_sync_cross_send)
{
    static const char *const engines[] = { "threads", "fibers" };
    hr_machine_config cfg = hr_test_config(2, "sync");
    hr_run_result res;
    for (int e = 0; e < 2; e++) {
        cfg.engine = engines[e];
        hr_test_run(&cfg, body_sync_cross, NULL, &res);
        ck_assert_int_eq(res.status, HR_EDEADLK);
        ck_assert_msg(strstr(res.report, "P0 waits in hr_send (sync) to P1") != NULL, "%s: %s",
                      engines[e], res.report);
        ck_assert_msg(strstr(res.report, "P1 waits in hr_send (sync) to P0") != NULL, "%s: %s",
                      engines[e], res.report);
    }
    cfg.engine = NULL;
    /* the same program is fine with buffered sends */
    cfg = hr_test_config(2, "async");
    hr_test_run(&cfg, body_sync_cross, NULL, &res);
    ck_assert_int_eq(res.status, HR_OK);
}
END_TEST

/* A ring of receives: each waits for its left neighbour, nobody sends. */
static void body_ring(hr_proc *p, void *arg)
{
    (void)arg;
    int v, n = hr_nprocs(p);
    hr_recv(p, (hr_pid(p) + n - 1) % n, 5, &v, sizeof v, NULL);
}

START_TEST(test_deadlock_ring_of_receives)
{
    hr_machine_config cfg = hr_test_config(5, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_ring, NULL, &res);
    ck_assert_int_eq(res.status, HR_EDEADLK);
    ck_assert_msg(strstr(res.report, "P3 waits in hr_recv from P2 (tag 5)") != NULL, "%s",
                  res.report);
    ck_assert_msg(strstr(res.report, "P0 waits in hr_recv from P4 (tag 5)") != NULL, "%s",
                  res.report);
}
END_TEST

/* One returns at once, one waits for a message nobody sends; the others wait in a barrier that
 * neither reaches. */
static void body_partial(hr_proc *p, void *arg)
{
    (void)arg;
    int v;
    if (hr_pid(p) == 0)
        hr_recv(p, HR_ANY, HR_ANY_TAG, &v, sizeof v, NULL);
    else if (hr_pid(p) == 1)
        return;
    else
        hr_barrier(p);
}

START_TEST(test_deadlock_mixed_waits)
{
    hr_machine_config cfg = hr_test_config(4, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_partial, NULL, &res);
    ck_assert_int_eq(res.status, HR_EDEADLK);
    ck_assert_msg(strstr(res.report, "P0 waits in hr_recv from any processor") != NULL, "%s",
                  res.report);
    ck_assert_msg(strstr(res.report, "P2 waits in hr_barrier") != NULL, "%s", res.report);
    /* P1 waits for nothing: it is named as having returned, the cause of the barrier's wait */
    ck_assert(strstr(res.report, "P1 waits") == NULL);
    ck_assert_msg(strstr(res.report, "P1 has returned from the algorithm") != NULL, "%s",
                  res.report);
}
END_TEST

/* A processor that fails while others wait for it ends the run as failed, not deadlocked. */
static void body_fail(hr_proc *p, void *arg)
{
    (void)arg;
    int v = 0;
    if (hr_pid(p) == 2)
        hr_fail(p, "bad input %d", 42);
    hr_recv(p, 2, 0, &v, sizeof v, NULL);
}

START_TEST(test_deadlock_failure_is_not_deadlock)
{
    hr_machine_config cfg = hr_test_config(3, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_fail, NULL, &res);
    ck_assert_int_eq(res.status, HR_EFAIL);
    ck_assert_msg(strstr(res.report, "P2: bad input 42") != NULL, "%s", res.report);
}
END_TEST

static void body_ring_ok(hr_proc *p, void *arg)
{
    (void)arg;
    int v = hr_pid(p), n = hr_nprocs(p);
    hr_send(p, (hr_pid(p) + 1) % n, 5, &v, sizeof v);
    hr_recv(p, (hr_pid(p) + n - 1) % n, 5, &v, sizeof v, NULL);
}

/* A machine survives a deadlocked run: the next run on it is clean. */
START_TEST(test_deadlock_machine_reusable)
{
    hr_machine_config cfg = hr_test_config(64, NULL);
    hr_machine *m;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    hr_run_result res;
    ck_assert_int_eq(hr_machine_run(m, body_ring, NULL, &res), HR_OK);
    ck_assert_int_eq(res.status, HR_EDEADLK);
    ck_assert(strstr(res.report, "more processors waiting") != NULL);
    ck_assert_int_eq(hr_machine_run(m, body_ring_ok, NULL, &res), HR_OK);
    ck_assert_int_eq(res.status, HR_OK);
    hr_machine_destroy(m);
}
END_TEST

/* Three senders fill P0's 64-byte receive buffer while P0 waits on a tag nobody sends: every
 * processor waits, and none has returned. The report must say exactly that, whatever the
 * schedule: it is built before the abort lets the waiters leave. */
static void body_full_buffer(hr_proc *p, void *arg)
{
    (void)arg;
    char blk[32] = { 0 };
    if (hr_pid(p) == 0) {
        hr_recv(p, HR_ANY, 9, blk, sizeof blk, NULL);
        return;
    }
    for (int k = 0; k < 4; k++)
        hr_send(p, 0, 1, blk, sizeof blk);
}

START_TEST(test_deadlock_report_names_no_waiter_as_returned)
{
    hr_machine_config cfg = hr_test_config(4, NULL);
    cfg.buffer = 64;
    cfg.jitter = 1;
    hr_machine *m;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    int runs = HR_TEST_TSAN ? 300 : 6000;   /* the old race showed in about 1 run in 5,000 */
    for (int k = 0; k < runs; k++) {
        hr_run_result res;
        ck_assert_int_eq(hr_machine_run(m, body_full_buffer, NULL, &res), HR_OK);
        ck_assert_int_eq(res.status, HR_EDEADLK);
        ck_assert_msg(strstr(res.report, "has returned") == NULL, "run %d: %s", k, res.report);
        ck_assert_msg(strstr(res.report, "P0 waits in hr_recv") != NULL, "%s", res.report);
    }
    hr_machine_destroy(m);
}
END_TEST

/* A receive waiting on a tag nobody sends names the messages from that source that wait
 * unmatched, with their tags; a receive from any source with any tag says so. */
static void body_wrong_tag(hr_proc *p, void *arg)
{
    (void)arg;
    int v = 7;
    if (hr_pid(p) == 0) {
        hr_send(p, 1, 3, &v, sizeof v);
        hr_send(p, 1, 4, &v, 2);
        hr_recv(p, 2, HR_ANY_TAG, &v, sizeof v, NULL);
    } else if (hr_pid(p) == 1) {
        hr_recv(p, 0, 5, &v, sizeof v, NULL);
    }
}

START_TEST(test_deadlock_names_unmatched_messages)
{
    hr_machine_config cfg = hr_test_config(3, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_wrong_tag, NULL, &res);
    ck_assert_int_eq(res.status, HR_EDEADLK);
    ck_assert_msg(strstr(res.report, "P1 waits in hr_recv from P0 (tag 5) at model time ") != NULL,
                  "%s", res.report);
    ck_assert_msg(strstr(res.report, " s; unmatched: P0 tag 3 (4 bytes), P0 tag 4 (2 bytes)\n") !=
                  NULL, "%s", res.report);
    ck_assert_msg(strstr(res.report, "P0 waits in hr_recv from P2 (any tag) at model time 0 s\n")
                  != NULL, "%s", res.report);
    ck_assert_msg(strstr(res.report, "P2 has returned") != NULL, "%s", res.report);
}
END_TEST

/* A collective whose partner left names the collective and the partner, not an internal tag. */
static void body_lone_bcast(hr_proc *p, void *arg)
{
    (void)arg;
    int v = 0;
    if (hr_pid(p) == 0)
        hr_bcast(p, 1, &v, sizeof v);
}

START_TEST(test_deadlock_names_the_collective)
{
    hr_machine_config cfg = hr_test_config(2, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_lone_bcast, NULL, &res);
    ck_assert_int_eq(res.status, HR_EDEADLK);
    ck_assert_msg(strstr(res.report, "P0 waits in hr_bcast from root 1 for P1's block") != NULL,
                  "%s", res.report);
    ck_assert_msg(strstr(res.report, "tag -") == NULL, "%s", res.report);
}
END_TEST

/* Failures come in real-time order; the report lists them in processor order, every time. */
static void body_all_fail(hr_proc *p, void *arg)
{
    (void)arg;
    hr_compute(p, (double)(hr_rand(p) % 1000));
    hr_fail(p, "no %d", hr_pid(p));
}

START_TEST(test_deadlock_failures_in_processor_order)
{
    hr_machine_config cfg = hr_test_config(8, NULL);
    cfg.jitter = 1;
    for (int run = 0; run < 10; run++) {
        hr_run_result res;
        hr_test_run(&cfg, body_all_fail, NULL, &res);
        ck_assert_int_eq(res.status, HR_EFAIL);
        ck_assert_str_eq(res.report, "P0: no 0\nP1: no 1\nP2: no 2\nP3: no 3\nP4: no 4\n"
                                     "P5: no 5\nP6: no 6\nP7: no 7\n");
    }
}
END_TEST

/* Misuse the library detects is named as misuse (status HR_EMISUSE, "misuse:" in the line); a
 * failure every processor reports alike is one line naming the three lowest and counting the
 * others, the same under jitter; different failures stay apart, in processor order. */
static void body_send_past_p(hr_proc *p, void *arg)
{
    (void)arg;
    int x = 1;
    if (hr_pid(p) == 0)
        hr_send(p, hr_nprocs(p), 0, &x, sizeof x);
}

static void body_alike_fail(hr_proc *p, void *arg)
{
    (void)arg;
    if (hr_pid(p) % 2 == 1 && hr_pid(p) < 4)
        hr_fail(p, "odd one out");
    hr_fail(p, "the same reason");
}

/* P1 calls the API with P0's hr_proc, which P0 left where P1 can read it. */
static void body_foreign_handle(hr_proc *p, void *arg)
{
    hr_proc **shared = arg;
    int x = 1;
    if (hr_pid(p) == 0) {
        *shared = p;
        hr_send(p, 1, 0, &x, sizeof x);    /* after the store: P1 reads it once this arrives */
        hr_recv(p, 1, 0, &x, sizeof x, NULL);
        return;
    }
    hr_recv(p, 0, 0, &x, sizeof x, NULL);
    hr_send(*shared, 1, 0, &x, sizeof x);
}

START_TEST(test_deadlock_foreign_handle_is_misuse)
{
    static const char *const engine[2] = { "threads", "fibers" };
    for (int e = 0; e < 2; e++) {
        hr_machine_config cfg = hr_test_config(2, NULL);
        cfg.engine = engine[e];
        hr_proc *shared = NULL;
        hr_run_result res;
        hr_test_run(&cfg, body_foreign_handle, &shared, &res);
        ck_assert_int_eq(res.status, HR_EMISUSE);
        ck_assert_msg(strstr(res.report, "P1: misuse: called the API with P0's hr_proc: a "
                                         "processor passes only its own") != NULL,
                      "%s", res.report);
    }
}
END_TEST

START_TEST(test_deadlock_misuse_and_identical_failures)
{
    hr_machine_config cfg = hr_test_config(4, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_send_past_p, NULL, &res);
    ck_assert_int_eq(res.status, HR_EMISUSE);
    ck_assert_str_eq(res.report, "P0: misuse: hr_send: processor 4 does not exist (p = 4)\n");
    ck_assert_str_eq(hr_strerror(res.status), "the algorithm misused the hremu API");
    for (int jitter = 0; jitter < 2; jitter++) {
        cfg = hr_test_config(64, NULL);
        cfg.jitter = jitter;
        hr_test_run(&cfg, body_alike_fail, NULL, &res);
        ck_assert_int_eq(res.status, HR_EFAIL);
        ck_assert_str_eq(res.report, "P0, P2, P4 and 59 more processors: the same reason\n"
                                     "P1 and P3: odd one out\n");
    }
    /* Four alike: one more processor, in the singular. */
    cfg = hr_test_config(6, NULL);
    hr_test_run(&cfg, body_alike_fail, NULL, &res);
    ck_assert_str_eq(res.report, "P0, P2, P4 and 1 more processor: the same reason\n"
                                 "P1 and P3: odd one out\n");
}
END_TEST

Suite *hr_deadlock_suite(void)
{
    Suite *s = suite_create("deadlock");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_deadlock_sync_cross_send);
    tcase_add_test(tc, test_deadlock_ring_of_receives);
    tcase_add_test(tc, test_deadlock_foreign_handle_is_misuse);
    tcase_add_test(tc, test_deadlock_mixed_waits);
    tcase_add_test(tc, test_deadlock_failure_is_not_deadlock);
    tcase_add_test(tc, test_deadlock_machine_reusable);
    tcase_add_test(tc, test_deadlock_report_names_no_waiter_as_returned);
    tcase_add_test(tc, test_deadlock_names_unmatched_messages);
    tcase_add_test(tc, test_deadlock_names_the_collective);
    tcase_add_test(tc, test_deadlock_failures_in_processor_order);
    tcase_add_test(tc, test_deadlock_misuse_and_identical_failures);
    suite_add_tcase(s, tc);
    return s;
}
