/* check_cost_model.c: the cost models' rows against figures worked by hand (docs/model.md,
 * "Cost models"): LogGP's ping-pong, pipelined sends bound by the gap and by the bytes, a
 * binomial broadcast and a flat gather on 8 processors, a barrier, the refusals of what a model
 * does not define, and the same ping-pong under bdm. */
#include "hr_test.h"

#include <math.h>
#include <string.h>

/* L = 10 us, o = 2 us, g = 5 us, G = 1 ns a byte: a message of m bytes streams (m-1) ns after
 * its first byte, and costs 2o + L + (m-1)G = 14 us + (m-1) ns end to end. */
static hr_machine_config loggp_config(int p)
{
    hr_machine_config cfg = hr_test_config(p, NULL);
    cfg.cost_model = "loggp";
    cfg.cost = (hr_cost){ .tau = 10e-6, .overhead = 2e-6, .gap = 5e-6, .sigma = 1e-9,
                          .compute_unit = 1e-9 };
    return cfg;
}

/* Every processor's clock at the end, in microseconds. */
typedef struct clocks {
    double us[8];
    size_t bytes;
    int    k;
} clocks;

/* Each processor's own buffer (one for all would be a data race between their copies). */
enum { BUF = 16384 };
static unsigned char bufs[8][BUF];

static unsigned char *buf_of(hr_proc *p)
{
    return bufs[hr_pid(p)];
}

static void end(hr_proc *p, clocks *c)
{
    c->us[hr_pid(p)] = hr_now(p) * 1e6;
}

static void ping_pong(hr_proc *p, void *arg)
{
    clocks *c = arg;
    if (hr_pid(p) == 0) {
        hr_send(p, 1, 0, buf_of(p), c->bytes);
        hr_recv(p, 1, 0, buf_of(p), BUF, NULL);
    } else {
        hr_recv(p, 0, 0, buf_of(p), BUF, NULL);
        hr_send(p, 0, 0, buf_of(p), c->bytes);
    }
    end(p, c);
}

static void pipelined(hr_proc *p, void *arg)
{
    clocks *c = arg;
    for (int i = 0; i < c->k; i++)
        if (hr_pid(p) == 0)
            hr_send(p, 1, 0, buf_of(p), c->bytes);
        else
            hr_recv(p, 0, 0, buf_of(p), BUF, NULL);
    end(p, c);
}

/* Round r: the processors below 2^r send to id + 2^r. */
static void binomial(hr_proc *p, void *arg)
{
    clocks *c = arg;
    int me = hr_pid(p), n = hr_nprocs(p);
    for (int d = 1; d < n; d *= 2)
        if (me < d)
            hr_send(p, me + d, 0, buf_of(p), c->bytes);
        else if (me < 2 * d)
            hr_recv(p, me - d, 0, buf_of(p), BUF, NULL);
    end(p, c);
}

/* P0 takes one message from each other processor, in order of source. */
static void gather(hr_proc *p, void *arg)
{
    clocks *c = arg;
    if (hr_pid(p) == 0)
        for (int s = 1; s < hr_nprocs(p); s++)
            hr_recv(p, s, 0, buf_of(p), BUF, NULL);
    else
        hr_send(p, 0, 0, buf_of(p), c->bytes);
    end(p, c);
}

static void run(int p, void (*fn)(hr_proc *, void *), clocks *c, double model_us)
{
    hr_machine_config cfg = loggp_config(p);
    hr_run_result res;
    hr_test_run(&cfg, fn, c, &res);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    ck_assert_double_eq_tol(res.model_time_s * 1e6, model_us, 1e-9);
}

static void expect(const clocks *c, int p, const double *us)
{
    for (int i = 0; i < p; i++)
        ck_assert_msg(fabs(c->us[i] - us[i]) < 1e-9, "P%d at %.6f us, not %.6f", i, c->us[i],
                      us[i]);
}

