/* engine.c: the MPI engine's ranks. Each rank is one processor: it runs the algorithm, moves
 * its messages' bytes with MPI, and reports each call to the model rank (model.c), whose answer
 * gives its clock and, for a receive, which message to take (wire.h).
 *
 * Which bytes a receive takes is the model's word: every answer lists the messages the call took
 * in the model (source, sequence number, and the receive they went to: the call's own or a
 * pending hr_irecv's), and the rank takes those messages' bytes, each data message carrying its
 * sender's sequence number.
 *
 * What is here so far: the machine (create, run, destroy: procs must equal the ranks started),
 * a processor's enquiry, failure and hr_compute, the point-to-point calls (blocking and
 * requests), named or from any source, the collective blocks and group names that src/coll/
 * builds every collective from, rounds, and timed regions. Supersteps fail the run with one
 * line saying they are not on this engine yet (docs/architecture.md, "The MPI engine"). The
 * figures per processor and per region are rank 0's, from the model; supersteps' and events
 * are none yet. A block's bytes travel with it, so a lent block is the receiver's copy, viewed
 * until hr__view_end; the model costs it as lent all the same.
 */
#include "mpi/rank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/world.h"
#include "net/cost.h"
#include "net/link_model.h"
#include "util/alloc.h"
#include "util/clock.h"
#include "util/rng.h"
#include "util/sync.h"

static void rma_drop(hr_proc *p);

/* ---- the machine ------------------------------------------------------------------------ */

int hr_machine_check(const hr_machine_config *cfg, const char **why)
{
    return hr__model_check(cfg, why);
}

int hr_machine_create(const hr_machine_config *cfg, hr_machine **out, const char **why)
{
    static char reason[200];
    hr__world();     /* MPI starts */
    hr_machine *m = calloc(1, sizeof *m);
    if (m == NULL)
        return HR_ENOMEM;
    m->cfg = *cfg;
    if (m->cfg.eager_limit == 0)
        m->cfg.eager_limit = HR_EAGER_LIMIT;     /* as the model's machine has it */
    MPI_Comm_dup(MPI_COMM_WORLD, &m->ctl);
    MPI_Comm_dup(MPI_COMM_WORLD, &m->data);
    MPI_Comm_rank(m->ctl, &m->rank);
    MPI_Comm_size(m->ctl, &m->size);
    if (m->cfg.procs == 0)
        m->cfg.procs = m->size;
    int err = HR_OK;
    if (m->cfg.procs != m->size) {
        snprintf(reason, sizeof reason, "procs = %d, but mpirun started %d ranks", m->cfg.procs,
                 m->size);
        err = HR_EINVAL;
    } else if (m->cfg.cost.measured) {
        snprintf(reason, sizeof reason, "compute = measured is not on the MPI engine yet");
        err = HR_EINVAL;
    } else if (m->cfg.engine != NULL && strcmp(m->cfg.engine, "threads") != 0) {
        snprintf(reason, sizeof reason, "engine = %s: on MPI every processor is a rank",
                 m->cfg.engine);
        err = HR_EINVAL;
    } else if (m->rank == 0) {
        const char *w = NULL;
        err = hr__model_create(&m->cfg, m->ctl, &m->model, &w);
        snprintf(reason, sizeof reason, "%s", w != NULL ? w : "");
    } else {
        const char *w = NULL;
        err = hr__model_check(&m->cfg, &w);
        snprintf(reason, sizeof reason, "%s", w != NULL ? w : "");
    }
    /* Every rank says the same: rank 0's verdict stands. */
    MPI_Bcast(&err, 1, MPI_INT, 0, m->ctl);
    MPI_Bcast(reason, sizeof reason, MPI_CHAR, 0, m->ctl);
    if (err == HR_OK) {
        m->disc = hr__discipline_find(m->cfg.discipline != NULL ? m->cfg.discipline : "async");
        char w[200];
        if (hr__topo_make(m->cfg.topology != NULL ? m->cfg.topology : "complete", m->size,
                          &m->topo, w, sizeof w) != 0)
            err = HR_ENOMEM;     /* the model rank made the same one: only memory can fail */
    }
    hr_proc *p = &m->proc;
    p->id = m->rank;
    p->nprocs = m->size;
    p->traits = m->disc != NULL ? m->disc->traits : 0;
    p->topo = m->topo;
    p->m = m;
    p->stash = calloc((size_t)m->size, sizeof *p->stash);
    p->counts = calloc(2 * (size_t)m->size, sizeof *p->counts);
    if (err == HR_OK && (p->stash == NULL || p->counts == NULL))
        err = HR_ENOMEM;
    if (err != HR_OK) {
        if (why != NULL)
            *why = reason;
        hr_machine_destroy(m);
        return err;
    }
    *out = m;
    return HR_OK;
}

int hr_machine_procs(const hr_machine *m) { return m->size; }

static void drop_views(hr_proc *p)
{
    while (p->views != NULL) {
        stashed *s = p->views;
        p->views = s->next;
        free(s);
    }
}

static void drop_stash(hr_proc *p)
{
    for (int i = 0; i < p->nprocs; i++)
        while (p->stash[i] != NULL) {
            stashed *s = p->stash[i];
            p->stash[i] = s->next;
            free(s);
        }
}

void hr_machine_destroy(hr_machine *m)
{
    if (m == NULL)
        return;
    hr__model_destroy(m->model);
    hr__topo_destroy(m->topo);
    if (m->proc.stash != NULL)
        drop_stash(&m->proc);
    drop_views(&m->proc);
    free(m->proc.stash);
    free(m->proc.counts);
    free(m->proc.regs);
    rma_drop(&m->proc);
    free(m->proc.out);
    hr__alloc_free_all(&m->proc.mem);
    MPI_Comm_free(&m->ctl);
    MPI_Comm_free(&m->data);
    free(m);
}

