/* config_keys.c: the keys of the fixed sections, how each value is read and checked, and the
 * resolution of one sweep point at each level (machine, workload, run, algorithm). */
#include "cli/config_int.h"

#include <ctype.h>
#include <inttypes.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "cli/expr.h"
#include "cli/memory.h"
#include "core/world.h"
#include "net/cost_model.h"
#include "net/discipline.h"
#include "net/link_model.h"
#include "net/topology.h"

#define MAX_KEYS 64       /* keys in one fixed section's table, declared ones included */
#define DAY      86400.0  /* the longest latency the machine accepts, s */

/* ---- small readers ------------------------------------------------------------------------ */

/* A decimal floating-point number and nothing else (no hex floats, no inf or nan). */
static int read_double(const char *s, double *out)
{
    if (*s == '\0' || strspn(s, "0123456789.eE+-") != strlen(s))
        return HR_EINVAL;
    errno = 0;
    char *end;
    double d = strtod(s, &end);
    if (*end != '\0' || errno == ERANGE || !isfinite(d))
        return HR_EINVAL;
    *out = d;
    return HR_OK;
}

/* Seconds, within the bounds the machine accepts (net/cost.c): above lo (or at it, if closed)
 * and at most hi. */
static int read_seconds(const char *s, double *out, double lo, int closed, double hi, char *why,
                        size_t len)
{
    double d;
    if (read_double(s, &d) < 0) {
        snprintf(why, len, "expected a number of seconds, like 88e-6");
        return HR_EINVAL;
    }
    if (!(closed ? d >= lo : d > lo) || !(d <= hi)) {
        snprintf(why, len, "must be %s %g and at most %g", closed ? ">=" : ">", lo, hi);
        return HR_ERANGE;
    }
    *out = d;
    return HR_OK;
}

static int range_u64(uint64_t v, uint64_t lo, uint64_t hi, char *why, size_t len)
{
    if (v >= lo && v <= hi)
        return HR_OK;
    snprintf(why, len, "must be %llu .. %llu (it is %llu)", (unsigned long long)lo,
             (unsigned long long)hi, (unsigned long long)v);
    return HR_ERANGE;
}

/* "name1, name2, ..." from one of the registries that share this signature, for messages. */
static void list_names(char *buf, size_t len, const char *(*at)(int, const char **))
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; at(i, NULL) != NULL && used < len; i++) {
        int k = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", at(i, NULL));
        used += k > 0 ? (size_t)k : 0;
    }
}

static size_t word_len(const char *s)
{
    size_t k = 0;
    while (s[k] && !isspace((unsigned char)s[k]))
        k++;
    return k;
}

/* ---- [machine] --------------------------------------------------------------------------- */

/* "auto": the p that the topology's shape fixes (hr__config_machine), as when procs is left out;
 * so a --set can undo the file's procs. */
static int set_procs(hr_point *pt, const char *s, char *why, size_t len)
{
    if (strcmp(s, "auto") == 0) {
        pt->machine.procs = 0;
        return HR_OK;
    }
    uint64_t v;
    int err = hr__expr_eval(s, NULL, &v, why, len);
    if (err == HR_OK && (err = range_u64(v, 1, HR_MAX_PROCS, why, len)) == HR_OK)
        pt->machine.procs = (int)v;
    return err;
}

/* A topology is a registered name, followed by its shape where it has one ("mesh 4x8"); the
 * shape's syntax is checked here, its fit with p by hr__config_machine and the machine. */
static int set_topology(hr_point *pt, const char *s, char *why, size_t len)
{
    size_t k = word_len(s);
    for (int i = 0; hr_topology_name(i, NULL) != NULL; i++) {
        const char *name = hr_topology_name(i, NULL);
        if (word_len(name) == k && strncmp(name, s, k) == 0) {
            int p;
            if (hr_topology_procs(s, &p, why, len) != HR_OK)
                return HR_EINVAL;
            pt->machine.topology = s;
            return HR_OK;
        }
    }
    char names[256];
    list_names(names, sizeof names, hr_topology_name);
    snprintf(why, len, "unknown topology (topologies: %s)", names);
    return HR_ENOENT;
}

/* How a message crosses the links of its route (docs/model.md, "Link contention"). */
static int set_switching(hr_point *pt, const char *s, char *why, size_t len)
{
    int model = hr__link_model_find(s);
    if (model >= 0) {
        pt->machine.switching = model;
        return HR_OK;
    }
    char names[256];
    hr__link_model_choices(names, sizeof names);
    snprintf(why, len, "switching is %s", names);
    return HR_EINVAL;
}

/* How messages are charged (docs/model.md, "Cost models"), with the model's default preset,
 * which the cost key (set after it) may replace. */
static int set_cost_model(hr_point *pt, const char *s, char *why, size_t len)
{
    const hr_cost_model *cm = hr__cost_model_find(s);
    if (cm != NULL) {
        pt->machine.cost_model = cm->name;
        if (hr_cost_model_preset(cm->name, NULL, &pt->machine.cost) != HR_OK) {
            snprintf(why, len, "cost model %s has no preset %s", cm->name, cm->preset);
            return HR_ENOENT;
        }
        snprintf(pt->cost, sizeof pt->cost, "%s", cm->preset);
        return HR_OK;
    }
    char names[256];
    list_names(names, sizeof names, hr__cost_model_name);
    snprintf(why, len, "unknown cost model (cost models: %s)", names);
    return HR_ENOENT;
}

static int set_discipline(hr_point *pt, const char *s, char *why, size_t len)
{
    for (int i = 0; hr_discipline_name(i, NULL) != NULL; i++) {
        if (strcmp(hr_discipline_name(i, NULL), s) == 0) {
            pt->machine.discipline = s;
            return HR_OK;
        }
    }
    char names[256];
    list_names(names, sizeof names, hr_discipline_name);
    snprintf(why, len, "unknown discipline (disciplines: %s)", names);
    return HR_ENOENT;
}

/* A byte count > 0 with an optional K, M or G suffix (powers of 1024), into *out. */
static int parse_bytes(const char *s, uint64_t *out, const char *zero, char *why, size_t len)
{
    /* The expression reads the suffixes K, M and G (expr.h); a size may write them small. */
    char *text = strdup(s);
    if (text == NULL) {
        snprintf(why, len, "out of memory");
        return HR_ENOMEM;
    }
    size_t n = strlen(text);
    if (n > 1 && strchr("kmg", text[n - 1]) != NULL && isdigit((unsigned char)text[n - 2]))
        text[n - 1] = (char)toupper((unsigned char)text[n - 1]);
    uint64_t v;
    int err = hr__expr_eval(text, NULL, &v, why, len);
    /* "64KB", "1T", "2 MiB": a size written another way than the one this reads */
    int unit = n > 1 && isalpha((unsigned char)s[n - 1]) && isdigit((unsigned char)s[0]);
    free(text);
    if (err < 0 && unit) {
        snprintf(why, len, "a size is a number of bytes with K, M or G after it (powers of "
                 "1024: 64K, 1M), or an expression of them");
        return HR_EINVAL;
    }
    if (err < 0)
        return err;
    if (v == 0) {
        snprintf(why, len, "%s", zero);
        return HR_ERANGE;
    }
    *out = v;
    return HR_OK;
}

