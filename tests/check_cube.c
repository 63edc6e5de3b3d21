/* check_cube.c: seed 004's broadcast, reduction and prefix on the hypercube and RH(k,n): the
 * double-rooted tree and FT3/BT3 against the thesis's properties, Phase II's plan of the RH
 * prefix against its substep count and a sequential simulation, the paths between BBs along
 * links, every algorithm on every shape up to 1024 processors against sequential references,
 * their steps against closed forms derived by hand (the comments give the derivations), a
 * message to a non-neighbour refused, and the same figures under jitter. */
#include "hr_test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/algorithm.h>
#include <hremu/workload.h>
#include "alg/cube.h"
#include "alg/drtree.h"
#include "alg/seed004.h"
#include "net/topology.h"

/* ---- FT3, BT3 and the tree ----------------------------------------------------------------- */

START_TEST(test_cube_ft3_bt3_properties)
{
    /* Property 1: distinct addresses map to distinct addresses. Property 2: neighbours (one bit
     * apart) stay neighbours. */
    for (int t = 0; t < 2; t++) {
        int seen = 0;
        for (int x = 0; x < 8; x++) {
            int y = t ? hr__bt3(x) : hr__ft3(x);
            ck_assert_int_lt(y, 8);
            seen |= 1 << y;
            for (int b = 0; b < 3; b++) {
                int z = t ? hr__bt3(x ^ 1 << b) : hr__ft3(x ^ 1 << b);
                ck_assert_int_eq(__builtin_popcount((unsigned)(y ^ z)), 1);
            }
        }
        ck_assert_int_eq(seen, 0xff);
    }
    /* Table 2.1 and 2.2, a few rows read off the thesis. */
    ck_assert_int_eq(hr__ft3(0), 4);
    ck_assert_int_eq(hr__ft3(6), 7);
    ck_assert_int_eq(hr__bt3(2), 0);
    ck_assert_int_eq(hr__bt3(5), 7);
}
END_TEST

START_TEST(test_cube_drtree_is_double_rooted)
{
    for (int d = 1; d <= HR_DRTREE_MAX; d++) {
        int np = 1 << d, parent[1 << HR_DRTREE_MAX], kids[1 << HR_DRTREE_MAX] = { 0 };
        ck_assert_int_eq(hr__drtree(d, parent), 0);
        int roots = 0;
        for (int x = 0; x < np; x++) {
            if (parent[x] < 0) {
                roots++;
                continue;
            }
            ck_assert_msg(__builtin_popcount((unsigned)(x ^ parent[x])) == 1,
                          "d = %d: %d-%d is not a cube edge", d, x, parent[x]);
            kids[parent[x]]++;
        }
        ck_assert_int_eq(roots, 1);
        ck_assert_int_eq(parent[0], -1);
        /* Every node reaches the root; depths: a complete binary tree of d levels with one root
         * edge stretched by the spacer: leaves at depth d - 1 on one side, d on the other. */
        int ones = 0, leaves_short = 0, leaves_long = 0, spacer = -1;
        for (int x = 0; x < np; x++) {
            int depth = 0;
            for (int y = x; parent[y] >= 0; y = parent[y])
                ck_assert_int_lt(++depth, np);
            ck_assert_msg(kids[x] <= 2, "d = %d: %d has %d children", d, x, kids[x]);
            if (kids[x] == 1) {
                ones++;
                spacer = x;
            }
            if (kids[x] == 0) {
                leaves_short += depth == d - 1;
                leaves_long += depth == d;
                ck_assert(depth == d - 1 || depth == d);
            }
        }
        ck_assert_int_eq(ones, 1);                      /* the spacer, and only it */
        ck_assert_int_eq(spacer, d == 1 ? 0 : 4 >> (d == 2));   /* d = 1: the root's one child */
        if (d >= 2) {
            ck_assert_int_eq(parent[spacer], 0);
            ck_assert_int_eq(kids[0], 2);
            ck_assert_int_eq(leaves_short, 1 << (d - 2));
            ck_assert_int_eq(leaves_long, 1 << (d - 2));
        }
    }
    /* The base is the pseudocode's case table (sec. 2.1.1), by hand: case 0 has children across
     * ports 0 and 2, case 4 its parent across port 2 and a child across port 1, ... */
    int parent[8];
    hr__drtree(3, parent);
    static const int want[8] = { -1, 0, 6, 1, 0, 1, 4, 6 };
    for (int x = 0; x < 8; x++)
        ck_assert_int_eq(parent[x], want[x]);
    ck_assert_int_eq(hr__drtree(0, parent), -1);
}
END_TEST

/* ---- Phase II of the RH prefix --------------------------------------------------------------- */

