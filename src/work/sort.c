/* sort.c: the "sort" workload of seed 000 section 5: the [R], [S], [C] and [N] inputs of section
 * 5.1, laid out in blocks, and an O(n) verifier of a stable global sort (a bitmap over ids and a
 * fingerprint of the (id, key) pairs). */
#include "work/sort.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>
#include <hremu/machine.h>

#include "util/rng.h"
#include "work/common.h"

/* An instance. pub comes first, so the pointer handed out as the instance is both a sort_inst *
 * and an hr_sort *. The truth the verifier checks against is kept apart from the inputs (which an
 * algorithm could rewrite, against the contract) and is one word: print, the sum (mod 2^64) of
 * mix(id, key) over the input. The keys themselves are not stored (4 bytes per key, 64 MB at
 * n = 2^24); on a failure they are regenerated from (dataset, seed) to name the culprit. */
typedef struct sort_inst {
    hr_sort   pub;
    char      dataset;   /* 'R', 'S', 'C' or 'N' */
    uint64_t  seed;
    uint64_t  print;     /* fingerprint of the input's (id, key) pairs */
} sort_inst;

/* Ids are 32-bit, so an instance holds at most 2^32 keys; [C]'s keys 0 .. n-1 then fit too. */
#define MAX_KEYS (UINT64_C(1) << 32)

/* The workload's stream of util/rng for [R] and [S]: a stream number no processor id takes (and
 * not the hrelation workload's UINT64_MAX), so the input never shares draws with hr_rand. */
#define SORT_STREAM (UINT64_MAX - 1)

/* NAS IS (seed 000 section 5.1, NPB report RNR-94-007): x_{k+1} = 5^13 x_k mod 2^46. */
#define NAS_A    UINT64_C(1220703125)          /* 5^13 */
#define NAS_X0   UINT64_C(314159265)
#define NAS_MASK ((UINT64_C(1) << 46) - 1)

/* ---- the datasets ------------------------------------------------------------------------ */

/* The keys of g = 0, 1, 2, ... in order: the one definition both make and the verifier's failure
 * path use, so the two cannot disagree. */
typedef struct key_stream {
    char     dataset;
    int      p;
    uint64_t n;
    hr_rng   rng;     /* R, S */
    uint64_t x;       /* N: the last value of the NAS recurrence */
    int      proc;    /* C: the processor and local index of the next key */
    uint64_t local;
} key_stream;

static void stream_start(key_stream *ks, char dataset, int p, uint64_t n, uint64_t seed)
{
    *ks = (key_stream){ .dataset = dataset, .p = p, .n = n, .x = NAS_X0 };
    if (dataset == 'R' || dataset == 'S')
        hr__rng_seed(&ks->rng, seed, SORT_STREAM);
}

/* A key of entropy 31: the top 31 bits of one draw (xoshiro256**'s high bits are its best). */
static uint32_t key31(hr_rng *r)
{
    return (uint32_t)(hr__rng_next(r) >> 33);
}

/* x <- 5^13 x mod 2^46. 2^46 divides 2^64, so the product wrapping mod 2^64 loses nothing that
 * the mask keeps: the result is exact, as NAS's randlc computes it in doubles. */
static uint64_t nas_next(uint64_t x)
{
    return (NAS_A * x) & NAS_MASK;
}

static uint32_t stream_next(key_stream *ks)
{
    switch (ks->dataset) {
    case 'R':
        return key31(&ks->rng);
    case 'S': {
        /* Footnote 6: "the bitwise-AND boolean operation applied to five successive keys of
         * entropy 31". Each of bits 0 .. 30 is set with probability 1/32, so the entropy is
         * 31 H(1/32) = 6.22 bits, the paper's 6.2; with 32-bit keys it would be 6.42. */
        uint32_t k = key31(&ks->rng);
        for (int j = 1; j < 5; j++)
            k &= key31(&ks->rng);
        return k;
    }
    case 'N': {
        /* NPB IS's create_seq: key = floor(MAX_KEY/4 * (r1 + r2 + r3 + r4)) with MAX_KEY = 2^19
         * and r_j = x_j / 2^46, the next four values of the recurrence (randlc advances x before
         * it returns, so the first key uses x1 .. x4, not x0). Every r_j and their sum are exact
         * in a double (at most 48 significant bits) and 2^17 is a power of two, so NAS's double
         * result is exactly floor((x1 + x2 + x3 + x4) / 2^29), computed here in integers. The
         * sum is below 2^48, so keys lie in [0, 2^19): "the average of four consecutive uniformly
         * distributed pseudo-random numbers" scaled to the key range. */
        uint64_t sum = 0;
        for (int j = 0; j < 4; j++) {
            ks->x = nas_next(ks->x);
            sum += ks->x;
        }
        return (uint32_t)(sum >> 29);
    }
    default: {
        /* C: "keys are consecutive in value (from 0 to n-1) and are placed cyclically across the
         * processors". Reading: value v goes to processor v mod p, local index v / p, so
         * processor i holds i, i+p, i+2p, ... in that order; it holds n/p values, one more when
         * i < n mod p, exactly the block layout's count. The input is thus sorted within each
         * processor, and the sorted output moves almost every key. */
        uint32_t k = (uint32_t)(ks->local * (uint64_t)ks->p + (uint64_t)ks->proc);
        uint64_t count = ks->n / (uint64_t)ks->p + ((uint64_t)ks->proc < ks->n % (uint64_t)ks->p);
        if (++ks->local == count) {
            ks->local = 0;
            ks->proc++;
        }
        return k;
    }
    }
}

