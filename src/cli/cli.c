/* cli.c: the hremu command, as hremu_main (<hremu/main.h>), which main.c calls and which a
 * program with algorithms and workloads of its own calls after registering them. Reads the options, loads and checks the config (every sweep point,
 * then every machine and workload instance) before anything runs, runs the sweep and turns the
 * outcome into an exit status: 0 every row verified, 1 a row failed, 2 usage or config error. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hremu/algorithm.h>
#include <hremu/machine.h>
#include <hremu/main.h>
#include <hremu/workload.h>

#include "cli/config.h"
#include "cli/output.h"
#include "cli/regions.h"
#include "cli/report.h"
#include "cli/sweep.h"
#include "cli/topoinfo.h"
#include "net/link_model.h"
#include "util/clock.h"

#define HREMU_VERSION   "0.1.0"
#define DEFAULT_CONFIG  "configs/default.ini"

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: hremu [CONFIG.ini] [--set SECTION.KEY=VALUE]... [--format table|csv|json]\n"
    "             [--out FILE] [--trace FILE|-] [--trace-limit N] [--trace-sample K]\n"
    "             [--trace-wall] [--schedule FILE|-]\n"
    "             [--rounds FILE|-] [--html FILE] [--regions FILE] [--columns LIST]\n"
    "             [--aggregate seed] [--quiet]\n"
    "       hremu --topology SPEC [--procs P] [--format table|csv|json]\n"
    "       hremu --list | --help | --version\n";

static const char help_text[] =
    "\n"
    "Runs the algorithms of CONFIG.ini (default " DEFAULT_CONFIG ", else the installed\n"
    "PREFIX/share/hremu/" DEFAULT_CONFIG ") on an emulated distributed-memory machine and prints\n"
    "one row per run, timed in model seconds and in wall-clock seconds.\n"
    "\n"
    "  --set SECTION.KEY=VALUE  override a config value, e.g. --set machine.procs=64 or\n"
    "                           --set hrel.fifo_staged.K=1.5; a comma list is a sweep\n"
    "  --format FORMAT          table (default), csv, or json (one object per line)\n"
    "  --out FILE               write the rows to FILE instead of standard output\n"
    "  --trace FILE             write what each row's first run did, every send, receive,\n"
    "                           computation and round message with its model times, to FILE:\n"
    "                           Chrome trace JSON for Perfetto if FILE ends in .json, else CSV;\n"
    "                           - is standard output (CSV; the rows then need --out)\n"
    "  --trace-limit N          record at most N events a run (default 1000000; more are left\n"
    "                           out, and stderr says how many)\n"
    "  --trace-sample K         trace processors 0, K, 2K, ... only (a big run's sample; its\n"
    "                           arrows join kept processors only)\n"
    "  --trace-wall             add when each event was recorded on this computer (wall_s;\n"
    "                           in JSON a second process a row): differs from run to run\n"
    "  --rounds FILE            round disciplines: draw each round of each row's first run as\n"
    "                           a board (senders down, receivers across, each message's fate,\n"
    "                           the stalled senders) to FILE; - is standard output\n"
    "  --html FILE              write one self-contained web page that plays each row's first\n"
    "                           run, round by round or along model time (open it in a browser)\n"
    "  --schedule FILE          schedulers (irreg.*): write each row's schedule to FILE, a\n"
    "                           line a step in seed 001's notation (0 <-> 1 an exchange,\n"
    "                           0 -> 5 one way); - is standard output (the rows need --out)\n"
    "  --regions FILE           write the timed regions and supersteps of each row's first\n"
    "                           run to FILE, in the rows' format (docs/config.md)\n"
    "  --columns LIST           the columns to write, in this order, e.g.\n"
    "                           --columns algorithm,procs,model_time_s (every format); CSV\n"
    "                           and JSON write every column by default, the table (aligned,\n"
    "                           at most 160 wide) algorithm, procs, n, h, the settings that\n"
    "                           vary between its rows, the model figures and steps; it leaves\n"
    "                           out columns empty for every row (docs/config.md)\n"
    "  --aggregate seed         one row per group of rows that differ only in seed (a swept\n"
    "                           h keeps rows apart): mean, sd, min and max of each model\n"
    "                           column, and count\n"
    "  --quiet                  no progress line (shown on standard error when it is a terminal)\n"
    "  --topology SPEC          print a topology's figures instead of running: nodes, directed\n"
    "                           links (a cable is two), degrees, diameter, average distance,\n"
    "                           bisection width in undirected edges (a cable is one)\n"
    "                           (e.g. --topology \"torus 8x8\", or --topology hypercube --procs 64)\n"
    "  --procs P                the processors for --topology, where the shape does not fix them\n"
    "  --list                   algorithms, workloads, disciplines, topologies, cost presets,\n"
    "                           link models\n"
    "  --help                   this text\n"
    "  --version                the version\n"
    "\n"
    "Rows whose algorithm does not take the discipline, workload kind, topology or procs, and\n"
    "rows whose settings do not go together (a distribution's conditions on n, h and p), are\n"
    "skipped (stderr says how many). Environment: HREMU_MEMORY=BYTES (K, M, G, T) caps the\n"
    "memory a row may need (default: what the box has available); HREMU_JITTER=1 perturbs the\n"
    "thread schedule (the model columns must not change).\n"
    "\n"
    "Exit status: 0 every run verified, 1 a run failed verification, failed, deadlocked or\n"
    "passed the model clock's range (status overflow), 2 a usage or configuration error,\n"
    "including a row that needs more memory than the box has. docs/config.md describes the\n"
    "config file.\n";

typedef struct options {
    const char  *config;
    const char **sets;
    int          nsets;
    const char  *format;
    const char  *out;
    const char  *trace;
    const char  *trace_limit;
    const char  *trace_sample;
    int          trace_wall;
    const char  *schedule;
    const char  *rounds;
    const char  *html;
    const char  *regions;
    const char  *columns;
    const char  *aggregate;
    const char  *topology;
    const char  *procs;
    int          list, help, version, quiet;
} options;

static int usage_error(const char *fmt, const char *arg)
{
    fputs("hremu: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (hremu --help shows the usage)\n", stderr);
    return EXIT_USAGE;
}

/* Match "--name VALUE" or "--name=VALUE" at argv[*i]; 1 if matched (value set or an error). */
static int option_value(int argc, char **argv, int *i, const char *name, const char **value,
                        int *err)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return 0;
    if (argv[*i][n] == '=') {
        *value = argv[*i] + n + 1;
        return 1;
    }
    if (argv[*i][n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        *err = usage_error("option %s needs a value", name);
        return 1;
    }
    *value = argv[++*i];
    return 1;
}

