/* check_values.c: the "values" workload of seed 004: its generator (reproducible, in range, m =
 * n/p), its refusals, and its verifier against outputs worked out by hand, including doubles whose
 * association order changes the result (the figures computed by python3, whose floats are IEEE
 * doubles too: 1e16 + (1.0 + -9999999999999998.0) is 4.0 and (1e16 + 1.0) + -9999999999999998.0
 * is 2.0). */
#include "hr_test.h"

#include <stdint.h>
#include <string.h>

#include <hremu/error.h>
#include <hremu/workload.h>

static const hr_workload *values(void)
{
    const hr_workload *w = hr_workload_find("values");
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(w->kind, HR_KIND_VALUES);
    return w;
}

static hr_values *make(const char *dataset, const char *op, uint64_t n, int p, uint64_t root,
                       uint64_t seed)
{
    hr_wkey_value keys[2] = { { .word = op }, { .num = (double)root } };
    hr_workload_spec s = { .kind = "values", .n = n, .dataset = dataset, .keys = keys,
                           .seed = seed };
    void *inst = NULL;
    char why[256];
    int err = values()->make(&s, p, &inst, why, sizeof why);
    ck_assert_msg(err == HR_OK, "%s", why);
    return inst;
}

START_TEST(test_values_generator)
{
    hr_values *a = make("int", "sum", 64, 16, 0, 7), *b = make("int", "sum", 64, 16, 0, 7);
    hr_values *c = make("int", "sum", 64, 16, 0, 8), *d = make("double", "max", 64, 16, 3, 7);
    ck_assert_int_eq(a->p, 16);
    ck_assert_uint_eq(a->m, 4);
    ck_assert_int_eq(a->type, HR_INT64);
    ck_assert_int_eq(d->type, HR_DOUBLE);
    ck_assert_int_eq(d->op, HR_MAX);
    ck_assert_int_eq(d->root, 3);
    ck_assert_uint_eq(values()->h(a), 4);
    int same = 1, differ = 0;
    for (int x = 0; x < 16; x++)
        for (int i = 0; i < 4; i++) {
            int64_t va = ((int64_t *)a->in[x])[i], vc = ((int64_t *)c->in[x])[i];
            double vd = ((double *)d->in[x])[i];
            same &= va == ((int64_t *)b->in[x])[i];
            differ |= va != vc;
            ck_assert(va >= -(INT64_C(1) << 31) && va < (INT64_C(1) << 31));
            ck_assert(vd >= -1.0 && vd < 1.0);
        }
    ck_assert(same);
    ck_assert(differ);
    uint64_t moved;
    ck_assert_uint_eq(values()->min_bytes(a, &moved), 8 * 15 * 4);
    ck_assert_uint_eq(moved, 15 * 4);
    hr_values *all[] = { a, b, c, d };
    for (int i = 0; i < 4; i++)
        values()->destroy(all[i]);
}
END_TEST

