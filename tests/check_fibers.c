/* check_fibers.c: the fiber engine ([machine] engine = fibers, src/core/fibers.c): what it
 * refuses, and a run that needs every processor to sleep and wake many times, against the
 * thread engine's figures and hand-computed values (check_deadlock.c runs its reports on both
 * engines). */
#include "hr_test.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every processor passes a token around the ring `laps` times, adding its id: each receive
 * sleeps until the left neighbour sends, so every fiber switches out and back laps times. */
static void body_laps(hr_proc *p, void *arg)
{
    int laps = *(const int *)arg, n = hr_nprocs(p), me = hr_pid(p);
    int64_t token = 0;
    for (int k = 0; k < laps; k++) {
        if (me == 0) {
            hr_send(p, 1 % n, 1, &token, sizeof token);
            hr_recv(p, n - 1, 1, &token, sizeof token, NULL);
        } else {
            hr_recv(p, me - 1, 1, &token, sizeof token, NULL);
            token += me;
            hr_send(p, (me + 1) % n, 1, &token, sizeof token);
        }
    }
    /* laps times the sum of 1 .. n-1 */
    if (me == 0 && token != (int64_t)laps * n * (n - 1) / 2)
        hr_fail(p, "the token is %lld", (long long)token);
}

START_TEST(test_fibers_ring_laps)
{
    int laps = 20;
    hr_run_result on_threads, on_fibers;
    hr_machine_config cfg = hr_test_config(257, "async");
    hr_test_run(&cfg, body_laps, &laps, &on_threads);
    ck_assert_int_eq(on_threads.status, HR_OK);
    cfg.engine = "fibers";
    /* one carrier, one a core, and more carriers than this box may have cores: fibers then
     * move between threads */
    int carriers[] = { 1, HR_CARRIERS_CORES, 3 };
    for (size_t k = 0; k < sizeof carriers / sizeof carriers[0]; k++) {
        cfg.carriers = carriers[k];
        hr_test_run(&cfg, body_laps, &laps, &on_fibers);
        ck_assert_int_eq(on_fibers.status, HR_OK);
        /* the model's figures are the thread engine's, bit for bit */
        ck_assert(memcmp(&on_fibers.model_time_s, &on_threads.model_time_s, sizeof(double)) == 0);
        ck_assert_uint_eq(on_fibers.messages, 20u * 257u);
        ck_assert_uint_eq(on_fibers.messages, on_threads.messages);
        ck_assert_uint_eq(on_fibers.steps, on_threads.steps);
    }
}
END_TEST

/* A receive asleep on one source, on one carrier, is handed the first matching message as it
 * comes (the mailbox's lane). P0 starts first and sleeps in a receive of tag 1 from P1, which
 * sends values 0 .. 3 with tags 0, 0, 1, 1, and then 4 with tag 7, which P0 probes for before
 * it receives it. P0 takes by tag and source order as it would from the lists: 2, 3, then 0, 1,
 * then 4; and the model's figures are the thread engine's. Under sync, a send waits for its
 * receive, so P1 sends in the order P0 takes: each rendezvous is handed over. */
/* The values in the order P0 takes them. */
static const int lane_taken[5] = { 2, 3, 0, 1, 4 };

typedef struct lane_arg {
    int sync;
    int got[5];
} lane_arg;

static void body_lane(hr_proc *p, void *arg)
{
    lane_arg *a = arg;
    if (hr_pid(p) == 1) {
        for (int k = 0; k < 5; k++) {
            int v = a->sync ? lane_taken[k] : k;
            hr_send(p, 0, v == 4 ? 7 : v / 2, &v, sizeof v);
        }
        return;
    }
    hr_recv(p, 1, 1, &a->got[0], sizeof a->got[0], NULL);
    hr_recv(p, 1, 1, &a->got[1], sizeof a->got[1], NULL);
    hr_recv(p, 1, HR_ANY_TAG, &a->got[2], sizeof a->got[2], NULL);
    hr_recv(p, 1, 0, &a->got[3], sizeof a->got[3], NULL);
    hr_status st;
    hr_probe(p, 1, 7, &st);
    hr_recv(p, 1, st.tag, &a->got[4], sizeof a->got[4], NULL);
}

