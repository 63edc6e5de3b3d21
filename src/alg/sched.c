/* sched.c: seed 001's communication schedules, LS, PS, BS, GS (sec. 4) and REX's partners
 * (sec. 3.3), computed from the pattern before any communication; their checker and printer.
 *
 * Readings of the paper, where it leaves a choice:
 *
 * - Steps with no transfer are dropped. The paper's loops have p (LS) or p - 1 (PS, BS) steps,
 *   yet it says its pattern 'P' (Table 6) takes LS 8 steps, PS 6 and BS 7: PS's loop step j = 2
 *   pairs 0-2, 1-3, 4-6, 5-7, none of which P has, and no other step of the three is empty. So
 *   the paper counts the non-empty steps only, and a schedule here holds those only.
 *
 * - LS follows sec. 3.1: in step s processor s receives from everyone with a message for it, so
 *   processor i sends to j in step j and a step never holds an exchange (sec. 4.1 lists
 *   "exchange" among what a processor may find in the matrix, but LEX has none).
 *
 * - PS and BS for p not a power of two: Figure 2's i XOR j and Figure 4's virtual numbering are
 *   defined for p a power of two. Here j runs 1 .. P2 - 1, P2 the next power of two, and a
 *   processor whose partner is >= p (physical for PS, virtual for BS) idles. XOR by j is an
 *   involution, so the steps are still disjoint pairs, and every pair {a, b} meets in exactly
 *   one step (j = a XOR b, of the virtual numbers for BS), so every message is sent once.
 *
 * - GS (Figure 12): "P_i selects the next available P_j among the processors it has to send
 *   to" is read as the lowest-numbered such j that is still available in this iteration, i
 *   going 0 .. p-1 and skipping an i already marked; "if P_j also sends to P_i" as j still
 *   having a message for i; "mark P_i and P_j" marks the receiver j even when it only
 *   receives, so a processor is in at most one transfer (pair) of a step, as Table 10 shows.
 *   This reading reproduces Table 10 step for step but for one entry: its step 5 prints
 *   "2 <-> 4", while P (Table 6) has 4 -> 2 and not 2 -> 4. Read with "2 <-> 4" the table would
 *   send a message P does not have; read as "4 -> 2" it sends each of P's 34 messages exactly
 *   once, and that is what this reading gives (4, in its turn, picks its lowest available
 *   target 2, which has nothing for 4). So Table 10's "2 <-> 4" is a misprint for "4 -> 2".
 *   The misprint is not in Table 6 instead: were 2 -> 4 in P, this reading would pair 2 <-> 4
 *   already in step 4 (2's turn comes before 3's), and Table 10's steps 4-6 would differ.
 *   A cyclic reading of "next" (each processor resumes after the target it used last) also
 *   gives Table 10, but on the complete pattern it departs from PEX for p >= 8, while the
 *   paper says GS on a complete exchange gives PEX's schedule; the lowest-first reading gives
 *   exactly PEX's steps there, and PS's (with the extension above) for every p the tests try
 *   (1 .. 70, 99, 128, 1024): an observation, not a proof.
 *
 * Complexity: LS, PS and BS are O(p^2) (one look at each pattern entry). GS is O(steps * p^2)
 * in this direct form, each available processor scanning its row from its lowest remaining
 * target: about 0.1 s for p = 1024 and the complete pattern (1023 steps). It needs p^2 bytes
 * of "still to send" flags, an eighth of the pattern itself.
 *
 * The checker also serves seed 002's schedules of permutations (alg/perm.c) through
 * hr__sched_check_flags: PERM, SPLITS and DUMMIES (sched.h) relax or tighten the invariants.
 * hr__sched_check is its PAIRS-or-nothing case, with the same texts in why. With SPLITS it
 * keeps 8 bytes a pattern entry (the bytes sent so far), otherwise 1 (sent or not). LINEAR, XOR
 * and XOR_BS check the shape of LS's, PS's (and LP's) and BS's steps, so that irreg.c can refuse
 * at run time a schedule that is not the paper's even when it would deliver every byte.
 */
