/* irreg.c: seed 001's schedulers of irregular communication (sec. 4): LS, PS, BS and GS on the
 * pattern workload (work/pattern.h). The schedule is the algorithm's plan: computed once from
 * the COM matrix before any processor starts (sched.c; the paper: "The communication schedule
 * needs to be created only once and can be used thereafter"), its wall time and steps reported
 * in the columns plan_s and plan_steps, apart from the communication's model time. Every
 * processor then runs the steps in order: in a step it takes part in its transfers, an exchange
 * in Figure 2's order (the lower number receives first, so a rendezvous completes), a lone send
 * or receive as it is; LS's receiver takes its senders in increasing order. */
#include "alg/seed001.h"

#include <stdlib.h>

#include <hremu/error.h>

#include "alg/sched.h"
#include "work/pattern.h"

#define TAG_IRREG 12

typedef int (*scheduler)(int p, const uint64_t *com, hr_sched *out);

static int plan_with(void *inst, scheduler fn, char *why, size_t whylen)
{
    hr_pattern *x = inst;
    hr_sched *s = malloc(sizeof *s);
    int err = s != NULL ? fn(x->p, x->com, s) : HR_ENOMEM;
    if (err != HR_OK) {
        free(s);
        snprintf(why, whylen, "the schedule could not be made: %s", hr_strerror(err));
        return err;
    }
    x->plan = s;
    return HR_OK;
}

int hr_alg_irreg_ls_plan(void *inst, char *why, size_t len)
{
    return plan_with(inst, hr__sched_ls, why, len);
}

int hr_alg_irreg_ps_plan(void *inst, char *why, size_t len)
{
    return plan_with(inst, hr__sched_ps, why, len);
}

int hr_alg_irreg_bs_plan(void *inst, char *why, size_t len)
{
    return plan_with(inst, hr__sched_bs, why, len);
}

int hr_alg_irreg_gs_plan(void *inst, char *why, size_t len)
{
    return plan_with(inst, hr__sched_gs, why, len);
}

void hr_alg_irreg_unplan(void *inst)
{
    hr_pattern *x = inst;
    hr__sched_free(x->plan);
    free(x->plan);
    x->plan = NULL;
}

uint64_t hr_alg_irreg_plan_steps(const void *inst)
{
    const hr_pattern *x = inst;
    return x->plan != NULL ? (uint64_t)((const hr_sched *)x->plan)->nsteps : 0;
}

int hr_alg_irreg_plan_print(const void *inst, FILE *out)
{
    const hr_pattern *x = inst;
    return x->plan != NULL ? hr__sched_print(x->plan, out) : HR_EINVAL;
}

/* Processor me's part of one step, transfers t[0 .. n) in (src, dst) order. */
static void run_step(hr_proc *p, hr_pattern *x, uint8_t *out, const hr_xfer *t, size_t n)
{
    int me = hr_pid(p), np = x->p;
    for (size_t k = 0; k < n; k++) {
        int src = t[k].src, dst = t[k].dst;
        if (src != me && dst != me)
            continue;
        int other = src == me ? dst : src;
        /* The pair's other direction, if this step has it, is the same exchange: done once,
         * from the transfer with the lower sender. */
        int pair = 0;
        for (size_t q = 0; q < n; q++)
            pair |= t[q].src == dst && t[q].dst == src;
        if (pair && src > dst)
            continue;
        const uint8_t *mine = x->in[me] + x->soff[(size_t)me * np + other];
        size_t sbytes = (size_t)x->com[(size_t)me * np + other];
        uint8_t *theirs = out + x->roff[(size_t)other * np + me];
        size_t rbytes = (size_t)x->com[(size_t)other * np + me];
        if (pair && me < other) {
            hr_recv(p, other, TAG_IRREG, theirs, rbytes, NULL);
            hr_send(p, other, TAG_IRREG, mine, sbytes);
        } else if (pair) {
            hr_send(p, other, TAG_IRREG, mine, sbytes);
            hr_recv(p, other, TAG_IRREG, theirs, rbytes, NULL);
        } else if (src == me) {
            hr_send(p, other, TAG_IRREG, mine, sbytes);
        } else {
            hr_recv(p, other, TAG_IRREG, theirs, rbytes, NULL);
        }
    }
}

void hr_alg_irreg_run(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_pattern *x = inst;
    const hr_sched *s = x->plan;
    int me = hr_pid(p);
    uint8_t *out = hr_malloc(p, x->in_bytes[me] ? x->in_bytes[me] : 1);
    for (int k = 0; k < s->nsteps; k++)
        run_step(p, x, out, s->xfer + s->start[k], s->start[k + 1] - s->start[k]);
    x->out[me] = out;
    x->done[me] = 1;
}

/* ---- seed 002 sec. 3.3: asynchronous communication (AC) ------------------------------------ */

#define TAG_AC 13   /* + the strip */

/* AC, Figure 5: "sends out all out going messages (one-by-one) to other processors; receives in
 * coming messages (one-by-one from communication buffer(s))". A processor sends to its
 * destinations in the order me + 1, me + 2, ... (mod p), so that not every processor starts with
 * processor 0; the paper gives no order. With a receive buffer too small for what arrives
 * (`buffer = BYTES`), senders block on full buffers and nobody receives: the machine's deadlock
 * report names them. strip = K > 0 is the strip mining of sec. 3.3: a processor's sends go in
 * strips of K, and after each strip it receives the messages sent to it in that strip (by any
 * sender: their count follows from the COM matrix every processor holds), taken in arrival
 * order, so fewer unreceived messages pile up. strip = 0 is one strip: all sends, then all
 * receives. */
void hr_alg_irreg_ac(hr_proc *p, void *inst, const double *params)
{
    hr_pattern *x = inst;
    int me = hr_pid(p), np = x->p, strip = params ? (int)params[0] : 0;
    uint8_t *out = hr_malloc(p, x->in_bytes[me] ? x->in_bytes[me] : 1);
    /* The number of messages to me in each strip: src's t-th message (in its order) is in strip
     * t / K. */
    int nstrips = 1;
    int *incoming = hr_malloc(p, (size_t)np * sizeof *incoming);
    for (int s = 0; s < np; s++)
        incoming[s] = 0;
    for (int src = 0; src < np; src++) {
        int t = 0;
        for (int k = 1; k < np; k++) {
            int dst = (src + k) % np;
            if (x->com[(size_t)src * np + dst] == 0)
                continue;
            int s = strip > 0 ? t / strip : 0;
            nstrips = s + 1 > nstrips ? s + 1 : nstrips;
            if (dst == me)
                incoming[s]++;
            t++;
        }
    }
    int k = 1;
    for (int s = 0; s < nstrips; s++) {
        for (int sent = 0; k < np && (strip == 0 || sent < strip); k++) {
            int dst = (me + k) % np;
            size_t bytes = (size_t)x->com[(size_t)me * np + dst];
            if (bytes == 0)
                continue;
            hr_send(p, dst, TAG_AC + s, x->in[me] + x->soff[(size_t)me * np + dst], bytes);
            sent++;
        }
        for (int r = 0; r < incoming[s]; r++) {
            hr_status st;
            hr_probe(p, HR_ANY, TAG_AC + s, &st);
            hr_recv(p, st.source, TAG_AC + s, out + x->roff[(size_t)st.source * np + me],
                    st.bytes, NULL);
        }
    }
    hr_free(p, incoming);
    x->out[me] = out;
    x->done[me] = 1;
}
