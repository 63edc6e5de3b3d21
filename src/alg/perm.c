/* perm.c: seed 002's schedulers of partial permutations (Ranka, Wang, Kumar 1992): LP (sec. 3.1,
 * Figure 1) and the Compact Global Masking family, CGM, CGM+sort, CGM+heap and CGMH with a
 * fixed, MS or BJ lambda (sec. 3.2, 4, 5.1, Figures 2-3, Appendix A).
 *
 * Orientation. The paper's COM(i, j) = 1 means P_j sends to P_i: a column is a sender. hremu's
 * com[j * p + i] is the bytes j sends to i: a row is a sender. Everything the paper does to
 * "column j" is done here to sender j's list of messages, CCOM(*, j); CCOM(k, j) = i becomes
 * "the k-th message of sender j goes to i".
 *
 * Readings of the paper, where it leaves a choice (each is repeated at its place below):
 *
 * - Figure 3's "j = (x + k) mod n" inside "for y = 0 to n-1" is read j = (x + y) mod n: k is
 *   not yet defined there (the loop body sets k = CCOM(l, j) next), and only y makes the loop
 *   visit every column once starting at the random x.
 * - Figure 3's "For all entries in S (except the last one), Heap_Insert" is read: every entry
 *   the while loop took out of the heap goes back except the one the column sends, which is
 *   the last one the loop took when it found a free receiver. S itself holds only refused
 *   entries (the matched one is never added to it); leaving the last of those out would drop a
 *   message for good, against "Until no more message to be sent" and the decomposition the
 *   introduction promises (every COM(i, j) = 1 in some pm_k). When the loop runs out (no free
 *   receiver), all of S goes back.
 * - lambda is "k / n, k the messages completely sent in one permutation" (abstract), n - k
 *   going in part (sec. 3.2), Delta lambda = 1/n and j <= n/4 (sec. 5.1): the analysis has all
 *   n processors send in every permutation, and most permutations have c < n messages. o->base
 *   says what n is then (perm.h): the permutation's c messages, the senders that still hold
 *   messages at its start (the default), or the n processors. With N that count, the r =
 *   ceil(lambda N) smallest of the c sizes go whole (at least 1; all when r >= c) and M_eff is
 *   the r-th smallest size (Decide_Size, "sort all sending messages by their size"). A message
 *   of exactly M_eff bytes goes whole (a tie at M_eff lets more than r go whole), so a split
 *   never leaves a 0-byte remainder; a remainder (> 0 bytes) goes back into its sender's heap
 *   (Figure 3 step 5). In the main phase every processor holds messages and the senders
 *   reading is the paper's n; in the tail, lambda of n processors sends every short
 *   permutation whole, which makes the resetting scheme a no-op, against Tables 1 and 2's
 *   "no resetting" columns; lambda of c splits even the tail's last messages and needs the
 *   most permutations of the three on Table 2 (docs/seed002.md sets the three readings' tables
 *   beside the paper's).
 * - MS and BJ (sec. 5.1): lambda_k = lambda_0 + k * dlambda, lambda_0 = 3/4, "dlambda = 1/n",
 *   n read as N above: lambda_k = (r_0 + k) / N, r_0 = ceil(3N/4) (every message whole when
 *   r_0 >= c), k = 0 .. K = c - r_0, M_k = the (r_0 + k)-th smallest size, and Gain_k =
 *   (dlambda / lambda_k)(tau / phi) - dM_k = (tau / phi) / (r_0 + k) - (M_{k+1} - M_k): the gain
 *   of the jump lambda_k -> lambda_{k+1}. MS takes the k in 0 .. K maximising the prefix sum
 *   Gain_0 + .. + Gain_{k-1} (0 for k = 0), literally. BJ takes the k in 0 .. K maximising
 *   Gain_k itself, literally "lambda = lambda_k such that Gain_k = max_{0 <= j <= n/4} Gain_j"
 *   (n/4 jumps take 3/4 to 1, so K plays n/4); Gain_K, the jump past lambda = 1, has dM_K = 0
 *   (no message is larger than the largest). Ties go to the smallest k (the first maximum).
 *   This reading gives what sec. 5.1 reports: BJ, not held back by earlier negative gains,
 *   tends to a larger lambda than MS when messages are large (tau / phi small).
 * - Figure 3 step 5, "add the remainder of the message back to its proper location in
 *   heap_k": by default the remainder's place is that of its remaining bytes (the heap is "by
 *   message size", and sec. 3.2 has each processor "trying to send out the biggest message
 *   size possible"), so a sender next sends its largest remaining message. o->keep_place reads
 *   it the other way: the remainder keeps its message's original size as key and so goes next
 *   when its receiver is free. The text favours the first; Table 1 (n = 32) favours the
 *   second: over 50 Appendix-D matrices, lambda = 3/4, resetting / not, d = 4, 8, 16, 32, with
 *   lambda counted against the permutation's messages, the paper has 6.62/8.46, 13.52/15.34,
 *   26.00/27.78, 48.86/50.84, the first reading 7.02/9.62, 14.20/17.12, 28.12/31.40,
 *   54.62/57.56, keep_place 6.72/8.52, 13.32/15.40, 25.68/28.36, 50.70/53.72.
 * - Resetting (sec. 3.2): before each permutation, once d* <= max(2, d / 16), d = messages /
 *   n at the start and d* = messages left (a split message's remainder counting as one) / n,
 *   lambda is 1 for the rest of the schedule. Checked in integers: left <= 2n or 16 left <= d n.
 *   It applies to CGMH fixed, MS and BJ ("we will use the resetting scheme in all of our
 *   approaches"); o->no_reset turns it off.
 * - CGM ([16], and sec. 5.3.2: "in CGM, we randomly swap entries in one column to break the
 *   order"): each sender's list is shuffled once (Fisher-Yates) at the start, then Figure 3's
 *   loop without heap and without splitting: the first entry in list order whose receiver is
 *   free. A sent entry's slot is filled by the list's last entry (the compaction that makes
 *   removal O(1), with prt(j) decremented), which is why CGM+sort's order is "not maintained".
 * - CGM+sort: CGM's shuffled lists, each then sorted once by size, descending, ties in shuffled
 *   order. CGM+heap and CGMH: the heap of a sender orders by size, descending; the paper leaves
 *   the order of equal sizes to its heap code, and here ties go by the same shuffled position
 *   (so equal sizes do not all prefer the lowest receivers, the unevenness sec. 5.3.2 blames
 *   for CGM+heap's extra permutations on equal sizes).
 * - The pseudocode's random(1..n) and the shuffle draw from one xoshiro256** stream of o->seed
 *   (hremu/rng.h), in a fixed order: the shuffle, sender 0 to n-1, then one x an iteration.
 *   CGM+heap and CGMH fixed with lambda = 1 thus give the same schedule.
 * - LP (Figure 1): step k pairs i with i XOR k, 1 <= k < n, and "when COM(i, j) = 0, P_j sends
 *   a dummy message": both directions of every pair go every step, 0 bytes where com has no
 *   message (HR_SCHED_DUMMIES). For p not a power of two, k runs 1 .. P2 - 1 (P2 the next power
 *   of two) and a processor whose partner is >= p idles, as sched.c's PEX partner does.
 *
 * Complexity. Reading com is O(p^2) (Appendix A's compression, done sequentially). An
 * iteration visits only the senders with messages left (O(senders left), not O(n), which
 * matters in the long tail of small permutations), looks at each entry the while loop would
 * take out of a heap in O(1) (a search of the heap in place, below), removes the sent entry and
 * re-inserts a remainder in O(log d), and selects M_eff in O(c) (fixed lambda) or sorts the
 * top quarter of the c sizes (MS, BJ). CGM looks at the same entries in O(1) each. Measured
 * (n = 512, d = 32, sizes 1..512, lambda = 3/4, median of 9 matrices, -O2, one core): CGM
 * 0.70 ms for 37.6 permutations, CGMH fixed 1.9 ms for 73.8 (twice as many: a quarter of each
 * permutation is split), 0.23 ms of each the O(p^2) compression. With the paper's
 * Heap_Extract_Max, Heap_Remove and Heap_Insert of every refused entry CGMH took 2.8 ms, and
 * with a sort of the sizes every iteration (the text's merge sort) 3.3 ms.
 */