/* ---- talking to the model rank ------------------------------------------------------------ */

static void wait_end(hr_proc *p)
{
    hr_wire_rep rep;
    do
        MPI_Recv(&rep, sizeof rep, MPI_BYTE, 0, HR_W_TAG_REP, p->m->ctl, MPI_STATUS_IGNORE);
    while (rep.status != HR_W_END);
}

/* Is s message number seq (HR_ANY_SEQ: any) of its sender's messages of that kind? */
static int is_msg(const stashed *s, int kind, uint64_t seq)
{
    return s->h.kind == kind && (seq == HR_ANY_SEQ || s->h.seq == seq);
}

stashed *hr__rank_pull(hr_proc *p, int src)
{
    MPI_Status st;
    int n;
    MPI_Probe(src, HR_W_TAG_DATA, p->m->data, &st);
    MPI_Get_count(&st, MPI_BYTE, &n);
    stashed *s = malloc(offsetof(stashed, h) + (size_t)n);
    if (s == NULL)
        hr_fail(p, "out of memory receiving %d bytes", n);
    MPI_Recv(&s->h, n, MPI_BYTE, st.MPI_SOURCE, HR_W_TAG_DATA, p->m->data, MPI_STATUS_IGNORE);
    s->next = NULL;
    s->src = st.MPI_SOURCE;
    s->arrival = p->arrivals++;
    stashed **at = &p->stash[s->src];
    while (*at != NULL)
        at = &(*at)->next;
    *at = s;
    return s;
}

void hr__rank_unstash(hr_proc *p, stashed *s)
{
    stashed **at = &p->stash[s->src];
    while (*at != s)
        at = &(*at)->next;
    *at = s->next;
    s->next = NULL;
}

stashed *hr__rank_data(hr_proc *p, int src, int kind, uint64_t seq)
{
    stashed *s = p->stash[src];
    while (s != NULL && !is_msg(s, kind, seq))
        s = s->next;
    while (s == NULL) {
        stashed *got = hr__rank_pull(p, src);
        if (is_msg(got, kind, seq))
            s = got;
    }
    hr__rank_unstash(p, s);
    return s;
}

static hr_request *request_of(hr_proc *p, uint64_t token)
{
    for (hr_request *q = p->reqs; q != NULL; q = q->next)
        if (q->token == token)
            return q;
    return NULL;
}

/* Take the bytes of what the model took: into a pending receive's buffer, or, for the call's
 * own, kept in p->own for the call. */
static void take_taken(hr_proc *p, const hr_wire_taken *t)
{
    stashed *s = hr__rank_data(p, t->src, t->tag == HR__TAG_ROUND ? HR_W_ROUND_MSG : HR_W_MSG,
                               t->seq);
    if (s->h.len != t->len)
        hr_fail(p, "the MPI engine's message %llu from P%d has %llu bytes where the model took "
                "%llu", (unsigned long long)t->seq, t->src, (unsigned long long)s->h.len,
                (unsigned long long)t->len);
    if (t->token == 0) {
        free(p->own);
        p->own = s;
        return;
    }
    hr_request *q = request_of(p, t->token);
    if (q == NULL)
        hr_fail(p, "the model took a message for a request this rank does not hold");
    if (s->h.len > 0)
        memcpy(q->buf, s->bytes, s->h.len);
    q->got = 1;
    free(s);
}

/* The answer to the call just reported, and the bytes of what it took; the run's end instead
 * leaves the algorithm. */
static hr_wire_rep answer(hr_proc *p)
{
    hr_wire_rep rep;
    MPI_Recv(&rep, sizeof rep, MPI_BYTE, 0, HR_W_TAG_REP, p->m->ctl, MPI_STATUS_IGNORE);
    if (rep.status == HR_W_END)
        longjmp(p->exit, 2);
    p->clock = rep.clock;
    p->quiet = 0;
    if (rep.ntaken > 0) {
        hr_wire_taken *t = malloc((size_t)rep.ntaken * sizeof *t);
        if (t == NULL)
            hr_fail(p, "out of memory for the model's answer");
        MPI_Recv(t, (int)((size_t)rep.ntaken * sizeof *t), MPI_BYTE, 0, HR_W_TAG_REP, p->m->ctl,
                 MPI_STATUS_IGNORE);
        for (int i = 0; i < rep.ntaken; i++)
            take_taken(p, &t[i]);
        free(t);
    }
    return rep;
}

static void report(hr_proc *p, hr_wire_req *r)
{
    r->run = p->m->run;
    MPI_Send(r, sizeof *r, MPI_BYTE, 0, HR_W_TAG_REQ, p->m->ctl);
}

/* After a call's report: len more bytes of it, after the run's number. */
static void report_extra(hr_proc *p, const void *extra, size_t len)
{
    uint8_t *b = malloc(sizeof(uint64_t) + len);
    if (b == NULL)
        hr_fail(p, "out of memory for a call of %zu bytes", len);
    memcpy(b, &p->m->run, sizeof(uint64_t));
    memcpy(b + sizeof(uint64_t), extra, len);
    MPI_Send(b, (int)(sizeof(uint64_t) + len), MPI_BYTE, 0, HR_W_TAG_EXTRA, p->m->ctl);
    free(b);
}

/* Report r and wait for the answer. With the model off there is no one to tell: nothing. */
static hr_wire_rep call(hr_proc *p, hr_wire_req *r)
{
    if (p->off)
        return (hr_wire_rep){ .status = HR_W_OK };
    report(p, r);
    return answer(p);
}

/* Report r and go on, if the window allows (else wait for the answer): for calls the model
 * performs without blocking and that take nothing. p->clock is behind until the next answer. */
static void tell(hr_proc *p, hr_wire_req *r)
{
    if (p->off)
        return;
    if (p->quiet == HR_W_WINDOW) {
        call(p, r);
        return;
    }
    r->quiet = 1;
    report(p, r);
    p->quiet++;
}

