/* sweep.c: the loops over machine, workload, run and algorithm points, and one row per run. */
#include "cli/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/machine.h>

#include "cli/board.h"
#include "cli/memory.h"
#include "cli/regions.h"
#include "cli/trace.h"
#include "core/world.h"
#include "net/cost_model.h"
#include "net/discipline.h"
#include "util/clock.h"
#include "util/sync.h"

/* One sweep in progress. The machine and the instance belong to the current machine and workload
 * points; dirty says the instance holds a run's outputs and must be reset before the next run. */
typedef struct sweep {
    const hr_config *c;
    int              dry;      /* build and throw away, run nothing (hr__sweep_check) */
    hr_report       *rep;
    hr_sweep_note    note;
    void            *arg;
    hr_sweep_stats  *st;
    hr_sweep_plan   *plan;     /* dry: what the rows are, or NULL */
    hr_config_error *e;
    hr_sweep_kept   *next_kept;    /* run: the check's first kept instance not yet taken */
    size_t           machine;      /* the machine point's index */
    hr_point         pt;
    hr_machine      *m;
    void            *inst;
    int              dirty;
    hr_trace        *trace;    /* --trace, or NULL */
    FILE            *schedule; /* --schedule, or NULL */
    FILE            *rounds;   /* --rounds, or NULL */
    hr_html         *html;     /* --html, or NULL */
    FILE            *regions;  /* --regions, or NULL */
    hr_config_error  first_invalid;  /* the first point skipped as invalid (skip_point) */
    const hr_world_info *world;    /* the processes the command runs in (core/world.h) */
    void           **carried;  /* rank 0 of several: the other processors' parts of the last
                                * run, which the instance points into (collect) */
    int              ncarried;
} sweep;

/* What the processors run: the algorithm's body on the shared instance. */
typedef struct body_arg {
    const hr_algorithm *alg;
    void               *inst;
    const double       *params;
} body_arg;

static void body(hr_proc *p, void *arg)
{
    const body_arg *b = arg;
    b->alg->run(p, b->inst, b->params);
}

/* ---- one row -------------------------------------------------------------------------------- */

static int is_round(const char *d)
{
    return (hr__discipline_traits(d) & HR_DISC_IN_ROUNDS) != 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Name the first model figure that differs between two runs; 0 if none does. */
static int model_differs(const hr_run_result *a, const hr_run_result *b, char *why, size_t len)
{
#define HR_DIFF_U64(field)                                                                  \
    if (a->field != b->field) {                                                             \
        snprintf(why, len, #field " was %llu, then %llu", (unsigned long long)a->field,     \
                 (unsigned long long)b->field);                                             \
        return 1;                                                                           \
    }
    if (memcmp(&a->model_time_s, &b->model_time_s, sizeof a->model_time_s) != 0) {
        snprintf(why, len, "model_time_s was %.17g, then %.17g", a->model_time_s,
                 b->model_time_s);
        return 1;
    }
    HR_DIFF_U64(rounds)
    HR_DIFF_U64(steps)
    HR_DIFF_U64(messages)
    HR_DIFF_U64(bytes)
    HR_DIFF_U64(max_out_bytes)
    HR_DIFF_U64(max_in_bytes)
    HR_DIFF_U64(lost)
    HR_DIFF_U64(stalls)
#undef HR_DIFF_U64
    return 0;
}

static void param_text(const hr_point *pt, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < pt->nparams && used < len; k++) {
        char num[32];
        hr__report_double(num, sizeof num, pt->params[k]);
        int w = snprintf(buf + used, len - used, "%s%s=%s", k ? " " : "", pt->alg->params[k].name,
                         num);
        used += w > 0 ? (size_t)w : 0;
    }
}

/* The outcome of the repeats of one row. */
typedef struct outcome {
    hr_run_result first;       /* the model figures of the row */
    const char   *status;
    char          msg[4608];   /* why the row failed */
    size_t        runs;        /* runs that finished, with a wall time in walls */
    double       *models;      /* compute = measured: each run's model_time_s */
    int           planned;     /* a schedule was planned (hr_algorithm.plan_steps) ... */
    double        plan_s;      /* ... in this many seconds of wall time ... */
    uint64_t      plan_steps;  /* ... and has this many steps */
    uint64_t      supersteps;  /* the first run's supersteps, ... */
    double        bsp_w;       /* ... their w and h summed */
    uint64_t      bsp_h;
} outcome;

static const char *status_name(int status)
{
    switch (status) {
    case HR_EDEADLK: return "deadlock";
    case HR_ERANGE:  return "overflow";
    case HR_EMISUSE: return "misuse";
    default:         return "failed";
    }
}