START_TEST(test_cube_prefix_plan)
{
    for (int n = 1; n <= 3; n++) {
        int D = 1 << n, nb = 1 << D, subs = 0;
        hr_rh_xfer plan[8 << 7];
        int nx = hr__rh_prefix_plan(D, plan, (int)(sizeof plan / sizeof plan[0]), &subs);
        ck_assert_int_gt(nx, 0);
        /* Sec. 4.3: 1 + 2 + ... + 2^n = 2^(2n-1) + 2^(n-1) substeps. */
        ck_assert_int_eq(subs, (1 << (2 * n - 1)) + (1 << (n - 1)));
        ck_assert_int_eq(plan[nx - 1].sub, subs);
        /* Along one dimension of the cube of BBs; a BB in one transfer a substep at most. */
        for (int j = 0; j < nx; j++) {
            ck_assert_int_eq(plan[j].to, plan[j].from ^ (1 << plan[j].dim));
            if (j > 0)
                ck_assert_int_ge(plan[j].sub, plan[j - 1].sub);
            for (int i = j + 1; i < nx && plan[i].sub == plan[j].sub; i++) {
                ck_assert_int_ne(plan[i].from, plan[j].from);
                ck_assert_int_ne(plan[i].from, plan[j].to);
                ck_assert_int_ne(plan[i].to, plan[j].from);
                ck_assert_int_ne(plan[i].to, plan[j].to);
            }
        }
        /* Run it sequentially on BB totals T(b) = 3b + 1 (integers): every BB must end with
         * the sum of the totals below it, E(b) = sum over b' < b. */
        int64_t S[256], E[256], V[256];
        for (int b = 0; b < nb; b++) {
            S[b] = 3 * b + 1;
            E[b] = 0;
        }
        for (int j = 0; j < nx; j++) {
            const hr_rh_xfer *x = &plan[j];
            int64_t val = x->direct ? S[x->from] : V[x->from];
            V[x->to] = val;
            E[x->to] += val;
            if (x->direct)
                S[x->to] += val;
        }
        for (int b = 0; b < nb; b++)
            ck_assert_int_eq(E[b], (int64_t)3 * b * (b - 1) / 2 + b);
    }
}
END_TEST

/* Paths between neighbouring BBs follow links and have 2 popcount(sb ^ dim) + 1 hops. */
START_TEST(test_cube_paths_follow_links)
{
    static const int kn[][2] = { { 1, 1 }, { 3, 1 }, { 2, 2 }, { 4, 2 }, { 3, 3 } };
    for (size_t s = 0; s < sizeof kn / sizeof kn[0]; s++) {
        char spec[16];
        snprintf(spec, sizeof spec, "rh %d %d", kn[s][0], kn[s][1]);
        hr_topo *t = hr_test_topo(spec, 0);
        hr_cube c = { kn[s][0], kn[s][1], 1 << kn[s][1], kn[s][0] + (1 << kn[s][1]) };
        for (int x = 0; x < t->p; x++)
            for (int dim = 0; dim < c.D; dim++) {
                int path[HR_CUBE_MAX_PATH];
                int len = hr__cube_path(&c, x, dim, path);
                ck_assert_int_eq(len - 1, 2 * __builtin_popcount((unsigned)(hr__cube_sb(&c, x) ^ dim)) + 1);
                ck_assert_int_eq(path[len - 1], x ^ (1 << (c.k + dim)));
                for (int q = 0; q + 1 < len; q++)
                    ck_assert_msg(hr__topo_link(t, path[q], path[q + 1]) >= 0, "%s: %d-%d", spec,
                                  path[q], path[q + 1]);
            }
        hr__topo_destroy(t);
    }
}
END_TEST

/* ---- the algorithms ----------------------------------------------------------------------- */

typedef struct job {
    const hr_algorithm *alg;
    hr_values          *v;
} job;

static void body(hr_proc *p, void *arg)
{
    job *j = arg;
    double params[16] = { 0 };
    for (int k = 0; j->alg->params && j->alg->params[k].name; k++)
        params[k] = j->alg->params[k].def;
    j->alg->run(p, j->v, params);
}

/* Values: integers with a sign and all 64 bits used, so a lost or doubled term shows. */
static int64_t value(int x, size_t i, uint64_t seed)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15u + (uint64_t)x * 1000003u + i * 7919u;
    z ^= z >> 29;
    z *= 0xbf58476d1ce4e5b9u;
    return (int64_t)(z ^ (z >> 32));
}

static int64_t fold(int op, int64_t a, int64_t b)
{
    return op == HR_SUM ? (int64_t)((uint64_t)a + (uint64_t)b) : op == HR_MAX ? (a > b ? a : b)
                                                                              : (a < b ? a : b);
}

typedef struct outcome {
    hr_run_result res;
    int           wrong;      /* processors with a wrong result */
    char          first[160];
} outcome;

/* Run alg on topology (p processors) with m integer values a processor, root and op, and check
 * every processor's result against a sequential reference. */