START_TEST(test_fibers_lane_keeps_order)
{
    static const char *const disc[] = { "async", "sync" };
    for (int d = 0; d < 2; d++) {
        lane_arg a = { .sync = d == 1 };
        hr_run_result on_threads, on_fibers;
        hr_machine_config cfg = hr_test_config(2, disc[d]);
        memset(a.got, -1, sizeof a.got);
        hr_test_run(&cfg, body_lane, &a, &on_threads);
        ck_assert_msg(on_threads.status == HR_OK, "%s", on_threads.report);
        ck_assert_mem_eq(a.got, lane_taken, sizeof lane_taken);
        cfg.engine = "fibers";
        cfg.carriers = 1;
        memset(a.got, -1, sizeof a.got);
        hr_test_run(&cfg, body_lane, &a, &on_fibers);
        ck_assert_msg(on_fibers.status == HR_OK, "%s", on_fibers.report);
        ck_assert_mem_eq(a.got, lane_taken, sizeof lane_taken);
        ck_assert(memcmp(&on_fibers.model_time_s, &on_threads.model_time_s, sizeof(double)) == 0);
        ck_assert_uint_eq(on_fibers.unreceived, 0);
    }
}
END_TEST

/* On one carrier, a send to a processor asleep in hr_recv from it completes that receive as it
 * is sent: the bytes go straight into the receiver's buffer, and the status and the model's
 * figures are those the receiver would have found (src/core/p2p.c, send_direct). P0 and P1
 * play ping-pong, each receive posted before its message is sent, with statuses and tags that
 * change; a receive whose buffer is too small, or whose buffer is the sender's own, is left to
 * the receiver, which reports the first as misuse and gets the bytes of the second right. The
 * thread engine gives the same figures, bytes and report. */
typedef struct direct_arg {
    int     misfit;            /* P1's last receive has room for 8 of its 16 bytes */
    int64_t got[8];            /* what P0 and P1 took, in turn */
    hr_status st[8];
    int64_t shared[2];         /* P0 sends from shared[0], P1 receives into it */
} direct_arg;

static void body_direct(hr_proc *p, void *arg)
{
    direct_arg *a = arg;
    int me = hr_pid(p), you = 1 - me;
    for (int k = 0; k < 8; k++) {
        int64_t v = 100 * me + k;
        if ((k % 2) == me) {
            hr_compute(p, 1000.0 * (k + 1));
            hr_send(p, you, k, &v, sizeof v);
        } else {
            /* posted before the message comes, in this program's order, and in model time
             * before it arrives or (k = 2, 5) after */
            hr_compute(p, k == 2 || k == 5 ? 1e6 : 10.0);
            hr_recv(p, you, k % 3 == 0 ? HR_ANY_TAG : k, &a->got[k], sizeof a->got[k], &a->st[k]);
        }
    }
    int64_t token = 7;
    if (me == 0) {
        a->shared[0] = 4242;
        hr_compute(p, 500.0);
        hr_send(p, 1, 9, &a->shared[0], sizeof a->shared[0]);
        hr_recv(p, 1, 11, &token, sizeof token, NULL);      /* P1 has posted its last receive */
        int64_t big[2] = { 1, 2 };
        hr_send(p, 1, 10, big, a->misfit ? sizeof big : sizeof big[0]);
    } else {
        hr_recv(p, 0, 9, &a->shared[0], sizeof a->shared[0], NULL);   /* the sender's buffer */
        a->shared[1] = a->shared[0];
        hr_send(p, 0, 11, &token, sizeof token);
        int64_t one;
        hr_recv(p, 0, 10, &one, sizeof one, NULL);
    }
}

