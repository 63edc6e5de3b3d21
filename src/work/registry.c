/* registry.c: the table of workload kinds, found by name, and the check of a run that uses them
 * (include/hremu/workload.h). */
#include <hremu/workload.h>

#include <inttypes.h>
#include <string.h>

#include <hremu/algorithm.h> /* HR_MAX_REGISTERED, the limit for both registries */
#include <hremu/error.h>

#include "work/common.h"
#include "work/exchange.h"
#include "work/fft.h"
#include "work/pattern.h"
#include "work/hrel.h"
#include "work/sort.h"
#include "work/values.h"

/* Rows sorted by name, ended by a row with name NULL; tests/check_workload.c checks the order. */
static const hr_workload workloads[] = {
    { .name = "exchange",
      .summary = "a complete exchange, a block of `bytes` from every processor to every other "
                 "(seed 001 sec. 3)",
      .kind = HR_KIND_EXCHANGE,
      .keys = hr__exchange_keys,
      .no_n = 1,
      .make = hr__exchange_make,      /* p^2 blocks from the seed */
      .reset = hr__exchange_reset,    /* forget outputs before the next run */
      .verify = hr__exchange_verify,  /* every byte of every block where it belongs */
      .min_bytes = hr__exchange_min_bytes, /* p (p - 1) blocks */
      .h = hr__exchange_h,            /* (p - 1) bytes: what each processor receives */
      .mem_bytes = hr__exchange_mem_bytes, /* inputs and outputs */
      .destroy = hr__exchange_destroy,
      .parts = hr__exchange_parts },       /* done and out[i] */
    { .name = "fft2d",
      .summary = "an N x N complex array by rows, and its 2D DFT (seed 001 sec. 3.5)",
      .kind = HR_KIND_FFT2D,
      .keys = hr__fft2d_keys,
      .no_n = 1,
      .make = hr__fft2d_make,         /* N^2 elements from the seed, N/p rows a processor */
      .reset = hr__fft2d_reset,       /* forget outputs before the next run */
      .verify = hr__fft2d_verify,     /* against FFTW's sequential 2D DFT, tolerance in fft.h */
      .min_bytes = hr__fft2d_min_bytes, /* 16 p (p - 1) (N/p)^2: the off-diagonal blocks */
      .h = hr__fft2d_h,               /* (p - 1) (N/p)^2 elements each processor receives */
      .mem_bytes = hr__fft2d_mem_bytes, /* inputs, outputs, the verifier's copy: 48 N^2 */
      .destroy = hr__fft2d_destroy,
      .parts = hr__fft2d_parts },       /* done and out[i] */
    { .name = "hrelation",
      .summary = "route every element to its destination (seed 000 section 3)",
      .kind = HR_KIND_HRELATION,
      .distributions = hr__hrel_distributions, /* the rows of hrel.c's table */
      .make = hr__hrel_make,          /* generate one instance, cyclic layout */
      .reset = hr__hrel_reset,        /* forget outputs before the next run */
      .verify = hr__hrel_verify,      /* exactly-once delivery, O(n) bitmap */
      .min_bytes = hr__hrel_min_bytes, /* 4 bytes per element with dest != source */
      .h = hr__hrel_h,                /* max elements any processor receives */
      .mem_bytes = hr__hrel_mem_bytes, /* instance, output and bitmap, by distribution */
      .destroy = hr__hrel_destroy,
      .parts = hr__hrel_parts },       /* out_count and out[i] */
    { .name = "pattern",
      .summary = "irregular all-to-many communication from a COM matrix: density, table6 or a "
                 "Matrix Market file (seed 001 sec. 4)",
      .kind = HR_KIND_PATTERN,
      .keys = hr__pattern_keys,
      .no_n = 1,
      .make = hr__pattern_make,       /* the COM matrix, then every message from the seed */
      .reset = hr__pattern_reset,     /* forget outputs before the next run */
      .verify = hr__pattern_verify,   /* every byte of every message where it belongs */
      .min_bytes = hr__pattern_min_bytes, /* every message */
      .h = hr__pattern_h,             /* the most bytes a processor receives */
      .mem_bytes = hr__pattern_mem_bytes, /* the messages twice, the p^2 tables */
      .destroy = hr__pattern_destroy,
      .parts = hr__pattern_parts },       /* done and out[i] */
    { .name = "sort",
      .summary = "sort 32-bit integer keys, stably, in processor order (seed 000 section 5)",
      .kind = HR_KIND_SORT,
      .datasets = "C, N, R, S",
      .make = hr__sort_make,          /* generate one dataset of section 5.1, block layout */
      .reset = hr__sort_reset,        /* forget outputs before the next run */
      .verify = hr__sort_verify,      /* stable global sort, O(n) bitmap and fingerprint */
      .min_bytes = hr__sort_min_bytes, /* 4 bytes per key that ends on another processor */
      .h = hr__sort_h,                /* ceil(n/p): the most keys a processor starts with */
      .mem_bytes = hr__sort_mem_bytes, /* 16 bytes a key, and the bitmap */
      .destroy = hr__sort_destroy,
      .parts = hr__sort_parts },       /* out_count and out[i] */
    { .name = "values",
      .summary = "m values a processor to broadcast, reduce or prefix (seed 004 chapters 2-4)",
      .kind = HR_KIND_VALUES,
      .datasets = "double, int",
      .keys = hr__values_keys,
      .make = hr__values_make,        /* m = n/p values a processor from the seed, block layout */
      .reset = hr__values_reset,      /* forget outputs and the algorithm's goal */
      .verify = hr__values_verify,    /* against sequential references in the algorithms' order */
      .min_bytes = hr__values_min_bytes, /* 8 bytes a value of every processor but one */
      .h = hr__values_h,              /* m */
      .mem_bytes = hr__values_mem_bytes, /* 16 bytes a value and the verifier's tree */
      .destroy = hr__values_destroy,
      .parts = hr__values_parts },       /* out[i]; processor 0's goal */
    { .name = NULL }  /* sentinel */
};

