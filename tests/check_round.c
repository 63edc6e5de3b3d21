/* check_round.c: the round engine and the rules of fifo, priority, arbitrary and ocpc on
 * hand-built rounds, against outcomes worked out by hand from seed 003's definitions; and
 * hrel.aw_uniform's rule, one undelivered message a round, checked from the trace. */
#include "hr_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hremu/algorithm.h>
#include <hremu/workload.h>

#include "net/discipline.h"

#define MAXP 8
#define MAXR 8

/* A script: in round r < rounds processor i sends to dest[r][i] (-1: nothing) with priority
 * prio[r][i]. Rounds go on until nobody has anything left (a refused send is dropped, not tried
 * again). Each processor records, per round, what hr_round_send returned, its fate after the
 * round, and whom it received from (-1: nobody). Each writes only its own column. */
typedef struct script {
    int      rounds;
    int      dest[MAXR][MAXP];
    uint64_t prio[MAXR][MAXP];
    int      sent[MAXR][MAXP];
    int      fate[MAXR][MAXP];
    int      from[MAXR][MAXP];
    int      ran[MAXP];   /* rounds before the closing hr_round_end returned 0 */
} script;

static void body_script(hr_proc *p, void *arg)
{
    script *s = arg;
    int me = hr_pid(p);
    for (int r = 0;; r++) {
        int sends = r < s->rounds && s->dest[r][me] >= 0, went = 0, later = 0;
        if (r < MAXR)
            s->sent[r][me] = -1;
        if (sends) {
            uint32_t v = (uint32_t)(100 * r + me);
            hr_fate f = hr_round_send(p, s->dest[r][me], &v, sizeof v, s->prio[r][me]);
            went = f == HR_FATE_SENT;
            s->sent[r][me] = f;
        }
        for (int k = r + 1; k < s->rounds; k++)
            later |= s->dest[k][me] >= 0;
        if (hr_round_end(p, went || later || hr_round_fate(p) == HR_FATE_QUEUED) == 0) {
            s->ran[me] = r;
            return;
        }
        uint32_t v;
        hr_status st;
        int from = hr_round_recv(p, &v, sizeof v, &st) ? st.source : -1;
        if (from >= 0 && (st.bytes != sizeof v || v % 100 != (uint32_t)from))
            from = -2;
        if (r < MAXR) {
            s->fate[r][me] = hr_round_fate(p);
            s->from[r][me] = from;
        }
    }
}

/* An empty script for p processors and rounds rounds. */
static void script_init(script *s, int rounds)
{
    memset(s, 0, sizeof *s);
    s->rounds = rounds;
    for (int r = 0; r < MAXR; r++)
        for (int i = 0; i < MAXP; i++)
            s->dest[r][i] = -1;
}

static hr_run_result run_script(int p, const char *disc, uint64_t seed, script *s)
{
    hr_machine_config cfg = hr_test_config(p, disc);
    cfg.seed = seed;
    hr_run_result res;
    hr_test_run(&cfg, body_script, s, &res);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    return res;
}

/* cm5: tau = 88 us, sigma = 50 ns/byte; a round of 4-byte messages lasts 88.2 us. */
#define ROUND_S 88.2e-6

