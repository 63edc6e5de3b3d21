/* irreg.c: the schedulers of irregular communication on the pattern workload (work/pattern.h):
 * seed 001's LS, PS, BS and GS (sec. 4), seed 002's partial permutations (LP, CGM, CGMH: perm.c)
 * and its asynchronous AC. A schedule is the algorithm's plan: computed once from
 * the COM matrix before any processor starts (sched.c; the paper: "The communication schedule
 * needs to be created only once and can be used thereafter"), its wall time and steps reported
 * in the columns plan_s and plan_steps, apart from the communication's model time. Every
 * processor then runs the steps in order: in a step it takes part in its transfers, an exchange
 * in Figure 2's order (the lower number receives first, so a rendezvous completes), a lone send
 * or receive as it is; LS's receiver takes its senders in increasing order. */
#include "alg/irreg.h"

#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

#include "alg/perm.h"
#include "alg/sched.h"
#include "work/pattern.h"

#define TAG_IRREG 12

typedef int (*scheduler)(int p, const uint64_t *com, hr_sched *out);

int hr__irreg_keep_plan(void *inst, hr_sched *s, int err, unsigned promise, int overlap,
                        char *why, size_t whylen)
{
    hr_pattern *x = inst;
    if (err != HR_OK) {
        free(s);
        snprintf(why, whylen, "the schedule could not be made: %s", hr_strerror(err));
        return err;
    }
    /* The runner trusts the schedule (one send a step, receives as the shape says, every
     * message once): a fault here would otherwise be a hang or wrong data at best. */
    char fault[256];
    if ((err = hr__sched_check_flags(s, x->com, promise, fault, sizeof fault)) != HR_OK) {
        snprintf(why, whylen, "the schedule breaks its promise: %s",
                 err == HR_EINVAL ? fault : hr_strerror(err));
        hr__sched_free(s);
        free(s);
        return err == HR_EINVAL ? HR_EFAIL : err;
    }
    s->overlap = overlap;
    x->plan = s;
    return HR_OK;
}

static int plan_with(void *inst, scheduler fn, unsigned promise, char *why, size_t whylen)
{
    hr_pattern *x = inst;
    hr_sched *s = malloc(sizeof *s);
    return hr__irreg_keep_plan(inst, s, s != NULL ? fn(x->p, x->com, s) : HR_ENOMEM, promise, 0,
                               why, whylen);
}

/* Seed 001's schedulers and what each promises (sched.h): LS's steps are one receiver's, in
 * ascending order; PS's and BS's the pairs of one XOR, ascending; GS's disjoint pairs. */
int hr_alg_irreg_ls_plan(void *inst, const hr_plan_args *args, char *why, size_t len)
{
    (void)args;
    return plan_with(inst, hr__sched_ls, HR_SCHED_LINEAR, why, len);
}

int hr_alg_irreg_ps_plan(void *inst, const hr_plan_args *args, char *why, size_t len)
{
    (void)args;
    return plan_with(inst, hr__sched_ps, HR_SCHED_PAIRS | HR_SCHED_XOR, why, len);
}

int hr_alg_irreg_bs_plan(void *inst, const hr_plan_args *args, char *why, size_t len)
{
    (void)args;
    return plan_with(inst, hr__sched_bs, HR_SCHED_PAIRS | HR_SCHED_XOR_BS, why, len);
}

int hr_alg_irreg_gs_plan(void *inst, const hr_plan_args *args, char *why, size_t len)
{
    (void)args;
    return plan_with(inst, hr__sched_gs, HR_SCHED_PAIRS, why, len);
}

void hr_alg_irreg_unplan(void *inst)
{
    hr_pattern *x = inst;
    hr__sched_free(x->plan);
    free(x->plan);
    x->plan = NULL;
}

/* ---- seed 002: schedules of partial permutations (perm.c) --------------------------------- */

/* A schedule of the variant for the instance's pattern, with the machine's tau and sigma (the
 * paper's phi) for MS's and BJ's Gain, the machine's seed for the random choices, and for
 * the CGMH variants their parameters (cgmh_fixed's lambda and reset, and every one's base:
 * what lambda is a fraction of). A split message's remainder goes back to its
 * heap at the place of its whole size (keep_place): the reading of "its proper location" that
 * reproduces seed 002's Table 1 (docs/seed002.md). */
static int plan_perm(void *inst, const hr_plan_args *args, hr_perm_variant v, char *why,
                     size_t whylen)
{
    hr_pattern *x = inst;
    hr_perm_opts o = hr__perm_opts_default(v);
    o.tau = args->cost.tau;
    o.phi = args->cost.sigma;
    o.seed = args->seed;
    o.keep_place = 1;
    if (v == HR_PERM_CGMH_FIXED && args->params != NULL) {
        o.lambda = args->params[0];
        o.no_reset = args->params[1] == 0;
        o.base = (hr_perm_base)args->params[2];
    } else if ((v == HR_PERM_CGMH_MS || v == HR_PERM_CGMH_BJ) && args->params != NULL) {
        o.base = (hr_perm_base)args->params[0];
    }
    hr_sched *s = malloc(sizeof *s);
    /* What perm.h promises: partial permutations; LP's the pairs of one XOR a step, ascending,
     * with dummies; CGMH's messages may be split. */
    unsigned promise = HR_SCHED_PERM;
    if (v == HR_PERM_LP)
        promise |= HR_SCHED_PAIRS | HR_SCHED_XOR | HR_SCHED_DUMMIES;
    else if (v == HR_PERM_CGMH_FIXED || v == HR_PERM_CGMH_MS || v == HR_PERM_CGMH_BJ)
        promise |= HR_SCHED_SPLITS;
    /* A permutation's send and receive go at once. So do LP's exchanges: Figure 1 has both
     * partners send first, then receive, which under rendezvous (CMMD's) would deadlock; read
     * as one send-and-receive, as the permutations'. */
    return hr__irreg_keep_plan(inst, s, s != NULL ? hr__perm_schedule(x->p, x->com, &o, s)
                                                  : HR_ENOMEM, promise, 1, why, whylen);
}

