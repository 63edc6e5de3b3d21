/* report.c: one table of columns drives all three formats, so their columns cannot drift apart. */
#include "cli/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>
#include <hremu/workload.h>

#include "cli/jsonstr.h"
#include "net/link_model.h"

typedef enum col_type { COL_STR, COL_NUM, COL_BOOL } col_type;

/* When the default table shows a column (the full set is CSV's, JSON's and --columns'): it
 * leaves out what says nothing for its rows, so that it stays narrow. */
typedef enum col_show {
    SHOW_ALWAYS,   /* algorithm and the model figures */
    SHOW_SIZE,     /* procs, n, h: unless empty in every row */
    SHOW_VARIES,   /* a setting: when the rows differ in it */
    SHOW_BY_COST,  /* a figure of the cost model: when rows of one cost column differ in it */
    SHOW_FILLED,   /* when some row has it */
    SHOW_NOT_OK,   /* status: when some row's is not ok */
    SHOW_NEVER,    /* in CSV, JSON and --columns only */
} col_show;

typedef struct column {
    const char *name;
    col_type    type;      /* numbers align right, text left */
    int         opt;       /* empty when the row's kind has no such key: null in JSON */
    col_show    show;
    int         width;     /* the table's, once its rows are known */
} column;

/* The columns are head, then one a column of keys that workload kinds declare
 * (hr_workload_column_at, in registry order), then tail. fill() sets them by these indices. */
enum {
    C_ALGORITHM, C_PROCS, C_N, C_H, C_DISCIPLINE, C_TOPOLOGY, C_COST, C_SEED, C_MODEL, C_ROUNDS,
    C_MESSAGES, C_BYTES, C_MAX_OUT, C_MAX_IN, C_WALL, C_VERIFIED, C_STEPS, C_RPH, C_LOST,
    C_STALLS, C_STATUS, C_DISTRIBUTION, C_DATASET, NHEAD_
};
static const column head_cols[] = {
    [C_ALGORITHM]    = { "algorithm",     COL_STR,  0, SHOW_ALWAYS, 0 },
    [C_PROCS]        = { "procs",         COL_NUM,  0, SHOW_SIZE, 0 },
    [C_N]            = { "n",             COL_NUM,  0, SHOW_SIZE, 0 },
    [C_H]            = { "h",             COL_NUM,  0, SHOW_SIZE, 0 },
    [C_DISCIPLINE]   = { "discipline",    COL_STR,  0, SHOW_VARIES, 0 },
    [C_TOPOLOGY]     = { "topology",      COL_STR,  0, SHOW_VARIES, 0 },
    [C_COST]         = { "cost",          COL_STR,  0, SHOW_VARIES, 0 },
    [C_SEED]         = { "seed",          COL_NUM,  0, SHOW_VARIES, 0 },
    [C_MODEL]        = { "model_time_s",  COL_NUM,  0, SHOW_ALWAYS, 0 },
    [C_ROUNDS]       = { "rounds",        COL_NUM,  0, SHOW_ALWAYS, 0 },
    [C_MESSAGES]     = { "messages",      COL_NUM,  0, SHOW_ALWAYS, 0 },
    [C_BYTES]        = { "bytes",         COL_NUM,  0, SHOW_ALWAYS, 0 },
    [C_MAX_OUT]      = { "max_out_bytes", COL_NUM,  0, SHOW_ALWAYS, 0 },
    [C_MAX_IN]       = { "max_in_bytes",  COL_NUM,  0, SHOW_ALWAYS, 0 },
    [C_WALL]         = { "wall_s",        COL_NUM,  0, SHOW_ALWAYS, 0 },
    [C_VERIFIED]     = { "verified",      COL_BOOL, 0, SHOW_ALWAYS, 0 },
    [C_STEPS]        = { "steps",         COL_NUM,  0, SHOW_ALWAYS, 0 },
    [C_RPH]          = { "rounds_per_h",  COL_NUM,  0, SHOW_FILLED, 0 },
    [C_LOST]         = { "lost",          COL_NUM,  0, SHOW_FILLED, 0 },
    [C_STALLS]       = { "stalls",        COL_NUM,  0, SHOW_FILLED, 0 },
    [C_STATUS]       = { "status",        COL_STR,  0, SHOW_NOT_OK, 0 },
    [C_DISTRIBUTION] = { "distribution",  COL_STR,  0, SHOW_VARIES, 0 },
    [C_DATASET]      = { "dataset",       COL_STR,  0, SHOW_VARIES, 0 },
};
#define NHEAD ((int)(sizeof head_cols / sizeof head_cols[0]))
_Static_assert(sizeof head_cols / sizeof head_cols[0] == NHEAD_, "fill() sets the head's columns by index");

