/* check_workload.c: the workload table and the "hrelation" workload: eq. (7) against values
 * computed independently, the cyclic layout, the uniform generator, rejected parameters, and the
 * verifier against a sequential routing of the same instance. */
#include "hr_test.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/workload.h>
#include "work/hrel.h"

#define P16   16
#define N16   (UINT64_C(1) << 16)

/* Eq. (7) of seed 000 for p = 16, n = 2^16, evaluated with exact rationals by this python3
 * script (not by the code under test), its output pasted below:
 *
 *   from fractions import Fraction as F; import math
 *   p = 16; n = 2**16
 *   for k in (2, 4, 8):
 *       h = k*n//p; m = F(2*n, h)
 *       f = lambda i: math.floor(h*(1 - F(h, 2*n-h)*i))
 *       v = [f(i) if i < m and i != p-1 else 0 for i in range(p)]
 *       v[p-1] = n - sum(f(j) for j in range(int(m)))
 *       print(k, v, sum(v), max(v))
 *
 * It printed sum 65536 and max h for each k. h = n/p is the paper's transpose sequence, v_i = n/p;
 * eq. (7) applied literally there would give [4096, 3963, ..., 2246, 15], which sums to 47574. */
static const uint64_t eq7_h1[P16] = {
    4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096,
    4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096 };
static const uint64_t eq7_h2[P16] = {
    8192, 7645, 7099, 6553, 6007, 5461, 4915, 4369,
    3822, 3276, 2730, 2184, 1638, 1092, 546, 7 };
static const uint64_t eq7_h4[P16] = {
    16384, 14043, 11702, 9362, 7021, 4681, 2340, 0,
    0, 0, 0, 0, 0, 0, 0, 3 };
static const uint64_t eq7_h8[P16] = {
    32768, 21845, 10922, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 1 };

static const hr_workload *hrelation(void)
{
    const hr_workload *w = hr_workload_find("hrelation");
    ck_assert_ptr_nonnull(w);
    return w;
}

static hr_hrel *make_ok(const char *dist, uint64_t n, int p, uint64_t h, uint64_t seed)
{
    hr_workload_spec s = { .kind = "hrelation", .n = n, .h = h, .distribution = dist,
                           .seed = seed };
    char why[256] = "";
    void *inst = NULL;
    int err = hrelation()->make(&s, p, &inst, why, sizeof why);
    ck_assert_msg(err == HR_OK, "make %s n=%" PRIu64 " p=%d h=%" PRIu64 ": %s", dist, n, p, h,
                  why);
    ck_assert_ptr_nonnull(inst);
    return inst;
}

/* The test's own routing: a counting pass, then copies, one destination buffer each. The buffers
 * are plain malloc here; free_routed releases them (the workload never frees outputs). */
static void route(hr_hrel *r)
{
    for (int d = 0; d < r->p; d++)
        r->out_count[d] = 0;
    for (int i = 0; i < r->p; i++)
        for (size_t k = 0; k < r->in_count[i]; k++)
            r->out_count[r->in[i][k].dest]++;
    for (int d = 0; d < r->p; d++) {
        r->out[d] = r->out_count[d] > 0 ? malloc(r->out_count[d] * sizeof(hr_elem)) : NULL;
        ck_assert(r->out_count[d] == 0 || r->out[d] != NULL);
        r->out_count[d] = 0;
    }
    for (int i = 0; i < r->p; i++)
        for (size_t k = 0; k < r->in_count[i]; k++) {
            hr_elem e = r->in[i][k];
            r->out[e.dest][r->out_count[e.dest]++] = e;
        }
}

static void free_routed(hr_hrel *r)
{
    for (int d = 0; d < r->p; d++)
        free(r->out[d]);
    hrelation()->reset(r);
}

/* ---- core ----------------------------------------------------------------------------------- */

