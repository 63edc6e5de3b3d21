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
    HR_KIND_SORT = 2,         /* sort 32-bit integer keys across the processors */
    HR_KIND_VALUES = 3,       /* broadcast, reduce or prefix m values a processor */
    HR_KIND_USER = 100,       /* a program's own kinds (hr_workload_register): 100 and up */
} hr_kind;

/* One element of an h-relation: two 32-bit fields, a datum and its destination. */
typedef struct hr_elem {
    uint32_t data;
    uint32_t dest;
} hr_elem;

/* An h-relation. Processor i starts with in[i][0 .. in_count[i]) and must end with every element
 * whose dest is i, once, in out[i][0 .. out_count[i]) in any order. The algorithm sets out[i] (memory
 * from hr_malloc) and out_count[i] on processor i only. Every processor holds at most h1 elements and
 * is the destination of at most h elements (the relation's h1 and h2, sent and received). */
typedef struct hr_hrel {
    int       p;
    uint64_t  n;              /* elements in all */
    uint64_t  h;              /* max elements any processor receives */
    uint64_t  h1;             /* max elements any processor holds at the start */
    hr_elem **in;
    size_t   *in_count;
    hr_elem **out;
    size_t   *out_count;
    void     *plan;           /* an off-line algorithm's plan (algorithm.h), else NULL */
} hr_hrel;

/* One key of an integer sort: a 32-bit key, and id = the element's position in the global input
 * sequence (processor 0's elements first, each processor's in order), so that the verifier can
 * check that the output is a stable permutation of the input. */
typedef struct hr_key {
    uint32_t key;
    uint32_t id;
} hr_key;

/* An integer sort. Processor i starts with in[i][0 .. in_count[i]) and must end with its block of
 * the globally stably sorted sequence in out[i][0 .. out_count[i]): each block non-descending by
 * key, the blocks in processor order (no key on processor i exceeds any key on processor j > i),
 * every input element exactly once with its key unchanged, and equal keys in ascending id order
 * across the whole output. The output is laid out as the input (an array congruent with it):
 * processor i ends with exactly n/p keys, one more when i < n mod p, so out_count[i] is the
 * input's in_count[i] and processor i holds the sorted ranks i*(n/p) + min(i, n mod p) onwards. The algorithm sets out[i] (memory from hr_malloc) and
 * out_count[i] on processor i only. */
typedef struct hr_sort {
    int       p;
    uint64_t  n;              /* keys in all */
    hr_key  **in;
    size_t   *in_count;
    hr_key  **out;
    size_t   *out_count;
} hr_sort;

/* What an algorithm on a values instance computes: it sets hr_values.goal (processor 0, before
 * it returns) so that the verifier knows what to check. */
typedef enum hr_values_goal {
    HR_GOAL_NONE = 0,         /* not set: verification fails */
    HR_GOAL_BCAST,            /* every out[i] is in[root], or in[the root of i's group] */
    HR_GOAL_REDUCE,           /* out[root] is the op of every in[i], element by element */
    HR_GOAL_PREFIX,           /* out[i] is the op of in[0] .. in[i] (inclusive), by element */
} hr_values_goal;

/* Values for broadcast, reduction and prefix. Processor i starts with m values
 * in[i][0 .. m) of type HR_INT64 or HR_DOUBLE and ends with m values in out[i] (memory from
 * hr_malloc, set on processor i only; a reduction sets out[root] only). Integer sums wrap modulo
 * 2^64 (as hr_op's do). Doubles are checked exactly, so the verifier combines them in the order
 * the built-in algorithms do: a reduction as a balanced binary tree over the addresses x ^ root
 * (pairs differing in bit 0 first) when p is a power of two, else left to right; a prefix of
 * x as T_hi (+) L, where L is x's prefix inside its aligned block of 2^split processors
 * combined as the hypercube prefix does (the blocks of x's set bits, largest last, each a
 * balanced tree, each combined in front: b_j (+) (... (+) (b_0 (+) in[x]))) and T_hi the same
 * combination of the blocks above split (b_{nu-1} (+) (... (+) b_split)), left out when x has no
 * set bit there. split = log2 p is the hypercube's prefix; an RH(k,n) prefix sets split = k. */