/* ---- the ranks of hremu-mpi ----------------------------------------------------------------
 * Every rank makes the same instance from the seed and runs its own processor on it; rank 0
 * verifies and reports every row. After a run rank 0 takes the other processors' parts of the
 * instance (hr_workload.parts) into its copy, so that the kind's one verifier checks the row
 * as on threads; then every rank follows rank 0's verdict on the run, so that all stop or go on
 * together. A part travels as a 16-byte header (its length, or UINT64_MAX for a NULL pointer)
 * and its bytes, padded to 16 so that every array lands aligned. */

#define PART_NULL UINT64_MAX

static size_t pad16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

static void drop_carried(sweep *s)
{
    for (int i = 0; i < s->ncarried; i++)
        free(s->carried[i]);
    free(s->carried);
    s->carried = NULL;
    s->ncarried = 0;
}

static int verifies(const sweep *s)
{
    return s->pt.verify && (s->world->ranks == 1 || s->pt.workload->parts != NULL);
}

static void send_parts(sweep *s)
{
    hr_part part[HR_PARTS_MAX];
    int n = s->pt.workload->parts(s->inst, s->world->rank, part, HR_PARTS_MAX);
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += 16 + pad16(part[i].len);
    uint8_t *buf = calloc(1, len + 1), *at = buf;
    HR_ASSERT(buf != NULL);
    for (int i = 0; i < n; i++) {
        const void *from = part[i].ref ? *(void **)part[i].addr : part[i].addr;
        uint64_t head = from == NULL ? PART_NULL : part[i].len;
        memcpy(at, &head, sizeof head);
        if (from != NULL && part[i].len > 0)
            memcpy(at + 16, from, part[i].len);
        at += 16 + pad16(part[i].len);
    }
    hr__world_send(0, buf, len);
    free(buf);
}

/* Rank 0: processor pid's parts into the instance. A kind's parts name the same fields on every
 * rank; only their lengths (an output's count) are the sender's. */
static void take_parts(sweep *s, int pid)
{
    size_t len;
    uint8_t *buf = hr__world_recv(pid, &len), *at = buf, *end = buf + len;
    hr_part part[HR_PARTS_MAX];
    int n = s->pt.workload->parts(s->inst, pid, part, HR_PARTS_MAX);
    for (int i = 0; i < n; i++) {
        uint64_t head;
        HR_ASSERT(at + 16 <= end);
        memcpy(&head, at, sizeof head);
        size_t bytes = head == PART_NULL ? 0 : (size_t)head;
        HR_ASSERT(at + 16 + bytes <= end);
        if (part[i].ref)
            *(void **)part[i].addr = head == PART_NULL ? NULL : at + 16;
        else if (head != PART_NULL)
            memcpy(part[i].addr, at + 16, bytes < part[i].len ? bytes : part[i].len);
        at += 16 + pad16(bytes);
    }
    void **more = realloc(s->carried, sizeof *more * (size_t)(s->ncarried + 1));
    HR_ASSERT(more != NULL);
    s->carried = more;
    s->carried[s->ncarried++] = buf;
}

static void collect(sweep *s)
{
    if (s->world->rank != 0)
        send_parts(s);
    else
        for (int pid = 1; pid < s->world->ranks; pid++)
            take_parts(s, pid);
}

static const char *const statuses[] = { "ok", "unchecked", "error", "deadlock", "overflow",
                                        "misuse", "failed", "unreceived", "wrong",
                                        "nondeterministic", NULL };

/* Every rank takes rank 0's verdict on the run: whether the row stops, its status and why. */
static int follow(outcome *o, int stop)
{
    struct { int stop, status; } v = { stop, 0 };
    while (statuses[v.status] != NULL && strcmp(statuses[v.status], o->status) != 0)
        v.status++;
    HR_ASSERT(statuses[v.status] != NULL);
    hr__world_bcast(&v, sizeof v);
    hr__world_bcast(o->msg, sizeof o->msg);
    o->status = statuses[v.status];
    return v.stop;
}

/* ---- one run ---------------------------------------------------------------------------- */

static int judge(sweep *s, size_t k, hr_run_result *res, outcome *o, int err, int traced);