/* The call's own message, as the model took it: into buf (cap bytes at most), or NULL for a
 * call that takes none. Its status in *st. */
static size_t own_into(hr_proc *p, const hr_wire_rep *rep, void *buf, hr_status *st)
{
    if (st != NULL)
        *st = (hr_status){ rep->src, rep->tag, rep->len };
    stashed *s = p->own;
    p->own = NULL;
    if (s == NULL)
        hr_fail(p, "the model answered a receive without a message");
    if (s->h.len > 0)
        memcpy(buf, s->bytes, s->h.len);
    free(s);
    return rep->len;
}

static __attribute__((noreturn)) void leave_failed(hr_proc *p, int misuse, const char *fmt,
                                                   va_list ap)
{
    if (p->off)
        hr__direct_fail(p, misuse, fmt, ap);
    hr_wire_req r = { .op = HR_W_FAIL, .misuse = misuse };
    vsnprintf(r.text, sizeof r.text, fmt, ap);
    report(p, &r);
    wait_end(p);
    longjmp(p->exit, 2);
}

void hr_fail(hr_proc *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    leave_failed(p, 0, fmt, ap);
}

void hr__misuse(hr_proc *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    leave_failed(p, 1, fmt, ap);
}

static void drop_requests(hr_proc *p);

/* ---- the run ------------------------------------------------------------------------------ */

/* Free the buffers of sends MPI is done with. */
static void sends_reap(hr_proc *p)
{
    int k = 0;
    for (int i = 0; i < p->nout; i++) {
        int done = 0;
        MPI_Test(&p->out[i].req, &done, MPI_STATUS_IGNORE);
        if (done)
            free(p->out[i].buf);
        else
            p->out[k++] = p->out[i];
    }
    p->nout = k;
}

/* Receive and drop a data message of the run that no receive took, if one is there. */
static void drop_one(hr_proc *p)
{
    int flag, n;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, HR_W_TAG_DATA, p->m->data, &flag, &st);
    if (!flag)
        return;
    MPI_Get_count(&st, MPI_BYTE, &n);
    void *b = malloc((size_t)n);
    HR_ASSERT(b != NULL);
    MPI_Recv(b, n, MPI_BYTE, st.MPI_SOURCE, HR_W_TAG_DATA, p->m->data, MPI_STATUS_IGNORE);
    free(b);
}

/* After the run's end: every rank's sends complete (their receivers drop what no receive took),
 * and no message of this run is left to be taken for the next one. */
static void settle(hr_proc *p)
{
    for (sends_reap(p); p->nout > 0; sends_reap(p))
        drop_one(p);
    MPI_Request b;
    int done = 0;
    MPI_Ibarrier(p->m->data, &b);
    while (!done) {
        drop_one(p);
        MPI_Test(&b, &done, MPI_STATUS_IGNORE);
    }
    drop_stash(p);
    drop_views(p);
    free(p->own);
    p->own = NULL;
    free(p->rgot);
    p->rgot = NULL;
    drop_requests(p);
}

int hr_machine_run(hr_machine *m, void (*fn)(hr_proc *, void *), void *arg, hr_run_result *res)
{
    if (m == NULL || fn == NULL || res == NULL)
        return HR_EINVAL;
    memset(res, 0, sizeof *res);
    hr_proc *p = &m->proc;
    m->run++;
    p->clock = 0;
    hr__alloc_recycle(&p->mem);
    hr__rng_seed(&p->rng, m->cfg.seed, (uint64_t)p->id);
    memset(p->slots, 0, sizeof p->slots);
    p->coll_tag = HR__TAG_COLL;
    p->seq = 0;
    p->rseq = 0;
    p->rfate = HR_FATE_NONE;
    p->nregs = 0;
    rma_drop(p);
    memset(p->counts, 0, 2 * (size_t)p->nprocs * sizeof *p->counts);
    p->arrivals = 0;
    p->off = m->model_off;
    if (m->rank == 0 && !p->off)
        hr__model_begin(m->model, m->run);
    MPI_Barrier(m->ctl);
    double t0 = hr__wall_s();
    if (p->off) {                    /* direct.c: the algorithm alone */
        hr__direct_begin(p);
        fn(p, arg);
    } else if (setjmp(p->exit) == 0) {
        fn(p, arg);
        hr_wire_req r = { .op = HR_W_DONE };
        report(p, &r);
        wait_end(p);
    }
    double wall = hr__wall_s() - t0;
    settle(p);
    if (p->off)
        hr__direct_end(p);
    else if (m->rank == 0)
        hr__model_end(m->model, res);
    MPI_Bcast(res, sizeof *res, MPI_BYTE, 0, m->ctl);
    MPI_Allreduce(&wall, &res->wall_s, 1, MPI_DOUBLE, MPI_MAX, m->ctl);
    return HR_OK;
}

/* ---- a processor's own -------------------------------------------------------------------- */

/* After quiet calls the rank's clock is behind: ask. */
double hr_now(const hr_proc *p)
{
    if (p->off)                      /* no model clock: the run's wall time so far */
        return hr__wall_s() - p->t0;
    if (p->quiet > 0) {
        hr_wire_req r = { .op = HR_W_NOW };
        call((hr_proc *)p, &r);
    }
    return hr__time_to_s(p->clock);
}
uint64_t hr_seed(const hr_proc *p)  { return p->m->cfg.seed; }
const char *hr_discipline(const hr_proc *p) { return p->m->disc->name; }

void hr_compute(hr_proc *p, double units)
{
    hr_wire_req r = { .op = HR_W_COMPUTE, .units = units };
    tell(p, &r);
}

void **hr__proc_slot(hr_proc *p, int slot) { return &p->slots[slot]; }

/* ---- point-to-point ----------------------------------------------------------------------- */