START_TEST(test_fibers_direct_receive)
{
    for (int misfit = 0; misfit < 2; misfit++) {
        direct_arg on_t = { .misfit = misfit }, on_f = { .misfit = misfit };
        hr_run_result rt, rf;
        hr_machine_config cfg = hr_test_config(2, "async");
        hr_test_run(&cfg, body_direct, &on_t, &rt);
        cfg.engine = "fibers";
        cfg.carriers = 1;
        hr_test_run(&cfg, body_direct, &on_f, &rf);
        ck_assert_int_eq(rt.status, misfit ? HR_EMISUSE : HR_OK);
        ck_assert_int_eq(rf.status, rt.status);
        if (misfit) {
            const char *want = "a 16-byte message from P0 (tag 10) does not fit in 8 bytes";
            ck_assert_msg(strstr(rt.report, want) != NULL, "%s", rt.report);
            ck_assert_msg(strstr(rf.report, want) != NULL, "%s", rf.report);
            continue;
        }
        for (int k = 0; k < 8; k++) {
            int from = k % 2;
            ck_assert_int_eq(on_f.got[k], 100 * from + k);
            ck_assert_int_eq(on_f.st[k].source, from);
            ck_assert_int_eq(on_f.st[k].tag, k);
            ck_assert_uint_eq(on_f.st[k].bytes, sizeof(int64_t));
        }
        ck_assert_mem_eq(on_f.got, on_t.got, sizeof on_t.got);
        ck_assert_int_eq(on_f.shared[1], 4242);
        ck_assert(memcmp(&rf.model_time_s, &rt.model_time_s, sizeof(double)) == 0);
        ck_assert_uint_eq(rf.messages, 11);
        ck_assert_uint_eq(rt.messages, 11);
        ck_assert_uint_eq(rf.steps, rt.steps);
        ck_assert_uint_eq(rf.unreceived, 0);
    }
}
END_TEST

/* The carriers a machine gets: as asked (0: one), or one a core; never more than its
 * processors. */
START_TEST(test_fibers_carriers)
{
    hr_machine_config cfg = hr_test_config(3, "async");
    cfg.engine = "fibers";
    cfg.carriers = 2;
    ck_assert_int_eq(hr_machine_carriers(&cfg), 2);
    cfg.carriers = 5;
    ck_assert_int_eq(hr_machine_carriers(&cfg), 3);
    cfg.carriers = 0;
    ck_assert_int_eq(hr_machine_carriers(&cfg), 1);
    cfg.procs = 1024;
    cfg.carriers = HR_CARRIERS_CORES;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    ck_assert_int_ge(hr_machine_carriers(&cfg), 1);
    ck_assert_int_le(hr_machine_carriers(&cfg), cores > 0 ? cores : 1);
}
END_TEST

START_TEST(test_fibers_refused)
{
    hr_machine_config cfg = hr_test_config(4, "async");
    hr_machine *m = NULL;
    const char *why = NULL;
    cfg.engine = "coroutines";
    ck_assert_int_eq(hr_machine_create(&cfg, &m, &why), HR_EINVAL);
    ck_assert_str_eq(why, "engine must be threads or fibers");
    cfg.engine = "fibers";
    cfg.stack = 4096;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, &why), HR_EINVAL);
    ck_assert_str_eq(why, "a fiber's stack must be 16 KiB to 1 GiB");
    cfg.stack = 0;
    cfg.cost.measured = 1;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, &why), HR_EINVAL);
    ck_assert_msg(strstr(why, "needs engine threads") != NULL, "%s", why);
}
END_TEST

/* Processor `target` recurses through twice its stack; the others wait for it. */
static int deep(int depth)
{
    volatile char frame[1024];
    for (size_t i = 0; i < sizeof frame; i++)    /* every byte: a canary is a few words */
        frame[i] = (char)depth;
    return depth == 0 ? frame[0] : deep(depth - 1) + frame[sizeof frame - 1];
}

/* The same, writing two bytes of each frame: the canary must be checked whole to see it. */
static int sparse(int depth)
{
    volatile char frame[1024];
    frame[0] = frame[sizeof frame - 1] = (char)depth;
    return depth == 0 ? frame[0] : sparse(depth - 1) + frame[sizeof frame - 1];
}

/* One frame larger than the stack, written at its low end only (a big local array): it jumps
 * a guard of a page, not one of 64 KiB. */
