/* check_coll.c: every collective against a sequential reference for p in {1, 2, 3, 8, 64}, and the
 * model cost of the transpose (copied and viewed), gather and bcast against hand-computed values. */
#include "hr_test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const int sizes[] = { 1, 2, 3, 8, 64 };
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])
#define B 5      /* elements per block */

/* The value processor s sends to processor d in slot j: distinct for every (s, d, j). */
static int64_t val(int s, int d, int j)
{
    return (int64_t)s * 1000000 + d * 1000 + j;
}

typedef struct coll_out {
    int      p;
    int64_t *got;        /* [p][p*B] what each processor ended with */
    int      bad;        /* set by a worker that saw a wrong result: workers never assert */
} coll_out;

static int64_t *row(coll_out *o, int i)
{
    return o->got + (size_t)i * (size_t)o->p * B;
}

/* A transpose's send buffer: block d holds val(me, d, 0 .. B-1). */
static int64_t *transpose_send(hr_proc *p)
{
    int n = hr_nprocs(p), me = hr_pid(p);
    int64_t *send = hr_malloc(p, sizeof(int64_t) * (size_t)n * B);
    for (int d = 0; d < n; d++)
        for (int j = 0; j < B; j++)
            send[d * B + j] = val(me, d, j);
    return send;
}

/* Run body for every size; processor i must end with val(s, i, j) from every s. */
static void check_transpose(void (*body)(hr_proc *, void *))
{
    for (int t = 0; t < NSIZES; t++) {
        int n = sizes[t];
        coll_out o = { n, calloc((size_t)n * n * B, sizeof(int64_t)), 0 };
        hr_machine_config cfg = hr_test_config(n, NULL);
        hr_run_result res;
        hr_test_run(&cfg, body, &o, &res);
        ck_assert_int_eq(res.status, HR_OK);
        for (int i = 0; i < n; i++)
            for (int s = 0; s < n; s++)
                for (int j = 0; j < B; j++)
                    ck_assert_int_eq(row(&o, i)[s * B + j], val(s, i, j));
        free(o.got);
    }
}

static void body_transpose(hr_proc *p, void *arg)
{
    coll_out *o = arg;
    hr_transpose(p, transpose_send(p), row(o, hr_pid(p)), B * sizeof(int64_t));
}

START_TEST(test_coll_transpose_matches_reference)
{
    check_transpose(body_transpose);
}
END_TEST

/* hr_transpose_view: the views are read (after computing for a time that differs by processor,
 * so that some reach hr_view_end long before others), and the sender overwrites its blocks as
 * soon as its hr_view_end returns: a view that outlived its lender would see -1. */
static void body_transpose_view(hr_proc *p, void *arg)
{
    coll_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    int64_t *send = transpose_send(p);
    const void **view = hr_malloc(p, sizeof *view * (size_t)n);
    hr_transpose_view(p, send, B * sizeof(int64_t), view);
    volatile uint64_t spin = 0;
    for (int k = 0; k < (n - me) * 20000; k++)
        spin += (uint64_t)k;
    for (int s = 0; s < n; s++)
        memcpy(row(o, me) + s * B, view[s], B * sizeof(int64_t));
    hr_view_end(p);
    for (int k = 0; k < n * B; k++)
        send[k] = -1;
}

START_TEST(test_coll_transpose_view_matches_reference)
{
    check_transpose(body_transpose_view);
}
END_TEST

/* Communication between hr_transpose_view and hr_view_end fails the run, on every discipline. */
static void body_view_then_send(hr_proc *p, void *arg)
{
    (void)arg;
    int me = hr_pid(p);
    int64_t send[4] = { 0 };
    const void *view[4];
    hr_transpose_view(p, send, sizeof(int64_t), view);
    if (me == 1)
        hr_send(p, 0, 0, send, sizeof send[0]);
    hr_view_end(p);
}

START_TEST(test_coll_view_forbids_communication)
{
    hr_machine_config cfg = hr_test_config(4, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_view_then_send, NULL, &res);
    ck_assert_int_eq(res.status, HR_EFAIL);
    ck_assert_ptr_nonnull(strstr(res.report, "between hr_transpose_view and hr_view_end"));
}
END_TEST

/* alltoallv: processor s sends (s + d) % 3 elements to d. */
static void body_alltoallv(hr_proc *p, void *arg)
{
    coll_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    size_t sc[64], sd[64], rc[64], rd[64], at = 0, rat = 0;
    int64_t send[64 * 3];
    for (int d = 0; d < n; d++) {
        sc[d] = (size_t)((me + d) % 3);
        sd[d] = at;
        for (size_t j = 0; j < sc[d]; j++)
            send[at + j] = val(me, d, (int)j);
        at += sc[d];
        rc[d] = (size_t)((d + me) % 3);
        rd[d] = rat;
        rat += rc[d];
    }
    hr_alltoallv(p, send, sc, sd, row(o, me), rc, rd, sizeof(int64_t));
}

