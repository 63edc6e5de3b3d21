/* check_topology.c: every topology's links (counts by hand, symmetry, connectivity) and routes
 * (valid paths of links, minimal against breadth-first search, the documented choices), and bad
 * shapes. */
#include "hr_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/algorithm.h>

#include "net/topology.h"

/* Distances from src over the links (net/topology.c's breadth-first search). */
static void bfs(const hr_topo *t, int src, int *dist)
{
    int *queue = malloc((size_t)t->nodes * sizeof *queue);
    ck_assert_ptr_nonnull(queue);
    hr__topo_bfs(t, src, dist, queue);
    free(queue);
}

/* The links' invariants, and every route checked against BFS: valid, minimal, as long as
 * hr__topo_hops says. Returns the number of directed links. */
static int check_all(const hr_topo *t, int min_deg, int max_deg)
{
    int lo = t->nodes, hi = 0;
    for (int u = 0; u < t->nodes; u++) {
        int d = t->first[u + 1] - t->first[u];
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
        for (int l = t->first[u]; l < t->first[u + 1]; l++) {
            ck_assert_int_eq(t->from[l], u);
            ck_assert_int_ne(t->to[l], u);
            ck_assert_msg(hr__topo_link(t, t->to[l], u) >= 0, "%s: %d->%d has no reverse",
                          t->shape, u, t->to[l]);
            if (l > t->first[u])
                ck_assert_int_lt(t->to[l - 1], t->to[l]);   /* sorted, no parallel links */
        }
    }
    ck_assert_msg(lo == min_deg && hi == max_deg, "%s: degree %d..%d, want %d..%d", t->shape, lo,
                  hi, min_deg, max_deg);
    int *dist = malloc((size_t)t->nodes * sizeof *dist);
    int *links = malloc((size_t)t->max_route * sizeof *links);
    ck_assert(dist && links);
    for (int s = 0; s < t->p; s++) {
        bfs(t, s, dist);
        for (int d = 0; d < t->p; d++) {
            ck_assert_msg(dist[d] >= 0, "%s: %d cannot reach %d", t->shape, s, d);
            int n = t->route(t, s, d, links);
            ck_assert_msg(n == dist[d], "%s: route %d->%d has %d links, distance %d", t->shape, s,
                          d, n, dist[d]);
            ck_assert_int_le(n, t->max_route);
            ck_assert_int_eq(hr__topo_hops(t, s, d), n);
            int at = s;
            for (int k = 0; k < n; k++) {
                ck_assert_msg(links[k] >= 0 && t->from[links[k]] == at, "%s: route %d->%d breaks "
                              "at link %d", t->shape, s, d, k);
                at = t->to[links[k]];
            }
            ck_assert_int_eq(at, d);
        }
    }
    free(dist);
    free(links);
    return t->nlinks;
}