/* Room for one more send under way. */
static sending *out_slot(hr_proc *p, size_t len)
{
    sends_reap(p);
    if (p->nout == p->capout) {
        int cap = p->capout ? 2 * p->capout : 16;
        sending *o = realloc(p->out, (size_t)cap * sizeof *o);
        if (o == NULL)
            hr_fail(p, "out of memory sending %zu bytes", len);
        p->out = o;
        p->capout = cap;
    }
    sending *o = &p->out[p->nout++];
    o->borrowed = 0;
    return o;
}

void hr__rank_send(hr_proc *p, int dest, int kind, int tag, uint64_t seq, const void *buf,
                   size_t len)
{
    sending *o = out_slot(p, len);
    uint8_t *b = malloc(sizeof(hr_wire_data) + len);
    if (b == NULL)
        hr_fail(p, "out of memory sending %zu bytes", len);
    hr_wire_data h = { .tag = tag, .kind = kind, .len = len, .seq = seq };
    memcpy(b, &h, sizeof h);
    if (len > 0)
        memcpy(b + sizeof h, buf, len);
    o->buf = b;
    MPI_Isend(b, (int)(sizeof h + len), MPI_BYTE, dest, HR_W_TAG_DATA, p->m->data, &o->req);
}

/* Below this a copy costs less than a datatype of two pieces. */
#define BORROW_MIN 4096

void hr__rank_send_borrowed(hr_proc *p, int dest, int kind, int tag, uint64_t seq,
                            const void *buf, size_t len)
{
    if (len < BORROW_MIN || len > INT32_MAX) {
        hr__rank_send(p, dest, kind, tag, seq, buf, len);
        return;
    }
    sending *o = out_slot(p, len);
    hr_wire_data *h = malloc(sizeof *h);
    if (h == NULL)
        hr_fail(p, "out of memory sending %zu bytes", len);
    *h = (hr_wire_data){ .tag = tag, .kind = kind, .len = len, .seq = seq };
    /* The head and the bytes where they are, as one message. */
    MPI_Aint at[2];
    int lens[2] = { (int)sizeof *h, (int)len };
    MPI_Get_address(h, &at[0]);
    MPI_Get_address(buf, &at[1]);
    MPI_Datatype two;
    MPI_Type_create_hindexed(2, lens, at, MPI_BYTE, &two);
    MPI_Type_commit(&two);
    MPI_Isend(MPI_BOTTOM, 1, two, dest, HR_W_TAG_DATA, p->m->data, &o->req);
    MPI_Type_free(&two);
    o->buf = h;
    o->borrowed = 1;
}

void hr__rank_borrowed_wait(hr_proc *p)
{
    int k = 0;
    for (int i = 0; i < p->nout; i++) {
        if (p->out[i].borrowed) {
            MPI_Wait(&p->out[i].req, MPI_STATUS_IGNORE);
            free(p->out[i].buf);
        } else {
            p->out[k++] = p->out[i];
        }
    }
    p->nout = k;
}

/* The model numbered the message just sent as this rank did, or the two part ways. */
static void check_seq(hr_proc *p, const hr_wire_rep *rep)
{
    if (rep->seq != p->seq - 1)
        hr_fail(p, "the MPI engine numbered a message %llu where the model numbered it %llu",
                (unsigned long long)(p->seq - 1), (unsigned long long)rep->seq);
}

/* Send through the model: op (HR_W_SEND, HR_W_ISEND, HR_W_POST, HR_W_LEND). */
static hr_wire_rep send_call(hr_proc *p, int op, int dest, int tag, const void *buf, size_t len)
{
    if (op == HR_W_POST || op == HR_W_LEND)     /* borrowed until hr__coll_complete */
        hr__rank_send_borrowed(p, dest, HR_W_MSG, tag, p->seq++, buf, len);
    else
        hr__rank_send(p, dest, HR_W_MSG, tag, p->seq++, buf, len);
    if (p->off)
        return (hr_wire_rep){ .token = 1 };     /* done: a direct request's token */
    hr_wire_req r = { .op = op, .peer = dest, .tag = tag, .len = len };
    hr_wire_rep rep = call(p, &r);
    check_seq(p, &rep);
    return rep;
}

/* Does the model complete p's send of len bytes at once: copied, with no bounded buffer to
 * wait for? Then the rank need not wait for its answer. */
static int completes_at_once(const hr_proc *p, size_t len)
{
    return p->m->cfg.buffer == 0 && !hr__disc_rendezvous(p->m->disc, len, p->m->cfg.eager_limit);
}

void hr__eng_send(hr_proc *p, int dest, int tag, const void *buf, size_t len)
{
    if (!completes_at_once(p, len)) {
        send_call(p, HR_W_SEND, dest, tag, buf, len);
        return;
    }
    hr__rank_send(p, dest, HR_W_MSG, tag, p->seq++, buf, len);
    hr_wire_req r = { .op = HR_W_SEND, .peer = dest, .tag = tag, .len = len };
    tell(p, &r);
}

size_t hr__eng_recv(hr_proc *p, int src, int tag, void *buf, size_t cap, hr_status *st,
                    const char *call_name)
{
    if (p->off)
        return hr__direct_recv(p, src, tag, buf, cap, st, call_name);
    hr_wire_req r = { .op = HR_W_RECV, .peer = src, .tag = tag, .len = cap };
    hr_wire_rep rep = call(p, &r);
    return own_into(p, &rep, buf, st);
}

size_t hr__eng_sendrecv(hr_proc *p, int dest, int sendtag, const void *sendbuf, size_t sendlen,
                        int src, int recvtag, void *recvbuf, size_t cap, hr_status *st)
{
    hr__rank_send(p, dest, HR_W_MSG, sendtag, p->seq++, sendbuf, sendlen);
    if (p->off)
        return hr__direct_recv(p, src, recvtag, recvbuf, cap, st, "hr_sendrecv");
    hr_wire_req r = { .op = HR_W_SENDRECV, .peer = dest, .tag = sendtag, .len = sendlen,
                      .peer2 = src, .tag2 = recvtag, .cap = cap };
    hr_wire_rep rep = call(p, &r);
    return own_into(p, &rep, recvbuf, st);
}

