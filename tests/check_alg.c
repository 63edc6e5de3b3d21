/* check_alg.c: the algorithm registry, and every algorithm run on real machines and verified. */
#include "hr_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hremu/algorithm.h>
#include <hremu/workload.h>

#include "net/discipline.h"

START_TEST(test_alg_registry_sorted_unique_described)
{
    const hr_algorithm *prev = NULL;
    int n = 0;
    for (const hr_algorithm *a; (a = hr_algorithm_at(n)) != NULL; n++, prev = a) {
        ck_assert_ptr_nonnull(a->run);
        ck_assert(a->summary != NULL && strlen(a->summary) > 10);
        ck_assert_ptr_eq(hr_algorithm_find(a->name), a);
        ck_assert(strchr(a->name, '.') != NULL);
        if (prev != NULL)
            ck_assert_msg(strcmp(prev->name, a->name) < 0, "%s before %s", prev->name, a->name);
        ck_assert_ptr_nonnull(hr_workload_at(0));
        for (const hr_param_spec *ps = a->params; ps != NULL && ps->name != NULL; ps++)
            ck_assert(ps->min <= ps->def && ps->def <= ps->max);
    }
    ck_assert_int_ge(n, 1);
    ck_assert_ptr_null(hr_algorithm_find("hrel.nonesuch"));
    ck_assert_ptr_null(hr_algorithm_at(-1));
}
END_TEST

START_TEST(test_alg_allows_disciplines)
{
    hr_algorithm a = { .name = "x.y", .disciplines = "fifo,priority" };
    ck_assert(hr_algorithm_allows(&a, "fifo"));
    ck_assert(hr_algorithm_allows(&a, "priority"));
    ck_assert(!hr_algorithm_allows(&a, "prio"));
    ck_assert(!hr_algorithm_allows(&a, "async"));
    a.disciplines = NULL;
    ck_assert(hr_algorithm_allows(&a, "async"));
    /* A list and needs together: named in the list and meeting the needs. */
    a.disciplines = "fifo,arbitrary,async";
    a.needs = HR_NEEDS_ROUNDS | HR_NEEDS_QUEUES;
    ck_assert(hr_algorithm_allows(&a, "fifo"));
    ck_assert(!hr_algorithm_allows(&a, "priority"));   /* meets the needs, not in the list */
    ck_assert(!hr_algorithm_allows(&a, "arbitrary"));  /* in the list, no queues */
    ck_assert(!hr_algorithm_allows(&a, "async"));
}
END_TEST

/* The disciplines every built-in algorithm was defined for when rows listed them by name, by
 * hand: its needs must give exactly these. A discipline added later needs a column here (the
 * eager one is below). */
static const struct {
    const char *alg, *disciplines;
} fits[] = {
    { "app.fft2d", "async,sync" },
    { "bcast.binomial", "async,sync" },
    { "bcast.linear", "async,sync" },
    { "bcast.recursive", "async,sync" },
    { "bcast.rh_tree", "async,sync" },
    { "bcast.system", "async,sync" },
    { "hrel.aw_uniform", "arbitrary" },
    { "hrel.aw_weighted", "arbitrary" },
    { "hrel.direct", "arbitrary,async,fifo,ocpc,priority,sync" },
    { "hrel.fifo_staged", "fifo,priority" },
    { "hrel.ocpc_gt", "arbitrary,ocpc" },
    { "hrel.offline", "arbitrary,fifo,ocpc,priority" },
    { "hrel.pq_random", "priority" },
    { "hrel.two_phase", "arbitrary,async,fifo,ocpc,priority,sync" },
    { "hrel.xor", "async" },
    { "irreg.ac", "async" },
    { "irreg.bs", "async,sync" },
    { "irreg.cgm", "async,sync" },
    { "irreg.cgm_heap", "async,sync" },
    { "irreg.cgm_sort", "async,sync" },
    { "irreg.cgmh_bj", "async,sync" },
    { "irreg.cgmh_fixed", "async,sync" },
    { "irreg.cgmh_ms", "async,sync" },
    { "irreg.gs", "async,sync" },
    { "irreg.lp", "async,sync" },
    { "irreg.ls", "async,sync" },
    { "irreg.ps", "async,sync" },
    { "prefix.hypercube", "async,sync" },
    { "prefix.rh", "async,sync" },
    { "reduce.binomial", "async,sync" },
    { "reduce.rh_tree", "async,sync" },
    { "sort.bitonic", "async,sync" },
    { "sort.counting", "arbitrary,async,fifo,ocpc,priority,sync" },
    { "sort.radix", "arbitrary,async,fifo,ocpc,priority,sync" },
    { "sort.rh_bitonic", "async,sync" },
    { "xchg.bex", "async,sync" },
    { "xchg.lex", "async,sync" },
    { "xchg.pex", "async,sync" },
    { "xchg.rex", "async,sync" },
    { "xchg.system", "async,sync" },
};
#define NFITS (sizeof fits / sizeof fits[0])

/* The eager discipline (sends copied up to a byte threshold, rendezvous above it; traits STALLS
 * only): every algorithm written for point-to-point messages in general takes it, since none
 * deadlocks when a send waits for its receive (they all run under sync); hrel.xor and irreg.ac
 * do not, since they rely on every send completing at once, which a message above the threshold
 * does not; the round algorithms do not (no rounds); those that call collectives only do. */
static const char *const eager_takers[] = {
    "app.fft2d", "bcast.binomial", "bcast.linear", "bcast.recursive", "bcast.rh_tree",
    "bcast.system", "hrel.direct", "hrel.two_phase", "irreg.bs", "irreg.cgm", "irreg.cgm_heap",
    "irreg.cgm_sort", "irreg.cgmh_bj", "irreg.cgmh_fixed", "irreg.cgmh_ms", "irreg.gs",
    "irreg.lp", "irreg.ls", "irreg.ps", "prefix.hypercube", "prefix.rh", "reduce.binomial",
    "reduce.rh_tree", "sort.bitonic", "sort.counting", "sort.radix", "sort.rh_bitonic",
    "xchg.bex", "xchg.lex", "xchg.pex", "xchg.rex", "xchg.system",
};

static int named_in(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = list; (s = strstr(s, name)) != NULL; s += n)
        if ((s == list || s[-1] == ',') && (s[n] == ',' || s[n] == '\0'))
            return 1;
    return 0;
}

static int takes_eager(const char *alg)
{
    for (size_t k = 0; k < sizeof eager_takers / sizeof eager_takers[0]; k++)
        if (strcmp(eager_takers[k], alg) == 0)
            return 1;
    return 0;
}

/* Every built-in algorithm against every discipline: allowed exactly where the table says (the
 * eager column from its own list, once that discipline is a row). */
START_TEST(test_alg_needs_fit_every_discipline)
{
    size_t n = 0;
    for (const hr_algorithm *a; (a = hr_algorithm_at((int)n)) != NULL; n++) {
        ck_assert_msg(n < NFITS && strcmp(fits[n].alg, a->name) == 0,
                      "%s has no expectation in fits[] (or is out of its order)", a->name);
        for (int d = 0; hr_discipline_name(d, NULL) != NULL; d++) {
            const char *disc = hr_discipline_name(d, NULL);
            int want = strcmp(disc, "eager") == 0 ? takes_eager(a->name)
                                                  : named_in(fits[n].disciplines, disc);
            ck_assert_msg(strcmp(disc, "eager") == 0 || named_in("arbitrary,async,fifo,ocpc,"
                                                                 "priority,sync", disc),
                          "discipline %s: add its column to fits[]", disc);
            ck_assert_msg(hr_algorithm_allows(a, disc) == want, "%s under %s: %d, expected %d",
                          a->name, disc, hr_algorithm_allows(a, disc), want);
            ck_assert_int_eq(hr_discipline_unmet(disc, a->needs) == 0, want);
        }
    }
    ck_assert_uint_eq(n, NFITS);
}
END_TEST

