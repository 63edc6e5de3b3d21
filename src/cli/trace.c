/* trace.c: the --trace formats (trace.h). The events come merged in the machine's canonical
 * order, so the file is the same for every thread schedule. A row is read twice: once to learn
 * each message's ends (who sends it to whom, whether its receive was recorded) and each round's
 * span, then to write it. */
#include "cli/trace.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

#include "cli/jsonstr.h"
#include "cli/report.h"
#include "net/discipline.h"

static const char *const kinds[] = { "", "send", "recv", "compute", "round", "region",
                                      "collective", "stall", "link" };

hr_trace_format hr__trace_format(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".json") == 0 ? HR_TRACE_JSON : HR_TRACE_CSV;
}

void hr__trace_begin(hr_trace *t, FILE *out, hr_trace_format format, size_t limit, int sample,
                     int wall)
{
    *t = (hr_trace){ .out = out, .format = format, .limit = limit, .sample = sample,
                     .wall = wall };
    if (format == HR_TRACE_CSV)
        fprintf(out, "row,algorithm,event,proc,peer,msg,t0_s,t1_s,bytes,tag,priority,queue,round,"
                "fate,name,link%s\n", wall ? ",wall_s" : "");
    else
        fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", out);
}

/* ---- what the first pass learns --------------------------------------------------------------
 * Each message once, sorted by id: its sender and receiver, whether its sending and its receipt
 * were recorded (a send or a round message's first fate; a receive or a round delivery), the
 * round it was sent in, and its arrow's id, unique in the file (hr_trace.flows): Chrome trace
 * ids are global, so a message id, which every row reuses, cannot be one. */
typedef struct msg_info {
    uint64_t msg;
    int      src, dst;
    uint64_t round;      /* a round message: the round it was sent in */
    uint64_t got;        /* and the round it was delivered in (0: none) */
    double   s0, s1;     /* a sent message: its send's slice */
    double   r0, r1;     /* a received message: its receive's slice */
    unsigned sent : 1, received : 1;
    uint64_t flow;       /* its arrow's id, 0 if it has none */
} msg_info;

/* A round's span: from its start (its events' t0) to the first thing that happens after it (a
 * processor's next work, or the next round: every clock leaves a round at the same time), or for
 * the last round the end of the run. */
typedef struct round_span {
    double start, end;   /* -1 until known */
} round_span;

typedef struct row_info {
    msg_info   *msgs;
    size_t      n, cap;
    round_span *rounds;
    size_t      nrounds;   /* rounds[r - 1] is round r */
    size_t      open;      /* rounds before this one have their end */
    int         failed;
} row_info;

static void add_msg(row_info *r, uint64_t msg, int src, int dst, uint64_t round, int sent,
                    int received, double t0, double t1)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        msg_info *v = realloc(r->msgs, cap * sizeof *v);
        if (v == NULL) {
            r->failed = 1;
            return;
        }
        r->msgs = v;
        r->cap = cap;
    }
    r->msgs[r->n++] = (msg_info){ .msg = msg, .src = src, .dst = dst, .round = round,
                                  .s0 = t0, .s1 = t1, .r0 = t0, .r1 = t1,
                                  .sent = sent != 0, .received = received != 0 };
}

static void learn(void *arg, const hr_event *e)
{
    row_info *r = arg;
    if (r->failed || e->kind == HR_EV_LINK)   /* a link's span lies inside its round */
        return;
    for (; r->open < r->nrounds; r->open++) {
        round_span *s = &r->rounds[r->open];
        if (s->start >= 0 && !(s->start < e->t0))
            break;
        if (s->start >= 0)
            s->end = e->t0;
    }
    if (e->kind == HR_EV_SEND)
        add_msg(r, e->msg, e->proc, e->peer, 0, 1, 0, e->t0, e->t1);
    else if (e->kind == HR_EV_RECV)
        add_msg(r, e->msg, e->peer, e->proc, 0, 0, 1, e->t0, e->t1);
    if (e->kind != HR_EV_ROUND)
        return;
    /* the slices are the rounds' spans, known after the pass */
    add_msg(r, e->msg, e->proc, e->peer, e->round, 1, strcmp(e->fate, "delivered") == 0, 0, 0);
    if (e->round > r->nrounds) {
        round_span *v = realloc(r->rounds, (size_t)e->round * sizeof *v);
        if (v == NULL) {
            r->failed = 1;
            return;
        }
        for (size_t i = r->nrounds; i < e->round; i++)
            v[i] = (round_span){ -1, -1 };
        r->rounds = v;
        r->nrounds = (size_t)e->round;
    }
    if (r->rounds[e->round - 1].start < 0)
        r->rounds[e->round - 1].start = e->t0;
}