START_TEST(test_workload_table)
{
    const hr_workload *prev = NULL;
    int rows = 0;
    for (const hr_workload *w; (w = hr_workload_at(rows)) != NULL; rows++) {
        ck_assert_ptr_nonnull(w->name);
        ck_assert(w->summary != NULL && w->summary[0] != '\0');
        /* Every kind names what its instances vary by: distributions or datasets. */
        const char *names = w->distributions != NULL ? w->distributions : w->datasets;
        ck_assert(names != NULL && names[0] != '\0');
        ck_assert(w->make && w->reset && w->verify && w->h && w->destroy);
        if (prev != NULL)
            ck_assert_msg(strcmp(prev->name, w->name) < 0, "%s, %s: not sorted or not unique",
                          prev->name, w->name);
        ck_assert_ptr_eq(hr_workload_find(w->name), w);
        prev = w;
    }
    ck_assert_int_ge(rows, 1);
    ck_assert_ptr_null(hr_workload_at(-1));
    ck_assert_ptr_null(hr_workload_find("no-such-kind"));
    ck_assert_ptr_null(hr_workload_find(NULL));
    ck_assert_int_eq(hrelation()->kind, HR_KIND_HRELATION);
}
END_TEST

START_TEST(test_workload_eq7_counts)
{
    static const struct { uint64_t k; const uint64_t *v; } cases[] = {
        { 1, eq7_h1 }, { 2, eq7_h2 }, { 4, eq7_h4 }, { 8, eq7_h8 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint64_t h = cases[c].k * N16 / P16, v[P16], sum = 0, max = 0;
        char why[256] = "";
        ck_assert_msg(hr__hrel_skew_counts(N16, P16, h, v, why, sizeof why) == HR_OK, "%s", why);
        for (int i = 0; i < P16; i++) {
            ck_assert_msg(v[i] == cases[c].v[i], "h = %" PRIu64 "n/p: v_%d = %" PRIu64
                          ", expected %" PRIu64, cases[c].k, i, v[i], cases[c].v[i]);
            sum += v[i];
            max = v[i] > max ? v[i] : max;
        }
        ck_assert_uint_eq(sum, N16);
        ck_assert_uint_eq(max, h);
    }
}
END_TEST

/* The global sequence is v_0 elements for P0, v_1 for P1, ...; element g sits on g mod p at
 * local index g / p with data g. Expected dests come from the pasted eq. (7) values. */
START_TEST(test_workload_skewed_layout)
{
    static const struct { uint64_t k; const uint64_t *v; } cases[] = {
        { 1, eq7_h1 }, { 2, eq7_h2 }, { 4, eq7_h4 }, { 8, eq7_h8 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint64_t h = cases[c].k * N16 / P16;
        hr_hrel *r = make_ok("skewed", N16, P16, h, 1);
        ck_assert_int_eq(r->p, P16);
        ck_assert_uint_eq(r->n, N16);
        ck_assert_uint_eq(r->h, h);
        ck_assert_uint_eq(hrelation()->h(r), h);
        ck_assert_uint_eq(r->h1, N16 / P16);
        for (int i = 0; i < P16; i++) {
            ck_assert_uint_eq(r->in_count[i], N16 / P16);
            ck_assert_ptr_null(r->out[i]);
            ck_assert_uint_eq(r->out_count[i], 0);
        }
        uint64_t g = 0;
        for (uint32_t d = 0; d < P16; d++)
            for (uint64_t j = 0; j < cases[c].v[d]; j++, g++) {
                hr_elem e = r->in[g % P16][g / P16];
                ck_assert_msg(e.data == g && e.dest == d, "h = %" PRIu64 "n/p, g = %" PRIu64
                              ": got {%u, %u}, expected {%" PRIu64 ", %u}", cases[c].k, g,
                              e.data, e.dest, g, d);
            }
        ck_assert_uint_eq(g, N16);
        hrelation()->destroy(r);
    }
}
END_TEST

/* transpose, p = 4, n = 64: processor i holds g = i, i+4, ..., i+60, and g goes to g / 16, so
 * every processor sends exactly n/p^2 = 4 elements to every processor. */
START_TEST(test_workload_transpose_layout)
{
    hr_hrel *r = make_ok("transpose", 64, 4, 0, 1);
    ck_assert_uint_eq(r->h, 16);
    ck_assert_uint_eq(r->h1, 16);
    for (int i = 0; i < 4; i++) {
        unsigned sent[4] = { 0, 0, 0, 0 };
        ck_assert_uint_eq(r->in_count[i], 16);
        for (uint32_t l = 0; l < 16; l++) {
            uint32_t g = (uint32_t)i + 4 * l;
            ck_assert_uint_eq(r->in[i][l].data, g);
            ck_assert_uint_eq(r->in[i][l].dest, g / 16);
            sent[r->in[i][l].dest]++;
        }
        for (int d = 0; d < 4; d++)
            ck_assert_uint_eq(sent[d], 4);
    }
    hrelation()->destroy(r);

    /* transpose with h = n/p given explicitly, and skewed with h = n/p: the same instance. */
    hr_hrel *a = make_ok("transpose", 1024, 8, 128, 1);
    hr_hrel *b = make_ok("skewed", 1024, 8, 128, 1);
    for (int i = 0; i < 8; i++)
        ck_assert_mem_eq(a->in[i], b->in[i], a->in_count[i] * sizeof(hr_elem));
    hrelation()->destroy(a);
    hrelation()->destroy(b);
}
END_TEST

/* n = 1027 on p = 16: 1027 = 16 * 64 + 3, so processors 0, 1, 2 hold 65 and the others 64. */
START_TEST(test_workload_cyclic_remainder)
{
    hr_hrel *r = make_ok("uniform", 1027, 16, 0, 7);
    ck_assert_uint_eq(r->h1, 65);
    uint64_t held = 0;
    for (int i = 0; i < 16; i++) {
        ck_assert_uint_eq(r->in_count[i], i < 3 ? 65 : 64);
        for (size_t l = 0; l < r->in_count[i]; l++)
            ck_assert_uint_eq(r->in[i][l].data, (uint64_t)i + 16 * l);
        held += r->in_count[i];
    }
    ck_assert_uint_eq(held, 1027);
    hrelation()->destroy(r);

    /* Fewer elements than processors: the last ones hold nothing. */
    r = make_ok("uniform", 5, 8, 0, 7);
    for (int i = 0; i < 8; i++)
        ck_assert_uint_eq(r->in_count[i], i < 5 ? 1 : 0);
    ck_assert_uint_eq(r->h1, 1);
    hrelation()->destroy(r);
}
END_TEST

static void dest_counts(const hr_hrel *r, uint64_t *count)
{
    for (int d = 0; d < r->p; d++)
        count[d] = 0;
    for (int i = 0; i < r->p; i++)
        for (size_t k = 0; k < r->in_count[i]; k++) {
            ck_assert_uint_lt(r->in[i][k].dest, (uint32_t)r->p);
            count[r->in[i][k].dest]++;
        }
}

START_TEST(test_workload_uniform_seeded)
{
    const uint64_t n = 100003;   /* prime: the remainder is spread too */
    hr_hrel *a = make_ok("uniform", n, P16, 0, 42);
    hr_hrel *b = make_ok("uniform", n, P16, 0, 42);
    hr_hrel *c = make_ok("uniform", n, P16, 0, 43);
    uint64_t ca[P16], cb[P16], cc[P16], sum = 0, max = 0;
    dest_counts(a, ca);
    dest_counts(b, cb);
    dest_counts(c, cc);
    for (int d = 0; d < P16; d++) {
        sum += ca[d];
        max = ca[d] > max ? ca[d] : max;
        ck_assert_uint_eq(ca[d], cb[d]);
        /* n/p = 6250, sd = sqrt(n (1/p)(1 - 1/p)) ~ 77: a fair draw is far inside +-1000. */
        ck_assert_uint_gt(ca[d], 5250);
        ck_assert_uint_lt(ca[d], 7250);
    }
    ck_assert_uint_eq(sum, n);
    ck_assert_uint_eq(a->h, max);
    int same_dests = 1, same_counts = 1;
    for (int i = 0; i < P16; i++) {
        ck_assert_mem_eq(a->in[i], b->in[i], a->in_count[i] * sizeof(hr_elem));
        if (memcmp(a->in[i], c->in[i], a->in_count[i] * sizeof(hr_elem)) != 0)
            same_dests = 0;
        if (ca[i] != cc[i])
            same_counts = 0;
    }
    ck_assert_msg(!same_dests && !same_counts, "seeds 42 and 43 made the same instance");
    hrelation()->destroy(a);
    hrelation()->destroy(b);
    hrelation()->destroy(c);
}
END_TEST

/* ---- limits --------------------------------------------------------------------------------- */

START_TEST(test_workload_rejects)
{
    static const struct {
        const char *dist;
        uint64_t    n, h;
        int         p;
        const char *why;   /* a piece of the expected reason */
    } cases[] = {
        { "zipf",      1024, 0, 4, "unknown hrelation distribution \"zipf\"" },
        { "uniform",   0, 0, 4, "n must be at least 1" },
        { "uniform",   1024, 0, 0, "procs = 0 is outside" },
        { "uniform",   1024, 0, 5000, "procs = 5000 is outside" },
        { "uniform",   (UINT64_C(1) << 32) + 1, 0, 4, "exceeds 2^32" },
        { "uniform",   1024, 256, 4, "leave h unset" },
        { "transpose", 1000, 0, 4, "multiple of p^2 = 16" },
        { "transpose", 1024, 512, 4, "transpose has h = n/p = 256, not 512" },
        { "skewed",    1024, 0, 4, "skewed needs h" },
        { "skewed",    1024, 2048, 4, "exceeds n" },
        { "skewed",    N16, 3 * N16 / P16, P16, "does not divide 2n" },
        { "skewed",    N16, N16 / 32, P16, "2n/h = 64 > p = 16" },
        { "skewed",    N16, 3 * N16 / 32, P16, "does not divide 2n" },
        { "skewed",    16, 2, 16, "remainder 7 > h = 2" },
        { "skewed",    N16 + 16, (N16 + 16) / P16, P16, "multiple of p^2 = 256" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hr_workload_spec s = { .kind = "hrelation", .n = cases[c].n, .h = cases[c].h,
                               .distribution = cases[c].dist, .seed = 1 };
        char why[256] = "";
        void *inst = (void *)&s;   /* must stay untouched */
        int err = hrelation()->make(&s, cases[c].p, &inst, why, sizeof why);
        ck_assert_msg(err == HR_EINVAL, "case %zu accepted (%d)", c, err);
        ck_assert_ptr_eq(inst, &s);
        ck_assert_msg(strstr(why, cases[c].why) != NULL, "case %zu: \"%s\" lacks \"%s\"", c, why,
                      cases[c].why);
    }
    /* The boundary cases that must pass: h = n (2n/h = 2) and h = 2n/p (2n/h = p). */
    hrelation()->destroy(make_ok("skewed", N16, P16, N16, 1));
    hrelation()->destroy(make_ok("skewed", N16, P16, 2 * N16 / P16, 1));
    /* h need not be a multiple of n/p: 2n/h = 6 <= 16. */
    hrelation()->destroy(make_ok("skewed", 3 * N16, P16, N16, 1));
    /* A too-small why buffer is truncated, not overrun; NULL is allowed. */
    hr_workload_spec s = { .n = 0, .distribution = "uniform" };
    char tiny[4] = "xyz";
    void *inst = NULL;
    ck_assert_int_eq(hrelation()->make(&s, 4, &inst, tiny, 2), HR_EINVAL);
    ck_assert_str_eq(tiny, "n");
    ck_assert_int_eq(hrelation()->make(&s, 4, &inst, NULL, 0), HR_EINVAL);
}
END_TEST

/* ---- verifier ------------------------------------------------------------------------------- */

static void expect_fail(const hr_hrel *r, const char *expected)
{
    char why[256] = "";
    ck_assert_int_eq(hrelation()->verify(r, why, sizeof why), HR_EVERIFY);
    ck_assert_str_eq(why, expected);
}

static void expect_ok(const hr_hrel *r)
{
    char why[256] = "";
    ck_assert_msg(hrelation()->verify(r, why, sizeof why) == HR_OK, "%s", why);
}

START_TEST(test_workload_verify_correct)
{
    /* Skewed h = 8n/p leaves 12 processors with nothing to receive (out NULL, count 0). */
    static const char *dists[] = { "uniform", "transpose", "skewed" };
    for (size_t c = 0; c < 3; c++) {
        hr_hrel *r = make_ok(dists[c], N16, P16, c == 2 ? 8 * N16 / P16 : 0, 5);
        route(r);
        expect_ok(r);
        /* Any order within a processor is fine: reverse each output. */
        for (int d = 0; d < P16; d++)
            for (size_t a = 0, b = r->out_count[d]; b > a + 1; a++, b--) {
                hr_elem t = r->out[d][a];
                r->out[d][a] = r->out[d][b - 1];
                r->out[d][b - 1] = t;
            }
        expect_ok(r);
        free_routed(r);
        hrelation()->destroy(r);
    }
}
END_TEST

START_TEST(test_workload_verify_corrupt)
{
    char expected[256];
    hr_hrel *r = make_ok("transpose", 1024, 4, 0, 1);
    /* transpose, p = 4, n = 1024: element g goes to g / 256; route() fills each output in order of
     * (source, local index), so out[d][k] is element 256 d + 4 (k mod 64) + k / 64. */
    route(r);
    expect_ok(r);
    ck_assert_uint_eq(r->out[1][0].data, 256);
    ck_assert_uint_eq(r->out[1][64].data, 257);

    /* A missing element: drop the last one of processor 2. */
    uint32_t last = r->out[2][255].data;
    r->out_count[2]--;
    snprintf(expected, sizeof expected, "element %u (dest 2) never arrived", last);
    expect_fail(r, expected);
    r->out_count[2]++;
    expect_ok(r);

    /* A duplicate: element 257 also in the place of element 256. */
    hr_elem keep = r->out[1][0];
    r->out[1][0] = r->out[1][64];
    expect_fail(r, "processor 1 received element 257 twice");
    r->out[1][0] = keep;

    /* A misrouted element: swap one element between processors 0 and 3. */
    hr_elem e0 = r->out[0][5], e3 = r->out[3][7];
    r->out[0][5] = e3;
    r->out[3][7] = e0;
    snprintf(expected, sizeof expected, "processor 0 holds element %u whose dest is 3", e3.data);
    expect_fail(r, expected);
    r->out[0][5] = e0;
    r->out[3][7] = e3;

    /* The same swap with the dest fields relabelled to the holder: every count and field agrees,
     * only the id sets differ. */
    r->out[0][5] = (hr_elem){ .data = e3.data, .dest = 0 };
    r->out[3][7] = (hr_elem){ .data = e0.data, .dest = 3 };
    expect_fail(r, expected);
    /* Misrouted with a dest field that is neither the holder nor the truth. */
    r->out[0][5] = (hr_elem){ .data = e3.data, .dest = 2 };
    snprintf(expected, sizeof expected,
             "processor 0 holds element %u whose dest is 3 (its dest field says 2)", e3.data);
    expect_fail(r, expected);
    r->out[0][5] = e0;
    r->out[3][7] = e3;
    expect_ok(r);

    /* A duplicate across processors: processor 3 gets a copy of one of processor 1's. */
    keep = r->out[3][8];
    r->out[3][8] = (hr_elem){ .data = r->out[1][3].data, .dest = 3 };
    snprintf(expected, sizeof expected, "element %u arrived at processor 1 and again at "
             "processor 3", r->out[1][3].data);
    expect_fail(r, expected);
    r->out[3][8] = keep;

    /* Delivered to the right processor, but the dest field was rewritten on the way. */
    r->out[3][9].dest = 1;
    snprintf(expected, sizeof expected,
             "processor 3 holds element %u with its dest field changed to 1", r->out[3][9].data);
    expect_fail(r, expected);
    r->out[3][9].dest = 3;

    /* An id that no element has. */
    r->out[2][0].data = 5000;
    expect_fail(r, "processor 2 holds element 5000, but ids end at 1023");
    r->out[2][0].data = 512;

    /* A count without a buffer, and a count larger than n. */
    hr_elem *buf = r->out[2];
    r->out[2] = NULL;
    expect_fail(r, "processor 2 reports 256 elements but no output buffer");
    r->out[2] = buf;
    r->out_count[3] = 2000;
    expect_fail(r, "processor 3 reports 2000 elements, but n = 1024 and the processors before "
                   "it hold 768");
    r->out_count[3] = 256;
    expect_ok(r);

    /* Results of the same verification must not depend on an earlier one (fresh bitmap). */
    expect_ok(r);
    free_routed(r);

    /* reset forgets the outputs: nothing has arrived. */
    expect_fail(r, "element 0 (dest 0) never arrived");
    hrelation()->destroy(r);
}
END_TEST

/* uniform: the verifier regenerates the random dests to name a culprit. A missing element far
 * from the start, then a misrouted one found through its dest field and through the id sets. */
START_TEST(test_workload_verify_uniform)
{
    hr_hrel *r = make_ok("uniform", 10007, 8, 0, 3);
    route(r);
    expect_ok(r);
    int a = r->in[2][9].dest, b = (a + 1) % 8;
    ck_assert_uint_gt(r->out_count[b], 0);
    hr_elem moved = r->out[a][r->out_count[a] - 1], victim = r->out[b][0];
    r->out[b][0] = moved;                 /* b loses victim, gets moved (dest a) */
    r->out_count[a]--;
    char expected[128];
    snprintf(expected, sizeof expected, "processor %d holds element %u whose dest is %d",
             b, moved.data, a);
    expect_fail(r, expected);
    r->out[b][0].dest = (uint32_t)b;      /* relabelled: found through the id sets */
    expect_fail(r, expected);
    r->out[b][0] = victim;
    r->out_count[a]++;
    expect_ok(r);

    int d = r->in[6][1000].dest;
    uint32_t g = r->in[6][1000].data;   /* 6 + 8 * 1000 = 8006 */
    ck_assert_uint_eq(g, 8006);
    for (size_t k = 0; k < r->out_count[d]; k++)
        if (r->out[d][k].data == g) {
            r->out[d][k] = r->out[d][--r->out_count[d]];
            break;
        }
    snprintf(expected, sizeof expected, "element 8006 (dest %d) never arrived", d);
    expect_fail(r, expected);
    free_routed(r);
    hrelation()->destroy(r);
}
END_TEST

Suite *hr_workload_suite(void)
{
    Suite *s = suite_create("workload");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_workload_table);
    tcase_add_test(core, test_workload_eq7_counts);
    tcase_add_test(core, test_workload_skewed_layout);
    tcase_add_test(core, test_workload_transpose_layout);
    tcase_add_test(core, test_workload_cyclic_remainder);
    tcase_add_test(core, test_workload_uniform_seeded);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_workload_rejects);
    suite_add_tcase(s, limits);
    TCase *verify = tcase_create("verify");
    tcase_add_test(verify, test_workload_verify_correct);
    tcase_add_test(verify, test_workload_verify_corrupt);
    tcase_add_test(verify, test_workload_verify_uniform);
    suite_add_tcase(s, verify);
    return s;
}
