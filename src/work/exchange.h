/* exchange.h: the "exchange" workload (seed 001 sec. 3): a complete exchange, every processor a
 * block of `bytes` bytes for every processor, and its verifier.
 *
 * The kind's instance type lives here, not in the public headers: the algorithms that take it
 * (src/alg/xchg.c, app.fft2d) include this file. Built-in kinds after the first three number
 * themselves in their own header, below HR_KIND_USER; the registry's test checks the numbers
 * are distinct.
 */
#ifndef HREMU_WORK_EXCHANGE_H
#define HREMU_WORK_EXCHANGE_H

#include <stddef.h>
#include <stdint.h>
#include <hremu/workload.h>

#define HR_KIND_EXCHANGE ((hr_kind)4)

/* A complete exchange. Processor i starts with in[i]: p blocks of `bytes` bytes, block j (at
 * in[i] + j * bytes) for processor j, its own block i included. It must end with out[j] (memory
 * from hr_malloc, set on processor j only): p blocks, block i being in[i]'s block j, so out[j]
 * is the column j of the p x p matrix of blocks (a transpose). bytes may be 0 (seed 001's
 * Figures 5-6 start there): every out[j] must then still be set (hr_malloc of 0 bytes is fine,
 * a non-NULL marker is needed: the algorithm sets done[j] = 1 instead). */
typedef struct hr_exchange {
    int       p;
    size_t    bytes;          /* a block */
    uint8_t **in;
    uint8_t **out;
    char     *done;           /* done[j]: processor j set out[j] (bytes = 0 leaves it NULL) */
} hr_exchange;

/* The kind's keys: bytes. make reads spec->keys in this order. */
extern const hr_wkey_spec hr__exchange_keys[];

/* The hr_workload row's slots (contracts in workload.h). make fills each block from the seed
 * (byte k of block i -> j a function of seed, i, j and k), HR_EINVAL if p * p * bytes overflows,
 * HR_ENOMEM. verify checks every byte of every out[j] and names the first wrong block and
 * byte. min_bytes: p (p - 1) bytes, blocks p (p - 1). h: (p - 1) bytes, what each processor
 * receives. mem_bytes: the inputs and outputs, 2 p^2 bytes, and the pointers. */
int      hr__exchange_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t len);
void     hr__exchange_reset(void *inst);
int      hr__exchange_parts(void *inst, int pid, hr_part *out, int max);
int      hr__exchange_verify(const void *inst, char *why, size_t whylen);
uint64_t hr__exchange_min_bytes(const void *inst, uint64_t *moved);
uint64_t hr__exchange_h(const void *inst);
uint64_t hr__exchange_mem_bytes(const hr_workload_spec *s, int p);
void     hr__exchange_destroy(void *inst);

#endif /* HREMU_WORK_EXCHANGE_H */
