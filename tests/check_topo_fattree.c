/* check_topo_fattree.c: the CM-5 fat tree (net/topo_fattree.c): node and link counts worked out
 * by hand, the link arrays' invariants, routes that are valid minimal paths through the nearest
 * common ancestor, per-level bandwidths and what they give an all-to-all, bad shapes. */
#include "hr_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/topology.h"

/* Fail with a message when cond holds. The loops below check millions of facts: a ck_assert
 * records its location through Check's channel every time, this only on failure. */
#define FAILIF(cond, ...)                 \
    do {                                  \
        if (cond)                         \
            ck_abort_msg(__VA_ARGS__);    \
    } while (0)

/* The level of the smallest cluster holding both processors: 0 if a == b, 1 inside a cluster
 * of 4, 2 inside 16, ... (by division, independent of the file's bit arithmetic). */
static int cluster_level(int a, int b)
{
    int k = 0;
    while (a != b) {
        a /= 4;
        b /= 4;
        k++;
    }
    return k;
}

/* Processors below node u: u itself for a processor, else the sum over its children, the
 * neighbours one level down (those whose only way to the root leads through u). */
static int leaves_below(const hr_topo *t, int u, const int *depth)
{
    if (u < t->p)
        return 1;
    int n = 0;
    for (int l = t->first[u]; l < t->first[u + 1]; l++)
        if (depth[t->to[l]] > depth[u])
            n += leaves_below(t, t->to[l], depth);
    return n;
}

START_TEST(test_topo_fattree_counts)
{
    /* p, nodes, directed links, switch levels. Nodes: p processors + ceil(p/4) + ceil(p/16)
     * + ... up to the one root; a tree has nodes - 1 edges, each two links. */
    static const struct { int p, nodes, nlinks, levels; } cases[] = {
        { 1, 1, 0, 0 },                      /* no switch */
        { 2, 3, 4, 1 },                      /* one switch, two leaves */
        { 4, 5, 8, 1 },                      /* 4 + 1 */
        { 5, 8, 14, 2 },                     /* 5 + 2 + 1 */
        { 16, 21, 40, 2 },                   /* 16 + 4 + 1 */
        { 17, 25, 48, 3 },                   /* 17 + 5 + 2 + 1 */
        { 40, 54, 106, 3 },                  /* 40 + 10 + 3 + 1 */
        { 64, 85, 168, 3 },                  /* 64 + 16 + 4 + 1 */
        { 4096, 5461, 10920, 6 },            /* 4096 + 1024 + 256 + 64 + 16 + 4 + 1 */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        hr_topo *t = hr_test_topo("fattree", cases[c].p);
        ck_assert_int_eq(t->p, cases[c].p);
        ck_assert_int_eq(t->nodes, cases[c].nodes);
        ck_assert_int_eq(t->nlinks, cases[c].nlinks);
        ck_assert_int_eq(t->ndims, 2);
        ck_assert_int_eq(t->dims[0], 4);
        ck_assert_int_eq(t->dims[1], cases[c].levels);
        ck_assert_int_eq(t->max_route, (cases[c].levels > 0 ? 2 * cases[c].levels : 1));
        ck_assert_str_eq(t->shape, "fattree");
        ck_assert_ptr_nonnull(t->bw);
        hr__topo_destroy(t);
    }
}
END_TEST

