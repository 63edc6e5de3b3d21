/* sort.c: stable counting sort (seed 000 section 4.1, Algorithm 2 of Appendix C) and radix sort
 * (section 4.2), on the "sort" workload: processor i holds a block of keys and ends with block i
 * of the sorted sequence, blocks laid out as the input's (the first n mod p processors hold one
 * key more).
 *
 * Choices, where Algorithm 2 and the text differ or leave room:
 * - Step 4 of Algorithm 2 takes an inclusive prefix over processors, which would give each key
 *   the rank one past its own; the ranks need the exclusive prefix (the keys of bucket k on
 *   processors before i), which is what is computed here.
 * - Step 11 routes a key to processor floor(Addr / p) at position Addr mod p; with blocks of n/p
 *   keys that must be floor(Addr / (n/p)) and Addr mod (n/p) (generalised to uneven blocks).
 * - R = 2^r need not be a multiple of p (the paper assumes p = 2^k and R >= p): the counters are
 *   padded to the next multiple of p with buckets that stay empty, so any p works.
 * - The routed element is (key, id, destination, position): 16 bytes. The paper's element is the
 *   key and its address; the id is carried so that stability can be verified.
 * - Step 11's h-relation is routed with the two-phase algorithm (alg/route.c), h1 = h2 = ceil(n/p).
 */
#include "alg/sort.h"

#include <stddef.h>
#include <stdint.h>
#include <hremu/workload.h>

#include "alg/route.h"

/* What step 11 routes. */
typedef struct routed {
    uint32_t key, id;
    uint32_t dest;       /* the processor that holds rank addr */
    uint32_t pos;        /* the rank's index there */
} routed;

/* A place in the output: the processor and the index there. */
typedef struct slot {
    uint32_t dest, pos;
} slot;

/* Keys held by processor i: the input's block layout. */
static uint64_t block_count(uint64_t n, int p, int i)
{
    return n / (uint64_t)p + ((uint64_t)i < n % (uint64_t)p);
}

/* The processor and index that hold global rank addr. */
static void owner_of(uint64_t addr, uint64_t n, int p, uint32_t *dest, uint32_t *pos)
{
    uint64_t q = n / (uint64_t)p, rem = n % (uint64_t)p;
    uint64_t big = rem * (q + 1);        /* ranks held by the processors with one key more */
    uint64_t d = addr < big ? addr / (q + 1) : rem + (addr - big) / q;
    uint64_t start = d < rem ? d * (q + 1) : big + (d - rem) * q;
    *dest = (uint32_t)d;
    *pos = (uint32_t)(addr - start);
}

/* The counters of one pass: R = 2^r buckets of the digit (key >> shift) & mask, b of them per
 * processor, padded to rp = b p (so that any p works). */
typedef struct digit {
    unsigned shift;
    uint32_t mask;
    size_t   b, rp;
} digit;

/* Steps 1-2: count this processor's keys per bucket, into index[rp] (hr_malloc memory). */
static uint32_t *count_buckets(hr_proc *p, const hr_key *in, size_t cnt, const digit *dg)
{
    uint32_t *index = hr_calloc(p, dg->rp, sizeof *index);
    for (size_t k = 0; k < cnt; k++)
        index[(in[k].key >> dg->shift) & dg->mask]++;
    hr_compute(p, (double)(cnt + dg->rp));
    return index;
}

/* Steps 3-6: from every processor's index[], scans[2 bucket] = the keys of the bucket on the
 * processors before this one and scans[2 bucket + 1] = the bucket's total (hr_malloc memory). */
static uint32_t *bucket_scans(hr_proc *p, const uint32_t *index, const digit *dg)
{
    int np = hr_nprocs(p);
    size_t b = dg->b, rp = dg->rp;

    /* Step 3: processor i gets row k = (counts of buckets i*b .. i*b+b-1 on processor k). */
    uint32_t *scantran = hr_malloc(p, rp * sizeof *scantran);
    hr_transpose(p, index, scantran, b * sizeof *index);

    /* Steps 4-5: for each of its buckets, the exclusive prefix over processors and the total,
     * interleaved as Algorithm 2's IntLeaveScan: (scan, total) pairs, a block per processor. */
    uint32_t *inter = hr_malloc(p, 2 * rp * sizeof *inter);
    for (size_t j = 0; j < b; j++) {
        uint32_t run = 0;
        for (int k = 0; k < np; k++) {
            inter[(size_t)k * 2 * b + 2 * j] = run;
            run += scantran[(size_t)k * b + j];
        }
        for (int k = 0; k < np; k++)
            inter[(size_t)k * 2 * b + 2 * j + 1] = run;
    }
    hr_compute(p, (double)(2 * rp));
    hr_free(p, scantran);

    /* Step 6: the inverse transpose. */
    uint32_t *scans = hr_malloc(p, 2 * rp * sizeof *scans);
    hr_transpose(p, inter, scans, 2 * b * sizeof *inter);
    hr_free(p, inter);
    return scans;
}