START_TEST(test_round_fifo_queue_and_stall)
{
    /* Round 0: P1, P2 and P3 send to P0: one, f, is received at once; a and b wait, in the
     * seeded order a, b. Round 1: all three try again: f goes out and joins the queue behind b;
     * a and b are stalled and refused. P0 receives a in round 1, b in round 2, f in round 3. */
    script s;
    script_init(&s, 2);
    for (int r = 0; r < 2; r++)
        for (int i = 1; i <= 3; i++)
            s.dest[r][i] = 0;
    hr_run_result res = run_script(4, "fifo", 1, &s);
    int f = s.from[0][0], a = s.from[1][0], b = s.from[2][0];
    ck_assert(f >= 1 && f <= 3 && a >= 1 && a <= 3 && b >= 1 && b <= 3);
    ck_assert(f != a && a != b && b != f);
    ck_assert_int_eq(s.from[3][0], f);
    for (int i = 1; i <= 3; i++) {
        ck_assert_int_eq(s.sent[0][i], HR_FATE_SENT);
        ck_assert_int_eq(s.fate[0][i], i == f ? HR_FATE_DELIVERED : HR_FATE_QUEUED);
        ck_assert_int_eq(s.sent[1][i], i == f ? HR_FATE_SENT : HR_FATE_STALLED);
    }
    ck_assert_int_eq(s.fate[1][a], HR_FATE_DELIVERED);
    ck_assert_int_eq(s.fate[1][b], HR_FATE_QUEUED);
    ck_assert_int_eq(s.fate[1][f], HR_FATE_QUEUED);
    ck_assert_int_eq(s.fate[2][b], HR_FATE_DELIVERED);
    ck_assert_int_eq(s.fate[2][a], HR_FATE_NONE);
    ck_assert_int_eq(s.fate[3][f], HR_FATE_DELIVERED);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(s.ran[i], 4);
    ck_assert_int_eq(res.rounds, 4);
    ck_assert_uint_eq(res.messages, 4);
    ck_assert_uint_eq(res.lost, 0);
    ck_assert_double_eq_tol(res.model_time_s, 4 * ROUND_S, 1e-12);
    /* waiting at the rounds' ends: a, b; b, f; f; none */
    ck_assert_uint_eq(res.stalls, 5);
}
END_TEST

START_TEST(test_round_fifo_tie_order_is_seeded)
{
    /* Who of P1..P3 is received first depends on the seed, and only on it. */
    int firsts[4] = { 0 };
    for (uint64_t seed = 1; seed <= 12; seed++) {
        script a, b;
        script_init(&a, 1);
        for (int i = 1; i <= 3; i++)
            a.dest[0][i] = 0;
        b = a;
        run_script(4, "fifo", seed, &a);
        run_script(4, "fifo", seed, &b);
        ck_assert_int_eq(a.from[0][0], b.from[0][0]);
        firsts[a.from[0][0]]++;
    }
    ck_assert_msg(firsts[1] > 0 && firsts[2] > 0 && firsts[3] > 0,
                  "12 seeds should let each of three be first (%d %d %d)", firsts[1], firsts[2],
                  firsts[3]);
}
END_TEST

/* Round 0: P1 (5), P2 (9), P3 (7) to P0; round 1: P4 (100) to P0 overtakes the waiting P1.
 * Received: P2, P4, P3, P1. */
static void priority_script(script *s)
{
    script_init(s, 2);
    s->dest[0][1] = s->dest[0][2] = s->dest[0][3] = s->dest[1][4] = 0;
    s->prio[0][1] = 5;
    s->prio[0][2] = 9;
    s->prio[0][3] = 7;
    s->prio[1][4] = 100;
}

START_TEST(test_round_priority_highest_first)
{
    script s;
    priority_script(&s);
    hr_run_result res = run_script(5, "priority", 1, &s);
    ck_assert_int_eq(s.from[0][0], 2);
    ck_assert_int_eq(s.from[1][0], 4);
    ck_assert_int_eq(s.from[2][0], 3);
    ck_assert_int_eq(s.from[3][0], 1);
    ck_assert_int_eq(s.fate[0][1], HR_FATE_QUEUED);
    ck_assert_int_eq(s.fate[2][1], HR_FATE_QUEUED);
    ck_assert_int_eq(s.fate[3][1], HR_FATE_DELIVERED);
    ck_assert_int_eq(s.fate[1][4], HR_FATE_DELIVERED);
    ck_assert_int_eq(res.rounds, 4);
    ck_assert_int_eq(s.ran[0], 4);
    ck_assert_uint_eq(res.stalls, 2 + 2 + 1);
}
END_TEST

/* The round events of the priority test's rounds, line by line (hr_machine_events): each
 * message's fate in each round, in the order rounds are resolved, with the receiver's queue. */
static void round_line(void *arg, const hr_event *e)
{
    if (e->kind == HR_EV_ROUND)
        fprintf(arg, "%llu,%d,%d,%s,%d\n", (unsigned long long)e->round, e->proc, e->peer,
                e->fate, e->queue);
}

/* The same without the queue: "ROUND,SOURCE,DEST,FATE". */
static void fate_line(void *arg, const hr_event *e)
{
    if (e->kind == HR_EV_ROUND)
        fprintf(arg, "%llu,%d,%d,%s\n", (unsigned long long)e->round, e->proc, e->peer, e->fate);
}

