/* bitonic.c: bitonic sort on the hypercube and on the reduced hypercube RH(k,n) (seed 004
 * chapter 5), on the "sort" workload with n a multiple of p: every processor holds b = n/p keys
 * and ends with block x of the sorted sequence.
 *
 * Both are the block bitonic sort (Baudet and Stevenson, the thesis's ref. 24): each processor
 * sorts its block, then every comparator of Batcher's network on the cube is a merge-split of
 * two sorted blocks, the lower keeping the b smallest when the stage ascends. Stage i (0 ..
 * nu-1) runs dimensions i, i-1, ..., 0, ascending where bit i+1 of the address is 0. Keys are
 * ordered by (key, id): ids are unique, so that order is the stable one the verifier asks for.
 * The local sort is a merge sort, as sec. 5.1.1 says (bottom-up, runs of 16 by insertion first),
 * charged b log2 b units; a merge-split b units.
 *
 * sort.rh_bitonic follows sec. 5 with VIRTUAL processors: block v (v in global order: BB
 * address, then address in the BB) moves between physical nodes, and a comparator between v
 * and v ^ 2^j runs wherever the two blocks are:
 *  Phase I (5.1.1): block v on node v; stages 0 .. k-1 need dimensions inside BBs only. Then
 *    every node sends its block towards SB 0 of its BB, a binomial gather over the n SB
 *    dimensions (n steps), so node (bb, 0, l) holds the blocks of (bb, s, l) for every s,
 *    "concatenated in increasing order of source SB addresses".
 *  Phase II (5.1.2): stages k .. nu-1. Before a comparator across BB dimension j' the BB's
 *    blocks move to SB j', whose nodes hold the links of that dimension (one hop a differing SB
 *    bit, lowest first: "the data elements are passed to the SB implementing connections in that
 *    respective dimension"), then cross it in one exchange, each node doing its 2^n merge-splits.
 *    The stage's dimensions inside the BB follow where the blocks are: an SB-address dimension
 *    pairs two blocks on the same node (no message: "each physical processor ... can be viewed
 *    as 2^n virtual processors"), a dimension below k-n is a link of the SB. This is how we read
 *    "the (k-n+1)-cube formed by the two SB's applies again the bitonic sort algorithm assuming a
 *    virtual (n+1)-cube": the two SBs' nodes with their virtual processors do the comparators.
 *    The last stage ends on BB dimension 0, so the blocks end in SB 0, as the thesis says.
 *  Phase III (5.1.3): the reverse of the gather (n steps) returns block v to node v.
 * The thesis assumes k > n; with k = n an SB is one node and works the same way. */
#include "alg/seed004.h"

#include <stdint.h>
#include <string.h>

#include <hremu/workload.h>

#include "alg/cube.h"

#define TAG_SORT 1

static inline int key_less(const hr_key *a, const hr_key *b)
{
    return a->key < b->key || (a->key == b->key && a->id < b->id);
}

/* Merge the sorted a[0 .. na) and c[0 .. nc) into out. */
static void merge(const hr_key *a, size_t na, const hr_key *c, size_t nc, hr_key *out)
{
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nc)
        out[k++] = key_less(&c[j], &a[i]) ? c[j++] : a[i++];
    while (i < na)
        out[k++] = a[i++];
    while (j < nc)
        out[k++] = c[j++];
}

