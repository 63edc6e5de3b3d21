/* pattern.c: the "pattern" workload (pattern.h). */
#include "work/pattern.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

#include "util/rng.h"
#include "work/common.h"
#include "work/mtx.h"

/* The keys, in the order make reads them (K_...). */
enum { K_PATTERN, K_DENSITY, K_BYTES, K_D, K_UNIT, K_RANGE };

const hr_wkey_spec hr__pattern_keys[] = {
    { .name = "pattern", .summary = "the COM matrix: density (a percentage of complete exchange), "
      "table6 (seed 001's pattern P, p = 8), random_d (seed 002's test set 1), set2 (its test "
      "set 2, p = 32) or file:PATH (a Matrix Market matrix's y = Ax)",
      .type = HR_WKEY_WORD, .def = "density",
      .choices = "density, table6, random_d, set2, file:PATH" },
    { .name = "density", .summary = "pattern density: the percentage of the p (p - 1) pairs that "
      "have a message", .type = HR_WKEY_REAL, .def = "25", .min = 0, .max = 100,
      .when = "pattern=density" },
    { .name = "bytes", .summary = "patterns density and table6: bytes of each message",
      .type = HR_WKEY_INT, .def = "256", .min = 1, .max = 1 << 24, .column = "msg_bytes",
      .when = "pattern=density|table6" },
    { .name = "d", .summary = "pattern random_d: messages each processor sends and receives",
      .type = HR_WKEY_INT, .def = "8", .min = 1, .max = 65535, .when = "pattern=random_d" },
    { .name = "msg_unit", .summary = "patterns random_d, set2 and file:PATH: the bytes of a unit "
      "of message length (file: of an x entry)", .type = HR_WKEY_INT, .def = "8", .min = 1,
      .max = 1 << 20, .when = "pattern=random_d|set2|file:" },
    { .name = "range", .summary = "pattern random_d: message lengths are 1 .. range units, "
      "uniform", .type = HR_WKEY_INT, .def = "p", .min = 1, .max = 1 << 20,
      .when = "pattern=random_d" },
    { .name = NULL },
};

/* Seed 001 Table 6, the pattern P: row i sends to the columns with a 1. */
static const char table6[8][9] = {
    "01010110", "10101111", "01010000", "10101110",
    "01110101", "01001010", "10110101", "11001010",
};

#define STREAM UINT64_C(0x7061747465726e00)   /* "pattern": the density generator's stream */

typedef struct pattern_inst {
    hr_pattern pub;            /* first: the pointer make returns */
    uint64_t   seed;
    uint64_t  *com;            /* [p*p] */
    size_t    *soff, *roff;    /* [p*p] */
    size_t    *in_bytes;       /* [p] */
    uint8_t   *data;           /* every message, by sender */
    uint64_t   total;          /* bytes of every message */
} pattern_inst;

void hr__pattern_destroy(void *inst)
{
    pattern_inst *I = inst;
    if (I == NULL)
        return;
    free(I->com);
    free(I->soff);
    free(I->roff);
    free(I->in_bytes);
    free(I->data);
    free(I->pub.in);
    free(I->pub.out);
    free(I->pub.done);
    free(I);
}

/* density: exactly round(d p (p-1) / 100) pairs, a partial Fisher-Yates shuffle of the pairs. */
static int make_density(uint64_t *com, int p, double density, uint64_t bytes, uint64_t seed)
{
    uint64_t pairs = (uint64_t)p * (uint64_t)(p - 1);
    uint64_t want = (uint64_t)llround(density / 100.0 * (double)pairs);
    uint32_t *order = malloc((pairs ? pairs : 1) * sizeof *order);
    if (order == NULL)
        return HR_ENOMEM;
    for (uint64_t k = 0, at = 0; k < (uint64_t)p * (uint64_t)p; k++)
        if (k / (uint64_t)p != k % (uint64_t)p)
            order[at++] = (uint32_t)k;
    hr_rng r;
    hr__rng_seed(&r, seed, STREAM);
    for (uint64_t k = 0; k < want; k++) {
        uint64_t pick = k + hr__rng_below(&r, pairs - k);
        uint32_t t = order[k];
        order[k] = order[pick];
        order[pick] = t;
        com[order[k]] = bytes;
    }
    free(order);
    return HR_OK;
}

