/* rounds.c: seed 003's h-relation algorithms on the round disciplines (Adler, Byers, Karp,
 * "Scheduling Parallel Communication: The h-relation Problem", 1995). Each is direct: a message
 * goes from its source to its destination and nowhere else. h is the instance's h, which every
 * processor knows, as the paper assumes; n in the paper's formulas is the number of processors p.
 *
 * Every processor makes the same calls to hr_round_end: stage lengths depend only on h, p and the
 * parameters, and the open-ended phases stop when hr_round_end says that nobody has anything
 * left. Rounds in which nobody has anything left are not rounds (round.c), so a stage that ends
 * early costs nothing more.
 *
 * The choices where the paper leaves room are written next to each algorithm.
 */
#include "alg/rounds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hremu/workload.h>

#include "alg/colour.h"

/* ---- a processor's messages -------------------------------------------------------------------- */

typedef struct sender {
    hr_proc       *p;
    const hr_elem *msg;
    size_t         cnt;
    size_t         left;      /* not yet delivered */
    uint8_t       *done;      /* per message: delivered; NULL where nobody reads it */
    long           out;       /* the message out, neither delivered nor lost yet; -1: none */
    hr_elem       *recv;      /* what this processor received */
    size_t         got, cap;
    int            active;    /* processors with something left, after the last round */
    uint64_t       round;     /* rounds so far */
    int            by_time;   /* priority = sending time, earliest first (FIFO on priority) */
} sender;

static void sender_init(sender *s, hr_proc *p, const hr_hrel *r)
{
    int me = hr_pid(p);
    *s = (sender){ .p = p, .msg = r->in[me], .cnt = r->in_count[me], .out = -1, .active = 1 };
    s->left = s->cnt;
    s->done = hr_calloc(p, s->cnt + 1, 1);
    s->cap = (size_t)r->h;
    s->recv = hr_malloc(p, (s->cap + 1) * sizeof *s->recv);
}

static void sender_finish(sender *s, hr_hrel *r)
{
    int me = hr_pid(s->p);
    r->out[me] = s->recv;
    r->out_count[me] = s->got;
}

/* Stalled: the last message out still waits in a queue (fifo, priority). */
static int stalled(const sender *s)
{
    return s->out >= 0;
}

/* One round: send message k, the element at m (k < 0: nothing), with priority prio (or, by_time,
 * with the earlier sending time the higher priority), end the round, keep what arrived, and
 * learn the fate of the message out. Returns that fate. */
static hr_fate step_elem(sender *s, long k, const hr_elem *m, uint64_t prio)
{
    if (s->by_time)
        prio = UINT64_MAX - s->round;
    s->round++;
    if (k >= 0) {
        if (hr_round_send(s->p, (int)m->dest, m, sizeof *m, prio) != HR_FATE_SENT)
            hr_fail(s->p, "message %ld: sent while stalled", k);
        s->out = k;
    }
    s->active = hr_round_end(s->p, s->left > 0);
    hr_elem e;
    if (hr_round_recv(s->p, &e, sizeof e, NULL)) {
        if (s->got == s->cap)
            hr_fail(s->p, "received more than h = %zu messages", s->cap);
        s->recv[s->got++] = e;
        if (s->got + 8 < s->cap)
            __builtin_prefetch(&s->recv[s->got + 8], 1);     /* as pq_random's lists */
    }
    hr_fate f = hr_round_fate(s->p);
    if (f == HR_FATE_DELIVERED) {
        if (s->done != NULL)
            s->done[s->out] = 1;
        s->left--;
        s->out = -1;
    } else if (f == HR_FATE_LOST) {
        s->out = -1;
    }
    return f;
}

/* As step_elem, message k of the processor's own list. */
static hr_fate step(sender *s, long k, uint64_t prio)
{
    return step_elem(s, k, k >= 0 ? &s->msg[k] : NULL, prio);
}

/* Until nobody has anything left: send the remaining messages one after another, each as soon as
 * the last one is through (fifo, priority: received, so the sender is not stalled; arbitrary: a
 * lost one is sent again). The deterministic final phase of sections 4 and 5, which may take the
 * messages "in any order": here a random one, drawn once, so that the outcome does not depend on
 * how the workload lists a processor's messages (alltoall lists them as a shift, i+1, i+2, ...,
 * which taken in index order by every processor at once is already free of conflicts). */
