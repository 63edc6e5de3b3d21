/* report.c: the table of columns (cli/columns.c) drives all three formats and --aggregate seed,
 * so their columns cannot drift apart. */
#include "cli/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>
#include <hremu/workload.h>

#include "cli/columns.h"
#include "cli/jsonstr.h"

typedef enum col_type { COL_STR, COL_NUM, COL_BOOL } col_type;

/* What a column of an aggregated row is of the row column it comes from (agg_columns). */
typedef enum col_role {
    R_VALUE,       /* the column itself: a row's, or a group's setting */
    R_SETTING_IF,  /* a figure that is a setting in some rows (h): its value there, else empty */
    R_SEEDS,       /* the group's seeds */
    R_COUNT,       /* the group's rows */
    R_STAT,        /* a statistic (q) of a figure */
    R_MEAN,        /* the mean */
    R_ALL,         /* true if every row's is */
    R_SAME,        /* the rows' value, or mixed */
} col_role;

/* A column as written: a row of the column table (columns.c), one key of its row of declared
 * keys, a column of an aggregated row, or a field of a record. */
typedef struct column {
    char             name[64];
    col_type         type;     /* numbers align right, text left */
    int              opt;      /* JSON: empty is null (text; an empty number is always null) */
    hr_col_show      show;
    const hr_column *def;      /* its row in the column table; NULL: a record's, or count */
    const hr_wkey_spec *key;   /* a declared key's column: its declaration */
    int              src;      /* aggregated: the index of the row column it comes from */
    col_role         role;     /* aggregated: what it is of that column */
    int              q;        /* R_STAT: mean, sd, min, max */
    int              width;    /* the table's, once its rows are known */
} column;

/* Declared keys that get a column: an aggregated row (agg_columns) must fit in
 * HR_REPORT_MAX_COLS with them. */
#define MAX_DECLARED 24

/* c's name: name, then suffix (may be NULL) after an underscore, cut to fit. */
static void set_name(column *c, const char *name, const char *suffix)
{
    size_t n = strlen(name), k = suffix != NULL ? strlen(suffix) + 1 : 0, max = sizeof c->name - 1;
    n = n < max ? n : max;
    k = k < max - n ? k : max - n;
    memcpy(c->name, name, n);
    if (k > 0) {
        c->name[n] = '_';
        memcpy(c->name + n + 1, suffix, k - 1);
    }
    c->name[n + k] = '\0';
}

static col_type type_of(const hr_column *d)
{
    switch (d->type) {
    case HR_COL_TEXT:
    case HR_COL_WORDS:
    case HR_COL_NAMED:
        return COL_STR;
    case HR_COL_COUNT:
        return d->zero != NULL ? COL_STR : COL_NUM;
    case HR_COL_BOOL:
        return COL_BOOL;
    case HR_COL_INT:
    case HR_COL_FIGURE:
    case HR_COL_SETTING:
    case HR_COL_KEYS:
        return COL_NUM;
    }
    return COL_NUM;
}

/* Every column of a row, in order; returns how many. */
static int all_columns(column *out)
{
    int n = 0;
    for (int i = 0; hr__column_at(i) != NULL; i++) {
        const hr_column *d = hr__column_at(i);
        if (d->type != HR_COL_KEYS) {
            out[n] = (column){ .type = type_of(d), .opt = d->null_empty, .show = d->show,
                               .def = d, .src = n };
            set_name(&out[n], d->name, NULL);
            n++;
            continue;
        }
        const hr_wkey_spec *k;
        for (int w = 0; w < MAX_DECLARED && (k = hr_workload_column_at(w)) != NULL; w++) {
            out[n] = (column){ .type = k->type == HR_WKEY_WORD ? COL_STR : COL_NUM,
                               .opt = d->null_empty, .show = d->show, .def = d, .key = k,
                               .src = n };
            set_name(&out[n], hr_wkey_column(k), NULL);
            n++;
        }
    }
    return n;
}

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
    if (d == floor(d) && fabs(d) < 9007199254740992.0) {   /* whole: 30, not the shorter 3e+01 */
        snprintf(buf, len, "%.0f", d);
        return;
    }
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

/* The row's value of declared key k: its kind's, as the config gave it; empty if its kind has
 * no such key. */