/* The eager column before its row lands: the needs against the traits the row will have
 * (STALLS: not rendezvous, not buffered); and against the row itself once it is there. */
START_TEST(test_alg_needs_eager_column)
{
    int takers = 0;
    for (int i = 0; hr_algorithm_at(i) != NULL; i++) {
        const hr_algorithm *a = hr_algorithm_at(i);
        int want = takes_eager(a->name);
        takers += want;
        ck_assert_msg((hr__discipline_unmet(HR_DISC_STALLS, a->needs) == 0) == want,
                      "%s under eager: expected %d", a->name, want);
        if (hr__discipline_find("eager") != NULL)
            ck_assert_int_eq(hr_algorithm_allows(a, "eager"), want);
    }
    ck_assert_int_eq(takers, (int)(sizeof eager_takers / sizeof eager_takers[0]));
}
END_TEST

/* What each need asks of the traits, one discipline at a time, by hand. */
START_TEST(test_alg_needs_against_traits)
{
    ck_assert_uint_eq(hr_discipline_unmet("async", HR_NEEDS_P2P | HR_NEEDS_COPY_SENDS), 0);
    ck_assert_uint_eq(hr_discipline_unmet("sync", HR_NEEDS_P2P | HR_NEEDS_COPY_SENDS),
                      HR_NEEDS_COPY_SENDS);
    ck_assert_uint_eq(hr_discipline_unmet("fifo", HR_NEEDS_P2P | HR_NEEDS_ROUNDS), HR_NEEDS_P2P);
    ck_assert_uint_eq(hr_discipline_unmet("async", HR_NEEDS_ROUNDS | HR_NEEDS_QUEUES),
                      HR_NEEDS_ROUNDS | HR_NEEDS_QUEUES);
    ck_assert_uint_eq(hr_discipline_unmet("priority", HR_NEEDS_QUEUES | HR_NEEDS_PRIORITIES), 0);
    ck_assert_uint_eq(hr_discipline_unmet("fifo", HR_NEEDS_PRIORITIES | HR_NEEDS_LOSSES),
                      HR_NEEDS_PRIORITIES | HR_NEEDS_LOSSES);
    ck_assert_uint_eq(hr_discipline_unmet("ocpc", HR_NEEDS_LOSSES | HR_NEEDS_ONE_RECEIVED),
                      HR_NEEDS_ONE_RECEIVED);
    ck_assert_uint_eq(hr_discipline_unmet("arbitrary", HR_NEEDS_LOSSES | HR_NEEDS_ONE_RECEIVED),
                      0);
    ck_assert_uint_eq(hr_discipline_unmet("fifo", HR_NEEDS_ONE_RECEIVED), 0);
    ck_assert_uint_eq(hr_discipline_unmet("async", 0), 0);
    ck_assert_uint_eq(hr_discipline_unmet("nonesuch", HR_NEEDS_P2P), HR_NEEDS_P2P);
    ck_assert_uint_eq(hr_discipline_unmet(NULL, HR_NEEDS_ROUNDS), HR_NEEDS_ROUNDS);
    ck_assert_uint_eq(hr_discipline_unmet("async", 1u << 30), 1u << 30);  /* unknown: unmet */
}
END_TEST

START_TEST(test_alg_needs_in_words)
{
    char buf[128];
    ck_assert_uint_eq(hr_needs_text(0, buf, sizeof buf), 0);
    ck_assert_str_eq(buf, "");
    hr_needs_text(HR_NEEDS_ROUNDS, buf, sizeof buf);
    ck_assert_str_eq(buf, "rounds");
    hr_needs_text(HR_NEEDS_ROUNDS | HR_NEEDS_QUEUES, buf, sizeof buf);
    ck_assert_str_eq(buf, "rounds and queues");
    size_t n = hr_needs_text(HR_NEEDS_ROUNDS | HR_NEEDS_QUEUES | HR_NEEDS_PRIORITIES, buf,
                             sizeof buf);
    ck_assert_str_eq(buf, "rounds, queues and priorities");
    ck_assert_uint_eq(n, strlen("rounds, queues and priorities"));
    char small[8];
    ck_assert_uint_eq(hr_needs_text(HR_NEEDS_ROUNDS | HR_NEEDS_QUEUES, small, sizeof small),
                      strlen("rounds and queues"));
    ck_assert_str_eq(small, "rounds ");
    ck_assert_uint_eq(hr_needs_text(HR_NEEDS_ROUNDS, NULL, 0), 6);
}
END_TEST

static void run_nothing(hr_proc *p, void *inst, const double *params);

/* Word-valued parameters: the k-th word stands for k; a row's words must be well formed. */
START_TEST(test_alg_param_words)
{
    static const hr_param_spec xchg = { .name = "xchg", .summary = "x", .def = 2, .max = 4,
                                        .integer = 1, .choices = "transpose, lex, pex, rex, bex" };
    ck_assert_int_eq(hr_param_choice(&xchg, "transpose", 9), 0);
    ck_assert_int_eq(hr_param_choice(&xchg, "pex", 3), 2);
    ck_assert_int_eq(hr_param_choice(&xchg, "bex", 3), 4);
    ck_assert_int_eq(hr_param_choice(&xchg, "pe", 2), -1);
    ck_assert_int_eq(hr_param_choice(&xchg, "pexx", 4), -1);
    ck_assert_int_eq(hr_param_choice(&xchg, "2", 1), -1);
    size_t n = 0;
    const char *w = hr_param_word(&xchg, 3, &n);
    ck_assert(w != NULL && n == 3 && strncmp(w, "rex", 3) == 0);
    ck_assert_ptr_null(hr_param_word(&xchg, 5, &n));
    /* The built-in rows' words: each one stands for its own number, min 0 to max. */
    int worded = 0;
    for (int i = 0; hr_algorithm_at(i) != NULL; i++)
        for (const hr_param_spec *s = hr_algorithm_at(i)->params; s && s->name; s++) {
            if (s->choices == NULL)
                continue;
            worded++;
            ck_assert(s->integer && s->min == 0);
            for (int k = 0; k <= (int)s->max; k++) {
                ck_assert_ptr_nonnull(w = hr_param_word(s, k, &n));
                ck_assert_int_eq(hr_param_choice(s, w, n), k);
            }
            ck_assert_ptr_null(hr_param_word(s, (int)s->max + 1, &n));
        }
    ck_assert_int_ge(worded, 3);   /* xchg, group, base (twice) */
    /* Registration refuses words that do not fit the range, or are not words. */
    static const struct { const char *choices; double max; int integer; } bad[] = {
        { "a, b", 2, 1 }, { "a, b, c", 1, 1 }, { "a, b", 1, 0 }, { "a, a", 1, 1 },
        { "a b, c", 1, 1 }, { "a,, c", 2, 1 }, { "a-b, c", 1, 1 }, { "", 0, 1 },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        hr_param_spec ps[2] = { { .name = "x", .summary = "x", .max = bad[k].max,
                                  .integer = bad[k].integer, .choices = bad[k].choices },
                                { .name = NULL } };
        hr_algorithm a = { .name = "mine.words", .summary = "x", .kind = HR_KIND_USER,
                           .run = run_nothing, .params = ps };
        const char *why = NULL;
        ck_assert_msg(hr_algorithm_register(&a, &why) == HR_EINVAL, "%s", bad[k].choices);
        ck_assert_msg(strstr(why, "choices") != NULL, "%s", why);
    }
}
END_TEST