void hr__eng_probe(hr_proc *p, int src, int tag, hr_status *st)
{
    if (p->off) {
        hr__direct_probe(p, src, tag, st);
        return;
    }
    hr_wire_req r = { .op = HR_W_PROBE, .peer = src, .tag = tag };
    hr_wire_rep rep = call(p, &r);
    if (st != NULL)
        *st = (hr_status){ rep.src, rep.tag, rep.len };
}

int hr__eng_iprobe(hr_proc *p, int src, int tag, hr_status *st)
{
    if (p->off)
        return hr__direct_iprobe(p, src, tag, st);
    hr_wire_req r = { .op = HR_W_IPROBE, .peer = src, .tag = tag };
    hr_wire_rep rep = call(p, &r);
    if (rep.flag && st != NULL)
        *st = (hr_status){ rep.src, rep.tag, rep.len };
    return rep.flag;
}

/* ---- requests ----------------------------------------------------------------------------- */

hr_request *hr__rank_request(hr_proc *p, uint64_t token, void *buf, size_t cap)
{
    hr_request *q = malloc(sizeof *q);
    if (q == NULL)
        hr_fail(p, "out of memory for a request");
    *q = (hr_request){ .next = p->reqs, .token = token, .buf = buf, .cap = cap };
    p->reqs = q;
    return q;
}

void hr__rank_request_free(hr_proc *p, hr_request **req)
{
    for (hr_request **at = &p->reqs; *at != NULL; at = &(*at)->next)
        if (*at == *req) {
            *at = (*req)->next;
            break;
        }
    free(*req);
    *req = NULL;
}

static void drop_requests(hr_proc *p)
{
    while (p->reqs != NULL) {
        hr_request *q = p->reqs;
        hr__rank_request_free(p, &q);
    }
}

void hr__eng_request_check(hr_proc *p, const hr_request *r, const char *call_name)
{
    for (const hr_request *q = p->reqs; q != NULL; q = q->next)
        if (q == r)
            return;
    hr__misuse(p, "%s: the request was completed already (a copy of its handle, kept after "
               "hr_wait, hr_waitall or hr_test set the handle to NULL?)", call_name);
}

hr_request *hr__eng_isend(hr_proc *p, int dest, int tag, const void *buf, size_t len)
{
    hr_wire_rep rep = send_call(p, HR_W_ISEND, dest, tag, buf, len);
    return hr__rank_request(p, rep.token, NULL, 0);
}

hr_request *hr__eng_irecv(hr_proc *p, int src, int tag, void *buf, size_t cap)
{
    if (p->off)
        return hr__direct_irecv(p, src, tag, buf, cap);
    hr_wire_req r = { .op = HR_W_IRECV, .peer = src, .tag = tag, .len = cap };
    hr_wire_rep rep = call(p, &r);
    return hr__rank_request(p, rep.token, buf, cap);
}

/* *req is complete, its status st as the model says: set it free. */
static size_t request_done(hr_proc *p, hr_request **req, hr_status st, hr_status *out)
{
    if ((*req)->buf != NULL && !(*req)->got && st.bytes > 0)
        hr_fail(p, "the model completed a receive whose bytes this rank was not told of");
    if (out != NULL)
        *out = st;
    hr__rank_request_free(p, req);
    return st.bytes;
}

size_t hr__eng_wait(hr_proc *p, hr_request **req, hr_status *st, const char *call_name)
{
    (void)call_name;
    if (p->off)
        return hr__direct_wait(p, req, st);
    hr_wire_req r = { .op = HR_W_WAIT, .token = (*req)->token };
    hr_wire_rep rep = call(p, &r);
    return request_done(p, req, (hr_status){ rep.src, rep.tag, rep.len }, st);
}

int hr__eng_test(hr_proc *p, hr_request **req, hr_status *st)
{
    if (p->off)
        return hr__direct_test(p, req, st);
    hr_wire_req r = { .op = HR_W_TEST, .token = (*req)->token };
    hr_wire_rep rep = call(p, &r);
    if (rep.flag)
        request_done(p, req, (hr_status){ rep.src, rep.tag, rep.len }, st);
    return rep.flag;
}

void hr__eng_waitall(hr_proc *p, int n, hr_request **reqs, hr_status *st)
{
    if (p->off) {
        for (int i = 0; i < n; i++)
            if (reqs[i] != NULL)
                hr__direct_wait(p, &reqs[i], st != NULL ? &st[i] : NULL);
        return;
    }
    uint64_t *tokens = malloc((size_t)(n > 0 ? n : 1) * sizeof *tokens);
    hr_wire_status *sts = malloc((size_t)(n > 0 ? n : 1) * sizeof *sts);
    if (tokens == NULL || sts == NULL)
        hr_fail(p, "out of memory for hr_waitall of %d", n);
    for (int i = 0; i < n; i++)
        tokens[i] = reqs[i] != NULL ? reqs[i]->token : 0;
    hr_wire_req r = { .op = HR_W_WAITALL, .len = (uint64_t)n };
    report(p, &r);
    report_extra(p, tokens, (size_t)n * sizeof *tokens);
    answer(p);
    MPI_Recv(sts, (int)((size_t)n * sizeof *sts), MPI_BYTE, 0, HR_W_TAG_REP, p->m->ctl,
             MPI_STATUS_IGNORE);
    for (int i = 0; i < n; i++) {
        hr_status one = { sts[i].src, sts[i].tag, sts[i].len };
        if (reqs[i] != NULL)
            request_done(p, &reqs[i], one, st != NULL ? &st[i] : NULL);
        else if (st != NULL)
            st[i] = one;
    }
    free(tokens);
    free(sts);
}

