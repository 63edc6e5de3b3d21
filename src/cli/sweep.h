/* sweep.h: running every point of a config's sweep and reporting one row per algorithm run.
 *
 * For each machine point the machine is built once; for each workload point the instance is made
 * once; each algorithm then runs `repeat` times on it (the instance reset between runs). A row's
 * model columns come from the first run and must be the same on every repeat (they are
 * deterministic: a difference is reported as a failed row, status nondeterministic); wall_s is
 * the median over the repeats. Machine thread only (the thread that calls these functions builds
 * and runs the machines).
 */
#ifndef HREMU_CLI_SWEEP_H
#define HREMU_CLI_SWEEP_H

#include <stddef.h>

#include <stdio.h>

#include "cli/config.h"
#include "cli/report.h"
#include "cli/html.h"
#include "cli/trace.h"

/* Told about every row once it is reported: the algorithm's name and, for a failed row, what
 * went wrong (one or more lines, the run's report for a failure or deadlock); msg is NULL for a
 * row that did not fail. */
typedef void (*hr_sweep_note)(void *arg, const char *algorithm, const char *msg);

typedef struct hr_sweep_stats {
    size_t rows;      /* rows reported */
    size_t failed;    /* rows whose status is neither ok nor unchecked */
    size_t skipped;   /* rows not run: the algorithm does not take the discipline or kind */
    char   skip_why[512];  /* the first skipped row's reason */
    size_t invalid;   /* rows not run: their point's settings do not go together (a
                       * distribution's conditions on n, h and p, a topology's on p) */
    char   invalid_why[512];  /* the first such point's reason */
    size_t other_procs;    /* rows not run: procs is not the ranks' number (hremu-mpi) */
    int    procs_first;    /* the first such row's procs */
    size_t unchecked_mpi;  /* rows not verified: their kind gives no parts (hremu-mpi) */
    size_t coll_async;     /* rows whose collectives were costed async on a sync or bounded
                            * machine (HR_NOTE_COLL_ASYNC) */
    char   coll_async_row[160];  /* the first of them */
    size_t unreceived;     /* rows that ended with messages sent and never received */
    char   unreceived_row[400];  /* the first of them, and the messages */
} hr_sweep_stats;

#define HR_SWEEP_MAX_KINDS 16

/* An instance the check made and kept for the run (sweep.c). */
typedef struct hr_sweep_kept hr_sweep_kept;

/* What a checked sweep will run, for the command's progress and its defaults. */
typedef struct hr_sweep_plan {
    size_t rows;      /* rows it will run (skipped ones not counted) */
    int    rounds;    /* some row runs a round discipline (fifo, priority, arbitrary, ocpc) */
    int    lossy;     /* some row's discipline can lose messages (arbitrary, ocpc) */
    int    stalls;    /* some row can stall a send (sync, a bounded buffer, fifo, priority) */
    int    schedules; /* some row's algorithm plans a schedule (hr_algorithm.plan_print) */
    int    fibers;    /* some row runs on engine fibers */
    const hr_workload *kinds[HR_SWEEP_MAX_KINDS];  /* the workload kinds of the rows */
    int    nkinds;
    /* The instances the check made and kept, so that the run makes none of them again, in sweep
     * order; the run takes each (hr_sweep_sides.plan). One is kept while the kept ones, its own
     * (hr_workload.mem_bytes) and the largest row checked so far (hr__row_bytes) fit in the
     * memory the box has: every row then still has its room while the later instances wait.
     * The others are made again when their rows run. Free with hr__sweep_plan_free. */
    hr_sweep_kept *kept, *kept_last;
    uint64_t       kept_bytes, most_need;
} hr_sweep_plan;

/* The kept instance after k (NULL at the end), for walking plan->kept. */
hr_sweep_kept *hr__sweep_kept_next(const hr_sweep_kept *k);
/* Destroy the instances of plan that no run took. */
void hr__sweep_plan_free(hr_sweep_plan *plan);

/* Check every machine (hr_machine_check: no threads are made) and make every workload instance
 * of a checked config (hr__config_check), one at a time, keeping in plan those that fit for the
 * run (hr_sweep_plan.kept) and throwing the others away, running nothing:
 * what only the machine or the workload can reject (a topology's shape, a distribution's
 * conditions on n, h and p) is then known before any row runs: such a point's rows are skipped
 * (hr_sweep_stats.invalid, when the sweep runs), and it is an error only when no row is left.
 * A row that needs more memory than the box has is an error (HR_ENOMEM, both figures in the
 * message), found before it is made. HR_OK, or an error code with e filled ("FILE:LINE: ..." at
 * the section's header; nothing is kept then). plan (may be NULL: nothing is kept) says what
 * the rows are. */
int hr__sweep_check(const hr_config *c, hr_sweep_plan *plan, hr_config_error *e);

/* What a sweep writes besides its rows; each NULL when not asked for. */
typedef struct hr_sweep_sides {
    hr_trace *trace;         /* the first run of every row records its events and writes them
                              * there (cli/trace.h) */
    FILE *regions;   /* the first run of every row that ends ok writes its timed regions and
                      * supersteps (hr__regions_write, in rep's format) */
    FILE *rounds;    /* the first run of every row draws its rounds (cli/board.h) */
    hr_html *html;   /* the first run of every row goes into the page (cli/html.h) */
    FILE *schedule;  /* every row that plans a schedule writes it (hr_algorithm.plan_print)
                      * after a line "# ALGORITHM procs=P [KEY=VALUE ...] seed=S: N steps" */
    const hr_sweep_plan *plan;  /* the check's plan of this config: its kept instances are used
                                 * instead of made again (and then destroyed by the run) */
} hr_sweep_sides;

/* Run the sweep of a checked config, writing rows to rep and telling note (may be NULL) about
 * failed rows, and the side outputs sides asks for (NULL: none). Returns HR_OK when every row was
 * run (failed rows included: see st), or an error code with e filled when a machine or instance
 * could not be built. */
int hr__sweep_run(const hr_config *c, hr_report *rep, hr_sweep_note note, void *arg,
                  const hr_sweep_sides *sides, hr_sweep_stats *st, hr_config_error *e);

#endif /* HREMU_CLI_SWEEP_H */