/* Registration refuses needs that are no HR_NEEDS_* bits, or point-to-point with rounds. */
START_TEST(test_alg_register_needs)
{
    hr_algorithm a = { .name = "mine.needs", .summary = "x", .kind = HR_KIND_USER,
                       .run = run_nothing, .needs = 1u << 20 };
    const char *why = NULL;
    ck_assert_int_eq(hr_algorithm_register(&a, &why), HR_EINVAL);
    ck_assert_msg(strstr(why, "HR_NEEDS_") != NULL, "%s", why);
    a.needs = HR_NEEDS_P2P | HR_NEEDS_ROUNDS;
    ck_assert_int_eq(hr_algorithm_register(&a, &why), HR_EINVAL);
    ck_assert_msg(strstr(why, "not both") != NULL, "%s", why);
    a.needs = HR_NEEDS_P2P | HR_NEEDS_QUEUES;
    ck_assert_int_eq(hr_algorithm_register(&a, &why), HR_EINVAL);
}
END_TEST

typedef struct alg_job {
    const hr_algorithm *alg;
    void               *inst;
    double              params[8];
    int                 corrupt;     /* drop processor 0's last received element */
} alg_job;

static void body_alg(hr_proc *p, void *arg)
{
    alg_job *j = arg;
    j->alg->run(p, j->inst, j->params);
    if (j->corrupt && hr_pid(p) == 0) {
        hr_hrel *h = j->inst;
        if (h->out_count[0] > 0)
            h->out_count[0]--;
    }
}

/* Run alg with parameters params (NULL: the defaults) on a fresh machine of p processors with
 * discipline disc (NULL: async) and the given seed, on the instance spec makes; returns the
 * verify code (or the run's status if it failed). */
static int run_params(const hr_algorithm *a, const double *params, int p, const char *disc,
                      uint64_t seed, int jitter, const hr_workload_spec *spec, int corrupt,
                      hr_run_result *res, char *why, size_t whylen)
{
    const hr_workload *w = hr_workload_find(spec->kind);
    alg_job j = { .alg = a, .corrupt = corrupt };
    for (int k = 0; a->params != NULL && a->params[k].name != NULL; k++)
        j.params[k] = params != NULL ? params[k] : a->params[k].def;
    ck_assert_msg(w->make(spec, p, &j.inst, why, whylen) == HR_OK, "make: %s", why);
    if (a->plan != NULL)
        ck_assert_msg(a->plan(j.inst, &(hr_plan_args){ .seed = 1 }, why, whylen) == HR_OK, "plan: %s", why);
    hr_machine_config cfg = hr_test_config(p, disc);
    cfg.seed = seed;
    cfg.jitter = jitter;
    hr_machine *m;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    ck_assert_int_eq(hr_machine_run(m, body_alg, &j, res), HR_OK);
    /* outputs are the processors' memory: verify before the machine goes */
    int v = res->status == HR_OK ? w->verify(j.inst, why, whylen) : res->status;
    hr_machine_destroy(m);
    if (a->unplan != NULL)
        a->unplan(j.inst);
    w->destroy(j.inst);
    return v;
}

/* run_params with the algorithm's default parameters. */
static int run_on(const hr_algorithm *a, int p, const char *disc, uint64_t seed, int jitter,
                  const hr_workload_spec *spec, int corrupt, hr_run_result *res, char *why,
                  size_t whylen)
{
    return run_params(a, NULL, p, disc, seed, jitter, spec, corrupt, res, why, whylen);
}

static int run_spec(const hr_algorithm *a, int p, const hr_workload_spec *spec, int corrupt,
                    hr_run_result *res, char *why, size_t whylen)
{
    return run_on(a, p, NULL, 1, -1, spec, corrupt, res, why, whylen);
}

/* An h-relation of distribution dist. */
static int run_alg(const hr_algorithm *a, int p, const char *dist, uint64_t n, uint64_t h,
                   int corrupt, hr_run_result *res, char *why, size_t whylen)
{
    hr_workload_spec spec = { .kind = "hrelation", .n = n, .h = h, .distribution = dist,
                              .seed = 3 };
    return run_spec(a, p, &spec, corrupt, res, why, whylen);
}

START_TEST(test_alg_every_algorithm_verifies)
{
    static const int sizes[] = { 1, 2, 3, 4, 7, 16, 64 };
    static const char *dists[] = { "uniform", "transpose", "skewed" };
    char why[256];
    for (int i = 0; hr_algorithm_at(i) != NULL; i++) {
        const hr_algorithm *a = hr_algorithm_at(i);
        if (a->kind != HR_KIND_HRELATION || !hr_algorithm_allows(a, "async"))
            continue;   /* the round algorithms: test_alg_round_algorithms_deliver */
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (size_t d = 0; d < 3; d++) {
                int p = sizes[s];
                uint64_t n = (uint64_t)p * p * 16;
                hr_run_result res;
                /* eq. (7) needs 2n/h whole and at most p: h = 4n/p for even p >= 4, 2n/p for
                 * the others (h = n/p is the transpose case, for p = 1) */
                uint64_t h = d != 2 ? 0 : p == 1 ? n : p >= 4 && p % 2 == 0 ? 4 * n / p : 2 * n / p;
                int v = run_alg(a, p, dists[d], n, h, 0, &res, why, sizeof why);
                ck_assert_msg(v == HR_OK, "%s p=%d %s: %s %s", a->name, p, dists[d], why,
                              res.report);
            }
    }
}
END_TEST

/* ---- seed 003: the round algorithms --------------------------------------------------------- */

static const char *const round_discs[] = { "fifo", "priority", "arbitrary", "ocpc" };

/* The i-th algorithm, if it is a round algorithm defined for round_discs[d]; else NULL. */
static const hr_algorithm *round_alg(int i, int d)
{
    const hr_algorithm *a = hr_algorithm_at(i);
    if (a->kind != HR_KIND_HRELATION || hr_algorithm_allows(a, "async") ||
        !hr_algorithm_allows(a, round_discs[d]))
        return NULL;
    return a;
}

/* Every round algorithm, on every discipline it is defined for, delivers every message exactly
 * once (the verifier) for p in {2, 3, 8, 64}, on all-to-all and on random 5-relations; and on
 * the difficult relation of Theorem 1 (h = 3, p = 15). */
