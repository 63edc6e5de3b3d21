/* workload.h: workload generators and verifiers, found by name in a table.
 *
 * A workload makes one problem instance for a machine of p processors from the [workload] section
 * of a config, lays out each processor's input, and verifies what the algorithm left as output.
 * Instances are plain data that algorithms read (their own processor's part only) and write (their
 * own output slot only).
 */
#ifndef HREMU_WORKLOAD_H
#define HREMU_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

/* The kinds of problem; an algorithm takes exactly one kind. */
typedef enum hr_kind {
    HR_KIND_HRELATION = 1,    /* route every element to its destination */
} hr_kind;

/* One element of an h-relation, as in seed 000: two 32-bit fields. */
typedef struct hr_elem {
    uint32_t data;
    uint32_t dest;
} hr_elem;

/* An h-relation. Processor i starts with in[i][0 .. in_count[i]) and must end with every element
 * whose dest is i, once, in out[i][0 .. out_count[i]) in any order. The algorithm sets out[i] (memory
 * from hr_malloc) and out_count[i] on processor i only. Every processor holds at most h1 elements and
 * is the destination of at most h elements (seed 000 section 3.3's h1 and h2). */
typedef struct hr_hrel {
    int       p;
    uint64_t  n;              /* elements in all */
    uint64_t  h;              /* max elements any processor receives */
    uint64_t  h1;             /* max elements any processor holds at the start */
    hr_elem **in;
    size_t   *in_count;
    hr_elem **out;
    size_t   *out_count;
} hr_hrel;

/* What the [workload] section says; strings are owned by the caller. */
typedef struct hr_workload_spec {
    const char *kind;          /* "hrelation" */
    uint64_t    n;             /* total elements */
    uint64_t    h;             /* requested h (0: the distribution's natural one) */
    const char *distribution;  /* "uniform", "transpose", "skewed" ... */
    uint64_t    seed;
} hr_workload_spec;

typedef struct hr_workload {
    const char *name;          /* kind name, "hrelation" */
    const char *summary;
    hr_kind     kind;
    const char *distributions; /* comma list of distribution names, for --list and errors */
    /* Make an instance for p processors; HR_EINVAL with a reason in why (static text or buf). */
    int      (*make)(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen);
    void     (*reset)(void *inst);          /* forget outputs before another run */
    /* HR_OK, or HR_EVERIFY with what is wrong in why. */
    int      (*verify)(const void *inst, char *why, size_t whylen);
    uint64_t (*h)(const void *inst);         /* the instance's h, for the report */
    void     (*destroy)(void *inst);
} hr_workload;

const hr_workload *hr_workload_find(const char *name);
const hr_workload *hr_workload_at(int i);   /* i from 0; NULL past the end */

#endif /* HREMU_WORKLOAD_H */
