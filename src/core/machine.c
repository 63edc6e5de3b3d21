/* machine.c: processor threads, their lifecycle over runs, blocking waits, and the resolver that
 * keeps receives from ANY deterministic and turns a stuck machine into a deadlock report.
 *
 * Blocking and quiescence. A processor that must wait publishes what it waits for and the model
 * time of its pending event (hr_wait_desc, p->event), marks itself BLOCKED, re-checks its
 * condition, and only then counts itself in m->blocked. Whoever makes a condition true (a sender,
 * the barrier's last arriver) flips the waiter back to RUNNING and wakes it; the waiter uncounts
 * itself when it runs again. So m->blocked == m->live means every live processor has settled
 * into a wait; if moreover every one of them is still BLOCKED, nothing runs that could send, and
 * the machine is quiescent. The processor whose wait (or finish) made it so runs the resolver:
 * it grants the pending event with the least model time (ties by processor id), which is safe
 * because anything sent later is sent at a later model time plus the latency tau; if no
 * processor has a pending event, the machine is deadlocked (or stuck behind a failed processor)
 * and every waiter leaves with a report. No watchdog, no timeout: detection is immediate.
 */
#include "core/core.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/region.h"
#include "util/sync.h"

#define PROC_STACK (1u << 20)

/* Room kept at the end of the report for the line that counts the lines left out. */
#define REPORT_TAIL 48

/* Append line (len bytes) to the report, whole or not at all (a line cut short would be read
 * as another processor's); report_end says how many were left out. Under the report's lock. */
static void report_append(hr_machine *m, const char *line, size_t len)
{
    if (m->report_len + len < sizeof m->report - REPORT_TAIL) {
        memcpy(m->report + m->report_len, line, len + 1);
        m->report_len += len;
    } else {
        m->report_dropped++;
    }
}

/* Count processor id's line "P<id>: text" in the group of its text, if one is free or has it:
 * 1, else 0. Under the report's lock. */
static int report_group(hr_machine *m, int id, const char *text)
{
    struct hr_report_group *g = NULL;
    for (int i = 0; i < m->nrgroups && g == NULL; i++)
        if (strcmp(m->rgroups[i].text, text) == 0)
            g = &m->rgroups[i];
    if (g == NULL) {
        if (m->nrgroups == (int)(sizeof m->rgroups / sizeof m->rgroups[0]) ||
            strlen(text) >= sizeof g->text)
            return 0;
        g = &m->rgroups[m->nrgroups++];
        snprintf(g->text, sizeof g->text, "%s", text);
        g->count = 0;
    }
    /* keep the three lowest ids, in order, whatever order the lines came in */
    int k = g->count < 3 ? g->count : 3;
    if (k < 3 || id < g->ids[2]) {
        int at = k < 3 ? k : 2;
        while (at > 0 && g->ids[at - 1] > id) {
            g->ids[at] = g->ids[at - 1];
            at--;
        }
        g->ids[at] = id;
    }
    g->count++;
    return 1;
}

void hr__report(hr_machine *m, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    size_t len = (size_t)n < sizeof line ? (size_t)n : sizeof line - 1;
    int id, at = 0;
    hr__mutex_lock(&m->report_lock);
    if (sscanf(line, "P%d: %n", &id, &at) != 1 || at == 0 || !report_group(m, id, line + at))
        report_append(m, line, len);
    hr__mutex_unlock(&m->report_lock);
}

/* After the run: the processors' grouped lines, then how many lines did not fit. Machine
 * thread. */
static void report_end(hr_machine *m)
{
    for (int i = 0; i < m->nrgroups; i++) {
        const struct hr_report_group *g = &m->rgroups[i];
        char line[640];
        if (g->count == 1)
            snprintf(line, sizeof line, "P%d: %s", g->ids[0], g->text);
        else if (g->count == 2)
            snprintf(line, sizeof line, "P%d and P%d: %s", g->ids[0], g->ids[1], g->text);
        else if (g->count == 3)
            snprintf(line, sizeof line, "P%d, P%d and P%d: %s", g->ids[0], g->ids[1], g->ids[2],
                     g->text);
        else
            snprintf(line, sizeof line, "P%d, P%d, P%d and %d more processors: %s", g->ids[0],
                     g->ids[1], g->ids[2], g->count - 3, g->text);
        report_append(m, line, strlen(line));
    }
    m->nrgroups = 0;
}