static const char *declared_value(field *f, const hr_row *r, const hr_wkey_spec *k)
{
    const hr_workload *w = r->workload;
    for (int i = 0; w != NULL && r->wkeys != NULL && w->keys && w->keys[i].name; i++) {
        if (strcmp(hr_wkey_column(&w->keys[i]), hr_wkey_column(k)) != 0)
            continue;
        if (!hr_workload_key_applies(w, r->wkeys, i))
            return "";
        if (w->keys[i].type == HR_WKEY_WORD)
            return text(r->wkeys[i].word);
        hr__report_double(f->buf, sizeof f->buf, r->wkeys[i].num);
        return f->buf;
    }
    return "";
}

/* The field of row r at offset at, of type T. */
#define FIELD(r, at, T) (*(const T *)(const void *)((const char *)(r) + (at)))

static int flag(const hr_row *r, hr_col_flag f)
{
    return FIELD(r, f.at, int) != 0;
}

/* Is column d's value empty in row r (its only_if flag clear, or its unless flag set)? */
static int empty(const hr_column *d, const hr_row *r)
{
    return (d->only_if.on && !flag(r, d->only_if)) || (d->unless.on && flag(r, d->unless));
}

/* Column d's value in row r as text. */
static const char *value(field *f, const hr_column *d, const hr_row *r, hr_format fmt)
{
    if (empty(d, r))
        return "";
    switch (d->type) {
    case HR_COL_TEXT:
        return text(FIELD(r, d->at, char *));
    case HR_COL_COUNT: {
        uint64_t v = FIELD(r, d->at, uint64_t);
        return v == 0 && d->zero != NULL ? d->zero : num(f, v);
    }
    case HR_COL_INT: {
        int v = FIELD(r, d->at, int);
        return num(f, (uint64_t)(v > 0 ? v : 0));
    }
    case HR_COL_FIGURE:
        return real(f, d->get != NULL ? d->get(r) : FIELD(r, d->at, double), fmt);
    case HR_COL_SETTING:
        return exact(f, FIELD(r, d->at, double), fmt);
    case HR_COL_BOOL:
        return FIELD(r, d->at, int) ? "true" : "false";
    case HR_COL_WORDS:
        return d->words[FIELD(r, d->at, int) != 0];
    case HR_COL_NAMED: {
        const char *name = d->named(FIELD(r, d->at, int), NULL);
        return name != NULL ? name : "";
    }
    default:
        return "";
    }
}

/* Column d's value in row r as a number, for --aggregate's statistics (NAN: empty). */
static double number(const hr_column *d, const hr_row *r)
{
    if (empty(d, r))
        return NAN;
    switch (d->type) {
    case HR_COL_COUNT:
        return (double)FIELD(r, d->at, uint64_t);
    case HR_COL_INT:
        return (double)FIELD(r, d->at, int);
    case HR_COL_FIGURE:
        return d->get != NULL ? d->get(r) : FIELD(r, d->at, double);
    case HR_COL_SETTING:
        return FIELD(r, d->at, double);
    default:
        return NAN;
    }
}

/* Every column's text (cols, n: all_columns'). */
static void fill(field *f, const column *cols, int n, const hr_row *r, hr_format fmt)
{
    for (int i = 0; i < n; i++)
        f[i].s = cols[i].key != NULL ? declared_value(&f[i], r, cols[i].key)
                                     : value(&f[i], cols[i].def, r, fmt);
}

/* ---- CSV (RFC 4180 quoting) ----------------------------------------------------------------- */

void hr__report_csv_field(FILE *out, const char *s)
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
        hr__report_csv_field(out, v[i]);
    }
    fputc('\n', out);
}

/* ---- JSON lines ----------------------------------------------------------------------------- */

