/* check_coll.c: every collective against a sequential reference for p in {1, 2, 3, 8, 64}; every
 * built-in reduction operator on every type it takes, and non-commutative user functions, against
 * a sequential fold for p in {1, 2, 5, 8}; the model cost of the transpose (copied and viewed),
 * gather, bcast and the reductions against hand-computed values, and a user's reduction's
 * against the built-in sum's; a world collective's batch against the same blocks sent one by one
 * on a group of everyone, in model figures and in the heap it holds. */
#include "hr_test.h"

#include "core/core.h"      /* hr__batch_sent */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
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
    ck_assert_int_eq(res.status, HR_EMISUSE);
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

/* ---- built-in operators against a sequential fold, written apart from src/coll/op.c ---------- */

/* p = 1, 2, 5, 8: non powers of two give trees with uneven halves. */
static const int op_sizes[] = { 1, 2, 5, 8 };
#define NOP_SIZES (int)(sizeof op_sizes / sizeof op_sizes[0])
#define OPK 4          /* elements per reduction */
#define ELEM 16        /* bytes kept per element: the largest element type */
#define NCOLL 4        /* reduce, allreduce, scan, exscan */
#define MAXCASE 64

static const hr_type all_types[] = { HR_INT32, HR_UINT32, HR_INT64, HR_UINT64, HR_DOUBLE,
                                     HR_INT32_INT, HR_INT64_INT, HR_DOUBLE_INT };
static const hr_op all_ops[] = { HR_SUM, HR_MIN, HR_MAX, HR_PROD, HR_LAND, HR_LOR,
                                 HR_LXOR, HR_BAND, HR_BOR, HR_BXOR, HR_MINLOC, HR_MAXLOC };

static int is_pair(hr_type t)
{
    return t == HR_INT32_INT || t == HR_INT64_INT || t == HR_DOUBLE_INT;
}

static int is_float(hr_type t)
{
    return t == HR_DOUBLE || t == HR_DOUBLE_INT;
}

static int is_signed(hr_type t)
{
    return t == HR_INT32 || t == HR_INT64 || t == HR_INT32_INT || t == HR_INT64_INT;
}

static int is_32bit(hr_type t)
{
    return t == HR_INT32 || t == HR_UINT32 || t == HR_INT32_INT;
}

/* The pairs hremu.h promises: bitwise on integers, loc on pairs, the rest on numbers. */
static int takes(hr_type t, hr_op op)
{
    if (op == HR_MINLOC || op == HR_MAXLOC)
        return is_pair(t);
    if (is_pair(t))
        return 0;
    if (op == HR_BAND || op == HR_BOR || op == HR_BXOR)
        return !is_float(t);
    return 1;
}

/* An element of any type: integers (and integer pair values) in u, 64-bit and normalised
 * (32-bit types truncated, signed ones sign-extended), doubles in d, pair indices in idx. */
typedef struct elem {
    uint64_t u;
    double   d;
    int32_t  idx;
} elem;

static uint64_t norm(hr_type t, uint64_t x)
{
    if (!is_32bit(t))
        return x;
    return is_signed(t) ? (uint64_t)(int64_t)(int32_t)(uint32_t)x : (uint64_t)(uint32_t)x;
}

static size_t elem_bytes(hr_type t)
{
    switch (t) {
    case HR_INT32: case HR_UINT32: return 4;
    case HR_INT64: case HR_UINT64: case HR_DOUBLE: return 8;
    case HR_INT32_INT: return sizeof(hr_int32_int);
    case HR_INT64_INT: return sizeof(hr_int64_int);
    case HR_DOUBLE_INT: return sizeof(hr_double_int);
    }
    return 0;
}

static void store(hr_type t, elem e, void *b)
{
    switch (t) {
    case HR_INT32: case HR_UINT32: { uint32_t v = (uint32_t)e.u; memcpy(b, &v, 4); break; }
    case HR_INT64: case HR_UINT64: memcpy(b, &e.u, 8); break;
    case HR_DOUBLE: memcpy(b, &e.d, 8); break;
    case HR_INT32_INT: { hr_int32_int v = { (int32_t)e.u, e.idx }; memcpy(b, &v, sizeof v); break; }
    case HR_INT64_INT: { hr_int64_int v = { (int64_t)e.u, e.idx }; memcpy(b, &v, sizeof v); break; }
    case HR_DOUBLE_INT: { hr_double_int v = { e.d, e.idx }; memcpy(b, &v, sizeof v); break; }
    }
}

static elem load(hr_type t, const void *b)
{
    elem e = { 0, 0, 0 };
    switch (t) {
    case HR_INT32: case HR_UINT32: { uint32_t v; memcpy(&v, b, 4); e.u = norm(t, v); break; }
    case HR_INT64: case HR_UINT64: memcpy(&e.u, b, 8); break;
    case HR_DOUBLE: memcpy(&e.d, b, 8); break;
    case HR_INT32_INT: { hr_int32_int v; memcpy(&v, b, sizeof v);
                         e.u = norm(t, (uint64_t)(int64_t)v.value); e.idx = v.index; break; }
    case HR_INT64_INT: { hr_int64_int v; memcpy(&v, b, sizeof v);
                         e.u = (uint64_t)v.value; e.idx = v.index; break; }
    case HR_DOUBLE_INT: { hr_double_int v; memcpy(&v, b, sizeof v);
                          e.d = v.value; e.idx = v.index; break; }
    }
    return e;
}

