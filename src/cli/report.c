/* report.c: one table of columns drives all three formats, so their columns cannot drift apart. */
#include "cli/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

typedef enum col_type { COL_STR, COL_NUM, COL_BOOL } col_type;

typedef struct column {
    const char *name;
    col_type    type;
    int         width;     /* in the table; numbers align right, text left */
} column;

static const column columns[] = {
    { "algorithm",     COL_STR,  18 },
    { "procs",         COL_NUM,   5 },
    { "n",             COL_NUM,  10 },
    { "h",             COL_NUM,   9 },
    { "discipline",    COL_STR,  10 },
    { "topology",      COL_STR,   8 },
    { "cost",          COL_STR,   5 },
    { "seed",          COL_NUM,   4 },
    { "model_time_s",  COL_NUM,  12 },
    { "rounds",        COL_NUM,   6 },
    { "messages",      COL_NUM,   9 },
    { "bytes",         COL_NUM,  11 },
    { "max_out_bytes", COL_NUM,  13 },
    { "max_in_bytes",  COL_NUM,  12 },
    { "wall_s",        COL_NUM,  10 },
    { "verified",      COL_BOOL,  8 },
    { "rounds_per_h",  COL_NUM,  12 },
    { "lost",          COL_NUM,   6 },
    { "stalls",        COL_NUM,   6 },
    { "status",        COL_STR,  16 },
    { "distribution",  COL_STR,  12 },
    { "dataset",       COL_STR,   7 },
    { "buffer",        COL_STR,   9 },
    { "switching",     COL_STR,  11 },
    { "tau",           COL_NUM,   8 },
    { "sigma",         COL_NUM,   8 },
    { "overhead",      COL_NUM,   8 },
    { "hop",           COL_NUM,   3 },
    { "compute_unit",  COL_NUM,  12 },
    { "compute",       COL_STR,   8 },
    { "repeat",        COL_NUM,   6 },
    { "params",        COL_STR,   0 },
};
#define NCOL ((int)(sizeof columns / sizeof columns[0]))
_Static_assert(sizeof columns / sizeof columns[0] == 32, "fill() sets every column by index");

/* A row's fields as text: strings point into the row, numbers into buf. */
typedef struct field {
    const char *s;
    char        buf[40];
} field;

int hr__report_format(const char *name, hr_format *out)
{
    static const char *const names[] = { "table", "csv", "json" };
    for (int i = 0; i < 3; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (hr_format)i;
            return HR_OK;
        }
    return HR_EINVAL;
}

void hr__report_double(char *buf, size_t len, double d)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            return;
    }
}

static const char *num(field *f, uint64_t v)
{
    snprintf(f->buf, sizeof f->buf, "%" PRIu64, v);
    return f->buf;
}

static const char *real(field *f, double d, hr_format fmt)
{
    if (fmt == HR_FORMAT_TABLE)
        snprintf(f->buf, sizeof f->buf, "%.6g", d);
    else if (!isfinite(d))   /* JSON has no such number */
        snprintf(f->buf, sizeof f->buf, fmt == HR_FORMAT_JSON ? "null" : "%g", d);
    else
        hr__report_double(f->buf, sizeof f->buf, d);
    return f->buf;
}

/* A setting: always the text that reads back as exactly d, so that rows that differ in it never
 * print alike (the table's 6 digits could). */
static const char *exact(field *f, double d, hr_format fmt)
{
    if (fmt == HR_FORMAT_JSON && !isfinite(d))
        return real(f, d, fmt);
    hr__report_double(f->buf, sizeof f->buf, d);
    return f->buf;
}

static const char *text(const char *s)
{
    return s ? s : "";
}

static void fill(field f[NCOL], const hr_row *r, hr_format fmt)
{
    f[0].s = text(r->algorithm);
    f[1].s = num(&f[1], (uint64_t)(r->procs > 0 ? r->procs : 0));
    f[2].s = num(&f[2], r->n);
    f[3].s = num(&f[3], r->h);
    f[4].s = text(r->discipline);
    f[5].s = text(r->topology);
    f[6].s = text(r->cost);
    f[7].s = num(&f[7], r->seed);
    f[8].s = real(&f[8], r->model_time_s, fmt);
    f[9].s = num(&f[9], r->rounds);
    f[10].s = num(&f[10], r->messages);
    f[11].s = num(&f[11], r->bytes);
    f[12].s = num(&f[12], r->max_out_bytes);
    f[13].s = num(&f[13], r->max_in_bytes);
    f[14].s = real(&f[14], r->wall_s, fmt);
    f[15].s = r->verified ? "true" : "false";
    f[16].s = real(&f[16], r->h > 0 ? (double)r->rounds / (double)r->h : NAN, fmt);
    f[17].s = num(&f[17], r->lost);
    f[18].s = num(&f[18], r->stalls);
    f[19].s = text(r->status);
    f[20].s = text(r->distribution);
    f[21].s = text(r->dataset);
    f[22].s = r->buffer ? num(&f[22], r->buffer) : "unlimited";
    f[23].s = r->store_forward ? "store_forward" : "cut_through";
    f[24].s = exact(&f[24], r->tau, fmt);
    f[25].s = exact(&f[25], r->sigma, fmt);
    f[26].s = exact(&f[26], r->overhead, fmt);
    f[27].s = exact(&f[27], r->hop, fmt);
    f[28].s = exact(&f[28], r->compute_unit, fmt);
    f[29].s = r->measured ? "measured" : "units";
    f[30].s = num(&f[30], r->repeat);
    f[31].s = text(r->params);
}