typedef struct hr_values {
    int        p;
    size_t     m;             /* values a processor */
    int        type;          /* an hr_type: HR_INT64 or HR_DOUBLE */
    int        op;            /* an hr_op: HR_SUM, HR_MAX or HR_MIN (reductions and prefixes) */
    int        root;          /* broadcasts and reductions */
    void     **in;            /* in[i]: m values of 8 bytes */
    void     **out;
    int        goal;          /* an hr_values_goal, set by the algorithm */
    int        split;         /* HR_GOAL_PREFIX of doubles: see above (0: log2 p) */
    /* HR_GOAL_BCAST to groups (a selective broadcast), set by the algorithm: the processors as
     * a mesh of `rows` rows of p/rows, row-major; HR_BCAST_ROWS broadcasts in
     * every row at once from its member in root's column, HR_BCAST_COLUMNS in every column
     * from its member in root's row. HR_BCAST_ALL (0): one broadcast from root to all. */
    int        group;         /* an hr_bcast_group */
    int        rows;
} hr_values;

typedef enum hr_bcast_group { HR_BCAST_ALL = 0, HR_BCAST_ROWS = 1, HR_BCAST_COLUMNS = 2 } hr_bcast_group;

/* A key of a workload kind's own, declared in its table row as algorithms declare parameters:
 * the config reads, checks and sweeps it, --list and the error messages show it, and every row
 * reports it in a column of its name, with no code for it outside the kind's file. */
typedef enum hr_wkey_type {
    HR_WKEY_INT = 1,          /* a whole number, or an integer expression in n and p ("n/p") */
    HR_WKEY_REAL,             /* a decimal number */
    HR_WKEY_WORD,             /* one of choices; an entry "NAME:PATH" takes any text after "NAME:" */
} hr_wkey_type;

typedef struct hr_wkey_spec {
    const char  *name;        /* NULL ends a list; [a-z0-9_] */
    const char  *summary;     /* one line for --list and docs/config.md */
    hr_wkey_type type;
    const char  *def;         /* the default, as config text; NULL: the key must be set */
    double       min, max;    /* HR_WKEY_INT and HR_WKEY_REAL: the range, inclusive */
    int          below_p;     /* HR_WKEY_INT: nonzero if it names a processor (below p) too */
    const char  *choices;     /* HR_WKEY_WORD: a comma list, "density, table6, file:PATH" */
    const char  *column;      /* the report's column for it; NULL: the key's name. A name the
                               * report has already (bytes) needs another column */
    const char  *when;        /* NULL: the key always applies; "KEY=A|B": only when the word key
                               * KEY, declared before it, is A or B ("file:" matches every
                               * "file:PATH"). Where it does not apply it is not set (an error
                               * in a config), its value is unset and its column empty */
} hr_wkey_spec;

/* A declared key's value: num for HR_WKEY_INT (a whole number, exact up to 2^53) and
 * HR_WKEY_REAL, word for HR_WKEY_WORD (as the config wrote it, "file:m.mtx"). */
typedef struct hr_wkey_value {
    double      num;
    const char *word;
} hr_wkey_value;

#define HR_WKEY_MAX 16        /* declared keys one kind may have */

/* What the [workload] section says; strings are owned by the caller. */
typedef struct hr_workload_spec {
    const char *kind;          /* "hrelation", "sort" */
    uint64_t    n;             /* total elements */
    uint64_t    h;             /* requested h (0: the distribution's natural one); hrelation only */
    const char *distribution;  /* "uniform", "transpose", "skewed" ...; hrelation only */
    const char *dataset;       /* sort: "R" (random keys), "S" (the AND of five random keys),
                                * "C" (0 .. n-1, dealt cyclically), "N" (the NAS IS benchmark's
                                * keys); values: "int", "double"; else NULL */
    const hr_wkey_value *keys; /* the kind's declared keys (hr_workload.keys), in their order */
    uint64_t    seed;
} hr_workload_spec;

/* A part of an instance (hr_workload.parts): the len bytes at addr, or with ref the len bytes
 * that the pointer at addr (a void *, NULL when len is 0) points to. */
typedef struct hr_part {
    void  *addr;
    size_t len;
    int    ref;
} hr_part;

#define HR_PARTS_MAX 8        /* parts a kind may give one processor */