static int flag(const char *arg, const char *name, int *set)
{
    if (strcmp(arg, name) != 0)
        return 0;
    *set = 1;
    return 1;
}

/* "--set machine.procs 8": the value went into the next word, which would otherwise read as a
 * second config file. Say what to write instead. */
static int set_without_value(const char *lhs, const char *next)
{
    if (next != NULL && next[0] != '-')
        fprintf(stderr, "hremu: --set %s: no '=' in it: write --set %s=%s (--set SECTION.KEY=VALUE, "
                "one word)\n", lhs, lhs, next);
    else
        fprintf(stderr, "hremu: --set %s: no '=' in it: write --set SECTION.KEY=VALUE\n", lhs);
    return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, options *o)
{
    int err = EXIT_OK, only_files = 0;
    for (int i = 1; i < argc && err == EXIT_OK; i++) {
        const char *a = argv[i], *v = NULL;
        if (only_files || a[0] != '-' || a[1] == '\0') {
            if (o->config != NULL)
                return usage_error("more than one config file given ('%s')", a);
            o->config = a;
        } else if (strcmp(a, "--") == 0) {
            only_files = 1;
        } else if (option_value(argc, argv, &i, "--set", &v, &err)) {
            if (v != NULL && strchr(v, '=') == NULL)
                return set_without_value(v, i + 1 < argc ? argv[i + 1] : NULL);
            if (v != NULL)
                o->sets[o->nsets++] = v;
        } else if (option_value(argc, argv, &i, "--format", &v, &err)) {
            o->format = v;
        } else if (option_value(argc, argv, &i, "--out", &v, &err)) {
            o->out = v;
        } else if (option_value(argc, argv, &i, "--trace", &v, &err)) {
            o->trace = v;
        } else if (option_value(argc, argv, &i, "--trace-limit", &v, &err)) {
            o->trace_limit = v;
        } else if (strcmp(argv[i], "--trace-wall") == 0) {
            o->trace_wall = 1;
        } else if (option_value(argc, argv, &i, "--trace-sample", &v, &err)) {
            o->trace_sample = v;
        } else if (option_value(argc, argv, &i, "--html", &v, &err)) {
            o->html = v;
        } else if (option_value(argc, argv, &i, "--rounds", &v, &err)) {
            o->rounds = v;
        } else if (option_value(argc, argv, &i, "--schedule", &v, &err)) {
            o->schedule = v;
        } else if (option_value(argc, argv, &i, "--regions", &v, &err)) {
            o->regions = v;
        } else if (option_value(argc, argv, &i, "--columns", &v, &err)) {
            o->columns = v;
        } else if (option_value(argc, argv, &i, "--aggregate", &v, &err)) {
            if (v != NULL && strcmp(v, "seed") != 0)
                return usage_error("--aggregate takes seed (it is '%s')", v);
            o->aggregate = v;
        } else if (option_value(argc, argv, &i, "--topology", &v, &err)) {
            o->topology = v;
        } else if (option_value(argc, argv, &i, "--procs", &v, &err)) {
            o->procs = v;
        } else if (!flag(a, "--list", &o->list) && !flag(a, "--help", &o->help) &&
                   !flag(a, "-h", &o->help) && !flag(a, "--version", &o->version) &&
                   !flag(a, "--quiet", &o->quiet)) {
            return usage_error("unknown option '%s'", a);
        }
    }
    return err;
}

