/* values.c: the "values" workload of seed 004 (values.h). */
#include "work/values.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>
#include <hremu/hremu.h>

#include "util/rng.h"
#include "work/common.h"

#define STREAM UINT64_C(0x76616c7565730000)    /* "values": the generator's streams, + x */

typedef union word {
    int64_t  i;
    double   d;
    uint64_t bits;
} word;

typedef struct values_inst {
    hr_values pub;          /* first: the pointer make returns */
    word     *data;         /* the inputs, m a processor */
    word     *tree;         /* verify's scratch: a pairwise tree of p leaves, 2p words */
} values_inst;

static int is_pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }

void hr__values_destroy(void *inst)
{
    values_inst *I = inst;
    if (I == NULL)
        return;
    free(I->data);
    free(I->tree);
    free(I->pub.in);
    free(I->pub.out);
    free(I);
}

static int parse_op(const char *s, int *op)
{
    static const struct { const char *name; int op; } ops[] = {
        { "sum", HR_SUM }, { "max", HR_MAX }, { "min", HR_MIN },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(s, ops[i].name) == 0) {
            *op = ops[i].op;
            return 0;
        }
    return -1;
}

const hr_wkey_spec hr__values_keys[] = {
    { .name = "op", .summary = "what reductions and prefixes combine with", .type = HR_WKEY_WORD,
      .def = "sum", .choices = "sum, max, min" },
    { .name = "root", .summary = "the root of broadcasts and reductions, an expression in p",
      .type = HR_WKEY_INT, .def = "0", .min = 0, .max = 1e9, .below_p = 1 },
    { .name = NULL },
};

int hr__values_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    *inst = NULL;
    const char *dataset = s->dataset ? s->dataset : "int";
    const char *opname = s->keys ? s->keys[0].word : NULL;
    uint64_t root = s->keys ? (uint64_t)s->keys[1].num : 0;
    int op = HR_SUM;
    if (strcmp(dataset, "int") != 0 && strcmp(dataset, "double") != 0)
        return hr__work_fail(why, whylen, HR_EINVAL, "unknown dataset '%s' for values (int, "
                             "double)", dataset);
    if (opname != NULL && parse_op(opname, &op) != 0)
        return hr__work_fail(why, whylen, HR_EINVAL, "unknown op '%s' (sum, max, min)", opname);
    if (p < 1 || s->n == 0 || s->n % (uint64_t)p != 0)
        return hr__work_fail(why, whylen, HR_EINVAL, "n = %" PRIu64 " is not a positive multiple "
                             "of p = %d (each processor holds n/p values)", s->n, p);
    if (root >= (uint64_t)p)
        return hr__work_fail(why, whylen, HR_EINVAL, "root %" PRIu64 " is not a processor "
                             "(p = %d)", root, p);
    size_t m = (size_t)(s->n / (uint64_t)p);
    values_inst *I = calloc(1, sizeof *I);
    if (I != NULL) {
        I->pub.in = calloc((size_t)p, sizeof *I->pub.in);
        I->pub.out = calloc((size_t)p, sizeof *I->pub.out);
        I->data = malloc((size_t)s->n * sizeof *I->data);
        I->tree = malloc(2 * (size_t)p * sizeof *I->tree);
    }
    if (I == NULL || !I->pub.in || !I->pub.out || !I->data || !I->tree) {
        hr__values_destroy(I);
        return hr__work_fail(why, whylen, HR_ENOMEM, "out of memory for %" PRIu64 " values", s->n);
    }
    I->pub.p = p;
    I->pub.m = m;
    I->pub.type = strcmp(dataset, "double") == 0 ? HR_DOUBLE : HR_INT64;
    I->pub.op = op;
    I->pub.root = (int)root;
    for (int x = 0; x < p; x++) {
        hr_rng r;
        hr__rng_seed(&r, s->seed, STREAM + (uint64_t)x);
        word *in = I->data + (size_t)x * m;
        for (size_t i = 0; i < m; i++) {
            if (I->pub.type == HR_DOUBLE)
                in[i].d = 2.0 * hr__rng_unit(&r) - 1.0;
            else
                in[i].i = (int64_t)(hr__rng_next(&r) >> 32) - INT64_C(2147483648);
        }
        I->pub.in[x] = in;
    }
    *inst = I;
    return HR_OK;
}

