/* registry.c: every algorithm, one row each, sorted by name (a test checks the order). */
#include <hremu/algorithm.h>

#include <stdio.h>
#include <string.h>

#include <hremu/error.h>

#include "alg/app.h"
#include "alg/hrel.h"
#include "alg/irreg.h"
#include "alg/rounds.h"
#include "alg/seed001.h"
#include "alg/seed004.h"
#include "alg/sort.h"
#include "work/exchange.h"
#include "work/fft.h"
#include "work/pattern.h"

static const hr_param_spec radix_params[] = {
    { .name = "r", .summary = "bits per pass: R = 2^r counters (the paper's R = 1024 is r = 10)",
      .def = 11, .min = 1, .max = 16, .integer = 1 },
    { .name = NULL },
};

static const hr_param_spec fft2d_params[] = {
    { .name = "xchg", .summary = "the complete exchange: the machine's hr_transpose, or LEX, PEX, REX "
      "(p a power of two) or BEX (seed 001 sec. 3)", .def = 2, .min = 0, .max = 4, .integer = 1,
      .choices = "transpose, lex, pex, rex, bex" },
    { .name = "mflops", .summary = "the node's rate for the model's charge of 5 N log2 N flops an "
      "FFT (128: the CM-5 node's peak, seed 001 sec. 2)", .def = 128, .min = 1e-3, .max = 1e6 },
    { .name = NULL },
};

static const hr_param_spec group_params[] = {
    { .name = "group", .summary = "all: one broadcast to all; rows: in every row of the mesh at "
      "once; columns: in every column (seed 001 sec. 3.6's selective broadcast)", .def = 0,
      .min = 0, .max = 2, .integer = 1, .choices = "all, rows, columns" },
    { .name = "rows", .summary = "rows of the mesh, dividing p (0: the squarest)", .def = 0,
      .min = 0, .max = 65536, .integer = 1 },
    { .name = NULL },
};

static const hr_param_spec ac_params[] = {
    { .name = "strip", .summary = "strip mining: send K messages, then receive those sent in that "
      "strip, and so on (0: send everything, then receive; seed 002 sec. 3.3)", .def = 0,
      .min = 0, .max = 65536, .integer = 1 },
    { .name = NULL },
};

/* CGMH's lambda is k / N, k the messages a permutation sends whole: base picks N (seed 002
 * defines lambda = k/n; src/alg/perm.h has the three readings, docs/seed002.md their figures).
 * The same row ends both lists, so the two cannot drift. */
#define CGMH_BASE                                                                             \
    { .name = "base", .summary = "what lambda is a fraction of: the permutation's messages, the "  \
      "senders still holding messages, or the n processors (seed 002: lambda = k/n)",             \
      .def = 1, .min = 0, .max = 2, .integer = 1, .choices = "messages, senders, processors" }

static const hr_param_spec cgmh_fixed_params[] = {
    { .name = "lambda", .summary = "the fraction of a permutation's messages sent whole; the "
      "rest send M_eff bytes and keep the remainder (seed 002 sec. 4.1)", .def = 0.75,
      .min = 0.01, .max = 1 },
    { .name = "reset", .summary = "1: lambda = 1 once d* <= max(2, d/16), the resetting scheme "
      "of sec. 3.2; 0: never", .def = 1, .min = 0, .max = 1, .integer = 1 },
    CGMH_BASE,
    { .name = NULL },
};

static const hr_param_spec cgmh_diff_params[] = {
    CGMH_BASE,
    { .name = NULL },
};
#undef CGMH_BASE

static const hr_param_spec fifo_staged_params[] = {
    { .name = "K", .summary = "a stage lasts K h_{i-1} rounds (the paper: 2.5 in the proof, 1.0 best "
      "in its simulations)", .def = 1.0, .min = 0.05, .max = 100 },
    { .name = "mu", .summary = "h_i = h mu^i: the undelivered part each stage leaves (0.267)",
      .def = 0.267, .min = 0.01, .max = 0.99 },
    { .name = NULL },
};

static const hr_param_spec aw_params[] = {
    { .name = "beta", .summary = "h_k = (1-beta)^k h: each stage delivers a beta part (the theorem "
      "takes beta near 0)", .def = 0.1, .min = 0.001, .max = 0.9 },
    { .name = NULL },
};

