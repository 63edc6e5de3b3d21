/* machine.c: a machine's lifecycle: create (check the config, make the processors, start the
 * engine), run (reset every module's per-run state, release the processors, collect the
 * figures and the verdict), destroy. The waits and the resolver are wait.c's; how processors
 * run, threads.c's.
 */
#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/region.h"
#include "util/sync.h"

/* The setjmp lives in a frame of its own so that longjmp clobbers no loop state. */
static void run_body(hr_proc *p)
{
    if (setjmp(p->exit) == 0) {
        hr__proc_publish(p);
        p->m->fn(p, p->m->arg);
        hr__proc_check_range(p);   /* a last hr_compute publishes nothing */
        hr__p2p_finish(p);
        if (p->rma_head != NULL) {
            size_t n = 0;
            for (const hr_rma *r = p->rma_head; r != NULL; r = r->next)
                n++;
            hr__misuse(p, "%zu hr_put or hr_get call%s after the last hr_sync never took effect "
                    "(they take effect at the next hr_sync)", n, n == 1 ? "" : "s");
        }
    }
}

/* The engine's entry for each processor in a run: run the algorithm, then count p finished. */
static void proc_run(hr_proc *p)
{
    run_body(p);
    hr__proc_finished(p);
}

/* The reason a config is refused, when it has to be formatted (a topology's): per thread, valid
 * until that thread's next create or check. */
static _Thread_local char why_buf[256];

#define TSAN_MAX_FIBERS 8000

/* What of the machine its cost model does not define, in a line, or NULL (cost_model.h). */
static const char *cost_model_misfit(const hr_machine *m, const hr_machine_config *cfg)
{
    static _Thread_local char why[200];
    const hr_cost_model *cm = m->cm;
    const char *what = NULL;
    if (cfg->cost.gap != 0 && !(cm->defines & HR_CM_GAP))
        what = "a gap (LogGP's g)";
    else if (cfg->cost.overhead != 0 && !(cm->defines & HR_CM_OVERHEAD))
        what = "an overhead (o) a message";
    else if ((m->disc->traits & HR_DISC_IN_ROUNDS) && !(cm->defines & HR_CM_ROUNDS))
        what = "rounds (the round disciplines)";
    else if (m->disc->send != HR_SEND_COPY && !(cm->defines & HR_CM_RENDEZVOUS))
        what = "rendezvous sends (disciplines sync and eager)";
    else if (cfg->buffer != 0 && !(cm->defines & HR_CM_BUFFERS))
        what = "bounded receive buffers";
    else if (hr__net_shared(m->net) && !(cm->defines & (HR_CM_LINKS | HR_CM_NEIGHBOURS)))
        what = "links (topologies other than complete)";
    else if (hr__net_shared(m->net) && !(cm->defines & HR_CM_LINKS) && cfg->cost.hop != 0)
        what = "a hop (a message between linked processors costs the same on any link)";
    if (what == NULL)
        return NULL;
    snprintf(why, sizeof why, "cost model %s does not define %s", cm->name, what);
    return why;
}

/* Check cfg into m: discipline, cost, and the topology instance m->net (the caller destroys it,
 * also on failure). NULL, or the reason. */
