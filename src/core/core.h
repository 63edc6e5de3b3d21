/* core.h: the thread engine's internal structures, shared by the core modules only (above the
 * engine, src/api/ and src/coll/ see engine.h alone).
 *
 * Threads and ownership. Each processor is one thread. hr_proc's first part is touched only by
 * the processor's own thread while a run is on, and by the machine thread between runs, in
 * groups by the module that owns them. Its second part holds the atomics that other processors
 * read or write; the table below says who.
 *
 *   field            written by                    read by
 *   pub_clock        owner (release)               ANY-receivers' safety test (acquire)
 *   post_floor       owner                         routing decisions (transit.c)
 *   state            owner (BLOCKED), wakers and   owner's futex wait, the resolver
 *                    the resolver (RUNNING)
 *   event, wait      owner, before it blocks       the resolver, while every live proc is blocked
 *   granted, grant_ev the resolver                 owner, after it wakes
 *   wake_on          owner, before it blocks       senders deciding whether to wake it
 *   outstanding      owner (+), receivers (-)      owner
 *   batch, batch_serial owner (release)            its receivers (acquire)
 *   batch_done       receivers (max)               owner, once outstanding is 0
 */
#ifndef HREMU_CORE_CORE_H
#define HREMU_CORE_CORE_H

#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <hremu/machine.h>

#include "core/clocks.h"
#include "core/engine.h"
#include "core/mailbox.h"
#include "net/cost.h"
#include "net/cost_model.h"
#include "net/discipline.h"
#include "net/network.h"
#include "util/alloc.h"
#include "util/clock.h"
#include "util/rng.h"

#define HR__WAKE_NEVER (-2)        /* wake_on: no arriving message can satisfy this wait */

enum { HR_MSG_COPY, HR_MSG_REF, HR_MSG_LEND, HR_MSG_SYNC };
enum { HR_PROC_RUNNING = 0, HR_PROC_BLOCKED = 1, HR_PROC_DONE = 2 };
/* hr_proc.granted: the resolver's grant; past floors: a routing grant may pass an uncommitted
 * rendezvous' floor (nothing else could be granted). */
enum { HR__GRANT = 1, HR__GRANT_PAST_FLOORS = 2 };

/* What a blocked processor waits for, for the resolver and the deadlock report. */
typedef enum hr_wait_kind {
    HR_WAIT_RECV,        /* a message from peer (or any) with tag */
    HR_WAIT_BLOCKS,      /* a collective's blocks (bytes: how many) to be routed to it */
    HR_WAIT_SYNC_SEND,   /* peer to take its rendezvous message */
    HR_WAIT_REFS,        /* its collective messages to be taken */
    HR_WAIT_LENT,        /* its lent blocks to be released (hr_view_end) */
    HR_WAIT_BARRIER,     /* the others to reach the barrier */
    HR_WAIT_BUFFER,      /* room in peer's receive buffer */
    HR_WAIT_ROUND,       /* the others to end the round (hr_round_end) */
} hr_wait_kind;

typedef struct hr_wait_desc {
    hr_wait_kind kind;
    int          peer;   /* HR_ANY for any */
    int          tag;
    size_t       bytes;
    const char  *call;   /* the API call, for the report */
    int          wake_any; /* RECV: any arriving message wakes it (it has other receives posted) */
} hr_wait_desc;

/* A message. It is in exactly one place at a time: being built by its sender, in the receiver's
 * shared queue, in the receiver's private per-source list, or taken. COPY messages carry their
 * payload and are freed by the receiver; REF (collective) and SYNC (rendezvous) messages point at
 * the sender's buffer and belong to the sender, who waits until they are taken. */
typedef struct hr_msg {
    hr__mbox_link   link;       /* shared queue link (mailbox.c) */
    struct hr_msg  *next;       /* receiver's private list */
    struct hr_msg  *own;        /* REF: the sender's list of posted messages */
    int32_t         src;
    int32_t         dst;        /* the receiver (transit.c routes by it) */
    int32_t         tag;
    uint8_t         kind;
    uint8_t         committed;  /* SYNC on a topology with links: its receiver takes it, and its
                                 * transfer, from sent on, is submitted (p2p.c, the receiver's) */
    uint8_t         open;       /* SYNC: counted in its sender's sync_open until committed */
    uint8_t         stalled;    /* bounded buffer: decided, waits for room */
    _Atomic uint32_t taken;     /* REF, SYNC: set by the receiver once data is copied */
    _Atomic uint32_t routed;    /* on a topology with links: arrive is decided (transit.c) */
    uint64_t        seq;        /* per sender, from 0 */
    uint64_t        step;       /* the communication step it was sent in (p2p.c: number) */
    hr_time         sent;       /* injection start; for SYNC the time the send was issued (once
                                 * committed, the transfer's start) */
    hr_time         arrive;     /* head arrival at the receiver (COPY, REF; SYNC committed) */
    size_t          len;
    const void     *data;
    hr_time         done;       /* SYNC, REF: when the sender learns the receive is done */
    hr_time         issued;     /* SYNC: the clock its send was issued at */
    hr_time         start;      /* SYNC: its transfer's start, max(issue, post), once taken */
    void           *stay;       /* bounded buffer: its stay record, for the take */
    unsigned char   payload[];  /* COPY */
} hr_msg;

/* One block to every other processor of a world collective, posted at once (p2p.c, "Batches"):
 * a receiver finds its block and computes its times here, so that a transpose needs no message
 * record a pair. The k-th block (k = 1 .. p-1) goes to processor id + k (mod p), from
 * base + (id + k mod p) * stride, injected at hr__batch_sent(b, k). */
typedef struct hr_batch {
    const unsigned char *base;
    size_t   stride, len;
    hr_time  first;              /* the first block's injection: max(clock0, out_free) */
    hr_time  clock0;             /* the sender's clock at its first post */
    hr_time  overhead, cost;     /* its clock's step a post, and its port's: sigma * len */
    uint64_t seq1, step1;        /* the first block's sequence number and step */
    uint8_t  kind;               /* HR_MSG_REF or HR_MSG_LEND */
} hr_batch;

/* The injection of block k >= 1, as the sender's posts set it one after another: block k waits
 * for the sender's clock, clock0 + (k-1)*overhead, and for its port, free from block k-1's
 * injection plus cost. Unrolled, s_k = max(first + (k-1)*cost, clock0 + (k-1)*overhead): a term
 * clock0 + (j-1)*overhead + (k-j)*cost of 1 < j < k is linear in j, so it is at most one of the
 * ends (j = k, or j = 2, which is below first + (k-1)*cost). Times are integers and saturate
 * alike either way, so the two agree exactly (tests/check_coll.c compares them). */
