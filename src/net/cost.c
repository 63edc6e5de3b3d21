/* cost.c: cost presets, each with its source, and conversion to picoseconds. */
#include "net/cost.h"

#include <math.h>
#include <string.h>

typedef struct preset {
    const char *name;
    const char *summary;
    hr_cost     cost;
} preset;

/* Sorted by name. compute_unit is 1 ns for every preset: hr_compute units are abstract operations. */
static const preset presets[] = {
    { .name = "cm5",
      .summary = "TMC CM-5 with CMMD: 88 us latency, 20 MB/s (seed 001, Ponnusamy et al. 1992)",
      .cost = { .tau = 88e-6, .sigma = 1.0 / 20e6, .compute_unit = 1e-9 } },
    { .name = "sp2",
      .summary = "IBM SP-2 with MPL: 40 us latency, 35 MB/s (Snir et al., IBM Systems J. 34(2), 1995)",
      .cost = { .tau = 40e-6, .sigma = 1.0 / 35e6, .compute_unit = 1e-9 } },
};
#define NPRESETS (sizeof presets / sizeof presets[0])

int hr_cost_preset(const char *name, hr_cost *c)
{
    for (size_t i = 0; i < NPRESETS; i++)
        if (strcmp(presets[i].name, name) == 0) {
            *c = presets[i].cost;
            return HR_OK;
        }
    return HR_ENOENT;
}

const char *hr_cost_preset_name(int i, const char **summary)
{
    if (i < 0 || (size_t)i >= NPRESETS)
        return NULL;
    if (summary != NULL)
        *summary = presets[i].summary;
    return presets[i].name;
}

hr_time hr__time_from_s(double s)
{
    return (hr_time)llround(s * HR_PS_PER_S);
}

int hr__cost_convert(const hr_cost *c, hr_costps *out, const char **why)
{
    /* A day per message is far more than any machine's, and keeps the conversions exact. It does
     * not keep a run's sums in range (p - 1 steps of a day each leave it at p = 128): sums are
     * checked where they are made (cost.h), and a run that leaves the range fails. */
    const double day = 86400.0;
    if (!(c->tau > 0 && c->tau <= day)) {
        *why = "tau must be > 0 s (it is the lookahead of receives from any) and at most a day";
        return HR_EINVAL;
    }
    if (!(c->sigma >= 0 && c->sigma <= 1.0) || !(c->overhead >= 0 && c->overhead <= day) ||
        !(c->hop >= 0 && c->hop <= day) || !(c->gap >= 0 && c->gap <= day) ||
        !(c->compute_unit >= 0 && c->compute_unit <= 1.0)) {
        *why = "sigma, overhead, hop, gap and compute_unit must be >= 0 and not absurdly large";
        return HR_EINVAL;
    }
    out->tau = hr__time_from_s(c->tau);
    out->gap = hr__time_from_s(c->gap);
    out->overhead = hr__time_from_s(c->overhead);
    out->hop = hr__time_from_s(c->hop);
    out->sigma = c->sigma * HR_PS_PER_S;
    out->unit = c->compute_unit * HR_PS_PER_S;
    out->measured = c->measured != 0;
    if (out->tau <= 0) {
        *why = "tau must be at least one picosecond";
        return HR_EINVAL;
    }
    return HR_OK;
}
