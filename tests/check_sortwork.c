/* check_sortwork.c: the "sort" workload: the NAS IS keys against values computed independently,
 * the properties of the R, S and C datasets, the block layout, rejected parameters, and the
 * verifier against a sequential stable sort of the same instance and against corrupted outputs. */
#include "hr_test.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>
#include <hremu/workload.h>
#include "work/sort.h"

/* The first NAS IS keys (dataset N), computed by this python3 script, not by the code under test,
 * its output pasted below. It runs NPB's create_seq in doubles as NAS does (randlc advances x and
 * returns x / 2^46; key = int(MAX_KEY/4 * (r1 + r2 + r3 + r4)) with MAX_KEY = 2^19), and an
 * integer form ((x1 + x2 + x3 + x4) >> 29) printed the same keys:
 *
 *   a = 5**13; M = 2**46; x = 314159265.0; out = []
 *   for i in range(1001):
 *       r = 0.0
 *       for _ in range(4):
 *           x = float(int(x) * a % M); r += x * 2.0**-46
 *       out.append(int((2**19 // 4) * r))
 *   print(out[:8], out[1000])
 */
static const uint32_t nas_first[8] = {
    405901, 211274, 271374, 343919, 244803, 111984, 194409, 215372 };
#define NAS_KEY_1000 207231

static const hr_workload *sortwork(void)
{
    const hr_workload *w = hr_workload_find("sort");
    ck_assert_ptr_nonnull(w);
    return w;
}

static hr_sort *make_ok(const char *dataset, uint64_t n, int p, uint64_t seed)
{
    hr_workload_spec s = { .kind = "sort", .n = n, .dataset = dataset, .seed = seed };
    char why[256] = "";
    void *inst = NULL;
    int err = sortwork()->make(&s, p, &inst, why, sizeof why);
    ck_assert_msg(err == HR_OK, "make %s n=%" PRIu64 " p=%d: %s", dataset, n, p, why);
    ck_assert_ptr_nonnull(inst);
    return inst;
}

/* The input's element g, walking the blocks in processor order. */
static hr_key input_at(const hr_sort *r, uint64_t g)
{
    for (int i = 0; i < r->p; i++) {
        if (g < r->in_count[i])
            return r->in[i][g];
        g -= r->in_count[i];
    }
    ck_abort_msg("element past the input");
    return (hr_key){ 0, 0 };
}

