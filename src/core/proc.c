/* proc.c: a processor's own state: enquiry, random stream, memory, failure, computation. */
#include "core/core.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/region.h"
#include "util/sync.h"

double hr_now(const hr_proc *p)  { return hr__time_to_s(p->clock); }
uint64_t hr_seed(const hr_proc *p) { return p->m->cfg.seed; }

/* Report p's line, msg after prefix, and leave the run failed (misused too, if misuse). */
__attribute__((noreturn)) static void leave_failed(hr_proc *p, int misuse, const char *msg)
{
    hr__report(p->m, "P%d: %s%s\n", p->id, misuse ? "misuse: " : "", msg);
    if (misuse)
        atomic_store(&p->m->misused, 1);
    atomic_store(&p->m->failed, 1);
    hr__proc_exit(p);
}

void hr_fail(hr_proc *p, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    leave_failed(p, 0, msg);
}

void hr__misuse(hr_proc *p, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    leave_failed(p, 1, msg);
}

void hr__proc_overflow(hr_proc *p)
{
    hr_machine *m = p->m;
    if (atomic_exchange(&m->range, 1) == 0)
        hr__report(m, "P%d: model time passes the end of the clock's range (2^63 - 1 ps, about "
                   "106.75 days)\n", p->id);
    atomic_store(&m->failed, 1);
    hr__proc_exit(p);
}

static hr_time thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (hr_time)ts.tv_sec * 1000000000000LL + (hr_time)ts.tv_nsec * 1000;
}

void hr__proc_charge_cpu(hr_proc *p)
{
    if (p->m->cost.measured) {
        /* compute = measured: the CPU time since the last charge is charged now. This makes
         * model time depend on this box, so it is not deterministic (docs/model.md). */
        hr_time now = thread_cpu();
        if (p->cpu_mark != 0) {
            p->clock = hr__tadd(p->clock, now - p->cpu_mark);
            p->work = hr__tadd(p->work, now - p->cpu_mark);
        }
        p->cpu_mark = now;
    }
}

_Thread_local hr_proc *hr__self __attribute__((tls_model("initial-exec")));

void hr__proc_foreign(hr_proc *p)
{
    hr_proc *self = hr__self;
    if (self != NULL)
        hr__misuse(self, "called the API with P%d's hr_proc: a processor passes only its own",
                   p->id);
    /* No processor runs on this thread: the main thread between runs, or a thread of the
     * program's own. Nothing can be failed in order; say so and stop. */
    fprintf(stderr, "hremu: P%d's hr_proc used where it does not run (after its run, or from "
            "another thread): a processor calls the API with its own hr_proc, while it runs\n",
            p->id);
    abort();
}

void hr__proc_comm_point_on(hr_proc *p)
{
    if (p->nviews > 0)
        hr__misuse(p, "communication between hr_transpose_view and hr_view_end");
    hr__proc_charge_cpu(p);
    if (p->jitter != 0)
        hr__exec_jitter(p);
}

void hr_compute(hr_proc *p, double units)
{
    hr__proc_own(p);
    if (!(units >= 0) || isinf(units))
        hr__misuse(p, "hr_compute: units must be finite and >= 0 (it is %g)", units);
    if (!p->m->cost.measured) {
        hr_time t = hr__time_from_ps(units * p->m->cost.unit), t0 = p->clock;
        p->clock = hr__tadd(p->clock, t);
        hr__ev_compute(p, t0, p->clock);
        p->work = hr__tadd(p->work, t);
        hr__proc_publish(p);
    }
}

void hr__proc_reset(hr_proc *p)
{
    hr_machine *m = p->m;
    hr__alloc_recycle(&p->mem);
    p->refs = NULL;
    p->views = NULL;
    p->nviews = p->views_cap = 0;
    p->pending = NULL;
    p->req_free = p->req_free_tail = NULL;   /* the pools' slabs were its memory */
    p->msg_free = NULL;
    memset(p->slots, 0, sizeof p->slots);
    p->coll_tag = HR__TAG_COLL;
    p->world_colls = 0;
    p->coll_batch = 0;
    atomic_store(&p->batch_serial, 0);
    p->nrequests = 0;
    p->futile = 0;
    p->futile_from = HR_TIME_INF;
    while (p->rma_head != NULL) {
        hr_rma *next = p->rma_head->next;
        free(p->rma_head);
        p->rma_head = next;
    }
    p->rma_tail = NULL;
    p->rma_error = NULL;
    p->clock = p->out_free = p->in_free = 0;
    p->seq = 0;
    hr__rng_seed(&p->rng, m->cfg.seed, (uint64_t)p->id);
    p->jitter = m->cfg.jitter ? 0x9e3779b97f4a7c15ULL * (uint64_t)(p->id + 1) ^ (uint64_t)time(NULL) : 0;
    if (p->jitter == 0 && m->cfg.jitter)
        p->jitter = 1;
    p->cpu_mark = 0;
    p->msgs_out = p->bytes_out = p->bytes_in = p->stalls = p->rounds = p->lost = 0;
    p->step = 0;
    p->colls = 0;
    p->coll_depth = 0;
    free(p->regions);
    p->regions = NULL;
    p->nregions = p->capregions = 0;
    p->msgs_in = 0;
    p->work = 0;
    p->bar_gen = 0;
    atomic_store(&p->pub_clock, 0);
    atomic_store(&p->state, HR_PROC_RUNNING);
    hr__proc_event(p, HR_TIME_INF);
    atomic_store(&p->granted, 0);
    atomic_store(&p->outstanding, 0);
    atomic_store(&p->lent, 0);
    atomic_store(&p->sync_open, 0);
    atomic_store(&p->watch_a, HR_TIME_INF);
    atomic_store(&p->post_floor, HR_TIME_INF);
}

void hr__proc_exit(hr_proc *p)
{
    longjmp(p->exit, 1);
}

/* ---- the network ---------------------------------------------------------------------------- */

void hr__proc_check_link_on(hr_proc *p, int dest, const char *call)
{
    const hr_topo *t = p->m->net;
    if (dest == p->id || t->nlinks == 0 || hr__topo_link(t, p->id, dest) >= 0)
        return;
    if (!p->m->neighbour_only)
        hr_fail(p, "%s: P%d and P%d are not neighbours on %s (%d links apart), and cost model %s "
                "defines messages along one link only", call, p->id, dest, t->shape,
                hr__topo_hops(t, p->id, dest), p->m->cm->name);
    hr__misuse(p, "%s: P%d and P%d are not neighbours on %s (%d links apart), and this algorithm "
            "sends along links only", call, p->id, dest, t->shape, hr__topo_hops(t, p->id, dest));
}

const char *hr_discipline(const hr_proc *p)  { return p->m->disc->name; }
hr_cost hr_costs(const hr_proc *p)            { return p->m->cfg.cost; }
uint64_t hr_buffer(const hr_proc *p)          { return p->m->cfg.buffer; }

void **hr__proc_slot(hr_proc *p, int slot)
{
    HR_ASSERT(slot >= 0 && slot < HR_NSLOTS);
    return &p->slots[slot];
}

int hr_store_forward(const hr_proc *p)        { return p->m->switching == HR_NET_STORE_FORWARD; }