/* 1001 bytes: P0 sends at 0 (its clock 2, the first byte at P1 at o + L = 12); P1 takes it,
 * 12 + o + 1000 ns = 15, and answers at 15 (clock 17, first byte at P0 at 27); P0 is done at
 * 27 + 2 + 1 = 30 = 2 (2o + L + (m-1)G). */
START_TEST(test_loggp_ping_pong)
{
    clocks c = { .bytes = 1001 };
    run(2, ping_pong, &c, 30);
    expect(&c, 2, (const double[]){ 30, 17 });
}
END_TEST

/* Four 1-byte messages: injections g = 5 apart (g > o), at 0, 5, 10, 15 (the sender's clock
 * 17); first bytes at 12, 17, 22, 27; the receiver's gap is 5 too, so it takes each on arrival
 * and ends at 27 + o = 29. */
START_TEST(test_loggp_pipelined_gap_bound)
{
    clocks c = { .bytes = 1, .k = 4 };
    run(2, pipelined, &c, 29);
    expect(&c, 2, (const double[]){ 17, 29 });
}
END_TEST

/* Four 10001-byte messages: each streams 10 us, so injections are g + 10 = 15 apart: at 0, 15,
 * 30, 45 (the sender's clock 47); first bytes at 12, 27, 42, 57. The receiver takes the first
 * at 12 and is busy to 12 + o + 10 = 24, its next reception allowed at 12 + g + 10 = 27; so
 * each is taken as it arrives, the last at 57, done at 57 + 2 + 10 = 69. */
START_TEST(test_loggp_pipelined_bytes_bound)
{
    clocks c = { .bytes = 10001, .k = 4 };
    run(2, pipelined, &c, 69);
    expect(&c, 2, (const double[]){ 47, 69 });
}
END_TEST

/* 1-byte messages, a hop 14 us (o + L + o). Round 0: P0 sends at 0 (clock 2, gap to 5), P1
 * has it at 14. Round 1: P0 at 5 (clock 7, gap to 10) to P2, at 19; P1 at 14 (clock 16, gap to
 * 19) to P3, at 28. Round 2: P0 at 10 to P4 (clock 12; P4 at 24), P1 at 19 to P5 (21; 33), P2
 * at 19 to P6 (21; 33), P3 at 28 to P7 (30; 42). */
START_TEST(test_loggp_binomial_broadcast)
{
    clocks c = { .bytes = 1 };
    run(8, binomial, &c, 42);
    expect(&c, 8, (const double[]){ 12, 21, 21, 30, 24, 33, 33, 42 });
}
END_TEST

/* Seven 1-byte messages reach P0 at 12 together; its receiving gap spaces them 5 apart: taken
 * at 12, 17, ..., 42, done at 44 (each sender is done at its o, 2). */
START_TEST(test_loggp_flat_gather)
{
    clocks c = { .bytes = 1 };
    run(8, gather, &c, 44);
    expect(&c, 8, (const double[]){ 44, 2, 2, 2, 2, 2, 2, 2 });
}
END_TEST

/* A barrier is a dissemination of empty messages charged as loggp's: in round d
 * processor i sends to i + d and takes i - d's. P0 enters at 10 us (it computes), the others at
 * 0. Round 1: P0 injects at 10 (clock 12, gap to 15), P1 to P3 at 0 (clocks 2, gaps to 5); P0
 * takes P3's at 12 (clock 14, its receiving gap to 17), P1 takes P0's at 22 (24, to 27), P2 and
 * P3 take theirs at 12 (14, to 17). Round 2: P0 injects at max(14, 15) = 15 (17), P1 at 24 (26),
 * P2 and P3 at 14 (16); P0 takes P2's, arrived at 26 (28); P1 takes P3's, arrived at 26 but
 * its gap ends at 27 (29); P2 takes P0's at 27 (29); P3 takes P1's at 36 (38). */
static void barrier_body(hr_proc *p, void *arg)
{
    clocks *c = arg;
    if (hr_pid(p) == 0)
        hr_compute(p, 10000);
    hr_barrier(p);
    end(p, c);
}

