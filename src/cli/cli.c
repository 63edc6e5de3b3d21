/* cli.c: the hremu command, as hremu_main (<hremu/main.h>), which main.c calls and which a
 * program with algorithms and workloads of its own calls after registering them. Reads the
 * options (cli/options.c), loads and checks the config (every sweep point, then every machine
 * and workload instance) before anything runs, runs the sweep and turns the outcome into an exit
 * status: 0 every row verified, 1 a row failed, 2 usage or config error.
 *
 * On the MPI engine (hremu-mpi) every rank runs this command on the same argv and config: rank
 * 0 alone writes rows, files and notes (the others' standard output and error go to /dev/null,
 * hr__world_quiet), and wherever one rank may fail where another does not (reading the config,
 * opening the files) the ranks agree on the worst outcome before going on, so that all go on or
 * all stop with it (core/world.h). */
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

#include "cli/columns.h"
#include "cli/config.h"
#include "cli/options.h"
#include "cli/output.h"
#include "cli/regions.h"
#include "cli/report.h"
#include "cli/sweep.h"
#include "cli/topoinfo.h"
#include "core/world.h"
#include "net/cost_model.h"
#include "net/link_model.h"
#include "util/clock.h"
#include "work/textfile.h"

#define HREMU_VERSION   "0.1.0"

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
    printf("cost models:\n");
    for (int i = 0; hr__cost_model_at(i) != NULL; i++) {
        const hr_cost_model *cm = hr__cost_model_at(i);
        printf("  %-18s %s\n  %-18s parameters: %s\n", cm->name, cm->summary, "", cm->params);
        const char *name, *source;
        for (int k = 0; (name = hr_cost_model_preset_name(cm->name, k, &source)) != NULL; k++)
            printf("  %-18s preset %s%s: %s\n", "", name,
                   strcmp(name, cm->preset) == 0 ? " (the default)" : "", source);
    }
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
    return HR_EXIT_USAGE;
}

/* The ranks' worst code, which every rank returns; msg (this rank's reason, or NULL when said
 * already) is said by the lowest rank that has the worst, naming it when it is not rank 0. */
static int agree(int code, const char *msg)
{
    const hr_world_info *w = hr__world();
    int who = 0, worst = w->ranks > 1 ? hr__world_worst(code, &who) : code;
    if (worst != HR_EXIT_OK && who == w->rank && msg != NULL) {
        if (who == 0)
            fprintf(stderr, "hremu: %s\n", msg);
        else
            hr__world_say("hremu: rank %d: %s\n", who, msg);
    }
    return worst;
}

/* The config to run when none is given: configs/default.ini of the current directory (a
 * checkout), else the one `make install` put beside the command, in PREFIX/share/hremu (the
 * command being PREFIX/bin/hremu); else configs/default.ini, whose error then says it is not
 * there. */
static const char *default_config(char *buf, size_t len)
{
    if (access(HR_DEFAULT_CONFIG, R_OK) == 0)
        return HR_DEFAULT_CONFIG;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash != NULL) {
            *slash = '\0';
            if ((size_t)snprintf(buf, len, "%s/../share/hremu/" HR_DEFAULT_CONFIG, exe) < len &&
                access(buf, R_OK) == 0)
                return buf;
        }
    }
    return HR_DEFAULT_CONFIG;
}

/* HREMU_JITTER, which the machines read (hr_machine_config.jitter -1), refused before any row
 * runs if a machine would refuse it (hr_machine_jitter_env). HR_EXIT_OK, or HR_EXIT_USAGE,
 * said. */
static int jitter_env(void)
{
    if (hr_machine_jitter_env() >= 0)
        return HR_EXIT_OK;
    const char *v = getenv("HREMU_JITTER");
    char shown[40];
    hr__text_show_token(shown, sizeof shown, v, strlen(v));
    fprintf(stderr, "hremu: HREMU_JITTER='%s': give 1 (yield and sleep at random at every "
            "communication point) or 0\n", shown);
    return HR_EXIT_USAGE;
}

/* Load, override and check: everything that can go wrong before a row runs. HR_EXIT_OK, or
 * HR_EXIT_USAGE with the reason in e, not said yet. */