static int big(size_t n)
{
    volatile char *frame = __builtin_alloca(n);
    for (size_t i = 0; i < 4096; i++)
        frame[i] = (char)i;
    return frame[100];
}

typedef struct overflow_arg {
    int target;
    int how;       /* 0 deep, 1 sparse, 2 big */
} overflow_arg;

static void body_overflow(hr_proc *p, void *arg)
{
    const overflow_arg *a = arg;
    int64_t x = 0;
    if (hr_pid(p) == a->target)     /* twice a 64 KiB stack, or one frame of 80 KiB */
        x = a->how == 0 ? deep(128) : a->how == 1 ? sparse(128) : big(80 * 1024);
    hr_allreduce(p, &x, &x, 1, HR_INT64, HR_SUM);
}

/* Run body_overflow on p fibers and that many carriers in a child process; its exit status and
 * stderr. */
static int overflow_child(int p, int carriers, int target, int how, char *err, size_t len)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fd[1], STDERR_FILENO);
        close(fd[0]);
        hr_machine_config cfg = hr_test_config(p, "async");
        cfg.engine = "fibers";
        cfg.carriers = carriers;
        hr_run_result res;
        overflow_arg a = { target, how };
        hr_test_run(&cfg, body_overflow, &a, &res);
        _exit(0);             /* not reached: the overflow ends the process */
    }
    close(fd[1]);
    size_t at = 0;
    ssize_t n;
    char rest[256];
    while ((n = read(fd[0], at + 1 < len ? err + at : rest,
                     at + 1 < len ? len - 1 - at : sizeof rest)) > 0)
        if (at + 1 < len)
            at += (size_t)n;     /* the first len - 1 bytes; the rest is drained */
    err[at] = '\0';
    close(fd[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* A stack overflow is one line naming the processor and exit status 1: by the guard's fault
 * below a small machine's stacks (a frame larger than a page too), and by the canary page at the
 * next switch on a machine too large for a protected guard each (past vm.max_map_count / 2),
 * frames that write a few bytes each too. */
START_TEST(test_fibers_stack_overflow)
{
    char err[512];
    ck_assert_int_eq(overflow_child(4, 1, 3, 0, err, sizeof err), 1);
    ck_assert_str_eq(err, "hremu: P3 overflowed its fiber stack of 64 KiB: raise [machine] stack\n");
    /* on whichever carrier runs it: each has a signal stack of its own */
    ck_assert_int_eq(overflow_child(8, 3, 5, 0, err, sizeof err), 1);
    ck_assert_str_eq(err, "hremu: P5 overflowed its fiber stack of 64 KiB: raise [machine] stack\n");
    /* AddressSanitizer sees the write into the next fiber's stack itself, before any switch. */
    if (HR_TEST_ASAN)
        return;
    ck_assert_int_eq(overflow_child(4, 1, 2, 2, err, sizeof err), 1);
    ck_assert_str_eq(err, "hremu: P2 overflowed its fiber stack of 64 KiB: raise [machine] stack\n");
    for (int how = 0; how < 2; how++) {
        ck_assert_int_eq(overflow_child(40000, 0, 39999, how, err, sizeof err), 1);
        ck_assert_str_eq(err, "hremu: P39999 overflowed its fiber stack of 64 KiB: raise [machine] "
                              "stack\n");
    }
}
END_TEST

Suite *hr_fibers_suite(void)
{
    Suite *s = suite_create("fibers");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fibers_ring_laps);
    tcase_add_test(tc, test_fibers_lane_keeps_order);
    tcase_add_test(tc, test_fibers_direct_receive);
    tcase_add_test(tc, test_fibers_refused);
    tcase_add_test(tc, test_fibers_carriers);
    /* TSan delivers signals on its own terms: the guard's handler is for plain and ASan runs. */
    if (!HR_TEST_TSAN) {
        tcase_add_test(tc, test_fibers_stack_overflow);
        tcase_set_timeout(tc, 60);
    }
    suite_add_tcase(s, tc);
    return s;
}
