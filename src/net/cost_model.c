/* cost_model.c: the table of cost models (cost_model.h) and their rules, the formulas of
 * docs/model.md, "Cost models". A new model is its functions here and one row at the end of the
 * table. */
#include "net/cost_model.h"

#include <string.h>

/* ---- bdm: the seeds' model, tau + sigma*m (docs/model.md) --------------------------------- */

/* bdm's and bsp's lead: tau. */
static hr_time lead_tau(const hr_costps *c)
{
    return c->tau;
}

/* The rules are cost_model.h's, inline there for the hot paths. */
static hr_cm_send bdm_send(const hr_costps *c, hr_time clock, hr_time port, size_t bytes)
{
    return hr__bdm_send(c, clock, port, bytes);
}

static hr_cm_take bdm_take(const hr_costps *c, hr_time clock, hr_time arrive, hr_time port,
                           size_t bytes)
{
    return hr__bdm_take(c, clock, arrive, port, bytes);
}

/* ---- loggp: Alexandrov, Ionescu, Schauser, Scheiman, SPAA 1995 -------------------------------
 * L = tau, o = overhead, G = sigma, g = gap. Where the papers leave room hremu reads them as
 * LogGOPSim does (Hoefler, Schneider, Lumsdaine, HPDC 2010; docs/model.md says why):
 * - a send starts when the sender's clock and its gap allow, t = max(clock, port); its CPU is
 *   busy o from t, and its next injection is g + (m-1)G after t (o and g start together);
 * - the first byte arrives o + L after t; the bytes after it stream at G each, charged at the
 *   receiver (the first byte pays no G);
 * - a receiver takes it once its receiving gap allows, r = max(a, port): its CPU is busy o and
 *   then (m-1)G, and its next reception is g + (m-1)G after r. The receive's o is charged when
 *   the program takes the message (LogGOPSim charges it at arrival, whether the receive is
 *   posted or not: here a processor's clock moves only in its own calls). */

static hr_time loggp_lead(const hr_costps *c)
{
    return hr__tadd(c->overhead, c->tau);
}

/* (m-1)G, the stream after the first byte; none for an empty message. */
static hr_time loggp_stream(const hr_costps *c, size_t bytes)
{
    return bytes > 0 ? hr__cost_bytes(c, bytes - 1) : 0;
}

static hr_cm_send loggp_send(const hr_costps *c, hr_time clock, hr_time port, size_t bytes)
{
    hr_time t = hr__tmax(clock, port);
    return (hr_cm_send){ .inject = t, .clock = hr__tadd(t, c->overhead),
                         .port = hr__tadd(hr__tadd(t, c->gap), loggp_stream(c, bytes)) };
}

static hr_cm_take loggp_take(const hr_costps *c, hr_time clock, hr_time arrive, hr_time port,
                             size_t bytes)
{
    hr_time r = hr__tmax(arrive, port), stream = loggp_stream(c, bytes);
    return (hr_cm_take){ .in = hr__tadd(r, stream),
                         .clock = hr__tadd(hr__tadd(hr__tmax(clock, r), c->overhead), stream),
                         .port = hr__tadd(hr__tadd(r, c->gap), stream) };
}

/* ---- bsp: Valiant, CACM 33(8), 1990; BSPlib (Hill et al., Parallel Computing 24, 1998) -----
 * A superstep costs w + h*g + l: w the largest local work in it, h the largest number of bytes
 * a processor sends or receives in it, g = sigma (s a byte) and l = tau (s a superstep). The
 * model charges nothing to a send or a take: a collective block is injected at its sender's
 * clock, arrives l later (the lead, which only orders blocks), and leaves its receiver's clock
 * where it is. Inside a superstep a clock moves by local work alone, so at its end it is at most
 * the previous end plus w, and hr_sync moves every clock to the previous end plus the cost. */

static hr_cm_send bsp_send(const hr_costps *c, hr_time clock, hr_time port, size_t bytes)
{
    (void)c;
    (void)bytes;
    return (hr_cm_send){ .inject = clock, .clock = clock, .port = port };
}

static hr_cm_take bsp_take(const hr_costps *c, hr_time clock, hr_time arrive, hr_time port,
                           size_t bytes)
{
    (void)c;
    (void)bytes;
    return (hr_cm_take){ .in = arrive, .clock = clock, .port = port };
}

static hr_time bsp_superstep(const hr_costps *c, hr_time w, uint64_t h)
{
    return hr__tadd(hr__tadd(w, hr__cost_bytes(c, (size_t)h)), c->tau);
}

/* The first row is the default. */
static const hr_cost_model models[] = {
    { .name = "bdm",
      .summary = "the seeds' model: a message costs tau + sigma*m, ports serialise, links "
                 "contend (the default; docs/model.md)",
      .params = "tau latency, sigma s a byte, overhead o a message, hop a link",
      .preset = "cm5",
      .defines = HR_CM_RENDEZVOUS | HR_CM_BUFFERS | HR_CM_ROUNDS | HR_CM_LINKS |
                 HR_CM_SUPERSTEPS | HR_CM_BATCHES | HR_CM_BARRIER | HR_CM_P2P | HR_CM_OVERHEAD,
      .lead = lead_tau, .send = bdm_send, .take = bdm_take },
    { .name = "loggp",
      .summary = "LogGP (Alexandrov et al., SPAA 1995), read as LogGOPSim does: 2o + L + (m-1)G "
                 "a message, g between a processor's messages; no hops (on a topology, linked "
                 "processors only)",
      .params = "tau is L, overhead o, sigma G (s a byte), gap g",
      .preset = "tukey",
      .defines = HR_CM_GAP | HR_CM_BARRIER | HR_CM_P2P | HR_CM_OVERHEAD | HR_CM_NEIGHBOURS,
      .lead = loggp_lead, .send = loggp_send, .take = loggp_take },
    { .name = "bsp",
      .summary = "BSP (Valiant 1990): a superstep costs w + h*g + l; programs in supersteps "
                 "(hr_put, hr_get, hr_sync) and world collectives, a superstep each",
      .params = "sigma is g (s a byte of h), tau is l (s a superstep)",
      .preset = "t3e",
      .defines = HR_CM_SUPERSTEPS,
      .lead = lead_tau, .send = bsp_send, .take = bsp_take, .superstep = bsp_superstep },
};
#define NMODELS ((int)(sizeof models / sizeof models[0]))

const hr_cost_model *const hr__cm_bdm = &models[0];

const hr_cost_model *hr__cost_model_find(const char *name)
{
    if (name == NULL)
        return &models[0];
    for (int i = 0; i < NMODELS; i++)
        if (strcmp(models[i].name, name) == 0)
            return &models[i];
    return NULL;
}

const hr_cost_model *hr__cost_model_at(int i)
{
    return i >= 0 && i < NMODELS ? &models[i] : NULL;
}

int hr_cost_model_preset(const char *model, const char *name, hr_cost *c)
{
    const hr_cost_model *cm = hr__cost_model_find(model);
    const hr_cost *found = cm != NULL ? hr__cost_preset_find(cm->name, name ? name : cm->preset)
                                      : NULL;
    if (found == NULL)
        return HR_ENOENT;
    *c = *found;
    return HR_OK;
}

int hr_cost_preset(const char *name, hr_cost *c)
{
    return hr_cost_model_preset(NULL, name, c);
}

const char *hr__cost_model_name(int i, const char **summary)
{
    const hr_cost_model *cm = hr__cost_model_at(i);
    if (cm != NULL && summary != NULL)
        *summary = cm->summary;
    return cm != NULL ? cm->name : NULL;
}