#include "alg/sched.h"

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>

/* ---- building ------------------------------------------------------------------------------ */

static int args_ok(int p, const void *com, const void *out)
{
    if (p < 1 || !com || !out)
        return HR_EINVAL;
    if (p > HR_SCHED_MAX_P)
        return HR_ERANGE;
    return HR_OK;
}

/* The messages of com: its nonzero off-diagonal entries. */
static size_t count_msgs(int p, const uint64_t *com)
{
    size_t m = 0;
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++)
            m += j != i && com[(size_t)i * p + j] != 0;
    return m;
}

/* Room for msgs transfers in at most max_steps steps; no step yet. */
static int sched_alloc(hr_sched *s, int p, size_t msgs, size_t max_steps)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    if (!(s->start = malloc((max_steps + 1) * sizeof *s->start)))
        return HR_ENOMEM;
    s->start[0] = 0;
    if (msgs && !(s->xfer = malloc(msgs * sizeof *s->xfer))) {
        free(s->start);
        s->start = NULL;
        return HR_ENOMEM;
    }
    return HR_OK;
}

/* Append src -> dst to the step under construction (callers add a step's transfers in
 * ascending (src, dst), the canonical order). */
static void push(hr_sched *s, size_t *n, int src, int dst, uint64_t bytes)
{
    s->xfer[(*n)++] = (hr_xfer){ .src = src, .dst = dst, .bytes = bytes };
}

/* End the step under construction; an empty one is dropped (see the file's header). */
static void close_step(hr_sched *s, size_t n)
{
    if (n > s->start[s->nsteps])
        s->start[++s->nsteps] = n;
}

int hr__sched_ls(int p, const uint64_t *com, hr_sched *out)
{
    int err = args_ok(p, com, out);
    if (err < 0)
        return err;
    size_t msgs = count_msgs(p, com), n = 0;
    hr_sched s;
    if ((err = sched_alloc(&s, p, msgs, (size_t)p)) < 0)
        return err;
    /* seed 001, LEX step s (sec. 3.1, Table 1): s <- j for every j, here only where the
     * pattern has a message; s itself sends nothing in its own step. */
    for (int dst = 0; dst < p; dst++) {
        for (int src = 0; src < p; src++) {
            uint64_t b = com[(size_t)src * p + dst];
            if (src != dst && b)
                push(&s, &n, src, dst, b);
        }
        close_step(&s, n);
    }
    assert(n == msgs);
    *out = s;
    return HR_OK;
}

int hr__sched_span(int p)
{
    if (p < 1 || p > HR_SCHED_MAX_P)
        return 1;
    /* The least power of two >= p, without a loop: PEX and BEX ask it at every step. */
    return p == 1 ? 1 : 1 << (32 - __builtin_clz((unsigned)p - 1));
}

/* Arguments PEX and BEX take: 1 <= j < span, 0 <= me < p. */
static int pair_args_ok(int p, int j, int me)
{
    return p >= 1 && p <= HR_SCHED_MAX_P && j >= 1 && j < hr__sched_span(p) && me >= 0 && me < p;
}

int hr__sched_pex_partner(int p, int j, int me)
{
    if (!pair_args_ok(p, j, me))
        return -1;
    /* seed 001, Figure 2: node = xor(mynumber, j). */
    int k = me ^ j;
    return k < p ? k : -1;
}

int hr__sched_bex_partner(int p, int j, int me)
{
    if (!pair_args_ok(p, j, me))
        return -1;
    /* seed 001, Figure 4: virtual = (mynumber + 1) mod nprocs; node = xor(virtual, j) - 1,
     * -1 meaning nprocs - 1. A virtual partner >= p (p not a power of two) idles. */
    int w = ((me + 1) % p) ^ j;
    if (w >= p)
        return -1;
    return w == 0 ? p - 1 : w - 1;
}