START_TEST(test_round_trace)
{
    script s;
    priority_script(&s);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    hr_machine_config cfg = hr_test_config(5, "priority");
    hr_machine *m;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    hr_machine_events(m, 1000);
    hr_run_result res;
    ck_assert_int_eq(hr_machine_run(m, body_script, &s, &res), HR_OK);
    ck_assert_int_eq(hr_machine_event_each(m, round_line, f), HR_OK);
    hr_machine_events(m, 0);
    ck_assert_int_eq(hr_machine_run(m, body_script, &s, &res), HR_OK);   /* not recorded */
    ck_assert_uint_eq(hr_machine_event_count(m, NULL), 0);
    hr_machine_destroy(m);
    fclose(f);
    ck_assert_str_eq(text, "1,1,0,queued,2\n"
                           "1,2,0,delivered,2\n"
                           "1,3,0,queued,2\n"
                           "2,4,0,delivered,2\n"
                           "3,3,0,delivered,1\n"
                           "4,1,0,delivered,0\n");
    free(text);
}
END_TEST

START_TEST(test_round_arbitrary_one_wins)
{
    /* P1..P3 to P0: one is received, two are lost; nothing waits for round 1. P4 to P5 alone. */
    script s;
    script_init(&s, 1);
    s.dest[0][1] = s.dest[0][2] = s.dest[0][3] = 0;
    s.dest[0][4] = 5;
    hr_run_result res = run_script(6, "arbitrary", 3, &s);
    int win = s.from[0][0];
    ck_assert(win >= 1 && win <= 3);
    for (int i = 1; i <= 3; i++)
        ck_assert_int_eq(s.fate[0][i], i == win ? HR_FATE_DELIVERED : HR_FATE_LOST);
    ck_assert_int_eq(s.from[0][5], 4);
    ck_assert_int_eq(s.fate[0][4], HR_FATE_DELIVERED);
    ck_assert_uint_eq(res.lost, 2);
    ck_assert_uint_eq(res.messages, 4);
    ck_assert_int_eq(res.rounds, 1);   /* nothing waits: the next call closes */
}
END_TEST

START_TEST(test_round_ocpc_collisions_destroy_all)
{
    /* P1, P2 to P0 collide: both lost. P3 to P4 alone: received. Round 1: P1 alone to P0. */
    script s;
    script_init(&s, 2);
    s.dest[0][1] = s.dest[0][2] = 0;
    s.dest[0][3] = 4;
    s.dest[1][1] = 0;
    hr_run_result res = run_script(5, "ocpc", 1, &s);
    ck_assert_int_eq(s.from[0][0], -1);
    ck_assert_int_eq(s.fate[0][1], HR_FATE_LOST);
    ck_assert_int_eq(s.fate[0][2], HR_FATE_LOST);
    ck_assert_int_eq(s.from[0][4], 3);
    ck_assert_int_eq(s.from[1][0], 1);
    ck_assert_int_eq(s.fate[1][1], HR_FATE_DELIVERED);
    ck_assert_uint_eq(res.lost, 2);
    ck_assert_int_eq(res.rounds, 2);
    ck_assert_double_eq_tol(res.model_time_s, 2 * ROUND_S, 1e-12);
}
END_TEST

/* ---- message sizes ---------------------------------------------------------------------------- */

/* P i sends ring_len[i] bytes to P i+1 (mod 4), byte k being (31 i + k) mod 256: up to 24
 * bytes travel in the round engine's slots (core.h, HR_ROUND_INLINE), longer ones in buffers.
 * Each receiver checks what it got; ok[i] says P i's check passed. */
static const size_t ring_len[4] = { 1, 24, 25, 300 };

static void body_sizes(hr_proc *p, void *arg)
{
    int *ok = arg, me = hr_pid(p), from = (me + 3) % 4;
    unsigned char out[300], in[300];
    for (size_t k = 0; k < ring_len[me]; k++)
        out[k] = (unsigned char)(31 * me + (int)k);
    ck_assert_int_eq(hr_round_send(p, (me + 1) % 4, out, ring_len[me], 0), HR_FATE_SENT);
    hr_round_end(p, 0);
    hr_status st;
    int got = hr_round_recv(p, in, sizeof in, &st);
    int good = got == 1 && st.source == from && st.bytes == ring_len[from] &&
               hr_round_fate(p) == HR_FATE_DELIVERED;
    for (size_t k = 0; good && k < ring_len[from]; k++)
        good = in[k] == (unsigned char)(31 * from + (int)k);
    ok[me] = good && hr_round_recv(p, in, sizeof in, NULL) == 0;   /* taken once */
}