/* Value j of processor i of n: ones (j = 0), small numbers with zeros (1, 2), wide bits (3);
 * pairs with many equal values and indices that fall (even j) or rise (odd j) with the rank. */
static elem gen(hr_type t, int i, int j, int n)
{
    static const int64_t small[3][8] = { { 1, 2, 3, 4, 5, 6, 7, 8 },
                                         { -1, -3, 2, 0, 3, -2, 1, 0 },
                                         { -2, 0, -4, -5, 0, -7, -8, 0 } };
    elem e = { 0, 0, 0 };
    if (is_pair(t)) {
        int64_t v = (i * 3 + j) % 4;
        e.idx = (j % 2 ? i : n - 1 - i) * 10 + j;
        if (t == HR_DOUBLE_INT)
            e.d = (double)v * 0.5 - 1.0;
        else
            e.u = norm(t, (uint64_t)(t == HR_INT64_INT ? v * 3000000000LL - 5 : v - 1));
        return e;
    }
    if (j < 3) {
        e.u = norm(t, (uint64_t)small[j][i]);
        e.d = (double)small[j][i];
    } else {
        e.u = norm(t, ((uint64_t)i + 1) * 0x9E3779B97F4A7C15u ^ ((uint64_t)i << 40));
        e.d = (double)((i * 7) % 9 - 4);
    }
    return e;
}

static int less(hr_type t, elem a, elem b)
{
    if (is_float(t))
        return a.d < b.d;
    return is_signed(t) ? (int64_t)a.u < (int64_t)b.u : a.u < b.u;
}

static int same_value(hr_type t, elem a, elem b)
{
    return is_float(t) ? a.d == b.d : a.u == b.u;
}

static int truth(hr_type t, elem a)
{
    return is_float(t) ? a.d != 0 : a.u != 0;
}

static elem from_truth(int v)
{
    elem e = { (uint64_t)v, v, 0 };
    return e;
}

/* a op b, a from the lower ranks. */
static elem ref_op(hr_type t, hr_op op, elem a, elem b)
{
    elem r = a;
    switch (op) {
    case HR_SUM:  r.u = norm(t, a.u + b.u); r.d = a.d + b.d; break;
    case HR_PROD: r.u = norm(t, a.u * b.u); r.d = a.d * b.d; break;
    case HR_MIN:  r = less(t, b, a) ? b : a; break;
    case HR_MAX:  r = less(t, a, b) ? b : a; break;
    case HR_LAND: r = from_truth(truth(t, a) && truth(t, b)); break;
    case HR_LOR:  r = from_truth(truth(t, a) || truth(t, b)); break;
    case HR_LXOR: r = from_truth(truth(t, a) != truth(t, b)); break;
    case HR_BAND: r.u = a.u & b.u; break;
    case HR_BOR:  r.u = a.u | b.u; break;
    case HR_BXOR: r.u = a.u ^ b.u; break;
    case HR_MINLOC:
    case HR_MAXLOC: {
        int b_better = op == HR_MINLOC ? less(t, b, a) : less(t, a, b);
        if (b_better || (same_value(t, a, b) && b.idx < a.idx))
            r = b;
        break;
    }
    }
    return r;
}

/* What exscan leaves on processor 0: the identities listed in hremu.h. */
static elem ref_identity(hr_type t, hr_op op)
{
    elem e = { 0, 0, 0 };
    int lowest = op == HR_MAX || op == HR_MAXLOC, highest = op == HR_MIN || op == HR_MINLOC;
    if (op == HR_PROD || op == HR_LAND)
        e = from_truth(1);
    else if (op == HR_BAND)
        e.u = norm(t, UINT64_MAX);
    else if (is_float(t) && (lowest || highest))
        e.d = lowest ? -INFINITY : INFINITY;
    else if (lowest)
        e.u = !is_signed(t) ? 0 : is_32bit(t) ? (uint64_t)(int64_t)INT32_MIN : (uint64_t)INT64_MIN;
    else if (highest)
        e.u = is_32bit(t) ? norm(t, is_signed(t) ? INT32_MAX : UINT32_MAX)
                          : is_signed(t) ? (uint64_t)INT64_MAX : UINT64_MAX;
    if (is_pair(t))
        e.idx = INT32_MAX;
    return e;
}

/* The fold of processors lo .. hi-1, left to right; the identity if the range is empty. */
static elem ref_fold(hr_type t, hr_op op, int lo, int hi, int j, int n)
{
    if (lo >= hi)
        return ref_identity(t, op);
    elem r = gen(t, lo, j, n);
    for (int i = lo + 1; i < hi; i++)
        r = ref_op(t, op, r, gen(t, i, j, n));
    return r;
}

static int elem_eq(hr_type t, elem a, elem b)
{
    return same_value(t, a, b) && (!is_pair(t) || a.idx == b.idx);
}