START_TEST(test_topo_fattree_degrees)
{
    /* p = 40: processors have one link (to their cluster of 4); the ten clusters of 4 are full
     * (4 children and a parent); clusters of 16: two full, the third holds processors 32..39,
     * two clusters of 4, and its parent; the root has the three clusters of 16. */
    hr_topo *t = hr_test_topo("fattree", 40);
    int hist[8] = { 0 };
    for (int u = 0; u < t->nodes; u++) {
        int d = t->first[u + 1] - t->first[u];
        ck_assert_int_lt(d, 8);
        hist[d]++;
        if (u < t->p) {
            ck_assert_int_eq(d, 1);
            ck_assert_int_ge(t->to[t->first[u]], t->p);   /* a processor's neighbour is a switch */
        }
    }
    ck_assert_int_eq(hist[1], 40);
    ck_assert_int_eq(hist[3], 2);    /* the partly filled cluster of 16, and the root */
    ck_assert_int_eq(hist[5], 12);   /* ten clusters of 4, two clusters of 16 */
    ck_assert_int_eq(hist[0] + hist[2] + hist[4] + hist[6] + hist[7], 0);
    hr__topo_destroy(t);

    /* p = 64: every switch but the root has 4 children and a parent; the root has 4. */
    t = hr_test_topo("fattree", 64);
    for (int u = t->p; u < t->nodes; u++)
        ck_assert_int_eq(t->first[u + 1] - t->first[u], u == t->nodes - 1 ? 4 : 5);
    hr__topo_destroy(t);
}
END_TEST

START_TEST(test_topo_fattree_links)
{
    static const int ps[] = { 1, 2, 4, 5, 16, 17, 40, 64, 1000 };
    for (size_t c = 0; c < sizeof ps / sizeof ps[0]; c++) {
        hr_topo *t = hr_test_topo("fattree", ps[c]);
        ck_assert_int_eq(t->nlinks, 2 * (t->nodes - 1));   /* a tree */
        ck_assert_int_eq(t->first[0], 0);
        ck_assert_int_eq(t->first[t->nodes], t->nlinks);
        for (int u = 0; u < t->nodes; u++) {
            FAILIF(t->first[u] > t->first[u + 1], "p=%d: first[] falls at %d", t->p, u);
            for (int l = t->first[u]; l < t->first[u + 1]; l++) {
                FAILIF(t->from[l] != u, "p=%d link %d: from %d, not %d", t->p, l, t->from[l], u);
                FAILIF(t->to[l] < 0 || t->to[l] >= t->nodes || t->to[l] == u,
                       "p=%d link %d: to %d", t->p, l, t->to[l]);
                FAILIF(l > t->first[u] && t->to[l - 1] >= t->to[l],
                       "p=%d node %d: links unsorted or parallel", t->p, u);
                int r = hr__topo_link(t, t->to[l], u);
                FAILIF(r < 0, "p=%d link %d->%d: no reverse", t->p, u, t->to[l]);
                FAILIF(t->bw[r] != t->bw[l] || !(t->bw[l] > 0), "p=%d link %d->%d: bw %g, back %g",
                       t->p, u, t->to[l], t->bw[l], t->bw[r]);
            }
        }
        /* Connected: every node reachable from processor 0. */
        int *dist = malloc((size_t)t->nodes * sizeof *dist);
        int *queue = malloc((size_t)t->nodes * sizeof *queue);
        ck_assert(dist != NULL && queue != NULL);
        hr__topo_bfs(t, 0, dist, queue);
        for (int v = 0; v < t->nodes; v++)
            FAILIF(dist[v] < 0, "p=%d: node %d unreachable", t->p, v);
        free(dist);
        free(queue);
        hr__topo_destroy(t);
    }
}
END_TEST