START_TEST(test_alg_round_algorithms_deliver)
{
    static const int sizes[] = { 2, 3, 8, 64 };
    char why[256];
    for (int i = 0; hr_algorithm_at(i) != NULL; i++)
        for (int d = 0; d < 4; d++) {
            const hr_algorithm *a = round_alg(i, d);
            if (a == NULL)
                continue;
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                int p = sizes[s];
                hr_workload_spec all = { .kind = "hrelation", .n = (uint64_t)p * (uint64_t)(p - 1),
                                         .distribution = "alltoall", .seed = 3 };
                hr_workload_spec rnd = { .kind = "hrelation", .n = 5 * (uint64_t)p, .h = 5,
                                         .distribution = "random", .seed = 4 };
                hr_run_result res;
                int v = run_on(a, p, round_discs[d], 1, -1, &all, 0, &res, why, sizeof why);
                ck_assert_msg(v == HR_OK, "%s %s p=%d alltoall: %s %s", a->name, round_discs[d], p,
                              why, res.report);
                ck_assert_uint_ge(res.rounds, (uint64_t)p - 1);
                v = run_on(a, p, round_discs[d], 1, -1, &rnd, 0, &res, why, sizeof why);
                ck_assert_msg(v == HR_OK, "%s %s p=%d random: %s %s", a->name, round_discs[d], p,
                              why, res.report);
                ck_assert_uint_ge(res.rounds, 5);
            }
            hr_workload_spec dif = { .kind = "hrelation", .n = 3 + 3 * 2 * 3, .h = 3,
                                     .distribution = "difficult", .seed = 5 };
            hr_run_result res;
            int v = run_on(a, 15, round_discs[d], 1, -1, &dif, 0, &res, why, sizeof why);
            ck_assert_msg(v == HR_OK, "%s %s difficult: %s %s", a->name, round_discs[d], why,
                          res.report);
        }
}
END_TEST

/* Seed 003 section 2: off-line, an h-relation takes exactly h rounds, with nothing lost or
 * queued, under every discipline. */
START_TEST(test_alg_offline_takes_h_rounds)
{
    static const int sizes[] = { 2, 3, 8, 64 };
    static const uint64_t hs[] = { 1, 3, 8 };
    const hr_algorithm *a = hr_algorithm_find("hrel.offline");
    char why[256];
    for (int d = 0; d < 4; d++)
        for (size_t s = 0; s < 4; s++)
            for (size_t k = 0; k < 3; k++) {
                int p = sizes[s];
                hr_workload_spec rnd = { .kind = "hrelation", .n = hs[k] * (uint64_t)p,
                                         .h = hs[k], .distribution = "random", .seed = 11 + k };
                hr_run_result res;
                int v = run_on(a, p, round_discs[d], 1, -1, &rnd, 0, &res, why, sizeof why);
                ck_assert_msg(v == HR_OK, "%s p=%d h=%d: %s %s", round_discs[d], p, (int)hs[k],
                              why, res.report);
                ck_assert_uint_eq(res.rounds, hs[k]);
                ck_assert_uint_eq(res.lost, 0);
                ck_assert_uint_eq(res.stalls, 0);
                ck_assert_uint_eq(res.messages, hs[k] * (uint64_t)p);
            }
}
END_TEST

/* Seed 003 sec. 5, as docs/seed003.md reads it: hrel.aw_weighted runs every stage of Theorem 10
 * to its full length, t_k = ceil(alpha beta (1+beta)/(1-beta) (h_k + ln p)) rounds with
 * h_k = h (1-beta)^k, until h_k < h^(2/5). On the all-to-all of 64 (h = 63, beta = 0.1) that is
 * 24 stages of 134 rounds in all (by hand: 0.1974 (56.7 + 4.16) = 12.01 -> 13, ..., 0.1974
 * (5.03 + 4.16) -> 2); the final phase adds a few, and docs/seed003.md measures 2.17h. Every
 * message sent is received or lost, and each is received once: messages - lost = n. */
START_TEST(test_alg_aw_weighted_stages_run_full_length)
{
    const hr_algorithm *a = hr_algorithm_find("hrel.aw_weighted");
    ck_assert_ptr_nonnull(a);
    char why[256];
    for (uint64_t seed = 1; seed <= 3; seed++) {
        hr_workload_spec all = { .kind = "hrelation", .n = 64 * 63, .distribution = "alltoall",
                                 .seed = 3 };
        hr_run_result res;
        int v = run_on(a, 64, "arbitrary", seed, -1, &all, 0, &res, why, sizeof why);
        ck_assert_msg(v == HR_OK, "seed %d: %s %s", (int)seed, why, res.report);
        ck_assert_msg(res.rounds >= 134 && res.rounds <= 141, "seed %d: %llu rounds", (int)seed,
                      (unsigned long long)res.rounds);
        ck_assert_uint_eq(res.messages - res.lost, 64 * 63);
    }
}
END_TEST

/* The model columns of every round algorithm, on every discipline it takes, are the same with
 * HREMU_JITTER's random yields and sleeps as without. */
START_TEST(test_alg_round_algorithms_deterministic)
{
    char why[256];
    for (int i = 0; hr_algorithm_at(i) != NULL; i++)
        for (int d = 0; d < 4; d++) {
            const hr_algorithm *a = round_alg(i, d);
            if (a == NULL)
                continue;
            hr_workload_spec all = { .kind = "hrelation", .n = 16 * 15, .distribution = "alltoall",
                                     .seed = 3 };
            hr_run_result x, y;
            ck_assert_int_eq(run_on(a, 16, round_discs[d], 9, 0, &all, 0, &x, why, sizeof why),
                             HR_OK);
            ck_assert_int_eq(run_on(a, 16, round_discs[d], 9, 1, &all, 0, &y, why, sizeof why),
                             HR_OK);
            ck_assert_msg(x.rounds == y.rounds && x.lost == y.lost && x.stalls == y.stalls &&
                              x.messages == y.messages && x.model_time_s == y.model_time_s,
                          "%s %s: %llu/%llu rounds", a->name, round_discs[d],
                          (unsigned long long)x.rounds, (unsigned long long)y.rounds);
        }
}
END_TEST

/* make stress: the same on random 4-relations, for several seeds and sizes, each against two
 * jittered runs (HREMU_STRESS=1 only). */
START_TEST(test_alg_round_stress)
{
    static const int sizes[] = { 5, 16, 64 };
    char why[256];
    for (int i = 0; hr_algorithm_at(i) != NULL; i++)
        for (int d = 0; d < 4; d++) {
            const hr_algorithm *a = round_alg(i, d);
            for (size_t s = 0; a != NULL && s < 3; s++)
                for (uint64_t seed = 1; seed <= 5; seed++) {
                    int p = sizes[s];
                    hr_workload_spec rnd = { .kind = "hrelation", .n = 4 * (uint64_t)p, .h = 4,
                                             .distribution = "random", .seed = seed };
                    hr_run_result x, y;
                    ck_assert_int_eq(run_on(a, p, round_discs[d], seed, 0, &rnd, 0, &x, why,
                                            sizeof why), HR_OK);
                    for (int rep = 0; rep < 2; rep++) {
                        ck_assert_int_eq(run_on(a, p, round_discs[d], seed, 1, &rnd, 0, &y, why,
                                                sizeof why), HR_OK);
                        ck_assert_msg(x.rounds == y.rounds && x.lost == y.lost &&
                                          x.stalls == y.stalls && x.model_time_s == y.model_time_s,
                                      "%s %s p=%d seed %d", a->name, round_discs[d], p, (int)seed);
                    }
                }
        }
}
END_TEST