static void run_values(const char *name, const char *topology, int p, size_t m, int root, int op,
                       const char *disc, int jitter, outcome *o)
{
    const hr_algorithm *a = hr_algorithm_find(name);
    ck_assert_ptr_nonnull(a);
    hr_values v = { .p = p, .m = m, .type = HR_INT64, .op = op, .root = root };
    v.in = calloc((size_t)p, sizeof *v.in);
    v.out = calloc((size_t)p, sizeof *v.out);
    int64_t *ref = calloc((size_t)p * m, sizeof *ref);
    ck_assert(v.in && v.out && ref);
    for (int x = 0; x < p; x++) {
        int64_t *in = malloc(m * sizeof *in);
        ck_assert_ptr_nonnull(in);
        for (size_t i = 0; i < m; i++)
            in[i] = value(x, i, (uint64_t)p + m);
        v.in[x] = in;
    }
    hr_machine_config cfg = hr_test_config(p, disc);
    cfg.topology = topology;
    cfg.jitter = jitter;
    hr_machine *mach;
    ck_assert_int_eq(hr_machine_create(&cfg, &mach, NULL), HR_OK);
    hr_machine_neighbour_only(mach, a->neighbour_only);
    job j = { a, &v };
    memset(o, 0, sizeof *o);
    ck_assert_int_eq(hr_machine_run(mach, body, &j, &o->res), HR_OK);
    /* References: the root's values; the fold over all; the running fold. */
    for (size_t i = 0; i < m; i++) {
        int64_t acc = 0;
        for (int x = 0; x < p; x++) {
            int64_t in = ((const int64_t *)v.in[x])[i];
            acc = x == 0 ? in : fold(op, acc, in);
            ref[(size_t)x * m + i] = acc;
        }
    }
    int want = strncmp(name, "bcast", 5) == 0 ? HR_GOAL_BCAST
             : strncmp(name, "reduce", 6) == 0 ? HR_GOAL_REDUCE : HR_GOAL_PREFIX;
    if (o->res.status == HR_OK && v.goal != want)
        snprintf(o->first, sizeof o->first, "goal %d, not %d", v.goal, want);
    for (int x = 0; o->res.status == HR_OK && x < p; x++) {
        const int64_t *out = v.out[x];
        if (want == HR_GOAL_REDUCE && x != root)
            continue;
        for (size_t i = 0; i < m; i++) {
            int64_t expect = want == HR_GOAL_BCAST ? ((const int64_t *)v.in[root])[i]
                           : want == HR_GOAL_REDUCE ? ref[(size_t)(p - 1) * m + i]
                                                    : ref[(size_t)x * m + i];
            if (out == NULL || out[i] != expect) {
                if (o->wrong++ == 0)
                    snprintf(o->first, sizeof o->first, "P%d value %zu: %lld, not %lld", x, i,
                             out ? (long long)out[i] : 0LL, (long long)expect);
                break;
            }
        }
    }
    hr_machine_destroy(mach);
    for (int x = 0; x < p; x++)
        free(v.in[x]);
    free(v.in);
    free(v.out);
    free(ref);
}

/* The shapes of the tests: every RH(k,n) with p <= 1024 (fewer under TSan). */
static const int rh_shapes[][2] = {
    { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 }, { 6, 1 }, { 7, 1 }, { 8, 1 },
    { 2, 2 }, { 3, 2 }, { 4, 2 }, { 5, 2 }, { 6, 2 },
};

static int rh_procs(int k, int n)  { return 1 << (k + (1 << n)); }

/* The s-th shape, if its p is at most cap: its spec ("rh K N") in spec[16], k, n, p. */
static int rh_shape(size_t s, int cap, char *spec, int *k, int *n, int *p)
{
    *k = rh_shapes[s][0];
    *n = rh_shapes[s][1];
    *p = rh_procs(*k, *n);
    snprintf(spec, 16, "rh %d %d", *k, *n);
    return *p <= cap;
}

/* Steps by hand (derivations below). */
static int reduce_rh_steps(int k, int n)
{
    /* k inside the BB, then BB dimension i costs 2 popcount(i ^ s0) + 1 hops, summed over the
     * 2^n dimensions: 2^n + 2 n 2^(n-1): k + (n + 1) 2^n whatever the root's SB s0. Against the
     * hypercube's k + 2^n, the ratio is Corollary 2's average dilation. */
    return k + (n + 1) * (1 << n);
}