/* "unlimited", or a byte count. */
static int set_buffer(hr_point *pt, const char *s, char *why, size_t len)
{
    if (strcmp(s, "unlimited") == 0) {
        pt->machine.buffer = 0;
        return HR_OK;
    }
    return parse_bytes(s, &pt->machine.buffer, "must be > 0 bytes, or unlimited", why, len);
}

/* eager's limit: the largest send copied, in bytes. */
static int set_eager_limit(hr_point *pt, const char *s, char *why, size_t len)
{
    return parse_bytes(s, &pt->machine.eager_limit, "must be > 0 bytes (discipline sync makes "
                       "every send a rendezvous)", why, len);
}

/* How the processors run: threads (a POSIX thread each), fibers (src/core/fibers.c), or auto:
 * chosen once procs is known (choose_engine). */
static int set_engine(hr_point *pt, const char *s, char *why, size_t len)
{
    if (strcmp(s, "threads") != 0 && strcmp(s, "fibers") != 0 && strcmp(s, "auto") != 0) {
        snprintf(why, len, "expected threads, fibers or auto");
        return HR_EINVAL;
    }
    pt->machine.engine = s;
    pt->engine_auto = strcmp(s, "auto") == 0;
    return HR_OK;
}

/* engine = auto: fibers above HR_AUTO_FIBERS processors, where a thread a processor costs more
 * in switches than the cores give back (make bench: hrel.pq_random at p = 256 runs 16x faster
 * on fibers), or where the threads' own memory would not fit; threads, the machine hremu
 * promises, below. hremu-mpi's ranks run threads. */
#define HR_AUTO_FIBERS 256

static void choose_engine(hr_point *pt)
{
    uint64_t have = 0;
    const char *source;
    char why[160];
    int fibers = pt->machine.procs > HR_AUTO_FIBERS;
    if (!fibers && hr__available_bytes(&have, &source, why, sizeof why) == HR_OK && have > 0) {
        hr_machine_config threads = pt->machine;
        threads.engine = "threads";
        fibers = hr__procs_bytes(&threads) > have;
    }
    /* Measured computation is a thread's CPU time: fibers cannot give it, threads can (up to
     * their cap; above it the row is refused with that reason). */
    if (pt->machine.cost.measured && pt->machine.procs <= HR_MAX_THREADS)
        fibers = 0;
    pt->machine.engine = fibers && strcmp(hr__world()->engine, "threads") == 0 ? "fibers"
                                                                               : "threads";
}

/* A fiber's stack, bytes. */
static int set_stack(hr_point *pt, const char *s, char *why, size_t len)
{
    uint64_t v;
    int err = parse_bytes(s, &v, "must be 16K .. 1G", why, len);
    if (err == HR_OK && (v < 16 * 1024 || v > (UINT64_C(1) << 30))) {
        snprintf(why, len, "must be 16K .. 1G (it is %" PRIu64 " bytes)", v);
        err = HR_EINVAL;
    }
    if (err == HR_OK)
        pt->machine.stack = (size_t)v;
    return err;
}

/* The carrier threads that run the fibers: a number, or cores (one a core). */
#define HR_MAX_CARRIERS 1024

static int set_carriers(hr_point *pt, const char *s, char *why, size_t len)
{
    uint64_t v;
    if (strcmp(s, "cores") == 0) {
        pt->machine.carriers = HR_CARRIERS_CORES;
        return HR_OK;
    }
    int err = hr__expr_eval(s, NULL, &v, why, len);
    if (err == HR_OK && (v < 1 || v > HR_MAX_CARRIERS)) {
        snprintf(why, len, "must be cores or 1 .. %d (it is %" PRIu64 ")", HR_MAX_CARRIERS, v);
        err = HR_EINVAL;
    }
    if (err == HR_OK)
        pt->machine.carriers = (int)v;
    return err;
}

static int set_tau(hr_point *pt, const char *s, char *why, size_t len);
static int set_sigma(hr_point *pt, const char *s, char *why, size_t len);
static int set_overhead(hr_point *pt, const char *s, char *why, size_t len);
static int set_hop(hr_point *pt, const char *s, char *why, size_t len);
static int set_gap(hr_point *pt, const char *s, char *why, size_t len);
static int set_compute_unit(hr_point *pt, const char *s, char *why, size_t len);

/* A cost file being read: its [cost] figures go to a scratch point, those of the row's cost
 * model's own section to another, any other model's to a third (checked, then dropped); why
 * gets the first error. */
typedef struct cost_file {
    hr_point    scratch, own, other;
    const char *model;     /* the row's cost model */
    int         has_own;   /* the file has a section for it */
    char        why[200];
    /* What was set so far, refused a second time as a config's sections and keys are: bit k of
     * set[s] for key k of section s, s by the order sections came in (at most [cost] and one
     * a cost model); last, the section of the line before. */
    char        sections[8][32];
    unsigned    set[8];
    int         nsections, last;
} cost_file;

/* Section s's index in f, a new one if the file names it for the first time; -1 with f->why
 * said if it came before and another section since (a section given twice). */
static int cost_section(cost_file *f, const char *section)
{
    if (f->nsections > 0 && strcmp(f->sections[f->last], section) == 0)
        return f->last;
    for (int i = 0; i < f->nsections; i++)
        if (strcmp(f->sections[i], section) == 0) {
            snprintf(f->why, sizeof f->why, "[%s] is given twice", section);
            return -1;
        }
    if (f->nsections == (int)(sizeof f->sections / sizeof f->sections[0])) {
        snprintf(f->why, sizeof f->why, "too many sections");
        return -1;
    }
    snprintf(f->sections[f->nsections], sizeof f->sections[0], "%s", section);
    f->set[f->nsections] = 0;
    return f->last = f->nsections++;
}

