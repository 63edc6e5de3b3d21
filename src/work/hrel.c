/* hrel.c: the "hrelation" workload of seed 000 section 3: the transpose, skewed (eq. 7), uniform
 * and permutation inputs, laid out cyclically; alltoall, random (h permutations without fixed
 * points) and seed 003's difficult h-relation, laid out by sender; relations read from a file
 * (file:PATH); and an O(n) verifier of exactly-once delivery (a bitmap over ids and a fingerprint
 * of each processor's id set). Each distribution is a make function and a row of the table of
 * distributions (HREL_DISTRIBUTIONS, below the make functions). */
#include "work/hrel.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hremu/error.h>
#include <hremu/machine.h>

#include "util/rng.h"
#include "util/sync.h"
#include "work/common.h"
#include "work/textfile.h"

/* Where the destinations come from. */
enum dest_mode {
    DEST_COUNTS = 0,     /* transpose, skewed: v_d consecutive elements for each d */
    DEST_UNIFORM,        /* uniform: drawn from seed, regenerated on demand */
    DEST_TABLE,          /* permutation, file, alltoall, random, difficult: stored in dest_of
                          * (the permutation needs O(n) memory to draw anyway, a file cannot be
                          * regenerated, and the others are laid out by sender, not cyclically) */
};

/* An instance. pub comes first, so the pointer handed out as the instance is both an hrel_inst *
 * and an hr_hrel *. The truth the verifier checks against is kept apart from the inputs (which an
 * algorithm could rewrite, against the contract) and is small: for each destination d, want[d] is
 * the number of elements whose dest is d and print[d] the sum (mod 2^64) of hr__work_mix(g) over
 * their ids g. For the counted and uniform distributions element g's destination itself is not
 * stored (2 bytes per element would be 32 MB at n = 2^24 and, read in delivery order, cost the
 * verifier ten times its other work); on a failure it is regenerated from (v, or seed) to name the
 * culprit. permutation, file:PATH, alltoall, random and difficult keep dest_of, read only on that
 * failure path.
 *
 * For file:PATH instances ids are still g = 0 .. n-1 (the element's line order in the file), but
 * the data field carries the user's VALUE: value[g] is element g's data and by_value the sorted
 * (value << 32 | g) pairs, so the verifier maps a delivered data field back to its id by binary
 * search. make rejects repeated values, so the map is a bijection and exactly-once delivery is
 * checked on ids as for the generated distributions.
 *
 * moved, counted by make, is the number of elements whose dest differs from the processor that
 * holds them at the start: the elements a correct run must move across the machine (min_bytes).
 * It depends on the input alone, since a correct output holds every element at its dest. */
typedef struct hrel_inst {
    hr_hrel   pub;
    int       mode;      /* enum dest_mode */
    uint64_t  seed;
    uint64_t *want;      /* [p] elements per destination: v_d */
    uint64_t *print;     /* [p] fingerprint of the id set per destination */
    uint16_t *dest_of;   /* [n] DEST_TABLE: element g's destination; else NULL */
    uint32_t *value;     /* [n] file: element g's data field; else NULL (data = g) */
    uint64_t *by_value;  /* [n] file: (value << 32 | g), ascending; else NULL */
    char     *path;      /* file: the path, for the verifier's messages; else NULL */
    uint64_t  moved;     /* elements whose dest is not their source processor */
} hrel_inst;

/* Ids are the 32-bit data field, so an instance holds at most 2^32 elements. */
#define MAX_ELEMS (UINT64_C(1) << 32)

/* ---- the uniform distribution's generator ------------------------------------------------ */

/* util/rng's stream number UINT64_MAX of the seed, which no processor id takes: the input never
 * shares draws with any processor's hr_rand stream, and rand() (shared process state) is not
 * used. bench/bench_common.h repeats this generator so that the plain references route exactly
 * the elements hremu routes. */
#define WORK_STREAM UINT64_MAX

/* ---- eq. (7) ----------------------------------------------------------------------------- */

/* Seed 000 eq. (7), with m = 2n/h:
 *   v_i = floor(h (1 - h/(2n-h) i))            if i < m and i != p-1,
 *   v_i = 0                                    if m <= i < p-1,
 *   v_i = n - sum_{j=0}^{m-1} floor(h (1 - h/(2n-h) j))   if i = p-1.
 * Choices where the paper leaves room, checked against an exact-rational evaluation of the formula
 * (tests/check_workload.c):
 * - h = n/p: the paper states v_i = n/p (the transpose case) and gives eq. (7) "for h > n/p" only;
 *   eq. (7) itself would give sum v_i != n there (47574 instead of 65536 for p = 16, n = 2^16), so
 *   h = n/p takes v_i = n/p (as counts this needs only p | n; hr__hrel_make then builds the
 *   transpose instance, with its rule p^2 | n).
 * - m must be a whole number (it is the sum's upper limit) and m <= p: with m > p the sum runs over
 *   processors that do not exist and sum v_i < n. So h divides 2n and 2n/p <= h <= n. With p | n,
 *   h = k n/p qualifies when k divides 2p (the paper's k = 2, 4, 8 with p a power of two >= 4);
 *   h need not be a multiple of n/p.
 * - Since 2n - h = h (m-1), the factor h/(2n-h) is exactly 1/(m-1), so the floor is computed
 *   exactly in integers as h (m-1-i) / (m-1); every product is at most h m = 2n <= 2^33.
 * - The term j = m-1 is exactly 0, so when m = p the sum's j = p-1 adds nothing and there is no
 *   double count with v_{p-1}'s own remainder: sum v_i = n always.
 * - v_0 = h. The remainder v_{p-1} is the sum of at most m-2 lost fractions, so below p; when n is
 *   tiny it can still exceed h (p = 16, n = 16, h = 2 gives 7), and then the instance's h would not
 *   be the requested one: rejected. */
int hr__hrel_skew_counts(uint64_t n, int p, uint64_t h, uint64_t *v, char *why, size_t whylen)
{
    if (p < 1)
        return hr__work_fail(why, whylen, HR_EINVAL, "need at least one processor");
    if (n == 0)
        return hr__work_fail(why, whylen, HR_EINVAL, "n must be at least 1");
    if (h == 0)
        return hr__work_fail(
            why, whylen, HR_EINVAL,
            "distribution skewed needs h (seed 000 uses h = n/p, 2n/p, 4n/p, 8n/p)");
    if (n % (uint64_t)p == 0 && h == n / (uint64_t)p) {
        for (int i = 0; i < p; i++)
            v[i] = h;
        return HR_OK;
    }
    if (h > n)
        return hr__work_fail(why, whylen, HR_EINVAL, "h = %" PRIu64 " exceeds n = %" PRIu64, h, n);
    if ((2 * n) % h != 0)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "eq. (7) needs 2n/h to be a whole number: h = %" PRIu64
                             " does not divide 2n = %" PRIu64,
                             h, 2 * n);
    uint64_t m = 2 * n / h;
    if (m > (uint64_t)p)
        return hr__work_fail(
            why, whylen, HR_EINVAL,
            "eq. (7) needs 2n/h <= p, i.e. h >= 2n/p, or h = n/p exactly: h = %" PRIu64
            " gives 2n/h = %" PRIu64 " > p = %d",
            h, m, p);

    uint64_t sum = 0;
    for (int i = 0; i < p; i++) {
        if ((uint64_t)i < m) {
            uint64_t f = h * (m - 1 - (uint64_t)i) / (m - 1);
            sum += f;
            v[i] = f;
        } else {
            v[i] = 0;
        }
    }
    /* v_{p-1} replaces its own term (0 when p-1 = m-1, absent when p-1 >= m) by the remainder. */
    v[p - 1] = n - sum;
    if (v[p - 1] > h)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "eq. (7) gives processor p-1 the remainder %" PRIu64 " > h = %" PRIu64
                             ": n = %" PRIu64 " is too small for this h and p",
                             v[p - 1], h, n);
    return HR_OK;
}