START_TEST(test_topo_fattree_routes)
{
    static const int ps[] = { 1, 2, 3, 4, 5, 16, 17, 40, 64, 100, 256 };
    for (size_t c = 0; c < sizeof ps / sizeof ps[0]; c++) {
        hr_topo *t = hr_test_topo("fattree", ps[c]);
        int p = t->p;
        int *dist = malloc((size_t)t->nodes * sizeof *dist);
        int *queue = malloc((size_t)t->nodes * sizeof *queue);
        int *links = malloc((size_t)t->max_route * sizeof *links);
        int *again = malloc((size_t)t->max_route * sizeof *again);
        ck_assert(dist != NULL && queue != NULL && links != NULL && again != NULL);
        for (int src = 0; src < p; src++) {
            hr__topo_bfs(t, src, dist, queue);
            for (int dst = 0; dst < p; dst++) {
                int n = t->route(t, src, dst, links);
                FAILIF(n != 2 * cluster_level(src, dst), "p=%d %d->%d: %d links", p, src, dst,
                       n);
                FAILIF(n != dist[dst], "p=%d %d->%d: %d links, %d apart", p, src, dst, n,
                       dist[dst]);                                  /* minimal */
                FAILIF(n > t->max_route, "p=%d %d->%d: longer than max_route", p, src, dst);
                FAILIF(hr__topo_hops(t, src, dst) != n, "p=%d %d->%d: hops", p, src, dst);
                int u = src;
                for (int i = 0; i < n; i++) {
                    FAILIF(links[i] < 0 || links[i] >= t->nlinks, "p=%d %d->%d: link %d", p,
                           src, dst, links[i]);
                    FAILIF(t->from[links[i]] != u, "p=%d %d->%d: link %d does not chain", p,
                           src, dst, i);                            /* the links chain */
                    u = t->to[links[i]];
                    FAILIF(i < n - 1 && u < p, "p=%d %d->%d: processor %d forwards", p, src,
                           dst, u);                                 /* only switches forward */
                }
                FAILIF(u != dst, "p=%d %d->%d: ends at %d", p, src, dst, u);
                FAILIF(t->route(t, src, dst, again) != n ||
                       memcmp(links, again, (size_t)n * sizeof *links) != 0,
                       "p=%d %d->%d: not deterministic", p, src, dst);
            }
        }
        free(dist);
        free(queue);
        free(links);
        free(again);
        hr__topo_destroy(t);
    }
}
END_TEST

START_TEST(test_topo_fattree_up_then_down)
{
    /* p = 64, 5 -> 62: up through cluster of 4 number 1 (node 64 + 1), cluster of 16 number 0
     * (node 80 + 0) to the root (84), down through cluster of 16 number 3 (83) and cluster of
     * 4 number 15 (79). */
    hr_topo *t = hr_test_topo("fattree", 64);
    static const int path[] = { 5, 65, 80, 84, 83, 79, 62 };
    int links[6];
    ck_assert_int_eq(t->route(t, 5, 62, links), 6);
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(t->from[links[i]], path[i]);
        ck_assert_int_eq(t->to[links[i]], path[i + 1]);
    }
    /* Inside a cluster of 4: 2 links; inside a cluster of 16: 4. */
    ck_assert_int_eq(t->route(t, 12, 15, links), 2);
    ck_assert_int_eq(t->to[links[0]], 64 + 3);
    ck_assert_int_eq(t->route(t, 16, 31, links), 4);
    ck_assert_int_eq(t->to[links[1]], 80 + 1);
    hr__topo_destroy(t);
}
END_TEST

/* Up-link bandwidth of the edge from a level k-1 node to its parent (k = 1 .. levels), checked
 * on every such edge against per-processor figures b[k-1] times the processors below a full
 * node. depth[] is each node's distance from the root. */
static void check_level_bw(const hr_topo *t, const double *b, int nb)
{
    int *depth = malloc((size_t)t->nodes * sizeof *depth);
    int *queue = malloc((size_t)t->nodes * sizeof *queue);
    ck_assert(depth != NULL && queue != NULL);
    int root = t->nodes - 1, L = t->dims[1];
    hr__topo_bfs(t, root, depth, queue);
    for (int l = 0; l < t->nlinks; l++) {
        int lo = depth[t->from[l]] > depth[t->to[l]] ? t->from[l] : t->to[l];
        int k = L - depth[lo] + 1;   /* the upper end's level */
        double full = 1;
        for (int j = 1; j < k; j++)
            full *= 4;
        double bk = b[(k < nb ? k : nb) - 1];
        FAILIF(t->bw[l] != bk * full, "p=%d link %d->%d (level %d): %g bytes/s", t->p,
               t->from[l], t->to[l], k, t->bw[l]);
        /* A full subtree's processors share the edge at b_k each. */
        FAILIF(leaves_below(t, lo, depth) == (int)full && fabs(t->bw[l] / full - bk) > 1e-6,
               "p=%d link %d->%d: %g bytes/s per processor", t->p, t->from[l], t->to[l],
               t->bw[l] / full);
    }
    free(depth);
    free(queue);
}