START_TEST(test_round_message_sizes)
{
    static const char *engines[] = { "threads", "fibers" };
    for (int e = 0; e < 2; e++) {
        hr_machine_config cfg = hr_test_config(4, "priority");
        cfg.engine = engines[e];
        int ok[4] = { 0 };
        hr_run_result res;
        hr_test_run(&cfg, body_sizes, ok, &res);
        ck_assert_msg(res.status == HR_OK, "%s", res.report);
        for (int i = 0; i < 4; i++)
            ck_assert_msg(ok[i], "%s: P%d received something else", engines[e], i);
        /* One round, as long as its longest message: tau + sigma * 300 (cm5: 88 us + 15 us). */
        ck_assert_int_eq(res.rounds, 1);
        ck_assert_double_eq_tol(res.model_time_s, 88e-6 + 300 * 50e-9, 1e-12);
        ck_assert_uint_eq(res.messages, 4);
        ck_assert_uint_eq(res.bytes, 1 + 24 + 25 + 300);
        ck_assert_uint_eq(res.max_in_bytes, 300);
    }
}
END_TEST

/* ---- misuse --------------------------------------------------------------------------------- */

static void body_two_sends(hr_proc *p, void *arg)
{
    (void)arg;
    int v = 0;
    if (hr_pid(p) == 0) {
        hr_round_send(p, 1, &v, sizeof v, 0);
        hr_round_send(p, 1, &v, sizeof v, 0);
    }
    hr_round_end(p, 0);
}

static void body_round_on_async(hr_proc *p, void *arg)
{
    (void)arg;
    hr_round_end(p, 0);
}

/* P1 leaves at once; the others wait for it in a round forever. */
static void body_round_left(hr_proc *p, void *arg)
{
    (void)arg;
    if (hr_pid(p) != 1)
        hr_round_end(p, 1);
}

START_TEST(test_round_misuse_is_reported)
{
    /* Each case on both engines: on fibers with one carrier, the round's waiters are woken in a
     * batch (threads.c, hr__release_word), and a deadlock among them is still found. */
    static const struct {
        int         p;
        const char *disc;
        void      (*body)(hr_proc *, void *);
        int         status;
        const char *said[3];
    } cases[] = {
        { 2, "fifo", body_two_sends, HR_EMISUSE, { "a second message in one round" } },
        { 2, "async", body_round_on_async, HR_EMISUSE, { "discipline async has no rounds" } },
        { 3, "arbitrary", body_round_left, HR_EDEADLK,
          { "P0 waits in hr_round_end", "P2 waits in hr_round_end",
            "P1 has returned from the algorithm" } },
    };
    static const char *engines[] = { "threads", "fibers" };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int e = 0; e < 2; e++) {
            hr_machine_config cfg = hr_test_config(cases[k].p, cases[k].disc);
            cfg.engine = engines[e];
            hr_run_result res;
            hr_test_run(&cfg, cases[k].body, NULL, &res);
            ck_assert_int_eq(res.status, cases[k].status);
            for (int i = 0; i < 3 && cases[k].said[i] != NULL; i++)
                ck_assert_msg(strstr(res.report, cases[k].said[i]) != NULL, "%s: %s",
                              engines[e], res.report);
        }
}
END_TEST

/* ---- determinism and scale ------------------------------------------------------------------- */

/* Every processor sends one message to each other processor (destinations in a random order of
 * its own; in a round, with probability 1/2), resending what is lost and waiting while stalled,
 * until all are received. Each
 * checks it received exactly one message from every other. */