/* ---- instances --------------------------------------------------------------------------- */

/* Keys processor i holds, in the input and in the output: n/p, one more for the first n mod p. */
static uint64_t block_count(uint64_t n, int p, int i)
{
    return n / (uint64_t)p + ((uint64_t)i < n % (uint64_t)p);
}

/* The global position of processor i's first key, in the input and in the output. */
static uint64_t block_start(uint64_t n, int p, int i)
{
    uint64_t rem = n % (uint64_t)p, lo = (uint64_t)i < rem ? (uint64_t)i : rem;
    return (uint64_t)i * (n / (uint64_t)p) + lo;
}

void hr__sort_destroy(void *inst)
{
    sort_inst *I = inst;
    if (I == NULL)
        return;
    if (I->pub.in != NULL)
        for (int i = 0; i < I->pub.p; i++)
            free(I->pub.in[i]);
    free(I->pub.in);
    free(I->pub.in_count);
    free(I->pub.out);
    free(I->pub.out_count);
    free(I);
}

/* Allocate an instance with the block layout's counts; the keys are filled in by fill. */
static int alloc_inst(uint64_t n, int p, sort_inst **out)
{
    sort_inst *I = calloc(1, sizeof *I);
    if (I == NULL)
        return HR_ENOMEM;
    I->pub.p = p;
    I->pub.n = n;
    I->pub.in = calloc((size_t)p, sizeof *I->pub.in);
    I->pub.in_count = calloc((size_t)p, sizeof *I->pub.in_count);
    I->pub.out = calloc((size_t)p, sizeof *I->pub.out);
    I->pub.out_count = calloc((size_t)p, sizeof *I->pub.out_count);
    if (I->pub.in == NULL || I->pub.in_count == NULL || I->pub.out == NULL ||
        I->pub.out_count == NULL)
        goto fail;
    for (int i = 0; i < p; i++) {
        size_t count = (size_t)block_count(n, p, i);
        I->pub.in_count[i] = count;
        /* Never malloc(0): a processor with no input still gets a valid pointer. */
        I->pub.in[i] = malloc((count > 0 ? count : 1) * sizeof(hr_key));
        if (I->pub.in[i] == NULL)
            goto fail;
    }
    *out = I;
    return HR_OK;
fail:
    hr__sort_destroy(I);
    return HR_ENOMEM;
}

/* Lay out the global sequence in blocks: element g is the next one of the current processor. */
static void fill(sort_inst *I)
{
    key_stream ks;
    stream_start(&ks, I->dataset, I->pub.p, I->pub.n, I->seed);
    uint32_t g = 0;
    for (int i = 0; i < I->pub.p; i++)
        for (size_t k = 0; k < I->pub.in_count[i]; k++, g++) {
            uint32_t key = stream_next(&ks);
            I->pub.in[i][k] = (hr_key){ .key = key, .id = g };
            I->print += hr__work_mix((uint64_t)g << 32 | key);
        }
}

int hr__sort_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    const char *d = s->dataset;
    uint64_t n = s->n;
    if (d == NULL)
        return hr__work_fail(why, whylen, HR_EINVAL, "kind sort needs a dataset (C, N, R, S)");
    if (strlen(d) != 1 || strchr("CNRS", d[0]) == NULL)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "unknown sort dataset \"%s\" (known: C, N, R, S)", d);
    if (s->distribution != NULL)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "kind sort takes a dataset, not a distribution "
                             "(got distribution \"%s\")",
                             s->distribution);
    if (s->h != 0)
        return hr__work_fail(why, whylen, HR_EINVAL, "kind sort takes no h (got h = %" PRIu64 ")",
                             s->h);
    if (p < 1 || p > HR_MAX_PROCS)
        return hr__work_fail(why, whylen, HR_EINVAL, "procs = %d is outside 1 .. %d", p,
                             HR_MAX_PROCS);
    if (n == 0)
        return hr__work_fail(why, whylen, HR_EINVAL, "n must be at least 1");
    if (n > MAX_KEYS)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "n = %" PRIu64 " exceeds 2^32: element ids are 32-bit fields", n);

    sort_inst *I = NULL;
    int err = alloc_inst(n, p, &I);
    if (err != HR_OK)
        return err;
    I->dataset = d[0];
    I->seed = s->seed;
    fill(I);
    *inst = &I->pub;
    return HR_OK;
}