static int by_msg(const void *a, const void *b)
{
    const msg_info *x = a, *y = b;
    if (x->msg != y->msg)
        return x->msg < y->msg ? -1 : 1;
    return x->round < y->round ? -1 : x->round > y->round;
}

static const msg_info *find_msg(const row_info *r, uint64_t msg)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->msgs[mid].msg < msg)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->n && r->msgs[lo].msg == msg ? &r->msgs[lo] : NULL;
}

/* Whether processor i is in the sample. */
static int kept(const hr_trace *t, int i)
{
    return i >= 0 && i % t->sample == 0;
}

/* Read m's events once: every message merged into one entry (its first round kept), arrows
 * numbered from t->flows for the messages whose both ends are recorded and kept, every round's
 * span. HR_OK or HR_ENOMEM. */
static int first_pass(hr_trace *t, const hr_machine *m, row_info *r)
{
    int err = hr_machine_event_each(m, learn, r);
    if (err != HR_OK || r->failed)
        return HR_ENOMEM;
    double end = 0;
    for (int i = 0; i < hr_machine_procs(m); i++) {
        hr_proc_result pr;
        if (hr_machine_proc_result(m, i, &pr) == HR_OK && pr.end_s > end)
            end = pr.end_s;
    }
    for (size_t i = 0; i < r->nrounds; i++)
        if (r->rounds[i].start >= 0 && r->rounds[i].end < 0)
            r->rounds[i].end = end > r->rounds[i].start ? end : r->rounds[i].start;
    qsort(r->msgs, r->n, sizeof *r->msgs, by_msg);
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (k > 0 && r->msgs[k - 1].msg == r->msgs[i].msg) {
            msg_info *a = &r->msgs[k - 1];
            if (r->msgs[i].sent && !a->sent) {
                a->s0 = r->msgs[i].s0;
                a->s1 = r->msgs[i].s1;
            }
            if (r->msgs[i].received) {   /* a round message: its last entry is its delivery */
                a->r0 = r->msgs[i].r0;
                a->r1 = r->msgs[i].r1;
            }
            if (r->msgs[i].received)
                a->got = r->msgs[i].round;
            a->sent |= r->msgs[i].sent;
            a->received |= r->msgs[i].received;
            a->dst = a->dst >= 0 ? a->dst : r->msgs[i].dst;
            continue;
        }
        r->msgs[k++] = r->msgs[i];
    }
    r->n = k;
    for (size_t i = 0; i < r->n; i++) {
        msg_info *a = &r->msgs[i];
        if (a->round > 0) {   /* a round message's slices: the rounds it was sent and taken in */
            a->got = a->received && a->got == 0 ? a->round : a->got;
            a->s0 = r->rounds[a->round - 1].start;
            a->s1 = r->rounds[a->round - 1].end;
            if (a->got > 0) {
                a->r0 = r->rounds[a->got - 1].start;
                a->r1 = r->rounds[a->got - 1].end;
            }
        }
        if (a->sent && a->received && kept(t, a->src) && kept(t, a->dst))
            a->flow = ++t->flows;
    }
    return HR_OK;
}

/* ---- CSV -------------------------------------------------------------------------------------- */

/* What a round discipline uses: priorities (priority), queues (fifo, priority). Under fifo a
 * message's priority is only its place in the queue's order, which the queue column shows. */
static int uses_priority(const char *discipline)
{
    return (hr__discipline_traits(discipline) & HR_DISC_PRIORITIES) != 0;
}