/* Loop steps j = 1 .. P2 - 1 of the pairing partner(): each pair sends what the pattern holds
 * between its two ends (sec. 4.2, 4.3: "exchange, send, receive or no communication"). */
static int pair_sched(int p, const uint64_t *com, hr_sched *out, int (*partner)(int, int, int))
{
    int err = args_ok(p, com, out);
    if (err < 0)
        return err;
    int p2 = hr__sched_span(p);
    size_t msgs = count_msgs(p, com), n = 0;
    size_t max_steps = msgs < (size_t)(p2 - 1) ? msgs : (size_t)(p2 - 1);
    hr_sched s;
    if ((err = sched_alloc(&s, p, msgs, max_steps)) < 0)
        return err;
    for (int j = 1; j < p2; j++) {
        /* i ascending, one destination each: the step comes out in canonical order. */
        for (int i = 0; i < p; i++) {
            int k = partner(p, j, i);
            if (k < 0)
                continue;
            assert(k != i && partner(p, j, k) == i);
            uint64_t b = com[(size_t)i * p + k];
            if (b)
                push(&s, &n, i, k, b);
        }
        close_step(&s, n);
    }
    assert(n == msgs);
    *out = s;
    return HR_OK;
}

int hr__sched_ps(int p, const uint64_t *com, hr_sched *out)
{
    return pair_sched(p, com, out, hr__sched_pex_partner);
}

int hr__sched_bs(int p, const uint64_t *com, hr_sched *out)
{
    return pair_sched(p, com, out, hr__sched_bex_partner);
}

int hr__sched_gs(int p, const uint64_t *com, hr_sched *out)
{
    int err = args_ok(p, com, out);
    if (err < 0)
        return err;
    size_t pp = (size_t)p * p, msgs = count_msgs(p, com), n = 0, sent = 0;
    hr_sched s;
    unsigned char *left = calloc(pp, 1);    /* left[i * p + j]: i has yet to send to j */
    unsigned char *busy = malloc((size_t)p); /* marked for this iteration */
    int *lo = calloc((size_t)p, sizeof *lo); /* no target of i below lo[i] is left */
    int *to = malloc((size_t)p * sizeof *to); /* this iteration: i sends to to[i], or -1 */
    err = HR_ENOMEM;
    if (!left || !busy || !lo || !to)
        goto done;
    /* Each iteration sends at least one message (below), so msgs bounds the steps. */
    if ((err = sched_alloc(&s, p, msgs, msgs)) < 0)
        goto done;
    for (size_t e = 0; e < pp; e++)
        left[e] = e / (size_t)p != e % (size_t)p && com[e] != 0;

    while (sent < msgs) {
        memset(busy, 0, (size_t)p);
        for (int i = 0; i < p; i++)
            to[i] = -1;
        /* seed 001, Figure 12: "for i = 1 to nprocs". The lowest i with a message left is
         * never marked before its turn (no one before it sends), so every iteration sends. */
        for (int i = 0; i < p; i++) {
            if (busy[i])
                continue;
            const unsigned char *row = left + (size_t)i * p;
            while (lo[i] < p && !row[lo[i]])
                lo[i]++;
            /* "P_i selects the next available P_j among the processors it has to send to":
             * the lowest-numbered one (see the file's header for why not cyclically). */
            int j = lo[i];
            while (j < p && (!row[j] || busy[j]))
                j++;
            if (j == p)
                continue;
            left[(size_t)i * p + j] = 0;
            to[i] = j;
            sent++;
            /* "If P_j also sends to P_i then do an exchange". */
            if (left[(size_t)j * p + i]) {
                left[(size_t)j * p + i] = 0;
                to[j] = i;
                sent++;
            }
            /* "Mark P_i and P_j as unavailable for this iter", a receiver only too. */
            busy[i] = busy[j] = 1;
        }
        size_t before = n;
        for (int i = 0; i < p; i++)
            if (to[i] >= 0)
                push(&s, &n, i, to[i], com[(size_t)i * p + to[i]]);
        assert(n > before);
        close_step(&s, n);
    }
    assert(n == msgs);
    *out = s;
    err = HR_OK;
done:
    free(to);
    free(lo);
    free(busy);
    free(left);
    return err;
}