/* One run and its checks; returns 0 when the row should go on to the next repeat. */
static int run_once(sweep *s, size_t k, hr_run_result *res, outcome *o)
{
    const hr_point *pt = &s->pt;
    body_arg b = { .alg = pt->alg, .inst = s->inst, .params = pt->params };
    drop_carried(s);
    if (s->dirty)
        pt->workload->reset(s->inst);
    s->dirty = 1;
    int traced = (s->trace != NULL || s->rounds != NULL || s->html != NULL) && k == 0;
    hr_machine_events(s->m, traced ? (s->trace != NULL ? s->trace->limit : 1000000) : 0);
    hr_machine_neighbour_only(s->m, pt->alg->neighbour_only);
    int err = hr_machine_model(s->m, pt->model);
    if (err == HR_OK)
        err = hr_machine_run(s->m, body, &b, res);
    hr_machine_events(s->m, 0);
    if (s->world->ranks == 1)
        return judge(s, k, res, o, err, traced);
    /* The run's result is rank 0's on every rank, so all collect or none. */
    if (err == HR_OK && res->status == HR_OK && verifies(s))
        collect(s);
    return follow(o, s->world->rank == 0 ? judge(s, k, res, o, err, traced) : 0);
}

/* BSP's figures of the run's supersteps: their count, and W and H, the sums of their w and h. */
static void supersteps(const hr_machine *m, outcome *o)
{
    o->supersteps = hr_machine_supersteps(m);
    o->bsp_w = 0;
    o->bsp_h = 0;
    for (size_t i = 0; i < o->supersteps; i++) {
        hr_superstep_result r;
        if (hr_machine_superstep_result(m, i, &r) == HR_OK) {
            o->bsp_w += r.work_s;
            o->bsp_h += r.h;
        }
    }
}

/* Rank 0's checks of a run: the side outputs, the status, the verifier, determinism. */
static int judge(sweep *s, size_t k, hr_run_result *res, outcome *o, int err, int traced)
{
    const hr_point *pt = &s->pt;
    if (traced && err == HR_OK) {
        char what[256];
        snprintf(what, sizeof what, "%s procs=%d discipline=%s topology=%s seed=%llu",
                 pt->alg->name, pt->machine.procs, pt->machine.discipline,
                 pt->machine.topology ? pt->machine.topology : "complete",
                 (unsigned long long)pt->machine.seed);
        if (s->trace != NULL)
            err = hr__trace_row(s->trace, s->m, pt->alg->name, what,
                                pt->machine.discipline);
        if (err == HR_OK && s->rounds != NULL)
            err = hr__board_write(s->rounds, s->m, what, pt->machine.discipline);
        if (err == HR_OK && s->html != NULL)
            err = hr__html_row(s->html, s->m, what, pt->machine.topology, pt->machine.discipline);
    }
    if (err != HR_OK) {
        o->status = "error";
        snprintf(o->msg, sizeof o->msg, "the machine could not run: %s", hr_strerror(err));
        return 1;
    }
    if (k == 0) {
        o->first = *res;
        supersteps(s->m, o);
    }
    if (k == 0 && s->regions != NULL && res->status == HR_OK)   /* the row's number is next */
        hr__regions_write(s->regions, s->rep->format, s->st->rows + 1, pt->alg->name, s->m);
    o->models[o->runs++] = res->model_time_s;
    if (res->status != HR_OK) {
        o->status = status_name(res->status);
        snprintf(o->msg, sizeof o->msg, "%s", res->report[0] ? res->report
                                                             : hr_strerror(res->status));
        return 1;
    }
    if (res->unreceived > 0 && pt->unreceived_error) {
        o->status = "unreceived";
        snprintf(o->msg, sizeof o->msg, "%llu message%s sent and never received ([run] "
                 "unreceived = error): %s", (unsigned long long)res->unreceived,
                 res->unreceived == 1 ? "" : "s", res->unreceived_why);
        return 1;
    }
    char why[512] = "";
    /* With the model off no bytes are counted: the verifier's floor on them is not checked. */
    if (verifies(s) && (err = hr_workload_verify(pt->workload, s->inst,
                                                 pt->model ? res->bytes : UINT64_MAX, why,
                                                 sizeof why)) != HR_OK) {
        o->status = "wrong";
        snprintf(o->msg, sizeof o->msg, "verification failed (run %zu): %s", k + 1,
                 why[0] ? why : hr_strerror(err));
        return 1;
    }
    /* Charging measured CPU time makes model time this box's: not deterministic (docs/model.md),
     * so its runs are not compared, and the row shows their median. */
    if (k > 0 && !pt->machine.cost.measured && pt->model &&
        model_differs(&o->first, res, why, sizeof why)) {
        o->status = "nondeterministic";
        snprintf(o->msg, sizeof o->msg, "model figures differ between run 1 and run %zu of the "
                 "same config and seed: %s", k + 1, why);
        return 1;
    }
    return 0;
}