/* random_d, seed 002 Appendix D: a band of d diagonals (processor j sends to j + i mod n for
 * i = 0 .. d-1), then ManyTimes swaps of two random rows or two random columns (a coin picks
 * which; ManyTimes = 4 n, ours: the paper does not say), then each message a length of 1 ..
 * range units, uniform. Swaps keep every row and column at d entries. An entry on the diagonal
 * would be a message to oneself (the band's i = 0 diagonal is one): hremu has none, so each is
 * moved off by one more swap, of column i with a column k such that entries (i, k) and (k, i) are
 * both empty (then neither diagonal place holds one afterwards), k tried from a random start.
 * Such a k exists when the band is sparse; for d > (p - 1) / 2 the generator makes the band of
 * p - 1 - d diagonals this way and takes its complement off the diagonal. So every processor
 * sends and receives exactly d messages (d < p). Appendix D's lengths are
 * "random() mod Msg_Range", which can be 0; a message of length 0 would be no message, so the
 * lengths here are 1 .. range (seed 002 sec. 5.2: "the min message size at each level is
 * Msg_unit bytes, and the max size is 32 x Msg_unit bytes" at n = 32). */
static int make_random_d(uint64_t *com, int p, uint64_t d, uint64_t unit, uint64_t range,
                         uint64_t seed, char *why, size_t whylen)
{
    if (d >= (uint64_t)p)
        return hr__work_fail(why, whylen, HR_EINVAL, "pattern random_d: d = %" PRIu64 " messages "
                             "a processor needs d < p = %d (no message to oneself)", d, p);
    uint8_t *band = calloc((size_t)p * (size_t)p, 1);
    int *row = malloc((size_t)p * sizeof *row), *col = malloc((size_t)p * sizeof *col);
    if (band == NULL || row == NULL || col == NULL) {
        free(band);
        free(row);
        free(col);
        return hr__work_fail(why, whylen, HR_ENOMEM, "out of memory for the pattern");
    }
    int complement = 2 * d > (uint64_t)(p - 1);
    uint64_t diagonals = complement ? (uint64_t)(p - 1) - d : d;
    for (int j = 0; j < p; j++)
        for (uint64_t i = 0; i < diagonals; i++)
            band[(size_t)j * p + (size_t)((j + i) % (uint64_t)p)] = 1;
    /* Swapping rows (or columns) is composing a permutation of them: keep the two
     * permutations and read the band through them. */
    for (int k = 0; k < p; k++)
        row[k] = col[k] = k;
    hr_rng r;
    hr__rng_seed(&r, seed, STREAM + 1);
    for (int t = 0; t < 4 * p; t++) {
        int *perm = hr__rng_below(&r, 2) ? row : col;
        int a = (int)hr__rng_below(&r, (uint64_t)p), b = (int)hr__rng_below(&r, (uint64_t)p);
        int x = perm[a];
        perm[a] = perm[b];
        perm[b] = x;
    }
#define AT(i, j) band[(size_t)row[i] * p + (size_t)col[j]]
    for (int i = 0; i < p; i++) {
        if (!AT(i, i))
            continue;
        int start = (int)hr__rng_below(&r, (uint64_t)p);
        for (int t = 0; t < p; t++) {
            int k = (start + t) % p;
            if (k != i && !AT(i, k) && !AT(k, i)) {
                int x = col[i];
                col[i] = col[k];
                col[k] = x;
                break;
            }
        }
    }
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++) {
            uint64_t len = 1 + hr__rng_below(&r, range);   /* drawn for every entry: stable */
            com[(size_t)i * p + j] = i != j && (AT(i, j) != 0) != complement ? len * unit : 0;
        }