/* ---- instances --------------------------------------------------------------------------- */

/* The destinations of g = 0, 1, 2, ... in order: the one definition both make and the verifier's
 * failure path use, so the two cannot disagree. */
typedef struct dest_stream {
    const hrel_inst *I;
    hr_rng           rng;     /* uniform */
    int              d;       /* counts: current destination and elements left for it */
    uint64_t         left;
    uint64_t         g;       /* table: the next element */
} dest_stream;

static void stream_start(dest_stream *ds, const hrel_inst *I)
{
    *ds = (dest_stream){ .I = I, .d = -1, .left = 0, .g = 0 };
    if (I->mode == DEST_UNIFORM)
        hr__rng_seed(&ds->rng, I->seed, WORK_STREAM);
}

static uint32_t stream_next(dest_stream *ds)
{
    if (ds->I->mode == DEST_UNIFORM)
        return (uint32_t)hr__rng_below(&ds->rng, (uint64_t)ds->I->pub.p);
    if (ds->I->mode == DEST_TABLE)
        return ds->I->dest_of[ds->g++];
    while (ds->left == 0)
        ds->left = ds->I->want[++ds->d];
    ds->left--;
    return (uint32_t)ds->d;
}

void hr__hrel_destroy(void *inst)
{
    hrel_inst *I = inst;
    if (I == NULL)
        return;
    if (I->pub.in != NULL)
        for (int i = 0; i < I->pub.p; i++)
            free(I->pub.in[i]);
    free(I->pub.in);
    free(I->pub.in_count);
    free(I->pub.out);
    free(I->pub.out_count);
    free(I->want);
    free(I->print);
    free(I->dest_of);
    free(I->value);
    free(I->by_value);
    free(I->path);
    free(I);
}

/* Allocate an instance with count[i] input slots on processor i, or the cyclic layout's counts
 * when count is NULL; the elements are filled in by the caller. */
static int alloc_inst(uint64_t n, int p, const uint64_t *count_of, hrel_inst **out)
{
    hrel_inst *I = calloc(1, sizeof *I);
    if (I == NULL)
        return HR_ENOMEM;
    I->pub.p = p;
    I->pub.n = n;
    I->pub.h1 = count_of == NULL ? (n + (uint64_t)p - 1) / (uint64_t)p : 0;
    I->pub.in = calloc((size_t)p, sizeof *I->pub.in);
    I->pub.in_count = calloc((size_t)p, sizeof *I->pub.in_count);
    I->pub.out = calloc((size_t)p, sizeof *I->pub.out);
    I->pub.out_count = calloc((size_t)p, sizeof *I->pub.out_count);
    I->want = calloc((size_t)p, sizeof *I->want);
    I->print = calloc((size_t)p, sizeof *I->print);
    if (I->pub.in == NULL || I->pub.in_count == NULL || I->pub.out == NULL ||
        I->pub.out_count == NULL || I->want == NULL || I->print == NULL)
        goto fail;
    for (int i = 0; i < p; i++) {
        size_t count = count_of != NULL
                           ? (size_t)count_of[i]
                           : (size_t)(n / (uint64_t)p + ((uint64_t)i < n % (uint64_t)p));
        I->pub.in_count[i] = count;
        if ((uint64_t)count > I->pub.h1)
            I->pub.h1 = (uint64_t)count;
        /* Never malloc(0): a processor with no input still gets a valid pointer. */
        I->pub.in[i] = malloc((count > 0 ? count : 1) * sizeof(hr_elem));
        if (I->pub.in[i] == NULL)
            goto fail;
    }
    *out = I;
    return HR_OK;
fail:
    hr__hrel_destroy(I);
    return HR_ENOMEM;
}

static void set_h(hrel_inst *I)
{
    I->pub.h = 0;
    for (int d = 0; d < I->pub.p; d++)
        if (I->want[d] > I->pub.h)
            I->pub.h = I->want[d];
}

/* Lay out the global sequence cyclically: element g goes to processor g mod p, local index g / p,
 * kept by counters rather than divisions (this loop runs 2^24 times in the benchmarks). For the
 * uniform and permutation distributions want[] is counted here; for the others it was set from v
 * and stays. */
static void fill(hrel_inst *I)
{
    int p = I->pub.p, proc = 0;
    size_t local = 0;
    dest_stream ds;
    stream_start(&ds, I);
    for (uint64_t g = 0; g < I->pub.n; g++) {
        uint32_t d = stream_next(&ds);
        I->pub.in[proc][local] = (hr_elem){ .data = (uint32_t)g, .dest = d };
        if (I->mode != DEST_COUNTS)
            I->want[d]++;
        I->print[d] += hr__work_mix(g);
        I->moved += d != (uint32_t)proc;
        if (++proc == p) {
            proc = 0;
            local++;
        }
    }
    set_h(I);
}

/* ---- permutation ------------------------------------------------------------------------- */

/* Element g goes to processor pi(g) / (n/p) for a uniformly random permutation pi of 0 .. n-1,
 * drawn by Fisher-Yates (Durstenfeld's form) on the workload stream, as uniform draws: pi starts as
 * the identity, then for i = n-1 down to 1, pi(i) and pi(j) swap, j = hr__rng_below(i + 1). Only
 * the labels pi(g) / (n/p) are kept, and the same swaps applied to the labels g / (n/p) give the
 * same result, so the shuffle runs on 16-bit labels (2 bytes per element, kept for the verifier)
 * instead of 32-bit slots. Each processor receives exactly n/p elements, and holds n/p (p | n). */
