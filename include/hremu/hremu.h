/* hremu.h: the SPMD API an algorithm is written against.
 *
 * An algorithm is one function run by every processor of a machine, each with its own hr_proc.
 * It sees no thread, lock or queue: only this API. Every call takes the calling processor's own
 * hr_proc and may be called only from that processor's thread ("owner proc only").
 *
 * Model time: every call that communicates or computes advances the processor's model clock by
 * the cost model of docs/model.md. Real-time order never changes a result or a model figure.
 *
 * Failure: hr_fail() and a detected deadlock end the calling processor's part of the run at once
 * (the run returns HR_EFAIL or HR_EDEADLK). Memory from hr_malloc is reclaimed in that case;
 * memory from plain malloc is not, so algorithms allocate with hr_malloc.
 */
#ifndef HREMU_HREMU_H
#define HREMU_HREMU_H

#include <stddef.h>
#include <stdint.h>
#include <hremu/error.h>

typedef struct hr_proc hr_proc;

#define HR_ANY     (-1)  /* hr_recv/hr_probe source: any processor, in virtual-arrival order */
#define HR_ANY_TAG (-1)  /* hr_recv/hr_probe tag: any tag */

/* What a receive or probe found. */
typedef struct hr_status {
    int    source;       /* sending processor */
    int    tag;          /* the message's tag */
    size_t bytes;        /* the message's length */
} hr_status;

/* ---- enquiry ---------------------------------------------------------------------------- */
int      hr_pid(const hr_proc *p);          /* this processor's id, 0 .. hr_nprocs-1 */
int      hr_nprocs(const hr_proc *p);       /* p, the number of processors */
double   hr_now(const hr_proc *p);          /* this processor's model clock, seconds */
uint64_t hr_seed(const hr_proc *p);         /* the machine's seed */

/* ---- the machine: what an algorithm may ask of it, to choose an ordering ---------------------- */
/* The cost parameters (docs/model.md). Seconds and seconds per byte. Under cost model loggp
 * tau is L, overhead o and sigma G; under bsp tau is l and sigma g
 * (hr_machine_config.cost_model). */
typedef struct hr_cost {
    double tau;           /* latency of one message, s (> 0: it is the lookahead of ANY receives) */
    double sigma;         /* s per byte a processor injects or absorbs */
    double overhead;      /* CPU time per message sent or received, s */
    double hop;           /* latency per link traversed, s */
    double gap;           /* loggp's g: s from one message's injection (or reception) to the
                             next's at a processor; 0 under bdm, which has none */
    double compute_unit;  /* s per hr_compute unit */
    int    measured;      /* nonzero: charge the thread's CPU time instead of hr_compute units */
} hr_cost;
/* The machine's discipline: "async", "sync", "eager", "fifo", "priority", "arbitrary" or "ocpc". */
const char *hr_discipline(const hr_proc *p);
/* Its cost parameters (with compute = measured, measured is 1 and compute_unit unused). */
hr_cost  hr_costs(const hr_proc *p);
/* Its receive buffer per processor in bytes under async; 0: unlimited. */
uint64_t hr_buffer(const hr_proc *p);
/* On a topology with links: 1 if messages are stored and forwarded at every hop, 0 if they cut
 * through (docs/model.md, "Link contention"). */
int      hr_store_forward(const hr_proc *p);

/* ---- the network (docs/model.md, "Topologies"): what an algorithm may ask of its machine ---- */
/* The topology's name and shape as configured, canonical: "complete", "hypercube", "mesh 4x8". */
const char *hr_topology_shape(const hr_proc *p);
/* The shape's parameters (mesh and torus: the sides; hypercube: its dimension d) into dims, up
 * to max of them; returns how many the shape has (0 for complete and ring). */
int      hr_topology_dims(const hr_proc *p, int *dims, int max);
/* The processors linked to processor `node` (any node, not only the caller), in increasing
 * order, up to max of them into out; returns how many there are. On complete, every other. */
int      hr_neighbours(const hr_proc *p, int node, int *out, int max);
/* The links the route from a to b crosses (0 when a == b; 1 on complete). */
int      hr_distance(const hr_proc *p, int a, int b);

