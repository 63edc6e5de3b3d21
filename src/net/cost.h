/* cost.h: the BDM cost model in integer picoseconds (docs/model.md).
 *
 * Model time is an int64 count of picoseconds: sums and maxima are exact and associative, so a
 * model figure cannot depend on the order in which threads happened to add it up.
 */
#ifndef HREMU_NET_COST_H
#define HREMU_NET_COST_H

#include <stddef.h>
#include <stdint.h>
#include <hremu/machine.h>

typedef int64_t hr_time;              /* picoseconds */
#define HR_TIME_INF INT64_MAX
#define HR_PS_PER_S 1e12

/* The cost model, converted once to picoseconds. */
typedef struct hr_costps {
    hr_time tau;          /* latency */
    hr_time overhead;     /* CPU time per message */
    hr_time hop;          /* per link */
    double  sigma;        /* ps per byte */
    double  unit;         /* ps per hr_compute unit */
    int     measured;
} hr_costps;

/* Check c and convert it; HR_EINVAL with a reason. */
int hr__cost_convert(const hr_cost *c, hr_costps *out, const char **why);
/* sigma * bytes, rounded to the nearest picosecond: the same bytes always cost the same. */
static inline hr_time hr__cost_bytes(const hr_costps *c, size_t bytes)
{
    return (hr_time)(c->sigma * (double)bytes + 0.5);
}
hr_time hr__time_from_s(double s);
static inline double hr__time_to_s(hr_time t) { return (double)t / HR_PS_PER_S; }

#endif