enum {
    T_BUFFER, T_SWITCHING, T_TAU, T_SIGMA, T_OVERHEAD, T_HOP, T_COMPUTE_UNIT, T_COMPUTE, T_REPEAT,
    T_PARAMS, T_PLAN_S, T_PLAN_STEPS, NTAIL_
};
static const column tail_cols[] = {
    [T_BUFFER]       = { "buffer",        COL_STR,  0, SHOW_VARIES, 0 },
    [T_SWITCHING]    = { "switching",     COL_STR,  0, SHOW_VARIES, 0 },
    [T_TAU]          = { "tau",           COL_NUM,  0, SHOW_BY_COST, 0 },
    [T_SIGMA]        = { "sigma",         COL_NUM,  0, SHOW_BY_COST, 0 },
    [T_OVERHEAD]     = { "overhead",      COL_NUM,  0, SHOW_BY_COST, 0 },
    [T_HOP]          = { "hop",           COL_NUM,  0, SHOW_BY_COST, 0 },
    [T_COMPUTE_UNIT] = { "compute_unit",  COL_NUM,  0, SHOW_BY_COST, 0 },
    [T_COMPUTE]      = { "compute",       COL_STR,  0, SHOW_VARIES, 0 },
    [T_REPEAT]       = { "repeat",        COL_NUM,  0, SHOW_VARIES, 0 },
    [T_PARAMS]       = { "params",        COL_STR,  0, SHOW_VARIES, 0 },
    [T_PLAN_S]       = { "plan_s",        COL_NUM,  1, SHOW_FILLED, 0 },
    [T_PLAN_STEPS]   = { "plan_steps",    COL_NUM,  1, SHOW_FILLED, 0 },
};
#define NTAIL ((int)(sizeof tail_cols / sizeof tail_cols[0]))
_Static_assert(sizeof tail_cols / sizeof tail_cols[0] == NTAIL_, "fill() sets the tail's columns by index");
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
                             1, SHOW_VARIES, 0 };
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
    f[C_ALGORITHM].s = text(r->algorithm);
    f[C_PROCS].s = num(&f[C_PROCS], (uint64_t)(r->procs > 0 ? r->procs : 0));
    f[C_N].s = r->no_n ? "" : num(&f[C_N], r->n);
    f[C_H].s = num(&f[C_H], r->h);
    f[C_DISCIPLINE].s = text(r->discipline);
    f[C_TOPOLOGY].s = text(r->topology);
    f[C_COST].s = text(r->cost);
    f[C_SEED].s = num(&f[C_SEED], r->seed);
    f[C_MODEL].s = real(&f[C_MODEL], r->model_time_s, fmt);
    f[C_ROUNDS].s = num(&f[C_ROUNDS], r->rounds);
    f[C_MESSAGES].s = num(&f[C_MESSAGES], r->messages);
    f[C_BYTES].s = num(&f[C_BYTES], r->bytes);
    f[C_MAX_OUT].s = num(&f[C_MAX_OUT], r->max_out_bytes);
    f[C_MAX_IN].s = num(&f[C_MAX_IN], r->max_in_bytes);
    f[C_WALL].s = real(&f[C_WALL], r->wall_s, fmt);
    f[C_VERIFIED].s = r->verified ? "true" : "false";
    f[C_STEPS].s = num(&f[C_STEPS], r->steps);
    f[C_RPH].s = real(&f[C_RPH], r->h > 0 ? (double)r->rounds / (double)r->h : NAN, fmt);
    f[C_LOST].s = num(&f[C_LOST], r->lost);
    f[C_STALLS].s = num(&f[C_STALLS], r->stalls);
    f[C_STATUS].s = text(r->status);
    f[C_DISTRIBUTION].s = text(r->distribution);
    f[C_DATASET].s = text(r->dataset);
    int w = declared_count();
    for (int i = 0; i < w; i++)
        f[NHEAD + i].s = declared_value(&f[NHEAD + i], r, hr_workload_column_at(i));
    field *t = f + NHEAD + w;
    t[T_BUFFER].s = r->buffer ? num(&t[T_BUFFER], r->buffer) : "unlimited";
    t[T_SWITCHING].s = hr__link_model_name(r->store_forward, NULL);
    t[T_TAU].s = exact(&t[T_TAU], r->tau, fmt);
    t[T_SIGMA].s = exact(&t[T_SIGMA], r->sigma, fmt);
    t[T_OVERHEAD].s = exact(&t[T_OVERHEAD], r->overhead, fmt);
    t[T_HOP].s = exact(&t[T_HOP], r->hop, fmt);
    t[T_COMPUTE_UNIT].s = exact(&t[T_COMPUTE_UNIT], r->compute_unit, fmt);
    t[T_COMPUTE].s = r->measured ? "measured" : "units";
    t[T_REPEAT].s = num(&t[T_REPEAT], r->repeat);
    t[T_PARAMS].s = text(r->params);
    t[T_PLAN_S].s = r->planned ? real(&t[T_PLAN_S], r->plan_s, fmt) : "";
    t[T_PLAN_STEPS].s = r->planned ? num(&t[T_PLAN_STEPS], r->plan_steps) : "";
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
static const int stat_cols[] = { C_H, C_MODEL, C_ROUNDS, C_STEPS, C_MESSAGES, C_BYTES, C_MAX_OUT,
                                 C_MAX_IN, C_RPH, C_LOST, C_STALLS, PLAN_S, PLAN_STEPS };