static void json_row(FILE *out, const column *cols, int n, const char *const *v)
{
    fputc('{', out);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        hr__json_string(out, cols[i].name);
        fputc(':', out);
        if (cols[i].opt && v[i][0] == '\0')
            fputs("null", out);      /* a key of another workload kind */
        else if (cols[i].type == COL_STR)
            hr__json_string(out, v[i]);
        else
            fputs(v[i][0] != '\0' ? v[i] : "null", out);
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

/* ---- choosing columns ------------------------------------------------------------------------ */

static const char *const stat_suffix[4] = { "mean", "sd", "min", "max" };

/* An aggregated row's columns (columns.h, hr_col_agg): the columns up to seed (procs, n and h
 * shown when they vary; h empty when the workload drew it), seed (the list) and count, each
 * statistic of each figure in the order of their .stat (h's too, empty where h is a setting),
 * the outcome (wall_s the mean of the rows' medians, verified all of them, status theirs or
 * mixed), then the other settings. The default table shows the settings that vary, the seeds,
 * the count and the statistics each figure's .agg_show names. */
static int agg_columns(column *out)
{
    column cols[HR_REPORT_MAX_COLS];
    int ncol = all_columns(cols), n = 0, lead = 0;
    while (lead < ncol && cols[lead].def->agg != HR_AGG_SEEDS)
        lead++;
    lead++;
    for (int i = 0; i < lead && i < ncol; i++) {
        const hr_column *d = cols[i].def;
        if (d->agg == HR_AGG_SEEDS) {
            out[n] = (column){ .type = COL_STR, .show = HR_SHOW_ALWAYS, .def = d, .src = i,
                               .role = R_SEEDS };
            set_name(&out[n++], cols[i].name, NULL);
        } else if (d->agg == HR_AGG_GROUP || d->setting_if.on) {
            out[n] = cols[i];
            out[n].role = d->agg == HR_AGG_GROUP ? R_VALUE : R_SETTING_IF;
            out[n].opt |= out[n].role == R_SETTING_IF;        /* h: empty when drawn */
            if (out[n].show == HR_SHOW_SIZE)
                out[n].show = HR_SHOW_VARIES;
            n++;
        }
    }
    out[n] = (column){ .type = COL_NUM, .show = HR_SHOW_ALWAYS, .role = R_COUNT };
    set_name(&out[n++], "count", NULL);
    for (int stat = 1, found = 1; found && n + 4 <= HR_REPORT_MAX_COLS; stat++) {
        found = 0;
        for (int i = 0; i < ncol; i++) {
            const hr_column *d = cols[i].def;
            if (d->agg != HR_AGG_STATS || d->stat != stat || cols[i].key != NULL)
                continue;
            found = 1;
            for (int q = 0; q < 4; q++, n++) {
                unsigned shown = q == 0 ? HR_AGG_SHOW_MEAN : q == 1 ? HR_AGG_SHOW_SD : 0;
                out[n] = (column){ .type = COL_NUM, .opt = 1,
                                   .show = d->agg_show & shown ? HR_SHOW_FILLED : HR_SHOW_NEVER,
                                   .def = d, .src = i, .role = R_STAT, .q = q };
                set_name(&out[n], cols[i].name, stat_suffix[q]);
            }
        }
    }
    for (int i = lead; i < ncol && n < HR_REPORT_MAX_COLS; i++) {
        hr_col_agg a = cols[i].def->agg;
        if (a == HR_AGG_MEAN || a == HR_AGG_ALL || a == HR_AGG_SAME) {
            out[n] = cols[i];
            out[n++].role = a == HR_AGG_MEAN ? R_MEAN : a == HR_AGG_ALL ? R_ALL : R_SAME;
        }
    }
    for (int i = lead; i < ncol && n < HR_REPORT_MAX_COLS; i++)
        if (cols[i].def->agg == HR_AGG_GROUP) {
            out[n] = cols[i];
            out[n++].role = R_VALUE;
        }
    return n;
}

int hr__report_pick(hr_report *r, const char *list, int aggregate, const hr_report_rows *rows,
                    char *why, size_t whylen)
{
    column all[HR_REPORT_MAX_COLS];
    int n = aggregate ? agg_columns(all) : all_columns(all);
    r->aggregate = aggregate;
    r->agg = NULL;
    r->table = NULL;
    r->nsel = 0;
    r->chosen = list != NULL;
    r->has_rows = rows != NULL;
    if (rows != NULL)
        r->can = *rows;
    if (list == NULL) {
        for (int i = 0; i < n; i++)
            r->sel[r->nsel++] = i;
        return HR_OK;
    }
    for (const char *at = list; *at != '\0';) {
        size_t len = strcspn(at, ",");
        const char *name = at;
        size_t trim = len;
        while (trim > 0 && *name == ' ')
            name++, trim--;
        while (trim > 0 && name[trim - 1] == ' ')
            trim--;
        int found = -1;
        for (int i = 0; i < n && found < 0; i++)
            if (strlen(all[i].name) == trim && strncmp(all[i].name, name, trim) == 0)
                found = i;
        if (r->nsel == HR_REPORT_MAX_COLS) {
            snprintf(why, whylen, "--columns: more than %d columns", HR_REPORT_MAX_COLS);
            return HR_EINVAL;
        }
        if (found < 0) {
            size_t w = (size_t)snprintf(why, whylen, "--columns: no column '%.*s'; the columns "
                                        "are", (int)trim, name);
            for (int i = 0; i < n && w < whylen; i++)
                w += (size_t)snprintf(why + w, whylen - w, "%s %s", i ? "," : "", all[i].name);
            return HR_EINVAL;
        }
        for (int k = 0; k < r->nsel; k++)
            if (r->sel[k] == found) {
                snprintf(why, whylen, "--columns: %s is listed twice", all[found].name);
                return HR_EINVAL;
            }
        r->sel[r->nsel++] = found;
        at += len + (at[len] == ',');
    }
    if (r->nsel == 0) {
        snprintf(why, whylen, "--columns: the list is empty");
        return HR_EINVAL;
    }
    return HR_OK;
}

/* Write one line of the chosen columns out of the full set cols (v: one value per column). */
static void write_chosen(const hr_report *r, const column *cols, const char *const *v)
{
    column c[HR_REPORT_MAX_COLS];
    const char *w[HR_REPORT_MAX_COLS];
    for (int i = 0; i < r->nsel; i++) {
        c[i] = cols[r->sel[i]];
        w[i] = v[r->sel[i]];
    }
    writer(r->format)(r->out, c, r->nsel, w);
}

static void header(const hr_report *r, const column *cols, int n)
{
    const char *head[HR_REPORT_MAX_COLS];
    for (int i = 0; i < n; i++)
        head[i] = cols[i].name;
    if (r->format == HR_FORMAT_CSV)
        write_chosen(r, cols, head);
}

/* ---- the table: kept until the end, then written with the columns it shows, aligned -------- */

struct hr_table {
    size_t n, cap;
    int    ncols;
    char **cells;    /* n rows of ncols strings, row after row */
};

/* Keep one line of every column (v[0..ncols)) for the table. */
static void table_keep(hr_report *r, int ncols, const char *const *v)
{
    hr_table *t = r->table;
    if (r->failed || t == NULL)
        return;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        char **cells = realloc(t->cells, cap * (size_t)ncols * sizeof *cells);
        if (cells == NULL) {
            r->failed = 1;
            return;
        }
        t->cells = cells;
        t->cap = cap;
    }
    t->ncols = ncols;
    char **row = t->cells + t->n++ * (size_t)ncols;
    for (int i = 0; i < ncols; i++)
        if ((row[i] = strdup(v[i])) == NULL)
            r->failed = 1;
}

