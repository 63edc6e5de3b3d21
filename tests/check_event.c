/* check_event.c: a run's events (hr_machine_events): one send and one receive for every message,
 * paired by id, in the canonical order, the same under jitter; computing recorded with its
 * times; regions and collectives with their names, holding their messages; the links each
 * message crossed, one message at a time; a send's stall for buffer room; a barrier's waits; the limit. (Round messages' fates: tests/cli/run.sh, the --trace cases.) */
#include "hr_test.h"

#include <stdlib.h>
#include <string.h>

#include <hremu/hremu.h>

#include "cli/jsonstr.h"

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

/* a and b are the same event (field by field: padding is not part of an event). */
static void same_event(const hr_event *a, const hr_event *b)
{
    ck_assert_int_eq(a->kind, b->kind);
    ck_assert_int_eq(a->proc, b->proc);
    ck_assert_int_eq(a->peer, b->peer);
    ck_assert(a->msg == b->msg && a->t0 == b->t0 && a->t1 == b->t1 && a->bytes == b->bytes);
    ck_assert(a->tag == b->tag && a->prio == b->prio && a->queue == b->queue &&
              a->round == b->round);
    ck_assert((a->fate == NULL) == (b->fate == NULL));
    if (a->fate != NULL)
        ck_assert_str_eq(a->fate, b->fate);
    ck_assert((a->name == NULL) == (b->name == NULL));
    if (a->name != NULL)
        ck_assert_str_eq(a->name, b->name);
    ck_assert_int_eq(a->link, b->link);
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
        for (size_t i = 0; i < a.n; i++)
            same_event(&a.v[i], &b.v[i]);
        free(a.v);
        free(b.v);
    }
}
END_TEST

/* A region around computing and two collectives: processor i computes (i + 1) * 1000 units,
 * then broadcasts from 0 and all-reduces (which is a reduce and a broadcast inside: one
 * collective event, not three). */
static void regions(hr_proc *p, void *arg)
{
    (void)arg;
    int64_t v = hr_pid(p), sum = 0;
    hr_region_begin(p, "outer");
    hr_compute(p, (uint64_t)(hr_pid(p) + 1) * 1000);
    hr_bcast(p, 0, &v, sizeof v);
    hr_allreduce(p, &v, &sum, 1, HR_INT64, HR_SUM);
    hr_region_end(p, "outer");
}

/* Run body on 4 processors under async on topology, recording events, into *out; the machine
 * stays in *m (the events' names live in it). */
static void run_four(const char *topology, void (*body)(hr_proc *, void *), int jitter,
                     events *out, hr_machine **m)
{
    hr_machine_config cfg = hr_test_config(4, "async");
    cfg.topology = topology;
    cfg.jitter = jitter;
    hr_run_result res;
    ck_assert_int_eq(hr_machine_create(&cfg, m, NULL), HR_OK);
    hr_machine_events(*m, 1000);
    ck_assert_int_eq(hr_machine_run(*m, body, NULL, &res), HR_OK);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    memset(out, 0, sizeof *out);
    ck_assert_int_eq(hr_machine_event_each(*m, keep, out), HR_OK);
}

/* Run body again as run_four did for *a (on machine ma), under jitter: the same events, field by
 * field. Then both runs' machines and events are freed. */
static void same_under_jitter(const char *topology, void (*body)(hr_proc *, void *), events *a,
                              hr_machine *ma)
{
    events b;
    hr_machine *mb;
    run_four(topology, body, 1, &b, &mb);
    ck_assert_uint_eq(a->n, b.n);
    for (size_t i = 0; i < a->n; i++)
        same_event(&a->v[i], &b.v[i]);
    hr_machine_destroy(ma);
    hr_machine_destroy(mb);
    free(a->v);
    free(b.v);
}