static int uses_queue(const char *discipline)
{
    return (hr__discipline_traits(discipline) & HR_DISC_QUEUES) != 0;
}

typedef struct sink_arg {
    hr_trace       *t;
    const char     *alg;
    const char     *discipline;
    int             first;
    int             procs;      /* the row's p: link tracks come after the processors' */
    const row_info *info;
} sink_arg;

static void csv_event(void *arg, const hr_event *e)
{
    sink_arg *a = arg;
    if (!kept(a->t, e->proc))
        return;
    FILE *out = a->t->out;
    char t0[40], t1[40];
    hr__report_double(t0, sizeof t0, e->t0);
    hr__report_double(t1, sizeof t1, e->t1);
    fprintf(out, "%zu,", a->t->rows);
    hr__report_csv_field(out, a->alg);
    fprintf(out, ",%s,%d,", kinds[e->kind], e->proc);
    if (e->peer >= 0)
        fprintf(out, "%d", e->peer);
    fprintf(out, ",%" PRIu64 ",%s,%s,%" PRIu64 ",%d,", e->msg, t0, t1, e->bytes, e->tag);
    if (e->kind == HR_EV_ROUND) {
        if (uses_priority(a->discipline))
            fprintf(out, "%" PRIu64, e->prio);
        fputc(',', out);
        if (uses_queue(a->discipline))
            fprintf(out, "%d", e->queue);
        fprintf(out, ",%" PRIu64 ",%s,", e->round, e->fate);
    } else {
        fputs(",,,,", out);
    }
    if (e->name != NULL)
        hr__report_csv_field(out, e->name);
    if (e->kind == HR_EV_LINK)
        fprintf(out, ",%d", e->link);
    else
        fputc(',', out);
    if (a->t->wall)
        fprintf(out, ",%.9f", e->wall_s);
    fputc('\n', out);
    a->t->events++;
}

/* ---- Chrome trace JSON -------------------------------------------------------------------------
 * ts and dur in microseconds of model time. A processor has two tracks: "P3", what its program is
 * in (regions, collectives, and inside them receives and computing; under the round disciplines
 * the messages it took), and "P3 sends", its injection port (sends run in the background while
 * the program goes on, and a port sends one message at a time; under the round disciplines the
 * round messages it sent, from the round it sent one in to the round that settled it). Slices are
 * complete events ("X"); a message's sending and its receipt are joined by a flow ("s" in the
 * sending slice, "f" in the receiving one, both in the middle of their slice, where a viewer
 * binds them whatever slices touch it), whose id is unique in the file. */
static int track(const hr_event *e)
{
    return 2 * e->proc + (e->kind == HR_EV_SEND);
}

/* A model time in microseconds, exactly: times are whole picoseconds, so "204.8", not the
 * "204.79999999999998" that seconds times 1e6 gives. */
static void micros(char *buf, size_t len, double s)
{
    double ps = nearbyint(s * 1e12);
    if (!(fabs(ps) < 9e18)) {   /* past the clock's range: no exact text needed */
        hr__report_double(buf, len, s * 1e6);
        return;
    }
    long long v = (long long)ps;
    const char *sign = v < 0 ? "-" : "";
    unsigned long long u = (unsigned long long)(v < 0 ? -v : v);
    int n = snprintf(buf, len, "%s%llu.%06llu", sign, u / 1000000, u % 1000000);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
}

static void span(char *ts, char *dur, size_t len, double t0, double t1)
{
    micros(ts, len, t0);
    micros(dur, len, nearbyint(t1 * 1e12) / 1e12 - nearbyint(t0 * 1e12) / 1e12);
}

/* A whole number as JSON: a number up to 2^53, which every reader holds exactly, else a string
 * (JavaScript's numbers would round a larger one). */
static void json_u64(FILE *out, uint64_t v)
{
    fprintf(out, v <= (UINT64_C(1) << 53) ? "%" PRIu64 : "\"%" PRIu64 "\"", v);
}

/* "P3", or "S40" for a switch (node 40 of a fat tree on 32 processors). */
static void node_name(char *buf, size_t len, int node, int procs)
{
    snprintf(buf, len, "%c%d", node < procs ? 'P' : 'S', node);
}

