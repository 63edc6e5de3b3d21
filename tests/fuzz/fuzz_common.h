/* fuzz_common.h: what the fuzz harnesses (tests/fuzz/fuzz_*.c) share. The readers under test take
 * paths, so an input becomes an anonymous in-memory file (memfd) named /proc/self/fd/N; a harness
 * may take a header line "@ A B C" of small numbers before the file (p, n, a seed), which seeds
 * and the fuzzer can vary; and every reason a reader gives must be one non-empty line. */
#ifndef HREMU_TESTS_FUZZ_COMMON_H
#define HREMU_TESTS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <hremu/error.h>
#include <hremu/workload.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data[0 .. size) as a file: its descriptor (the caller closes it), its path in path. Aborts when
 * the file cannot be made: the harness cannot go on without it. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len)
{
    int fd = memfd_create("hremu_fuzz", 0);
    if (fd < 0)
        abort();
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0)
            abort();
        done += (size_t)w;
    }
    snprintf(path, len, "/proc/self/fd/%d", fd);
    return fd;
}

/* If data starts with a line "@ A B ...", up to n decimal numbers of it into v (those it lacks
 * keep their values) and the bytes of that line, newline included, as the result; else 0. */
static inline size_t fuzz_header(const uint8_t *data, size_t size, uint64_t *v, int n)
{
    if (size == 0 || data[0] != '@')
        return 0;
    const uint8_t *nl = memchr(data, '\n', size);
    size_t end = nl != NULL ? (size_t)(nl - data) : size;
    size_t k = 1;
    for (int i = 0; i < n; i++) {
        while (k < end && data[k] == ' ')
            k++;
        if (k == end || data[k] < '0' || data[k] > '9')
            break;
        uint64_t x = 0;
        while (k < end && data[k] >= '0' && data[k] <= '9' && x < UINT64_C(1) << 40)
            x = 10 * x + (uint64_t)(data[k++] - '0');
        v[i] = x;
    }
    return nl != NULL ? end + 1 : size;
}

/* A reason is one non-empty line. */
static inline void fuzz_one_line(const char *why)
{
    if (why[0] == '\0' || strchr(why, '\n') != NULL)
        abort();
}

/* Make workload w's instance of spec s on p processors from a file behind fd, which it closes:
 * the instance, or NULL when the workload refused it, as it must, with one line (too big for a
 * fuzzer's memory counts as refused). */
static inline void *fuzz_make(const hr_workload *w, const hr_workload_spec *s, int p, int fd)
{
    char why[512];
    void *inst = NULL;
    if (w->mem_bytes != NULL && w->mem_bytes(s, p) > (UINT64_C(256) << 20)) {
        close(fd);
        return NULL;
    }
    int err = w->make(s, p, &inst, why, sizeof why);
    close(fd);
    if (err != HR_OK) {
        if ((err != HR_EINVAL && err != HR_ENOMEM) || inst != NULL)
            abort();
        fuzz_one_line(why);
        return NULL;
    }
    return inst;
}

#endif