/* A sort of dataset ds. */
static int run_sort(const hr_algorithm *a, int p, const char *ds, uint64_t n, hr_run_result *res,
                    char *why, size_t whylen)
{
    hr_workload_spec spec = { .kind = "sort", .n = n, .dataset = ds, .seed = 5 };
    return run_spec(a, p, &spec, 0, res, why, whylen);
}

/* Every sort on every dataset it takes, for p in {1, 2, 3, 4, 7, 16, 64}: sorted, a permutation
 * of the input, and stable (the verifier checks all three). */
START_TEST(test_alg_every_sort_verifies)
{
    static const int sizes[] = { 1, 2, 3, 4, 7, 16, 64 };
    static const char *sets[] = { "R", "S", "C", "N" };
    char why[256];
    for (int i = 0; hr_algorithm_at(i) != NULL; i++) {
        const hr_algorithm *a = hr_algorithm_at(i);
        if (a->kind != HR_KIND_SORT || !hr_algorithm_takes(a, "complete"))
            continue;                   /* the sorts of seed 004 are tests/check_cube.c's */
        int counting = strcmp(a->name, "sort.counting") == 0;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (size_t d = counting ? 2 : 0; d < 4; d++) {
                int p = sizes[s];
                uint64_t n = (uint64_t)p * p * 16 + 3;    /* uneven blocks */
                hr_run_result res;
                int v = run_sort(a, p, sets[d], n, &res, why, sizeof why);
                ck_assert_msg(v == HR_OK, "%s p=%d [%s]: %s %s", a->name, p, sets[d], why,
                              res.report);
            }
    }
}
END_TEST

START_TEST(test_alg_sorts_model_and_refusals)
{
    char why[256];
    hr_run_result a, b;
    /* radix sort's communication does not depend on the keys (its transposes have fixed, padded
     * blocks): the same messages and bytes on R and C. Local work differs by the few elements
     * each bin holds, so the model times agree to within 0.001%, not to the picosecond. */
    ck_assert_int_eq(run_sort(hr_algorithm_find("sort.radix"), 8, "R", 8192, &a, why, sizeof why),
                     HR_OK);
    ck_assert_int_eq(run_sort(hr_algorithm_find("sort.radix"), 8, "C", 8192, &b, why, sizeof why),
                     HR_OK);
    ck_assert_uint_eq(a.messages, b.messages);
    ck_assert_uint_eq(a.bytes, b.bytes);
    ck_assert_double_eq_tol(a.model_time_s, b.model_time_s, 1e-5 * a.model_time_s);
    /* 3 passes of r = 11 bits, 4 collectives each (two transposes, two in the h-relation) */
    ck_assert_uint_eq(a.rounds, 12);
    /* counting sort refuses 31-bit keys, with one message */
    int v = run_sort(hr_algorithm_find("sort.counting"), 4, "R", 4096, &a, why, sizeof why);
    ck_assert_int_eq(v, HR_EFAIL);
    ck_assert_msg(strstr(a.report, "P0: sort.counting: the largest key needs 31 bits") != NULL,
                  "%s", a.report);
    ck_assert(strstr(a.report, "P1:") == NULL);
}
END_TEST

START_TEST(test_alg_verifier_catches_corruption)
{
    char why[256] = "";
    hr_run_result res;
    int v = run_alg(hr_algorithm_find("hrel.direct"), 4, "uniform", 4096, 0, 1, &res, why,
                    sizeof why);
    ck_assert_int_eq(res.status, HR_OK);
    ck_assert_int_eq(v, HR_EVERIFY);
    ck_assert(strlen(why) > 0);
}
END_TEST

START_TEST(test_alg_direct_model_cost)
{
    /* transpose distribution, p = 4, n = 4096: every processor sends 256 elements (2 KiB) to each
     * other one. Counts: tau + 3 * 8 bytes * sigma; data: tau + 3 * 2048 * sigma; the counting sort
     * charges 2 * 1024 units of 1 ns. 2.048 us + 88 + 1.2 + 88 + 307.2 us = 486.448 us */
    char why[256];
    hr_run_result res;
    int v = run_alg(hr_algorithm_find("hrel.direct"), 4, "transpose", 4096, 0, 0, &res, why,
                    sizeof why);
    ck_assert_int_eq(v, HR_OK);
    ck_assert_double_eq_tol(res.model_time_s, 486.448e-6, 1e-12);
    ck_assert_uint_eq(res.rounds, 2);
    ck_assert_uint_eq(res.messages, 2 * 4 * 3);
    ck_assert_uint_eq(res.max_in_bytes, 3 * 8 + 3 * 2048);
}
END_TEST

START_TEST(test_alg_direct_on_1024_processors)
{
    char why[256];
    hr_run_result res;
    /* 64 elements each: up to 64 messages per processor, 1024 threads on this box's cores */
    int p = HR_TEST_SCALE_PROCS;
    int v = run_alg(hr_algorithm_find("hrel.direct"), p, "uniform", 64u * (unsigned)p, 0, 0, &res,
                    why, sizeof why);
    ck_assert_msg(v == HR_OK, "%s %s", why, res.report);
    ck_assert_uint_eq(res.rounds, 2);
}
END_TEST

START_TEST(test_alg_two_phase_model_cost)
{
    /* transpose distribution, p = 4, n = 4096: h1 = h = 1024, so both bins hold at most
     * floor(1024/4 + 3/2) = 257 elements, blocks of 258 with the count: 2064 bytes. Each transpose
     * costs 88 + 3 * 2064 * 0.05 = 397.6 us; local work is 3 * 1024 units of 1 ns. */
    char why[256];
    hr_run_result res;
    int v = run_alg(hr_algorithm_find("hrel.two_phase"), 4, "transpose", 4096, 0, 0, &res, why,
                    sizeof why);
    ck_assert_int_eq(v, HR_OK);
    ck_assert_double_eq_tol(res.model_time_s, 2 * 397.6e-6 + 3.072e-6, 1e-12);
    ck_assert_uint_eq(res.bytes, 2 * 4 * 3 * 2064);
}
END_TEST

/* hrel.xor with sync (1, 0, or < 0 for the default) on the transpose distribution, n = 16 p^2:
 * every processor sends 16 elements (128 bytes) to each other one, so a blocking exchange step
 * costs tau + 128 sigma = 88 + 6.4 us under cm5, and the counting sort charges 2 n/p = 32 p units
 * of 1 ns. With sync, every one of the p - 1 steps ends with a dissemination barrier: ceil(lg p)
 * rounds of zero-byte messages, ceil(lg p) tau on clocks that are equal after a step, and
 * p ceil(lg p) messages (docs/model.md). Asserts the model time, rounds, messages and bytes. */
static void xor_expect(int p, int sync, double model_us, uint64_t rounds, uint64_t messages)
{
    char why[256];
    hr_run_result res;
    double params[1] = { sync };
    hr_workload_spec spec = { .kind = "hrelation", .n = 16u * (unsigned)(p * p),
                              .distribution = "transpose", .seed = 3 };
    int v = run_params(hr_algorithm_find("hrel.xor"), sync < 0 ? NULL : params, p, NULL, 1, -1,
                       &spec, 0, &res, why, sizeof why);
    ck_assert_msg(v == HR_OK, "p=%d sync=%d: %s %s", p, sync, why, res.report);
    ck_assert_msg(res.model_time_s > model_us * 1e-6 - 1e-12 &&
                  res.model_time_s < model_us * 1e-6 + 1e-12,
                  "p=%d sync=%d: model time %.9g s, expected %.9g s", p, sync, res.model_time_s,
                  model_us * 1e-6);
    ck_assert_uint_eq(res.rounds, rounds);
    ck_assert_uint_eq(res.messages, messages);
    ck_assert_uint_eq(res.bytes, (uint64_t)p * (uint64_t)(p - 1) * 128);
}

