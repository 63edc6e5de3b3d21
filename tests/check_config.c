/* check_config.c: config files good and bad (each error with its exact FILE:LINE), --set
 * overrides, the sweep's shape and order, and the preflight of machines and workloads. */
#include "hr_test.h"

#include "work/fft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hremu/algorithm.h>

#include "cli/config.h"
#include "cli/sweep.h"

#define DATA "tests/data/"

/* Load and check path; asserts success. */
static hr_config *load_ok(const char *path)
{
    hr_config *c = NULL;
    hr_config_error e = { "" };
    ck_assert_msg(hr__config_load(path, &c, &e) == HR_OK, "%s: %s", path, e.msg);
    ck_assert_msg(hr__config_check(c, &e) == HR_OK, "%s: %s", path, e.msg);
    return c;
}

/* Parse text and check it; returns the first error code, its message in e. */
static int parse_check(const char *text, size_t len, hr_config_error *e)
{
    hr_config *c = NULL;
    int err = hr__config_parse("t.ini", text, len, &c, e);
    if (err == HR_OK) {
        err = hr__config_check(c, e);
        hr__config_free(c);
    }
    return err;
}

/* Text that parses and is refused by the check with code and exactly msg. */
static void refused(const char *text, int code, const char *msg)
{
    hr_config_error e = { "" };
    ck_assert_int_eq(parse_check(text, strlen(text), &e), code);
    ck_assert_str_eq(e.msg, msg);
}

/* One resolved point: machine m, workload w, run r, algorithm a with parameter point q. */
static hr_point point(const hr_config *c, size_t m, size_t w, size_t r, size_t a, size_t q)
{
    hr_point pt;
    hr_config_error e;
    memset(&pt, 0, sizeof pt);
    ck_assert_msg(hr__config_machine(c, m, &pt, &e) == HR_OK, "%s", e.msg);
    ck_assert_msg(hr__config_workload(c, w, &pt, &e) == HR_OK, "%s", e.msg);
    ck_assert_msg(hr__config_run(c, r, &pt, &e) == HR_OK, "%s", e.msg);
    ck_assert_msg(hr__config_algorithm(c, a, q, &pt, &e) == HR_OK, "%s", e.msg);
    return pt;
}

/* ---- good files ------------------------------------------------------------------------ */

START_TEST(test_config_full)
{
    hr_config *c = load_ok(DATA "good_full.ini");
    ck_assert_uint_eq(hr__config_rows(c), 1);
    hr_point pt = point(c, 0, 0, 0, 0, 0);
    ck_assert_int_eq(pt.machine.procs, 8);
    ck_assert_str_eq(pt.machine.topology, "complete");
    ck_assert_str_eq(pt.machine.discipline, "async");
    ck_assert_uint_eq(pt.machine.buffer, 64 * 1024);
    ck_assert(pt.machine.cost.tau == 1e-4);
    ck_assert(pt.machine.cost.sigma == 5e-8);
    ck_assert(pt.machine.cost.overhead == 0);
    ck_assert(pt.machine.cost.hop == 0);
    ck_assert(pt.machine.cost.compute_unit == 1e-9);
    ck_assert_int_eq(pt.machine.cost.measured, 0);
    ck_assert_str_eq(pt.cost, "cm5*");          /* overridden preset */
    ck_assert_uint_eq(pt.machine.seed, 7);
    ck_assert_int_eq(pt.machine.jitter, -1);
    ck_assert_str_eq(pt.work.kind, "hrelation");
    ck_assert_uint_eq(pt.work.n, 4096);
    ck_assert_uint_eq(pt.work.h, 2048);          /* 4n/p = 4 * 4096 / 8 */
    ck_assert_str_eq(pt.work.distribution, "skewed");
    ck_assert_uint_eq(pt.work.seed, 7);          /* the workload's seed is the machine's */
    ck_assert_uint_eq(pt.repeat, 2);
    ck_assert_int_eq(pt.verify, 0);
    ck_assert_str_eq(pt.alg->name, "hrel.direct");
    hr__config_free(c);
}
END_TEST

START_TEST(test_config_defaults)
{
    hr_config *c = load_ok(DATA "good_minimal.ini");
    hr_point pt = point(c, 0, 0, 0, 0, 0);
    hr_cost cm5;
    ck_assert_int_eq(hr_cost_preset("cm5", &cm5), HR_OK);
    ck_assert_int_eq(pt.machine.procs, 16);
    ck_assert_str_eq(pt.machine.topology, "complete");
    ck_assert_str_eq(pt.machine.discipline, "async");
    ck_assert_uint_eq(pt.machine.buffer, 0);
    ck_assert(memcmp(&pt.machine.cost, &cm5, sizeof cm5) == 0);
    ck_assert_str_eq(pt.cost, "cm5");
    ck_assert_uint_eq(pt.machine.seed, 1);
    ck_assert_str_eq(pt.work.kind, "hrelation");
    ck_assert_uint_eq(pt.work.n, 1u << 20);
    ck_assert_uint_eq(pt.work.h, 0);
    ck_assert_str_eq(pt.work.distribution, "uniform");
    ck_assert_uint_eq(pt.repeat, 1);
    ck_assert_int_eq(pt.verify, 1);
    hr__config_free(c);
}
END_TEST

