/* columns.h: the report's columns, declared once, one row each in columns.c: the name, the type,
 * when the default table shows it, the hr_row field it is read from, what --aggregate seed makes
 * of it, and its line in docs/config.md. report.c writes the table, CSV and JSON and chooses
 * --columns from that table; `hremu --doc-columns` prints docs/config.md's list of them.
 */
#ifndef HREMU_CLI_COLUMNS_H
#define HREMU_CLI_COLUMNS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hremu/workload.h>

/* One row of the report, filled by cli/sweep.c; strings are borrowed for the duration of
 * hr__report_row. Each column reads one field by name (columns.c). */
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
    int         model_off;    /* [run] model = off: no model figures */
    const char *engine;       /* the engine's name (core/world.h) */
    int         hosts;        /* distinct hosts its processes ran on */
    int         fibers;       /* [machine] engine = fibers ... */
    uint64_t    stack;        /* ... with stacks of this many bytes ... */
    int         carriers;     /* ... run by this many carrier threads */
    const char *distribution, *dataset;   /* NULL: the kind takes none */
    const hr_workload   *workload;        /* the row's kind, for its declared keys ... */
    const hr_wkey_value *wkeys;           /* ... and their values, in its order */
    uint64_t    buffer;                   /* bytes; 0: unlimited ... */
    int         buffered;                 /* ... under a discipline that buffers (shown) */
    uint64_t    eager_limit;              /* bytes, under a discipline with an eager limit */
    int         eager;                    /* the discipline has one (eager_limit is shown) */
    int         switching;                /* the link model's row (net/link_model.h) */
    const char *cost_model;               /* [machine] cost_model */
    double      tau, sigma, overhead, hop, gap, compute_unit;
    int         measured;
    uint64_t    repeat;
    const char *params;
    int         planned;                  /* the algorithm planned a schedule: ... */
    double      plan_s;                   /* ... its wall time, s ... */
    uint64_t    plan_steps;               /* ... and its steps */
    int         has_supersteps;           /* the run ended supersteps (hr_sync; under bsp,
                                             world collectives too): ... */
    uint64_t    supersteps;               /* ... this many, ... */
    double      bsp_w;                    /* ... their w summed, seconds, ... */
    uint64_t    bsp_h;                    /* ... and their h summed, bytes */
} hr_row;

/* How a column's value is read from its hr_row field and printed. */
typedef enum hr_col_type {
    HR_COL_TEXT,     /* const char *, NULL empty */
    HR_COL_COUNT,    /* uint64_t; with .zero, 0 prints as that word and the column is text */
    HR_COL_INT,      /* int, a negative one printed as 0 */
    HR_COL_FIGURE,   /* double, a measure: 6 digits in the table, exact in CSV and JSON (.get:
                      * computed from the row instead of read) */
    HR_COL_SETTING,  /* double, a setting: always the text that reads back exactly */
    HR_COL_BOOL,     /* int: true or false */
    HR_COL_WORDS,    /* int: .words[0] when 0, .words[1] otherwise */
    HR_COL_NAMED,    /* int: the name of that row of a table, .named(i, NULL) */
    HR_COL_KEYS,     /* no field: one column for each key a workload kind declares
                      * (hr_workload_column_at), each filled from hr_row.workload and .wkeys */
} hr_col_type;

/* When the default table shows a column (CSV, JSON and --columns have them all): it leaves out
 * what says nothing for its rows, so that it stays narrow. */
typedef enum hr_col_show {
    HR_SHOW_ALWAYS,   /* algorithm and the model figures */
    HR_SHOW_SIZE,     /* procs, n, h: unless empty in every row */
    HR_SHOW_VARIES,   /* a setting: when the rows differ in it */
    HR_SHOW_BY_COST,  /* a figure of the cost model: when rows of one cost column differ in it */
    HR_SHOW_FILLED,   /* when some row has it */
    HR_SHOW_NOT_OK,   /* status: when some row's is not ok */
    HR_SHOW_NEVER,    /* in CSV, JSON and --columns only */
} hr_col_show;