static void report_row(sweep *s, const outcome *o, double wall)
{
    const hr_point *pt = &s->pt;
    char params[512];
    param_text(pt, params, sizeof params);
    unsigned traits = hr__discipline_traits(pt->machine.discipline);
    hr_row row = {
        .algorithm = pt->alg->name, .procs = pt->machine.procs, .n = pt->work.n,
        .no_n = pt->workload->no_n,
        .h = pt->workload->h(s->inst), .discipline = pt->machine.discipline,
        .topology = pt->machine.topology, .cost = pt->cost, .seed = pt->machine.seed,
        .model_time_s = s->pt.machine.cost.measured && o->runs > 0 ? median(o->models, o->runs)
                                                                   : o->first.model_time_s,
        .rounds = o->first.rounds,
        /* In a round every processor sends at most one message: a round is a step. */
        .steps = is_round(pt->machine.discipline) ? o->first.rounds : o->first.steps,
        .h_set = pt->work.h != 0 && pt->workload->distributions != NULL,
        .messages = o->first.messages, .bytes = o->first.bytes,
        .max_out_bytes = o->first.max_out_bytes, .max_in_bytes = o->first.max_in_bytes,
        .wall_s = wall, .verified = strcmp(o->status, "ok") == 0, .stalls = o->first.stalls,
        .lost = o->first.lost,
        .status = o->status, .hosts = s->world->hosts,
        /* the processes' engine (MPI), or on threads' process how its processors ran */
        .engine = strcmp(s->world->engine, "threads") != 0 ? s->world->engine
                  : pt->machine.engine != NULL ? pt->machine.engine : "threads",
        .fibers = hr__on_fibers(&pt->machine),
        .stack = pt->machine.stack,
        .carriers = hr_machine_carriers(&pt->machine),
        .distribution = pt->workload->distributions ? pt->work.distribution : NULL,
        .dataset = pt->workload->datasets ? pt->work.dataset : NULL,
        .workload = pt->workload, .wkeys = pt->wkeys,
        .buffer = pt->machine.buffer, .switching = pt->machine.switching,
        .eager_limit = pt->machine.eager_limit,
        .eager = (traits & HR_DISC_EAGER) != 0, .buffered = (traits & HR_DISC_BUFFERED) != 0,
        .tau = pt->machine.cost.tau,
        .sigma = pt->machine.cost.sigma, .overhead = pt->machine.cost.overhead,
        .hop = pt->machine.cost.hop, .gap = pt->machine.cost.gap,
        .compute_unit = pt->machine.cost.compute_unit,
        .cost_model = hr__cost_model_find(pt->machine.cost_model)->name,   /* NULL: the default */
        .measured = pt->machine.cost.measured, .repeat = pt->repeat, .params = params,
        .model_off = !pt->model,
        .planned = o->planned, .plan_s = o->plan_s, .plan_steps = o->plan_steps,
        .has_supersteps = o->supersteps > 0 && pt->model, .supersteps = o->supersteps,
        .bsp_w = o->bsp_w, .bsp_h = o->bsp_h,
    };
    hr__report_row(s->rep, &row);
    s->st->rows++;
    /* The row's discipline, and its buffer when it is bounded (a rendezvous has none). */
    if (o->first.notes & HR_NOTE_COLL_ASYNC && s->st->coll_async++ == 0) {
        int k = snprintf(s->st->coll_async_row, sizeof s->st->coll_async_row, "%s, discipline %s",
                         pt->alg->name, pt->machine.discipline);
        if (pt->machine.buffer != 0 && k > 0 && (size_t)k < sizeof s->st->coll_async_row)
            snprintf(s->st->coll_async_row + k, sizeof s->st->coll_async_row - (size_t)k,
                     ", buffer %llu", (unsigned long long)pt->machine.buffer);
    }
    if (o->first.unreceived > 0 && !pt->unreceived_error && s->st->unreceived++ == 0)
        snprintf(s->st->unreceived_row, sizeof s->st->unreceived_row, "%s: %llu: %s",
                 pt->alg->name, (unsigned long long)o->first.unreceived,
                 o->first.unreceived_why);
    int failed = strcmp(o->status, "ok") != 0 && strcmp(o->status, "unchecked") != 0;
    s->st->failed += failed;
    if (s->note)
        s->note(s->arg, pt->alg->name, failed ? o->msg : NULL);
}