/* kind = sort: dataset resolves, the hrelation keys' defaults do not apply. No algorithm takes
 * kind sort yet, so the workload level is resolved alone. */
START_TEST(test_config_sort_workload)
{
    static const char text[] = "[workload]\nkind = sort\nn = 2^12\ndataset = N, C\n"
                               "[run]\nalgorithms = hrel.direct\n";
    hr_config *c = NULL;
    hr_config_error e = { "" };
    ck_assert_msg(hr__config_parse("t.ini", text, sizeof text - 1, &c, &e) == HR_OK, "%s", e.msg);
    ck_assert_uint_eq(hr__config_workloads(c), 2);
    hr_point pt;
    memset(&pt, 0, sizeof pt);
    ck_assert_msg(hr__config_machine(c, 0, &pt, &e) == HR_OK, "%s", e.msg);
    static const char *const want[2] = { "N", "C" };
    for (size_t w = 0; w < 2; w++) {
        ck_assert_msg(hr__config_workload(c, w, &pt, &e) == HR_OK, "%s", e.msg);
        ck_assert_str_eq(pt.work.kind, "sort");
        ck_assert_int_eq(pt.workload->kind, HR_KIND_SORT);
        ck_assert_uint_eq(pt.work.n, 4096);
        ck_assert_str_eq(pt.work.dataset, want[w]);
        ck_assert_ptr_null(pt.work.distribution);
        ck_assert_uint_eq(pt.work.h, 0);
        ck_assert_uint_eq(pt.work.seed, 1);
    }
    /* The whole check stops at the algorithm, which takes kind hrelation. */
    ck_assert_int_eq(hr__config_check(c, &e), HR_EKIND);
    ck_assert_str_eq(e.msg, "t.ini:6: hrel.direct takes workload kind hrelation, not sort");
    hr__config_free(c);
    /* hrelation points have no dataset. */
    c = load_ok(DATA "good_minimal.ini");
    hr_point h = point(c, 0, 0, 0, 0, 0);
    ck_assert_ptr_null(h.work.dataset);
    hr__config_free(c);
}
END_TEST

START_TEST(test_config_bom_crlf)
{
    hr_config *c = load_ok(DATA "good_bom_crlf.ini");
    hr_point pt = point(c, 0, 0, 0, 0, 0);
    ck_assert_uint_eq(pt.repeat, 2);
    ck_assert_str_eq(pt.alg->name, "hrel.direct");
    hr__config_free(c);
}
END_TEST

/* Lines that end in a lone carriage return (old Mac files) are one line to libinih: refused
 * with the reason, not as text after a section header. */
START_TEST(test_config_lone_cr)
{
    refused("[machine]\rprocs = 4\r[run]\ralgorithms = hrel.direct\r", HR_EINVAL,
            "t.ini:1: a carriage return inside the line (old Mac line ends?): end lines with "
            "a newline");
}
END_TEST

START_TEST(test_config_sweep_shape)
{
    hr_config *c = load_ok(DATA "good_sweep.ini");
    ck_assert_uint_eq(hr__config_machines(c), 6);    /* 3 procs x 2 seeds */
    ck_assert_uint_eq(hr__config_workloads(c), 2);   /* 2 values of n */
    ck_assert_uint_eq(hr__config_runs(c), 1);
    ck_assert_uint_eq(hr__config_algorithms(c), 2);
    ck_assert_uint_eq(hr__config_params(c, 0), 1);
    ck_assert_uint_eq(hr__config_rows(c), 24);
    /* The first key varies slowest: procs, then seed. */
    static const int procs[6] = { 2, 2, 4, 4, 8, 8 };
    static const uint64_t seed[6] = { 1, 2, 1, 2, 1, 2 };
    for (size_t m = 0; m < 6; m++) {
        hr_point pt = point(c, m, 1, 0, 1, 0);
        ck_assert_int_eq(pt.machine.procs, procs[m]);
        ck_assert_uint_eq(pt.machine.seed, seed[m]);
        ck_assert_uint_eq(pt.work.n, 4096);
        ck_assert_uint_eq(pt.work.seed, seed[m]);
    }
    hr__config_free(c);
}
END_TEST

/* ---- bad files: the exact message, FILE:LINE first ---------------------------------------- */

typedef struct bad_file {
    const char *file;
    const char *msg;       /* after "tests/data/FILE" */
    int         prefix;    /* the message continues with a registry's names */
} bad_file;