#define NBUILTIN ((int)(sizeof workloads / sizeof workloads[0]) - 1)

/* A program's own workload kinds (hr_workload_register), after the built-in ones: as many as
 * algorithms, the one limit of <hremu/algorithm.h>. */
static const hr_workload *added[HR_MAX_REGISTERED];
static int nadded;

const hr_workload *hr_workload_at(int i)
{
    if (i >= 0 && i < NBUILTIN)
        return &workloads[i];
    if (i >= NBUILTIN && i < NBUILTIN + nadded)
        return added[i - NBUILTIN];
    return NULL;
}

const hr_workload *hr_workload_find(const char *name)
{
    const hr_workload *w;
    if (name == NULL)
        return NULL;
    for (int i = 0; (w = hr_workload_at(i)) != NULL; i++)
        if (strcmp(w->name, name) == 0)
            return w;
    return NULL;
}

/* The i-th declared key whose name(k) no earlier declaration shares. */
static const hr_wkey_spec *distinct_at(int i, const char *(*name)(const hr_wkey_spec *))
{
    const hr_workload *w;
    int seen = 0;
    for (int a = 0; (w = hr_workload_at(a)) != NULL; a++)
        for (const hr_wkey_spec *k = w->keys; k != NULL && k->name != NULL; k++) {
            int first = 1;
            for (int b = 0; b <= a && first; b++)
                for (const hr_wkey_spec *j = hr_workload_at(b)->keys; j && j->name && j != k; j++)
                    if (strcmp(name(j), name(k)) == 0)
                        first = 0;
            if (first && seen++ == i)
                return k;
        }
    return NULL;
}

static const char *key_name(const hr_wkey_spec *k)
{
    return k->name;
}

const hr_wkey_spec *hr_workload_key_at(int i)
{
    return distinct_at(i, key_name);
}

const hr_wkey_spec *hr_workload_column_at(int i)
{
    return distinct_at(i, hr_wkey_column);
}

int hr_workload_key_applies(const hr_workload *w, const hr_wkey_value *vals, int i)
{
    const char *when = w->keys[i].when;
    if (when == NULL)
        return 1;
    size_t klen = strcspn(when, "=");
    for (int j = 0; j < i; j++) {
        if (strlen(w->keys[j].name) != klen || strncmp(w->keys[j].name, when, klen) != 0)
            continue;
        const char *v = vals[j].word;
        for (const char *at = when + klen + (when[klen] == '='); v != NULL && *at != '\0';) {
            size_t n = strcspn(at, "|");
            if (n > 0 && at[n - 1] == ':' ? strncmp(v, at, n) == 0
                                          : strlen(v) == n && strncmp(v, at, n) == 0)
                return 1;
            at += n + (at[n] == '|');
        }
        return 0;
    }
    return 0;
}