#define NSTAT ((int)(sizeof stat_cols / sizeof stat_cols[0]))
/* The columns that tell a group of aggregated rows apart (all settings but the seed): these, h
 * when the config set it (keep: a setting, not what the workload drew), and every column from
 * the distribution on. */
static const int key_cols[] = { C_ALGORITHM, C_PROCS, C_N, C_DISCIPLINE, C_TOPOLOGY, C_COST };
#define NKEY ((int)(sizeof key_cols / sizeof key_cols[0]))
static const char *const stat_suffix[4] = { "mean", "sd", "min", "max" };

/* The default table of aggregated rows shows each statistic's mean and model_time_s's sd. */
static col_show stat_show(int col, int q)
{
    if (q == 0)
        return col == C_MAX_OUT || col == C_MAX_IN ? SHOW_NEVER : SHOW_FILLED;
    return col == C_MODEL && q == 1 ? SHOW_FILLED : SHOW_NEVER;
}

/* An aggregated row's columns: the settings (h among them when the config set it: otherwise
 * empty), seed (the list) and count, each statistic of each model column (h too, when the
 * workload drew it: otherwise empty), wall_s (the mean of the rows' medians), verified (all of
 * them), status (theirs, or mixed), then the other settings. The default table shows the settings
 * that vary, the seeds, the count, the means and model_time_s's sd. */
