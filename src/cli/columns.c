/* columns.c: the report's columns, one row each (columns.h says what a row holds). A column is
 * one row here and the hr_row field that carries its value (filled in cli/sweep.c). */
#include "cli/columns.h"

#include <math.h>
#include <string.h>

#include "net/link_model.h"

/* The offset of hr_row's field f, which must be of type T: a row naming a field of another type
 * does not compile. */
#define AT(f, T) (offsetof(hr_row, f) + 0 * sizeof(_Generic(((const hr_row *)0)->f, T: 1)))
#define TEXT(f)    .type = HR_COL_TEXT, .at = AT(f, const char *)
#define COUNT(f)   .type = HR_COL_COUNT, .at = AT(f, uint64_t)
#define INT(f)     .type = HR_COL_INT, .at = AT(f, int)
#define FIGURE(f)  .type = HR_COL_FIGURE, .at = AT(f, double)
#define SETTING(f) .type = HR_COL_SETTING, .at = AT(f, double)
#define BOOL(f)    .type = HR_COL_BOOL, .at = AT(f, int)
#define WORDS(f, off, on) .type = HR_COL_WORDS, .at = AT(f, int), .words = { off, on }
#define IF(f)      .only_if = { 1, AT(f, int) }
#define UNLESS(f)  .unless = { 1, AT(f, int) }
#define SETTING_IF(f) .setting_if = { 1, AT(f, int) }

/* seed 003's measure: rounds per unit of h. */
static double rounds_per_h(const hr_row *r)
{
    return r->h > 0 ? (double)r->rounds / (double)r->h : NAN;
}

/* The first sixteen are the contract (DESIGN.md section 4). After status, every setting that
 * may vary between rows and is not among them, so that every row says what produced it. */