static const hr_param_spec gt_params[] = {
    { .name = "eps", .summary = "k_i = (1-eps)^i h: each phase delivers an eps part",
      .def = 0.1, .min = 0.001, .max = 0.9 },
    { .name = NULL },
};

static const hr_param_spec xor_params[] = {
    { .name = "sync", .summary = "1: a global synchronization after every exchange step, as seed 000 "
      "sec. 3.2 describes single-phase algorithms; 0: none", .def = 1, .min = 0, .max = 1,
      .integer = 1 },
    { .name = NULL },
};

/* What each algorithm relies on of the discipline (HR_NEEDS_*, <hremu/algorithm.h>); a row
 * without .needs only calls collectives, which every discipline has. P2P rows do not deadlock
 * when a send waits for its receive (rendezvous), so they take any point-to-point discipline,
 * whatever it copies. */
#define P2P HR_NEEDS_P2P

static const hr_algorithm algorithms[] = {
    { .name = "app.fft2d",
      .summary = "2D FFT by rows: 1-D FFTs, a complete exchange of blocks, 1-D FFTs (seed 001 sec. 3.5)",
      .kind = HR_KIND_FFT2D,
      .needs = P2P,
      .run = hr_alg_app_fft2d,
      .check = hr_alg_app_fft2d_check,
      .params = fft2d_params },
    { .name = "bcast.binomial",
      .summary = "binomial tree from any root, the highest dimension first (seed 004's hypercube)",
      .kind = HR_KIND_VALUES,
      .needs = P2P,
      .topologies = "hypercube",
      .neighbour_only = 1,
      .few_messages = 1,
      .run = hr_alg_bcast_binomial },
    { .name = "bcast.linear",
      .summary = "LIB: the root sends to the others one by one, N-1 steps (seed 001 sec. 3.6)",
      .kind = HR_KIND_VALUES,
      .needs = P2P,
      .run = hr_alg_bcast_linear,
      .check = hr_alg_bcast_group_check,
      .params = group_params },
    { .name = "bcast.recursive",
      .summary = "REB: lg N steps of recursive halving from any root (seed 001 sec. 3.6, Figure 9)",
      .kind = HR_KIND_VALUES,
      .needs = P2P,
      .run = hr_alg_bcast_recursive,
      .check = hr_alg_bcast_group_check,
      .params = group_params },
    { .name = "bcast.rh_tree",
      .summary = "double-rooted binary tree of BBs by FT3/BT3, nodes of entry and exit (seed 004 ch. 2)",
      .kind = HR_KIND_VALUES,
      .needs = P2P,
      .topologies = "rh",
      .neighbour_only = 1,
      .few_messages = 1,
      .run = hr_alg_bcast_rh_tree },
    { .name = "bcast.system",
      .summary = "the machine's own hr_bcast (a binomial tree), Figures 10-11's system broadcast",
      .kind = HR_KIND_VALUES,
      .needs = P2P,
      .run = hr_alg_bcast_system,
      .check = hr_alg_bcast_group_check,
      .params = group_params },
    { .name = "hrel.aw_uniform",
      .summary = "arbitrary write, one undelivered message a round, chosen uniformly (seed 003 sec. 7)",
      .kind = HR_KIND_HRELATION,
      .needs = HR_NEEDS_ROUNDS | HR_NEEDS_LOSSES | HR_NEEDS_ONE_RECEIVED,
      .few_messages = 1,
      .run = hr_alg_hrel_aw_uniform },
    { .name = "hrel.aw_weighted",
      .summary = "arbitrary write, to j with probability 1 - exp(-d_ij/h_{k-1}) (seed 003 sec. 5)",
      .kind = HR_KIND_HRELATION,
      .needs = HR_NEEDS_ROUNDS | HR_NEEDS_LOSSES | HR_NEEDS_ONE_RECEIVED,
      .few_messages = 1,
      .run = hr_alg_hrel_aw_weighted,
      .params = aw_params },
    { .name = "hrel.direct",
      .summary = "sort by destination, then one alltoallv (seed 000 sec. 3, the MPI_Alltoallv baseline)",
      .kind = HR_KIND_HRELATION,
      .run = hr_alg_hrel_direct },
    { .name = "hrel.fifo_staged",
      .summary = "stages of K h_{i-1} rounds at random times, deferred while stalled (seed 003 sec. 4)",
      .kind = HR_KIND_HRELATION,
      .needs = HR_NEEDS_ROUNDS | HR_NEEDS_QUEUES,
      .few_messages = 1,
      .run = hr_alg_hrel_fifo_staged,
      .params = fifo_staged_params },
    { .name = "hrel.ocpc_gt",
      .summary = "phases sending with probability r/k_i (Gereb-Graus, Tsantilas; seed 003 sec. 2.1)",
      .kind = HR_KIND_HRELATION,
      .needs = HR_NEEDS_ROUNDS | HR_NEEDS_LOSSES,
      .few_messages = 1,
      .run = hr_alg_hrel_ocpc_gt,
      .params = gt_params },
    { .name = "hrel.offline",
      .summary = "edge colouring of the relation: exactly h conflict-free rounds (seed 003 sec. 2)",
      .kind = HR_KIND_HRELATION,
      .needs = HR_NEEDS_ROUNDS,
      .run = hr_alg_hrel_offline,
      .plan = hr_alg_hrel_offline_plan,
      .unplan = hr_alg_hrel_offline_unplan },
    { .name = "hrel.pq_random",
      .summary = "random priorities, highest sent first (seed 003 sec. 6)",
      .kind = HR_KIND_HRELATION,
      .needs = HR_NEEDS_ROUNDS | HR_NEEDS_QUEUES | HR_NEEDS_PRIORITIES,
      .few_messages = 1,
      .run = hr_alg_hrel_pq_random },
    { .name = "hrel.two_phase",
      .summary = "two transposes with bins dealt round robin (seed 000 sec. 3, Algorithm 1)",
      .kind = HR_KIND_HRELATION,
      .run = hr_alg_hrel_two_phase },
    /* Its exchanges cycle (j sends to j + s while j + s sends to j + 2s, p not a power of two):
     * a send that waited for its receive would deadlock, so every send must complete at once. */
    { .name = "hrel.xor",
      .summary = "p-1 blocking exchanges with j XOR s (or j+s), a barrier after each (seed 000 sec. 3.2)",
      .kind = HR_KIND_HRELATION,
      .needs = P2P | HR_NEEDS_COPY_SENDS,
      .run = hr_alg_hrel_xor,
      .params = xor_params },
    /* Every processor sends everything before it receives: a send that waited for its receive
     * would deadlock (a bounded receive buffer does too, and that is the paper's point). */
    { .name = "irreg.ac",
      .summary = "asynchronous: send every message, then receive, in strips of K if strip = K (seed 002 sec. 3.3)",
      .kind = HR_KIND_PATTERN,
      .needs = P2P | HR_NEEDS_COPY_SENDS,
      .run = hr_alg_irreg_ac,
      .params = ac_params },
#define IRREG(NAME, SUMMARY, PLAN, PRINT, PARAMS)                                           \
    { .name = NAME, .summary = SUMMARY, .kind = HR_KIND_PATTERN, .needs = P2P,                \
      .run = hr_alg_irreg_run, .plan = PLAN, .unplan = hr_alg_irreg_unplan,                     \
      .plan_steps = hr_alg_irreg_plan_steps, .plan_print = PRINT, .params = PARAMS }
    IRREG("irreg.bs", "balanced scheduling: BEX's pairs, idle where the pattern has no message "
          "(seed 001 sec. 4.3)", hr_alg_irreg_bs_plan, hr_alg_irreg_plan_print, NULL),
    IRREG("irreg.cgm", "compact global masking: random permutations of whole messages (seed "
          "002 sec. 5.1, its ref. 16)", hr_alg_irreg_cgm_plan, hr_alg_irreg_perm_print, NULL),
    IRREG("irreg.cgm_heap", "CGM with a heap a sender, largest first, every message whole "
          "(seed 002 sec. 5.1)", hr_alg_irreg_cgm_heap_plan, hr_alg_irreg_perm_print, NULL),
    IRREG("irreg.cgm_sort", "CGM with each sender's messages sorted by size once (seed 002 "
          "sec. 5.1)", hr_alg_irreg_cgm_sort_plan, hr_alg_irreg_perm_print, NULL),
    IRREG("irreg.cgmh_bj", "CGMH, lambda of the largest single Gain (seed 002 sec. 4.3, 5.1)",
          hr_alg_irreg_cgmh_bj_plan, hr_alg_irreg_perm_print, cgmh_diff_params),
    IRREG("irreg.cgmh_fixed", "CGMH with a fixed lambda and resetting (seed 002 sec. 3.2, 4.1)",
          hr_alg_irreg_cgmh_fixed_plan, hr_alg_irreg_perm_print, cgmh_fixed_params),
    IRREG("irreg.cgmh_ms", "CGMH, lambda of the largest prefix sum of Gain (seed 002 sec. 4.3, "
          "5.1)", hr_alg_irreg_cgmh_ms_plan, hr_alg_irreg_perm_print, cgmh_diff_params),
    IRREG("irreg.gs", "greedy scheduling: each takes the next processor it must send to that is "
          "free (seed 001 sec. 4.4, Figure 12)", hr_alg_irreg_gs_plan, hr_alg_irreg_plan_print,
          NULL),
    IRREG("irreg.lp", "linear permutation: exchange with me XOR k in step k, dummies where no "
          "message (seed 002 sec. 3.1)", hr_alg_irreg_lp_plan, hr_alg_irreg_perm_print, NULL),
    IRREG("irreg.ls", "linear scheduling: in step i every processor with a message for i sends "
          "it (seed 001 sec. 4.1)", hr_alg_irreg_ls_plan, hr_alg_irreg_plan_print, NULL),
    IRREG("irreg.ps", "pairwise scheduling: PEX's pairs, idle where the pattern has no message "
          "(seed 001 sec. 4.2)", hr_alg_irreg_ps_plan, hr_alg_irreg_plan_print, NULL),
#undef IRREG
    { .name = "prefix.hypercube",
      .summary = "rslt and msg swapped across each dimension in turn (seed 004 sec. 4.1)",
      .kind = HR_KIND_VALUES,
      .needs = P2P,
      .topologies = "hypercube",
      .neighbour_only = 1,
      .few_messages = 1,
      .run = hr_alg_prefix_hypercube },
    { .name = "prefix.rh",
      .summary = "inside BBs, between BBs by the forwarding rule, then inside BBs (seed 004 ch. 4)",
      .kind = HR_KIND_VALUES,
      .needs = P2P,
      .topologies = "rh",
      .neighbour_only = 1,
      .few_messages = 1,
      .run = hr_alg_prefix_rh },
    { .name = "reduce.binomial",
      .summary = "many-to-one binary tree to any root, bit 0 first (seed 004 sec. 3.1, the hypercube)",
      .kind = HR_KIND_VALUES,
      .needs = P2P,
      .topologies = "hypercube",
      .neighbour_only = 1,
      .few_messages = 1,
      .run = hr_alg_reduce_binomial },
    { .name = "reduce.rh_tree",
      .summary = "many-to-one tree inside BBs, then among BBs through their SBs (seed 004 ch. 3)",
      .kind = HR_KIND_VALUES,
      .needs = P2P,
      .topologies = "rh",
      .neighbour_only = 1,
      .few_messages = 1,
      .run = hr_alg_reduce_rh_tree },
    { .name = "sort.bitonic",
      .summary = "block bitonic sort by merge-split across each dimension (seed 004 ch. 5's hypercube)",
      .kind = HR_KIND_SORT,
      .needs = P2P,
      .topologies = "hypercube",
      .neighbour_only = 1,
      .run = hr_alg_sort_bitonic },
    { .name = "sort.counting",
      .summary = "stable counting sort of keys below 2^20: counts, transposes, ranks, an h-relation (seed 000 Alg. 2)",
      .kind = HR_KIND_SORT,
      .run = hr_alg_sort_counting },
    { .name = "sort.radix",
      .summary = "radix sort of 32-bit keys by ceil(32/r) passes of counting sort (seed 000 sec. 4.2)",
      .kind = HR_KIND_SORT,
      .run = hr_alg_sort_radix,
      .params = radix_params },
    { .name = "sort.rh_bitonic",
      .summary = "bitonic sort inside BBs, between BBs through their SBs, back to every node (seed 004 ch. 5)",
      .kind = HR_KIND_SORT,
      .needs = P2P,
      .topologies = "rh",
      .neighbour_only = 1,
      .run = hr_alg_sort_rh_bitonic },
    { .name = "xchg.bex",
      .summary = "pairwise exchange on virtual numbers me+1 mod N, local and remote pairs mixed (seed 001 sec. 3.4)",
      .kind = HR_KIND_EXCHANGE,
      .needs = P2P,
      .run = hr_alg_xchg_bex },
    { .name = "xchg.lex",
      .summary = "linear exchange: in step i every processor sends to i (seed 001 sec. 3.1)",
      .kind = HR_KIND_EXCHANGE,
      .needs = P2P,
      .pairs_in_flight = 1,
      .run = hr_alg_xchg_lex },
    { .name = "xchg.pex",
      .summary = "pairwise exchange with me XOR j in step j (seed 001 sec. 3.2, Figure 2)",
      .kind = HR_KIND_EXCHANGE,
      .needs = P2P,
      .run = hr_alg_xchg_pex },
    { .name = "xchg.rex",
      .summary = "recursive exchange: lg N steps of N/2 blocks, store and forward (seed 001 sec. 3.3)",
      .kind = HR_KIND_EXCHANGE,
      .needs = P2P,
      .run = hr_alg_xchg_rex,
      .check = hr_alg_xchg_rex_check },
    { .name = "xchg.system",
      .summary = "the machine's own hr_transpose (seed 000's tau + sigma (p-1) m), beside the paper's four",
      .kind = HR_KIND_EXCHANGE,
      .needs = P2P,
      .run = hr_alg_xchg_system },
    { .name = NULL },
};

