/* trace.c: the --trace formats (trace.h). The events come merged in the machine's canonical
 * order, so the file is the same for every thread schedule. */
#include "cli/trace.h"

#include <inttypes.h>
#include <string.h>

#include <hremu/error.h>

#include "cli/report.h"

static const char *const kinds[] = { "", "send", "recv", "compute", "round" };

hr_trace_format hr__trace_format(const char *path)
{
    size_t n = strlen(path);
    return n >= 5 && strcmp(path + n - 5, ".json") == 0 ? HR_TRACE_JSON : HR_TRACE_CSV;
}

void hr__trace_begin(hr_trace *t, FILE *out, hr_trace_format format, size_t limit)
{
    *t = (hr_trace){ .out = out, .format = format, .limit = limit };
    if (format == HR_TRACE_CSV)
        fputs("row,algorithm,event,proc,peer,msg,t0_s,t1_s,bytes,tag,priority,queue,round,fate\n",
              out);
    else
        fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", out);
}

typedef struct sink_arg {
    hr_trace   *t;
    const char *alg;
    int         first;
} sink_arg;

static void csv_event(void *arg, const hr_event *e)
{
    sink_arg *a = arg;
    FILE *out = a->t->out;
    char t0[40], t1[40];
    hr__report_double(t0, sizeof t0, e->t0);
    hr__report_double(t1, sizeof t1, e->t1);
    fprintf(out, "%zu,%s,%s,%d,", a->t->rows, a->alg, kinds[e->kind], e->proc);
    if (e->peer >= 0)
        fprintf(out, "%d", e->peer);
    fprintf(out, ",%" PRIu64 ",%s,%s,%" PRIu64 ",%d,", e->msg, t0, t1, e->bytes, e->tag);
    if (e->kind == HR_EV_ROUND)
        fprintf(out, "%" PRIu64 ",%d,%" PRIu64 ",%s\n", e->prio, e->queue, e->round, e->fate);
    else
        fputs(",,,\n", out);
    a->t->events++;
}

/* Chrome trace events: ts and dur in microseconds of model time. A processor has two tracks:
 * "P3", what its program waits in (receives, computing), and "P3 sends", its injection port
 * (sends run in the background while the program goes on, and a port sends one message at a
 * time). Slices are complete events ("X"); a message's send and its receive are joined by a
 * flow ("s" in the send, "f" in the receive, bound to the enclosing slices). */
static int track(const hr_event *e)
{
    return 2 * e->proc + (e->kind == HR_EV_SEND);
}
static void json_event(void *arg, const hr_event *e)
{
    sink_arg *a = arg;
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
    if (e->kind == HR_EV_COMPUTE) {
        fprintf(out, "%s{\"name\":\"compute\",\"cat\":\"compute\",\"ph\":\"X\",\"ts\":%s,"
                "\"dur\":%s,\"pid\":%zu,\"tid\":%d}", sep, ts, dur, pid, track(e));
        a->t->events++;
        return;
    }
    int send = e->kind == HR_EV_SEND;
    fprintf(out, "%s{\"name\":\"%s %s P%d\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%s,\"dur\":%s,"
            "\"pid\":%zu,\"tid\":%d,\"args\":{\"msg\":%" PRIu64 ",\"bytes\":%" PRIu64
            ",\"tag\":%d}}", sep, kinds[e->kind], send ? "to" : "from", e->peer, kinds[e->kind],
            ts, dur, pid, track(e), e->msg, e->bytes, e->tag);
    /* A flow binds to the slice that encloses its time: the send's start, the receive's middle. */
    char at[40];
    hr__report_double(at, sizeof at, (send ? e->t0 : (e->t0 + e->t1) / 2) * 1e6);
    fprintf(out, ",\n{\"name\":\"message\",\"cat\":\"flow\",\"ph\":\"%s\",%s\"id\":%" PRIu64
            ",\"ts\":%s,\"pid\":%zu,\"tid\":%d}", send ? "s" : "f", send ? "" : "\"bp\":\"e\",",
            e->msg, at, pid, track(e));
    a->t->events++;
}

int hr__trace_row(hr_trace *t, const hr_machine *m, const char *alg, const char *what)
{
    size_t dropped = 0;
    hr_machine_event_count(m, &dropped);
    t->dropped += dropped;
    sink_arg a = { t, alg, t->rows == 0 };
    if (t->format == HR_TRACE_JSON) {
        fprintf(t->out, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%zu,\"args\":"
                "{\"name\":\"row %zu: %s\"}}", a.first ? "" : ",\n", t->rows, t->rows, what);
        a.first = 0;
        for (int i = 0; i < hr_machine_procs(m); i++)
            fprintf(t->out, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%zu,\"tid\":%d,"
                    "\"args\":{\"name\":\"P%d\"}},\n{\"name\":\"thread_name\",\"ph\":\"M\","
                    "\"pid\":%zu,\"tid\":%d,\"args\":{\"name\":\"P%d sends\"}}", t->rows, 2 * i, i,
                    t->rows, 2 * i + 1, i);
    }
    int err = hr_machine_event_each(m, t->format == HR_TRACE_JSON ? json_event : csv_event, &a);
    t->rows++;
    return err;
}

void hr__trace_end(hr_trace *t)
{
    if (t->format == HR_TRACE_JSON)
        fputs("\n]}\n", t->out);
}