/* Whether link l carries its first message of the row (its track is then named). */
static int link_first(hr_trace *t, int l)
{
    if ((size_t)l >= t->nseen) {
        size_t n = t->nseen ? t->nseen : 64;
        while (n <= (size_t)l)
            n *= 2;
        unsigned char *v = realloc(t->seen, n);
        if (v == NULL)
            return 0;                /* unnamed, the track still shows */
        memset(v + t->nseen, 0, n - t->nseen);
        t->seen = v;
        t->nseen = n;
    }
    if (t->seen[l])
        return 0;
    t->seen[l] = 1;
    return 1;
}

/* The flow event of message mi ("s" or "f") on track tid. Each end lies inside its slice,
 * [s0, s1] the sending and [r0, r1] the receipt, away from the slices' edges where a slice before
 * or after could take it, and the start no later than the finish: a viewer reads the events in
 * time order and drops a finish that comes before its start. */
static void flow(FILE *out, const char *ph, const msg_info *mi, size_t pid, int tid)
{
    double s = (mi->s0 + (mi->s1 < mi->r1 ? mi->s1 : mi->r1)) / 2;
    double f = ((mi->r0 > s ? mi->r0 : s) + mi->r1) / 2;
    char at[40];
    micros(at, sizeof at, ph[0] == 's' ? s : f);
    fprintf(out, ",\n{\"name\":\"message\",\"cat\":\"flow\",\"ph\":\"%s\",%s\"id\":%" PRIu64
            ",\"ts\":%s,\"pid\":%zu,\"tid\":%d}", ph, ph[0] == 'f' ? "\"bp\":\"e\"," : "",
            mi->flow, at, pid, tid);
}

/* A round message's fate in round e->round: a slice on its sender's port track for the round,
 * "to P2: queued"; a delivery also a slice on the receiver's program track, "from P1" (with the
 * round it was sent in, if it waited in a queue), and the arrow from the round it was sent in. */
static void json_round(sink_arg *a, const hr_event *e, const char *sep)
{
    FILE *out = a->t->out;
    size_t pid = a->t->rows;
    const round_span *rs = &a->info->rounds[e->round - 1];
    const msg_info *mi = find_msg(a->info, e->msg);
    char ts[40], dur[40];
    span(ts, dur, sizeof ts, rs->start, rs->end);
    int sent_now = mi == NULL || mi->round == e->round;
    const char *fate = strcmp(e->fate, "lost") == 0 &&
                               (hr__discipline_traits(a->discipline) & HR_DISC_DESTROYS)
                           ? "destroyed" : e->fate;
    if (kept(a->t, e->proc)) {
        fprintf(out, "%s{\"name\":\"to P%d: %s%s\",\"cat\":\"round\",\"ph\":\"X\",\"ts\":%s,"
                "\"dur\":%s,\"pid\":%zu,\"tid\":%d,\"args\":{\"round\":%" PRIu64 ",\"to\":%d,"
                "\"fate\":\"%s\",\"msg\":%" PRIu64 ",\"bytes\":%" PRIu64, sep, e->peer, fate,
                sent_now ? "" : " from the queue", ts, dur, pid, 2 * e->proc + 1, e->round,
                e->peer, fate, e->msg, e->bytes);
        if (!sent_now)
            fprintf(out, ",\"sent in round\":%" PRIu64, mi->round);
        if (uses_queue(a->discipline))
            fprintf(out, ",\"receiver's queue\":%d", e->queue);
        if (uses_priority(a->discipline)) {
            fputs(",\"priority\":", out);
            json_u64(out, e->prio);
        }
        fputs("}}", out);
        if (mi != NULL && mi->flow != 0 && sent_now)
            flow(out, "s", mi, pid, 2 * e->proc + 1);
        sep = ",\n";
        a->t->events++;
    }
    if (strcmp(e->fate, "delivered") != 0 || !kept(a->t, e->peer))
        return;
    fprintf(out, "%s{\"name\":\"from P%d%s\",\"cat\":\"round\",\"ph\":\"X\",\"ts\":%s,"
            "\"dur\":%s,\"pid\":%zu,\"tid\":%d,\"args\":{\"round\":%" PRIu64 ",\"from\":%d,"
            "\"msg\":%" PRIu64 ",\"bytes\":%" PRIu64, sep, e->proc,
            sent_now ? "" : " from the queue", ts, dur, pid, 2 * e->peer, e->round, e->proc,
            e->msg, e->bytes);
    if (!sent_now)
        fprintf(out, ",\"sent in round\":%" PRIu64, mi->round);
    fputs("}}", out);
    if (mi != NULL && mi->flow != 0)
        flow(out, "f", mi, pid, 2 * e->peer);
}