static inline hr_time hr__batch_sent(const hr_batch *b, int64_t k)
{
    return hr__tmax(hr__tadd(b->first, hr__tmul(k - 1, b->cost)),
                    hr__tadd(b->clock0, hr__tmul(k - 1, b->overhead)));
}

/* A non-blocking send or receive (hr_isend, hr_irecv), in its owner's pool (p2p.c): slabs
 * that last the run, so that a handle kept after its request completed (a copy of it) still
 * points at a request, marked free, and is refused by name instead of read after a free. Free
 * requests are reused first in, first out, the last freed last. */
#define HR__REQ_LIVE 0x6c697665u
#define HR__REQ_FREE 0x66726565u
struct hr_request {
    _Atomic uint32_t magic;     /* HR__REQ_LIVE or HR__REQ_FREE */
    int        owner;           /* the processor whose pool holds it; set once */
    struct hr_request *free_next;  /* the owner's free list */
    struct hr_request *next;    /* receives: the owner's pending list, in posting order */
    uint8_t    is_recv;
    uint8_t    done;            /* receive: taken (perhaps by a later receive's turn); st is
                                 * filled */
    int        src, tag;        /* receive: what it takes */
    void      *buf;             /* receive: where it goes; sync send: the copy it sends */
    size_t     cap;
    hr_time    post;            /* receive: the clock when it was posted */
    hr_msg    *msg;             /* send under sync: the rendezvous; receive: a rendezvous it has
                                 * committed (p2p.c) and not yet taken */
    hr_status  st;
};

/* A put or get waiting for the end of the superstep. */
typedef struct hr_rma {
    struct hr_rma *next;
    int            peer, slot, is_get;
    size_t         off, len;
    hr_time        sent;        /* injection start */
    void          *dst;         /* get: where the data goes */
    unsigned char  payload[];   /* put: the data */
} hr_rma;

typedef struct hr_rbuf hr_rbuf;    /* a bounded receive buffer (buffer.c) */
typedef struct hr_ctx_table hr_ctx_table;  /* groups' contexts (context.c) */
typedef struct hr_transit hr_transit;  /* arrivals decided in canonical order (transit.c) */

/* A processor's part of the round engine (round.c), in three places. Its slot is what the
 * serial part of a round reads and writes for every sender: the owner writes its message and
 * `more` before it ends a round, the last processor to end it writes the fates, and the owner
 * reads its fate after the round. Its in-box is what the serial part writes for a receiver:
 * its queue, its random stream, the message it takes. Both lie side by side in the machine
 * (m->rnd_slot, m->rnd_in), a line or two each, so that the serial part scans p slots of 64
 * bytes and touches a line of each receiver, not their hr_procs 1.5 KiB apart. A message of
 * up to HR_ROUND_INLINE bytes travels inside them; a longer one in the buffers below. */
enum { HR_ROUT_NONE, HR_ROUT_NEW, HR_ROUT_QUEUED };
#define HR_ROUND_INLINE 24
typedef struct hr_round_slot {
    hr_time        clock;       /* the owner's clock when it ended the round */
    uint64_t       prio;        /* the message out: at most one (a queued one stays until it */
    uint64_t       len;         /* is received) */
    int32_t        dest;
    uint8_t        state;       /* HR_ROUT_* */
    uint8_t        fate;        /* hr_fate after the round */
    uint8_t        sent;        /* sent in the current round */
    uint8_t        more;
    uint64_t       nsent;       /* round messages sent this run: the last one's number + 1 */
    unsigned char  bytes[HR_ROUND_INLINE];   /* the message out's bytes, when they fit */
} hr_round_slot;

typedef struct hr_round_in {
    hr_rqueue      queue;       /* what waits for this receiver (fifo, priority) */
    int32_t        got_src;     /* the message taken in the last round: its source, -1: none */
    uint64_t       got_len;
    hr_rng         rng;         /* the discipline's draws for this receiver */
    unsigned char  got[HR_ROUND_INLINE];     /* its bytes, when they fit */
} hr_round_in;

typedef struct hr_round_proc {
    size_t         cap, got_cap;
    unsigned char *buf;         /* the message out's bytes, when they do not fit its slot */
    unsigned char *got;         /* the message taken's, when they do not fit the in-box */
} hr_round_proc;

typedef struct hr_region {
    void  *base;
    size_t bytes;
} hr_region;

/* Events one thread appends (event.c): a processor's own, or the round resolution's. */
typedef struct hr_ev {
    hr_event e;
    hr_time  t0;           /* e.t0 exactly, for the canonical order */
    uint64_t seq;          /* the order the owner appended them in */
    size_t   name;         /* REGION, COLL: its name's offset in the owner's names */
} hr_ev;

typedef struct hr_evbuf {
    hr_ev  *v;
    size_t  n, cap;
    size_t  dropped;       /* past the limit, or out of memory */
    double  wall0;         /* this computer's clock when the run began (hr__wall_s) */
    char   *names;         /* the names of REGION and COLL events, each NUL-terminated */
    size_t  nlen, ncap;
} hr_evbuf;

/* Record e (its times in t0, t1) into b, at most limit events: the owner thread of b only. */
void hr__ev_add(hr_evbuf *b, size_t limit, hr_event e, hr_time t0, hr_time t1);
void hr__ev_reset(hr_evbuf *b, double wall0);
void hr__ev_free(hr_evbuf *b);
/* Record p's send of msg (t0 .. t1) or its receive: hr__ev_send and hr__ev_recv (below, after
 * hr_machine) call these when events are on. Record, if events are on, p's computing. */
void hr__ev_send_on(hr_proc *p, const hr_msg *msg, hr_time t0, hr_time t1);
void hr__ev_recv_on(hr_proc *p, const hr_msg *msg, hr_time t0, hr_time t1);
void hr__ev_compute(hr_proc *p, hr_time t0, hr_time t1);
/* p's send of its message seq (len bytes, tag) to dest stalled from t0 to t1 (buffer.c). */
void hr__ev_stall(hr_proc *p, int dest, uint64_t seq, size_t len, int tag, hr_time t0,
                  hr_time t1);
/* hr_net's busy hook (arg the machine): a link event for m->link_msg. */
void hr__ev_link(void *arg, int l, hr_time t0, hr_time t1, size_t bytes);
/* p was in a region or a collective (kind HR_EV_REGION, HR_EV_COLL) called name from t0 to t1. */
void hr__ev_named(hr_proc *p, int kind, const char *name, hr_time t0, hr_time t1);