static int cost_key(void *user, const char *section, const char *key, const char *value)
{
    static const struct {
        const char *name;
        int (*set)(hr_point *, const char *, char *, size_t);
    } keys[] = { { "tau", set_tau }, { "sigma", set_sigma }, { "overhead", set_overhead },
                 { "hop", set_hop }, { "gap", set_gap }, { "compute_unit", set_compute_unit } };
    cost_file *f = user;
    hr_point *into = &f->scratch;
    if (strcmp(section, "cost") != 0) {
        if (hr__cost_model_find(section) == NULL) {
            snprintf(f->why, sizeof f->why, "[%s]: a cost file's sections are [cost] and one a "
                     "cost model (--list)", section);
            return 0;
        }
        into = strcmp(section, f->model) == 0 ? &f->own : &f->other;
        f->has_own |= into == &f->own;
    }
    int sec = cost_section(f, section);
    if (sec < 0)
        return 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(key, keys[i].name) == 0) {
            if (f->set[sec] & 1u << i) {
                snprintf(f->why, sizeof f->why, "%s is set twice in [%s]", key, section);
                return 0;
            }
            f->set[sec] |= 1u << i;
            char reason[160];
            if (keys[i].set(into, value, reason, sizeof reason) == HR_OK)
                return 1;
            snprintf(f->why, sizeof f->why, "%s: %s", key, reason);
            return 0;
        }
    snprintf(f->why, sizeof f->why, "unknown key '%s' (tau, sigma, overhead, hop, gap, compute_unit)",
             key);
    return 0;
}

/* cost = file:PATH: the section of PATH named after the row's cost model ([loggp], say) if it
 * has one, else its [cost] section (hremu-mpi --calibrate writes both), each key as [machine]
 * takes it; a key the section leaves out is 0, compute_unit 1 ns. */
static int cost_from_file(hr_point *pt, const char *path, char *why, size_t len)
{
    cost_file f = { .model = hr__cost_model_find(pt->machine.cost_model)->name, .why = "" };
    f.scratch.machine.cost = f.own.machine.cost = (hr_cost){ .compute_unit = 1e-9 };
    errno = 0;
    int line = ini_parse(path, cost_key, &f);
    if (line == -1) {
        snprintf(why, len, "%s: cannot open: %s", path, strerror(errno ? errno : ENOENT));
        return HR_ENOENT;
    }
    if (line != 0) {
        snprintf(why, len, "%s:%d: %s", path, line, f.why[0] ? f.why : "not a key = value line");
        return HR_EINVAL;
    }
    const hr_cost *c = f.has_own ? &f.own.machine.cost : &f.scratch.machine.cost;
    if (c->tau <= 0) {
        snprintf(why, len, "%s: no tau in [%s] (the latency must be more than 0)", path,
                 f.has_own ? f.model : "cost");
        return HR_EINVAL;
    }
    pt->machine.cost = *c;
    /* The path as the row reads it, as the distribution and pattern columns give theirs: two
     * files of one name in two directories are two rows. */
    snprintf(pt->cost, sizeof pt->cost, "file:%s", path);
    return HR_OK;
}

/* A preset of the row's cost model (each model's presets are its own figures: --list), or a
 * cost file. */
static int set_cost(hr_point *pt, const char *s, char *why, size_t len)
{
    if (strncmp(s, "file:", 5) == 0 && s[5] != '\0')
        return cost_from_file(pt, s + 5, why, len);
    const char *model = pt->machine.cost_model;
    if (hr_cost_model_preset(model, s, &pt->machine.cost) == HR_OK) {
        snprintf(pt->cost, sizeof pt->cost, "%s", s);
        return HR_OK;
    }
    char names[128] = "";
    const char *name;
    for (int i = 0; (name = hr_cost_model_preset_name(model, i, NULL)) != NULL; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                 name);
    snprintf(why, len, "cost model %s has no preset '%.40s' (its presets: %s; or file:PATH, a "
             "cost file)", model, s, names);
    return HR_ENOENT;
}

static int set_tau(hr_point *pt, const char *s, char *why, size_t len)
{
    pt->cost_changed = 1;
    return read_seconds(s, &pt->machine.cost.tau, 0, 0, DAY, why, len);
}

static int set_sigma(hr_point *pt, const char *s, char *why, size_t len)
{
    pt->cost_changed = 1;
    return read_seconds(s, &pt->machine.cost.sigma, 0, 1, 1.0, why, len);
}

static int set_overhead(hr_point *pt, const char *s, char *why, size_t len)
{
    pt->cost_changed = 1;
    return read_seconds(s, &pt->machine.cost.overhead, 0, 1, DAY, why, len);
}

static int set_hop(hr_point *pt, const char *s, char *why, size_t len)
{
    pt->cost_changed = 1;
    return read_seconds(s, &pt->machine.cost.hop, 0, 1, DAY, why, len);
}

static int set_gap(hr_point *pt, const char *s, char *why, size_t len)
{
    pt->cost_changed = 1;
    return read_seconds(s, &pt->machine.cost.gap, 0, 1, DAY, why, len);
}

static int set_compute_unit(hr_point *pt, const char *s, char *why, size_t len)
{
    pt->cost_changed = 1;
    return read_seconds(s, &pt->machine.cost.compute_unit, 0, 1, 1.0, why, len);
}

static int set_compute(hr_point *pt, const char *s, char *why, size_t len)
{
    if (strcmp(s, "units") == 0 || strcmp(s, "measured") == 0) {
        pt->machine.cost.measured = strcmp(s, "measured") == 0;
        return HR_OK;
    }
    snprintf(why, len, "expected units or measured");
    return HR_EINVAL;
}

static int set_seed(hr_point *pt, const char *s, char *why, size_t len)
{
    return hr__expr_eval(s, NULL, &pt->machine.seed, why, len);
}

/* ---- [workload] -------------------------------------------------------------------------- */

static void list_kinds(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; hr_workload_at(i) != NULL && used < len; i++) {
        int k = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", hr_workload_at(i)->name);
        used += k > 0 ? (size_t)k : 0;
    }
}

static int set_kind(hr_point *pt, const char *s, char *why, size_t len)
{
    const hr_workload *w = hr_workload_find(s);
    if (w != NULL) {
        pt->workload = w;
        pt->work.kind = s;
        return HR_OK;
    }
    char names[256];
    list_kinds(names, sizeof names);
    snprintf(why, len, "unknown workload kind (kinds: %s)", names);
    return HR_ENOENT;
}

/* n may use p, or p and h ("n = p*h"): then h is read first, without n, and n after it
 * (set_h). */
static int set_n(hr_point *pt, const char *s, char *why, size_t len)
{
    hr_expr_vars v = { .p = (uint64_t)pt->machine.procs, .has_p = 1 };
    pt->n_uses_h = NULL;
    if (hr__expr_uses(s, 'h')) {
        pt->n_uses_h = s;
        pt->work.n = 0;
        return HR_OK;
    }
    return hr__expr_eval(s, &v, &pt->work.n, why, len);
}