START_TEST(test_event_regions_collectives)
{
    events a;
    hr_machine *ma;
    run_four(NULL, regions, 0, &a, &ma);
    for (int me = 0; me < 4; me++) {
        const hr_event *region = NULL, *coll[2] = { NULL, NULL };
        int ncoll = 0;
        for (size_t i = 0; i < a.n; i++) {
            const hr_event *e = &a.v[i];
            if (e->proc != me)
                continue;
            if (e->kind == HR_EV_REGION) {
                ck_assert_ptr_null(region);
                region = e;
                ck_assert_str_eq(e->name, "outer");
            } else if (e->kind == HR_EV_COLL) {
                ck_assert_int_lt(ncoll, 2);
                coll[ncoll++] = e;
            } else {
                ck_assert_ptr_null(e->name);
            }
        }
        ck_assert_ptr_nonnull(region);
        ck_assert_int_eq(ncoll, 2);
        ck_assert_str_eq(coll[0]->name, "hr_bcast from root 0");
        ck_assert_str_eq(coll[1]->name, "hr_allreduce");
        /* The broadcast starts when the computing ends, (me + 1) us; the all-reduce when the
         * broadcast returns; the region holds both. */
        ck_assert_double_eq_tol(coll[0]->t0, (me + 1) * 1e-6, 1e-12);
        ck_assert(coll[1]->t0 >= coll[0]->t1);
        ck_assert(region->t0 == 0 && region->t1 >= coll[1]->t1 && region->t1 > coll[1]->t0);
        /* Every message of a collective lies inside it: sent after the call, received before
         * the return (a send's port may drain after it). */
        for (size_t i = 0; i < a.n; i++) {
            const hr_event *e = &a.v[i];
            if (e->proc != me || (e->kind != HR_EV_SEND && e->kind != HR_EV_RECV))
                continue;
            ck_assert_int_lt(e->tag, 0);
            const hr_event *c = e->t0 < coll[1]->t0 ? coll[0] : coll[1];
            ck_assert(e->t0 >= c->t0);
            if (e->kind == HR_EV_RECV)
                ck_assert(e->t1 <= c->t1);
        }
    }
    /* The same events under jitter, names and all. */
    same_under_jitter(NULL, regions, &a, ma);
}
END_TEST

/* Each processor of a ring of 4 sends 1000 bytes two steps on (every route is two links). */
static void across(hr_proc *p, void *arg)
{
    (void)arg;
    int me = hr_pid(p);
    char out[1000] = { 0 }, in[1000];
    hr_sendrecv(p, (me + 2) % 4, 1, out, sizeof out, (me + 2) % 4, 1, in, sizeof in, NULL);
}

START_TEST(test_event_links)
{
    events a;
    hr_machine *ma;
    run_four("ring", across, 0, &a, &ma);
    int links = 0;
    for (size_t i = 0; i < a.n; i++) {
        const hr_event *e = &a.v[i];
        if (e->kind != HR_EV_SEND)
            continue;
        /* The message's link events: two, a path from its sender to its receiver, the second
         * starting no earlier than the first, each carrying its 1000 bytes. */
        const hr_event *hop[3];
        int h = 0;
        for (size_t j = 0; j < a.n; j++)
            if (a.v[j].kind == HR_EV_LINK && a.v[j].msg == e->msg) {
                ck_assert_int_lt(h, 2);
                hop[h++] = &a.v[j];
            }
        ck_assert_int_eq(h, 2);
        ck_assert_int_eq(hop[0]->proc, e->proc);
        ck_assert_int_eq(hop[0]->peer, hop[1]->proc);
        ck_assert_int_eq(hop[1]->peer, e->peer);
        ck_assert_int_ne(hop[0]->link, hop[1]->link);
        for (int k = 0; k < 2; k++) {
            ck_assert_uint_eq(hop[k]->bytes, 1000);
            ck_assert(hop[k]->t0 >= e->t0 && hop[k]->t1 > hop[k]->t0);
        }
        links += 2;
    }
    /* A link carries one message at a time: its busy spans never overlap. */
    size_t nlink = 0;
    for (size_t i = 0; i < a.n; i++)
        for (size_t j = i + 1; j < a.n; j++)
            if (a.v[i].kind == HR_EV_LINK && a.v[j].kind == HR_EV_LINK &&
                a.v[i].link == a.v[j].link)
                ck_assert(a.v[i].t1 <= a.v[j].t0 || a.v[j].t1 <= a.v[i].t0);
    for (size_t i = 0; i < a.n; i++)
        nlink += a.v[i].kind == HR_EV_LINK;
    ck_assert_int_eq(links, 8);
    ck_assert_uint_eq(nlink, 8);
    same_under_jitter("ring", across, &a, ma);
}
END_TEST