struct hr_proc {
    /* Owner-only fields, by who reads and writes them. A newcomer reads one group at a time. */

    /* -- who it is (engine.h's head, read in place by the API: first, in its order); how the
     *    engine runs it (threads.c, wait.c) */
    HR_ENG_HEAD;
    struct hr_machine *m;
    /* -- read at every communication call (hr__proc_comm_point), so kept on m's line */
    int              nviews;      /* blocks it views now (views, below) */
    /* The constant description `wait` (below) was last copied from (hr__wait_word), or NULL:
     * a round's wait finds it there and writes nothing. */
    const hr_wait_desc *wait_from;

    /* -- the model: its clock, ports and counters (docs/model.md; proc.c, p2p.c). A round
     *    (round.c) touches its head's last line and this group up to `rounds`: two lines, the
     *    second a whole one (asserted below the struct) */
    hr_time          clock;       /* model clock */
    hr_time          out_free;    /* injection port free from */
    hr_time          in_free;     /* absorption port free from */
    uint64_t         msgs_out, bytes_out, bytes_in;
    uint64_t         msgs_in;     /* messages absorbed from others: msgs_out's counterpart */
    uint64_t         stalls, rounds;
    hr_wait_desc     wait;        /* what it waits for, while it waits: written before it
                                   * blocks, read by the resolver and the report */
    uint64_t         lost;
    hr_time          work;        /* local work charged: hr_compute, or measured CPU time */
    hr_time          cpu_mark;    /* compute = measured: thread CPU time at the last charge */
    uint64_t         seq;         /* next message sequence number */
    uint64_t         step;        /* communication steps: its last send's, or a later received
                                   * message's (p2p.c: number, took) */
    uint64_t         colls;       /* collective calls (hr__coll_begin) */
    uint64_t         jitter;      /* its jitter PRNG state; 0 = no jitter (the machine's
                                   * cfg.jitter says whether any processor has one) */

    /* -- how it leaves the algorithm early (below the fields every call touches: 200 bytes) */
    jmp_buf          exit;        /* hr__proc_exit leaves the algorithm through it */

    /* -- point-to-point and collective blocks (p2p.c) */
    hr__mbox         box;
    /* The hr_recv it makes: a sender may complete it while it sleeps, armed open in box's lane
     * (p2p.c, send_direct). Here, not on its stack, so that a sender reads no fiber's stack: a
     * fiber that overflowed into another's is caught at its next switch, before any harm. */
    void            *rx_into;     /* where the bytes go, rx_cap of them */
    hr_status       *rx_st;       /* what came in, or NULL */
    size_t           rx_cap, rx_got;
    hr_time          rx_post;     /* its clock as it posted the receive */
    int              rx_done;     /* completed by its sender; rx_got bytes came in */
    hr_request      *pending;     /* receives posted by hr_irecv and not yet matched, in order */
    hr_request      *req_free, *req_free_tail; /* its pool's free requests */
    hr_msg          *msg_free;    /* its pool's free records for borrowed messages (p2p.c) */
    hr_msg          *copy_free;   /* records of small copied messages it took, for its sends */
    int              ncopy_free;
    int              nrequests;   /* requests not yet completed */
    uint32_t         futile;      /* failed polls in a row for a message that cannot come (p2p.c,
                                   * poll_failed) */
    hr_time          futile_from; /* from ANY: the clock from which every other processor has
                                   * finished by tau before; HR_TIME_INF until all have */
    hr_msg          *refs;        /* REF messages posted since the last hr__coll_complete, and
                                     LEND messages since the last hr__view_end */
    int             *views;       /* sources of the blocks it views now (views_cap slots) */
    int              views_cap;
    int              coll_tag;    /* its messages' internal tag: HR__TAG_COLL, or a group's */
    uint64_t         world_colls; /* world collectives begun: every processor counts alike */
    int              coll_batch;  /* it posted a batch in this collective: its takes are too */
    char             coll_what[64]; /* the collective it is in, for the report (hr__coll_begin) */
    char             coll_name[64]; /* the outermost collective it is in, for its event */
    int              coll_depth;  /* collectives entered and not yet left (hr__coll_end) */
    hr_time          coll_t0;     /* the clock when it entered the outermost */
    int              coll_lent;   /* the outermost lent blocks (hr__coll_lend): under a model
                                     that charges supersteps, its superstep ends at hr__view_end */

    /* -- routing on a topology with links (transit.c, and p2p.c's receives) */
    int              recv_idle;   /* the last receive check found no routed message to take */
    uint64_t         seen_news;   /* news when that check began */
    int              await_need;  /* blocks a collective still waits for (hr__coll_await), else 0 */
    int              park_src;    /* what a parked receive waits for (under transit.c's lock): */
    int              park_tag;    /* a message from park_src (or HR_ANY) with park_tag, */
    int              park_need;   /* or, if not 0, park_need more collective blocks */

    /* -- a bounded receive buffer (buffer.c) */
    hr_rbuf         *rbuf;        /* its receive buffer, if bounded (machine lifetime) */
    hr_time          buf_admit;   /* admission time of its last bounded send */
    _Atomic uint32_t buf_admitted; /* that send is admitted (set by whoever admitted it) */

    /* -- supersteps: registered memory, puts and gets, the barrier (superstep.c) */
    hr_region       *regions;
    int              nregions, capregions;
    hr_rma          *rma_head, *rma_tail;
    const char      *rma_error;   /* set by hr_sync's serial part: this proc's bad put or get */
    char             rma_why[160];
    uint32_t         bar_gen;     /* barrier generation this proc waits to see pass */
    hr_time          bar_in;      /* clock entering the barrier */
    const char      *bar_call;    /* "hr_sync" or "hr_barrier": the call that entered it */

    /* -- rounds (round.c) */
    hr_round_proc    rnd;

    /* -- what it records: events, timed regions (event.c, region.c) */
    hr_evbuf         ev;          /* its events, appended by it alone */
    struct hr_rlog  *rlog;        /* its timed regions; NULL until it enters one */

    /* -- the layers above the engine's, this run's (engine.h: groups) */
    void            *slots[HR_NSLOTS];