/* The row's schedule on --schedule's file, under a line that says whose it is. */
static void write_schedule(sweep *s, uint64_t steps)
{
    const hr_point *pt = &s->pt;
    fprintf(s->schedule, "# %s procs=%d", pt->alg->name, pt->machine.procs);
    for (int i = 0; pt->workload->keys && pt->workload->keys[i].name; i++) {
        const hr_wkey_spec *k = &pt->workload->keys[i];
        if (!hr_workload_key_applies(pt->workload, pt->wkeys, i))
            continue;
        if (k->type == HR_WKEY_WORD)
            fprintf(s->schedule, " %s=%s", k->name, pt->wkeys[i].word);
        else
            fprintf(s->schedule, " %s=%.17g", k->name, pt->wkeys[i].num);
    }
    fprintf(s->schedule, " seed=%llu: %llu steps\n", (unsigned long long)pt->machine.seed,
            (unsigned long long)steps);
    if (pt->alg->plan_print != NULL)
        pt->alg->plan_print(s->inst, s->schedule);
}

static int run_row(sweep *s)
{
    double *walls = malloc(sizeof *walls * s->pt.repeat);
    outcome *o = calloc(1, sizeof *o);
    hr_run_result *res = malloc(sizeof *res);
    double *models = malloc(sizeof *models * s->pt.repeat);
    int err = walls && o && res && models ? HR_OK : HR_ENOMEM;
    if (o != NULL)
        o->models = models;
    char why[512] = "";
    int planned = err == HR_OK && s->pt.alg->plan != NULL;
    double t0 = hr__wall_s();
    hr_plan_args args = { .params = s->pt.params, .cost = s->pt.machine.cost,
                          .seed = s->pt.machine.seed };
    if (planned && s->pt.alg->plan(s->inst, &args, why, sizeof why) != HR_OK) {
        /* The plan is the off-line model's knowledge: without it there is no run. */
        o->status = "failed";
        snprintf(o->msg, sizeof o->msg, "the off-line plan failed: %s", why);
        report_row(s, o, 0);
        planned = 0;
    } else if (err == HR_OK) {
        if (planned && s->pt.alg->plan_steps != NULL) {
            o->planned = 1;
            o->plan_s = hr__wall_s() - t0;
            o->plan_steps = s->pt.alg->plan_steps(s->inst);
            if (s->schedule != NULL)
                write_schedule(s, o->plan_steps);
        }
        o->status = verifies(s) ? "ok" : "unchecked";
        s->st->unchecked_mpi += s->pt.verify && !verifies(s);
        for (size_t k = 0; k < s->pt.repeat; k++) {
            int stop = run_once(s, k, res, o);
            if (o->runs > k)
                walls[k] = res->wall_s;
            if (stop)
                break;
        }
        report_row(s, o, median(walls, o->runs));
    } else {
        hr__config_fail(s->e, err, NULL, "%s: out of memory", s->pt.alg->name);
    }
    if (planned)
        s->pt.alg->unplan(s->inst);
    free(walls);
    free(models);
    free(o);
    free(res);
    return err;
}

/* ---- the levels ----------------------------------------------------------------------------- */

static void plan_row(sweep *s)
{
    hr_sweep_plan *plan = s->plan;
    if (plan == NULL)
        return;
    unsigned t = hr__discipline_traits(s->pt.machine.discipline);
    plan->rows++;
    plan->rounds |= (t & HR_DISC_IN_ROUNDS) != 0;
    plan->lossy |= (t & HR_DISC_LOSES) != 0;
    plan->stalls |= (t & HR_DISC_STALLS) != 0 || s->pt.machine.buffer != 0;
    plan->schedules |= s->pt.alg->plan_print != NULL;
    plan->fibers |= hr__on_fibers(&s->pt.machine);
    int k = 0;
    while (k < plan->nkinds && plan->kinds[k] != s->pt.workload)
        k++;
    if (k == plan->nkinds && k < HR_SWEEP_MAX_KINDS)
        plan->kinds[plan->nkinds++] = s->pt.workload;
}

/* A row whose algorithm may send a message between every pair (not few_messages) holds a
 * record a pair at once: refused up front, with the figures, where that cannot fit. Not on MPI,
 * where the ranks hold them. 1 if it fits; else 0 and why. */