static int set_h(hr_point *pt, const char *s, char *why, size_t len)
{
    const char *n_text = pt->n_uses_h;
    hr_expr_vars v = { .n = pt->work.n, .p = (uint64_t)pt->machine.procs, .has_n = !n_text,
                       .has_p = 1 };
    if (n_text != NULL && hr__expr_uses(s, 'n')) {
        snprintf(why, len, "h uses n, and n = %.100s uses h: one of them must not", n_text);
        return HR_EINVAL;
    }
    int err = hr__expr_eval(s, &v, &pt->work.h, why, len);
    if (err < 0 || n_text == NULL)
        return err;
    pt->n_uses_h = NULL;
    v = (hr_expr_vars){ .p = (uint64_t)pt->machine.procs, .h = pt->work.h, .has_p = 1,
                        .has_h = 1 };
    char nwhy[200];
    if ((err = hr__expr_eval(n_text, &v, &pt->work.n, nwhy, sizeof nwhy)) < 0)
        snprintf(why, len, "n = %.100s: %s", n_text, nwhy);
    return err;
}

/* One entry of a distribution list matches s: "skewed" exactly, or "file:PATH" by its prefix
 * "file:" followed by a non-empty path. */
static int distribution_matches(const char *entry, size_t n, const char *s)
{
    const char *colon = memchr(entry, ':', n);
    if (colon != NULL) {
        size_t k = (size_t)(colon - entry) + 1;
        return strncmp(entry, s, k) == 0 && s[k] != '\0';
    }
    return strlen(s) == n && strncmp(entry, s, n) == 0;
}

/* One entry of a comma list matches s: "sum" exactly, or "file:PATH" by its prefix "file:"
 * followed by a non-empty text. */
static int in_list(const char *list, const char *s)
{
    for (const char *at = list ? list : ""; *at != '\0';) {
        at += strspn(at, " ,");
        size_t n = strcspn(at, ",");
        while (n > 0 && isspace((unsigned char)at[n - 1]))
            n--;
        if (n > 0 && distribution_matches(at, n, s))
            return 1;
        at += strcspn(at, ",");
    }
    return 0;
}

static int set_distribution(hr_point *pt, const char *s, char *why, size_t len)
{
    const char *list = pt->workload ? pt->workload->distributions : NULL;
    if (in_list(list, s)) {
        pt->work.distribution = s;
        return HR_OK;
    }
    snprintf(why, len, "unknown distribution for this kind (distributions: %s)", list ? list : "");
    return HR_ENOENT;
}

/* A dataset is one of the kind's dataset names, exactly. */
static int set_dataset(hr_point *pt, const char *s, char *why, size_t len)
{
    const char *list = pt->workload ? pt->workload->datasets : NULL;
    if (in_list(list, s)) {
        pt->work.dataset = s;
        return HR_OK;
    }
    snprintf(why, len, "unknown dataset for this kind (datasets: %s)", list ? list : "");
    return HR_ENOENT;
}

/* ---- keys a workload kind declares -------------------------------------------------------- */

/* The spec of the key called name in w's declarations, its index in *at; NULL if w has none. */
static const hr_wkey_spec *declared(const hr_workload *w, const char *name, int *at)
{
    for (int i = 0; w != NULL && w->keys != NULL && w->keys[i].name != NULL; i++)
        if (strcmp(w->keys[i].name, name) == 0) {
            if (at != NULL)
                *at = i;
            return &w->keys[i];
        }
    return NULL;
}

/* Read item as the value of a declared key of pt's kind, into pt->wkeys. */
static int set_declared(hr_point *pt, const char *name, const char *item, char *why, size_t len)
{
    int at = 0;
    const hr_wkey_spec *k = declared(pt->workload, name, &at);
    hr_wkey_value *v = &pt->wkeys[at];
    if (k->type == HR_WKEY_WORD) {
        if (!in_list(k->choices, item)) {
            snprintf(why, len, "expected one of: %s", k->choices);
            return HR_EINVAL;
        }
        v->word = item;
        return HR_OK;
    }
    double d;
    if (k->type == HR_WKEY_REAL) {
        if (read_double(item, &d) < 0) {
            snprintf(why, len, "expected a number");
            return HR_EINVAL;
        }
    } else {
        hr_expr_vars vars = { .n = pt->work.n, .p = (uint64_t)pt->machine.procs, .has_n = 1,
                              .has_p = 1 };
        uint64_t u;
        int err = hr__expr_eval(item, &vars, &u, why, len);
        if (err < 0)
            return err;
        d = (double)u;
        if (k->below_p && u >= (uint64_t)pt->machine.procs) {
            snprintf(why, len, "%s %llu is not a processor (p = %d)", name,
                     (unsigned long long)u, pt->machine.procs);
            return HR_EINVAL;
        }
    }
    if (!(d >= k->min && d <= k->max)) {
        snprintf(why, len, "must be %.15g .. %.15g", k->min, k->max);
        return HR_ERANGE;
    }
    v->num = d;
    return HR_OK;
}

/* ---- [run] -------------------------------------------------------------------------------- */

static int set_repeat(hr_point *pt, const char *s, char *why, size_t len)
{
    uint64_t v;
    int err = hr__expr_eval(s, NULL, &v, why, len);
    if (err == HR_OK && (err = range_u64(v, 1, HR_CONFIG_MAX_REPEAT, why, len)) == HR_OK)
        pt->repeat = (unsigned)v;
    return err;
}

static int set_verify(hr_point *pt, const char *s, char *why, size_t len)
{
    if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0) {
        pt->verify = strcmp(s, "true") == 0;
        return HR_OK;
    }
    snprintf(why, len, "expected true or false");
    return HR_EINVAL;
}

/* What a run that ends with messages sent and never received is: a warning, or a failure. */
static int set_unreceived(hr_point *pt, const char *s, char *why, size_t len)
{
    if (strcmp(s, "warn") == 0 || strcmp(s, "error") == 0) {
        pt->unreceived_error = strcmp(s, "error") == 0;
        return HR_OK;
    }
    snprintf(why, len, "expected warn or error");
    return HR_EINVAL;
}

/* Keep the model or not (docs/mpi.md): off is the MPI engine's. */
static int set_model(hr_point *pt, const char *s, char *why, size_t len)
{
    if (strcmp(s, "on") != 0 && strcmp(s, "off") != 0) {
        snprintf(why, len, "expected on or off");
        return HR_EINVAL;
    }
    pt->model = strcmp(s, "on") == 0;
    if (!pt->model && strcmp(hr__world()->engine, "threads") == 0) {
        snprintf(why, len, "only hremu-mpi runs without the model (docs/mpi.md): on threads "
                 "every wait is the model's");
        return HR_EINVAL;
    }
    return HR_OK;
}

/* ---- the tables ------------------------------------------------------------------------------
 * Order matters: setters run top to bottom, so cost comes before the keys that override it, procs
 * before n (which may use p), n before h, kind before distribution, dataset and every key that
 * applies to one kind only. */