static int prepare(const hr_options *o, hr_config **out, hr_sweep_plan *plan, hr_config_error *ep)
{
    hr_config_error e;
    hr_config *c = NULL;
    char installed[4200];
    if (hr__config_load(o->config ? o->config : default_config(installed, sizeof installed), &c,
                        &e) < 0) {
        *ep = e;
        return HR_EXIT_USAGE;
    }
    int err = HR_OK;
    for (int i = 0; i < o->sets.n && err == HR_OK; i++)
        err = hr__config_set(c, o->sets.v[i], &e);
    if (err == HR_OK)
        err = hr__config_check(c, &e);
    if (err == HR_OK)
        hr__config_warnings(c, warn, NULL);
    if (err == HR_OK)
        err = hr__sweep_check(c, plan, &e);
    if (err < 0) {
        hr__config_free(c);
        *ep = e;
        return HR_EXIT_USAGE;
    }
    *out = c;
    return HR_EXIT_OK;
}

static int dash(const char *path)
{
    return path != NULL && strcmp(path, "-") == 0;
}

/* Open a side output of option opt (--trace, --schedule) at path among the run's outputs: NULL
 * leaves *f NULL, "-" is standard output, which then needs --out for the rows (opt not an
 * option: the rows themselves, on standard output). HR_EXIT_OK, or HR_EXIT_USAGE said. */
static int side_output(hr_outputs *outs, const char *opt, const char *path, const char *out,
                       FILE **f)
{
    *f = NULL;
    if (path == NULL)
        return HR_EXIT_OK;
    if (dash(path) && opt[0] == '-' && strcmp(opt, "--out") != 0 && (out == NULL || dash(out))) {
        fprintf(stderr, "hremu: %s - writes to standard output: give the rows a file with "
                "--out\n", opt);
        return HR_EXIT_USAGE;
    }
    char why[PATH_MAX + 128];
    if (hr__outputs_open(outs, opt, path, f, why, sizeof why) != 0) {
        fprintf(stderr, "hremu: %s\n", why);
        return HR_EXIT_USAGE;
    }
    return HR_EXIT_OK;
}

/* The report's columns: --columns', or the default, which in the table leaves out what no row
 * can fill (seed 003's measure and losses without rounds, stalls where nothing can stall, a
 * workload key that no row's kind declares). HR_EXIT_OK, or HR_EXIT_USAGE said. */
static int pick_columns(hr_report *rep, const hr_options *o, const hr_sweep_plan *plan)
{
    char why[2048];
    int engines = strcmp(hr__world()->engine, "threads") != 0 || plan->fibers;
    hr_report_rows can = { .traits = (plan->rounds ? HR_ROWS_ROUNDS : 0) |
                                     (plan->lossy ? HR_ROWS_LOSSY : 0) |
                                     (plan->stalls ? HR_ROWS_STALLS : 0) |
                                     (engines ? HR_ROWS_ENGINE : 0),
                           .kinds = plan->kinds, .nkinds = plan->nkinds };
    if (hr__report_pick(rep, o->columns, o->aggregate != NULL, &can, why, sizeof why) != HR_OK) {
        fprintf(stderr, "hremu: %s\n", why);
        return HR_EXIT_USAGE;
    }
    return HR_EXIT_OK;
}

/* --trace-limit and --trace-sample, checked (they, and --trace-wall, only with --trace).
 * HR_EXIT_OK, or HR_EXIT_USAGE said. */
static int trace_options(const hr_options *o, size_t *limit, int *sample)
{
    *limit = 1000000;
    const char *alone = o->trace != NULL   ? NULL
                      : o->trace_limit     ? "--trace-limit"
                      : o->trace_sample    ? "--trace-sample"
                      : o->trace_wall      ? "--trace-wall"
                                           : NULL;
    if (alone != NULL)
        return hr__usage_error("%s shapes the trace, and there is none: give --trace FILE too",
                               alone);
    if (o->trace_limit != NULL) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(o->trace_limit, &end, 10);
        if (*o->trace_limit < '0' || *o->trace_limit > '9' || *end != '\0' || v == 0 ||
            errno == ERANGE)
            return hr__usage_error("--trace-limit takes a positive number of events (it is "
                                   "'%s')", o->trace_limit);
        *limit = (size_t)v;
    }
    *sample = 1;
    if (o->trace_sample != NULL) {
        char *end;
        long v = strtol(o->trace_sample, &end, 10);
        if (*o->trace_sample < '0' || *o->trace_sample > '9' || *end != '\0' || v < 1 ||
            v > 1 << 20)
            return hr__usage_error("--trace-sample takes a processor stride from 1 to 1048576 "
                                   "(it is '%s')", o->trace_sample);
        *sample = (int)v;
    }
    return HR_EXIT_OK;
}