static int draw_permutation(hrel_inst *I)
{
    uint64_t n = I->pub.n, np = n / (uint64_t)I->pub.p;
    uint16_t *a = malloc((size_t)n * sizeof *a);
    if (a == NULL)
        return HR_ENOMEM;
    uint16_t d = 0;
    uint64_t left = np;
    for (uint64_t g = 0; g < n; g++) {
        if (left == 0) {
            d++;
            left = np;
        }
        a[g] = d;
        left--;
    }
    hr_rng rng;
    hr__rng_seed(&rng, I->seed, WORK_STREAM);
    for (uint64_t i = n - 1; i > 0; i--) {
        uint64_t j = hr__rng_below(&rng, i + 1);
        uint16_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    I->dest_of = a;
    return HR_OK;
}

/* ---- file:PATH --------------------------------------------------------------------------- */

/* The element lines of a file, in file order, while it is read. */
typedef struct file_elems {
    uint64_t  count, cap;
    uint16_t *src, *dst;
    uint32_t *val;
    uint64_t *line;
} file_elems;

/* What one element line takes while the file is read: src, dst, val, line. */
#define FILE_ELEM_BYTES (2 * sizeof(uint16_t) + sizeof(uint32_t) + sizeof(uint64_t))

static void file_elems_free(file_elems *fe)
{
    free(fe->src);
    free(fe->dst);
    free(fe->val);
    free(fe->line);
}

static int file_elems_push(file_elems *fe, uint16_t src, uint16_t dst, uint32_t val, uint64_t line)
{
    if (fe->count == fe->cap) {
        uint64_t cap = fe->cap == 0 ? 1024 : 2 * fe->cap;
        uint16_t *s = realloc(fe->src, (size_t)cap * sizeof *s);
        if (s != NULL)
            fe->src = s;
        uint16_t *d = realloc(fe->dst, (size_t)cap * sizeof *d);
        if (d != NULL)
            fe->dst = d;
        uint32_t *v = realloc(fe->val, (size_t)cap * sizeof *v);
        if (v != NULL)
            fe->val = v;
        uint64_t *l = realloc(fe->line, (size_t)cap * sizeof *l);
        if (l != NULL)
            fe->line = l;
        if (s == NULL || d == NULL || v == NULL || l == NULL)
            return HR_ENOMEM;
        fe->cap = cap;
    }
    fe->src[fe->count] = src;
    fe->dst[fe->count] = dst;
    fe->val[fe->count] = val;
    fe->line[fe->count] = line;
    fe->count++;
    return HR_OK;
}

/* One line of path (number line, text buf[0 .. len)): 0 for a blank or comment line, 1 for an
 * element line with its SOURCE, DEST and VALUE in v[], each checked; or HR_EINVAL with the
 * reason "PATH:LINE: ...". */
static int parse_line(const char *path, uint64_t line, const char *buf, size_t len, int p,
                      uint64_t v[3], char *why, size_t whylen)
{
    static const char *const field[3] = { "SOURCE", "DEST", "VALUE" };
    const char *end = buf + len, *hash = memchr(buf, '#', len);
    if (hash != NULL)
        end = hash;
    const char *tok[3];
    size_t tlen[3];
    int nf = hr__text_split(buf, (size_t)(end - buf), tok, tlen, 3);
    if (nf == 0)
        return 0;   /* blank or comment */
    if (nf != 3)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "%s:%" PRIu64 ": expected SOURCE DEST VALUE, found %d field%s", path,
                             line, nf, nf == 1 ? "" : "s");
    char shown[28];
    for (int k = 0; k < 3; k++) {
        int r = hr__text_parse_dec(tok[k], tlen[k], &v[k]);
        hr__text_show_token(shown, sizeof shown, tok[k], tlen[k]);
        if (r == -1)
            return hr__work_fail(why, whylen, HR_EINVAL,
                                 "%s:%" PRIu64 ": %s \"%s\" is not a decimal number", path, line,
                                 field[k], shown);
        if (k < 2 && (r == -2 || v[k] >= (uint64_t)p))
            return hr__work_fail(why, whylen, HR_EINVAL,
                                 "%s:%" PRIu64 ": %s %s is not a processor (0 .. %d)", path, line,
                                 field[k], shown, p - 1);
        if (k == 2 && (r == -2 || v[k] > UINT32_MAX))
            return hr__work_fail(why, whylen, HR_EINVAL,
                                 "%s:%" PRIu64 ": VALUE %s does not fit in 32 bits "
                                 "(at most 4294967295)",
                                 path, line, shown);
    }
    return 1;
}

/* Keep element line number line (fields v[]) as the next element of fe, or say why not: more
 * lines than n, more than 2^32, or no memory. */
static int keep_elem(const char *path, uint64_t line, const uint64_t v[3], uint64_t n,
                     file_elems *fe, char *why, size_t whylen)
{
    if (fe->count == n)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "%s:%" PRIu64 ": more element lines than n = %" PRIu64
                             ": n must equal the number of element lines", path, line, n);
    if (fe->count == MAX_ELEMS)
        return hr__work_fail(why, whylen, HR_EINVAL, "%s:%" PRIu64 ": more than 2^32 elements",
                             path, line);
    if (file_elems_push(fe, (uint16_t)v[0], (uint16_t)v[1], (uint32_t)v[2], line) != HR_OK)
        return hr__work_fail(why, whylen, HR_ENOMEM,
                             "%s:%" PRIu64 ": out of memory holding %" PRIu64
                             " element lines (%" PRIu64 " bytes each while the file is read)",
                             path, line, fe->count, (uint64_t)FILE_ELEM_BYTES);
    return HR_OK;
}

/* Read path's element lines into fe, checking every field; the reason is "PATH:LINE: ...". The
 * reading stops at the element line after the n-th, which is refused: a file longer than n says
 * so without being read (or held) whole, however large it is. */
static int read_file(const char *path, int p, uint64_t n, file_elems *fe, char *why,
                     size_t whylen)
{
    hr_text_reader lr = { .fd = -1 };
    int err = hr__text_open(path, &lr.fd, NULL, why, whylen);
    if (err != HR_OK)
        return err;
    char buf[HR_TEXT_MAX_LINE];
    lr.buf = malloc(HR_TEXT_READ_CHUNK);
    if (lr.buf == NULL) {
        close(lr.fd);
        return hr__work_fail(why, whylen, HR_ENOMEM, "%s: out of memory for a read buffer", path);
    }
    size_t len;
    int got;
    uint64_t line = 0;
    while (err == HR_OK && (got = hr__text_next_line(&lr, buf, &len)) != 0) {
        line++;
        uint64_t v[3];
        if (got == -1)
            err = hr__work_fail(why, whylen, HR_EINVAL,
                                "%s:%" PRIu64 ": line longer than %d bytes", path, line,
                                HR_TEXT_MAX_LINE);
        else if (got == -2)
            err = hr__work_fail(why, whylen, HR_EINVAL, "%s:%" PRIu64 ": cannot read: %s", path,
                                line, strerror(errno));
        else if ((got = parse_line(path, line, buf, len, p, v, why, whylen)) < 0)
            err = got;
        else if (got == 1)
            err = keep_elem(path, line, v, n, fe, why, whylen);
    }
    free(lr.buf);
    close(lr.fd);
    return err;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Values are ids: the sorted (value << 32 | g) pairs of fe's elements into keys[n], or HR_EINVAL
 * naming the earliest line that repeats a value (and the line it repeats). */
static int sort_values(const char *path, const file_elems *fe, uint64_t *keys, char *why,
                       size_t whylen)
{
    uint64_t n = fe->count;
    for (uint64_t g = 0; g < n; g++)
        keys[g] = (uint64_t)fe->val[g] << 32 | g;
    qsort(keys, (size_t)n, sizeof *keys, cmp_u64);
    uint64_t dup = UINT64_MAX;   /* the g of the earliest repeating line */
    for (uint64_t k = 1; k < n; k++)
        if (keys[k] >> 32 == keys[k - 1] >> 32 && (keys[k] & UINT32_MAX) < dup)
            dup = keys[k] & UINT32_MAX;
    if (dup == UINT64_MAX)
        return HR_OK;
    uint64_t first = dup;
    for (uint64_t g = 0; g < dup; g++)
        if (fe->val[g] == fe->val[dup]) {
            first = g;
            break;
        }
    return hr__work_fail(why, whylen, HR_EINVAL,
                         "%s:%" PRIu64 ": VALUE %" PRIu32 " repeats line %" PRIu64
                         " (values identify the elements: each must be unique)",
                         path, fe->line[dup], fe->val[dup], fe->line[first]);
}

/* The relation's own h, the most elements one processor receives, and each source's lines in
 * count[p]; HR_EINVAL when s asks for another h. want[p] is scratch. */
static int file_counts(const hr_workload_spec *s, const char *path, const file_elems *fe,
                       uint64_t *count, uint64_t *want, char *why, size_t whylen)
{
    uint64_t h = 0;
    for (uint64_t g = 0; g < fe->count; g++) {
        count[fe->src[g]]++;
        if (++want[fe->dst[g]] > h)
            h = want[fe->dst[g]];
    }
    if (s->h != 0 && s->h != h)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "%s: the relation has h = %" PRIu64
                             " (the most elements one processor receives), not %" PRIu64
                             ": leave h unset or 0",
                             path, h, s->h);
    return HR_OK;
}

