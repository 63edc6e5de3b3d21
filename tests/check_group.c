/* check_group.c: processor groups and the collectives over them.
 *
 * cm5 costs (tau = 88 us, sigma = 50 ns/byte, no overhead), worked out by hand from
 * docs/model.md. */
#include "hr_test.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <hremu/hremu.h>

#define US 1e-6
#define TOL 1e-12

typedef struct grp_out {
    int    bad[64];
    char   why[64][96];
    double clock[64];
} grp_out;

static void note(grp_out *o, int me, const char *what, long got, long want)
{
    if (o->bad[me] == 0) {
        o->bad[me] = 1;
        snprintf(o->why[me], sizeof o->why[me], "%s: %ld, want %ld", what, got, want);
    }
}

static void assert_good(const grp_out *o, int p)
{
    for (int i = 0; i < p; i++)
        ck_assert_msg(o->bad[i] == 0, "P%d: %s", i, o->why[i]);
}

/* The four rows of a 4x4 mesh broadcast at once, each from its first processor, with groups
 * made from lists (no message, no model time): a binomial broadcast of 2000 bytes over 4 ranks
 * costs 2 (tau + 2000 sigma) = 376 us, the same on the mesh's row links as on complete. */
static void body_row_bcast(hr_proc *p, void *arg)
{
    grp_out *o = arg;
    int me = hr_pid(p), row = me / 4;
    int members[4] = { 4 * row, 4 * row + 1, 4 * row + 2, 4 * row + 3 };
    hr_group *g = hr_group_make(p, members, 4);
    if (g == NULL || hr_group_rank(g) != me % 4 || hr_group_size(g) != 4) {
        note(o, me, "rank", g ? hr_group_rank(g) : -1, me % 4);
        return;
    }
    int32_t buf[500];
    for (int i = 0; i < 500; i++)
        buf[i] = me % 4 == 0 ? 1000 * row + i : -1;
    hr_group_bcast(p, g, 0, buf, sizeof buf);
    for (int i = 0; i < 500; i++)
        if (buf[i] != 1000 * row + i)
            note(o, me, "bcast value", buf[i], 1000 * row + i);
}

START_TEST(test_group_row_broadcasts_at_once)
{
    static const char *const topo[2] = { "complete", "mesh 4x4" };
    for (int t = 0; t < 2; t++)
        for (int jitter = 0; jitter < 2; jitter++) {
            grp_out o;
            memset(&o, 0, sizeof o);
            hr_machine_config cfg = hr_test_config(16, NULL);
            cfg.topology = topo[t];
            cfg.jitter = jitter;
            hr_run_result res;
            hr_test_run(&cfg, body_row_bcast, &o, &res);
            ck_assert_msg(res.status == HR_OK, "%s", res.report);
            assert_good(&o, 16);
            ck_assert_double_eq_tol(res.model_time_s, 376 * US, TOL);
            ck_assert_uint_eq(res.messages, 4 * 3);
        }
}
END_TEST

/* Rows by split (colour = row), then columns by split (colour = column), every collective
 * checked against a sequential reference: row allreduce of pid, column gather/scatter,
 * allgather, alltoallv and transpose in the columns, scan and exscan in the rows. */
static void body_rows_and_columns(hr_proc *p, void *arg)
{
    grp_out *o = arg;
    int me = hr_pid(p), row = me / 4, col = me % 4;
    hr_group *rows = hr_group_split(p, hr_world(p), row, col);
    hr_group *cols = hr_group_split(p, hr_world(p), col, row);
    if (hr_group_rank(rows) != col || hr_group_rank(cols) != row || hr_group_pid(cols, 2) != 8 + col
        || hr_group_rank_of(rows, 4 * row + 3) != 3 || hr_group_rank_of(rows, (me + 4) % 16) != -1)
        note(o, me, "ranks", hr_group_rank(rows), col);
    int64_t v = me, sum = -1;
    hr_group_allreduce(p, rows, &v, &sum, 1, HR_INT64, HR_SUM);
    if (sum != 16 * row + 6)
        note(o, me, "row allreduce", (long)sum, 16 * row + 6);
    int64_t pre = -1, ex = -1;
    hr_group_scan(p, rows, &v, &pre, 1, HR_INT64, HR_SUM);
    hr_group_exscan(p, rows, &v, &ex, 1, HR_INT64, HR_SUM);
    long want = 0;
    for (int c = 0; c < col; c++)
        want += 4 * row + c;
    if (pre != want + me || (col > 0 && ex != want) || (col == 0 && ex != 0))
        note(o, me, "row scan", (long)pre, want + me);
    int all[4] = { -1, -1, -1, -1 }, gathered[4] = { -1, -1, -1, -1 }, got = -1;
    hr_group_allgather(p, cols, &me, all, sizeof me);
    hr_group_gather(p, cols, 3, &me, gathered, sizeof me);
    int parts[4] = { 100, 101, 102, 103 };
    hr_group_scatter(p, cols, 1, parts, &got, sizeof got);
    for (int r = 0; r < 4; r++) {
        if (all[r] != 4 * r + col)
            note(o, me, "column allgather", all[r], 4 * r + col);
        if (row == 3 && gathered[r] != 4 * r + col)
            note(o, me, "column gather", gathered[r], 4 * r + col);
    }
    if (got != 100 + row)
        note(o, me, "column scatter", got, 100 + row);
    int send[4], recv[4];
    for (int r = 0; r < 4; r++)
        send[r] = 1000 * me + r;
    hr_group_transpose(p, cols, send, recv, sizeof send[0]);
    for (int r = 0; r < 4; r++)
        if (recv[r] != 1000 * (4 * r + col) + row)
            note(o, me, "column transpose", recv[r], 1000 * (4 * r + col) + row);
    /* alltoallv: rank r sends r+1 copies of its pid to each rank. */
    size_t sc[4], sd[4], rc[4], rd[4];
    int sv[16], rv[16];
    for (int r = 0; r < 4; r++) {
        sc[r] = (size_t)row + 1;
        sd[r] = (size_t)r * 4;
        rc[r] = (size_t)r + 1;
        rd[r] = (size_t)r * 4;
        for (int k = 0; k < 4; k++)
            sv[4 * r + k] = me;
    }
    hr_group_alltoallv(p, cols, sv, sc, sd, rv, rc, rd, sizeof sv[0]);
    for (int r = 0; r < 4; r++)
        for (int k = 0; k <= r; k++)
            if (rv[4 * r + k] != 4 * r + col)
                note(o, me, "column alltoallv", rv[4 * r + k], 4 * r + col);
    hr_group_barrier(p, rows);
    o->clock[me] = hr_now(p);
}

