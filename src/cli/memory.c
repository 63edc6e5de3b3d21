/* memory.c: what a row will take and what the box can give, so that a row that cannot fit is
 * refused before it is made, with both figures, instead of meeting the out-of-memory killer. */
#include "cli/memory.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

#include "net/topology.h"
#include "work/textfile.h"

/* From the peak resident set of whole runs (docs/architecture.md, "Memory"), rounded up:
 * - what the algorithms of a kind hold besides the instance and its output, per element: at
 *   n = 2^24, p = 16, hrel.direct 8.2, hrel.two_phase 11.7, sort.radix 40, sort.counting 44;
 * - per processor on threads, its thread's touched stack, state and first arena block; on
 *   fibers, its touched stack, state, mailbox and arena: at p = 65536, 10.3 KiB (bcast.binomial)
 *   to 18.8 KiB (prefix.rh), all five of make bench's scale table under 20;
 * - per pair of processors, for algorithms that are not few_messages: the counts of an
 *   all-to-all (hrel.direct: four arrays of p a processor, 32 bytes a pair), and on a topology
 *   with links a collective's message record and the receiver's mailbox entry for each source.
 *   hrel.direct at n = 2^16 on the complete graph peaks at 610 MB (p = 4096, threads) and
 *   2.22 GB (p = 8192, fibers): under 64 KiB a thread or 20 KiB a fiber + 64 bytes a pair.
 *   With links every block is a message of its own: 3.99 GB at p = 4096 was under 256 bytes a
 *   pair (before the complete graph's batches, p2p.c). */
#define HREL_BYTES_PER_ELEM 16u
#define SORT_BYTES_PER_ELEM 48u
#define BYTES_PER_THREAD    (64u << 10)
#define BYTES_PER_FIBER     (20u << 10)
#define BYTES_PER_PAIR      64u
#define BYTES_PER_PAIR_LINKS 256u
/* A message in flight between a pair (hr_algorithm.pairs_in_flight): its 128-byte record, a small
 * payload's 16 bytes and malloc's header, rounded up; xchg.lex at p = 4096 with 8-byte blocks
 * peaked at 1.9 GB, about 110 bytes a pair in all, not every message alive at once. */
#define BYTES_PER_FLIGHT    192u

uint64_t hr__procs_bytes(const hr_machine_config *mc)
{
    return (hr__on_fibers(mc) ? BYTES_PER_FIBER : BYTES_PER_THREAD) * (uint64_t)mc->procs;
}

uint64_t hr__row_bytes(const hr_workload *w, const hr_workload_spec *s,
                       const hr_machine_config *mc)
{
    uint64_t inst = w->mem_bytes != NULL ? w->mem_bytes(s, mc->procs) : 0;
    uint64_t per = w->kind == HR_KIND_SORT ? SORT_BYTES_PER_ELEM : HREL_BYTES_PER_ELEM;
    return inst + per * s->n + hr__procs_bytes(mc);
}

uint64_t hr__pair_bytes(const hr_machine_config *mc, int in_flight)
{
    int links = mc->topology != NULL && hr__topology_has_links(mc->topology);
    uint64_t p = (uint64_t)mc->procs;
    return ((links ? BYTES_PER_PAIR_LINKS : BYTES_PER_PAIR) + (in_flight ? BYTES_PER_FLIGHT : 0)) *
           p * p;
}

/* A size: decimal digits with an optional K, M, G or T suffix (powers of 1024), above 0 and
 * below 2^64; 0 if it is not one. No sign, space, exponent or other suffix is taken. */
static uint64_t parse_size(const char *text)
{
    if (*text < '0' || *text > '9')
        return 0;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE)
        return 0;
    int shift = 0;
    switch (*end) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    case 'T': shift = 40; end++; break;
    default: break;
    }
    if (*end != '\0' || v > (UINT64_MAX >> shift))
        return 0;
    return (uint64_t)v << shift;
}

/* The first number in a file (a cgroup's limit or usage); 0 if none or "max". */
static uint64_t read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    unsigned long long v = 0;
    if (fscanf(f, "%llu", &v) != 1)
        v = 0;
    fclose(f);
    return v;
}

int hr__available_bytes(uint64_t *bytes, const char **source, char *why, size_t len)
{
    const char *env = getenv("HREMU_MEMORY");
    if (env != NULL) {
        char shown[40];
        hr__text_show_token(shown, sizeof shown, env, strlen(env));
        if ((*bytes = parse_size(env)) == 0) {
            snprintf(why, len, "HREMU_MEMORY = '%s' is not a size: give bytes above 0, or a "
                     "number with K, M, G or T (512M, 8G)", shown);
            return HR_EINVAL;
        }
        *source = "that HREMU_MEMORY allows";
        return HR_OK;
    }
    /* Read once a process: every row of a command is weighed against the same figure (the
     * check's and the run's alike), and instances the check keeps are counted against it by
     * the sweep, not found again as memory the box lost. */
    static uint64_t read_bytes;
    static const char *read_source;
    if (read_source != NULL) {
        *bytes = read_bytes;
        *source = read_source;
        return HR_OK;
    }
    uint64_t avail = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f != NULL) {
        char line[256];
        unsigned long long kb;
        while (fgets(line, sizeof line, f) != NULL)
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
                avail = (uint64_t)kb << 10;
                break;
            }
        fclose(f);
    }
    *source = "available on this box (MemAvailable)";
    /* Inside a container, its cgroup's limit may be the tighter one. */
    uint64_t max = read_number("/sys/fs/cgroup/memory.max");
    if (max > 0) {
        uint64_t used = read_number("/sys/fs/cgroup/memory.current");
        uint64_t room = max > used ? max - used : 0;
        if (avail == 0 || room < avail) {
            avail = room;
            *source = "left under this cgroup's memory.max";
        }
    }
    read_bytes = *bytes = avail;
    read_source = *source;
    return HR_OK;
}

void hr__bytes_text(char *buf, size_t len, uint64_t bytes)
{
    static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
    else
        snprintf(buf, len, "%.1f %s", v, unit[u]);
}
