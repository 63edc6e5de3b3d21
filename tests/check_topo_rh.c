/* check_topo_rh.c: the reduced hypercube RH(k,n) of seed 004 sec. 1.3: shapes and their p,
 * adjacency against the definition and Figure 1.1, routes against breadth-first search, and
 * the dilation of the hypercube against the theorem and corollaries of sec. 1.3.1. */
#include "hr_test.h"

#include <stdlib.h>
#include <string.h>

#include "net/topology.h"
#include "net/topo_rh.h"


/* A check inside long loops: ck_assert records each passing check, which costs a system call
 * in fork mode; this one costs nothing until it fails. */
#define EXPECT(cond, ...)                 \
    do {                                  \
        if (!(cond))                      \
            ck_abort_msg(__VA_ARGS__);    \
    } while (0)

/* Shapes a machine can have, with p = 2^(k+2^n) by hand. */
static const struct { const char *spec; int k, n, p; } shapes[] = {
    { "rh 1 1", 1, 1, 8 },       /* 2^(1+2) */
    { "rh 3 1", 3, 1, 32 },      /* Figure 1.1 */
    { "rh 2 2", 2, 2, 64 },      /* 2^(2+4) */
    { "rh 5 2", 5, 2, 512 },     /* sec. 1.3.1's example: the 9-cube */
    { "rh 3 3", 3, 3, 2048 },    /* 2^(3+8) */
    { "rh 10 1", 10, 1, 4096 },
    { "rh 8 2", 8, 2, 4096 },
    { "rh 4 3", 4, 3, 4096 },
};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

START_TEST(test_topo_rh_procs)
{
    char why[256];
    const hr_topology *row = hr__topology_find("rh 3 1", NULL);
    ck_assert_ptr_eq(row, &hr__topo_rh);
    for (int i = 0; i < NSHAPES; i++) {
        const char *args;
        ck_assert_ptr_eq(hr__topology_find(shapes[i].spec, &args), &hr__topo_rh);
        ck_assert_int_eq(row->procs(args, why, sizeof why), shapes[i].p);
    }
    hr_topo *t = hr_test_topo("rh 3 1", 0);
    ck_assert_int_eq(t->p, 32);
    ck_assert_int_eq(t->nodes, 32);
    ck_assert_str_eq(t->shape, "rh 3 1");
    ck_assert_int_eq(t->ndims, 2);
    ck_assert_int_eq(t->dims[0], 3);
    ck_assert_int_eq(t->dims[1], 1);
    hr__topo_destroy(t);
    t = hr_test_topo("rh 03 1", 0);   /* the canonical shape drops the leading zero */
    ck_assert_str_eq(t->shape, "rh 3 1");
    hr__topo_destroy(t);
}
END_TEST