static int pairs_fit(const sweep *s, char *why, size_t len)
{
    const hr_point *pt = &s->pt;
    uint64_t have;
    const char *source;
    char w[160], a[32], b[32];
    if (pt->alg->few_messages || s->world->procs != 0 ||
        hr__available_bytes(&have, &source, w, sizeof w) != HR_OK || have == 0)
        return 1;
    int flight = pt->alg->pairs_in_flight;
    uint64_t need = hr__row_bytes(pt->workload, &pt->work, &pt->machine) +
                    hr__pair_bytes(&pt->machine, flight);
    /* What the messages in flight carry: the instance's input once more (an exchange's every
     * block), at most. */
    if (flight && pt->workload->mem_bytes != NULL)
        need += pt->workload->mem_bytes(&pt->work, pt->machine.procs);
    if (need <= have)
        return 1;
    hr__bytes_text(a, sizeof a, need);
    hr__bytes_text(b, sizeof b, have);
    snprintf(why, len, "%s may send a message between every pair of its %d processors: about %s "
             "of memory, more than the %s %s", pt->alg->name, pt->machine.procs, a, b, source);
    return 0;
}

static int algorithm_level(sweep *s)
{
    const hr_config *c = s->c;
    int err = HR_OK;
    for (size_t r = 0; r < hr__config_runs(c) && err == HR_OK; r++) {
        err = hr__config_run(c, r, &s->pt, s->e);
        for (size_t a = 0; a < hr__config_algorithms(c) && err == HR_OK; a++)
            for (size_t q = 0; q < hr__config_params(c, a) && err == HR_OK; q++) {
                hr_config_error why;
                err = hr__config_algorithm(c, a, q, &s->pt, &why);
                if (err == HR_OK && !s->pt.model && is_round(s->pt.machine.discipline)) {
                    err = HR_EKIND;     /* a round's outcome is the model's */
                    snprintf(why.msg, sizeof why.msg, "%s: model = off: discipline %s decides "
                             "each round in the model", s->pt.alg->name,
                             s->pt.machine.discipline);
                }
                if (err == HR_OK && !pairs_fit(s, why.msg, sizeof why.msg))
                    err = HR_EKIND;
                if (err == HR_EKIND) {    /* hr__config_check made sure some row fits */
                    if (s->st->skipped++ == 0)
                        snprintf(s->st->skip_why, sizeof s->st->skip_why, "%s", why.msg);
                    err = HR_OK;
                } else if (err == HR_OK && s->dry) {
                    plan_row(s);
                } else if (err == HR_OK) {
                    err = run_row(s);
                } else if (s->e != NULL) {
                    *s->e = why;
                }
            }
    }
    return err;
}

/* An instance the check made for the run: the point it belongs to and the bytes it holds. */
struct hr_sweep_kept {
    size_t             machine, workload;
    const hr_workload *w;
    void              *inst;       /* NULL once the run took it */
    hr_sweep_kept     *next;
};

hr_sweep_kept *hr__sweep_kept_next(const hr_sweep_kept *k)
{
    return k->next;
}

void hr__sweep_plan_free(hr_sweep_plan *plan)
{
    hr_sweep_kept *k = plan != NULL ? plan->kept : NULL;
    while (k != NULL) {
        hr_sweep_kept *next = k->next;
        if (k->inst != NULL)
            k->w->destroy(k->inst);
        free(k);
        k = next;
    }
    if (plan != NULL) {
        plan->kept = plan->kept_last = NULL;
        plan->kept_bytes = 0;
    }
}

/* The check keeps the instance it has just made for the run if it fits beside those kept
 * already and the largest row so far (hr_sweep_plan.kept); else it is destroyed. */
static void keep_or_destroy(sweep *s, size_t workload, uint64_t need, uint64_t have)
{
    hr_sweep_plan *plan = s->plan;
    const hr_workload *w = s->pt.workload;
    uint64_t bytes = w->mem_bytes != NULL ? w->mem_bytes(&s->pt.work, s->pt.machine.procs) : 0;
    hr_sweep_kept *k = NULL;
    if (plan != NULL) {
        plan->most_need = need > plan->most_need ? need : plan->most_need;
        if (have > 0 && w->mem_bytes != NULL && plan->kept_bytes <= have &&
            bytes <= have - plan->kept_bytes && plan->most_need <= have - plan->kept_bytes - bytes)
            k = malloc(sizeof *k);
    }
    if (k == NULL) {
        w->destroy(s->inst);
        s->inst = NULL;
        return;
    }
    *k = (hr_sweep_kept){ .machine = s->machine, .workload = workload, .w = w, .inst = s->inst };
    if (plan->kept_last != NULL)
        plan->kept_last->next = k;
    else
        plan->kept = k;
    plan->kept_last = k;
    plan->kept_bytes += bytes;
    s->inst = NULL;
}

static void describe_workload(const hr_point *pt, char *buf, size_t len);

