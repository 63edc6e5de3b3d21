/* cost.h: the BDM cost model in integer picoseconds (docs/model.md).
 *
 * Model time is an int64 count of picoseconds: sums and maxima are exact and associative, so a
 * model figure cannot depend on the order in which threads happened to add it up. The range is
 * [0, HR_TIME_INF), about 106.75 days. Every sum and product of times goes through hr__tadd,
 * hr__tmul or hr__cost_bytes, which saturate at HR_TIME_INF instead of wrapping; since every
 * time is >= 0, HR_TIME_INF absorbs whatever is added to it, so a run that leaves the range
 * carries the mark to the clock it reaches, where core/ turns it into a failed run (status
 * HR_ERANGE) before the clock is ever published.
 */
#ifndef HREMU_NET_COST_H
#define HREMU_NET_COST_H

#include <stddef.h>
#include <stdint.h>
#include <hremu/machine.h>

typedef int64_t hr_time;              /* picoseconds */
#define HR_TIME_INF INT64_MAX             /* never; also: out of range */
#define HR_PS_PER_S 1e12

/* a + b for times a, b >= 0; HR_TIME_INF if the sum leaves the range. */
static inline hr_time hr__tadd(hr_time a, hr_time b)
{
    hr_time s;
    if (__builtin_add_overflow(a, b, &s) || s == HR_TIME_INF)
        return HR_TIME_INF;
    return s;
}

static inline hr_time hr__tmax(hr_time a, hr_time b) { return a > b ? a : b; }

/* k * a for a time a >= 0 and a count k >= 0; HR_TIME_INF if the product leaves the range. */
static inline hr_time hr__tmul(int64_t k, hr_time a)
{
    hr_time s;
    if (a == HR_TIME_INF || __builtin_mul_overflow(k, a, &s) || s == HR_TIME_INF)
        return HR_TIME_INF;
    return s;
}

/* A time from a nonnegative double of picoseconds, rounded to nearest; HR_TIME_INF past the
 * range (the conversion of a double at or above 2^63 to int64 would be undefined). */
static inline hr_time hr__time_from_ps(double ps)
{
    double r = ps + 0.5;
    return r < 0x1p63 ? (hr_time)r : HR_TIME_INF;
}

/* Cost model model's preset called name (model NULL: bdm), or NULL. The public
 * hr_cost_model_preset and hr_cost_preset (cost_model.c) add each model's default. */
const hr_cost *hr__cost_preset_find(const char *model, const char *name);

/* The cost model, converted once to picoseconds. */
typedef struct hr_costps {
    hr_time tau;          /* latency; on a machine, its cost model's lead (cost_model.h) */
    hr_time gap;          /* LogGP's g */
    hr_time overhead;     /* CPU time per message */
    hr_time hop;          /* per link */
    double  sigma;        /* ps per byte */
    double  unit;         /* ps per hr_compute unit */
    int     measured;
} hr_costps;

/* Check c and convert it; HR_EINVAL with a reason. */
int hr__cost_convert(const hr_cost *c, hr_costps *out, const char **why);
/* sigma * bytes, rounded to the nearest picosecond: the same bytes always cost the same.
 * HR_TIME_INF past the range. */
static inline hr_time hr__cost_bytes(const hr_costps *c, size_t bytes)
{
    return hr__time_from_ps(c->sigma * (double)bytes);
}
hr_time hr__time_from_s(double s);
static inline double hr__time_to_s(hr_time t) { return (double)t / HR_PS_PER_S; }

#endif