int hr__sched_rex_partner(int p, int step, int me)
{
    if (p < 2 || (p & (p - 1)) != 0 || me < 0 || me >= p || step < 0 || step >= 31 ||
        (p >> step) < 2)
        return HR_EINVAL;
    /* seed 001, Figure 3: k = N / 2^i; the lower half of each block of k pairs with the upper. */
    int k = p >> step;
    return me % k < k / 2 ? me + k / 2 : me - k / 2;
}

void hr__sched_free(hr_sched *s)
{
    if (!s)
        return;
    free(s->start);
    free(s->xfer);
    memset(s, 0, sizeof *s);
}

/* ---- checking ------------------------------------------------------------------------------ */

/* Write the first fault into why; HR_EINVAL. */
__attribute__((format(printf, 3, 4)))
static int fault(char *why, size_t whylen, const char *fmt, ...)
{
    if (why && whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return HR_EINVAL;
}

int hr__sched_check(const hr_sched *s, const uint64_t *com, int pairs, char *why, size_t whylen)
{
    return hr__sched_check_flags(s, com, pairs ? HR_SCHED_PAIRS : 0u, why, whylen);
}

#define SCHED_FLAGS_ALL (HR_SCHED_PAIRS | HR_SCHED_PERM | HR_SCHED_SPLITS | HR_SCHED_DUMMIES | \
                         HR_SCHED_LINEAR | HR_SCHED_XOR | HR_SCHED_XOR_BS)

/* What makes transfer u -> v belong to a step of the shape flags ask for (at most one of LINEAR,
 * XOR, XOR_BS): its receiver, the XOR of its ends, or of their virtual numbers (BS); -1 for no
 * shape. */
static int shape_key(unsigned flags, int p, int u, int v)
{
    if (flags & HR_SCHED_LINEAR)
        return v;
    if (flags & HR_SCHED_XOR)
        return u ^ v;
    if (flags & HR_SCHED_XOR_BS)
        return ((u + 1) % p) ^ ((v + 1) % p);
    return -1;
}

/* The invariants of s's frame, before any transfer is read: known flags, p in range, start[]
 * from 0 and strictly ascending (no empty step), xfer set when there are transfers. */
static int check_frame(const hr_sched *s, const uint64_t *com, unsigned flags, char *why,
                       size_t whylen)
{
    if (flags & ~(unsigned)SCHED_FLAGS_ALL)
        return fault(why, whylen, "unknown flags %#x", flags & ~(unsigned)SCHED_FLAGS_ALL);
    if (!s || !com)
        return fault(why, whylen, "no schedule or no pattern");
    int p = s->p;
    if (p < 1 || p > HR_SCHED_MAX_P)
        return fault(why, whylen, "p = %d out of range", p);
    if (s->nsteps < 0 || !s->start)
        return fault(why, whylen, "nsteps = %d, start %s", s->nsteps, s->start ? "set" : "NULL");
    if (s->start[0] != 0)
        return fault(why, whylen, "start[0] = %zu, not 0", s->start[0]);
    for (int st = 0; st < s->nsteps; st++)
        if (s->start[st + 1] <= s->start[st])
            return fault(why, whylen, "step %d is empty or runs backwards", st + 1);
    if (s->start[s->nsteps] && !s->xfer)
        return fault(why, whylen, "%zu transfers but xfer is NULL", s->start[s->nsteps]);
    return HR_OK;
}

/* A check in progress. Whole messages need a flag each (seen), split ones the bytes their parts
 * have carried so far (sum). partner, sendto and recvfrom are -1 for every processor between
 * steps; in a step, i's pair (PAIRS), receiver and sender (PERM). last is the shape key of the
 * step before (-1 before the first). */