#define NBUILTIN ((int)(sizeof algorithms / sizeof algorithms[0]) - 1)

/* A program's own algorithms (hr_algorithm_register), after the built-in ones. */
static const hr_algorithm *added[HR_MAX_REGISTERED];
static int nadded;

const hr_algorithm *hr_algorithm_at(int i)
{
    if (i >= 0 && i < NBUILTIN)
        return &algorithms[i];
    if (i >= NBUILTIN && i < NBUILTIN + nadded)
        return added[i - NBUILTIN];
    return NULL;
}

const hr_algorithm *hr_algorithm_find(const char *name)
{
    const hr_algorithm *a;
    for (int i = 0; (a = hr_algorithm_at(i)) != NULL; i++)
        if (strcmp(a->name, name) == 0)
            return a;
    return NULL;
}

/* Letters, digits, '_' and '-': what a name may hold, since it goes into config sections,
 * --set keys, CSV and JSON rows, traces and a web page's script. */
#define NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

/* Nonzero if name is FAMILY.NAME, each part one or more of NAME_CHARS. */
static int good_name(const char *name)
{
    size_t family = strspn(name, NAME_CHARS);
    return family > 0 && name[family] == '.' && strspn(name + family + 1, NAME_CHARS) > 0 &&
           name[family + 1 + strspn(name + family + 1, NAME_CHARS)] == '\0';
}