static const char *cell(const hr_table *t, size_t row, int col)
{
    const char *s = t->cells[row * (size_t)t->ncols + col];
    return s != NULL ? s : "";
}

/* Do the rows of one cost column differ in column col? (Beyond 64 costs: assume they do.) */
static int varies_by_cost(const hr_table *t, int col, int cost)
{
    enum { MAX_COSTS = 64 };
    size_t first[MAX_COSTS];
    int ncost = 0;
    for (size_t i = 0; i < t->n; i++) {
        int k = 0;
        while (k < ncost && strcmp(cell(t, first[k], cost), cell(t, i, cost)) != 0)
            k++;
        if (k == ncost) {
            if (ncost == MAX_COSTS)
                return 1;
            first[ncost++] = i;
        } else if (strcmp(cell(t, first[k], col), cell(t, i, col)) != 0) {
            return 1;
        }
    }
    return 0;
}

/* Does a kind of the rows declare key k? */
static int declared(const hr_report_rows *can, const hr_wkey_spec *k)
{
    for (int i = 0; i < can->nkinds; i++)
        for (const hr_wkey_spec *d = can->kinds[i]->keys; d != NULL && d->name != NULL; d++)
            if (strcmp(hr_wkey_column(d), hr_wkey_column(k)) == 0)
                return 1;
    return 0;
}