static const hr_column columns[] = {
    { .name = "algorithm", TEXT(algorithm), .show = HR_SHOW_ALWAYS,
      .doc = "the algorithm, as `--list` names it" },
    { .name = "procs", INT(procs), .show = HR_SHOW_SIZE,
      .doc = "processors (`[machine] procs`)" },
    { .name = "n", COUNT(n), UNLESS(no_n), .show = HR_SHOW_SIZE,
      .doc = "`[workload] n`; empty for a kind that takes none" },
    { .name = "h", COUNT(h), .show = HR_SHOW_SIZE,
      .agg = HR_AGG_STATS, .stat = 1, SETTING_IF(h_set), .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "the instance's h (below)" },
    { .name = "discipline", TEXT(discipline), .show = HR_SHOW_VARIES,
      .doc = "`[machine] discipline`" },
    { .name = "topology", TEXT(topology), .show = HR_SHOW_VARIES,
      .doc = "`[machine] topology`, with a fat tree's bandwidths (`fattree 20M 10M 5M`)" },
    { .name = "cost", TEXT(cost), .show = HR_SHOW_VARIES,
      .doc = "the cost preset, with a `*` when a key changed it" },
    { .name = "seed", COUNT(seed), .show = HR_SHOW_VARIES, .agg = HR_AGG_SEEDS,
      .doc = "`[machine] seed`" },
    { .name = "model_time_s", FIGURE(model_time_s), UNLESS(model_off), .null_empty = 1,
      .show = HR_SHOW_ALWAYS,
      .agg = HR_AGG_STATS, .stat = 2, .agg_show = HR_AGG_SHOW_MEAN | HR_AGG_SHOW_SD,
      .doc = "the run's model time, seconds (below)" },
    { .name = "rounds", COUNT(rounds), UNLESS(model_off), .null_empty = 1,
      .show = HR_SHOW_ALWAYS,
      .agg = HR_AGG_STATS, .stat = 3, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "collective calls, barriers, supersteps and rounds (below)" },
    { .name = "messages", COUNT(messages), UNLESS(model_off), .null_empty = 1,
      .show = HR_SHOW_ALWAYS, .spare = 6,
      .agg = HR_AGG_STATS, .stat = 5, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "messages sent" },
    { .name = "bytes", COUNT(bytes), UNLESS(model_off), .null_empty = 1,
      .show = HR_SHOW_ALWAYS, .spare = 5,
      .agg = HR_AGG_STATS, .stat = 6, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "bytes sent" },
    { .name = "max_out_bytes", COUNT(max_out_bytes), UNLESS(model_off), .null_empty = 1,
      .show = HR_SHOW_ALWAYS, .spare = 1,
      .agg = HR_AGG_STATS, .stat = 7,
      .doc = "the most bytes one processor sent" },
    { .name = "max_in_bytes", COUNT(max_in_bytes), UNLESS(model_off), .null_empty = 1,
      .show = HR_SHOW_ALWAYS, .spare = 4,
      .agg = HR_AGG_STATS, .stat = 8,
      .doc = "the most bytes one processor received" },
    { .name = "wall_s", FIGURE(wall_s), .show = HR_SHOW_ALWAYS, .spare = 2, .agg = HR_AGG_MEAN,
      .doc = "wall-clock seconds of a run, the median of the repeats" },
    { .name = "verified", BOOL(verified), .show = HR_SHOW_ALWAYS, .agg = HR_AGG_ALL,
      .doc = "true exactly when status is `ok`" },
    { .name = "steps", COUNT(steps), UNLESS(model_off), .null_empty = 1,
      .show = HR_SHOW_ALWAYS,
      .agg = HR_AGG_STATS, .stat = 4, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "the algorithm's communication steps (below)" },
    { .name = "rounds_per_h", .type = HR_COL_FIGURE, .get = rounds_per_h,
      UNLESS(model_off), .null_empty = 1,
      .show = HR_SHOW_FILLED, .needs = HR_ROWS_ROUNDS, .spare = 3,
      .agg = HR_AGG_STATS, .stat = 9, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "rounds / h" },
    { .name = "lost", COUNT(lost), UNLESS(model_off), .null_empty = 1,
      .show = HR_SHOW_FILLED, .needs = HR_ROWS_LOSSY,
      .agg = HR_AGG_STATS, .stat = 10, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "round messages lost in collisions (arbitrary, ocpc)" },
    { .name = "stalls", COUNT(stalls), UNLESS(model_off), .null_empty = 1,
      .show = HR_SHOW_FILLED, .needs = HR_ROWS_STALLS,
      .agg = HR_AGG_STATS, .stat = 11, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "sends that waited for buffer room or a rendezvous; under fifo and priority, the "
             "rounds messages waited in queues" },
    { .name = "status", TEXT(status), .show = HR_SHOW_NOT_OK, .agg = HR_AGG_SAME,
      .doc = "`ok`, or what went wrong (below)" },
    { .name = "engine", TEXT(engine), .show = HR_SHOW_ALWAYS, .needs = HR_ROWS_ENGINE,
      .agg = HR_AGG_SAME,
      .doc = "the engine that ran the row: `threads` or `fibers` (`[machine] engine`), or `mpi` "
             "(hremu-mpi, docs/mpi.md)" },
    { .name = "hosts", INT(hosts), .show = HR_SHOW_ALWAYS, .needs = HR_ROWS_ENGINE,
      .agg = HR_AGG_SAME,
      .doc = "distinct host names among the processes that ran the row: 1 on threads" },
    { .name = "stack", COUNT(stack), IF(fibers), .null_empty = 1, .show = HR_SHOW_VARIES,
      .doc = "`[machine] stack`: a processor's stack, bytes, under engine fibers; else empty" },
    { .name = "carriers", INT(carriers), IF(fibers), .null_empty = 1, .show = HR_SHOW_VARIES,
      .doc = "under engine fibers, the carrier threads that ran them (`[machine] carriers`: "
             "`cores` is one a core, at most procs); else empty" },
    { .name = "distribution", TEXT(distribution), .show = HR_SHOW_VARIES,
      .doc = "`[workload] distribution` (kind hrelation); else empty" },
    { .name = "dataset", TEXT(dataset), .show = HR_SHOW_VARIES,
      .doc = "`[workload] dataset` (kinds sort and values); else empty" },
    { .name = "KEY", .type = HR_COL_KEYS, .null_empty = 1, .show = HR_SHOW_VARIES,
      .doc = "one column for each key a workload kind declares, these; empty for the other "
             "kinds (`null` in JSON)" },
    { .name = "buffer", COUNT(buffer), IF(buffered), .zero = "unlimited", .null_empty = 1,
      .show = HR_SHOW_VARIES,
      .doc = "`[machine] buffer`, bytes or `unlimited`, under discipline `async`; else empty" },
    { .name = "eager_limit", COUNT(eager_limit), IF(eager), .show = HR_SHOW_VARIES,
      .doc = "`[machine] eager_limit`, bytes, under discipline `eager`; else empty" },
    { .name = "switching", .type = HR_COL_NAMED, .at = AT(switching, int),
      .named = hr__link_model_name,
      .show = HR_SHOW_VARIES, .doc = "`[machine] switching`" },
    { .name = "cost_model", TEXT(cost_model), .show = HR_SHOW_VARIES,
      .doc = "`[machine] cost_model`: `bdm`, `loggp` or `bsp`" },
    { .name = "tau", SETTING(tau), .show = HR_SHOW_BY_COST,
      .doc = "the cost model's tau, seconds" },
    { .name = "sigma", SETTING(sigma), .show = HR_SHOW_BY_COST,
      .doc = "the cost model's sigma, seconds per byte" },
    { .name = "overhead", SETTING(overhead), .show = HR_SHOW_BY_COST,
      .doc = "the cost model's overhead, seconds" },
    { .name = "hop", SETTING(hop), .show = HR_SHOW_BY_COST,
      .doc = "the cost model's hop, seconds" },
    { .name = "gap", SETTING(gap), .show = HR_SHOW_BY_COST,
      .doc = "the cost model's gap (LogGP's g), seconds; 0 under bdm" },
    { .name = "compute_unit", SETTING(compute_unit), .show = HR_SHOW_BY_COST,
      .doc = "the cost model's compute_unit, seconds" },
    { .name = "compute", WORDS(measured, "units", "measured"), .show = HR_SHOW_VARIES,
      .doc = "`[machine] compute`" },
    { .name = "model", WORDS(model_off, "on", "off"), .show = HR_SHOW_VARIES,
      .doc = "`[run] model`: `off` on hremu-mpi leaves the model's columns empty (docs/mpi.md)" },
    { .name = "repeat", COUNT(repeat), .show = HR_SHOW_VARIES,
      .doc = "`[run] repeat`: the runs behind `wall_s`" },
    { .name = "params", TEXT(params), .show = HR_SHOW_VARIES,
      .doc = "the algorithm's parameters, `NAME=VALUE` separated by spaces" },
    { .name = "plan_s", FIGURE(plan_s), IF(planned), .null_empty = 1, .show = HR_SHOW_FILLED,
      .agg = HR_AGG_STATS, .stat = 12, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "a scheduler's wall time computing and checking its schedule, seconds, apart from "
             "`wall_s` and model time; else empty" },
    { .name = "plan_steps", COUNT(plan_steps), IF(planned), .null_empty = 1,
      .show = HR_SHOW_FILLED, .agg = HR_AGG_STATS, .stat = 13, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "a scheduler's steps; else empty" },
    { .name = "supersteps", COUNT(supersteps), IF(has_supersteps), .null_empty = 1,
      .show = HR_SHOW_FILLED, .agg = HR_AGG_STATS, .stat = 14, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "supersteps the run ended: its `hr_sync` calls, and under `bsp` its world "
             "collectives too (docs/model.md); else empty" },
    { .name = "bsp_w", FIGURE(bsp_w), IF(has_supersteps), .null_empty = 1,
      .show = HR_SHOW_FILLED, .agg = HR_AGG_STATS, .stat = 15, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "BSP's W: the supersteps' w (the most local work a processor charged in one) "
             "summed, seconds; else empty" },
    { .name = "bsp_h", COUNT(bsp_h), IF(has_supersteps), .null_empty = 1,
      .show = HR_SHOW_FILLED, .agg = HR_AGG_STATS, .stat = 16, .agg_show = HR_AGG_SHOW_MEAN,
      .doc = "BSP's H: the supersteps' h (the most bytes a processor sent or received in one) "
             "summed; under `bsp` model time is bsp_w + sigma * bsp_h + tau * supersteps; "
             "else empty" },
    { .name = NULL },
};

