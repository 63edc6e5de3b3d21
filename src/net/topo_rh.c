/* topo_rh.c: the reduced hypercube RH(k,n) of seed 004 (A. Mukherjee, NJIT 1994), sec. 1.3,
 * thesis pages 4-6: k-cube building blocks (BBs) joined as a 2^n-cube through one extra link a
 * node; minimal BB-by-BB routes; the dilation of the hypercube on the same nodes (sec. 1.3.1,
 * pages 6-9).
 *
 * The definition, as sec. 1.3 gives it. RH(k,n) has N = 2^(k + 2^n) nodes, k >= n and n > 0.
 * Node x's nu = k + 2^n bit address splits into the 0th field, its k low bits (its address in
 * its BB, a complete k-cube), and the 1st field, its 2^n high bits (its BB's address). The 0th
 * subfield is the n most significant bits of the 0th field (address bits k-n .. k-1); its value
 * m, 0 <= m <= 2^n - 1, is x's subblock (SB) address, an SB being a (k-n)-cube. x keeps k + 1
 * of its nu hypercube links: Set 1, the k links of dimensions 0 .. k-1 (its BB); Set 2, the one
 * link to the node whose address differs only in the m-th bit of the 1st field, address bit
 * k + m. Bits are numbered from the least significant, 0, as sec. 2.1 says ("the index of the
 * LSB in the node address is 0") and as sec. 2.1.2 uses it (the BB bit "with offset equal to
 * the value stored in the 0th subfield"); this module reads "the m-th bit of the 1st field" so.
 * A processor's id is its RH address, which is also its hypercube address (sec. 1.3.1: "nodes
 * from the regular hypercube are mapped to nodes of the RH with the same address").
 *
 * The route. The thesis moves data between BBs over the SB links, reaching in each BB the SB
 * that implements the dimension to cross (sec. 5.1.2: "the data elements are passed to the SB
 * implementing connections in that respective dimension"; the proof shape of the theorem in
 * sec. 1.3.1: to SB j, across dimension j, back), and inside a BB it uses e-cube routing (secs.
 * 5.1.1, 5.1.3). A route here is that: for each BB dimension j in which src's and dst's BBs
 * differ, e-cube inside the current BB to SB j (only SB bits change, lowest first), then the
 * SB link across dimension j (which keeps the 0th field); last, e-cube inside dst's BB to dst
 * (all k bits, lowest first). The thesis fixes no order of the BB dimensions for one message
 * (its sort and prefix take them in increasing order, a property of those algorithms, not a
 * route). Increasing order would go the long way: in RH(3,1) from 4 (SB 1) to 24 it would walk
 * 5 links where 3 suffice. So the order here is the one that makes the SB walk shortest (a
 * small travelling-salesman walk on the n-cube of SB addresses, by dynamic programming over
 * subsets, at most 2^n = 8 dimensions), ties to the lowest dimension first. Each differing BB
 * bit must be crossed at an SB-j node, crossing twice gains nothing, the other 0th-field bits
 * change only inside BBs: so every route is a shortest path (the tests check it against BFS).
 */
#include "net/topo_rh.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hremu/machine.h>

#include "util/sync.h"

#define RH_MAX_BB_DIMS (1 << HR_RH_MAX_N)   /* BB address bits, 2^n */
/* Dilations are measured from every node up to this p, and from one node of each translation
 * class above it (a breadth-first search from every node is O(p^2)). */
#define EVERY_NODE_MAX 4096

/* ------------------------------------------------------------------------------------------
 * Shape */

/* Check k and n and set *nu = k + 2^n; max_nu bounds nu (12 for a machine of HR_MAX_PROCS). */
static int check_shape(int k, int n, int max_nu, int *nu, char *why, size_t len)
{
    if (n < 1) {
        snprintf(why, len, "rh %d %d: n must be at least 1 (seed 004 sec. 1.3: k >= n, n > 0)",
                 k, n);
        return -1;
    }
    if (k < n) {
        snprintf(why, len, "rh %d %d: k = %d is less than n = %d; the subblock address is the "
                 "n high bits of a node's k-bit address in its building block, so RH(k,n) "
                 "needs k >= n >= 1 (seed 004 sec. 1.3)", k, n, k, n);
        return -1;
    }
    /* n > 30 would overflow 2^n; such a shape is far above any limit anyway. */
    long long v = n <= 30 ? (long long)k + (1LL << n) : LLONG_MAX;
    if (v > max_nu) {
        if (v <= 62)
            snprintf(why, len, "rh %d %d needs p = 2^(%d+2^%d) = 2^%lld = %lld processors, "
                     "more than %d", k, n, k, n, v, 1LL << v, 1 << max_nu);
        else
            snprintf(why, len, "rh %d %d needs p = 2^(%d+2^%d) processors, more than %d", k, n,
                     k, n, 1 << max_nu);
        return -1;
    }
    *nu = (int)v;
    return 0;
}