static void body_storm(hr_proc *p, void *arg)
{
    int *bad = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    int *todo = hr_malloc(p, sizeof(int) * (size_t)n);
    char *got = hr_calloc(p, (size_t)n, 1);
    int left = 0;
    for (int d = 0; d < n; d++)
        if (d != me)
            todo[left++] = d;
    for (int k = left - 1; k > 0; k--) {
        int j = (int)hr_rand_below(p, (uint64_t)k + 1), t = todo[k];
        todo[k] = todo[j];
        todo[j] = t;
    }
    int out = -1;   /* index in todo of the message out */
    for (;;) {
        /* Half the time: under ocpc two that keep sending to one receiver collide forever. */
        if (out < 0 && left > 0 && (hr_rand(p) & 1)) {
            out = left - 1;
            uint32_t v = (uint32_t)me;
            hr_round_send(p, todo[out], &v, sizeof v, hr_rand(p));
        }
        if (hr_round_end(p, left > 0) == 0)
            break;
        hr_fate f = hr_round_fate(p);
        if (f == HR_FATE_DELIVERED) {
            left--;
            out = -1;
        } else if (f == HR_FATE_LOST) {
            out = -1;   /* the same destination is sent again next round */
        }
        uint32_t v;
        hr_status st;
        if (hr_round_recv(p, &v, sizeof v, &st) && (v != (uint32_t)st.source || got[v]++))
            *bad = 1;
    }
    for (int s = 0; s < n; s++)
        if (s != me && got[s] != 1)
            *bad = 1;
}

static hr_run_result run_storm(int p, const char *disc, int jitter)
{
    hr_machine_config cfg = hr_test_config(p, disc);
    cfg.jitter = jitter;
    cfg.seed = 7;
    int bad = 0;
    hr_run_result res;
    hr_test_run(&cfg, body_storm, &bad, &res);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    ck_assert_msg(!bad, "%s, p = %d: a message was lost, repeated or changed", disc, p);
    return res;
}

START_TEST(test_round_deterministic_under_jitter)
{
    static const char *discs[] = { "fifo", "priority", "arbitrary", "ocpc" };
    for (int d = 0; d < 4; d++) {
        hr_run_result a = run_storm(16, discs[d], 0);
        hr_run_result b = run_storm(16, discs[d], 1);
        ck_assert_msg(a.rounds >= 15, "%s: %llu rounds for an all-to-all of 16", discs[d],
                      (unsigned long long)a.rounds);
        ck_assert_uint_eq(a.rounds, b.rounds);
        ck_assert_uint_eq(a.lost, b.lost);
        ck_assert_uint_eq(a.stalls, b.stalls);
        ck_assert_uint_eq(a.messages, b.messages);
        ck_assert(a.model_time_s == b.model_time_s);
    }
}
END_TEST

START_TEST(test_round_scale)
{
    /* An all-to-all over HR_TEST_SCALE_PROCS processors finishes (fifo: nothing is lost). */
    int p = HR_TEST_TSAN ? 64 : 256;
    hr_run_result a = run_storm(p, "fifo", 0);
    ck_assert_uint_eq(a.messages, (uint64_t)p * (uint64_t)(p - 1));
    ck_assert_uint_eq(a.lost, 0);
}
END_TEST

/* ---- hrel.aw_uniform: seed 003 sec. 7, every unsent message with equal probability ---------- */

typedef struct aw_job {
    const hr_algorithm *alg;
    void               *inst;
} aw_job;

static void body_aw(hr_proc *p, void *arg)
{
    static const double none[1];
    aw_job *j = arg;
    j->alg->run(p, j->inst, none);
}

/* A run of hrel.aw_uniform under arbitrary write on the h-relation spec makes, with seed and
 * jitter, traced into *trace (malloc'd; free it) if trace is not NULL. Asserts that the run ends
 * and verifies; the instance comes back in *inst, for the hrelation workload's destroy. */
static hr_run_result run_aw_uniform(int p, const hr_workload_spec *spec, uint64_t seed, int jitter,
                                    char **trace, hr_hrel **inst)
{
    const hr_algorithm *a = hr_algorithm_find("hrel.aw_uniform");
    const hr_workload *w = hr_workload_find("hrelation");
    ck_assert_ptr_nonnull(a);
    ck_assert(hr_algorithm_allows(a, "arbitrary") && !hr_algorithm_allows(a, "ocpc"));
    char why[256];
    aw_job j = { .alg = a };
    ck_assert_msg(w->make(spec, p, &j.inst, why, sizeof why) == HR_OK, "make: %s", why);
    hr_machine_config cfg = hr_test_config(p, "arbitrary");
    cfg.seed = seed;
    cfg.jitter = jitter;
    hr_machine *m;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    hr_machine_events(m, trace != NULL ? 1000000 : 0);
    hr_run_result res;
    ck_assert_int_eq(hr_machine_run(m, body_aw, &j, &res), HR_OK);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    if (trace != NULL) {
        size_t len = 0;
        FILE *f = open_memstream(trace, &len);
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(hr_machine_event_each(m, fate_line, f), HR_OK);
        fclose(f);
    }
    /* outputs are the processors' memory: verify before the machine goes */
    int v = w->verify(j.inst, why, sizeof why);
    hr_machine_destroy(m);
    ck_assert_msg(v == HR_OK, "%s p=%d seed %d: %s", spec->distribution, p, (int)seed, why);
    *inst = j.inst;
    return res;
}