/* After the report is ordered: say how many lines did not fit. */
static void report_dropped(hr_machine *m)
{
    if (m->report_dropped > 0)
        snprintf(m->report + m->report_len, sizeof m->report - m->report_len,
                 "(and %d more line%s)\n", m->report_dropped, m->report_dropped == 1 ? "" : "s");
}

/* The wake-up protocol is a store-buffering pattern. The waiter marks itself BLOCKED, then reads
 * its condition (the mailbox's tail, msg->taken, outstanding ...); the waker makes the condition
 * true, then reads the state. One of them must see the other's write, or the waiter sleeps on a
 * condition that is already true and nobody wakes it (a lost wake-up, then a false deadlock).
 * The condition's stores and loads are not all seq_cst (liburcu's queue uses its own volatile
 * accesses; taken and outstanding are release/acquire), and the C11 model lets a later load pass
 * an earlier store. So both sides touch the state word with a read-modify-write: the waiter's
 * exchange to BLOCKED and the waker's read of the state as fetch_or(0) (read_state). RMWs on one
 * word are totally ordered (its modification order). If the waker's comes first, it is a
 * release that the waiter's exchange, an acquire, reads from: the waiter's look at its condition
 * then happens after the waker made it true. If the waiter's comes first, the waker reads
 * BLOCKED and wakes it. (A pair of seq_cst fences would do as well, but ThreadSanitizer cannot
 * model fences.) x86 needs it as much as weaker machines: its store buffer lets a load pass an
 * earlier store to another location, the one reordering x86-TSO allows, and this pattern's. */
static uint32_t read_state(hr_proc *q)
{
    return atomic_fetch_or(&q->state, 0);
}

static void wake_blocked(hr_proc *q)
{
    uint32_t expect = HR_PROC_BLOCKED;
    if (atomic_compare_exchange_strong(&q->state, &expect, HR_PROC_RUNNING)) {
        atomic_fetch_add(&q->m->wakes, 1);
        hr__futex_wake(&q->state, 1);
    }
}

void hr__wake(hr_proc *q)
{
    if (read_state(q) == HR_PROC_BLOCKED)
        wake_blocked(q);
}

void hr__wake_for(hr_proc *q, int src)
{
    /* The owner stores wake_on before it marks itself BLOCKED (both sequentially consistent),
     * so a sender that sees BLOCKED sees the wait it belongs to. */
    if (read_state(q) != HR_PROC_BLOCKED)
        return;
    int w = atomic_load(&q->wake_on);
    if (w == HR_ANY || w == src)
        wake_blocked(q);
}

/* Failures are reported as they happen: put the lines "P<id>: ..." in processor order (others,
 * after them, in the order they came), so that a report reads the same on every run. */
typedef struct report_line {
    int         key, index;
    const char *text;
    size_t      len;
} report_line;

static int line_cmp(const void *a, const void *b)
{
    const report_line *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void order_report(char *report)
{
    enum { MAXLINES = 256 };
    report_line lines[MAXLINES];
    char copy[sizeof ((hr_machine *)0)->report];
    size_t total = strlen(report);
    memcpy(copy, report, total + 1);
    int n = 0;
    for (const char *at = copy; *at != '\0' && n < MAXLINES; n++) {
        size_t len = strcspn(at, "\n") + (at[strcspn(at, "\n")] == '\n');
        int id;
        lines[n] = (report_line){ .key = sscanf(at, "P%d", &id) == 1 ? id : INT_MAX,
                                  .index = n, .text = at, .len = len };
        at += len;
    }
    if (n == MAXLINES)
        return;   /* too many to be worth ordering: leave it as it came */
    qsort(lines, (size_t)n, sizeof lines[0], line_cmp);
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        memcpy(report + at, lines[i].text, lines[i].len);
        at += lines[i].len;
    }
    report[at] = '\0';
}

/* The user's messages waiting in blocked q's mailbox from src (or any source) that its receive
 * does not match, as "; unmatched: P0 tag 3 (8 bytes), ...". q is blocked: its lists are still. */
