/* cost.c: cost presets, each a cost model's figures for a named machine with their source,
 * and conversion to picoseconds. */
#include "net/cost.h"

#include <math.h>
#include <string.h>

typedef struct preset {
    const char *model;     /* the cost model whose parameters these are (cost_model.c's name) */
    const char *name;
    const char *summary;   /* one line: the machine, the figures, their source */
    hr_cost     cost;
} preset;

/* Every figure is a published one, converted as the comment beside it says; a preset names the
 * machine it was measured on and where. Sorted by model, then name; compute_unit is 1 ns for
 * every preset: hr_compute units are abstract operations. */
static const preset presets[] = {
    { .model = "bdm", .name = "cm5",
      .summary = "TMC CM-5 with CMMD: 88 us latency, 20 MB/s (seed 001, Ponnusamy et al. 1992)",
      .cost = { .tau = 88e-6, .sigma = 1.0 / 20e6, .compute_unit = 1e-9 } },
    { .model = "bdm", .name = "sp2",
      .summary = "IBM SP-2 with MPL: 40 us latency, 35 MB/s (Snir et al., IBM Systems J. 34(2), "
                 "1995)",
      .cost = { .tau = 40e-6, .sigma = 1.0 / 35e6, .compute_unit = 1e-9 } },
    /* The Oxford BSP Toolset's parameter database (include/bsp_parameters.ascii: "$arch $comm
     * $libtype$optlevel $p S L G Nhalf"), as its bsp_probe measured them: s in Mflop/s, l in
     * flops, g in flops per 32-bit word. So l = L / s and g = G / s / 4 bytes. */
    { .model = "bsp", .name = "sp2",
      .summary = "IBM SP2 with MPL, p = 8: l 208 us, g 110 ns a byte (Oxford BSP Toolset 1.4 "
                 "database, Hill et al. 1997: s 26 Mflop/s, l 5412 flops, g 11.4 flops a word)",
      .cost = { .tau = 5412.0 / 26e6, .sigma = 11.4 / 26e6 / 4, .compute_unit = 1e-9 } },
    { .model = "bsp", .name = "t3e",
      .summary = "Cray T3E with SHMEM, p = 16: l 16.1 us, g 8.9 ns a byte (Oxford BSP Toolset 1.4 "
                 "database, Hill et al. 1997: s 46.7 Mflop/s, l 751 flops, g 1.66 flops a word)",
      .cost = { .tau = 751.0 / 46.7e6, .sigma = 1.66 / 46.7e6 / 4, .compute_unit = 1e-9 } },
    /* Netgauge's LogGP figures for ANL's Tukey cluster, as CODES ships them
     * (tests/conf/ng-mpi-tukey.dat, in us: "size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s)
     * L o_s o_r g G"). Its L is half the 1-byte round trip, 6.782182 us, which LogGP charges as
     * o_s + L + o_r. Our readings, not the table's: L here is that less o_s = 1.103756 and
     * o_r = 1.139558 (the 1-byte row), as hremu-mpi --calibrate reads a round trip; o is their
     * mean (one o a side); g is the 2-byte row's 1.079925 us (the 1-byte row has none); G the
     * 1 MiB row's 0.000498 us a byte (256 KiB to 8 MiB agree). Its o grows with the size
     * (534 us at 1 MiB: MPI polls while it sends); LogGP's o is one figure, the small
     * messages'. */
    { .model = "loggp", .name = "tukey",
      .summary = "ANL Tukey, MVAPICH over InfiniBand: L 4.54 us, o 1.12 us, g 1.08 us, G 0.498 "
                 "ns a byte (Netgauge, Hoefler et al. HPCC 2007; data: CODES, ng-mpi-tukey.dat)",
      .cost = { .tau = (13.564364 / 2 - 1.103756 - 1.139558) * 1e-6,
                .overhead = (1.103756 + 1.139558) / 2 * 1e-6, .gap = 1.079925e-6,
                .sigma = 0.000498e-6, .compute_unit = 1e-9 } },
};
#define NPRESETS ((int)(sizeof presets / sizeof presets[0]))

/* The i-th preset of model (NULL: bdm), or NULL. */
static const preset *preset_at(const char *model, int i)
{
    if (model == NULL)
        model = "bdm";
    for (int k = 0; k < NPRESETS && i >= 0; k++)
        if (strcmp(presets[k].model, model) == 0 && i-- == 0)
            return &presets[k];
    return NULL;
}

const hr_cost *hr__cost_preset_find(const char *model, const char *name)
{
    const preset *p;
    for (int i = 0; (p = preset_at(model, i)) != NULL; i++)
        if (strcmp(p->name, name) == 0)
            return &p->cost;
    return NULL;
}

const char *hr_cost_model_preset_name(const char *model, int i, const char **summary)
{
    const preset *p = preset_at(model, i);
    if (p != NULL && summary != NULL)
        *summary = p->summary;
    return p != NULL ? p->name : NULL;
}

const char *hr_cost_preset_name(int i, const char **summary)
{
    return hr_cost_model_preset_name(NULL, i, summary);
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
