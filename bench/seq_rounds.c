/* seq_rounds.c: the one-thread reference of the round table of `make bench`: the algorithm that
 * hrel.pq_random runs under the priority discipline (seed 003, section 6) on the alltoall
 * h-relation of configs/bench/rounds.ini (n = p(p-1), h = p-1), simulated round by round in one
 * loop, with no threads.
 *
 * The algorithm: every processor gives each of its p-1 messages (one to every other processor) a
 * priority drawn uniformly from 64 bits and sends them highest first, one per round, unless its
 * previous message still waits in a queue (it is stalled). The discipline: a message sent in a
 * round joins its receiver's queue; in each round every receiver receives the waiting message of
 * highest priority (ties broken by a random 64-bit key drawn on arrival), and that message's
 * sender may send again in the next round. The run ends when every message is received.
 *
 * The draws are hremu's: processor i's priorities are the first p-1 draws of stream i of the seed
 * (src/core/proc.c seeds a processor's hr_rand so), the k-th for receiver (i+1+k) mod p (the
 * order in which src/work/hrel.c lays out alltoall). So the rounds are the same number as hremu's.
 * Only the tie keys differ (stream p here, the receivers' own streams in hremu), and they decide
 * nothing unless two 64-bit priorities are equal.
 *
 * Timed, per run (median_s): drawing and sorting every processor's priorities, then the rounds,
 * as hremu's wall_s covers its processors doing the same; loop_s is the rounds alone. A round
 * costs O(p) for the scans of senders and receivers plus O(log p) per message sent and received;
 * nothing is allocated after the set-up. Not timed: the check that every message was received
 * exactly once, by its own receiver.
 */
#include "bench_common.h"

/* One of a sender's messages: its priority and its receiver. */
typedef struct out_msg {
    uint64_t prio;
    uint32_t dest;
} out_msg;

/* One waiting message in a receiver's queue: a binary max-heap on (prio, tie). */
typedef struct waiting_msg {
    uint64_t prio;
    uint64_t tie;
    uint32_t src;
} waiting_msg;

/* The simulation's state, allocated once. Invariants during a run: a sender has at most one
 * message waiting anywhere (stalled[i] says whether it has), so the queues hold at most p messages
 * in all and one queue at most p-1 (cap); next[i] counts the messages sender i has sent. */
typedef struct sim {
    int          p;
    int          cap;        /* p - 1: messages per sender, and room per queue */
    out_msg     *out;        /* [p * cap] sender i's messages at i * cap, highest priority first */
    out_msg     *tmp;        /* [cap] scratch for sorting one sender's messages */
    uint32_t    *count;      /* [2^bits] the sort's buckets */
    int          bits;       /* the least >= 1 with 2^bits >= cap */
    uint32_t    *next;       /* [p] */
    uint8_t     *stalled;    /* [p] */
    waiting_msg *heap;       /* [p * cap] receiver d's queue at d * cap */
    uint32_t    *size;       /* [p] queue lengths */
    uint8_t     *received;   /* [p * p] received[src * p + dest]: times received */
} sim;

/* Sender order: higher priority first; equal priorities (which 64-bit draws all but never give)
 * by receiver. */
static inline int before(const out_msg *a, const out_msg *b)
{
    return a->prio != b->prio ? a->prio > b->prio : a->dest < b->dest;
}

/* Sorts o[0 .. cap) into sender order in expected O(cap), as the priorities are uniform: a
 * counting sort on the top `bits` bits (2^bits >= cap buckets, so about one message a bucket),
 * then an insertion sort, which has only the few pairs inside a bucket left to swap. Uses
 * tmp[0 .. cap) and count[0 .. 2^bits). */
static void sort_out(out_msg *o, out_msg *tmp, uint32_t *count, int cap, int bits)
{
    size_t buckets = (size_t)1 << bits;
    int shift = 64 - bits;
    memset(count, 0, buckets * sizeof *count);
    for (int k = 0; k < cap; k++)
        count[o[k].prio >> shift]++;
    /* Highest bucket first: bucket b starts after every bucket above it. */
    uint32_t at = 0;
    for (size_t b = buckets; b-- > 0;) {
        uint32_t c = count[b];
        count[b] = at;
        at += c;
    }
    for (int k = 0; k < cap; k++)
        tmp[count[o[k].prio >> shift]++] = o[k];
    for (int k = 0; k < cap; k++) {
        out_msg x = tmp[k];
        int j = k;
        for (; j > 0 && before(&x, &o[j - 1]); j--)
            o[j] = o[j - 1];
        o[j] = x;
    }
}

/* seed 003, section 6: each processor draws its priorities and orders its messages by them. */
static void draw(sim *m, uint64_t seed)
{
    for (int i = 0; i < m->p; i++) {
        uint64_t s[4];
        bench_seed_stream(s, seed, (uint64_t)i);
        out_msg *o = m->out + (size_t)i * (size_t)m->cap;
        for (int k = 0; k < m->cap; k++)
            o[k] = (out_msg){ .prio = bench_next(s), .dest = (uint32_t)((i + 1 + k) % m->p) };
        sort_out(o, m->tmp, m->count, m->cap, m->bits);
    }
}

static inline int above(const waiting_msg *a, const waiting_msg *b)
{
    return a->prio != b->prio ? a->prio > b->prio : a->tie > b->tie;
}

