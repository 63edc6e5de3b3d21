/* model.c: the model rank (rank 0) of the MPI engine. It runs the thread engine on a machine
 * of the same config, each processor a proxy: a dispatcher thread receives every rank's calls
 * (wire.h) and hands each to its processor's proxy, which performs it in the model (with bytes
 * of the same length, not the data: the data moves between the ranks) and answers the clock
 * and, for a receive, which message the model matched. The model decides every figure, in the
 * same canonical order as on threads, so they are equal bit for bit.
 *
 * This file is compiled with the thread engine's symbols renamed (build/mpi/rename.h, made by
 * the Makefile from core/'s objects), so that the names it calls here are the model's copy and
 * the public names stay free for the ranks' engine (engine.c).
 */
#include "mpi/model.h"

#include <errno.h>
#include <pthread.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "mpi/wire.h"
#include "util/sync.h"

/* A receive the proxy posted for its rank (hr_irecv): the model copies into sink. */
typedef struct posted {
    hr_request *req;
    void       *sink;
} posted;

/* One processor's next call, from the dispatcher to its proxy, and what the proxy keeps. */
typedef struct slot {
    pthread_mutex_t lock;
    pthread_cond_t  cond;
    hr_wire_req    *q;         /* its rank's calls not yet performed, a ring of capq */
    int             head, n, capq;
    uint8_t        *buf;       /* the call's extra bytes (extra) */
    size_t          cap;
    hr_wire_taken  *taken;     /* what the call under way took, in order */
    int             ntaken, captaken;
    posted         *posted;    /* its receives not yet completed */
    int             nposted, capposted;
} slot;

/* What the proxies send, receive, register and get instead of the data: zeros, read only,
 * mapped but never backed. The model's machine copies no bytes (hr_machine.no_bytes): a
 * message's bytes are the ranks' business, the model needs only their length. */
#define ZEROS_LEN ((size_t)1 << 36)

struct hr_model {
    const uint8_t *zeros;      /* ZEROS_LEN bytes */
    hr_machine   *m;
    MPI_Comm      comm;
    int           p;
    slot         *slots;
    uint64_t      run;
    pthread_t     runner, dispatcher;
    hr_run_result res;
};

static void put(slot *s, const hr_wire_req *r)
{
    hr__mutex_lock(&s->lock);
    if (s->n == s->capq) {     /* at most HR_W_WINDOW + 1 deep: a rank waits then */
        int cap = s->capq ? 2 * s->capq : 8;
        hr_wire_req *q = malloc((size_t)cap * sizeof *q);
        HR_ASSERT(q != NULL);
        for (int i = 0; i < s->n; i++)
            q[i] = s->q[(s->head + i) % s->capq];
        free(s->q);
        s->q = q;
        s->head = 0;
        s->capq = cap;
    }
    s->q[(s->head + s->n++) % s->capq] = *r;
    HR_ASSERT(pthread_cond_signal(&s->cond) == 0);
    hr__mutex_unlock(&s->lock);
}

/* The proxy p's next call. While it waits, a run that ended elsewhere (a failure, a deadlock)
 * ends its part too: its rank learns of it from the run's end. */