/* ---- collective blocks and groups --------------------------------------------------------- */

/* A block call the model costs: op with peer and len. */
static void block_call(hr_proc *p, int op, int peer, size_t len)
{
    hr_wire_req r = { .op = op, .peer = peer, .len = len };
    call(p, &r);
}

/* The block the model just took for the call. */
static stashed *block_data(hr_proc *p)
{
    stashed *s = p->own;
    p->own = NULL;
    if (s == NULL)
        hr_fail(p, "the model answered a collective's take without a block");
    return s;
}

void hr__coll_begin(hr_proc *p, int tag, const char *fmt, ...)
{
    hr_wire_req r = { .op = HR_W_COLL_BEGIN, .tag = tag };
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r.text, sizeof r.text, fmt, ap);
    va_end(ap);
    p->coll_tag = tag;
    call(p, &r);
}

void hr__coll_end(hr_proc *p) { block_call(p, HR_W_COLL_END, 0, 0); }

void hr__coll_post(hr_proc *p, int dest, const void *buf, size_t len)
{
    send_call(p, HR_W_POST, dest, p->coll_tag, buf, len);
}

void hr__coll_lend(hr_proc *p, int dest, const void *buf, size_t len)
{
    send_call(p, HR_W_LEND, dest, p->coll_tag, buf, len);
}

/* A rank's blocks go one by one, each to its own rank; the model posts each. */
int hr__coll_batch(hr_proc *p, const void *base, size_t stride, size_t len, int lend)
{
    (void)p, (void)base, (void)stride, (void)len, (void)lend;
    return 0;
}

void hr__coll_take(hr_proc *p, int src, void *buf, size_t len)
{
    if (p->off) {
        hr__direct_recv(p, src, p->coll_tag, buf, len, NULL, "a collective");
        return;
    }
    block_call(p, HR_W_TAKE, src, len);
    stashed *s = block_data(p);
    if (len > 0)
        memcpy(buf, s->bytes, len);
    free(s);
}

/* The block stays the rank's until hr__view_end (the sender's copy went with the message). */
const void *hr__coll_view(hr_proc *p, int src, size_t len)
{
    if (p->off)
        return hr__direct_view(p, src, len);
    block_call(p, HR_W_VIEW, src, len);
    stashed *s = block_data(p);
    s->next = p->views;
    p->views = s;
    return s->bytes;
}

void hr__view_end(hr_proc *p)
{
    block_call(p, HR_W_VIEW_END, 0, 0);
    drop_views(p);
    hr__rank_borrowed_wait(p);
}

void hr__coll_await(hr_proc *p, int count) { block_call(p, HR_W_AWAIT, 0, (size_t)count); }

/* Every block posted is taken (the model says so): their bytes have left, or are leaving. */
void hr__coll_complete(hr_proc *p)
{
    block_call(p, HR_W_COMPLETE, 0, 0);
    hr__rank_borrowed_wait(p);
}

/* The model names groups, so that every rank's id for one key is the same as on threads. */
int hr__ctx_id(hr_proc *p, const void *key, size_t len)
{
    if (p->off)
        return hr__direct_ctx_id(key, len);
    hr_wire_req r = { .op = HR_W_CTX, .len = len };
    report(p, &r);
    report_extra(p, key, len);
    return answer(p).tag;
}

/* ---- timed regions: the model keeps them -------------------------------------------------- */

static void region_call(hr_proc *p, int op, const char *name)
{
    hr_wire_req r = { .op = op, .peer = name == NULL };
    if (name != NULL)
        snprintf(r.text, sizeof r.text, "%s", name);
    call(p, &r);
}

void hr_region_begin(hr_proc *p, const char *name) { region_call(p, HR_W_REGION_BEGIN, name); }
void hr_region_end(hr_proc *p, const char *name)   { region_call(p, HR_W_REGION_END, name); }

/* ---- the machine's settings ------------------------------------------------------------- */

hr_cost  hr_costs(const hr_proc *p)         { return p->m->cfg.cost; }
uint64_t hr_buffer(const hr_proc *p)        { return p->m->cfg.buffer; }
int      hr_store_forward(const hr_proc *p) { return p->m->cfg.switching == HR_NET_STORE_FORWARD; }

/* ---- not on this engine yet --------------------------------------------------------------- */


/* ---- rounds -------------------------------------------------------------------------------
 * The model resolves every round; a rank sends its round message's bytes once the model has
 * taken the message (the fate SENT, not STALLED behind a queued one), and the answer to
 * hr_round_end names the message the round delivered to it, if any. */

hr_fate hr_round_send(hr_proc *p, int dest, const void *buf, size_t len, uint64_t prio)
{
    hr_wire_req r = { .op = HR_W_ROUND_SEND, .peer = dest, .len = len, .token = prio };
    hr_wire_rep rep = call(p, &r);
    if (rep.flag == HR_FATE_SENT)
        hr__rank_send(p, dest, HR_W_ROUND_MSG, 0, p->rseq++, buf, len);
    return (hr_fate)rep.flag;
}

int hr_round_end(hr_proc *p, int more)
{
    hr_wire_req r = { .op = HR_W_ROUND_END, .len = more != 0 };
    free(p->rgot);           /* not taken in its round: gone, as on threads */
    p->rgot = NULL;
    hr_wire_rep rep = call(p, &r);
    p->rgot = p->own;
    p->own = NULL;
    p->rfate = rep.tag;
    return rep.flag;
}

hr_fate hr_round_fate(const hr_proc *p) { return (hr_fate)p->rfate; }