START_TEST(test_group_rows_and_columns)
{
    static const char *const topo[2] = { "complete", "mesh 4x4" };
    for (int t = 0; t < 2; t++) {
        double first = -1;
        for (int jitter = 0; jitter < 2; jitter++)
            for (int run = 0; run < 3; run++) {
                grp_out o;
                memset(&o, 0, sizeof o);
                hr_machine_config cfg = hr_test_config(16, NULL);
                cfg.topology = topo[t];
                cfg.jitter = jitter;
                hr_run_result res;
                hr_test_run(&cfg, body_rows_and_columns, &o, &res);
                ck_assert_msg(res.status == HR_OK, "%s", res.report);
                assert_good(&o, 16);
                if (first < 0)
                    first = res.model_time_s;
                ck_assert_msg(res.model_time_s == first, "%s: %.12g against %.12g", topo[t],
                              res.model_time_s, first);
            }
    }
}
END_TEST

/* A split with keys that reverse the order: the even processors of 8, ranked 6, 4, 2, 0; a
 * non-commutative user reduction (concatenating digits) shows the rank order. */
static void concat(void *inout, const void *in, size_t count, void *ctx)
{
    (void)ctx;
    int64_t *io = inout;
    const int64_t *x = in;
    for (size_t i = 0; i < count; i++) {
        int64_t scale = 1;
        while (scale <= io[i])
            scale *= 10;
        io[i] = x[i] * scale + io[i];      /* x (+) io: x's digits first */
    }
}

static void body_reversed(hr_proc *p, void *arg)
{
    grp_out *o = arg;
    int me = hr_pid(p);
    hr_group *g = hr_group_split(p, hr_world(p), me % 2 == 0 ? 0 : HR_UNDEFINED, -me);
    if (me % 2 != 0) {
        if (g != NULL)
            note(o, me, "undefined colour gives a group", 1, 0);
        return;
    }
    if (hr_group_rank(g) != (6 - me) / 2 || hr_group_pid(g, 0) != 6 || hr_group_size(g) != 4)
        note(o, me, "reversed rank", hr_group_rank(g), (6 - me) / 2);
    int64_t digit = me + 1, all = -1, pre = -1;   /* 7, 5, 3, 1 in rank order */
    hr_group_reduce_user(p, g, 2, &digit, &all, 1, sizeof digit, concat, NULL);
    if (hr_group_rank(g) == 2 && all != 7531)
        note(o, me, "reduce_user at rank 2", (long)all, 7531);
    hr_group_scan_user(p, g, &digit, &pre, 1, sizeof digit, concat, NULL);
    static const long want[4] = { 7, 75, 753, 7531 };
    if (pre != want[hr_group_rank(g)])
        note(o, me, "scan_user", (long)pre, want[hr_group_rank(g)]);
}

START_TEST(test_group_split_orders_by_key)
{
    for (int jitter = 0; jitter < 2; jitter++) {
        grp_out o;
        memset(&o, 0, sizeof o);
        hr_machine_config cfg = hr_test_config(8, NULL);
        cfg.jitter = jitter;
        hr_run_result res;
        hr_test_run(&cfg, body_reversed, &o, &res);
        ck_assert_msg(res.status == HR_OK, "%s", res.report);
        assert_good(&o, 8);
    }
}
END_TEST