static int by_key_id(const void *a, const void *b)
{
    const hr_key *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The test's own sort: every input element into one array, qsort by (key, id), which is the stable
 * order since ids are input positions, then cut into blocks of the given sizes (NULL: the input's
 * sizes). The buffers are plain malloc here; free_sorted releases them. */
static void sort_into(hr_sort *r, const size_t *sizes)
{
    hr_key *all = malloc((size_t)r->n * sizeof *all);
    ck_assert_ptr_nonnull(all);
    size_t m = 0;
    for (int i = 0; i < r->p; i++)
        for (size_t k = 0; k < r->in_count[i]; k++)
            all[m++] = r->in[i][k];
    ck_assert_uint_eq(m, r->n);
    qsort(all, m, sizeof *all, by_key_id);
    size_t at = 0;
    for (int i = 0; i < r->p; i++) {
        size_t count = sizes ? sizes[i] : r->in_count[i];
        r->out[i] = malloc((count > 0 ? count : 1) * sizeof(hr_key));
        ck_assert_ptr_nonnull(r->out[i]);
        memcpy(r->out[i], all + at, count * sizeof(hr_key));
        r->out_count[i] = count;
        at += count;
    }
    ck_assert_uint_eq(at, r->n);
    free(all);
}

static void free_sorted(hr_sort *r)
{
    for (int i = 0; i < r->p; i++)
        free(r->out[i]);
    sortwork()->reset(r);
}

static void expect_ok(const hr_sort *r)
{
    char why[256] = "";
    int err = sortwork()->verify(r, why, sizeof why);
    ck_assert_msg(err == HR_OK, "verify: %s", why);
}

static void expect_fail(const hr_sort *r, const char *want)
{
    char why[256] = "";
    ck_assert_int_eq(sortwork()->verify(r, why, sizeof why), HR_EVERIFY);
    ck_assert_str_eq(why, want);
}

/* ---- core ----------------------------------------------------------------------------------- */

START_TEST(test_sortwork_row)
{
    const hr_workload *w = sortwork();
    ck_assert_int_eq(w->kind, HR_KIND_SORT);
    ck_assert_ptr_null(w->distributions);
    ck_assert_str_eq(w->datasets, "C, N, R, S");
    hr_sort *r = make_ok("R", 10, 4, 1);
    ck_assert_uint_eq(w->h(r), 3);       /* ceil(10/4) */
    w->destroy(r);
    w->destroy(NULL);
}
END_TEST

/* N: the NAS keys in order, dealt in blocks: the first n/p generated keys to processor 0. The
 * seed does not matter. */
START_TEST(test_sortwork_nas)
{
    hr_sort *r = make_ok("N", 1004, 4, 1);
    for (int k = 0; k < 8; k++)
        ck_assert_uint_eq(r->in[0][k].key, nas_first[k]);
    ck_assert_uint_eq(input_at(r, 1000).key, NAS_KEY_1000);
    ck_assert_uint_eq(r->in[3][247].id, 1000);      /* 3 * 251 + 247 */
    for (uint64_t g = 0; g < r->n; g++) {
        hr_key e = input_at(r, g);
        ck_assert_uint_eq(e.id, g);
        ck_assert_uint_lt(e.key, 1u << 19);
    }
    hr_sort *q = make_ok("N", 1004, 4, 99);
    for (int i = 0; i < 4; i++)
        ck_assert(memcmp(r->in[i], q->in[i], r->in_count[i] * sizeof(hr_key)) == 0);
    sortwork()->destroy(q);
    /* The same keys for another p: only the layout changes. */
    q = make_ok("N", 1004, 7, 1);
    for (uint64_t g = 0; g < r->n; g++)
        ck_assert_uint_eq(input_at(q, g).key, input_at(r, g).key);
    sortwork()->destroy(q);
    sortwork()->destroy(r);
}
END_TEST

/* C: values 0 .. n-1 placed cyclically (processor i holds i, i+p, ...), ids in block order; with
 * n = 10, p = 4 the first two processors hold one key more. */
START_TEST(test_sortwork_consecutive)
{
    static const uint32_t want[4][3] = { { 0, 4, 8 }, { 1, 5, 9 }, { 2, 6 }, { 3, 7 } };
    static const size_t counts[4] = { 3, 3, 2, 2 };
    hr_sort *r = make_ok("C", 10, 4, 1);
    uint32_t id = 0;
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(r->in_count[i], counts[i]);
        for (size_t k = 0; k < counts[i]; k++, id++) {
            ck_assert_uint_eq(r->in[i][k].key, want[i][k]);
            ck_assert_uint_eq(r->in[i][k].id, id);
        }
    }
    sortwork()->destroy(r);
    /* A larger one, checked by the rule: every key once, key at (i, k) = k p + i. */
    r = make_ok("C", 1000, 16, 5);
    for (int i = 0; i < 16; i++) {
        ck_assert_uint_eq(r->in_count[i], i < 8 ? 63 : 62);
        for (size_t k = 0; k < r->in_count[i]; k++)
            ck_assert_uint_eq(r->in[i][k].key, k * 16 + (size_t)i);
    }
    sortwork()->destroy(r);
}
END_TEST

/* R: 31-bit keys (footnote 5), a function of the seed; the top bit never set, the others about
 * half the time. S: the AND of five R keys, so each of bits 0 .. 30 set with probability 1/32. */
START_TEST(test_sortwork_random)
{
    enum { N = 1 << 16, P = 8 };
    static const char *const sets[] = { "R", "S" };
    for (int s = 0; s < 2; s++) {
        hr_sort *a = make_ok(sets[s], N, P, 7), *b = make_ok(sets[s], N, P, 7);
        hr_sort *c = make_ok(sets[s], N, P, 8);
        uint64_t bits[32] = { 0 }, same = 0;
        for (int i = 0; i < P; i++) {
            ck_assert_uint_eq(a->in_count[i], N / P);
            ck_assert(memcmp(a->in[i], b->in[i], a->in_count[i] * sizeof(hr_key)) == 0);
            for (size_t k = 0; k < a->in_count[i]; k++) {
                uint32_t key = a->in[i][k].key;
                same += key == c->in[i][k].key;
                for (int j = 0; j < 32; j++)
                    bits[j] += (key >> j) & 1;
            }
        }
        /* Another seed, other keys. Two independent S keys are both 0 with probability about
         * (31/32)^62 = 0.14, so S agrees on about 15% of the places by chance. */
        ck_assert_uint_lt(same, s == 0 ? 64 : N / 5);
        ck_assert_uint_eq(bits[31], 0);
        /* Expected N/2 = 32768 (R) or N/32 = 2048 (S) per bit; sd 128 or 44: allow 6 sd. */
        for (int j = 0; j < 31; j++) {
            double mean = s == 0 ? N / 2.0 : N / 32.0, sd = s == 0 ? 128.0 : 44.0;
            ck_assert_msg(bits[j] > mean - 6 * sd && bits[j] < mean + 6 * sd,
                          "%s bit %d set %" PRIu64 " times", sets[s], j, bits[j]);
        }
        sortwork()->destroy(a);
        sortwork()->destroy(b);
        sortwork()->destroy(c);
    }
}
END_TEST