/* Steps 7-9: the first rank of each bucket's keys on this processor, kept as the processor and
 * index that hold it (the place of rank addr in step 11's terms): first[rp] (hr_malloc). */
static slot *first_ranks(hr_proc *p, const uint32_t *index, const uint32_t *scans, uint64_t n,
                         const digit *dg)
{
    uint64_t offset = 0;
    slot *first = hr_malloc(p, dg->rp * sizeof *first);
    for (size_t k = 0; k < dg->rp; k++) {
        first[k] = (slot){ 0, 0 };
        if (index[k] != 0)   /* an empty bucket's first rank may be n, which has no owner */
            owner_of(scans[2 * k] + offset, n, hr_nprocs(p), &first[k].dest, &first[k].pos);
        offset += scans[2 * k + 1];
    }
    return first;
}

/* Step 10: every key's rank, in input order within a bucket: stable. A bucket's ranks are
 * consecutive, so its place moves one index on, to the next processor's first at the end of a
 * block (no division per key). Each routed element is dealt to step 11's router rt as it is
 * made. first[] is used up. */
static void deal_ranks(hr_proc *p, hr_router *rt, const hr_key *in, size_t cnt, uint64_t n,
                       slot *first, const digit *dg)
{
    int np = hr_nprocs(p);
    uint32_t rem = (uint32_t)(n % (uint64_t)np), q = (uint32_t)(n / (uint64_t)np);
    routed batch[256];        /* made here, dealt from L1 */
    for (size_t k0 = 0; k0 < cnt; k0 += 256) {
        size_t m = cnt - k0 < 256 ? cnt - k0 : 256;
        for (size_t j = 0; j < m; j++) {
            const hr_key *x = &in[k0 + j];
            slot *at = &first[(x->key >> dg->shift) & dg->mask];
            batch[j] = (routed){ x->key, x->id, at->dest, at->pos };
            if (++at->pos == q + (at->dest < rem)) {     /* block_count(n, np, dest) */
                at->dest++;
                at->pos = 0;
            }
        }
        hr__route_deal(p, rt, batch, m);
    }
}

/* Step 11, after the exchange: put each key that arrived where its rank says, reading it where
 * it arrived; returns this processor's block (hr_malloc). */
static hr_key *place_arrivals(hr_proc *p, hr_router *rt, uint64_t n)
{
    int np = hr_nprocs(p);
    size_t mine = (size_t)block_count(n, np, hr_pid(p)), got = 0;
    for (int k = 0; k < np; k++)
        got += hr__route_count(rt, k);
    if (got != mine)
        hr_fail(p, "counting sort: %zu keys arrived for a block of %zu", got, mine);
    hr_key *out = hr_malloc(p, mine * sizeof *out + 1);
    /* The blocks are read in lockstep, element j of every block in turn, not one block after
     * the other. The result is the same (each key has its own place), but step (1) dealt a
     * bucket's consecutive ranks round robin to consecutive intermediates, so each cache line of
     * out gets keys from many blocks: block after block, every line is written many times over,
     * far apart; in lockstep, nearly in order. 10 % less wall time in make bench. */
    const routed **blk = hr_malloc(p, (size_t)np * sizeof *blk);
    size_t *len = hr_malloc(p, (size_t)np * sizeof *len), most = 0;
    for (int k = 0; k < np; k++) {
        blk[k] = hr__route_block(rt, k);
        len[k] = hr__route_count(rt, k);
        most = len[k] > most ? len[k] : most;
    }
    for (size_t j = 0; j < most; j++)
        for (int k = 0; k < np; k++) {
            if (j >= len[k])
                continue;
            const routed *a = &blk[k][j];
            if (a->pos >= mine)
                hr_fail(p, "counting sort: a key arrived for position %u of %zu", a->pos, mine);
            out[a->pos] = (hr_key){ a->key, a->id };
        }
    hr_free(p, blk);
    hr_free(p, len);
    hr_compute(p, (double)got);
    return out;
}

