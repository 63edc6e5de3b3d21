/* prefix.c: kind "prefix" (n 64-bit integers drawn from the seed, in blocks of n/p, the first
 * n mod p processors one more) and "mine.prefix", which leaves on every processor the inclusive
 * prefix sums of its block in the global order: a local scan, one hr_exscan of the block totals,
 * and the offset added. Verified against a sequential scan. */
#include "prefix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>
#include <hremu/hremu.h>

typedef struct prefix_inst {
    int       p;
    uint64_t  n;
    int64_t **in, **out;
    size_t   *count;
} prefix_inst;

static void destroy(void *inst)
{
    prefix_inst *x = inst;
    if (x == NULL)
        return;
    for (int i = 0; i < x->p && x->in != NULL; i++)
        free(x->in[i]);
    free(x->in);
    free(x->out);
    free(x->count);
    free(x);
}

static int make(const hr_workload_spec *s, int p, void **out, char *why, size_t whylen)
{
    prefix_inst *x = calloc(1, sizeof *x);
    if (x == NULL)
        return HR_ENOMEM;
    x->p = p;
    x->n = s->n;
    x->in = calloc((size_t)p, sizeof *x->in);
    x->out = calloc((size_t)p, sizeof *x->out);
    x->count = calloc((size_t)p, sizeof *x->count);
    if (x->in == NULL || x->out == NULL || x->count == NULL) {
        destroy(x);
        return HR_ENOMEM;
    }
    uint64_t state = s->seed * 0x9e3779b97f4a7c15ULL + 1;
    for (int i = 0; i < p; i++) {
        x->count[i] = s->n / (uint64_t)p + ((uint64_t)i < s->n % (uint64_t)p);
        if ((x->in[i] = malloc(sizeof(int64_t) * (x->count[i] + 1))) == NULL) {
            destroy(x);
            snprintf(why, whylen, "no memory for %llu integers", (unsigned long long)s->n);
            return HR_ENOMEM;
        }
        for (size_t k = 0; k < x->count[i]; k++) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;   /* xorshift64 */
            x->in[i][k] = (int64_t)(state % 2001) - 1000;
        }
    }
    *out = x;
    return HR_OK;
}

static void reset(void *inst)
{
    prefix_inst *x = inst;
    memset(x->out, 0, sizeof *x->out * (size_t)x->p);
}

static int verify(const void *inst, char *why, size_t whylen)
{
    const prefix_inst *x = inst;
    int64_t sum = 0;
    for (int i = 0; i < x->p; i++)
        for (size_t k = 0; k < x->count[i]; k++) {
            sum += x->in[i][k];
            if (x->out[i] == NULL || x->out[i][k] != sum) {
                snprintf(why, whylen, "processor %d, element %zu: %lld, want %lld", i, k,
                         x->out[i] ? (long long)x->out[i][k] : 0LL, (long long)sum);
                return HR_EVERIFY;
            }
        }
    return HR_OK;
}

/* Only the block totals must cross the machine, never an element: no floor on the bytes. */
static uint64_t min_bytes(const void *inst, uint64_t *moved)
{
    (void)inst;
    if (moved != NULL)
        *moved = 0;
    return 0;
}

static uint64_t h(const void *inst)
{
    const prefix_inst *x = inst;
    return x->count[0];
}

/* What processor pid leaves: its out block (count[pid] integers), for hremu-mpi's rank 0. */
static int parts(void *inst, int pid, hr_part *out, int max)
{
    prefix_inst *x = inst;
    if (max < 1)
        return 0;
    out[0] = (hr_part){ (void *)&x->out[pid], x->out[pid] != NULL ? sizeof(int64_t) * x->count[pid]
                                                                  : 0, 1 };
    return 1;
}

static uint64_t mem_bytes(const hr_workload_spec *s, int p)
{
    return 16 * s->n + 64 * (uint64_t)p;
}

const hr_workload prefix_workload = {
    .name = "prefix", .summary = "n integers in blocks: their prefix sums (examples/own_command)",
    .kind = PREFIX_KIND, .make = make, .reset = reset, .verify = verify,
    .min_bytes = min_bytes, .h = h, .mem_bytes = mem_bytes, .destroy = destroy,
    .parts = parts,
};

static void run(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    prefix_inst *x = inst;
    int me = hr_pid(p);
    size_t n = x->count[me];
    int64_t *out = hr_malloc(p, sizeof *out * (n + 1)), sum = 0, offset = 0;
    for (size_t k = 0; k < n; k++)
        out[k] = sum += x->in[me][k];
    hr_compute(p, (double)n);                       /* the local scan: one unit an element */
    hr_exscan(p, &sum, &offset, 1, HR_INT64, HR_SUM);
    for (size_t k = 0; k < n; k++)
        out[k] += offset;
    hr_compute(p, (double)n);
    x->out[me] = out;
}

const hr_algorithm prefix_algorithm = {
    .name = "mine.prefix", .summary = "local scan, hr_exscan of the totals, offset added",
    .kind = PREFIX_KIND, .run = run,
};
