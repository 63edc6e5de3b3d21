/* check_workload.c: the workload table and the "hrelation" workload: eq. (7) against values
 * computed independently, the cyclic layout, the uniform generator, the permutation generator
 * against its definition, alltoall, random and difficult against their defining properties,
 * file:PATH input and its errors (files that are not regular, long lines, memory), rejected
 * parameters, the verifier against a sequential routing of the same instance, the check of the
 * bytes a run moved (hr_workload_verify) against a run that cheats through shared memory and
 * against every algorithm, and mem_bytes against the allocator's own figures. */
#include "hr_test.h"

#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hremu/algorithm.h>
#include <hremu/workload.h>
#include "alg/hrel.h"
#include "cli/config.h"
#include "cli/memory.h"
#include "cli/report.h"
#include "cli/sweep.h"
#include "util/alloc.h"
#include "util/rng.h"
#include "work/common.h"
#include "work/hrel.h"
#include "work/textfile.h"


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

/* A message's bytes as work/common.h defines them, written again: splitmix64's finalizer, and
 * bytes 8w .. 8w+7 the mixed word of (seed, tag, w), low byte first; nothing past the end is
 * written. Every length from none to three words and a bit, so whole words and tails both. */
static uint64_t splitmix_finalizer(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

START_TEST(test_workload_fill_bytes)
{
    uint64_t base = splitmix_finalizer(5 ^ 9);
    for (size_t n = 0; n <= 27; n++) {
        uint8_t got[32];
        memset(got, 0xA5, sizeof got);
        hr__work_fill(5, 9, n, got);
        for (size_t i = 0; i < n; i++) {
            uint64_t w = splitmix_finalizer(base + 8 * (i / 8));
            ck_assert_msg(got[i] == (uint8_t)(w >> (8 * (i % 8))), "%zu bytes: byte %zu", n, i);
        }
        for (size_t i = n; i < sizeof got; i++)
            ck_assert_int_eq(got[i], 0xA5);
    }
}
END_TEST

START_TEST(test_workload_table)
{
    const hr_workload *prev = NULL;
    int rows = 0;
    for (const hr_workload *w; (w = hr_workload_at(rows)) != NULL; rows++) {
        ck_assert_ptr_nonnull(w->name);
        ck_assert(w->summary != NULL && w->summary[0] != '\0');
        /* Every kind names what its instances vary by: distributions, datasets or keys of its
         * own. Kinds are distinct, below a program's. */
        const char *names = w->distributions != NULL ? w->distributions : w->datasets;
        ck_assert((names != NULL && names[0] != '\0') || (w->keys && w->keys[0].name));
        ck_assert_int_lt(w->kind, HR_KIND_USER);
        for (int j = 0; j < rows; j++)
            ck_assert_int_ne(hr_workload_at(j)->kind, w->kind);
        ck_assert(w->make && w->reset && w->verify && w->min_bytes && w->h && w->mem_bytes &&
                  w->destroy);
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
    /* The error for an unknown distribution lists the table's names, and they include all. */
    const char *names = hrelation()->distributions;
    static const char *const dists[] = { "alltoall",    "difficult", "file:PATH", "permutation",
                                         "random",      "skewed",    "transpose", "uniform" };
    for (size_t d = 0; d < sizeof dists / sizeof dists[0]; d++)
        ck_assert_msg(strstr(names, dists[d]) != NULL, "%s not in \"%s\"", dists[d], names);
    hr_workload_spec s = { .kind = "hrelation", .n = 16, .distribution = "zipf", .seed = 1 };
    char why[256] = "", known[256];
    void *inst = NULL;
    ck_assert_int_eq(hrelation()->make(&s, 4, &inst, why, sizeof why), HR_EINVAL);
    snprintf(known, sizeof known, "unknown hrelation distribution \"zipf\" (known: %s)", names);
    ck_assert_str_eq(why, known);
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
        { "uniform",   1024, 0, 65537, "procs = 65537 is outside 1 .. 65536 (destinations are kept in 16 bits)" },
        { "uniform",   (UINT64_C(1) << 32) + 1, 0, 4, "exceeds 2^32" },
        { "uniform",   1024, 256, 4, "leave h unset or 0" },
        { "transpose", 1000, 0, 4, "multiple of p^2 = 16" },
        { "transpose", 1024, 512, 4, "transpose has h = n/p = 256, not 512" },
        { "skewed",    1024, 0, 4, "skewed needs h" },
        { "skewed",    1024, 2048, 4, "exceeds n" },
        { "skewed",    N16, 3 * N16 / P16, P16, "does not divide 2n" },
        { "skewed",    N16, N16 / 32, P16, "2n/h = 64 > p = 16" },
        { "skewed",    N16, 3 * N16 / 32, P16, "does not divide 2n" },
        { "skewed",    16, 2, 16, "remainder 7 > h = 2" },
        { "skewed",    N16 + 16, (N16 + 16) / P16, P16, "multiple of p^2 = 256" },
        { "permutation", 1023, 0, 4, "permutation needs n to be a multiple of p = 4" },
        { "permutation", 1024, 512, 4, "permutation has h = n/p = 256, not 512" },
        { "alltoall",  0, 0, 1, "alltoall needs at least 2 processors" },
        { "alltoall",  10, 0, 4, "alltoall has n = p(p-1) = 12 elements (write n = p*(p-1)); "
                                 "n = 10" },
        { "alltoall",  12, 4, 4, "alltoall has h = p-1 = 3, not 4: leave h unset or 0" },
        { "random",    12, 0, 4, "random needs h" },
        { "random",    13, 3, 4, "random has n = p*h = 12 elements (write n = 3*p); n = 13" },
        { "random",    3, 3, 1, "random needs at least 2 processors" },
        { "random",    4, UINT64_C(1) << 31, 4, "more than 2^32" },
        { "difficult", 21, 0, 15, "difficult needs h" },
        { "difficult", 1, 1, 4, "difficult needs h >= 2" },
        { "difficult", 21, 3, 10, "with h = 3 needs p >= 15 (h^3 - 2h^2 + 2h); p = 10" },
        { "difficult", 20, 3, 15, "with h = 3 has n = h^3 - h^2 + h = 21 elements; n = 20" },
        { "difficult", 0, 3, 15, "with h = 3 has n = h^3 - h^2 + h = 21 elements; n = 0" },
        { "difficult", 4917, 17, 4096, "with h = 17 needs p >= 4369" },
        { "difficult", 1, UINT64_C(1) << 21, 4096, "needs p >= h^3 - 2h^2 + 2h; p = 4096" },
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
    static const char *dists[] = { "uniform", "transpose", "skewed", "permutation" };
    for (size_t c = 0; c < 4; c++) {
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

/* ---- permutation ---------------------------------------------------------------------------- */

/* The definition in hrel.h, written out independently: Fisher-Yates on the 32-bit slots
 * pi(0 .. n-1) with util/rng's stream UINT64_MAX of the seed, then dest(g) = pi(g) / (n/p). */
static void permutation_reference(uint64_t n, int p, uint64_t seed, uint32_t *dest)
{
    uint32_t *pi = malloc((size_t)n * sizeof *pi);
    ck_assert_ptr_nonnull(pi);
    for (uint64_t g = 0; g < n; g++)
        pi[g] = (uint32_t)g;
    hr_rng rng;
    hr__rng_seed(&rng, seed, UINT64_MAX);
    for (uint64_t i = n - 1; i > 0; i--) {
        uint64_t j = hr__rng_below(&rng, i + 1);
        uint32_t t = pi[i];
        pi[i] = pi[j];
        pi[j] = t;
    }
    for (uint64_t g = 0; g < n; g++)
        dest[g] = pi[g] / (uint32_t)(n / (uint64_t)p);
    free(pi);
}

START_TEST(test_workload_permutation)
{
    enum { P = 8, NP = 1000, N = P * NP };
    static uint32_t want[N];
    uint32_t first[N];
    for (uint64_t seed = 1; seed <= 3; seed++) {
        hr_hrel *r = make_ok("permutation", N, P, 0, seed);
        ck_assert_uint_eq(r->h, NP);
        ck_assert_uint_eq(r->h1, NP);
        permutation_reference(N, P, seed, want);
        uint64_t recv[P] = { 0 };
        for (int i = 0; i < P; i++) {
            ck_assert_uint_eq(r->in_count[i], NP);   /* every processor sends n/p */
            for (size_t k = 0; k < NP; k++) {
                hr_elem e = r->in[i][k];
                uint64_t g = (uint64_t)i + P * (uint64_t)k;   /* the cyclic layout */
                ck_assert_uint_eq(e.data, g);
                ck_assert_msg(e.dest == want[g], "seed %" PRIu64 ", g = %" PRIu64 ": dest %u, "
                              "want %u", seed, g, e.dest, want[g]);
                recv[e.dest]++;
            }
        }
        for (int d = 0; d < P; d++)
            ck_assert_uint_eq(recv[d], NP);                /* and receives n/p */
        /* The same seed again gives the same instance; another seed a different one. */
        hr_hrel *again = make_ok("permutation", N, P, NP, seed);
        for (int i = 0; i < P; i++)
            ck_assert(memcmp(again->in[i], r->in[i], NP * sizeof(hr_elem)) == 0);
        hrelation()->destroy(again);
        if (seed == 1) {
            for (uint64_t g = 0; g < N; g++)
                first[g] = r->in[g % P][g / P].dest;
        } else {
            int differ = 0;
            for (uint64_t g = 0; g < N; g++)
                differ += first[g] != r->in[g % P][g / P].dest;
            ck_assert_int_gt(differ, N / 2);
        }
        hrelation()->destroy(r);
    }
    /* p = 1 and n = p: the degenerate shuffles. */
    hrelation()->destroy(make_ok("permutation", 5, 1, 0, 1));
    hrelation()->destroy(make_ok("permutation", 4, 4, 1, 1));
}
END_TEST

/* ---- alltoall, random, difficult ------------------------------------------------------------ */

/* Ids are g = 0 .. n-1 in sender order: processor 0's elements first, each processor's in order. */
static void expect_ids_by_source(const hr_hrel *r)
{
    uint64_t g = 0;
    for (int i = 0; i < r->p; i++)
        for (size_t k = 0; k < r->in_count[i]; k++, g++)
            ck_assert_msg(r->in[i][k].data == g, "processor %d element %zu: data %u, want %" PRIu64,
                          i, k, r->in[i][k].data, g);
    ck_assert_uint_eq(g, r->n);
}

/* The test's routing must verify, and losing one element must not. */
static void expect_routes(hr_hrel *r)
{
    route(r);
    expect_ok(r);
    int d = -1;
    for (int i = 0; i < r->p && d < 0; i++)
        if (r->out_count[i] > 0)
            d = i;
    ck_assert_int_ge(d, 0);
    r->out_count[d]--;
    char expected[128];
    snprintf(expected, sizeof expected, "element %u (dest %d) never arrived",
             r->out[d][r->out_count[d]].data, d);
    expect_fail(r, expected);
    r->out_count[d]++;
    expect_ok(r);
    free_routed(r);
}

START_TEST(test_workload_alltoall)
{
    static const int ps[] = { 2, 3, 8 };
    static const uint64_t ns[] = { 2, 6, 56 };   /* p(p-1), by hand */
    for (size_t c = 0; c < 3; c++) {
        int p = ps[c];
        uint64_t n = ns[c];
        hr_hrel *r = make_ok("alltoall", n, p, 0, 1);
        ck_assert_uint_eq(r->n, n);
        ck_assert_uint_eq(r->h, (uint64_t)p - 1);
        ck_assert_uint_eq(r->h1, (uint64_t)p - 1);
        unsigned pair[8][8] = { { 0 } };
        for (int i = 0; i < p; i++) {
            ck_assert_uint_eq(r->in_count[i], (size_t)p - 1);
            for (size_t k = 0; k < r->in_count[i]; k++) {
                uint32_t d = r->in[i][k].dest;
                ck_assert_uint_lt(d, (uint32_t)p);
                /* The k-th element goes to i+1+k (mod p). */
                ck_assert_uint_eq(d, ((size_t)i + 1 + k) % (size_t)p);
                pair[i][d]++;
            }
        }
        for (int i = 0; i < p; i++)
            for (int j = 0; j < p; j++)
                ck_assert_msg(pair[i][j] == (i != j), "p = %d: %u elements from %d to %d", p,
                              pair[i][j], i, j);
        expect_ids_by_source(r);
        /* h = p-1 given explicitly: the same instance. */
        hr_hrel *b = make_ok("alltoall", n, p, (uint64_t)p - 1, 9);
        for (int i = 0; i < p; i++)
            ck_assert_mem_eq(r->in[i], b->in[i], r->in_count[i] * sizeof(hr_elem));
        hrelation()->destroy(b);
        expect_routes(r);
        hrelation()->destroy(r);
    }
}
END_TEST

/* The definition in hrel.c, written out independently: for k = 0 .. h-1 a Fisher-Yates shuffle of
 * the identity on stream UINT64_MAX of the seed, then each fixed point i swapped with a uniform
 * j != i, in order; processor i's k-th element goes to pi_k(i). */
static void random_reference(int p, uint64_t h, uint64_t seed, uint32_t *dest)
{
    uint32_t pi[64];
    ck_assert_int_le(p, 64);
    hr_rng rng;
    hr__rng_seed(&rng, seed, UINT64_MAX);
    for (uint64_t k = 0; k < h; k++) {
        for (int i = 0; i < p; i++)
            pi[i] = (uint32_t)i;
        for (int i = p - 1; i > 0; i--) {
            uint64_t j = hr__rng_below(&rng, (uint64_t)i + 1);
            uint32_t t = pi[i];
            pi[i] = pi[j];
            pi[j] = t;
        }
        for (int i = 0; i < p; i++)
            if (pi[i] == (uint32_t)i) {
                uint64_t j = hr__rng_below(&rng, (uint64_t)p - 1);
                j += j >= (uint64_t)i;
                pi[i] = pi[j];
                pi[j] = (uint32_t)i;
            }
        for (int i = 0; i < p; i++)
            dest[(uint64_t)i * h + k] = pi[i];
    }
}

static int same_instance(const hr_hrel *a, const hr_hrel *b)
{
    for (int i = 0; i < a->p; i++)
        if (a->in_count[i] != b->in_count[i] ||
            memcmp(a->in[i], b->in[i], a->in_count[i] * sizeof(hr_elem)) != 0)
            return 0;
    return 1;
}

START_TEST(test_workload_random)
{
    static const int ps[] = { 2, 3, 16, 64 };
    static const uint64_t hs[] = { 1, 3, 16 };
    static uint32_t want[64 * 16];
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 3; b++) {
            int p = ps[a];
            uint64_t h = hs[b], n = (uint64_t)p * h;
            hr_hrel *r = make_ok("random", n, p, h, 42);
            ck_assert_uint_eq(r->n, n);
            ck_assert_uint_eq(r->h, h);
            ck_assert_uint_eq(r->h1, h);
            uint64_t recv[64] = { 0 };
            random_reference(p, h, 42, want);
            for (int i = 0; i < p; i++) {
                ck_assert_uint_eq(r->in_count[i], h);   /* exactly h out */
                for (size_t k = 0; k < h; k++) {
                    uint32_t d = r->in[i][k].dest;
                    ck_assert_uint_lt(d, (uint32_t)p);
                    ck_assert_msg(d != (uint32_t)i, "p = %d, h = %" PRIu64 ": %d sends to itself",
                                  p, h, i);
                    ck_assert_uint_eq(d, want[(uint64_t)i * h + k]);
                    recv[d]++;
                }
            }
            for (int d = 0; d < p; d++)   /* exactly h in */
                ck_assert_msg(recv[d] == h, "p = %d, h = %" PRIu64 ": %d receives %" PRIu64, p,
                              h, d, recv[d]);
            /* Each k-th column is a permutation: processor d receives one k-th element. */
            for (size_t k = 0; k < h; k++) {
                uint64_t seen = 0;
                for (int i = 0; i < p; i++)
                    seen |= UINT64_C(1) << r->in[i][k].dest;
                ck_assert_uint_eq(seen, p == 64 ? UINT64_MAX : (UINT64_C(1) << p) - 1);
            }
            expect_ids_by_source(r);
            /* The same seed, the same instance; p = 2 has one derangement, so every seed gives
             * it; otherwise some other seed gives another (p = 3, h = 1 has only two). */
            hr_hrel *again = make_ok("random", n, p, h, 42);
            ck_assert(same_instance(r, again));
            hrelation()->destroy(again);
            int differ = 0;
            for (uint64_t seed = 43; seed < 51; seed++) {
                hr_hrel *other = make_ok("random", n, p, h, seed);
                differ += !same_instance(r, other);
                hrelation()->destroy(other);
            }
            if (p == 2)
                ck_assert_int_eq(differ, 0);
            else if (n >= 16)
                ck_assert_int_eq(differ, 8);   /* thousands of instances or more: no repeat */
            else
                ck_assert_int_gt(differ, 0);
            if (a == 2 && b == 1)
                expect_routes(r);
            hrelation()->destroy(r);
        }
}
END_TEST

/* The properties of seed 003 section 3's difficult h-relation, checked on the instance alone. */
static void check_difficult(const hr_hrel *r, uint64_t h)
{
    int p = r->p;
    uint64_t B = h * (h - 1);
    ck_assert_uint_eq(r->h, h);
    ck_assert_uint_eq(r->h1, h);
    /* Processor 0 sends h elements to h distinct processors, J, not itself. */
    ck_assert_uint_eq(r->in_count[0], h);
    char *is_j = calloc((size_t)p, 1);
    uint64_t *recv = calloc((size_t)p, sizeof *recv);
    uint64_t *from_blockers = calloc((size_t)p, sizeof *from_blockers);
    int *nc_dest = calloc((size_t)p, sizeof *nc_dest);
    ck_assert(is_j && recv && from_blockers && nc_dest);
    for (size_t k = 0; k < h; k++) {
        uint32_t d = r->in[0][k].dest;
        ck_assert(d != 0 && d < (uint32_t)p && !is_j[d]);
        is_j[d] = 1;
    }
    /* Every other sender is a blocker: h elements, exactly one into J. */
    uint64_t blockers = 0, nonconf = 0;
    for (int i = 1; i < p; i++) {
        if (r->in_count[i] == 0)
            continue;
        ck_assert_msg(!is_j[i], "j = %d sends", i);
        ck_assert_uint_eq(r->in_count[i], h);
        blockers++;
        int into_j = 0;
        for (size_t k = 0; k < h; k++) {
            uint32_t d = r->in[i][k].dest;
            ck_assert(d < (uint32_t)p && d != (uint32_t)i);
            if (is_j[d]) {
                into_j++;
                from_blockers[d]++;
            } else {
                /* Non-conflicting: every destination distinct. */
                ck_assert_msg(nc_dest[d] == 0, "two non-conflicting elements go to %u", d);
                nc_dest[d] = 1;
                nonconf++;
            }
        }
        ck_assert_int_eq(into_j, 1);
    }
    ck_assert_uint_eq(blockers, B);
    ck_assert_uint_eq(nonconf, B * (h - 1));
    for (int i = 0; i < p; i++)
        for (size_t k = 0; k < r->in_count[i]; k++)
            recv[r->in[i][k].dest]++;
    for (int d = 0; d < p; d++) {
        ck_assert_uint_le(recv[d], h);
        if (is_j[d]) {   /* h in all: one from processor 0, h-1 from distinct blockers */
            ck_assert_uint_eq(recv[d], h);
            ck_assert_uint_eq(from_blockers[d], h - 1);
        }
    }
    free(is_j);
    free(recv);
    free(from_blockers);
    free(nc_dest);
}

START_TEST(test_workload_difficult)
{
    static const struct {
        uint64_t h, n;   /* n = h + h(h-1)h, by hand */
        int      p;
    } cases[] = {
        { 2, 6, 5 },      /* the least p for h = 2: 0, j = 1 2, blockers 3 4 */
        { 2, 6, 64 },
        { 3, 21, 15 },    /* the least p for h = 3: 27 - 18 + 6 */
        { 3, 21, 16 },
        { 3, 21, 100 },
        { 4, 52, 40 },    /* 64 - 32 + 8 */
        { 4, 52, 41 },
        { 5, 105, 85 },   /* 125 - 50 + 10 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hr_hrel *r = make_ok("difficult", cases[c].n, cases[c].p, cases[c].h, 1);
        ck_assert_uint_eq(r->n, cases[c].n);
        check_difficult(r, cases[c].h);
        expect_ids_by_source(r);
        expect_routes(r);
        hrelation()->destroy(r);
    }
    /* One below the least p is refused, naming the least p. */
    static const struct {
        uint64_t h, n;
        int      p;
        const char *why;
    } tight[] = {
        { 2, 6, 4, "distribution difficult with h = 2 needs p >= 5 (h^2 + 1); p = 4" },
        { 3, 21, 14, "distribution difficult with h = 3 needs p >= 15 (h^3 - 2h^2 + 2h); p = 14" },
        { 4, 52, 39, "distribution difficult with h = 4 needs p >= 40 (h^3 - 2h^2 + 2h); p = 39" },
    };
    for (size_t c = 0; c < sizeof tight / sizeof tight[0]; c++) {
        hr_workload_spec s = { .kind = "hrelation", .n = tight[c].n, .h = tight[c].h,
                               .distribution = "difficult", .seed = 1 };
        char why[256] = "";
        void *inst = NULL;
        ck_assert_int_eq(hrelation()->make(&s, tight[c].p, &inst, why, sizeof why), HR_EINVAL);
        ck_assert_ptr_null(inst);
        ck_assert_str_eq(why, tight[c].why);
    }
}
END_TEST

/* ---- file:PATH ------------------------------------------------------------------------------ */

#define DATA "tests/data/"

START_TEST(test_workload_file_good)
{
    /* hrel_good.txt, element lines in order (SOURCE DEST VALUE): 0 1 100, 0 3 7, 1 3 4294967295,
     * 3 0 0, 1 1 55, 3 3 12, 0 3 9, 1 2 31; with comments, blank lines, tabs. */
    hr_hrel *r = make_ok("file:" DATA "hrel_good.txt", 8, 4, 0, 1);
    static const hr_elem in0[] = { { 100, 1 }, { 7, 3 }, { 9, 3 } };
    static const hr_elem in1[] = { { 4294967295u, 3 }, { 55, 1 }, { 31, 2 } };
    static const hr_elem in3[] = { { 0, 0 }, { 12, 3 } };
    ck_assert_uint_eq(r->n, 8);
    ck_assert_uint_eq(r->h, 4);
    ck_assert_uint_eq(r->h1, 3);
    ck_assert_uint_eq(r->in_count[0], 3);
    ck_assert_uint_eq(r->in_count[1], 3);
    ck_assert_uint_eq(r->in_count[2], 0);
    ck_assert_uint_eq(r->in_count[3], 2);
    ck_assert(memcmp(r->in[0], in0, sizeof in0) == 0);
    ck_assert(memcmp(r->in[1], in1, sizeof in1) == 0);
    ck_assert(memcmp(r->in[3], in3, sizeof in3) == 0);
    hrelation()->destroy(r);
    /* h may be given when it is the file's own; the seed changes nothing. */
    r = make_ok("file:" DATA "hrel_good.txt", 8, 4, 4, 99);
    ck_assert(memcmp(r->in[1], in1, sizeof in1) == 0);
    hrelation()->destroy(r);
    /* More processors than the file uses is fine. */
    hrelation()->destroy(make_ok("file:" DATA "hrel_good.txt", 8, 64, 0, 1));
}
END_TEST

START_TEST(test_workload_file_rejects)
{
    static const struct {
        const char *file;
        uint64_t    n, h;
        int         p;
        const char *why;   /* the whole reason */
    } cases[] = {
        { "hrel_bad_number.txt", 2, 0, 4,
          DATA "hrel_bad_number.txt:2: DEST \"x2\" is not a decimal number" },
        { "hrel_bad_source.txt", 2, 0, 4,
          DATA "hrel_bad_source.txt:4: SOURCE 4 is not a processor (0 .. 3)" },
        { "hrel_bad_fields.txt", 2, 0, 4,
          DATA "hrel_bad_fields.txt:2: expected SOURCE DEST VALUE, found 2 fields" },
        { "hrel_bad_value.txt", 3, 0, 4,
          DATA "hrel_bad_value.txt:3: VALUE 4294967296 does not fit in 32 bits "
               "(at most 4294967295)" },
        { "hrel_bad_repeat.txt", 3, 0, 4,
          DATA "hrel_bad_repeat.txt:3: VALUE 5 repeats line 1 (values identify the elements: "
               "each must be unique)" },
        { "hrel_two.txt", 3, 0, 4,
          DATA "hrel_two.txt: has 2 element lines, but n = 3: n must equal the number of "
               "element lines" },
        { "hrel_two.txt", 2, 0, 2,
          DATA "hrel_two.txt:2: DEST 2 is not a processor (0 .. 1)" },
        { "hrel_good.txt", 8, 3, 4,
          DATA "hrel_good.txt: the relation has h = 4 (the most elements one processor "
               "receives), not 3: leave h unset or 0" },
        { "no_such_file.txt", 1, 0, 4,
          DATA "no_such_file.txt: cannot open: No such file or directory" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char dist[128];
        snprintf(dist, sizeof dist, "file:" DATA "%s", cases[c].file);
        hr_workload_spec s = { .kind = "hrelation", .n = cases[c].n, .h = cases[c].h,
                               .distribution = dist, .seed = 1 };
        char why[256] = "";
        void *inst = (void *)&s;   /* must stay untouched */
        int err = hrelation()->make(&s, cases[c].p, &inst, why, sizeof why);
        ck_assert_msg(err == HR_EINVAL, "case %zu accepted (%d)", c, err);
        ck_assert_ptr_eq(inst, &s);
        ck_assert_str_eq(why, cases[c].why);
    }
    /* An empty path. */
    hr_workload_spec s = { .kind = "hrelation", .n = 1, .distribution = "file:" };
    char why[256] = "";
    void *inst = NULL;
    ck_assert_int_eq(hrelation()->make(&s, 4, &inst, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "distribution file:PATH needs a path after \"file:\"");
    ck_assert_ptr_null(inst);
}
END_TEST

/* Write body (len bytes) to a scratch file, make an instance of n elements for p = 4 from it,
 * and expect rejection with "PATH:" followed by tail. */
static void expect_file_error(const char *body, size_t len, uint64_t n, const char *tail)
{
    char path[64], dist[80], expected[256], why[256] = "";
    snprintf(path, sizeof path, "/tmp/hremu_check_workload_%ld.txt", (long)getpid());
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(body, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
    snprintf(dist, sizeof dist, "file:%s", path);
    snprintf(expected, sizeof expected, "%s:%s", path, tail);
    hr_workload_spec s = { .kind = "hrelation", .n = n, .distribution = dist };
    void *inst = NULL;
    int err = hrelation()->make(&s, 4, &inst, why, sizeof why);
    remove(path);
    ck_assert_int_eq(err, HR_EINVAL);
    ck_assert_ptr_null(inst);
    ck_assert_str_eq(why, expected);
}

/* Numbers past 2^64, too many fields, and unprintable bytes: the reason stays one line. */
START_TEST(test_workload_file_odd_bytes)
{
    static const char big_source[] = "0 1 5\n18446744073709551616 2 6\n";
    expect_file_error(big_source, sizeof big_source - 1, 2,
                      "2: SOURCE 18446744073709551616 is not a processor (0 .. 3)");
    static const char big_value[] = "0 1 5\n1 2 99999999999999999999999\n";
    expect_file_error(big_value, sizeof big_value - 1, 2,
                      "2: VALUE 99999999999999999999999 does not fit in 32 bits "
                      "(at most 4294967295)");
    static const char four[] = "\n\n0 1 5 6 # four fields\n";
    expect_file_error(four, sizeof four - 1, 1, "3: expected SOURCE DEST VALUE, found 4 fields");
    static const char odd[] = "0 1 5\r\n0 \x01\x02\0z 3\n";
    expect_file_error(odd, sizeof odd - 1, 2, "2: DEST \"???z\" is not a decimal number");
    static const char sign[] = "0 1 +5\n";
    expect_file_error(sign, sizeof sign - 1, 1, "1: VALUE \"+5\" is not a decimal number");
    static const char longtok[] = "0 1 5\n0 1 abcdefghijklmnopqrstuvwxyz0123456789\n";
    expect_file_error(longtok, sizeof longtok - 1, 2,
                      "2: VALUE \"abcdefghijklmnopqrstuvwx...\" is not a decimal number");
    static const char empty[] = "# nothing\n\n";
    expect_file_error(empty, sizeof empty - 1, 1,
                      " has 0 element lines, but n = 1: n must equal the number of element lines");
}
END_TEST

/* permutation: the verifier reads the stored dests to name a culprit. */
START_TEST(test_workload_verify_permutation)
{
    hr_hrel *r = make_ok("permutation", 4096, 8, 0, 7);
    route(r);
    expect_ok(r);
    char expected[128];
    /* A lost element: drop element 4000's copy. */
    int d = r->in[4000 % 8][4000 / 8].dest;
    size_t at = r->out_count[d];
    for (size_t k = 0; k < r->out_count[d]; k++)
        if (r->out[d][k].data == 4000)
            at = k;
    ck_assert_uint_lt(at, r->out_count[d]);
    hr_elem lost = r->out[d][at];
    r->out[d][at] = r->out[d][--r->out_count[d]];
    snprintf(expected, sizeof expected, "element 4000 (dest %d) never arrived", d);
    expect_fail(r, expected);
    r->out[d][r->out_count[d]++] = lost;
    expect_ok(r);
    /* A misrouted one, its dest field relabelled: found through the id sets. */
    int e = (d + 1) % 8;
    hr_elem moved = r->out[d][0], victim = r->out[e][0];
    r->out[e][0] = (hr_elem){ .data = moved.data, .dest = (uint32_t)e };
    r->out[d][0] = (hr_elem){ .data = victim.data, .dest = (uint32_t)d };
    snprintf(expected, sizeof expected, "processor %d holds element %u whose dest is %d",
             d < e ? d : e, d < e ? victim.data : moved.data, d < e ? e : d);
    expect_fail(r, expected);
    r->out[d][0] = moved;
    r->out[e][0] = victim;
    expect_ok(r);
    free_routed(r);
    hrelation()->destroy(r);
}
END_TEST

/* file: the data fields are the file's VALUEs, and the verifier names elements by them. */
START_TEST(test_workload_verify_file)
{
    hr_hrel *r = make_ok("file:" DATA "hrel_good.txt", 8, 4, 0, 1);
    route(r);
    expect_ok(r);
    /* route() fills out[3] in (source, local index) order: values 7, 9, 4294967295, 12. */
    ck_assert_uint_eq(r->out_count[3], 4);
    ck_assert_uint_eq(r->out[3][0].data, 7);
    ck_assert_uint_eq(r->out[3][3].data, 12);
    ck_assert_uint_eq(r->out[1][0].data, 100);
    r->out_count[3]--;
    expect_fail(r, "element 12 (dest 3) never arrived");
    r->out_count[3]++;
    expect_ok(r);
    /* A duplicate in place of a lost one. */
    hr_elem keep = r->out[3][0];
    r->out[3][0] = r->out[3][1];
    expect_fail(r, "processor 3 received element 9 twice");
    r->out[3][0] = keep;
    /* Misrouted: swap 100 (dest 1) and 7 (dest 3); then with the dest fields relabelled. */
    hr_elem a = r->out[1][0], b = r->out[3][0];
    r->out[1][0] = b;
    r->out[3][0] = a;
    expect_fail(r, "processor 1 holds element 7 whose dest is 3");
    r->out[1][0].dest = 1;
    r->out[3][0].dest = 3;
    expect_fail(r, "processor 1 holds element 7 whose dest is 3");
    r->out[1][0] = a;
    r->out[3][0] = b;
    expect_ok(r);
    /* A data field that is no line's VALUE. */
    r->out[2][0].data = 8;
    expect_fail(r, "processor 2 holds element 8, a VALUE no line of " DATA "hrel_good.txt has");
    r->out[2][0].data = 31;
    expect_ok(r);
    free_routed(r);
    expect_fail(r, "element 100 (dest 1) never arrived");
    hrelation()->destroy(r);
}
END_TEST

/* ---- file:PATH: only regular files, bounded lines, memory --------------------------------- */

/* make on dist for n elements and p = 4; returns the code, the reason in why. */
static int make_file_dist(const char *path, uint64_t n, char *why, size_t whylen, hr_hrel **out)
{
    char dist[4200];
    snprintf(dist, sizeof dist, "file:%s", path);
    hr_workload_spec s = { .kind = "hrelation", .n = n, .distribution = dist };
    void *inst = NULL;
    why[0] = '\0';
    int err = hrelation()->make(&s, 4, &inst, why, whylen);
    if (out != NULL)
        *out = inst;
    else if (inst != NULL)
        hrelation()->destroy(inst);
    return err;
}

/* A device and a directory are refused by their type, before anything is read: /dev/zero would
 * never end. */
START_TEST(test_workload_file_not_regular)
{
    char why[512], expected[512], dir[] = "/tmp/hremu_check_workload_XXXXXX";
    ck_assert_int_eq(make_file_dist("/dev/zero", 1, why, sizeof why, NULL), HR_EINVAL);
    ck_assert_str_eq(why, "/dev/zero: is a character device, not a regular file");
    ck_assert_int_eq(make_file_dist("/dev/null", 1, why, sizeof why, NULL), HR_EINVAL);
    ck_assert_str_eq(why, "/dev/null: is a character device, not a regular file");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    int err = make_file_dist(dir, 1, why, sizeof why, NULL);
    rmdir(dir);
    ck_assert_int_eq(err, HR_EINVAL);
    snprintf(expected, sizeof expected, "%s: is a directory, not a regular file", dir);
    ck_assert_str_eq(why, expected);
}
END_TEST

/* A FIFO is refused at once: opening it for reading would wait for a writer that never comes. The
 * case has a timeout, so a reader that blocks fails instead of hanging. */
START_TEST(test_workload_file_fifo)
{
    char why[512], expected[512], dir[] = "/tmp/hremu_check_workload_XXXXXX", fifo[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    int err = make_file_dist(fifo, 1, why, sizeof why, NULL);
    remove(fifo);
    rmdir(dir);
    ck_assert_int_eq(err, HR_EINVAL);
    snprintf(expected, sizeof expected, "%s: is a FIFO (named pipe), not a regular file", fifo);
    ck_assert_str_eq(why, expected);
}
END_TEST

/* Write body to a scratch file named after this process; returns its path in path. */
static void write_scratch(char *path, size_t cap, const char *body, size_t len)
{
    snprintf(path, cap, "/tmp/hremu_check_workload_%ld.txt", (long)getpid());
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(body, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

/* Append k copies of c to b at *len. */
static void pad(char *b, size_t *len, char c, size_t k)
{
    memset(b + *len, c, k);
    *len += k;
}

/* Lines of up to 4096 bytes (newline excluded) are read; a longer one is refused with its line
 * number, wherever it falls: in the first chunk the reader reads, at the end of the file without
 * a newline, or across the boundary of the reader's 64 KiB chunks. */
START_TEST(test_workload_file_long_line)
{
    enum { MAX = 4096, SHORT = 10921 };   /* SHORT lines of 6 bytes end 10 bytes before 64 KiB */
    static char body[6 * SHORT + 2 * MAX];
    char path[64], why[512], expected[512];
    /* Line 2 is exactly MAX bytes: an element, then a comment to the end. */
    size_t len = (size_t)sprintf(body, "0 1 5\n1 2 6 #");
    pad(body, &len, 'x', 6 + MAX - len);
    len += (size_t)sprintf(body + len, "\n2 3 7\n");
    write_scratch(path, sizeof path, body, len);
    hr_hrel *r = NULL;
    int err = make_file_dist(path, 3, why, sizeof why, &r);
    remove(path);
    ck_assert_msg(err == HR_OK, "%s", why);
    ck_assert_uint_eq(r->in_count[1], 1);
    ck_assert_uint_eq(r->in[1][0].data, 6);
    ck_assert_uint_eq(r->in[2][0].data, 7);
    hrelation()->destroy(r);

    for (int c = 0; c < 4; c++) {
        uint64_t line = 0;
        len = 0;
        if (c == 0) {          /* line 2, one byte over */
            len = (size_t)sprintf(body, "0 1 5\n1 2 6 #");
            pad(body, &len, 'x', 6 + MAX + 1 - len);
            len += (size_t)sprintf(body + len, "\n2 3 7\n");
            line = 2;
        } else if (c == 1) {   /* line 3, a comment alone */
            len = (size_t)sprintf(body, "0 1 5\n1 2 6\n#");
            pad(body, &len, ' ', MAX);
            len += (size_t)sprintf(body + len, "\n");
            line = 3;
        } else if (c == 2) {   /* line 4, the last, with no newline */
            len = (size_t)sprintf(body, "0 1 5\n1 2 6\n\n#");
            pad(body, &len, 'y', MAX);
            line = 4;
        } else {               /* line SHORT + 1, across the first chunk's end */
            for (int k = 0; k < SHORT; k++)
                len += (size_t)sprintf(body + len, "0 1 5\n");
            ck_assert_uint_eq(len, 65536 - 10);
            pad(body, &len, '#', MAX + 1);
            line = SHORT + 1;
        }
        write_scratch(path, sizeof path, body, len);
        err = make_file_dist(path, c == 3 ? SHORT : 2, why, sizeof why, NULL);
        remove(path);
        ck_assert_int_eq(err, HR_EINVAL);
        snprintf(expected, sizeof expected, "%s:%" PRIu64 ": line longer than 4096 bytes", path,
                 line);
        ck_assert_str_eq(why, expected);
    }
}
END_TEST

/* Many short lines, so that lines straddle the reader's chunks, and a last line without a
 * newline: every element is read, in order. */
START_TEST(test_workload_file_many_lines)
{
    enum { N = 30000 };
    char path[64], why[512];
    char *body = malloc((size_t)N * 24);
    ck_assert_ptr_nonnull(body);
    size_t len = 0;
    for (uint32_t g = 0; g < N; g++)
        len += (size_t)sprintf(body + len, g + 1 < N ? "%u %u %u\n" : "%u %u %u", g % 4,
                               (g / 4) % 4, 1000000u + 7u * g);
    ck_assert_uint_gt(len, 4 * 65536);
    write_scratch(path, sizeof path, body, len);
    free(body);
    hr_hrel *r = NULL;
    int err = make_file_dist(path, N, why, sizeof why, &r);
    remove(path);
    ck_assert_msg(err == HR_OK, "%s", why);
    for (uint32_t g = 0; g < N; g++) {
        hr_elem e = r->in[g % 4][g / 4];
        ck_assert_uint_eq(e.data, 1000000u + 7u * g);
        ck_assert_uint_eq(e.dest, (g / 4) % 4);
    }
    hrelation()->destroy(r);
}
END_TEST

/* A file longer than n is refused at its element line n + 1, and nothing after that line is
 * read: here it is followed by a line no reader takes (longer than HR_TEXT_MAX_LINE), which a
 * reader that went on would name instead. Comments and blank lines do not count. */
START_TEST(test_workload_file_stops_at_n)
{
    static const char head[] = "# three elements and one more\n0 1 5\n\n1 2 6\n"
                               "2 3 7 # third\n3 0 8\n";
    size_t tail = HR_TEXT_MAX_LINE + 100, len = sizeof head - 1 + tail;
    char *body = malloc(len);
    ck_assert_ptr_nonnull(body);
    memcpy(body, head, sizeof head - 1);
    memset(body + sizeof head - 1, '7', tail);
    expect_file_error(body, len, 3, "6: more element lines than n = 3: n must equal the number "
                      "of element lines");
    free(body);
}
END_TEST

/* Out of memory while the file is read is HR_ENOMEM, and the reason says so. The address space is
 * limited in this forked test process only; sanitizers reserve far more address space than any
 * such limit allows, and without fork (CK_FORK=no) the limit would stay, so those skip it. */
START_TEST(test_workload_file_out_of_memory)
{
    if (!hr_test_may_limit_memory())
        HR_TEST_SKIP("limits the address space: only with the plain allocator, in a forked test");
    enum { N = 1 << 19 };   /* 8 MB of element lines while they are read: over the margin */
    char path[64], why[512];
    snprintf(path, sizeof path, "/tmp/hremu_check_workload_%ld.txt", (long)getpid());
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    for (uint32_t g = 0; g < N; g++)
        fprintf(f, "%u %u %u\n", g % 4, (g + 1) % 4, g);
    ck_assert_int_eq(fclose(f), 0);
    struct rlimit old;
    ck_assert_int_eq(hr_test_limit_memory(4u << 20, &old), 0);
    int err = make_file_dist(path, N, why, sizeof why, NULL);
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
    remove(path);
    ck_assert_msg(err == HR_ENOMEM, "%d: %s", err, why);
    ck_assert_msg(strncmp(why, path, strlen(path)) == 0 && strstr(why, "out of memory") != NULL,
                  "%s", why);
}
END_TEST

/* ---- bytes moved ------------------------------------------------------------------------- */

/* The elements whose dest is not the processor they start on, counted from the input. */
static uint64_t count_moved(const hr_hrel *r)
{
    uint64_t moved = 0;
    for (int i = 0; i < r->p; i++)
        for (size_t k = 0; k < r->in_count[i]; k++)
            moved += r->in[i][k].dest != (uint32_t)i;
    return moved;
}

static void expect_min_bytes(const hr_hrel *r, uint64_t moved)
{
    uint64_t got = UINT64_MAX;
    ck_assert_uint_eq(hrelation()->min_bytes(r, &got), 4 * moved);
    ck_assert_uint_eq(got, moved);
    ck_assert_uint_eq(hrelation()->min_bytes(r, NULL), 4 * moved);
}

/* transpose, p = 4, n = 64: each processor keeps the 4 elements of its own dest and sends 12;
 * alltoall sends everything; hrel_good.txt has two lines with SOURCE = DEST of eight; p = 1 moves
 * nothing; the others are counted from their input. */
START_TEST(test_workload_min_bytes)
{
    hr_hrel *r = make_ok("transpose", 64, 4, 0, 1);
    expect_min_bytes(r, 48);
    hrelation()->destroy(r);
    r = make_ok("alltoall", 56, 8, 0, 1);
    expect_min_bytes(r, 56);
    hrelation()->destroy(r);
    r = make_ok("file:" DATA "hrel_good.txt", 8, 4, 0, 1);
    expect_min_bytes(r, 6);
    hrelation()->destroy(r);
    r = make_ok("uniform", 1000, 1, 0, 1);
    expect_min_bytes(r, 0);
    hrelation()->destroy(r);
    static const struct { const char *dist; uint64_t n, h; int p; } cases[] = {
        { "uniform", 10007, 0, 8 }, { "skewed", N16, 4 * N16 / P16, P16 },
        { "permutation", 4096, 0, 8 }, { "random", 48, 3, 16 }, { "difficult", 21, 3, 15 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        r = make_ok(cases[c].dist, cases[c].n, cases[c].p, cases[c].h, 3);
        uint64_t moved = count_moved(r);
        ck_assert_uint_gt(moved, 0);
        expect_min_bytes(r, moved);
        hrelation()->destroy(r);
    }
}
END_TEST

/* Run one registered algorithm with its parameters. */
typedef struct alg_arg {
    const hr_algorithm *alg;
    void               *inst;
    const double       *params;
} alg_arg;

static void run_alg_body(hr_proc *p, void *arg)
{
    const alg_arg *a = arg;
    a->alg->run(p, a->inst, a->params);
}

/* A cheat: processor me takes the elements whose dest is me by reading every processor's input
 * directly, and sends nothing. Its output is correct. */
static void cheat_hrel(hr_proc *p, void *arg)
{
    hr_hrel *r = arg;
    int me = hr_pid(p);
    size_t count = 0;
    for (int i = 0; i < r->p; i++)
        for (size_t k = 0; k < r->in_count[i]; k++)
            count += r->in[i][k].dest == (uint32_t)me;
    hr_elem *out = hr_malloc(p, count * sizeof *out + 1);
    size_t at = 0;
    for (int i = 0; i < r->p; i++)
        for (size_t k = 0; k < r->in_count[i]; k++)
            if (r->in[i][k].dest == (uint32_t)me)
                out[at++] = r->in[i][k];
    r->out[me] = out;
    r->out_count[me] = count;
}

static void direct_hrel(hr_proc *p, void *arg)
{
    static const double params[8] = { 0 };
    hr_alg_hrel_direct(p, arg, params);
}

static uint64_t run_and_check(hr_hrel *r, void (*fn)(hr_proc *, void *), int *verify_err,
                              int *run_err, char *why, size_t whylen)
{
    return hr_test_run_verify(hrelation(), r, r->p, fn, r, verify_err, run_err, why, whylen);
}

/* A correct output made through shared memory passes verify but not hr_workload_verify, which
 * names the bytes sent and the elements that changed processor; hrel.direct passes both. */
START_TEST(test_workload_verify_bytes_moved)
{
    hr_hrel *r = make_ok("uniform", 10007, 8, 0, 5);
    uint64_t moved = count_moved(r);
    ck_assert_uint_gt(moved, 8000);   /* 7/8 of the elements, give or take a few hundred */
    int verr, rerr;
    char why[256] = "", expected[256];
    uint64_t bytes = run_and_check(r, cheat_hrel, &verr, &rerr, why, sizeof why);
    ck_assert_uint_eq(bytes, 0);
    ck_assert_int_eq(verr, HR_OK);
    ck_assert_int_eq(rerr, HR_EVERIFY);
    snprintf(expected, sizeof expected, "the run moved 0 payload bytes, but %" PRIu64
             " elements changed processor (at least %" PRIu64 " bytes)", moved, 4 * moved);
    ck_assert_str_eq(why, expected);

    bytes = run_and_check(r, direct_hrel, &verr, &rerr, why, sizeof why);
    ck_assert_int_eq(verr, HR_OK);
    ck_assert_msg(rerr == HR_OK, "%s", why);
    ck_assert_uint_ge(bytes, 8 * moved);   /* direct sends every element whole */

    /* The bound itself, on the test's own routing: exactly enough passes, a byte less fails. */
    route(r);
    ck_assert_int_eq(hr_workload_verify(hrelation(), r, 4 * moved, why, sizeof why), HR_OK);
    ck_assert_int_eq(hr_workload_verify(hrelation(), r, 4 * moved - 1, why, sizeof why),
                     HR_EVERIFY);
    snprintf(expected, sizeof expected, "the run moved %" PRIu64 " payload bytes, but %" PRIu64
             " elements changed processor (at least %" PRIu64 " bytes)", 4 * moved - 1, moved,
             4 * moved);
    ck_assert_str_eq(why, expected);
    /* A wrong output is verify's failure, whatever the bytes. */
    r->out_count[3]--;
    snprintf(expected, sizeof expected, "element %u (dest 3) never arrived",
             r->out[3][r->out_count[3]].data);
    ck_assert_int_eq(hr_workload_verify(hrelation(), r, UINT64_MAX, why, sizeof why), HR_EVERIFY);
    ck_assert_str_eq(why, expected);
    r->out_count[3]++;
    free_routed(r);
    hrelation()->destroy(r);
}
END_TEST

/* Every h-relation algorithm, on every discipline it is defined for, moves at least the bound:
 * on random (every element moves) and on uniform (some stay). */
START_TEST(test_workload_bytes_every_algorithm)
{
    static const char *const discs[] = { "async", "sync", "fifo", "priority", "arbitrary",
                                         "ocpc" };
    char why[256];
    for (int a = 0; hr_algorithm_at(a) != NULL; a++) {
        const hr_algorithm *alg = hr_algorithm_at(a);
        if (alg->kind != HR_KIND_HRELATION)
            continue;
        for (size_t d = 0; d < sizeof discs / sizeof discs[0]; d++) {
            if (!hr_algorithm_allows(alg, discs[d]))
                continue;
            for (int c = 0; c < 2; c++) {
                hr_hrel *r = c == 0 ? make_ok("random", 8 * 3, 8, 3, 7)
                                    : make_ok("uniform", 300, 6, 0, 7);
                double params[8] = { 0 };
                for (int k = 0; alg->params != NULL && alg->params[k].name != NULL; k++)
                    params[k] = alg->params[k].def;
                if (alg->plan != NULL)
                    ck_assert_msg(alg->plan(r, &(hr_plan_args){ .seed = 1 }, why, sizeof why) == HR_OK, "plan: %s", why);
                hr_machine_config cfg = hr_test_config(r->p, discs[d]);
                hr_machine *m = NULL;
                ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
                alg_arg arg = { .alg = alg, .inst = r, .params = params };
                hr_run_result res;
                ck_assert_int_eq(hr_machine_run(m, run_alg_body, &arg, &res), HR_OK);
                ck_assert_msg(res.status == HR_OK, "%s %s: %s", alg->name, discs[d], res.report);
                int err = hr_workload_verify(hrelation(), r, res.bytes, why, sizeof why);
                hr_machine_destroy(m);
                ck_assert_msg(err == HR_OK, "%s %s: %s", alg->name, discs[d], why);
                if (alg->unplan != NULL)
                    alg->unplan(r);
                hrelation()->destroy(r);
            }
        }
    }
}
END_TEST

/* ---- memory estimate --------------------------------------------------------------------- */

/* mem_bytes against what make and a correct output take, measured by the allocator, plus the
 * verifier's bitmap (n/8 bytes, freed before verify returns, so not measurable afterwards): within
 * 10% for every distribution. The sanitizers' allocators do not report through mallinfo2. */
START_TEST(test_workload_mem_bytes)
{
    if (!HR_TEST_PLAIN_ALLOC)
        HR_TEST_SKIP("the sanitizer's allocator does not report through mallinfo2");
    /* NF lines: the reader's arrays grow to 65536 entries, and make keeps NF of them. */
    enum { N = 1 << 16, NF = 40000 };
    char path[64];
    snprintf(path, sizeof path, "/tmp/hremu_check_workload_mem_%ld.txt", (long)getpid());
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    for (uint32_t g = 0; g < NF; g++)
        fprintf(f, "%u %u %u\n", g % 16, (g * 7) % 16, g * 3);
    ck_assert_int_eq(fclose(f), 0);
    char file_dist[80];
    snprintf(file_dist, sizeof file_dist, "file:%s", path);
    const struct { const char *dist; uint64_t n, h; int p; } cases[] = {
        { "uniform", N, 0, 16 },
        { "transpose", N, 0, 16 },
        { "skewed", N, 4 * N / 16, 16 },
        { "permutation", N, 0, 16 },
        { "alltoall", 256 * 255, 0, 256 },
        { "random", 64 * 1024, 1024, 64 },
        { "difficult", 16 * 16 * 16 - 16 * 16 + 16, 16, 4096 },
        { file_dist, NF, 0, 16 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hr_workload_spec s = { .kind = "hrelation", .n = cases[c].n, .h = cases[c].h,
                               .distribution = cases[c].dist, .seed = 1 };
        char why[256] = "";
        void *inst = NULL;
        uint64_t before = hr_test_heap_in_use();
        int err = hrelation()->make(&s, cases[c].p, &inst, why, sizeof why);
        uint64_t made = hr_test_heap_in_use() - before;
        if (cases[c].dist == file_dist)
            remove(path);
        ck_assert_msg(err == HR_OK, "%s", why);
        /* The outputs, as an algorithm leaves them: one block of its processor's memory (the
         * machine's allocator, util/alloc.h) on every processor. */
        int p = cases[c].p;
        uint64_t *count = malloc((size_t)p * sizeof *count);
        hr_alloc *heaps = calloc((size_t)p, sizeof *heaps);
        ck_assert(count != NULL && heaps != NULL);
        dest_counts(inst, count);
        before = hr_test_heap_in_use();
        for (int d = 0; d < p; d++)
            ck_assert_ptr_nonnull(hr__alloc(&heaps[d], (size_t)count[d] * sizeof(hr_elem) + 1));
        uint64_t outs = hr_test_heap_in_use() - before;
        uint64_t measured = made + outs + (cases[c].n + 63) / 64 * 8;
        uint64_t est = hrelation()->mem_bytes(&s, p);
        ck_assert_msg(est >= measured - measured / 10 && est <= measured + measured / 10,
                      "%s: mem_bytes %" PRIu64 ", measured %" PRIu64 " (make %" PRIu64
                      ", outputs %" PRIu64 ")", cases[c].dist, est, measured, made, outs);
        for (int d = 0; d < p; d++)
            hr__alloc_free_all(&heaps[d]);
        free(heaps);
        free(count);
        hrelation()->destroy(inst);
    }
}
END_TEST

/* A Matrix Market pattern's estimate reads the file's size line: it covers make's 16 bytes an
 * stored entry while it reads and sorts (jagmesh7: 4294 entries, room for 8588 with mirrors),
 * grows with the entries at a fixed p, and for a file of 2^32 - 1 rows and no entries stays
 * small (it follows the entries and p, never the rows). */
START_TEST(test_workload_pattern_mem_bytes)
{
    const hr_workload *w = hr_workload_find("pattern");
    ck_assert_ptr_nonnull(w);
    hr_wkey_value keys[HR_WKEY_MAX] = { { 0 } };
    int at = -1;
    for (int i = 0; w->keys[i].name != NULL; i++) {
        if (w->keys[i].type != HR_WKEY_WORD)
            keys[i].num = strtod(w->keys[i].def, NULL);
        if (strcmp(w->keys[i].name, "pattern") == 0)
            at = i;
        else if (strcmp(w->keys[i].name, "range") == 0)
            keys[i].num = 8;
    }
    ck_assert_int_ge(at, 0);
    hr_workload_spec s = { .kind = "pattern", .keys = keys, .seed = 1 };
    keys[at].word = "file:tests/data/mtx/jagmesh7.mtx";
    uint64_t jag = w->mem_bytes(&s, 8);
    ck_assert_uint_ge(jag, 16 * 8588);
    keys[at].word = "file:tests/data/mtx/west0067.mtx";
    uint64_t west = w->mem_bytes(&s, 8);
    ck_assert_uint_ge(west, 16 * 294);
    ck_assert_uint_lt(west, jag);
    keys[at].word = "file:tests/data/mtx/huge_empty.mtx";
    ck_assert_uint_lt(w->mem_bytes(&s, 32), 2u << 20);
}
END_TEST

/* ---- each instance made once ------------------------------------------------------------ */

/* A kind that counts the instances it makes (in this test's forked process only). */
static int counted_makes;

static int counted_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t len)
{
    (void)s;
    (void)p;
    (void)why;
    (void)len;
    counted_makes++;
    *inst = malloc(1);
    return *inst != NULL ? HR_OK : HR_ENOMEM;
}
static void counted_reset(void *inst) { (void)inst; }
static int counted_verify(const void *inst, char *why, size_t len)
{
    (void)inst;
    (void)why;
    (void)len;
    return HR_OK;
}
static uint64_t counted_min_bytes(const void *inst, uint64_t *moved)
{
    (void)inst;
    if (moved != NULL)
        *moved = 0;
    return 0;
}
static uint64_t counted_h(const void *inst) { (void)inst; return 0; }
static uint64_t counted_mem(const hr_workload_spec *s, int p) { (void)s; (void)p; return 64; }
static void counted_run(hr_proc *p, void *inst, const double *params)
{
    (void)p;
    (void)inst;
    (void)params;
}

/* Check, then run, a sweep of 2 machines x 3 workloads, counting makes; returns the instances the
 * check kept. with_plan 0: the check keeps nothing and the run makes every instance again. */
static int sweep_counting(int with_plan)
{
    static const char text[] = "[machine]\nprocs = 2, 4\n[workload]\nkind = counted\n"
                               "n = 8, 16, 32\n[run]\nalgorithms = counted.nothing\nrepeat = 2\n";
    hr_config *c = NULL;
    hr_config_error e;
    ck_assert_msg(hr__config_parse("t.ini", text, sizeof text - 1, &c, &e) == HR_OK, "%s", e.msg);
    ck_assert_msg(hr__config_check(c, &e) == HR_OK, "%s", e.msg);
    hr_sweep_plan plan;
    counted_makes = 0;
    ck_assert_msg(hr__sweep_check(c, with_plan ? &plan : NULL, &e) == HR_OK, "%s", e.msg);
    ck_assert_int_eq(counted_makes, 6);
    int kept = 0;
    for (hr_sweep_kept *k = with_plan ? plan.kept : NULL; k != NULL; k = hr__sweep_kept_next(k))
        kept++;
    FILE *null = fopen("/dev/null", "w");
    ck_assert_ptr_nonnull(null);
    hr_report rep;
    char why[256];
    ck_assert_int_eq(hr__report_pick(&rep, NULL, 0, NULL, why, sizeof why), HR_OK);
    hr__report_start(&rep, null, HR_FORMAT_CSV);
    hr_sweep_sides sides = { .plan = with_plan ? &plan : NULL };
    hr_sweep_stats st;
    ck_assert_msg(hr__sweep_run(c, &rep, NULL, NULL, &sides, &st, &e) == HR_OK, "%s", e.msg);
    hr__report_end(&rep);
    fclose(null);
    ck_assert_uint_eq(st.rows, 6);
    ck_assert_uint_eq(st.failed, 0);
    ck_assert_int_eq(counted_makes, 12 - kept);
    if (with_plan)
        hr__sweep_plan_free(&plan);
    hr__config_free(c);
    return kept;
}

/* The check makes every instance of a sweep (to refuse a bad one before any row runs) and keeps
 * them for the run while they fit: here all six, so six makes in all, not twelve. Without a
 * plan, or under an HREMU_MEMORY that leaves room beside the largest row for a few only, the
 * rest are made again when their rows run; each is destroyed once (ASan's leak check). */
START_TEST(test_workload_made_once)
{
    static const hr_workload w = {
        .name = "counted", .summary = "counts its instances (tests/check_workload.c)",
        .kind = HR_KIND_USER + 22, .make = counted_make, .reset = counted_reset,
        .verify = counted_verify, .min_bytes = counted_min_bytes, .h = counted_h,
        .mem_bytes = counted_mem, .destroy = free,
    };
    static const hr_algorithm a = { .name = "counted.nothing", .summary = "does nothing at all",
                                    .kind = HR_KIND_USER + 22, .run = counted_run,
                                    .few_messages = 1 };
    const char *why = NULL;
    ck_assert_msg(hr_workload_register(&w, &why) == HR_OK, "%s", why);
    ck_assert_msg(hr_algorithm_register(&a, &why) == HR_OK, "%s", why);
    unsetenv("HREMU_MEMORY");
    ck_assert_int_eq(sweep_counting(1), 6);
    ck_assert_int_eq(sweep_counting(0), 0);
    /* Room for the largest row, p = 4 and n = 32, and 128 bytes (each instance is 64; a row needs
     * 16 bytes more an element): at point k the kept 64 (k - 1) bytes, 64 for its own and the
     * largest row so far must fit. Points 1-3 (p = 2) fit easily; point 4 (p = 4, n = 8) has
     * 192 + 64 + need - 384 <= need + 128, point 5 (n = 16) 256 + 64 + need - 256 = need + 64;
     * point 6 (n = 32) 320 + 64 + need does not fit, so it alone is made again by the run. */
    hr_workload_spec big = { .kind = "counted", .n = 32, .seed = 1 };
    hr_machine_config four = { .procs = 4 };
    char room[32];
    snprintf(room, sizeof room, "%llu",
             (unsigned long long)(hr__row_bytes(&w, &big, &four) + 2 * 64));
    ck_assert_int_eq(setenv("HREMU_MEMORY", room, 1), 0);
    int kept = sweep_counting(1);
    unsetenv("HREMU_MEMORY");
    ck_assert_int_eq(kept, 5);
}
END_TEST

/* The table of distributions, row by row: sorted and unique names, a summary each, found by name
 * (a path row by its prefix with any path), the workload's list the names joined, and each row's
 * h, sizes_n and keeps_dests as make and mem_bytes treat them, on a small instance named here for
 * each row: a new row fails here until it has one. */
START_TEST(test_workload_hrel_distributions)
{
    static const struct {
        const char *name, *spec;   /* the row's name, and a distribution that names it */
        uint64_t    n, h;          /* a spec make accepts (h: the instance's h when the row's) */
        int         p;
    } small[] = {
        { "alltoall",    "alltoall",                       12, 3,  4 },
        { "difficult",   "difficult",                       6, 2,  5 },
        { "file:PATH",   "file:" DATA "hrel_good.txt",      8, 4,  4 },
        { "permutation", "permutation",                    16, 4,  4 },
        { "random",      "random",                          8, 2,  4 },
        { "skewed",      "skewed",                         64, 32, 4 },
        { "transpose",   "transpose",                      64, 16, 4 },
        { "uniform",     "uniform",                        64, 0,  4 },
    };
    char joined[512] = "", why[256];
    const hr_hrel_dist *d;
    int rows = 0;
    for (; (d = hr__hrel_dist_at(rows)) != NULL; rows++) {
        ck_assert(d->summary != NULL && d->summary[0] != '\0');
        ck_assert_ptr_nonnull(d->make);
        if (rows > 0)
            ck_assert_msg(strcmp(hr__hrel_dist_at(rows - 1)->name, d->name) < 0,
                          "%s: not sorted or not unique", d->name);
        snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s",
                 rows > 0 ? ", " : "", d->name);
        size_t c = 0;
        while (c < sizeof small / sizeof small[0] && strcmp(small[c].name, d->name) != 0)
            c++;
        ck_assert_msg(c < sizeof small / sizeof small[0], "%s: no small instance here", d->name);
        ck_assert_ptr_eq(hr__hrel_dist_find(small[c].spec), d);
        hr_workload_spec s = { .kind = "hrelation", .n = small[c].n, .h = small[c].h,
                               .distribution = small[c].spec, .seed = 1 };
        void *inst = NULL;
        ck_assert_msg(hrelation()->make(&s, small[c].p, &inst, why, sizeof why) == HR_OK, "%s: %s",
                      d->name, why);
        if (d->h != HR_HREL_H_NONE)
            ck_assert_uint_eq(hr__hrel_h(inst), small[c].h);
        hrelation()->destroy(inst);
        /* h: a result (refused when set), the relation's own (free to leave out, refused when
         * another), or a parameter (refused when left out). */
        hr_workload_spec t = s;
        t.h = d->h == HR_HREL_H_NONE ? 1 : d->h == HR_HREL_H_OWN ? s.h + 1 : 0;
        inst = NULL;
        ck_assert_msg(hrelation()->make(&t, small[c].p, &inst, why, sizeof why) == HR_EINVAL,
                      "%s: h = %" PRIu64 " accepted", d->name, t.h);
        ck_assert_ptr_null(inst);
        if (d->h == HR_HREL_H_OWN) {
            t.h = 0;
            ck_assert_int_eq(hrelation()->make(&t, small[c].p, &inst, why, sizeof why), HR_OK);
            ck_assert_uint_eq(hr__hrel_h(inst), s.h);
            hrelation()->destroy(inst);
            inst = NULL;
        }
        /* n = 0: refused for every row, by the row itself when it sizes n (saying what n is). */
        t = s;
        t.n = 0;
        ck_assert_int_eq(hrelation()->make(&t, small[c].p, &inst, why, sizeof why), HR_EINVAL);
        ck_assert_msg((strcmp(why, "n must be at least 1") != 0) == d->sizes_n, "%s: %s", d->name,
                      why);
        /* 2 bytes an element more for a row that keeps its dests than for uniform. */
        hr_workload_spec u = s;
        u.distribution = "uniform";
        uint64_t extra = hr__hrel_mem_bytes(&s, small[c].p) - hr__hrel_mem_bytes(&u, small[c].p);
        ck_assert_msg((extra >= 2 * s.n) == d->keeps_dests, "%s: %" PRIu64 " more bytes",
                      d->name, extra);
    }
    ck_assert_int_eq(rows, (int)(sizeof small / sizeof small[0]));
    ck_assert_ptr_null(hr__hrel_dist_at(rows));
    ck_assert_ptr_null(hr__hrel_dist_at(-1));
    ck_assert_str_eq(hr__hrel_distributions, joined);
    ck_assert_str_eq(hrelation()->distributions, joined);
    /* Exact names, and "file:" only as a prefix. */
    ck_assert_str_eq(hr__hrel_dist_find("file:x")->name, "file:PATH");
    ck_assert_str_eq(hr__hrel_dist_find("file:")->name, "file:PATH");
    ck_assert_ptr_null(hr__hrel_dist_find("file"));
    ck_assert_ptr_null(hr__hrel_dist_find("uniformx"));
    ck_assert_ptr_null(hr__hrel_dist_find("unifor"));
    ck_assert_ptr_null(hr__hrel_dist_find(""));
    ck_assert_ptr_null(hr__hrel_dist_find(NULL));
}
END_TEST

Suite *hr_workload_suite(void)
{
    Suite *s = suite_create("workload");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_workload_table);
    tcase_add_test(core, test_workload_fill_bytes);
    tcase_add_test(core, test_workload_hrel_distributions);
    tcase_add_test(core, test_workload_eq7_counts);
    tcase_add_test(core, test_workload_skewed_layout);
    tcase_add_test(core, test_workload_transpose_layout);
    tcase_add_test(core, test_workload_cyclic_remainder);
    tcase_add_test(core, test_workload_uniform_seeded);
    tcase_add_test(core, test_workload_permutation);
    tcase_add_test(core, test_workload_file_good);
    tcase_add_test(core, test_workload_alltoall);
    tcase_add_test(core, test_workload_random);
    tcase_add_test(core, test_workload_difficult);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_workload_rejects);
    tcase_add_test(limits, test_workload_file_rejects);
    tcase_add_test(limits, test_workload_file_odd_bytes);
    tcase_add_test(limits, test_workload_file_long_line);
    tcase_add_test(limits, test_workload_file_many_lines);
    tcase_add_test(limits, test_workload_file_stops_at_n);
    tcase_add_test(limits, test_workload_file_out_of_memory);
    tcase_set_timeout(limits, 60);   /* the scratch files of the last three */
    suite_add_tcase(s, limits);
    /* A reader that blocked on the FIFO would hang: the timeout turns that into a failure. */
    TCase *types = tcase_create("file_types");
    tcase_add_test(types, test_workload_file_not_regular);
    tcase_add_test(types, test_workload_file_fifo);
    tcase_set_timeout(types, 5);
    suite_add_tcase(s, types);
    TCase *verify = tcase_create("verify");
    tcase_add_test(verify, test_workload_verify_correct);
    tcase_add_test(verify, test_workload_verify_corrupt);
    tcase_add_test(verify, test_workload_verify_uniform);
    tcase_add_test(verify, test_workload_verify_permutation);
    tcase_add_test(verify, test_workload_verify_file);
    tcase_add_test(verify, test_workload_min_bytes);
    suite_add_tcase(s, verify);
    TCase *bytes = tcase_create("bytes");
    tcase_add_test(bytes, test_workload_verify_bytes_moved);
    tcase_add_test(bytes, test_workload_bytes_every_algorithm);
    tcase_set_timeout(bytes, 60);
    suite_add_tcase(s, bytes);
    TCase *mem = tcase_create("memory");
    tcase_add_test(mem, test_workload_mem_bytes);
    tcase_add_test(mem, test_workload_pattern_mem_bytes);
    tcase_add_test(mem, test_workload_made_once);
    tcase_set_timeout(mem, 60);
    suite_add_tcase(s, mem);
    return s;
}
