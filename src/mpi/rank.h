/* rank.h: a rank's processor and machine on the MPI engine, and the data path that both of its
 * modes share: engine.c (the model on: every call reported to rank 0, which says which message a
 * receive takes) and direct.c (`[run] model = off`: plain MPI semantics, no rank 0 in the way).
 * Every data message goes over the machine's data communicator with an hr_wire_data head
 * (wire.h); a rank keeps what came before the receive that takes it, per source in arrival
 * order. Owner only: one processor a rank.
 *
 * The two modes lean on each other: engine.c's public calls hand every call of a run with the
 * model off to direct.c, and direct.c moves messages through the data path that engine.c
 * defines (hr__rank_*), which also sends the model's calls' bytes.
 */
#ifndef HREMU_MPI_RANK_H
#define HREMU_MPI_RANK_H

#include <mpi.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <hremu/hremu.h>
#include <hremu/machine.h>

#include "core/engine.h"
#include "mpi/model.h"
#include "mpi/wire.h"
#include "net/discipline.h"
#include "net/topology.h"

/* A message's bytes that came before the receive that takes them. */
typedef struct stashed {
    struct stashed *next;
    int             src;
    uint64_t        arrival;         /* the rank's count of data messages received before it */
    hr_wire_data    h;
    uint8_t         bytes[];
} stashed;

/* A request: the model's handle (token), and for a receive where its bytes go and whether its
 * message has been taken yet; with the model off, what it receives and its place among the
 * rank's pending receives. */
struct hr_request {
    hr_request *next;
    uint64_t    token;
    void       *buf;
    size_t      cap;
    int         got;
    hr_status   st;
    int         src, tag;            /* model off: a receive's */
    hr_request *later;               /* model off: the next pending receive, in posting order */
};

/* A send still under way: its buffer (the message, or a borrowed send's head) lives until MPI
 * is done with it. */
typedef struct sending {
    MPI_Request req;
    void       *buf;
    int         borrowed;            /* the bytes are the caller's: hr__rank_borrowed_wait */
} sending;

struct hr_proc {
    HR_ENG_HEAD;                     /* engine.h's head, first */
    struct hr_machine *m;
    jmp_buf   exit;
    int64_t   clock;                 /* ps, as the model rank last said */
    int       quiet;                 /* calls reported since the last answer (HR_W_WINDOW) */
    stashed **stash;                 /* [nprocs] in arrival order */
    sending  *out;
    int       nout, capout;
    uint64_t  seq;                   /* messages sent this run: the model's numbering */
    stashed  *own;                   /* the message the last call took for itself */
    hr_request *reqs;                /* its requests not yet completed */
    int       coll_tag;              /* the tag of the collective under way (hr__coll_begin) */
    stashed  *views;                 /* blocks viewed in place until hr__view_end */
    void     *slots[HR_NSLOTS];
    uint64_t  rseq;                  /* round messages sent this run */
    /* supersteps: the registered regions, this superstep's gets (their replies' buffers) and
     * puts to itself in issue order, and the puts and gets to each processor (engine.c) */
    struct { void *base; size_t bytes; } *regs;
    int       nregs, capregs;
    struct rma { int peer; int64_t slot; size_t off, len; void *to; struct rma *next; }
             *rma_head, *rma_tail;
    uint64_t *counts;                /* [2 nprocs]: puts, then gets, to each processor */
    stashed  *rgot;                  /* the message the last round delivered, until taken */
    int       rfate;                 /* hr_round_fate: the last round's */
    uint64_t  arrivals;              /* data messages received this run */
    /* model off (direct.c) */
    int       off;
    double    t0;                    /* the run's start, for hr_now */
    hr_request *pend_head, *pend_tail;   /* receives posted and not yet matched, in order */
};

struct hr_machine {
    hr_machine_config cfg;
    const hr_disc *disc;
    hr_topo  *topo;                  /* every rank's own copy, for the topology's enquiries */
    MPI_Comm  ctl, data;
    int       rank, size;
    uint64_t  run;
    hr_proc   proc;
    hr_model *model;                 /* rank 0 */
    int       model_off;             /* hr_machine_model(m, 0): the next runs keep no model */
};

/* ---- the data path (engine.c) ------------------------------------------------------------ */

#define HR_ANY_SEQ UINT64_MAX

/* Send len bytes of buf to dest as a message of that kind (hr_wire_kind) with tag, numbered
 * seq; buf may change at once. */
void     hr__rank_send(hr_proc *p, int dest, int kind, int tag, uint64_t seq, const void *buf,
                       size_t len);
/* As hr__rank_send, but a large buf is sent from where it is (a collective's block, borrowed
 * until hr__coll_complete or hr__view_end): it must not change before hr__rank_borrowed_wait. */
void     hr__rank_send_borrowed(hr_proc *p, int dest, int kind, int tag, uint64_t seq,
                                const void *buf, size_t len);
void     hr__rank_borrowed_wait(hr_proc *p);
/* Receive the next data message from src (MPI_ANY_SOURCE: any) into the stash; wait for it. */
stashed *hr__rank_pull(hr_proc *p, int src);
/* Take src's message number seq of a kind (HR_ANY_SEQ: its first) out of the stash, pulling
 * until it is there; free() it after use. */
stashed *hr__rank_data(hr_proc *p, int src, int kind, uint64_t seq);
/* Take s out of the stash. */
void     hr__rank_unstash(hr_proc *p, stashed *s);

hr_request *hr__rank_request(hr_proc *p, uint64_t token, void *buf, size_t cap);
void        hr__rank_request_free(hr_proc *p, hr_request **req);

/* hr_sync's bytes, once every call of the superstep is known sound (engine.c, "supersteps"). */
void hr__rank_sync_move(hr_proc *p);

/* ---- model = off (direct.c) --------------------------------------------------------------- */

void        hr__direct_begin(hr_proc *p);
_Noreturn void hr__direct_fail(hr_proc *p, int misuse, const char *fmt, va_list ap);
size_t      hr__direct_recv(hr_proc *p, int src, int tag, void *buf, size_t cap, hr_status *st,
                            const char *call);
void        hr__direct_probe(hr_proc *p, int src, int tag, hr_status *st);
int         hr__direct_iprobe(hr_proc *p, int src, int tag, hr_status *st);
hr_request *hr__direct_irecv(hr_proc *p, int src, int tag, void *buf, size_t cap);
size_t      hr__direct_wait(hr_proc *p, hr_request **req, hr_status *st);
int         hr__direct_test(hr_proc *p, hr_request **req, hr_status *st);
const void *hr__direct_view(hr_proc *p, int src, size_t len);
int         hr__direct_ctx_id(const void *key, size_t len);
void        hr__direct_end(hr_proc *p);

#endif