/* ---- randomness: a private stream per processor, derived from (seed, pid) ------------------ */
uint64_t hr_rand(hr_proc *p);                       /* 64 uniform bits */
uint64_t hr_rand_below(hr_proc *p, uint64_t bound); /* uniform in [0, bound), bound > 0, unbiased */
double   hr_rand_unit(hr_proc *p);                  /* uniform in [0, 1) */

/* ---- memory: private to the processor, reclaimed when the next run starts ------------------ */
void *hr_malloc(hr_proc *p, size_t bytes);   /* fails the run (hr_fail) when memory runs out */
void *hr_calloc(hr_proc *p, size_t n, size_t size);
/* NULL is fine; only a live block from this proc's hr_malloc or hr_calloc: any other pointer
 * (freed already, another processor's, from malloc, on the stack) fails the run as misuse. */
void  hr_free(hr_proc *p, void *ptr);

/* ---- failure -------------------------------------------------------------------------------- */
/* End this processor's part of the run, failed, with a message for the report. Does not return.
 * The other processors go on until they finish or block on this one (which then is no deadlock:
 * the run ends with HR_EFAIL and this message). */
#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 2, 3)))
#endif
void hr_fail(hr_proc *p, const char *fmt, ...);

/* ---- computation ----------------------------------------------------------------------------- */
/* Charge units * compute_unit seconds of local work to the model clock (or, with
 * compute = measured, nothing here: the thread's CPU time is charged at each communication). */
void hr_compute(hr_proc *p, double units);

/* ---- point to point -------------------------------------------------------------------------- */
/* Send bytes [buf, buf+len) to processor dest with a tag >= 0. Under discipline async the data is
 * copied and the call returns at once (or blocks while the receiver's buffer is full); under sync it
 * returns when dest has received it (rendezvous); under eager it is copied up to the machine's
 * eager_limit bytes and rendezvous above. dest may be the caller itself. */
void   hr_send(hr_proc *p, int dest, int tag, const void *buf, size_t len);
/* Receive one message from src (or HR_ANY) with tag (or HR_ANY_TAG) into buf of cap bytes; blocks
 * until one is there. Messages from one source arrive in the order sent; from HR_ANY they come in
 * virtual-arrival order (arrival time, then source id, then sequence). A message longer than cap
 * fails the run. Returns the message's length; st may be NULL. */
size_t hr_recv(hr_proc *p, int src, int tag, void *buf, size_t cap, hr_status *st);
/* As hr_recv, but leaves the message in place: the next matching hr_recv returns it. The clock
 * moves to the message's arrival (docs/model.md). */
void   hr_probe(hr_proc *p, int src, int tag, hr_status *st);
/* Send to dest and receive from src as one step (MPI_Sendrecv): under sync the receive is done
 * while the send waits to be taken, so a ring of them cannot deadlock, and the step costs one
 * message time. Returns the received length; st may be NULL. */
size_t hr_sendrecv(hr_proc *p, int dest, int sendtag, const void *sendbuf, size_t sendlen,
                   int src, int recvtag, void *recvbuf, size_t cap, hr_status *st);

/* ---- non-blocking point to point ----------------------------------------------------------- */
/* A request stands for a send or a receive in progress; it lives in the caller's memory until
 * hr_wait, hr_waitall or a true hr_test completes it and sets the handle to NULL (a NULL handle
 * is complete already). Every request must be completed before the algorithm returns.
 *
 * hr_isend costs what hr_send costs at the call (under async: the copy is made and the buffer
 * may be reused at once; with a bounded buffer it waits for room, as hr_send). Under sync the
 * message is posted and buf must stay unchanged until the request completes: the transfer starts
 * once the receive is posted, and completing the request moves the clock to the end of the
 * transfer plus the overhead.
 *
 * hr_irecv posts a receive and costs nothing. Its message is matched when the request is
 * completed (hr_wait, hr_waitall, hr_test), in posting order among receives that could take the
 * same message (MPI's non-overtaking rule); hr_recv also completes the pending receives that
 * could take its message first. The model absorbs the message as if the receive had been
 * waiting since it was posted: a rendezvous starts at max(issue, post), and completion moves the
 * clock to max(clock, r) + overhead, r the end of the absorption (docs/model.md). hr_probe and
 * hr_iprobe see messages that a pending receive will take: do not probe for those. */