static void unmatched(const hr_proc *q, int src, char *out, size_t len)
{
    size_t at = 0;
    int shown = 0, more = 0;
    out[0] = '\0';
    for (int s = src == HR_ANY ? 0 : src; s < (src == HR_ANY ? q->m->p : src + 1); s++)
        for (const hr_msg *msg = q->box.src[s].head; msg != NULL; msg = msg->next) {
            if (msg->tag < 0)
                continue;
            if (shown == 4) {
                more++;
                continue;
            }
            int n = snprintf(out + at, len - at, "%s P%d tag %d (%zu bytes)",
                             shown == 0 ? "; unmatched:" : ",", msg->src, msg->tag, msg->len);
            if (n < 0 || (size_t)n >= len - at)
                return;
            at += (size_t)n;
            shown++;
        }
    if (more > 0)
        snprintf(out + at, len - at, " and %d more", more);
}

static void describe(hr_machine *m, const hr_proc *q)
{
    const hr_wait_desc *w = &q->wait;
    double t = hr__time_to_s(q->clock);
    switch (w->kind) {
    case HR_WAIT_RECV: {
        if (w->tag < HR_ANY_TAG) {     /* a collective's internal tag */
            hr__report(m, "P%d waits in %s for P%d's block at model time %.9g s\n", q->id,
                       w->call, w->peer, t);
            break;
        }
        char from[24], tag[24], waiting[200];
        if (w->peer == HR_ANY)
            snprintf(from, sizeof from, "any processor");
        else
            snprintf(from, sizeof from, "P%d", w->peer);
        if (w->tag == HR_ANY_TAG)
            snprintf(tag, sizeof tag, "any tag");
        else
            snprintf(tag, sizeof tag, "tag %d", w->tag);
        unmatched(q, w->peer, waiting, sizeof waiting);
        hr__report(m, "P%d waits in %s from %s (%s) at model time %.9g s%s\n", q->id, w->call,
                   from, tag, t, waiting);
        break;
    }
    case HR_WAIT_BLOCKS:
        hr__report(m, "P%d waits in %s for %zu more blocks at model time %.9g s\n", q->id,
                   w->call, w->bytes, t);
        break;
    case HR_WAIT_SYNC_SEND:
        hr__report(m, "P%d waits in %s to P%d (tag %d, %zu bytes): P%d has not received it\n",
                   q->id, w->call, w->peer, w->tag, w->bytes, w->peer);
        break;
    case HR_WAIT_REFS:
        hr__report(m, "P%d waits in %s for the others to take its messages\n", q->id, w->call);
        break;
    case HR_WAIT_LENT:
        hr__report(m, "P%d waits in %s for the others to end their views of its blocks\n", q->id,
                   w->call);
        break;
    case HR_WAIT_ROUND:
        hr__report(m, "P%d waits in %s for the other processors to end the round\n", q->id,
                   w->call);
        break;
    case HR_WAIT_BARRIER:
        hr__report(m, "P%d waits in %s for the other processors\n", q->id, w->call);
        break;
    case HR_WAIT_BUFFER:
        hr__report(m, "P%d waits in %s to P%d (%zu bytes): P%d's receive buffer is full\n", q->id,
                   w->call, w->peer, w->bytes, w->peer);
        break;
    }
}

/* The report is built before the abort is published: once it is, a waiter may leave (a spurious
 * futex wake-up suffices) and finish, and would then be named among those that returned. */
static void abort_run(hr_machine *m, int why)
{
    if (why == HR_EDEADLK) {
        int shown = 0, live = 0;
        for (int i = 0; i < m->p; i++) {
            hr_proc *q = &m->procs[i];
            if (atomic_load(&q->state) != HR_PROC_BLOCKED)
                continue;
            live++;
            if (shown < 32) {
                describe(m, q);
                shown++;
            }
        }
        if (live > shown)
            hr__report(m, "... and %d more processors waiting\n", live - shown);
        /* Those that returned from the algorithm: a barrier or a round waits for them forever. */
        int done = 0;
        for (int i = 0; i < m->p; i++)
            if (atomic_load(&m->procs[i].state) == HR_PROC_DONE && done++ < 8)
                hr__report(m, "P%d has returned from the algorithm\n", i);
        if (done > 8)
            hr__report(m, "... and %d more have returned\n", done - 8);
    }
    atomic_store(&m->abort, why);
    for (int i = 0; i < m->p; i++)
        hr__wake(&m->procs[i]);
    hr__futex_wake(&m->rnd_gen, INT32_MAX);   /* round waiters sleep on the round's word */
}

