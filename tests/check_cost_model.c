/* check_cost_model.c: the cost models' rows against figures worked by hand (docs/model.md,
 * "Cost models"): LogGP's ping-pong, pipelined sends bound by the gap and by the bytes, a
 * binomial broadcast and a flat gather on 8 processors, a barrier, the refusals of what a model
 * does not define, and the same ping-pong under bdm; BSP's put-based transpose, two-superstep
 * prefix and collectives as supersteps, on both engines and under jitter, and its refusals. */
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
/* On a topology with links loggp charges messages between linked processors as on the complete
 * graph, and fails a run that sends further (or a barrier, whose messages go further); a hop's
 * latency is refused. On ring 4 the ping-pong of P0 and P1 costs 30 us, as on complete. */
static void ping_pong_01(hr_proc *p, void *arg)
{
    if (hr_pid(p) < 2)
        ping_pong(p, arg);
}

/* P0 sends one byte to P(*arg), which takes it. */
static void send_one(hr_proc *p, void *arg)
{
    int to = *(const int *)arg;
    if (hr_pid(p) == 0)
        hr_send(p, to, 0, buf_of(p), 1);
    else if (hr_pid(p) == to)
        hr_recv(p, 0, 0, buf_of(p), BUF, NULL);
}

static void barrier_plain(hr_proc *p, void *arg)
{
    (void)arg;
    hr_barrier(p);
}

START_TEST(test_loggp_neighbours)
{
    hr_machine_config cfg = loggp_config(4);
    cfg.topology = "ring";
    clocks c = { .bytes = 1001 };
    hr_run_result res;
    hr_test_run(&cfg, ping_pong_01, &c, &res);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    ck_assert_double_eq_tol(res.model_time_s * 1e6, 30, 1e-9);
    expect(&c, 2, (const double[]){ 30, 17 });
    hr_test_run(&cfg, send_one, &(int){ 2 }, &res);
    ck_assert_int_eq(res.status, HR_EFAIL);
    ck_assert_msg(strstr(res.report, "hr_send: P0 and P2 are not neighbours on ring (2 links "
                                     "apart), and cost model loggp defines messages along one "
                                     "link only") != NULL, "%s", res.report);
    hr_test_run(&cfg, barrier_plain, NULL, &res);
    ck_assert_int_eq(res.status, HR_EFAIL);
    ck_assert_msg(strstr(res.report, "hr_barrier: cost model loggp defines messages along one "
                                     "link only") != NULL, "%s", res.report);
    cfg.cost.hop = 1e-6;
    const char *why = NULL;
    ck_assert_int_eq(hr_machine_check(&cfg, &why), HR_EINVAL);
    ck_assert_msg(strstr(why, "cost model loggp does not define a hop") != NULL, "%s", why);
}
END_TEST

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

/* ---- bsp ------------------------------------------------------------------------------------
 * g = sigma = 1 ns a byte, l = tau = 10 us, an hr_compute unit 1 ns: a superstep costs
 * w + h ns + 10 us. Each case runs on threads and on fibers, plainly and under jitter. */
static hr_machine_config bsp_config(int p, const char *engine, int jitter)
{
    hr_machine_config cfg = hr_test_config(p, NULL);
    cfg.cost_model = "bsp";
    cfg.cost = (hr_cost){ .tau = 10e-6, .sigma = 1e-9, .compute_unit = 1e-9 };
    cfg.engine = engine;
    cfg.jitter = jitter;
    return cfg;
}

enum { BSP_P = 4, BSP_M = 1000 };

/* Each processor's memory in the BSP cases: its blocks out and in, and a prefix's values. */
typedef struct bsp_mem {
    unsigned char out[BSP_P][BSP_M], in[BSP_P][BSP_M];
    uint64_t      val[BSP_M], totals[BSP_P];
    int           wrong;
} bsp_mem;

static bsp_mem bsp_mems[BSP_P];

static unsigned char block_byte(int from, int to, int j)
{
    return (unsigned char)(31 * from + 7 * to + j);
}

/* P_me's blocks out: block d, for P_d, holds block_byte(me, d, j). */
static void fill_blocks(int me, bsp_mem *mm)
{
    for (int d = 0; d < BSP_P; d++)
        for (int j = 0; j < BSP_M; j++)
            mm->out[d][j] = block_byte(me, d, j);
}

/* One superstep: P_i computes (i+1) * 1000 units, then puts its block d on P_d at offset
 * i * M. w = 4 us (P3), h = 3M = 3000 bytes (each sends three blocks and receives three):
 * 4 + 3 + 10 = 17 us, every clock. */