void hr__sort_reset(void *inst)
{
    hr_sort *r = inst;
    /* The outputs are hr_malloc memory that the machine owns and reclaims: only forget them. */
    for (int i = 0; i < r->p; i++) {
        r->out[i] = NULL;
        r->out_count[i] = 0;
    }
}

int hr__sort_parts(void *inst, int pid, hr_part *out, int max)
{
    hr_sort *r = inst;
    return hr__work_counted_parts(&r->out_count[pid], (void **)&r->out[pid], sizeof(hr_key),
                                  out, max);
}

uint64_t hr__sort_h(const void *inst)
{
    const hr_sort *r = inst;
    return (r->n + (uint64_t)r->p - 1) / (uint64_t)r->p;
}

/* Input and output, 8 bytes a key each; the verifier's bitmap of n bits; per processor the four
 * p-slot arrays of the hr_sort, the input block's malloc overhead and the output block's (the
 * machine allocator's header, util/alloc.c, and malloc's); malloc's overhead on the instance and
 * the four arrays. The truth is one word in sort_inst. Measured by tests/check_sortwork.c. */
uint64_t hr__sort_mem_bytes(const hr_workload_spec *s, int p)
{
    uint64_t n = s->n, procs = p > 0 ? (uint64_t)p : 1;
    return sizeof(sort_inst) + 2 * n * sizeof(hr_key) + (n + 63) / 64 * 8 + 5 * 16 +
           procs * (4 * 8 + 32 + 56);
}

/* A key whose id (its input position) lies outside processor i's block sits in out[i] only
 * because it crossed; the layout was checked by verify, so the blocks are the input's. O(n), two
 * comparisons a key. */
uint64_t hr__sort_min_bytes(const void *inst, uint64_t *moved)
{
    const hr_sort *r = inst;
    uint64_t count = 0;
    for (int i = 0; i < r->p; i++) {
        uint64_t lo = block_start(r->n, r->p, i), hi = lo + block_count(r->n, r->p, i);
        const hr_key *o = r->out[i];
        for (size_t k = 0; k < r->out_count[i]; k++)
            count += o[k].id < lo || o[k].id >= hi;
    }
    if (moved != NULL)
        *moved = count;
    return count * sizeof(uint32_t);
}

/* ---- the verifier ------------------------------------------------------------------------ */

/* Failure path of a duplicate: where did the first copy of id arrive? */
static int first_holder(const hr_sort *r, uint32_t id, int upto)
{
    for (int i = 0; i <= upto; i++)
        for (size_t k = 0; k < r->out_count[i]; k++)
            if (r->out[i][k].id == id)
                return i;
    return upto;
}

/* Failure path of a fingerprint mismatch with every id present once: regenerate the input's keys
 * and name the first output element, in output order, whose key is not its input key. */
static int name_changed_key(const sort_inst *I, char *why, size_t whylen)
{
    const hr_sort *r = &I->pub;
    uint32_t *key_of = malloc((size_t)r->n * sizeof *key_of);
    if (key_of == NULL)
        return hr__work_fail(why, whylen, HR_EVERIFY,
                             "the output's keys are not the input's "
                             "(no memory to say which)");
    key_stream ks;
    stream_start(&ks, I->dataset, r->p, r->n, I->seed);
    for (uint64_t g = 0; g < r->n; g++)
        key_of[g] = stream_next(&ks);
    int err = HR_OK;
    for (int i = 0; i < r->p && err == HR_OK; i++)
        for (size_t k = 0; k < r->out_count[i]; k++) {
            hr_key e = r->out[i][k];
            if (e.key != key_of[e.id]) {
                err = hr__work_fail(why, whylen, HR_EVERIFY,
                                    "processor %d index %zu holds id %" PRIu32 " with key %" PRIu32
                                    ", but its input key is %" PRIu32,
                                    i, k, e.id, e.key, key_of[e.id]);
                break;
            }
        }
    free(key_of);
    /* Unreachable while mix is a bijection and the pairs differ; say so rather than pass. */
    if (err == HR_OK)
        err = hr__work_fail(why, whylen, HR_EVERIFY, "the output's keys are not the input's");
    return err;
}

/* Every processor's count against the block layout, O(p), so that the pass reads exactly n
 * elements and never beyond a block the contract promises. */