/* Wake every blocked processor whose watch holds (core.h): its wait has ended, though nobody
 * told it, since publishing a clock wakes no one. This comes before any grant: a grant lets a
 * processor act as if nothing could come before its event, and a wait that has ended may lead
 * to something that does (a rendezvous committed at a key below a grantee's message). How many
 * were woken. */
static int wake_watchers(hr_machine *m)
{
    hr_time lo[3] = { HR_TIME_INF, HR_TIME_INF, HR_TIME_INF };
    int lo_id[3] = { -1, -1, -1 };
    for (int i = 0; i < m->p; i++) {
        hr_time c = atomic_load_explicit(&m->procs[i].pub_clock, memory_order_acquire);
        if (c == HR_TIME_INF)
            continue;
        c = hr__tadd(c, m->cost.tau);
        int at = 3;      /* ids come in increasing order: ties stay behind */
        while (at > 0 && c < lo[at - 1])
            at--;
        for (int k = 2; k > at; k--) {
            lo[k] = lo[k - 1];
            lo_id[k] = lo_id[k - 1];
        }
        if (at < 3) {
            lo[at] = c;
            lo_id[at] = i;
        }
    }
    int woken = 0;
    for (int i = 0; i < m->p; i++) {
        hr_proc *q = &m->procs[i];
        if (atomic_load(&q->state) == HR_PROC_BLOCKED && hr__p2p_watch_holds(q, lo, lo_id)) {
            hr__wake(q);
            woken++;
        }
    }
    return woken;
}

/* Is q waiting for a message to be routed whose key (ev, ...) is above the floor (fl, fl_id,
 * fl_seq) of an uncommitted rendezvous? */
static int floor_below(const hr_proc *q, hr_time ev, hr_time fl, int fl_id, uint64_t fl_seq)
{
    int src = atomic_load(&q->route_src);
    if (src < 0 || fl != ev)
        return src >= 0 && fl < ev;
    return fl_id != src ? fl_id < src : fl_seq < atomic_load(&q->route_seq);
}

/* Runs with every live processor settled in a wait (see the file comment). The scan reads one
 * processor at a time, so it is a true snapshot only if nobody was woken while it ran: a woken
 * processor could send, wake one already scanned, and block again before the scan reaches it.
 * Every wake bumps m->wakes; an unchanged count after the scan proves the snapshot. */
static void resolve(hr_machine *m)
{
    hr__mutex_lock(&m->resolve_lock);
    uint64_t wakes = atomic_load(&m->wakes);
    int live = atomic_load(&m->live);
    /* A resolver called late may find that everyone has since been woken and finished. */
    if (live == 0 || atomic_load(&m->abort) != 0 || atomic_load(&m->blocked) != live)
        goto out;
    /* The least event, ties by processor id; but a wait for routing that an uncommitted
     * rendezvous may precede comes last: its receiver's wait, granted first, may commit it. */
    hr_time fl;
    int fl_id;
    uint64_t fl_seq = 0;
    int floors = m->transit != NULL && hr__transit_floor(m, &fl, &fl_id, &fl_seq);
    hr_proc *best = NULL, *held = NULL;
    hr_time best_ev = HR_TIME_INF, held_ev = HR_TIME_INF;
    int seen = 0;
    for (int i = 0; i < m->p; i++) {
        hr_proc *q = &m->procs[i];
        uint32_t st = atomic_load(&q->state);
        if (st == HR_PROC_DONE)
            continue;
        if (st != HR_PROC_BLOCKED)
            goto out;   /* woken but not yet running: it will block or finish and resolve again */
        seen++;
        hr_time ev = atomic_load(&q->event);
        if (floors && ev != HR_TIME_INF && floor_below(q, ev, fl, fl_id, fl_seq)) {
            if (ev < held_ev) {
                held_ev = ev;
                held = q;
            }
        } else if (ev < best_ev) {
            best_ev = ev;
            best = q;
        }
    }
    /* Procs woken before the scan began may have run and finished during it: the snapshot holds
     * only if the procs seen blocked are all the live ones and nobody was woken since. */
    if (seen == 0 || atomic_load(&m->wakes) != wakes || atomic_load(&m->live) != seen ||
        atomic_load(&m->blocked) != seen)
        goto out;
    if (atomic_load(&m->failed)) {
        /* A failed processor may be what the others wait for (its messages never sent): the
         * run has failed, so nothing is granted; every waiter leaves. */
        abort_run(m, HR_EFAIL);
    } else if (wake_watchers(m)) {
        /* woken to find their clocks passed: no grant while any wait ends by itself */
    } else if (best != NULL) {
        atomic_store(&best->grant_ev, best_ev);
        atomic_store(&best->granted, HR__GRANT);
        hr__wake(best);
    } else if (held != NULL) {
        atomic_store(&held->grant_ev, held_ev);
        atomic_store(&held->granted, HR__GRANT_PAST_FLOORS);
        hr__wake(held);
    } else {
        abort_run(m, HR_EDEADLK);
    }
out:
    hr__mutex_unlock(&m->resolve_lock);
}

