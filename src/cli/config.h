/* config.h: a run configuration (an INI file read with libinih, plus --set overrides) and the
 * sweep it describes.
 *
 * Sections and keys (defaults in parentheses; docs/config.md has the full list):
 *   [machine]  procs (16), topology (complete), discipline (async), buffer (unlimited), cost (cm5),
 *              tau, sigma, overhead, hop, compute_unit (from the preset), compute (units), seed (1)
 *   [workload] kind (hrelation), n (2^20), h (0: the distribution's own), distribution (uniform);
 *              h and distribution for kind hrelation only, dataset (required) for kinds sort and
 *              values only; then the keys each kind declares (hr_workload.keys), for that kind
 *   [run]      algorithms (no default: required), repeat (1), verify (true), unreceived (warn),
 *              model (on)
 *   [ALGORITHM] one key per entry of that algorithm's hr_param_spec list (its .def by default)
 * Every value may be a comma list: the sweep is the cross product of all lists. Rows run in the
 * order machine point, workload point, run point, algorithm (as listed), algorithm parameters;
 * within each level the first key of the lists above varies slowest.
 *
 * The cost column names the preset; it gets a '*' ("cm5*") when tau, sigma, overhead, hop or
 * compute_unit is set, since the figures then no longer are the preset's.
 *
 * Errors come back as one line "WHERE: what is wrong", WHERE being "FILE:LINE", "FILE", or
 * "--set SECTION.KEY"; the caller adds the "hremu: " prefix. No function here prints or exits.
 * A config belongs to one thread at a time: libinih's settings are process-wide globals, so
 * hr__config_load and hr__config_parse must not run concurrently.
 */
#ifndef HREMU_CLI_CONFIG_H
#define HREMU_CLI_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hremu/algorithm.h>
#include <hremu/machine.h>
#include <hremu/workload.h>

#define HR_CONFIG_MAX_ROWS   100000      /* rows one sweep may have */
#define HR_CONFIG_MAX_PARAMS 16          /* parameters one algorithm may have */
#define HR_CONFIG_MAX_LINE   65536       /* bytes in one line of a config file */
#define HR_CONFIG_MAX_FILE   (16 << 20)  /* bytes in a config file */
#define HR_CONFIG_MAX_REPEAT 1000000
#define HR_CONFIG_COST_MAX   (4096 + 16) /* the cost column: "file:PATH*", PATH up to PATH_MAX */

typedef struct hr_config hr_config;

typedef struct hr_config_error {
    char msg[512];               /* "WHERE: what is wrong", without the "hremu: " prefix */
} hr_config_error;

/* For each entry of a config, the points it was set for and did not apply to (another
 * discipline's key, another kind's, another topology's), and the first one's reason:
 * hr__config_check refuses a key that applies to no point of its level. */
typedef struct hr_misfits {
    size_t          *count;
    hr_config_error *first;
} hr_misfits;

/* One point of the sweep: what one row needs. Strings point into the config or into static
 * defaults and live as long as the config. */
typedef struct hr_point {
    hr_machine_config   machine;
    char                cost[HR_CONFIG_COST_MAX];   /* the cost column */
    char                topology[128]; /* the topology with fattree_bw's bandwidths, if set */
    int                 cost_changed;  /* nonzero when a key overrode the preset */
    int                 engine_auto;   /* engine = auto chose machine.engine (config_keys.c) */
    const hr_workload  *workload;
    hr_workload_spec    work;          /* seed is the machine's; keys point at wkeys */
    const char         *n_uses_h;      /* while a point's workload is read: n's text, when it
                                        * uses h and waits for it (config_keys.c) */
    hr_wkey_value       wkeys[HR_WKEY_MAX];  /* the kind's declared keys, in its order */
    unsigned            repeat;
    int                 verify;
    int                 unreceived_error;  /* [run] unreceived = error: such a row fails */
    int                 model;         /* [run] model: on (1) or off (0, hremu-mpi only) */
    const hr_algorithm *alg;
    double              params[HR_CONFIG_MAX_PARAMS];  /* in the order of alg->params */
    int                 nparams;
    /* A key set in the config that does not apply to this point leaves it alone: the row runs
     * without it, and its column is empty there (a sweep of discipline = async, eager with
     * eager_limit = 4K). Counted here when not NULL (hr__config_check). */
    hr_misfits         *misfits;
} hr_point;