static void json_event(void *arg, const hr_event *e)
{
    sink_arg *a = arg;
    if (e->kind != HR_EV_LINK && e->kind != HR_EV_ROUND && !kept(a->t, e->proc))
        return;
    FILE *out = a->t->out;
    size_t pid = a->t->rows;
    char ts[40], dur[40];
    span(ts, dur, sizeof ts, e->t0, e->t1);
    const char *sep = a->first ? "" : ",\n";
    if (e->kind == HR_EV_ROUND) {
        if (kept(a->t, e->proc) || (kept(a->t, e->peer) && strcmp(e->fate, "delivered") == 0)) {
            json_round(a, e, sep);
            a->first = 0;
        }
        return;
    }
    a->first = 0;
    if (e->kind == HR_EV_LINK) {
        /* A track a link that carried anything, named when it first does; nodes from p on are
         * switches. A slice is named by the message it carries, "P1 -> P5". */
        int tid = 2 * a->procs + e->link;
        char from[16], to[16];
        if (link_first(a->t, e->link)) {
            node_name(from, sizeof from, e->proc, a->procs);
            node_name(to, sizeof to, e->peer, a->procs);
            fprintf(out, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%zu,\"tid\":%d,"
                    "\"args\":{\"name\":\"link %d: %s>%s\"}}", sep, pid, tid, e->link, from, to);
            sep = ",\n";
        }
        const msg_info *mi = find_msg(a->info, e->msg);
        char name[64];
        if (mi != NULL)
            snprintf(name, sizeof name, "P%d -> P%d", mi->src, mi->dst);
        else   /* a superstep's put or get, whose data moves by the superstep's rules */
            snprintf(name, sizeof name, "put or get");
        fprintf(out, "%s{\"name\":\"%s\",\"cat\":\"link\",\"ph\":\"X\",\"ts\":%s,\"dur\":%s,"
                "\"pid\":%zu,\"tid\":%d,\"args\":{\"msg\":%" PRIu64 ",\"bytes\":%" PRIu64 "}}",
                sep, name, ts, dur, pid, tid, e->msg, e->bytes);
        a->t->events++;
        return;
    }
    if (e->kind == HR_EV_STALL) {
        fprintf(out, "%s{\"name\":\"stall to P%d\",\"cat\":\"stall\",\"ph\":\"X\",\"ts\":%s,"
                "\"dur\":%s,\"pid\":%zu,\"tid\":%d,\"args\":{\"msg\":%" PRIu64 ",\"bytes\":%"
                PRIu64 "}}", sep, e->peer, ts, dur, pid, track(e), e->msg, e->bytes);
        a->t->events++;
        return;
    }
    if (e->kind == HR_EV_COMPUTE || e->kind == HR_EV_REGION || e->kind == HR_EV_COLL) {
        fprintf(out, "%s{\"name\":", sep);
        hr__json_string(out, e->kind == HR_EV_COMPUTE ? "compute" : e->name);
        fprintf(out, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%s,\"dur\":%s,\"pid\":%zu,"
                "\"tid\":%d}", kinds[e->kind], ts, dur, pid, track(e));
        a->t->events++;
        return;
    }
    int send = e->kind == HR_EV_SEND;
    fprintf(out, "%s{\"name\":\"%s %s P%d\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%s,\"dur\":%s,"
            "\"pid\":%zu,\"tid\":%d,\"args\":{\"msg\":%" PRIu64 ",\"bytes\":%" PRIu64
            ",\"tag\":%d}}", sep, kinds[e->kind], send ? "to" : "from", e->peer, kinds[e->kind],
            ts, dur, pid, track(e), e->msg, e->bytes, e->tag);
    a->t->events++;
    const msg_info *mi = find_msg(a->info, e->msg);
    if (mi != NULL && mi->flow != 0)
        flow(out, send ? "s" : "f", mi, pid, track(e));
}