const char *hr_param_word(const hr_param_spec *s, int k, size_t *len)
{
    const char *at = s->choices;
    for (int i = 0; at != NULL && *at != '\0'; i++) {
        size_t n = strcspn(at, ",");
        if (i == k) {
            *len = n;
            return at;
        }
        if (at[n] == '\0')
            break;
        at += n + 1;
        at += strspn(at, " ");
    }
    return NULL;
}

int hr_param_choice(const hr_param_spec *s, const char *word, size_t len)
{
    const char *w;
    size_t n;
    for (int k = 0; (w = hr_param_word(s, k, &n)) != NULL; k++)
        if (n == len && strncmp(w, word, len) == 0)
            return k;
    return -1;
}

/* Every HR_NEEDS_* bit. */
#define ALL_NEEDS                                                                             \
    (HR_NEEDS_P2P | HR_NEEDS_COPY_SENDS | HR_NEEDS_ROUNDS | HR_NEEDS_QUEUES |                 \
     HR_NEEDS_PRIORITIES | HR_NEEDS_LOSSES | HR_NEEDS_ONE_RECEIVED)

/* Nonzero if p->choices is a comma list of distinct words of NAME_CHARS but '-' (spaces after the
 * commas), one for each whole number from 0 to p->max, p->min 0 and p->integer set. */
