/* regions.h: `hremu --regions FILE`: the timed regions and supersteps of each row's first run,
 * one line each, in the format of the rows (table, CSV or JSON lines).
 *
 * Columns: row algorithm kind name procs entries time_s time_sum_s work_s messages bytes h.
 * row is the number of the row the line belongs to in the output of the rows (1 for the first),
 * and algorithm its algorithm. kind is region or superstep. A region's line has the figures of
 * hr_region_result (machine.h): its name, the processors that entered it, hr_region_begin calls,
 * the max and the sum over processors of the model time inside, the max of the local work,
 * the messages and bytes sent inside and h, in canonical order. A superstep's line (after the
 * regions) has hr_superstep_result's: name is its number from 1, procs and entries are p, time_s
 * its length, time_sum_s the processors' clocks' advance, work_s BSP's w, and h BSP's h. Times
 * print with the fewest digits that read back to the same double, in every format. A run that
 * did not end with status ok has no lines. A report belongs to the thread that began it.
 */
#ifndef HREMU_CLI_REGIONS_H
#define HREMU_CLI_REGIONS_H

#include <stddef.h>
#include <stdio.h>

#include <hremu/machine.h>

#include "cli/report.h"

/* The header line (table and CSV; JSON lines have none). */
void hr__regions_begin(FILE *out, hr_format format);
/* The lines of m's last run, which was the first run of row number `row` (from 1). */
void hr__regions_write(FILE *out, hr_format format, size_t row, const char *algorithm,
                       const hr_machine *m);

#endif
