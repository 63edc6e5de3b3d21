/* trace.c: the --trace formats (trace.h). The events come merged in the machine's canonical
 * order, so the file is the same for every thread schedule. */
#include "cli/trace.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

#include "cli/jsonstr.h"
#include "cli/report.h"

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

typedef struct sink_arg {
    hr_trace   *t;
    const char *alg;
    int         first;
    int         procs;      /* the row's p: link tracks come after the processors' */
} sink_arg;

/* Whether processor i is in the sample. */
static int kept(const hr_trace *t, int i)
{
    return i % t->sample == 0;
}

static void csv_event(void *arg, const hr_event *e)
{
    sink_arg *a = arg;
    if (!kept(a->t, e->proc))
        return;
    FILE *out = a->t->out;
    char t0[40], t1[40];
    hr__report_double(t0, sizeof t0, e->t0);
    hr__report_double(t1, sizeof t1, e->t1);
    fprintf(out, "%zu,%s,%s,%d,", a->t->rows, a->alg, kinds[e->kind], e->proc);
    if (e->peer >= 0)
        fprintf(out, "%d", e->peer);
    fprintf(out, ",%" PRIu64 ",%s,%s,%" PRIu64 ",%d,", e->msg, t0, t1, e->bytes, e->tag);
    if (e->kind == HR_EV_ROUND)
        fprintf(out, "%" PRIu64 ",%d,%" PRIu64 ",%s,", e->prio, e->queue, e->round, e->fate);
    else
        fputs(",,,,", out);
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

/* Chrome trace events: ts and dur in microseconds of model time. A processor has two tracks:
 * "P3", what its program is in (regions, collectives, and inside them receives and computing),
 * and "P3 sends", its injection port
 * (sends run in the background while the program goes on, and a port sends one message at a
 * time). Slices are complete events ("X"); a message's send and its receive are joined by a
 * flow ("s" in the send, "f" in the receive, bound to the enclosing slices). */
static int track(const hr_event *e)
{
    return 2 * e->proc + (e->kind == HR_EV_SEND);
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

static void json_event(void *arg, const hr_event *e)
{
    sink_arg *a = arg;
    if (e->kind != HR_EV_LINK && !kept(a->t, e->proc))
        return;
    FILE *out = a->t->out;
    size_t pid = a->t->rows;
    char ts[40], dur[40];
    hr__report_double(ts, sizeof ts, e->t0 * 1e6);
    hr__report_double(dur, sizeof dur, (e->t1 - e->t0) * 1e6);
    const char *sep = a->first ? "" : ",\n";
    a->first = 0;
    if (e->kind == HR_EV_ROUND) {
        fprintf(out, "%s{\"name\":\"round %" PRIu64 " %s\",\"cat\":\"round\",\"ph\":\"i\","
                "\"s\":\"t\",\"ts\":%s,\"pid\":%zu,\"tid\":%d,\"args\":{\"to\":%d,\"msg\":%"
                PRIu64 ",\"priority\":%" PRIu64 ",\"queue\":%d}}", sep, e->round, e->fate, ts,
                pid, track(e), e->peer, e->msg, e->prio, e->queue);
        a->t->events++;
        return;
    }
    if (e->kind == HR_EV_LINK) {
        /* A track a link that carried anything, named when it first does; nodes from p on are
         * switches. */
        int tid = 2 * a->procs + e->link;
        if (link_first(a->t, e->link)) {
            char from[16], to[16];
            node_name(from, sizeof from, e->proc, a->procs);
            node_name(to, sizeof to, e->peer, a->procs);
            fprintf(out, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%zu,\"tid\":%d,"
                    "\"args\":{\"name\":\"link %d: %s>%s\"}}", sep, pid, tid, e->link, from, to);
            sep = ",\n";
        }
        fprintf(out, "%s{\"name\":\"msg %" PRIu64 "\",\"cat\":\"link\",\"ph\":\"X\",\"ts\":%s,"
                "\"dur\":%s,\"pid\":%zu,\"tid\":%d,\"args\":{\"msg\":%" PRIu64 ",\"bytes\":%"
                PRIu64 "}}", sep, e->msg, ts, dur, pid, tid, e->msg, e->bytes);
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
    if (!kept(a->t, e->peer))
        return;
    /* A flow binds to the slice that encloses its time: the send's start, the receive's middle. */
    char at[40];
    hr__report_double(at, sizeof at, (send ? e->t0 : (e->t0 + e->t1) / 2) * 1e6);
    fprintf(out, ",\n{\"name\":\"message\",\"cat\":\"flow\",\"ph\":\"%s\",%s\"id\":%" PRIu64
            ",\"ts\":%s,\"pid\":%zu,\"tid\":%d}", send ? "s" : "f", send ? "" : "\"bp\":\"e\",",
            e->msg, at, pid, track(e));
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
    hr__report_double(ts, sizeof ts, e->wall_s * 1e6);
    fprintf(a->t->out, ",\n{\"name\":\"%s\",\"cat\":\"wall\",\"ph\":\"i\",\"s\":\"t\","
            "\"ts\":%s,\"pid\":%zu,\"tid\":%d}", kinds[e->kind], ts, WALL_PID + a->t->rows,
            2 * e->proc);
}

int hr__trace_row(hr_trace *t, const hr_machine *m, const char *alg, const char *what)
{
    size_t dropped = 0;
    hr_machine_event_count(m, &dropped);
    t->dropped += dropped;
    sink_arg a = { t, alg, t->rows == 0, hr_machine_procs(m) };
    if (t->seen != NULL)
        memset(t->seen, 0, t->nseen);
    if (t->format == HR_TRACE_JSON) {
        fprintf(t->out, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%zu,\"args\":"
                "{\"name\":\"row %zu: %s\"}}", a.first ? "" : ",\n", t->rows, t->rows, what);
        a.first = 0;
        for (int i = 0; i < hr_machine_procs(m); i += t->sample)
            fprintf(t->out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%zu,\"tid\":%d,"
                    "\"args\":{\"name\":\"P%d\"}},\n{\"name\":\"thread_name\",\"ph\":\"M\","
                    "\"pid\":%zu,\"tid\":%d,\"args\":{\"name\":\"P%d sends\"}}", t->rows, 2 * i, i,
                    t->rows, 2 * i + 1, i);
    }
    int err = hr_machine_event_each(m, t->format == HR_TRACE_JSON ? json_event : csv_event, &a);
    if (err == HR_OK && t->format == HR_TRACE_JSON && t->wall) {
        fprintf(t->out, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%zu,\"args\":"
                "{\"name\":\"row %zu on this computer (wall clock)\"}}", a.first ? "" : ",\n",
                WALL_PID + t->rows, t->rows);
        for (int i = 0; i < hr_machine_procs(m); i += t->sample)
            fprintf(t->out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%zu,\"tid\":%d,"
                    "\"args\":{\"name\":\"P%d\"}}", WALL_PID + t->rows, 2 * i, i);
        err = hr_machine_event_each(m, json_wall, &a);
    }
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