static const bad_file bad_files[] = {
    { "bad_unknown_section.ini", ":4: unknown section [machin]", 0 },
    { "bad_unknown_key.ini", ":4: unknown key 'prcs' in [machine] (keys: procs, topology, "
      "fattree_bw, switching, discipline, buffer, eager_limit, cost_model, cost, tau, sigma, overhead, hop, "
      "gap, compute_unit, "
      "compute, seed, engine, stack, carriers)", 0 },
    { "bad_duplicate_key.ini", ":4: duplicate key 'procs' in [machine] (first at line 2)", 0 },
    { "bad_duplicate_section.ini", ":5: duplicate section [machine] (first at line 1)", 0 },
    { "bad_syntax.ini", ":3: expected KEY = VALUE, [SECTION] or a comment", 0 },
    { "bad_bracket.ini", ":3: section header without a closing ']'", 0 },
    { "bad_header_text.ini", ":1: text after the section header's ']'", 0 },
    { "bad_outside.ini", ":1: key 'procs' outside any section", 0 },
    { "bad_empty_value.ini", ":4: procs has no value", 0 },
    { "bad_empty_item.ini", ":4: procs: empty item in the list", 0 },
    { "bad_procs.ini", ":2: procs = 1048577: must be 1 .. 1048576 (it is 1048577)", 0 },
    { "bad_procs_sweep.ini", ":2: procs = 0: must be 1 .. 1048576 (it is 0)", 0 },
    { "bad_discipline.ini", ":2: discipline = lockstep: unknown discipline (disciplines: arbitrary, async",
      1 },
    { "bad_topology.ini", ":2: topology = moebius: unknown topology (topologies: ", 1 },
    { "bad_cost.ini", ":2: cost = cray1: cost model bdm has no preset 'cray1' (its presets: cm5, sp2; ", 1 },
    { "bad_cost_model.ini", ":2: cost_model = logp: unknown cost model (cost models: bdm, loggp, "
      "bsp)", 0 },
    { "bad_cost_file.ini", ":2: cost = file:tests/data/cost_bad_key.ini: "
      "tests/data/cost_bad_key.ini:2: unknown key 'latency' (tau, sigma, overhead, hop, "
      "gap, compute_unit)", 0 },
    { "bad_cost_section.ini", ":2: cost = file:tests/data/cost_bad_section.ini: "
      "tests/data/cost_bad_section.ini:2: [logp]: a cost file's sections are [cost] and one a "
      "cost model (--list)", 0 },
    { "bad_tau.ini", ":2: tau = 0: must be > 0 and at most 86400", 0 },
    { "bad_sigma.ini", ":2: sigma = fast: expected a number of seconds, like 88e-6", 0 },
    { "bad_buffer.ini", ":2: buffer = 0K: must be > 0 bytes, or unlimited", 0 },
    { "bad_buffer_sync.ini", ":3: a receive buffer applies to discipline async only, not sync "
      "(set buffer = unlimited)", 0 },
    { "bad_eager_zero.ini", ":2: eager_limit = 0: must be > 0 bytes (discipline sync makes every "
      "send a rendezvous)", 0 },
    { "bad_eager_async.ini", ":3: eager_limit applies to discipline eager only, not async", 0 },
    { "bad_compute.ini", ":2: compute = guessed: expected units or measured", 0 },
    { "bad_kind.ini", ":2: kind = hrelations: unknown workload kind (kinds: exchange, fft2d, hrelation", 1 },
    { "bad_distribution.ini", ":2: distribution = zipf: unknown distribution for this kind "
      "(distributions: ", 1 },
    { "bad_dataset.ini", ":3: dataset = Q: unknown dataset for this kind (datasets: C, N, R, S)",
      0 },
    { "bad_dataset_kind.ini", ":2: dataset applies to workload kinds sort and values only, not hrelation "
      "(unset it)", 0 },
    { "bad_sort_no_dataset.ini", ":2: kind = sort needs a dataset (datasets: C, N, R, S)", 0 },
    { "bad_sort_distribution.ini", ":4: distribution applies to workload kind hrelation only, "
      "not sort (unset it)", 0 },
    { "bad_sort_h.ini", ":4: h applies to workload kind hrelation only, not sort (unset it)", 0 },
    { "bad_sort_algorithm.ini", ":5: hrel.direct takes workload kind hrelation, not sort", 0 },
    { "bad_n.ini", ":2: n = 2^: expression ends where a number was expected", 0 },
    { "bad_n_self.ini", ":2: n = 2n: 'n' is not defined here (column 2)", 0 },
    { "bad_h.ini", ":5: h = n/(p-4): division by zero at column 2", 0 },
    { "bad_algorithm.ini", ":2: unknown algorithm 'hrel.teleport' (hremu --list shows them)", 0 },
    { "bad_no_algorithms.ini", ": [run] algorithms is not set", 0 },
    { "bad_alg_section.ini", ":4: unknown key 'K' in [hrel.direct] (keys: ", 1 },
    { "bad_repeat.ini", ":3: repeat = 0: must be 1 .. 1000000 (it is 0)", 0 },
    { "bad_verify.ini", ":3: verify = yes: expected true or false", 0 },
};

START_TEST(test_config_bad_files)
{
    const bad_file *b = &bad_files[_i];
    char path[256], want[512];
    snprintf(path, sizeof path, DATA "%s", b->file);
    snprintf(want, sizeof want, "%s%s", path, b->msg);
    hr_config *c = NULL;
    hr_config_error e = { "" };
    int err = hr__config_load(path, &c, &e);
    if (err == HR_OK) {
        err = hr__config_check(c, &e);
        hr__config_free(c);
    }
    ck_assert_msg(err < 0, "%s was accepted", path);
    if (b->prefix)
        ck_assert_msg(strncmp(e.msg, want, strlen(want)) == 0, "got  %s\nwant %s...", e.msg,
                      want);
    else
        ck_assert_str_eq(e.msg, want);
}
END_TEST