static const hr_config_key machine_keys[] = {
    { .name = "procs",        .def = "16",        .set = set_procs },
    { .name = "topology",     .def = "complete",  .set = set_topology },
    { .name = "fattree_bw",   .def = NULL,        .set = NULL },   /* a list, not a sweep */
    { .name = "switching",    .def = "cut_through", .set = set_switching },
    { .name = "discipline",   .def = "async",     .set = set_discipline },
    { .name = "buffer",       .def = "unlimited", .set = set_buffer },
    { .name = "eager_limit",  .def = "4K",        .set = set_eager_limit },
    { .name = "cost_model",   .def = "bdm",       .set = set_cost_model },
    { .name = "cost",         .def = NULL,        .set = set_cost },   /* cost_model's preset */
    { .name = "tau",          .def = NULL,        .set = set_tau },
    { .name = "sigma",        .def = NULL,        .set = set_sigma },
    { .name = "overhead",     .def = NULL,        .set = set_overhead },
    { .name = "hop",          .def = NULL,        .set = set_hop },
    { .name = "gap",          .def = NULL,        .set = set_gap },
    { .name = "compute_unit", .def = NULL,        .set = set_compute_unit },
    { .name = "compute",      .def = "units",     .set = set_compute },
    { .name = "seed",         .def = "1",         .set = set_seed },
    { .name = "engine",       .def = "threads",   .set = set_engine },
    { .name = "stack",        .def = "64K",       .set = set_stack },
    { .name = "carriers",     .def = "1",         .set = set_carriers },
    { .name = NULL }
};

static const hr_config_key workload_keys[] = {
    { .name = "kind",         .def = "hrelation", .set = set_kind },
    { .name = "n",            .def = "2^20",      .set = set_n },
    { .name = "h",            .def = "0",         .set = set_h,
      .kind = HR_KIND_HRELATION },
    { .name = "distribution", .def = "uniform",   .set = set_distribution,
      .kind = HR_KIND_HRELATION },
    { .name = "dataset",      .def = NULL,        .set = set_dataset,
      .kind = HR_KIND_SORT, .kind2 = HR_KIND_VALUES },  /* required: hr__config_workload checks */
    { .name = NULL }
};

/* The fixed [workload] keys, then each name some registered kind declares, once. Rebuilt on
 * every call: a program registers its kinds before it reads a config, and a config belongs to
 * one thread (config.h). */
static hr_config_key workload_all[MAX_KEYS + 1];

static const hr_config_key *workload_table(void)
{
    size_t n = 0;
    for (; workload_keys[n].name != NULL; n++)
        workload_all[n] = workload_keys[n];
    const hr_wkey_spec *k;
    for (int i = 0; (k = hr_workload_key_at(i)) != NULL && n < MAX_KEYS; i++)
        workload_all[n++] = (hr_config_key){ .name = k->name, .declared = 1 };
    workload_all[n] = (hr_config_key){ .name = NULL };
    return workload_all;
}

static const hr_config_key run_keys[] = {
    { .name = "algorithms",   .def = NULL,        .set = NULL },
    { .name = "repeat",       .def = "1",         .set = set_repeat },
    { .name = "verify",       .def = "true",      .set = set_verify },
    { .name = "unreceived",   .def = "warn",      .set = set_unreceived },
    { .name = "model",        .def = "on",        .set = set_model },
    { .name = NULL }
};

const hr_config_key *hr__config_keys(const char *section)
{
    if (strcmp(section, "machine") == 0)
        return machine_keys;
    if (strcmp(section, "workload") == 0)
        return workload_table();
    if (strcmp(section, "run") == 0)
        return run_keys;
    return NULL;
}

/* ---- counting and resolving points -------------------------------------------------------- */

/* Multiplication that sticks just above the row limit, so no count can overflow. */
static size_t sat_mul(size_t a, size_t b)
{
    const size_t cap = (size_t)HR_CONFIG_MAX_ROWS + 1;
    if (a == 0 || b == 0)
        return 0;
    return a > cap / b ? cap : (a * b > cap ? cap : a * b);
}

static size_t item_count(const hr_config *c, const char *section, const char *key)
{
    const hr_config_entry *en = hr__config_find(c, section, key);
    return en ? en->nitems : 1;
}

static size_t level_count(const hr_config *c, const char *section)
{
    size_t n = 1;
    for (const hr_config_key *k = hr__config_keys(section); k->name; k++)
        if (k->set != NULL || k->declared)
            n = sat_mul(n, item_count(c, section, k->name));
    return n;
}

size_t hr__config_machines(const hr_config *c)  { return level_count(c, "machine"); }
size_t hr__config_workloads(const hr_config *c) { return level_count(c, "workload"); }
size_t hr__config_runs(const hr_config *c)      { return level_count(c, "run"); }

size_t hr__config_algorithms(const hr_config *c)
{
    const hr_config_entry *en = hr__config_find(c, "run", "algorithms");
    return en ? en->nitems : 0;
}

static const hr_algorithm *algorithm_at(const hr_config *c, size_t a)
{
    const hr_config_entry *en = hr__config_find(c, "run", "algorithms");
    return en && a < en->nitems ? hr_algorithm_find(en->items[a]) : NULL;
}

size_t hr__config_params(const hr_config *c, size_t a)
{
    const hr_algorithm *alg = algorithm_at(c, a);
    size_t n = 1;
    for (const hr_param_spec *s = alg ? alg->params : NULL; s && s->name; s++)
        n = sat_mul(n, item_count(c, alg->name, s->name));
    return n;
}

size_t hr__config_rows(const hr_config *c)
{
    size_t per = 0;
    for (size_t a = 0; a < hr__config_algorithms(c); a++) {
        per += hr__config_params(c, a);
        if (per > HR_CONFIG_MAX_ROWS)
            per = (size_t)HR_CONFIG_MAX_ROWS + 1;
    }
    size_t n = sat_mul(hr__config_machines(c), hr__config_workloads(c));
    return sat_mul(sat_mul(n, hr__config_runs(c)), per);
}

/* Report a bad value: "WHERE: key = item: why", naming the default when no entry set it. */
static int bad_value(const hr_config *c, const hr_config_entry *en, const char *section,
                     const char *key, const char *item, int code, const char *why,
                     hr_config_error *e)
{
    if (en != NULL)
        return hr__config_fail(e, code, en->where, "%s = %.200s: %s", key, item, why);
    return hr__config_fail(e, code, c->name, "[%s] %s = %s (the default): %s", section, key, item,
                           why);
}

static const char *kind_name(hr_kind kind)
{
    for (int i = 0; hr_workload_at(i) != NULL; i++)
        if (hr_workload_at(i)->kind == kind)
            return hr_workload_at(i)->name;
    return "(unregistered)";
}

/* "kinds exchange and pattern" or "kind values": the kinds that declare name. */
static void declaring_kinds(const char *name, char *buf, size_t len)
{
    const hr_workload *w;
    int count = 0;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; (w = hr_workload_at(i)) != NULL; i++)
        count += declared(w, name, NULL) != NULL;
    used = (size_t)snprintf(buf, len, "kind%s ", count > 1 ? "s" : "");
    for (int i = 0, seen = 0; (w = hr_workload_at(i)) != NULL && used < len; i++)
        if (declared(w, name, NULL) != NULL) {
            seen++;
            used += (size_t)snprintf(buf + used, len - used, "%s%s",
                                     seen == 1 ? "" : seen == count ? " and " : ", ", w->name);
        }
}