static int max_nu_of_machine(void)
{
    int nu = 0;
    while ((2 << nu) <= HR_MAX_PROCS)
        nu++;
    return nu;   /* 20: 2^20 */
}

/* Parse "K N" into k and n and check them for a machine; -1 with a reason. */
static int parse(const char *args, int *k, int *n, int *nu, char *why, size_t len)
{
    int v[2];
    int c = hr__topo_args(args, ' ', v, 2, why, len);
    if (c < 0)
        return -1;
    if (c != 2) {
        snprintf(why, len, "rh needs a shape 'K N' (e.g. rh 3 1), got '%.40s'", args);
        return -1;
    }
    *k = v[0];
    *n = v[1];
    return check_shape(*k, *n, max_nu_of_machine(), nu, why, len);
}

/* ------------------------------------------------------------------------------------------
 * Links */

static int sb_of(const hr_topo *t, int x)   /* m: the 0th subfield */
{
    int k = t->dims[0], n = t->dims[1];
    return (x >> (k - n)) & ((1 << n) - 1);
}

/* Set 1 (dimensions 0 .. k-1), then Set 2 (address bit k + m). */
static int rh_nbrs(const hr_topo *t, int x, int *out)
{
    int k = t->dims[0];
    for (int b = 0; b < k; b++)
        out[b] = x ^ (1 << b);
    out[k] = x ^ (1 << (k + sb_of(t, x)));
    return k + 1;
}

/* ------------------------------------------------------------------------------------------
 * Routes */

static int ham(unsigned a, unsigned b)
{
    return __builtin_popcount(a ^ b);
}

/* The shortest walk on the n-cube of SB addresses from a that visits every BB dimension in
 * dmask (as an SB address) and ends at b; its length, and in order (NULL: not wanted) the
 * dimensions in visiting order, ties to the lowest dimension first. f[S][i] is the shortest
 * walk from dim[i] through every dim[j], j in S, to b (i not in S). */
static int plan(unsigned a, unsigned dmask, unsigned b, int *order)
{
    int dim[RH_MAX_BB_DIMS], c = 0;
    for (int j = 0; j < RH_MAX_BB_DIMS; j++)
        if (dmask >> j & 1)
            dim[c++] = j;
    if (c == 0)
        return ham(a, b);
    unsigned char f[1 << RH_MAX_BB_DIMS][RH_MAX_BB_DIMS];
    unsigned full = (1u << c) - 1;
    for (unsigned s = 0; s <= full; s++)
        for (int i = 0; i < c; i++) {
            if (s >> i & 1)
                continue;
            int best = s == 0 ? ham((unsigned)dim[i], b) : INT_MAX;
            for (int j = 0; j < c; j++)
                if (s >> j & 1) {
                    int w = ham((unsigned)dim[i], (unsigned)dim[j]) + f[s & ~(1u << j)][j];
                    if (w < best)
                        best = w;
                }
            f[s][i] = (unsigned char)best;
        }
    /* From a, with every dimension left: the cost of each first choice, then follow it. */
    unsigned s = full, cur = a;
    int total = INT_MAX;
    for (int j = 0; j < c; j++) {
        int w = ham(a, (unsigned)dim[j]) + f[full & ~(1u << j)][j];
        if (w < total)
            total = w;
    }
    if (order != NULL) {
        int left = total;
        for (int step = 0; step < c; step++) {
            int j = 0;
            while (!(s >> j & 1) ||
                   ham(cur, (unsigned)dim[j]) + f[s & ~(1u << j)][j] != left)
                j++;
            order[step] = dim[j];
            left -= ham(cur, (unsigned)dim[j]);
            cur = (unsigned)dim[j];
            s &= ~(1u << j);
        }
    }
    return total;
}

static int rh_hops(const hr_topo *t, int src, int dst)
{
    int k = t->dims[0], n = t->dims[1];
    unsigned diff = (unsigned)(src ^ dst);
    unsigned low = diff & ((1u << (k - n)) - 1);   /* 0th-field bits below the SB address */
    unsigned bb = diff >> k;
    return __builtin_popcount(low) + __builtin_popcount(bb) +
           plan((unsigned)sb_of(t, src), bb, (unsigned)sb_of(t, dst), NULL);
}

/* e-cube inside the BB: from *cur, flip the bits of mask where *cur and target differ, lowest
 * first, appending each link. */