static void send_in_order(sender *s)
{
    long *order = hr_malloc(s->p, (s->left + 1) * sizeof *order);
    size_t m = 0, next = 0;
    for (size_t k = 0; k < s->cnt; k++)
        if (!s->done[k] && (long)k != s->out)
            order[m++] = (long)k;
    for (size_t k = m; k > 1; k--) {
        size_t j = (size_t)hr_rand_below(s->p, k);
        long t = order[k - 1];
        order[k - 1] = order[j];
        order[j] = t;
    }
    while (s->active > 0) {
        long k = -1;
        if (!stalled(s)) {
            while (next < m && s->done[order[next]])
                next++;
            if (next < m)
                k = order[next];   /* a lost one stays at next and goes again */
        }
        step(s, k, 0);
    }
    hr_free(s->p, order);
}

/* ---- hrel.fifo_staged: section 4, the parameterised algorithm (K, mu) ------------------------ */

/* Choices:
 * - Stage i lasts ceil(K h_{i-1}) rounds, h_i = h mu^i (real numbers); stages run until the
 *   first i with h_i <= h^(2/5), then the final phase sends what is left in any order (here: a
 *   random one, each as soon as the processor is not stalled; send_in_order).
 * - A processor with more undelivered messages than the stage has rounds (possible when K < 1,
 *   or when a stage leaves more than h_i behind) schedules a random subset of as many as there
 *   are rounds and defers the rest to the next stage.
 * - A message still waiting in a queue when its stage ends stays there; it is not rescheduled.
 * - Under the priority discipline a message's priority is its sending time, earliest first:
 *   section 6's simulation of FIFO on priority queues. */
void hr_alg_hrel_fifo_staged(hr_proc *p, void *inst, const double *params)
{
    hr_hrel *r = inst;
    double K = params[0], mu = params[1];
    sender s;
    sender_init(&s, p, r);
    s.by_time = 1;
    double h = (double)r->h, hprev = h, floor_h = pow(h, 0.4);
    long *todo = hr_malloc(p, (s.cnt + 1) * sizeof *todo);
    for (;;) {
        size_t len = (size_t)ceil(K * hprev), u = 0;
        /* Sending times: sampled without replacement from the stage's rounds. */
        long *slot = hr_malloc(p, (len + 1) * sizeof *slot);
        size_t *when = hr_malloc(p, (len + 1) * sizeof *when);
        for (size_t t = 0; t < len; t++) {
            slot[t] = -1;
            when[t] = t;
        }
        for (size_t k = 0; k < s.cnt; k++)
            if (!s.done[k] && (long)k != s.out)
                todo[u++] = (long)k;
        for (size_t j = 0; j < u && j < len; j++) {
            size_t a = j + (size_t)hr_rand_below(p, u - j), b = j + (size_t)hr_rand_below(p, len - j);
            long m = todo[a];
            todo[a] = todo[j];
            todo[j] = m;
            size_t t = when[b];
            when[b] = when[j];
            when[j] = t;
            slot[t] = m;
        }
        hr_compute(p, (double)(u + len));
        /* At its time a message goes out, unless the processor is stalled: then it waits for
         * the next stage. */
        for (size_t t = 0; t < len && s.active > 0; t++)
            step(&s, slot[t] >= 0 && !stalled(&s) ? slot[t] : -1, 0);
        hr_free(p, slot);
        hr_free(p, when);
        hprev *= mu;
        if (hprev <= floor_h || s.active == 0)
            break;
    }
    hr_free(p, todo);
    send_in_order(&s);
    sender_finish(&s, r);
}

/* ---- hrel.pq_random: section 6 ------------------------------------------------------------------ */

typedef struct ranked {
    uint64_t prio;
    long     k;
} ranked;

typedef struct outgoing {
    uint64_t prio;
    hr_elem  e;
} outgoing;

/* Sending order: higher priority first, equal priorities (which 64-bit draws all but never
 * give) by message. */
static int before(const ranked *x, const ranked *y)
{
    return x->prio != y->prio ? x->prio > y->prio : x->k < y->k;
}

/* Sorts o[0 .. n) into sending order in expected O(n), the priorities being uniform: a counting
 * sort on the top bits (at least n buckets, about one message each), then an insertion sort,
 * which has only the few pairs inside a bucket left to swap. The order is the one a comparison
 * sort by `before` gives (a total order); the work is a comparison sort's, so it is charged as
 * n units as before. */