/* Sort a[0 .. n) by (key, id), tmp n keys of room. */
static void merge_sort(hr_key *a, size_t n, hr_key *tmp)
{
    enum { RUN = 16 };
    for (size_t lo = 0; lo < n; lo += RUN) {           /* runs of RUN by insertion */
        size_t hi = lo + RUN < n ? lo + RUN : n;
        for (size_t i = lo + 1; i < hi; i++) {
            hr_key x = a[i];
            size_t j = i;
            for (; j > lo && key_less(&x, &a[j - 1]); j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
    }
    hr_key *src = a, *dst = tmp;
    for (size_t w = RUN; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            merge(src + lo, mid - lo, src + mid, hi - mid, dst + lo);
        }
        hr_key *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}

/* out = the b smallest (low) or largest of the sorted blocks a and c, sorted. */
static void merge_split(const hr_key *a, const hr_key *c, size_t b, int low, hr_key *out)
{
    if (low) {
        size_t i = 0, j = 0;
        for (size_t k = 0; k < b; k++)
            out[k] = j >= b || (i < b && key_less(&a[i], &c[j])) ? a[i++] : c[j++];
    } else {
        size_t i = b, j = b;
        for (size_t k = b; k-- > 0;)
            out[k] = j == 0 || (i > 0 && key_less(&c[j - 1], &a[i - 1])) ? a[--i] : c[--j];
    }
}

/* Does virtual processor v keep the low half at stage i, dimension j? */
static int keeps_low(int v, int i, int j)
{
    int ascending = ((v >> (i + 1)) & 1) == 0;
    return (((v >> j) & 1) == 0) == ascending;
}

typedef struct sorter {
    hr_proc      *p;
    const hr_sort *s;
    size_t        b;          /* keys a block */
    hr_key       *tmp;        /* b keys */
} sorter;

/* Blocks of equal size, or the run fails: processor 0 says why (one line), the others stop. */
static int equal_blocks(hr_proc *p, const hr_sort *s, const char *name)
{
    int np = hr_nprocs(p);
    if (s->n % (uint64_t)np == 0)
        return 1;
    if (hr_pid(p) == 0)
        hr_fail(p, "%s needs n divisible by p (n = %llu, p = %d)", name,
                (unsigned long long)s->n, np);
    return 0;
}

/* The block of keys this processor starts with, sorted, in memory of nblocks blocks at slot. */
static hr_key *start(sorter *S, size_t nblocks, size_t slot)
{
    hr_proc *p = S->p;
    int np = hr_nprocs(p), me = hr_pid(p);
    S->b = (size_t)(S->s->n / (uint64_t)np);
    S->tmp = hr_malloc(p, (S->b ? S->b : 1) * sizeof *S->tmp);
    hr_key *mem = hr_malloc(p, (nblocks * S->b > 0 ? nblocks * S->b : 1) * sizeof *mem);
    hr_key *mine = mem + slot * S->b;
    memcpy(mine, S->s->in[me], S->b * sizeof *mine);
    merge_sort(mine, S->b, S->tmp);
    double lg = 0;
    for (size_t x = S->b; x > 1; x >>= 1)
        lg++;
    hr_compute(p, (double)S->b * lg);
    return mem;
}

/* Merge-split block mine (virtual v) against theirs, in place. */
static void split_block(sorter *S, hr_key *mine, const hr_key *theirs, int low)
{
    merge_split(mine, theirs, S->b, low, S->tmp);
    memcpy(mine, S->tmp, S->b * sizeof *mine);
    hr_compute(S->p, (double)S->b);
}

static void finish(sorter *S, const hr_key *mine)
{
    int me = hr_pid(S->p);
    hr_key *out = hr_malloc(S->p, (S->b ? S->b : 1) * sizeof *out);
    memcpy(out, mine, S->b * sizeof *out);
    ((hr_sort *)S->s)->out[me] = out;
    ((hr_sort *)S->s)->out_count[me] = S->b;
}

/* Stages from .. to-1 of the network on physical nodes (block v on node v), the block in
 * *mine. The merge goes to the spare block and the two change places (no copy back), so *mine
 * and S->tmp may be swapped on return. */
static void cube_stages(sorter *S, hr_key **mine, hr_key *theirs, int from, int to)
{
    int me = hr_pid(S->p);
    size_t bytes = S->b * sizeof **mine;
    for (int i = from; i < to; i++)
        for (int j = i; j >= 0; j--) {
            int peer = me ^ (1 << j);
            hr_sendrecv(S->p, peer, TAG_SORT, *mine, bytes, peer, TAG_SORT, theirs, bytes, NULL);
            merge_split(*mine, theirs, S->b, keeps_low(me, i, j), S->tmp);
            hr_compute(S->p, (double)S->b);
            hr_key *t = *mine;
            *mine = S->tmp;
            S->tmp = t;
        }
}

void hr_alg_sort_bitonic(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    sorter S = { .p = p, .s = inst };
    hr_cube c = hr__cube_of(p, "sort.bitonic");
    if (!equal_blocks(p, S.s, "sort.bitonic"))
        return;
    hr_key *mine = start(&S, 1, 0);
    hr_key *theirs = hr_malloc(p, (S.b ? S.b : 1) * sizeof *theirs);
    cube_stages(&S, &mine, theirs, 0, c.nu);
    finish(&S, mine);
}

/* ---- the RH ---------------------------------------------------------------------------------- */

typedef struct rh_sorter {
    sorter   S;
    hr_cube  c;
    int      me, bb, sb, low;
    int      at;          /* the SB that holds the BB's blocks (Phase II) */
    size_t   ns;          /* blocks a holder has: 2^n */
    hr_key  *mem;         /* ns blocks, block s = virtual (bb, s, low) */
    hr_key  *other;       /* ns blocks received */
} rh_sorter;

static int virt(const rh_sorter *R, int s) { return hr__cube_node(&R->c, R->bb, s, R->low); }
static hr_key *blk(const rh_sorter *R, hr_key *base, int s) { return base + (size_t)s * R->S.b; }

/* Move the BB's blocks from SB R->at to SB to, one SB bit at a time, lowest first. */
static void move_to(rh_sorter *R, int to)
{
    size_t bytes = R->ns * R->S.b * sizeof(hr_key);
    int shift = R->c.k - R->c.n;
    for (int t = 0; t < R->c.n; t++) {
        if (!(((R->at ^ to) >> t) & 1))
            continue;
        int next = R->at ^ (1 << t);
        if (R->sb == R->at)
            hr_send(R->S.p, R->me ^ (1 << (shift + t)), TAG_SORT, R->mem, bytes);
        else if (R->sb == next)
            hr_recv(R->S.p, R->me ^ (1 << (shift + t)), TAG_SORT, R->mem, bytes, NULL);
        R->at = next;
    }
}

/* Binomial gather of every SB's block to SB 0 (t up), or its reverse (t down). */
static void gather(rh_sorter *R, int back)
{
    int n = R->c.n, shift = R->c.k - R->c.n;
    size_t b = R->S.b;
    for (int q = 0; q < n; q++) {
        int t = back ? n - 1 - q : q;
        if (R->sb & ((1 << t) - 1))
            continue;                                  /* not a holder at this step */
        size_t part = ((size_t)1 << t) * b * sizeof(hr_key);
        int peer = R->me ^ (1 << (shift + t));
        hr_key *upper = R->mem + ((size_t)(R->sb | (1 << t)) * b);
        if ((R->sb >> t) & 1) {
            hr_key *own = R->mem + (size_t)R->sb * b;
            if (back)
                hr_recv(R->S.p, peer, TAG_SORT, own, part, NULL);
            else
                hr_send(R->S.p, peer, TAG_SORT, own, part);
        } else if (back)
            hr_send(R->S.p, peer, TAG_SORT, upper, part);
        else
            hr_recv(R->S.p, peer, TAG_SORT, upper, part, NULL);
    }
}

/* The comparators of stage i, dimension j, on the holders (the SB at). */
static void rh_dim(rh_sorter *R, int i, int j)
{
    const hr_cube *c = &R->c;
    size_t bytes = R->ns * R->S.b * sizeof(hr_key);
    int shift = c->k - c->n;
    if (j >= c->k) {                                   /* across BB dimension j - k */
        move_to(R, j - c->k);
        if (R->sb != R->at)
            return;
        int peer = R->me ^ (1 << j);
        hr_sendrecv(R->S.p, peer, TAG_SORT, R->mem, bytes, peer, TAG_SORT, R->other, bytes, NULL);
        for (int s = 0; s < (int)R->ns; s++)
            split_block(&R->S, blk(R, R->mem, s), blk(R, R->other, s), keeps_low(virt(R, s), i, j));
        return;
    }
    if (R->sb != R->at)
        return;
    if (j >= shift) {                                  /* an SB bit: both blocks are here */
        int bit = 1 << (j - shift);
        for (int s = 0; s < (int)R->ns; s++) {
            if (s & bit)
                continue;
            hr_key *lo = blk(R, R->mem, s), *hi = blk(R, R->mem, s | bit);
            int low = keeps_low(virt(R, s), i, j);
            hr_key *save = blk(R, R->other, s);
            memcpy(save, lo, R->S.b * sizeof *save);
            split_block(&R->S, lo, hi, low);           /* lo's new block from old lo, hi */
            split_block(&R->S, hi, save, !low);        /* hi's from old hi, old lo */
        }
        return;
    }
    int peer = R->me ^ (1 << j);                       /* a link of the SB */
    hr_sendrecv(R->S.p, peer, TAG_SORT, R->mem, bytes, peer, TAG_SORT, R->other, bytes, NULL);
    for (int s = 0; s < (int)R->ns; s++)
        split_block(&R->S, blk(R, R->mem, s), blk(R, R->other, s), keeps_low(virt(R, s), i, j));
}

void hr_alg_sort_rh_bitonic(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    rh_sorter R = { .S = { .p = p, .s = inst } };
    R.c = hr__cube_rh(p, "sort.rh_bitonic");
    R.me = hr_pid(p);
    R.bb = hr__cube_bb(&R.c, R.me);
    R.sb = hr__cube_sb(&R.c, R.me);
    R.low = hr__cube_low(&R.c, R.me);
    R.ns = (size_t)1 << R.c.n;
    if (!equal_blocks(p, R.S.s, "sort.rh_bitonic"))
        return;
    R.mem = start(&R.S, R.ns, (size_t)R.sb);
    R.other = hr_malloc(p, (R.ns * R.S.b > 0 ? R.ns * R.S.b : 1) * sizeof *R.other);
    hr_key *mine = blk(&R, R.mem, R.sb), *first = mine;
    cube_stages(&R.S, &mine, R.other, 0, R.c.k);      /* Phase I */
    if (mine != first) {                               /* the block back in its slot */
        memcpy(first, mine, R.S.b * sizeof *first);
        R.S.tmp = mine;
    }
    gather(&R, 0);
    R.at = 0;
    for (int i = R.c.k; i < R.c.nu; i++)               /* Phase II */
        for (int j = i; j >= 0; j--)
            rh_dim(&R, i, j);
    gather(&R, 1);                                     /* Phase III */
    finish(&R.S, blk(&R, R.mem, R.sb));
}