START_TEST(test_cube_every_shape_every_algorithm)
{
    static const char *const rh_algs[] = { "bcast.rh_tree", "reduce.rh_tree", "prefix.rh" };
    static const char *const cube_algs[] = { "bcast.binomial", "reduce.binomial",
                                             "prefix.hypercube" };
    int cap = HR_TEST_TSAN ? 256 : 1024;
    if (HR_TEST_TSAN)
        hr_test_skip("rh shapes of more than 256 processors: too slow under TSan", 1);
    for (size_t s = 0; s < sizeof rh_shapes / sizeof rh_shapes[0]; s++) {
        int k, n, p;
        char spec[16];
        if (!rh_shape(s, cap, spec, &k, &n, &p))
            continue;
        for (int a = 0; a < 3; a++) {
            int root = (int)((uint64_t)(s * 7919 + (size_t)a * 31) % (uint64_t)p);
            outcome o;
            run_values(rh_algs[a], spec, p, 3, root, a == 1 ? HR_MAX : HR_SUM, "async", 0, &o);
            ck_assert_msg(o.res.status == HR_OK && o.wrong == 0 && o.first[0] == '\0',
                          "%s on %s root %d: %s %s", rh_algs[a], spec, root, o.res.report, o.first);
            if (a == 1)
                ck_assert_int_eq((int)o.res.rounds, reduce_rh_steps(k, n));
        }
    }
    for (int d = 1; (1 << d) <= cap; d++) {
        for (int a = 0; a < 3; a++) {
            int root = (d * 5 + a) % (1 << d);
            outcome o;
            run_values(cube_algs[a], "hypercube", 1 << d, 2, root, a == 2 ? HR_MIN : HR_SUM,
                       "async", 0, &o);
            ck_assert_msg(o.res.status == HR_OK && o.wrong == 0 && o.first[0] == '\0',
                          "%s on p = %d: %s %s", cube_algs[a], 1 << d, o.res.report, o.first);
            /* One step a dimension, each processor one message a step: d. */
            ck_assert_int_eq((int)o.res.rounds, d);
        }
    }
}
END_TEST

/* Phase II and III of prefix.rh stepped by hand-rule, independently of the machine: every
 * node's step is the step of its last message; Phase I leaves every node at step k (k
 * exchanges); a transfer of the plan (in plan order, as every node takes them) is its path's
 * hops, each one step after the later of the sender's step and the hop before; Phase III is the
 * binomial tree of each BB b != 0 from its collector, a node sending to its children across the
 * highest dimension first. */
static int prefix_rh_steps(int k, int n)
{
    hr_cube c = { k, n, 1 << n, k + (1 << n) };
    int np = 1 << c.nu, ones = (1 << k) - 1, subs, steps = 0;
    int *clock = malloc((size_t)np * sizeof *clock);
    hr_rh_xfer *plan = malloc(((size_t)c.D << (c.D - 1)) * sizeof *plan);
    ck_assert(clock && plan);
    int nx = hr__rh_prefix_plan(c.D, plan, c.D << (c.D - 1), &subs);
    for (int x = 0; x < np; x++)
        clock[x] = k;
    for (int j = 0; j < nx; j++) {
        int path[HR_CUBE_MAX_PATH];
        int len = hr__cube_path(&c, (plan[j].from << k) | ones, plan[j].dim, path);
        for (int q = 0; q + 1 < len; q++) {
            int s = ++clock[path[q]];
            if (clock[path[q + 1]] < s)
                clock[path[q + 1]] = s;
        }
    }
    for (int b = 1; b < 1 << c.D; b++)
        for (int y = 0; y <= ones; y++) {      /* parents before children: y in order */
            int x = (b << k) | (y ^ ones);
            int low = y == 0 ? k : __builtin_ctz((unsigned)y);
            for (int j = low - 1; j >= 0; j--) {
                int s = ++clock[x], kid = x ^ (1 << j);
                if (clock[kid] < s)
                    clock[kid] = s;
            }
        }
    for (int x = 0; x < np; x++)
        steps = clock[x] > steps ? clock[x] : steps;
    free(clock);
    free(plan);
    return steps;
}

