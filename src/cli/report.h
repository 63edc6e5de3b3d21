/* report.h: writing rows as an aligned table, CSV (a header line, then rows) or JSON lines.
 *
 * Columns, in this order (DESIGN.md section 4; the first sixteen are the contract):
 *   algorithm procs n h discipline topology cost seed model_time_s rounds messages bytes
 *   max_out_bytes max_in_bytes wall_s verified | rounds_per_h lost stalls status distribution
 *   dataset KEY... buffer switching tau sigma overhead hop compute_unit compute repeat params
 *   plan_s plan_steps
 * After status, every setting that may vary between rows and is not in the first sixteen, so
 * that every row says what produced it: the workload's distribution (hrelation) or dataset
 * (sort, values; the other is empty), one column for each key a workload kind declares
 * (hr_workload_key_at: op and root of kind values, ...; empty for the other kinds, null in
 * JSON), the
 * receive buffer in bytes or "unlimited", the switching of the
 * links (cut_through or store_forward), the cost model's
 * parameters in seconds (the cost column names only the preset), compute (units or measured),
 * the repeats behind wall_s, and the algorithm's parameters. plan_s and plan_steps: the wall
 * time of a scheduler's plan, computed before the run (not in wall_s or model time), and its
 * steps; empty for algorithms without (null in JSON).
 * rounds_per_h is rounds / h (seed 003's measure); lost counts round messages lost in collisions
 * (arbitrary, ocpc); stalls counts sends that waited for buffer room or a rendezvous, and the
 * rounds messages waited in fifo and priority queues.
 * status is ok, unchecked (verify = false), wrong (verification failed), failed (hr_fail),
 * deadlock, overflow (model time left the clock's range, cost.h), nondeterministic (model figures
 * differed between repeats) or error (the machine could
 * not run); verified is true exactly when status is ok. params lists the algorithm's parameters as
 * "NAME=VALUE" separated by spaces.
 * CSV and JSON print model_time_s and wall_s with the fewest digits that read back to the same
 * double, so equal model figures print equal text; the table rounds to 6 digits for the eye.
 * A report belongs to the thread that began it.
 */
#ifndef HREMU_CLI_REPORT_H
#define HREMU_CLI_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <hremu/workload.h>

typedef enum hr_format {
    HR_FORMAT_TABLE,
    HR_FORMAT_CSV,
    HR_FORMAT_JSON,
} hr_format;

/* One row; strings are borrowed for the duration of hr__report_row. */
typedef struct hr_row {
    const char *algorithm;
    int         procs;
    uint64_t    n, h;
    int         no_n;                     /* the kind does not use n: its column is empty */
    const char *discipline, *topology, *cost;
    uint64_t    seed;
    double      model_time_s;
    uint64_t    rounds, messages, bytes, max_out_bytes, max_in_bytes;
    uint64_t    steps;                    /* communication steps (hr_run_result.steps) */
    int         h_set;                    /* h is a setting (the config's), not drawn */
    double      wall_s;
    int         verified;
    uint64_t    lost;
    uint64_t    stalls;
    const char *status;
    const char *distribution, *dataset;   /* NULL: the kind takes none */
    const hr_workload   *workload;        /* the row's kind, for its declared keys ... */
    const hr_wkey_value *wkeys;           /* ... and their values, in its order */
    uint64_t    buffer;                   /* bytes; 0: unlimited */
    int         store_forward;            /* switching: 0 cut_through, 1 store_forward */
    double      tau, sigma, overhead, hop, compute_unit;
    int         measured;
    uint64_t    repeat;
    const char *params;
    int         planned;                  /* the algorithm planned a schedule: ... */
    double      plan_s;                   /* ... its wall time, s ... */
    uint64_t    plan_steps;               /* ... and its steps */
} hr_row;

#define HR_REPORT_MAX_COLS 128
#define HR_REPORT_TABLE_WIDTH 160   /* the default table's width, in characters, at most */

typedef struct hr_aggregate hr_aggregate;
typedef struct hr_table hr_table;

typedef struct hr_report {
    FILE     *out;
    hr_format format;
    size_t    rows;       /* written so far (or, aggregating, taken) */
    int       sel[HR_REPORT_MAX_COLS];   /* the columns written, in order */
    int       nsel;
    int       chosen;     /* the columns are --columns', not the default (hr__report_pick) */
    int       aggregate;  /* --aggregate seed (hr__report_pick) */
    hr_aggregate *agg;    /* then the rows kept, written by hr__report_end */
    hr_table *table;      /* the table's lines, written by hr__report_end */
    char      dropped[256];  /* the default table's columns left out to fit, "a, b", or "" */
    int       failed;     /* out of memory keeping rows */
} hr_report;

/* The columns a report writes: HR_REPORT_ALL, or the comma list `list` of column names in the
 * order given (HR_OK), or HR_EINVAL with why naming the first unknown one and the valid ones.
 * aggregate: the names of aggregated rows (model columns as X_mean, X_sd, X_min, X_max, and
 * count). hide (may be NULL) lists names to leave out of the default (table: what says nothing
 * for the sweep's rows). */
int  hr__report_pick(hr_report *r, const char *list, int aggregate, const char *const *hide,
                     char *why, size_t whylen);

/* "table", "csv" or "json"; HR_OK or HR_EINVAL. */
int  hr__report_format(const char *name, hr_format *out);
/* Start a report on out (borrowed, not closed): writes the header of table and CSV, with every
 * column. hr__report_start does the same with the columns hr__report_pick chose (and, if it was
 * told aggregate, keeps the rows for hr__report_end to aggregate by seed). */
void hr__report_begin(hr_report *r, FILE *out, hr_format format);
void hr__report_start(hr_report *r, FILE *out, hr_format format);
void hr__report_row(hr_report *r, const hr_row *row);
/* One record of named fields (a topology's figures, say): a header line and one row in table and
 * CSV, one object in JSON; numeric[i] nonzero prints field i as a number (JSON, alignment). At
 * most 64 fields. */
void hr__report_record(FILE *out, hr_format format, const char *const *names,
                       const char *const *values, const int *numeric, int n);
/* A table of one's own, in the rows' formats (--regions, say): n columns called names, numeric
 * as for hr__report_record, widths[i] the table's width of column i (at least its name's). values
 * NULL writes the header line (table and CSV; JSON has none), else one line. At most
 * HR_REPORT_MAX_COLS columns. */
void hr__report_line(FILE *out, hr_format format, const char *const *names, const int *numeric,
                     const int *widths, const char *const *values, int n);
/* Aggregating: write the kept rows, one per group of rows equal in all but the seed and the
 * model figures (and h, which a seeded workload draws). Then flush; HR_OK, or HR_ESYS if any
 * write failed (HR_ENOMEM if rows could not be kept). */
int  hr__report_end(hr_report *r);
/* s as one CSV field (quoted as RFC 4180 says, if it must be); JSON strings: cli/jsonstr.h. */
void hr__report_csv_field(FILE *out, const char *s);
/* The shortest "%g" text of d that reads back as exactly d (at most 24 bytes). Any thread. */
void hr__report_double(char *buf, size_t len, double d);

#endif /* HREMU_CLI_REPORT_H */