static inline void push(waiting_msg *h, uint32_t *n, waiting_msg x)
{
    uint32_t i = (*n)++;
    while (i > 0 && above(&x, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = x;
}

/* Removes and returns the sender of the top of the heap h of *n > 0 messages. */
static inline uint32_t pop(waiting_msg *h, uint32_t *n)
{
    uint32_t got = h[0].src;
    waiting_msg x = h[--*n];
    uint32_t i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, top = l;
        if (l >= *n)
            break;
        if (r < *n && above(&h[r], &h[l]))
            top = r;
        if (!above(&h[top], &x))
            break;
        h[i] = h[top];
        i = top;
    }
    h[i] = x;
    return got;
}

/* The rounds until every message is received; returns their number. */
static uint64_t simulate(sim *m, uint64_t seed)
{
    int p = m->p;
    uint64_t tie[4];
    bench_seed_stream(tie, seed, (uint64_t)p);
    memset(m->next, 0, (size_t)p * sizeof *m->next);
    memset(m->stalled, 0, (size_t)p);
    memset(m->size, 0, (size_t)p * sizeof *m->size);
    uint64_t left = (uint64_t)p * (uint64_t)m->cap, rounds = 0;
    while (left > 0) {
        rounds++;
        /* Sends: every sender that is not stalled and has a message left sends its next. */
        for (int i = 0; i < p; i++) {
            if (m->stalled[i] || m->next[i] == (uint32_t)m->cap)
                continue;
            const out_msg *o = &m->out[(size_t)i * (size_t)m->cap + m->next[i]++];
            waiting_msg x = { .prio = o->prio, .tie = bench_next(tie), .src = (uint32_t)i };
            push(m->heap + (size_t)o->dest * (size_t)m->cap, &m->size[o->dest], x);
            m->stalled[i] = 1;
        }
        /* Receives: every receiver with a waiting message takes the highest; its sender is free
         * to send in the next round. */
        for (int d = 0; d < p; d++) {
            if (m->size[d] == 0)
                continue;
            uint32_t src = pop(m->heap + (size_t)d * (size_t)m->cap, &m->size[d]);
            m->stalled[src] = 0;
            m->received[(size_t)src * (size_t)p + (size_t)d]++;
            left--;
        }
    }
    return rounds;
}

/* 0 if every message (src, dest), src != dest, was received exactly once and nothing else was. */
static int verify(const sim *m)
{
    for (int s = 0; s < m->p; s++)
        for (int d = 0; d < m->p; d++)
            if (m->received[(size_t)s * (size_t)m->p + (size_t)d] != (s != d))
                return -1;
    return 0;
}

int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv, "seq_rounds");
    int p = a.p;
    if (p < 2) {
        fprintf(stderr, "seq_rounds: alltoall needs p >= 2\n");
        return 2;
    }
    uint64_t n = (uint64_t)p * (uint64_t)(p - 1);
    if (argc <= 2)
        a.n = n;
    else if (a.n != n) {
        fprintf(stderr, "seq_rounds: alltoall over p = %d has n = p(p-1) = %" PRIu64 ", not %" PRIu64
                "\n", p, n, a.n);
        return 2;
    }
    sim m = { .p = p, .cap = p - 1, .bits = 1 };
    size_t pq = (size_t)p * (size_t)m.cap;
    m.out = bench_alloc(pq * sizeof *m.out);
    m.tmp = bench_alloc((size_t)m.cap * sizeof *m.tmp);
    while (((size_t)1 << m.bits) < (size_t)m.cap)
        m.bits++;
    m.count = bench_alloc(((size_t)1 << m.bits) * sizeof *m.count);
    m.next = bench_alloc((size_t)p * sizeof *m.next);
    m.stalled = bench_alloc((size_t)p);
    m.heap = bench_alloc(pq * sizeof *m.heap);
    m.size = bench_alloc((size_t)p * sizeof *m.size);
    m.received = bench_alloc((size_t)p * (size_t)p);

    double *t = bench_alloc((size_t)a.runs * sizeof *t);
    double *loop = bench_alloc((size_t)a.runs * sizeof *loop);
    uint64_t rounds = 0;
    for (int run = 0; run < a.runs; run++) {
        memset(m.received, 0, (size_t)p * (size_t)p);
        double t0 = bench_now();
        draw(&m, a.seed);
        double t1 = bench_now();
        uint64_t r = simulate(&m, a.seed);
        double t2 = bench_now();
        t[run] = t2 - t0;
        loop[run] = t2 - t1;
        if (verify(&m) != 0) {
            fprintf(stderr, "seq_rounds: a message was not received exactly once\n");
            return 1;
        }
        /* The same seed draws the same priorities and tie keys, so every run takes as many rounds. */
        if (run > 0 && r != rounds) {
            fprintf(stderr, "seq_rounds: run %d took %" PRIu64 " rounds, run 0 %" PRIu64 "\n", run,
                    r, rounds);
            return 1;
        }
        rounds = r;
    }
    double median = bench_median(t, a.runs), loop_median = bench_median(loop, a.runs);
    printf("seq_rounds p=%d n=%" PRIu64 " runs=%d median_s=%.6f loop_s=%.6f rounds=%" PRIu64
           " rounds_per_h=%.3f per_round_s=%.3e\n",
           p, a.n, a.runs, median, loop_median, rounds, (double)rounds / (p - 1),
           median / (double)rounds);

    free(t);
    free(loop);
    free(m.out);
    free(m.tmp);
    free(m.count);
    free(m.next);
    free(m.stalled);
    free(m.heap);
    free(m.size);
    free(m.received);
    return 0;
}