/* What the sweep's rows can have (hr_report_rows.traits): a column that .needs one of them is
 * left out of the default table when no row can fill it. */
enum {
    HR_ROWS_ROUNDS = 1,  /* some row runs a round discipline (fifo, priority, arbitrary, ocpc) */
    HR_ROWS_LOSSY = 2,   /* some row's discipline can lose messages (arbitrary, ocpc) */
    HR_ROWS_STALLS = 4,  /* some row can stall a send (sync, a bounded buffer, fifo, priority) */
    HR_ROWS_ENGINE = 8,  /* some row runs on another engine than threads (fibers, MPI) */
};

/* What --aggregate seed makes of a column, over a group of rows equal in all but the seed and
 * the figures. An aggregated row is: the columns up to seed, count, the statistics, the
 * outcome (wall_s, verified, status), the other settings. */
typedef enum hr_col_agg {
    HR_AGG_GROUP,   /* a setting: rows that differ in it are in different groups */
    HR_AGG_STATS,   /* a figure: X_mean, X_sd, X_min, X_max, the .stat-th of the statistics;
                     * with .setting_if, a setting (grouped, no statistics) in the rows that
                     * have that flag */
    HR_AGG_SEEDS,   /* the seeds of the group, separated by spaces */
    HR_AGG_MEAN,    /* the mean of the rows' values */
    HR_AGG_ALL,     /* true when every row's is */
    HR_AGG_SAME,    /* the rows' value, or mixed */
} hr_col_agg;

/* Which statistics of a figure the default table of aggregated rows shows (.agg_show). */
enum { HR_AGG_SHOW_MEAN = 1, HR_AGG_SHOW_SD = 2 };

/* An int field of hr_row (HR_IF, HR_UNLESS in columns.c); on 0: none. */
typedef struct hr_col_flag {
    int    on;
    size_t at;
} hr_col_flag;

/* A column. Rows are in output order; the table ends with a row whose name is NULL. */
typedef struct hr_column {
    const char  *name;
    hr_col_type  type;
    size_t       at;          /* offsetof(hr_row, FIELD): where the value is */
    double     (*get)(const hr_row *r);   /* HR_COL_FIGURE: computed instead of read */
    const char  *words[2];    /* HR_COL_WORDS */
    const char *(*named)(int i, const char **summary);   /* HR_COL_NAMED: the table's names */
    const char  *zero;        /* HR_COL_COUNT: the word for 0 ("unlimited"), or NULL */
    hr_col_flag  only_if;     /* empty unless this flag is set (a planner's figures) */
    hr_col_flag  unless;      /* empty when this flag is set (n of a kind without n) */
    int          null_empty;  /* JSON: an empty value is null, not "" */
    hr_col_show  show;
    unsigned     needs;       /* HR_ROWS_*: the default table shows it only if some row can */
    int          spare;       /* 1, 2, ...: the default table, too wide, leaves it out in this
                               * order; 0: never */
    hr_col_agg   agg;
    int          stat;        /* HR_AGG_STATS: its place among the statistics, from 1 */
    hr_col_flag  setting_if;  /* HR_AGG_STATS: a setting in the rows with this flag */
    unsigned     agg_show;    /* HR_AGG_SHOW_*: the aggregated table shows these */
    const char  *doc;         /* its line in docs/config.md */
} hr_column;

/* The i-th column (from 0), or NULL past the last. Any thread. */
const hr_column *hr__column_at(int i);

/* docs/config.md's list of the columns, as a Markdown table: every row of the table, the keys
 * workload kinds declare among them (`hremu --doc-columns`; tests/cli/run.sh compares). */
void hr__columns_doc(FILE *out);

#endif /* HREMU_CLI_COLUMNS_H */