static void take(hr_proc *p, slot *s, hr_wire_req *r)
{
    hr__mutex_lock(&s->lock);
    while (s->n == 0) {
        if (atomic_load(&p->m->abort)) {
            hr__mutex_unlock(&s->lock);
            hr__proc_exit(p);
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 10 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        int rc = pthread_cond_timedwait(&s->cond, &s->lock, &until);
        HR_ASSERT(rc == 0 || rc == ETIMEDOUT);
    }
    *r = s->q[s->head];
    s->head = (s->head + 1) % s->capq;
    s->n--;
    hr__mutex_unlock(&s->lock);
}

static const void *source(hr_proc *p, hr_model *md, size_t len)
{
    if (len > ZEROS_LEN)
        hr_fail(p, "a %zu-byte message is more than the MPI engine's model takes", len);
    return md->zeros;
}

/* The proxy's own buffer, of len bytes at least: where its receives copy to, and where a
 * call's extra bytes come in. */
/* Where a receive of len bytes goes in the model: nowhere (hr_machine.no_bytes), but the calls
 * want an address. */
static void *bytes(hr_proc *p, hr_model *md, size_t len)
{
    return (void *)source(p, md, len);
}

/* The extra bytes of p's call (HR_W_TAG_EXTRA): len bytes after the run's number. Bytes an
 * ended run left (its rank sent them as the run ended) are dropped. */
static void *extra(hr_proc *p, hr_model *md, slot *s, size_t len)
{
    if (sizeof(uint64_t) + len > s->cap) {
        uint8_t *g = realloc(s->buf, sizeof(uint64_t) + len);
        if (g == NULL)
            hr_fail(p, "the model rank is out of memory for a call of %zu bytes", len);
        s->buf = g;
        s->cap = sizeof(uint64_t) + len;
    }
    uint8_t *b = s->buf;
    uint64_t run;
    do {
        MPI_Recv(b, (int)(sizeof run + len), MPI_BYTE, p->id, HR_W_TAG_EXTRA, md->comm,
                 MPI_STATUS_IGNORE);
        memcpy(&run, b, sizeof run);
    } while (run != md->run);
    return b + sizeof run;
}

static void *grow(hr_proc *p, void *v, int *cap, size_t each)
{
    int c = *cap ? 2 * *cap : 16;
    void *w = realloc(v, (size_t)c * each);
    if (w == NULL)
        hr_fail(p, "the model rank is out of memory");
    *cap = c;
    return w;
}

/* The core's hook (hr_machine.taken): a message p took, and into which of its receives. */
static void taken(void *arg, hr_proc *p, int src, int tag, uint64_t seq, size_t len,
                  const void *into)
{
    hr_model *md = arg;
    slot *s = &md->slots[p->id];
    uint64_t token = 0;
    for (int i = 0; i < s->nposted; i++)
        if (into != NULL && s->posted[i].sink == into)
            token = (uint64_t)(uintptr_t)s->posted[i].req;
    if (s->ntaken == s->captaken)
        s->taken = grow(p, s->taken, &s->captaken, sizeof *s->taken);
    s->taken[s->ntaken++] = (hr_wire_taken){ .src = src, .tag = tag, .seq = seq, .len = len,
                                             .token = token };
}

static hr_request *post_recv(hr_proc *p, slot *s, int src, int tag, size_t cap)
{
    void *sink = malloc(1);       /* no bytes land there: it names the receive (taken) */
    if (sink == NULL)
        hr_fail(p, "the model rank is out of memory for a %zu-byte receive", cap);
    if (s->nposted == s->capposted)
        s->posted = grow(p, s->posted, &s->capposted, sizeof *s->posted);
    hr_request *r = hr__eng_irecv(p, src, tag, sink, cap);
    s->posted[s->nposted++] = (posted){ r, sink };
    return r;
}

/* The request r (a token) is completed: its sink goes. */
static void forget(slot *s, uint64_t token)
{
    for (int i = 0; i < s->nposted; i++)
        if ((uint64_t)(uintptr_t)s->posted[i].req == token) {
            free(s->posted[i].sink);
            s->posted[i] = s->posted[--s->nposted];
            return;
        }
}

static hr_request *request(uint64_t token) { return (hr_request *)(uintptr_t)token; }

/* HR_W_WAITALL: the model's hr_waitall on the tokens that follow; their statuses go back after
 * the answer (more: how many). */
static hr_wire_status *waitall(hr_proc *p, hr_model *md, slot *s, int n)
{
    const uint64_t *tokens = extra(p, md, s, (size_t)n * sizeof(uint64_t));
    hr_request **reqs = malloc((size_t)n * sizeof *reqs);
    hr_status *sts = malloc((size_t)n * sizeof *sts);
    hr_wire_status *out = malloc((size_t)n * sizeof *out);
    uint64_t *done = malloc((size_t)n * sizeof *done);
    if (reqs == NULL || sts == NULL || out == NULL || done == NULL)
        hr_fail(p, "the model rank is out of memory for hr_waitall of %d", n);
    for (int i = 0; i < n; i++) {
        done[i] = tokens[i];
        reqs[i] = request(tokens[i]);
    }
    hr__eng_waitall(p, n, reqs, sts);
    for (int i = 0; i < n; i++) {
        forget(s, done[i]);
        out[i] = (hr_wire_status){ sts[i].source, sts[i].tag, sts[i].bytes };
    }
    free(reqs);
    free(sts);
    free(done);
    return out;
}

/* Perform r for p in the model; st and rep take what the rank needs back. */
static hr_wire_status *perform(hr_proc *p, hr_model *md, slot *s, const hr_wire_req *r,
                               hr_status *st, hr_wire_rep *rep)
{
    hr_request *q;
    switch (r->op) {
    case HR_W_SEND:
        hr__eng_send(p, r->peer, r->tag, source(p, md, r->len), r->len);
        break;
    case HR_W_RECV:
        hr__eng_recv(p, r->peer, r->tag, bytes(p, md, r->len), r->len, st, "hr_recv");
        break;
    case HR_W_SENDRECV:
        hr__eng_sendrecv(p, r->peer, r->tag, source(p, md, r->len), r->len, r->peer2, r->tag2,
                         bytes(p, md, r->cap), r->cap, st);
        break;
    case HR_W_PROBE:
        hr__eng_probe(p, r->peer, r->tag, st);
        break;
    case HR_W_COMPUTE:
        hr_compute(p, r->units);
        break;
    case HR_W_COLL_BEGIN:
        hr__coll_begin(p, r->tag, "%s", r->text);
        break;
    case HR_W_COLL_END:
        hr__coll_end(p);
        break;
    case HR_W_POST:
        hr__coll_post(p, r->peer, source(p, md, r->len), r->len);
        break;
    case HR_W_LEND:
        hr__coll_lend(p, r->peer, source(p, md, r->len), r->len);
        break;
    case HR_W_TAKE:
        hr__coll_take(p, r->peer, bytes(p, md, r->len), r->len);
        break;
    case HR_W_VIEW:
        hr__coll_view(p, r->peer, r->len);
        break;
    case HR_W_VIEW_END:
        hr__view_end(p);
        break;
    case HR_W_AWAIT:
        hr__coll_await(p, (int)r->len);
        break;
    case HR_W_COMPLETE:
        hr__coll_complete(p);
        break;
    case HR_W_CTX:
        st->tag = hr__ctx_id(p, extra(p, md, s, r->len), r->len);
        break;
    case HR_W_ISEND:
        rep->token = (uint64_t)(uintptr_t)hr__eng_isend(p, r->peer, r->tag,
                                                        source(p, md, r->len), r->len);
        break;
    case HR_W_IRECV:
        rep->token = (uint64_t)(uintptr_t)post_recv(p, s, r->peer, r->tag, r->len);
        break;
    case HR_W_WAIT:
        q = request(r->token);
        hr__eng_wait(p, &q, st, "hr_wait");
        forget(s, r->token);
        break;
    case HR_W_TEST:
        q = request(r->token);
        rep->flag = hr__eng_test(p, &q, st);
        if (rep->flag)
            forget(s, r->token);
        break;
    case HR_W_WAITALL:
        return waitall(p, md, s, (int)r->len);
    case HR_W_REGION_BEGIN:
        hr_region_begin(p, r->peer ? NULL : r->text);
        break;
    case HR_W_REGION_END:
        hr_region_end(p, r->peer ? NULL : r->text);
        break;
    case HR_W_NOW:
        break;
    case HR_W_ROUND_SEND:
        rep->flag = (int32_t)hr_round_send(p, r->peer, source(p, md, r->len), r->len, r->token);
        break;
    case HR_W_ROUND_END:
        rep->flag = hr_round_end(p, (int)r->len);
        st->tag = (int)hr_round_fate(p);
        break;
    case HR_W_ROUND_RECV:
        hr_round_recv(p, bytes(p, md, r->len), r->len, NULL);
        break;
    case HR_W_REGISTER:      /* misuse: the rank's base is NULL */
        st->tag = hr_register(p, r->misuse ? NULL : (void *)md->zeros, r->len);
        break;
    case HR_W_PUT:
        hr_put(p, r->peer, r->tag, r->cap, r->misuse ? NULL : source(p, md, r->len), r->len);
        break;
    case HR_W_GET:
        hr_get(p, r->peer, r->tag, r->cap, r->misuse ? NULL : (void *)md->zeros, r->len);
        break;
    case HR_W_SYNC:
        hr_sync(p);
        /* A put or get out of bounds fails its issuer after the barrier; the others must not
         * tell their ranks to move the superstep's bytes: they leave, as the run ends. */
        for (int i = 0; i < md->p; i++)
            if (md->m->procs[i].rma_error != NULL)
                hr__proc_exit(p);
        break;
    case HR_W_BARRIER:
        hr_barrier(p);
        break;
    case HR_W_IPROBE:
        rep->flag = hr__eng_iprobe(p, r->peer, r->tag, st);
        break;
    case HR_W_FAIL:
        if (r->misuse)
            hr__misuse(p, "%s", r->text);
        hr_fail(p, "%s", r->text);
    default:
        hr_fail(p, "the model rank got call %d, which it does not know", r->op);
    }
    return NULL;
}

static void proxy(hr_proc *p, void *arg)
{
    hr_model *md = arg;
    slot *s = &md->slots[p->id];
    for (;;) {
        hr_wire_req r;
        take(p, s, &r);
        if (r.op == HR_W_DONE)
            return;
        hr_wire_rep rep = { .status = HR_W_OK };
        hr_status st = { 0, 0, 0 };
        s->ntaken = 0;
        hr_wire_status *more = perform(p, md, s, &r, &st, &rep);
        if (r.quiet)
            continue;
        rep.src = st.source;
        rep.tag = st.tag;
        rep.len = st.bytes;
        rep.clock = p->clock;
        rep.seq = p->seq - 1;
        rep.ntaken = s->ntaken;
        MPI_Send(&rep, sizeof rep, MPI_BYTE, p->id, HR_W_TAG_REP, md->comm);
        if (s->ntaken > 0)
            MPI_Send(s->taken, (int)((size_t)s->ntaken * sizeof *s->taken), MPI_BYTE, p->id,
                     HR_W_TAG_REP, md->comm);
        if (more != NULL) {
            MPI_Send(more, (int)(r.len * sizeof *more), MPI_BYTE, p->id, HR_W_TAG_REP,
                     md->comm);
            free(more);
        }
    }
}

static void *dispatch(void *arg)
{
    hr_model *md = arg;
    for (;;) {
        hr_wire_req r;
        MPI_Status st;
        MPI_Recv(&r, sizeof r, MPI_BYTE, MPI_ANY_SOURCE, HR_W_TAG_REQ, md->comm, &st);
        if (r.op == HR_W_STOP)
            return NULL;
        if (r.run == md->run)
            put(&md->slots[st.MPI_SOURCE], &r);
    }
}

/* The model's run, then the end of it for every rank. */
static void *runner(void *arg)
{
    hr_model *md = arg;
    int rc = hr_machine_run(md->m, proxy, md, &md->res);
    HR_ASSERT(rc == HR_OK);
    hr_wire_req stop = { .op = HR_W_STOP };
    MPI_Send(&stop, sizeof stop, MPI_BYTE, 0, HR_W_TAG_REQ, md->comm);
    HR_ASSERT(pthread_join(md->dispatcher, NULL) == 0);
    hr_wire_rep end = { .status = HR_W_END };
    for (int i = 0; i < md->p; i++)
        MPI_Send(&end, sizeof end, MPI_BYTE, i, HR_W_TAG_REP, md->comm);
    return NULL;
}

int hr__model_check(const hr_machine_config *cfg, const char **why)
{
    return hr_machine_check(cfg, why);
}

int hr__model_create(const hr_machine_config *cfg, MPI_Comm comm, hr_model **out,
                     const char **why)
{
    hr_model *md = calloc(1, sizeof *md);
    if (md == NULL)
        return HR_ENOMEM;
    void *z = mmap(NULL, ZEROS_LEN, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (z == MAP_FAILED) {
        free(md);
        return HR_ENOMEM;
    }
    md->zeros = z;
    int err = hr_machine_create(cfg, &md->m, why);
    if (err != HR_OK) {
        hr__model_destroy(md);
        return err;
    }
    md->comm = comm;
    md->p = hr_machine_procs(md->m);
    md->m->taken = taken;
    md->m->taken_arg = md;
    md->m->no_bytes = 1;      /* the ranks move the bytes: the model copies none */
    if ((md->slots = calloc((size_t)md->p, sizeof *md->slots)) == NULL) {
        hr__model_destroy(md);
        return HR_ENOMEM;
    }
    for (int i = 0; i < md->p; i++) {
        hr__mutex_init(&md->slots[i].lock);
        HR_ASSERT(pthread_cond_init(&md->slots[i].cond, NULL) == 0);
    }
    *out = md;
    return HR_OK;
}

void hr__model_begin(hr_model *md, uint64_t run)
{
    md->run = run;
    for (int i = 0; i < md->p; i++) {
        slot *s = &md->slots[i];
        s->n = 0;
        for (int k = 0; k < s->nposted; k++)      /* receives an ended run left */
            free(s->posted[k].sink);
        s->nposted = 0;
    }
    HR_ASSERT(pthread_create(&md->dispatcher, NULL, dispatch, md) == 0);
    HR_ASSERT(pthread_create(&md->runner, NULL, runner, md) == 0);
}

size_t hr__model_regions(const hr_model *md) { return hr_machine_regions(md->m); }

int hr__model_region_result(const hr_model *md, size_t i, hr_region_result *out)
{
    return hr_machine_region_result(md->m, i, out);
}

int hr__model_proc_result(const hr_model *md, int pid, hr_proc_result *out)
{
    return hr_machine_proc_result(md->m, pid, out);
}

void hr__model_events(hr_model *md, size_t limit) { hr_machine_events(md->m, limit); }

void hr__model_neighbour_only(hr_model *md, int on) { hr_machine_neighbour_only(md->m, on); }

size_t hr__model_supersteps(const hr_model *md) { return hr_machine_supersteps(md->m); }

int hr__model_superstep_result(const hr_model *md, size_t i, hr_superstep_result *out)
{
    return hr_machine_superstep_result(md->m, i, out);
}

size_t hr__model_event_count(const hr_model *md, size_t *dropped)
{
    return hr_machine_event_count(md->m, dropped);
}

int hr__model_event_each(const hr_model *md, void (*sink)(void *arg, const hr_event *e),
                         void *arg)
{
    return hr_machine_event_each(md->m, sink, arg);
}

void hr__model_end(hr_model *md, hr_run_result *res)
{
    HR_ASSERT(pthread_join(md->runner, NULL) == 0);
    *res = md->res;
}

void hr__model_destroy(hr_model *md)
{
    if (md == NULL)
        return;
    if (md->m != NULL)
        hr_machine_destroy(md->m);
    for (int i = 0; md->slots != NULL && i < md->p; i++) {
        hr__mutex_destroy(&md->slots[i].lock);
        pthread_cond_destroy(&md->slots[i].cond);
        free(md->slots[i].buf);
        free(md->slots[i].taken);
        free(md->slots[i].q);
        for (int k = 0; k < md->slots[i].nposted; k++)
            free(md->slots[i].posted[k].sink);
        free(md->slots[i].posted);
    }
    free(md->slots);
    munmap((void *)md->zeros, ZEROS_LEN);
    free(md);
}