/* Refuse a row that will not fit in memory, before anything of it is made; what it needs and what
 * the box has in *need and *have. */
static int check_memory(sweep *s, uint64_t *need, uint64_t *have)
{
    const hr_point *pt = &s->pt;
    const char *source;
    char why[160];
    *need = hr__row_bytes(pt->workload, &pt->work, &pt->machine);
    if (hr__available_bytes(have, &source, why, sizeof why) != HR_OK)
        return hr__config_fail(s->e, HR_EINVAL, NULL, "%s", why);
    if (*have == 0 || *need <= *have)
        return HR_OK;
    char where[320], a[32], b[32], what[400];
    hr__config_locate(s->c, "workload", where, sizeof where);
    hr__bytes_text(a, sizeof a, *need);
    hr__bytes_text(b, sizeof b, *have);
    describe_workload(pt, what, sizeof what);
    return hr__config_fail(s->e, HR_ENOMEM, where, "%s needs about %s of memory, more than the "
                           "%s %s: lower %s or procs", what, a, b, source,
                           pt->workload->no_n ? "its size" : "n");
}

/* "workload KIND, n = N, ..., procs = P": the settings a kind takes, for a message. */
static void describe_workload(const hr_point *pt, char *buf, size_t len)
{
    const hr_workload *w = pt->workload;
    const hr_workload_spec *ws = &pt->work;
    size_t at = (size_t)snprintf(buf, len, "workload %s", w->name);
#define ADD(...) (at < len ? at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__) : 0)
    if (!w->no_n)
        ADD(", n = %llu", (unsigned long long)ws->n);
    if (w->distributions != NULL)
        ADD(", h = %llu, distribution %s", (unsigned long long)ws->h,
            ws->distribution ? ws->distribution : "(unset)");
    if (w->datasets != NULL)
        ADD(", dataset %s", ws->dataset ? ws->dataset : "(unset)");
    for (int i = 0; w->keys != NULL && w->keys[i].name != NULL; i++) {
        if (!hr_workload_key_applies(w, pt->wkeys, i))
            continue;
        if (w->keys[i].type == HR_WKEY_WORD)
            ADD(", %s = %s", w->keys[i].name, pt->wkeys[i].word);
        else
            ADD(", %s = %.17g", w->keys[i].name, pt->wkeys[i].num);
    }
    ADD(", procs = %d", pt->machine.procs);
#undef ADD
}

/* The rows of the current point at a level (the workload level: "workload"; the machine
 * level: its workloads too), as hr__config_rows counts them. */
static size_t point_rows(const sweep *s, int machine)
{
    size_t per = 0;
    for (size_t a = 0; a < hr__config_algorithms(s->c); a++)
        per += hr__config_params(s->c, a);
    per *= hr__config_runs(s->c);
    return machine ? per * hr__config_workloads(s->c) : per;
}

/* A point whose settings do not go together (a distribution's conditions on n, h and p, a
 * topology's on p): its rows are skipped and counted, as rows of unfit algorithms are, and the
 * first one's reason kept. Out of memory is no such point. */
static int skip_point(sweep *s, int err, size_t rows, const hr_config_error *why)
{
    if (err == HR_ENOMEM || err == HR_ESYS)
        return err;
    if (s->st->invalid == 0) {
        snprintf(s->st->invalid_why, sizeof s->st->invalid_why, "%s", why->msg);
        if (s->e != NULL)
            s->first_invalid = *why;
    }
    s->st->invalid += rows;
    return HR_OK;
}

static int workload_level(sweep *s)
{
    const hr_config *c = s->c;
    int err = HR_OK;
    for (size_t w = 0; w < hr__config_workloads(c) && err == HR_OK; w++) {
        if ((err = hr__config_workload(c, w, &s->pt, s->e)) < 0)
            break;
        uint64_t need = 0, have = 0;
        if (s->dry && (err = check_memory(s, &need, &have)) < 0)
            break;
        char why[512] = "", where[320];
        hr_sweep_kept *k = s->next_kept;
        if (!s->dry && k != NULL && k->machine == s->machine && k->workload == w) {
            s->inst = k->inst;     /* made by the check: not made again */
            k->inst = NULL;
            s->next_kept = k->next;
            err = HR_OK;
        } else {
            err = s->pt.workload->make(&s->pt.work, s->pt.machine.procs, &s->inst, why,
                                       sizeof why);
        }
        if (err < 0) {
            char what[512];
            hr_config_error bad;
            hr__config_locate(c, "workload", where, sizeof where);
            describe_workload(&s->pt, what, sizeof what);
            hr__config_fail(&bad, err, where, "%s: %s", what, why[0] ? why : hr_strerror(err));
            s->inst = NULL;
            if ((err = skip_point(s, err, point_rows(s, 0), &bad)) < 0 && s->e != NULL)
                *s->e = bad;
            continue;
        }
        s->dirty = 0;
        err = algorithm_level(s);
        if (s->dry && err == HR_OK) {
            keep_or_destroy(s, w, need, have);
        } else {
            drop_carried(s);
            s->pt.workload->destroy(s->inst);
            s->inst = NULL;
        }
    }
    return err;
}

