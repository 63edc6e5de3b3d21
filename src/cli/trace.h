/* trace.h: the --trace file: every row's first run's events (machine.h, hr_machine_events) as
 * CSV lines or as Chrome trace-event JSON (Perfetto, chrome://tracing), one process a row and
 * one track a processor, in model time. The command's thread only. */
#ifndef HREMU_CLI_TRACE_H
#define HREMU_CLI_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hremu/machine.h>

typedef enum hr_trace_format { HR_TRACE_CSV, HR_TRACE_JSON } hr_trace_format;

typedef struct hr_trace {
    FILE           *out;
    hr_trace_format format;
    size_t          limit;      /* events a run may record (hr_machine_events) */
    int             sample;     /* only processors 0, sample, 2 sample, ... are written */
    int             wall;       /* write the events' wall times too */
    size_t          rows;       /* rows written */
    size_t          dropped;    /* events past the limit, over every row */
    size_t          events;     /* events written */
    unsigned char  *seen;       /* JSON: the links whose track the row has named */
    size_t          nseen;
    uint64_t        flows;      /* JSON: arrows written, over every row (each its own id) */
} hr_trace;

/* The format a path asks for: JSON if it ends in ".json", else CSV. */
hr_trace_format hr__trace_format(const char *path);
/* Begin the file: the CSV header, or the JSON object's opening. */
void hr__trace_begin(hr_trace *t, FILE *out, hr_trace_format format, size_t limit, int sample,
                     int wall);
/* The events of m's last run, as row `what` ("hrel.direct procs=8 ...") of algorithm alg under
 * discipline (its name: what a round message's priority and queue mean). HR_OK or HR_ENOMEM. */
int  hr__trace_row(hr_trace *t, const hr_machine *m, const char *alg, const char *what,
                   const char *discipline);
/* End the file (the JSON's closing). */
void hr__trace_end(hr_trace *t);

#endif /* HREMU_CLI_TRACE_H */