static void sort_by_priority(hr_proc *p, ranked *o, size_t n)
{
    int bits = 1;
    while (bits < 24 && ((size_t)1 << bits) < n)
        bits++;
    size_t buckets = (size_t)1 << bits;
    ranked *tmp = hr_malloc(p, (n + 1) * sizeof *tmp);
    size_t *count = hr_malloc(p, buckets * sizeof *count);
    memset(count, 0, buckets * sizeof *count);
    int shift = 64 - bits;
    for (size_t k = 0; k < n; k++)
        count[o[k].prio >> shift]++;
    size_t at = 0;                        /* highest bucket first */
    for (size_t b = buckets; b-- > 0;) {
        size_t c = count[b];
        count[b] = at;
        at += c;
    }
    for (size_t k = 0; k < n; k++)
        tmp[count[o[k].prio >> shift]++] = o[k];
    for (size_t k = 0; k < n; k++) {
        ranked x = tmp[k];
        size_t j = k;
        for (; j > 0 && before(&x, &o[j - 1]); j--)
            o[j] = o[j - 1];
        o[j] = x;
    }
    hr_free(p, count);
    hr_free(p, tmp);
}

/* Priorities uniform over 64 bits (the paper's [1..R], R large enough that all differ w.h.p.);
 * each processor sends its messages in order of priority, highest first, the next as soon as the
 * last one is received. The messages are copied once into that order, so that the rounds walk
 * them front to back (sent in priority order from where the workload lists them, every round
 * would read a line that is not in cache: at p = 1024 that was a third of the run). */
void hr_alg_hrel_pq_random(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_hrel *r = inst;
    sender s;
    sender_init(&s, p, r);
    hr_free(p, s.done);                   /* it sends in one order: what is done is what is past */
    s.done = NULL;
    ranked *order = hr_malloc(p, (s.cnt + 1) * sizeof *order);
    for (size_t k = 0; k < s.cnt; k++)
        order[k] = (ranked){ hr_rand(p), (long)k };
    sort_by_priority(p, order, s.cnt);
    hr_compute(p, (double)s.cnt);
    /* Each message beside its priority, in sending order: one list, read front to back. */
    outgoing *out = hr_malloc(p, (s.cnt + 1) * sizeof *out);
    for (size_t k = 0; k < s.cnt; k++)
        out[k] = (outgoing){ order[k].prio, s.msg[order[k].k] };
    hr_free(p, order);
    /* A processor sends one message a round at most. It reads its next one as it sends this
     * one (ahead), so that the read's wait for memory overlaps the round's end instead of
     * holding up the next send (2 % off a round at p = 1024 on one carrier), and it fetches the
     * line four messages on, though the other processors' rounds may push it out of the caches
     * before then. */
    size_t next = 0;
    outgoing cur, ahead = s.cnt > 0 ? out[0] : (outgoing){ 0 };
    while (s.active > 0) {
        long k = -1;
        const hr_elem *m = NULL;
        uint64_t prio = 0;
        if (!stalled(&s) && next < s.cnt) {
            k = (long)next;
            cur = ahead;
            m = &cur.e;
            prio = cur.prio;
            next++;
            if (next < s.cnt)
                ahead = out[next];
            if (next + 4 < s.cnt)
                __builtin_prefetch(&out[next + 4]);
        }
        step_elem(&s, k, m, prio);
    }
    hr_free(p, out);
    sender_finish(&s, r);
}

/* ---- arbitrary write: section 5 ------------------------------------------------------------------ */

/* alpha = 1 / (4 (1 - e^(-1/2))^2), about 1.62 (Theorem 10). */
static double aw_alpha(void)
{
    double x = 1 - exp(-0.5);
    return 1 / (4 * x * x);
}

/* A Fenwick tree of weights over a processor's distinct destinations: draws a destination with
 * probability proportional to its weight in O(log d). */
typedef struct fenwick {
    double *t;
    int     n;
} fenwick;

/* The sum of all weights. */
static double fen_total(const fenwick *f)
{
    double total = 0;
    for (int i = f->n; i > 0; i -= i & -i)
        total += f->t[i];
    return total;
}

static void fen_add(fenwick *f, int i, double v)
{
    for (i++; i <= f->n; i += i & -i)
        f->t[i] += v;
}

/* The first index whose prefix sum exceeds x (x below the total). */
static int fen_find(const fenwick *f, double x)
{
    int pos = 0, step = 1;
    while (step * 2 <= f->n)
        step *= 2;
    for (; step > 0; step /= 2)
        if (pos + step <= f->n && f->t[pos + step] <= x) {
            pos += step;
            x -= f->t[pos];
        }
    return pos < f->n ? pos : f->n - 1;
}