START_TEST(test_config_missing_file)
{
    hr_config *c = NULL;
    hr_config_error e;
    ck_assert_int_eq(hr__config_load(DATA "no_such_file.ini", &c, &e), HR_ESYS);
    ck_assert_str_eq(e.msg, DATA "no_such_file.ini: cannot open: No such file or directory");
    ck_assert_ptr_null(c);
    ck_assert_int_eq(hr__config_load(DATA, &c, &e), HR_ESYS);   /* a directory */
    ck_assert_str_eq(e.msg, DATA ": is a directory, not a regular file");
}
END_TEST

/* Bytes that libinih alone would misread: NULs, overlong lines, truncated section names. */
START_TEST(test_config_bad_bytes)
{
    hr_config_error e;
    static const char nul[] = "[run]\nalgorithms = hrel.direct\nrepeat = 1\0 2\n";
    ck_assert_int_eq(parse_check(nul, sizeof nul - 1, &e), HR_EINVAL);
    ck_assert_str_eq(e.msg, "t.ini:3: NUL byte in the line");

    static const char nosection[] = "[]\nx = 1\n";
    ck_assert_int_eq(parse_check(nosection, sizeof nosection - 1, &e), HR_EINVAL);
    ck_assert_str_eq(e.msg, "t.ini:1: empty section name");

    /* libinih keeps 49 bytes of a section name: a longer one must not be cut to a known one. */
    char longname[128];
    snprintf(longname, sizeof longname, "[run]\nalgorithms = hrel.direct\n[%s]\n",
             "machine_____________________________________________x");
    ck_assert_int_eq(parse_check(longname, strlen(longname), &e), HR_EINVAL);
    ck_assert_str_eq(e.msg, "t.ini:3: section name longer than 49 bytes");

    /* A line of HR_CONFIG_MAX_LINE bytes is refused; one a byte shorter is read whole. */
    size_t n = HR_CONFIG_MAX_LINE + 64;
    char *big = malloc(n);
    ck_assert_ptr_nonnull(big);
    int head = snprintf(big, n, "[run]\nrepeat = 1\nalgorithms = hrel.direct");
    size_t line = (size_t)head - strlen("[run]\nrepeat = 1\n");
    size_t pad = HR_CONFIG_MAX_LINE - 1 - line;
    memset(big + head, ' ', pad);
    big[head + pad] = '\n';
    ck_assert_int_eq(parse_check(big, (size_t)head + pad + 1, &e), HR_OK);
    big[head + pad] = ' ';
    big[head + pad + 1] = '\n';
    ck_assert_int_eq(parse_check(big, (size_t)head + pad + 2, &e), HR_EINVAL);
    ck_assert_str_eq(e.msg, "t.ini:3: line longer than 65535 bytes");
    free(big);
}
END_TEST

/* A long value (a sweep list of 2000 items) comes through libinih's growing line buffer whole. */
START_TEST(test_config_long_list)
{
    size_t n = 64 * 1024;
    char *text = malloc(n);
    ck_assert_ptr_nonnull(text);
    size_t k = (size_t)snprintf(text, n, "[run]\nalgorithms = hrel.direct\n[machine]\nseed = 1");
    for (int i = 2; i <= 2000; i++)
        k += (size_t)snprintf(text + k, n - k, ",%d", i);
    k += (size_t)snprintf(text + k, n - k, "\nprocs = 2\n");
    hr_config *c = NULL;
    hr_config_error e;
    ck_assert_msg(hr__config_parse("t.ini", text, k, &c, &e) == HR_OK, "%s", e.msg);
    ck_assert_msg(hr__config_check(c, &e) == HR_OK, "%s", e.msg);
    ck_assert_uint_eq(hr__config_machines(c), 2000);
    hr_point pt = point(c, 1999, 0, 0, 0, 0);
    ck_assert_uint_eq(pt.machine.seed, 2000);
    ck_assert_int_eq(pt.machine.procs, 2);
    hr__config_free(c);
    free(text);
}
END_TEST

START_TEST(test_config_too_many_rows)
{
    char text[2048];
    size_t k = (size_t)snprintf(text, sizeof text, "[run]\nalgorithms = hrel.direct\n[machine]\n");
    static const char *const keys[] = { "procs", "seed" };
    for (int j = 0; j < 2; j++) {
        k += (size_t)snprintf(text + k, sizeof text - k, "%s = 1", keys[j]);
        for (int i = 2; i <= 50; i++)
            k += (size_t)snprintf(text + k, sizeof text - k, ",%d", i);
        k += (size_t)snprintf(text + k, sizeof text - k, "\n");
    }
    hr_config_error e;
    ck_assert_int_eq(parse_check(text, k, &e), HR_OK);    /* 2500 rows */
    k += (size_t)snprintf(text + k, sizeof text - k, "[workload]\nn = 1");
    for (int i = 2; i <= 41; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, ",%d", i);
    ck_assert_int_eq(parse_check(text, k, &e), HR_ERANGE); /* 102500 rows */
    ck_assert_str_eq(e.msg, "t.ini: the sweep has more than 100000 rows");
}
END_TEST