/* en, set in the config, does not apply to point pt, for the reason fmt says: the row goes
 * without it. Counted for hr__config_check, which refuses a key that applies to no point of its
 * level with the first such point's reason. Returns HR_OK. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int misfit(const hr_config *c, const hr_point *pt, const hr_config_entry *en,
                  const char *fmt, ...)
{
    if (pt->misfits == NULL)
        return HR_OK;
    size_t i = (size_t)(en - c->entries);
    if (pt->misfits->count[i]++ == 0) {
        char why[400];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, sizeof why, fmt, ap);
        va_end(ap);
        hr__config_fail(&pt->misfits->first[i], HR_EINVAL, en->where, "%s", why);
    }
    return HR_OK;
}

/* A declared key for pt's kind: its value from item, or the kind's default. Set in the config
 * for a kind that does not declare it, or where the kind's `when` leaves it out, a misfit. */
static int resolve_declared(const hr_config *c, const hr_config_entry *en, const char *name,
                            const char *item, hr_point *pt, hr_config_error *e)
{
    int at = 0;
    const hr_wkey_spec *k = declared(pt->workload, name, &at);
    if (k != NULL && !hr_workload_key_applies(pt->workload, pt->wkeys, at)) {
        if (en != NULL)
            return misfit(c, pt, en, "%s applies when %s only (unset it)", name, k->when);
        return HR_OK;
    }
    if (k == NULL) {
        if (en == NULL)
            return HR_OK;
        char kinds[256];
        declaring_kinds(name, kinds, sizeof kinds);
        return misfit(c, pt, en, "%s applies to workload %s only, not %s (unset it)", name,
                      kinds, pt->workload->name);
    }
    if (en == NULL)
        item = k->def;
    if (item == NULL) {
        const hr_config_entry *kind = hr__config_find(c, "workload", "kind");
        return hr__config_fail(e, HR_EINVAL, kind ? kind->where : c->name, "kind = %s needs %s "
                               "(%s)", pt->workload->name, name, k->summary);
    }
    char why[256];
    int err = set_declared(pt, name, item, why, sizeof why);
    return err < 0 ? bad_value(c, en, "workload", name, item, err, why, e) : HR_OK;
}

/* Split point i of a level into one item index per key, the last key varying fastest, then run
 * the setters in table order. */
static int resolve_level(const hr_config *c, const char *section, size_t i, hr_point *pt,
                         hr_config_error *e)
{
    const hr_config_key *keys = hr__config_keys(section);
    size_t nkeys = 0, pick[MAX_KEYS];
    while (keys[nkeys].name != NULL)
        nkeys++;
    for (size_t k = nkeys; k-- > 0;) {
        size_t n = keys[k].set || keys[k].declared ? item_count(c, section, keys[k].name) : 1;
        pick[k] = i % n;
        i /= n;
    }
    for (size_t k = 0; k < nkeys; k++) {
        const hr_config_entry *en = hr__config_find(c, section, keys[k].name);
        const char *item = en ? en->items[pick[k]] : keys[k].def;
        if (strcmp(keys[k].name, "n") == 0 && pt->workload != NULL && pt->workload->no_n) {
            if (en != NULL) {
                char own[160] = "";
                size_t used = 0;
                for (const hr_wkey_spec *w = pt->workload->keys; w && w->name && used < sizeof own;
                     w++) {
                    int m = snprintf(own + used, sizeof own - used, "%s%s", used ? ", " : "",
                                     w->name);
                    used += m > 0 ? (size_t)m : 0;
                }
                misfit(c, pt, en, "n does not apply to workload kind %s: its own keys (%s) set "
                       "its size (unset n)", pt->workload->name, own);
            }
            continue;
        }
        if (keys[k].declared)
            continue;   /* below, in the kind's order */
        if (keys[k].kind != 0 && pt->workload != NULL && pt->workload->kind != keys[k].kind &&
            pt->workload->kind != keys[k].kind2) {
            if (en != NULL)
                misfit(c, pt, en, "%s applies to workload kind%s %s%s%s only, not %s (unset it)",
                       keys[k].name, keys[k].kind2 ? "s" : "", kind_name(keys[k].kind),
                       keys[k].kind2 ? " and " : "", keys[k].kind2 ? kind_name(keys[k].kind2) : "",
                       pt->workload->name);
            continue;
        }
        if (keys[k].set == NULL || item == NULL)
            continue;
        char why[256];
        int err = keys[k].set(pt, item, why, sizeof why);
        if (err < 0)
            return bad_value(c, en, section, keys[k].name, item, err, why, e);
    }
    /* The declared keys: another kind's may not be set; the point's kind's are read in its own
     * order, since a key's `when` reads the keys before it. */
    const hr_wkey_spec *own = pt->workload != NULL ? pt->workload->keys : NULL;
    for (size_t k = 0; k < nkeys; k++) {
        if (!keys[k].declared || declared(pt->workload, keys[k].name, NULL) != NULL)
            continue;
        const hr_config_entry *en = hr__config_find(c, section, keys[k].name);
        int err = resolve_declared(c, en, keys[k].name, NULL, pt, e);
        if (err < 0)
            return err;
    }
    for (int d = 0; own != NULL && own[d].name != NULL; d++) {
        size_t k = 0;
        while (k < nkeys && !(keys[k].declared && strcmp(keys[k].name, own[d].name) == 0))
            k++;
        if (k == nkeys)
            continue;
        const hr_config_entry *en = hr__config_find(c, section, keys[k].name);
        int err = resolve_declared(c, en, keys[k].name, en ? en->items[pick[k]] : NULL, pt, e);
        if (err < 0)
            return err;
    }
    return HR_OK;
}