/* A processor's messages grouped by destination: dest[j], and its undelivered messages
 * msgs[first[j] .. first[j] + d[j]) (delivered ones are swapped past the end). */
typedef struct bydest {
    int    n;
    int   *dest;
    long  *msgs;
    size_t *first, *d;
} bydest;

static int by_dest_then_index(const void *a, const void *b, void *ctx)
{
    const hr_elem *m = ctx;
    long x = *(const long *)a, y = *(const long *)b;
    if (m[x].dest != m[y].dest)
        return m[x].dest < m[y].dest ? -1 : 1;
    return x < y ? -1 : x > y;
}

static void bydest_init(bydest *g, hr_proc *p, const sender *s)
{
    g->msgs = hr_malloc(p, (s->cnt + 1) * sizeof *g->msgs);
    for (size_t k = 0; k < s->cnt; k++)
        g->msgs[k] = (long)k;
    qsort_r(g->msgs, s->cnt, sizeof *g->msgs, by_dest_then_index, (void *)s->msg);
    g->dest = hr_malloc(p, (s->cnt + 1) * sizeof *g->dest);
    g->first = hr_malloc(p, (s->cnt + 1) * sizeof *g->first);
    g->d = hr_malloc(p, (s->cnt + 1) * sizeof *g->d);
    g->n = 0;
    for (size_t k = 0; k < s->cnt; k++) {
        int dst = (int)s->msg[g->msgs[k]].dest;
        if (g->n == 0 || g->dest[g->n - 1] != dst) {
            g->dest[g->n] = dst;
            g->first[g->n] = k;
            g->d[g->n++] = 0;
        }
        g->d[g->n - 1]++;
    }
}

/* Message k (of group j) was delivered: it leaves the group's undelivered part. */
static void bydest_remove(bydest *g, int j, long k)
{
    size_t a = g->first[j], z = a + g->d[j] - 1;
    for (size_t i = a; i <= z; i++)
        if (g->msgs[i] == k) {
            g->msgs[i] = g->msgs[z];
            g->msgs[z] = k;
            break;
        }
    g->d[j]--;
}

/* The stages of Theorem 10: h_k = (1-beta)^k h, stage k lasting
 * t_k = ceil(alpha beta (1+beta)/(1-beta) (h_k + ln p)) rounds, m the least k with
 * h (1-beta)^k < h^(2/5). In each round a processor sends to destination j with probability
 * 1 - e^(-d_ij/h_{k-1}) (the weights sum to at most 1; with the rest it sends nothing), one of its
 * messages to j. Then the final phase. */
/* The weight of a destination with d undelivered messages in a stage with h_{k-1} = hk1. */
static double aw_weight(size_t d, double hk1)
{
    return 1 - exp(-(double)d / hk1);
}

void hr_alg_hrel_aw_weighted(hr_proc *p, void *inst, const double *params)
{
    hr_hrel *r = inst;
    double beta = params[0];
    sender s;
    sender_init(&s, p, r);
    bydest g;
    bydest_init(&g, p, &s);
    fenwick f = { hr_calloc(p, (size_t)g.n + 1, sizeof(double)), g.n };
    double h = (double)r->h, lnp = log((double)hr_nprocs(p)), alpha = aw_alpha();
    double hk1 = h, stop = pow(h, 0.4);
    while (s.active > 0) {
        double hk = hk1 * (1 - beta);
        size_t t = (size_t)ceil(alpha * beta * (1 + beta) / (1 - beta) * (hk + lnp));
        /* This stage's weights. */
        memset(f.t, 0, ((size_t)g.n + 1) * sizeof *f.t);
        for (int j = 0; j < g.n; j++)
            fen_add(&f, j, aw_weight(g.d[j], hk1));
        for (size_t round = 0; round < t && s.active > 0; round++) {
            long k = -1;
            int j = -1;
            double u = hr_rand_unit(p);
            if (u < fen_total(&f)) {
                j = fen_find(&f, u);
                if (g.d[j] > 0)   /* the messages to j are alike: the first undelivered one */
                    k = g.msgs[g.first[j]];
            }
            if (step(&s, k, 0) == HR_FATE_DELIVERED) {
                double before = aw_weight(g.d[j], hk1);
                bydest_remove(&g, j, k);
                fen_add(&f, j, aw_weight(g.d[j], hk1) - before);
            }
        }
        hr_compute(p, (double)t);
        if (hk < stop)
            break;
        hk1 = hk;
    }
    send_in_order(&s);
    sender_finish(&s, r);
}