static hr_workload_spec alltoall_spec(int p)
{
    return (hr_workload_spec){ .kind = "hrelation", .n = (uint64_t)p * (uint64_t)(p - 1),
                               .distribution = "alltoall", .seed = 3 };
}

static hr_workload_spec random_spec(int p, uint64_t h)
{
    return (hr_workload_spec){ .kind = "hrelation", .n = h * (uint64_t)p, .h = h,
                               .distribution = "random", .seed = 4 };
}

/* The rule, from the trace of a run on r: every processor sends exactly one message in each of the
 * rounds 1 .. L_s and none after, where L_s is the round of its last delivery; it sends only
 * messages it has not delivered yet (to j at most d_sj times delivered, and never again after
 * that); all of its messages are delivered. Hence messages = sum of L_s, lost = messages - n,
 * rounds = max L_s. */
static void check_one_a_round(const hr_hrel *r, const char *trace, const hr_run_result *res)
{
    int p = r->p;
    uint64_t *last = calloc((size_t)p, sizeof *last), *sends = calloc((size_t)p, sizeof *sends);
    uint64_t *left = calloc((size_t)p * (size_t)p, sizeof *left);   /* [s*p + j]: d_sj to go */
    ck_assert(last != NULL && sends != NULL && left != NULL);
    for (int s = 0; s < p; s++)
        for (size_t k = 0; k < r->in_count[s]; k++)
            left[(size_t)s * (size_t)p + r->in[s][k].dest]++;
    uint64_t lines = 0, lost = 0;
    for (const char *t = trace; *t != '\0'; t = strchr(t, '\n') + 1) {
        unsigned long long round;
        int src, dst, n = 0;
        char ev[16];
        ck_assert_int_eq(sscanf(t, "%llu,%d,%d,%15[a-z]%n", &round, &src, &dst, ev, &n), 4);
        ck_assert(src >= 0 && src < p && dst >= 0 && dst < p && t[n] == '\n');
        lines++;
        /* one send a round, with no gap: its rounds so far are exactly 1 .. sends[src] */
        ck_assert_msg(round == sends[src] + 1, "P%d sent in round %llu after %llu rounds of sends",
                      src, round, (unsigned long long)sends[src]);
        sends[src] = round;
        size_t sj = (size_t)src * (size_t)p + (size_t)dst;
        ck_assert_msg(left[sj] > 0, "P%d sent to P%d in round %llu with nothing left for it", src,
                      dst, round);
        if (strcmp(ev, "delivered") == 0) {
            left[sj]--;
            last[src] = round;
        } else {
            ck_assert_str_eq(ev, "lost");
            lost++;
        }
    }
    uint64_t sum = 0, max = 0;
    for (int s = 0; s < p; s++) {
        for (int j = 0; j < p; j++)
            ck_assert_uint_eq(left[(size_t)s * (size_t)p + (size_t)j], 0);
        /* after its last delivery a processor sends nothing */
        ck_assert_uint_eq(sends[s], last[s]);
        sum += last[s];
        max = last[s] > max ? last[s] : max;
    }
    ck_assert_uint_eq(res->messages, lines);
    ck_assert_uint_eq(res->messages, sum);
    ck_assert_uint_eq(res->lost, lost);
    ck_assert_uint_eq(res->messages - res->lost, r->n);
    ck_assert_uint_eq(res->rounds, max);
    ck_assert_uint_eq(res->stalls, 0);
    free(last);
    free(sends);
    free(left);
}