typedef struct ops_out {
    int            ncase;
    hr_type        t[MAXCASE];
    hr_op          op[MAXCASE];
    unsigned char *got;        /* [processor][case][collective][element][ELEM] */
} ops_out;

static unsigned char *got_at(ops_out *o, int i, int c, int k, int j)
{
    return o->got + ((((size_t)i * MAXCASE + (size_t)c) * NCOLL + (size_t)k) * OPK + (size_t)j) * ELEM;
}

/* Every case through all four collectives; reduce's root moves with the case. */
static void body_ops(hr_proc *p, void *arg)
{
    ops_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    unsigned char in[OPK * ELEM], out[OPK * ELEM];
    for (int c = 0; c < o->ncase; c++) {
        hr_type t = o->t[c];
        hr_op op = o->op[c];
        size_t sz = elem_bytes(t);
        int root = (c * 3) % n;
        for (int j = 0; j < OPK; j++)
            store(t, gen(t, me, j, n), in + (size_t)j * sz);
        for (int k = 0; k < NCOLL; k++) {
            memset(out, 0xa5, sizeof out);
            if (k == 0)
                hr_reduce(p, root, in, out, OPK, t, op);
            else if (k == 1)
                hr_allreduce(p, in, out, OPK, t, op);
            else if (k == 2)
                hr_scan(p, in, out, OPK, t, op);
            else
                hr_exscan(p, in, out, OPK, t, op);
            if (k != 0 || me == root)
                for (int j = 0; j < OPK; j++)
                    memcpy(got_at(o, me, c, k, j), out + (size_t)j * sz, sz);
        }
    }
}

static void ops_cases(ops_out *o)
{
    o->ncase = 0;
    for (size_t a = 0; a < sizeof all_types / sizeof all_types[0]; a++)
        for (size_t b = 0; b < sizeof all_ops / sizeof all_ops[0]; b++)
            if (takes(all_types[a], all_ops[b])) {
                ck_assert_int_lt(o->ncase, MAXCASE);
                o->t[o->ncase] = all_types[a];
                o->op[o->ncase++] = all_ops[b];
            }
}

START_TEST(test_coll_operators_match_fold)
{
    static const char *coll[NCOLL] = { "hr_reduce", "hr_allreduce", "hr_scan", "hr_exscan" };
    ops_out o;
    ops_cases(&o);
    ck_assert_int_eq(o.ncase, 5 * 7 + 4 * 3 + 3 * 2);
    for (int s = 0; s < NOP_SIZES; s++) {
        int n = op_sizes[s];
        o.got = calloc((size_t)n * MAXCASE * NCOLL * OPK, ELEM);
        hr_machine_config cfg = hr_test_config(n, NULL);
        hr_run_result res;
        hr_test_run(&cfg, body_ops, &o, &res);
        ck_assert_msg(res.status == HR_OK, "%s", res.report);
        for (int c = 0; c < o.ncase; c++) {
            hr_type t = o.t[c];
            hr_op op = o.op[c];
            for (int k = 0; k < NCOLL; k++)
                for (int i = 0; i < n; i++) {
                    if (k == 0 && i != (c * 3) % n)
                        continue;
                    int lo = 0, hi = k < 2 ? n : k == 2 ? i + 1 : i;
                    for (int j = 0; j < OPK; j++) {
                        elem want = ref_fold(t, op, lo, hi, j, n);
                        elem got = load(t, got_at(&o, i, c, k, j));
                        ck_assert_msg(elem_eq(t, got, want),
                                      "p = %d, %s, type %d, op %d, P%d, element %d: got %llx/%g/%d,"
                                      " want %llx/%g/%d", n, coll[k], (int)t, (int)op, i, j,
                                      (unsigned long long)got.u, got.d, got.idx,
                                      (unsigned long long)want.u, want.d, want.idx);
                    }
                }
        }
        free(o.got);
    }
}
END_TEST

/* MINLOC and MAXLOC ties: every processor holds the same value with indices in a shuffled order
 * (element 0), or half of them do (element 1: value i % 2, index n - i): the smallest index of
 * the best value wins, whatever the rank that holds it. */
typedef struct loc_out {
    hr_double_int d[8][2][2];     /* [processor][minloc, maxloc][element] after allreduce */
    hr_int32_int  r[2][2];        /* reduce to root 1 of int32 pairs: [minloc, maxloc][element] */
} loc_out;

static void body_loc_ties(hr_proc *p, void *arg)
{
    loc_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    hr_double_int d[2] = { { 7.5, (me * 3 + 1) % n + 100 }, { me % 2, n - me } };
    hr_int32_int r[2] = { { -4, (me * 3 + 1) % n + 100 }, { me % 2, n - me } };
    hr_allreduce(p, d, o->d[me][0], 2, HR_DOUBLE_INT, HR_MINLOC);
    hr_allreduce(p, d, o->d[me][1], 2, HR_DOUBLE_INT, HR_MAXLOC);
    hr_reduce(p, 1, r, me == 1 ? o->r[0] : NULL, 2, HR_INT32_INT, HR_MINLOC);
    hr_reduce(p, 1, r, me == 1 ? o->r[1] : NULL, 2, HR_INT32_INT, HR_MAXLOC);
}