    /* Shared with other processors and the resolver: atomics (the table at the top of this
     * file says who writes and who reads them). */
    _Alignas(64) _Atomic hr_time pub_clock;
    _Atomic uint32_t state;
    _Atomic int      stale;       /* pub_clock, parked or event changed since clocks.c last read
                                   * them (on pub_clock's line: every publish reads it) */
    _Atomic hr_time  event;
    _Atomic int      granted;
    _Atomic hr_time  grant_ev;    /* the event the resolver granted (wait.c): a grant forces
                                   * routing of no message keyed later (p2p.c, unrouted_wait) */
    _Atomic int64_t  outstanding; /* REF and LEND messages not yet taken */
    _Atomic int64_t  lent;        /* LEND messages not yet released by their viewers */
    _Atomic int      wake_on;     /* a blocked receive's source (HR_ANY: any); else HR__WAKE_NEVER */
    _Atomic int      parked;      /* asleep in a receive with no routed message to take: it can
                                   * inject nothing until a message is routed to it (transit.c) */
    struct hr_proc  *stale_next;  /* on clocks.c's list of stale processors */
    _Atomic int      sync_open;   /* its rendezvous messages posted, not yet committed by their
                                   * receivers (p2p.c): it may not park meanwhile (transit.c) */
    _Atomic hr_time  post_floor;  /* the post time of its first pending receive request (they
                                   * are in posting order), else HR_TIME_INF: no receive it has
                                   * posted or will post is earlier than this or its clock */
    _Atomic uint64_t news;        /* messages submitted or routed to it (transit.c, under its
                                   * lock) */
    /* A wait that ends once other processors' published clocks pass a time (p2p.c, clocks_past):
     * nothing can still be sent to it that is due before (watch_a, watch_src), from any processor
     * but itself and watch_skip, or from watch_one alone if it is >= 0. watch_a is HR_TIME_INF
     * for any other wait. Clocks are published without waking anyone: the resolver wakes such a
     * waiter once they have passed (wait.c, lookahead.c) before it grants any event. Owner, before it
     * blocks; read by the resolver. */
    _Atomic hr_time  watch_a;
    _Atomic int      watch_src, watch_skip, watch_one;
    /* A wait for a message to be routed (p2p.c, route_wait): its key is (event, route_src,
     * route_seq); route_src is -1 for any other wait. The resolver prefers other grants while a
     * rendezvous not yet committed may precede it (wait.c). */
    _Atomic int      route_src;
    _Atomic uint64_t route_seq;
    /* Its batch (p2p.c), read by receivers once batch_serial is the world collective they are
     * in; each raises batch_done to the time it says its block is taken. */
    _Alignas(64) hr_batch batch;
    _Atomic uint64_t batch_serial;
    _Atomic hr_time  batch_done;
    _Alignas(64) char pad;
};
_Static_assert(offsetof(hr_proc, head) == 0, "hr_proc begins with engine.h's head");
_Static_assert(offsetof(hr_proc, id) / 64 == offsetof(hr_proc, clock) / 64 &&
               offsetof(hr_proc, out_free) % 64 == 0 &&
               offsetof(hr_proc, rounds) / 64 == offsetof(hr_proc, out_free) / 64,
               "a round's fields of hr_proc lie on two lines");

typedef struct hr_machine {
    /* -- the model: what the config chose (machine.c, set once) */
    int                  p;
    hr_machine_config    cfg;
    hr_costps            cost;          /* its tau is the model's lead (cost_model.h) */
    const hr_cost_model *cm;            /* how messages are charged (net/cost_model.h) */
    const hr_disc *disc;
    hr_topo             *net;           /* the topology instance (net/topology.h) */
    int                  neighbour_only; /* hr_machine_neighbour_only */
    int                  one_link;      /* the cost model does not define links, and the
                                         * topology has them (cost_model.h, HR_CM_NEIGHBOURS) */
    int                  check_links;   /* either: hr__proc_check_link is on */
    int                  call_hooks;    /* compute = measured, or jitter: every communication
                                         * call has work to do (hr__proc_comm_point) */
    int                  no_p2p;        /* the cost model defines no point-to-point messages */
    int                  switching;     /* HR_NET_CUT_THROUGH or HR_NET_STORE_FORWARD */
    hr_clocks            clocks;        /* the least published clocks (clocks.h) */
    int                  clocks_made;
    hr_transit          *transit;       /* routing in canonical order; NULL on a topology
                                         * without links (complete): transit.c */
    hr_proc             *procs;
    hr_alloc_region      mem_region;    /* their memory's blocks under HR_ALLOC_CACHE_MIN */

    /* -- how the processors run: the engine (hr_exec) and its own state (fibers.c) */
    const struct hr_exec *exec;
    void                *fibers;
    /* Processors ready to run and not running, where the engine counts them (fibers.c's ready
     * queue), or NULL: above 0, the machine does not stand still (hr__exec_still reads it
     * before it asks the engine: on one carrier a processor that settles finds the others woken
     * and queued most of the time, and that call was 15 instructions of every round's wait). */
    _Atomic int         *nready;
    int                  serial;        /* it runs one processor at a time (hr__add, below) */
    hr_msg               direct;        /* serial: the record of a send that completes its receive
                                         * (p2p.c, send_direct) */
    /* -- the thread engine (threads.c): the threads, and the words they sleep on between runs
     * (the machine thread writes fn, arg between runs; procs read them after gen changes) */
    pthread_t           *threads;
    int                  started;       /* threads created */
    void               (*entry)(hr_proc *p);   /* what each runs in a run (hr__exec_start) */
    void               (*fn)(hr_proc *, void *);
    void                *arg;
    _Atomic uint32_t     gen;           /* bumped to release the procs for a run, or to quit */
    _Atomic int          quit;
    _Atomic uint32_t     ndone;         /* procs finished this run; the machine thread waits on it */

    /* -- quiescence, the resolver, and the run's verdict (wait.c, machine.c) */
    _Alignas(64) _Atomic int live;      /* procs not yet finished */
    _Alignas(64) _Atomic int blocked;   /* procs settled in a blocking wait */
    _Atomic uint64_t     wakes;         /* successful wakes: the resolver's snapshot check */
    pthread_mutex_t      resolve_lock;
    _Atomic int          abort;         /* 0, HR_EDEADLK or HR_EFAIL: blocked procs leave */
    _Atomic int          watching;      /* processors whose watch_a is not HR_TIME_INF */
    _Atomic int          failed;        /* some proc called hr_fail (or misused the API) */
    _Atomic int          misused;       /* some proc misused the API (hr__misuse) */
    _Atomic int          range;         /* some proc's model time left the range (HR_ERANGE) */

    /* -- groups' contexts (context.c), this run's */
    pthread_mutex_t      ctx_lock;
    hr_ctx_table        *ctx;

    /* -- the run's report (runlog.c) */
    pthread_mutex_t      report_lock;
    /* Processors' lines ("P<id>: text") with one text: reported once, naming the three lowest
     * ids and how many more (runlog.c, hr__report). */
    struct hr_report_group {
        int    ids[3], count;
        char   text[480];
    }                    rgroups[24];
    int                  nrgroups;
    char                 report[4096];
    size_t               report_len;
    int                  report_dropped; /* lines that did not fit (hr__report) */

    /* -- supersteps: the barrier (superstep.c) */
    _Alignas(64) _Atomic int bar_arrived;
    _Atomic uint32_t     bar_gen;
    _Atomic int          bar_broken;    /* a superstep mixed hr_sync and hr_barrier: all leave */
    hr_time             *bar_time;      /* [4p] scratch of the barrier's serial part */

    /* -- rounds (round.c); the scratch arrays are the last arriver's */
    _Alignas(64) _Atomic int rnd_arrived;
    _Alignas(64) _Atomic uint32_t rnd_gen;   /* bumped when a round ends; waiters sleep on it */
    int                  rnd_more;      /* processors that said more in the last round */
    int                  rnd_counted;   /* the last round counted (something happened in it) */
    hr_time              rnd_end;       /* when the last round ended: every clock leaves it then */
    hr_round_slot       *rnd_slot;      /* [p] the senders' slots (hr_round_slot), and */
    hr_round_in         *rnd_in;        /* [p] the receivers' in-boxes: round disciplines only */
    uint32_t            *rnd_queued;    /* [p] messages waiting in each receiver's queue */
    uint64_t             rnd_count;     /* rounds counted in this run */
    int                 *rnd_head;      /* [p] a receiver's first arrival (sender), -1: none */
    int                 *rnd_link;      /* [p] the sender after this one, to the same receiver */
    hr_arrival          *rnd_arr;       /* [p] one receiver's arrivals, for its rule */
    uint8_t             *rnd_lost;      /* [p] */

    /* -- what it records: events (event.c), and the last run's figures beyond hr_run_result
     * (region.c; supersteps: superstep.c) */
    size_t               ev_limit;      /* hr_machine_events: events a run may record, 0: none */
    hr_evbuf             rev;           /* round events, written by the round's serial part */
    hr_evbuf             lev;           /* link events, written under the transit's lock */
    uint64_t             link_msg;      /* the message being routed, for its link events */
    struct hr_tally     *step_at;       /* [p] each proc's tally when its superstep began */
    hr_time              step_end;      /* the largest clock on leaving the last hr_sync */
    hr_superstep_result *steps;         /* the run's supersteps, in order */
    size_t               nsteps, capsteps;
    hr_region_result    *regions_out;   /* the run's timed regions, merged, in canonical order */
    size_t               nregions_out;
    /* If set, told of every message a processor takes: its source, tag, sequence number and
     * length, and where it went (NULL: viewed in place, or a round's message: tag
     * HR__TAG_ROUND, numbered by its sender's round messages). The MPI engine's model rank
     * (mpi/model.c) sets it, to tell each rank which message's bytes to take; never set on
     * threads. */
    void               (*taken)(void *arg, hr_proc *p, int src, int tag, uint64_t seq, size_t len,
                                const void *into);
    void                *taken_arg;
    /* Set with taken: messages, round messages and puts carry their lengths, not their bytes
     * (the ranks move those), so nothing is copied or kept (hr__kept, hr__copy_bytes). */
    int                  no_bytes;
} hr_machine;