/* Lay out fe's elements by source: element g on processor SOURCE after the earlier lines with the
 * same SOURCE (count[] is the fill cursor, and ends as it began), data = VALUE, dest = DEST. */
static void fill_by_line(hrel_inst *I, const file_elems *fe, uint64_t *count)
{
    int p = I->pub.p;
    memset(count, 0, (size_t)p * sizeof *count);
    for (uint64_t g = 0; g < fe->count; g++) {
        uint16_t src = fe->src[g], dst = fe->dst[g];
        I->pub.in[src][count[src]++] = (hr_elem){ .data = fe->val[g], .dest = dst };
        I->want[dst]++;
        I->print[dst] += hr__work_mix(g);
        I->moved += src != dst;
    }
    set_h(I);
}

/* Hand the verifier's truth to I: fe's dests and values (trimmed to n entries: the arrays grew by
 * doubling while the file was read), the sorted keys and the path; fe, *keys and *copy are left
 * without them. */
static void keep_truth(hrel_inst *I, file_elems *fe, uint64_t **keys, char **copy)
{
    size_t n = (size_t)fe->count;
    uint16_t *dst_fit = realloc(fe->dst, n * sizeof *dst_fit);
    if (dst_fit != NULL)
        fe->dst = dst_fit;
    uint32_t *val_fit = realloc(fe->val, n * sizeof *val_fit);
    if (val_fit != NULL)
        fe->val = val_fit;
    I->dest_of = fe->dst;
    fe->dst = NULL;
    I->value = fe->val;
    fe->val = NULL;
    I->by_value = *keys;
    *keys = NULL;
    I->path = *copy;
    *copy = NULL;
}

/* file:PATH: element g is the file's g-th element line (format in docs/config.md). Read, check
 * n, the VALUEs and h, then lay out. */
static int make_file(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    const char *path = strchr(s->distribution, ':') + 1;
    if (path[0] == '\0')
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution file:PATH needs a path after \"file:\"");
    file_elems fe = { 0 };
    uint64_t *keys = NULL, *count = NULL, *want = NULL;
    hrel_inst *I = NULL;
    char *copy = NULL;
    int err = read_file(path, p, s->n, &fe, why, whylen);
    if (err != HR_OK)
        goto done;
    uint64_t n = fe.count;
    if (n != s->n) {
        err = hr__work_fail(why, whylen, HR_EINVAL,
                            "%s: has %" PRIu64 " element lines, but n = %" PRIu64
                            ": n must equal the number of element lines",
                            path, n, s->n);
        goto done;
    }
    keys = malloc((size_t)n * sizeof *keys);
    count = calloc((size_t)p, sizeof *count);
    want = calloc((size_t)p, sizeof *want);
    copy = strdup(path);
    if (keys == NULL || count == NULL || want == NULL || copy == NULL) {
        err = hr__work_fail(why, whylen, HR_ENOMEM,
                            "%s: out of memory checking the VALUEs of %" PRIu64 " elements", path,
                            n);
        goto done;
    }
    if ((err = sort_values(path, &fe, keys, why, whylen)) != HR_OK ||
        (err = file_counts(s, path, &fe, count, want, why, whylen)) != HR_OK)
        goto done;
    if ((err = alloc_inst(n, p, count, &I)) != HR_OK) {
        err = hr__work_fail(why, whylen, HR_ENOMEM,
                            "%s: out of memory for the input of %" PRIu64 " elements", path, n);
        goto done;
    }
    I->mode = DEST_TABLE;
    I->seed = s->seed;
    fill_by_line(I, &fe, count);
    keep_truth(I, &fe, &keys, &copy);
    *inst = &I->pub;
done:
    file_elems_free(&fe);
    free(keys);
    free(count);
    free(want);
    free(copy);
    return err;
}

/* ---- alltoall, random, difficult --------------------------------------------------------- */

/* These three are defined per sender, not by the cyclic layout: processor i holds count[i]
 * elements, and element g (g = 0 .. n-1, processor 0's elements first, each processor's in order)
 * has data = g and dest = dest[g]. The dests are kept in dest_of (DEST_TABLE), 2 bytes per
 * element, as for permutation. */
static int make_by_source(const hr_workload_spec *s, int p, uint64_t n, const uint64_t *count,
                          uint16_t *dest, void **inst)
{
    hrel_inst *I = NULL;
    int err = alloc_inst(n, p, count, &I);
    if (err != HR_OK)
        return err;
    I->mode = DEST_TABLE;
    I->seed = s->seed;
    uint64_t g = 0;
    for (int i = 0; i < p; i++)
        for (size_t k = 0; k < I->pub.in_count[i]; k++, g++) {
            uint16_t d = dest[g];
            I->pub.in[i][k] = (hr_elem){ .data = (uint32_t)g, .dest = d };
            I->want[d]++;
            I->print[d] += hr__work_mix(g);
            I->moved += d != i;
        }
    HR_ASSERT(g == n);
    set_h(I);
    I->dest_of = dest;   /* the instance owns it now */
    *inst = &I->pub;
    return HR_OK;
}

/* count[] and dest[] for n elements, or HR_ENOMEM with neither allocated. */
static int alloc_tables(int p, uint64_t n, uint64_t **count, uint16_t **dest)
{
    *count = calloc((size_t)p, sizeof **count);
    *dest = malloc((size_t)(n > 0 ? n : 1) * sizeof **dest);
    if (*count == NULL || *dest == NULL) {
        free(*count);
        free(*dest);
        return HR_ENOMEM;
    }
    return HR_OK;
}

/* Build from filled tables, freeing count always and dest on failure. */
static int finish_by_source(const hr_workload_spec *s, int p, uint64_t n, uint64_t *count,
                            uint16_t *dest, void **inst)
{
    int err = make_by_source(s, p, n, count, dest, inst);
    if (err != HR_OK)
        free(dest);
    free(count);
    return err;
}