START_TEST(test_coll_loc_ties_take_smallest_index)
{
    static const int n_of[] = { 5, 8 };
    for (int s = 0; s < 2; s++) {
        int n = n_of[s];
        loc_out o;
        memset(&o, 0, sizeof o);
        hr_machine_config cfg = hr_test_config(n, NULL);
        hr_run_result res;
        hr_test_run(&cfg, body_loc_ties, &o, &res);
        ck_assert_msg(res.status == HR_OK, "%s", res.report);
        /* element 1: the even ranks hold 0 (largest even rank: smallest index), the odd ones 1 */
        int even = (n - 1) / 2 * 2, odd = (n - 2) / 2 * 2 + 1;
        for (int i = 0; i < n; i++) {
            ck_assert(o.d[i][0][0].value == 7.5 && o.d[i][0][0].index == 100);
            ck_assert(o.d[i][1][0].value == 7.5 && o.d[i][1][0].index == 100);
            ck_assert(o.d[i][0][1].value == 0 && o.d[i][0][1].index == n - even);
            ck_assert(o.d[i][1][1].value == 1 && o.d[i][1][1].index == n - odd);
        }
        ck_assert(o.r[0][0].value == -4 && o.r[0][0].index == 100);
        ck_assert(o.r[1][0].value == -4 && o.r[1][0].index == 100);
        ck_assert(o.r[0][1].value == 0 && o.r[0][1].index == n - even);
        ck_assert(o.r[1][1].value == 1 && o.r[1][1].index == n - odd);
    }
}
END_TEST

/* Wrong calls fail the run with a message naming the call and what is wrong. */
static void ignore_fn(void *inout, const void *in, size_t count, void *ctx)
{
    (void)inout, (void)in, (void)count, (void)ctx;
}

static void body_bad_reduction(hr_proc *p, void *arg)
{
    int which = *(int *)arg;
    double d[2] = { 1, 2 }, dout[2];
    int32_t i[2] = { 1, 2 }, iout[2];
    hr_double_int pr[2] = { { 1, 0 }, { 2, 1 } }, prout[2];
    switch (which) {
    case 0: hr_allreduce(p, d, dout, 2, HR_DOUBLE, HR_BAND); break;
    case 1: hr_scan(p, d, dout, 2, HR_DOUBLE, HR_BXOR); break;
    case 2: hr_reduce(p, 0, i, iout, 2, HR_INT32, HR_MINLOC); break;
    case 3: hr_exscan(p, pr, prout, 2, HR_DOUBLE_INT, HR_SUM); break;
    case 4: hr_allreduce(p, i, iout, 2, HR_INT32, (hr_op)99); break;
    case 5: hr_allreduce(p, i, iout, 2, (hr_type)99, HR_SUM); break;
    case 6: hr_reduce_user(p, 0, i, iout, 2, sizeof i[0], NULL, NULL); break;
    case 7: hr_scan_user(p, i, iout, 2, 0, ignore_fn, NULL); break;
    case 8: hr_reduce_user(p, 3, i, iout, 2, sizeof i[0], ignore_fn, NULL); break;
    case 9: hr_allreduce_user(p, i, iout, SIZE_MAX / 2, 4, ignore_fn, NULL); break;
    }
}

START_TEST(test_coll_bad_reductions_fail)
{
    static const char *why[] = {
        "hr_allreduce: HR_BAND needs an integer type (HR_INT32, HR_UINT32, HR_INT64, HR_UINT64),"
        " not HR_DOUBLE",
        "hr_scan: HR_BXOR needs an integer type (HR_INT32, HR_UINT32, HR_INT64, HR_UINT64),"
        " not HR_DOUBLE",
        "hr_reduce: HR_MINLOC needs a value-index pair type (HR_INT32_INT, HR_INT64_INT,"
        " HR_DOUBLE_INT), not HR_INT32",
        "hr_exscan: HR_SUM needs a number type (HR_INT32, HR_UINT32, HR_INT64, HR_UINT64,"
        " HR_DOUBLE), not HR_DOUBLE_INT",
        "hr_allreduce: unknown operator 99",
        "hr_allreduce: unknown element type 99",
        "hr_reduce_user: the function is NULL",
        "hr_scan_user: elem_size is 0",
        "hr_reduce_user: root 3 does not exist (p = 3)",
        "do not fit in memory",
    };
    for (int which = 0; which < (int)(sizeof why / sizeof why[0]); which++) {
        hr_machine_config cfg = hr_test_config(3, NULL);
        hr_run_result res;
        hr_test_run(&cfg, body_bad_reduction, &which, &res);
        /* a bad argument is a misuse; running out of memory is a failure */
        ck_assert_int_eq(res.status, strstr(why[which], "memory") ? HR_EFAIL : HR_EMISUSE);
        ck_assert_msg(strstr(res.report, why[which]) != NULL, "case %d: %s", which, res.report);
    }
}
END_TEST

/* ---- user functions: non-commutative operators against a sequential fold -------------------- */

/* 2x2 matrices modulo a prime: associative, not commutative. ctx points at the modulus. */
typedef struct mat2 {
    int64_t a[4];                 /* row-major */
} mat2;
#define MATK 3                    /* matrices per reduction */