/* P0 sends two 100-byte messages to P1, whose buffer holds one, while P1 computes 1000 us
 * (check_buffer.c works the times out): the second send stalls until P1 takes the first, at
 * 1000 us. */
static void stall(hr_proc *p, void *arg)
{
    (void)arg;
    char m[100] = { 0 };
    if (hr_pid(p) == 0) {
        hr_send(p, 1, 0, m, sizeof m);
        hr_send(p, 1, 0, m, sizeof m);
    } else {
        hr_compute(p, 1000000);
        hr_recv(p, 0, 0, m, sizeof m, NULL);
        hr_recv(p, 0, 0, m, sizeof m, NULL);
    }
}

/* Run stall on a machine of cfg that records events: the run ends ok with one stall; its
 * events go to *a. The machine is the caller's to destroy (the events name its strings). */
static hr_machine *run_stall(hr_machine_config cfg, events *a)
{
    hr_machine *m;
    hr_run_result res;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    hr_machine_events(m, 1000);
    ck_assert_int_eq(hr_machine_run(m, stall, NULL, &res), HR_OK);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    ck_assert_uint_eq(res.stalls, 1);
    ck_assert_int_eq(hr_machine_event_each(m, keep, a), HR_OK);
    return m;
}

/* Under sync a send waits for its receive: P0's first send, issued at 0, waits until P1 posts
 * its receive after 1000 us of work (a stall from 0 to 1000 us); its second finds the receive
 * posted (taken at 1088 + 5 us) and does not stall. */
START_TEST(test_event_rendezvous_stall)
{
    hr_machine_config cfg = hr_test_config(2, "sync");
    events a = { 0 };
    hr_machine *m = run_stall(cfg, &a);
    int n = 0;
    for (size_t i = 0; i < a.n; i++)
        if (a.v[i].kind == HR_EV_STALL) {
            n++;
            ck_assert_int_eq(a.v[i].proc, 0);
            ck_assert_int_eq(a.v[i].peer, 1);
            ck_assert_uint_eq(a.v[i].msg & 0xffffffffu, 0);
            ck_assert_double_eq_tol(a.v[i].t0, 0, 1e-12);
            ck_assert_double_eq_tol(a.v[i].t1, 1000e-6, 1e-12);
        }
    ck_assert_int_eq(n, 1);
    free(a.v);
    hr_machine_destroy(m);
}
END_TEST

START_TEST(test_event_stall)
{
    hr_machine_config cfg = hr_test_config(2, NULL);
    cfg.buffer = 100;
    events a = { 0 };
    hr_machine *m = run_stall(cfg, &a);
    const hr_event *st = NULL, *second = NULL;
    for (size_t i = 0; i < a.n; i++) {
        if (a.v[i].kind == HR_EV_STALL) {
            ck_assert_ptr_null(st);
            st = &a.v[i];
        }
        if (a.v[i].kind == HR_EV_SEND && (a.v[i].msg & 0xffffffffu) == 1)
            second = &a.v[i];
    }
    ck_assert_ptr_nonnull(st);
    ck_assert_ptr_nonnull(second);
    ck_assert_int_eq(st->proc, 0);
    ck_assert_int_eq(st->peer, 1);
    ck_assert_uint_eq(st->bytes, 100);
    ck_assert(st->msg == second->msg);
    /* P0's program waits from issuing the send (its clock still 0: an async send costs the
     * program nothing under cm5, whose overhead is 0) to the admission at 1000 us. */
    ck_assert_double_eq_tol(st->t0, 0, 1e-12);
    ck_assert_double_eq_tol(st->t1, 1000e-6, 1e-12);
    hr_machine_destroy(m);
    free(a.v);
}
END_TEST