#undef AT
    free(band);
    free(row);
    free(col);
    return HR_OK;
}

/* set2, seed 002 sec. 5.2, test set 2: the 32 senders in five sets; set k has dist[k] senders,
 * each with dense[k] messages of length[k] units, to receivers chosen uniformly among the other
 * processors (distinct; the paper does not say how they are chosen), so every sender sends 16
 * units: "a few processors have a small amount of large messages, while other processors have a
 * bulk of small messages". The senders of each set are the next dist[k] processors in order. */
static int make_set2(uint64_t *com, int p, uint64_t unit, uint64_t seed, char *why,
                     size_t whylen)
{
    static const int dist[5] = { 1, 2, 4, 8, 17 }, dense[5] = { 1, 2, 4, 8, 16 },
                     length[5] = { 16, 8, 4, 2, 1 };
    if (p != 32)
        return hr__work_fail(why, whylen, HR_EINVAL, "pattern set2 is seed 002's test set 2 of "
                             "32 processors (dist = 1, 2, 4, 8, 17), not %d", p);
    hr_rng r;
    hr__rng_seed(&r, seed, STREAM + 2);
    int sender = 0;
    for (int k = 0; k < 5; k++)
        for (int c = 0; c < dist[k]; c++, sender++) {
            int others[31], n = 0;
            for (int j = 0; j < p; j++)
                if (j != sender)
                    others[n++] = j;
            for (int m = 0; m < dense[k]; m++) {     /* a partial shuffle: distinct receivers */
                int pick = m + (int)hr__rng_below(&r, (uint64_t)(n - m));
                int t = others[m];
                others[m] = others[pick];
                others[pick] = t;
                com[(size_t)sender * p + others[m]] = (uint64_t)length[k] * unit;
            }
        }
    return HR_OK;
}

static int make_com(const hr_workload_spec *s, int p, uint64_t *com, char *why, size_t whylen)
{
    const char *gen = s->keys ? s->keys[K_PATTERN].word : "density";
    double density = s->keys ? s->keys[K_DENSITY].num : 25;
    uint64_t bytes = s->keys ? (uint64_t)s->keys[K_BYTES].num : 256;
    uint64_t unit = s->keys ? (uint64_t)s->keys[K_UNIT].num : 8;
    if (strcmp(gen, "random_d") == 0)
        return make_random_d(com, p, s->keys ? (uint64_t)s->keys[K_D].num : 8, unit,
                             s->keys ? (uint64_t)s->keys[K_RANGE].num : (uint64_t)p, s->seed,
                             why, whylen);
    if (strcmp(gen, "set2") == 0)
        return make_set2(com, p, unit, s->seed, why, whylen);
    if (strcmp(gen, "table6") == 0) {
        if (p != 8)
            return hr__work_fail(why, whylen, HR_EINVAL, "pattern table6 is seed 001's pattern P "
                                 "of 8 processors, not %d", p);
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++)
                com[i * 8 + j] = table6[i][j] == '1' ? bytes : 0;
        return HR_OK;
    }
    if (strncmp(gen, "file:", 5) == 0) {
        hr_mtx m;
        int err = hr__mtx_read(gen + 5, &m, why, whylen);
        if (err == HR_OK) {
            err = hr__mtx_spmv_pattern(&m, p, com, why, whylen);
            hr__mtx_free(&m);
        }
        /* mtx.c counts 8 bytes an x entry (a double): msg_unit bytes an entry instead. */
        for (size_t k = 0; err == HR_OK && k < (size_t)p * (size_t)p; k++)
            com[k] = com[k] / 8 * unit;
        return err;
    }
    if (make_density(com, p, density, bytes, s->seed) != HR_OK)
        return hr__work_fail(why, whylen, HR_ENOMEM, "out of memory for the pattern");
    return HR_OK;
}