/* alltoall: one element for every ordered pair (i, j), i != j. Processor i holds p-1 elements, in
 * the order of their destinations i+1, i+2, ..., i+p-1 (mod p), so that in a direct send the k-th
 * elements of all processors go to p distinct processors. h = h1 = p-1, n = p(p-1). p = 1 is
 * refused: its relation would be empty, and n = 0 is no instance. */
static int make_alltoall(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    if (p < 2)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution alltoall needs at least 2 processors: with p = 1 "
                             "there is no pair to send between");
    uint64_t q = (uint64_t)p - 1, n = (uint64_t)p * q;
    if (s->n != n)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution alltoall has n = p(p-1) = %" PRIu64
                             " elements (write n = p*(p-1)); n = %" PRIu64,
                             n, s->n);
    if (s->h != 0 && s->h != q)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution alltoall has h = p-1 = %" PRIu64 ", not %" PRIu64
                             ": leave h unset or 0",
                             q, s->h);
    uint64_t *count;
    uint16_t *dest;
    if (alloc_tables(p, n, &count, &dest) != HR_OK)
        return HR_ENOMEM;
    uint64_t g = 0;
    for (int i = 0; i < p; i++) {
        count[i] = q;
        for (int k = 1; k < p; k++)
            dest[g++] = (uint16_t)((i + k) % p);
    }
    return finish_by_source(s, p, n, count, dest, inst);
}

/* random: the union of h permutations pi_0 .. pi_{h-1} of the processors without fixed points;
 * processor i's k-th element goes to pi_k(i). So every processor sends exactly h and receives
 * exactly h, and none sends to itself (h = h1 = h, n = p*h; two of a processor's elements may share
 * a destination). Each pi_k is drawn on the workload stream, pi_0 first: a Fisher-Yates shuffle as
 * for permutation (pi starts as the identity; for i = p-1 down to 1, pi(i) and pi(j) swap,
 * j = hr__rng_below(i + 1)), then for i = 0 .. p-1 in order, a fixed point pi(i) = i swaps with
 * pi(j) for j drawn uniformly from the other p-1 processors (j = hr__rng_below(p - 1), plus one if
 * j >= i). A swap never makes a new fixed point: position i gets the old pi(j), which is not i
 * because pi(i) = i and pi is a bijection, and position j gets i, which is not j. So one pass
 * removes them all. The result is a permutation without fixed points, though not a uniformly
 * random one among them. */
static void draw_derangement(hr_rng *rng, int p, uint16_t *pi)
{
    for (int i = 0; i < p; i++)
        pi[i] = (uint16_t)i;
    for (int i = p - 1; i > 0; i--) {
        int j = (int)hr__rng_below(rng, (uint64_t)i + 1);
        uint16_t t = pi[i];
        pi[i] = pi[j];
        pi[j] = t;
    }
    for (int i = 0; i < p; i++)
        if (pi[i] == i) {
            int j = (int)hr__rng_below(rng, (uint64_t)p - 1);
            if (j >= i)
                j++;
            pi[i] = pi[j];
            pi[j] = (uint16_t)i;
        }
}

static int make_random(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    uint64_t h = s->h;
    if (p < 2)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution random needs at least 2 processors: no processor "
                             "sends to itself, and with p = 1 there is no other");
    if (h == 0)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution random needs h (every processor sends and receives "
                             "exactly h; n = p*h)");
    if (h > MAX_ELEMS / (uint64_t)p)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution random with h = %" PRIu64
                             " has p*h elements, more than 2^32: element ids are 32-bit data "
                             "fields",
                             h);
    uint64_t n = (uint64_t)p * h;
    if (s->n != n)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution random has n = p*h = %" PRIu64
                             " elements (write n = %" PRIu64 "*p); n = %" PRIu64,
                             n, h, s->n);
    uint64_t *count;
    uint16_t *dest;
    if (alloc_tables(p, n, &count, &dest) != HR_OK)
        return HR_ENOMEM;
    uint16_t *pi = malloc((size_t)p * sizeof *pi);
    if (pi == NULL) {
        free(count);
        free(dest);
        return HR_ENOMEM;
    }
    hr_rng rng;
    hr__rng_seed(&rng, s->seed, WORK_STREAM);
    for (uint64_t k = 0; k < h; k++) {
        draw_derangement(&rng, p, pi);
        for (int i = 0; i < p; i++)
            dest[(uint64_t)i * h + k] = pi[i];
    }
    free(pi);
    for (int i = 0; i < p; i++)
        count[i] = h;
    return finish_by_source(s, p, n, count, dest, inst);
}

/* The least p that holds the difficult h-relation's layout (below): p >= h^2 + 1 for the
 * blocking processors, and p - h >= h(h-1)^2 for the non-conflicting destinations, which are
 * every processor but the h conflicted ones. That is 5 for h = 2 and h^3 - 2h^2 + 2h for h >= 3
 * (where h(h-1)(h-2) > 1 makes the second bound the larger). 0 when it exceeds 2^63 (h > 2^20). */
static uint64_t difficult_least_p(uint64_t h)
{
    if (h > (UINT64_C(1) << 20))
        return 0;
    uint64_t a = h * h + 1, b = h + h * (h - 1) * (h - 1);
    return a > b ? a : b;
}

/* difficult: the difficult h-relation of seed 003 section 3 (the input of Theorem 1's lower
 * bound), with the paper's processor 1 as processor 0 and B = h(h-1) blocking processors:
 * - processor 0 sends its k-th element (k = 0 .. h-1) to j_{k+1} = processor k+1;
 * - blocking processor t (t = 0 .. B-1) is processor h+1+t. Its first element is its conflicting
 *   one, to processor 1 + t/(h-1): so j_1 = 1 gets those of t = 0 .. h-2, j_2 those of
 *   t = h-1 .. 2h-3, and so on, h-1 distinct blockers for each j. Its other h-1 elements,
 *   r = 0 .. h-2, are non-conflicting message m = r*B + t (numbered across blockers, round robin);
 * - message m goes to the m-th of processors h^2+1, h^2+2, ..., p-1, then processor 0; once those
 *   E = p - h^2 are used up (m >= E), to the next blocker, processor h+1 + (t+1) mod B.
 * The last rule gives distinct destinations: the messages with m >= E are at most B when p is
 * feasible (N = B(h-1) <= E + B, i.e. p - h >= h(h-1)^2), so their t = m mod B are distinct, and so
 * are the blockers t+1 they go to; and no blocker sends to itself since B >= 2. So each j receives
 * exactly h, every other processor at most one, and the h(h-1)^2 non-conflicting messages all go to
 * distinct processors outside j_1 .. j_h. Processors h^2+1 .. p-1 hold nothing. h = h1 = h, and
 * n = h + Bh = h^3 - h^2 + h. h = 1 is refused: it has no blocking processor and no conflict. The
 * instance does not depend on the seed. */
