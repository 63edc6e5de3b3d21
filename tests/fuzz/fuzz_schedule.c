/* fuzz_schedule.c: libFuzzer target for what the schedulers take from a file. `--schedule FILE`
 * is an output (it prints each schedule); the schedulers' input from outside is the pattern
 * workload's file:PATH, a Matrix Market matrix whose y = A x gives the COM matrix. So this feeds
 * such files through the pattern workload's make, as a config row does, to every algorithm with
 * a plan on that kind (irreg.ls, ps, bs, gs, lp, cgm, cgm_sort, cgm_heap, cgmh_*).
 *
 * The input is an optional line "@ P SEED" (processors 1 .. 64, default 4; the plan's seed,
 * default 1), then the matrix. make either fails with one line or gives a pattern; then every
 * plan must succeed (a plan checks its schedule against its scheduler's promise and fails with
 * "the schedule breaks its promise" otherwise: that is a bug here), report as many steps as it
 * prints lines, and free what it made. `make fuzz` builds and runs it; `make check` replays
 * tests/fuzz/corpus/schedule/.
 */
#include <hremu/algorithm.h>
#include <hremu/error.h>
#include <hremu/machine.h>
#include <hremu/workload.h>

#include "fuzz_common.h"

/* The lines of text[0 .. len). */
static uint64_t lines(const char *text, size_t len)
{
    uint64_t n = 0;
    for (size_t k = 0; k < len; k++)
        n += text[k] == '\n';
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t v[2] = { 4, 1 };
    size_t skip = fuzz_header(data, size, v, 2);
    int p = (int)(v[0] >= 1 && v[0] <= 64 ? v[0] : 1 + v[0] % 64);
    const hr_workload *w = hr_workload_find("pattern");
    if (w == NULL)
        abort();
    char path[64], word[80], why[512];
    int fd = fuzz_file(data + skip, size - skip, path, sizeof path);
    snprintf(word, sizeof word, "file:%s", path);
    /* The pattern kind's keys in their order: pattern, density, bytes, d, msg_unit, range. */
    hr_wkey_value keys[6] = { { .word = word }, { .num = 25 }, { .num = 256 }, { .num = 8 },
                              { .num = 8 }, { .num = (double)p } };
    hr_workload_spec s = { .kind = "pattern", .keys = keys, .seed = v[1] };
    void *inst = fuzz_make(w, &s, p, fd);
    if (inst == NULL)
        return 0;
    hr_plan_args args = { .seed = v[1] };
    if (hr_cost_preset("cm5", &args.cost) != HR_OK)
        abort();
    for (int a = 0; hr_algorithm_at(a) != NULL; a++) {
        const hr_algorithm *alg = hr_algorithm_at(a);
        if (alg->kind != w->kind || alg->plan == NULL)
            continue;
        double params[16];
        for (int k = 0; alg->params != NULL && alg->params[k].name != NULL && k < 16; k++)
            params[k] = alg->params[k].def;
        args.params = params;
        if (alg->plan(inst, &args, why, sizeof why) != HR_OK)
            abort();   /* why says which promise the schedule broke */
        if (alg->plan_steps != NULL && alg->plan_print != NULL) {
            char *text = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&text, &len);
            if (f == NULL || alg->plan_print(inst, f) != HR_OK || fclose(f) != 0 ||
                lines(text, len) != alg->plan_steps(inst))
                abort();
            free(text);
        }
        alg->unplan(inst);
    }
    w->destroy(inst);
    return 0;
}
