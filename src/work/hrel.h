/* hrel.h: the "hrelation" workload (seed 000 section 3): instances, generators and the verifier.
 *
 * An instance is an hr_hrel (include/hremu/workload.h) followed by private verification data; the
 * pointer that make returns points at the hr_hrel, so algorithms cast it to hr_hrel *.
 *
 * Layout, for the cyclic distributions: the n elements form one global sequence g = 0 .. n-1,
 * dealt cyclically as in seed 000 section 3.1: element g lives on processor g mod p at local index
 * g / p, so the first n mod p processors hold one element more. Element g has data = g (a unique
 * id, so the verifier can check exactly-once delivery) and dest chosen by the distribution:
 *   transpose    v_d = n/p consecutive elements for each d (h = n/p): the transpose data movement;
 *   skewed       v_d from eq. (7) for a requested h (h = n/p is the transpose sequence);
 *   uniform      each dest drawn uniformly from a xoshiro256** stream seeded by the spec's seed;
 *   permutation  dest = pi(g) / (n/p) for a random permutation pi of 0 .. n-1, drawn by
 *                Fisher-Yates on the same stream (hrel.c says exactly how); needs p | n, and every
 *                processor sends and receives n/p (h = h1 = n/p).
 * alltoall, random and difficult are laid out by sender instead: processor i holds its own
 * elements, and ids g = 0 .. n-1 number them processor 0's first, each processor's in order:
 *   alltoall     one element for every ordered pair i != j, processor i's in the order of dest
 *                i+1, i+2, ... (mod p); n = p(p-1), h = h1 = p-1; needs p >= 2;
 *   random       the union of h random permutations of the processors without fixed points,
 *                drawn from the seed: every processor sends and receives exactly h, none to
 *                itself; h required, n = p*h, p >= 2;
 *   difficult    seed 003 section 3's difficult h-relation (the lower-bound input of its
 *                Theorem 1): processor 0 sends to 1 .. h, each of which also receives h-1
 *                conflicting elements from distinct blocking processors h+1 .. h^2, whose other
 *                elements all go to distinct processors; h >= 2 required, n = h^3 - h^2 + h,
 *                p >= h^3 - 2h^2 + 2h (5 for h = 2); hrel.c gives the exact layout.
 * file:PATH reads the relation instead (format in docs/config.md: lines "SOURCE DEST VALUE").
 * Element g is the g-th element line; it lives on processor SOURCE, after the earlier lines with
 * the same SOURCE, with data = VALUE and dest = DEST. VALUEs must be unique: they stand in for the
 * id, and the verifier maps each delivered data field back to its line. n must equal the number of
 * element lines; h, if set, the file's own h; h1 is the most lines any SOURCE has. Errors in the
 * file are reported as "PATH:LINE: what is wrong" (one line). PATH must name a regular file (not
 * a device, FIFO, socket or directory; it is refused without being read), and no line may be
 * longer than 4096 bytes; running out of memory is HR_ENOMEM, with a reason that says so.
 */
#ifndef HREMU_WORK_HREL_H
#define HREMU_WORK_HREL_H

#include <stddef.h>
#include <stdint.h>
#include <hremu/workload.h>

/* The most processors an hrelation takes: its destinations are kept in 16 bits. */
#define HREL_MAX_PROCS 65536

/* The hr_workload row's slots; see the contract of each slot in workload.h. make returns HR_OK,
 * HR_EINVAL (reason in why) or HR_ENOMEM, and on failure allocates nothing. verify returns HR_OK,
 * HR_EVERIFY (one line in why) or HR_ENOMEM (its bitmap). reset forgets outputs without freeing
 * them (they are hr_malloc memory owned by the machine). min_bytes is 4 bytes (the data field) for
 * every element whose dest is not the processor it starts on, counted by make. mem_bytes, in
 * bytes, and a little more for the instance's header:
 *   uniform, transpose, skewed                16.125 n + 136 p  (input, output, bitmap)
 *   permutation, alltoall, random, difficult  18.125 n + 136 p  (and dest_of, 2 n)
 *   file:PATH                                 30.125 n + 136 p  (and VALUEs 4 n, by_value 8 n)
 * where 136 p are each processor's slots in the six p-slot arrays and the allocators' headers of
 * its input and output blocks.
 * Make's transient peak is higher for file:PATH: the element lines are read into arrays of 16
 * bytes a line that grow by doubling, beside the instance being built, up to some 48 n. A failed
 * verification of a counted or uniform instance takes 2 n more for a moment, to name the culprit.
 * Machine thread only; verify and min_bytes may run on any one thread while no algorithm runs on
 * the instance, mem_bytes on any thread. */
int      hr__hrel_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen);
void     hr__hrel_reset(void *inst);
int      hr__hrel_parts(void *inst, int pid, hr_part *out, int max);
int      hr__hrel_verify(const void *inst, char *why, size_t whylen);
uint64_t hr__hrel_min_bytes(const void *inst, uint64_t *moved);
uint64_t hr__hrel_h(const void *inst);
uint64_t hr__hrel_mem_bytes(const hr_workload_spec *s, int p);
void     hr__hrel_destroy(void *inst);

/* What h is to a distribution. */
enum {
    HR_HREL_H_NONE = 0,  /* a result of the draw: a set h is refused (uniform) */
    HR_HREL_H_OWN,       /* the relation's own: h may be set, to that value only */
    HR_HREL_H_NEEDED,    /* a parameter: h must be set (skewed, random, difficult) */
};

/* One distribution: a row of hrel.c's table, which is sorted by name. Plain constant data. */
typedef struct hr_hrel_dist {
    const char *name;     /* as a config writes it; "file:PATH" stands for "file:" and any path
                           * after it, which make reads from the spec's distribution */
    const char *summary;  /* one line */
    int         h;        /* HR_HREL_H_*: what h is to it */
    int         sizes_n;  /* n follows from p and h: make checks n itself and says what it should
                           * be; otherwise hr__hrel_make refuses n = 0 and n > 2^32 first */
    int         keeps_dests; /* the instance keeps every element's dest: 2 bytes an element */
    /* Make an instance, as hr__hrel_make, for a spec whose distribution is set and is this row's
     * name (or "file:" and a path), p in 1 .. HREL_MAX_PROCS and, unless sizes_n, n in 1 .. 2^32. */
    int (*make)(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen);
} hr_hrel_dist;

/* The i-th row (from 0), NULL past the end; the row named by distribution ("file:" with any path
 * for "file:PATH"), or NULL. Any thread. */
const hr_hrel_dist *hr__hrel_dist_at(int i);
const hr_hrel_dist *hr__hrel_dist_find(const char *distribution);
/* The rows' names, "alltoall, difficult, ...": the hrelation row's distributions (--list, the
 * config's check) and make's message for an unknown one. */
extern const char hr__hrel_distributions[];

/* Fill v[0 .. p) with the number of elements labelled for each processor by eq. (7) of seed 000
 * for n elements and the requested h; h = n/p gives v_d = n/p for all d (the paper's transpose
 * case). Returns HR_OK, or HR_EINVAL with the unmet precondition in why. Any thread. */
int hr__hrel_skew_counts(uint64_t n, int p, uint64_t h, uint64_t *v, char *why, size_t whylen);

#endif /* HREMU_WORK_HREL_H */