static int make_difficult(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    uint64_t h = s->h;
    if (h == 0)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution difficult needs h (seed 003 section 3: n = h^3 - h^2 "
                             "+ h, p >= h^3 - 2h^2 + 2h)");
    if (h == 1)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution difficult needs h >= 2: with h = 1 there is no "
                             "blocking processor and no conflict");
    uint64_t least = difficult_least_p(h);
    if (least == 0)
        return hr__work_fail(
            why, whylen, HR_EINVAL,
            "distribution difficult with h = %" PRIu64 " needs p >= h^3 - 2h^2 + 2h; p = %d", h, p);
    if (least > (uint64_t)p)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution difficult with h = %" PRIu64 " needs p >= %" PRIu64
                             " (%s); p = %d",
                             h, least, h == 2 ? "h^2 + 1" : "h^3 - 2h^2 + 2h", p);
    uint64_t B = h * (h - 1), n = h + B * h;
    if (s->n != n)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution difficult with h = %" PRIu64
                             " has n = h^3 - h^2 + h = %" PRIu64 " elements; n = %" PRIu64,
                             h, n, s->n);
    uint64_t *count;
    uint16_t *dest;
    if (alloc_tables(p, n, &count, &dest) != HR_OK)
        return HR_ENOMEM;
    uint64_t E = (uint64_t)p - h * h, g = 0;
    count[0] = h;
    for (uint64_t k = 0; k < h; k++)
        dest[g++] = (uint16_t)(k + 1);
    for (uint64_t t = 0; t < B; t++) {
        count[h + 1 + t] = h;
        dest[g++] = (uint16_t)(1 + t / (h - 1));
        for (uint64_t r = 0; r + 1 < h; r++) {
            uint64_t m = r * B + t;
            if (m + 1 < E)
                dest[g++] = (uint16_t)(h * h + 1 + m);
            else if (m + 1 == E)
                dest[g++] = 0;
            else
                dest[g++] = (uint16_t)(h + 1 + (t + 1) % B);
        }
    }
    return finish_by_source(s, p, n, count, dest, inst);
}

/* ---- uniform, transpose, skewed, permutation: laid out cyclically ------------------------ */

/* A cyclic instance of s whose destinations come from mode: the counts v[p] (DEST_COUNTS; v is
 * NULL otherwise), the seed's draws (DEST_UNIFORM) or a permutation drawn here (DEST_TABLE). */
static int make_cyclic(const hr_workload_spec *s, int p, int mode, const uint64_t *v, void **inst)
{
    hrel_inst *I = NULL;
    int err = alloc_inst(s->n, p, NULL, &I);
    if (err != HR_OK)
        return err;
    I->mode = mode;
    I->seed = s->seed;
    if (mode == DEST_TABLE && (err = draw_permutation(I)) != HR_OK) {
        hr__hrel_destroy(I);
        return err;
    }
    if (mode == DEST_COUNTS)
        memcpy(I->want, v, (size_t)p * sizeof *v);
    fill(I);
    *inst = &I->pub;
    return HR_OK;
}

static int make_uniform(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    if (s->h != 0)
        return hr__work_fail(
            why, whylen, HR_EINVAL,
            "distribution uniform draws every dest at random, so h is a result of the "
            "draw, not a parameter: leave h unset or 0 (got h = %" PRIu64 ")",
            s->h);
    return make_cyclic(s, p, DEST_UNIFORM, NULL, inst);
}

static int make_transpose(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    /* With p^2 | n every processor sends exactly n/p^2 elements to every processor: the data
     * movement of the transpose primitive, as the paper says. With only p | n it would still be
     * an h-relation of h = n/p, but with blocks of n/p^2 and n/p^2 + 1: not a transpose. */
    uint64_t n = s->n, np = n / (uint64_t)p, pp = (uint64_t)p * (uint64_t)p;
    if (n % pp != 0)
        return hr__work_fail(
            why, whylen, HR_EINVAL,
            "distribution transpose needs n to be a multiple of p^2 = %" PRIu64
            " (every processor sends n/p^2 elements to every other); n = %" PRIu64,
            pp, n);
    if (s->h != 0 && s->h != np)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution transpose has h = n/p = %" PRIu64 ", not %" PRIu64
                             " (use distribution skewed for other h)",
                             np, s->h);
    uint64_t *v = calloc((size_t)p, sizeof *v);
    if (v == NULL)
        return HR_ENOMEM;
    for (int i = 0; i < p; i++)
        v[i] = np;
    int err = make_cyclic(s, p, DEST_COUNTS, v, inst);
    free(v);
    return err;
}

static int make_skewed(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    /* h = n/p is the paper's transpose sequence: the same instance, the same rules. */
    if (s->n % (uint64_t)p == 0 && s->h == s->n / (uint64_t)p)
        return make_transpose(s, p, inst, why, whylen);
    /* Counts first, so that a rejected h allocates nothing large. */
    uint64_t *v = calloc((size_t)p, sizeof *v);
    if (v == NULL)
        return HR_ENOMEM;
    int err = hr__hrel_skew_counts(s->n, p, s->h, v, why, whylen);
    if (err == HR_OK)
        err = make_cyclic(s, p, DEST_COUNTS, v, inst);
    free(v);
    return err;
}

static int make_permutation(const hr_workload_spec *s, int p, void **inst, char *why,
                            size_t whylen)
{
    uint64_t n = s->n, np = n / (uint64_t)p;
    if (n % (uint64_t)p != 0)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution permutation needs n to be a multiple of p = %d "
                             "(every processor sends and receives n/p); n = %" PRIu64,
                             p, n);
    if (s->h != 0 && s->h != np)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "distribution permutation has h = n/p = %" PRIu64 ", not %" PRIu64
                             ": leave h unset or 0",
                             np, s->h);
    return make_cyclic(s, p, DEST_TABLE, NULL, inst);
}

/* ---- the table of distributions ---------------------------------------------------------- */

/* The distributions, sorted by name: one row X(NAME, FIELDS...) each, FIELDS the designated
 * initialisers of the rest of its hr_hrel_dist (hrel.h says what each means). SEP stands between
 * two rows, so that the same rows give both the table (SEP empty) and the comma list of names
 * the workload's row shows in --list and the config checks against (SEP ", "). A make gets only
 * specs whose distribution is its row's name, p in 1 .. HREL_MAX_PROCS and, unless it sizes n
 * itself, n in 1 .. 2^32. */
#define HREL_DISTRIBUTIONS(X, SEP)                                                               \
    X("alltoall", .h = HR_HREL_H_OWN, .sizes_n = 1, .keeps_dests = 1, .make = make_alltoall,     \
      .summary = "one element for every ordered pair i != j: n = p(p-1), h = p-1") SEP           \
    X("difficult", .h = HR_HREL_H_NEEDED, .sizes_n = 1, .keeps_dests = 1,                        \
      .make = make_difficult,                                                                    \
      .summary = "seed 003's lower-bound input: n = h^3 - h^2 + h, p >= h^3 - 2h^2 + 2h") SEP    \
    X("file:PATH", .h = HR_HREL_H_OWN, .keeps_dests = 1, .make = make_file,                      \
      .summary = "the relation in file PATH, lines \"SOURCE DEST VALUE\"") SEP                   \
    X("permutation", .h = HR_HREL_H_OWN, .keeps_dests = 1, .make = make_permutation,             \
      .summary = "dest = pi(g) / (n/p) for a random permutation pi: h = n/p, p | n") SEP         \
    X("random", .h = HR_HREL_H_NEEDED, .sizes_n = 1, .keeps_dests = 1, .make = make_random,      \
      .summary = "h random permutations without fixed points: n = p*h") SEP                      \
    X("skewed", .h = HR_HREL_H_NEEDED, .make = make_skewed,                                      \
      .summary = "v_d elements to processor d by seed 000 eq. (7) for the requested h") SEP      \
    X("transpose", .h = HR_HREL_H_OWN, .make = make_transpose,                                   \
      .summary = "n/p^2 elements from every processor to every processor: h = n/p, p^2 | n") SEP \
    X("uniform", .h = HR_HREL_H_NONE, .make = make_uniform,                                      \
      .summary = "every dest drawn uniformly from the seed")

