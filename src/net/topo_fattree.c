/* topo_fattree.c: the CM-5 data network (seed 001 section 2): a 4-ary fat tree with the
 * processors at the leaves, clusters of 4 and 16, and per-level bandwidth. A message goes up to
 * the nearest common ancestor of its two ends and down again.
 *
 * Nodes. The processors are nodes 0 .. p-1 (level 0). Above them sit L levels of switches,
 * numbered level by level from the bottom: level k (1 .. L) has ceil(p / 4^k) switches, and
 * switch j of level k is the node base(k) + j, base(1) = p, base(k+1) = base(k) + ceil(p / 4^k).
 * Switch j of level k is the parent of nodes 4j .. 4j+3 of level k-1 (those that exist), so
 * processor x lies below switch x >> 2k of level k: the clusters of 4 are the level-1 switches,
 * the clusters of 16 the level-2 switches. L is the least height with 4^L >= p (no switch for
 * p = 1), so the root is the one switch of level L. t->nodes = p + all switches, t->dims =
 * { 4, L }.
 *
 * Any p from 1 up fits: the leaves fill from the left, and the tree's last subtree at each level
 * is the one partly filled (p = 40: clusters of 4 0..9, clusters of 16 0..2, the third holding
 * processors 32..39). The CM-5 was partitioned in 32, 64, ... processors (seed 001: "the nodes
 * can be organized into a single partition or multiple partitions"); a partition of 32 is two
 * full clusters of 16 under a root that could hold four.
 *
 * Links. Every tree edge is two directed links, child to parent and back; a node's out-links are
 * its children in order, then its parent (children have lower ids, the parent a higher one), so
 * the link up from u is first[u+1]-1 and the link from switch s down to its child number c
 * (0 .. 3) is first[s]+c. No search is needed to route.
 *
 * Fatness as bandwidth. Seed 001: "Both data and control networks have a peak bandwidth of 20
 * MBytes/Sec. The maximum bandwidth is obtained when communication takes place among nodes in
 * the same cluster of four processors." and "The data network guarantees a system-wide minimum
 * bandwidth of 5 MBytes/sec no matter where the data is being sent in the system." The CM-5's
 * further figure, 10 MB/s inside a cluster of 16, completes the list: per processor, b1 = 20
 * MB/s inside a cluster of 4, b2 = 10 MB/s inside a cluster of 16, b3 = 5 MB/s anywhere, and
 * above that b stays at the last value (the guarantee holds system-wide). These are figures per
 * processor when every processor sends at once, so the tree must grow fatter going up: the CM-5
 * has more parallel wires per edge higher up. Here the parallel wires of one edge are one link
 * whose bandwidth is their sum: the edge from a level k-1 node up to its level-k switch (an
 * "edge of level k") carries, both ways,
 *
 *     bw = b_k * 4^(k-1)      bytes/s, 4^(k-1) being the processors below a full such node.
 *
 * Level 1: 20 MB/s from each processor to its cluster switch. Level 2: 10 MB/s * 4 = 40 MB/s
 * from a cluster of 4 up, shared by its 4 processors when all leave the cluster at once: 10 MB/s
 * each. Level 3: 5 MB/s * 16 = 80 MB/s from a cluster of 16 up, shared by its 16 processors: 5
 * MB/s each; level 4 5 MB/s * 64 = 320 MB/s, and so on. A message whose nearest common ancestor
 * is at level k crosses edges of levels 1 .. k both ways, so under full load it gets min(b_1 ..
 * b_k) per processor: 20, 10, 5 MB/s for k = 1, 2, >= 3. A lone message is held back only by
 * its slowest link, b_1 = 20 MB/s wherever it goes (b_k * 4^(k-1) >= b_1 at every level with
 * these figures): the seed's "peak" alone, its "minimum" under full load.
 *
 * A partly filled subtree keeps the links of a full one (the switches are the same hardware), so
 * its processors get at least b_k each. The engine must charge a link for the bytes at that
 * link's rate (m / bw[l], as store-and-forward does): the bandwidth of a fat link is shared by
 * the messages that cross it, and holding it for m / (slowest link of the route) would give a
 * cluster of 16 a quarter of its 80 MB/s.
 *
 * Routing. A tree has one path between two nodes: up from src to the nearest common ancestor
 * (the level k of the highest bit pair in which src and dst differ), then down to dst; 2k links.
 * The CM-5 router picks among an edge's parallel wires at random (seed 001: "The CM-5 router
 * employs a random routing scheme"); with the wires merged into one link there is no choice
 * left, and the route is deterministic.
 *
 * Bandwidths come from the shape: "fattree" (20M 10M 5M), or "fattree B1 B2 ...", bytes per
 * second per processor at levels 1, 2, ..., separated by spaces or commas, each a number with
 * an optional decimal suffix K (1e3), M (1e6) or G (1e9): rates are decimal, like the cm5 cost
 * preset's 20e6 bytes/s (sizes in bytes use x1024 elsewhere). Levels past the last value repeat
 * it; more values than the tallest tree has levels are refused.
 */
