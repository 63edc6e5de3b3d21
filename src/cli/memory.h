/* memory.h: the memory a row will take, and the memory this box can give it. */
#ifndef HREMU_CLI_MEMORY_H
#define HREMU_CLI_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include <hremu/workload.h>

/* The bytes a row of workload w with spec s on p processors is expected to take at its peak: the
 * instance with its output (w->mem_bytes), the algorithm's working copies and the machine. An
 * estimate from measurements (docs/architecture.md, "Memory"), meant to err on the large side. */
uint64_t hr__row_bytes(const hr_workload *w, const hr_workload_spec *s, int p);
/* The bytes this process may still take: HREMU_MEMORY if set (bytes, or with a K, M, G or T
 * suffix), else the smaller of MemAvailable and the room under the cgroup's memory.max; 0 if
 * neither can be read. *source says where the figure came from, to follow "the 2.0 GiB". */
uint64_t hr__available_bytes(const char **source);
/* "25.3 GiB": bytes for a reader. */
void     hr__bytes_text(char *buf, size_t len, uint64_t bytes);

#endif /* HREMU_CLI_MEMORY_H */