/* "unknown WHAT 'name' (WHATs: a, b, c)" in buf, from the table that name_at(i) walks. */
static const char *named_list(char *buf, size_t len, const char *what, const char *name,
                              const char *(*name_at)(int i, const char **summary))
{
    size_t used = (size_t)snprintf(buf, len, "unknown %s '%.40s' (%ss:", what, name, what);
    const char *n;
    for (int i = 0; (n = name_at(i, NULL)) != NULL && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s %s", i ? "," : "", n);
    if (used < len)
        snprintf(buf + used, len - used, ")");
    return buf;
}

static const char *cost_model_name(int i, const char **summary)
{
    const hr_cost_model *cm = hr__cost_model_at(i);
    if (summary != NULL)
        *summary = NULL;
    return cm != NULL ? cm->name : NULL;
}

/* .jitter, or HREMU_JITTER's (-1: a value refused) where it is below 0. */
static int jitter_wanted(const hr_machine_config *cfg)
{
    return cfg->jitter >= 0 ? cfg->jitter : hr_machine_jitter_env();
}

static const char *check_config(const hr_machine_config *cfg, hr_machine *m)
{
    const char *why = NULL;
    m->net = NULL;
    if (jitter_wanted(cfg) < 0)
        return "HREMU_JITTER must be 1 (yield and sleep at random at every communication point), "
               "0 or unset";
    if (cfg->procs < 0 || cfg->procs > HR_MAX_PROCS)
        return "procs must be between 1 and 1048576 (or 0: the topology's shape decides)";
    m->disc = hr__discipline_find(cfg->discipline ? cfg->discipline : "async");
    if (m->disc == NULL)
        return named_list(why_buf, sizeof why_buf, "discipline", cfg->discipline,
                          hr_discipline_name);
    if (cfg->engine == NULL || strcmp(cfg->engine, "threads") == 0)
        m->exec = &hr__exec_threads;
    else if (strcmp(cfg->engine, "fibers") == 0)
        m->exec = &hr__exec_fibers;
    else
        return "engine must be threads or fibers";
    if (cfg->stack != 0 && (cfg->stack < 16 * 1024 || cfg->stack > ((size_t)1 << 30)))
        return "a fiber's stack must be 16 KiB to 1 GiB";
    if (cfg->carriers < HR_CARRIERS_CORES)
        return "carriers must be a number of threads, 0 (one) or HR_CARRIERS_CORES";
    if (m->exec == &hr__exec_fibers && cfg->cost.measured)
        return "compute = measured charges a thread's CPU time: it needs engine threads";
    if (hr__cost_convert(&cfg->cost, &m->cost, &why) != HR_OK)
        return why;
    if ((m->cm = hr__cost_model_find(cfg->cost_model)) == NULL)
        return named_list(why_buf, sizeof why_buf, "cost model", cfg->cost_model,
                          cost_model_name);
    m->cost.tau = m->cm->lead(&m->cost);     /* the lookahead and the complete graph's latency */
    if (cfg->buffer != 0 && !(m->disc->traits & HR_DISC_BUFFERED))
        return "a receive buffer capacity applies to discipline async only";
    if (hr__topo_make(cfg->topology ? cfg->topology : "complete", cfg->procs, &m->net, why_buf,
                      sizeof why_buf) != 0)
        return why_buf;
    /* The fibers' stacks are one reservation of address space: past a quarter of what x86-64
     * gives a process (128 TiB), refuse it here rather than fail the mmap at create. */
    size_t stack = cfg->stack != 0 ? cfg->stack : HR_FIBER_STACK;
    double space = (double)m->net->p * (double)(stack + HR_FIBER_GUARD);
    if (m->exec == &hr__exec_fibers && space > 32.0 * (UINT64_C(1) << 40)) {
        snprintf(why_buf, sizeof why_buf, "%d fiber stacks of %zu KiB with their %d KiB guards "
                 "take %.0f TiB of address space, more than 32 TiB: lower stack or procs",
                 m->net->p, stack >> 10, HR_FIBER_GUARD >> 10, space / (UINT64_C(1) << 40));
        return why_buf;
    }
#if defined(__SANITIZE_THREAD__)
    /* ThreadSanitizer tracks each fiber as a thread, and dies past 8128 of them. */
    if (m->exec == &hr__exec_fibers && m->net->p > TSAN_MAX_FIBERS)
        return "a ThreadSanitizer build runs up to 8000 fibers (it tracks each as a thread)";
#endif
    if (m->exec == &hr__exec_threads && m->net->p > HR_MAX_THREADS)
        return "more than 4096 processors need engine = fibers (threads run one operating-system "
               "thread a processor, up to 4096)";
    if (hr__link_model_at(cfg->switching) == NULL)
        return "switching must be cut-through (0) or store-and-forward (1)";
    if ((why = cost_model_misfit(m, cfg)) != NULL)
        return why;
    /* Not yet on shared links: a bounded buffer admits by arrival, and its admissions would
     * need their own place in transit.c's order. */
    if (hr__net_shared(m->net) && cfg->buffer != 0)
        return "a bounded receive buffer works on topology complete only, for now";
    return NULL;
}

int hr_machine_check(const hr_machine_config *cfg, const char **why)
{
    hr_machine scratch;
    const char *bad = check_config(cfg, &scratch);
    hr__topo_destroy(scratch.net);
    if (bad == NULL)
        return HR_OK;
    if (why != NULL)
        *why = bad;
    return HR_EINVAL;
}

/* Two passes: a mailbox may hold messages that live in another processor's memory. */
static void reset_procs(hr_machine *m, int n)
{
    hr__transit_reset(m->transit, m->ev_limit != 0);
    hr__ctx_reset(m);
    for (int i = 0; i < n; i++) {
        hr__p2p_reset(&m->procs[i]);
        if (m->procs[i].rbuf != NULL)
            hr__rbuf_reset(m->procs[i].rbuf);
    }
    double wall0 = hr__wall_s();
    for (int i = 0; i < n; i++) {
        hr__proc_reset(&m->procs[i]);
        hr__region_reset(&m->procs[i]);
        hr__round_reset(&m->procs[i]);
        hr__ev_reset(&m->procs[i].ev, wall0);
    }
    hr__alloc_region_reset(&m->mem_region);   /* every processor recycled its blocks above */
    hr__ev_reset(&m->rev, wall0);
    hr__ev_reset(&m->lev, wall0);
}

static void destroy_procs(hr_machine *m, int n)
{
    reset_procs(m, n);
    for (int i = 0; i < n; i++) {
        hr__alloc_free_all(&m->procs[i].mem);
        hr__mbox_destroy(&m->procs[i].box);
        hr__rbuf_destroy(m->procs[i].rbuf);
        hr__ev_free(&m->procs[i].ev);
    }
    hr__ev_free(&m->rev);
    hr__ev_free(&m->lev);
    hr__round_destroy(m);
    hr__results_free(m);
    if (m->clocks_made)
        hr__clocks_destroy(&m->clocks);
    free(m->bar_time);
    free(m->procs);
    hr__alloc_region_free(&m->mem_region);
}

int hr_machine_create(const hr_machine_config *cfg, hr_machine **out, const char **why)
{
    int err = HR_ENOMEM;
    const char *bad;
    hr_machine *m = calloc(1, sizeof *m);
    if (m == NULL)
        goto fail_m;
    if ((bad = check_config(cfg, m)) != NULL) {
        if (why != NULL)
            *why = bad;
        err = HR_EINVAL;
        goto fail_cfg;
    }
    m->p = m->net->p;
    m->switching = cfg->switching;
    /* A model that does not define links times messages as on the complete graph: no routing,
     * and only linked processors may talk (hr__proc_check_link). */
    m->one_link = hr__net_shared(m->net) && !(m->cm->defines & HR_CM_LINKS);
    m->check_links = m->one_link;
    m->no_p2p = !(m->cm->defines & HR_CM_P2P);
    if (hr__net_shared(m->net) && !m->one_link && hr__transit_create(m, &m->transit) != HR_OK)
        goto fail_cfg;
    m->cfg = *cfg;
    if (m->cfg.eager_limit == 0)
        m->cfg.eager_limit = HR_EAGER_LIMIT;
    m->cfg.discipline = m->disc->name;
    m->cfg.procs = m->p;
    m->cfg.topology = m->net->shape;
    m->cfg.jitter = jitter_wanted(cfg);
    m->call_hooks = m->cost.measured || m->cfg.jitter;
    m->cfg.engine = m->exec->name;
    if (m->cfg.stack == 0)
        m->cfg.stack = HR_FIBER_STACK;
    m->cfg.carriers = hr_machine_carriers(&m->cfg);
    hr__mutex_init(&m->resolve_lock);
    hr__mutex_init(&m->report_lock);
    hr__mutex_init(&m->ctx_lock);
    if ((m->procs = aligned_alloc(64, sizeof(hr_proc) * (size_t)m->p)) == NULL)
        goto fail_procs;
    memset(m->procs, 0, sizeof(hr_proc) * (size_t)m->p);
    int made = 0;
    for (; made < m->p; made++) {
        hr_proc *p = &m->procs[made];
        p->id = made;
        p->nprocs = m->p;
        p->traits = m->disc->traits;
        p->topo = m->net;
        p->m = m;
        if (hr__mbox_init(&p->box) != HR_OK)
            goto fail_boxes;
        if (cfg->buffer != 0 && hr__rbuf_create(&p->rbuf, cfg->buffer) != HR_OK) {
            hr__mbox_destroy(&p->box);
            goto fail_boxes;
        }
    }
    if ((m->bar_time = malloc(4 * sizeof(hr_time) * (size_t)m->p)) == NULL ||
        hr__round_init(m) != HR_OK)
        goto fail_boxes;
    if (hr__clocks_init(&m->clocks, m->p, m->transit != NULL) != HR_OK)
        goto fail_boxes;
    m->clocks_made = 1;
    if ((err = m->exec->start(m, proc_run)) != HR_OK) {
        if (why != NULL && err == HR_ESYS)
            *why = "cannot create the processor threads";
        if (why != NULL && err == HR_ENOMEM && m->exec == &hr__exec_fibers) {
            /* Mostly the stacks' one reservation: address space, not memory (fibers.c). */
            double gib = (double)m->p * (double)(m->cfg.stack + HR_FIBER_GUARD) / (1u << 30);
            snprintf(why_buf, sizeof why_buf, "cannot reserve %d fiber stacks of %zu KiB with "
                     "their %d KiB guards (%.1f GiB of address space): lower stack or procs",
                     m->p, m->cfg.stack >> 10, HR_FIBER_GUARD >> 10, gib);
            *why = why_buf;
        }
        hr_machine_destroy(m);
        return err;
    }
    if (m->serial) {    /* the engine runs one processor at a time (fibers on one carrier) */
        hr__alloc_region_init(&m->mem_region);
        for (int i = 0; i < m->p; i++) {
            hr__mbox_serial(&m->procs[i].box);
            m->procs[i].mem.region = &m->mem_region;
        }
    }
    *out = m;
    return HR_OK;
fail_boxes:
    destroy_procs(m, made);
fail_procs:
    hr__mutex_destroy(&m->ctx_lock);
    hr__mutex_destroy(&m->report_lock);
    hr__mutex_destroy(&m->resolve_lock);
fail_cfg:
    hr__transit_destroy(m->transit);
    hr__topo_destroy(m->net);
    free(m);
fail_m:
    return err;
}

void hr_machine_destroy(hr_machine *m)
{
    if (m == NULL)
        return;
    m->exec->stop(m);
    destroy_procs(m, m->p);
    hr__mutex_destroy(&m->ctx_lock);
    hr__mutex_destroy(&m->report_lock);
    hr__mutex_destroy(&m->resolve_lock);
    hr__transit_destroy(m->transit);
    hr__topo_destroy(m->net);
    free(m);
}

void hr_machine_neighbour_only(hr_machine *m, int on)
{
    m->neighbour_only = on != 0;
    m->check_links = m->neighbour_only || m->one_link;
}

int hr_machine_model(hr_machine *m, int on)
{
    (void)m;
    return on ? HR_OK : HR_EINVAL;    /* the waits are the model's: docs/mpi.md */
}

int hr_machine_procs(const hr_machine *m)
{
    return m->p;
}

static void collect(hr_machine *m, hr_run_result *res)
{
    hr_time end = 0;
    uint64_t colls = 0;
    for (int i = 0; i < m->p; i++) {
        const hr_proc *p = &m->procs[i];
        end = hr__max(end, hr__max(p->clock, p->out_free));
        res->messages += p->msgs_out;
        res->bytes += p->bytes_out;
        res->stalls += p->stalls;
        res->lost += p->lost;
        if (p->bytes_out > res->max_out_bytes)
            res->max_out_bytes = p->bytes_out;
        if (p->bytes_in > res->max_in_bytes)
            res->max_in_bytes = p->bytes_in;
        if (p->rounds > res->rounds)
            res->rounds = p->rounds;
        if (p->step > res->steps)
            res->steps = p->step;
        colls += p->colls;
    }
    /* Collectives are costed by the async rules whatever the discipline (docs/model.md). */
    if (colls > 0 && (m->disc->send == HR_SEND_RENDEZVOUS || m->disc->send == HR_SEND_EAGER ||
                      m->cfg.buffer != 0))
        res->notes |= HR_NOTE_COLL_ASYNC;
    res->model_time_s = end == HR_TIME_INF ? INFINITY : hr__time_to_s(end);
    /* An algorithm that sends along links only is counted as its papers count it: in steps. */
    if (m->neighbour_only)
        res->rounds = res->steps;
}

int hr_machine_run(hr_machine *m, void (*fn)(hr_proc *, void *), void *arg, hr_run_result *res)
{
    if (m == NULL || fn == NULL || res == NULL)
        return HR_EINVAL;
    memset(res, 0, sizeof *res);
    reset_procs(m, m->p);
    hr__clocks_reset(&m->clocks, m);
    hr__results_reset(m);
    m->fn = fn;
    m->arg = arg;
    hr__runlog_begin(m);
    atomic_store(&m->abort, 0);
    atomic_store(&m->failed, 0);
    atomic_store(&m->misused, 0);
    atomic_store(&m->range, 0);
    atomic_store(&m->bar_broken, 0);
    atomic_store(&m->live, m->p);
    atomic_store(&m->blocked, 0);
    atomic_store(&m->watching, 0);
    atomic_store(&m->bar_arrived, 0);
    atomic_store(&m->rnd_arrived, 0);
    m->rnd_count = 0;

    double t0 = hr__wall_s();
    m->exec->run(m);
    res->wall_s = hr__wall_s() - t0;

    collect(m, res);
    hr__results_collect(m);
    res->status = atomic_load(&m->range)     ? HR_ERANGE
                : atomic_load(&m->misused) ? HR_EMISUSE
                : atomic_load(&m->failed)  ? HR_EFAIL
                                           : atomic_load(&m->abort);
    if (res->status == HR_OK && !(m->disc->traits & HR_DISC_IN_ROUNDS))
        hr__p2p_unreceived(m, res);
    hr__runlog_finish(m, res);
    return HR_OK;
}