/* The bytes a message of len bytes keeps, and its copy: none on the MPI engine's model rank. */
static inline size_t hr__kept(const hr_machine *m, size_t len)
{
    return m->no_bytes ? 0 : len;
}

/* Small messages are common (a word, an element): up to 16 bytes are copied inline, as two
 * overlapping words, rather than by a call to the library's memcpy. */
static inline void hr__copy_bytes(const hr_machine *m, void *dst, const void *src, size_t len)
{
    if (len == 0 || m->no_bytes)
        return;
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (len >= 8 && len <= 16) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + len - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + len - 8, &b, 8);
    } else if (len >= 4 && len < 8) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + len - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + len - 4, &b, 4);
    } else {
        memcpy(d, s, len);
    }
}

/* wait.c: blocking waits, the wakes that end them (on any engine, through hr__exec_wake), and
 * the resolver */
typedef int (*hr_ready_fn)(hr_proc *p, void *ctx);
/* Block the owner until ready(p, ctx) returns nonzero; ready is called again on every wake and
 * must publish p->event (the model time of its pending event, or HR_TIME_INF) when it returns 0.
 * Leaves through hr__proc_exit if the run is aborted. Owner only. */
void hr__wait(hr_proc *p, const hr_wait_desc *d, hr_ready_fn ready, void *ctx);
/* Block the owner, as hr__wait does, until *word != val; whoever changes the word releases every
 * waiter at once with hr__release_word. For waits that all end together (the round barrier).
 * d is a constant: a wait copies it only if the last one's came from elsewhere. */
void hr__wait_word(hr_proc *p, const hr_wait_desc *d, _Atomic uint32_t *word, uint32_t val);
/* Wake q if it is blocked (it re-checks its condition). Any proc. */
void hr__wake(hr_proc *q);
/* A message from src was put in q's mailbox: wake q if it waits for a message from src or ANY.
 * Waits of other kinds are woken by whoever ends them, so arrivals leave them asleep. */
void hr__wake_for(hr_proc *q, int src);
/* Mark every blocked processor but self running, bump *word and wake its sleepers: one engine
 * wake for all. */
void hr__release_word(hr_machine *m, hr_proc *self, _Atomic uint32_t *word);
/* p has finished the run: it sends nothing more, and the resolver may run. */
void hr__proc_finished(hr_proc *p);
/* The engine saw every live processor asleep in its wait, none woken and nothing running
 * (fibers.c: no fiber queued or on a carrier): resolve, as the last to settle does, with what
 * the engine vouches for (HR_STILL_*, hr_exec.still). Called by no processor. */
void hr__resolve_idle(hr_machine *m, int still);

/* threads.c: the thread engine's way of running processors, a POSIX thread each, and futexes.
 * Sleep while *word == expected (spurious returns are possible: callers re-check); wake up to n
 * sleepers on word (INT32_MAX: all). Private futexes: the one place that touches them. */
void hr__futex_wait(_Atomic uint32_t *word, uint32_t expected);
void hr__futex_wake(_Atomic uint32_t *word, int n);
/* How an engine runs processors (hr_machine.exec): threads.c's, a POSIX thread each, or
 * fibers.c's, user-level contexts on carrier threads ([machine] engine). Everything else in
 * core/ (the waits, the resolver, the model) is the same on both. */