const hr_column *hr__column_at(int i)
{
    return i >= 0 && i < (int)(sizeof columns / sizeof columns[0]) - 1 ? &columns[i] : NULL;
}

static const char *type_name(const hr_column *c, char *buf, size_t len)
{
    switch (c->type) {
    case HR_COL_TEXT:
        return "text";
    case HR_COL_COUNT:
        if (c->zero == NULL)
            return "whole";
        snprintf(buf, len, "whole or `%s`", c->zero);
        return buf;
    case HR_COL_INT:
        return "whole";
    case HR_COL_BOOL:
        return "`true` or `false`";
    case HR_COL_WORDS:
        snprintf(buf, len, "`%s` or `%s`", c->words[0], c->words[1]);
        return buf;
    case HR_COL_NAMED: {
        size_t at = 0;
        for (int i = 0; c->named(i, NULL) != NULL && at < len; i++) {
            int w = snprintf(buf + at, len - at, "%s`%s`", i == 0 ? "" : c->named(i + 1, NULL)
                             != NULL ? ", " : " or ", c->named(i, NULL));
            at += w > 0 ? (size_t)w : 0;
        }
        return buf;
    }
    default:
        return "number";
    }
}

/* A declared key's line: its type, and the kinds that declare it under which key. */
static void key_doc(FILE *out, const hr_wkey_spec *col)
{
    const char *type = col->type == HR_WKEY_WORD ? "text" : col->type == HR_WKEY_INT ? "whole"
                                                                                     : "number";
    fprintf(out, "| `%s` | %s |", hr_wkey_column(col), type);
    const char *sep = " `[workload]";
    for (int i = 0; hr_workload_at(i) != NULL; i++) {
        const hr_workload *w = hr_workload_at(i);
        for (const hr_wkey_spec *k = w->keys; k != NULL && k->name != NULL; k++)
            if (strcmp(hr_wkey_column(k), hr_wkey_column(col)) == 0) {
                fprintf(out, "%s %s` of kind %s", sep, k->name, w->name);
                sep = ", `[workload]";
            }
    }
    fputs(" |\n", out);
}

void hr__columns_doc(FILE *out)
{
    fputs("| column | type | what it holds |\n|---|---|---|\n", out);
    for (const hr_column *c = columns; c->name != NULL; c++) {
        if (c->type == HR_COL_KEYS) {
            fprintf(out, "| `%s`... | | %s: |\n", c->name, c->doc);
            for (int i = 0; hr_workload_column_at(i) != NULL; i++)
                key_doc(out, hr_workload_column_at(i));
            continue;
        }
        char buf[96];
        fprintf(out, "| `%s` | %s | %s |\n", c->name, type_name(c, buf, sizeof buf), c->doc);
    }
}