typedef struct checker {
    const hr_sched *s;
    const uint64_t *com;
    int             p;
    unsigned        shapes;              /* at most one of LINEAR, XOR, XOR_BS */
    const char     *shape;               /* its word in a fault; NULL for no shape */
    int             pairs, perm, splits, dummies;
    unsigned char  *seen;                /* [p^2] unless splits */
    uint64_t       *sum;                 /* [p^2] if splits */
    int            *partner, *sendto, *recvfrom; /* [p] */
    int             last;
    char           *why;
    size_t          whylen;
} checker;

/* The step's shape: one receiver (LS), one XOR (PS, LP) or one XOR of virtual numbers (BS),
 * ascending from step to step as the paper's loop goes. Transfer e of step st, which starts at
 * a. */
static int check_shape(checker *c, int st, size_t a, size_t e)
{
    const hr_xfer *x = &c->s->xfer[e], *f = &c->s->xfer[a];
    int key = shape_key(c->shapes, c->p, x->src, x->dst);
    int first = shape_key(c->shapes, c->p, f->src, f->dst);
    if (key != first)
        return fault(c->why, c->whylen, "step %d: %d -> %d has %s %d, the step's first "
                     "transfer %d -> %d %s %d", st + 1, x->src, x->dst, c->shape, key, f->src,
                     f->dst, c->shape, first);
    if (e == a && key <= c->last)
        return fault(c->why, c->whylen, "step %d: %d -> %d has %s %d, not above step %d's %d",
                     st + 1, x->src, x->dst, c->shape, key, st, c->last);
    c->last = key;
    return HR_OK;
}

/* Count transfer x of step st against its message m: a whole message once with its bytes, or
 * (SPLITS) parts that do not pass its bytes. */
static int count_bytes(checker *c, int st, const hr_xfer *x, size_t m)
{
    const uint64_t *com = c->com;
    if (!c->splits) {
        if (com[m] != x->bytes)
            return fault(c->why, c->whylen,
                         "step %d: %d -> %d carries %llu bytes, the pattern %llu", st + 1, x->src,
                         x->dst, (unsigned long long)x->bytes, (unsigned long long)com[m]);
        if (c->seen[m]++)
            return fault(c->why, c->whylen, "step %d: %d -> %d sent a second time", st + 1,
                         x->src, x->dst);
        return HR_OK;
    }
    if (x->bytes > com[m] - c->sum[m])
        return fault(c->why, c->whylen,
                     "step %d: %d -> %d: its parts reach %llu bytes, the pattern %llu", st + 1,
                     x->src, x->dst, (unsigned long long)c->sum[m] + (unsigned long long)x->bytes,
                     (unsigned long long)com[m]);
    c->sum[m] += x->bytes;
    return HR_OK;
}

/* PERM: one send and one receive per processor in step st. */
static int check_perm(checker *c, int st, const hr_xfer *x)
{
    if (c->sendto[x->src] >= 0)
        return fault(c->why, c->whylen, "step %d: %d sends twice (to %d and %d)", st + 1, x->src,
                     c->sendto[x->src], x->dst);
    if (c->recvfrom[x->dst] >= 0)
        return fault(c->why, c->whylen, "step %d: %d receives twice (from %d and %d)", st + 1,
                     x->dst, c->recvfrom[x->dst], x->src);
    c->sendto[x->src] = x->dst;
    c->recvfrom[x->dst] = x->src;
    return HR_OK;
}

/* PAIRS, disjoint pairs: a new pair needs both ends free; a transfer of a known pair must be its
 * reverse direction (the same direction twice was caught before). */
static int check_pair(checker *c, int st, int u, int v)
{
    int pu = c->partner[u], pv = c->partner[v];
    if (pu < 0 && pv < 0) {
        c->partner[u] = v;
        c->partner[v] = u;
        return HR_OK;
    }
    if (pu != v || pv != u) {
        int w = pu >= 0 && pu != v ? u : v;
        return fault(c->why, c->whylen, "step %d: %d is in two pairs (%d -> %d and with %d)",
                     st + 1, w, u, v, w == u ? pu : pv);
    }
    return HR_OK;
}

