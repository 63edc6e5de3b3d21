/* engine.c: the MPI engine's ranks. Each rank is one processor: it runs the algorithm, moves
 * its messages' bytes with MPI, and reports each call to the model rank (model.c), whose answer
 * gives its clock and, for a receive, which message to take (wire.h).
 *
 * What is here so far: the machine (create, run, destroy: procs must equal the ranks started),
 * a processor's enquiry, failure and hr_compute, the blocking point-to-point calls (hr_send,
 * hr_recv, hr_probe, hr_sendrecv), named or from any source, and the collective blocks and
 * group names that src/coll/ builds every collective from. The rest of the API (requests,
 * rounds, supersteps, regions) fails the run with one line saying it is not on this engine yet
 * (docs/architecture.md, "The MPI engine"). A block's bytes travel with it, so a lent block is
 * the receiver's copy, viewed until hr__view_end; the model costs it as lent all the same.
 */
#include <mpi.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hremu/hremu.h>
#include <hremu/machine.h>

#include "core/engine.h"
#include "mpi/model.h"
#include "mpi/wire.h"
#include "net/cost.h"
#include "net/discipline.h"
#include "util/alloc.h"
#include "util/clock.h"
#include "util/rng.h"

/* A message's bytes that came before the receive that takes them. */
typedef struct stashed {
    struct stashed *next;
    hr_wire_data    h;
    uint8_t         bytes[];
} stashed;

/* A send still under way: its buffer lives until MPI is done with it. */
typedef struct sending {
    MPI_Request req;
    void       *buf;
} sending;

struct hr_proc {
    union {                          /* engine.h's head, first */
        hr_eng_head head;
        struct { int id, nprocs; unsigned traits; hr_rng rng; hr_alloc mem; };
    };
    struct hr_machine *m;
    jmp_buf   exit;
    int64_t   clock;                 /* ps, as the model rank last said */
    stashed **stash;                 /* [nprocs] in arrival order */
    sending  *out;
    int       nout, capout;
    int       coll_tag;              /* the tag of the collective under way (hr__coll_begin) */
    stashed  *views;                 /* blocks viewed in place until hr__view_end */
    void     *slots[HR_NSLOTS];
};

struct hr_machine {
    hr_machine_config cfg;
    const hr_disc *disc;
    MPI_Comm  ctl, data;
    int       rank, size;
    uint64_t  run;
    hr_proc   proc;
    hr_model *model;                 /* rank 0 */
};

static int mpi_started_here;

