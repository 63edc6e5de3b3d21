/* values.h: the "values" workload (seed 004): m values a processor for broadcast, reduction and
 * prefix, and their verifier.
 *
 * An instance is an hr_values (include/hremu/workload.h) followed by private data; the pointer
 * make returns points at the hr_values, so algorithms cast it to hr_values *. n (the spec's) is
 * the total, a positive multiple of p: m = n/p values a processor. Processor x's value i is drawn
 * from the machine's seed on stream x: dataset int, uniform in [-2^31, 2^31); dataset double,
 * uniform in [-1, 1) with 53 random bits. The verifier's references (workload.h gives the orders)
 * are computed here sequentially, from the inputs, element by element.
 */
#ifndef HREMU_WORK_VALUES_H
#define HREMU_WORK_VALUES_H

#include <stddef.h>
#include <stdint.h>
#include <hremu/workload.h>

/* The kind's own keys: op (sum, max, min) and root (below p); make reads spec->keys in this
 * order, and takes spec->keys == NULL as op sum, root 0. */
extern const hr_wkey_spec hr__values_keys[];

/* The hr_workload row's slots (contracts in workload.h). make returns HR_OK, HR_EINVAL (reason in
 * why: n not a positive multiple of p, a root that is not a processor, an unknown op or dataset)
 * or HR_ENOMEM. verify checks what hr_values.goal says; HR_EVERIFY names the first wrong
 * processor and value with both figures. min_bytes is 8 (p - 1) m: every processor but one must
 * send its m values or what it made of them (a broadcast's receivers must receive them). h is m.
 * mem_bytes: inputs and outputs, 8 bytes a value each, the verifier's scratch (32 bytes a
 * processor) and the pointer arrays. */
int      hr__values_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen);
void     hr__values_reset(void *inst);
int      hr__values_parts(void *inst, int pid, hr_part *out, int max);
int      hr__values_verify(const void *inst, char *why, size_t whylen);
uint64_t hr__values_min_bytes(const void *inst, uint64_t *moved);
uint64_t hr__values_h(const void *inst);
uint64_t hr__values_mem_bytes(const hr_workload_spec *s, int p);
void     hr__values_destroy(void *inst);

#endif /* HREMU_WORK_VALUES_H */