/* Transfer e of step st (which starts at a), in the order a fault is named: its ends, the step's
 * shape, its bytes, canonical order, its message's count, then the step's permutation and
 * pairs. */
static int check_xfer(checker *c, int st, size_t a, size_t e)
{
    const hr_xfer *x = &c->s->xfer[e];
    int p = c->p, err;
    if (x->src < 0 || x->src >= p || x->dst < 0 || x->dst >= p)
        return fault(c->why, c->whylen, "step %d: %d -> %d out of range", st + 1, x->src, x->dst);
    if (x->src == x->dst)
        return fault(c->why, c->whylen, "step %d: %d -> %d on the diagonal", st + 1, x->src,
                     x->dst);
    if (c->shape != NULL && (err = check_shape(c, st, a, e)) != HR_OK)
        return err;
    size_t m = (size_t)x->src * p + x->dst;
    /* A dummy (DUMMIES): 0 bytes where the pattern has no message. It counts for no message,
     * but is still one send and one receive of the step. */
    int dummy = x->bytes == 0 && c->dummies && c->com[m] == 0;
    if (x->bytes == 0 && !dummy)
        return fault(c->why, c->whylen, "step %d: %d -> %d carries 0 bytes", st + 1, x->src,
                     x->dst);
    if (e > a && (x[-1].src > x->src || (x[-1].src == x->src && x[-1].dst >= x->dst)))
        return fault(c->why, c->whylen, "step %d: %d -> %d out of canonical (src, dst) order",
                     st + 1, x->src, x->dst);
    if (!dummy && (err = count_bytes(c, st, x, m)) != HR_OK)
        return err;
    if (c->perm && (err = check_perm(c, st, x)) != HR_OK)
        return err;
    return c->pairs ? check_pair(c, st, x->src, x->dst) : HR_OK;
}

/* After step [a, b): free its processors for the next (those in range). */
static void end_step(checker *c, size_t a, size_t b)
{
    for (size_t e = a; e < b; e++) {
        const hr_xfer *x = &c->s->xfer[e];
        if (x->src >= 0 && x->src < c->p)
            c->partner[x->src] = c->sendto[x->src] = c->recvfrom[x->src] = -1;
        if (x->dst >= 0 && x->dst < c->p)
            c->partner[x->dst] = c->sendto[x->dst] = c->recvfrom[x->dst] = -1;
    }
}

/* Every message of the pattern sent, whole or in parts that sum to its bytes. */
static int check_all_sent(const checker *c)
{
    size_t p = (size_t)c->p;
    for (size_t m = 0; m < p * p; m++) {
        if (m / p == m % p || !c->com[m])
            continue;
        uint64_t got = c->splits ? c->sum[m] : c->seen[m] ? c->com[m] : 0;
        if (got == 0)
            return fault(c->why, c->whylen, "message %zu -> %zu (%llu bytes) is never sent",
                         m / p, m % p, (unsigned long long)c->com[m]);
        if (got != c->com[m])
            return fault(c->why, c->whylen,
                         "message %zu -> %zu: its parts sum to %llu of %llu bytes", m / p, m % p,
                         (unsigned long long)got, (unsigned long long)c->com[m]);
    }
    return HR_OK;
}

