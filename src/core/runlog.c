/* runlog.c: a run's report, the lines its processors and the resolver write: failures and
 * misuses as they happen, the wait-for lines of a deadlock, runs of one text from many
 * processors grouped into one line. Its lines read the same on every run (docs/model.md,
 * "Deadlock"). */
#include "core/core.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sync.h"

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
            snprintf(line, sizeof line, "P%d, P%d, P%d and %d more processor%s: %s", g->ids[0],
                     g->ids[1], g->ids[2], g->count - 3, g->count == 4 ? "" : "s", g->text);
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
    int shown = 0, more = 0, n;
    out[0] = '\0';
    hr__mbox_src *pending = hr__mbox_sorted(&q->box, &n);
    for (int i = 0; i < n; i++) {
        if (src != HR_ANY && pending[i].src != src)
            continue;
        for (const hr_msg *msg = pending[i].head; msg != NULL; msg = msg->next) {
            if (msg->tag < 0)
                continue;
            if (shown == 4) {
                more++;
                continue;
            }
            int w = snprintf(out + at, len - at, "%s P%d tag %d (%zu bytes)",
                             shown == 0 ? "; unmatched:" : ",", msg->src, msg->tag, msg->len);
            if (w < 0 || (size_t)w >= len - at) {
                free(pending);
                return;
            }
            at += (size_t)w;
            shown++;
        }
    }
    free(pending);
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

/* Who waits for whom: every blocked processor's wait (the first 32), and those that returned. */
void hr__runlog_deadlock(hr_machine *m)
{
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
        hr__report(m, "... and %d more processor%s waiting\n", live - shown,
                   live - shown == 1 ? "" : "s");
    /* Those that returned from the algorithm: a barrier or a round waits for them forever. */
    int done = 0;
    for (int i = 0; i < m->p; i++)
        if (atomic_load(&m->procs[i].state) == HR_PROC_DONE && done++ < 8)
            hr__report(m, "P%d has returned from the algorithm\n", i);
    if (done > 8)
        hr__report(m, "... and %d more have returned\n", done - 8);
}

void hr__runlog_begin(hr_machine *m)
{
    m->report_len = 0;
    m->report_dropped = 0;
    m->nrgroups = 0;
    m->report[0] = '\0';
}

void hr__runlog_finish(hr_machine *m, hr_run_result *res)
{
    report_end(m);
    if (res->status == HR_EFAIL || res->status == HR_EMISUSE)
        order_report(m->report);
    report_dropped(m);
    memcpy(res->report, m->report, sizeof res->report);
}