START_TEST(test_values_refusals)
{
    static const struct { const char *dataset, *op; uint64_t n, root; const char *why; } bad[] = {
        { "int", "sum", 30, 0, "n = 30 is not a positive multiple of p = 16" },
        { "int", "sum", 0, 0, "n = 0 is not a positive multiple" },
        { "int", "sum", 32, 16, "root 16 is not a processor (p = 16)" },
        { "int", "avg", 32, 0, "unknown op 'avg'" },
        { "R", "sum", 32, 0, "unknown dataset 'R' for values" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hr_wkey_value keys[2] = { { .word = bad[i].op }, { .num = (double)bad[i].root } };
        hr_workload_spec s = { .kind = "values", .n = bad[i].n, .dataset = bad[i].dataset,
                               .keys = keys, .seed = 1 };
        void *inst = (void *)1;
        char why[256] = "";
        ck_assert_int_eq(values()->make(&s, 16, &inst, why, sizeof why), HR_EINVAL);
        ck_assert_ptr_null(inst);
        ck_assert_msg(strstr(why, bad[i].why) != NULL, "%s", why);
    }
}
END_TEST

/* Set the inputs of a 1-value instance. */
static void set_ints(hr_values *v, const int64_t *in)
{
    for (int x = 0; x < v->p; x++)
        ((int64_t *)v->in[x])[0] = in[x];
}

static int verify(hr_values *v, char *why)
{
    return values()->verify(v, why, 256);
}

START_TEST(test_values_verify_by_hand)
{
    char why[256];
    hr_values *v = make("int", "sum", 4, 4, 2, 1);
    static const int64_t in[4] = { 5, -3, 10, 7 };
    set_ints(v, in);
    int64_t out[4][1];
    for (int x = 0; x < 4; x++)
        v->out[x] = out[x];
    ck_assert_int_eq(verify(v, why), HR_EVERIFY);        /* no goal said */
    ck_assert_msg(strstr(why, "did not say what it computed") != NULL, "%s", why);
    /* Broadcast from root 2: every processor holds 10. */
    v->goal = HR_GOAL_BCAST;
    for (int x = 0; x < 4; x++)
        out[x][0] = 10;
    ck_assert_int_eq(verify(v, why), HR_OK);
    out[3][0] = 7;
    ck_assert_int_eq(verify(v, why), HR_EVERIFY);
    ck_assert_str_eq(why, "the broadcast of P2: value 0 of P3 is 7, not 10");
    /* Reduction to root 2: 19 there, nothing asked of the others. */
    v->goal = HR_GOAL_REDUCE;
    out[2][0] = 19;
    v->out[0] = v->out[1] = v->out[3] = NULL;
    ck_assert_int_eq(verify(v, why), HR_OK);
    v->out[2] = NULL;
    ck_assert_int_eq(verify(v, why), HR_EVERIFY);
    ck_assert_str_eq(why, "the reduction to P2: value 0 of P2 is nothing, not 19");
    /* Prefix: 5, 2, 12, 19. */
    v->goal = HR_GOAL_PREFIX;
    static const int64_t scan[4] = { 5, 2, 12, 19 };
    for (int x = 0; x < 4; x++) {
        v->out[x] = out[x];
        out[x][0] = scan[x];
    }
    ck_assert_int_eq(verify(v, why), HR_OK);
    out[1][0] = 5;
    ck_assert_int_eq(verify(v, why), HR_EVERIFY);
    ck_assert_str_eq(why, "the prefix at P1: value 0 of P1 is 5, not 2");
    values()->reset(v);
    ck_assert_int_eq(v->goal, HR_GOAL_NONE);
    ck_assert_ptr_null(v->out[0]);
    values()->destroy(v);

    /* max and min, and integer sums that wrap. */
    v = make("int", "min", 2, 2, 0, 1);
    static const int64_t two[2] = { 4, -9 };
    set_ints(v, two);
    int64_t r[1] = { -9 };
    v->out[0] = r;
    v->goal = HR_GOAL_REDUCE;
    ck_assert_int_eq(verify(v, why), HR_OK);
    values()->destroy(v);
    v = make("int", "sum", 2, 2, 0, 1);
    static const int64_t big[2] = { INT64_MAX, 2 };
    set_ints(v, big);
    r[0] = INT64_MIN + 1;
    v->out[0] = r;
    v->goal = HR_GOAL_REDUCE;
    ck_assert_int_eq(verify(v, why), HR_OK);
    values()->destroy(v);
}
END_TEST

START_TEST(test_values_doubles_in_order)
{
    char why[256];
    hr_values *v = make("double", "sum", 8, 8, 0, 1);
    static const double in[8] = { 1e16, 0, 0, 0, 1.0, 0, -9999999999999998.0, 0 };
    double out[8][1];
    for (int x = 0; x < 8; x++) {
        ((double *)v->in[x])[0] = in[x];
        v->out[x] = out[x];
    }
    /* P0 .. P5's prefixes are the same in both orders (block totals 1e16 and 1, and zeros). P6
     * and P7 (in6 + in7 = in6) differ: the hypercube's order gives 1e16 + (1 + in6) = 4, split
     * 1 (RH-like) gives (1e16 + 1) + in6 = 2. */
    static const double common[6] = { 1e16, 1e16, 1e16, 1e16, 1e16 + 1.0, 1e16 + 1.0 };
    for (int x = 0; x < 6; x++)
        out[x][0] = common[x];
    v->goal = HR_GOAL_PREFIX;
    v->split = 0;
    out[6][0] = out[7][0] = 4.0;
    ck_assert_msg(verify(v, why) == HR_OK, "%s", why);
    out[7][0] = 2.0;
    ck_assert_int_eq(verify(v, why), HR_EVERIFY);
    ck_assert_str_eq(why, "the prefix at P7: value 0 of P7 is 2, not 4");
    v->split = 1;
    ck_assert_int_eq(verify(v, why), HR_EVERIFY);
    ck_assert_str_eq(why, "the prefix at P6: value 0 of P6 is 4, not 2");
    out[6][0] = 2.0;
    ck_assert_msg(verify(v, why) == HR_OK, "%s", why);
    /* The reduction: a balanced tree in address order, ((1e16 + 0) + (0 + 0)) + ((1 + 0) +
     * (-9999999999999998 + 0)) = 1e16 + -9999999999999997 (rounded to even: ...96) = 4. */
    v->goal = HR_GOAL_REDUCE;
    for (int x = 1; x < 8; x++)
        v->out[x] = NULL;
    out[0][0] = 1e16 + (1.0 + -9999999999999998.0);
    ck_assert_msg(verify(v, why) == HR_OK, "%s", why);
    values()->destroy(v);
}
END_TEST

Suite *hr_values_suite(void)
{
    Suite *s = suite_create("values");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_values_generator);
    tcase_add_test(tc, test_values_refusals);
    tcase_add_test(tc, test_values_verify_by_hand);
    tcase_add_test(tc, test_values_doubles_in_order);
    suite_add_tcase(s, tc);
    return s;
}
