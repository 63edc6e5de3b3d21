/* report.h: writing rows as an aligned table, CSV (a header line, then rows) or JSON lines.
 *
 * The columns, their order, types and what the default table and --aggregate seed make of them
 * are rows of cli/columns.c, and docs/config.md lists them (`hremu --doc-columns`).
 * CSV and JSON print model_time_s and wall_s with the fewest digits that read back to the same
 * double, so equal model figures print equal text; the table rounds to 6 digits for the eye.
 * A report belongs to the thread that began it.
 */
#ifndef HREMU_CLI_REPORT_H
#define HREMU_CLI_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <hremu/workload.h>

#include "cli/columns.h"

typedef enum hr_format {
    HR_FORMAT_TABLE,
    HR_FORMAT_CSV,
    HR_FORMAT_JSON,
} hr_format;

/* What the sweep's rows can have: the default table leaves out a column that none of them can
 * fill (hr_column.needs, a declared key no row's kind declares). */
typedef struct hr_report_rows {
    unsigned traits;                  /* HR_ROWS_* (cli/columns.h) */
    const hr_workload *const *kinds;  /* the rows' workload kinds (borrowed) ... */
    int nkinds;                       /* ... and how many */
} hr_report_rows;

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
    int       has_rows;   /* can holds what the rows can have (hr__report_pick) */
    hr_report_rows can;
    hr_aggregate *agg;    /* then the rows kept, written by hr__report_end */
    hr_table *table;      /* the table's lines, written by hr__report_end */
    char      dropped[256];  /* the default table's columns left out to fit, "a, b", or "" */
    int       failed;     /* out of memory keeping rows */
} hr_report;

/* The columns a report writes: HR_REPORT_ALL, or the comma list `list` of column names in the
 * order given (HR_OK), or HR_EINVAL with why naming the first unknown one and the valid ones.
 * aggregate: the names of aggregated rows (figures as X_mean, X_sd, X_min, X_max, and count).
 * rows (may be NULL: anything) says what the sweep's rows can have: the default table leaves out
 * the columns none of them can fill. */
int  hr__report_pick(hr_report *r, const char *list, int aggregate, const hr_report_rows *rows,
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