typedef struct hr_request hr_request;

hr_request *hr_isend(hr_proc *p, int dest, int tag, const void *buf, size_t len);
hr_request *hr_irecv(hr_proc *p, int src, int tag, void *buf, size_t cap);
/* Complete *req (blocking until it is done), fill st (receives; may be NULL) and set *req to
 * NULL. Returns the received length (0 for a send). */
size_t hr_wait(hr_proc *p, hr_request **req, hr_status *st);
/* Complete reqs[0..n): the receives first, in array order, then the sends. st is NULL or has n
 * entries (a send's entry is left alone). */
void   hr_waitall(hr_proc *p, int n, hr_request **reqs, hr_status *st);
/* Is *req done by the caller's model clock? 1: it is completed as hr_wait would (at no further
 * wait) and *req set to NULL; 0: not yet, and the call costs the overhead (at least 1 ns, so that
 * a loop of tests advances the clock). Decided in model time: the call may wait, in real time,
 * until the other processors' clocks show whether the message can be in by then. A loop of tests
 * for a message nobody can send any more (its senders have returned) fails the run at its
 * 2^20-th test in a row (docs/api.md, "Requests"), where hr_wait would report a deadlock. */
int    hr_test(hr_proc *p, hr_request **req, hr_status *st);
/* Has a matching message arrived by the caller's model clock (a rendezvous: its envelope, at
 * issue + latency)? 1 with st filled (may be NULL), and no cost; 0 at the cost of a failed
 * hr_test. Decided in model time, as hr_test. */
int    hr_iprobe(hr_proc *p, int src, int tag, hr_status *st);

/* ---- rounds: the round disciplines fifo, priority, arbitrary and ocpc ------------------------- */
/* Under a round discipline processors communicate in synchronous rounds. In a round each processor
 * sends at most one message (hr_round_send), and every processor ends the round together
 * (hr_round_end). What becomes of several messages arriving at one receiver in one round is the
 * discipline's rule (docs/model.md):
 *   fifo       they join the receiver's FIFO queue, in a seeded random order; in each round the
 *              message at the head of the queue is received. A sender is stalled, and cannot send,
 *              while its message waits in a queue.
 *   priority   as fifo, but the waiting message of highest priority is received first (ties in a
 *              seeded random order).
 *   arbitrary  one of them, chosen at random (seeded), is received; the others are lost.
 *   ocpc       a lone arrival is received; two or more are all lost.
 * After hr_round_end, hr_round_fate says what became of the caller's message and hr_round_recv
 * gives the message the caller received in that round. Every draw comes from seeded streams, so
 * the outcome does not depend on the thread schedule. */
typedef enum hr_fate {
    HR_FATE_NONE,        /* no message of the caller's is out (or its fate was told already) */
    HR_FATE_SENT,        /* hr_round_send: it went out; hr_round_end tells its fate */
    HR_FATE_DELIVERED,   /* received in the round just ended */
    HR_FATE_QUEUED,      /* waits in the receiver's queue: the caller is stalled (fifo, priority) */
    HR_FATE_LOST,        /* lost in a collision (arbitrary, ocpc): send it again */
    HR_FATE_STALLED,     /* hr_round_send: not sent, the caller is stalled (fifo, priority) */
} hr_fate;

/* Send len bytes to dest in this round, with priority prio (higher first; used by priority, ignored
 * otherwise). Returns HR_FATE_SENT, or HR_FATE_STALLED when the caller's previous message still
 * waits in a queue (nothing is sent). A second send in one round fails the run. */
hr_fate hr_round_send(hr_proc *p, int dest, const void *buf, size_t len, uint64_t prio);
/* End the round. Every processor calls it once per round. more says whether the caller still has
 * messages to deliver (unsent, or out and not yet delivered). Returns how many processors said
 * so: 0 means nothing is left anywhere, and that last call is not counted as a round. */