static void put_transpose(hr_proc *p, void *arg)
{
    clocks *c = arg;
    int me = hr_pid(p);
    bsp_mem *mm = &bsp_mems[me];
    fill_blocks(me, mm);
    int slot = hr_register(p, mm->in, sizeof mm->in);
    hr_compute(p, (me + 1) * 1000.0);
    for (int d = 0; d < BSP_P; d++)
        hr_put(p, d, slot, (size_t)me * BSP_M, mm->out[d], BSP_M);
    hr_sync(p);
    for (int s = 0; s < BSP_P; s++)
        for (int j = 0; j < BSP_M; j++)
            mm->wrong += mm->in[s][j] != block_byte(s, me, j);
    end(p, c);
}

/* A BSP prefix of the values 1 .. 4000, 1000 a processor, in two supersteps. 1: a local prefix
 * (1000 units), and the local total put on every later processor (8 bytes each): w = 1 us, h =
 * 24 bytes (P0 sends three, P3 receives three): 11.024 us. 2: the totals of the earlier ones
 * summed (i units) and added to the local prefix (1000 units), nothing sent: w = 1.003 us, h =
 * 0: 11.003 us, 22.027 us in all. */
static void prefix(hr_proc *p, void *arg)
{
    clocks *c = arg;
    int me = hr_pid(p);
    bsp_mem *mm = &bsp_mems[me];
    int slot = hr_register(p, mm->totals, sizeof mm->totals);
    uint64_t run = 0;
    for (int j = 0; j < BSP_M; j++)
        mm->val[j] = run += (uint64_t)me * BSP_M + (uint64_t)j + 1;
    hr_compute(p, BSP_M);
    for (int d = me + 1; d < BSP_P; d++)
        hr_put(p, d, slot, (size_t)me * sizeof run, &run, sizeof run);
    hr_sync(p);
    uint64_t before = 0;
    for (int s = 0; s < me; s++)
        before += mm->totals[s];
    hr_compute(p, me);
    for (int j = 0; j < BSP_M; j++) {
        mm->val[j] += before;
        uint64_t x = (uint64_t)me * BSP_M + (uint64_t)j + 1;
        mm->wrong += mm->val[j] != x * (x + 1) / 2;
    }
    hr_compute(p, BSP_M);
    hr_sync(p);
    end(p, c);
}

/* World collectives end supersteps. 1: P_i computes i * 1000 units, P0 puts 500 bytes on P1,
 * and hr_transpose of 1000-byte blocks ends the superstep, the put landing with it: w = 3 us,
 * h = 3500 (P0 sends 3000 + 500, P1 receives as much): 3 + 3.5 + 10 = 16.5 us. 2:
 * hr_transpose_view, whose superstep ends at hr_view_end: w = 0, h = 3000: 13 us, 29.5 us in
 * all. */
static void collectives(hr_proc *p, void *arg)
{
    clocks *c = arg;
    int me = hr_pid(p);
    bsp_mem *mm = &bsp_mems[me];
    fill_blocks(me, mm);
    int slot = hr_register(p, mm->val, sizeof mm->val);
    hr_compute(p, me * 1000.0);
    if (me == 0)
        hr_put(p, 1, slot, 0, mm->out[1], 500);
    hr_transpose(p, mm->out, mm->in, BSP_M);
    for (int s = 0; s < BSP_P; s++)
        mm->wrong += mm->in[s][7] != block_byte(s, me, 7);
    if (me == 1)
        mm->wrong += memcmp(mm->val, bsp_mems[0].out[1], 500) != 0;
    const void *view[BSP_P];
    hr_transpose_view(p, mm->out, BSP_M, view);
    for (int s = 0; s < BSP_P; s++)
        mm->wrong += ((const unsigned char *)view[s])[9] != block_byte(s, me, 9);
    hr_view_end(p);
    end(p, c);
}

typedef struct bsp_step {
    double   time_us, work_us;
    uint64_t h, msgs;
} bsp_step;

/* Run fn under bsp on both engines, plainly and jittered: every clock ends at end_us, and the
 * supersteps are want[0 .. n). */