/* p, marked BLOCKED, counts itself settled (running the resolver if it is the last), sleeps
 * while *word == val, and uncounts itself; it leaves the run if the run was aborted. */
static void settle(hr_proc *p, _Atomic uint32_t *word, uint32_t val)
{
    hr_machine *m = p->m;
    int settled = atomic_fetch_add(&m->blocked, 1) + 1;
    if (settled == atomic_load(&m->live))
        resolve(m);
    while (atomic_load(word) == val && atomic_load(&m->abort) == 0)
        hr__futex_wait(word, val);
    atomic_fetch_sub(&m->blocked, 1);
    if (atomic_load(&m->abort) != 0)
        hr__proc_exit(p);
}

/* Before a ready function runs: it says anew what its wait watches or routes (core.h). */
static void no_watch(hr_proc *p)
{
    atomic_store(&p->watch_a, HR_TIME_INF);
    atomic_store(&p->route_src, -1);
}

void hr__wait(hr_proc *p, const hr_wait_desc *d, hr_ready_fn ready, void *ctx)
{
    p->wait = *d;
    p->recv_idle = 0;
    p->await_need = 0;
    atomic_store(&p->wake_on, d->kind != HR_WAIT_RECV ? HR__WAKE_NEVER
                              : d->wake_any          ? HR_ANY
                                                     : d->peer);
    for (;;) {
        no_watch(p);
        if (ready(p, ctx))
            break;
        atomic_exchange(&p->state, HR_PROC_BLOCKED);   /* an RMW: see read_state */
        no_watch(p);
        if (ready(p, ctx)) {
            /* Satisfied after all; whoever else flipped us to RUNNING meanwhile did no harm. */
            uint32_t expect = HR_PROC_BLOCKED;
            atomic_compare_exchange_strong(&p->state, &expect, HR_PROC_RUNNING);
            break;
        }
        /* A message routed to p since it looked may be the one it waits for: look again
         * rather than sleep unparked, holding routing back with its clock. */
        if (p->recv_idle && p->m->transit != NULL && hr__transit_park(p) == HR__PARK_LOOK) {
            uint32_t expect = HR_PROC_BLOCKED;
            atomic_compare_exchange_strong(&p->state, &expect, HR_PROC_RUNNING);
            continue;
        }
        settle(p, &p->state, HR_PROC_BLOCKED);
        atomic_store(&p->parked, 0);
    }
    /* A grant is for the wait it was given in: one that ended without using it must not
     * decide a later wait. A collective's await leaves it to the takes that follow, whose
     * routing it forces only up to the granted event (p2p.c, blocks_ready, unrouted_wait). */
    if (d->kind != HR_WAIT_BLOCKS)
        atomic_store(&p->granted, 0);
}

void hr__wait_word(hr_proc *p, const hr_wait_desc *d, _Atomic uint32_t *word, uint32_t val)
{
    p->wait = *d;
    atomic_store(&p->wake_on, HR__WAKE_NEVER);
    atomic_store(&p->event, HR_TIME_INF);
    atomic_store(&p->state, HR_PROC_BLOCKED);
    /* The releaser bumps the word before it marks the waiters running: either it sees us blocked
     * here, or we see the new word now. */
    if (atomic_load(word) != val) {
        uint32_t expect = HR_PROC_BLOCKED;
        atomic_compare_exchange_strong(&p->state, &expect, HR_PROC_RUNNING);
        return;
    }
    settle(p, word, val);
}