/* Steps against hand derivations and the rule above. */
START_TEST(test_cube_steps)
{
    outcome o;
    /* bcast.rh_tree on RH(1,1), root 0 (BBs 00..11 of two nodes, SB 0 and SB 1): the tree of
     * BBs is 00 -> 01 and 00 -> spacer 10 -> 11; the longest chain is 0 -> (00,1) -> (10,1) ->
     * (10,0) -> (11,0) -> (11,1), 5 steps, with 0's second send (to (01,0)) in step 2 and
     * (01,0) -> (01,1) in step 3. RH(2,1): the 1-cube of sec. 2.2 first (step 1), each copy of
     * RH(1,1) then 5 steps: 6. RH(3,1): the double-rooted tree of the 2-cube, root -> spacer
     * (1) -> its child (2), root -> child (2), each then 5: 7; the root's own copy started at
     * step 3 has a first branch of 4 more and a second of 1: 7. */
    static const int bcast_n1[4] = { 0, 5, 6, 7 };
    for (int k = 1; k <= 3; k++) {
        char spec[16];
        snprintf(spec, sizeof spec, "rh %d 1", k);
        run_values("bcast.rh_tree", spec, rh_procs(k, 1), 1, 0, HR_SUM, "async", 0, &o);
        ck_assert_int_eq((int)o.res.rounds, bcast_n1[k]);
    }
    for (size_t s = 0; s < sizeof rh_shapes / sizeof rh_shapes[0]; s++) {
        int k, n, p;
        char spec[16];
        if (!rh_shape(s, HR_TEST_TSAN ? 256 : 1024, spec, &k, &n, &p)) {
            hr_test_skip("rh shapes of more than 256 processors: too slow under TSan", 1);
            continue;
        }
        run_values("prefix.rh", spec, p, 1, 0, HR_SUM, "async", 0, &o);
        ck_assert_int_eq((int)o.res.rounds, prefix_rh_steps(k, n));
        /* n = 1 by hand: Phase I k; BB 01 and 11 get their lower neighbour's total through SB 0
         * (collector in SB 1: 3 hops), k + 3; 01 sends its block to 11 straight across SB 1's
         * link, k + 4; 11 passes it to 10 through SB 0, k + 7; Phase III k more: 2k + 7. */
        if (n == 1)
            ck_assert_int_eq((int)o.res.rounds, 2 * k + 7);
        run_values("reduce.rh_tree", spec, p, 1, p - 1, HR_SUM, "async", 0, &o);
        ck_assert_int_eq((int)o.res.rounds, reduce_rh_steps(k, n));
        /* No broadcast from one node takes fewer than log2 p steps (the informed double at
         * most each step). And sec. 2's structure bounds it from above, one message a node a
         * step: the (k-n)-cube's double-rooted tree, depth k - n, two sends a level, 2(k-n);
         * its node then may serve two subcube children before its copy, 2; a BB of the copy's
         * tree of BBs (depth 2^n with the spacer) passes the value from its NOE down its
         * n-cube tree to the NOX (depth at most n, 2n steps) and across (1); the last BBs
         * spread it inside, 2n. So at most 2(k-n) + 2 + 2^n (2n + 1) + 2n: the thesis's
         * O(k + n 2^n) with its constants for this step model. */
        run_values("bcast.rh_tree", spec, p, 1, p / 3, HR_SUM, "async", 0, &o);
        ck_assert_int_ge((int)o.res.rounds, k + (1 << n));
        ck_assert_int_le((int)o.res.rounds, 2 * (k - n) + 2 + (1 << n) * (2 * n + 1) + 2 * n);
    }
}
END_TEST