START_TEST(test_coll_alltoallv_matches_reference)
{
    for (int t = 0; t < NSIZES; t++) {
        int n = sizes[t];
        coll_out o = { n, calloc((size_t)n * n * B, sizeof(int64_t)), 0 };
        hr_machine_config cfg = hr_test_config(n, NULL);
        hr_run_result res;
        hr_test_run(&cfg, body_alltoallv, &o, &res);
        ck_assert_int_eq(res.status, HR_OK);
        for (int i = 0; i < n; i++) {
            size_t at = 0;
            for (int s = 0; s < n; s++)
                for (int j = 0; j < (s + i) % 3; j++)
                    ck_assert_int_eq(row(&o, i)[at++], val(s, i, j));
        }
        free(o.got);
    }
}
END_TEST

/* gather to root, scatter from root, allgather, bcast: root = p - 1 to exercise relative ranks. */
static void body_rooted(hr_proc *p, void *arg)
{
    coll_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p), root = n - 1;
    int64_t mine[B], *all = hr_malloc(p, sizeof(int64_t) * (size_t)n * B);
    for (int j = 0; j < B; j++)
        mine[j] = val(me, root, j);
    /* gather: root's row gets every block */
    hr_gather(p, root, mine, me == root ? all : NULL, sizeof mine);
    if (me == root)
        memcpy(row(o, me), all, sizeof(int64_t) * (size_t)n * B);
    /* scatter the gathered array back: everyone must get its own block */
    int64_t back[B];
    hr_scatter(p, root, me == root ? all : NULL, back, sizeof back);
    if (memcmp(back, mine, sizeof mine) != 0)
        o->bad = 1;
    /* allgather: everyone gets everything, checked against the same reference */
    int64_t *every = hr_malloc(p, sizeof(int64_t) * (size_t)n * B);
    hr_allgather(p, mine, every, sizeof mine);
    for (int s = 0; s < n; s++)
        for (int j = 0; j < B; j++)
            if (every[s * B + j] != val(s, root, j))
                o->bad = 1;
    /* bcast root's block */
    int64_t b[B];
    for (int j = 0; j < B; j++)
        b[j] = me == root ? val(root, 7, j) : -1;
    hr_bcast(p, root, b, sizeof b);
    for (int j = 0; j < B; j++)
        if (b[j] != val(root, 7, j))
            o->bad = 1;
}

START_TEST(test_coll_rooted_match_reference)
{
    for (int t = 0; t < NSIZES; t++) {
        int n = sizes[t];
        coll_out o = { n, calloc((size_t)n * n * B, sizeof(int64_t)), 0 };
        hr_machine_config cfg = hr_test_config(n, NULL);
        hr_run_result res;
        hr_test_run(&cfg, body_rooted, &o, &res);
        ck_assert_int_eq(res.status, HR_OK);
        ck_assert_int_eq(o.bad, 0);
        for (int s = 0; s < n; s++)
            for (int j = 0; j < B; j++)
                ck_assert_int_eq(row(&o, n - 1)[s * B + j], val(s, n - 1, j));
        free(o.got);
    }
}
END_TEST

/* reduce, allreduce, scan, exscan of int64 sum and double max against sequential loops. */
static void body_reduce(hr_proc *p, void *arg)
{
    coll_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    int64_t in[2] = { me + 1, (int64_t)me * me - 7 };
    int64_t out[2] = { 0, 0 };
    int64_t *r = row(o, me);
    hr_reduce(p, n / 2, in, out, 2, HR_INT64, HR_SUM);
    if (me == n / 2) {
        r[0] = out[0];
        r[1] = out[1];
    }
    hr_allreduce(p, in, out, 2, HR_INT64, HR_SUM);
    r[2] = out[0];
    r[3] = out[1];
    hr_scan(p, in, out, 2, HR_INT64, HR_SUM);
    r[4] = out[0];
    hr_exscan(p, in, out, 2, HR_INT64, HR_SUM);
    r[5] = out[0];
    double d = (double)((me * 37) % 11), dmax;
    hr_allreduce(p, &d, &dmax, 1, HR_DOUBLE, HR_MAX);
    r[6] = (int64_t)dmax;
    int32_t mn = 100 - me, mnout;
    hr_exscan(p, &mn, &mnout, 1, HR_INT32, HR_MIN);
    r[7] = mnout;
}

START_TEST(test_coll_reductions_match_reference)
{
    for (int t = 0; t < NSIZES; t++) {
        int n = sizes[t];
        coll_out o = { n, calloc((size_t)n * (n < 2 ? 8 : n) * B, sizeof(int64_t)), 0 };
        o.p = n < 2 ? 8 : n;     /* rows of 8 values at least */
        hr_machine_config cfg = hr_test_config(n, NULL);
        hr_run_result res;
        hr_test_run(&cfg, body_reduce, &o, &res);
        ck_assert_int_eq(res.status, HR_OK);
        int64_t s0 = 0, s1 = 0, dmax = 0;
        for (int i = 0; i < n; i++) {
            s0 += i + 1;
            s1 += (int64_t)i * i - 7;
            dmax = (i * 37) % 11 > dmax ? (i * 37) % 11 : dmax;
        }
        ck_assert_int_eq(row(&o, n / 2)[0], s0);
        ck_assert_int_eq(row(&o, n / 2)[1], s1);
        int64_t prefix = 0;
        for (int i = 0; i < n; i++) {
            ck_assert_int_eq(row(&o, i)[2], s0);
            ck_assert_int_eq(row(&o, i)[3], s1);
            ck_assert_int_eq(row(&o, i)[5], prefix);
            prefix += i + 1;
            ck_assert_int_eq(row(&o, i)[4], prefix);
            ck_assert_int_eq(row(&o, i)[6], dmax);
            /* exclusive min of 100 - j over j < i: INT32_MAX for processor 0 */
            ck_assert_int_eq(row(&o, i)[7], i == 0 ? INT32_MAX : 100 - (i - 1));
        }
        free(o.got);
    }
}
END_TEST