/* Processor i computes (i + 1) * 1000 units, then waits at a barrier. */
static void late(hr_proc *p, void *arg)
{
    (void)arg;
    hr_compute(p, (uint64_t)(hr_pid(p) + 1) * 1000);
    hr_barrier(p);
}

START_TEST(test_event_barrier_wait)
{
    events a;
    hr_machine *m;
    run_four(NULL, late, 0, &a, &m);
    /* Each waits from the end of its computing, (i + 1) us, to its release by the dissemination
     * barrier (cm5: 88 us a message, no overhead). Arrivals 1, 2, 3, 4 us; after the round at
     * distance 1, max(own, previous + 88): 92, 89, 90, 91; at distance 2: 178, 179, 180, 177. */
    static const double release[4] = { 178e-6, 179e-6, 180e-6, 177e-6 };
    int seen = 0;
    for (size_t i = 0; i < a.n; i++) {
        const hr_event *e = &a.v[i];
        if (e->kind != HR_EV_COLL)
            continue;
        ck_assert_str_eq(e->name, "hr_barrier");
        ck_assert_double_eq_tol(e->t0, (e->proc + 1) * 1e-6, 1e-12);
        ck_assert_double_eq_tol(e->t1, release[e->proc], 1e-12);
        seen |= 1 << e->proc;
    }
    ck_assert_int_eq(seen, 0xf);
    hr_machine_destroy(m);
    free(a.v);
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

/* The strings a trace or the --html page's script holds, escaped for their place: JSON escapes,
 * bytes that are not UTF-8 as U+FFFD (a stray continuation byte, a truncated sequence, an
 * overlong '/', a surrogate), well-formed UTF-8 kept; in a script also '<', '>', '&' and the
 * line separators, so "</script>" cannot end the script. */
static char *escaped(void (*fn)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    fn(f, s);
    fclose(f);
    return buf;
}

START_TEST(test_event_strings_escaped)
{
    static const struct { const char *in, *json, *script; } cases[] = {
        { "a\"b\\c\n\x01", "\"a\\\"b\\\\c\\n\\u0001\"", "\"a\\\"b\\\\c\\n\\u0001\"" },
        { "</script><!--&", "\"</script><!--&\"",
          "\"\\u003c/script\\u003e\\u003c!--\\u0026\"" },
        { "r\xe9l \x80 \xe2\x82 \xc0\xaf \xed\xa0\x80", "\"r\\ufffdl \\ufffd \\ufffd\\ufffd "
          "\\ufffd\\ufffd \\ufffd\\ufffd\\ufffd\"", NULL },
        { "caf\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x80\xa8 \xf0\x9f\x98\x80\"",
          "\"caf\xc3\xa9 \\u2028 \xf0\x9f\x98\x80\"" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char *j = escaped(hr__json_string, cases[k].in);
        ck_assert_str_eq(j, cases[k].json);
        free(j);
        j = escaped(hr__json_script_string, cases[k].in);
        ck_assert_str_eq(j, cases[k].script ? cases[k].script : cases[k].json);
        free(j);
    }
}
END_TEST

Suite *hr_event_suite(void)
{
    Suite *s = suite_create("event");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_event_ring);
    tcase_add_test(tc, test_event_regions_collectives);
    tcase_add_test(tc, test_event_links);
    tcase_add_test(tc, test_event_stall);
    tcase_add_test(tc, test_event_rendezvous_stall);
    tcase_add_test(tc, test_event_barrier_wait);
    tcase_add_test(tc, test_event_limit_and_off);
    tcase_add_test(tc, test_event_strings_escaped);
    suite_add_tcase(s, tc);
    return s;
}