/* --trace-wall in JSON: a second process a row, "row 3 on this computer", on which each event of
 * a processor is an instant at the wall time it was recorded (a receive when it completed), on
 * the processor's track: how the threads really went, beside the model's timeline. */
enum { WALL_PID = 1000000 };

static void json_wall(void *arg, const hr_event *e)
{
    sink_arg *a = arg;
    if (e->kind == HR_EV_LINK || e->kind == HR_EV_ROUND || !kept(a->t, e->proc))
        return;
    char ts[40];
    micros(ts, sizeof ts, e->wall_s);
    fprintf(a->t->out, ",\n{\"name\":\"%s\",\"cat\":\"wall\",\"ph\":\"i\",\"s\":\"t\","
            "\"ts\":%s,\"pid\":%zu,\"tid\":%d}", kinds[e->kind], ts, WALL_PID + a->t->rows,
            2 * e->proc);
}

/* The process's name, "row 3: WHAT" (what escaped). */
static void process_name(hr_trace *t, const char *sep, size_t pid, const char *label,
                         const char *what)
{
    fprintf(t->out, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%zu,\"args\":{\"name\":",
            sep, pid);
    size_t n = strlen(label) + strlen(what) + 1;
    char *s = malloc(n);
    if (s != NULL) {
        snprintf(s, n, "%s%s", label, what);
        hr__json_string(t->out, s);
    } else {
        hr__json_string(t->out, label);
    }
    free(s);
    fputs("}}", t->out);
}

int hr__trace_row(hr_trace *t, const hr_machine *m, const char *alg, const char *what,
                  const char *discipline)
{
    size_t dropped = 0;
    hr_machine_event_count(m, &dropped);
    t->dropped += dropped;
    row_info info = { 0 };
    int err = t->format == HR_TRACE_JSON ? first_pass(t, m, &info) : HR_OK;
    sink_arg a = { t, alg, discipline, t->rows == 0, hr_machine_procs(m), &info };
    if (t->seen != NULL)
        memset(t->seen, 0, t->nseen);
    if (err == HR_OK && t->format == HR_TRACE_JSON) {
        char label[48];
        snprintf(label, sizeof label, "row %zu: ", t->rows);
        process_name(t, a.first ? "" : ",\n", t->rows, label, what);
        a.first = 0;
        for (int i = 0; i < hr_machine_procs(m); i += t->sample)
            fprintf(t->out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%zu,\"tid\":%d,"
                    "\"args\":{\"name\":\"P%d\"}},\n{\"name\":\"thread_name\",\"ph\":\"M\","
                    "\"pid\":%zu,\"tid\":%d,\"args\":{\"name\":\"P%d sends\"}}", t->rows, 2 * i, i,
                    t->rows, 2 * i + 1, i);
    }
    if (err == HR_OK)
        err = hr_machine_event_each(m, t->format == HR_TRACE_JSON ? json_event : csv_event, &a);
    if (err == HR_OK && t->format == HR_TRACE_JSON && t->wall) {
        char label[64];
        snprintf(label, sizeof label, "row %zu on this computer (wall clock)", t->rows);
        process_name(t, a.first ? "" : ",\n", WALL_PID + t->rows, label, "");
        for (int i = 0; i < hr_machine_procs(m); i += t->sample)
            fprintf(t->out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%zu,\"tid\":%d,"
                    "\"args\":{\"name\":\"P%d\"}}", WALL_PID + t->rows, 2 * i, i);
        err = hr_machine_event_each(m, json_wall, &a);
    }
    free(info.msgs);
    free(info.rounds);
    t->rows++;
    return err;
}

void hr__trace_end(hr_trace *t)
{
    if (t->format == HR_TRACE_JSON)
        fputs("\n]}\n", t->out);
    free(t->seen);
    t->seen = NULL;
}