/* Does the default table show column col (show rule c->show) of the kept rows? Not what no row
 * of the sweep can fill (hr_column.needs, a key no row's kind declares). */
static int shows(const hr_report *r, const column *c, int col, int cost)
{
    const hr_table *t = r->table;
    if (r->has_rows && c->def != NULL && (c->def->needs & ~r->can.traits) != 0)
        return 0;
    if (r->has_rows && c->key != NULL && !declared(&r->can, c->key))
        return 0;
    switch (c->show) {
    case HR_SHOW_ALWAYS:
        return 1;
    case HR_SHOW_NEVER:
        return 0;
    case HR_SHOW_BY_COST:
        return cost < 0 || varies_by_cost(t, col, cost);
    default:
        break;
    }
    for (size_t i = 0; i < t->n; i++) {
        const char *v = cell(t, i, col);
        if (c->show == HR_SHOW_VARIES ? strcmp(v, cell(t, 0, col)) != 0
            : c->show == HR_SHOW_NOT_OK ? strcmp(v, "ok") != 0 : v[0] != '\0')
            return 1;
    }
    return 0;
}

/* Write the kept rows: the chosen columns (the default: those the rows make worth showing),
 * each as wide as its widest text, header first. */
static void table_write(hr_report *r, const column *cols, int ncols)
{
    hr_table *t = r->table;
    int cost = -1;
    for (int i = 0; i < ncols; i++)
        if (strcmp(cols[i].name, "cost") == 0)
            cost = i;
    column c[HR_REPORT_MAX_COLS];
    int at[HR_REPORT_MAX_COLS], n = 0;
    for (int i = 0; i < r->nsel; i++) {
        int k = r->sel[i];
        if (!r->chosen && !shows(r, &cols[k], k, cost))
            continue;
        c[n] = cols[k];
        c[n].width = (int)strlen(cols[k].name);
        for (size_t j = 0; j < t->n; j++) {
            int w = (int)strlen(cell(t, j, k));
            c[n].width = w > c[n].width ? w : c[n].width;
        }
        at[n++] = k;
    }
    /* Too wide: leave out figures that the rest imply or that matter less, in the order of
     * their .spare, and say which (hr_report.dropped). Settings that vary stay: every row says
     * what produced it. */
    r->dropped[0] = '\0';
    for (int spare = 1, any = 1; !r->chosen && any; spare++) {
        int total = -2;
        for (int i = 0; i < n; i++)
            total += c[i].width + 2;
        if (total <= HR_REPORT_TABLE_WIDTH)
            break;
        any = 0;
        for (int i = 0; i < n; i++) {
            if (c[i].def == NULL || c[i].def->spare < spare)
                continue;
            any = 1;
            if (c[i].def->spare > spare)
                continue;
            size_t used = strlen(r->dropped);
            snprintf(r->dropped + used, sizeof r->dropped - used, "%s%s", used ? ", " : "",
                     c[i].name);
            memmove(&c[i], &c[i + 1], (size_t)(n - i - 1) * sizeof *c);
            memmove(&at[i], &at[i + 1], (size_t)(n - i - 1) * sizeof *at);
            n--;
            i--;
        }
    }
    const char *v[HR_REPORT_MAX_COLS];
    for (int i = 0; i < n; i++)
        v[i] = c[i].name;
    table_row(r->out, c, n, v);
    for (size_t j = 0; j < t->n; j++) {
        for (int i = 0; i < n; i++)
            v[i] = cell(t, j, at[i]);
        table_row(r->out, c, n, v);
    }
}

static void table_free(hr_report *r)
{
    hr_table *t = r->table;
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->n * (size_t)t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t);
    r->table = NULL;
}

/* A row of the full column set cols: kept for the table, written at once in CSV and JSON. */
static void emit(hr_report *r, const column *cols, int ncols, const char *const *v)
{
    if (r->format == HR_FORMAT_TABLE)
        table_keep(r, ncols, v);
    else
        write_chosen(r, cols, v);
}

/* ---- the report ----------------------------------------------------------------------------- */