START_TEST(test_alg_xor_synchronizes_every_step)
{
    /* p = 4: 3 steps of 94.4 us, 2 x 64 ns of local work: 283.328 us without barriers; each
     * barrier adds ceil(lg 4) tau = 176 us: 283.328 + 3 x 176 = 811.328 us. 12 data messages,
     * 3 barriers of 4 x 2 messages. The default is sync = 1 (sync < 0: the defaults). */
    xor_expect(4, -1, 811.328, 3, 12 + 3 * 8);
    xor_expect(4, 1, 811.328, 3, 12 + 3 * 8);
    /* p = 5 (steps j + s, not j XOR s): 4 steps, 2 x 80 ns: 377.76 us; each barrier adds
     * ceil(lg 5) tau = 264 us: 377.76 + 4 x 264 = 1433.76 us. 20 data messages, 4 barriers of
     * 5 x 3 messages. */
    xor_expect(5, 1, 1433.76, 4, 20 + 4 * 15);
}
END_TEST

START_TEST(test_alg_xor_without_sync)
{
    /* sync = 0: the p - 1 blocking exchanges alone, (p - 1)(tau + 128 sigma) + local work, and no
     * global step in the rounds column. */
    xor_expect(4, 0, 283.328, 0, 12);
    xor_expect(5, 0, 377.76, 0, 20);
}
END_TEST

/* ---- seed 000's bin bounds, on hand-built instances ------------------------------------------ */

/* Largest bin of Step (1) on processor i for counts n_j, when destination j starts at bin
 * start(i, j) and goes round robin: a sequential model of the rule, not the algorithm's code. */
static size_t max_bin(int p, int i, const size_t *nj, int rule)
{
    size_t bins[64] = { 0 }, big = 0;
    for (int j = 0; j < p; j++) {
        int b = rule == 0 ? (i + j) % p : rule == 1 ? 0 : j;   /* 0: the paper's (i+j) mod p */
        for (size_t k = 0; k < nj[j]; k++, b = (b + 1) % p)
            bins[b]++;
    }
    for (int b = 0; b < p; b++)
        big = bins[b] > big ? bins[b] : big;
    return big;
}

typedef struct hand {
    hr_hrel  h;
    hr_elem *in[64], *out[64];
    size_t   in_count[64], out_count[64];
} hand;

/* counts[i][j]: elements processor i holds for destination j. */
static void hand_make(hand *x, int p, size_t counts[][64])
{
    memset(x, 0, sizeof *x);
    uint32_t id = 0;
    uint64_t to[64] = { 0 };
    for (int i = 0; i < p; i++) {
        size_t c = 0;
        for (int j = 0; j < p; j++)
            c += counts[i][j];
        x->in[i] = malloc(c * sizeof(hr_elem) + 1);
        for (int j = 0; j < p; j++)
            for (size_t k = 0; k < counts[i][j]; k++) {
                x->in[i][x->in_count[i]++] = (hr_elem){ id++, (uint32_t)j };
                to[j]++;
            }
        x->h.h1 = x->in_count[i] > x->h.h1 ? x->in_count[i] : x->h.h1;
    }
    for (int j = 0; j < p; j++)
        x->h.h = to[j] > x->h.h ? to[j] : x->h.h;
    x->h.p = p;
    x->h.n = id;
    x->h.in = x->in;
    x->h.in_count = x->in_count;
    x->h.out = x->out;
    x->h.out_count = x->out_count;
}

/* Run two_phase on x; every element must arrive once, at its destination. */
static void hand_run(hand *x, hr_run_result *res)
{
    alg_job j = { .alg = hr_algorithm_find("hrel.two_phase"), .inst = &x->h };
    int p = x->h.p;
    hr_machine_config cfg = hr_test_config(p, NULL);
    hr_machine *m;
    ck_assert_int_eq(hr_machine_create(&cfg, &m, NULL), HR_OK);
    ck_assert_int_eq(hr_machine_run(m, body_alg, &j, res), HR_OK);
    ck_assert_msg(res->status == HR_OK, "%s", res->report);
    uint32_t seen[4096] = { 0 };
    size_t total = 0;
    for (int d = 0; d < p; d++)
        for (size_t k = 0; k < x->out_count[d]; k++) {
            hr_elem e = x->out[d][k];
            ck_assert_uint_eq(e.dest, (uint32_t)d);
            ck_assert_uint_lt(e.data, x->h.n);
            ck_assert_uint_eq(seen[e.data]++, 0);
            total++;
        }
    ck_assert_uint_eq(total, x->h.n);
    hr_machine_destroy(m);
    for (int i = 0; i < p; i++)
        free(x->in[i]);
}

START_TEST(test_alg_two_phase_step1_bound_is_reached)
{
    /* p = 4, processor 1 holds n_j = 2p + b_j with runs b_j chosen so that one bin gets an extra
     * element of every destination but one: delta = p - 1, the case of eq. (4). The run of
     * destination j starts at bin (1 + j) mod 4: runs of lengths b = (0, 3, 2, 1) from bins
     * 2, 3 and 0 all cover bin 0, which so holds A + 3 = 8 + 3 = 11 = floor(38/4 + 3/2). */
    static size_t counts[64][64];
    memset(counts, 0, sizeof counts);
    int p = 4;
    size_t b[4] = { 0, 3, 2, 1 };
    for (int j = 0; j < p; j++)
        counts[1][j] = 2 * p + b[j];
    size_t h1 = 0;
    for (int j = 0; j < p; j++)
        h1 += counts[1][j];
    size_t bound = (2 * h1 + (size_t)p * (p - 1)) / (2 * (size_t)p);   /* floor(h1/p + (p-1)/2) */
    ck_assert_uint_eq(h1, 38);
    ck_assert_uint_eq(bound, 11);
    ck_assert_uint_eq(max_bin(p, 1, counts[1], 0), 11);    /* the paper's rule reaches it */
    hand x;
    hr_run_result res;
    hand_make(&x, p, counts);
    hand_run(&x, &res);
}
END_TEST

START_TEST(test_alg_two_phase_wrong_rules_overflow)
{
    /* Every processor holds one element for each destination: h1 = h = p = 8, so both bins are
     * bounded by floor(1 + 7/2) = 4. Starting every destination at bin 0 puts 8 in bin 0 in
     * step (1); starting destination j at bin j on every processor (forgetting the + i) sends all
     * p elements for j through processor j's bin j in step (3). The paper's rule keeps both at 1. */
    static size_t counts[64][64];
    int p = 8;
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++)
            counts[i][j] = 1;
    size_t bound = (2 * 8 + (size_t)p * (p - 1)) / (2 * (size_t)p);
    ck_assert_uint_eq(bound, 4);
    ck_assert_uint_gt(max_bin(p, 3, counts[3], 1), bound);
    /* rule 2 in step (3): processor j receives bin j of everyone, all for destination j */
    size_t step3 = 0;
    for (int i = 0; i < p; i++)
        step3 += counts[i][5];                 /* what processor 5 rebins into its bin 5 */
    ck_assert_uint_gt(step3, bound);
    for (int i = 0; i < p; i++)
        ck_assert_uint_le(max_bin(p, i, counts[i], 0), 1);
    hand x;
    hr_run_result res;
    hand_make(&x, p, counts);
    hand_run(&x, &res);
}
END_TEST

