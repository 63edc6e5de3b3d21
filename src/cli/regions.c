/* regions.c: `hremu --regions FILE`, the lines of each row's timed regions and supersteps. */
#include "cli/regions.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum { NCOL = 12 };
static const char *const names[NCOL] = {
    "row", "algorithm", "kind", "name", "procs", "entries", "time_s", "time_sum_s", "work_s",
    "messages", "bytes", "h",
};
static const int numeric[NCOL] = { 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1 };
static const int widths[NCOL] = { 4, 18, 9, 16, 5, 7, 12, 12, 12, 9, 11, 9 };

void hr__regions_begin(FILE *out, hr_format format)
{
    hr__report_line(out, format, names, numeric, widths, NULL, NCOL);
}

/* The figures of one line. */
typedef struct figures {
    const char *kind, *name;
    uint64_t    procs, entries;
    double      time, sum, work;
    uint64_t    msgs, bytes, h;
} figures;

static void put(FILE *out, hr_format format, size_t row, const char *algorithm, const figures *f)
{
    char r[24], procs[24], entries[24], time[32], sum[32], work[32], msgs[24], bytes[24], h[24];
    snprintf(r, sizeof r, "%zu", row);
    snprintf(procs, sizeof procs, "%" PRIu64, f->procs);
    snprintf(entries, sizeof entries, "%" PRIu64, f->entries);
    hr__report_double(time, sizeof time, f->time);
    hr__report_double(sum, sizeof sum, f->sum);
    hr__report_double(work, sizeof work, f->work);
    snprintf(msgs, sizeof msgs, "%" PRIu64, f->msgs);
    snprintf(bytes, sizeof bytes, "%" PRIu64, f->bytes);
    snprintf(h, sizeof h, "%" PRIu64, f->h);
    const char *v[NCOL] = { r, algorithm, f->kind, f->name, procs, entries, time, sum, work, msgs,
                            bytes, h };
    hr__report_line(out, format, names, numeric, widths, v, NCOL);
}

void hr__regions_write(FILE *out, hr_format format, size_t row, const char *algorithm,
                       const hr_machine *m)
{
    for (size_t i = 0; i < hr_machine_regions(m); i++) {
        hr_region_result r;
        hr_machine_region_result(m, i, &r);
        figures f = { "region", r.name, (uint64_t)r.procs, r.entries, r.time_s, r.time_sum_s,
                      r.work_s, r.messages, r.bytes, r.h };
        put(out, format, row, algorithm, &f);
    }
    uint64_t p = (uint64_t)hr_machine_procs(m);
    for (size_t s = 0; s < hr_machine_supersteps(m); s++) {
        hr_superstep_result r;
        hr_machine_superstep_result(m, s, &r);
        char num[24];
        snprintf(num, sizeof num, "%zu", s + 1);
        figures f = { "superstep", num, p, p, r.time_s, r.time_sum_s, r.work_s, r.messages,
                      r.bytes, r.h };
        put(out, format, row, algorithm, &f);
    }
}