START_TEST(test_topo_rh_bad_shapes)
{
    static const struct { const char *spec, *reason; } bad[] = {
        { "rh 1 2", "k >= n" },      /* k < n: the bad shape (sec. 1.3: k >= n) */
        { "rh 3 0", "at least 1" },  /* sec. 1.3: n > 0 */
        { "rh 13 3", "2097152" },    /* 2^21 processors: past HR_MAX_PROCS */
        { "rh 20 1", "4194304" },
        { "rh 17 2", "2097152" },
        { "rh 5 4", "2^(5+2^4)" },   /* 2^21 */
        { "rh 40 40", "2^(40+2^40)" },
        { "rh 3", "K N" },
        { "rh", "K N" },
        { "rh 3 1 2", "more than 2" },
        { "rh 3 1 x", "more than 2" },
        { "rh 3 1x", "unexpected" },
        { "rh 3,1", "unexpected" },
        { "rh -3 1", "whole number" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        hr_topo *t = NULL;
        char why[256] = "";
        ck_assert_int_eq(hr__topo_make(bad[i].spec, 0, &t, why, sizeof why), -1);
        ck_assert_ptr_null(t);
        ck_assert_msg(strstr(why, bad[i].reason) != NULL, "%s: '%s' lacks '%s'", bad[i].spec,
                      why, bad[i].reason);
        const char *args;
        ck_assert_int_eq(hr__topology_find(bad[i].spec, &args)->procs(args, why, sizeof why),
                         -1);
    }
    /* make itself refuses a p its shape does not fix, naming the p it needs */
    hr_topo *t = calloc(1, sizeof *t);
    char why[256] = "";
    ck_assert_int_eq(hr__topo_rh.make(t, "3 1", 16, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "32") != NULL, "%s", why);
    hr__topo_destroy(t);
    t = NULL;
    ck_assert_int_eq(hr__topo_make("rh 3 1", 64, &t, why, sizeof why), -1);
    ck_assert_ptr_null(t);
    /* the analysis builder takes RH(12,3) but not beyond 2^20 nodes, nor k < n */
    ck_assert_int_eq(hr__rh_new(13, 3, &t, why, sizeof why), -1);
    ck_assert_int_eq(hr__rh_new(1, 2, &t, why, sizeof why), -1);
    ck_assert_ptr_null(t);
}
END_TEST

/* Sec. 1.3: k + 1 links a node; Set 1 the k dimensions of the BB, Set 2 one link across BB
 * bit m, m the node's SB address (bits k-n .. k-1); every link both ways; connected. */
START_TEST(test_topo_rh_adjacency)
{
    for (int i = 0; i < NSHAPES; i++) {
        hr_topo *t = hr_test_topo(shapes[i].spec, 0);
        const char *spec = shapes[i].spec;
        int k = shapes[i].k, n = shapes[i].n, p = shapes[i].p;
        ck_assert_int_eq(t->p, p);
        ck_assert_int_eq(t->nodes, p);
        ck_assert_int_eq(t->nlinks, p * (k + 1));
        for (int x = 0; x < p; x++) {
            int m = (x >> (k - n)) & ((1 << n) - 1);
            EXPECT(t->first[x + 1] - t->first[x] == k + 1, "%s: node %d's degree", spec, x);
            int inside = 0, across = 0;
            for (int l = t->first[x]; l < t->first[x + 1]; l++) {
                unsigned d = (unsigned)(x ^ t->to[l]);
                EXPECT(t->from[l] == x && __builtin_popcount(d) == 1,   /* a hypercube link */
                       "%s: link %d from %d", spec, l, x);
                if (d < (1u << k))
                    inside++;
                else {
                    across++;
                    EXPECT(d == 1u << (k + m), "%s: node %d (SB %d) crosses bit %u", spec, x, m,
                           (unsigned)__builtin_ctz(d));
                }
                EXPECT(hr__topo_link(t, x, t->to[l]) == l, "%s: link %d's id", spec, l);
                EXPECT(hr__topo_link(t, t->to[l], x) >= 0,   /* symmetric */
                       "%s: %d -> %d has no way back", spec, x, t->to[l]);
            }
            EXPECT(inside == k && across == 1, "%s: node %d has %d BB links and %d SB links",
                   spec, x, inside, across);
        }
        int *dist = malloc((size_t)p * sizeof *dist), *queue = malloc((size_t)p * sizeof *queue);
        hr__topo_bfs(t, 0, dist, queue);
        for (int x = 0; x < p; x++)
            ck_assert_int_ge(dist[x], 0);
        free(dist);
        free(queue);
        hr__topo_destroy(t);
    }
}
END_TEST

/* Figure 1.1, RH(3,1), by hand: 4 BBs of 8 nodes (addresses bb:local); SB = local bit 2. SB 0
 * nodes cross BB bit 0, SB 1 nodes BB bit 1. 4 * 12 BB edges + 32 / 2 SB links = 64 edges. */
START_TEST(test_topo_rh_figure_1_1)
{
    hr_topo *t = hr_test_topo("rh 3 1", 0);
    ck_assert_int_eq(t->nlinks, 2 * 64);
    ck_assert_int_ge(hr__topo_link(t, 0, 8), 0);      /* 00:000 - 01:000 */
    ck_assert_int_eq(hr__topo_link(t, 0, 16), -1);    /* 00:000 - 10:000: SB 0 has no bit 1 */
    ck_assert_int_ge(hr__topo_link(t, 4, 20), 0);     /* 00:100 - 10:100 */
    ck_assert_int_eq(hr__topo_link(t, 4, 12), -1);
    ck_assert_int_ge(hr__topo_link(t, 27, 19), 0);    /* 11:011 - 10:011 */
    ck_assert_int_ge(hr__topo_link(t, 31, 15), 0);    /* 11:111 - 01:111 */
    ck_assert_int_ge(hr__topo_link(t, 24, 28), 0);    /* inside BB 11 */
    ck_assert_int_eq(hr__topo_link(t, 7, 8), -1);
    hr__topo_destroy(t);
}
END_TEST

/* Every route a path of links from src to dst, as long as hops says, as short as BFS finds
 * (the routing is minimal), within max_route, the same each time, and it crosses each BB
 * dimension where src and dst differ exactly once. max_route is the BFS diameter. */
static void check_routes(const hr_topo *t, int stride)
{
    int p = t->p, k = t->dims[0], diameter = 0;
    int *dist = malloc((size_t)p * sizeof *dist), *queue = malloc((size_t)p * sizeof *queue);
    int *links = malloc((size_t)t->max_route * sizeof *links);
    int *again = malloc((size_t)t->max_route * sizeof *again);
    for (int src = 0; src < p; src += stride) {
        hr__topo_bfs(t, src, dist, queue);
        for (int dst = 0; dst < p; dst++) {
            if (dist[dst] > diameter)
                diameter = dist[dst];
            int h = t->route(t, src, dst, links);
            EXPECT(h == dist[dst], "%s: route %d -> %d has %d links, BFS %d", t->shape, src, dst,
                   h, dist[dst]);
            EXPECT(hr__topo_hops(t, src, dst) == h, "%s: hops %d -> %d", t->shape, src, dst);
            EXPECT(h <= t->max_route, "%s: %d > max_route", t->shape, h);
            int at = src, across = 0;
            for (int i = 0; i < h; i++) {
                EXPECT(links[i] >= 0 && links[i] < t->nlinks && t->from[links[i]] == at,
                       "%s: route %d -> %d: link %d is not from %d", t->shape, src, dst, i, at);
                if ((at ^ t->to[links[i]]) >= 1 << k)
                    across++;
                at = t->to[links[i]];
            }
            EXPECT(at == dst, "%s: route %d -> %d ends at %d", t->shape, src, dst, at);
            EXPECT(across == __builtin_popcount((unsigned)(src ^ dst) >> k),
                   "%s: route %d -> %d crosses BBs %d times", t->shape, src, dst, across);
            EXPECT(t->route(t, src, dst, again) == h &&
                   memcmp(links, again, (size_t)h * sizeof *links) == 0,
                   "%s: route %d -> %d changed", t->shape, src, dst);
        }
    }
    if (stride == 1)
        ck_assert_int_eq(t->max_route, diameter);
    else
        ck_assert_int_ge(t->max_route, diameter);
    free(dist);
    free(queue);
    free(links);
    free(again);
}

START_TEST(test_topo_rh_routes_minimal)
{
    for (int i = 0; i < NSHAPES; i++) {
        hr_topo *t = hr_test_topo(shapes[i].spec, 0);
        check_routes(t, t->p <= 512 ? 1 : 127);
        hr__topo_destroy(t);
    }
}
END_TEST

/* Routes worked by hand on RH(3,1) (addresses bb:local, SB = local bit 2). */
START_TEST(test_topo_rh_route_by_hand)
{
    hr_topo *t = hr_test_topo("rh 3 1", 0);
    int links[64];
    /* 00:000 -> 11:111: across bit 0 at SB 0, to SB 1, across bit 1, e-cube bits 0, 1 */
    static const int path1[] = { 0, 8, 12, 28, 29, 31 };
    int h = t->route(t, 0, 31, links);
    ck_assert_int_eq(h, 5);
    for (int i = 0; i < h; i++) {
        ck_assert_int_eq(t->from[links[i]], path1[i]);
        ck_assert_int_eq(t->to[links[i]], path1[i + 1]);
    }
    /* 00:100 -> 11:000: it starts in SB 1, so bit 1 first, then SB 0 and bit 0: 3 links
     * (bit 0 first would take 5) */
    static const int path2[] = { 4, 20, 16, 24 };
    h = t->route(t, 4, 24, links);
    ck_assert_int_eq(h, 3);
    for (int i = 0; i < h; i++) {
        ck_assert_int_eq(t->from[links[i]], path2[i]);
        ck_assert_int_eq(t->to[links[i]], path2[i + 1]);
    }
    ck_assert_int_eq(t->route(t, 5, 5, links), 0);
    ck_assert_int_eq(hr__topo_hops(t, 5, 5), 0);
    /* diameter by hand: 2 low bits, 2 BB bits, SB walk 0 -> 1 -> 0 (or 1 -> 0 -> 1): 6 */
    ck_assert_int_eq(t->max_route, 6);
    hr__topo_destroy(t);
}
END_TEST

/* RH(8,3): 65536 nodes, beyond a machine, from the analysis builder; routes sampled. */
START_TEST(test_topo_rh_big_instance)
{
    hr_topo *t = NULL;
    char why[256] = "";
    ck_assert_msg(hr__rh_new(8, 3, &t, why, sizeof why) == 0, "%s", why);
    ck_assert_int_eq(t->p, 65536);
    ck_assert_int_eq(t->nlinks, 65536 * 9);
    ck_assert_str_eq(t->shape, "rh 8 3");
    check_routes(t, 16411);   /* 4 sources, every destination */
    hr__topo_destroy(t);
}
END_TEST

static int binom(int n, int q)
{
    int c = 1;
    for (int i = 0; i < q; i++)
        c = c * (n - i) / (i + 1);
    return c;
}

/* Sec. 1.3.1. The theorem: of a node's nu hypercube edges, k + 1 have dilation 1 and C(n,q)
 * have 2q + 1, q = 1 .. n; the example's counts for RH(5,2) (6, 2, 1 of dilations 1, 3, 5) and
 * RH(8,3) (9, 3, 3, 1 of 1, 3, 5, 7) are written out here as the thesis prints them.
 * Corollary 1: max 2n + 1. Corollary 2: mean (k + (n+1) 2^n) / (k + 2^n), 1.88 and 2.5 in the
 * thesis for the two examples; 7/5 for RH(3,1). A BB dimension's mean: the mean of 2q + 1 over
 * the 2^n SB addresses, n + 1. */
START_TEST(test_topo_rh_dilation_theorem)
{
    static const struct { int k, n, per_node[8], max; double avg; } cases[] = {
        { 3, 1, { 0, 4, 0, 1 }, 3, 7.0 / 5 },
        { 5, 2, { 0, 6, 0, 2, 0, 1 }, 5, 17.0 / 9 },
        { 8, 3, { 0, 9, 0, 3, 0, 3, 0, 1 }, 7, 40.0 / 16 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int k = cases[c].k, n = cases[c].n, nu = k + (1 << n);
        hr_topo *t = NULL;
        char why[256] = "", spec[32];
        snprintf(spec, sizeof spec, "rh %d %d", k, n);
        if (nu <= 12)
            t = hr_test_topo(spec, 0);
        else
            ck_assert_msg(hr__rh_new(k, n, &t, why, sizeof why) == 0, "%s", why);
        int max = -1;
        double avg = -1;
        ck_assert_int_eq(hr__rh_dilation(t, &max, &avg), 0);
        ck_assert_int_eq(max, cases[c].max);
        ck_assert_int_eq(max, 2 * n + 1);
        ck_assert_double_eq_tol(avg, cases[c].avg, 1e-12);
        ck_assert_double_eq_tol(avg, (double)(k + (n + 1) * (1 << n)) / nu, 1e-12);
        hr_rh_dilation d;
        ck_assert_int_eq(hr__rh_dilation_of(t, nu <= 12, &d), 0);
        ck_assert_int_eq(d.sources, nu <= 12 ? 1 << nu : 1 << n);
        ck_assert_int_eq(d.uniform, 1);
        for (int v = 0; v <= HR_RH_MAX_DIL; v++)
            ck_assert_msg(d.per_node[v] == (v < 8 ? cases[c].per_node[v] : 0),
                          "%s: %d edges of dilation %d", spec, d.per_node[v], v);
        ck_assert_int_eq(d.per_node[1], k + 1);
        for (int q = 1; q <= n; q++)
            ck_assert_int_eq(d.per_node[2 * q + 1], binom(n, q));
        ck_assert_int_eq(d.class_count[0], k);
        ck_assert_int_eq(d.class_min[0], 1);
        ck_assert_int_eq(d.class_max[0], 1);
        for (int q = 0; q <= n; q++) {
            ck_assert_int_eq(d.class_count[1 + q], binom(n, q));
            ck_assert_int_eq(d.class_min[1 + q], 2 * q + 1);
            ck_assert_int_eq(d.class_max[1 + q], 2 * q + 1);
        }
        for (int j = 0; j < nu; j++) {
            ck_assert_int_eq(d.dim_max[j], j < k ? 1 : 2 * n + 1);
            ck_assert_double_eq_tol(d.dim_avg[j], j < k ? 1.0 : n + 1.0, 1e-12);
        }
        hr__topo_destroy(t);
    }
}
END_TEST

/* The shortcut by translation classes gives what a BFS from every node gives. */
START_TEST(test_topo_rh_dilation_classes_agree)
{
    static const char *const specs[] = { "rh 1 1", "rh 3 1", "rh 2 2", "rh 5 2", "rh 3 3" };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        hr_topo *t = hr_test_topo(specs[i], 0);
        hr_rh_dilation all, classes;
        ck_assert_int_eq(hr__rh_dilation_of(t, 1, &all), 0);
        ck_assert_int_eq(hr__rh_dilation_of(t, 0, &classes), 0);
        ck_assert_int_eq(all.sources, t->p);
        ck_assert_int_eq(classes.sources, 1 << t->dims[1]);
        int nu = t->dims[0] + (1 << t->dims[1]);
        ck_assert_int_eq(all.max, classes.max);
        ck_assert_double_eq(all.avg, classes.avg);   /* sums of whole numbers: exact */
        ck_assert_int_eq(all.uniform, classes.uniform);
        for (int v = 0; v <= HR_RH_MAX_DIL; v++)
            ck_assert_int_eq(all.per_node[v], classes.per_node[v]);
        for (int c = 0; c < t->dims[1] + 2; c++) {
            ck_assert_int_eq(all.class_count[c], classes.class_count[c]);
            ck_assert_int_eq(all.class_min[c], classes.class_min[c]);
            ck_assert_int_eq(all.class_max[c], classes.class_max[c]);
        }
        for (int j = 0; j < nu; j++) {
            ck_assert_int_eq(all.dim_max[j], classes.dim_max[j]);
            ck_assert_double_eq(all.dim_avg[j], classes.dim_avg[j]);
        }
        hr__topo_destroy(t);
    }
}
END_TEST

START_TEST(test_topo_rh_dilation_rejects_others)
{
    hr_topo *t = NULL;
    char why[256] = "";
    ck_assert_int_eq(hr__topo_make("hypercube", 32, &t, why, sizeof why), 0);
    int max;
    double avg;
    ck_assert_int_eq(hr__rh_dilation(t, &max, &avg), -1);
    hr__topo_destroy(t);
}
END_TEST

Suite *hr_topo_rh_suite(void)
{
    Suite *s = suite_create("topo_rh");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_topo_rh_procs);
    tcase_add_test(core, test_topo_rh_bad_shapes);
    tcase_add_test(core, test_topo_rh_adjacency);
    tcase_add_test(core, test_topo_rh_figure_1_1);
    suite_add_tcase(s, core);
    TCase *routes = tcase_create("routes");
    tcase_set_timeout(routes, 60);
    tcase_add_test(routes, test_topo_rh_routes_minimal);
    tcase_add_test(routes, test_topo_rh_route_by_hand);
    tcase_add_test(routes, test_topo_rh_big_instance);
    suite_add_tcase(s, routes);
    TCase *dil = tcase_create("dilation");
    tcase_set_timeout(dil, 60);
    tcase_add_test(dil, test_topo_rh_dilation_theorem);
    tcase_add_test(dil, test_topo_rh_dilation_classes_agree);
    tcase_add_test(dil, test_topo_rh_dilation_rejects_others);
    suite_add_tcase(s, dil);
    return s;
}