START_TEST(test_round_aw_uniform_one_message_a_round)
{
    /* On all-to-all and on random 5-relations (which may repeat a destination), p = 2 .. 64. */
    static const int sizes[] = { 2, 3, 8, 64 };
    const hr_workload *w = hr_workload_find("hrelation");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int d = 0; d < 2; d++) {
            int p = sizes[i];
            hr_workload_spec spec = d == 0 ? alltoall_spec(p) : random_spec(p, 5);
            char *trace = NULL;
            hr_hrel *r;
            hr_run_result res = run_aw_uniform(p, &spec, 1, -1, &trace, &r);
            check_one_a_round(r, trace, &res);
            /* each processor delivers at most one message a round: at least h rounds */
            ck_assert_uint_ge(res.rounds, r->h);
            if (p == 2) {   /* each receiver has one sender: nothing collides, h rounds */
                ck_assert_uint_eq(res.rounds, r->h);
                ck_assert_uint_eq(res.lost, 0);
            }
            free(trace);
            w->destroy(r);
        }
}
END_TEST

START_TEST(test_round_aw_uniform_draws_uniformly)
{
    /* Round 1 of an all-to-all of 8: every processor sends, to a destination drawn uniformly from
     * its 7. Over 30 seeds the 240 first sends fall on each offset j - s (mod 8) 240/7 = 34 times
     * on average; always the first message of the list (offset 1, the workload's order) or any
     * fixed one would put all 240 on one offset. */
    const hr_workload *w = hr_workload_find("hrelation");
    hr_workload_spec spec = alltoall_spec(8);
    int offset[8] = { 0 };
    for (uint64_t seed = 1; seed <= 30; seed++) {
        char *trace = NULL;
        hr_hrel *r;
        run_aw_uniform(8, &spec, seed, -1, &trace, &r);
        int firsts = 0;
        for (const char *t = trace; *t != '\0'; t = strchr(t, '\n') + 1) {
            int round, src, dst;
            ck_assert_int_eq(sscanf(t, "%d,%d,%d", &round, &src, &dst), 3);
            if (round == 1) {
                offset[(dst - src + 8) % 8]++;
                firsts++;
            }
        }
        ck_assert_int_eq(firsts, 8);
        free(trace);
        w->destroy(r);
    }
    ck_assert_int_eq(offset[0], 0);
    for (int k = 1; k < 8; k++)
        ck_assert_msg(offset[k] >= 15 && offset[k] <= 55, "offset %d drawn %d times of 240", k,
                      offset[k]);
}
END_TEST

START_TEST(test_round_aw_uniform_deterministic_under_jitter)
{
    /* The same seed gives the same trace, line for line, with and without HREMU_JITTER's yields
     * and sleeps. */
    const hr_workload *w = hr_workload_find("hrelation");
    for (int d = 0; d < 2; d++) {
        hr_workload_spec spec = d == 0 ? alltoall_spec(16) : random_spec(16, 6);
        char *a = NULL, *b = NULL;
        hr_hrel *r;
        hr_run_result x = run_aw_uniform(16, &spec, 9, 0, &a, &r);
        w->destroy(r);
        hr_run_result y = run_aw_uniform(16, &spec, 9, 1, &b, &r);
        w->destroy(r);
        ck_assert_str_eq(a, b);
        ck_assert_uint_eq(x.rounds, y.rounds);
        ck_assert_uint_eq(x.messages, y.messages);
        ck_assert_uint_eq(x.lost, y.lost);
        ck_assert(x.model_time_s == y.model_time_s);
        free(a);
        free(b);
    }
}
END_TEST

START_TEST(test_round_aw_uniform_alltoall_time)
{
    /* All-to-all of 64 (h = 63), seeds 1 .. 3: docs/seed003.md gives 1.71h .. 1.79h for seeds
     * 1 .. 10. Theorem 10's stage schedule takes 2.17h here, and sending with any probability
     * below 1 would spread the same sends over more rounds: the band catches both. */
    const hr_workload *w = hr_workload_find("hrelation");
    hr_workload_spec spec = alltoall_spec(64);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        hr_hrel *r;
        hr_run_result res = run_aw_uniform(64, &spec, seed, -1, NULL, &r);
        double per_h = (double)res.rounds / 63;
        ck_assert_msg(per_h >= 1.6 && per_h <= 1.95, "seed %d: %.3fh", (int)seed, per_h);
        w->destroy(r);
    }
}
END_TEST

/* Code outside the engine asks a discipline's traits, never its name: each row's, by hand from
 * docs/model.md, and what must go together (queues, losses and priorities are round rules';
 * a collision that destroys is a loss; only async takes a bounded buffer). */