static int check_counts(const hr_sort *r, char *why, size_t whylen)
{
    for (int i = 0; i < r->p; i++) {
        uint64_t want = block_count(r->n, r->p, i);
        if ((uint64_t)r->out_count[i] != want)
            return hr__work_fail(why, whylen, HR_EVERIFY,
                                 "processor %d ends with %zu keys, but the block layout gives it "
                                 "%" PRIu64 " (n = %" PRIu64 ", p = %d)",
                                 i, r->out_count[i], want, r->n, r->p);
    }
    return HR_OK;
}

/* Output element k of processor i: an id below n, not seen before (then marked in seen), and
 * not below prev, the element before it in the global order (held by prev_proc; none when
 * prev_proc < 0): its key not smaller, an equal key's id not smaller (stable). */
static int check_key(const hr_sort *r, int i, size_t k, uint64_t *seen, int prev_proc,
                     hr_key prev, char *why, size_t whylen)
{
    hr_key e = r->out[i][k];
    if (e.id >= r->n)
        return hr__work_fail(why, whylen, HR_EVERIFY,
                             "processor %d index %zu holds id %" PRIu32 ", but ids end at %" PRIu64,
                             i, k, e.id, r->n - 1);
    uint64_t bit = UINT64_C(1) << (e.id & 63);
    if (seen[e.id >> 6] & bit) {
        int j = first_holder(r, e.id, i);
        if (j == i)
            return hr__work_fail(why, whylen, HR_EVERIFY, "processor %d holds id %" PRIu32 " twice",
                                 i, e.id);
        return hr__work_fail(why, whylen, HR_EVERIFY,
                             "id %" PRIu32 " is held by processor %d and again by processor %d",
                             e.id, j, i);
    }
    seen[e.id >> 6] |= bit;
    if (prev_proc >= 0 && e.key < prev.key) {
        if (k > 0)
            return hr__work_fail(why, whylen, HR_EVERIFY,
                                 "processor %d is not sorted: key %" PRIu32
                                 " at index %zu follows key %" PRIu32,
                                 i, e.key, k, prev.key);
        return hr__work_fail(why, whylen, HR_EVERIFY,
                             "blocks out of order: processor %d ends with key %" PRIu32
                             " but processor %d starts with key %" PRIu32,
                             prev_proc, prev.key, i, e.key);
    }
    if (prev_proc >= 0 && e.key == prev.key && e.id < prev.id)
        return hr__work_fail(why, whylen, HR_EVERIFY,
                             "not stable: processor %d index %zu holds id %" PRIu32
                             " after id %" PRIu32 ", both with key %" PRIu32,
                             i, k, e.id, prev.id, e.key);
    return HR_OK;
}

/* First every processor's count against the block layout, O(p), so that the pass reads exactly
 * n elements and never beyond a block the contract promises; then one pass over the outputs in
 * global order (processor 0's block first), O(n + p), touching only them and a bitmap of n bits:
 * - every id is < n and comes once (the bitmap); with n elements in all, every id is present;
 * - each element's (key, id) is not below the previous element's in the global order, skipping
 *   empty blocks: a key below the previous one is a descent inside a block or blocks out of
 *   order; an equal key with a smaller id is an unstable pair (an equal id is a duplicate, caught
 *   first by the bitmap);
 * - n elements in all, so every id is present, and their (id, key) pairs fingerprint to the
 *   input's: a single changed key, or two swapped ones, never match (mix is a bijection), and
 *   more changes do with probability about 2^-64.
 * Only when the keys are wrong does the verifier regenerate the input to name the element. */
int hr__sort_verify(const void *inst, char *why, size_t whylen)
{
    const sort_inst *I = inst;
    const hr_sort *r = &I->pub;
    uint64_t n = r->n;
    uint64_t *seen = hr__work_bitmap(n, why, whylen);
    if (seen == NULL)
        return HR_ENOMEM;
    uint64_t print = 0;
    int err = check_counts(r, why, whylen), prev_proc = -1;
    hr_key prev = { 0, 0 };
    for (int i = 0; i < r->p && err == HR_OK; i++) {
        size_t count = r->out_count[i];
        const hr_key *o = r->out[i];
        if (count > 0 && o == NULL) {
            err = hr__work_fail(why, whylen, HR_EVERIFY,
                                "processor %d reports %zu keys but no output buffer", i, count);
            break;
        }
        for (size_t k = 0; k < count && err == HR_OK; k++) {
            hr_key e = o[k];
            if ((err = check_key(r, i, k, seen, prev_proc, prev, why, whylen)) != HR_OK)
                break;
            prev = e;
            prev_proc = i;
            print += hr__work_mix((uint64_t)e.id << 32 | e.key);
        }
    }
    /* The counts sum to n and every element read was a distinct id below n: none is missing. */
    if (err == HR_OK && print != I->print)
        err = name_changed_key(I, why, whylen);
    free(seen);
    return err;
}