/* Every root, both disciplines, jitter: the same results and the same model figures. */
START_TEST(test_cube_every_root_sync_and_jitter)
{
    static const struct { const char *alg, *topo; int p; } cases[] = {
        { "bcast.rh_tree", "rh 2 1", 16 },    { "reduce.rh_tree", "rh 2 1", 16 },
        { "prefix.rh", "rh 2 1", 16 },        { "bcast.rh_tree", "rh 1 1", 8 },
        { "reduce.rh_tree", "rh 2 2", 64 },   { "bcast.rh_tree", "rh 2 2", 64 },
        { "bcast.binomial", "hypercube", 16 }, { "reduce.binomial", "hypercube", 16 },
        { "prefix.hypercube", "hypercube", 16 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int roots = strncmp(cases[c].alg, "prefix", 6) == 0 ? 1 : cases[c].p;
        for (int r = 0; r < roots; r += (cases[c].p > 16 ? 5 : 1)) {
            outcome a, b, y;
            run_values(cases[c].alg, cases[c].topo, cases[c].p, 2, r, HR_SUM, "async", 0, &a);
            run_values(cases[c].alg, cases[c].topo, cases[c].p, 2, r, HR_SUM, "async", 1, &y);
            run_values(cases[c].alg, cases[c].topo, cases[c].p, 2, r, HR_SUM, "sync", 1, &b);
            ck_assert_msg(a.res.status == HR_OK && a.wrong == 0, "%s on %s root %d: %s %s",
                          cases[c].alg, cases[c].topo, r, a.res.report, a.first);
            ck_assert_msg(b.res.status == HR_OK && b.wrong == 0, "%s on %s root %d (sync): %s %s",
                          cases[c].alg, cases[c].topo, r, b.res.report, b.first);
            ck_assert_int_eq(y.wrong, 0);
            ck_assert(a.res.model_time_s == y.res.model_time_s);
            ck_assert_uint_eq(a.res.rounds, y.res.rounds);
            ck_assert_uint_eq(a.res.messages, y.res.messages);
            /* Steps do not depend on the discipline. */
            ck_assert_uint_eq(a.res.rounds, b.res.rounds);
        }
    }
}
END_TEST

/* reduce.rh_tree without its relays: the BB-level sends go straight from node to node, which
 * on RH are not linked; the machine refuses the first. */
static void reduce_no_relays(hr_proc *p, void *inst, const double *params)
{
    (void)params;
    hr_values *v = inst;
    hr_cube c = hr__cube_of(p, "wrong");
    int me = hr_pid(p), t = hr__cube_bb(&c, me);
    int64_t acc = *(const int64_t *)v->in[me], in;
    if ((me & ((1 << c.k) - 1)) != 0)
        return;
    for (int i = 0; i < c.D; i++) {
        int peer = me ^ (1 << (c.k + i));
        if ((t >> i) & 1) {
            hr_send(p, peer, 0, &acc, sizeof acc);
            return;
        }
        hr_recv(p, peer, 0, &in, sizeof in, NULL);
        acc += in;
    }
}

START_TEST(test_cube_non_neighbour_refused)
{
    static const hr_algorithm wrong = { .name = "reduce.wrong", .summary = "no relays",
                                        .kind = HR_KIND_VALUES, .neighbour_only = 1,
                                        .run = reduce_no_relays };
    hr_values v = { .p = 32, .m = 1, .type = HR_INT64, .op = HR_SUM };
    int64_t ins[32], *inp[32];
    void *outs[32] = { 0 };
    for (int x = 0; x < 32; x++) {
        ins[x] = x;
        inp[x] = &ins[x];
    }
    v.in = (void **)inp;
    v.out = outs;
    hr_machine_config cfg = hr_test_config(32, "async");
    cfg.topology = "rh 3 1";
    hr_machine *m;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    hr_machine_neighbour_only(m, 1);
    job j = { &wrong, &v };
    hr_run_result res;
    ck_assert_int_eq(hr_machine_run(m, body, &j, &res), HR_OK);
    ck_assert_int_eq(res.status, HR_EMISUSE);
    /* Node 8 (BB 01, SB 0) to node 0 is a link; node 16 (BB 10, SB 0) to node 0 is not. */
    ck_assert_msg(strstr(res.report, "P16 and P0 are not neighbours on rh 3 1") != NULL, "%s",
                  res.report);
    hr_machine_destroy(m);
}
END_TEST

/* Every root of every shape up to 64 nodes (32 under TSan): broadcast and reduction verified,
 * and the reduction's steps are k + (n+1) 2^n whatever the root (the sum over the 2^n BB
 * dimensions of 2 popcount(i ^ s0) + 1 does not depend on the root's SB s0). */
START_TEST(test_cube_every_root)
{
    int cap = HR_TEST_TSAN ? 32 : 64;
    for (size_t s = 0; s < sizeof rh_shapes / sizeof rh_shapes[0]; s++) {
        int k, n, p;
        char spec[16];
        if (!rh_shape(s, cap, spec, &k, &n, &p))
            continue;
        for (int r = 0; r < p; r++) {
            outcome o;
            run_values("bcast.rh_tree", spec, p, 2, r, HR_SUM, "async", 0, &o);
            ck_assert_msg(o.res.status == HR_OK && o.wrong == 0, "bcast.rh_tree on %s root %d: %s %s",
                          spec, r, o.res.report, o.first);
            run_values("reduce.rh_tree", spec, p, 2, r, HR_MIN, "async", 0, &o);
            ck_assert_msg(o.res.status == HR_OK && o.wrong == 0, "reduce.rh_tree on %s root %d: %s %s",
                          spec, r, o.res.report, o.first);
            ck_assert_int_eq((int)o.res.rounds, reduce_rh_steps(k, n));
        }
    }
    for (int p = 2; p <= cap; p *= 2)
        for (int r = 0; r < p; r++) {
            outcome o;
            run_values("bcast.binomial", "hypercube", p, 1, r, HR_SUM, "async", 0, &o);
            ck_assert_msg(o.res.status == HR_OK && o.wrong == 0, "bcast.binomial p %d root %d: %s", p,
                          r, o.first);
            run_values("reduce.binomial", "hypercube", p, 1, r, HR_MAX, "async", 0, &o);
            ck_assert_msg(o.res.status == HR_OK && o.wrong == 0, "reduce.binomial p %d root %d: %s", p,
                          r, o.first);
        }
}
END_TEST

/* The values workload's own verifier (doubles exactly, in the algorithms' order), several seeds,
 * ops and roots, and the bytes a run must move. */
START_TEST(test_cube_workload_verifies)
{
    static const char *const shapes[] = { "rh 2 1", "rh 3 1", "rh 2 2", "rh 4 2", "hypercube" };
    static const char *const ops[] = { "sum", "max", "min" };
    const hr_workload *w = hr_workload_find("values");
    ck_assert_ptr_nonnull(w);
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            int p = sh == 4 ? 64 << (2 * (seed & 1)) : 0;
            hr_machine_config cfg = hr_test_config(p, "async");
            cfg.topology = shapes[sh];
            cfg.seed = seed;
            hr_machine *m;
            ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
            p = hr_machine_procs(m);
            if (p > (HR_TEST_TSAN ? 64 : 1024)) {
                hr_test_skip("more than 64 processors: too slow under TSan", 1);
                hr_machine_destroy(m);
                continue;
            }
            for (int a = 0; hr_algorithm_at(a) != NULL; a++) {
                const hr_algorithm *alg = hr_algorithm_at(a);
                if (alg->kind != HR_KIND_VALUES || !hr_algorithm_takes(alg, shapes[sh]))
                    continue;
                hr_wkey_value keys[2] = {
                    { .word = ops[(seed + (uint64_t)a) % 3] },
                    { .num = (double)((seed * 7 + (uint64_t)a) % (uint64_t)p) } };
                hr_workload_spec spec = { .kind = "values", .n = (uint64_t)p * (seed + 1),
                                          .dataset = seed == 2 ? "int" : "double",
                                          .keys = keys, .seed = seed };
                void *inst;
                char why[256] = "";
                ck_assert_int_eq(w->make(&spec, p, &inst, why, sizeof why), HR_OK);
                hr_machine_neighbour_only(m, alg->neighbour_only);
                job j = { alg, inst };
                hr_run_result res;
                ck_assert_int_eq(hr_machine_run(m, body, &j, &res), HR_OK);
                ck_assert_msg(res.status == HR_OK, "%s: %s", alg->name, res.report);
                ck_assert_msg(hr_workload_verify(w, inst, res.bytes, why, sizeof why) == HR_OK,
                              "%s on %s, seed %llu, %s %s: %s", alg->name, shapes[sh],
                              (unsigned long long)seed, spec.dataset, keys[0].word, why);
                w->destroy(inst);
            }
            hr_machine_destroy(m);
        }
}
END_TEST