static mat2 mat_mul(mat2 x, mat2 y, int64_t m)
{
    mat2 r;
    r.a[0] = (x.a[0] * y.a[0] + x.a[1] * y.a[2]) % m;
    r.a[1] = (x.a[0] * y.a[1] + x.a[1] * y.a[3]) % m;
    r.a[2] = (x.a[2] * y.a[0] + x.a[3] * y.a[2]) % m;
    r.a[3] = (x.a[2] * y.a[1] + x.a[3] * y.a[3]) % m;
    return r;
}

/* The hr_reduce_fn: inout = in * inout, in from the lower ranks. */
static void mat_fn(void *inout, const void *in, size_t count, void *ctx)
{
    mat2 *io = inout;
    const mat2 *l = in;
    int64_t m = *(const int64_t *)ctx;
    for (size_t k = 0; k < count; k++)
        io[k] = mat_mul(l[k], io[k], m);
}

static const int64_t mat_mod = 1000003;

static mat2 mat_of(int i, int k)
{
    mat2 r;
    for (int e = 0; e < 4; e++)
        r.a[e] = ((i + 1) * (e + 2) * 31 + k * 17 + e * e * (i + 3)) % 97;
    return r;
}

/* The product of processors lo .. hi-1's matrices k, left to right. */
static mat2 mat_fold(int lo, int hi, int k)
{
    mat2 r = mat_of(lo, k);
    for (int i = lo + 1; i < hi; i++)
        r = mat_mul(r, mat_of(i, k), mat_mod);
    return r;
}

/* Strings: concatenation of the ranks' digits, the plainest order check. */
typedef struct str12 {
    char s[12];
} str12;

static void cat_fn(void *inout, const void *in, size_t count, void *ctx)
{
    (void)ctx;
    str12 *io = inout;
    const str12 *l = in;
    for (size_t k = 0; k < count; k++) {
        str12 r = { { 0 } };     /* no stack bytes after the NUL: the jitter test compares all */
        snprintf(r.s, sizeof r.s, "%s%s", l[k].s, io[k].s);
        io[k] = r;
    }
}

#define NROOTS 8
typedef struct user_out {
    mat2  red[NROOTS][MATK];      /* reduce to root r, at r */
    mat2  all[8][MATK];
    mat2  scan[8][MATK];
    mat2  ex[8][MATK];
    str12 sred[NROOTS], sall[8], sscan[8], sex[8];
} user_out;

static void body_user(hr_proc *p, void *arg)
{
    user_out *o = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    int64_t m = mat_mod;
    mat2 in[MATK], out[MATK];
    for (int k = 0; k < MATK; k++)
        in[k] = mat_of(me, k);
    str12 s = { { 0 } }, sout = { { 0 } };
    snprintf(s.s, sizeof s.s, "%d", me);
    for (int root = 0; root < n; root++) {
        hr_reduce_user(p, root, in, me == root ? o->red[root] : NULL, MATK, sizeof(mat2), mat_fn,
                       &m);
        hr_reduce_user(p, root, &s, me == root ? &o->sred[root] : NULL, 1, sizeof s, cat_fn,
                       NULL);
    }
    hr_allreduce_user(p, in, o->all[me], MATK, sizeof(mat2), mat_fn, &m);
    hr_scan_user(p, in, o->scan[me], MATK, sizeof(mat2), mat_fn, &m);
    /* exscan leaves processor 0's out as it was: -1 everywhere */
    for (int k = 0; k < MATK; k++)
        for (int e = 0; e < 4; e++)
            out[k].a[e] = -1;
    hr_exscan_user(p, in, out, MATK, sizeof(mat2), mat_fn, &m);
    memcpy(o->ex[me], out, sizeof out);
    hr_allreduce_user(p, &s, &o->sall[me], 1, sizeof s, cat_fn, NULL);
    hr_scan_user(p, &s, &o->sscan[me], 1, sizeof s, cat_fn, NULL);
    strcpy(sout.s, "none");
    hr_exscan_user(p, &s, &sout, 1, sizeof s, cat_fn, NULL);
    o->sex[me] = sout;
}

static void assert_mats(const mat2 *got, int lo, int hi, const char *what, int n, int i)
{
    for (int k = 0; k < MATK; k++) {
        mat2 want = mat_fold(lo, hi, k);
        ck_assert_msg(memcmp(&got[k], &want, sizeof want) == 0, "p = %d, %s, P%d, matrix %d", n,
                      what, i, k);
    }
}

