/* check_sortwork.c: the "sort" workload: the NAS IS keys against values computed independently,
 * the properties of the R, S and C datasets, the block layout, rejected parameters, the verifier
 * against a sequential stable sort of the same instance, against corrupted outputs and against
 * outputs laid out other than the input, the bytes a run must move (a sort that cheats through
 * shared memory, and the project's sorts), and mem_bytes against the allocator's own figures. */
#include "hr_test.h"

#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/algorithm.h>
#include <hremu/error.h>
#include <hremu/workload.h>
#include "util/alloc.h"
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
        { "C", NULL, 16, 0, 0, "procs = 0 is outside 1 .. 1048576" },
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

/* Correct outputs pass for every dataset; n smaller than p leaves processors without input and
 * without output (empty blocks, which the order check skips). */
START_TEST(test_sortwork_verify_correct)
{
    static const char *const sets[] = { "C", "N", "R", "S" };
    for (int s = 0; s < 4; s++) {
        hr_sort *r = make_ok(sets[s], 1003, 5, 11);
        sort_into(r, NULL);
        expect_ok(r);
        expect_ok(r);      /* a fresh bitmap each time */
        free_sorted(r);
        sortwork()->destroy(r);
    }
    hr_sort *r = make_ok("R", 3, 8, 2);
    sort_into(r, NULL);
    expect_ok(r);
    free_sorted(r);
    /* reset forgets the outputs: processor 0's block is missing. */
    expect_fail(r, "processor 0 ends with 0 keys, but the block layout gives it 1 (n = 3, p = 8)");
    sortwork()->destroy(r);
}
END_TEST

/* The output is laid out as the input: n/p keys a processor, one more on the first n mod p. A
 * sorted sequence cut any other way fails, naming the first processor whose count is wrong, even
 * when every other property holds. The counts are written out by hand. */