/* The run's files: the rows' (standard output unless --out) and the side outputs, NULL when
 * not asked for; and the trace's --trace-limit and --trace-sample. */
typedef struct run_files {
    hr_outputs outs;
    FILE      *out, *trace, *schedule, *rounds, *html, *regions;
    size_t     trace_limit;
    int        trace_sample;
} run_files;

static int add_input(void *outs, const char *what, const char *path)
{
    return hr__outputs_input(outs, what, path) == 0 ? 0 : hr__usage_error("out of memory%s", "");
}

/* Open every output file through side_output, in this order (a clash names the later one),
 * after the files c reads, which none may overwrite. HR_EXIT_OK, or HR_EXIT_USAGE said with
 * nothing left open. */
static int open_files(const hr_options *o, const hr_config *c, run_files *f)
{
    /* Every file is written aside and renamed into place when the run ends well (a row that
     * failed verification included: its files describe the failure); a usage or a write
     * error leaves the old files as they were (cli/output.h). */
    const struct { const char *opt, *path; FILE **f; } files[] = {
        { "--out", o->out, &f->out },           { "--trace", o->trace, &f->trace },
        { "--schedule", o->schedule, &f->schedule }, { "--rounds", o->rounds, &f->rounds },
        { "--html", o->html, &f->html },        { "--regions", o->regions, &f->regions },
    };
    f->outs = (hr_outputs){ .n = 0 };
    f->out = stdout;
    f->trace = f->schedule = f->rounds = f->html = f->regions = NULL;
    int code = hr__config_each_input(c, add_input, &f->outs);
    /* Rows on standard output: a side output must not be the same pipe or file either. */
    if (code == HR_EXIT_OK && o->out == NULL)
        code = side_output(&f->outs, "the rows (standard output)", "-", NULL, &f->out);
    if (code == HR_EXIT_OK && dash(o->html))
        code = hr__usage_error("--html writes a page to a file, not to standard output%s", "");
    if (code == HR_EXIT_OK && dash(o->trace) + dash(o->schedule) + dash(o->rounds) +
                                  dash(o->regions) > 1)
        code = hr__usage_error("only one of --trace, --schedule, --rounds and --regions can "
                               "write to standard output%s", "");
    for (size_t i = 0; i < sizeof files / sizeof files[0] && code == HR_EXIT_OK; i++)
        if (files[i].path != NULL)
            code = side_output(&f->outs, files[i].opt, files[i].path, o->out, files[i].f);
    if (code != HR_EXIT_OK) {
        char why[PATH_MAX + 128];
        hr__outputs_close(&f->outs, 0, why, sizeof why);
    }
    return code;
}

/* Run the sweep's rows into the files: the report, and each side output begun and ended
 * around the rows. Returns hr__sweep_run's code (e says why); *werr gets the report's. */