int hr_round_recv(hr_proc *p, void *buf, size_t cap, hr_status *st)
{
    stashed *g = p->rgot;
    if (!(p->traits & HR_DISC_IN_ROUNDS) || (g != NULL && g->h.len > cap)) {
        hr_wire_req r = { .op = HR_W_ROUND_RECV, .len = cap };     /* the model says the misuse */
        call(p, &r);
    }
    if (g == NULL)
        return 0;
    if (g->h.len > 0)
        memcpy(buf, g->bytes, g->h.len);
    if (st != NULL)
        *st = (hr_status){ g->src, 0, g->h.len };
    free(g);
    p->rgot = NULL;
    return 1;
}

/* ---- supersteps ---------------------------------------------------------------------------
 * The model performs every call on memory that holds nothing, checks them and decides every
 * figure; the bytes move between ranks. A put's bytes leave with the call (HR_W_PUT_MSG, behind
 * its slot and offset) and a get's request likewise (HR_W_GET_MSG); at hr_sync, once the model
 * has answered (so every call was sound), the ranks tell each other how many of each they sent
 * (one all-to-all), and each, as the thread engine's canonical order has it (superstep.c):
 * serves the gets addressed to it from its regions as they are at the superstep's end, takes
 * the replies to its own gets, then applies the puts addressed to it by source and issue
 * order. */

static void rma_add(hr_proc *p, int peer, int64_t slot, size_t off, size_t len, void *to)
{
    struct rma *r = malloc(sizeof *r);
    if (r == NULL)
        hr_fail(p, "out of memory in a superstep");
    *r = (struct rma){ peer, slot, off, len, to, NULL };
    if (p->rma_tail != NULL)
        p->rma_tail->next = r;
    else
        p->rma_head = r;
    p->rma_tail = r;
}

static void rma_drop(hr_proc *p)
{
    while (p->rma_head != NULL) {
        struct rma *next = p->rma_head->next;
        if (p->rma_head->peer == -1)         /* a put to itself: its copy */
            free(p->rma_head->to);
        free(p->rma_head);
        p->rma_head = next;
    }
    p->rma_tail = NULL;
}

/* Bytes off .. off + len of this rank's region slot, which the model has checked. */
static uint8_t *region_at(hr_proc *p, int64_t slot, size_t off, size_t len)
{
    if (slot < 0 || slot >= p->nregs || off > p->regs[slot].bytes ||
        len > p->regs[slot].bytes - off) {
        HR_ASSERT(p->off);           /* the model said it is sound: no rank gets here */
        hr__misuse(p, "hr_sync: a put or get to bytes %zu..%zu of P%d's slot %lld, which it "
                   "has not registered so far", off, off + len, p->id, (long long)slot);
    }
    return (uint8_t *)p->regs[slot].base + off;
}

int hr_register(hr_proc *p, void *base, size_t bytes)
{
    hr_wire_req r = { .op = HR_W_REGISTER, .len = bytes, .misuse = base == NULL };
    hr_wire_rep rep = call(p, &r);           /* the model says a NULL base's misuse */
    if (p->off && base == NULL && bytes > 0)
        hr__misuse(p, "hr_register: NULL region of %zu bytes", bytes);
    if (p->nregs == p->capregs) {
        int cap = p->capregs ? 2 * p->capregs : 8;
        void *g = realloc(p->regs, (size_t)cap * sizeof *p->regs);
        if (g == NULL)
            hr_fail(p, "out of memory in hr_register");
        p->regs = g;
        p->capregs = cap;
    }
    p->regs[p->nregs].base = base;
    p->regs[p->nregs].bytes = bytes;
    HR_ASSERT(p->off || rep.tag == p->nregs);
    return p->nregs++;
}

/* A put's or a get's request's bytes to peer: the slot and offset, then a put's bytes. */
static void rma_send(hr_proc *p, int kind, int peer, int slot, size_t off, const void *src,
                     size_t len)
{
    hr_wire_rma h = { slot, off, len };
    size_t n = sizeof h + (src != NULL ? len : 0);
    uint8_t *b = malloc(n);
    if (b == NULL)
        hr_fail(p, "out of memory in a superstep");
    memcpy(b, &h, sizeof h);
    if (src != NULL && len > 0)
        memcpy(b + sizeof h, src, len);
    hr__rank_send(p, peer, kind, 0, 0, b, n);
    free(b);
}

/* Tell the model of a put or get (op) of len bytes at buf to or from peer; 0 when it is a
 * misuse the rank can see: the model, told the same (misuse: buf is NULL), says which, and the
 * run ends (with the model off, the rank says it). */
static int rma_call(hr_proc *p, int op, int peer, int slot, size_t off, const void *buf,
                    size_t len)
{
    hr_wire_req r = { .op = op, .peer = peer, .tag = slot, .cap = off, .len = len,
                      .misuse = buf == NULL };
    if (peer < 0 || peer >= p->nprocs || (buf == NULL && len > 0)) {
        if (p->off)
            hr__misuse(p, "%s: P%d, %zu bytes at %p", op == HR_W_PUT ? "hr_put" : "hr_get",
                       peer, len, buf);
        call(p, &r);
        return 0;
    }
    tell(p, &r);
    return 1;
}

void hr_put(hr_proc *p, int dest, int slot, size_t off, const void *src, size_t len)
{
    if (!rma_call(p, HR_W_PUT, dest, slot, off, src, len))
        return;
    if (dest == p->id) {
        void *copy = malloc(len > 0 ? len : 1);
        if (copy == NULL)
            hr_fail(p, "out of memory in hr_put");
        if (len > 0)
            memcpy(copy, src, len);
        rma_add(p, -1, slot, off, len, copy);   /* peer -1: a put to itself */
        return;
    }
    rma_send(p, HR_W_PUT_MSG, dest, slot, off, src, len);
    p->counts[dest]++;
}