/* A program's own rows: bad ones are refused with a reason, a good one comes after the built-in
 * rows and is found by name, and its name cannot be taken twice. (Registration lasts for the
 * process: without fork, only the refusals are tried.) */
static void run_nothing(hr_proc *p, void *inst, const double *params)
{
    (void)p, (void)inst, (void)params;
}

START_TEST(test_alg_register_own_rows)
{
    const char *why = NULL;
    hr_algorithm bad = { .name = "nofamily", .summary = "x", .kind = HR_KIND_USER, .run = run_nothing };
    ck_assert_int_eq(hr_algorithm_register(&bad, &why), HR_EINVAL);
    ck_assert_msg(strstr(why, "FAMILY.NAME") != NULL, "%s", why);
    /* Names go into configs, rows, traces and the --html page's script: letters, digits, '_'
     * and '-' only, FAMILY.NAME. */
    static const char *const badnames[] = { "mine.x</script><script>alert(1)//", "mine.a b",
                                            "mine.\xe9", "mine.x.y", ".x", "mine.", "a\"b.c" };
    for (size_t k = 0; k < sizeof badnames / sizeof badnames[0]; k++) {
        bad.name = badnames[k];
        ck_assert_int_eq(hr_algorithm_register(&bad, &why), HR_EINVAL);
        ck_assert_msg(strstr(why, "letters, digits") != NULL, "%s: %s", badnames[k], why);
    }
    static const hr_param_spec badparam[] = { { .name = "K<", .summary = "x", .max = 1 },
                                              { .name = NULL } };
    bad.name = "mine.x";
    bad.params = badparam;
    ck_assert_int_eq(hr_algorithm_register(&bad, &why), HR_EINVAL);
    ck_assert_msg(strstr(why, "parameter's name") != NULL, "%s", why);
    bad.params = NULL;
    bad.name = "hrel.direct";
    ck_assert_int_eq(hr_algorithm_register(&bad, &why), HR_EINVAL);
    ck_assert_str_eq(why, "an algorithm of that name exists already");
    bad.name = "mine.x";
    bad.run = NULL;
    ck_assert_int_eq(hr_algorithm_register(&bad, &why), HR_EINVAL);
    hr_workload wbad = { .name = "sort", .summary = "x", .kind = HR_KIND_USER };
    ck_assert_int_eq(hr_workload_register(&wbad, &why), HR_EINVAL);
    ck_assert_msg(strstr(why, "every function") != NULL, "%s", why);
    wbad.name = "a<b";
    ck_assert_int_eq(hr_workload_register(&wbad, &why), HR_EINVAL);
    ck_assert_msg(strstr(why, "letters, digits") != NULL, "%s", why);
    const char *fork = getenv("CK_FORK");
    if (fork != NULL && strcmp(fork, "no") == 0) {
        hr_test_skip("registering algorithms for good: only in a forked test, not CK_FORK=no", 1);
        return;
    }
    int builtin = 0;
    while (hr_algorithm_at(builtin) != NULL)
        builtin++;
    static const hr_algorithm mine = { .name = "mine.nothing", .summary = "does nothing",
                                       .kind = HR_KIND_USER, .run = run_nothing };
    ck_assert_int_eq(hr_algorithm_register(&mine, &why), HR_OK);
    ck_assert_ptr_eq(hr_algorithm_at(builtin), &mine);
    ck_assert_ptr_null(hr_algorithm_at(builtin + 1));
    ck_assert_ptr_eq(hr_algorithm_find("mine.nothing"), &mine);
    ck_assert_int_eq(hr_algorithm_register(&mine, &why), HR_EINVAL);
    static hr_workload w;
    w = *hr_workload_find("sort");     /* every function a workload needs */
    w.name = "nothing";
    ck_assert_int_eq(hr_workload_register(&w, &why), HR_EINVAL);      /* a built-in kind */
    ck_assert_msg(strstr(why, "HR_KIND_USER") != NULL, "%s", why);
    w.kind = HR_KIND_USER;
    w.datasets = NULL;
    /* Declared keys: each refusal with its reason. */
    static const struct { hr_wkey_spec key; const char *why; } badkeys[] = {
        { { .name = "Wide", .summary = "x", .type = HR_WKEY_INT }, "a-z, 0-9 and _" },
        { { .name = "n", .summary = "x", .type = HR_WKEY_INT }, "fixed [workload] key" },
        { { .name = "bytes", .summary = "x", .type = HR_WKEY_INT, .max = 1 }, "set .column" },
        { { .name = "op", .summary = "x", .type = HR_WKEY_INT, .max = 1 }, "another type" },
        { { .name = "width", .summary = "x", .type = HR_WKEY_WORD }, "needs its choices" },
        { { .name = "width", .summary = "x", .type = HR_WKEY_REAL, .min = 2, .max = 1 }, "min <= max" },
        { { .name = "width", .type = HR_WKEY_INT }, "needs a summary" },
    };
    for (size_t k = 0; k < sizeof badkeys / sizeof badkeys[0]; k++) {
        hr_wkey_spec keys[2] = { badkeys[k].key, { .name = NULL } };
        w.keys = keys;
        ck_assert_int_eq(hr_workload_register(&w, &why), HR_EINVAL);
        ck_assert_msg(strstr(why, badkeys[k].why) != NULL, "%s: %s", badkeys[k].key.name, why);
    }
    static const hr_wkey_spec good[] = {
        { .name = "width", .summary = "a width", .type = HR_WKEY_INT, .def = "4", .max = 8 },
        { .name = "op", .summary = "the same type as values' op", .type = HR_WKEY_WORD,
          .def = "xor", .choices = "xor" },
        { .name = NULL },
    };
    w.keys = good;
    int columns = 0;
    while (hr_workload_column_at(columns) != NULL)
        columns++;
    ck_assert_int_eq(hr_workload_register(&w, &why), HR_OK);
    ck_assert_ptr_eq(hr_workload_find("nothing"), &w);
    /* width is new, op is not: one more column, at the end. */
    ck_assert_ptr_eq(hr_workload_column_at(columns), &good[0]);
    ck_assert_ptr_null(hr_workload_column_at(columns + 1));
    ck_assert_int_eq(hr_workload_register(&w, &why), HR_EINVAL);      /* its name is taken */
}
END_TEST

/* hr_algorithm.check: the reasons by hand; refusal exactly where the run itself fails (the
 * broadcasts' rows against a run of each on p = 6 and 12, every rows from 1 to p); and every
 * row's defaults pass at p = 16, whose rows pass with any topology. */