static void mpi_end(void)
{
    int done;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

static int mpi_start(void)
{
    int on;
    MPI_Initialized(&on);
    if (on)
        return HR_OK;
    int provided;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
        return HR_ESYS;
    mpi_started_here = 1;
    atexit(mpi_end);
    return provided == MPI_THREAD_MULTIPLE ? HR_OK : HR_ESYS;
}

/* ---- the machine ------------------------------------------------------------------------ */

int hr_machine_check(const hr_machine_config *cfg, const char **why)
{
    return hr__model_check(cfg, why);
}

int hr_machine_create(const hr_machine_config *cfg, hr_machine **out, const char **why)
{
    static char reason[200];
    int err = mpi_start();
    if (err != HR_OK) {
        if (why != NULL)
            *why = "MPI could not start with MPI_THREAD_MULTIPLE";
        return err;
    }
    hr_machine *m = calloc(1, sizeof *m);
    if (m == NULL)
        return HR_ENOMEM;
    m->cfg = *cfg;
    MPI_Comm_dup(MPI_COMM_WORLD, &m->ctl);
    MPI_Comm_dup(MPI_COMM_WORLD, &m->data);
    MPI_Comm_rank(m->ctl, &m->rank);
    MPI_Comm_size(m->ctl, &m->size);
    if (m->cfg.procs == 0)
        m->cfg.procs = m->size;
    err = HR_OK;
    if (m->cfg.procs != m->size) {
        snprintf(reason, sizeof reason, "procs = %d, but mpirun started %d ranks", m->cfg.procs,
                 m->size);
        err = HR_EINVAL;
    } else if (m->cfg.cost.measured) {
        snprintf(reason, sizeof reason, "compute = measured is not on the MPI engine yet");
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
    if (err == HR_OK)
        m->disc = hr__discipline_find(m->cfg.discipline != NULL ? m->cfg.discipline : "async");
    hr_proc *p = &m->proc;
    p->id = m->rank;
    p->nprocs = m->size;
    p->traits = m->disc != NULL ? m->disc->traits : 0;
    p->m = m;
    p->stash = calloc((size_t)m->size, sizeof *p->stash);
    if (err == HR_OK && p->stash == NULL)
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
    if (m->proc.stash != NULL)
        drop_stash(&m->proc);
    drop_views(&m->proc);
    free(m->proc.stash);
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

/* The answer to the call just reported; the run's end instead leaves the algorithm. */
static hr_wire_rep answer(hr_proc *p)
{
    hr_wire_rep rep;
    MPI_Recv(&rep, sizeof rep, MPI_BYTE, 0, HR_W_TAG_REP, p->m->ctl, MPI_STATUS_IGNORE);
    if (rep.status == HR_W_END)
        longjmp(p->exit, 2);
    p->clock = rep.clock;
    return rep;
}

static void report(hr_proc *p, hr_wire_req *r)
{
    r->run = p->m->run;
    MPI_Send(r, sizeof *r, MPI_BYTE, 0, HR_W_TAG_REQ, p->m->ctl);
}

/* Report r and wait for the answer. */
static hr_wire_rep call(hr_proc *p, hr_wire_req *r)
{
    report(p, r);
    return answer(p);
}

static __attribute__((noreturn)) void leave_failed(hr_proc *p, int misuse, const char *fmt,
                                                   va_list ap)
{
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

/* ---- the run ------------------------------------------------------------------------------ */

/* Free the buffers of sends MPI is done with; all of them if all. */
static void sends_reap(hr_proc *p, int all)
{
    int k = 0;
    for (int i = 0; i < p->nout; i++) {
        int done = 0;
        if (all)
            MPI_Wait(&p->out[i].req, MPI_STATUS_IGNORE), done = 1;
        else
            MPI_Test(&p->out[i].req, &done, MPI_STATUS_IGNORE);
        if (done)
            free(p->out[i].buf);
        else
            p->out[k++] = p->out[i];
    }
    p->nout = k;
}

/* Receive (and drop) every data message of the run until ibarrier completes, reaping sends. */
static void drain_until(hr_proc *p, MPI_Request *barrier, int reap_first)
{
    int done = 0;
    while (!done) {
        int flag;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, HR_W_TAG_DATA, p->m->data, &flag, &st);
        if (flag) {
            int n;
            MPI_Get_count(&st, MPI_BYTE, &n);
            void *b = malloc((size_t)n);
            MPI_Recv(b, n, MPI_BYTE, st.MPI_SOURCE, HR_W_TAG_DATA, p->m->data, MPI_STATUS_IGNORE);
            free(b);
        }
        if (reap_first) {
            sends_reap(p, 0);
            if (p->nout == 0)
                return;
        } else {
            MPI_Test(barrier, &done, MPI_STATUS_IGNORE);
        }
    }
}

/* After the run's end: every rank's sends complete (their receivers drop what no receive took),
 * and no message of this run is left to be taken for the next one. */
static void settle(hr_proc *p)
{
    drain_until(p, NULL, 1);
    MPI_Request b;
    MPI_Ibarrier(p->m->data, &b);
    drain_until(p, &b, 0);
    drop_stash(p);
    drop_views(p);
}

int hr_machine_run(hr_machine *m, void (*fn)(hr_proc *, void *), void *arg, hr_run_result *res)
{
    memset(res, 0, sizeof *res);
    hr_proc *p = &m->proc;
    m->run++;
    p->clock = 0;
    hr__alloc_recycle(&p->mem);
    hr__rng_seed(&p->rng, m->cfg.seed, (uint64_t)p->id);
    memset(p->slots, 0, sizeof p->slots);
    p->coll_tag = HR__TAG_COLL;
    if (m->rank == 0)
        hr__model_begin(m->model, m->run);
    MPI_Barrier(m->ctl);
    double t0 = hr__wall_s();
    int how = setjmp(p->exit);
    if (how == 0) {
        fn(p, arg);
        hr_wire_req r = { .op = HR_W_DONE };
        report(p, &r);
        wait_end(p);
    }
    double wall = hr__wall_s() - t0;
    settle(p);
    if (m->rank == 0)
        hr__model_end(m->model, res);
    MPI_Bcast(res, sizeof *res, MPI_BYTE, 0, m->ctl);
    MPI_Allreduce(&wall, &res->wall_s, 1, MPI_DOUBLE, MPI_MAX, m->ctl);
    return HR_OK;
}

/* ---- a processor's own -------------------------------------------------------------------- */

double hr_now(const hr_proc *p)     { return hr__time_to_s(p->clock); }
uint64_t hr_seed(const hr_proc *p)  { return p->m->cfg.seed; }
const char *hr_discipline(const hr_proc *p) { return p->m->disc->name; }

void hr_compute(hr_proc *p, double units)
{
    hr_wire_req r = { .op = HR_W_COMPUTE, .units = units };
    call(p, &r);
}

void **hr__proc_slot(hr_proc *p, int slot) { return &p->slots[slot]; }

/* ---- point-to-point ----------------------------------------------------------------------- */

/* Send len bytes of buf to dest with tag, on the data communicator; buf may change at once. */
static void data_send(hr_proc *p, int dest, int tag, const void *buf, size_t len)
{
    sends_reap(p, 0);
    if (p->nout == p->capout) {
        int cap = p->capout ? 2 * p->capout : 16;
        sending *o = realloc(p->out, (size_t)cap * sizeof *o);
        if (o == NULL)
            hr_fail(p, "out of memory sending %zu bytes", len);
        p->out = o;
        p->capout = cap;
    }
    uint8_t *b = malloc(sizeof(hr_wire_data) + len);
    if (b == NULL)
        hr_fail(p, "out of memory sending %zu bytes", len);
    hr_wire_data h = { .tag = tag, .len = len };
    memcpy(b, &h, sizeof h);
    if (len > 0)
        memcpy(b + sizeof h, buf, len);
    sending *o = &p->out[p->nout++];
    o->buf = b;
    MPI_Isend(b, (int)(sizeof h + len), MPI_BYTE, dest, HR_W_TAG_DATA, p->m->data, &o->req);
}

void hr__eng_send(hr_proc *p, int dest, int tag, const void *buf, size_t len)
{
    data_send(p, dest, tag, buf, len);
    hr_wire_req r = { .op = HR_W_SEND, .peer = dest, .tag = tag, .len = len };
    call(p, &r);
}

/* Take the bytes of the first message from src with tag, as the model matched it: from the
 * stash, or from MPI, stashing what comes before it. */
static stashed *take_data(hr_proc *p, int src, int tag)
{
    stashed **at = &p->stash[src];
    for (; *at != NULL; at = &(*at)->next)
        if ((*at)->h.tag == tag) {
            stashed *s = *at;
            *at = s->next;
            return s;
        }
    for (;;) {
        MPI_Status st;
        int n;
        MPI_Probe(src, HR_W_TAG_DATA, p->m->data, &st);
        MPI_Get_count(&st, MPI_BYTE, &n);
        stashed *s = malloc(sizeof *s - sizeof s->h + (size_t)n);
        if (s == NULL)
            hr_fail(p, "out of memory receiving %d bytes", n);
        MPI_Recv(&s->h, n, MPI_BYTE, src, HR_W_TAG_DATA, p->m->data, MPI_STATUS_IGNORE);
        s->next = NULL;
        if (s->h.tag == tag)
            return s;
        *at = s;
        at = &s->next;
    }
}

size_t hr__eng_recv(hr_proc *p, int src, int tag, void *buf, size_t cap, hr_status *st,
                    const char *call_name)
{
    (void)call_name;
    hr_wire_req r = { .op = HR_W_RECV, .peer = src, .tag = tag, .len = cap };
    hr_wire_rep rep = call(p, &r);
    stashed *s = take_data(p, rep.src, rep.tag);
    if (s->h.len != rep.len)
        hr_fail(p, "the MPI engine took a %llu-byte message from P%d where the model matched "
                "%llu bytes (tag %d)", (unsigned long long)s->h.len, rep.src,
                (unsigned long long)rep.len, rep.tag);
    if (s->h.len > 0)
        memcpy(buf, s->bytes, s->h.len);
    free(s);
    if (st != NULL)
        *st = (hr_status){ rep.src, rep.tag, rep.len };
    return rep.len;
}

size_t hr__eng_sendrecv(hr_proc *p, int dest, int sendtag, const void *sendbuf, size_t sendlen,
                        int src, int recvtag, void *recvbuf, size_t cap, hr_status *st)
{
    hr__eng_send(p, dest, sendtag, sendbuf, sendlen);
    return hr__eng_recv(p, src, recvtag, recvbuf, cap, st, "hr_sendrecv");
}

void hr__eng_probe(hr_proc *p, int src, int tag, hr_status *st)
{
    hr_wire_req r = { .op = HR_W_PROBE, .peer = src, .tag = tag };
    hr_wire_rep rep = call(p, &r);
    if (st != NULL)
        *st = (hr_status){ rep.src, rep.tag, rep.len };
}

/* ---- not on this engine yet --------------------------------------------------------------- */

static __attribute__((noreturn)) void not_yet(hr_proc *p, const char *what)
{
    hr_fail(p, "%s is not on the MPI engine yet (docs/architecture.md, \"The MPI engine\")",
            what);
}

hr_request *hr__eng_isend(hr_proc *p, int d, int t, const void *b, size_t l)
{
    (void)d, (void)t, (void)b, (void)l;
    not_yet(p, "hr_isend");
}
hr_request *hr__eng_irecv(hr_proc *p, int s, int t, void *b, size_t c)
{
    (void)s, (void)t, (void)b, (void)c;
    not_yet(p, "hr_irecv");
}
size_t hr__eng_wait(hr_proc *p, hr_request **r, hr_status *st, const char *c)
{
    (void)r, (void)st, (void)c;
    not_yet(p, "hr_wait");
}
void hr__eng_waitall(hr_proc *p, int n, hr_request **r, hr_status *st)
{
    (void)n, (void)r, (void)st;
    not_yet(p, "hr_waitall");
}
int hr__eng_test(hr_proc *p, hr_request **r, hr_status *st)
{
    (void)r, (void)st;
    not_yet(p, "hr_test");
}
int hr__eng_iprobe(hr_proc *p, int s, int t, hr_status *st)
{
    (void)s, (void)t, (void)st;
    not_yet(p, "hr_iprobe");
}
void hr__eng_request_check(hr_proc *p, const hr_request *r, const char *c)
{
    (void)r, (void)c;
    not_yet(p, "a request");
}

/* ---- collective blocks and groups --------------------------------------------------------- */

/* A block call the model costs: op with peer and len. */
static void block_call(hr_proc *p, int op, int peer, size_t len)
{
    hr_wire_req r = { .op = op, .peer = peer, .len = len };
    call(p, &r);
}

/* The block from src the model just matched: exactly len bytes. */
static stashed *block_data(hr_proc *p, int src, size_t len)
{
    stashed *s = take_data(p, src, p->coll_tag);
    if (s->h.len != len)
        hr__misuse(p, "a collective's block from P%d has %llu bytes where %zu were expected", src,
                   (unsigned long long)s->h.len, len);
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
    data_send(p, dest, p->coll_tag, buf, len);
    block_call(p, HR_W_POST, dest, len);
}

void hr__coll_lend(hr_proc *p, int dest, const void *buf, size_t len)
{
    data_send(p, dest, p->coll_tag, buf, len);
    block_call(p, HR_W_LEND, dest, len);
}

void hr__coll_take(hr_proc *p, int src, void *buf, size_t len)
{
    block_call(p, HR_W_TAKE, src, len);
    stashed *s = block_data(p, src, len);
    if (len > 0)
        memcpy(buf, s->bytes, len);
    free(s);
}

/* The block stays the rank's until hr__view_end (the sender's copy went with the message). */
const void *hr__coll_view(hr_proc *p, int src, size_t len)
{
    block_call(p, HR_W_VIEW, src, len);
    stashed *s = block_data(p, src, len);
    s->next = p->views;
    p->views = s;
    return s->bytes;
}

void hr__view_end(hr_proc *p)
{
    block_call(p, HR_W_VIEW_END, 0, 0);
    drop_views(p);
}

void hr__coll_await(hr_proc *p, int count) { block_call(p, HR_W_AWAIT, 0, (size_t)count); }
void hr__coll_complete(hr_proc *p)         { block_call(p, HR_W_COMPLETE, 0, 0); }

/* The model names groups, so that every rank's id for one key is the same as on threads. */
int hr__ctx_id(hr_proc *p, const void *key, size_t len)
{
    hr_wire_req r = { .op = HR_W_CTX, .len = len };
    uint8_t *b = malloc(sizeof(uint64_t) + len);
    if (b == NULL)
        hr_fail(p, "out of memory naming a group");
    memcpy(b, &p->m->run, sizeof(uint64_t));
    memcpy(b + sizeof(uint64_t), key, len);
    report(p, &r);
    MPI_Send(b, (int)(sizeof(uint64_t) + len), MPI_BYTE, 0, HR_W_TAG_KEY, p->m->ctl);
    free(b);
    return answer(p).tag;
}