static int ecube(const hr_topo *t, int *cur, int target, int mask, int *links, int nl)
{
    for (unsigned d = (unsigned)((*cur ^ target) & mask); d != 0; d &= d - 1) {
        int v = *cur ^ (int)(d & -d);
        links[nl++] = hr__topo_link(t, *cur, v);
        *cur = v;
    }
    return nl;
}

static int rh_route(const hr_topo *t, int src, int dst, int *links)
{
    int k = t->dims[0], n = t->dims[1];
    int sbmask = ((1 << n) - 1) << (k - n);
    unsigned bb = (unsigned)(src ^ dst) >> k;
    int order[RH_MAX_BB_DIMS];
    plan((unsigned)sb_of(t, src), bb, (unsigned)sb_of(t, dst), order);
    int cur = src, nl = 0;
    for (int i = 0, c = __builtin_popcount(bb); i < c; i++) {
        nl = ecube(t, &cur, order[i] << (k - n), sbmask, links, nl);   /* to SB order[i] */
        int v = cur ^ (1 << (k + order[i]));                            /* the SB link */
        links[nl++] = hr__topo_link(t, cur, v);
        cur = v;
    }
    nl = ecube(t, &cur, dst, (1 << k) - 1, links, nl);
    HR_ASSERT(cur == dst && nl <= t->max_route);
    return nl;
}

/* The longest route: the k-n low bits, plus the longest BB crossings and SB walk over every
 * pair of SB addresses and set of BB dimensions. Routes are shortest paths, so this is the
 * diameter. */
static int longest_route(int k, int n)
{
    int sbs = 1 << n, best = 0;
    for (unsigned a = 0; a < (unsigned)sbs; a++)
        for (unsigned b = 0; b < (unsigned)sbs; b++)
            for (unsigned d = 0; d < (1u << sbs); d++) {
                int h = __builtin_popcount(d) + plan(a, d, b, NULL);
                if (h > best)
                    best = h;
            }
    return (k - n) + best;
}

/* ------------------------------------------------------------------------------------------
 * Making an instance */

static int build(hr_topo *t, int k, int n, int nu, char *why, size_t len)
{
    t->row = &hr__topo_rh;
    t->p = 1 << nu;
    t->nodes = t->p;
    t->dims[0] = k;
    t->dims[1] = n;
    t->ndims = 2;
    snprintf(t->shape, sizeof t->shape, "rh %d %d", k, n);
    t->route = rh_route;
    t->hops = rh_hops;
    t->max_route = longest_route(k, n);
    if (hr__topo_links(t, rh_nbrs) != 0) {
        snprintf(why, len, "out of memory for the links of rh %d %d", k, n);
        return -1;
    }
    return 0;
}

static int rh_procs(const char *args, char *why, size_t len)
{
    int k, n, nu;
    if (parse(args, &k, &n, &nu, why, len) != 0)
        return -1;
    return 1 << nu;
}

static int rh_make(hr_topo *t, const char *args, int p, char *why, size_t len)
{
    int k, n, nu;
    if (parse(args, &k, &n, &nu, why, len) != 0)
        return -1;
    if (p != 1 << nu) {
        snprintf(why, len, "rh %d %d needs p = 2^(%d+2^%d) = %d processors (it is %d)", k, n, k,
                 n, 1 << nu, p);
        return -1;
    }
    return build(t, k, n, nu, why, len);
}

int hr__rh_new(int k, int n, hr_topo **out, char *why, size_t len)
{
    int nu;
    if (check_shape(k, n, HR_RH_MAX_NU, &nu, why, len) != 0)
        return -1;
    hr_topo *t = calloc(1, sizeof *t);
    if (t == NULL) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    if (build(t, k, n, nu, why, len) != 0) {
        hr__topo_destroy(t);
        return -1;
    }
    *out = t;
    return 0;
}

const hr_topology hr__topo_rh = {
    .name = "rh",
    .syntax = "rh K N",
    .summary = "reduced hypercube RH(K,N), p = 2^(K+2^N): K-cube blocks joined as a 2^N-cube, "
               "shortest routes (seed 004 sec. 1.3)",
    .procs = rh_procs,   /* 2^(K+2^N); needs K >= N >= 1 */
    .make = rh_make,
};

/* ------------------------------------------------------------------------------------------
 * Dilation of the hypercube (sec. 1.3.1) */

/* The class of dimension j at node x (see topo_rh.h). */
static int dim_class(const hr_topo *t, int x, int j)
{
    int k = t->dims[0];
    return j < k ? 0 : 1 + ham((unsigned)(j - k), (unsigned)sb_of(t, x));
}

/* Whether every translation x -> x ^ a with zero SB bits maps each link to a link: checked for
 * the generators, a = one bit outside the SB address. */