static int run_rows(const hr_options *o, const hr_config *c, const hr_sweep_plan *plan,
                    hr_format format, hr_report *rep, const run_files *f, hr_sweep_stats *st,
                    hr_config_error *e, int *werr)
{
    hr_trace tr;
    if (f->trace != NULL)
        hr__trace_begin(&tr, f->trace, f->trace == stdout ? HR_TRACE_CSV
                                                          : hr__trace_format(o->trace),
                        f->trace_limit, f->trace_sample, o->trace_wall);
    if (f->regions != NULL)
        hr__regions_begin(f->regions, format);
    /* Rows that stream to the terminal are their own progress; a progress line there would
     * break them. (The table comes at the end, when its columns' widths are known.) */
    int rows_show = f->out == stdout && f->trace != stdout && f->schedule != stdout &&
                    f->rounds != stdout && isatty(STDOUT_FILENO) && !o->aggregate &&
                    format != HR_FORMAT_TABLE;
    progress g = { .on = !o->quiet && isatty(STDERR_FILENO) && !rows_show, .total = plan->rows,
                   .start = hr__wall_s() };
    hr__report_start(rep, f->out, format);
    hr_html page;
    if (f->html != NULL)
        hr__html_begin(&page, f->html);
    hr_sweep_sides sides = { .trace = f->trace != NULL ? &tr : NULL, .regions = f->regions,
                             .schedule = f->schedule, .rounds = f->rounds,
                             .html = f->html != NULL ? &page : NULL, .plan = plan };
    int err = hr__sweep_run(c, rep, note_row, &g, &sides, st, e);
    progress_end(&g);
    *werr = hr__report_end(rep);
    if (rep->dropped[0] != '\0')
        fprintf(stderr, "hremu: note: the table leaves out %s to fit %d columns (--format csv "
                "and --columns have every column)\n", rep->dropped, HR_REPORT_TABLE_WIDTH);
    if (f->trace != NULL) {
        hr__trace_end(&tr);
        if (tr.dropped > 0)
            fprintf(stderr, "hremu: note: --trace: %zu events past the limit of %zu a run were "
                    "left out (--trace-limit; --trace-sample K writes a sample)\n", tr.dropped,
                    f->trace_limit);
    }
    if (f->html != NULL)
        hr__html_end(&page);
    return err;
}

/* What the sweep skipped or noticed, on stderr. */
static void sweep_notes(const hr_sweep_stats *st)
{
    if (st->skipped > 0)
        fprintf(stderr, "hremu: skipped %zu of %zu rows whose algorithm does not take the "
                "discipline, cost model, workload kind, topology or procs; the first: %s\n",
                st->skipped, st->skipped + st->rows, st->skip_why);
    if (st->other_procs > 0)
        fprintf(stderr, "hremu: skipped %zu of %zu rows whose procs are not the %d rank%s "
                "started; the first has procs = %d\n", st->other_procs,
                st->other_procs + st->rows, hr__world()->procs,
                hr__world()->procs == 1 ? "" : "s", st->procs_first);
    if (st->unchecked_mpi > 0)
        fprintf(stderr, "hremu: note: %zu row%s not verified: the workload kind gives no parts "
                "(hr_workload.parts) for rank 0 to verify on MPI\n", st->unchecked_mpi,
                st->unchecked_mpi == 1 ? " was" : "s were");
    if (st->invalid > 0)
        fprintf(stderr, "hremu: skipped %zu of %zu rows whose settings do not go together; the "
                "first: %s\n", st->invalid, st->invalid + st->skipped + st->rows,
                st->invalid_why);
    if (st->unreceived > 0)
        fprintf(stderr, "hremu: warning: %zu row%s ended with messages sent and never received "
                "([run] unreceived = error makes it a failure); the first, %s\n", st->unreceived,
                st->unreceived == 1 ? "" : "s", st->unreceived_row);
    if (st->coll_async > 0)
        fprintf(stderr, "hremu: note: %zu row%s called collectives, which are costed by the "
                "async rules whatever the discipline or buffer (docs/model.md, Collectives); the "
                "first: %s\n", st->coll_async, st->coll_async == 1 ? "" : "s",
                st->coll_async_row);
}