static int good_choices(const hr_param_spec *p)
{
    const char *w;
    size_t n;
    int count = 0;
    for (; (w = hr_param_word(p, count, &n)) != NULL; count++)
        if (n == 0 || strspn(w, NAME_CHARS) < n || memchr(w, '-', n) != NULL ||
            hr_param_choice(p, w, n) != count)
            return 0;
    return count > 0 && p->integer && p->min == 0 && p->max == count - 1;
}

int hr_algorithm_register(const hr_algorithm *alg, const char **why)
{
    const char *bad = NULL;
    if (alg == NULL || alg->name == NULL || !good_name(alg->name))
        bad = "an algorithm needs a name FAMILY.NAME, each part made of letters, digits, '_' and "
              "'-'";
    else if (alg->summary == NULL || alg->run == NULL || (alg->plan == NULL) != (alg->unplan == NULL))
        bad = "an algorithm needs a summary and run (and plan with unplan, or neither)";
    else if (alg->kind == 0)
        bad = "an algorithm needs the kind of workload it takes";
    else if (hr_algorithm_find(alg->name) != NULL)
        bad = "an algorithm of that name exists already";
    else if (nadded == HR_MAX_REGISTERED)
        bad = "too many algorithms registered";
    else if ((alg->needs & ~ALL_NEEDS) != 0)
        bad = "an algorithm's needs are HR_NEEDS_* bits";
    else if ((alg->needs & HR_NEEDS_P2P) && (alg->needs & ~(HR_NEEDS_P2P | HR_NEEDS_COPY_SENDS)))
        bad = "an algorithm needs point-to-point messages or rounds, not both";
    for (const hr_param_spec *p = alg && !bad ? alg->params : NULL; p != NULL && p->name; p++)
        if (p->name[0] == '\0' || strspn(p->name, NAME_CHARS) != strlen(p->name) ||
            strchr(p->name, '-') != NULL)
            bad = "a parameter's name is made of letters, digits and '_'";
        else if (!(p->min <= p->def && p->def <= p->max))
            bad = "a parameter's default is outside its range";
        else if (p->choices != NULL && !good_choices(p))
            bad = "a parameter's choices are words of letters, digits and '_', the k-th for the "
                  "whole number k: integer, min 0 and max their count less one";
    if (bad != NULL) {
        if (why != NULL)
            *why = bad;
        return HR_EINVAL;
    }
    added[nadded++] = alg;
    return HR_OK;
}