static void bsp_case(void (*fn)(hr_proc *, void *), double end_us, const bsp_step *want,
                     size_t n)
{
    static const char *const engines[] = { "threads", "fibers" };
    for (int e = 0; e < 2; e++)
        for (int jitter = 0; jitter <= 1; jitter++) {
            hr_machine_config cfg = bsp_config(BSP_P, engines[e], jitter);
            memset(bsp_mems, 0, sizeof bsp_mems);
            hr_machine *m = NULL;
            ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
            clocks c = { .bytes = 0 };
            hr_run_result res;
            ck_assert_int_eq(hr_machine_run(m, fn, &c, &res), HR_OK);
            ck_assert_msg(res.status == HR_OK, "%s", res.report);
            for (int i = 0; i < BSP_P; i++) {
                ck_assert_msg(bsp_mems[i].wrong == 0, "P%d: %d values wrong", i,
                              bsp_mems[i].wrong);
                ck_assert_msg(fabs(c.us[i] - end_us) < 1e-9, "%s jitter %d: P%d at %.6f us",
                              engines[e], jitter, i, c.us[i]);
            }
            ck_assert_double_eq_tol(res.model_time_s * 1e6, end_us, 1e-9);
            ck_assert_uint_eq(hr_machine_supersteps(m), n);
            for (size_t s = 0; s < n; s++) {
                hr_superstep_result r;
                ck_assert_int_eq(hr_machine_superstep_result(m, s, &r), HR_OK);
                ck_assert_double_eq_tol(r.time_s * 1e6, want[s].time_us, 1e-9);
                ck_assert_double_eq_tol(r.work_s * 1e6, want[s].work_us, 1e-9);
                ck_assert_uint_eq(r.h, want[s].h);
                ck_assert_uint_eq(r.messages, want[s].msgs);
            }
            hr_machine_destroy(m);
        }
}

START_TEST(test_bsp_put_transpose)
{
    bsp_case(put_transpose, 17, (const bsp_step[]){ { 17, 4, 3000, 12 } }, 1);
}
END_TEST

START_TEST(test_bsp_prefix)
{
    bsp_case(prefix, 22.027,
             (const bsp_step[]){ { 11.024, 1, 24, 6 }, { 11.003, 1.003, 0, 0 } }, 2);
}
END_TEST

START_TEST(test_bsp_collectives)
{
    bsp_case(collectives, 29.5,
             (const bsp_step[]){ { 16.5, 3, 3500, 13 }, { 13, 0, 3000, 12 } }, 2);
}
END_TEST

static void group_body(hr_proc *p, void *arg)
{
    (void)arg;
    hr_group *g = hr_group_make(p, (const int[]){ 0, 1 }, 2);
    if (hr_pid(p) < 2)
        hr_group_bcast(p, g, 0, buf_of(p), 8);
}

/* bsp defines supersteps alone: messages, barriers and a group's collectives fail the run,
 * naming the call; an overhead, a gap and links are refused when the machine is made. */
START_TEST(test_bsp_refusals)
{
    static int to = 1;
    static const struct {
        void (*fn)(hr_proc *, void *);
        const char *what;
    } runs[] = {
        { send_one, "hr_send: cost model bsp does not define point-to-point messages" },
        { barrier_plain, "hr_barrier: cost model bsp does not define barriers (hr_sync ends" },
        { group_body, "cost model bsp takes a collective of the world as a superstep" },
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        hr_machine_config cfg = bsp_config(4, NULL, 0);
        hr_run_result res;
        hr_test_run(&cfg, runs[i].fn, &to, &res);
        ck_assert_int_eq(res.status, HR_EFAIL);
        ck_assert_msg(strstr(res.report, runs[i].what) != NULL, "case %zu: %s", i, res.report);
    }
    static const struct {
        double      overhead, gap;
        const char *topology, *what;
    } makes[] = {
        { 1e-6, 0, NULL, "an overhead" },
        { 0, 1e-6, NULL, "a gap" },
        { 0, 0, "ring", "links" },
    };
    for (size_t i = 0; i < sizeof makes / sizeof makes[0]; i++) {
        hr_machine_config cfg = bsp_config(4, NULL, 0);
        cfg.cost.overhead = makes[i].overhead;
        cfg.cost.gap = makes[i].gap;
        cfg.topology = makes[i].topology;
        const char *why = NULL;
        ck_assert_int_eq(hr_machine_check(&cfg, &why), HR_EINVAL);
        ck_assert_msg(strstr(why, "cost model bsp does not define") != NULL &&
                          strstr(why, makes[i].what) != NULL, "case %zu: %s", i, why);
    }
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
    tcase_add_test(tc, test_loggp_neighbours);
    tcase_add_test(tc, test_bdm_ping_pong);
    suite_add_tcase(s, tc);
    tc = tcase_create("bsp");
    tcase_add_test(tc, test_bsp_put_transpose);
    tcase_add_test(tc, test_bsp_prefix);
    tcase_add_test(tc, test_bsp_collectives);
    tcase_add_test(tc, test_bsp_refusals);
    suite_add_tcase(s, tc);
    return s;
}