static int run(const hr_options *o, const hr_config *c, const hr_sweep_plan *plan,
               hr_format format)
{
    hr_report rep;
    size_t limit;
    int sample, code = pick_columns(&rep, o, plan);
    if (code == HR_EXIT_OK)
        code = trace_options(o, &limit, &sample);
    if (code != HR_EXIT_OK)
        return code;
    if (o->rounds != NULL && !plan->rounds)
        fprintf(stderr, "hremu: note: --rounds: no row runs a round discipline (fifo, priority, "
                "arbitrary, ocpc), so there are no rounds to draw\n");
    if (o->schedule != NULL && !plan->schedules)
        fprintf(stderr, "hremu: note: --schedule: no row runs a scheduler (irreg.*), so there is "
                "no schedule to write\n");
    run_files f;
    code = open_files(o, c, &f);
    if (agree(code, NULL) != HR_EXIT_OK) {     /* said by rank 0, the one that opens files */
        if (code == HR_EXIT_OK) {
            char why[PATH_MAX + 128];
            hr__outputs_close(&f.outs, 0, why, sizeof why);
        }
        return HR_EXIT_USAGE;
    }
    f.trace_limit = limit;
    f.trace_sample = sample;
    hr_sweep_stats st;
    hr_config_error e;
    int werr;
    int err = run_rows(o, c, plan, format, &rep, &f, &st, &e, &werr);
    /* A side output on standard output (--trace -) is checked here; hremu_main flushes it. */
    int side_err = f.out != stdout && ferror(stdout);
    char why[PATH_MAX + 128];
    if (hr__outputs_close(&f.outs, err >= 0 && werr >= 0 && !side_err, why, sizeof why) != 0) {
        fprintf(stderr, "hremu: %s\n", why);
        return HR_EXIT_USAGE;
    }
    sweep_notes(&st);
    if (err < 0)
        return config_error(&e);
    if (werr < 0 || side_err) {
        fprintf(stderr, "hremu: standard output: write error\n");
        return HR_EXIT_USAGE;
    }
    return st.failed ? HR_EXIT_FAILED : HR_EXIT_OK;
}

static int topology_info(const hr_options *o, hr_format format)
{
    int procs = 0;
    if (o->procs != NULL) {
        char *end;
        long v = strtol(o->procs, &end, 10);
        if (end == o->procs || *end != '\0' || v < 1 || v > HR_MAX_PROCS)
            return hr__usage_error("--procs must be a whole number from 1 to 1048576 (it is '%s')",
                                   o->procs);
        procs = (int)v;
    }
    char why[256];
    if (hr__topology_info(o->topology, procs, format, stdout, why, sizeof why) != HR_OK) {
        fprintf(stderr, "hremu: --topology %s: %s\n", o->topology, why);
        return HR_EXIT_USAGE;
    }
    return HR_EXIT_OK;
}

/* --calibrate (hremu-mpi): the ranks measure their machine; rank 0 writes the [cost] section
 * (bdm's figures) and those of loggp and bsp, each in the section a row under it reads. */
static int calibrate(const hr_options *o)
{
    hr_calibration c = { .repeats = 0 };
    char why[PATH_MAX + 128];
    if (hr__world_calibrate(&c, why, sizeof why) != HR_OK) {
        fprintf(stderr, "hremu: %s\n", why);
        return HR_EXIT_USAGE;
    }
    if (hr__world()->rank != 0)
        return HR_EXIT_OK;
    hr_outputs outs = { .n = 0 };
    FILE *f = stdout;
    if (o->out != NULL && hr__outputs_open(&outs, "--out", o->out, &f, why, sizeof why) != 0) {
        fprintf(stderr, "hremu: %s\n", why);
        return HR_EXIT_USAGE;
    }
    fprintf(f, "; hremu-mpi --calibrate: %d ranks on %d host%s. Each figure is the median over "
            "the %d\n; pairs of rank 0 with another rank of the medians of %d repeats "
            "(docs/mpi.md).\n"
            "; A config names this file: [machine] cost = file:PATH.\n"
            "[cost]\n", c.ranks, c.hosts, c.hosts == 1 ? "" : "s", c.pairs, c.repeats);
    fprintf(f, "tau = %.3e          ; half an empty message's round trip (%.3e s, %d in a row),\n"
            "                         ; less a send's overhead\n", c.tau, c.rtt0, c.rt_rounds);
    fprintf(f, "sigma = %.3e        ; seconds a byte, %d messages of %zu bytes streamed one way\n",
            c.sigma, c.stream_msgs, c.stream_bytes);
    fprintf(f, "overhead = %.3e     ; a send's time, bursts of %d one-byte sends\n", c.overhead,
            c.burst);
    fprintf(f, "hop = 0                  ; not measured: a topology's links are the config's\n"
            "compute_unit = 1e-09     ; not measured: hremu's default, 1 ns an hr_compute unit\n");
    fprintf(f, "; every pair at once (MPI_Alltoall of %zu-byte blocks): %.3e s a byte a\n"
            "; processor, %.2f times sigma: contention the model's complete graph does not have\n",
            c.all_bytes, c.sigma_all, c.sigma > 0 ? c.sigma_all / c.sigma : 0);
    fprintf(f, "\n; LogGP's figures, for rows under cost_model = loggp (docs/model.md)\n[loggp]\n");
    fprintf(f, "tau = %.3e          ; L: half the empty round trip less 2o\n", c.loggp_L);
    fprintf(f, "overhead = %.3e     ; o: a one-byte send's time, %d sends %d round trips apart\n",
            c.loggp_o, c.burst, c.space);
    fprintf(f, "gap = %.3e          ; g: %d one-byte messages one way back to back, their "
            "spacing\n", c.loggp_g, c.burst);
    fprintf(f, "sigma = %.3e        ; G: [cost]'s sigma\n", c.sigma);
    fprintf(f, "compute_unit = 1e-09\n");
    fprintf(f, "\n; BSP's figures, for rows under cost_model = bsp\n[bsp]\n");
    fprintf(f, "tau = %.3e          ; l: MPI_Barrier of %d ranks, the slowest rank's time\n",
            c.bsp_l, c.ranks);
    fprintf(f, "sigma = %.3e        ; g: s a byte a processor, every pair at once (above)\n",
            c.sigma_all);
    fprintf(f, "compute_unit = 1e-09\n");
    int bad = ferror(f) || (f == stdout && fflush(stdout) != 0);
    if (o->out != NULL && hr__outputs_close(&outs, !bad, why, sizeof why) != 0) {
        fprintf(stderr, "hremu: %s\n", why);
        return HR_EXIT_USAGE;
    }
    return bad ? HR_EXIT_USAGE : HR_EXIT_OK;
}