void hr__release_word(hr_machine *m, hr_proc *self, _Atomic uint32_t *word)
{
    atomic_fetch_add(word, 1);
    uint64_t woken = 0;
    for (int i = 0; i < m->p; i++) {
        hr_proc *q = &m->procs[i];
        uint32_t expect = HR_PROC_BLOCKED;
        /* seq_cst, as the waiter's store of BLOCKED and load of the word are: of four seq_cst
         * accesses in a store-buffering pattern, one load sees the other side's store. */
        if (q != self && atomic_load(&q->state) == HR_PROC_BLOCKED &&
            atomic_compare_exchange_strong(&q->state, &expect, HR_PROC_RUNNING))
            woken++;
    }
    if (woken > 0)
        atomic_fetch_add(&m->wakes, woken);
    hr__futex_wake(word, INT32_MAX);
}

void hr__proc_exit(hr_proc *p)
{
    longjmp(p->exit, 1);
}

static void finish(hr_proc *p)
{
    hr_machine *m = p->m;
    atomic_store(&p->pub_clock, HR_TIME_INF);   /* sends nothing more: no bound on ANY receives */
    atomic_store(&p->state, HR_PROC_DONE);
    int live = atomic_fetch_sub(&m->live, 1) - 1;
    if (live > 0 && atomic_load(&m->blocked) == live)
        resolve(m);
    if (atomic_fetch_add(&m->ndone, 1) + 1 == (uint32_t)m->p)
        hr__futex_wake(&m->ndone, 1);
}

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

static void *proc_main(void *arg)
{
    hr_proc *p = arg;
    hr_machine *m = p->m;
    uint32_t seen = 0;
    for (;;) {
        uint32_t g;
        while ((g = atomic_load(&m->gen)) == seen)
            hr__futex_wait(&m->gen, seen);
        seen = g;
        if (atomic_load(&m->quit))
            return NULL;
        run_body(p);
        finish(p);
    }
}

/* The reason a config is refused, when it has to be formatted (a topology's): per thread, valid
 * until that thread's next create or check. */
static _Thread_local char why_buf[256];

/* Check cfg into m: discipline, cost, and the topology instance m->net (the caller destroys it,
 * also on failure). NULL, or the reason. */