/* ---- --set ---------------------------------------------------------------------------------- */

START_TEST(test_config_set)
{
    hr_config *c = load_ok(DATA "good_minimal.ini");
    hr_config_error e;
    ck_assert_int_eq(hr__config_set(c, "machine.procs=4, 8", &e), HR_OK);
    ck_assert_int_eq(hr__config_set(c, " workload.h = 4n/p ", &e), HR_OK);
    ck_assert_int_eq(hr__config_set(c, "workload.distribution=skewed", &e), HR_OK);
    ck_assert_int_eq(hr__config_check(c, &e), HR_OK);
    ck_assert_uint_eq(hr__config_machines(c), 2);
    hr_point pt = point(c, 1, 0, 0, 0, 0);
    ck_assert_int_eq(pt.machine.procs, 8);
    ck_assert_uint_eq(pt.work.h, 4 * (1u << 20) / 8);
    /* A later override wins. */
    ck_assert_int_eq(hr__config_set(c, "machine.procs=32", &e), HR_OK);
    ck_assert_uint_eq(hr__config_machines(c), 1);
    pt = point(c, 0, 0, 0, 0, 0);
    ck_assert_int_eq(pt.machine.procs, 32);
    hr__config_free(c);
}
END_TEST

typedef struct bad_set {
    const char *set;
    const char *msg;
    int         prefix;
} bad_set;

static const bad_set bad_sets[] = {
    { "machine.procs=1048577", "--set machine.procs: procs = 1048577: must be 1 .. 1048576 (it is 1048577)",
      0 },
    { "machine.procs=", "--set machine.procs: procs has no value", 0 },
    { "machine.procs", "--set machine.procs: expected --set SECTION.KEY=VALUE", 0 },
    { "procs=4", "--set procs: expected --set SECTION.KEY=VALUE", 0 },
    { ".procs=4", "--set .procs: expected --set SECTION.KEY=VALUE", 0 },
    { "machine.=4", "--set machine.: expected --set SECTION.KEY=VALUE", 0 },
    { "machin.procs=4", "--set machin.procs: unknown section [machin]", 0 },
    { "machine.prcs=4", "--set machine.prcs: unknown key 'prcs' in [machine] (keys: ", 1 },
    /* split at the last dot: the section is hrel.direct */
    { "hrel.direct.K=1", "--set hrel.direct.K: unknown key 'K' in [hrel.direct] (keys: ", 1 },
    { "run.repeat=0", "--set run.repeat: repeat = 0: must be 1 .. 1000000 (it is 0)", 0 },
    { "run.algorithms=hrel.direct,nope", "--set run.algorithms: unknown algorithm 'nope' "
      "(hremu --list shows them)", 0 },
    { "workload.n=p^p", "--set workload.n: n = p^p: value exceeds 2^64-1 at column 2", 0 },
};

START_TEST(test_config_set_errors)
{
    const bad_set *b = &bad_sets[_i];
    hr_config *c = load_ok(DATA "good_minimal.ini");
    hr_config_error e = { "" };
    int err = hr__config_set(c, b->set, &e);
    if (err == HR_OK)
        err = hr__config_check(c, &e);
    ck_assert_msg(err < 0, "--set %s was accepted", b->set);
    if (b->prefix)
        ck_assert_msg(strncmp(e.msg, b->msg, strlen(b->msg)) == 0, "got  %s\nwant %s...", e.msg,
                      b->msg);
    else
        ck_assert_str_eq(e.msg, b->msg);
    hr__config_free(c);
}
END_TEST

/* A failed override leaves the config as it was. */
START_TEST(test_config_set_atomic)
{
    hr_config *c = load_ok(DATA "good_full.ini");
    hr_config_error e;
    ck_assert_int_eq(hr__config_set(c, "machine.procs=4,,8", &e), HR_EINVAL);
    ck_assert_int_eq(hr__config_set(c, "machine.nope=4", &e), HR_EINVAL);
    ck_assert_int_eq(hr__config_check(c, &e), HR_OK);
    hr_point pt = point(c, 0, 0, 0, 0, 0);
    ck_assert_int_eq(pt.machine.procs, 8);
    hr__config_free(c);
}
END_TEST

/* ---- what depends on the registry's contents ------------------------------------------------ */

static const hr_algorithm *algorithm_with_params(void)
{
    for (int i = 0; hr_algorithm_at(i) != NULL; i++)
        if (hr_algorithm_at(i)->params && hr_algorithm_at(i)->params[0].name)
            return hr_algorithm_at(i);
    return NULL;
}

