/* report.c: one table of columns drives all three formats, so their columns cannot drift apart. */
#include "cli/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>
#include <hremu/workload.h>

#include "cli/jsonstr.h"

typedef enum col_type { COL_STR, COL_NUM, COL_BOOL } col_type;

typedef struct column {
    const char *name;
    col_type    type;
    int         width;     /* in the table; numbers align right, text left */
    int         opt;       /* empty when the row's kind has no such key: null in JSON */
} column;

/* The columns are head, then one a column of keys that workload kinds declare
 * (hr_workload_column_at, in registry order), then tail. */
static const column head_cols[] = {
    { "algorithm",     COL_STR,  18, 0 },
    { "procs",         COL_NUM,   5, 0 },
    { "n",             COL_NUM,  10, 0 },
    { "h",             COL_NUM,   9, 0 },
    { "discipline",    COL_STR,  10, 0 },
    { "topology",      COL_STR,   8, 0 },
    { "cost",          COL_STR,   5, 0 },
    { "seed",          COL_NUM,   4, 0 },
    { "model_time_s",  COL_NUM,  12, 0 },
    { "rounds",        COL_NUM,   6, 0 },
    { "messages",      COL_NUM,   9, 0 },
    { "bytes",         COL_NUM,  11, 0 },
    { "max_out_bytes", COL_NUM,  13, 0 },
    { "max_in_bytes",  COL_NUM,  12, 0 },
    { "wall_s",        COL_NUM,  10, 0 },
    { "verified",      COL_BOOL,  8, 0 },
    { "rounds_per_h",  COL_NUM,  12, 0 },
    { "lost",          COL_NUM,   6, 0 },
    { "stalls",        COL_NUM,   6, 0 },
    { "status",        COL_STR,  16, 0 },
    { "distribution",  COL_STR,  12, 0 },
    { "dataset",       COL_STR,   7, 0 },
};
#define NHEAD ((int)(sizeof head_cols / sizeof head_cols[0]))
_Static_assert(sizeof head_cols / sizeof head_cols[0] == 22, "fill() sets the head's columns by index");

static const column tail_cols[] = {
    { "buffer",        COL_STR,   9, 0 },
    { "switching",     COL_STR,  11, 0 },
    { "tau",           COL_NUM,   8, 0 },
    { "sigma",         COL_NUM,   8, 0 },
    { "overhead",      COL_NUM,   8, 0 },
    { "hop",           COL_NUM,   3, 0 },
    { "compute_unit",  COL_NUM,  12, 0 },
    { "compute",       COL_STR,   8, 0 },
    { "repeat",        COL_NUM,   6, 0 },
    { "params",        COL_STR,   0, 0 },
    { "plan_s",        COL_NUM,  10, 1 },
    { "plan_steps",    COL_NUM,  10, 1 },
};
#define NTAIL ((int)(sizeof tail_cols / sizeof tail_cols[0]))
_Static_assert(sizeof tail_cols / sizeof tail_cols[0] == 12, "fill() sets the tail's columns by index");
/* The last NLATE columns are a planning algorithm's figures, not settings: --aggregate does not
 * group by them but summarises them as it does the model columns. */
#define NLATE 2

/* Declared keys that get a column: an aggregated row (agg_columns) must fit in
 * HR_REPORT_MAX_COLS with them. */
#define MAX_DECLARED 24

/* A declared key's column: numbers right, words left, as wide as a short value. */
static int declared_count(void)
{
    int w = 0;
    while (w < MAX_DECLARED && hr_workload_column_at(w) != NULL)
        w++;
    return w;
}