int     hr_round_end(hr_proc *p, int more);
/* The fate of the caller's message after hr_round_end: DELIVERED, QUEUED (still), LOST, or NONE. */
hr_fate hr_round_fate(const hr_proc *p);
/* The message the caller received in the round just ended: copies it into buf (at most cap bytes:
 * a longer message fails the run), fills st if not NULL, and returns 1; or returns 0 if none. */
int     hr_round_recv(hr_proc *p, void *buf, size_t cap, hr_status *st);

/* ---- supersteps and one-sided memory (BSPlib / Split-C) --------------------------------------- */
/* Register [base, base+bytes) for remote access; returns a slot number. Every processor registers
 * its regions in the same order, so slot k names "the k-th region" on every processor. */
int  hr_register(hr_proc *p, void *base, size_t bytes);
/* Split-C bulk_write: write src[0..len) into slot `slot` of processor dest at offset off. The write
 * takes effect at the end of the superstep (hr_sync), in order of (source, issue order). */
void hr_put(hr_proc *p, int dest, int slot, size_t off, const void *src, size_t len);
/* Split-C bulk_read: read len bytes at offset off of slot `slot` on processor src into dst. dst is
 * filled at the end of the superstep with the value the region had when the superstep ended
 * (before that superstep's puts). */
void hr_get(hr_proc *p, int src, int slot, size_t off, void *dst, size_t len);
/* End the superstep: every processor waits for all, then gets and puts are applied. (Under cost
 * model bsp every world collective ends one too: docs/model.md, "Cost models".) */
void hr_sync(hr_proc *p);

/* ---- timed regions: phases whose model time and traffic are reported per name -------------- */
/* Mark a phase of the caller's program. Between hr_region_begin(p, name) and the matching
 * hr_region_end(p, name) the caller's model time, local work and traffic are counted to the
 * region `name`; after the run hr_machine_region_result (machine.h) gives, per name, the figures
 * over all processors. Regions nest, properly on each processor: an end must name the innermost
 * open region, and every region must be ended before the algorithm returns (else the run fails,
 * naming the region). A name has 1 to HR_REGION_NAME_MAX bytes and no control character; a
 * region re-entered while open (recursion) counts its time and traffic once. Neither call costs
 * model time, communicates or blocks (with compute = measured both charge the CPU time used so
 * far, as a communication call does). Owner proc only. */
#define HR_REGION_NAME_MAX 63
void hr_region_begin(hr_proc *p, const char *name);
void hr_region_end(hr_proc *p, const char *name);

/* ---- groups: collectives over a subset of processors (MPI's communicators) ------------------ */
/* A group is a set of processors ranked 0 .. size-1. Each member holds its own handle (in its
 * memory, for this run); the collectives below take one as hr_group_<collective>(p, g, ...) with
 * roots and block indices as ranks of g, and cost what the world's forms cost on size
 * processors, along the routes between the members (docs/model.md, "Groups"). Collectives of
 * different groups never take each other's messages, even where the groups share members that
 * call them in different orders. Every member makes the same groups in the same order. */
typedef struct hr_group hr_group;
#define HR_UNDEFINED (-1)   /* hr_group_split: this processor joins no group */

/* Every processor, rank = pid: the world's collectives (hr_bcast ...) are its group forms. */
hr_group *hr_world(hr_proc *p);
/* The group of the n processors pids[0..n) in that order (rank r is pids[r]): no message, no
 * model time. NULL for a processor not in the list (it need not call). A bad or repeated id fails
 * the run. */
hr_group *hr_group_make(hr_proc *p, const int *pids, int n);
/* MPI_Comm_split: collective over parent; members with the same colour (>= 0) form a group,
 * ranked by key, then by rank in parent. HR_UNDEFINED: NULL. It exchanges the (colour, key)
 * pairs by hr_group_allgather on parent, and costs that. */
hr_group *hr_group_split(hr_proc *p, hr_group *parent, int colour, int key);
int hr_group_size(const hr_group *g);
int hr_group_rank(const hr_group *g);          /* the caller's rank in g */
int hr_group_pid(const hr_group *g, int rank);  /* the processor at rank */
int hr_group_rank_of(const hr_group *g, int pid);   /* pid's rank in g, or -1 */