/* ---- limits --------------------------------------------------------------------------------- */

START_TEST(test_sortwork_rejects)
{
    static const struct {
        const char *dataset, *distribution;
        uint64_t    n, h;
        int         p;
        const char *why;
    } cases[] = {
        { NULL, NULL, 16, 0, 4, "kind sort needs a dataset (C, N, R, S)" },
        { "Q", NULL, 16, 0, 4, "unknown sort dataset \"Q\" (known: C, N, R, S)" },
        { "RS", NULL, 16, 0, 4, "unknown sort dataset \"RS\" (known: C, N, R, S)" },
        { "", NULL, 16, 0, 4, "unknown sort dataset \"\" (known: C, N, R, S)" },
        { "r", NULL, 16, 0, 4, "unknown sort dataset \"r\" (known: C, N, R, S)" },
        { "R", "uniform", 16, 0, 4, "kind sort takes a dataset, not a distribution "
          "(got distribution \"uniform\")" },
        { "R", NULL, 16, 4, 4, "kind sort takes no h (got h = 4)" },
        { "R", NULL, 0, 0, 4, "n must be at least 1" },
        { "C", NULL, (UINT64_C(1) << 32) + 1, 0, 4,
          "n = 4294967297 exceeds 2^32: element ids are 32-bit fields" },
        { "C", NULL, 16, 0, 0, "procs = 0 is outside 1 .. 4096" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hr_workload_spec s = { .kind = "sort", .n = cases[c].n, .h = cases[c].h,
                               .dataset = cases[c].dataset,
                               .distribution = cases[c].distribution, .seed = 1 };
        char why[256] = "";
        void *inst = NULL;
        ck_assert_int_eq(sortwork()->make(&s, cases[c].p, &inst, why, sizeof why), HR_EINVAL);
        ck_assert_ptr_null(inst);
        ck_assert_str_eq(why, cases[c].why);
    }
}
END_TEST

/* ---- verify --------------------------------------------------------------------------------- */

/* Correct outputs pass for every dataset, with the input's block sizes and with uneven ones
 * (including empty blocks, which the order check skips); n smaller than p leaves processors
 * without input. */
START_TEST(test_sortwork_verify_correct)
{
    static const char *const sets[] = { "C", "N", "R", "S" };
    for (int s = 0; s < 4; s++) {
        hr_sort *r = make_ok(sets[s], 1003, 5, 11);
        sort_into(r, NULL);
        expect_ok(r);
        expect_ok(r);      /* a fresh bitmap each time */
        free_sorted(r);
        static const size_t uneven[5] = { 0, 500, 0, 3, 500 };
        sort_into(r, uneven);
        expect_ok(r);
        free_sorted(r);
        sortwork()->destroy(r);
    }
    hr_sort *r = make_ok("R", 3, 8, 2);
    sort_into(r, NULL);
    expect_ok(r);
    free_sorted(r);
    /* reset forgets the outputs: nothing has arrived. */
    char want[128];
    snprintf(want, sizeof want, "id 0 (key %" PRIu32 ") is missing from the output",
             r->in[0][0].key);
    expect_fail(r, want);
    sortwork()->destroy(r);
}
END_TEST

START_TEST(test_sortwork_verify_corrupt)
{
    /* C: keys 0 .. 999 all distinct, so the sorted output is key k with id of its input place. */
    hr_sort *r = make_ok("C", 1000, 4, 1);
    sort_into(r, NULL);
    expect_ok(r);

    /* A descending pair inside a block. */
    hr_key t = r->out[1][5];
    r->out[1][5] = r->out[1][6];
    r->out[1][6] = t;
    expect_fail(r, "processor 1 is not sorted: key 255 at index 6 follows key 256");
    r->out[1][6] = r->out[1][5];
    r->out[1][5] = t;
    expect_ok(r);

    /* Blocks out of order: processors 0 and 1 swap their blocks. */
    hr_key *b = r->out[0];
    r->out[0] = r->out[1];
    r->out[1] = b;
    expect_fail(r, "blocks out of order: processor 0 ends with key 499 but processor 1 starts "
                "with key 0");
    r->out[1] = r->out[0];
    r->out[0] = b;
    expect_ok(r);

    /* A lost element: the last of processor 3 (key 999, input at processor 3, local 249). */
    r->out_count[3]--;
    expect_fail(r, "id 999 (key 999) is missing from the output");
    r->out_count[3]++;

    /* A changed key that keeps the order: the last key becomes 1000. */
    r->out[3][249].key = 1000;
    expect_fail(r, "processor 3 index 249 holds id 999 with key 1000, but its input key is 999");
    r->out[3][249].key = 999;
    expect_ok(r);

    /* A duplicated element: processor 2's first again at the end of processor 1. */
    hr_key *grown = realloc(r->out[1], (r->out_count[1] + 1) * sizeof(hr_key));
    ck_assert_ptr_nonnull(grown);
    r->out[1] = grown;
    grown[r->out_count[1]++] = r->out[2][0];
    char want[128];
    snprintf(want, sizeof want, "id %" PRIu32 " is held by processor 1 and again by processor 2",
             r->out[2][0].id);
    expect_fail(r, want);
    /* ... and twice in one block. */
    grown[r->out_count[1] - 1] = grown[r->out_count[1] - 2];
    snprintf(want, sizeof want, "processor 1 holds id %" PRIu32 " twice",
             grown[r->out_count[1] - 1].id);
    expect_fail(r, want);
    r->out_count[1]--;
    expect_ok(r);

    /* An id out of range, and a count without a buffer. */
    t = r->out[0][0];
    r->out[0][0].id = 1000;
    expect_fail(r, "processor 0 index 0 holds id 1000, but ids end at 999");
    r->out[0][0] = t;
    hr_key *o = r->out[2];
    r->out[2] = NULL;
    expect_fail(r, "processor 2 reports 250 keys but no output buffer");
    r->out[2] = o;
    expect_ok(r);
    free_sorted(r);
    sortwork()->destroy(r);
}
END_TEST

/* S has many equal keys: swapping two adjacent equal ones is the unstable order. */
START_TEST(test_sortwork_verify_unstable)
{
    hr_sort *r = make_ok("S", 4096, 4, 3);
    sort_into(r, NULL);
    expect_ok(r);
    int found = 0;
    for (int i = 0; i < r->p && !found; i++)
        for (size_t k = 1; k < r->out_count[i] && !found; k++) {
            hr_key a = r->out[i][k - 1], c = r->out[i][k];
            if (a.key != c.key)
                continue;
            r->out[i][k - 1] = c;
            r->out[i][k] = a;
            char want[160];
            snprintf(want, sizeof want, "not stable: processor %d index %zu holds id %" PRIu32
                     " after id %" PRIu32 ", both with key %" PRIu32, i, k, a.id, c.id, a.key);
            expect_fail(r, want);
            r->out[i][k - 1] = a;
            r->out[i][k] = c;
            found = 1;
        }
    ck_assert(found);
    expect_ok(r);
    free_sorted(r);
    sortwork()->destroy(r);
}
END_TEST

Suite *hr_sortwork_suite(void)
{
    Suite *s = suite_create("sortwork");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_sortwork_row);
    tcase_add_test(core, test_sortwork_nas);
    tcase_add_test(core, test_sortwork_consecutive);
    tcase_add_test(core, test_sortwork_random);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_sortwork_rejects);
    suite_add_tcase(s, limits);
    TCase *verify = tcase_create("verify");
    tcase_add_test(verify, test_sortwork_verify_correct);
    tcase_add_test(verify, test_sortwork_verify_corrupt);
    tcase_add_test(verify, test_sortwork_verify_unstable);
    suite_add_tcase(s, verify);
    return s;
}