int hr__pattern_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    *inst = NULL;
    size_t pp = (size_t)p * (size_t)p;
    pattern_inst *I = calloc(1, sizeof *I);
    if (I != NULL) {
        I->com = calloc(pp, sizeof *I->com);
        I->soff = calloc(pp, sizeof *I->soff);
        I->roff = calloc(pp, sizeof *I->roff);
        I->in_bytes = calloc((size_t)p, sizeof *I->in_bytes);
        I->pub.in = calloc((size_t)p, sizeof *I->pub.in);
        I->pub.out = calloc((size_t)p, sizeof *I->pub.out);
        I->pub.done = calloc((size_t)p, 1);
    }
    if (I == NULL || !I->com || !I->soff || !I->roff || !I->in_bytes || !I->pub.in ||
        !I->pub.out || !I->pub.done) {
        hr__pattern_destroy(I);
        return hr__work_fail(why, whylen, HR_ENOMEM, "out of memory for a pattern of p = %d", p);
    }
    int err = make_com(s, p, I->com, why, whylen);
    if (err != HR_OK) {
        hr__pattern_destroy(I);
        return err;
    }
    /* Offsets: by destination in a sender's input, by source in a receiver's output. */
    uint64_t total = 0;
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++) {
            uint64_t b = i == j ? 0 : I->com[(size_t)i * p + j];
            I->com[(size_t)i * p + j] = b;
            I->soff[(size_t)i * p + j] = (size_t)total;
            total += b;
        }
    for (int j = 0; j < p; j++)
        for (int i = 0; i < p; i++) {
            I->roff[(size_t)i * p + j] = I->in_bytes[j];
            I->in_bytes[j] += (size_t)I->com[(size_t)i * p + j];
        }
    I->data = malloc(total ? (size_t)total : 1);
    if (I->data == NULL) {
        hr__pattern_destroy(I);
        return hr__work_fail(why, whylen, HR_ENOMEM, "out of memory for %" PRIu64 " bytes of "
                             "messages", total);
    }
    I->total = total;
    I->seed = s->seed;
    for (int i = 0; i < p; i++) {
        I->pub.in[i] = I->data + I->soff[(size_t)i * p];
        for (int j = 0; j < p; j++)
            hr__work_fill(s->seed, (uint64_t)i * (uint64_t)p + (uint64_t)j,
                          (size_t)I->com[(size_t)i * p + j], I->data + I->soff[(size_t)i * p + j]);
    }
    /* in[i] + soff[i*p + j] must address message i -> j: make soff relative to in[i]. */
    for (int i = 0; i < p; i++) {
        size_t base = I->soff[(size_t)i * p];
        for (int j = 0; j < p; j++)
            I->soff[(size_t)i * p + j] -= base;
    }
    I->pub.p = p;
    I->pub.com = I->com;
    I->pub.soff = I->soff;
    I->pub.roff = I->roff;
    I->pub.in_bytes = I->in_bytes;
    *inst = I;
    return HR_OK;
}

void hr__pattern_reset(void *inst)
{
    pattern_inst *I = inst;
    memset(I->pub.out, 0, (size_t)I->pub.p * sizeof *I->pub.out);
    memset(I->pub.done, 0, (size_t)I->pub.p);
}

int hr__pattern_parts(void *inst, int pid, hr_part *out, int max)
{
    hr_pattern *x = &((pattern_inst *)inst)->pub;
    if (max < 2)
        return 0;
    out[0] = (hr_part){ &x->done[pid], 1, 0 };
    out[1] = (hr_part){ (void *)&x->out[pid], x->out[pid] != NULL ? x->in_bytes[pid] : 0, 1 };
    return 2;
}