struct hr_aggregate {
    size_t n, cap;
    struct kept {
        char    *text[HR_REPORT_MAX_COLS];  /* the row's fields as CSV writes them */
        double   num[HR_REPORT_MAX_COLS];   /* the figures' values (number()) */
        char     set[HR_REPORT_MAX_COLS];   /* a figure's setting_if flag */
        int      ntext;
    } *rows;
};

void hr__report_start(hr_report *r, FILE *out, hr_format format)
{
    r->out = out;
    r->format = format;
    r->rows = 0;
    r->failed = 0;
    r->table = NULL;
    r->dropped[0] = '\0';
    if (format == HR_FORMAT_TABLE) {
        r->table = calloc(1, sizeof *r->table);
        r->failed |= r->table == NULL;
    }
    column all[HR_REPORT_MAX_COLS];
    if (r->aggregate) {
        r->agg = calloc(1, sizeof *r->agg);
        r->failed |= r->agg == NULL;
        header(r, all, agg_columns(all));
        return;
    }
    header(r, all, all_columns(all));
}

void hr__report_begin(hr_report *r, FILE *out, hr_format format)
{
    hr__report_pick(r, NULL, 0, NULL, NULL, 0);
    hr__report_start(r, out, format);
}

static void keep(hr_report *r, const hr_row *row)
{
    hr_aggregate *a = r->agg;
    if (r->failed || a == NULL)
        return;
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 64;
        struct kept *rows = realloc(a->rows, cap * sizeof *rows);
        if (rows == NULL) {
            r->failed = 1;
            return;
        }
        a->rows = rows;
        a->cap = cap;
    }
    struct kept *k = &a->rows[a->n++];
    column cols[HR_REPORT_MAX_COLS];
    field f[HR_REPORT_MAX_COLS];
    k->ntext = all_columns(cols);
    fill(f, cols, k->ntext, row, HR_FORMAT_CSV);
    for (int i = 0; i < k->ntext; i++) {
        const hr_column *d = cols[i].def;
        if ((k->text[i] = strdup(f[i].s)) == NULL)
            r->failed = 1;
        k->num[i] = cols[i].key == NULL ? number(d, row) : NAN;
        k->set[i] = d->setting_if.on && flag(row, d->setting_if);
    }
}

void hr__report_row(hr_report *r, const hr_row *row)
{
    r->rows++;
    if (r->aggregate) {
        keep(r, row);
        return;
    }
    field f[HR_REPORT_MAX_COLS];
    const char *v[HR_REPORT_MAX_COLS];
    column cols[HR_REPORT_MAX_COLS];
    int n = all_columns(cols);
    fill(f, cols, n, row, r->format);
    for (int i = 0; i < n; i++)
        v[i] = f[i].s;
    emit(r, cols, n, v);
    /* Rows of a long sweep should show as they come, even into a pipe (the table's come at the
     * end, when its columns are known). */
    fflush(r->out);
}

/* Do kept rows a and b belong to one group: equal in every setting (cols: all_columns')? A
 * figure that is a setting in some rows (h) keeps rows apart where it is one. */
static int same_key(const column *cols, const struct kept *a, const struct kept *b)
{
    for (int i = 0; i < a->ntext; i++) {
        const hr_column *d = cols[i].def;
        if (d->agg == HR_AGG_GROUP ? strcmp(a->text[i], b->text[i]) != 0
            : d->setting_if.on && (a->set[i] != b->set[i] ||
                                   (a->set[i] && strcmp(a->text[i], b->text[i]) != 0)))
            return 0;
    }
    return 1;
}