static int agg_columns(column *out)
{
    _Static_assert(8 + 1 + 4 * (sizeof stat_cols / sizeof stat_cols[0]) + 3 + (NHEAD - C_DISTRIBUTION) +
                   MAX_DECLARED + NTAIL - NLATE <= HR_REPORT_MAX_COLS,
                   "an aggregated row's columns fit in HR_REPORT_MAX_COLS");
    static char names[NSTAT * 4][32];
    column cols[HR_REPORT_MAX_COLS];
    int ncol = all_columns(cols), n = 0;
    for (int i = 0; i <= C_SEED; i++) {
        out[n] = cols[i];
        if (out[n].show == SHOW_SIZE)
            out[n].show = SHOW_VARIES;
        n++;
    }
    out[C_H].opt = 1;                                         /* h: empty when drawn */
    out[C_SEED] = (column){ "seed", COL_STR, 0, SHOW_ALWAYS, 0 };   /* the list of seeds */
    out[n++] = (column){ "count", COL_NUM, 0, SHOW_ALWAYS, 0 };
    for (int k = 0; k < NSTAT; k++)
        for (int q = 0; q < 4; q++) {
            char *name = names[4 * k + q];
            int at = stat_cols[k] >= 0 ? stat_cols[k] : ncol - NLATE - 1 - stat_cols[k];
            snprintf(name, sizeof names[0], "%s_%s", cols[at].name, stat_suffix[q]);
            out[n++] = (column){ name, COL_NUM, 1, stat_show(stat_cols[k], q), 0 };
        }
    out[n++] = cols[C_WALL];
    out[n++] = cols[C_VERIFIED];
    out[n++] = cols[C_STATUS];
    for (int i = C_DISTRIBUTION; i < ncol - NLATE; i++)
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
    r->table = NULL;
    r->nsel = 0;
    r->chosen = list != NULL;
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

/* Does the default table show column col (show rule c->show) of the kept rows? */
static int shows(const hr_table *t, const column *c, int col, int cost)
{
    switch (c->show) {
    case SHOW_ALWAYS:
        return 1;
    case SHOW_NEVER:
        return 0;
    case SHOW_BY_COST:
        return cost < 0 || varies_by_cost(t, col, cost);
    default:
        break;
    }
    for (size_t i = 0; i < t->n; i++) {
        const char *v = cell(t, i, col);
        if (c->show == SHOW_VARIES ? strcmp(v, cell(t, 0, col)) != 0
            : c->show == SHOW_NOT_OK ? strcmp(v, "ok") != 0 : v[0] != '\0')
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
        if (!r->chosen && !shows(t, &cols[k], k, cost))
            continue;
        c[n] = cols[k];
        c[n].width = (int)strlen(cols[k].name);
        for (size_t j = 0; j < t->n; j++) {
            int w = (int)strlen(cell(t, j, k));
            c[n].width = w > c[n].width ? w : c[n].width;
        }
        at[n++] = k;
    }
    /* Too wide: leave out figures that the rest imply or that matter less, in this order, and
     * say which (hr_report.dropped). Settings that vary stay: every row says what produced it. */
    static const char *const spare[] = { "max_out_bytes", "wall_s", "rounds_per_h",
                                         "max_in_bytes", "bytes", "messages", NULL };
    r->dropped[0] = '\0';
    for (const char *const *d = spare; !r->chosen && *d != NULL; d++) {
        int total = -2;
        for (int i = 0; i < n; i++)
            total += c[i].width + 2;
        if (total <= HR_REPORT_TABLE_WIDTH)
            break;
        const char *one[2] = { *d, NULL };
        for (int i = 0; i < n; i++)
            if (hidden(c[i].name, one)) {
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
        int      ntext;
        double   stat[NSTAT];
        double   wall;
        uint64_t seed;
        int      verified;
        int      h_set;                     /* h is a setting (hr_row.h_set) */
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

static double stat_of(const hr_row *row, int k)
{
    switch (stat_cols[k]) {
    case C_H:        return (double)row->h;
    case C_MODEL:    return row->model_time_s;
    case C_ROUNDS:   return (double)row->rounds;
    case C_STEPS:    return (double)row->steps;
    case C_MESSAGES: return (double)row->messages;
    case C_BYTES:    return (double)row->bytes;
    case C_MAX_OUT:  return (double)row->max_out_bytes;
    case C_MAX_IN:   return (double)row->max_in_bytes;
    case C_RPH:      return row->h > 0 ? (double)row->rounds / (double)row->h : NAN;
    case C_LOST:     return (double)row->lost;
    case C_STALLS:   return (double)row->stalls;
    case PLAN_S:     return row->planned ? row->plan_s : NAN;
    default:         return row->planned ? (double)row->plan_steps : NAN;   /* PLAN_STEPS */
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
    k->h_set = row->h_set;
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
    emit(r, cols, n, v);
    /* Rows of a long sweep should show as they come, even into a pipe (the table's come at the
     * end, when its columns are known). */
    fflush(r->out);
}

/* The h of a kept row as a grouping setting: its value when the config set it, else empty. */
static const char *h_key(const struct kept *k)
{
    return k->h_set ? k->text[C_H] : "";
}

static int same_key(const struct kept *a, const struct kept *b)
{
    for (int i = 0; i < NKEY; i++)
        if (strcmp(a->text[key_cols[i]], b->text[key_cols[i]]) != 0)
            return 0;
    if (strcmp(h_key(a), h_key(b)) != 0)
        return 0;
    for (int i = C_DISTRIBUTION; i < a->ntext - NLATE; i++)
        if (strcmp(a->text[i], b->text[i]) != 0)
            return 0;
    return 1;
}

/* One aggregated row of the m kept rows g[0..m), in the order agg_columns gives. */
static void write_group(hr_report *r, struct kept *const *g, int m)
{
    column all[HR_REPORT_MAX_COLS];
    int ncols = agg_columns(all);
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
        mixed |= strcmp(g[j]->text[C_STATUS], g[0]->text[C_STATUS]) != 0;
    }
    int c = 0;
    for (int i = 0; i <= C_SEED; i++)
        v[c++] = i == C_SEED ? seeds : i == C_H ? h_key(g[0]) : g[0]->text[i];
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
        /* Equal values: sd 0, not the rounding of their mean's differences. */
        const double q4[4] = { lo == hi ? lo : mean, m > 1 && lo != hi ? sqrt(ss / (m - 1)) : 0,
                               lo, hi };
        /* Empty: a plan's figures for rows without a plan, and h where it is a setting. */
        int none = (isnan(mean) && stat_cols[k] < 0) || (stat_cols[k] == C_H && g[0]->h_set);
        for (int q = 0; q < 4; q++, c++)
            v[c] = none ? "" : real(&f[c], q4[q], r->format);
    }
    v[c] = real(&f[c], wall / m, r->format);
    c++;
    v[c++] = verified ? "true" : "false";
    v[c++] = mixed ? "mixed" : g[0]->text[C_STATUS];
    for (int i = C_DISTRIBUTION; i < g[0]->ntext - NLATE; i++)
        v[c++] = g[0]->text[i];
    emit(r, all, ncols, v);
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
        cols[i] = (column){ .name = names[i], .type = numeric[i] ? COL_NUM : COL_STR,
                             .width = (int)strlen(values[i]) };
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
        cols[i] = (column){ .name = names[i], .type = numeric[i] ? COL_NUM : COL_STR,
                             .width = widths[i] };
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
