/* region.c: timed regions (hr_region_begin, hr_region_end) and the results of a run beyond
 * hr_run_result: per processor, per region and per superstep (machine.h; supersteps are
 * recorded by superstep.c).
 *
 * Each processor keeps its own log of the regions it entered, one record per name with the
 * totals of its stretches inside, written by its own thread only: no lock, no shared cache line.
 * After the run the machine thread merges the logs by name and orders the regions canonically
 * (by the model time of their first entry, then processor id, then that processor's order of
 * entry), so nothing depends on the thread schedule. The log keeps totals, not events: its
 * memory grows with the names, not with the entries, so a region inside a loop of a million
 * iterations is one record. A timeline would need the events; no one asks for it yet. Known
 * limit: hr_region_begin finds its record by a linear search over the processor's names.
 */
#include "core/region.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One processor's record of one region. While open > 0, `at` holds the tally at the outermost
 * open begin; total holds the sum of its closed stretches (clock: the time inside). */
typedef struct hr_rstat {
    char     name[HR_REGION_NAME_MAX + 1];
    int      open;          /* begins not yet ended: a region re-entered counts once */
    uint64_t entries;
    hr_time  first;         /* the clock at its first begin */
    hr_tally at;
    hr_tally total;
} hr_rstat;

/* A processor's regions: records in the order it first entered them, and the stack of the open
 * ones (indices into stat, innermost last). */
typedef struct hr_rlog {
    hr_rstat *stat;
    int       n, cap;
    int      *stack;
    int       depth, capdepth;
} hr_rlog;

void hr__tsum_add(hr_tsum *s, const hr_tally *d)
{
    s->procs++;
    s->time_max = hr__max(s->time_max, d->clock);
    s->time_sum = hr__tadd(s->time_sum, d->clock);
    s->work_max = hr__max(s->work_max, d->work);
    s->msgs += d->msgs;
    s->bytes += d->out;
    uint64_t h = d->out > d->in ? d->out : d->in;
    if (h > s->h)
        s->h = h;
}

/* ---- the SPMD calls --------------------------------------------------------------------- */

static void check_name(hr_proc *p, const char *name, const char *call)
{
    if (name == NULL)
        hr__misuse(p, "%s: the name is NULL", call);
    size_t n = strnlen(name, HR_REGION_NAME_MAX + 1);
    if (n == 0)
        hr__misuse(p, "%s: the name is empty", call);
    if (n > HR_REGION_NAME_MAX)
        hr__misuse(p, "%s(\"%.24s...\"): the name is longer than %d bytes", call, name,
                HR_REGION_NAME_MAX);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
            hr__misuse(p, "%s: the name has a control character (byte %zu)", call, i);
}

/* Grow *v (of *cap elements of size bytes) to hold one more than n; fails p without memory. */
static void *room(hr_proc *p, void *v, int n, int *cap, size_t size)
{
    if (n < *cap)
        return v;
    int c = *cap ? 2 * *cap : 8;
    void *w = realloc(v, (size_t)c * size);
    if (w == NULL)
        hr_fail(p, "out of memory in hr_region_begin");
    *cap = c;
    return w;
}

void hr_region_begin(hr_proc *p, const char *name)
{
    check_name(p, name, "hr_region_begin");
    hr__proc_charge_cpu(p);
    hr__proc_publish(p);
    if (p->rlog == NULL && (p->rlog = calloc(1, sizeof *p->rlog)) == NULL)
        hr_fail(p, "out of memory in hr_region_begin");
    hr_rlog *l = p->rlog;
    int i = 0;
    while (i < l->n && strcmp(l->stat[i].name, name) != 0)
        i++;
    if (i == l->n) {
        l->stat = room(p, l->stat, l->n, &l->cap, sizeof *l->stat);
        hr_rstat *r = &l->stat[l->n++];
        *r = (hr_rstat){ .first = p->clock };
        memcpy(r->name, name, strlen(name) + 1);
    }
    l->stack = room(p, l->stack, l->depth, &l->capdepth, sizeof *l->stack);
    l->stack[l->depth++] = i;
    hr_rstat *r = &l->stat[i];
    r->entries++;
    if (r->open++ == 0)
        r->at = hr__tally(p);
}

void hr_region_end(hr_proc *p, const char *name)
{
    check_name(p, name, "hr_region_end");
    hr_rlog *l = p->rlog;
    if (l == NULL || l->depth == 0)
        hr__misuse(p, "hr_region_end(\"%s\"): no region is open", name);
    hr_rstat *r = &l->stat[l->stack[l->depth - 1]];
    if (strcmp(r->name, name) != 0)
        hr__misuse(p, "hr_region_end(\"%s\"): the innermost open region is \"%s\" (regions nest: "
                "end it first)", name, r->name);
    hr__proc_charge_cpu(p);
    hr__proc_publish(p);
    l->depth--;
    if (--r->open > 0)
        return;
    hr_tally now = hr__tally(p), d = hr__tally_since(&r->at, &now);
    hr__ev_named(p, HR_EV_REGION, r->name, r->at.clock, now.clock);
    r->total = (hr_tally){ hr__tadd(r->total.clock, d.clock), hr__tadd(r->total.work, d.work),
                           r->total.msgs + d.msgs, r->total.out + d.out, r->total.in + d.in };
}

void hr__region_reset(hr_proc *p)
{
    if (p->rlog != NULL) {
        free(p->rlog->stat);
        free(p->rlog->stack);
        free(p->rlog);
        p->rlog = NULL;
    }
}

/* ---- after the run: merging ------------------------------------------------------------- */

/* One processor's record of a region, and where it came from. */
typedef struct rref {
    const hr_rstat *s;
    int             pid, idx;
} rref;

