/* region.h: what timed regions (region.c) and supersteps (superstep.c) count, and the results
 * of a run beyond hr_run_result, collected by the machine thread after the run. */
#ifndef HREMU_CORE_REGION_H
#define HREMU_CORE_REGION_H

#include <math.h>

#include "core/core.h"

/* A processor's counters at one moment (hr__tally); the difference of two tallies is what it did
 * in between: clock advance, local work, messages and bytes sent, bytes received. */
typedef struct hr_tally {
    hr_time  clock, work;
    uint64_t msgs, out, in;
} hr_tally;

static inline hr_tally hr__tally(const hr_proc *p)
{
    return (hr_tally){ p->clock, p->work, p->msgs_out, p->bytes_out, p->bytes_in };
}

static inline hr_time hr__tsub(hr_time b, hr_time a)
{
    return b == HR_TIME_INF ? HR_TIME_INF : b - a;   /* past the range stays past it */
}

/* What a processor did from tally a to the later tally b. */
static inline hr_tally hr__tally_since(const hr_tally *a, const hr_tally *b)
{
    return (hr_tally){ hr__tsub(b->clock, a->clock), hr__tsub(b->work, a->work),
                       b->msgs - a->msgs, b->out - a->out, b->in - a->in };
}

/* Seconds for the results; a time past the clock's range (HR_ERANGE) is infinite. */
static inline double hr__secs(hr_time t)
{
    return t == HR_TIME_INF ? INFINITY : hr__time_to_s(t);
}

/* What processors did in a region or a superstep, summed over them as the public results say:
 * time and work the max over processors (and time's sum), messages and bytes the sum, h the max
 * of max(out, in). */
typedef struct hr_tsum {
    int      procs;
    hr_time  time_max, time_sum, work_max;
    uint64_t msgs, bytes, h;
} hr_tsum;

/* Add one processor's figures d (a difference of tallies, or its totals in a region). */
void hr__tsum_add(hr_tsum *s, const hr_tally *d);

/* region.c, machine thread, between runs */
void hr__region_reset(hr_proc *p);          /* from hr__proc_reset: forget its regions */
void hr__results_reset(hr_machine *m);      /* at the start of a run */
/* After a run, before its status is read: merge the processors' regions into m->regions_out.
 * A run that has not failed fails (m->failed, a report line per processor, up to 8) if a
 * processor returned with a region open, or if the merge finds no memory. */
void hr__results_collect(hr_machine *m);
void hr__results_free(hr_machine *m);       /* at destroy */

/* proc.c: with compute = measured, charge the CPU time used since the last charge to the clock
 * (and to p->work). Owner only. */
void hr__proc_charge_cpu(hr_proc *p);

#endif
