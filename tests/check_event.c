/* check_event.c: a run's events (hr_machine_events): one send and one receive for every message,
 * paired by id, in the canonical order, the same under jitter; computing recorded with its
 * times; the limit. (Round messages' fates: tests/cli/run.sh, the --trace cases.) */
#include "hr_test.h"

#include <stdlib.h>
#include <string.h>

#include <hremu/hremu.h>

typedef struct events {
    hr_event *v;
    size_t    n, cap;
} events;

static void keep(void *arg, const hr_event *e)
{
    events *s = arg;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        ck_assert_ptr_nonnull(s->v);
    }
    s->v[s->n++] = *e;
}

/* A ring: each processor computes 5000 units, then sends 100 bytes to the next and receives
 * from the previous in one hr_sendrecv (blocking sends would deadlock under rendezvous). */
static void ring(hr_proc *p, void *arg)
{
    (void)arg;
    int me = hr_pid(p), np = hr_nprocs(p);
    char out[100] = { 0 }, in[100];
    hr_compute(p, 5000);
    hr_sendrecv(p, (me + 1) % np, 3, out, sizeof out, (me + np - 1) % np, 3, in, sizeof in, NULL);
}

static void run_ring(const char *disc, int jitter, size_t limit, events *out, hr_run_result *res)
{
    hr_machine_config cfg = hr_test_config(8, disc);
    cfg.jitter = jitter;
    hr_machine *m;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    hr_machine_events(m, limit);
    ck_assert_int_eq(hr_machine_run(m, ring, NULL, res), HR_OK);
    ck_assert_msg(res->status == HR_OK, "%s", res->report);
    memset(out, 0, sizeof *out);
    ck_assert_int_eq(hr_machine_event_each(m, keep, out), HR_OK);
    size_t dropped = 9;
    ck_assert_uint_eq(hr_machine_event_count(m, &dropped), out->n);
    if (limit >= 1000)
        ck_assert_uint_eq(dropped, 0);
    hr_machine_destroy(m);
}

START_TEST(test_event_ring)
{
    static const char *const discs[] = { "async", "sync" };
    for (int d = 0; d < 2; d++) {
        events a, b;
        hr_run_result res;
        run_ring(discs[d], 0, 1000, &a, &res);
        /* 8 computes, 8 sends, 8 receives. */
        ck_assert_uint_eq(a.n, 24);
        int sends = 0, recvs = 0, computes = 0;
        for (size_t i = 0; i < a.n; i++) {
            const hr_event *e = &a.v[i];
            if (i > 0)   /* canonical order: by t0 first */
                ck_assert(a.v[i - 1].t0 <= e->t0);
            ck_assert(e->t1 >= e->t0);
            ck_assert(e->t1 <= res.model_time_s + 1e-15);
            if (e->kind == HR_EV_COMPUTE) {
                computes++;
                ck_assert(e->t0 == 0 && e->t1 > 4.999e-6 && e->t1 < 5.001e-6);   /* 5000 x 1 ns */
                continue;
            }
            ck_assert_uint_eq(e->bytes, 100);
            ck_assert_int_eq(e->tag, 3);
            /* The other half of the message: the same id, the other kind, the sides swapped. */
            int found = 0;
            for (size_t j = 0; j < a.n; j++)
                found += a.v[j].msg == e->msg && a.v[j].kind != e->kind &&
                         a.v[j].kind != HR_EV_COMPUTE && a.v[j].proc == e->peer &&
                         a.v[j].peer == e->proc;
            ck_assert_int_eq(found, 1);
            ck_assert_uint_eq(e->msg >> 32, (uint64_t)(e->kind == HR_EV_SEND ? e->proc : e->peer));
            sends += e->kind == HR_EV_SEND;
            recvs += e->kind == HR_EV_RECV;
        }
        ck_assert_int_eq(sends, 8);
        ck_assert_int_eq(recvs, 8);
        ck_assert_int_eq(computes, 8);
        /* By hand, cm5: the sends start at 5 us, arrive 88 us later and take 5 us to absorb. */
        for (size_t i = 0; i < a.n; i++)
            if (a.v[i].kind == HR_EV_RECV)
                ck_assert(a.v[i].t1 > 97.999e-6 && a.v[i].t1 < 98.001e-6);
        run_ring(discs[d], 1, 1000, &b, &res);
        ck_assert_uint_eq(a.n, b.n);
        ck_assert(memcmp(a.v, b.v, a.n * sizeof *a.v) == 0);
        free(a.v);
        free(b.v);
    }
}
END_TEST

START_TEST(test_event_limit_and_off)
{
    events a;
    hr_run_result res;
    run_ring("async", 0, 8, &a, &res);      /* one event a processor: its computing */
    ck_assert_uint_eq(a.n, 8);
    for (size_t i = 0; i < a.n; i++)
        ck_assert_int_eq(a.v[i].kind, HR_EV_COMPUTE);
    free(a.v);
    run_ring("async", 0, 0, &a, &res);      /* off */
    ck_assert_uint_eq(a.n, 0);
    free(a.v);
}
END_TEST

Suite *hr_event_suite(void)
{
    Suite *s = suite_create("event");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_event_ring);
    tcase_add_test(tc, test_event_limit_and_off);
    suite_add_tcase(s, tc);
    return s;
}
