/* memory.h: the memory a row will take, and the memory this box can give it. */
#ifndef HREMU_CLI_MEMORY_H
#define HREMU_CLI_MEMORY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <hremu/machine.h>
#include <hremu/workload.h>

/* Whether mc's processors run as fibers ([machine] engine = fibers, as chosen by auto too). */
static inline int hr__on_fibers(const hr_machine_config *mc)
{
    return mc->engine != NULL && strcmp(mc->engine, "fibers") == 0;
}
/* The bytes mc's processors take on their engine, beside any data: a thread's touched stack,
 * state and arena, or a fiber's. */
uint64_t hr__procs_bytes(const hr_machine_config *mc);
/* The bytes a row of workload w with spec s on machine mc is expected to take at its peak: the
 * instance with its output (w->mem_bytes), the algorithm's working copies and the machine's
 * processors (threads or fibers). An estimate from measurements (docs/architecture.md,
 * "Memory"), meant to err on the large side. */
uint64_t hr__row_bytes(const hr_workload *w, const hr_workload_spec *s,
                       const hr_machine_config *mc);
/* And for an algorithm that is not few_messages (hr_algorithm): what it holds for every pair of
 * processors at once, as in an all-to-all: its counts, and on a topology with links a message
 * record a pair (on the complete graph a world transpose posts one batch a processor); with
 * in_flight (hr_algorithm.pairs_in_flight), a message record a pair besides. The bytes those
 * messages carry are the caller's to add (the instance's, again). */
uint64_t hr__pair_bytes(const hr_machine_config *mc, int in_flight);
/* The bytes this process may still take, into *bytes: HREMU_MEMORY if set (decimal bytes above
 * 0, or with a K, M, G or T suffix), else the smaller of MemAvailable and the room under the
 * cgroup's memory.max (read once a process); 0 if neither can be read. *source says where the
 * figure came from, to follow "the 2.0 GiB". HR_OK, or HR_EINVAL with one line in why (len bytes) when HREMU_MEMORY
 * is set but is not such a size ("", "-1", "12QB", "1e400", past 2^64). */
int      hr__available_bytes(uint64_t *bytes, const char **source, char *why, size_t len);
/* "25.3 GiB": bytes for a reader. */
void     hr__bytes_text(char *buf, size_t len, uint64_t bytes);

#endif /* HREMU_CLI_MEMORY_H */