START_TEST(test_topology_links_and_routes)
{
    static const struct {
        const char *spec;
        int p, nodes, links, min_deg, max_deg;
    } cases[] = {
        { "ring", 1, 1, 0, 0, 0 },
        { "ring", 2, 2, 2, 1, 1 },
        { "ring", 3, 3, 6, 2, 2 },
        { "ring", 8, 8, 16, 2, 2 },
        { "hypercube", 1, 1, 0, 0, 0 },
        { "hypercube", 2, 2, 2, 1, 1 },
        { "hypercube", 16, 16, 64, 4, 4 },
        { "mesh 4x4", 0, 16, 48, 2, 4 },         /* 2 (4*3 + 4*3) */
        { "mesh 3x5", 0, 15, 44, 2, 4 },         /* 2 (3*4 + 5*2) */
        { "mesh 1x4", 0, 4, 6, 1, 2 },
        { "torus 4x4", 0, 16, 64, 4, 4 },
        { "torus 2x4", 0, 8, 24, 3, 3 },         /* a side of 2: one neighbour along it */
        { "torus 3x3x3", 0, 27, 162, 6, 6 },
        { "torus 8x8", 0, 64, 256, 4, 4 },
        { "torus 1x5", 0, 5, 10, 2, 2 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hr_topo *t = hr_test_topo(cases[i].spec, cases[i].p);
        ck_assert_int_eq(t->nodes, cases[i].nodes);
        ck_assert_int_eq(t->p, cases[i].nodes);
        ck_assert_msg(check_all(t, cases[i].min_deg, cases[i].max_deg) == cases[i].links,
                      "%s: %d links, want %d", t->shape, t->nlinks, cases[i].links);
        hr__topo_destroy(t);
    }
}
END_TEST

/* Every row's no_links trait, as a config asks it by name, agrees with the links its instance
 * stores: the complete graph none, every other topology some. */
START_TEST(test_topology_has_links_by_name)
{
    static const struct {
        const char *spec;
        int p;
    } cases[] = { { "complete", 8 }, { "fattree", 16 }, { "hypercube", 8 }, { "mesh 2x4", 0 },
                  { "rh 1 1", 0 },   { "ring", 8 },     { "torus 2x4", 0 } };
    size_t n = sizeof cases / sizeof cases[0];
    const char *name;
    int rows = 0;
    for (; (name = hr_topology_name(rows, NULL)) != NULL; rows++) {
        size_t i = 0;
        while (i < n && hr__topology_find(cases[i].spec, NULL) != hr__topology_find(name, NULL))
            i++;
        ck_assert_msg(i < n, "topology %s has no case here", name);
        hr_topo *t = hr_test_topo(cases[i].spec, cases[i].p);
        ck_assert_int_eq(hr__topology_has_links(cases[i].spec), t->nlinks > 0);
        ck_assert_int_eq(hr__topology_has_links(cases[i].spec), strcmp(name, "complete") != 0);
        hr__topo_destroy(t);
    }
    ck_assert_int_eq(rows, (int)n);
    ck_assert_int_eq(hr__topology_has_links("moebius 4"), 0);
}
END_TEST

/* The nodes a route visits, from src. */
static void path(const hr_topo *t, int src, int dst, int *nodes, int *n)
{
    int links[64];
    *n = t->route(t, src, dst, links);
    nodes[0] = src;
    for (int k = 0; k < *n; k++)
        nodes[k + 1] = t->to[links[k]];
}

START_TEST(test_topology_route_choices)
{
    int v[64], n;
    /* e-cube: the lowest differing bit first */
    hr_topo *t = hr_test_topo("hypercube", 8);
    path(t, 0, 7, v, &n);
    ck_assert(n == 3 && v[1] == 1 && v[2] == 3 && v[3] == 7);
    path(t, 6, 1, v, &n);
    ck_assert(n == 3 && v[1] == 7 && v[2] == 5 && v[3] == 1);
    hr__topo_destroy(t);
    /* ring: the shorter way; half way round goes up */
    t = hr_test_topo("ring", 8);
    path(t, 0, 4, v, &n);
    ck_assert(n == 4 && v[1] == 1);
    path(t, 1, 6, v, &n);
    ck_assert(n == 3 && v[1] == 0 && v[2] == 7 && v[3] == 6);
    hr__topo_destroy(t);
    /* mesh: along the row to the destination's column, then along the column */
    t = hr_test_topo("mesh 4x4", 0);
    path(t, 0, 15, v, &n);
    ck_assert(n == 6 && v[1] == 1 && v[2] == 2 && v[3] == 3 && v[4] == 7 && v[5] == 11);
    hr__topo_destroy(t);
    /* torus: each dimension the shorter way round, ties up */
    t = hr_test_topo("torus 4x4", 0);
    path(t, 0, 2, v, &n);
    ck_assert(n == 2 && v[1] == 1);
    path(t, 0, 3, v, &n);          /* one step down, wrapping */
    ck_assert(n == 1 && v[1] == 3);
    path(t, 0, 12, v, &n);         /* along the column, wrapping: row 0 to row 3 */
    ck_assert(n == 1);
    hr__topo_destroy(t);
}
END_TEST

START_TEST(test_topology_shapes_fix_p)
{
    int p = -1;
    char why[256];
    ck_assert_int_eq(hr_topology_procs("mesh 4x8", &p, why, sizeof why), HR_OK);
    ck_assert_int_eq(p, 32);
    ck_assert_int_eq(hr_topology_procs("torus 4x4x4", &p, why, sizeof why), HR_OK);
    ck_assert_int_eq(p, 64);
    ck_assert_int_eq(hr_topology_procs("hypercube", &p, why, sizeof why), HR_OK);
    ck_assert_int_eq(p, 0);
    hr_topo *t = NULL;
    ck_assert_int_eq(hr__topo_make("mesh 3x5", 16, &t, why, sizeof why), -1);
    ck_assert_str_eq(why, "topology mesh 3x5 needs procs = 15 (it is 16)");
    ck_assert_int_eq(hr__topo_make("hypercube", 12, &t, why, sizeof why), -1);
    ck_assert_str_eq(why, "hypercube needs p to be a power of two (it is 12)");
    static const char *const bad[] = { "torus 0x4", "mesh 4x4 junk", "mesh 4", "torus 4x4x4x4",
                                       "mesh 4x", "mesh x4", "ring 8", "complete 3", "cube",
                                       "mesh 1024x1025", "torus 4x-4" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(hr_topology_procs(bad[i], &p, why, sizeof why) == HR_EINVAL,
                      "'%s' accepted", bad[i]);
}
END_TEST

/* The machine: a shape that fixes p builds that many processors, and latency adds hop per link
 * crossed: a message from corner to corner of a 4x4 mesh crosses 6. */
static void body_corner(hr_proc *p, void *arg)
{
    (void)arg;
    int v = 0;
    if (hr_pid(p) == 0)
        hr_send(p, 15, 0, &v, sizeof v);
    else if (hr_pid(p) == 15)
        hr_recv(p, 0, 0, &v, sizeof v, NULL);
}

START_TEST(test_topology_machine_hops)
{
    hr_machine_config cfg = hr_test_config(0, NULL);
    cfg.topology = "mesh 4x4";
    cfg.cost.hop = 1e-6;
    hr_machine *m = NULL;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    ck_assert_int_eq(hr_machine_procs(m), 16);
    hr_run_result res;
    ck_assert_int_eq(hr_machine_run(m, body_corner, NULL, &res), HR_OK);
    hr_machine_destroy(m);
    ck_assert_int_eq(res.status, HR_OK);
    /* tau + 6 hop + sigma * 4 bytes: 88 us + 6 us + 0.2 us */
    ck_assert_double_eq_tol(res.model_time_s, 88e-6 + 6e-6 + 4 / 20e6, 1e-15);
}
END_TEST

/* What an algorithm may ask of its network, from inside a run on a 4x4 mesh. */
typedef struct query_out {
    char shape[32];
    int  ndims, dims[4], nn[16], nbr[16][4], dist_0_15, dist_5_5;
} query_out;

static void body_query(hr_proc *p, void *arg)
{
    query_out *o = arg;
    int me = hr_pid(p);
    o->nn[me] = hr_neighbours(p, me, o->nbr[me], 4);
    if (me == 0) {
        snprintf(o->shape, sizeof o->shape, "%s", hr_topology_shape(p));
        o->ndims = hr_topology_dims(p, o->dims, 4);
        o->dist_0_15 = hr_distance(p, 0, 15);
        o->dist_5_5 = hr_distance(p, 5, 5);
    }
}

START_TEST(test_topology_queries)
{
    query_out o;
    memset(&o, 0, sizeof o);
    hr_machine_config cfg = hr_test_config(0, NULL);
    cfg.topology = "mesh 4x4";
    hr_run_result res;
    hr_test_run(&cfg, body_query, &o, &res);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_str_eq(o.shape, "mesh 4x4");
    ck_assert(o.ndims == 2 && o.dims[0] == 4 && o.dims[1] == 4);
    ck_assert_int_eq(o.dist_0_15, 6);
    ck_assert_int_eq(o.dist_5_5, 0);
    /* corners 2 neighbours, edges 3, inside 4; node 5 = (1, 1): 1, 4, 6, 9 */
    ck_assert(o.nn[0] == 2 && o.nbr[0][0] == 1 && o.nbr[0][1] == 4);
    ck_assert_int_eq(o.nn[1], 3);
    ck_assert(o.nn[5] == 4 && o.nbr[5][0] == 1 && o.nbr[5][1] == 4 && o.nbr[5][2] == 6 &&
              o.nbr[5][3] == 9);
}
END_TEST

/* Neighbour-only runs: a message along a link is fine; one between processors that are not
 * linked fails the run, naming both and their distance. On complete every pair is linked. */
static void body_send_to(hr_proc *p, void *arg)
{
    int to = *(const int *)arg, v = 7;
    if (hr_pid(p) == 0)
        hr_send(p, to, 0, &v, sizeof v);
    else if (hr_pid(p) == to)
        hr_recv(p, 0, 0, &v, sizeof v, NULL);
}

static int run_send_to(const char *topology, int to, int neighbour_only, hr_run_result *res)
{
    hr_machine_config cfg = hr_test_config(topology[0] == 'c' ? 16 : 0, NULL);
    cfg.topology = topology;
    hr_machine *m = NULL;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    hr_machine_neighbour_only(m, neighbour_only);
    ck_assert_int_eq(hr_machine_run(m, body_send_to, &to, res), HR_OK);
    hr_machine_destroy(m);
    return res->status;
}

START_TEST(test_topology_neighbour_only)
{
    hr_run_result res;
    ck_assert_int_eq(run_send_to("mesh 4x4", 4, 1, &res), HR_OK);
    ck_assert_int_eq(run_send_to("mesh 4x4", 5, 0, &res), HR_OK);
    ck_assert_int_eq(run_send_to("mesh 4x4", 5, 1, &res), HR_EMISUSE);
    ck_assert_msg(strstr(res.report, "P0: misuse: hr_send: P0 and P5 are not neighbours on mesh 4x4 (2 "
                                     "links apart)") != NULL, "%s", res.report);
    ck_assert_int_eq(run_send_to("complete", 15, 1, &res), HR_OK);
}
END_TEST

START_TEST(test_topology_algorithm_takes)
{
    hr_algorithm a = { .name = "x.y", .topologies = "hypercube,rh" };
    ck_assert(hr_algorithm_takes(&a, "hypercube"));
    ck_assert(hr_algorithm_takes(&a, "rh 3 1"));
    ck_assert(!hr_algorithm_takes(&a, "mesh 4x4"));
    ck_assert(!hr_algorithm_takes(&a, "hyper"));
    a.topologies = NULL;
    ck_assert(hr_algorithm_takes(&a, "torus 8x8"));
}
END_TEST

/* ---- link contention ------------------------------------------------------------------------ */

typedef struct pairs {
    int    n, from[16], to[16];
    size_t bytes;
} pairs;

/* Every listed pair sends one message of `bytes` at time 0, and its receiver takes it. */
static void body_pairs(hr_proc *p, void *arg)
{
    const pairs *w = arg;
    static char buf[16][4096];
    int me = hr_pid(p);
    for (int k = 0; k < w->n; k++)
        if (w->from[k] == me)
            hr_send(p, w->to[k], k, buf[k], w->bytes);
    for (int k = 0; k < w->n; k++)
        if (w->to[k] == me)
            hr_recv(p, w->from[k], k, buf[k], w->bytes, NULL);
}

static double model_of(const char *topology, int procs, int switching, int jitter, pairs *w)
{
    hr_machine_config cfg = hr_test_config(procs, NULL);
    cfg.topology = topology;
    cfg.switching = switching;
    cfg.jitter = jitter;
    hr_run_result res;
    hr_test_run(&cfg, body_pairs, w, &res);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    return res.model_time_s;
}

/* cm5: tau = 88 us, sigma * 1000 bytes = 50 us. */
#define TAU  88e-6
#define MSG  50e-6

START_TEST(test_topology_shared_link_serializes)
{
    /* On ring 4, 0 -> 2 crosses 0-1 and 1-2; 1 -> 3 crosses 1-2 and 2-3: they share link 1-2.
     * 0 -> 2 goes first (key (0, P0)); 1 -> 3 starts when the link is free, 50 us later, and
     * P3 has it in at 50 + 88 + 50 us. On complete each arrives tau + 50 us after it starts. */
    pairs w = { 2, { 0, 1 }, { 2, 3 }, 1000 };
    ck_assert_double_eq_tol(model_of("ring", 4, 0, 0, &w), TAU + 2 * MSG, 1e-15);
    ck_assert_double_eq_tol(model_of("complete", 4, 0, 0, &w), TAU + MSG, 1e-15);
    /* Messages that share no link do not wait: 0 -> 1 and 2 -> 3. */
    pairs v = { 2, { 0, 2 }, { 1, 3 }, 1000 };
    ck_assert_double_eq_tol(model_of("ring", 4, 0, 0, &v), TAU + MSG, 1e-15);
    /* Store-and-forward: 0 -> 2 is whole at node 1 after 50 us, at node 2 after 100 us. */
    pairs u = { 1, { 0 }, { 2 }, 1000 };
    ck_assert_double_eq_tol(model_of("ring", 4, 1, 0, &u), TAU + 2 * MSG, 1e-15);
    ck_assert_double_eq_tol(model_of("ring", 4, 0, 0, &u), TAU + MSG, 1e-15);
    /* The same under jitter, many times: the order is the key's, not the threads'. */
    for (int k = 0; k < 20; k++)
        ck_assert_double_eq_tol(model_of("ring", 4, 0, 1, &w), TAU + 2 * MSG, 1e-15);
}
END_TEST

START_TEST(test_topology_ecube_permutation_contention_free)
{
    /* i -> i XOR 7 on the 3-cube: e-cube gives link-disjoint paths, so all 8 messages take one
     * message time, as on complete. 0 -> 3 (0, 1, 3) and 1 -> 7 (1, 3, 7) share link 1-3. */
    pairs w = { 8, { 0 }, { 0 }, 1000 };
    for (int i = 0; i < 8; i++) {
        w.from[i] = i;
        w.to[i] = i ^ 7;
    }
    ck_assert_double_eq_tol(model_of("hypercube", 8, 0, 0, &w), TAU + MSG, 1e-15);
    pairs v = { 2, { 0, 1 }, { 3, 7 }, 1000 };
    ck_assert_double_eq_tol(model_of("hypercube", 8, 0, 0, &v), TAU + 2 * MSG, 1e-15);
}
END_TEST

/* Every processor sends 1000 bytes to every other, then takes what it was sent. */
static void body_alltoall(hr_proc *p, void *arg)
{
    (void)arg;
    static char out[1000];
    char in[1000];
    int n = hr_nprocs(p), me = hr_pid(p);
    for (int d = 1; d < n; d++)
        hr_send(p, (me + d) % n, 0, out, sizeof out);
    for (int d = 1; d < n; d++)
        hr_recv(p, (me - d + n) % n, 0, in, sizeof in, NULL);
}

static double alltoall_on(const char *topology)
{
    hr_machine_config cfg = hr_test_config(16, NULL);
    cfg.topology = topology;
    hr_run_result res;
    hr_test_run(&cfg, body_alltoall, NULL, &res);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    return res.model_time_s;
}

START_TEST(test_topology_fattree_root_bandwidth)
{
    /* p = 16: four clusters of 4 under one root. Each cluster's 4 processors send 12 messages
     * each out of the cluster: 48 000 bytes through one uplink of 4 x 10 MB/s, at least 1.2 ms.
     * On complete the same all-to-all takes tau + 15 messages' injection, about 0.84 ms. With
     * the uplink at 4 x 5 MB/s it takes at least 2.4 ms. */
    double complete = alltoall_on("complete"), tree = alltoall_on("fattree"),
           thin = alltoall_on("fattree 20M 5M");
    ck_assert_msg(complete < 1.2e-3, "complete: %g", complete);
    ck_assert_msg(tree >= 1.2e-3, "fattree: %g", tree);
    ck_assert_msg(thin >= 2.4e-3, "fattree 20M 5M: %g", thin);
}
END_TEST

/* One step of the route from (r, c) towards coordinate `to` along a side of n: the shorter way
 * round on a torus (up when both are as long), straight on a mesh. */
static int grid_step(int from, int to, int n, int wrap)
{
    if (!wrap)
        return to > from ? 1 : -1;
    int up = ((to - from) % n + n) % n;
    return up <= n - up ? 1 : -1;
}

/* The transpose of MSG-byte blocks on an RxC mesh or torus (R*C <= 16), by docs/model.md's
 * cut-through formulas applied one message at a time in key order, written out independently of
 * src/net: processor i injects its block for i+k at (k-1) MSG (its port serialises), routes go
 * along the row first, and each receiver absorbs its blocks in hr_transpose's order, i-1, i-2,
 * ...: the run's model time is the last absorption's end (or the last injection's). */
static double transpose_by_formula(int rows, int cols, int wrap)
{
    int n = rows * cols;
    double free_at[16][16] = { { 0 } }, arrive[16][16] = { { 0 } };
    for (int k = 1; k < n; k++)
        for (int src = 0; src < n; src++) {
            int dst = (src + k) % n, path[32][2], h = 0;
            int r = src / cols, c = src % cols;
            while (c != dst % cols) {
                int c2 = ((c + grid_step(c, dst % cols, cols, wrap)) % cols + cols) % cols;
                path[h][0] = r * cols + c, path[h][1] = r * cols + c2, h++;
                c = c2;
            }
            while (r != dst / cols) {
                int r2 = ((r + grid_step(r, dst / cols, rows, wrap)) % rows + rows) % rows;
                path[h][0] = r * cols + c, path[h][1] = r2 * cols + c, h++;
                r = r2;
            }
            double start = (k - 1) * MSG;
            for (int l = 0; l < h; l++)
                start = fmax(start, free_at[path[l][0]][path[l][1]]);
            for (int l = 0; l < h; l++)
                free_at[path[l][0]][path[l][1]] = start + MSG;
            arrive[src][dst] = start + TAU;
        }
    double end = (n - 1) * MSG;
    for (int dst = 0; dst < n; dst++) {
        double in_free = 0;
        for (int k = 1; k < n; k++)
            in_free = fmax(in_free, arrive[(dst - k + n) % n][dst]) + MSG;
        end = fmax(end, in_free);
    }
    return end;
}

/* A transpose of 1000-byte blocks on the 4x4 mesh and torus costs what the link formulas say
 * (above), and at least what the bisection allows: between columns 1 and 2 the mesh has 4 links
 * each way, and 8 x 8 blocks cross each way, so some link carries 16 blocks: tau + 16 x 50 us.
 * On complete it takes tau + 15 blocks' injection (BDM's tau + sigma (p-1) m). The torus has
 * twice the bisection but is not faster here: its ties all go up, and a cut-through message
 * waits until every link of its route is free at once (docs/model.md). */
static void body_transpose(hr_proc *p, void *arg)
{
    (void)arg;
    static char out[16][16 * 1000], in[16][16 * 1000];
    hr_transpose(p, out[hr_pid(p)], in[hr_pid(p)], 1000);
}

START_TEST(test_topology_transpose_costs_the_formula)
{
    double t[3];
    static const char *const topo[3] = { "complete", "mesh 4x4", "torus 4x4" };
    for (int i = 0; i < 3; i++) {
        hr_machine_config cfg = hr_test_config(16, NULL);
        cfg.topology = topo[i];
        hr_run_result res;
        hr_test_run(&cfg, body_transpose, NULL, &res);
        ck_assert_msg(res.status == HR_OK, "%s", res.report);
        t[i] = res.model_time_s;
    }
    ck_assert_double_eq_tol(t[0], TAU + 15 * MSG, 1e-12);
    ck_assert_double_eq_tol(t[1], transpose_by_formula(4, 4, 0), 1e-12);
    ck_assert_double_eq_tol(t[2], transpose_by_formula(4, 4, 1), 1e-12);
    ck_assert_msg(t[1] >= TAU + 16 * MSG, "mesh 4x4: %g", t[1]);
    ck_assert_msg(t[2] >= TAU + 15 * MSG, "torus 4x4: %g", t[2]);   /* the injection bound */
}
END_TEST

/* Blocking exchanges with no synchronization (hrel.xor with sync = 0): at every step a processor
 * sends to me XOR s and waits for its partner, asleep while the partner's message is not routed.
 * Routing past such a sleeper must stop at the arrival of the message that wakes it: a version
 * that did not gave another model time in about one run in ten. */
static void body_exchange(hr_proc *p, void *arg)
{
    (void)arg;
    static char out[4][8192], in[4][8192];
    int me = hr_pid(p);
    for (int s = 1; s < hr_nprocs(p); s++) {
        hr_send(p, me ^ s, s, out[me], sizeof out[me]);
        hr_recv(p, me ^ s, s, in[me], sizeof in[me], NULL);
    }
}

/* Run body `runs` times on one machine of cfg and `jitter_runs` times with jitter on fresh ones:
 * every run has the first one's model time. */
static void assert_same_model(hr_machine_config cfg, void (*body)(hr_proc *, void *), int runs,
                              int jitter_runs)
{
    hr_machine *m = NULL;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    hr_run_result res;
    ck_assert_int_eq(hr_machine_run(m, body, NULL, &res), HR_OK);
    double first = res.model_time_s;
    for (int k = 0; k < runs; k++) {
        ck_assert_int_eq(hr_machine_run(m, body, NULL, &res), HR_OK);
        ck_assert_msg(res.model_time_s == first, "%s run %d: %.12g, first %.12g", cfg.topology,
                      k, res.model_time_s, first);
    }
    hr_machine_destroy(m);
    cfg.jitter = 1;
    for (int k = 0; k < jitter_runs; k++) {
        hr_test_run(&cfg, body, NULL, &res);
        ck_assert_msg(res.model_time_s == first, "%s jitter run %d: %.12g", cfg.topology, k,
                      res.model_time_s);
    }
}

START_TEST(test_topology_exchanges_deterministic)
{
    hr_machine_config cfg = hr_test_config(4, NULL);
    cfg.topology = "ring";
    assert_same_model(cfg, body_exchange, 200, 20);
}
END_TEST

/* Receives from any on routes of different lengths, each followed by a send: a processor woken
 * by a routed message may take one routed later that arrives sooner (a shorter route) and send
 * again before the first one's arrival; routing past it must allow for that. */
static void body_any_relay(hr_proc *p, void *arg)
{
    (void)arg;
    static char out[8][1000], in[8][1000];
    int n = hr_nprocs(p), me = hr_pid(p);
    for (int r = 1; r < n; r++) {
        hr_send(p, (me + r) % n, 0, out[me], (size_t)(100 * r));
        hr_recv(p, HR_ANY, 0, in[me], sizeof in[me], NULL);
    }
}

/* A transpose that only P0 enters: the others return, and P0's wait for its blocks is named. */
static void body_lone_transpose(hr_proc *p, void *arg)
{
    (void)arg;
    static char out[4][4], in[4][4];
    if (hr_pid(p) == 0)
        hr_transpose(p, out[0], in[0], 1);
}

START_TEST(test_topology_any_receives_deterministic)
{
    static const char *const topo[2] = { "ring", "mesh 2x4" };
    for (int i = 0; i < 2; i++) {
        hr_machine_config cfg = hr_test_config(8, NULL);
        cfg.topology = topo[i];
        assert_same_model(cfg, body_any_relay, 100, 20);
    }
}
END_TEST

START_TEST(test_topology_collective_wait_is_reported)
{
    hr_machine_config cfg = hr_test_config(4, NULL);
    cfg.topology = "ring";
    hr_run_result res;
    hr_test_run(&cfg, body_lone_transpose, NULL, &res);
    ck_assert_int_eq(res.status, HR_EDEADLK);
    ck_assert_msg(strstr(res.report, "P0 waits in hr_transpose for 3 more blocks") != NULL, "%s",
                  res.report);
}
END_TEST

/* A rendezvous' transfer starts when both sides are ready, and takes the links then, in that
 * order: on ring 4, 0 -> 2 and 1 -> 3 (1000 bytes each, issued at 0) share link 1-2, but P2
 * posts its receive at 100 us. So 1 -> 3 goes first (key 0) and is in at 88 + 50 = 138 us;
 * 0 -> 2 starts at 100 on a free link and is in at 100 + 88 + 50 = 238 us. Async, 0 -> 2 would
 * have gone first. Each sender is done when its message is. */
static void body_sync_late_receiver(hr_proc *p, void *arg)
{
    double *t = arg;
    static char buf[4][1000];
    int me = hr_pid(p);
    if (me < 2)
        hr_send(p, me + 2, 0, buf[me], sizeof buf[me]);
    else {
        if (me == 2)
            hr_compute(p, 100);
        hr_recv(p, me - 2, 0, buf[me], sizeof buf[me], NULL);
    }
    t[me] = hr_now(p);
}

START_TEST(test_topology_sync_starts_at_the_rendezvous)
{
    for (int jitter = 0; jitter < 2; jitter++)
        for (int k = 0; k < 10; k++) {
            double t[4] = { 0 };
            hr_machine_config cfg = hr_test_config(4, "sync");
            cfg.topology = "ring";
            cfg.cost.compute_unit = 1e-6;
            cfg.jitter = jitter;
            hr_run_result res;
            hr_test_run(&cfg, body_sync_late_receiver, t, &res);
            ck_assert_msg(res.status == HR_OK, "%s", res.report);
            ck_assert_double_eq_tol(t[3], TAU + MSG, 1e-12);
            ck_assert_double_eq_tol(t[2], 100e-6 + TAU + MSG, 1e-12);
            ck_assert_double_eq_tol(t[1], t[3], 1e-12);
            ck_assert_double_eq_tol(t[0], t[2], 1e-12);
        }
}
END_TEST

/* The fewest undirected links between a set of floor(p/2) processors and the rest, over every
 * such set (p <= 16): the bisection width, by brute force. */
static long brute_bisection(const hr_topo *t)
{
    int p = t->p;
    long best = -1;
    for (unsigned set = 0; set < 1u << p; set++) {
        if (__builtin_popcount(set) != p / 2)
            continue;
        long cut = 0;
        for (int l = 0; l < t->nlinks; l++)
            cut += (set >> t->from[l] & 1u) && !(set >> t->to[l] & 1u);
        best = best < 0 || cut < best ? cut : best;
    }
    return best;
}

/* The bisection width --topology prints is the true minimum, and a mesh always has one:
 * across an even side, or across an odd one with a jog. A torus with an odd longest side is
 * left unknown (0). */
START_TEST(test_topology_bisection)
{
    static const struct { const char *spec; int known; } cases[] = {
        { "mesh 2x3", 1 }, { "mesh 3x3", 1 }, { "mesh 3x4", 1 }, { "mesh 4x3", 1 },
        { "mesh 3x5", 1 }, { "mesh 2x7", 1 }, { "mesh 1x7", 1 }, { "mesh 4x4", 1 },
        { "mesh 2x8", 1 }, { "mesh 1x8", 1 }, { "torus 4x4", 1 }, { "torus 2x6", 1 },
        { "torus 3x3", 0 }, { "ring 7", 1 }, { "ring 8", 1 }, { "hypercube 16", 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *sp = strchr(cases[i].spec, ' ');
        char name[16];
        snprintf(name, sizeof name, "%.*s", (int)(sp - cases[i].spec), cases[i].spec);
        int p = atoi(sp + 1);
        hr_topo *t = strchr(sp, 'x') != NULL ? hr_test_topo(cases[i].spec, 0) : hr_test_topo(name, p);
        if (cases[i].known)
            ck_assert_msg(t->bisection == brute_bisection(t), "%s: bisection %ld, by brute force %ld",
                          t->shape, t->bisection, brute_bisection(t));
        else
            ck_assert_int_eq(t->bisection, 0);
        hr__topo_destroy(t);
    }
}
END_TEST

Suite *hr_topology_suite(void)
{
    Suite *s = suite_create("topology");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_topology_links_and_routes);
    tcase_add_test(tc, test_topology_has_links_by_name);
    tcase_add_test(tc, test_topology_bisection);
    tcase_add_test(tc, test_topology_route_choices);
    tcase_add_test(tc, test_topology_shapes_fix_p);
    tcase_add_test(tc, test_topology_machine_hops);
    tcase_add_test(tc, test_topology_queries);
    tcase_add_test(tc, test_topology_neighbour_only);
    tcase_add_test(tc, test_topology_algorithm_takes);
    tcase_add_test(tc, test_topology_shared_link_serializes);
    tcase_add_test(tc, test_topology_ecube_permutation_contention_free);
    tcase_add_test(tc, test_topology_fattree_root_bandwidth);
    tcase_add_test(tc, test_topology_transpose_costs_the_formula);
    tcase_add_test(tc, test_topology_exchanges_deterministic);
    tcase_add_test(tc, test_topology_any_receives_deterministic);
    tcase_add_test(tc, test_topology_collective_wait_is_reported);
    tcase_add_test(tc, test_topology_sync_starts_at_the_rendezvous);
    suite_add_tcase(s, tc);
    return s;
}
