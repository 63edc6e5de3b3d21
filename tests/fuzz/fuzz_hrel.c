/* fuzz_hrel.c: libFuzzer target for h-relation files, the hrelation workload's
 * distribution = file:PATH (work/hrel.c), through the workload's make as a config row calls it.
 *
 * The input is an optional line "@ P N H" (processors 1 .. 64, default 4; n, default 8; h, default
 * 0: the file's own), then the file: SOURCE DEST VALUE a line. make either fails with one line
 * (HR_EINVAL, or HR_ENOMEM) or gives an instance of n elements on p processors whose every
 * element goes to a processor below p, no processor holding more than h1 or receiving more than
 * h. A row the hremu command would refuse for its memory (the workload's mem_bytes over 256 MB)
 * is not made. `make fuzz` builds and runs it; `make check` replays tests/fuzz/corpus/hrel/.
 */
#include <hremu/error.h>
#include <hremu/workload.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t v[3] = { 4, 8, 0 };
    size_t skip = fuzz_header(data, size, v, 3);
    int p = (int)(v[0] >= 1 && v[0] <= 64 ? v[0] : 1 + v[0] % 64);
    const hr_workload *w = hr_workload_find("hrelation");
    if (w == NULL)
        abort();
    char path[64], dist[80];
    int fd = fuzz_file(data + skip, size - skip, path, sizeof path);
    snprintf(dist, sizeof dist, "file:%s", path);
    hr_workload_spec s = { .kind = "hrelation", .n = v[1], .h = v[2], .distribution = dist,
                           .seed = 1 };
    void *inst = fuzz_make(w, &s, p, fd);
    if (inst == NULL)
        return 0;
    const hr_hrel *r = inst;
    uint64_t total = 0, *in = calloc((size_t)p, sizeof *in);
    if (r->p != p || in == NULL)
        abort();
    for (int i = 0; i < p; i++) {
        if (r->in_count[i] > r->h1)
            abort();
        total += r->in_count[i];
        for (size_t k = 0; k < r->in_count[i]; k++) {
            if (r->in[i][k].dest >= (uint32_t)p)
                abort();
            in[r->in[i][k].dest]++;
        }
    }
    for (int i = 0; i < p; i++)
        if (in[i] > r->h)
            abort();
    if (total != r->n || total != v[1])
        abort();
    free(in);
    w->destroy(inst);
    return 0;
}