int hr__config_machine(const hr_config *c, size_t i, hr_point *pt, hr_config_error *e)
{
    memset(&pt->machine, 0, sizeof pt->machine);
    pt->machine.jitter = -1;
    pt->cost_changed = 0;
    pt->engine_auto = 0;
    int err = resolve_level(c, "machine", i, pt, e);
    /* fattree_bw = 20M, 10M, 5M: the fat tree's per-level bandwidths, one list (a sweep would
     * make no sense of it), written into the topology string the machine reads. */
    const hr_config_entry *bw = hr__config_find(c, "machine", "fattree_bw");
    const char *t = pt->machine.topology;
    if (err == HR_OK && bw != NULL &&
        (strncmp(t, "fattree", 7) != 0 || t[7 + strspn(t + 7, " ")] != '\0')) {
        misfit(c, pt, bw, "fattree_bw applies to topology fattree (with no bandwidths of its "
               "own), not %s", t);
    } else if (err == HR_OK && bw != NULL) {
        size_t used = (size_t)snprintf(pt->topology, sizeof pt->topology, "fattree");
        for (size_t k = 0; k < bw->nitems && used < sizeof pt->topology; k++)
            used += (size_t)snprintf(pt->topology + used, sizeof pt->topology - used, " %s",
                                     bw->items[k]);
        char why2[256];
        int p2;
        if (used >= sizeof pt->topology ||
            hr_topology_procs(pt->topology, &p2, why2, sizeof why2) != HR_OK)
            return hr__config_fail(e, HR_EINVAL, bw->where, "fattree_bw: %s",
                                   used >= sizeof pt->topology ? "too long" : why2);
        pt->machine.topology = pt->topology;
    }
    /* A shape that fixes p ("mesh 4x8") gives procs when it is left out, and must agree with
     * it when it is set. */
    int fixed = 0;
    char why[256];
    if (err == HR_OK && hr_topology_procs(pt->machine.topology, &fixed, why, sizeof why) == HR_OK &&
        fixed > 0) {
        const hr_config_entry *pe = hr__config_find(c, "machine", "procs");
        if (pe == NULL || pt->machine.procs == 0)
            pt->machine.procs = fixed;
        else if (pt->machine.procs != fixed)
            return hr__config_fail(e, HR_EINVAL, pe->where, "procs = %d, but topology %s needs "
                                   "procs = %d (or set procs = auto)", pt->machine.procs,
                                   pt->machine.topology, fixed);
    }
    if (err == HR_OK && pt->machine.procs == 0) {
        const hr_config_entry *pe = hr__config_find(c, "machine", "procs");
        return hr__config_fail(e, HR_EINVAL, pe->where, "procs = auto: topology %s does not fix "
                               "p; auto takes it from a shape that does (mesh 4x8, torus 4x4x4, "
                               "rh 2 1)", pt->machine.topology);
    }
    if (err == HR_OK && pt->engine_auto)
        choose_engine(pt);
    if (err == HR_OK && pt->machine.procs > HR_MAX_THREADS && !hr__on_fibers(&pt->machine)) {
        const hr_config_entry *pe = hr__config_find(c, "machine", "procs");
        return hr__config_fail(e, HR_EINVAL, pe != NULL ? pe->where : NULL, "procs = %d: engine "
                               "threads runs up to %d processors, a POSIX thread each: set "
                               "engine = fibers", pt->machine.procs, HR_MAX_THREADS);
    }
    /* A fiber's stack and the carriers that run fibers mean nothing to a thread or a rank. */
    const hr_config_entry *stack = hr__config_find(c, "machine", "stack"),
                          *carriers = hr__config_find(c, "machine", "carriers");
    if (err == HR_OK && !hr__on_fibers(&pt->machine)) {
        if (stack != NULL)
            misfit(c, pt, stack, "stack applies to engine fibers only, not %s (unset it)",
                   pt->machine.engine);
        if (carriers != NULL)
            misfit(c, pt, carriers, "carriers applies to engine fibers only, not %s (unset it)",
                   pt->machine.engine);
    }
    const hr_config_entry *buf = hr__config_find(c, "machine", "buffer");
    if (err == HR_OK && pt->machine.buffer != 0 &&
        !(hr__discipline_traits(pt->machine.discipline) & HR_DISC_BUFFERED)) {
        misfit(c, pt, buf, "a receive buffer applies to discipline async only, not %s (set "
               "buffer = unlimited)", pt->machine.discipline);
        pt->machine.buffer = 0;
    }
    const hr_config_entry *eager = hr__config_find(c, "machine", "eager_limit");
    if (err == HR_OK && eager != NULL &&
        !(hr__discipline_traits(pt->machine.discipline) & HR_DISC_EAGER))
        misfit(c, pt, eager, "eager_limit applies to discipline eager only, not %s",
               pt->machine.discipline);
    if (err == HR_OK && pt->cost_changed && strlen(pt->cost) + 1 < sizeof pt->cost)
        strcat(pt->cost, "*");
    return err;
}

int hr__config_workload(const hr_config *c, size_t i, hr_point *pt, hr_config_error *e)
{
    memset(&pt->work, 0, sizeof pt->work);
    memset(pt->wkeys, 0, sizeof pt->wkeys);
    pt->work.keys = pt->wkeys;
    pt->workload = NULL;
    pt->work.seed = pt->machine.seed;
    pt->n_uses_h = NULL;
    int err = resolve_level(c, "workload", i, pt, e);
    if (err == HR_OK && pt->n_uses_h != NULL) {
        const hr_config_entry *n = hr__config_find(c, "workload", "n");
        return hr__config_fail(e, HR_EINVAL, n ? n->where : c->name, "n = %.100s uses h, which "
                               "workload kind %s does not have", pt->n_uses_h,
                               pt->workload->name);
    }
    if (err == HR_OK && pt->workload->datasets != NULL && pt->work.dataset == NULL) {
        const hr_config_entry *kind = hr__config_find(c, "workload", "kind");
        return hr__config_fail(e, HR_EINVAL, kind ? kind->where : c->name, "kind = %s needs a "
                               "dataset (datasets: %s)", pt->workload->name,
                               pt->workload->datasets);
    }
    return err;
}

int hr__config_run(const hr_config *c, size_t i, hr_point *pt, hr_config_error *e)
{
    return resolve_level(c, "run", i, pt, e);
}

/* A parameter's value: one of its words ("pex", standing for its number), a number ("1.5"), or
 * an integer expression in n and p ("n/p"). */
static int read_param(const hr_point *pt, const hr_param_spec *s, const char *item, double *out,
                      char *why, size_t len)
{
    double d;
    int k = s->choices != NULL ? hr_param_choice(s, item, strlen(item)) : -1;
    if (k >= 0) {
        d = k;
    } else if (read_double(item, &d) < 0) {
        hr_expr_vars v = { .n = pt->work.n, .p = (uint64_t)pt->machine.procs,
                           .has_n = 1, .has_p = 1, .exact = !s->integer };
        uint64_t u;
        int err = hr__expr_eval(item, &v, &u, why, len);
        if (err < 0 && s->choices != NULL)
            snprintf(why, len, "expected one of: %s (or %.15g .. %.15g)", s->choices, s->min, s->max);
        if (err < 0)
            return err;
        d = (double)u;
    }
    if (s->integer && d != floor(d)) {
        snprintf(why, len, "must be a whole number");
        return HR_EINVAL;
    }
    if (!(d >= s->min && d <= s->max)) {
        snprintf(why, len, "must be %.15g .. %.15g", s->min, s->max);
        return HR_ERANGE;
    }
    *out = d;
    return HR_OK;
}