/* Write "where: message" into e (where NULL: just the message; e NULL: nothing) and return code,
 * so that callers can `return hr__config_fail(...)`. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int hr__config_fail(hr_config_error *e, int code, const char *where, const char *fmt, ...);

/* ---- building -------------------------------------------------------------------------------- */
/* Read and parse the file at path (at most HR_CONFIG_MAX_FILE bytes). Returns HR_OK with a new
 * config in *out, or HR_EINVAL / HR_ENOMEM / HR_ESYS with e filled and *out untouched. Checks the
 * syntax, the section and key names and duplicates; values are checked by hr__config_check. */
int  hr__config_load(const char *path, hr_config **out, hr_config_error *e);
/* As hr__config_load, from len bytes of text; name is what error messages call the file. */
int  hr__config_parse(const char *name, const char *text, size_t len, hr_config **out,
                      hr_config_error *e);
/* Apply one "SECTION.KEY=VALUE" override (the key is split from the section at the last dot). A
 * later override of the same key wins over an earlier one and over the file. On error returns
 * HR_EINVAL or HR_ENOMEM and leaves c unchanged. */
int  hr__config_set(hr_config *c, const char *assignment, hr_config_error *e);
/* Check everything that can be checked without building a machine: [run] algorithms is set and
 * names known algorithms, the sweep has at most HR_CONFIG_MAX_ROWS rows, and every value of every
 * point is well formed and in range. Rows whose algorithm does not take the point's workload kind
 * or discipline are left for the sweep to skip; if that is every row, it is an error (HR_EKIND,
 * the first such row's reason). HR_OK, or HR_EINVAL (or another negative code) with e filled. */
int  hr__config_check(const hr_config *c, hr_config_error *e);
/* What is allowed but probably not meant: sections of algorithms that are not in [run]
 * algorithms. Calls warn once per such section with "WHERE: warning: ...". */
void hr__config_warnings(const hr_config *c, void (*warn)(void *arg, const char *msg), void *arg);
void hr__config_free(hr_config *c);     /* NULL is fine */

/* ---- enquiry --------------------------------------------------------------------------------- */
/* Write "FILE:LINE" for the header of section (or "FILE" if the file has none) into buf. */
void   hr__config_locate(const hr_config *c, const char *section, char *buf, size_t len);
/* The same for what a message names: the place that set section.KEY, KEY the message's first
 * word ("tau must be ..."), if it is a key that was set; else the section's header. */
void   hr__config_locate_said(const hr_config *c, const char *section, const char *msg,
                              char *buf, size_t len);
/* The files a run of c reads: fn(arg, what, path) for the config itself (what: "the config",
 * path its name as loaded) and for every "file:PATH" value of any key (what: the key's name),
 * each path as its reader opens it. Stops at, and returns, the first nonzero fn returns; else
 * 0. The strings live as long as c. */
int    hr__config_each_input(const hr_config *c,
                             int (*fn)(void *arg, const char *what, const char *path), void *arg);

/* ---- the sweep ------------------------------------------------------------------------------- */
/* Counts of points at each level (saturating above HR_CONFIG_MAX_ROWS); alg from 0 to
 * hr__config_algorithms() - 1, in the order of [run] algorithms. */
size_t hr__config_machines(const hr_config *c);
size_t hr__config_workloads(const hr_config *c);
size_t hr__config_runs(const hr_config *c);
size_t hr__config_algorithms(const hr_config *c);
size_t hr__config_params(const hr_config *c, size_t alg);
size_t hr__config_rows(const hr_config *c);

/* Fill the parts of pt for point i of a level; later levels read what earlier ones filled, so call
 * them in the order machine, workload, run, algorithm. HR_OK or HR_EINVAL with e filled;
 * hr__config_algorithm returns HR_EKIND (e filled) for an algorithm that does not take the
 * point's workload kind or discipline: a row to skip. */
int hr__config_machine(const hr_config *c, size_t i, hr_point *pt, hr_config_error *e);
int hr__config_workload(const hr_config *c, size_t i, hr_point *pt, hr_config_error *e);
int hr__config_run(const hr_config *c, size_t i, hr_point *pt, hr_config_error *e);
int hr__config_algorithm(const hr_config *c, size_t alg, size_t i, hr_point *pt,
                         hr_config_error *e);

/* --list: the lines under an algorithm's own (indent spaces first): the disciplines it takes and
 * its needs in words, its topologies, and its parameters with their ranges or words. */
void hr__config_list_algorithm(FILE *out, const hr_algorithm *a, int indent);

#endif /* HREMU_CLI_CONFIG_H */