/* One aggregated row of the m kept rows g[0..m), in the order agg_columns gives. */
static void write_group(hr_report *r, const column *all, int ncols, struct kept *const *g, int m)
{
    field f[HR_REPORT_MAX_COLS];
    const char *v[HR_REPORT_MAX_COLS];
    char seeds[512] = "";
    for (int c = 0; c < ncols; c++) {
        int i = all[c].src;
        switch (all[c].role) {
        case R_VALUE:
            v[c] = g[0]->text[i];
            break;
        case R_SETTING_IF:
            v[c] = g[0]->set[i] ? g[0]->text[i] : "";
            break;
        case R_COUNT:
            v[c] = num(&f[c], (uint64_t)m);
            break;
        case R_SEEDS: {
            size_t at = 0;
            for (int j = 0; j < m && at < sizeof seeds; j++)
                at += (size_t)snprintf(seeds + at, sizeof seeds - at, "%s%s", j ? " " : "",
                                       g[j]->text[i]);
            v[c] = seeds;
            break;
        }
        case R_STAT: {
            double sum = 0, lo = INFINITY, hi = -INFINITY, ss = 0;
            for (int j = 0; j < m; j++) {
                double x = g[j]->num[i];
                sum += x;
                lo = x < lo ? x : lo;
                hi = x > hi ? x : hi;
            }
            double mean = sum / m;
            for (int j = 0; j < m; j++)
                ss += (g[j]->num[i] - mean) * (g[j]->num[i] - mean);
            /* Equal values: sd 0, not the rounding of their mean's differences. */
            const double q4[4] = { lo == hi ? lo : mean,
                                   m > 1 && lo != hi ? sqrt(ss / (m - 1)) : 0, lo, hi };
            /* Empty: a plan's figures for rows without a plan, and h where it is a setting. */
            int none = (isnan(mean) && all[c].def->only_if.on) || g[0]->set[i];
            v[c] = none ? "" : real(&f[c], q4[all[c].q], r->format);
            break;
        }
        case R_MEAN: {
            double sum = 0;
            for (int j = 0; j < m; j++)
                sum += g[j]->num[i];
            v[c] = real(&f[c], sum / m, r->format);
            break;
        }
        case R_ALL:
        case R_SAME: {
            int same = 1;
            for (int j = 0; j < m; j++)
                same &= strcmp(g[j]->text[i], all[c].role == R_ALL ? "true" : g[0]->text[i]) == 0;
            v[c] = all[c].role == R_ALL ? (same ? "true" : "false") : same ? g[0]->text[i]
                                                                          : "mixed";
            break;
        }
        }
    }
    emit(r, all, ncols, v);
}

static void write_aggregate(hr_report *r)
{
    hr_aggregate *a = r->agg;
    struct kept **group = malloc(sizeof *group * (a->n ? a->n : 1));
    char *done = calloc(a->n ? a->n : 1, 1);
    column cols[HR_REPORT_MAX_COLS], all[HR_REPORT_MAX_COLS];
    all_columns(cols);
    int ncols = agg_columns(all);
    if (group == NULL || done == NULL) {
        r->failed = 1;
    } else if (!r->failed) {
        for (size_t i = 0; i < a->n; i++) {
            if (done[i])
                continue;
            int m = 0;
            for (size_t j = i; j < a->n; j++)
                if (!done[j] && same_key(cols, &a->rows[i], &a->rows[j])) {
                    done[j] = 1;
                    group[m++] = &a->rows[j];
                }
            write_group(r, all, ncols, group, m);
        }
    }
    free(group);
    free(done);
    for (size_t i = 0; i < a->n; i++)
        for (int k = 0; k < a->rows[i].ntext; k++)
            free(a->rows[i].text[k]);
    free(a->rows);
    free(a);
    r->agg = NULL;
}

void hr__report_record(FILE *out, hr_format format, const char *const *names,
                       const char *const *values, const int *numeric, int n)
{
    column cols[64];
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++)
    {
        cols[i] = (column){ .type = numeric[i] ? COL_NUM : COL_STR, .width = (int)strlen(values[i]) };
        set_name(&cols[i], names[i], NULL);
    }
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
    {
        cols[i] = (column){ .type = numeric[i] ? COL_NUM : COL_STR, .width = widths[i] };
        set_name(&cols[i], names[i], NULL);
    }
    if (values != NULL)
        writer(format)(out, cols, n, values);
    else if (format != HR_FORMAT_JSON)
        writer(format)(out, cols, n, names);
}

int hr__report_end(hr_report *r)
{
    if (r->agg != NULL)
        write_aggregate(r);
    if (r->table != NULL && !r->failed) {
        column all[HR_REPORT_MAX_COLS];
        table_write(r, all, r->aggregate ? agg_columns(all) : all_columns(all));
    }
    table_free(r);
    if (r->failed)
        return HR_ENOMEM;
    if (fflush(r->out) != 0 || ferror(r->out))
        return HR_ESYS;
    return HR_OK;
}