/* ---- --list --------------------------------------------------------------------------------- */

static void list_registry(const char *title, const char *(*at)(int, const char **))
{
    printf("%s:\n", title);
    const char *summary = NULL;
    for (int i = 0; at(i, &summary) != NULL; i++)
        printf("  %-18s %s\n", at(i, NULL), summary ? summary : "");
}

static void list_all(void)
{
    printf("algorithms:\n");
    for (int i = 0; hr_algorithm_at(i) != NULL; i++) {
        const hr_algorithm *a = hr_algorithm_at(i);
        printf("  %-18s %s\n", a->name, a->summary);
        hr__config_list_algorithm(stdout, a, 21);
    }
    printf("workloads:\n");
    for (int i = 0; hr_workload_at(i) != NULL; i++) {
        const hr_workload *w = hr_workload_at(i);
        if (w->datasets != NULL)
            printf("  %-18s %s (datasets: %s)\n", w->name, w->summary, w->datasets);
        else
            printf("  %-18s %s (distributions: %s)\n", w->name, w->summary,
                   w->distributions ? w->distributions : "none");
        for (const hr_wkey_spec *k = w->keys; k != NULL && k->name != NULL; k++) {
            printf("  %-18s   %s = %s (", "", k->name, k->def ? k->def : "required");
            if (k->column != NULL)
                printf("column %s; ", k->column);
            if (k->type == HR_WKEY_WORD)
                printf("%s", k->choices);
            else
                printf("%s %g .. %g%s", k->type == HR_WKEY_INT ? "whole" : "number", k->min,
                       k->max, k->below_p ? ", below p" : "");
            printf("%s%s): %s\n", k->when ? "; when " : "", k->when ? k->when : "", k->summary);
        }
    }
    list_registry("disciplines", hr_discipline_name);
    printf("topologies:\n");
    const char *summary = NULL;
    for (int i = 0; hr_topology_name(i, &summary) != NULL; i++)
        printf("  %-18s %s\n", hr_topology_syntax(i), summary);
    list_registry("cost presets", hr_cost_preset_name);
    list_registry("link models", hr__link_model_name);
}

/* ---- running -------------------------------------------------------------------------------- */

/* Progress on a terminal: "row k of N, elapsed, about what is left", one line rewritten. */
typedef struct progress {
    int    on;
    size_t done, total;
    double start;
} progress;

static void progress_line(progress *g)
{
    double spent = hr__wall_s() - g->start;
    double left = g->done > 0 ? spent / (double)g->done * (double)(g->total - g->done) : NAN;
    fprintf(stderr, "\rhremu: row %zu of %zu, %.0f s elapsed", g->done, g->total, spent);
    if (isfinite(left))
        fprintf(stderr, ", about %.0f s left", left);
    fputs("\033[K", stderr);
    fflush(stderr);
}

static void progress_end(progress *g)
{
    if (g->on)
        fputs("\r\033[K", stderr);
}

/* A row is done: progress, and a failed row's message, every line prefixed, on stderr. */
static void note_row(void *arg, const char *algorithm, const char *msg)
{
    progress *g = arg;
    g->done++;
    if (msg == NULL) {
        if (g->on)
            progress_line(g);
        return;
    }
    if (g->on)
        fputs("\r\033[K", stderr);
    do {
        size_t n = strcspn(msg, "\n");
        if (n > 0)
            fprintf(stderr, "hremu: %s: %.*s\n", algorithm, (int)n, msg);
        msg += n + (msg[n] == '\n');
    } while (*msg != '\0');
    if (g->on)
        progress_line(g);
}