/* ---- CSV (RFC 4180 quoting) ----------------------------------------------------------------- */

static void csv_field(FILE *out, const char *s)
{
    size_t n = strlen(s);
    if (strpbrk(s, ",\"\r\n") == NULL && (n == 0 || (s[0] != ' ' && s[n - 1] != ' '))) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* The writers take the column set and one string per column, so that a run's row and any other
 * record (hr__report_record) print alike. */
static void csv_row(FILE *out, const column *cols, int n, const char *const *v)
{
    (void)cols;
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        csv_field(out, v[i]);
    }
    fputc('\n', out);
}

/* ---- JSON lines ----------------------------------------------------------------------------- */

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void json_row(FILE *out, const column *cols, int n, const char *const *v)
{
    fputc('{', out);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        json_string(out, cols[i].name);
        fputc(':', out);
        if (cols[i].type == COL_STR)
            json_string(out, v[i]);
        else
            fputs(v[i], out);
    }
    fputs("}\n", out);
}

/* ---- table ---------------------------------------------------------------------------------- */

/* Columns padded to their width, with no white space after the last non-empty field. */
static void table_row(FILE *out, const column *cols, int n, const char *const *v)
{
    int last = n - 1;
    while (last > 0 && v[last][0] == '\0')
        last--;
    for (int i = 0; i <= last; i++) {
        int w = cols[i].width;
        int name = (int)strlen(cols[i].name);
        w = w > name ? w : name;
        if (i == last && cols[i].type != COL_NUM)
            fputs(v[i], out);
        else
            fprintf(out, cols[i].type == COL_NUM ? "%*s" : "%-*s", w, v[i]);
        if (i < last)
            fputs("  ", out);
    }
    fputc('\n', out);
}

typedef void (*row_writer)(FILE *out, const column *cols, int n, const char *const *v);

static row_writer writer(hr_format format)
{
    return format == HR_FORMAT_CSV ? csv_row : format == HR_FORMAT_JSON ? json_row : table_row;
}

/* ---- the report ----------------------------------------------------------------------------- */

void hr__report_begin(hr_report *r, FILE *out, hr_format format)
{
    r->out = out;
    r->format = format;
    r->rows = 0;
    if (format == HR_FORMAT_JSON)
        return;
    const char *head[NCOL];
    for (int i = 0; i < NCOL; i++)
        head[i] = columns[i].name;
    writer(format)(out, columns, NCOL, head);
}

void hr__report_row(hr_report *r, const hr_row *row)
{
    field f[NCOL];
    const char *v[NCOL];
    fill(f, row, r->format);
    for (int i = 0; i < NCOL; i++)
        v[i] = f[i].s;
    writer(r->format)(r->out, columns, NCOL, v);
    /* Rows of a long sweep should show as they come, even into a pipe. */
    fflush(r->out);
    r->rows++;
}

void hr__report_record(FILE *out, hr_format format, const char *const *names,
                       const char *const *values, const int *numeric, int n)
{
    column cols[64];
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++)
        cols[i] = (column){ names[i], numeric[i] ? COL_NUM : COL_STR, (int)strlen(values[i]) };
    if (format != HR_FORMAT_JSON)
        writer(format)(out, cols, n, names);
    writer(format)(out, cols, n, values);
}

void hr__report_line(FILE *out, hr_format format, const char *const *names, const int *numeric,
                     const int *widths, const char *const *values, int n)
{
    column cols[64];
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++)
        cols[i] = (column){ names[i], numeric[i] ? COL_NUM : COL_STR, widths[i] };
    if (values != NULL)
        writer(format)(out, cols, n, values);
    else if (format != HR_FORMAT_JSON)
        writer(format)(out, cols, n, names);
}

int hr__report_end(hr_report *r)
{
    if (fflush(r->out) != 0 || ferror(r->out))
        return HR_ESYS;
    return HR_OK;
}