#define DIST_ROW(NAME, ...) { .name = NAME, __VA_ARGS__ },
#define DIST_NAME(NAME, ...) NAME

static const hr_hrel_dist distributions[] = {
    HREL_DISTRIBUTIONS(DIST_ROW, )
    { .name = NULL }  /* sentinel */
};

const char hr__hrel_distributions[] = HREL_DISTRIBUTIONS(DIST_NAME, ", ");

const hr_hrel_dist *hr__hrel_dist_at(int i)
{
    int rows = (int)(sizeof distributions / sizeof distributions[0]) - 1;
    return i >= 0 && i < rows ? &distributions[i] : NULL;
}

const hr_hrel_dist *hr__hrel_dist_find(const char *distribution)
{
    const hr_hrel_dist *d;
    if (distribution == NULL)
        return NULL;
    for (int i = 0; (d = hr__hrel_dist_at(i)) != NULL; i++) {
        /* "file:PATH" stands for its prefix "file:" and any path after it. */
        const char *colon = strchr(d->name, ':');
        size_t len = colon != NULL ? (size_t)(colon - d->name) + 1 : strlen(d->name) + 1;
        if (strncmp(d->name, distribution, len) == 0)
            return d;
    }
    return NULL;
}

/* ---- make -------------------------------------------------------------------------------- */

int hr__hrel_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    /* distribution unset: uniform, the one that needs no further parameter. */
    hr_workload_spec spec = *s;
    if (spec.distribution == NULL)
        spec.distribution = "uniform";
    const hr_hrel_dist *d = hr__hrel_dist_find(spec.distribution);
    if (d == NULL)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "unknown hrelation distribution \"%s\" (known: %s)",
                             spec.distribution, hr__hrel_distributions);
    if (p < 1 || p > HREL_MAX_PROCS)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "procs = %d is outside 1 .. %d (destinations are kept in 16 bits)",
                             p, HREL_MAX_PROCS);
    /* A distribution that sizes n from p and h tells a wrong n (0 included) what it should be. */
    if (!d->sizes_n && spec.n == 0)
        return hr__work_fail(why, whylen, HR_EINVAL, "n must be at least 1");
    if (!d->sizes_n && spec.n > MAX_ELEMS)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "n = %" PRIu64 " exceeds 2^32: element ids are 32-bit data fields",
                             spec.n);
    return d->make(&spec, p, inst, why, whylen);
}

void hr__hrel_reset(void *inst)
{
    hr_hrel *r = inst;
    /* The outputs are hr_malloc memory that the machine owns and reclaims: only forget them. */
    for (int i = 0; i < r->p; i++) {
        r->out[i] = NULL;
        r->out_count[i] = 0;
    }
}

int hr__hrel_parts(void *inst, int pid, hr_part *out, int max)
{
    hr_hrel *r = inst;
    return hr__work_counted_parts(&r->out_count[pid], (void **)&r->out[pid], sizeof(hr_elem),
                                  out, max);
}

uint64_t hr__hrel_h(const void *inst)
{
    return ((const hr_hrel *)inst)->h;
}

uint64_t hr__hrel_min_bytes(const void *inst, uint64_t *moved)
{
    const hrel_inst *I = inst;
    if (moved != NULL)
        *moved = I->moved;
    return I->moved * sizeof(uint32_t);   /* the data field; dest is the receiver itself */
}

/* Per processor, besides its elements: the six p-slot arrays (in, in_count, out, out_count, want,
 * print), the input block's malloc overhead (an empty one's too), and the output block's: the
 * machine allocator's header (util/alloc.c) and malloc's. Measured by tests/check_workload.c. */
#define PER_PROC_BYTES (6 * 8 + 32 + 56)

/* Input and output, 8 bytes an element each; the verifier's bitmap of n bits; PER_PROC_BYTES a
 * processor; malloc's overhead on the instance and its six arrays. The distributions kept in a
 * table add dest_of, 2 bytes an element, and a file its VALUEs and the sorted (value, id) pairs,
 * 12 more. */
uint64_t hr__hrel_mem_bytes(const hr_workload_spec *s, int p)
{
    const char *dist = s->distribution != NULL ? s->distribution : "uniform";
    const hr_hrel_dist *d = hr__hrel_dist_find(dist);
    uint64_t n = s->n, procs = p > 0 ? (uint64_t)p : 1;
    uint64_t bytes = sizeof(hrel_inst) + 2 * n * sizeof(hr_elem) + (n + 63) / 64 * 8 + 7 * 16 +
                     procs * PER_PROC_BYTES;
    /* An unknown distribution is estimated as one that keeps its dests. */
    if (d == NULL || d->keeps_dests)
        bytes += n * sizeof(uint16_t);
    /* A row that reads a file (its name has a ':') keeps the VALUEs, the pairs and the path. */
    const char *colon = d != NULL ? strchr(d->name, ':') : NULL;
    if (colon != NULL)
        bytes += n * (sizeof(uint32_t) + sizeof(uint64_t)) +
                 strlen(dist + (colon - d->name) + 1) + 1;
    return bytes;
}

/* A delivered data field's id g: the data itself, or for a file the line order of its VALUE (by
 * binary search, O(log n)). 0 when no element has this data field. */
static int id_of(const hrel_inst *I, uint32_t data, uint64_t *g)
{
    uint64_t n = I->pub.n;
    if (I->by_value == NULL) {
        *g = data;
        return (uint64_t)data < n;
    }
    uint64_t lo = 0, hi = n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (I->by_value[mid] >> 32 < data)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == n || I->by_value[lo] >> 32 != data)
        return 0;
    *g = I->by_value[lo] & UINT32_MAX;
    return 1;
}

/* How messages name element g: by its data field, which is what the algorithm saw. */
static uint64_t shown(const hrel_inst *I, uint64_t g)
{
    return I->value != NULL ? I->value[g] : g;
}

/* Failure path of a duplicate: where did the first copy of this data field arrive? */
static int first_holder(const hr_hrel *r, uint32_t data, int upto)
{
    for (int i = 0; i <= upto; i++)
        for (size_t k = 0; k < r->out_count[i]; k++)
            if (r->out[i][k].data == data)
                return i;
    return upto;
}

_Static_assert(HREL_MAX_PROCS <= 65536, "name_culprit holds destinations in 16 bits");