#include "alg/perm.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/error.h>
#include <hremu/rng.h>


/* One message still (partly) to send: rem bytes to dst. prio is its heap key, rem or, with
 * o->keep_place, the message's original size; key is its position in its sender's shuffled
 * list: the order of equal prio. */
typedef struct ent {
    uint64_t rem;
    uint64_t prio;
    uint32_t key;
    int32_t  dst;
} ent;

/* Does a go before b: larger prio first, then the earlier shuffled position. */
static int before(const ent *a, const ent *b)
{
    return a->prio > b->prio || (a->prio == b->prio && a->key < b->key);
}

/* ---- a max-heap embedded in a sender's segment (Figure 2 step 2) ---------------------------- */

static void sift_down(ent *h, uint32_t n, uint32_t i)
{
    ent v = h[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&h[c + 1], &h[c]))
            c++;
        if (!before(&h[c], &v))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
}

static void heap_insert(ent *h, uint32_t *n, ent v)
{
    uint32_t i = (*n)++;
    while (i > 0 && before(&v, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = v;
}

/* Remove h[i] from the heap of *n entries: the last entry takes its place and moves up or
 * down to where it belongs. */
static void heap_remove(ent *h, uint32_t *n, uint32_t i)
{
    ent last = h[--*n];
    if (i == *n)
        return;
    while (i > 0 && before(&last, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = last;
    sift_down(h, *n, i);
}

static void heap_build(ent *h, uint32_t n)
{
    for (uint32_t i = n / 2; i-- > 0;)
        sift_down(h, n, i);
}

static int cmp_before(const void *x, const void *y)
{
    const ent *a = x, *b = y;
    return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Reorder a[0 .. n) so that a[k] is its (k+1)-th smallest, with nothing larger before it and
 * nothing smaller after it (Hoare's selection, three-way partition around a median of three):
 * O(n) on average. Sorting the permutation's sizes every iteration, as Decide_Size's text
 * says, cost more than all the rest of CGMH fixed together; the r-th smallest is all it uses. */
static void select_kth(uint64_t *a, size_t n, size_t k)
{
    size_t lo = 0, hi = n; /* rank k lies in [lo, hi) */
    while (hi - lo > 1) {
        uint64_t x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi - 1];
        uint64_t piv = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
        /* [lo, lt) < piv, [lt, i) == piv, [gt, hi) > piv */
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            uint64_t t = a[i];
            if (t < piv) {
                a[i++] = a[lt];
                a[lt++] = t;
            } else if (t > piv) {
                a[i] = a[--gt];
                a[gt] = t;
            } else {
                i++;
            }
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return;
    }
}

/* ---- the output: a growing hr_sched ----------------------------------------------------------- */

typedef struct builder {
    hr_sched s;
    size_t   n, cap, scap; /* transfers so far, room for transfers, room for start[] */
} builder;

static int b_init(builder *b, int p, size_t cap, size_t scap)
{
    memset(b, 0, sizeof *b);
    b->s.p = p;
    b->cap = cap ? cap : 1;
    b->scap = scap ? scap : 1;
    b->s.start = malloc((b->scap + 1) * sizeof *b->s.start);
    b->s.xfer = malloc(b->cap * sizeof *b->s.xfer);
    if (!b->s.start || !b->s.xfer) {
        hr__sched_free(&b->s);
        return HR_ENOMEM;
    }
    b->s.start[0] = 0;
    return HR_OK;
}

static int b_push(builder *b, int src, int dst, uint64_t bytes)
{
    if (b->n == b->cap) {
        hr_xfer *x = realloc(b->s.xfer, 2 * b->cap * sizeof *x);
        if (!x)
            return HR_ENOMEM;
        b->s.xfer = x;
        b->cap *= 2;
    }
    b->s.xfer[b->n++] = (hr_xfer){ .src = src, .dst = dst, .bytes = bytes };
    return HR_OK;
}

/* End the step under construction; an empty one is dropped (sched.h's invariant). */
static int b_close(builder *b)
{
    if (b->n == b->s.start[b->s.nsteps])
        return HR_OK;
    if ((size_t)b->s.nsteps == b->scap) {
        size_t *st = realloc(b->s.start, (2 * b->scap + 1) * sizeof *st);
        if (!st)
            return HR_ENOMEM;
        b->s.start = st;
        b->scap *= 2;
    }
    b->s.start[++b->s.nsteps] = b->n;
    return HR_OK;
}

/* Hand over the schedule, trimmed to size (a failed trim keeps the larger block). */
static void b_finish(builder *b, hr_sched *out)
{
    if (b->n > 0) {
        hr_xfer *x = realloc(b->s.xfer, b->n * sizeof *x);
        if (x)
            b->s.xfer = x;
    }
    *out = b->s;
}

/* ---- options -------------------------------------------------------------------------------- */

hr_perm_opts hr__perm_opts_default(hr_perm_variant v)
{
    /* lambda_0 = 3/4 (sec. 5.1); the cm5 preset's tau and sigma (src/net/cost.c), the machine
     * the paper measured. */
    return (hr_perm_opts){ .variant = v, .lambda = 0.75, .no_reset = 0,
                           .base = HR_PERM_BASE_SENDERS, .tau = 88e-6, .phi = 1.0 / 20e6,
                           .seed = 1 };
}

static const char *const names[HR_PERM_NVARIANTS] = {
    [HR_PERM_LP] = "lp",
    [HR_PERM_CGM] = "cgm",
    [HR_PERM_CGM_SORT] = "cgm_sort",
    [HR_PERM_CGM_HEAP] = "cgm_heap",
    [HR_PERM_CGMH_FIXED] = "cgmh_fixed",
    [HR_PERM_CGMH_MS] = "cgmh_ms",
    [HR_PERM_CGMH_BJ] = "cgmh_bj",
};

const char *hr__perm_name(hr_perm_variant v)
{
    return (unsigned)v < HR_PERM_NVARIANTS ? names[v] : NULL;
}

static int opts_ok(const hr_perm_opts *o)
{
    if ((unsigned)o->variant >= HR_PERM_NVARIANTS)
        return 0;
    if (o->variant == HR_PERM_CGMH_FIXED && !(o->lambda > 0.0 && o->lambda <= 1.0))
        return 0;
    if ((unsigned)o->base >= HR_PERM_NBASES)
        return 0;
    if ((o->variant == HR_PERM_CGMH_MS || o->variant == HR_PERM_CGMH_BJ) &&
        !(isfinite(o->tau) && isfinite(o->phi) && o->tau >= 0.0 && o->phi > 0.0))
        return 0;
    return 1;
}

/* ---- LP (sec. 3.1, Figure 1) ------------------------------------------------------------------ */

static int sched_lp(int p, const uint64_t *com, hr_sched *out)
{
    int p2 = hr__sched_span(p);
    builder b;
    int err = b_init(&b, p, (size_t)p * (size_t)(p2 - 1), (size_t)(p2 > 1 ? p2 - 1 : 1));
    if (err < 0)
        return err;
    /* Figure 1: "for i = 1 to n-1: j = k XOR i; P_k sends to P_j, receives from P_j". Every
     * direction goes, a dummy of 0 bytes where COM(i, j) = 0 (sec. 3.1); i ascending gives the
     * canonical order. For p not a power of two, i idles in step k when i XOR k >= p. */
    for (int k = 1; k < p2 && err == HR_OK; k++) {
        for (int i = 0; i < p && err == HR_OK; i++) {
            int j = hr__sched_pex_partner(p, k, i);
            if (j >= 0)
                err = b_push(&b, i, j, com[(size_t)i * p + j]);
        }
        if (err == HR_OK)
            err = b_close(&b);
    }
    if (err < 0) {
        hr__sched_free(&b.s);
        return err;
    }
    b_finish(&b, out);
    return HR_OK;
}

/* ---- the Compact Global Masking family ------------------------------------------------------ */

/* Decide_Size (sec. 4, 5.1) for the c sizes of this permutation in sz (sorted or reordered
 * here), lambda counted against nn (o->base's N: c, the senders holding messages, or n):
 * M_eff, the largest message that goes whole; UINT64_MAX when every one does. */
static uint64_t decide_size(const hr_perm_opts *o, uint64_t *sz, size_t c, size_t nn)
{
    if (c == 0)
        return UINT64_MAX;
    if (o->variant == HR_PERM_CGMH_FIXED) {
        /* lambda = k / N: the r = ceil(lambda N) smallest go whole, at least 1, every one when
         * r >= c (the 1e-9 keeps a product such as 0.8 * 5 from rounding up past 4). The r-th
         * smallest is all Decide_Size needs of "sort the sizes": a selection. */
        double want = ceil(o->lambda * (double)nn - 1e-9);
        if (want >= (double)c)
            return UINT64_MAX;
        size_t r = want < 1.0 ? 1 : (size_t)want;
        select_kth(sz, c, r - 1);
        return sz[r - 1];
    }
    /* MS and BJ (sec. 5.1): lambda_k = (r0 + k) / N, dlambda = 1 / N (see the file's header),
     * Gain_k = (dlambda / lambda_k)(tau / phi) - dM_k = (tau / phi) / (r0 + k) - dM_k. They
     * look at ranks r0 .. c only: select rank r0, then sort that top quarter. */
    double tp = o->tau / o->phi;
    double want = ceil(0.75 * (double)nn - 1e-9);
    if (want >= (double)c)
        return UINT64_MAX;
    size_t r0 = want < 1.0 ? 1 : (size_t)want;
    select_kth(sz, c, r0 - 1);
    qsort(sz + r0 - 1, c - (r0 - 1), sizeof *sz, cmp_u64);
    size_t kmax = c - r0, best = 0;
    double sum = 0.0, best_val = o->variant == HR_PERM_CGMH_MS ? 0.0 : -INFINITY;
    for (size_t k = 0; k <= kmax; k++) {
        double dm = k < kmax ? (double)(sz[r0 + k] - sz[r0 + k - 1]) : 0.0;
        double gain = tp / (double)(r0 + k) - dm;
        if (o->variant == HR_PERM_CGMH_MS) {
            /* "k chosen to maximize sum_{i=0}^{k-1} Gain_i": the prefix before jump k. */
            if (k > 0 && sum > best_val) {
                best_val = sum;
                best = k;
            }
            sum += gain;
        } else if (gain > best_val) {
            /* BJ: "Gain_k = max_{0 <= j <= n/4} Gain_j", the first maximum. */
            best_val = gain;
            best = k;
        }
    }
    return sz[r0 + best - 1];
}

/* A CGM schedule's state: Appendix A's CCOM and Figure 3's arrays. Sender j's messages still to
 * send are ccom[off[j] .. off[j] + cnt[j]), a max-heap (CGM+heap, CGMH) or a list (CGM,
 * CGM+sort); act[0 .. nact) are the senders with messages left, ascending. In an iteration it,
 * receiver k is taken when busy[k] == it, and sender j sends chosen[j] when has[j]. */
typedef struct cgm {
    int            n;
    int            heaps;   /* the messages are heaps, not lists */
    size_t         msgs;    /* messages at the start: d n */
    size_t        *off;     /* [n + 1] */
    uint32_t      *cnt;     /* [n] prt(j) + 1: entries still in j */
    int           *busy;    /* [n] receive(k) != -1: iteration stamp */
    ent           *chosen;  /* [n] send(j): the entry j sends */
    unsigned char *has;     /* [n] send(j) != -1 */
    int           *act;     /* [n] senders with messages left */
    int            nact;
    uint64_t      *sz;      /* [n] Decide_Size's sizes */
    ent           *ccom;    /* [msgs] */
    uint32_t      *stack;   /* the search of one heap: at most its entries */
} cgm;

static void cgm_free(cgm *g)
{
    free(g->stack);
    free(g->ccom);
    free(g->sz);
    free(g->act);
    free(g->has);
    free(g->chosen);
    free(g->busy);
    free(g->cnt);
    free(g->off);
}

/* Appendix A: compress COM into CCOM, sender by sender (row j of com here): count each sender's
 * messages into cnt[] and off[], and allocate every array. HR_ENOMEM leaves g for cgm_free. */
static int cgm_compress(cgm *g, const uint64_t *com)
{
    int n = g->n;
    g->off = malloc(((size_t)n + 1) * sizeof *g->off);
    g->cnt = malloc((size_t)n * sizeof *g->cnt);
    g->busy = malloc((size_t)n * sizeof *g->busy);
    g->chosen = malloc((size_t)n * sizeof *g->chosen);
    g->has = calloc((size_t)n, 1);
    g->act = malloc((size_t)n * sizeof *g->act);
    g->sz = malloc((size_t)n * sizeof *g->sz);
    if (!g->off || !g->cnt || !g->busy || !g->chosen || !g->has || !g->act || !g->sz)
        return HR_ENOMEM;
    size_t msgs = 0;
    uint32_t dmax = 0;
    for (int j = 0; j < n; j++) {
        g->off[j] = msgs;
        uint32_t c = 0;
        for (int i = 0; i < n; i++)
            c += i != j && com[(size_t)j * n + i] != 0;
        g->cnt[j] = c;
        msgs += c;
        dmax = c > dmax ? c : dmax;
    }
    g->off[n] = msgs;
    g->msgs = msgs;
    if (!(g->ccom = malloc((msgs ? msgs : 1) * sizeof *g->ccom)) ||
        !(g->stack = malloc(((size_t)dmax + 1) * sizeof *g->stack)))
        return HR_ENOMEM;
    return HR_OK;
}

/* Each sender's messages from com, shuffled, then ordered as variant v keeps them; the senders
 * with messages into act[], every receiver free. The shuffles draw from rng, sender 0 first. */
static void cgm_columns(cgm *g, const uint64_t *com, hr_perm_variant v, hr_stream *rng)
{
    int n = g->n;
    for (int j = 0; j < n; j++) {
        ent *col = g->ccom + g->off[j];
        uint32_t c = 0;
        for (int i = 0; i < n; i++) {
            uint64_t bytes = com[(size_t)j * n + i];
            if (i != j && bytes != 0)
                col[c++] = (ent){ .rem = bytes, .prio = bytes, .dst = i };
        }
        /* "In CGM, we randomly swap entries in one column to break the order" (sec. 5.3.2): a
         * Fisher-Yates shuffle, for every variant, so that equal sizes keep a random order. */
        for (uint32_t k = c; k > 1; k--) {
            uint32_t r = (uint32_t)hr_stream_below(rng, k);
            ent t = col[k - 1];
            col[k - 1] = col[r];
            col[r] = t;
        }
        for (uint32_t k = 0; k < c; k++)
            col[k].key = k;
        if (v == HR_PERM_CGM_SORT)
            qsort(col, c, sizeof *col, cmp_before); /* sec. 5.1 item 6: sorted once */
        else if (g->heaps)
            heap_build(col, c); /* Figure 2 step 2 */
    }
    g->nact = 0;
    for (int k = 0; k < n; k++) {
        g->busy[k] = -1;
        if (g->cnt[k] > 0)
            g->act[g->nact++] = k;
    }
}

/* Figure 3 step 2 for sender j's heap in iteration it: "while send(j) = -1 and i <= prt(j)":
 * take the largest left; a busy receiver goes to S; then S goes back, all but the sent entry
 * (file's header). Rather than Heap_Extract_Max, Heap_Remove and Heap_Insert for each entry of
 * S, a search of the heap in place finds the same entry, the largest whose receiver is free:
 * below a free entry nothing is larger, and below an entry no larger than the best found so far
 * neither, so the search descends only through busy entries larger than the best (the entries
 * the paper's loop would put in S, and their children). The order is total (keys are distinct
 * in a column), so the chosen entry and the set left are the paper's; a refused entry costs
 * O(1), and only the sent entry is removed, in O(log d). */
static void pick_heap(cgm *g, int j, int it)
{
    ent *col = g->ccom + g->off[j];
    uint32_t top = 0, best = UINT32_MAX;
    g->stack[top++] = 0;
    while (top > 0) {
        uint32_t i = g->stack[--top];
        if (best != UINT32_MAX && !before(&col[i], &col[best]))
            continue;
        if (g->busy[col[i].dst] != it) {
            best = i;
            continue;
        }
        if (2 * i + 2 < g->cnt[j])
            g->stack[top++] = 2 * i + 2;
        if (2 * i + 1 < g->cnt[j])
            g->stack[top++] = 2 * i + 1;
    }
    if (best != UINT32_MAX) {
        g->busy[col[best].dst] = it;
        g->chosen[j] = col[best];
        g->has[j] = 1;
        heap_remove(col, &g->cnt[j], best);
    }
}

/* Figure 3 step 2 for sender j's list (CGM, CGM+sort) in iteration it: the first entry in list
 * order whose receiver is free; the last entry fills its slot (compaction, prt(j) - 1). */
static void pick_list(cgm *g, int j, int it)
{
    ent *col = g->ccom + g->off[j];
    for (uint32_t k = 0; k < g->cnt[j]; k++)
        if (g->busy[col[k].dst] != it) {
            g->busy[col[k].dst] = it;
            g->chosen[j] = col[k];
            g->has[j] = 1;
            col[k] = col[--g->cnt[j]];
            break;
        }
}

/* Figure 3 step 2 for iteration it: x = random(1..n), drawn from rng; for y = 0 .. n-1,
 * j = (x + y) mod n (the pseudocode's "x + k" read as x + y: see the file's header) chooses its
 * message. Returns c, the senders that send, their sizes in sz[0 .. c). */
static size_t cgm_choose(cgm *g, int it, hr_stream *rng)
{
    int x = (int)hr_stream_below(rng, (uint64_t)g->n);
    /* Only the senders with messages left (act[], ascending) are visited, from the first at or
     * after x on, wrapping: the order (x + y) mod n gives them, at O(senders left) rather than
     * O(n) an iteration in the long tail. */
    int lo = 0, hi = g->nact;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (g->act[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t c = 0;
    for (int y = 0; y < g->nact; y++) {
        int j = g->act[lo + y < g->nact ? lo + y : lo + y - g->nact];
        if (g->heaps && g->cnt[j] > 0)
            pick_heap(g, j, it);
        else if (!g->heaps)
            pick_list(g, j, it);
        if (g->has[j])
            g->sz[c++] = g->chosen[j].rem;
    }
    return c;
}

/* Figure 3 steps 4-5: each sender sends at most M_eff = meff as one step of b; a remainder goes
 * back to its heap, keyed by its remaining bytes unless keep_place. *left counts the messages
 * not wholly sent. Then the senders without messages leave act[]. */
static int cgm_send(cgm *g, builder *b, uint64_t meff, int keep_place, size_t *left)
{
    int err;
    for (int a = 0; a < g->nact; a++) {
        int j = g->act[a];
        if (!g->has[j])
            continue;
        g->has[j] = 0;
        ent e = g->chosen[j];
        uint64_t bytes = e.rem < meff ? e.rem : meff;
        if ((err = b_push(b, j, e.dst, bytes)) < 0)
            return err;
        e.rem -= bytes;
        if (!keep_place)
            e.prio = e.rem;
        if (e.rem > 0)
            heap_insert(g->ccom + g->off[j], &g->cnt[j], e);
        else
            (*left)--;
    }
    if ((err = b_close(b)) < 0)
        return err;
    int keep = 0;
    for (int a = 0; a < g->nact; a++)
        if (g->cnt[g->act[a]] > 0)
            g->act[keep++] = g->act[a];
    g->nact = keep;
    return HR_OK;
}

static int sched_cgm(int p, const uint64_t *com, const hr_perm_opts *o, hr_sched *out)
{
    const hr_perm_variant v = o->variant;
    const int splits = v == HR_PERM_CGMH_FIXED || v == HR_PERM_CGMH_MS || v == HR_PERM_CGMH_BJ;
    cgm g = { .n = p, .heaps = v != HR_PERM_CGM && v != HR_PERM_CGM_SORT };
    builder b = { 0 };

    /* Appendix A: compress COM into CCOM. */
    int err = cgm_compress(&g, com);
    if (err < 0)
        goto done;
    /* Each step sends at least one part; a message goes whole in CGM, CGM+sort, CGM+heap. */
    if ((err = b_init(&b, p, g.msgs + (size_t)p, g.msgs ? g.msgs : 1)) < 0)
        goto done;
    hr_stream rng;
    hr_stream_seed(&rng, o->seed, 0x5eed002u);
    cgm_columns(&g, com, v, &rng);

    /* Resetting (sec. 3.2): lambda = 1 for good once d* <= max(2, d / 16), i.e. left <= 2n or
     * 16 left <= msgs (d = msgs / n, d* = left / n). */
    size_t left = g.msgs;
    int reset = !splits; /* lambda = 1 from the start: CGM, CGM+sort, CGM+heap */
    for (int it = 0; left > 0; it++) {
        if (splits && !o->no_reset && !reset && (left <= 2 * (size_t)p || 16 * left <= g.msgs))
            reset = 1;
        /* Figure 3 step 2: every sender chooses its message. */
        size_t c = cgm_choose(&g, it, &rng);
        assert(c > 0); /* the first column with a message always finds its receiver free */

        /* Figure 3 step 3: M_eff = Decide_Size(). */
        size_t nn = o->base == HR_PERM_BASE_PROCS     ? (size_t)p
                    : o->base == HR_PERM_BASE_SENDERS ? (size_t)g.nact
                                                        : c;
        uint64_t meff = splits && !reset ? decide_size(o, g.sz, c, nn) : UINT64_MAX;

        /* Steps 4-5: each sender sends at most M_eff; a remainder goes back to its heap. */
        if ((err = cgm_send(&g, &b, meff, o->keep_place, &left)) < 0) {
            hr__sched_free(&b.s);
            goto done;
        }
    }
    b_finish(&b, out);
    err = HR_OK;
done:
    cgm_free(&g);
    return err;
}

int hr__perm_schedule(int p, const uint64_t *com, const hr_perm_opts *o, hr_sched *out)
{
    if (p < 1 || !com || !o || !out || !opts_ok(o))
        return HR_EINVAL;
    if (p > HR_SCHED_MAX_P)
        return HR_ERANGE;
    return o->variant == HR_PERM_LP ? sched_lp(p, com, out) : sched_cgm(p, com, o, out);
}