START_TEST(test_alg_checks_match_runs)
{
    char why[256];
    const hr_algorithm *lin = hr_algorithm_find("bcast.linear");
    const double rows3[2] = { 0, 3 }, rows0[2] = { 0, 0 };
    ck_assert_ptr_nonnull(lin->check);
    ck_assert_int_eq(lin->check(rows3, 256, "complete", why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "rows = 3 does not divide p = 256");
    ck_assert_int_eq(lin->check(rows3, 24, "fattree", why, sizeof why), HR_OK);
    ck_assert_int_eq(lin->check(rows0, 257, "complete", why, sizeof why), HR_OK);
    const hr_algorithm *rex = hr_algorithm_find("xchg.rex");
    ck_assert_int_eq(rex->check(NULL, 24, "complete", why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "xchg.rex needs p a power of two (seed 001 Figure 3), not 24");
    ck_assert_int_eq(rex->check(NULL, 32, "complete", why, sizeof why), HR_OK);
    const hr_algorithm *fft = hr_algorithm_find("app.fft2d");
    const double xchg3[2] = { 3, 128 }, xchg4[2] = { 4, 128 };
    ck_assert_int_eq(fft->check(xchg3, 12, "complete", why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "xchg = 3 (REX): xchg.rex needs p a power of two (seed 001 Figure 3), "
                          "not 12");
    ck_assert_int_eq(fft->check(xchg4, 12, "complete", why, sizeof why), HR_OK);
    ck_assert_int_eq(fft->check(xchg3, 16, "complete", why, sizeof why), HR_OK);

    const hr_workload *w = hr_workload_find("values");
    static const char *const bc[] = { "bcast.linear", "bcast.recursive", "bcast.system" };
    static const int ps[] = { 6, 12 };
    for (int a = 0; a < 3; a++)
        for (int i = 0; i < 2; i++)
            for (int rows = 1; rows <= ps[i]; rows++) {
                int p = ps[i];
                const double params[2] = { 1, rows };
                const hr_algorithm *alg = hr_algorithm_find(bc[a]);
                int refused = alg->check(params, p, "complete", why, sizeof why) != HR_OK;
                hr_wkey_value keys[2] = { { .word = "sum" }, { .num = 0 } };
                hr_workload_spec spec = { .kind = "values", .n = 2 * (uint64_t)p,
                                          .dataset = "int", .keys = keys, .seed = 3 };
                void *inst = NULL;
                ck_assert_msg(w->make(&spec, p, &inst, why, sizeof why) == HR_OK, "%s", why);
                hr_machine_config cfg = hr_test_config(p, "async");
                hr_run_result res;
                char vwhy[256] = "";
                int err = hr_test_run_alg(&cfg, bc[a], "values", inst, params, &res, vwhy,
                                          sizeof vwhy);
                w->destroy(inst);
                ck_assert_msg(refused == (err != HR_OK), "%s p = %d rows = %d: check %s, run "
                              "%d (%s)", bc[a], p, rows, refused ? "refuses" : "passes", err,
                              res.report);
            }

    for (int i = 0; hr_algorithm_at(i) != NULL; i++) {
        const hr_algorithm *a = hr_algorithm_at(i);
        double def[16];
        int np = 0;
        for (const hr_param_spec *ps2 = a->params; ps2 != NULL && ps2->name != NULL; ps2++)
            def[np++] = ps2->def;
        if (a->check != NULL)
            ck_assert_msg(a->check(np > 0 ? def : NULL, 16, "torus 4x4", why, sizeof why) ==
                          HR_OK, "%s: %s", a->name, why);
    }
}
END_TEST

/* A program may register HR_MAX_REGISTERED algorithms and as many workload kinds, the one limit
 * algorithm.h states for both; one more of either is refused. (Registration lasts for the
 * process: without fork the test is skipped.) */
START_TEST(test_alg_register_limit)
{
    const char *fork = getenv("CK_FORK");
    if (fork != NULL && strcmp(fork, "no") == 0)
        HR_TEST_SKIP("registrations would outlast the test without fork");
    static char names[HR_MAX_REGISTERED + 1][2][24];
    static hr_workload ws[HR_MAX_REGISTERED + 1];
    static hr_algorithm as[HR_MAX_REGISTERED + 1];
    const char *why = NULL;
    for (int i = 0; i <= HR_MAX_REGISTERED; i++) {
        snprintf(names[i][0], sizeof names[i][0], "limit%d", i);
        snprintf(names[i][1], sizeof names[i][1], "limit.a%d", i);
        ws[i] = *hr_workload_find("sort");
        ws[i].name = names[i][0];
        ws[i].kind = (hr_kind)(HR_KIND_USER + i);
        ws[i].datasets = NULL;
        ws[i].keys = NULL;
        as[i] = (hr_algorithm){ .name = names[i][1], .summary = "does nothing",
                                .kind = HR_KIND_USER, .run = run_nothing };
        int want = i < HR_MAX_REGISTERED ? HR_OK : HR_EINVAL;
        ck_assert_msg(hr_workload_register(&ws[i], &why) == want, "workload %d: %s", i,
                      want == HR_OK ? why : "accepted");
        ck_assert_msg(hr_algorithm_register(&as[i], &why) == want, "algorithm %d: %s", i,
                      want == HR_OK ? why : "accepted");
    }
    ck_assert_msg(strstr(why, "too many") != NULL, "%s", why);
}
END_TEST

Suite *hr_alg_suite(void)
{
    Suite *s = suite_create("alg");
    TCase *tc = tcase_create("registry");
    tcase_add_test(tc, test_alg_registry_sorted_unique_described);
    tcase_add_test(tc, test_alg_allows_disciplines);
    tcase_add_test(tc, test_alg_needs_fit_every_discipline);
    tcase_add_test(tc, test_alg_needs_eager_column);
    tcase_add_test(tc, test_alg_needs_against_traits);
    tcase_add_test(tc, test_alg_needs_in_words);
    tcase_add_test(tc, test_alg_param_words);
    tcase_add_test(tc, test_alg_register_needs);
    tcase_add_test(tc, test_alg_register_own_rows);
    tcase_add_test(tc, test_alg_checks_match_runs);
    tcase_add_test(tc, test_alg_register_limit);
    suite_add_tcase(s, tc);
    tc = tcase_create("run");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_alg_every_algorithm_verifies);
    tcase_add_test(tc, test_alg_verifier_catches_corruption);
    tcase_add_test(tc, test_alg_direct_model_cost);
    tcase_add_test(tc, test_alg_two_phase_model_cost);
    tcase_add_test(tc, test_alg_xor_synchronizes_every_step);
    tcase_add_test(tc, test_alg_xor_without_sync);
    tcase_add_test(tc, test_alg_two_phase_step1_bound_is_reached);
    tcase_add_test(tc, test_alg_two_phase_wrong_rules_overflow);
    tcase_add_test(tc, test_alg_every_sort_verifies);
    tcase_add_test(tc, test_alg_sorts_model_and_refusals);
    suite_add_tcase(s, tc);
    tc = tcase_create("rounds");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_alg_round_algorithms_deliver);
    tcase_add_test(tc, test_alg_offline_takes_h_rounds);
    tcase_add_test(tc, test_alg_aw_weighted_stages_run_full_length);
    tcase_add_test(tc, test_alg_round_algorithms_deterministic);
    suite_add_tcase(s, tc);
    if (getenv("HREMU_STRESS") != NULL) {
        tc = tcase_create("stress");
        tcase_set_timeout(tc, 1200);
        tcase_add_test(tc, test_alg_round_stress);
        suite_add_tcase(s, tc);
    }
    tc = tcase_create("limits");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_alg_direct_on_1024_processors);
    suite_add_tcase(s, tc);
    return s;
}