/* Failure path of a wrong dest field: element g's true destination, by running the stream up to g
 * (O(g) for uniform; cheap enough once, never on the success path). */
static uint32_t true_dest(const hrel_inst *I, uint64_t g)
{
    if (I->dest_of != NULL)
        return I->dest_of[g];
    dest_stream ds;
    stream_start(&ds, I);
    uint32_t d = stream_next(&ds);
    for (uint64_t k = 0; k < g; k++)
        d = stream_next(&ds);
    return d;
}

/* Failure path of a wrong id set: regenerate every element's destination and name the first
 * foreign element, in processor order, or else the first element that never arrived. */
static int name_culprit(const hrel_inst *I, const uint64_t *seen, char *why, size_t whylen)
{
    const hr_hrel *r = &I->pub;
    uint16_t *made = NULL;
    const uint16_t *dest_of = I->dest_of;
    if (dest_of == NULL) {
        made = malloc((size_t)r->n * sizeof *made);
        if (made == NULL)
            return hr__work_fail(why, whylen, HR_EVERIFY,
                                 "the elements delivered are not the right ones "
                                 "(no memory to say which)");
        dest_stream ds;
        stream_start(&ds, I);
        for (uint64_t g = 0; g < r->n; g++)
            made[g] = (uint16_t)stream_next(&ds);
        dest_of = made;
    }
    int err = HR_OK;
    for (int i = 0; i < r->p && err == HR_OK; i++)
        for (size_t k = 0; k < r->out_count[i]; k++) {
            uint64_t g = 0;
            /* The first pass found every data field to be some element's. */
            int found = id_of(I, r->out[i][k].data, &g);
            HR_ASSERT(found);
            if (dest_of[g] != i) {
                err = hr__work_fail(why, whylen, HR_EVERIFY,
                                    "processor %d holds element %" PRIu64 " whose dest is %u", i,
                                    shown(I, g), (unsigned)dest_of[g]);
                break;
            }
        }
    /* No foreign element anywhere, so some processor lacks one of its own. */
    for (uint64_t g = 0; g < r->n && err == HR_OK; g++)
        if (!hr__bit_test(seen, g))
            err = hr__work_fail(why, whylen, HR_EVERIFY,
                                "element %" PRIu64 " (dest %u) never arrived", shown(I, g),
                                (unsigned)dest_of[g]);
    free(made);
    /* Unreachable while mix is a bijection and the sets differ; say so rather than pass. */
    if (err == HR_OK)
        err =
            hr__work_fail(why, whylen, HR_EVERIFY, "the elements delivered are not the right ones");
    return err;
}

/* Element e, delivered to processor i: its id into *g, checked to be an id, on its dest and not
 * seen before (then marked in seen); or HR_EVERIFY naming what is wrong. */
static int check_elem(const hrel_inst *I, int i, hr_elem e, uint64_t *seen, uint64_t *g,
                      char *why, size_t whylen)
{
    const hr_hrel *r = &I->pub;
    if (!id_of(I, e.data, g)) {
        if (I->path != NULL)
            return hr__work_fail(why, whylen, HR_EVERIFY,
                                 "processor %d holds element %" PRIu32
                                 ", a VALUE no line of %s has",
                                 i, e.data, I->path);
        return hr__work_fail(why, whylen, HR_EVERIFY,
                             "processor %d holds element %" PRIu32 ", but ids end at %" PRIu64, i,
                             e.data, r->n - 1);
    }
    if (e.dest != (uint32_t)i) {
        /* Misrouted (the dest field is the truth) or rewritten on the way? */
        uint32_t d = true_dest(I, *g);
        if (d == e.dest)
            return hr__work_fail(why, whylen, HR_EVERIFY,
                                 "processor %d holds element %" PRIu64 " whose dest is %" PRIu32,
                                 i, shown(I, *g), d);
        if (d == (uint32_t)i)
            return hr__work_fail(why, whylen, HR_EVERIFY,
                                 "processor %d holds element %" PRIu64
                                 " with its dest field changed to %" PRIu32,
                                 i, shown(I, *g), e.dest);
        return hr__work_fail(why, whylen, HR_EVERIFY,
                             "processor %d holds element %" PRIu64 " whose dest is %" PRIu32
                             " (its dest field says %" PRIu32 ")",
                             i, shown(I, *g), d, e.dest);
    }
    uint64_t bit = UINT64_C(1) << (*g & 63);
    if (seen[*g >> 6] & bit) {
        int j = first_holder(r, e.data, i);
        if (j == i)
            return hr__work_fail(why, whylen, HR_EVERIFY,
                                 "processor %d received element %" PRIu32 " twice", i, e.data);
        return hr__work_fail(why, whylen, HR_EVERIFY,
                             "element %" PRIu32 " arrived at processor %d and again at "
                             "processor %d",
                             e.data, j, i);
    }
    seen[*g >> 6] |= bit;
    return HR_OK;
}

/* One pass over the outputs, O(n + p), touching only them and a bitmap of n bits (2 MB at
 * n = 2^24; the pass takes about 30 ms there on this project's 2-core box):
 * - every element has an id < n, its dest field equals the processor holding it, and no id comes
 *   twice (the bitmap): so at most n elements are delivered, each once;
 * - processor d holds want[d] elements whose ids fingerprint to print[d]. Delivered sets that
 *   match every count and every fingerprint and still differ from the truth need misplaced
 *   elements whose mixed ids cancel in the sums: a single misplaced element, or two swapped ones,
 *   never do (mix is a bijection), and larger sets do with probability about 2^-64.
 * Only when something is wrong does the verifier regenerate the destinations to name the element.
 */
int hr__hrel_verify(const void *inst, char *why, size_t whylen)
{
    const hrel_inst *I = inst;
    const hr_hrel *r = &I->pub;
    uint64_t n = r->n;
    uint64_t *seen = hr__work_bitmap(n, why, whylen);
    if (seen == NULL)
        return HR_ENOMEM;
    uint64_t total = 0;
    int err = HR_OK, wrong_set = 0;
    for (int i = 0; i < r->p && err == HR_OK; i++) {
        size_t count = r->out_count[i];
        const hr_elem *o = r->out[i];
        if (count > 0 && o == NULL) {
            err = hr__work_fail(why, whylen, HR_EVERIFY,
                                "processor %d reports %zu elements but no output buffer", i, count);
            break;
        }
        /* No more than n - total can be right, and reading further could leave the buffer. */
        if ((uint64_t)count > n - total) {
            err = hr__work_fail(why, whylen, HR_EVERIFY,
                                "processor %d reports %zu elements, but n = %" PRIu64
                                " and the processors before it hold %" PRIu64,
                                i, count, n, total);
            break;
        }
        uint64_t print = 0;
        for (size_t k = 0; k < count && err == HR_OK; k++) {
            uint64_t g = 0;
            if ((err = check_elem(I, i, o[k], seen, &g, why, whylen)) == HR_OK)
                print += hr__work_mix(g);
        }
        if (err != HR_OK)
            break;
        if (count != I->want[i] || print != I->print[i])
            wrong_set = 1;
        total += count;
    }
    if (err == HR_OK && wrong_set)
        err = name_culprit(I, seen, why, whylen);
    free(seen);
    return err;
}
