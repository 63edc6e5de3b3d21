/* direct.c: the MPI engine with `[run] model = off` (docs/mpi.md): the calls as plain MPI
 * programs have them, with no rank 0 in the way, so that wall_s measures the algorithm alone.
 * No clock is kept and no figure but wall_s is made; a send completes at once (its bytes are
 * copied out), whatever the discipline; a receive takes the first message that matches, in
 * arrival order, after the receives posted before it (hr_irecv) have taken theirs, as MPI's
 * matching rules say. A failure cannot end the run on one rank while the others wait, so it
 * ends the job: its line on standard error, then MPI_Abort. Rounds need the model: a machine
 * refuses model = off under a round discipline (engine.c, hr_machine_model).
 */
#include "mpi/rank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/world.h"
#include "util/clock.h"

void hr__direct_begin(hr_proc *p)
{
    p->t0 = hr__wall_s();
    p->pend_head = p->pend_tail = NULL;
}

_Noreturn void hr__direct_fail(hr_proc *p, int misuse, const char *fmt, va_list ap)
{
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    hr__world_say("hremu: P%d: %s%s (model = off: the job ends)\n", p->id,
                  misuse ? "misuse: " : "", line);
    hr__world_abort(1);
}

static void fail(hr_proc *p, int misuse, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    hr__direct_fail(p, misuse, fmt, ap);
}

/* Does s match a receive from src (HR_ANY) with tag (HR_ANY_TAG: any of the calls' tags, >= 0)? */
static int matches(const stashed *s, int src, int tag)
{
    return s->h.kind == HR_W_MSG && (src == HR_ANY || s->src == src) &&
           (tag == HR_ANY_TAG ? s->h.tag >= 0 : s->h.tag == tag);
}

/* The first stashed message, in arrival order, that matches; NULL if none has come. */
static stashed *find(hr_proc *p, int src, int tag)
{
    stashed *best = NULL;
    for (int i = src == HR_ANY ? 0 : src; i < (src == HR_ANY ? p->nprocs : src + 1); i++)
        for (stashed *s = p->stash[i]; s != NULL; s = s->next)
            if (matches(s, src, tag)) {
                if (best == NULL || s->arrival < best->arrival)
                    best = s;
                break;
            }
    return best;
}

/* Copy s into a receive of cap bytes at buf, or fail the misuse. */
static size_t take(hr_proc *p, stashed *s, void *buf, size_t cap, hr_status *st, const char *call)
{
    if (s->h.len > cap)
        fail(p, 1, "%s: a message of %llu bytes from P%d, but room for %zu", call,
             (unsigned long long)s->h.len, s->src, cap);
    if (s->h.len > 0)
        memcpy(buf, s->bytes, s->h.len);
    if (st != NULL)
        *st = (hr_status){ s->src, s->h.tag, s->h.len };
    size_t n = s->h.len;
    hr__rank_unstash(p, s);
    free(s);
    return n;
}

/* The posted receives take what has come for them, in posting order. */
static void match_pending(hr_proc *p)
{
    hr_request **at = &p->pend_head;
    hr_request *last = NULL;
    while (*at != NULL) {
        hr_request *r = *at;
        stashed *s = find(p, r->src, r->tag);
        if (s == NULL) {
            last = r;
            at = &r->later;
            continue;
        }
        take(p, s, r->buf, r->cap, &r->st, "hr_irecv");
        r->got = 1;
        *at = r->later;
        r->later = NULL;
    }
    p->pend_tail = last;
}

/* The first message for (src, tag) once the posted receives have had theirs; pulls until one
 * is there (wait) or while MPI has more (not wait: NULL if none). */
static stashed *next_for(hr_proc *p, int src, int tag, int wait)
{
    for (;;) {
        match_pending(p);
        stashed *s = find(p, src, tag);
        if (s != NULL)
            return s;
        int flag = 1;
        if (!wait)
            MPI_Iprobe(MPI_ANY_SOURCE, HR_W_TAG_DATA, p->m->data, &flag, MPI_STATUS_IGNORE);
        if (!flag)
            return NULL;
        hr__rank_pull(p, MPI_ANY_SOURCE);
    }
}

size_t hr__direct_recv(hr_proc *p, int src, int tag, void *buf, size_t cap, hr_status *st,
                       const char *call)
{
    return take(p, next_for(p, src, tag, 1), buf, cap, st, call);
}

void hr__direct_probe(hr_proc *p, int src, int tag, hr_status *st)
{
    stashed *s = next_for(p, src, tag, 1);
    if (st != NULL)
        *st = (hr_status){ s->src, s->h.tag, s->h.len };
}

int hr__direct_iprobe(hr_proc *p, int src, int tag, hr_status *st)
{
    stashed *s = next_for(p, src, tag, 0);
    if (s != NULL && st != NULL)
        *st = (hr_status){ s->src, s->h.tag, s->h.len };
    return s != NULL;
}

hr_request *hr__direct_irecv(hr_proc *p, int src, int tag, void *buf, size_t cap)
{
    hr_request *r = hr__rank_request(p, 0, buf, cap);
    r->src = src;
    r->tag = tag;
    if (p->pend_tail != NULL)
        p->pend_tail->later = r;
    else
        p->pend_head = r;
    p->pend_tail = r;
    match_pending(p);
    return r;
}

/* A send's request is complete when made (token 1); a receive's once it got its message. */
static int done(const hr_request *r)
{
    return r->token == 1 || r->got;
}

size_t hr__direct_wait(hr_proc *p, hr_request **req, hr_status *st)
{
    while (!done(*req)) {
        match_pending(p);
        if (!done(*req))
            hr__rank_pull(p, MPI_ANY_SOURCE);
    }
    size_t n = (*req)->token == 1 ? 0 : (*req)->st.bytes;
    if (st != NULL)
        *st = (*req)->token == 1 ? (hr_status){ p->id, 0, 0 } : (*req)->st;
    hr__rank_request_free(p, req);
    return n;
}

int hr__direct_test(hr_proc *p, hr_request **req, hr_status *st)
{
    int flag = 1;
    while (!done(*req) && flag) {
        match_pending(p);
        MPI_Iprobe(MPI_ANY_SOURCE, HR_W_TAG_DATA, p->m->data, &flag, MPI_STATUS_IGNORE);
        if (flag && !done(*req))
            hr__rank_pull(p, MPI_ANY_SOURCE);
    }
    if (!done(*req))
        return 0;
    hr__direct_wait(p, req, st);
    return 1;
}

/* A collective's block from src: the receiver's copy, viewed until hr__view_end. */
const void *hr__direct_view(hr_proc *p, int src, size_t len)
{
    stashed *s = next_for(p, src, p->coll_tag, 1);
    if (s->h.len != len)
        fail(p, 0, "a collective's block from P%d has %llu bytes, not %zu", src,
             (unsigned long long)s->h.len, len);
    hr__rank_unstash(p, s);
    s->next = p->views;
    p->views = s;
    return s->bytes;
}

/* A group's id from its key, alike on every member without a message: with no model rank to
 * hand out ids, the key's FNV-1a hash, folded to 30 bits. Two groups whose keys collide and
 * whose members overlap would share a tag; at 2^-30 a pair, we accept it. */
int hr__direct_ctx_id(const void *key, size_t len)
{
    const unsigned char *b = key;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return (int)((h ^ (h >> 30) ^ (h >> 60)) & 0x3fffffff);
}

/* The run's end: the posted receives no one waited for go. */
void hr__direct_end(hr_proc *p)
{
    p->pend_head = p->pend_tail = NULL;
}