START_TEST(test_loggp_barrier)
{
    clocks c = { .bytes = 0 };
    run(4, barrier_body, &c, 38);
    expect(&c, 4, (const double[]){ 28, 29, 29, 38 });
}
END_TEST

/* The same ping-pong under bdm, the seeds' model, with tau = 10 us, overhead 2 us, sigma 1 ns a
 * byte: P0 injects at 0 (its clock 2, its port busy 1.001 us); the head reaches P1 at tau = 10,
 * absorbed by 11.001, P1's clock 13.001; its answer, injected at 13.001, arrives at 23.001 and
 * is absorbed by 24.002; P0 is done at 26.002 = 2 (tau + sigma*m + overhead). */
START_TEST(test_bdm_ping_pong)
{
    hr_machine_config cfg = loggp_config(2);
    cfg.cost_model = "bdm";
    cfg.cost.gap = 0;
    clocks c = { .bytes = 1001 };
    hr_run_result res;
    hr_test_run(&cfg, ping_pong, &c, &res);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    ck_assert_double_eq_tol(res.model_time_s * 1e6, 26.002, 1e-9);
    expect(&c, 2, (const double[]){ 26.002, 15.001 });
}
END_TEST

/* What loggp does not define is refused when the machine is made, naming it; a superstep fails
 * its run, naming the call. */
static void sync_body(hr_proc *p, void *arg)
{
    (void)arg;
    hr_sync(p);
}

START_TEST(test_loggp_refusals)
{
    static const struct {
        const char *disc, *topology, *what;
        uint64_t    buffer;
    } cases[] = {
        { "priority", NULL, "rounds", 0 },
        { "sync", NULL, "rendezvous", 0 },
        { "eager", NULL, "rendezvous", 0 },
        { NULL, NULL, "bounded receive buffers", 1024 },
        { NULL, "ring", "links", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hr_machine_config cfg = loggp_config(4);
        cfg.discipline = cases[i].disc;
        cfg.topology = cases[i].topology;
        cfg.buffer = cases[i].buffer;
        const char *why = NULL;
        ck_assert_int_eq(hr_machine_check(&cfg, &why), HR_EINVAL);
        ck_assert_msg(strstr(why, "cost model loggp does not define") != NULL &&
                          strstr(why, cases[i].what) != NULL, "case %zu: %s", i, why);
    }
    hr_machine_config cfg = loggp_config(4);
    cfg.cost_model = NULL;                        /* bdm has no gap */
    const char *why = NULL;
    ck_assert_int_eq(hr_machine_check(&cfg, &why), HR_EINVAL);
    ck_assert_msg(strstr(why, "cost model bdm does not define a gap") != NULL, "%s", why);
    cfg.cost_model = "logp";
    ck_assert_int_eq(hr_machine_check(&cfg, &why), HR_EINVAL);
    cfg = loggp_config(4);
    hr_run_result res;
    hr_test_run(&cfg, sync_body, NULL, &res);
    ck_assert_int_eq(res.status, HR_EFAIL);
    ck_assert_msg(strstr(res.report, "hr_sync: cost model loggp does not define supersteps") !=
                      NULL, "%s", res.report);
}
END_TEST

Suite *hr_cost_model_suite(void)
{
    Suite *s = suite_create("cost_model");
    TCase *tc = tcase_create("loggp");
    tcase_add_test(tc, test_loggp_ping_pong);
    tcase_add_test(tc, test_loggp_pipelined_gap_bound);
    tcase_add_test(tc, test_loggp_pipelined_bytes_bound);
    tcase_add_test(tc, test_loggp_binomial_broadcast);
    tcase_add_test(tc, test_loggp_flat_gather);
    tcase_add_test(tc, test_loggp_barrier);
    tcase_add_test(tc, test_loggp_refusals);
    tcase_add_test(tc, test_bdm_ping_pong);
    suite_add_tcase(s, tc);
    return s;
}
