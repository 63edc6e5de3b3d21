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

/* One processor's next call, from the dispatcher to its proxy. */
typedef struct slot {
    pthread_mutex_t lock;
    pthread_cond_t  cond;
    int             full;
    hr_wire_req     req;
    uint8_t        *buf;       /* where the proxy's receives copy to: len bytes */
    size_t          cap;
} slot;

/* What the proxies send and post instead of the data: zeros, read only, mapped but never
 * backed (a message's bytes are the ranks' business; the model needs only their length). */
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
    s->req = *r;
    s->full = 1;
    HR_ASSERT(pthread_cond_signal(&s->cond) == 0);
    hr__mutex_unlock(&s->lock);
}

/* The proxy p's next call. While it waits, a run that ended elsewhere (a failure, a deadlock)
 * ends its part too: its rank learns of it from the run's end. */
static void take(hr_proc *p, slot *s, hr_wire_req *r)
{
    hr__mutex_lock(&s->lock);
    while (!s->full) {
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
    *r = s->req;
    s->full = 0;
    hr__mutex_unlock(&s->lock);
}

static const void *source(hr_proc *p, hr_model *md, size_t len)
{
    if (len > ZEROS_LEN)
        hr_fail(p, "a %zu-byte message is more than the MPI engine's model takes", len);
    return md->zeros;
}

static void *bytes(hr_proc *p, slot *s, size_t len)
{
    if (len > s->cap) {
        uint8_t *b = realloc(s->buf, len);
        if (b == NULL)
            hr_fail(p, "the model rank is out of memory for a %zu-byte message", len);
        memset(b + s->cap, 0, len - s->cap);
        s->buf = b;
        s->cap = len;
    }
    return s->buf;
}

/* The key of p's HR_W_CTX, len bytes after the run's number; a key left by an ended run (its
 * rank sent it as the run ended) is dropped. */
static const void *key(hr_proc *p, hr_model *md, slot *s, size_t len)
{
    uint8_t *b = bytes(p, s, sizeof(uint64_t) + len);
    uint64_t run;
    do {
        MPI_Recv(b, (int)(sizeof run + len), MPI_BYTE, p->id, HR_W_TAG_KEY, md->comm,
                 MPI_STATUS_IGNORE);
        memcpy(&run, b, sizeof run);
    } while (run != md->run);
    return b + sizeof run;
}

static void proxy(hr_proc *p, void *arg)
{
    hr_model *md = arg;
    slot *s = &md->slots[p->id];
    for (;;) {
        hr_wire_req r;
        take(p, s, &r);
        hr_wire_rep rep = { .status = HR_W_OK };
        hr_status st = { 0, 0, 0 };
        switch (r.op) {
        case HR_W_SEND:
            hr__eng_send(p, r.peer, r.tag, source(p, md, r.len), r.len);
            break;
        case HR_W_RECV:
            hr__eng_recv(p, r.peer, r.tag, bytes(p, s, r.len), r.len, &st, "hr_recv");
            break;
        case HR_W_PROBE:
            hr__eng_probe(p, r.peer, r.tag, &st);
            break;
        case HR_W_COMPUTE:
            hr_compute(p, r.units);
            break;
        case HR_W_COLL_BEGIN:
            hr__coll_begin(p, r.tag, "%s", r.text);
            break;
        case HR_W_COLL_END:
            hr__coll_end(p);
            break;
        case HR_W_POST:
            hr__coll_post(p, r.peer, source(p, md, r.len), r.len);
            break;
        case HR_W_LEND:
            hr__coll_lend(p, r.peer, source(p, md, r.len), r.len);
            break;
        case HR_W_TAKE:
            hr__coll_take(p, r.peer, bytes(p, s, r.len), r.len);
            break;
        case HR_W_VIEW:
            hr__coll_view(p, r.peer, r.len);
            break;
        case HR_W_VIEW_END:
            hr__view_end(p);
            break;
        case HR_W_AWAIT:
            hr__coll_await(p, (int)r.len);
            break;
        case HR_W_COMPLETE:
            hr__coll_complete(p);
            break;
        case HR_W_CTX:
            st.tag = hr__ctx_id(p, key(p, md, s, r.len), r.len);
            break;
        case HR_W_DONE:
            return;
        case HR_W_FAIL:
            if (r.misuse)
                hr__misuse(p, "%s", r.text);
            hr_fail(p, "%s", r.text);
        default:
            hr_fail(p, "the model rank got call %d, which it does not know", r.op);
        }
        rep.src = st.source;
        rep.tag = st.tag;
        rep.len = st.bytes;
        rep.clock = p->clock;
        MPI_Send(&rep, sizeof rep, MPI_BYTE, p->id, HR_W_TAG_REP, md->comm);
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
        munmap(z, ZEROS_LEN);
        free(md);
        return err;
    }
    md->comm = comm;
    md->p = hr_machine_procs(md->m);
    if ((md->slots = calloc((size_t)md->p, sizeof *md->slots)) == NULL) {
        hr_machine_destroy(md->m);
        munmap(z, ZEROS_LEN);
        free(md);
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
    for (int i = 0; i < md->p; i++)
        md->slots[i].full = 0;
    HR_ASSERT(pthread_create(&md->dispatcher, NULL, dispatch, md) == 0);
    HR_ASSERT(pthread_create(&md->runner, NULL, runner, md) == 0);
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
    hr_machine_destroy(md->m);
    for (int i = 0; i < md->p; i++) {
        hr__mutex_destroy(&md->slots[i].lock);
        pthread_cond_destroy(&md->slots[i].cond);
        free(md->slots[i].buf);
    }
    free(md->slots);
    munmap((void *)md->zeros, ZEROS_LEN);
    free(md);
}