/* Parameters: default, override, sweep and range, for the first algorithm that has any. */
START_TEST(test_config_params)
{
    const hr_algorithm *alg = algorithm_with_params();
    if (alg == NULL)
        HR_TEST_SKIP("no registered algorithm takes parameters");
    const hr_param_spec *s = &alg->params[0];
    char text[512], set[256];
    const char *disc = NULL;
    for (int d = 0; disc == NULL && hr_discipline_name(d, NULL) != NULL; d++)
        if (hr_algorithm_allows(alg, hr_discipline_name(d, NULL)))
            disc = hr_discipline_name(d, NULL);
    ck_assert_ptr_nonnull(disc);
    snprintf(text, sizeof text, "[run]\nalgorithms = %s\n[machine]\ndiscipline = %s\n%s", alg->name,
             disc,
             alg->kind == HR_KIND_SORT ? "[workload]\nkind = sort\ndataset = R\n"
             : alg->kind == HR_KIND_VALUES ? "[workload]\nkind = values\nn = p\ndataset = int\n"
             : alg->kind == HR_KIND_FFT2D ? "[workload]\nkind = fft2d\nsize = 16\n"
                                          : "");
    hr_config *c = NULL;
    hr_config_error e;
    ck_assert_int_eq(hr__config_parse("t.ini", text, strlen(text), &c, &e), HR_OK);
    ck_assert_msg(hr__config_check(c, &e) == HR_OK, "%s", e.msg);
    hr_point pt = point(c, 0, 0, 0, 0, 0);
    ck_assert(pt.params[0] == s->def);
    snprintf(set, sizeof set, "%s.%s=%.17g,%.17g", alg->name, s->name, s->min, s->max);
    ck_assert_msg(hr__config_set(c, set, &e) == HR_OK, "%s", e.msg);
    ck_assert_msg(hr__config_check(c, &e) == HR_OK, "%s", e.msg);
    ck_assert_uint_eq(hr__config_params(c, 0), 2);
    pt = point(c, 0, 0, 0, 0, 1);
    ck_assert(pt.params[0] == s->max);
    snprintf(set, sizeof set, "%s.%s=%.17g", alg->name, s->name, s->max + 1);
    ck_assert_int_eq(hr__config_set(c, set, &e), HR_OK);
    ck_assert_int_eq(hr__config_check(c, &e), HR_ERANGE);
    char want[256];
    snprintf(want, sizeof want, "--set %s.%s: %s = ", alg->name, s->name, s->name);
    ck_assert_msg(strncmp(e.msg, want, strlen(want)) == 0, "%s", e.msg);
    hr__config_free(c);
}
END_TEST

static void collect_warning(void *arg, const char *msg)
{
    char *buf = arg;
    size_t used = strlen(buf);
    snprintf(buf + used, 1024 - used, "%s\n", msg);
}

/* A section of an algorithm that is not in [run] algorithms is a warning, not an error: a config
 * may keep the parameters of the algorithms a --set leaves out. One warning per section, from
 * the file or from --set. */
START_TEST(test_config_section_not_listed)
{
    const hr_algorithm *a = hr_algorithm_find("hrel.direct"), *b = hr_algorithm_find("sort.radix"),
                       *d = hr_algorithm_find("hrel.two_phase");
    ck_assert(a && b && d);
    char text[512];
    snprintf(text, sizeof text, "[run]\nalgorithms = %s\n[%s]\n", a->name, b->name);
    hr_config_error e;
    hr_config *c = NULL;
    ck_assert_int_eq(hr__config_parse("t.ini", text, strlen(text), &c, &e), HR_OK);
    ck_assert_int_eq(hr__config_check(c, &e), HR_OK);
    char got[1024] = "", want[1024];
    hr__config_warnings(c, collect_warning, got);
    snprintf(want, sizeof want, "t.ini:3: warning: [%s] is set but %s is not in [run] "
             "algorithms; its keys are not used\n", b->name, b->name);
    ck_assert_str_eq(got, want);
    /* A listed algorithm's section warns of nothing. */
    char set[256];
    snprintf(set, sizeof set, "run.algorithms=%s,%s", a->name, b->name);
    ck_assert_int_eq(hr__config_set(c, set, &e), HR_OK);
    got[0] = '\0';
    hr__config_warnings(c, collect_warning, got);
    ck_assert_str_eq(got, "");
    hr__config_free(c);
    /* Two keys set with --set for an unlisted algorithm with parameters: one warning. */
    for (int i = 0; hr_algorithm_at(i) != NULL; i++) {
        const hr_algorithm *x = hr_algorithm_at(i);
        if (x == d || x->params == NULL || x->params[0].name == NULL)
            continue;
        snprintf(text, sizeof text, "[run]\nalgorithms = %s\n", d->name);
        ck_assert_int_eq(hr__config_parse("t.ini", text, strlen(text), &c, &e), HR_OK);
        for (int k = 0; k < 2; k++) {
            snprintf(set, sizeof set, "%s.%s=%g", x->name, x->params[0].name, x->params[0].def);
            ck_assert_int_eq(hr__config_set(c, set, &e), HR_OK);
        }
        got[0] = '\0';
        hr__config_warnings(c, collect_warning, got);
        snprintf(want, sizeof want, "--set %s.%s: warning: [%s] is set but %s is not in [run] "
                 "algorithms; its keys are not used\n", x->name, x->params[0].name, x->name,
                 x->name);
        ck_assert_str_eq(got, want);
        hr__config_free(c);
        break;
    }
}
END_TEST

/* A sweep that crosses algorithms with disciplines: the rows an algorithm is not defined for are
 * skipped, and only a sweep of nothing but such rows is an error. */