static void warn(void *arg, const char *msg)
{
    (void)arg;
    fprintf(stderr, "hremu: %s\n", msg);
}

static int config_error(const hr_config_error *e)
{
    fprintf(stderr, "hremu: %s\n", e->msg);
    return EXIT_USAGE;
}

/* The config to run when none is given: configs/default.ini of the current directory (a
 * checkout), else the one `make install` put beside the command, in PREFIX/share/hremu (the
 * command being PREFIX/bin/hremu); else configs/default.ini, whose error then says it is not
 * there. */
static const char *default_config(char *buf, size_t len)
{
    if (access(DEFAULT_CONFIG, R_OK) == 0)
        return DEFAULT_CONFIG;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash != NULL) {
            *slash = '\0';
            if ((size_t)snprintf(buf, len, "%s/../share/hremu/" DEFAULT_CONFIG, exe) < len &&
                access(buf, R_OK) == 0)
                return buf;
        }
    }
    return DEFAULT_CONFIG;
}

/* Load, override and check: everything that can go wrong before a row runs. */
static int prepare(const options *o, hr_config **out, hr_sweep_plan *plan)
{
    hr_config_error e;
    hr_config *c = NULL;
    char installed[4200];
    if (hr__config_load(o->config ? o->config : default_config(installed, sizeof installed), &c,
                        &e) < 0)
        return config_error(&e);
    int err = HR_OK;
    for (int i = 0; i < o->nsets && err == HR_OK; i++)
        err = hr__config_set(c, o->sets[i], &e);
    if (err == HR_OK)
        err = hr__config_check(c, &e);
    if (err == HR_OK)
        hr__config_warnings(c, warn, NULL);
    if (err == HR_OK)
        err = hr__sweep_check(c, plan, &e);
    if (err < 0) {
        hr__config_free(c);
        return config_error(&e);
    }
    *out = c;
    return EXIT_OK;
}

static int dash(const char *path)
{
    return path != NULL && strcmp(path, "-") == 0;
}

/* Open a side output of option opt (--trace, --schedule) at path among the run's outputs: NULL
 * leaves *f NULL, "-" is standard output, which then needs --out for the rows. EXIT_OK, or
 * EXIT_USAGE said. */