int hr__sched_check_flags(const hr_sched *s, const uint64_t *com, unsigned flags, char *why,
                          size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    int err = check_frame(s, com, flags, why, whylen);
    if (err != HR_OK)
        return err;
    unsigned shapes = flags & (HR_SCHED_LINEAR | HR_SCHED_XOR | HR_SCHED_XOR_BS);
    if (shapes & (shapes - 1))
        return fault(why, whylen, "flags %#x ask for two shapes of step", shapes);
    int p = s->p, splits = (flags & HR_SCHED_SPLITS) != 0;
    size_t pp = (size_t)p * p;
    checker c = {
        .s = s, .com = com, .p = p, .shapes = shapes,
        .shape = shapes == HR_SCHED_LINEAR ? "receiver" : shapes ? "XOR" : NULL,
        .pairs = (flags & HR_SCHED_PAIRS) != 0, .perm = (flags & HR_SCHED_PERM) != 0,
        .splits = splits, .dummies = (flags & HR_SCHED_DUMMIES) != 0,
        .seen = splits ? NULL : calloc(pp, 1),
        .sum = splits ? calloc(pp, sizeof *c.sum) : NULL,
        .partner = malloc((size_t)p * sizeof *c.partner),
        .sendto = malloc((size_t)p * sizeof *c.sendto),
        .recvfrom = malloc((size_t)p * sizeof *c.recvfrom),
        .last = -1, .why = why, .whylen = whylen,
    };
    err = HR_ENOMEM;
    if ((!c.seen && !c.sum) || !c.partner || !c.sendto || !c.recvfrom)
        goto done;
    for (int i = 0; i < p; i++)
        c.partner[i] = c.sendto[i] = c.recvfrom[i] = -1;
    err = HR_OK;
    for (int st = 0; st < s->nsteps && err == HR_OK; st++) {
        size_t a = s->start[st], b = s->start[st + 1];
        for (size_t e = a; e < b && err == HR_OK; e++)
            err = check_xfer(&c, st, a, e);
        end_step(&c, a, b);
    }
    if (err == HR_OK)
        err = check_all_sent(&c);
done:
    free(c.recvfrom);
    free(c.sendto);
    free(c.partner);
    free(c.sum);
    free(c.seen);
    return err;
}

/* ---- printing ------------------------------------------------------------------------------ */

/* Is step [a, b) of s disjoint pairs? partner[] is all -1 on entry and on return. */
static int step_is_pairs(const hr_sched *s, size_t a, size_t b, int *partner)
{
    int ok = 1;
    for (size_t e = a; e < b && ok; e++) {
        int u = s->xfer[e].src, v = s->xfer[e].dst;
        assert(u >= 0 && u < s->p && v >= 0 && v < s->p);
        if (partner[u] < 0 && partner[v] < 0) {
            partner[u] = v;
            partner[v] = u;
        } else if (partner[u] != v || partner[v] != u) {
            ok = 0;
        }
    }
    for (size_t e = a; e < b; e++)
        partner[s->xfer[e].src] = partner[s->xfer[e].dst] = -1;
    return ok;
}

/* Is there dst -> src in step [a, b)? The step is sorted by (src, dst): binary search. */
static int has_xfer(const hr_sched *s, size_t a, size_t b, int src, int dst)
{
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        const hr_xfer *x = &s->xfer[mid];
        if (x->src < src || (x->src == src && x->dst < dst))
            a = mid + 1;
        else if (x->src == src && x->dst == dst)
            return 1;
        else
            b = mid;
    }
    return 0;
}

/* Order transfers by (src, dst), then by position: the parts of one message side by side. */
static int cmp_xfer_ptr(const void *x, const void *y)
{
    const hr_xfer *u = *(const hr_xfer *const *)x, *v = *(const hr_xfer *const *)y;
    if (u->src != v->src)
        return u->src < v->src ? -1 : 1;
    if (u->dst != v->dst)
        return u->dst < v->dst ? -1 : 1;
    return u < v ? -1 : u > v;
}

/* total[e]: the bytes of transfer e's message over the whole schedule (the sum of its parts),
 * or UINT64_MAX when e is the message's only part. A sort of pointers, not a p * p table:
 * p may be large and the schedule short. */