void hr__values_reset(void *inst)
{
    values_inst *I = inst;
    memset(I->pub.out, 0, (size_t)I->pub.p * sizeof *I->pub.out);
    I->pub.goal = HR_GOAL_NONE;
    I->pub.split = 0;
    I->pub.group = HR_BCAST_ALL;
    I->pub.rows = 0;
}

/* out[pid], and what processor 0 says of the goal. */
int hr__values_parts(void *inst, int pid, hr_part *out, int max)
{
    hr_values *v = &((values_inst *)inst)->pub;
    if (max < 5)
        return 0;
    out[0] = (hr_part){ (void *)&v->out[pid], v->out[pid] != NULL ? v->m * 8 : 0, 1 };
    if (pid != 0)
        return 1;
    out[1] = (hr_part){ &v->goal, sizeof v->goal, 0 };
    out[2] = (hr_part){ &v->split, sizeof v->split, 0 };
    out[3] = (hr_part){ &v->group, sizeof v->group, 0 };
    out[4] = (hr_part){ &v->rows, sizeof v->rows, 0 };
    return 5;
}

uint64_t hr__values_h(const void *inst)
{
    return ((const values_inst *)inst)->pub.m;
}

uint64_t hr__values_mem_bytes(const hr_workload_spec *s, int p)
{
    /* inputs and outputs 8 bytes a value, the tree 16 bytes and the two pointers a processor */
    return 16 * s->n + 32 * (uint64_t)(p > 0 ? p : 1);
}

/* Whose values processor x ends with in a broadcast (hr_values.group). */
static int bcast_source(const hr_values *v, int x)
{
    int cols = v->rows > 0 ? v->p / v->rows : v->p;
    if (v->group == HR_BCAST_ROWS)
        return x / cols * cols + v->root % cols;
    if (v->group == HR_BCAST_COLUMNS)
        return v->root / cols * cols + x % cols;
    return v->root;
}

uint64_t hr__values_min_bytes(const void *inst, uint64_t *moved)
{
    const hr_values *v = inst;
    /* Every processor but one sends its values or what it made of them; a broadcast to groups
     * leaves one processor a group out. */
    int groups = 1;
    if (v->goal == HR_GOAL_BCAST && v->group != HR_BCAST_ALL && v->rows > 0)
        groups = v->group == HR_BCAST_ROWS ? v->rows : v->p / v->rows;
    uint64_t n = (uint64_t)(v->p - groups) * v->m;
    if (moved != NULL)
        *moved = n;
    return 8 * n;
}

/* ---- the verifier --------------------------------------------------------------------------- */

static word combine(const hr_values *v, word lo, word hi)
{
    word r;
    if (v->type == HR_DOUBLE)
        r.d = v->op == HR_SUM ? lo.d + hi.d : v->op == HR_MAX ? (lo.d >= hi.d ? lo.d : hi.d)
                                                               : (lo.d <= hi.d ? lo.d : hi.d);
    else
        r.i = v->op == HR_SUM ? (int64_t)((uint64_t)lo.i + (uint64_t)hi.i)
            : v->op == HR_MAX ? (lo.i >= hi.i ? lo.i : hi.i) : (lo.i <= hi.i ? lo.i : hi.i);
    return r;
}

static word in_at(const values_inst *I, int x, size_t i)
{
    return I->data[(size_t)x * I->pub.m + i];
}

/* The pairwise tree of element i over leaves y = 0 .. p-1 holding in[y ^ xor]: level j's block b
 * (2^j leaves from b 2^j) at tree[p_j + b], p_j = 2p - 2p/2^j (level 0 first). p a power of 2. */
static void build_tree(values_inst *I, size_t i, int xor)
{
    int p = I->pub.p;
    for (int y = 0; y < p; y++)
        I->tree[y] = in_at(I, y ^ xor, i);
    for (int w = p, at = 0; w > 1; at += w, w /= 2)
        for (int b = 0; b < w / 2; b++)
            I->tree[at + w + b] = combine(&I->pub, I->tree[at + 2 * b], I->tree[at + 2 * b + 1]);
}