static int by_name(const void *a, const void *b)
{
    const rref *x = a, *y = b;
    int c = strcmp(x->s->name, y->s->name);
    return c ? c : (x->pid > y->pid) - (x->pid < y->pid);
}

/* A merged region with its first entry, (model time, processor, its order of entry): unique,
 * since a processor has one record per name. */
typedef struct keyed {
    hr_region_result r;
    hr_time          first;
    int              pid, idx;
} keyed;

static int by_first(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* A run that returned with regions open fails, naming them (identical lines are one, with a
 * count: hr__report). */
static void check_closed(hr_machine *m)
{
    int open = 0;
    for (int i = 0; i < m->p; i++) {
        const hr_rlog *l = m->procs[i].rlog;
        if (l == NULL || l->depth == 0)
            continue;
        open++;
        hr__report(m, "P%d: misuse: returned from the algorithm with %d region%s open, the "
                   "innermost \"%s\" (every hr_region_begin needs its hr_region_end)\n", i,
                   l->depth, l->depth == 1 ? "" : "s", l->stat[l->stack[l->depth - 1]].name);
    }
    if (open > 0) {
        atomic_store(&m->misused, 1);
        atomic_store(&m->failed, 1);
    }
}

void hr__results_collect(hr_machine *m)
{
    if (!atomic_load(&m->failed) && !atomic_load(&m->range) && !atomic_load(&m->abort))
        check_closed(m);
    size_t n = 0;
    for (int i = 0; i < m->p; i++)
        if (m->procs[i].rlog != NULL)
            n += (size_t)m->procs[i].rlog->n;
    if (n == 0)
        return;
    rref *refs = malloc(n * sizeof *refs);
    keyed *k = malloc(n * sizeof *k);
    m->regions_out = malloc(n * sizeof *m->regions_out);
    if (refs == NULL || k == NULL || m->regions_out == NULL) {
        free(m->regions_out);
        m->regions_out = NULL;
        hr__report(m, "out of memory merging the run's %zu timed region records\n", n);
        atomic_store(&m->failed, 1);
        goto out;
    }
    size_t at = 0;
    for (int i = 0; i < m->p; i++)
        for (int j = 0; m->procs[i].rlog != NULL && j < m->procs[i].rlog->n; j++)
            refs[at++] = (rref){ &m->procs[i].rlog->stat[j], i, j };
    qsort(refs, n, sizeof *refs, by_name);
    size_t g = 0;
    for (size_t i = 0; i < n;) {
        keyed *x = &k[g++];
        hr_tsum s = { 0 };
        *x = (keyed){ .first = refs[i].s->first, .pid = refs[i].pid, .idx = refs[i].idx };
        memcpy(x->r.name, refs[i].s->name, sizeof x->r.name);
        size_t j = i;
        for (; j < n && strcmp(refs[j].s->name, refs[i].s->name) == 0; j++) {
            const rref *f = &refs[j];
            hr__tsum_add(&s, &f->s->total);
            x->r.entries += f->s->entries;
            /* refs of one name come by processor, so a tie in time keeps the first one's */
            if (f->s->first < x->first) {
                x->first = f->s->first;
                x->pid = f->pid;
                x->idx = f->idx;
            }
        }
        x->r.procs = s.procs;
        x->r.time_s = hr__secs(s.time_max);
        x->r.time_sum_s = hr__secs(s.time_sum);
        x->r.work_s = hr__secs(s.work_max);
        x->r.messages = s.msgs;
        x->r.bytes = s.bytes;
        x->r.h = s.h;
        i = j;
    }
    qsort(k, g, sizeof *k, by_first);
    for (size_t i = 0; i < g; i++)
        m->regions_out[i] = k[i].r;
    m->nregions_out = g;
out:
    free(refs);
    free(k);
}

void hr__results_reset(hr_machine *m)
{
    free(m->regions_out);
    m->regions_out = NULL;
    m->nregions_out = 0;
    m->nsteps = 0;
    m->step_end = 0;
    if (m->step_at != NULL)   /* every processor's tally at the start of a run is zero */
        memset(m->step_at, 0, (size_t)m->p * sizeof *m->step_at);
}

void hr__results_free(hr_machine *m)
{
    free(m->regions_out);
    free(m->steps);
    free(m->step_at);
    m->regions_out = NULL;
    m->steps = NULL;
    m->step_at = NULL;
}

/* ---- the result calls (machine.h) ------------------------------------------------------- */

int hr_machine_proc_result(const hr_machine *m, int pid, hr_proc_result *out)
{
    if (pid < 0 || pid >= m->p)
        return HR_EINVAL;
    const hr_proc *p = &m->procs[pid];
    *out = (hr_proc_result){
        .clock_s = hr__secs(p->clock), .end_s = hr__secs(hr__max(p->clock, p->out_free)),
        .work_s = hr__secs(p->work), .messages_out = p->msgs_out, .messages_in = p->msgs_in,
        .bytes_out = p->bytes_out, .bytes_in = p->bytes_in, .stalls = p->stalls,
        .rounds = p->rounds, .lost = p->lost, .steps = p->step,
    };
    return HR_OK;
}

size_t hr_machine_regions(const hr_machine *m)
{
    return m->nregions_out;
}

int hr_machine_region_result(const hr_machine *m, size_t i, hr_region_result *out)
{
    if (i >= m->nregions_out)
        return HR_EINVAL;
    *out = m->regions_out[i];
    return HR_OK;
}

size_t hr_machine_supersteps(const hr_machine *m)
{
    return m->nsteps;
}

int hr_machine_superstep_result(const hr_machine *m, size_t s, hr_superstep_result *out)
{
    if (s >= m->nsteps)
        return HR_EINVAL;
    *out = m->steps[s];
    return HR_OK;
}
