/* engine.h: the seam between the API and an engine.
 *
 * Above it: the public calls of include/hremu/hremu.h that check their arguments and say what
 * the caller did wrong (src/api/), and the collectives (src/coll/). They include this header
 * and the public ones, and nothing of core/: no thread, futex, lock or queue. Below it: an
 * engine, which runs the processors and moves their messages. Today that is the thread engine,
 * core/ (a processor per POSIX thread, mailboxes on liburcu's queue, futex sleeps, the resolver
 * in wait.c). Whatever the engine, the model is one: the engine feeds net/'s formulas and
 * link reservations in the canonical order (docs/model.md), so that model figures are the same
 * bit for bit on every engine.
 *
 * What an engine provides, by group:
 *   point-to-point   hr__eng_send ... hr__eng_iprobe: a call whose arguments the API checked
 *   requests         hr__eng_request_check: is a handle this processor's, live?
 *   collective blocks hr__coll_*: borrowed-buffer messages the collectives are built from
 *   groups           hr__ctx_id, hr__proc_slot
 *   rounds           hr_round_* (core/round.c)
 *   supersteps       hr_sync, hr_barrier, hr_put, hr_get, hr_register (core/superstep.c)
 *   clocks           hr_now, hr_compute (core/proc.c)
 *   failure          hr__misuse, hr__check_peer, hr_fail
 *   a processor's head  hr_eng_head (HR_ENG_HEAD): what src/api/ reads in place
 * Blocking and waking, the resolver and the clocks' publication are the engine's own business,
 * behind these calls (core.h: hr__wait, hr__wake, hr__proc_publish; wait.c: the resolver).
 */
#ifndef HREMU_CORE_ENGINE_H
#define HREMU_CORE_ENGINE_H

#include <limits.h>
#include <stddef.h>
#include <hremu/hremu.h>

#include "util/alloc.h"
#include "util/rng.h"

#define HR__TAG_COLL (-2)          /* collectives' messages; user tags are >= 0 */
/* Round messages, where an engine tells them apart: no tag a call or a group can have (a group's
 * collectives take HR__TAG_COLL - 1 - its context id, coll/group.c). */
#define HR__TAG_ROUND INT_MIN

/* ---- what the API reads of a processor in place -------------------------------------------- */
/* Every engine's processor begins with this head, so that the API's checks read it instead of
 * calling the engine, and the calls that are the same on every engine (src/api/proc.c: enquiry,
 * random stream, memory, the topology's enquiries) are written once. id, nprocs, traits and
 * topo are set when the machine is made; the engine seeds rng and recycles mem at the start of
 * every run. Owner only. What every call reads (id, nprocs, traits) comes last, on the line
 * of the fields an engine's calls read next (core.h, hr_proc). */
#define HR__ENG_HEAD_FIELDS                                                                   \
    hr_rng   rng;         /* hr_rand: the stream of (seed, id) */                             \
    hr_alloc mem;         /* hr_malloc: reclaimed when a run ends, even early */              \
    const struct hr_topo *topo;   /* hr_topology_shape ...: the machine's (net/topology.h) */ \
    int      id;          /* hr_pid */                                                        \
    int      nprocs;      /* hr_nprocs */                                                     \
    unsigned traits;      /* the discipline's HR_DISC_* (net/discipline.h) */

typedef struct hr_eng_head {
    HR__ENG_HEAD_FIELDS
} hr_eng_head;

/* An engine's processor struct begins with HR_ENG_HEAD: it names the head's fields as its own
 * (p->id), and they are the bytes the API reads as an hr_eng_head. */
#define HR_ENG_HEAD                                                                           \
    union {                                                                                   \
        hr_eng_head head;                                                                     \
        struct {                                                                              \
            HR__ENG_HEAD_FIELDS                                                               \
        };                                                                                    \
    }

static inline hr_eng_head *hr__eng_head(hr_proc *p) { return (hr_eng_head *)(void *)p; }

static inline const hr_eng_head *hr__eng_chead(const hr_proc *p)
{
    return (const hr_eng_head *)(const void *)p;
}

static inline unsigned hr__eng_traits(const hr_proc *p) { return hr__eng_chead(p)->traits; }

/* ---- point-to-point: the arguments are checked (src/api/p2p.c) ---------------------------- */
void        hr__eng_send(hr_proc *p, int dest, int tag, const void *buf, size_t len);
size_t      hr__eng_recv(hr_proc *p, int src, int tag, void *buf, size_t cap, hr_status *st,
                         const char *call);
size_t      hr__eng_sendrecv(hr_proc *p, int dest, int sendtag, const void *sendbuf,
                             size_t sendlen, int src, int recvtag, void *recvbuf, size_t cap,
                             hr_status *st);