typedef struct hr_workload {
    const char *name;          /* kind name, "hrelation" */
    const char *summary;
    hr_kind     kind;
    const char *distributions; /* comma list of distribution names, for --list and errors; NULL
                                * for a kind that takes no distribution */
    const char *datasets;      /* likewise the dataset names; NULL for a kind that takes none */
    const hr_wkey_spec *keys;  /* the kind's own keys, a list ended by a row with name NULL; or
                                * NULL. A name another kind declares has the same type there. */
    int         no_n;          /* nonzero: the kind's keys size it and [workload] n is not used
                                * (setting it is an error; the n column is empty) */
    /* Make an instance for p processors; HR_EINVAL with a reason in why (static text or buf).
     * s is borrowed for the call: an instance keeps copies of what it needs (the command may
     * keep an instance after the point's spec is gone). */
    int      (*make)(const hr_workload_spec *s, int p, void **inst, char *why, size_t whylen);
    void     (*reset)(void *inst);          /* forget outputs before another run */
    /* HR_OK, or HR_EVERIFY with what is wrong in why. */
    int      (*verify)(const void *inst, char *why, size_t whylen);
    /* The fewest payload bytes (hr_run_result.bytes) a correct run on inst sends: 4 for every
     * element whose input and output processors differ, their number in *moved (if not NULL).
     * Such an element must cross the machine, and it carries a 32-bit field that its receiver
     * cannot know otherwise: an h-relation element its data field (its dest is implied by the
     * receiver), a sort element its key (or its id: either one is a word). This assumes that
     * elements travel as words: an algorithm that encoded them more compactly (runs, counts,
     * compression) could be correct and go under it. For a sort the count comes from the output,
     * so call it only after verify returned HR_OK. Any one thread, as verify. */
    uint64_t (*min_bytes)(const void *inst, uint64_t *moved);
    uint64_t (*h)(const void *inst);         /* the instance's h, for the report */
    /* The bytes of memory an instance of s on p processors takes once made, within about 10%:
     * the instance (inputs, counts and the verifier's own truth), a correct output of n elements
     * (the algorithm's hr_malloc memory, so the machine's) and verify's working memory (its
     * bitmap of n bits); not what the algorithm allocates besides, nor make's own transient
     * peak (src/work/hrel.h says where that is higher). Meant for a spec make accepts; for
     * another it is an estimate from s->n. Any thread; keeps nothing (a kind may read a file's
     * header for it, as pattern's file:PATH does). */
    uint64_t (*mem_bytes)(const hr_workload_spec *s, int p);
    void     (*destroy)(void *inst);
    /* What processor pid's run leaves in inst, as at most max parts in out, in an order that
     * depends on pid and the kind alone; returns how many. On the MPI engine every rank makes
     * the same instance from the seed, each runs its own processor, and rank 0 takes the other
     * processors' parts into its copy to verify the row as the threads engine does. NULL: the
     * kind's rows are `unchecked` on MPI with more than one rank. Kept to what the algorithm
     * writes: outputs, their counts, flags. */
    int      (*parts)(void *inst, int pid, hr_part *out, int max);
} hr_workload;

/* Add a program's own workload kind, after the built-in ones, for the hremu command and every
 * lookup: a name made of letters, digits, '_' and '-', kind HR_KIND_USER or above, not used by another workload, the algorithms that take it
 * naming the same kind. Its instances come from [workload] kind = NAME, n, the machine's seed and
 * the keys it declares (spec->distribution and spec->dataset are NULL). A declared key must be
 * well formed (a known type, a default inside its range or among its choices, a name no fixed
 * [workload] key has, the type any other kind gives that name). w is borrowed and must outlive
 * every use.
 * HR_OK, or HR_EINVAL with a reason in why (if not NULL). Before anything runs, one thread. */
int hr_workload_register(const hr_workload *w, const char **why);
/* The i-th key name that some registered kind declares (i from 0), each name once, in the order
 * of the registry and of each kind's list; NULL past the end. The first declaration of a name
 * is returned (others have the same type). */
const hr_wkey_spec *hr_workload_key_at(int i);
/* Likewise the i-th column of declared keys (hr_wkey_spec.column, or the name), each column
 * once; the reports give each its own column. */
const hr_wkey_spec *hr_workload_column_at(int i);
/* Does declared key i of w apply, given the values of the keys before it (vals, in w's order)? */
int hr_workload_key_applies(const hr_workload *w, const hr_wkey_value *vals, int i);

/* A declared key's column name. */
static inline const char *hr_wkey_column(const hr_wkey_spec *k)
{
    return k->column != NULL ? k->column : k->name;
}
const hr_workload *hr_workload_find(const char *name);
const hr_workload *hr_workload_at(int i);   /* i from 0; NULL past the end */

/* Verify one run on inst: w->verify, then that the run sent at least w->min_bytes(inst) payload
 * bytes. bytes_moved is the run's hr_run_result.bytes (payload bytes sent, summed over the
 * processors). The second check fails a run that made a correct output without communicating it,
 * for instance by reading other processors' input directly: its message gives the bytes sent, the
 * elements that changed processor and the bytes they need. It is a floor, not a proof: a run that
 * sent enough bytes of anything passes it. Returns HR_OK, HR_EVERIFY with one line in why, or
 * another error of verify's (HR_ENOMEM). Call it between runs, while the run's outputs are alive
 * (before the next run or the machine's destroy); any one thread. */
int hr_workload_verify(const hr_workload *w, const void *inst, uint64_t bytes_moved, char *why,
                       size_t whylen);

#endif /* HREMU_WORKLOAD_H */