/* Every column of a row, in order; returns how many. */
static int all_columns(column *out)
{
    int n = 0, w = declared_count();
    for (int i = 0; i < NHEAD; i++)
        out[n++] = head_cols[i];
    for (int i = 0; i < w; i++) {
        const hr_wkey_spec *k = hr_workload_column_at(i);
        out[n++] = (column){ hr_wkey_column(k), k->type == HR_WKEY_WORD ? COL_STR : COL_NUM,
                             k->type == HR_WKEY_WORD ? 8 : 5, 1 };
    }
    for (int i = 0; i < NTAIL; i++)
        out[n++] = tail_cols[i];
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

/* Every column's text; returns how many (as all_columns). */
static int fill(field *f, const hr_row *r, hr_format fmt)
{
    f[0].s = text(r->algorithm);
    f[1].s = num(&f[1], (uint64_t)(r->procs > 0 ? r->procs : 0));
    f[2].s = r->no_n ? "" : num(&f[2], r->n);
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
    int w = declared_count();
    for (int i = 0; i < w; i++)
        f[NHEAD + i].s = declared_value(&f[NHEAD + i], r, hr_workload_column_at(i));
    field *t = f + NHEAD + w;
    t[0].s = r->buffer ? num(&t[0], r->buffer) : "unlimited";
    t[1].s = r->store_forward ? "store_forward" : "cut_through";
    t[2].s = exact(&t[2], r->tau, fmt);
    t[3].s = exact(&t[3], r->sigma, fmt);
    t[4].s = exact(&t[4], r->overhead, fmt);
    t[5].s = exact(&t[5], r->hop, fmt);
    t[6].s = exact(&t[6], r->compute_unit, fmt);
    t[7].s = r->measured ? "measured" : "units";
    t[8].s = num(&t[8], r->repeat);
    t[9].s = text(r->params);
    t[10].s = r->planned ? real(&t[10], r->plan_s, fmt) : "";
    t[11].s = r->planned ? num(&t[11], r->plan_steps) : "";
    return NHEAD + w + NTAIL;
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

/* The numeric columns --aggregate seed summarises, by their index in all_columns(); a scheduler's
 * plan_s and plan_steps (at the end, their place depending on the declared keys) as PLAN_S and
 * PLAN_STEPS. */
enum { PLAN_S = -1, PLAN_STEPS = -2 };
static const int stat_cols[] = { 3, 8, 9, 10, 11, 12, 13, 16, 17, 18, PLAN_S, PLAN_STEPS };
#define NSTAT ((int)(sizeof stat_cols / sizeof stat_cols[0]))
/* The columns that tell a group of aggregated rows apart (all settings but the seed): these,
 * and every column from the distribution (20) on. */
static const int key_cols[] = { 0, 1, 2, 4, 5, 6 };
#define NKEY ((int)(sizeof key_cols / sizeof key_cols[0]))
static const char *const stat_suffix[4] = { "mean", "sd", "min", "max" };

/* An aggregated row's columns: the settings, seed (the list) and count, each statistic of each
 * model column (h too: a seeded workload draws it), wall_s (the mean of the rows' medians),
 * verified (all of them), status (theirs, or mixed), then the other settings. */
static int agg_columns(column *out)
{
    _Static_assert(7 + 1 + 4 * (sizeof stat_cols / sizeof stat_cols[0]) + 22 + MAX_DECLARED +
                   12 - 14 - NLATE <= HR_REPORT_MAX_COLS,
                   "an aggregated row's columns fit in HR_REPORT_MAX_COLS");
    static char names[NSTAT * 4][32];
    column cols[HR_REPORT_MAX_COLS];
    int ncol = all_columns(cols), n = 0;
    for (int i = 0; i < 8; i++)
        if (i != 3)
            out[n++] = cols[i];
    out[n - 1].type = COL_STR;      /* seed: the list of seeds */
    out[n++] = (column){ "count", COL_NUM, 5, 0 };
    for (int k = 0; k < NSTAT; k++)
        for (int q = 0; q < 4; q++) {
            char *name = names[4 * k + q];
            int at = stat_cols[k] >= 0 ? stat_cols[k] : ncol - NLATE - 1 - stat_cols[k];
            snprintf(name, sizeof names[0], "%s_%s", cols[at].name, stat_suffix[q]);
            out[n++] = (column){ name, COL_NUM, (int)strlen(name), 0 };
        }
    for (int i = 14; i < ncol - NLATE; i++)
        if (i < 16 || i > 18)
            out[n++] = cols[i];
    return n;
}

/* Is name the column hide names, or one of its statistics ("lost" hides lost_mean)? */
static int hidden(const char *name, const char *const *hide)
{
    for (; hide != NULL && *hide != NULL; hide++) {
        size_t n = strlen(*hide);
        if (strncmp(name, *hide, n) == 0 && (name[n] == '\0' || name[n] == '_'))
            return 1;
    }
    return 0;
}

int hr__report_pick(hr_report *r, const char *list, int aggregate, const char *const *hide,
                    char *why, size_t whylen)
{
    column all[HR_REPORT_MAX_COLS];
    int n = aggregate ? agg_columns(all) : all_columns(all);
    r->aggregate = aggregate;
    r->agg = NULL;
    r->nsel = 0;
    if (list == NULL) {
        for (int i = 0; i < n; i++)
            if (!hidden(all[i].name, hide))
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
    if (r->format != HR_FORMAT_JSON)
        write_chosen(r, cols, head);
}

/* ---- the report ----------------------------------------------------------------------------- */

struct hr_aggregate {
    size_t n, cap;
    struct kept {
        char    *text[HR_REPORT_MAX_COLS];  /* the row's fields as CSV writes them */
        int      ntext;
        double   stat[NSTAT];
        double   wall;
        uint64_t seed;
        int      verified;
    } *rows;
};

void hr__report_start(hr_report *r, FILE *out, hr_format format)
{
    r->out = out;
    r->format = format;
    r->rows = 0;
    r->failed = 0;
    if (r->aggregate) {
        r->agg = calloc(1, sizeof *r->agg);
        r->failed = r->agg == NULL;
        column all[HR_REPORT_MAX_COLS];
        header(r, all, agg_columns(all));
        return;
    }
    column all[HR_REPORT_MAX_COLS];
    header(r, all, all_columns(all));
}

void hr__report_begin(hr_report *r, FILE *out, hr_format format)
{
    hr__report_pick(r, NULL, 0, NULL, NULL, 0);
    hr__report_start(r, out, format);
}

static double stat_of(const hr_row *row, int k)
{
    switch (stat_cols[k]) {
    case 3:  return (double)row->h;
    case 8:  return row->model_time_s;
    case 9:  return (double)row->rounds;
    case 10: return (double)row->messages;
    case 11: return (double)row->bytes;
    case 12: return (double)row->max_out_bytes;
    case 13: return (double)row->max_in_bytes;
    case 16: return row->h > 0 ? (double)row->rounds / (double)row->h : NAN;
    case 17: return (double)row->lost;
    case 18: return (double)row->stalls;
    case PLAN_S: return row->planned ? row->plan_s : NAN;
    default: return row->planned ? (double)row->plan_steps : NAN;   /* PLAN_STEPS */
    }
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
    field f[HR_REPORT_MAX_COLS];
    k->ntext = fill(f, row, HR_FORMAT_CSV);
    for (int i = 0; i < k->ntext; i++)
        if ((k->text[i] = strdup(f[i].s)) == NULL)
            r->failed = 1;
    for (int q = 0; q < NSTAT; q++)
        k->stat[q] = stat_of(row, q);
    k->wall = row->wall_s;
    k->seed = row->seed;
    k->verified = row->verified;
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
    int n = fill(f, row, r->format);
    all_columns(cols);
    for (int i = 0; i < n; i++)
        v[i] = f[i].s;
    write_chosen(r, cols, v);
    /* Rows of a long sweep should show as they come, even into a pipe. */
    fflush(r->out);
}

static int same_key(const struct kept *a, const struct kept *b)
{
    for (int i = 0; i < NKEY; i++)
        if (strcmp(a->text[key_cols[i]], b->text[key_cols[i]]) != 0)
            return 0;
    for (int i = 20; i < a->ntext - NLATE; i++)
        if (strcmp(a->text[i], b->text[i]) != 0)
            return 0;
    return 1;
}

/* One aggregated row of the m kept rows g[0..m), in the order agg_columns gives. */
static void write_group(hr_report *r, struct kept *const *g, int m)
{
    column all[HR_REPORT_MAX_COLS];
    agg_columns(all);
    field f[HR_REPORT_MAX_COLS];
    const char *v[HR_REPORT_MAX_COLS];
    char seeds[512] = "";
    size_t at = 0;
    double wall = 0;
    int verified = 1, mixed = 0;
    for (int j = 0; j < m; j++) {
        if (at < sizeof seeds)
            at += (size_t)snprintf(seeds + at, sizeof seeds - at, "%s%llu", j ? " " : "",
                                   (unsigned long long)g[j]->seed);
        wall += g[j]->wall;
        verified &= g[j]->verified;
        mixed |= strcmp(g[j]->text[19], g[0]->text[19]) != 0;
    }
    int c = 0;
    for (int i = 0; i < 8; i++)
        if (i != 3)
            v[c++] = i == 7 ? seeds : g[0]->text[i];
    v[c] = num(&f[c], (uint64_t)m);
    c++;
    for (int k = 0; k < NSTAT; k++) {
        double sum = 0, lo = INFINITY, hi = -INFINITY, ss = 0;
        for (int j = 0; j < m; j++) {
            double x = g[j]->stat[k];
            sum += x;
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        double mean = sum / m;
        for (int j = 0; j < m; j++)
            ss += (g[j]->stat[k] - mean) * (g[j]->stat[k] - mean);
        const double q4[4] = { mean, m > 1 ? sqrt(ss / (m - 1)) : 0, lo, hi };
        for (int q = 0; q < 4; q++, c++)   /* a plan's figures, for rows without a plan: empty */
            v[c] = isnan(mean) && stat_cols[k] < 0 ? "" : real(&f[c], q4[q], r->format);
    }
    v[c] = real(&f[c], wall / m, r->format);
    c++;
    v[c++] = verified ? "true" : "false";
    v[c++] = mixed ? "mixed" : g[0]->text[19];
    for (int i = 20; i < g[0]->ntext - NLATE; i++)
        v[c++] = g[0]->text[i];
    write_chosen(r, all, v);
}

static void write_aggregate(hr_report *r)
{
    hr_aggregate *a = r->agg;
    struct kept **group = malloc(sizeof *group * (a->n ? a->n : 1));
    char *done = calloc(a->n ? a->n : 1, 1);
    if (group == NULL || done == NULL) {
        r->failed = 1;
    } else if (!r->failed) {
        for (size_t i = 0; i < a->n; i++) {
            if (done[i])
                continue;
            int m = 0;
            for (size_t j = i; j < a->n; j++)
                if (!done[j] && same_key(&a->rows[i], &a->rows[j])) {
                    done[j] = 1;
                    group[m++] = &a->rows[j];
                }
            write_group(r, group, m);
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
        cols[i] = (column){ names[i], numeric[i] ? COL_NUM : COL_STR, (int)strlen(values[i]), 0 };
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
        cols[i] = (column){ names[i], numeric[i] ? COL_NUM : COL_STR, widths[i], 0 };
    if (values != NULL)
        writer(format)(out, cols, n, values);
    else if (format != HR_FORMAT_JSON)
        writer(format)(out, cols, n, names);
}

int hr__report_end(hr_report *r)
{
    if (r->agg != NULL)
        write_aggregate(r);
    if (r->failed)
        return HR_ENOMEM;
    if (fflush(r->out) != 0 || ferror(r->out))
        return HR_ESYS;
    return HR_OK;
}