void        hr__eng_probe(hr_proc *p, int src, int tag, hr_status *st);
hr_request *hr__eng_isend(hr_proc *p, int dest, int tag, const void *buf, size_t len);
hr_request *hr__eng_irecv(hr_proc *p, int src, int tag, void *buf, size_t cap);
/* Complete *req (checked), blocking; sets *req to NULL. The received length, or 0. */
size_t      hr__eng_wait(hr_proc *p, hr_request **req, hr_status *st, const char *call);
/* Complete the receives among reqs[0 .. n) (checked, not NULL), then the sends. */
void        hr__eng_waitall(hr_proc *p, int n, hr_request **reqs, hr_status *st);
/* Complete *req (checked) if it is done by p's clock: 1, *req NULL; else 0. */
int         hr__eng_test(hr_proc *p, hr_request **req, hr_status *st);
int         hr__eng_iprobe(hr_proc *p, int src, int tag, hr_status *st);
/* Fail p as misused unless r is one of p's requests, not yet completed. */
void        hr__eng_request_check(hr_proc *p, const hr_request *r, const char *call);

/* ---- collective blocks -------------------------------------------------------------------- */
/* Count a collective step whose messages carry tag (HR__TAG_COLL, or a group's: below it), and
 * name it, printf-style, for a deadlock report: "hr_bcast from root %d". The name stays until the
 * next collective. */
void        hr__coll_begin(hr_proc *p, int tag, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A collective returns: the end of its event. */
void        hr__coll_end(hr_proc *p);
/* Post a block of the collectives: costed as an async send, data borrowed from buf until it is
 * taken; the sender must hr__coll_complete before buf changes. */
void        hr__coll_post(hr_proc *p, int dest, const void *buf, size_t len);
/* Post to every other processor d of the world its block, base + d * stride (len bytes; stride 0:
 * the same block to all), in the order id + 1, id + 2, ... (mod p), costed and borrowed as
 * hr__coll_post's (lend: as hr__coll_lend's), and return 1; or post nothing and return 0 where
 * the engine does not post them as one (then the caller posts each). A world collective only:
 * every processor batches alike, and takes as usual. */
int         hr__coll_batch(hr_proc *p, const void *base, size_t stride, size_t len, int lend);
/* Take the next block from src into buf (exactly len bytes expected). */
void        hr__coll_take(hr_proc *p, int src, void *buf, size_t len);
/* Before taking blocks from count sources: the engine may wait for them all at once. */
void        hr__coll_await(hr_proc *p, int count);
/* Wait until every block p posted is taken; its clock follows the takes. */
void        hr__coll_complete(hr_proc *p);
/* Zero-copy blocks: posted and costed as hr__coll_post, but the receiver views the data in place
 * (hr__coll_view returns the sender's pointer) until hr__view_end. Between the two, the receiver
 * may not communicate; hr__view_end waits until the caller's own lent blocks are released too. */
void        hr__coll_lend(hr_proc *p, int dest, const void *buf, size_t len);
const void *hr__coll_view(hr_proc *p, int src, size_t len);
void        hr__view_end(hr_proc *p);

/* ---- groups -------------------------------------------------------------------------------- */
/* The id (>= 0) of the group that key names: the same for every member that asks with equal
 * bytes, in this run. Fails p when memory runs out. */
int         hr__ctx_id(hr_proc *p, const void *key, size_t len);
/* Slots a processor keeps for the layers above, NULL at the start of every run: the world
 * group's handle, and the lists hr_group_make was given (coll/group.c). */
enum { HR_SLOT_WORLD, HR_SLOT_GROUPS, HR_NSLOTS };
void      **hr__proc_slot(hr_proc *p, int slot);

/* ---- failure ------------------------------------------------------------------------------- */
/* The algorithm misused the API (a bad argument, a call out of place): as hr_fail, but the
 * run's status is HR_EMISUSE and its line says "misuse". */
__attribute__((noreturn, format(printf, 2, 3))) void hr__misuse(hr_proc *p, const char *fmt, ...);
/* Fail p as misused unless peer is a processor of the machine (or HR_ANY, where any_ok): the
 * one check of a named peer, for the API's calls and the engine's own. */
static inline void hr__check_peer(hr_proc *p, int peer, const char *call, int any_ok)
{
    int n = hr__eng_chead(p)->nprocs;
    if ((!any_ok || peer != HR_ANY) && (peer < 0 || peer >= n))
        hr__misuse(p, "%s: processor %d does not exist (p = %d)", call, peer, n);
}

#endif