START_TEST(test_config_unfit_rows_are_skipped)
{
    const char *ok = "[machine]\ndiscipline = priority, fifo\n[workload]\ndistribution = "
                     "alltoall\nn = p*(p-1)\n[run]\nalgorithms = hrel.pq_random, hrel.offline\n";
    hr_config_error e;
    ck_assert_int_eq(parse_check(ok, strlen(ok), &e), HR_OK);
    refused("[machine]\ndiscipline = fifo, arbitrary\n[workload]\ndistribution = alltoall\n"
            "n = p*(p-1)\n[run]\nalgorithms = hrel.pq_random\n", HR_EKIND,
            "t.ini:7: hrel.pq_random is not defined for discipline fifo (it needs priorities)");
}
END_TEST

/* A key that applies to some points of a sweep applies to those; the others go without it. A
 * key that applies to none is refused with the first point's reason. */
START_TEST(test_config_key_for_some_rows)
{
    const char *m = "[machine]\ndiscipline = async, eager, sync\neager_limit = 1K\nbuffer = 2K\n"
                    "[workload]\nkind = exchange, hrelation\nh = 4\ndistribution = random\n"
                    "[run]\nalgorithms = xchg.pex, hrel.direct\n";
    hr_config *c = NULL;
    hr_config_error e;
    ck_assert_msg(hr__config_parse("t.ini", m, strlen(m), &c, &e) == HR_OK, "%s", e.msg);
    ck_assert_msg(hr__config_check(c, &e) == HR_OK, "%s", e.msg);
    hr_point async = point(c, 0, 1, 0, 1, 0), eager = point(c, 1, 1, 0, 1, 0),
             sync = point(c, 2, 1, 0, 1, 0), xchg = point(c, 0, 0, 0, 0, 0);
    ck_assert_uint_eq(async.machine.buffer, 2048);      /* async has a receive buffer ... */
    ck_assert_uint_eq(eager.machine.buffer, 0);         /* ... eager and sync none */
    ck_assert_uint_eq(sync.machine.buffer, 0);
    ck_assert_uint_eq(eager.machine.eager_limit, 1024);
    ck_assert_uint_eq(async.work.h, 4);                 /* hrelation's h ... */
    ck_assert_uint_eq(xchg.work.h, 0);                  /* ... not exchange's */
    hr__config_free(c);

    refused("[machine]\ndiscipline = async, sync\neager_limit = 1K\n"
            "[run]\nalgorithms = xchg.pex\n",
            HR_EINVAL, "t.ini:3: eager_limit applies to discipline eager only, not async");
    refused("[workload]\nkind = exchange, sort\nh = 4\ndataset = R\n"
            "[run]\nalgorithms = xchg.pex\n",
            HR_EINVAL, "t.ini:3: h applies to workload kind hrelation only, not exchange (unset it)");
}
END_TEST

static void run_nothing(hr_proc *p, void *inst, const double *params)
{
    (void)p, (void)inst, (void)params;
}

/* A program's own row that still lists discipline names (and needs nothing): it runs under
 * those only, and a row under another is refused naming the list. */
START_TEST(test_config_listed_disciplines)
{
    const char *fork = getenv("CK_FORK");
    if (fork != NULL && strcmp(fork, "no") == 0) {
        hr_test_skip("registering an algorithm for good: only in a forked test, not CK_FORK=no", 1);
        return;
    }
    static const hr_algorithm listed = { .name = "mine.listed", .summary = "lists names",
                                         .kind = HR_KIND_HRELATION, .disciplines = "sync,fifo",
                                         .run = run_nothing };
    ck_assert_int_eq(hr_algorithm_register(&listed, NULL), HR_OK);
    const char *bad = "[machine]\ndiscipline = async\n[run]\nalgorithms = mine.listed\n";
    hr_config_error e;
    ck_assert_int_eq(parse_check(bad, strlen(bad), &e), HR_EKIND);
    ck_assert_str_eq(e.msg, "t.ini:4: mine.listed is not defined for discipline async (it "
                            "takes: sync,fifo)");
    const char *good = "[machine]\ndiscipline = sync, fifo\n[run]\nalgorithms = mine.listed\n";
    ck_assert_int_eq(parse_check(good, strlen(good), &e), HR_OK);
}
END_TEST