/* ---- the sorts ------------------------------------------------------------------------------ */

/* Steps of sort.rh_bitonic, by hand from sec. 5 as the code reads it: Phase I's stages inside
 * the k-cube BB, k (k + 1) / 2; the gather to SB 0 and its reverse, n each; stage k + i' (i' = 0
 * .. D-1) has i' + 1 BB dimensions, one exchange each, its k - n dimensions along SB links (its n
 * SB-address dimensions are local: no step), and moves the blocks from SB 0 to SB i' and down
 * i' - 1, ..., 0: popcount(i') + (bit flips counting from i' down to 0: 2 i' - popcount(i')) =
 * 2 i' hops. Sum: k(k+1)/2 + 2n + D(k-n) + 3 D (D-1) / 2 + D. RH(2,1): 3 + 2 + 2 + 3 + 2 = 12,
 * counted by hand step by step as well; the hypercube of 16: 4 * 5 / 2 = 10. */
static int rh_sort_steps(int k, int n)
{
    int D = 1 << n;
    return k * (k + 1) / 2 + 2 * n + D * (k - n) + 3 * D * (D - 1) / 2 + D;
}

static hr_run_result run_sort(const char *name, const char *topology, int p, uint64_t n,
                              const char *dataset, uint64_t seed, int jitter, char *why)
{
    const hr_algorithm *alg = hr_algorithm_find(name);
    const hr_workload *w = hr_workload_find("sort");
    ck_assert_ptr_nonnull(alg);
    hr_machine_config cfg = hr_test_config(p, "async");
    cfg.topology = topology;
    cfg.seed = seed;
    cfg.jitter = jitter;
    hr_machine *m;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    p = hr_machine_procs(m);
    hr_machine_neighbour_only(m, 1);
    hr_workload_spec spec = { .kind = "sort", .n = n * (uint64_t)p, .dataset = dataset,
                              .seed = seed };
    void *inst;
    ck_assert_int_eq(w->make(&spec, p, &inst, why, 256), HR_OK);
    job j = { alg, inst };
    hr_run_result res;
    ck_assert_int_eq(hr_machine_run(m, body, &j, &res), HR_OK);
    why[0] = '\0';
    if (res.status == HR_OK && hr_workload_verify(w, inst, res.bytes, why, 256) != HR_OK)
        res.status = HR_EVERIFY;
    else if (res.status != HR_OK)
        snprintf(why, 256, "%.200s", res.report);
    w->destroy(inst);
    hr_machine_destroy(m);
    return res;
}

