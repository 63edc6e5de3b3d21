/* p2p.c: the point-to-point calls of hremu.h, as the algorithm sees them: each checks its
 * arguments, fails the run as misused with one line naming the call when they are wrong, and
 * hands the call to the engine (core/engine.h). The semantics and costs are the engine's, by
 * docs/model.md; what is checked here is the same on every engine. */
#include "core/engine.h"

#include <stddef.h>

#include "net/discipline.h"

/* Point-to-point calls do not exist under a round discipline. */
static void check_p2p(hr_proc *p, const char *call, const char *instead)
{
    if (hr__eng_traits(p) & HR_DISC_IN_ROUNDS)
        hr__misuse(p, "%s: discipline %s communicates in rounds (%s)", call, hr_discipline(p),
                   instead);
}

static void check_send(hr_proc *p, int dest, int tag, const void *buf, size_t len,
                       const char *call)
{
    hr__check_peer(p, dest, call, 0);
    if (tag < 0)
        hr__misuse(p, "%s: tag %d is negative (tags >= 0 are the user's)", call, tag);
    if (buf == NULL && len > 0)
        hr__misuse(p, "%s: NULL buffer of %zu bytes", call, len);
    check_p2p(p, call, "hr_round_send");
}

static void check_match(hr_proc *p, int src, int tag, const char *call)
{
    hr__check_peer(p, src, call, 1);
    if (tag < 0 && tag != HR_ANY_TAG)
        hr__misuse(p, "%s: tag %d is negative (use HR_ANY_TAG for any)", call, tag);
}

void hr_send(hr_proc *p, int dest, int tag, const void *buf, size_t len)
{
    check_send(p, dest, tag, buf, len, "hr_send");
    hr__eng_send(p, dest, tag, buf, len);
}

size_t hr_recv(hr_proc *p, int src, int tag, void *buf, size_t cap, hr_status *st)
{
    check_match(p, src, tag, "hr_recv");
    return hr__eng_recv(p, src, tag, buf, cap, st, "hr_recv");
}

size_t hr_sendrecv(hr_proc *p, int dest, int sendtag, const void *sendbuf, size_t sendlen,
                   int src, int recvtag, void *recvbuf, size_t cap, hr_status *st)
{
    check_send(p, dest, sendtag, sendbuf, sendlen, "hr_sendrecv");
    check_match(p, src, recvtag, "hr_sendrecv");
    return hr__eng_sendrecv(p, dest, sendtag, sendbuf, sendlen, src, recvtag, recvbuf, cap, st);
}

void hr_probe(hr_proc *p, int src, int tag, hr_status *st)
{
    check_match(p, src, tag, "hr_probe");
    hr__eng_probe(p, src, tag, st);
}

hr_request *hr_isend(hr_proc *p, int dest, int tag, const void *buf, size_t len)
{
    check_send(p, dest, tag, buf, len, "hr_isend");
    return hr__eng_isend(p, dest, tag, buf, len);
}

hr_request *hr_irecv(hr_proc *p, int src, int tag, void *buf, size_t cap)
{
    check_match(p, src, tag, "hr_irecv");
    if (buf == NULL && cap > 0)
        hr__misuse(p, "hr_irecv: NULL buffer of %zu bytes", cap);
    check_p2p(p, "hr_irecv", "hr_round_recv");
    return hr__eng_irecv(p, src, tag, buf, cap);
}

size_t hr_wait(hr_proc *p, hr_request **req, hr_status *st)
{
    if (req == NULL)
        hr__misuse(p, "hr_wait: NULL request pointer");
    if (*req == NULL)
        return 0;
    hr__eng_request_check(p, *req, "hr_wait");
    return hr__eng_wait(p, req, st, "hr_wait");
}

void hr_waitall(hr_proc *p, int n, hr_request **reqs, hr_status *st)
{
    if (n < 0 || (n > 0 && reqs == NULL))
        hr__misuse(p, "hr_waitall: %d requests at %p", n, (void *)reqs);
    for (int i = 0; i < n; i++)
        if (reqs[i] != NULL)
            hr__eng_request_check(p, reqs[i], "hr_waitall");
    hr__eng_waitall(p, n, reqs, st);
}

int hr_test(hr_proc *p, hr_request **req, hr_status *st)
{
    if (req == NULL)
        hr__misuse(p, "hr_test: NULL request pointer");
    if (*req == NULL)
        return 1;
    hr__eng_request_check(p, *req, "hr_test");
    return hr__eng_test(p, req, st);
}

int hr_iprobe(hr_proc *p, int src, int tag, hr_status *st)
{
    check_match(p, src, tag, "hr_iprobe");
    return hr__eng_iprobe(p, src, tag, st);
}