/* A group barrier of 4 members is two rounds of zero-byte messages: 2 tau = 176 us. */
static void body_group_barrier(hr_proc *p, void *arg)
{
    (void)arg;
    static const int members[4] = { 1, 3, 5, 7 };
    hr_group *g = hr_group_make(p, members, 4);
    if (g != NULL)
        hr_group_barrier(p, g);
}

START_TEST(test_group_barrier_cost)
{
    hr_machine_config cfg = hr_test_config(8, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_group_barrier, NULL, &res);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    ck_assert_double_eq_tol(res.model_time_s, 176 * US, TOL);
    ck_assert_uint_eq(res.messages, 8);
}
END_TEST

/* Two groups of the same two processors (the same list made twice): P0 broadcasts in the first
 * then the second, P1 takes them in the other order. The messages must not be confused (taking
 * the first group's for the second's would swap the values): the run deadlocks, and the report
 * names both collectives. */
static void body_crossed(hr_proc *p, void *arg)
{
    (void)arg;
    static const int both[2] = { 0, 1 };
    hr_group *a = hr_group_make(p, both, 2), *b = hr_group_make(p, both, 2);
    int x = hr_pid(p) == 0 ? 1 : 0, y = hr_pid(p) == 0 ? 2 : 0;
    if (hr_pid(p) == 0) {
        hr_group_bcast(p, a, 0, &x, sizeof x);
        hr_group_bcast(p, b, 0, &y, sizeof y);
    } else {
        hr_group_bcast(p, b, 0, &y, sizeof y);
        hr_group_bcast(p, a, 0, &x, sizeof x);
    }
}

START_TEST(test_group_messages_never_cross)
{
    hr_machine_config cfg = hr_test_config(2, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_crossed, NULL, &res);
    ck_assert_int_eq(res.status, HR_EDEADLK);
    ck_assert_msg(strstr(res.report, "P0 waits in hr_group_bcast from rank 0 of a group of 2 for "
                                     "the others to take its messages") != NULL, "%s", res.report);
    ck_assert_msg(strstr(res.report, "P1 waits in hr_group_bcast from rank 0 of a group of 2 for "
                                     "P0's block") != NULL, "%s", res.report);
}
END_TEST

/* A member that never joins: the others' wait names the collective. */
static void body_absent(hr_proc *p, void *arg)
{
    (void)arg;
    static const int three[3] = { 0, 1, 2 };
    hr_group *g = hr_group_make(p, three, 3);
    int v = 0;
    if (hr_pid(p) != 2)
        hr_group_allreduce(p, g, &v, &v, 1, HR_INT32, HR_MAX);
}

static void body_bad(hr_proc *p, void *arg)
{
    int which = *(int *)arg, v = 0;
    static const int dup[3] = { 0, 1, 1 }, out[2] = { 0, 9 }, two[2] = { 0, 1 };
    if (hr_pid(p) != 0)
        return;
    switch (which) {
    case 0: (void)hr_group_make(p, dup, 3); break;
    case 1: (void)hr_group_make(p, out, 2); break;
    case 2: hr_group_bcast(p, hr_group_make(p, two, 2), 5, &v, sizeof v); break;
    case 3: hr_group_bcast(p, NULL, 0, &v, sizeof v); break;
    case 4: (void)hr_group_split(p, hr_world(p), -7, 0); break;
    }
}

START_TEST(test_group_deadlock_and_misuse)
{
    hr_machine_config cfg = hr_test_config(3, NULL);
    hr_run_result res;
    hr_test_run(&cfg, body_absent, NULL, &res);
    ck_assert_int_eq(res.status, HR_EDEADLK);
    ck_assert_msg(strstr(res.report, "waits in hr_group_allreduce in a group of 3") != NULL, "%s",
                  res.report);
    static const char *const want[5] = {
        "P0: misuse: hr_group_make: processor 1 is listed twice",
        "P0: misuse: hr_group_make: member 1 is processor 9, which does not exist (p = 3)",
        "P0: misuse: hr_group_bcast: root 5 is not a rank of the group (2 members)",
        "P0: misuse: hr_group_bcast: the group is NULL",
        "P0: misuse: hr_group_split: colour -7",
    };
    for (int which = 0; which < 5; which++) {
        hr_test_run(&cfg, body_bad, &which, &res);
        ck_assert_int_eq(res.status, HR_EMISUSE);
        ck_assert_msg(strstr(res.report, want[which]) != NULL, "case %d: %s", which, res.report);
    }
}
END_TEST

Suite *hr_group_suite(void)
{
    Suite *s = suite_create("group");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_group_row_broadcasts_at_once);
    tcase_add_test(tc, test_group_rows_and_columns);
    tcase_add_test(tc, test_group_split_orders_by_key);
    tcase_add_test(tc, test_group_barrier_cost);
    tcase_add_test(tc, test_group_messages_never_cross);
    tcase_add_test(tc, test_group_deadlock_and_misuse);
    suite_add_tcase(s, tc);
    return s;
}