START_TEST(test_coll_user_noncommutative_in_rank_order)
{
    static const char digits[] = "01234567";
    /* the operator really is not commutative on these operands */
    mat2 a = mat_of(0, 0), b = mat_of(1, 0), ab = mat_mul(a, b, mat_mod), ba = mat_mul(b, a, mat_mod);
    ck_assert(memcmp(&ab, &ba, sizeof ab) != 0);
    for (int s = 0; s < NOP_SIZES; s++) {
        int n = op_sizes[s];
        user_out *o = calloc(1, sizeof *o);
        hr_machine_config cfg = hr_test_config(n, NULL);
        hr_run_result res;
        hr_test_run(&cfg, body_user, o, &res);
        ck_assert_msg(res.status == HR_OK, "%s", res.report);
        for (int root = 0; root < n; root++) {
            assert_mats(o->red[root], 0, n, "hr_reduce_user", n, root);
            ck_assert_msg(strncmp(o->sred[root].s, digits, (size_t)n) == 0
                          && o->sred[root].s[n] == '\0', "p = %d, root %d: \"%s\"", n, root,
                          o->sred[root].s);
        }
        for (int i = 0; i < n; i++) {
            assert_mats(o->all[i], 0, n, "hr_allreduce_user", n, i);
            assert_mats(o->scan[i], 0, i + 1, "hr_scan_user", n, i);
            if (i > 0)
                assert_mats(o->ex[i], 0, i, "hr_exscan_user", n, i);
            else
                for (int k = 0; k < MATK; k++)
                    for (int e = 0; e < 4; e++)
                        ck_assert_int_eq(o->ex[0][k].a[e], -1);
            ck_assert(strncmp(o->sall[i].s, digits, (size_t)n) == 0 && o->sall[i].s[n] == '\0');
            ck_assert(strncmp(o->sscan[i].s, digits, (size_t)i + 1) == 0
                      && o->sscan[i].s[i + 1] == '\0');
            if (i > 0)
                ck_assert(strncmp(o->sex[i].s, digits, (size_t)i) == 0 && o->sex[i].s[i] == '\0');
            else
                ck_assert_str_eq(o->sex[0].s, "none");
        }
        free(o);
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

/* A user's reduction costs what the built-in HR_SUM costs on as many bytes: 10 matrices of 32
 * bytes against 40 int64. which: 0 reduce (to root), 1 allreduce, 2 scan, 3 exscan. */
typedef struct size_job {
    int user, which, root;
} size_job;

static void body_sizes(hr_proc *p, void *arg)
{
    const size_job *j = arg;
    int64_t m = mat_mod;
    mat2 in[10], out[10];
    memset(in, 0, sizeof in);
    _Static_assert(sizeof in == 40 * sizeof(int64_t), "the same bytes both ways");
    if (j->user) {
        if (j->which == 0)
            hr_reduce_user(p, j->root, in, out, 10, sizeof(mat2), mat_fn, &m);
        else if (j->which == 1)
            hr_allreduce_user(p, in, out, 10, sizeof(mat2), mat_fn, &m);
        else if (j->which == 2)
            hr_scan_user(p, in, out, 10, sizeof(mat2), mat_fn, &m);
        else
            hr_exscan_user(p, in, out, 10, sizeof(mat2), mat_fn, &m);
    } else {
        if (j->which == 0)
            hr_reduce(p, j->root, in, out, 40, HR_INT64, HR_SUM);
        else if (j->which == 1)
            hr_allreduce(p, in, out, 40, HR_INT64, HR_SUM);
        else if (j->which == 2)
            hr_scan(p, in, out, 40, HR_INT64, HR_SUM);
        else
            hr_exscan(p, in, out, 40, HR_INT64, HR_SUM);
    }
}

/* ceil(lg p) levels of tau + sigma*m, m = 320 bytes: 88 + 16 = 104 us a level; allreduce twice
 * as many. On complete, as a power of two shows: p = 8 costs 3 levels whatever the root. The
 * user's function and HR_SUM agree on every figure, on complete and on a ring, with and without
 * a per-message overhead. */
START_TEST(test_coll_user_costs_as_builtin)
{
    static const char *topo[] = { NULL, "ring" };
    for (int s = 0; s < NOP_SIZES; s++)
        for (int tp = 0; tp < 2; tp++)
            for (int ov = 0; ov < 2; ov++)
                for (int which = 0; which < 4; which++) {
                    int n = op_sizes[s];
                    hr_machine_config cfg = hr_test_config(n, NULL);
                    cfg.topology = topo[tp];
                    cfg.cost.overhead = ov ? 1e-6 : 0;
                    size_job b = { 0, which, n - 1 - n / 3 }, u = b;
                    u.user = 1;
                    hr_run_result rb, ru;
                    hr_test_run(&cfg, body_sizes, &b, &rb);
                    hr_test_run(&cfg, body_sizes, &u, &ru);
                    ck_assert_msg(rb.status == HR_OK && ru.status == HR_OK, "%s%s", rb.report,
                                  ru.report);
                    ck_assert_msg(rb.model_time_s == ru.model_time_s,
                                  "p = %d, %s, overhead %d, collective %d: %g s against %g s", n,
                                  topo[tp] ? topo[tp] : "complete", ov, which, ru.model_time_s,
                                  rb.model_time_s);
                    ck_assert_uint_eq(rb.messages, ru.messages);
                    ck_assert_uint_eq(rb.bytes, ru.bytes);
                    ck_assert_uint_eq(rb.max_in_bytes, ru.max_in_bytes);
                    ck_assert_uint_eq(rb.max_out_bytes, ru.max_out_bytes);
                    ck_assert_uint_eq(rb.rounds, ru.rounds);
                    if (n == 8 && tp == 0 && ov == 0)
                        ck_assert_double_eq_tol(ru.model_time_s, (which == 1 ? 6 : 3) * 104e-6,
                                                1e-12);
                    if (which == 0)
                        ck_assert_uint_eq(ru.messages, (uint64_t)n - 1);
                }
}
END_TEST

/* Model figures and results do not depend on the thread schedule. */
START_TEST(test_coll_user_deterministic_under_jitter)
{
    static const int n_of[] = { 5, 8 };
    for (int s = 0; s < 2; s++) {
        user_out *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
        hr_machine_config cfg = hr_test_config(n_of[s], NULL);
        hr_run_result ra, rb;
        hr_test_run(&cfg, body_user, a, &ra);
        ck_assert_int_eq(ra.status, HR_OK);
        cfg.jitter = 1;
        for (int rep = 0; rep < 3; rep++) {
            memset(b, 0, sizeof *b);
            hr_test_run(&cfg, body_user, b, &rb);
            ck_assert_int_eq(rb.status, HR_OK);
            ck_assert(ra.model_time_s == rb.model_time_s);
            ck_assert_uint_eq(ra.messages, rb.messages);
            ck_assert(memcmp(a, b, sizeof *a) == 0);
        }
        free(a);
        free(b);
    }
}
END_TEST

/* ---- a batch against the messages it stands for ------------------------------------------ */

/* hr__batch_sent's closed form against the posts' recurrence, s_1 = max(clock0, out_free),
 * s_k = max(clock0 + (k-1)*overhead, s_(k-1) + cost), saturating, on random times: overheads
 * above, below and equal to the cost, and times near the end of the range. */
START_TEST(test_coll_batch_sent_is_recurrence)
{
    uint64_t x = 0x243f6a8885a308d3ULL;
    for (int t = 0; t < 20000; t++) {
        hr_time v[4];
        for (int i = 0; i < 4; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            int shift = (int)(x % 5);    /* small, medium, large, near the range's end */
            v[i] = shift == 4 ? HR_TIME_INF - (hr_time)(x >> 40) : (hr_time)((x >> 8) >> (48 - 10 * shift));
        }
        if (t % 7 == 0)
            v[3] = v[2];                 /* overhead equal to the cost */
        hr_time clock = v[0], out_free = v[1];
        hr_batch b = { .first = hr__max(clock, out_free), .clock0 = clock, .overhead = v[2],
                       .cost = v[3] };
        for (int64_t k = 1; k <= 40; k++) {
            hr_time s = hr__max(clock, out_free);
            ck_assert_msg(hr__batch_sent(&b, k) == s, "k = %lld: %lld, posts say %lld",
                          (long long)k, (long long)hr__batch_sent(&b, k), (long long)s);
            out_free = hr__tadd(s, b.cost);
            clock = hr__tadd(clock, b.overhead);
        }
    }
}
END_TEST

/* A group of every processor in order: the world's members, but its collectives post a
 * message a block. */
static hr_group *everyone(hr_proc *p)
{
    int n = hr_nprocs(p);
    int *all = hr_malloc(p, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        all[i] = i;
    return hr_group_make(p, all, n);
}

typedef struct batch_job {
    int     which;       /* 0 transpose, 1 transpose_view (world only), 2 allgather */
    int     group;       /* on a group of every processor in order: a message a block */
    size_t  b;
    double *clocks;      /* [p] each one's clock at the end */
} batch_job;

/* Two collectives in a row, after computing for a time of its own (so that the posts begin at
 * different clocks and ports). The view's blocks are viewed, and so costed, as a transpose's. */
static void body_batch(hr_proc *p, void *arg)
{
    const batch_job *j = arg;
    int n = hr_nprocs(p), me = hr_pid(p);
    hr_compute(p, (double)((me * 7919) % 13) * 3000.0);
    hr_group *g = j->group ? everyone(p) : hr_world(p);
    char *s = hr_calloc(p, (size_t)n, j->b), *r = hr_malloc(p, (size_t)n * j->b);
    const void **view = hr_malloc(p, sizeof *view * (size_t)n);
    for (int t = 0; t < 2; t++) {
        if (j->which == 2) {
            hr_group_allgather(p, g, s, r, j->b);
        } else if (j->which == 1 && !j->group) {
            hr_transpose_view(p, s, j->b, view);
            hr_view_end(p);
        } else {
            hr_group_transpose(p, g, s, r, j->b);
        }
        hr_compute(p, (double)me * 500.0);
    }
    j->clocks[me] = hr_now(p);
}

/* On the complete graph a world transpose, view or allgather posts one batch a processor, and a
 * group's the blocks one by one: every figure and every processor's clock agree, on both
 * engines, with a per-message overhead below, above and without the port's time a block. */
START_TEST(test_coll_batch_equals_messages)
{
    static const int ps[] = { 2, 3, 8, 33 };
    static const double overheads[] = { 0, 1e-6, 200e-6 };
    static const char *const engines[] = { "threads", "fibers" };
    for (int e = 0; e < 2; e++)
        for (int pi = 0; pi < 4; pi++)
            for (int oi = 0; oi < 3; oi++)
                for (int which = 0; which < 3; which++) {
                    int n = ps[pi];
                    double *c[2] = { calloc((size_t)n, sizeof(double)),
                                     calloc((size_t)n, sizeof(double)) };
                    hr_run_result res[2];
                    for (int grp = 0; grp < 2; grp++) {
                        hr_machine_config cfg = hr_test_config(n, NULL);
                        cfg.engine = engines[e];
                        cfg.cost.overhead = overheads[oi];
                        batch_job j = { which, grp, which == 0 ? 1000 : 8, c[grp] };
                        hr_test_run(&cfg, body_batch, &j, &res[grp]);
                        ck_assert_int_eq(res[grp].status, HR_OK);
                    }
                    ck_assert_double_eq(res[0].model_time_s, res[1].model_time_s);
                    ck_assert_uint_eq(res[0].messages, res[1].messages);
                    ck_assert_uint_eq(res[0].messages, 2 * (uint64_t)n * (uint64_t)(n - 1));
                    ck_assert_uint_eq(res[0].bytes, res[1].bytes);
                    ck_assert_uint_eq(res[0].max_in_bytes, res[1].max_in_bytes);
                    ck_assert_uint_eq(res[0].max_out_bytes, res[1].max_out_bytes);
                    ck_assert_uint_eq(res[0].steps, res[1].steps);
                    for (int i = 0; i < n; i++)
                        ck_assert_msg(c[0][i] == c[1][i], "%s p = %d overhead %g case %d: P%d's "
                                      "clock %.12g in a batch, %.12g sent one by one", engines[e],
                                      n, overheads[oi], which, i, c[0][i], c[1][i]);
                    free(c[0]);
                    free(c[1]);
                }
}
END_TEST

/* The point of a batch: a world transpose of counts holds no record a pair. p = 256 processors
 * (one carrier: nothing else allocates meanwhile) transpose 8-byte blocks, wait at a barrier
 * (every block posted, none of the records the group's transpose used freed: they are the
 * senders' until the run ends) and processor 0 reads the heap and the machine's region. The
 * group's blocks, one message each, take at least their 255 * 256 records of 128 bytes; the
 * world's batch, under a third of that. */
typedef struct heap_job {
    int      group;
    uint64_t in_use;
} heap_job;

static void body_heap(hr_proc *p, void *arg)
{
    heap_job *j = arg;
    int n = hr_nprocs(p);
    hr_group *g = j->group ? everyone(p) : hr_world(p);
    uint64_t *s = hr_calloc(p, (size_t)n, sizeof *s), *r = hr_malloc(p, (size_t)n * sizeof *r);
    hr_group_transpose(p, g, s, r, sizeof *s);
    hr_barrier(p);
    if (hr_pid(p) == 0)     /* malloc's, and what the machine's region handed out (alloc.h) */
        j->in_use = hr_test_heap_in_use() + p->m->mem_region.used;
}

START_TEST(test_coll_batch_holds_no_record_a_pair)
{
    if (!HR_TEST_PLAIN_ALLOC)
        HR_TEST_SKIP("the sanitizer's allocator does not report through mallinfo2");
    int n = 256;
    uint64_t grew[2];
    for (int grp = 0; grp < 2; grp++) {
        hr_machine_config cfg = hr_test_config(n, NULL);
        cfg.engine = "fibers";
        heap_job j = { grp, 0 };
        uint64_t before = hr_test_heap_in_use();
        hr_run_result res;
        hr_test_run(&cfg, body_heap, &j, &res);
        ck_assert_int_eq(res.status, HR_OK);
        grew[grp] = j.in_use - before;
    }
    /* Both hold the same arrays (three of p words a processor), the group also its members
     * (p ints a processor): what lies between is the records. */
    uint64_t records = (uint64_t)n * (uint64_t)(n - 1) * 128;
    ck_assert_msg(grew[1] > grew[0] && grew[1] - grew[0] >= records,
                  "a message a block: %llu bytes, a batch: %llu, records: %llu",
                  (unsigned long long)grew[1], (unsigned long long)grew[0],
                  (unsigned long long)records);
    ck_assert_msg(grew[0] < records / 3, "a batch a processor: %llu bytes (records: %llu)",
                  (unsigned long long)grew[0], (unsigned long long)records);
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
    tcase_add_test(tc, test_coll_operators_match_fold);
    tcase_add_test(tc, test_coll_loc_ties_take_smallest_index);
    tcase_add_test(tc, test_coll_bad_reductions_fail);
    tcase_add_test(tc, test_coll_user_noncommutative_in_rank_order);
    tcase_add_test(tc, test_coll_user_deterministic_under_jitter);
    suite_add_tcase(s, tc);
    tc = tcase_create("cost");
    tcase_add_test(tc, test_coll_transpose_cost);
    tcase_add_test(tc, test_coll_transpose_view_cost);
    tcase_add_test(tc, test_coll_gather_bcast_cost);
    tcase_add_test(tc, test_coll_user_costs_as_builtin);
    tcase_add_test(tc, test_coll_batch_sent_is_recurrence);
    tcase_add_test(tc, test_coll_batch_equals_messages);
    tcase_add_test(tc, test_coll_batch_holds_no_record_a_pair);
    suite_add_tcase(s, tc);
    return s;
}