static int translations_preserve_links(const hr_topo *t, int nu)
{
    int k = t->dims[0], n = t->dims[1];
    for (int b = 0; b < nu; b++) {
        if (b >= k - n && b < k)
            continue;
        for (int l = 0; l < t->nlinks; l++)
            if (hr__topo_link(t, t->from[l] ^ (1 << b), t->to[l] ^ (1 << b)) < 0)
                return 0;
    }
    return 1;
}

/* BFS from src until every hypercube neighbour of src is reached; their distances into dil
 * (by dimension). dist is all -1 on entry and on return; queue has room for p. */
static int bfs_dilations(const hr_topo *t, int nu, int src, int *dist, int *queue, int *dil)
{
    int head = 0, tail = 0, found = 0;
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail && found < nu) {
        int u = queue[head++];
        for (int l = t->first[u]; l < t->first[u + 1]; l++) {
            int v = t->to[l];
            if (dist[v] >= 0)
                continue;
            dist[v] = dist[u] + 1;
            queue[tail++] = v;
            unsigned d = (unsigned)(v ^ src);
            if ((d & (d - 1)) == 0) {
                dil[__builtin_ctz(d)] = dist[v];
                found++;
            }
        }
    }
    for (int i = 0; i < tail; i++)
        dist[queue[i]] = -1;
    return found == nu ? 0 : -1;
}

int hr__rh_dilation_of(const hr_topo *t, int every_node, hr_rh_dilation *d)
{
    if (t == NULL || t->row != &hr__topo_rh || t->dims[1] > HR_RH_MAX_N)
        return -1;
    int k = t->dims[0], n = t->dims[1], nu = k + (1 << n), p = t->p;
    if (nu > HR_RH_MAX_NU || p != 1 << nu)
        return -1;
    if (!every_node && !translations_preserve_links(t, nu))
        return -1;
    int *dist = malloc((size_t)p * sizeof *dist);
    int *queue = malloc((size_t)p * sizeof *queue);
    if (dist == NULL || queue == NULL) {
        free(dist);
        free(queue);
        return -1;
    }
    for (int x = 0; x < p; x++)
        dist[x] = -1;
    memset(d, 0, sizeof *d);
    for (int c = 0; c < n + 2; c++) {
        d->class_min[c] = INT_MAX;
        d->class_max[c] = 0;
    }
    /* Every node, or one of each translation class: the node whose only set bits are its SB
     * address; each stands for p / 2^n nodes, all with the same dilations. */
    int nsrc = every_node ? p : 1 << n, weight = every_node ? 1 : p >> n;
    double dim_sum[HR_RH_MAX_NU] = { 0 }, sum = 0;
    int hist[HR_RH_MAX_DIL + 1];
    int err = 0;
    d->uniform = 1;
    for (int s = 0; s < nsrc && err == 0; s++) {
        int x = every_node ? s : s << (k - n);
        int dil[HR_RH_MAX_NU];
        if (bfs_dilations(t, nu, x, dist, queue, dil) != 0) {
            err = -1;
            break;
        }
        memset(hist, 0, sizeof hist);
        for (int j = 0; j < nu; j++) {
            if (dil[j] > HR_RH_MAX_DIL) {
                err = -1;
                break;
            }
            hist[dil[j]]++;
            sum += (double)dil[j] * weight;
            dim_sum[j] += (double)dil[j] * weight;
            if (dil[j] > d->max)
                d->max = dil[j];
            if (dil[j] > d->dim_max[j])
                d->dim_max[j] = dil[j];
            int c = dim_class(t, x, j);
            if (dil[j] < d->class_min[c])
                d->class_min[c] = dil[j];
            if (dil[j] > d->class_max[c])
                d->class_max[c] = dil[j];
        }
        if (s == 0)
            memcpy(d->per_node, hist, sizeof hist);
        else if (memcmp(d->per_node, hist, sizeof hist) != 0)
            d->uniform = 0;
    }
    free(dist);
    free(queue);
    if (err != 0)
        return -1;
    /* Each edge is counted from both ends, which leaves the means unchanged. */
    d->sources = nsrc;
    d->avg = sum / ((double)p * nu);
    for (int j = 0; j < nu; j++)
        d->dim_avg[j] = dim_sum[j] / p;
    for (int j = 0; j < nu; j++)
        d->class_count[dim_class(t, 0, j)]++;
    return 0;
}

int hr__rh_dilation(const hr_topo *t, int *max, double *avg)
{
    hr_rh_dilation d;
    if (t == NULL || hr__rh_dilation_of(t, t->p <= EVERY_NODE_MAX, &d) != 0)
        return -1;
    *max = d.max;
    *avg = d.avg;
    return 0;
}