typedef struct hr_exec {
    const char *name;
    /* Create the processors, parked, each to run entry(p) in every run: HR_OK, HR_ENOMEM,
     * HR_ESYS. */
    int  (*start)(hr_machine *m, void (*entry)(hr_proc *p));
    void (*stop)(hr_machine *m);       /* end them (after a failed start too) */
    /* Release every processor for a run (each runs its entry); return once all have finished. */
    void (*run)(hr_machine *m);
    void (*done)(hr_proc *p);          /* p has finished the run (hr__proc_finished, last) */
    /* Sleep while *word == val; may return early (the caller re-checks). Owner only. */
    void (*sleep)(hr_proc *p, _Atomic uint32_t *word, uint32_t val);
    /* Up to n sleepers on word, a word shared by processors (a round's), never one's state. */
    void (*wake)(hr_machine *m, _Atomic uint32_t *word, int n);
    /* Wake q, asleep on its own state word (wait.c, wake_blocked): the engine is told whose
     * word it is rather than working it out from the address. */
    void (*wake_proc)(hr_proc *q);
    void (*yield)(hr_proc *p);         /* let another processor run (one mid-send) */
    /* HREMU_JITTER: at communication points, sometimes yield or sleep a few microseconds, to
     * shake out any dependence of results on the schedule (p->jitter is its PRNG word). */
    void (*jitter)(hr_proc *p);
    /* Whether the machine stands still once every live processor has settled in a wait (wait.c)
     * and none was woken but not yet running (HR_STILL_*): YES vouches for the resolver, which
     * then need not read every processor's state (fibers.c: its ready queue is empty and no
     * other fiber is on a carrier); NO says one was woken and will resolve when it settles;
     * UNKNOWN, the resolver reads them all. NULL: always UNKNOWN (threads.c: a thread woken and
     * not yet scheduled is invisible otherwise). */
    int  (*still)(hr_machine *m);
} hr_exec;

extern const hr_exec hr__exec_threads;   /* threads.c */
extern const hr_exec hr__exec_fibers;    /* fibers.c */

static inline void hr__exec_sleep(hr_proc *p, _Atomic uint32_t *word, uint32_t val);
static inline void hr__exec_wake(hr_machine *m, _Atomic uint32_t *word, int n);
static inline void hr__exec_wake_proc(hr_proc *q);
static inline void hr__exec_yield(hr_proc *p);
static inline void hr__exec_jitter(hr_proc *p);
enum { HR_STILL_NO, HR_STILL_YES, HR_STILL_UNKNOWN };
/* Whether the machine may stand still now (hr_exec.still). */
static inline int hr__exec_still(hr_machine *m);