START_TEST(test_topo_fattree_bandwidth)
{
    static const double cm5[] = { 20e6, 10e6, 5e6 };
    hr_topo *t = hr_test_topo("fattree", 64);
    /* By hand: processor 0 to its cluster of 4 (node 64): 20 MB/s; cluster of 4 to cluster of
     * 16 (80): 4 x 10 MB/s; cluster of 16 to the root (84): 16 x 5 MB/s. */
    ck_assert_double_eq(t->bw[hr__topo_link(t, 0, 64)], 20e6);
    ck_assert_double_eq(t->bw[hr__topo_link(t, 64, 0)], 20e6);
    ck_assert_double_eq(t->bw[hr__topo_link(t, 64, 80)], 40e6);
    ck_assert_double_eq(t->bw[hr__topo_link(t, 80, 84)], 80e6);
    ck_assert_double_eq(t->bw[hr__topo_link(t, 84, 83)], 80e6);
    check_level_bw(t, cm5, 3);
    hr__topo_destroy(t);

    /* Levels past the third repeat 5 MB/s per processor: the root of 4096 has 1024 below each
     * child. */
    t = hr_test_topo("fattree", 4096);
    check_level_bw(t, cm5, 3);
    ck_assert_double_eq(t->bw[t->first[t->nodes] - 1], 5e6 * 1024);
    hr__topo_destroy(t);

    /* A partly filled subtree keeps a full one's links: p = 40's third cluster of 16 (node 52,
     * processors 32..39) reaches the root (53) at 80 MB/s. */
    t = hr_test_topo("fattree", 40);
    ck_assert_int_eq(t->nodes, 54);
    ck_assert_double_eq(t->bw[hr__topo_link(t, 52, 53)], 80e6);
    check_level_bw(t, cm5, 3);
    hr__topo_destroy(t);

    /* Given figures, commas or spaces, suffixes K, M, G; the last repeats. */
    static const double mine[] = { 30e6, 15e6 };
    t = hr_test_topo("fattree 30M, 15000K", 64);
    ck_assert_str_eq(t->shape, "fattree 30M 15M");
    check_level_bw(t, mine, 2);
    ck_assert_double_eq(t->bw[hr__topo_link(t, 80, 84)], 16 * 15e6);
    hr__topo_destroy(t);

    /* The defaults spelled out give the same links, bit for bit. */
    hr_topo *a = hr_test_topo("fattree", 100), *b = hr_test_topo("fattree 0.02G 1e7 5M", 100);
    ck_assert_int_eq(a->nlinks, b->nlinks);
    ck_assert(memcmp(a->bw, b->bw, (size_t)a->nlinks * sizeof *a->bw) == 0);
    ck_assert_str_eq(b->shape, "fattree 20M 10M 5M");
    hr__topo_destroy(a);
    hr__topo_destroy(b);
}
END_TEST

/* The all-to-all's bottleneck if every link's bytes flow at its rate: max over links of the
 * pairs routed across it over its bandwidth, seconds for one byte from every processor to
 * every other. *at is a link attaining it. */
static double alltoall_bottleneck(const hr_topo *t, int *at)
{
    double *load = calloc((size_t)t->nlinks, sizeof *load);
    int *links = malloc((size_t)t->max_route * sizeof *links);
    ck_assert(load != NULL && links != NULL);
    for (int s = 0; s < t->p; s++)
        for (int d = 0; d < t->p; d++) {
            int n = t->route(t, s, d, links);
            for (int i = 0; i < n; i++)
                load[links[i]] += 1;
        }
    double worst = 0;
    for (int l = 0; l < t->nlinks; l++)
        if (load[l] / t->bw[l] > worst) {
            worst = load[l] / t->bw[l];
            *at = l;
        }
    free(load);
    free(links);
    return worst;
}