/* One stable counting-sort pass on the digit (key >> shift) mod 2^r. in holds this processor's
 * block of cnt keys; returns its block of the sequence sorted by that digit. Algorithm 2, its
 * steps in the functions above. */
static hr_key *count_pass(hr_proc *p, const hr_key *in, size_t cnt, uint64_t n, unsigned shift,
                          unsigned r)
{
    int np = hr_nprocs(p);
    digit dg = { .shift = shift, .mask = r >= 32 ? UINT32_MAX : (UINT32_C(1) << r) - 1 };
    size_t radix = (size_t)dg.mask + 1;
    dg.b = (radix + (size_t)np - 1) / (size_t)np;   /* buckets per processor, R/p */
    dg.rp = dg.b * (size_t)np;                      /* R padded to a multiple of p */

    uint32_t *index = count_buckets(p, in, cnt, &dg);          /* steps 1-2 */
    uint32_t *scans = bucket_scans(p, index, &dg);             /* steps 3-6 */
    slot *first = first_ranks(p, index, scans, n, &dg);        /* steps 7-9 */
    hr_free(p, scans);
    hr_free(p, index);

    /* Step 10, dealt to step 11's router as the ranks are made. */
    uint64_t h = block_count(n, np, 0);
    hr_router rt;
    hr__route_start(p, &rt, sizeof(routed), offsetof(routed, dest), h, h);
    deal_ranks(p, &rt, in, cnt, n, first, &dg);
    hr_free(p, first);
    hr_compute(p, (double)(dg.rp + cnt));

    /* Step 11: route every key to its rank (a permutation: h = n/p, uneven blocks rounded up),
     * and put each where its rank says. */
    hr__route_exchange(p, &rt);
    hr_key *out = place_arrivals(p, &rt, n);
    hr__route_end(p, &rt);
    return out;
}

/* sort.counting: one pass of Algorithm 2 over keys in [0, 2^r), with r the width of the largest
 * key (found by an allreduce). Counting sort keeps 2^r counters per processor, so keys wider
 * than 20 bits are refused: sort.radix sorts those. */
void hr_alg_sort_counting(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_sort *s = inst;
    int me = hr_pid(p);
    uint32_t top = 0, all;
    for (size_t k = 0; k < s->in_count[me]; k++)
        top = s->in[me][k].key > top ? s->in[me][k].key : top;
    hr_allreduce(p, &top, &all, 1, HR_UINT32, HR_MAX);
    unsigned r = 1;
    while (r < 32 && (all >> r) != 0)
        r++;
    if (r > 20) {
        /* Every processor knows it; one says it (the others leave, so nobody waits on them). */
        if (me == 0)
            hr_fail(p, "sort.counting: the largest key needs %u bits, but counting sort keeps "
                       "2^r counters per processor (r <= 20): use sort.radix", r);
        return;
    }
    s->out[me] = count_pass(p, s->in[me], s->in_count[me], s->n, 0, r);
    s->out_count[me] = (size_t)block_count(s->n, hr_nprocs(p), me);
}

/* sort.radix: ceil(32 / r) passes of counting sort on r-bit digits, least significant first;
 * all 32 bits are sorted whatever the keys' range (so [N]'s 19-bit keys take the same passes). */
void hr_alg_sort_radix(hr_proc *p, void *inst, const double *params)
{
    hr_sort *s = inst;
    int me = hr_pid(p);
    unsigned r = (unsigned)params[0];
    const hr_key *keys = s->in[me];
    hr_key *cur = NULL;
    for (unsigned shift = 0; shift < 32; shift += r) {
        hr_key *next = count_pass(p, keys, (size_t)block_count(s->n, hr_nprocs(p), me), s->n,
                                  shift, r);
        hr_free(p, cur);
        keys = cur = next;
    }
    s->out[me] = cur;
    s->out_count[me] = (size_t)block_count(s->n, hr_nprocs(p), me);
}