#define PERM_PLAN(NAME, VARIANT)                                                              \
    int hr_alg_irreg_##NAME##_plan(void *inst, const hr_plan_args *args, char *why, size_t len) \
    {                                                                                          \
        return plan_perm(inst, args, VARIANT, why, len);                                       \
    }
PERM_PLAN(lp, HR_PERM_LP)
PERM_PLAN(cgm, HR_PERM_CGM)
PERM_PLAN(cgm_sort, HR_PERM_CGM_SORT)
PERM_PLAN(cgm_heap, HR_PERM_CGM_HEAP)
PERM_PLAN(cgmh_fixed, HR_PERM_CGMH_FIXED)
PERM_PLAN(cgmh_ms, HR_PERM_CGMH_MS)
PERM_PLAN(cgmh_bj, HR_PERM_CGMH_BJ)
#undef PERM_PLAN

/* The permutations, each transfer with its bytes (a part of a split message as "k of n B"). */
int hr_alg_irreg_perm_print(const void *inst, FILE *out)
{
    const hr_pattern *x = inst;
    return x->plan != NULL ? hr__sched_print_opts(x->plan, HR_SCHED_PRINT_BYTES, out) : HR_EINVAL;
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

/* What a processor has moved of each message so far: a schedule may split a message over
 * several steps (seed 002's CGMH), its parts in order. */
typedef struct progress {
    size_t *sent;   /* [p]: bytes of my message to j sent */
    size_t *got;    /* [p]: bytes of j's message to me received */
} progress;

/* Processor me's part of one step, transfers t[0 .. n) in (src, dst) order. In every schedule a
 * processor sends at most one transfer a step and receives one, or, in LS's steps, receives
 * several and sends none. A pair sending both ways is an exchange, done in seed 001's Figure 2
 * order (the lower number receives first, so a rendezvous completes) unless the schedule says
 * overlap; a send and a receive with two other processors, or with one under overlap (seed
 * 002's permutations: "P_i sends a message to P_send(i); P_i receives a message from
 * P_receive(i)" in one step) go together by hr_sendrecv, which cannot deadlock in a cycle under
 * rendezvous as blocking sends would; a lone send or receives go as they are. A
 * transfer of 0 bytes is a dummy message (seed 002's LP): it is sent and costs its latency. */
static void run_step(hr_proc *p, hr_pattern *x, uint8_t *out, progress *pg, const hr_xfer *t,
                     size_t n, int overlap)
{
    int me = hr_pid(p), np = x->p, to = -1, nfrom = 0;
    size_t sbytes = 0;
    for (size_t k = 0; k < n; k++) {
        if (t[k].src == me) {
            to = t[k].dst;
            sbytes = (size_t)t[k].bytes;
        }
        nfrom += t[k].dst == me;
    }
    int dest = to;   /* to becomes -1 once the send is done */
    const uint8_t *mine = to >= 0 ? x->in[me] + x->soff[(size_t)me * np + to] + pg->sent[to]
                                  : NULL;
    for (size_t k = 0; k < n; k++) {
        if (t[k].dst != me)
            continue;
        int from = t[k].src;
        size_t rbytes = (size_t)t[k].bytes;
        uint8_t *theirs = out + x->roff[(size_t)from * np + me] + pg->got[from];
        pg->got[from] += rbytes;
        if (to < 0 || nfrom > 1) {
            hr_recv(p, from, TAG_IRREG, theirs, rbytes, NULL);
        } else if (from != to || overlap) {
            hr_sendrecv(p, to, TAG_IRREG, mine, sbytes, from, TAG_IRREG, theirs, rbytes, NULL);
            to = -1;
        } else if (me < from) {
            hr_recv(p, from, TAG_IRREG, theirs, rbytes, NULL);
            hr_send(p, to, TAG_IRREG, mine, sbytes);
            to = -1;
        } else {
            hr_send(p, to, TAG_IRREG, mine, sbytes);
            hr_recv(p, from, TAG_IRREG, theirs, rbytes, NULL);
            to = -1;
        }
    }
    if (to >= 0)
        hr_send(p, to, TAG_IRREG, mine, sbytes);
    if (mine != NULL)
        pg->sent[dest] += sbytes;
}

void hr_alg_irreg_run(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_pattern *x = inst;
    const hr_sched *s = x->plan;
    int me = hr_pid(p);
    uint8_t *out = hr_malloc(p, x->in_bytes[me] ? x->in_bytes[me] : 1);
    progress pg = { hr_malloc(p, (size_t)x->p * sizeof *pg.sent),
                    hr_malloc(p, (size_t)x->p * sizeof *pg.got) };
    memset(pg.sent, 0, (size_t)x->p * sizeof *pg.sent);
    memset(pg.got, 0, (size_t)x->p * sizeof *pg.got);
    for (int k = 0; k < s->nsteps; k++)
        run_step(p, x, out, &pg, s->xfer + s->start[k], s->start[k + 1] - s->start[k],
                 s->overlap);
    hr_free(p, pg.sent);
    hr_free(p, pg.got);
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