static int machine_level(sweep *s)
{
    const hr_config *c = s->c;
    int err = HR_OK;
    for (size_t m = 0; m < hr__config_machines(c) && err == HR_OK; m++) {
        if ((err = hr__config_machine(c, m, &s->pt, s->e)) < 0)
            break;
        s->machine = m;
        if (s->dry && s->pt.engine_auto && s->world->rank == 0)
            fprintf(stderr, "hremu: engine = auto: %s for procs = %d\n", s->pt.machine.engine,
                    s->pt.machine.procs);
        if (s->world->procs != 0 && s->pt.machine.procs != s->world->procs) {
            if (s->st->other_procs == 0)
                s->st->procs_first = s->pt.machine.procs;
            s->st->other_procs += point_rows(s, 1);
            continue;
        }
        const char *why = NULL;
        char where[320];
        /* The check builds nothing: a sweep's machines exist one at a time, while their rows
         * run. */
        err = s->dry ? hr_machine_check(&s->pt.machine, &why)
                     : hr_machine_create(&s->pt.machine, &s->m, &why);
        if (err < 0) {
            hr_config_error bad;
            hr__config_locate_said(c, "machine", why, where, sizeof where);
            hr__config_fail(&bad, err, where, "machine of procs = %d, topology %s, "
                            "discipline %s: %s", s->pt.machine.procs,
                            s->pt.machine.topology, s->pt.machine.discipline,
                            why ? why : hr_strerror(err));
            s->m = NULL;
            if ((err = skip_point(s, err, point_rows(s, 1), &bad)) < 0 && s->e != NULL)
                *s->e = bad;
            continue;
        }
        err = workload_level(s);
        hr_machine_destroy(s->m);
        s->m = NULL;
    }
    return err;
}

int hr__sweep_check(const hr_config *c, hr_sweep_plan *plan, hr_config_error *e)
{
    hr_sweep_stats st = { 0 };
    hr_sweep_plan own;
    hr_sweep_plan *p = plan != NULL ? plan : &own;    /* own: the rows' count only */
    *p = (hr_sweep_plan){ 0 };
    sweep s = { .c = c, .dry = 1, .st = &st, .e = e, .plan = p, .world = hr__world() };
    int err = machine_level(&s);
    /* Skipping points leaves the rows that can run; when none can, the first reason is the
     * error. */
    if (err == HR_OK && st.invalid > 0 && p->rows == 0) {
        if (e != NULL)
            *e = s.first_invalid;
        err = HR_EINVAL;
    } else if (err == HR_OK && st.skipped > 0 && p->rows == 0) {
        err = hr__config_fail(e, HR_EINVAL, NULL, "no row can run: %s", st.skip_why);
    } else if (err == HR_OK && st.other_procs > 0 && p->rows == 0) {
        char where[320];
        hr__config_locate(c, "machine", where, sizeof where);
        err = hr__config_fail(e, HR_EINVAL, where, "no row has procs = %d, the ranks started "
                              "(mpirun -np %d); the first row has procs = %d",
                              s.world->procs, s.world->procs, st.procs_first);
    }
    if (err < 0 || plan == NULL)
        hr__sweep_plan_free(p);
    return err;
}

int hr__sweep_run(const hr_config *c, hr_report *rep, hr_sweep_note note, void *arg,
                  const hr_sweep_sides *sides, hr_sweep_stats *st, hr_config_error *e)
{
    *st = (hr_sweep_stats){ 0 };
    hr_sweep_sides none = { 0 };
    if (sides == NULL)
        sides = &none;
    sweep s = { .c = c, .rep = rep, .note = note, .arg = arg, .st = st, .e = e,
                .trace = sides->trace, .regions = sides->regions, .schedule = sides->schedule,
                .rounds = sides->rounds, .html = sides->html,
                .next_kept = sides->plan != NULL ? sides->plan->kept : NULL,
                .world = hr__world() };
    int err = machine_level(&s);
    drop_carried(&s);
    return err;
}
