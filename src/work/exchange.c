/* exchange.c: the "exchange" workload of seed 001 (exchange.h). */
#include "work/exchange.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

#include "work/common.h"

const hr_wkey_spec hr__exchange_keys[] = {
    { .name = "bytes", .summary = "bytes each processor sends each other processor (a block)",
      .type = HR_WKEY_INT, .def = "256", .min = 0, .max = 1 << 30,
      .column = "block_bytes" },   /* "bytes" is the row's payload */
    { .name = NULL },
};

typedef struct exchange_inst {
    hr_exchange pub;          /* first: the pointer make returns */
    uint64_t    seed;
    uint8_t    *data;         /* the inputs, p^2 blocks */
} exchange_inst;

/* Block i -> j, from the seed. */
static void fill_block(uint64_t seed, int p, int i, int j, size_t bytes, uint8_t *out)
{
    hr__work_fill(seed, (uint64_t)i * (uint64_t)p + (uint64_t)j, bytes, out);
}

void hr__exchange_destroy(void *inst)
{
    exchange_inst *I = inst;
    if (I == NULL)
        return;
    free(I->data);
    free(I->pub.in);
    free(I->pub.out);
    free(I->pub.done);
    free(I);
}

int hr__exchange_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen)
{
    *inst = NULL;
    uint64_t bytes = s->keys ? (uint64_t)s->keys[0].num : 256;
    if (p < 1 || bytes > (uint64_t)SIZE_MAX / (uint64_t)p / (uint64_t)p)
        return hr__work_fail(why, whylen, HR_EINVAL, "p = %d blocks of %" PRIu64 " bytes for each "
                             "of p processors do not fit in memory", p, bytes);
    size_t total = (size_t)p * (size_t)p * (size_t)bytes;
    exchange_inst *I = calloc(1, sizeof *I);
    if (I != NULL) {
        I->pub.in = calloc((size_t)p, sizeof *I->pub.in);
        I->pub.out = calloc((size_t)p, sizeof *I->pub.out);
        I->pub.done = calloc((size_t)p, 1);
        I->data = malloc(total ? total : 1);
    }
    if (I == NULL || !I->pub.in || !I->pub.out || !I->pub.done || !I->data) {
        hr__exchange_destroy(I);
        return hr__work_fail(why, whylen, HR_ENOMEM, "out of memory for %zu bytes of blocks",
                             total);
    }
    I->pub.p = p;
    I->pub.bytes = (size_t)bytes;
    I->seed = s->seed;
    for (int i = 0; i < p; i++) {
        I->pub.in[i] = I->data + (size_t)i * (size_t)p * (size_t)bytes;
        for (int j = 0; j < p; j++)
            fill_block(s->seed, p, i, j, (size_t)bytes, I->pub.in[i] + (size_t)j * bytes);
    }
    *inst = I;
    return HR_OK;
}

void hr__exchange_reset(void *inst)
{
    exchange_inst *I = inst;
    memset(I->pub.out, 0, (size_t)I->pub.p * sizeof *I->pub.out);
    memset(I->pub.done, 0, (size_t)I->pub.p);
}

int hr__exchange_parts(void *inst, int pid, hr_part *out, int max)
{
    hr_exchange *x = &((exchange_inst *)inst)->pub;
    if (max < 2)
        return 0;
    out[0] = (hr_part){ &x->done[pid], 1, 0 };
    out[1] = (hr_part){ (void *)&x->out[pid], x->out[pid] != NULL ? (size_t)x->p * x->bytes : 0,
                        1 };
    return 2;
}

int hr__exchange_verify(const void *inst, char *why, size_t whylen)
{
    const exchange_inst *I = inst;
    const hr_exchange *x = &I->pub;
    /* The reference is made again from the seed, not read from the inputs: an algorithm that
     * wrote into its input would be caught too. */
    uint8_t *want = malloc(x->bytes ? x->bytes : 1);
    if (want == NULL)
        return hr__work_fail(why, whylen, HR_ENOMEM, "out of memory to verify");
    int err = HR_OK;
    for (int j = 0; j < x->p && err == HR_OK; j++) {
        if (!x->done[j] || (x->bytes > 0 && x->out[j] == NULL)) {
            err = hr__work_fail(why, whylen, HR_EVERIFY, "processor %d set no output", j);
            break;
        }
        for (int i = 0; i < x->p && err == HR_OK; i++) {
            const uint8_t *got = x->out[j] + (size_t)i * x->bytes;
            fill_block(I->seed, x->p, i, j, x->bytes, want);
            if (memcmp(got, want, x->bytes) == 0)
                continue;
            size_t k = 0;
            while (got[k] == want[k])
                k++;
            err = hr__work_fail(why, whylen, HR_EVERIFY, "processor %d: the block from processor "
                                "%d is wrong at byte %zu: %u, want %u", j, i, k, got[k], want[k]);
        }
    }
    free(want);
    return err;
}

uint64_t hr__exchange_min_bytes(const void *inst, uint64_t *moved)
{
    const hr_exchange *x = inst;
    uint64_t blocks = (uint64_t)x->p * (uint64_t)(x->p - 1);
    if (moved != NULL)
        *moved = blocks;
    return blocks * x->bytes;
}

uint64_t hr__exchange_h(const void *inst)
{
    const hr_exchange *x = inst;
    return (uint64_t)(x->p - 1) * x->bytes;
}

uint64_t hr__exchange_mem_bytes(const hr_workload_spec *s, int p)
{
    uint64_t bytes = s->keys ? (uint64_t)s->keys[0].num : 256;
    return 2 * (uint64_t)p * (uint64_t)p * bytes + 24 * (uint64_t)p;
}