/* ---- a processor's undelivered messages, for uniform draws ----------------------------------- */

/* msg[0 .. s->left) are the undelivered messages, in no order; at[k] is message k's place in
 * msg. A delivered message is swapped to msg[s->left], just past the undelivered ones, so a
 * uniform draw among them and a removal are O(1). */
typedef struct pool {
    long   *msg;
    size_t *at;
} pool;

static void pool_init(pool *u, const sender *s)
{
    u->msg = hr_malloc(s->p, (s->cnt + 1) * sizeof *u->msg);
    u->at = hr_malloc(s->p, (s->cnt + 1) * sizeof *u->at);
    for (size_t k = 0; k < s->cnt; k++) {
        u->msg[k] = (long)k;
        u->at[k] = k;
    }
}

/* One of the undelivered messages, uniformly at random (s->left > 0). */
static long pool_draw(const pool *u, const sender *s)
{
    return u->msg[hr_rand_below(s->p, s->left)];
}

/* Message k was delivered in the round step() just ended (s->left is already one less). */
static void pool_remove(pool *u, const sender *s, long k)
{
    size_t i = u->at[k];
    long last = u->msg[s->left];
    u->msg[i] = last;
    u->at[last] = i;
    u->msg[s->left] = k;
    u->at[k] = s->left;
}

static void pool_free(pool *u, const sender *s)
{
    hr_free(s->p, u->msg);
    hr_free(s->p, u->at);
}

/* ---- hrel.aw_uniform: section 7, every unsent message with equal probability ----------------- */

/* Seed 003 sec. 7: the authors "were not able to achieve running times better than 1.7h for any
 * algorithm in the arbitrary write discipline which transmitted all unsent messages with equal
 * probability". The natural member of that class: in every round each processor that has
 * undelivered messages sends one of them, chosen uniformly at random; a lost message stays
 * undelivered and is as likely as any other to be chosen next.
 * Choices:
 * - "Equal probability" is read as equal among a processor's own unsent messages, with a send in
 *   every round (the processor never idles while it has something to send). The section gives no
 *   algorithm: another member of the class would send in a round only with some probability
 *   q < 1, but no q, stage schedule or final phase is described for one, so none is used.
 * - A lost message is not resent at once: the next round draws afresh among all undelivered ones
 *   (the sender learns the loss after the round, section 5).
 * Defined for arbitrary write only: under ocpc two processors whose last messages go to one
 * receiver would both send to it in every round and collide forever. */
void hr_alg_hrel_aw_uniform(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_hrel *r = inst;
    sender s;
    sender_init(&s, p, r);
    pool u;
    pool_init(&u, &s);
    while (s.active > 0) {
        long k = s.left > 0 ? pool_draw(&u, &s) : -1;
        if (step(&s, k, 0) == HR_FATE_DELIVERED)
            pool_remove(&u, &s, k);
    }
    pool_free(&u, &s);
    sender_finish(&s, r);
}

/* ---- hrel.ocpc_gt: section 2.1, Gereb-Graus and Tsantilas ------------------------------------ */

/* Phase i has k_i = (1-eps)^i h and lasts ceil(e/(1-eps) (eps k_i + sqrt(eps k_i ln p) + ln p))
 * rounds (the paper's bound with the O() constants taken as 1); phases run while k_i >= 1. In
 * each round a processor with r undelivered messages picks one uniformly and sends it with
 * probability r/k_i (1 if r > k_i). The paper's text says the send happens "with probability
 * (k_i - r)/k_i" and nothing happens with the same probability, which cannot both hold; r/k_i is
 * Gereb-Graus and Tsantilas' rule. Then what is left goes in a final phase in which each
 * processor with messages sends a uniformly chosen one with probability 1/2: under OCPC two
 * processors that keep sending to one receiver would collide forever. */