START_TEST(test_sortwork_verify_layout)
{
    /* The issue's case: the last processor's block moved onto the one before it. */
    hr_sort *r = make_ok("C", 1000, 4, 1);
    static const size_t merged[4] = { 250, 250, 500, 0 };
    sort_into(r, merged);
    expect_fail(r, "processor 2 ends with 500 keys, but the block layout gives it 250 "
                   "(n = 1000, p = 4)");
    free_sorted(r);
    static const size_t first_empty[4] = { 0, 250, 250, 500 };
    sort_into(r, first_empty);
    expect_fail(r, "processor 0 ends with 0 keys, but the block layout gives it 250 "
                   "(n = 1000, p = 4)");
    free_sorted(r);
    sortwork()->destroy(r);

    /* n = 10, p = 4: blocks of 3, 3, 2, 2. The remainder at the end instead is wrong. */
    static const size_t want10[4] = { 3, 3, 2, 2 }, late[4] = { 2, 2, 3, 3 },
                        shifted[4] = { 3, 2, 3, 2 };
    static const char *const sets[] = { "C", "R" };
    for (int d = 0; d < 2; d++) {
        r = make_ok(sets[d], 10, 4, 3);
        for (int i = 0; i < 4; i++)
            ck_assert_uint_eq(r->in_count[i], want10[i]);
        sort_into(r, want10);
        expect_ok(r);
        free_sorted(r);
        sort_into(r, late);
        expect_fail(r, "processor 0 ends with 2 keys, but the block layout gives it 3 "
                       "(n = 10, p = 4)");
        free_sorted(r);
        sort_into(r, shifted);
        expect_fail(r, "processor 1 ends with 2 keys, but the block layout gives it 3 "
                       "(n = 10, p = 4)");
        free_sorted(r);
        sortwork()->destroy(r);
    }

    /* n = 1003, p = 5: 201, 201, 201, 200, 200; all keys on processor 1. */
    r = make_ok("S", 1003, 5, 11);
    static const size_t want1003[5] = { 201, 201, 201, 200, 200 }, one[5] = { 0, 1003, 0, 0, 0 };
    sort_into(r, want1003);
    expect_ok(r);
    free_sorted(r);
    sort_into(r, one);
    expect_fail(r, "processor 0 ends with 0 keys, but the block layout gives it 201 "
                   "(n = 1003, p = 5)");
    free_sorted(r);
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
    expect_fail(r, "processor 3 ends with 249 keys, but the block layout gives it 250 "
                   "(n = 1000, p = 4)");
    r->out_count[3]++;
    /* ... and in its place a copy of the one before it: key 998, input at processor 2 (998 mod
     * 4), local 249 (998 / 4), so id 2 * 250 + 249. */
    t = r->out[3][249];
    r->out[3][249] = r->out[3][248];
    expect_fail(r, "processor 3 holds id 749 twice");
    r->out[3][249] = t;

    /* A changed key that keeps the order: the last key becomes 1000. */
    r->out[3][249].key = 1000;
    expect_fail(r, "processor 3 index 249 holds id 999 with key 1000, but its input key is 999");
    r->out[3][249].key = 999;
    expect_ok(r);

    /* A duplicated element: processor 2's first in place of processor 1's last. */
    t = r->out[1][249];
    r->out[1][249] = r->out[2][0];
    char want[128];
    snprintf(want, sizeof want, "id %" PRIu32 " is held by processor 1 and again by processor 2",
             r->out[2][0].id);
    expect_fail(r, want);
    /* ... and twice in one block. */
    r->out[1][249] = r->out[1][248];
    snprintf(want, sizeof want, "processor 1 holds id %" PRIu32 " twice", r->out[1][248].id);
    expect_fail(r, want);
    r->out[1][249] = t;
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

/* ---- bytes moved ------------------------------------------------------------------------- */

/* C, n = 10, p = 4, by hand: the input is P0 ids 0 1 2 (keys 0 4 8), P1 ids 3 4 5 (keys 1 5 9),
 * P2 ids 6 7 (keys 2 6), P3 ids 8 9 (keys 3 7). Sorted, key k is rank k, so the output is P0 ids
 * 0 3 6, P1 ids 8 1 4, P2 ids 7 9, P3 ids 2 5: ids 0, 4 and 7 stay in their blocks, 7 keys move,
 * 28 bytes. p = 1 moves nothing. R on p = 7 against the test's own count: a key moves when the
 * block of its input position differs from the block of its rank. */
START_TEST(test_sortwork_min_bytes)
{
    hr_sort *r = make_ok("C", 10, 4, 1);
    sort_into(r, NULL);
    expect_ok(r);
    uint64_t moved = 0;
    ck_assert_uint_eq(sortwork()->min_bytes(r, &moved), 28);
    ck_assert_uint_eq(moved, 7);
    ck_assert_uint_eq(sortwork()->min_bytes(r, NULL), 28);
    free_sorted(r);
    sortwork()->destroy(r);

    r = make_ok("R", 1000, 1, 1);
    sort_into(r, NULL);
    ck_assert_uint_eq(sortwork()->min_bytes(r, &moved), 0);
    ck_assert_uint_eq(moved, 0);
    free_sorted(r);
    sortwork()->destroy(r);

    enum { N = 5003, P = 7 };
    r = make_ok("R", N, P, 9);
    sort_into(r, NULL);
    uint64_t owner_of_pos[N], pos = 0, want = 0;
    for (int i = 0; i < P; i++)
        for (size_t k = 0; k < r->in_count[i]; k++)
            owner_of_pos[pos++] = (uint64_t)i;
    pos = 0;
    for (int i = 0; i < P; i++)
        for (size_t k = 0; k < r->out_count[i]; k++, pos++)
            want += owner_of_pos[r->out[i][k].id] != owner_of_pos[pos];
    ck_assert_uint_gt(want, N / 2);
    ck_assert_uint_eq(sortwork()->min_bytes(r, &moved), 4 * want);
    ck_assert_uint_eq(moved, want);
    free_sorted(r);
    sortwork()->destroy(r);
}
END_TEST


/* A cheat: every processor copies the whole input by reading the other processors' blocks
 * directly, sorts it and keeps its block; nothing is sent. Its output is correct. */
static void cheat_sort(hr_proc *p, void *arg)
{
    hr_sort *r = arg;
    int me = hr_pid(p);
    hr_key *all = hr_malloc(p, (size_t)r->n * sizeof *all);
    size_t m = 0, start = 0;
    for (int i = 0; i < r->p; i++) {
        if (i == me)
            start = m;
        for (size_t k = 0; k < r->in_count[i]; k++)
            all[m++] = r->in[i][k];
    }
    qsort(all, m, sizeof *all, by_key_id);
    size_t mine = r->in_count[me];
    hr_key *out = hr_malloc(p, mine * sizeof *out + 1);
    memcpy(out, all + start, mine * sizeof *out);
    hr_free(p, all);
    r->out[me] = out;
    r->out_count[me] = mine;
}

typedef struct sort_job {
    const hr_algorithm *alg;
    hr_sort            *inst;
    double              params[8];
} sort_job;

static void run_sort_alg(hr_proc *p, void *arg)
{
    sort_job *j = arg;
    j->alg->run(p, j->inst, j->params);
}

static uint64_t run_sort(hr_sort *r, void (*fn)(hr_proc *, void *), void *arg, int *verify_err,
                         int *run_err, char *why, size_t whylen)
{
    return hr_test_run_verify(sortwork(), r, r->p, fn, arg, verify_err, run_err, why, whylen);
}

/* A sorted output made through shared memory passes verify but not hr_workload_verify; the
 * project's sorts pass both, on an uneven layout. */
START_TEST(test_sortwork_verify_bytes_moved)
{
    hr_sort *r = make_ok("C", 4003, 8, 1);
    /* The test's own count of the keys that change processor. */
    sort_into(r, NULL);
    uint64_t moved = 0;
    for (int i = 0; i < r->p; i++)
        for (size_t k = 0; k < r->out_count[i]; k++) {
            uint32_t id = r->out[i][k].id;
            uint64_t at = 0;
            int from = 0;
            while (id >= at + r->in_count[from])
                at += r->in_count[from++];
            moved += from != i;
        }
    free_sorted(r);
    ck_assert_uint_gt(moved, 3000);
    int verr, rerr;
    char why[256] = "", expected[256];
    uint64_t bytes = run_sort(r, cheat_sort, r, &verr, &rerr, why, sizeof why);
    ck_assert_uint_eq(bytes, 0);
    ck_assert_int_eq(verr, HR_OK);
    ck_assert_int_eq(rerr, HR_EVERIFY);
    snprintf(expected, sizeof expected, "the run moved 0 payload bytes, but %" PRIu64
             " elements changed processor (at least %" PRIu64 " bytes)", moved, 4 * moved);
    ck_assert_str_eq(why, expected);

    static const char *const algs[] = { "sort.counting", "sort.radix" };
    for (int a = 0; a < 2; a++) {
        sort_job j = { .alg = hr_algorithm_find(algs[a]), .inst = r };
        ck_assert_ptr_nonnull(j.alg);
        for (int k = 0; j.alg->params != NULL && j.alg->params[k].name != NULL; k++)
            j.params[k] = j.alg->params[k].def;
        bytes = run_sort(r, run_sort_alg, &j, &verr, &rerr, why, sizeof why);
        ck_assert_int_eq(verr, HR_OK);
        ck_assert_msg(rerr == HR_OK, "%s: %s", algs[a], why);
        ck_assert_uint_ge(bytes, 4 * moved);
    }
    sortwork()->destroy(r);
}
END_TEST

/* ---- memory estimate --------------------------------------------------------------------- */

/* mem_bytes against what make takes, measured by the allocator, plus outputs allocated as an
 * algorithm's are (util/alloc.h, one block a processor) and the verifier's bitmap of n bits:
 * within 10%, for many keys and for many processors. The sanitizers' allocators do not report
 * through mallinfo2. */
START_TEST(test_sortwork_mem_bytes)
{
    if (!HR_TEST_PLAIN_ALLOC)
        HR_TEST_SKIP("the sanitizer's allocator does not report through mallinfo2");
    static const struct { uint64_t n; int p; } cases[] = {
        { 1 << 18, 16 }, { 100003, 7 }, { 5000, 4096 } };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hr_workload_spec s = { .kind = "sort", .n = cases[c].n, .dataset = "R", .seed = 1 };
        char why[256] = "";
        void *inst = NULL;
        uint64_t before = hr_test_heap_in_use();
        ck_assert_msg(sortwork()->make(&s, cases[c].p, &inst, why, sizeof why) == HR_OK, "%s",
                      why);
        uint64_t made = hr_test_heap_in_use() - before;
        hr_sort *r = inst;
        hr_alloc *heaps = calloc((size_t)r->p, sizeof *heaps);
        ck_assert_ptr_nonnull(heaps);
        before = hr_test_heap_in_use();
        for (int i = 0; i < r->p; i++)
            ck_assert_ptr_nonnull(hr__alloc(&heaps[i], r->in_count[i] * sizeof(hr_key) + 1));
        uint64_t outs = hr_test_heap_in_use() - before;
        uint64_t measured = made + outs + (cases[c].n + 63) / 64 * 8;
        uint64_t est = sortwork()->mem_bytes(&s, cases[c].p);
        ck_assert_msg(est >= measured - measured / 10 && est <= measured + measured / 10,
                      "n = %" PRIu64 ", p = %d: mem_bytes %" PRIu64 ", measured %" PRIu64
                      " (make %" PRIu64 ", outputs %" PRIu64 ")", cases[c].n, cases[c].p, est,
                      measured, made, outs);
        for (int i = 0; i < r->p; i++)
            hr__alloc_free_all(&heaps[i]);
        free(heaps);
        sortwork()->destroy(inst);
    }
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
    tcase_add_test(verify, test_sortwork_verify_layout);
    tcase_add_test(verify, test_sortwork_min_bytes);
    suite_add_tcase(s, verify);
    TCase *bytes = tcase_create("bytes");
    tcase_add_test(bytes, test_sortwork_verify_bytes_moved);
    tcase_set_timeout(bytes, 60);
    suite_add_tcase(s, bytes);
    TCase *mem = tcase_create("memory");
    tcase_add_test(mem, test_sortwork_mem_bytes);
    tcase_set_timeout(mem, 60);
    suite_add_tcase(s, mem);
    return s;
}
