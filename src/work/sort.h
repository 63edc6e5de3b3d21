/* sort.h: the "sort" workload (seed 000 section 5): the [R], [S], [C] and [N] inputs of section
 * 5.1 and the verifier of a stable global sort.
 *
 * An instance is an hr_sort (include/hremu/workload.h) followed by private verification data; the
 * pointer that make returns points at the hr_sort, so algorithms cast it to hr_sort *.
 *
 * Layout, for every dataset: the n keys form one global sequence g = 0 .. n-1, dealt in blocks as
 * section 5.1 says for [N]: the first n/p to processor 0, the next n/p to processor 1 and so on;
 * when p does not divide n the first n mod p processors hold one key more. Element g has id = g.
 * The output has the same layout (section 5.2: "an array congruent with the input"): processor i
 * ends with the sorted sequence's ranks of its input block, as many keys as it started with.
 * Its key, by dataset (the exact formulas are in sort.c):
 *   R  uniform in [0, 2^31) ("entropy of 31 bits per key", footnote 5), from the seed;
 *   S  the bitwise AND of five successive R keys (footnote 6: about 6.2 bits of entropy), from
 *      the seed;
 *   C  the values 0 .. n-1 placed cyclically: processor i holds i, i+p, i+2p, ... in that order;
 *   N  the NAS IS keys in [0, 2^19): the average of four successive values of x <- 5^13 x mod 2^46
 *      from x0 = 314159265 (the seed is not used: NAS fixes it).
 */
#ifndef HREMU_WORK_SORT_H
#define HREMU_WORK_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <hremu/workload.h>

/* The hr_workload row's slots; see the contract of each slot in workload.h. make returns HR_OK,
 * HR_EINVAL (reason in why) or HR_ENOMEM, and on failure allocates nothing. verify returns HR_OK,
 * HR_EVERIFY (one line in why) or HR_ENOMEM (its bitmap); it checks first that every processor
 * ends with its block of the input's layout (the output is laid out as the input), then the
 * sorted order, stability and the keys. reset forgets outputs without freeing them (they are
 * hr_malloc memory owned by the machine). min_bytes counts the output keys whose id lies outside
 * their processor's block, 4 bytes each. h is ceil(n/p), the most keys any processor starts with:
 * a sort has no h of its own, and this is the h1 of the h-relations a balanced sort routes.
 * mem_bytes is 16.125 n + 120 p bytes and a little: input and output, 8 bytes a key each, the
 * verifier's bitmap, and per processor the hr_sort's four arrays and the allocators' headers of
 * its input and output blocks (a failed verification that must name a changed key takes 4 n
 * more, for a moment). Machine thread only; verify and min_bytes may run on any one thread while no
 * algorithm runs on the instance, mem_bytes on any thread. */
int      hr__sort_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen);
void     hr__sort_reset(void *inst);
int      hr__sort_parts(void *inst, int pid, hr_part *out, int max);
int      hr__sort_verify(const void *inst, char *why, size_t whylen);
uint64_t hr__sort_min_bytes(const void *inst, uint64_t *moved);
uint64_t hr__sort_h(const void *inst);
uint64_t hr__sort_mem_bytes(const hr_workload_spec *s, int p);
void     hr__sort_destroy(void *inst);

#endif /* HREMU_WORK_SORT_H */