/* Why key list keys cannot be a kind's declared keys, or NULL. */
static const char *bad_keys(const hr_wkey_spec *keys)
{
    static const char *const fixed[] = { "kind", "n", "h", "distribution", "dataset", "seed" };
    /* The report's own columns (cli/report.c), which a key's column may not repeat. */
    static const char *const columns[] = {
        "algorithm", "procs", "n", "h", "discipline", "topology", "cost", "seed",
        "model_time_s", "rounds", "messages", "bytes", "max_out_bytes", "max_in_bytes", "wall_s",
        "verified", "rounds_per_h", "lost", "stalls", "status", "distribution", "dataset",
        "buffer", "switching", "tau", "sigma", "overhead", "hop", "compute_unit", "compute",
        "repeat", "params", "plan_s", "plan_steps", "count" };
    int n = 0;
    for (const hr_wkey_spec *k = keys; k != NULL && k->name != NULL; k++, n++) {
        if (n == HR_WKEY_MAX)
            return "a workload declares at most HR_WKEY_MAX keys";
        if (k->name[0] == '\0' || strspn(k->name, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
                                     strlen(k->name))
            return "a declared key's name is made of a-z, 0-9 and _";
        for (size_t f = 0; f < sizeof fixed / sizeof fixed[0]; f++)
            if (strcmp(k->name, fixed[f]) == 0)
                return "a declared key may not take the name of a fixed [workload] key";
        if (k->summary == NULL)
            return "a declared key needs a summary";
        if (k->type != HR_WKEY_INT && k->type != HR_WKEY_REAL && k->type != HR_WKEY_WORD)
            return "a declared key's type is HR_WKEY_INT, HR_WKEY_REAL or HR_WKEY_WORD";
        if (k->type == HR_WKEY_WORD && (k->choices == NULL || k->choices[0] == '\0'))
            return "a word key needs its choices";
        if (k->type != HR_WKEY_WORD && !(k->min <= k->max))
            return "a number key needs min <= max";
        if (k->when != NULL) {
            size_t klen = strcspn(k->when, "=");
            const hr_wkey_spec *j = keys;
            while (j != k && (strlen(j->name) != klen || strncmp(j->name, k->when, klen) != 0))
                j++;
            if (j == k || j->type != HR_WKEY_WORD || k->when[klen] != '=')
                return "a key's when names a word key declared before it: \"KEY=A|B\"";
        }
        for (const hr_wkey_spec *j = keys; j != k; j++)
            if (strcmp(j->name, k->name) == 0 || strcmp(hr_wkey_column(j), hr_wkey_column(k)) == 0)
                return "a workload declares a key or a column twice";
        for (size_t f = 0; f < sizeof columns / sizeof columns[0]; f++)
            if (strcmp(hr_wkey_column(k), columns[f]) == 0)
                return "a declared key's column takes the name of a report column (set .column)";
        const hr_workload *o;
        for (int i = 0; (o = hr_workload_at(i)) != NULL; i++)
            for (const hr_wkey_spec *j = o->keys; j != NULL && j->name != NULL; j++)
                if ((strcmp(j->name, k->name) == 0 ||
                     strcmp(hr_wkey_column(j), hr_wkey_column(k)) == 0) && j->type != k->type)
                    return "a declared key has another type in another workload";
    }
    return NULL;
}

int hr_workload_register(const hr_workload *w, const char **why)
{
    const char *bad = NULL;
    /* What a name may hold, since it goes into configs, rows, traces and a web page's script. */
    static const char name_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                     "0123456789_-";
    if (w == NULL || w->name == NULL || w->name[0] == '\0' ||
        strspn(w->name, name_chars) != strlen(w->name))
        bad = "a workload needs a name made of letters, digits, '_' and '-'";
    else if (w->summary == NULL || !w->make || !w->reset || !w->verify || !w->min_bytes || !w->h ||
             !w->mem_bytes || !w->destroy)
        bad = "a workload needs a summary and every function (make, reset, verify, min_bytes, h, "
              "mem_bytes, destroy)";
    else if (w->kind < HR_KIND_USER)
        bad = "a program's workload kind is HR_KIND_USER or above";
    else if (w->distributions != NULL || w->datasets != NULL)
        bad = "a program's workload takes n and the seed only (no distributions or datasets)";
    else if (hr_workload_find(w->name) != NULL)
        bad = "a workload of that name exists already";
    else if (nadded == (int)(sizeof added / sizeof added[0]))
        bad = "too many workloads registered";
    else
        bad = bad_keys(w->keys);
    for (int i = 0; bad == NULL && i < NBUILTIN + nadded; i++)
        if (hr_workload_at(i)->kind == w->kind)
            bad = "a workload of that kind exists already";
    if (bad != NULL) {
        if (why != NULL)
            *why = bad;
        return HR_EINVAL;
    }
    added[nadded++] = w;
    return HR_OK;
}

int hr_workload_verify(const hr_workload *w, const void *inst, uint64_t bytes_moved, char *why,
                       size_t whylen)
{
    int err = w->verify(inst, why, whylen);
    if (err != HR_OK)
        return err;
    uint64_t moved = 0, least = w->min_bytes(inst, &moved);
    if (bytes_moved < least)
        return hr__work_fail(why, whylen, HR_EVERIFY,
                             "the run moved %" PRIu64 " payload bytes, but %" PRIu64
                             " elements changed processor (at least %" PRIu64 " bytes)",
                             bytes_moved, moved, least);
    return HR_OK;
}