/* Level j's block b of the tree. */
static word block(const values_inst *I, int j, int b)
{
    int at = 0;
    for (int w = I->pub.p; j > 0; j--, w /= 2)
        at += w;
    return I->tree[at + b];
}

static int log2i(int p)
{
    int d = 0;
    while ((1 << d) < p)
        d++;
    return d;
}

static void show(const hr_values *v, word w, char *buf, size_t len)
{
    if (v->type == HR_DOUBLE)
        snprintf(buf, len, "%.17g", w.d);
    else
        snprintf(buf, len, "%" PRId64, w.i);
}

static int wrong(const values_inst *I, int x, size_t i, const void *out, word want, char *why,
                 size_t whylen)
{
    const char *what[] = { "", "the broadcast of", "the reduction to", "the prefix at" };
    char got[40] = "nothing", exp[40];
    if (out != NULL)
        show(&I->pub, ((const word *)out)[i], got, sizeof got);
    show(&I->pub, want, exp, sizeof exp);
    return hr__work_fail(why, whylen, HR_EVERIFY, "%s P%d: value %zu of P%d is %s, not %s",
                         what[I->pub.goal], I->pub.goal == HR_GOAL_BCAST ? bcast_source(&I->pub, x) : x, i, x,
                         got, exp);
}

static int check(const values_inst *I, int x, size_t i, word want, char *why, size_t whylen)
{
    const word *out = I->pub.out[x];
    if (out == NULL || out[i].bits != want.bits)
        return wrong(I, x, i, out, want, why, whylen);
    return HR_OK;
}

int hr__values_verify(const void *inst, char *why, size_t whylen)
{
    /* The verifier's scratch is the instance's own: verify runs on one thread between runs. */
    values_inst *I = (values_inst *)(uintptr_t)inst;
    const hr_values *v = &I->pub;
    int p = v->p, d = log2i(p), pow2 = is_pow2(p), err;
    if (v->goal == HR_GOAL_BCAST) {
        if (v->group != HR_BCAST_ALL && (v->rows < 1 || p % v->rows != 0))
            return hr__work_fail(why, whylen, HR_EVERIFY, "a broadcast to groups of a mesh of %d "
                                 "rows, which does not divide p = %d", v->rows, p);
        for (int x = 0; x < p; x++)
            for (size_t i = 0; i < v->m; i++)
                if ((err = check(I, x, i, in_at(I, bcast_source(v, x), i), why, whylen)) != HR_OK)
                    return err;
        return HR_OK;
    }
    if (v->goal == HR_GOAL_REDUCE) {
        for (size_t i = 0; i < v->m; i++) {
            word want = in_at(I, 0, i);
            if (pow2) {
                build_tree(I, i, v->root);
                want = block(I, d, 0);
            } else {
                for (int x = 1; x < p; x++)
                    want = combine(v, want, in_at(I, x, i));
            }
            if ((err = check(I, v->root, i, want, why, whylen)) != HR_OK)
                return err;
        }
        return HR_OK;
    }
    if (v->goal != HR_GOAL_PREFIX)
        return hr__work_fail(why, whylen, HR_EVERIFY, "the algorithm did not say what it computed "
                             "(hr_values.goal)");
    int split = v->split > 0 && v->split < d ? v->split : d;
    for (size_t i = 0; i < v->m; i++) {
        if (!pow2) {
            word acc = in_at(I, 0, i);
            for (int x = 0; x < p; x++) {
                if (x > 0)
                    acc = combine(v, acc, in_at(I, x, i));
                if ((err = check(I, x, i, acc, why, whylen)) != HR_OK)
                    return err;
            }
            continue;
        }
        build_tree(I, i, 0);
        for (int x = 0; x < p; x++) {
            word low = in_at(I, x, i), high = { 0 };
            int has_high = 0;
            for (int j = 0; j < d; j++) {
                if (!((x >> j) & 1))
                    continue;
                word b = block(I, j, (x >> j) ^ 1);
                if (j < split)
                    low = combine(v, b, low);
                else {
                    high = has_high ? combine(v, b, high) : b;
                    has_high = 1;
                }
            }
            word want = has_high ? combine(v, high, low) : low;
            if ((err = check(I, x, i, want, why, whylen)) != HR_OK)
                return err;
        }
    }
    return HR_OK;
}