int hr__pattern_verify(const void *inst, char *why, size_t whylen)
{
    const pattern_inst *I = inst;
    const hr_pattern *x = &I->pub;
    int p = x->p, err = HR_OK;
    uint64_t most = 0;
    for (size_t k = 0; k < (size_t)p * (size_t)p; k++)
        most = I->com[k] > most ? I->com[k] : most;
    uint8_t *want = malloc(most ? (size_t)most : 1);
    if (want == NULL)
        return hr__work_fail(why, whylen, HR_ENOMEM, "out of memory to verify");
    for (int j = 0; j < p && err == HR_OK; j++) {
        if (!x->done[j] || (I->in_bytes[j] > 0 && x->out[j] == NULL)) {
            err = hr__work_fail(why, whylen, HR_EVERIFY, "processor %d set no output", j);
            break;
        }
        for (int i = 0; i < p && err == HR_OK; i++) {
            size_t b = (size_t)I->com[(size_t)i * p + j];
            const uint8_t *got = x->out[j] + I->roff[(size_t)i * p + j];
            hr__work_fill(I->seed, (uint64_t)i * (uint64_t)p + (uint64_t)j, b, want);
            if (b == 0 || memcmp(got, want, b) == 0)
                continue;
            size_t k = 0;
            while (got[k] == want[k])
                k++;
            err = hr__work_fail(why, whylen, HR_EVERIFY, "processor %d: the message from processor "
                                "%d is wrong at byte %zu of %zu: %u, want %u", j, i, k, b, got[k],
                                want[k]);
        }
    }
    free(want);
    return err;
}

uint64_t hr__pattern_min_bytes(const void *inst, uint64_t *moved)
{
    const pattern_inst *I = inst;
    uint64_t n = 0;
    for (size_t k = 0; k < (size_t)I->pub.p * (size_t)I->pub.p; k++)
        n += I->com[k] > 0;
    if (moved != NULL)
        *moved = n;
    return I->total;
}

uint64_t hr__pattern_h(const void *inst)
{
    const pattern_inst *I = inst;
    uint64_t h = 0;
    for (int j = 0; j < I->pub.p; j++)
        h = I->in_bytes[j] > h ? I->in_bytes[j] : h;
    return h;
}

/* A file's pattern: hr__mtx_read's arrays (8 bytes an entry) and hr__mtx_spmv_pattern's sort (8
 * more, and a count per 16-bit digit or processor) while make runs, against the messages once
 * made (each entry references at most one x entry a receiver needs), from the size line's count.
 * A header that cannot be read leaves make to say why: then a dense row of x a pair. */
static uint64_t file_mem_bytes(const char *path, int p, uint64_t unit)
{
    uint64_t pp = (uint64_t)p * (uint64_t)p, tables = 32 * pp + 64 * (uint64_t)p;
    hr_mtx m;
    if (hr__mtx_read_size(path, &m, NULL, 0) != HR_OK)
        return 2 * pp * unit + tables;
    uint64_t slots = (uint64_t)p > 65536 ? (uint64_t)p : 65536;
    uint64_t reading = 16 * m.nnz + 8 * (slots + 1), msgs = m.nnz * unit;
    return (reading > 2 * msgs ? reading : 2 * msgs) + tables;
}

uint64_t hr__pattern_mem_bytes(const hr_workload_spec *s, int p)
{
    uint64_t pp = (uint64_t)p * (uint64_t)p, msgs;   /* bytes of messages, the largest case */
    const char *gen = s->keys ? s->keys[K_PATTERN].word : "density";
    uint64_t unit = s->keys ? (uint64_t)s->keys[K_UNIT].num : 8;
    if (strcmp(gen, "random_d") == 0)
        msgs = (uint64_t)p * (uint64_t)s->keys[K_D].num * (uint64_t)s->keys[K_RANGE].num * unit;
    else if (strcmp(gen, "set2") == 0)
        msgs = 32 * 16 * unit;
    else if (strncmp(gen, "file:", 5) == 0)
        return file_mem_bytes(gen + 5, p, unit);
    else
        msgs = (uint64_t)((s->keys ? s->keys[K_DENSITY].num : 25) / 100.0 * (double)pp) *
               (s->keys ? (uint64_t)s->keys[K_BYTES].num : 256);
    return 2 * msgs + 32 * pp + 64 * (uint64_t)p;
}