START_TEST(test_round_discipline_traits)
{
    static const struct { const char *name; unsigned traits; hr_disc_send send; } want[] = {
        { "arbitrary", HR_DISC_IN_ROUNDS | HR_DISC_LOSES, HR_SEND_NONE },
        { "async", HR_DISC_BUFFERED, HR_SEND_COPY },
        { "eager", HR_DISC_STALLS | HR_DISC_EAGER, HR_SEND_EAGER },
        { "fifo", HR_DISC_IN_ROUNDS | HR_DISC_QUEUES | HR_DISC_STALLS, HR_SEND_NONE },
        { "ocpc", HR_DISC_IN_ROUNDS | HR_DISC_LOSES | HR_DISC_DESTROYS, HR_SEND_NONE },
        { "priority", HR_DISC_IN_ROUNDS | HR_DISC_QUEUES | HR_DISC_PRIORITIES | HR_DISC_STALLS,
          HR_SEND_NONE },
        { "sync", HR_DISC_RENDEZVOUS | HR_DISC_STALLS, HR_SEND_RENDEZVOUS },
    };
    int n = 0;
    for (const char *name; (name = hr_discipline_name(n, NULL)) != NULL; n++) {
        const hr_disc *d = hr__discipline_find(name);
        ck_assert_ptr_nonnull(d);
        ck_assert_str_eq(want[n].name, name);
        ck_assert_uint_eq(d->traits, want[n].traits);
        ck_assert_uint_eq(hr__discipline_traits(name), d->traits);
        int rounds = (d->traits & HR_DISC_IN_ROUNDS) != 0;
        ck_assert_int_eq(d->send, want[n].send);
        ck_assert_int_eq(rounds, d->send == HR_SEND_NONE);
        ck_assert_int_eq(rounds, d->rule != NULL);
        if (d->traits & (HR_DISC_QUEUES | HR_DISC_LOSES | HR_DISC_PRIORITIES))
            ck_assert(rounds);
        if (d->traits & HR_DISC_DESTROYS)
            ck_assert(d->traits & HR_DISC_LOSES);
        ck_assert_int_eq((d->traits & HR_DISC_RENDEZVOUS) != 0, d->send == HR_SEND_RENDEZVOUS);
        ck_assert_int_eq((d->traits & HR_DISC_EAGER) != 0, d->send == HR_SEND_EAGER);
        /* A send completes at its receive exactly when the row says so. */
        ck_assert_int_eq(hr__disc_rendezvous(d, 4097, 4096), d->send == HR_SEND_RENDEZVOUS ||
                                                             d->send == HR_SEND_EAGER);
        ck_assert_int_eq(hr__disc_rendezvous(d, 4096, 4096), d->send == HR_SEND_RENDEZVOUS);
    }
    ck_assert_int_eq(n, (int)(sizeof want / sizeof want[0]));
    ck_assert_uint_eq(hr__discipline_traits("nonesuch"), 0);
    ck_assert_uint_eq(hr__discipline_traits(NULL), 0);
}
END_TEST

Suite *hr_round_suite(void)
{
    Suite *s = suite_create("round");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, test_round_fifo_queue_and_stall);
    tcase_add_test(tc, test_round_discipline_traits);
    tcase_add_test(tc, test_round_fifo_tie_order_is_seeded);
    tcase_add_test(tc, test_round_priority_highest_first);
    tcase_add_test(tc, test_round_trace);
    tcase_add_test(tc, test_round_arbitrary_one_wins);
    tcase_add_test(tc, test_round_ocpc_collisions_destroy_all);
    tcase_add_test(tc, test_round_message_sizes);
    tcase_add_test(tc, test_round_misuse_is_reported);
    suite_add_tcase(s, tc);
    tc = tcase_create("engine");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_round_deterministic_under_jitter);
    tcase_add_test(tc, test_round_scale);
    suite_add_tcase(s, tc);
    tc = tcase_create("aw_uniform");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_round_aw_uniform_one_message_a_round);
    tcase_add_test(tc, test_round_aw_uniform_draws_uniformly);
    tcase_add_test(tc, test_round_aw_uniform_deterministic_under_jitter);
    tcase_add_test(tc, test_round_aw_uniform_alltoall_time);
    suite_add_tcase(s, tc);
    return s;
}