int hremu_main(int argc, char **argv)
{
    hr_options o = { .sets.v = calloc((size_t)argc, sizeof(char *)) };
    if (o.sets.v == NULL) {
        fputs("hremu: out of memory\n", stderr);
        return HR_EXIT_USAGE;
    }
    const hr_world_info *w = hr__world();
    int rc = hr__options_parse(argc, argv, &o);
    hr__world_quiet();       /* rank 0 speaks and writes; the others' files are no files */
    if (w->rank != 0)
        o.out = o.trace = o.schedule = o.rounds = o.html = o.regions = NULL;
    else if (w->note != NULL) {
        fprintf(stderr, "hremu: note: %s\n", w->note);
    }
    hr_format format = HR_FORMAT_TABLE;
    if (rc == HR_EXIT_OK && o.help)
        hr__options_help(stdout);
    else if (rc == HR_EXIT_OK && o.version)
        printf("hremu " HREMU_VERSION "\n");
    else if (rc == HR_EXIT_OK && o.list)
        list_all();
    else if (rc == HR_EXIT_OK && o.calibrate)
        rc = calibrate(&o);
    else if (rc == HR_EXIT_OK && o.man_options)
        hr__options_man(stdout);
    else if (rc == HR_EXIT_OK && o.doc_columns)
        hr__columns_doc(stdout);
    else if (rc == HR_EXIT_OK && o.format && hr__report_format(o.format, &format) < 0)
        rc = hr__usage_error("unknown format '%s': table, csv or json", o.format);
    else if (rc == HR_EXIT_OK && o.topology != NULL)
        rc = topology_info(&o, format);
    else if (rc == HR_EXIT_OK && o.procs != NULL)
        rc = hr__usage_error("--procs %s goes with --topology (in a config: [machine] procs)",
                             o.procs);
    else if (rc == HR_EXIT_OK && (rc = jitter_env()) == HR_EXIT_OK) {
        hr_config *c = NULL;
        hr_sweep_plan plan;
        hr_config_error e;
        rc = prepare(&o, &c, &plan, &e);
        if ((rc = agree(rc, rc != HR_EXIT_OK ? e.msg : NULL)) != HR_EXIT_OK && c != NULL) {
            hr__sweep_plan_free(&plan);     /* another rank's config failed */
            hr__config_free(c);
            c = NULL;
        } else if (rc == HR_EXIT_OK) {
            rc = run(&o, c, &plan, format);
            hr__sweep_plan_free(&plan);   /* the instances no row took */
        }
        hr__config_free(c);
    }
    free(o.sets.v);
    if (fflush(stdout) != 0 && rc == HR_EXIT_OK)
        rc = HR_EXIT_USAGE;
    return rc;
}