static int message_totals(const hr_sched *s, uint64_t *total)
{
    size_t m = s->start[s->nsteps];
    const hr_xfer **ord = malloc((m ? m : 1) * sizeof *ord);
    if (!ord)
        return HR_ENOMEM;
    for (size_t e = 0; e < m; e++)
        ord[e] = &s->xfer[e];
    qsort(ord, m, sizeof *ord, cmp_xfer_ptr);
    for (size_t a = 0, b; a < m; a = b) {
        uint64_t t = 0;
        for (b = a; b < m && ord[b]->src == ord[a]->src && ord[b]->dst == ord[a]->dst; b++)
            t += ord[b]->bytes;
        for (size_t e = a; e < b; e++)
            total[ord[e] - s->xfer] = b - a > 1 ? t : UINT64_MAX;
    }
    free(ord);
    return HR_OK;
}

int hr__sched_print(const hr_sched *s, FILE *f)
{
    return hr__sched_print_opts(s, 0, f);
}

int hr__sched_print_opts(const hr_sched *s, unsigned opts, FILE *f)
{
    if (!s || !f || s->p < 1 || (s->nsteps > 0 && (!s->start || !s->xfer)) ||
        (opts & ~(unsigned)HR_SCHED_PRINT_BYTES))
        return HR_EINVAL;
    if (opts & HR_SCHED_PRINT_BYTES) {
        size_t m = s->nsteps > 0 ? s->start[s->nsteps] : 0;
        uint64_t *total = malloc((m ? m : 1) * sizeof *total);
        if (!total)
            return HR_ENOMEM;
        if (m && message_totals(s, total) < 0) {
            free(total);
            return HR_ENOMEM;
        }
        for (int st = 0; st < s->nsteps; st++) {
            fprintf(f, "step %d: ", st + 1);
            for (size_t e = s->start[st]; e < s->start[st + 1]; e++) {
                const hr_xfer *x = &s->xfer[e];
                assert(x->src >= 0 && x->src < s->p && x->dst >= 0 && x->dst < s->p);
                fprintf(f, "%s%d -> %d ", e > s->start[st] ? ", " : "", x->src, x->dst);
                if (x->bytes == 0)
                    fputs("(dummy)", f);
                else if (total[e] != UINT64_MAX)
                    fprintf(f, "(%llu of %llu B)", (unsigned long long)x->bytes,
                            (unsigned long long)total[e]);
                else
                    fprintf(f, "(%llu B)", (unsigned long long)x->bytes);
            }
            fputc('\n', f);
        }
        free(total);
        return ferror(f) ? HR_ESYS : HR_OK;
    }
    int *mark = malloc((size_t)s->p * sizeof *mark);
    if (!mark)
        return HR_ENOMEM;
    for (int i = 0; i < s->p; i++)
        mark[i] = -1;
    for (int st = 0; st < s->nsteps; st++) {
        size_t a = s->start[st], b = s->start[st + 1];
        fprintf(f, "step %d: ", st + 1);
        if (step_is_pairs(s, a, b, mark)) {
            /* In (src, dst) order each pair comes first at its lower end if it is an exchange,
             * at its sender if one way: Table 10's order. */
            const char *sep = "";
            for (size_t e = a; e < b; e++) {
                int u = s->xfer[e].src, v = s->xfer[e].dst;
                int both = has_xfer(s, a, b, v, u);
                if (both && u > v)
                    continue;
                fprintf(f, "%s%d %s %d", sep, u, both ? "<->" : "->", v);
                sep = ", ";
            }
        } else {
            /* By receiver (Table 1's "i <- j"): mark the receivers, then one group each. */
            for (size_t e = a; e < b; e++)
                mark[s->xfer[e].dst] = 1;
            const char *gsep = "";
            for (int r = 0; r < s->p; r++) {
                if (mark[r] < 0)
                    continue;
                mark[r] = -1;
                fprintf(f, "%s%d <- ", gsep, r);
                const char *sep = "";
                for (size_t e = a; e < b; e++)
                    if (s->xfer[e].dst == r) {
                        fprintf(f, "%s%d", sep, s->xfer[e].src);
                        sep = ", ";
                    }
                gsep = "; ";
            }
        }
        fputc('\n', f);
    }
    free(mark);
    return ferror(f) ? HR_ESYS : HR_OK;
}