/* Word-valued parameters: a word or its number, the same value; a bad word names the words. */
START_TEST(test_config_param_words)
{
    const char *text = "[machine]\nprocs = 4\n[workload]\nkind = fft2d\nsize = 16\n[run]\n"
                       "algorithms = app.fft2d\n[app.fft2d]\nxchg = pex, 2, transpose, bex, 4\n";
    hr_config *c = NULL;
    hr_config_error e;
    ck_assert_int_eq(hr__config_parse("t.ini", text, strlen(text), &c, &e), HR_OK);
    ck_assert_msg(hr__config_check(c, &e) == HR_OK, "%s", e.msg);
    ck_assert_uint_eq(hr__config_params(c, 0), 5);
    static const double want[] = { 2, 2, 0, 4, 4 };
    for (size_t q = 0; q < 5; q++)
        ck_assert(point(c, 0, 0, 0, 0, q).params[0] == want[q]);
    ck_assert_int_eq(hr__config_set(c, "app.fft2d.xchg=pexx", &e), HR_OK);
    ck_assert_int_eq(hr__config_check(c, &e), HR_EINVAL);
    ck_assert_str_eq(e.msg, "--set app.fft2d.xchg: xchg = pexx: expected one of: transpose, lex, "
                            "pex, rex, bex (or 0 .. 4)");
    ck_assert_int_eq(hr__config_set(c, "app.fft2d.xchg=5", &e), HR_OK);
    ck_assert_int_eq(hr__config_check(c, &e), HR_ERANGE);
    hr__config_free(c);
    /* bcast's group: rows = 1, as the number says. */
    const char *g = "[workload]\nkind = values\nn = p\ndataset = int\n[run]\nalgorithms = "
                    "bcast.linear\n[bcast.linear]\ngroup = rows, columns, all\n";
    ck_assert_int_eq(hr__config_parse("t.ini", g, strlen(g), &c, &e), HR_OK);
    ck_assert_msg(hr__config_check(c, &e) == HR_OK, "%s", e.msg);
    ck_assert(point(c, 0, 0, 0, 0, 0).params[0] == 1);
    ck_assert(point(c, 0, 0, 0, 0, 1).params[0] == 2);
    ck_assert(point(c, 0, 0, 0, 0, 2).params[0] == 0);
    hr__config_free(c);
}
END_TEST

/* An algorithm defined for some disciplines only, on another one. */
START_TEST(test_config_discipline_not_allowed)
{
    for (int i = 0; hr_algorithm_at(i) != NULL; i++) {
        const hr_algorithm *a = hr_algorithm_at(i);
        if (a->kind != HR_KIND_HRELATION)     /* the config's workload is the default's */
            continue;
        for (int d = 0; hr_discipline_name(d, NULL) != NULL; d++) {
            const char *disc = hr_discipline_name(d, NULL);
            if (hr_algorithm_allows(a, disc))
                continue;
            char text[512], want[512];
            snprintf(text, sizeof text, "[machine]\ndiscipline = %s\n[run]\nalgorithms = %s\n",
                     disc, a->name);
            hr_config_error e;
            ck_assert_int_eq(parse_check(text, strlen(text), &e), HR_EKIND);
            snprintf(want, sizeof want, "t.ini:4: %s is not defined for discipline %s", a->name,
                     disc);
            ck_assert_msg(strncmp(e.msg, want, strlen(want)) == 0, "%s", e.msg);
            return;
        }
    }
}
END_TEST

/* ---- the preflight: machines and instances are built before any row runs -------------------- */

START_TEST(test_config_preflight)
{
    hr_config *c = load_ok(DATA "bad_transpose.ini");   /* well formed, but not makeable */
    hr_config_error e;
    ck_assert_int_eq(hr__sweep_check(c, NULL, &e), HR_EINVAL);
    const char *want = DATA "bad_transpose.ini:1: workload hrelation, n = 1000, h = 0, "
                            "distribution transpose, procs = 16: ";
    ck_assert_msg(strncmp(e.msg, want, strlen(want)) == 0, "%s", e.msg);
    hr__config_free(c);

    c = load_ok(DATA "good_sweep.ini");
    ck_assert_msg(hr__sweep_check(c, NULL, &e) == HR_OK, "%s", e.msg);
    hr__config_free(c);
}
END_TEST

Suite *hr_config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("files");
    tcase_add_test(tc, test_config_full);
    tcase_add_test(tc, test_config_defaults);
    tcase_add_test(tc, test_config_sort_workload);
    tcase_add_test(tc, test_config_bom_crlf);
    tcase_add_test(tc, test_config_lone_cr);
    tcase_add_test(tc, test_config_sweep_shape);
    tcase_add_loop_test(tc, test_config_bad_files, 0,
                        (int)(sizeof bad_files / sizeof bad_files[0]));
    tcase_add_test(tc, test_config_missing_file);
    tcase_add_test(tc, test_config_bad_bytes);
    tcase_add_test(tc, test_config_long_list);
    tcase_add_test(tc, test_config_too_many_rows);
    suite_add_tcase(s, tc);

    tc = tcase_create("set");
    tcase_add_test(tc, test_config_set);
    tcase_add_loop_test(tc, test_config_set_errors, 0,
                        (int)(sizeof bad_sets / sizeof bad_sets[0]));
    tcase_add_test(tc, test_config_set_atomic);
    suite_add_tcase(s, tc);

    tc = tcase_create("registry");
    tcase_add_test(tc, test_config_params);
    tcase_add_test(tc, test_config_section_not_listed);
    tcase_add_test(tc, test_config_unfit_rows_are_skipped);
    tcase_add_test(tc, test_config_key_for_some_rows);
    tcase_add_test(tc, test_config_listed_disciplines);
    tcase_add_test(tc, test_config_param_words);
    tcase_add_test(tc, test_config_discipline_not_allowed);
    suite_add_tcase(s, tc);

    tc = tcase_create("preflight");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_config_preflight);
    suite_add_tcase(s, tc);
    return s;
}