/* runlog.c */
/* Add a line to the run's report; "P<id>: text" lines of one text are grouped. Any thread. */
void hr__report(hr_machine *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hr__runlog_begin(hr_machine *m);                        /* before a run */
void hr__runlog_deadlock(hr_machine *m);     /* every blocked processor's wait, the resolver's */
/* After a run whose res->status is set: group, order and close the report into res->report. */
void hr__runlog_finish(hr_machine *m, hr_run_result *res);

/* proc.c */
/* Leave the SPMD function at once (failure or abort). Owner only. */
__attribute__((noreturn)) void hr__proc_exit(hr_proc *p);
/* What every message does in proc.c's terms is inline here: with the defaults (no neighbour
 * rule, no measured compute, no jitter, no events) a message runs no code of proc.c or event.c,
 * only these tests. The rarer cases call out of line. */
/* Under hr_machine_neighbour_only, or a cost model that does not define links on a topology
 * with links, fail the run if dest is not linked to p. */
void hr__proc_check_link_on(hr_proc *p, int dest, const char *call);
static inline void hr__proc_check_link(hr_proc *p, int dest, const char *call)
{
    if (p->m->check_links)
        hr__proc_check_link_on(p, dest, call);
}
/* Leave the run with status HR_ERANGE (one report line for the run). Owner only. */
__attribute__((noreturn)) void hr__proc_overflow(hr_proc *p);
/* A clock or port that reached HR_TIME_INF has left the range (cost.h): fail the run. */
static inline void hr__proc_check_range(hr_proc *p)
{
    if (p->clock == HR_TIME_INF || p->out_free == HR_TIME_INF || p->in_free == HR_TIME_INF)
        hr__proc_overflow(p);
}
/* ---- the words the processors share, on an engine that runs one at a time ------------------
 * An engine that runs one processor at a time on one thread (fibers on one carrier: m->serial)
 * needs no locked instruction for the words the processors share (counts, states, flags):
 * nobody runs beside the one that writes them, and a processor stops running only inside a
 * call the compiler cannot see through (the switch). These read-modify-writes are then a
 * relaxed load and store; otherwise they are the seq_cst ones. On the round barrier's path
 * that saves 8 % of a round at p = 1024 and 16 % at p = 256 (docs/architecture.md). */
#define HR__SERIAL_ADD(name, T)                                                                \
    static inline T name(const hr_machine *m, _Atomic T *a, T v)                               \
    {                                                                                          \
        if (!m->serial)                                                                        \
            return atomic_fetch_add(a, v);                                                     \
        T old = atomic_load_explicit(a, memory_order_relaxed);                                 \
        atomic_store_explicit(a, old + v, memory_order_relaxed);                               \
        return old;                                                                            \
    }
HR__SERIAL_ADD(hr__add, int)
HR__SERIAL_ADD(hr__add_u32, uint32_t)
HR__SERIAL_ADD(hr__add_u64, uint64_t)
#undef HR__SERIAL_ADD
#define HR__SERIAL_STORE(name, T)                                                              \
    static inline void name(const hr_machine *m, _Atomic T *a, T v)                            \
    {                                                                                          \
        if (!m->serial)                                                                        \
            atomic_store(a, v);                                                                \
        else                                                                                   \
            atomic_store_explicit(a, v, memory_order_relaxed);                                 \
    }
HR__SERIAL_STORE(hr__store_u32, uint32_t)
HR__SERIAL_STORE(hr__store_int, int)
#undef HR__SERIAL_STORE
static inline uint32_t hr__xchg_u32(const hr_machine *m, _Atomic uint32_t *a, uint32_t v)
{
    if (!m->serial)
        return atomic_exchange(a, v);
    uint32_t old = atomic_load_explicit(a, memory_order_relaxed);
    atomic_store_explicit(a, v, memory_order_relaxed);
    return old;
}
/* *a from `expect` to v: whether it was `expect`. */
static inline int hr__cas_u32(const hr_machine *m, _Atomic uint32_t *a, uint32_t expect,
                              uint32_t v)
{
    if (!m->serial)
        return atomic_compare_exchange_strong(a, &expect, v);
    if (atomic_load_explicit(a, memory_order_relaxed) != expect)
        return 0;
    atomic_store_explicit(a, v, memory_order_relaxed);
    return 1;
}

/* clocks.h: q's published clock, parked flag or event has changed. Anyone. */
static inline void hr__clocks_touch(hr_clocks *c, hr_proc *q)
{
    if (q->m->serial) {
        if (atomic_load_explicit(&q->stale, memory_order_relaxed))
            return;
        atomic_store_explicit(&q->stale, 1, memory_order_relaxed);
        q->stale_next = atomic_load_explicit(&c->stale, memory_order_relaxed);
        atomic_store_explicit(&c->stale, q, memory_order_relaxed);
        return;
    }
    /* acq_rel: the reader's exchange that finds this 1 sees the change made before it. */
    if (atomic_exchange_explicit(&q->stale, 1, memory_order_acq_rel))
        return;             /* listed, not yet read: the reader will see this change too */
    hr_proc *head = atomic_load_explicit(&c->stale, memory_order_relaxed);
    do
        q->stale_next = head;
    while (!atomic_compare_exchange_weak_explicit(&c->stale, &head, q, memory_order_release,
                                                  memory_order_relaxed));
}
/* q's pending event (core.h's table): stored, and q marked stale for clocks.h's event tree. */
static inline void hr__proc_event(hr_proc *q, hr_time t)
{
    if (atomic_load_explicit(&q->event, memory_order_relaxed) != t) {
        atomic_store(&q->event, t);
        hr__clocks_touch(&q->m->clocks, q);
    }
}
/* Take q out of its park (transit.c); whether it was parked. Anyone. */
static inline int hr__proc_unpark(hr_proc *q)
{
    if (!atomic_exchange(&q->parked, 0))
        return 0;
    hr__clocks_touch(&q->m->clocks, q);
    return 1;
}
/* pub_clock = clock (release), after hr__proc_check_range. Owner only. */
static inline void hr__proc_publish(hr_proc *p)
{
    hr__proc_check_range(p);
    if (atomic_load_explicit(&p->pub_clock, memory_order_relaxed) != p->clock) {
        atomic_store_explicit(&p->pub_clock, p->clock, memory_order_release);
        hr__clocks_touch(&p->m->clocks, p);
    }
}
/* At every communication call: no communication inside a view, the measured compute's charge,
 * the jitter. */
void hr__proc_comm_point_on(hr_proc *p);
/* The processor running on this thread (its engine sets it as it runs one: threads.c, fibers.c),
 * or NULL. A processor may call the API with its own hr_proc only; hr__proc_foreign says so of
 * another's. (Initial-exec: every read is of the running thread's copy, so a fiber that moves to
 * another carrier reads that carrier's.) */
extern _Thread_local hr_proc *hr__self __attribute__((tls_model("initial-exec")));
__attribute__((noreturn, cold)) void hr__proc_foreign(hr_proc *p);
static inline void hr__proc_own(hr_proc *p)
{
    if (__builtin_expect(hr__self != p, 0))
        hr__proc_foreign(p);
}
static inline void hr__proc_comm_point(hr_proc *p)
{
    hr__proc_own(p);
    if (p->nviews > 0 || p->m->call_hooks)
        hr__proc_comm_point_on(p);
}
static inline void hr__ev_send(hr_proc *p, const hr_msg *msg, hr_time t0, hr_time t1)
{
    if (p->m->ev_limit != 0)
        hr__ev_send_on(p, msg, t0, t1);
}
static inline void hr__ev_recv(hr_proc *p, const hr_msg *msg, hr_time t0, hr_time t1)
{
    if (p->m->ev_limit != 0)
        hr__ev_recv_on(p, msg, t0, t1);
}
/* Between runs, machine thread: first hr__p2p_reset on every proc (mailboxes may hold other
 * procs' messages), then hr__proc_reset on every proc (frees its memory and messages). */
void hr__proc_reset(hr_proc *p);

/* p2p.c: the point-to-point engine (engine.h), also used by the collectives. */
void   hr__p2p_reset(hr_proc *p);               /* drop undelivered messages, between runs */
/* After a run, machine thread: count the user's messages left in the mailboxes, sent and never
 * received, into res->unreceived and name them in res->unreceived_why. */
void   hr__p2p_unreceived(hr_machine *m, hr_run_result *res);
/* After the algorithm returned: fail p if it left requests uncompleted (a sync send's buffer is
 * waited for first: it may be on the returned function's stack). */
void   hr__p2p_finish(hr_proc *p);

/* lookahead.c: what the published clocks allow (a published clock plus tau is a lookahead) */
/* (lb, q), a processor's published clock plus tau and its id, cannot send anything due before
 * (a, src). */
static inline int hr__past(hr_time lb, int q, hr_time a, int src)
{
    return lb > a || (lb == a && q > src);
}
/* Can no processor other than p and skip still send p a message arriving before (a, src)? */
int    hr__nothing_before(hr_proc *p, hr_time a, int src, int skip);
/* Has every processor that may still send p something (all but p and skip, or only one if it
 * is >= 0) published a clock that puts it past (a, src)? If not, p's pending event is a and it
 * watches the clocks (its watch fields): 0, and the caller waits. Owner. */
int    hr__clocks_past(hr_proc *p, hr_time a, int src, int skip, int one);
/* The resolver, every live processor waiting: wake each whose watch holds, since publishing a
 * clock wakes no one. How many were woken. */
int    hr__watchers_wake(hr_machine *m);

/* context.c (and hr__ctx_id: engine.h) */
void hr__ctx_reset(hr_machine *m);             /* between runs and at destroy, machine thread */

/* round.c */
int  hr__round_init(hr_machine *m);            /* at machine creation; HR_OK or HR_ENOMEM */
void hr__round_reset(hr_proc *p);              /* between runs */
void hr__round_destroy(hr_machine *m);

/* buffer.c: bounded receive buffers */
int  hr__rbuf_create(hr_rbuf **out, uint64_t cap);
void hr__rbuf_reset(hr_rbuf *b);               /* between runs, machine thread */
void hr__rbuf_destroy(hr_rbuf *b);
/* Send msg (stamped, payload copied) through dest's bounded buffer; returns once admitted. */
void hr__rbuf_send(hr_proc *p, int dest, hr_msg *msg);
/* The receiver took msg at model time `when`: its room is free from then on. */
void hr__rbuf_taken(hr_proc *r, hr_msg *msg, hr_time when);

/* transit.c: when a message arrives. On a topology with links, arrivals are decided in
 * canonical order; without (complete), at the send. Every function below takes both machines:
 * it does nothing where there is nothing to route, and says so inline, so that a message on
 * the complete graph runs no code of transit.c. */
/* Does routing decide arrivals (a topology with links)? Asked once per machine kind here. */
static inline int hr__transit_on(const hr_machine *m) { return m->transit != NULL; }
/* msg (src, dst, sent, len set) is sent: decide its arrival now if nothing it crosses is
 * shared (no links, or to itself: sent + latency), else leave it to routing (routed = 0; the
 * sender submits it once it is in the receiver's queue). Its sender. */
static inline void hr__transit_stamp(hr_proc *p, hr_msg *msg)
{
    if (hr__transit_on(p->m) && msg->dst != p->id) {
        atomic_store_explicit(&msg->routed, 0, memory_order_relaxed);
        return;
    }
    msg->arrive = hr__tadd(msg->sent, hr__net_latency(p->m->net, &p->m->cost, p->id, msg->dst));
    atomic_store_explicit(&msg->routed, 1, memory_order_relaxed);
    /* A message that would arrive past the clock's range fails its sender at the next publish,
     * before any receiver could wait for it. */
    if (msg->arrive == HR_TIME_INF)
        p->out_free = HR_TIME_INF;
}
int  hr__transit_create(hr_machine *m, hr_transit **out);   /* HR_OK or HR_ENOMEM */
/* Between runs; links_recorded: the run records events, so link occupancy goes to event.c
 * (hr__ev_link), and otherwise routing calls nothing to record it. */
void hr__transit_reset(hr_transit *tr, int links_recorded);
void hr__transit_destroy(hr_transit *tr);
/* Submit msg (src, dst, seq, sent and len set) to be routed; before the sender publishes a clock
 * past msg->sent. Its owner thread. */
void hr__transit_submit(hr_proc *p, hr_msg *msg);
/* Submit a rendezvous msg's transfer, its key raised to post first. Its receiver's thread. */
void hr__transit_commit(hr_proc *p, hr_msg *msg, hr_time post);
/* Route, in (sent, src, seq) order, every submitted message no processor can still precede
 * (every other published clock is past its key, and every uncommitted rendezvous' floor); with
 * upto, also every one up to upto's key (the resolver's grant), but, unless past_floors, not
 * past a floor. Wakes the receivers. Any proc. */
void hr__transit_decide(hr_proc *p, const hr_msg *upto, int past_floors);
/* A rendezvous message whose sender goes on before its receiver commits it (hr_sendrecv,
 * hr_isend): until then its transfer's key is known only to be no earlier than its floor,
 * (max(issue, the receiver's earliest possible post), src, seq), and routing must not pass
 * that. Its sender, before publishing a clock past msg->sent. */
void hr__transit_open(hr_proc *p, hr_msg *msg);
/* The least floor of the open rendezvous messages as a key in *t, *id, *seq; 0 if there is
 * none. Any proc, not under the transit's lock. */
int  hr__transit_floor(hr_machine *m, hr_time *t, int *id, uint64_t *seq);
/* Park p if nothing was submitted or routed to it since its last receive check (under the
 * lock): HR__PARKED; HR__PARK_LOOK: something was, look again; HR__PARK_NOT: it has a rendezvous
 * message whose transfer is not submitted yet, and sleeps unparked (woken once it is). */
enum { HR__PARKED, HR__PARK_LOOK, HR__PARK_NOT };
int  hr__transit_park_on(hr_proc *p);
static inline int hr__transit_park(hr_proc *p)
{
    return hr__transit_on(p->m) ? hr__transit_park_on(p) : HR__PARK_NOT;
}
/* After p published a new clock past `before`: route if p may have been what held it back. */
void hr__transit_sent_on(hr_proc *p, hr_time before);
static inline void hr__transit_sent(hr_proc *p, hr_time before)
{
    if (hr__transit_on(p->m))
        hr__transit_sent_on(p, before);
}
/* Route every submitted message, then run fn(net, ctx) under the same lock: for the serial
 * parts of a superstep or a round, while every other processor waits. */
void hr__transit_serial(hr_machine *m, void (*fn)(hr_net *net, void *ctx), void *ctx);
static inline int hr__msg_routed(const hr_msg *msg)
{
    return atomic_load_explicit(&((hr_msg *)msg)->routed, memory_order_acquire) != 0;
}

/* superstep.c */
/* A world collective `call` ends a superstep, under a model that charges whole supersteps
 * (net/cost_model.h): as hr_sync, the puts and gets land, and every clock moves to the
 * superstep's end. */
void hr__superstep_end(hr_proc *p, const char *call);

static inline hr_time hr__max(hr_time a, hr_time b) { return a > b ? a : b; }
static inline hr_time hr__min(hr_time a, hr_time b) { return a < b ? a : b; }

/* The one order of messages wherever real-time order must not decide: by a model time (arrival
 * for receives from any and buffer admissions, injection for link reservations), then source,
 * then the source's sequence number. */
static inline int hr__msg_before(hr_time t1, const hr_msg *m1, hr_time t2, const hr_msg *m2)
{
    if (t1 != t2)
        return t1 < t2;
    if (m1->src != m2->src)
        return m1->src < m2->src;
    return m1->seq < m2->seq;
}

/* HREMU_JITTER's next draw for p (xorshift64 on p->jitter): it needs no quality, only
 * independence from the model's streams. Each engine decides what a draw does. */
static inline uint64_t hr__jitter_draw(hr_proc *p)
{
    uint64_t x = p->jitter;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    p->jitter = x;
    return x;
}

/* ---- the engine's calls (hr_exec), inline: one indirect call each ------------------------- */

static inline int hr__exec_still(hr_machine *m)
{
    if (m->nready != NULL && atomic_load(m->nready) > 0)
        return HR_STILL_NO;
    return m->exec->still == NULL ? HR_STILL_UNKNOWN : m->exec->still(m);
}
static inline void hr__exec_sleep(hr_proc *p, _Atomic uint32_t *word, uint32_t val)
{
    p->m->exec->sleep(p, word, val);
}

static inline void hr__exec_wake(hr_machine *m, _Atomic uint32_t *word, int n)
{
    m->exec->wake(m, word, n);
}

static inline void hr__exec_wake_proc(hr_proc *q)
{
    q->m->exec->wake_proc(q);
}

static inline void hr__exec_yield(hr_proc *p)
{
    p->m->exec->yield(p);
}

static inline void hr__exec_jitter(hr_proc *p)
{
    p->m->exec->jitter(p);
}

#endif