static int side_output(hr_outputs *outs, const char *opt, const char *path, const char *out,
                       FILE **f)
{
    *f = NULL;
    if (path == NULL)
        return EXIT_OK;
    if (dash(path) && strcmp(opt, "--out") != 0 && (out == NULL || dash(out))) {
        fprintf(stderr, "hremu: %s - writes to standard output: give the rows a file with "
                "--out\n", opt);
        return EXIT_USAGE;
    }
    char why[PATH_MAX + 128];
    if (hr__outputs_open(outs, opt, path, f, why, sizeof why) != 0) {
        fprintf(stderr, "hremu: %s\n", why);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

/* Does some row's workload kind declare a key of this column? */
static int column_used(const hr_sweep_plan *plan, const char *column)
{
    for (int i = 0; i < plan->nkinds; i++)
        for (const hr_wkey_spec *k = plan->kinds[i]->keys; k != NULL && k->name != NULL; k++)
            if (strcmp(hr_wkey_column(k), column) == 0)
                return 1;
    return 0;
}

static int run(const options *o, const hr_config *c, const hr_sweep_plan *plan, hr_format format)
{
    hr_report rep;
    char why[2048];
    /* The table leaves out what no row can fill: seed 003's measure and losses without rounds,
     * stalls where nothing can stall, a workload key that no row's kind declares. CSV and JSON
     * keep every column for scripts. */
    const char *hide[8 + HR_WKEY_MAX * HR_SWEEP_MAX_KINDS] = { NULL }, **h = hide;
    if (format == HR_FORMAT_TABLE) {
        if (!plan->rounds)
            *h++ = "rounds_per_h";
        if (!plan->lossy)
            *h++ = "lost";
        if (!plan->stalls)
            *h++ = "stalls";
        const hr_wkey_spec *k;
        for (int i = 0; (k = hr_workload_column_at(i)) != NULL && h < hide + sizeof hide /
                                                                         sizeof hide[0] - 1; i++)
            if (!column_used(plan, hr_wkey_column(k)))
                *h++ = hr_wkey_column(k);
    }
    if (hr__report_pick(&rep, o->columns, o->aggregate != NULL, hide, why, sizeof why) != HR_OK) {
        fprintf(stderr, "hremu: %s\n", why);
        return EXIT_USAGE;
    }
    size_t limit = 1000000;
    if (o->trace_limit != NULL) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(o->trace_limit, &end, 10);
        if (*o->trace_limit < '0' || *o->trace_limit > '9' || *end != '\0' || v == 0 ||
            errno == ERANGE)
            return usage_error("--trace-limit takes a positive number of events (it is '%s')",
                               o->trace_limit);
        limit = (size_t)v;
    }
    int sample = 1;
    if (o->trace_sample != NULL) {
        char *end;
        long v = strtol(o->trace_sample, &end, 10);
        if (*o->trace_sample < '0' || *o->trace_sample > '9' || *end != '\0' || v < 1 ||
            v > 1 << 20)
            return usage_error("--trace-sample takes a processor stride from 1 to 1048576 (it is "
                               "'%s')", o->trace_sample);
        sample = (int)v;
    }
    if (o->rounds != NULL && !plan->rounds)
        fprintf(stderr, "hremu: note: --rounds: no row runs a round discipline (fifo, priority, "
                "arbitrary, ocpc), so there are no rounds to draw\n");
    if (o->schedule != NULL && !plan->schedules)
        fprintf(stderr, "hremu: note: --schedule: no row runs a scheduler (irreg.*), so there is "
                "no schedule to write\n");
    /* Every file is written aside and renamed into place when the run ends well (a row that
     * failed verification included: its files describe the failure); a usage error or a write
     * error leaves the old files as they were (cli/output.h). */
    hr_outputs outs = { .n = 0 };
    FILE *out = stdout, *trace = NULL, *schedule = NULL, *rounds = NULL, *html = NULL,
         *regions = NULL;
    int code = EXIT_OK;
    if (o->html != NULL && strcmp(o->html, "-") == 0)
        code = usage_error("--html writes a page to a file, not to standard output%s", "");
    if (code == EXIT_OK && dash(o->trace) + dash(o->schedule) + dash(o->rounds) +
                               dash(o->regions) > 1)
        code = usage_error("only one of --trace, --schedule, --rounds and --regions can write to "
                           "standard output%s", "");
    if (code == EXIT_OK && o->out != NULL)
        code = side_output(&outs, "--out", o->out, NULL, &out);
    if (code == EXIT_OK)
        code = side_output(&outs, "--trace", o->trace, o->out, &trace);
    if (code == EXIT_OK)
        code = side_output(&outs, "--schedule", o->schedule, o->out, &schedule);
    if (code == EXIT_OK)
        code = side_output(&outs, "--rounds", o->rounds, o->out, &rounds);
    if (code == EXIT_OK)
        code = side_output(&outs, "--html", o->html, o->out, &html);
    if (code == EXIT_OK)
        code = side_output(&outs, "--regions", o->regions, o->out, &regions);
    char owhy[PATH_MAX + 128];
    if (code != EXIT_OK) {
        hr__outputs_close(&outs, 0, owhy, sizeof owhy);
        return code;
    }
    hr_trace tr;
    if (trace != NULL)
        hr__trace_begin(&tr, trace, trace == stdout ? HR_TRACE_CSV : hr__trace_format(o->trace),
                        limit, sample, o->trace_wall);
    if (regions != NULL)
        hr__regions_begin(regions, format);
    hr_sweep_stats st;
    hr_config_error e;
    /* Rows that stream to the terminal are their own progress; a progress line there would
     * break them. (The table comes at the end, when its columns' widths are known.) */
    int rows_show = out == stdout && trace != stdout && schedule != stdout && rounds != stdout &&
                    isatty(STDOUT_FILENO) && !o->aggregate && format != HR_FORMAT_TABLE;
    progress g = { .on = !o->quiet && isatty(STDERR_FILENO) && !rows_show, .total = plan->rows,
                   .start = hr__wall_s() };
    hr__report_start(&rep, out, format);
    hr_html page;
    if (html != NULL)
        hr__html_begin(&page, html);
    hr_sweep_sides sides = { .trace = trace != NULL ? &tr : NULL, .regions = regions,
                             .schedule = schedule, .rounds = rounds,
                             .html = html != NULL ? &page : NULL, .plan = plan };
    int err = hr__sweep_run(c, &rep, note_row, &g, &sides, &st, &e);
    progress_end(&g);
    int werr = hr__report_end(&rep);
    if (rep.dropped[0] != '\0')
        fprintf(stderr, "hremu: note: the table leaves out %s to fit %d columns (--format csv "
                "and --columns have every column)\n", rep.dropped, HR_REPORT_TABLE_WIDTH);
    if (trace != NULL) {
        hr__trace_end(&tr);
        if (tr.dropped > 0)
            fprintf(stderr, "hremu: note: --trace: %zu events past the limit of %zu a run were "
                    "left out (--trace-limit; --trace-sample K writes a sample)\n", tr.dropped,
                    limit);
    }
    if (html != NULL)
        hr__html_end(&page);
    /* A side output on standard output (--trace -) is checked here; hremu_main flushes it. */
    int side_err = out != stdout && ferror(stdout);
    if (hr__outputs_close(&outs, err >= 0 && werr >= 0 && !side_err, owhy, sizeof owhy) != 0) {
        fprintf(stderr, "hremu: %s\n", owhy);
        return EXIT_USAGE;
    }
    if (st.skipped > 0)
        fprintf(stderr, "hremu: skipped %zu of %zu rows whose algorithm does not take the "
                "discipline, workload kind, topology or procs; the first: %s\n", st.skipped,
                st.skipped + st.rows, st.skip_why);
    if (st.invalid > 0)
        fprintf(stderr, "hremu: skipped %zu of %zu rows whose settings do not go together; the "
                "first: %s\n", st.invalid, st.invalid + st.skipped + st.rows, st.invalid_why);
    if (st.unreceived > 0)
        fprintf(stderr, "hremu: warning: %zu row%s ended with messages sent and never received "
                "([run] unreceived = error makes it a failure); the first, %s\n", st.unreceived,
                st.unreceived == 1 ? "" : "s", st.unreceived_row);
    if (st.coll_async > 0)
        fprintf(stderr, "hremu: note: %zu row%s called collectives, which are costed by the "
                "async rules whatever the discipline or buffer (docs/model.md, Collectives); the "
                "first: %s\n", st.coll_async, st.coll_async == 1 ? "" : "s", st.coll_async_row);
    if (err < 0)
        return config_error(&e);
    if (werr < 0 || side_err) {
        fprintf(stderr, "hremu: standard output: write error\n");
        return EXIT_USAGE;
    }
    return st.failed ? EXIT_FAILED : EXIT_OK;
}

static int topology_info(const options *o, hr_format format)
{
    int procs = 0;
    if (o->procs != NULL) {
        char *end;
        long v = strtol(o->procs, &end, 10);
        if (end == o->procs || *end != '\0' || v < 1 || v > HR_MAX_PROCS)
            return usage_error("--procs must be a whole number from 1 to 4096 (it is '%s')",
                               o->procs);
        procs = (int)v;
    }
    char why[256];
    if (hr__topology_info(o->topology, procs, format, stdout, why, sizeof why) != HR_OK) {
        fprintf(stderr, "hremu: --topology %s: %s\n", o->topology, why);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int hremu_main(int argc, char **argv)
{
    options o = { .sets = calloc((size_t)argc, sizeof(char *)) };
    if (o.sets == NULL) {
        fputs("hremu: out of memory\n", stderr);
        return EXIT_USAGE;
    }
    int rc = parse_args(argc, argv, &o);
    hr_format format = HR_FORMAT_TABLE;
    if (rc == EXIT_OK && o.help)
        printf("%s%s", usage_text, help_text);
    else if (rc == EXIT_OK && o.version)
        printf("hremu " HREMU_VERSION "\n");
    else if (rc == EXIT_OK && o.list)
        list_all();
    else if (rc == EXIT_OK && o.format && hr__report_format(o.format, &format) < 0)
        rc = usage_error("unknown format '%s': table, csv or json", o.format);
    else if (rc == EXIT_OK && o.topology != NULL)
        rc = topology_info(&o, format);
    else if (rc == EXIT_OK && o.procs != NULL)
        rc = usage_error("--procs %s goes with --topology (in a config: [machine] procs)", o.procs);
    else if (rc == EXIT_OK) {
        hr_config *c = NULL;
        hr_sweep_plan plan;
        if ((rc = prepare(&o, &c, &plan)) == EXIT_OK) {
            rc = run(&o, c, &plan, format);
            hr__sweep_plan_free(&plan);   /* the instances no row took */
        }
        hr__config_free(c);
    }
    free(o.sets);
    if (fflush(stdout) != 0 && rc == EXIT_OK)
        rc = EXIT_USAGE;
    return rc;
}