START_TEST(test_topo_fattree_alltoall_root)
{
    /* p = 64 all-to-all: each processor sends 48 of its 63 messages across the root; a cluster
     * of 16 pushes 16 x 48 through its 80 MB/s edge: 48 bytes at 5 MB/s per processor, more
     * than the 63 bytes at 20 MB/s of its own port or the 4 x 60 at 40 MB/s of a cluster of 4. */
    int at = -1;
    hr_topo *t = hr_test_topo("fattree", 64);
    ck_assert_double_eq_tol(alltoall_bottleneck(t, &at), 48 / 5e6, 1e-15);
    ck_assert(t->from[at] == t->nodes - 1 || t->to[at] == t->nodes - 1);   /* at the root */
    hr__topo_destroy(t);

    /* A tree as fat as its leaves (20 MB/s per processor at every level): the ports bound it. */
    t = hr_test_topo("fattree 20M", 64);
    ck_assert_double_eq_tol(alltoall_bottleneck(t, &at), 63 / 20e6, 1e-15);
    ck_assert_int_lt(t->from[at] < t->to[at] ? t->from[at] : t->to[at], t->p);
    hr__topo_destroy(t);
}
END_TEST

START_TEST(test_topo_fattree_bad_args)
{
    static const char *bad[] = {
        "fattree fast", "fattree 20M x", "fattree -5M", "fattree +5M", "fattree 0",
        "fattree 20", "fattree 20Q", "fattree 20 M", "fattree 20M,,5M", "fattree 20M,",
        "fattree ,20M", "fattree 1M 1M 1M 1M 1M 1M 1M 1M 1M 1M 1M", "fattree inf", "fattree nan",
        "fattree 0x10M", "fattree 1e400", "fattree 2e16", "fattree 1.2.3M", "fattree 5e",
        "fattree 20M/s",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hr_topo *t = NULL;
        char why[256] = "";
        ck_assert_msg(hr__topo_make(bad[i], 16, &t, why, sizeof why) == -1, "%s accepted",
                      bad[i]);
        ck_assert_ptr_null(t);
        ck_assert_msg(strstr(why, "fattree") != NULL, "%s: reason '%s'", bad[i], why);
        /* The row's procs refuses the same args before any machine is made. */
        const char *args = NULL;
        const hr_topology *row = hr__topology_find(bad[i], &args);
        ck_assert_ptr_nonnull(row);
        why[0] = '\0';
        ck_assert_int_eq(row->procs(args, why, sizeof why), -1);
        ck_assert(why[0] != '\0');
    }
    /* Good args fix no p; ten levels are enough for 2^20 processors. */
    const char *args = NULL;
    char why[256];
    const hr_topology *row = hr__topology_find("fattree 1M 1M 1M 1M 1M 1M", &args);
    ck_assert_ptr_nonnull(row);
    ck_assert_str_eq(row->name, "fattree");
    ck_assert_int_eq(row->procs(args, why, sizeof why), 0);
    ck_assert_int_eq(row->procs("", why, sizeof why), 0);
    /* p is the machine's: 1 .. 2^20. */
    hr_topo *t = NULL;
    ck_assert_int_eq(hr__topo_make("fattree", (1 << 20) + 1, &t, why, sizeof why), -1);
    ck_assert_ptr_null(t);
}
END_TEST


Suite *hr_topo_fattree_suite(void)
{
    Suite *s = suite_create("topo_fattree");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_topo_fattree_counts);
    tcase_add_test(tc, test_topo_fattree_degrees);
    tcase_add_test(tc, test_topo_fattree_links);
    tcase_add_test(tc, test_topo_fattree_routes);
    tcase_add_test(tc, test_topo_fattree_up_then_down);
    tcase_add_test(tc, test_topo_fattree_bandwidth);
    tcase_add_test(tc, test_topo_fattree_alltoall_root);
    suite_add_tcase(s, tc);
    TCase *lim = tcase_create("limits");
    tcase_set_timeout(lim, 30);
    tcase_add_test(lim, test_topo_fattree_bad_args);
    suite_add_tcase(s, lim);
    return s;
}