START_TEST(test_cube_sorts)
{
    static const char *const datasets[] = { "R", "S", "C", "N" };
    char why[256];
    int cap = HR_TEST_TSAN ? 256 : 1024;
    if (HR_TEST_TSAN)
        hr_test_skip("rh shapes of more than 256 processors: too slow under TSan", 1);
    for (size_t s = 0; s < sizeof rh_shapes / sizeof rh_shapes[0]; s++) {
        int k, n, p;
        char spec[16];
        if (!rh_shape(s, cap, spec, &k, &n, &p))
            continue;
        for (int d = 0; d < 4; d++) {
            uint64_t b = (uint64_t)(d == 0 ? 1 : 3 + 5 * d), seed = 1 + s + (size_t)d;
            hr_run_result res = run_sort("sort.rh_bitonic", spec, p, b, datasets[d], seed, 0, why);
            ck_assert_msg(res.status == HR_OK, "sort.rh_bitonic on %s, %s, %llu keys a node: %s",
                          spec, datasets[d], (unsigned long long)b, why);
            ck_assert_int_eq((int)res.rounds, rh_sort_steps(k, n));
        }
    }
    for (int dim = 1; (1 << dim) <= cap; dim++)
        for (int d = 0; d < 4; d++) {
            hr_run_result res = run_sort("sort.bitonic", "hypercube", 1 << dim, (uint64_t)(1 + 7 * d),
                                         datasets[d], (uint64_t)(dim + d), 0, why);
            ck_assert_msg(res.status == HR_OK, "sort.bitonic on p = %d, %s: %s", 1 << dim,
                          datasets[d], why);
            ck_assert_int_eq((int)res.rounds, dim * (dim + 1) / 2);
        }
    /* Jitter and sync change nothing in the model. */
    hr_run_result a = run_sort("sort.rh_bitonic", "rh 3 1", 32, 40, "S", 5, 0, why);
    hr_run_result b = run_sort("sort.rh_bitonic", "rh 3 1", 32, 40, "S", 5, 1, why);
    ck_assert_int_eq(b.status, HR_OK);
    ck_assert(a.model_time_s == b.model_time_s);
    ck_assert_uint_eq(a.rounds, b.rounds);
    ck_assert_uint_eq(a.bytes, b.bytes);
    /* n not a multiple of p. */
    const hr_algorithm *alg = hr_algorithm_find("sort.bitonic");
    const hr_workload *w = hr_workload_find("sort");
    hr_machine_config cfg = hr_test_config(8, "async");
    cfg.topology = "hypercube";
    hr_machine *m;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    hr_workload_spec spec = { .kind = "sort", .n = 20, .dataset = "R", .seed = 1 };
    void *inst;
    ck_assert_int_eq(w->make(&spec, 8, &inst, why, sizeof why), HR_OK);
    job j = { alg, inst };
    hr_run_result res;
    ck_assert_int_eq(hr_machine_run(m, body, &j, &res), HR_OK);
    ck_assert_int_eq(res.status, HR_EFAIL);
    ck_assert_msg(strstr(res.report, "sort.bitonic needs n divisible by p (n = 20, p = 8)") != NULL,
                  "%s", res.report);
    w->destroy(inst);
    hr_machine_destroy(m);
}
END_TEST

/* make stress: every root of every shape up to 1024 processors, RH(k,n) and hypercubes, for the
 * broadcasts and reductions (HREMU_STRESS=1 only: some 3 minutes); `make check` does every root
 * up to 64 processors and one root a shape above. */
START_TEST(test_cube_stress_every_root)
{
    for (size_t s = 0; s < sizeof rh_shapes / sizeof rh_shapes[0]; s++) {
        int k, n, p;
        char spec[16];
        if (!rh_shape(s, 1024, spec, &k, &n, &p) || p <= 64)
            continue;
        for (int r = 0; r < p; r++) {
            outcome o;
            run_values("bcast.rh_tree", spec, p, 1, r, HR_SUM, "async", 0, &o);
            ck_assert_msg(o.res.status == HR_OK && o.wrong == 0, "bcast.rh_tree on %s root %d: %s %s",
                          spec, r, o.res.report, o.first);
            run_values("reduce.rh_tree", spec, p, 1, r, HR_MAX, "async", 0, &o);
            ck_assert_msg(o.res.status == HR_OK && o.wrong == 0, "reduce.rh_tree on %s root %d: %s %s",
                          spec, r, o.res.report, o.first);
            ck_assert_int_eq((int)o.res.rounds, reduce_rh_steps(k, n));
        }
    }
    for (int p = 128; p <= 1024; p *= 2)
        for (int r = 0; r < p; r++) {
            outcome o;
            run_values("bcast.binomial", "hypercube", p, 1, r, HR_SUM, "async", 0, &o);
            ck_assert_msg(o.res.status == HR_OK && o.wrong == 0, "bcast.binomial p %d root %d: %s", p,
                          r, o.first);
            run_values("reduce.binomial", "hypercube", p, 1, r, HR_MIN, "async", 0, &o);
            ck_assert_msg(o.res.status == HR_OK && o.wrong == 0, "reduce.binomial p %d root %d: %s", p,
                          r, o.first);
        }
}
END_TEST

Suite *hr_cube_suite(void)
{
    Suite *s = suite_create("cube");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_cube_ft3_bt3_properties);
    tcase_add_test(tc, test_cube_drtree_is_double_rooted);
    tcase_add_test(tc, test_cube_prefix_plan);
    tcase_add_test(tc, test_cube_paths_follow_links);
    tcase_add_test(tc, test_cube_every_shape_every_algorithm);
    tcase_add_test(tc, test_cube_steps);
    tcase_add_test(tc, test_cube_every_root_sync_and_jitter);
    tcase_add_test(tc, test_cube_non_neighbour_refused);
    tcase_add_test(tc, test_cube_every_root);
    tcase_add_test(tc, test_cube_workload_verifies);
    tcase_add_test(tc, test_cube_sorts);
    suite_add_tcase(s, tc);
    if (getenv("HREMU_STRESS") != NULL) {
        tc = tcase_create("stress");
        tcase_set_timeout(tc, 3600);
        tcase_add_test(tc, test_cube_stress_every_root);
        suite_add_tcase(s, tc);
    }
    return s;
}