/* ---- collectives: every processor calls them in the same order with matching arguments -------- */
/* Element types of the built-in reductions. The last three are value-index pairs like MPI's
 * MPI_2INT, MPI_LONG_INT and MPI_DOUBLE_INT, elements of the structs below, for HR_MINLOC and
 * HR_MAXLOC only. */
typedef enum hr_type {
    HR_INT32, HR_UINT32, HR_INT64, HR_UINT64, HR_DOUBLE,
    HR_INT32_INT,        /* hr_int32_int */
    HR_INT64_INT,        /* hr_int64_int */
    HR_DOUBLE_INT,       /* hr_double_int */
} hr_type;
typedef struct hr_int32_int  { int32_t value; int32_t index; } hr_int32_int;
typedef struct hr_int64_int  { int64_t value; int32_t index; } hr_int64_int;
typedef struct hr_double_int { double  value; int32_t index; } hr_double_int;

/* Built-in operators, element by element, and the types they take (any other pair fails the run,
 * naming the operator and the type):
 *   HR_SUM, HR_PROD        the five number types; integers wrap modulo 2^bits
 *   HR_MIN, HR_MAX         the five number types
 *   HR_LAND, HR_LOR, HR_LXOR   the five number types: nonzero is true; the result is 1 or 0
 *   HR_BAND, HR_BOR, HR_BXOR   the four integer types (bits)
 *   HR_MINLOC, HR_MAXLOC   the pair types: the least (greatest) value with its index; among equal
 *                          values the smallest index, as in MPI */
typedef enum hr_op {
    HR_SUM, HR_MIN, HR_MAX,
    HR_PROD, HR_LAND, HR_LOR, HR_LXOR, HR_BAND, HR_BOR, HR_BXOR, HR_MINLOC, HR_MAXLOC,
} hr_op;

/* A user's reduction: for i < count, inout[i] = in[i] (+) inout[i], where in holds the combination
 * over lower-numbered processors and inout the one over higher-numbered processors, so that the
 * result is x_0 (+) x_1 (+) ... (+) x_(p-1) in rank order (MPI's convention; (+) need not be
 * commutative, it must be associative). Both arrays hold count elements of the elem_size given
 * to the call; ctx is passed through untouched. It runs on the calling processor's thread and
 * must not communicate; the model does not charge it, as it does not charge the built-ins. */
typedef void (*hr_reduce_fn)(void *inout, const void *in, size_t count, void *ctx);

void hr_barrier(hr_proc *p);
/* Block k of send (block bytes each) goes to processor k, which stores it as block hr_pid of recv. */
void hr_transpose(hr_proc *p, const void *send, void *recv, size_t block);
/* hr_transpose without the copy, for programs that only read what they receive: view[k] points at
 * processor k's block for the caller, where k keeps it. Model time, counters and the return are
 * those of hr_transpose. The views are read-only and last until hr_view_end, which every processor
 * calls: it ends the caller's views and waits until nobody views the caller's blocks, so send must
 * stay unchanged until then. In between, the caller computes but does not communicate (that fails
 * the run). */
void hr_transpose_view(hr_proc *p, const void *send, size_t block, const void **view);
void hr_view_end(hr_proc *p);
/* Personalised all-to-all of variable blocks, in elements of elem bytes (MPI_Alltoallv). */
void hr_alltoallv(hr_proc *p, const void *send, const size_t *scounts, const size_t *sdispls,
                  void *recv, const size_t *rcounts, const size_t *rdispls, size_t elem);
void hr_bcast(hr_proc *p, int root, void *buf, size_t len);
/* gather: block k of root's recv (block bytes) comes from processor k. recv is used at root only. */
void hr_gather(hr_proc *p, int root, const void *send, void *recv, size_t block);
/* scatter: block k of root's send goes to processor k's recv. send is used at root only. */
void hr_scatter(hr_proc *p, int root, const void *send, void *recv, size_t block);
/* allgather: block k of everyone's recv comes from processor k (concatenation). */
void hr_allgather(hr_proc *p, const void *send, void *recv, size_t block);
/* Element-wise reductions of count elements, combined in rank order (processor 0's on the left);
 * out is used at root only for hr_reduce. */