void hr_get(hr_proc *p, int src, int slot, size_t off, void *dst, size_t len)
{
    if (!rma_call(p, HR_W_GET, src, slot, off, dst, len))
        return;
    rma_add(p, src, slot, off, len, dst);
    if (src != p->id) {
        rma_send(p, HR_W_GET_MSG, src, slot, off, NULL, len);
        p->counts[p->nprocs + src]++;
    }
}

/* After the model's answer to hr_sync (model off: at once): the superstep's bytes, in the
 * canonical order. */
void hr__rank_sync_move(hr_proc *p)
{
    int np = p->nprocs;
    uint64_t *from = malloc(2 * (size_t)np * sizeof *from);
    if (from == NULL)
        hr_fail(p, "out of memory in hr_sync");
    /* counts[d], counts[np + d] -> from[s], from[np + s]: puts and gets from every s */
    MPI_Datatype pair;
    MPI_Type_vector(2, 1, np, MPI_UINT64_T, &pair);
    MPI_Type_create_resized(pair, 0, sizeof(uint64_t), &pair);
    MPI_Type_commit(&pair);
    MPI_Alltoall(p->counts, 1, pair, from, 1, pair, p->m->data);
    MPI_Type_free(&pair);
    /* Gets, in (issuer, issue) order as on threads: the others' are served, this rank's own
     * to itself read its regions. Every get reads the superstep's end values: no put is
     * applied yet. */
    for (int s = 0; s < np; s++) {
        if (s == p->id) {
            for (struct rma *r = p->rma_head; r != NULL; r = r->next)
                if (r->peer == p->id && r->len > 0)
                    memmove(r->to, region_at(p, r->slot, r->off, r->len), r->len);
            continue;
        }
        for (uint64_t k = 0; k < from[np + s]; k++) {
            stashed *q = hr__rank_data(p, s, HR_W_GET_MSG, HR_ANY_SEQ);
            hr_wire_rma h;
            memcpy(&h, q->bytes, sizeof h);
            hr__rank_send(p, s, HR_W_REPLY_MSG, 0, 0, region_at(p, h.slot, h.off, h.len), h.len);
            free(q);
        }
    }
    for (struct rma *r = p->rma_head; r != NULL; r = r->next)
        if (r->peer >= 0 && r->peer != p->id) {
            stashed *q = hr__rank_data(p, r->peer, HR_W_REPLY_MSG, HR_ANY_SEQ);
            if (r->len > 0)
                memcpy(r->to, q->bytes, r->len);
            free(q);
        }
    /* Puts, by source and issue order. */
    for (int s = 0; s < np; s++) {
        if (s == p->id) {
            for (struct rma *r = p->rma_head; r != NULL; r = r->next)
                if (r->peer == -1) {
                    if (r->len > 0)
                        memcpy(region_at(p, r->slot, r->off, r->len), r->to, r->len);
                    free(r->to);
                    r->to = NULL;
                }
            continue;
        }
        for (uint64_t k = 0; k < from[s]; k++) {
            stashed *q = hr__rank_data(p, s, HR_W_PUT_MSG, HR_ANY_SEQ);
            hr_wire_rma h;
            memcpy(&h, q->bytes, sizeof h);
            if (h.len > 0)
                memcpy(region_at(p, h.slot, h.off, h.len), q->bytes + sizeof h, h.len);
            free(q);
        }
    }
    free(from);
    rma_drop(p);
    memset(p->counts, 0, 2 * (size_t)np * sizeof *p->counts);
}

void hr_sync(hr_proc *p)
{
    hr_wire_req r = { .op = HR_W_SYNC };
    call(p, &r);
    hr__rank_sync_move(p);
}

void hr_barrier(hr_proc *p)
{
    hr_wire_req r = { .op = HR_W_BARRIER };
    call(p, &r);
    if (p->off)
        MPI_Barrier(p->m->data);
}

/* The last run's figures beyond hr_run_result are the model rank's: rank 0 has them, the other
 * ranks none (hremu-mpi writes only on rank 0). */
void hr_machine_events(hr_machine *m, size_t limit)
{
    if (m->model != NULL)
        hr__model_events(m->model, limit);
}
size_t hr_machine_event_count(const hr_machine *m, size_t *dropped)
{
    if (m->model != NULL)
        return hr__model_event_count(m->model, dropped);
    if (dropped != NULL)
        *dropped = 0;
    return 0;
}
int hr_machine_event_each(const hr_machine *m, void (*sink)(void *arg, const hr_event *e),
                          void *arg)
{
    return m->model != NULL ? hr__model_event_each(m->model, sink, arg) : HR_EINVAL;
}
int hr_machine_model(hr_machine *m, int on)
{
    if (!on && (m->disc->traits & HR_DISC_IN_ROUNDS))
        return HR_EINVAL;            /* a round's outcome is the model's */
    m->model_off = !on;
    return HR_OK;
}

/* The model checks the rule on every rank's calls. */
void hr_machine_neighbour_only(hr_machine *m, int on)
{
    if (m->model != NULL)
        hr__model_neighbour_only(m->model, on);
}
/* Per processor and per region: rank 0 has them from the model; the other ranks, none yet. */
int hr_machine_proc_result(const hr_machine *m, int pid, hr_proc_result *out)
{
    return m->model != NULL ? hr__model_proc_result(m->model, pid, out) : HR_EINVAL;
}
size_t hr_machine_regions(const hr_machine *m)
{
    return m->model != NULL ? hr__model_regions(m->model) : 0;
}
int hr_machine_region_result(const hr_machine *m, size_t i, hr_region_result *out)
{
    return m->model != NULL ? hr__model_region_result(m->model, i, out) : HR_EINVAL;
}
size_t hr_machine_supersteps(const hr_machine *m)
{
    return m->model != NULL ? hr__model_supersteps(m->model) : 0;
}
int hr_machine_superstep_result(const hr_machine *m, size_t s, hr_superstep_result *out)
{
    return m->model != NULL ? hr__model_superstep_result(m->model, s, out) : HR_EINVAL;
}