static const char *check_config(const hr_machine_config *cfg, hr_machine *m)
{
    const char *why = NULL;
    m->net = NULL;
    if (cfg->procs < 0 || cfg->procs > HR_MAX_PROCS)
        return "procs must be between 1 and 4096 (or 0: the topology's shape decides)";
    m->disc = hr__discipline_find(cfg->discipline ? cfg->discipline : "async");
    if (m->disc == NULL)
        return "unknown discipline";
    if (hr__cost_convert(&cfg->cost, &m->cost, &why) != HR_OK)
        return why;
    if (cfg->buffer != 0 && m->disc->engine != HR_DISC_P2P_ASYNC)
        return "a receive buffer capacity applies to discipline async only";
    if (hr__topo_make(cfg->topology ? cfg->topology : "complete", cfg->procs, &m->net, why_buf,
                      sizeof why_buf) != 0)
        return why_buf;
    if (hr__link_model_at(cfg->switching) == NULL)
        return "switching must be cut-through (0) or store-and-forward (1)";
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

static int jitter_wanted(const hr_machine_config *cfg)
{
    if (cfg->jitter >= 0)
        return cfg->jitter;
    const char *e = getenv("HREMU_JITTER");
    return e != NULL && *e != '\0' && strcmp(e, "0") != 0;
}

/* Two passes: a mailbox may hold messages that live in another processor's memory. */
static void reset_procs(hr_machine *m, int n)
{
    if (m->transit != NULL)
        hr__transit_reset(m->transit);
    hr__ctx_reset(m);
    for (int i = 0; i < n; i++) {
        hr__p2p_reset(&m->procs[i]);
        if (m->procs[i].rbuf != NULL)
            hr__rbuf_reset(m->procs[i].rbuf);
    }
    double wall0 = hr__wall_s();
    for (int i = 0; i < n; i++) {
        hr__proc_reset(&m->procs[i]);
        hr__round_reset(&m->procs[i]);
        hr__ev_reset(&m->procs[i].ev, wall0);
    }
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
    free(m->bar_time);
    free(m->procs);
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
    if (hr__net_shared(m->net) && hr__transit_create(m, &m->transit) != HR_OK)
        goto fail_cfg;
    m->cfg = *cfg;
    m->cfg.discipline = m->disc->name;
    m->cfg.procs = m->p;
    m->cfg.topology = m->net->shape;
    m->cfg.jitter = jitter_wanted(cfg);
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
        p->m = m;
        if (hr__mbox_init(&p->box, m->p) != HR_OK)
            goto fail_boxes;
        if (cfg->buffer != 0 && hr__rbuf_create(&p->rbuf, cfg->buffer) != HR_OK) {
            hr__mbox_destroy(&p->box);
            goto fail_boxes;
        }
    }
    if ((m->threads = malloc(sizeof(pthread_t) * (size_t)m->p)) == NULL)
        goto fail_boxes;
    if ((m->bar_time = malloc(2 * sizeof(hr_time) * (size_t)m->p)) == NULL ||
        hr__round_init(m) != HR_OK) {
        free(m->threads);
        goto fail_boxes;
    }
    pthread_attr_t attr;
    HR_ASSERT(pthread_attr_init(&attr) == 0);
    HR_ASSERT(pthread_attr_setstacksize(&attr, PROC_STACK) == 0);
    for (; m->started < m->p; m->started++)
        if (pthread_create(&m->threads[m->started], &attr, proc_main, &m->procs[m->started]) != 0)
            break;
    HR_ASSERT(pthread_attr_destroy(&attr) == 0);
    if (m->started < m->p) {
        err = HR_ESYS;
        if (why != NULL)
            *why = "cannot create the processor threads";
        hr_machine_destroy(m);
        return err;
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
    atomic_store(&m->quit, 1);
    atomic_fetch_add(&m->gen, 1);
    hr__futex_wake(&m->gen, INT32_MAX);
    for (int i = 0; i < m->started; i++)
        HR_ASSERT(pthread_join(m->threads[i], NULL) == 0);
    free(m->threads);
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
    if (colls > 0 && (m->disc->engine == HR_DISC_P2P_SYNC || m->cfg.buffer != 0))
        res->notes |= HR_NOTE_COLL_ASYNC;
    res->model_time_s = end == HR_TIME_INF ? INFINITY : hr__time_to_s(end);
    /* An algorithm that sends along links only is counted as its papers count it: in steps. */
    if (m->neighbour_only)
        res->rounds = res->steps;
}

int hr_machine_run(hr_machine *m, void (*fn)(hr_proc *, void *), void *arg, hr_run_result *res)
{
    memset(res, 0, sizeof *res);
    reset_procs(m, m->p);
    hr__results_reset(m);
    m->fn = fn;
    m->arg = arg;
    m->report_len = 0;
    m->report_dropped = 0;
    m->nrgroups = 0;
    m->report[0] = '\0';
    atomic_store(&m->abort, 0);
    atomic_store(&m->failed, 0);
    atomic_store(&m->misused, 0);
    atomic_store(&m->range, 0);
    atomic_store(&m->bar_broken, 0);
    atomic_store(&m->live, m->p);
    atomic_store(&m->blocked, 0);
    atomic_store(&m->ndone, 0);
    atomic_store(&m->bar_arrived, 0);
    atomic_store(&m->rnd_arrived, 0);
    m->rnd_count = 0;

    double t0 = hr__wall_s();
    atomic_fetch_add(&m->gen, 1);
    hr__futex_wake(&m->gen, INT32_MAX);
    uint32_t n;
    while ((n = atomic_load(&m->ndone)) != (uint32_t)m->p)
        hr__futex_wait(&m->ndone, n);
    res->wall_s = hr__wall_s() - t0;

    collect(m, res);
    hr__results_collect(m);
    res->status = atomic_load(&m->range)     ? HR_ERANGE
                : atomic_load(&m->misused) ? HR_EMISUSE
                : atomic_load(&m->failed)  ? HR_EFAIL
                                           : atomic_load(&m->abort);
    if (res->status == HR_OK && m->disc->engine != HR_DISC_ROUND)
        hr__p2p_unreceived(m, res);
    report_end(m);
    if (res->status == HR_EFAIL || res->status == HR_EMISUSE)
        order_report(m->report);
    report_dropped(m);
    memcpy(res->report, m->report, sizeof res->report);
    return HR_OK;
}