void hr_reduce(hr_proc *p, int root, const void *in, void *out, size_t count, hr_type t, hr_op op);
void hr_allreduce(hr_proc *p, const void *in, void *out, size_t count, hr_type t, hr_op op);
/* Prefix: out on processor i combines in of processors 0..i (inclusive) or 0..i-1 (exclusive;
 * processor 0 then gets the identity of op: 0 for sum, or, lxor, bor, bxor; 1 for prod, land;
 * all bits set for band; the type's max for min, its min (-inf for double) for max; the pair
 * {max, INT32_MAX} for minloc and {min, INT32_MAX} for maxloc). */
void hr_scan(hr_proc *p, const void *in, void *out, size_t count, hr_type t, hr_op op);
void hr_exscan(hr_proc *p, const void *in, void *out, size_t count, hr_type t, hr_op op);
/* The same four with a user's function fn on count elements of elem_size bytes (> 0): the same
 * messages, model time and results' order as the built-in operators. hr_exscan_user leaves out
 * unchanged on processor 0 (a user's operator has no identity). */
void hr_reduce_user(hr_proc *p, int root, const void *in, void *out, size_t count,
                    size_t elem_size, hr_reduce_fn fn, void *ctx);
void hr_allreduce_user(hr_proc *p, const void *in, void *out, size_t count, size_t elem_size,
                       hr_reduce_fn fn, void *ctx);
void hr_scan_user(hr_proc *p, const void *in, void *out, size_t count, size_t elem_size,
                  hr_reduce_fn fn, void *ctx);
void hr_exscan_user(hr_proc *p, const void *in, void *out, size_t count, size_t elem_size,
                    hr_reduce_fn fn, void *ctx);

/* The collectives over a group g of the caller's (hr_world(p) gives the forms above): every
 * member calls them, in the same order, ranks in place of processor ids. hr_group_barrier is a
 * dissemination barrier of zero-byte messages among the members: ceil(lg size) * tau. */
void hr_group_barrier(hr_proc *p, const hr_group *g);
void hr_group_bcast(hr_proc *p, const hr_group *g, int root, void *buf, size_t len);
void hr_group_transpose(hr_proc *p, const hr_group *g, const void *send, void *recv, size_t block);
void hr_group_alltoallv(hr_proc *p, const hr_group *g, const void *send, const size_t *scounts,
                        const size_t *sdispls, void *recv, const size_t *rcounts,
                        const size_t *rdispls, size_t elem);
void hr_group_gather(hr_proc *p, const hr_group *g, int root, const void *send, void *recv,
                     size_t block);
void hr_group_scatter(hr_proc *p, const hr_group *g, int root, const void *send, void *recv,
                      size_t block);
void hr_group_allgather(hr_proc *p, const hr_group *g, const void *send, void *recv, size_t block);
void hr_group_reduce(hr_proc *p, const hr_group *g, int root, const void *in, void *out,
                     size_t count, hr_type t, hr_op op);
void hr_group_allreduce(hr_proc *p, const hr_group *g, const void *in, void *out, size_t count,
                        hr_type t, hr_op op);
void hr_group_scan(hr_proc *p, const hr_group *g, const void *in, void *out, size_t count,
                   hr_type t, hr_op op);
void hr_group_exscan(hr_proc *p, const hr_group *g, const void *in, void *out, size_t count,
                     hr_type t, hr_op op);
void hr_group_reduce_user(hr_proc *p, const hr_group *g, int root, const void *in, void *out,
                          size_t count, size_t elem_size, hr_reduce_fn fn, void *ctx);
void hr_group_allreduce_user(hr_proc *p, const hr_group *g, const void *in, void *out,
                             size_t count, size_t elem_size, hr_reduce_fn fn, void *ctx);
void hr_group_scan_user(hr_proc *p, const hr_group *g, const void *in, void *out, size_t count,
                        size_t elem_size, hr_reduce_fn fn, void *ctx);
void hr_group_exscan_user(hr_proc *p, const hr_group *g, const void *in, void *out, size_t count,
                          size_t elem_size, hr_reduce_fn fn, void *ctx);

#endif /* HREMU_HREMU_H */