/* ---- model cost against hand-computed values (cm5: tau = 88 us, sigma = 50 ns/byte) ---------- */

static void body_transpose_bytes(hr_proc *p, void *arg)
{
    size_t b = *(size_t *)arg;
    int n = hr_nprocs(p);
    char *s = hr_calloc(p, (size_t)n, b), *r = hr_malloc(p, (size_t)n * b);
    hr_transpose(p, s, r, b);
}

/* seed 000: a transpose of b-byte blocks costs tau + sigma*(p-1)*b.
 * p = 8, b = 1000: 88 us + 50 ns * 7 * 1000 = 438 us exactly. With a per-message overhead
 * o = 1 us < sigma*b = 50 us, the posts' overheads hide behind the injection port and each
 * receive's overhead behind the next absorption: only the last one shows, tau + 7 sigma b + o =
 * 439 us. body runs one transpose of b-byte blocks. */
static void check_transpose_cost(void (*body)(hr_proc *, void *))
{
    size_t b = 1000;
    hr_machine_config cfg = hr_test_config(8, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body, &b, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_double_eq_tol(res.model_time_s, 438e-6, 1e-12);
    ck_assert_uint_eq(res.messages, 8 * 7);
    ck_assert_uint_eq(res.bytes, 8 * 7 * 1000);
    ck_assert_uint_eq(res.max_in_bytes, 7000);
    ck_assert_uint_eq(res.rounds, 1);
    cfg.cost.overhead = 1e-6;
    hr_test_run(&cfg, body, &b, &res);
    ck_assert_double_eq_tol(res.model_time_s, 439e-6, 1e-12);
}

START_TEST(test_coll_transpose_cost)
{
    check_transpose_cost(body_transpose_bytes);
}
END_TEST

static void body_transpose_view_bytes(hr_proc *p, void *arg)
{
    size_t b = *(size_t *)arg;
    int n = hr_nprocs(p);
    char *s = hr_calloc(p, (size_t)n, b);
    const void **view = hr_malloc(p, sizeof *view * (size_t)n);
    hr_transpose_view(p, s, b, view);
    hr_view_end(p);
}

/* The same messages as hr_transpose, so the same figures; the views' end costs nothing. */
START_TEST(test_coll_transpose_view_cost)
{
    check_transpose_cost(body_transpose_view_bytes);
}
END_TEST

static void body_gather_bcast(hr_proc *p, void *arg)
{
    int which = *(int *)arg;
    char blk[2000] = { 0 }, all[16 * 2000];
    if (which == 0)
        hr_gather(p, 0, blk, all, sizeof blk);
    else
        hr_bcast(p, 0, blk, sizeof blk);
}

START_TEST(test_coll_gather_bcast_cost)
{
    hr_machine_config cfg = hr_test_config(16, NULL);
    hr_run_result res;
    /* gather: the root's port absorbs 15 blocks: tau + 15 * 2000 * 50 ns = 88 + 1500 us */
    int which = 0;
    hr_test_run(&cfg, body_gather_bcast, &which, &res);
    ck_assert_double_eq_tol(res.model_time_s, 1588e-6, 1e-12);
    /* bcast along a binomial tree: lg 16 = 4 levels of tau + sigma*m = 4 * (88 + 100) us */
    which = 1;
    hr_test_run(&cfg, body_gather_bcast, &which, &res);
    ck_assert_double_eq_tol(res.model_time_s, 4 * 188e-6, 1e-12);
    ck_assert_uint_eq(res.messages, 15);
}
END_TEST

Suite *hr_coll_suite(void)
{
    Suite *s = suite_create("coll");
    TCase *tc = tcase_create("reference");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_coll_transpose_matches_reference);
    tcase_add_test(tc, test_coll_transpose_view_matches_reference);
    tcase_add_test(tc, test_coll_view_forbids_communication);
    tcase_add_test(tc, test_coll_alltoallv_matches_reference);
    tcase_add_test(tc, test_coll_rooted_match_reference);
    tcase_add_test(tc, test_coll_reductions_match_reference);
    suite_add_tcase(s, tc);
    tc = tcase_create("cost");
    tcase_add_test(tc, test_coll_transpose_cost);
    tcase_add_test(tc, test_coll_transpose_view_cost);
    tcase_add_test(tc, test_coll_gather_bcast_cost);
    suite_add_tcase(s, tc);
    return s;
}
