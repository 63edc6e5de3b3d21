/* hrel.h: the "hrelation" workload (seed 000 section 3): instances, generators and the verifier.
 *
 * An instance is an hr_hrel (include/hremu/workload.h) followed by private verification data; the
 * pointer that make returns points at the hr_hrel, so algorithms cast it to hr_hrel *.
 *
 * Layout, for every generated distribution: the n elements form one global sequence g = 0 .. n-1,
 * dealt cyclically as in seed 000 section 3.1: element g lives on processor g mod p at local index
 * g / p, so the first n mod p processors hold one element more. Element g has data = g (a unique
 * id, so the verifier can check exactly-once delivery) and dest chosen by the distribution:
 *   transpose    v_d = n/p consecutive elements for each d (h = n/p): the transpose data movement;
 *   skewed       v_d from eq. (7) for a requested h (h = n/p is the transpose sequence);
 *   uniform      each dest drawn uniformly from a xoshiro256** stream seeded by the spec's seed;
 *   permutation  dest = pi(g) / (n/p) for a random permutation pi of 0 .. n-1, drawn by
 *                Fisher-Yates on the same stream (hrel.c says exactly how); needs p | n, and every
 *                processor sends and receives n/p (h = h1 = n/p).
 * file:PATH reads the relation instead (format in docs/config.md: lines "SOURCE DEST VALUE").
 * Element g is the g-th element line; it lives on processor SOURCE, after the earlier lines with
 * the same SOURCE, with data = VALUE and dest = DEST. VALUEs must be unique: they stand in for the
 * id, and the verifier maps each delivered data field back to its line. n must equal the number of
 * element lines; h, if set, the file's own h; h1 is the most lines any SOURCE has. Errors in the
 * file are reported as "PATH:LINE: what is wrong" (one line).
 */
#ifndef HREMU_WORK_HREL_H
#define HREMU_WORK_HREL_H

#include <stddef.h>
#include <stdint.h>
#include <hremu/workload.h>

/* The hr_workload row's slots; see the contract of each slot in workload.h. make returns HR_OK,
 * HR_EINVAL (reason in why) or HR_ENOMEM, and on failure allocates nothing. verify returns HR_OK,
 * HR_EVERIFY (one line in why) or HR_ENOMEM (its bitmap). reset forgets outputs without freeing
 * them (they are hr_malloc memory owned by the machine). Machine thread only; verify may run on
 * any one thread while no algorithm runs on the instance. */
int      hr__hrel_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen);
void     hr__hrel_reset(void *inst);
int      hr__hrel_verify(const void *inst, char *why, size_t whylen);
uint64_t hr__hrel_h(const void *inst);
void     hr__hrel_destroy(void *inst);

/* Fill v[0 .. p) with the number of elements labelled for each processor by eq. (7) of seed 000
 * for n elements and the requested h; h = n/p gives v_d = n/p for all d (the paper's transpose
 * case). Returns HR_OK, or HR_EINVAL with the unmet precondition in why. Any thread. */
int hr__hrel_skew_counts(uint64_t n, int p, uint64_t h, uint64_t *v, char *why, size_t whylen);

#endif /* HREMU_WORK_HREL_H */