#include "net/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hremu/machine.h>

#define FT_ARITY 4
#define FT_MAX_LEVELS 10  /* 4^10 = 2^20 leaves */
_Static_assert(HR_MAX_PROCS <= 1 << (2 * FT_MAX_LEVELS), "FT_MAX_LEVELS must hold HR_MAX_PROCS leaves");

/* Per-processor bandwidth at each level, bytes/s, when the shape gives none (seed 001). */
static const double ft_default_bw[] = { 20e6, 10e6, 5e6 };
#define FT_NDEFAULT ((int)(sizeof ft_default_bw / sizeof ft_default_bw[0]))

/* Link rates outside [FT_BW_MIN, FT_BW_MAX] bytes/s are refused: the model clock counts
 * picoseconds per byte, and a typo like "20" for "20M" is better caught than run. */
#define FT_BW_MIN 1e3
#define FT_BW_MAX 1e15

/* The switches' height for p processors: the least L with 4^L >= p (0 for p = 1). */
static int ft_levels(int p)
{
    int L = 0;
    for (long cap = 1; cap < p; cap *= FT_ARITY)
        L++;
    return L;
}

/* Nodes of level k (0: the processors) on p processors: ceil(p / 4^k). */
static int ft_count(int p, int k)
{
    long cap = 1L << (2 * k);
    return (int)((p + cap - 1) / cap);
}

/* The first node id of level k. */
static int ft_base(int p, int k)
{
    int b = 0;
    for (int j = 0; j < k; j++)
        b += ft_count(p, j);
    return b;
}

/* Parse the shape's per-level bandwidths into bw (room for FT_MAX_LEVELS): their number, 0 for
 * none, or -1 with a reason in why. */
static int ft_parse(const char *args, double *bw, char *why, size_t len)
{
    const char *s = args;
    int n = 0;
    for (;;) {
        s += strspn(s, " \t");
        if (*s == '\0')
            break;
        if (n == FT_MAX_LEVELS) {
            snprintf(why, len, "fattree '%.60s': more than %d levels of bandwidth", args,
                     FT_MAX_LEVELS);
            return -1;
        }
        /* A plain decimal number: strtod alone would also take "inf", "nan" and hex. */
        size_t span = strspn(s, "0123456789.eE+-");
        if (span == 0 || ((*s < '0' || *s > '9') && *s != '.')) {
            snprintf(why, len, "fattree '%.60s': expected a bandwidth (bytes/s, e.g. 20M) at "
                     "'%.20s'", args, s);
            return -1;
        }
        char num[64], *end;
        if (span >= sizeof num) {
            snprintf(why, len, "fattree '%.60s': a number too long at '%.20s'", args, s);
            return -1;
        }
        memcpy(num, s, span);
        num[span] = '\0';
        double v = strtod(num, &end);
        if (*end != '\0') {
            snprintf(why, len, "fattree '%.60s': not a number: '%.20s'", args, num);
            return -1;
        }
        s += span;
        switch (*s) {
        case 'K': v *= 1e3; s++; break;
        case 'M': v *= 1e6; s++; break;
        case 'G': v *= 1e9; s++; break;
        default: break;
        }
        if (*s != '\0' && *s != ' ' && *s != '\t' && *s != ',') {
            snprintf(why, len, "fattree '%.60s': unexpected '%.20s' (suffixes: K, M, G)", args,
                     s);
            return -1;
        }
        if (!(v >= FT_BW_MIN && v <= FT_BW_MAX)) {
            snprintf(why, len, "fattree '%.60s': bandwidth %g bytes/s out of range %g .. %g",
                     args, v, FT_BW_MIN, FT_BW_MAX);
            return -1;
        }
        bw[n++] = v;
        s += strspn(s, " \t");
        if (*s == ',') {
            s++;
            s += strspn(s, " \t");
            if (*s == '\0' || *s == ',') {
                snprintf(why, len, "fattree '%.60s': a comma with no bandwidth after it", args);
                return -1;
            }
        }
    }
    return n;
}