/* The algorithm must take the workload's kind and the machine's discipline. */
static int check_fit(const hr_point *pt, const hr_config_entry *list, hr_config_error *e)
{
    const hr_algorithm *alg = pt->alg;
    if (pt->workload != NULL && alg->kind != pt->workload->kind)
        return hr__config_fail(e, HR_EKIND, list->where, "%s takes workload kind %s, not %s",
                               alg->name, kind_name(alg->kind), pt->workload->name);
    const char *disc = pt->machine.discipline;
    unsigned unmet = hr_discipline_unmet(disc, alg->needs);
    char needs[256];
    hr_needs_text(unmet, needs, sizeof needs);
    if (unmet != 0)
        return hr__config_fail(e, HR_EKIND, list->where, "%s is not defined for discipline %s "
                               "(it needs %s)", alg->name, disc, needs);
    if (!hr_algorithm_allows(alg, disc))
        return hr__config_fail(e, HR_EKIND, list->where,
                               "%s is not defined for discipline %s (it takes: %s)", alg->name,
                               disc, alg->disciplines);
    const char *topo = pt->machine.topology ? pt->machine.topology : "complete";
    if (!hr_algorithm_takes(alg, topo))
        return hr__config_fail(e, HR_EKIND, list->where,
                               "%s does not run on topology %s (it takes: %s)", alg->name, topo,
                               alg->topologies);
    const hr_cost_model *cm = hr__cost_model_find(pt->machine.cost_model);
    if (cm != NULL && (alg->needs & HR_NEEDS_P2P) && !(cm->defines & HR_CM_P2P))
        return hr__config_fail(e, HR_EKIND, list->where, "%s is not defined for cost model %s "
                               "(it needs point-to-point messages)", alg->name, cm->name);
    /* A model that charges messages along one link only (HR_CM_NEIGHBOURS) on a topology with
     * links runs what sends along links only; the machine refuses the others' topologies. */
    if (cm != NULL && (cm->defines & HR_CM_NEIGHBOURS) && !(cm->defines & HR_CM_LINKS) &&
        !alg->neighbour_only && hr__topology_has_links(topo))
        return hr__config_fail(e, HR_EKIND, list->where, "%s is not defined for cost model %s "
                               "on topology %s (it sends beyond a processor's links, and the "
                               "model charges no hops)", alg->name, cm->name, topo);
    return HR_OK;
}

/* The algorithm's own check of its parameters against the machine (hr_algorithm.check): a
 * point it refuses is skipped like one of a discipline it does not take (HR_EKIND), named at
 * the first of its parameters the config sets, else at [run] algorithms. */
static int check_machine_fit(const hr_config *c, const hr_point *pt,
                             const hr_config_entry *list, hr_config_error *e)
{
    const hr_algorithm *alg = pt->alg;
    if (alg->check == NULL)
        return HR_OK;
    const char *topo = pt->machine.topology ? pt->machine.topology : "complete";
    char why[256] = "";
    if (alg->check(pt->nparams > 0 ? pt->params : NULL, pt->machine.procs, topo, why,
                   sizeof why) == HR_OK)
        return HR_OK;
    const char *where = list->where;
    for (int k = 0; k < pt->nparams; k++) {
        const hr_config_entry *en = hr__config_find(c, alg->name, alg->params[k].name);
        if (en != NULL) {
            where = en->where;
            break;
        }
    }
    return hr__config_fail(e, HR_EKIND, where, "%s on procs = %d, topology %s: %s", alg->name,
                           pt->machine.procs, topo, why[0] ? why : "the algorithm refuses it");
}

int hr__config_algorithm(const hr_config *c, size_t a, size_t i, hr_point *pt,
                         hr_config_error *e)
{
    const hr_config_entry *list = hr__config_find(c, "run", "algorithms");
    pt->alg = algorithm_at(c, a);
    pt->nparams = 0;
    if (pt->alg == NULL)
        return hr__config_fail(e, HR_ENOENT, list ? list->where : c->name, "no algorithm %zu", a);
    int err = check_fit(pt, list, e);
    if (err < 0)
        return err;
    const hr_param_spec *specs = pt->alg->params;
    size_t np = 0, pick[HR_CONFIG_MAX_PARAMS];
    while (specs && specs[np].name && np < HR_CONFIG_MAX_PARAMS)
        np++;
    if (specs && specs[np].name)
        return hr__config_fail(e, HR_ERANGE, list->where, "%s has more than %d parameters",
                               pt->alg->name, HR_CONFIG_MAX_PARAMS);
    for (size_t k = np; k-- > 0;) {
        size_t n = item_count(c, pt->alg->name, specs[k].name);
        pick[k] = i % n;
        i /= n;
    }
    for (size_t k = 0; k < np; k++) {
        const hr_config_entry *en = hr__config_find(c, pt->alg->name, specs[k].name);
        pt->params[k] = specs[k].def;
        if (en == NULL)
            continue;
        char why[256];
        if ((err = read_param(pt, &specs[k], en->items[pick[k]], &pt->params[k], why,
                              sizeof why)) < 0)
            return bad_value(c, en, pt->alg->name, specs[k].name, en->items[pick[k]], err, why,
                             e);
    }
    pt->nparams = (int)np;
    return check_machine_fit(c, pt, list, e);
}

/* ---- --list ------------------------------------------------------------------------------- */

void hr__config_list_algorithm(FILE *out, const hr_algorithm *a, int indent)
{
    char fits[256], needs[256];
    size_t used = 0;
    fits[0] = '\0';
    for (int d = 0; hr_discipline_name(d, NULL) != NULL && used < sizeof fits; d++)
        if (hr_algorithm_allows(a, hr_discipline_name(d, NULL))) {
            int k = snprintf(fits + used, sizeof fits - used, "%s%s", used ? ", " : "",
                             hr_discipline_name(d, NULL));
            used += k > 0 ? (size_t)k : 0;
        }
    hr_needs_text(a->needs, needs, sizeof needs);
    if (a->needs != 0)
        fprintf(out, "%*s  needs %s (disciplines: %s)\n", indent, "", needs,
                fits[0] ? fits : "none");
    else if (a->disciplines != NULL)
        fprintf(out, "%*s  disciplines: %s\n", indent, "", a->disciplines);
    if (a->topologies != NULL)
        fprintf(out, "%*s  topologies: %s%s\n", indent, "", a->topologies,
                a->neighbour_only ? " (sends along links only)" : "");
    for (const hr_param_spec *s = a->params; s && s->name; s++) {
        size_t n;
        const char *w = s->choices ? hr_param_word(s, (int)s->def, &n) : NULL;
        if (w != NULL)
            fprintf(out, "%*s  %s = %.*s (%s; or %g .. %g): %s\n", indent, "", s->name, (int)n,
                    w, s->choices, s->min, s->max, s->summary);
        else
            fprintf(out, "%*s  %s = %g (%g .. %g%s): %s\n", indent, "", s->name, s->def, s->min,
                    s->max, s->integer ? ", whole" : "", s->summary);
    }
}