/* Nonzero if the first len bytes of name are an item of the comma list (NULL: anything). */
static int in_list(const char *list, const char *name, size_t len)
{
    if (list == NULL)
        return 1;
    for (const char *s = list; *s != '\0';) {
        const char *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        if (n == len && strncmp(s, name, len) == 0)
            return 1;
        if (end == NULL)
            break;
        s = end + 1;
    }
    return 0;
}

int hr_algorithm_allows(const hr_algorithm *alg, const char *discipline)
{
    return hr_discipline_unmet(discipline, alg->needs) == 0 &&
           in_list(alg->disciplines, discipline, strlen(discipline));
}

/* Each need in words, as the refusal of a row and --list say it ("it needs rounds"). */
static const struct {
    unsigned    bit;
    const char *words;
} need_words[] = {
    { HR_NEEDS_P2P,          "point-to-point messages" },
    { HR_NEEDS_COPY_SENDS,   "sends that complete at once" },
    { HR_NEEDS_ROUNDS,       "rounds" },
    { HR_NEEDS_QUEUES,       "queues" },
    { HR_NEEDS_PRIORITIES,   "priorities" },
    { HR_NEEDS_LOSSES,       "lost messages" },
    { HR_NEEDS_ONE_RECEIVED, "one message through each collision" },
};
#define NNEEDS (sizeof need_words / sizeof need_words[0])

size_t hr_needs_text(unsigned needs, char *buf, size_t len)
{
    size_t used = 0, count = 0, seen = 0;
    for (size_t i = 0; i < NNEEDS; i++)
        count += (needs & need_words[i].bit) != 0;
    if (len > 0)
        buf[0] = '\0';
    for (size_t i = 0; i < NNEEDS; i++) {
        if (!(needs & need_words[i].bit))
            continue;
        seen++;
        const char *sep = seen == 1 ? "" : seen == count ? " and " : ", ";
        int k = snprintf(used < len ? buf + used : NULL, used < len ? len - used : 0, "%s%s",
                         sep, need_words[i].words);
        used += k > 0 ? (size_t)k : 0;
    }
    return used;
}

int hr_algorithm_takes(const hr_algorithm *alg, const char *topology)
{
    topology += strspn(topology, " ");
    return in_list(alg->topologies, topology, strcspn(topology, " "));
}