static int fattree_procs(const char *args, char *why, size_t len)
{
    double bw[FT_MAX_LEVELS];
    return ft_parse(args, bw, why, len) < 0 ? -1 : 0;   /* any p: the shape fixes none */
}

/* Node u's level (0 for a processor) and its index within the level. */
static int ft_locate(const hr_topo *t, int u, int *idx)
{
    int k = 0, base = 0;
    for (int c; u >= base + (c = ft_count(t->p, k)); k++)
        base += c;
    *idx = u - base;
    return k;
}

static int fattree_nbrs(const hr_topo *t, int u, int *out)
{
    int i, k = ft_locate(t, u, &i), n = 0;
    if (k > 0) {
        int below = ft_base(t->p, k - 1), nbelow = ft_count(t->p, k - 1);
        for (int c = FT_ARITY * i; c < FT_ARITY * i + FT_ARITY && c < nbelow; c++)
            out[n++] = below + c;
    }
    if (k < t->dims[1])
        out[n++] = ft_base(t->p, k + 1) + i / FT_ARITY;
    return n;
}

/* The level of src and dst's nearest common ancestor: that of their highest differing bit
 * pair (0 when src == dst). */
static int ft_meet(int src, int dst)
{
    unsigned diff = (unsigned)(src ^ dst);
    return diff == 0 ? 0 : (31 - __builtin_clz(diff)) / 2 + 1;
}

static int fattree_hops(const hr_topo *t, int src, int dst)
{
    (void)t;
    return 2 * ft_meet(src, dst);
}

static int fattree_route(const hr_topo *t, int src, int dst, int *links)
{
    int top = ft_meet(src, dst), n = 0;
    /* Up: from src's ancestor at level j to its parent, the last of its out-links. */
    for (int j = 0, base = 0; j < top; base += ft_count(t->p, j), j++) {
        int u = base + (src >> (2 * j));
        links[n++] = t->first[u + 1] - 1;
    }
    /* Down: from dst's ancestor at level j+1 to its child number (dst >> 2j) mod 4. */
    for (int j = top - 1; j >= 0; j--) {
        int s = ft_base(t->p, j + 1) + (dst >> (2 * (j + 1)));
        links[n++] = t->first[s] + ((dst >> (2 * j)) & (FT_ARITY - 1));
    }
    return n;
}

static int fattree_make(hr_topo *t, const char *args, int p, char *why, size_t len)
{
    double per[FT_MAX_LEVELS];
    int nper = ft_parse(args, per, why, len);
    if (nper < 0)
        return -1;
    int L = ft_levels(p);
    if (nper == 0) {
        memcpy(per, ft_default_bw, sizeof ft_default_bw);
        nper = FT_NDEFAULT;
        snprintf(t->shape, sizeof t->shape, "fattree");
    } else {
        int at = snprintf(t->shape, sizeof t->shape, "fattree");
        for (int k = 0; k < nper && at < (int)sizeof t->shape; k++)
            at += snprintf(t->shape + at, sizeof t->shape - (size_t)at, " %.10gM", per[k] / 1e6);
    }
    t->p = p;
    t->nodes = ft_base(p, L + 1);
    t->dims[0] = FT_ARITY;
    t->dims[1] = L;
    t->ndims = 2;
    t->route = fattree_route;
    t->hops = fattree_hops;
    t->max_route = L > 0 ? 2 * L : 1;
    if (hr__topo_links(t, fattree_nbrs) != 0)
        goto nomem;
    t->bw = malloc((size_t)(t->nlinks > 0 ? t->nlinks : 1) * sizeof *t->bw);
    if (t->bw == NULL)
        goto nomem;
    /* An edge's level is its upper end's; both its links carry b_k times the processors a full
     * node at its lower end holds. */
    for (int l = 0; l < t->nlinks; l++) {
        int i, k = ft_locate(t, t->from[l] > t->to[l] ? t->from[l] : t->to[l], &i);
        double b = per[(k < nper ? k : nper) - 1];
        t->bw[l] = b * (double)(1L << (2 * (k - 1)));
    }
    return 0;
nomem:
    snprintf(why, len, "out of memory for the fat tree's links");
    return -1;   /* hr__topo_make frees what was allocated */
}

const hr_topology hr__topo_fattree = {
    .name = "fattree",
    .syntax = "fattree [B1 B2 B3 ...]",
    .summary = "CM-5 data network: 4-ary fat tree, 20/10/5 MB/s per processor inside 4, 16, all "
               "(seed 001)",
    .procs = fattree_procs,   /* any p; the args are bytes/s per processor, level by level */
    .make = fattree_make,     /* switches are nodes p .. nodes-1 */
};