void hr_alg_hrel_ocpc_gt(hr_proc *p, void *inst, const double *params)
{
    hr_hrel *r = inst;
    double eps = params[0];
    sender s;
    sender_init(&s, p, r);
    pool u;
    pool_init(&u, &s);
    double lnp = log((double)hr_nprocs(p)), e = exp(1.0);
    for (double k_i = (double)r->h; s.active > 0; k_i *= 1 - eps) {
        int final = k_i < 1;
        size_t len = final ? SIZE_MAX
                           : (size_t)ceil(e / (1 - eps) * (eps * k_i + sqrt(eps * k_i * lnp) + lnp));
        for (size_t t = 0; t < len && s.active > 0; t++) {
            long k = -1;
            double rr = (double)s.left, prob = final ? 0.5 : rr / k_i;
            if (s.left > 0 && hr_rand_unit(p) < prob)
                k = pool_draw(&u, &s);
            if (step(&s, k, 0) == HR_FATE_DELIVERED)
                pool_remove(&u, &s, k);
        }
        if (final)
            break;
    }
    pool_free(&u, &s);
    sender_finish(&s, r);
}

/* ---- hrel.offline: section 2, the off-line optimum ------------------------------------------- */

/* The plan: message k of processor i goes out in round colour[first[i] + k], a proper edge
 * colouring of the relation's bipartite multigraph (alg/colour.c) with D colours, D its largest
 * degree. Each processor sends at most one message a round and each receiver gets at most one, so
 * nothing waits or collides under any round discipline: exactly D rounds, h for an h-relation
 * whose busiest processor sends or receives h. */
typedef struct offline_plan {
    uint32_t *colour;
    size_t   *first;   /* [p+1] */
    int       rounds;
} offline_plan;

void hr_alg_hrel_offline_unplan(void *inst)
{
    hr_hrel *r = inst;
    offline_plan *pl = r->plan;
    if (pl != NULL) {
        free(pl->colour);
        free(pl->first);
        free(pl);
    }
    r->plan = NULL;
}

int hr_alg_hrel_offline_plan(void *inst, const hr_plan_args *args, char *why, size_t len)
{
    (void)args;
    hr_hrel *r = inst;
    offline_plan *pl = calloc(1, sizeof *pl);
    size_t ne = 0;
    for (int i = 0; i < r->p; i++)
        ne += r->in_count[i];
    uint32_t *left = malloc((ne + 1) * sizeof *left), *right = malloc((ne + 1) * sizeof *right);
    int err = HR_ENOMEM;
    if (pl == NULL || left == NULL || right == NULL ||
        (pl->colour = malloc((ne + 1) * sizeof *pl->colour)) == NULL ||
        (pl->first = malloc(((size_t)r->p + 1) * sizeof *pl->first)) == NULL)
        goto done;
    size_t e = 0;
    for (int i = 0; i < r->p; i++) {
        pl->first[i] = e;
        for (size_t k = 0; k < r->in_count[i]; k++, e++) {
            left[e] = (uint32_t)i;
            right[e] = r->in[i][k].dest;
            if (right[e] >= (uint32_t)r->p) {
                snprintf(why, len, "element %zu of processor %d has destination %u, but p = %d", k,
                         i, right[e], r->p);
                err = HR_EINVAL;
                goto done;
            }
        }
    }
    pl->first[r->p] = e;
    if (hr__edge_colour(r->p, r->p, left, right, ne, pl->colour, &pl->rounds) != 0)
        goto done;
    r->plan = pl;
    pl = NULL;
    err = HR_OK;
done:
    if (err == HR_ENOMEM)
        snprintf(why, len, "out of memory colouring %zu messages", ne);
    if (pl != NULL) {
        free(pl->colour);
        free(pl->first);
        free(pl);
    }
    free(left);
    free(right);
    return err;
}

void hr_alg_hrel_offline(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_hrel *r = inst;
    const offline_plan *pl = r->plan;
    if (pl == NULL)
        hr_fail(p, "hrel.offline: no plan (plan runs before the processors start)");
    int me = hr_pid(p);
    sender s;
    sender_init(&s, p, r);
    long *in_round = hr_malloc(p, ((size_t)pl->rounds + 1) * sizeof *in_round);
    for (int c = 0; c < pl->rounds; c++)
        in_round[c] = -1;
    for (size_t k = 0; k < s.cnt; k++)
        in_round[pl->colour[pl->first[me] + k]] = (long)k;
    for (int c = 0; c < pl->rounds; c++) {
        hr_fate f = step(&s, in_round[c], 0);
        if (in_round[c] >= 0 && f != HR_FATE_DELIVERED)
            hr_fail(p, "hrel.offline: message %ld, round %d, was not received at once", in_round[c],
                    c);
    }
    step(&s, -1, 0);   /* nobody has anything left: the closing call, not a round */
    sender_finish(&s, r);
}
