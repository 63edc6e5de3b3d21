/* The one Check runner: every module's suite. CK_RUN_SUITE / CK_RUN_CASE select as usual. */
#include "hr_test.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <hremu/algorithm.h>

#include "net/topology.h"

hr_machine_config hr_test_config(int p, const char *disc)
{
    hr_machine_config cfg = { .procs = p, .discipline = disc, .seed = 1, .jitter = -1 };
    ck_assert_int_eq(hr_cost_preset("cm5", &cfg.cost), HR_OK);
    return cfg;
}

void hr_test_run(const hr_machine_config *cfg, void (*fn)(hr_proc *, void *), void *arg,
                 hr_run_result *res)
{
    hr_machine *m = NULL;
    const char *why = NULL;
    ck_assert_msg(hr_machine_create(cfg, &m, &why) == HR_OK, "create: %s", why ? why : "?");
    ck_assert_int_eq(hr_machine_run(m, fn, arg, res), HR_OK);
    hr_machine_destroy(m);
}

uint64_t hr_test_run_verify(const hr_workload *w, void *inst, int p, void (*fn)(hr_proc *, void *),
                            void *arg, int *verify_err, int *run_err, char *why, size_t whylen)
{
    hr_machine_config cfg = hr_test_config(p, NULL);
    hr_machine *m = NULL;
    const char *mwhy = NULL;
    ck_assert_msg(hr_machine_create(&cfg, &m, &mwhy) == HR_OK, "create: %s", mwhy ? mwhy : "?");
    hr_run_result res;
    ck_assert_int_eq(hr_machine_run(m, fn, arg, &res), HR_OK);
    ck_assert_msg(res.status == HR_OK, "%s", res.report);
    char vwhy[256] = "";
    *verify_err = w->verify(inst, vwhy, sizeof vwhy);
    *run_err = hr_workload_verify(w, inst, res.bytes, why, whylen);
    hr_machine_destroy(m);
    w->reset(inst);
    return res.bytes;
}

typedef struct alg_job {
    const hr_algorithm *alg;
    void               *inst;
    const double       *params;
} alg_job;

static void alg_body(hr_proc *p, void *arg)
{
    alg_job *j = arg;
    j->alg->run(p, j->inst, j->params);
}

int hr_test_run_alg(const hr_machine_config *cfg, const char *alg, const char *kind, void *inst,
                    const double *params, hr_run_result *res, char *why, size_t whylen)
{
    const hr_algorithm *a = hr_algorithm_find(alg);
    const hr_workload *w = hr_workload_find(kind);
    ck_assert_msg(a != NULL && w != NULL, "%s on %s: not registered", alg, kind);
    double defaults[HR_TEST_MAX_PARAMS] = { 0 };
    for (int k = 0; params == NULL && a->params != NULL && a->params[k].name != NULL; k++)
        defaults[k] = a->params[k].def;
    hr_machine *m = NULL;
    const char *mwhy = NULL;
    ck_assert_msg(hr_machine_create(cfg, &m, &mwhy) == HR_OK, "create: %s", mwhy ? mwhy : "?");
    alg_job j = { a, inst, params != NULL ? params : defaults };
    ck_assert_int_eq(hr_machine_run(m, alg_body, &j, res), HR_OK);
    int err = res->status == HR_OK ? hr_workload_verify(w, inst, res->bytes, why, whylen)
                                   : HR_EFAIL;
    hr_machine_destroy(m);
    w->reset(inst);
    return err;
}

hr_topo *hr_test_topo(const char *spec, int p)
{
    hr_topo *t = NULL;
    char why[256] = "";
    ck_assert_msg(hr__topo_make(spec, p, &t, why, sizeof why) == 0, "%s on %d: %s", spec, p, why);
    ck_assert_ptr_nonnull(t);
    return t;
}

uint64_t hr_test_heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return (uint64_t)mi.uordblks + (uint64_t)mi.hblkhd;
}

int hr_test_may_limit_memory(void)
{
    const char *ck_fork = getenv("CK_FORK");
    return HR_TEST_PLAIN_ALLOC && !(ck_fork != NULL && strcmp(ck_fork, "no") == 0);
}

int hr_test_limit_memory(size_t margin, struct rlimit *old)
{
    FILE *statm = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    int ok = statm != NULL && fscanf(statm, "%lu", &pages) == 1;
    if (statm != NULL)
        fclose(statm);
    if (!ok || getrlimit(RLIMIT_AS, old) != 0)
        return -1;
    struct rlimit lim = *old;
    lim.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + margin;
    return setrlimit(RLIMIT_AS, &lim);
}

/* Skips are counted through a file the runner names in HR_TEST_SKIPS: a forked test's counter
 * would die with its process, a line appended to a file does not. */
#define SKIPS_ENV "HR_TEST_SKIPS"

/* Has test name skipped already (a line of the skip file)? */
static int skipped_before(const char *path, const char *name)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int found = 0;
    while (f != NULL && !found && fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        found = strcmp(line, name) == 0;
    }
    if (f != NULL)
        fclose(f);
    return found;
}

/* One line and one count a test, however often a loop in it skips. */
void hr_test_skip(const char *reason, int part)
{
    const char *name = tcase_name();
    const char *path = getenv(SKIPS_ENV);
    if (path != NULL && skipped_before(path, name))
        return;
    printf("SKIP %s%s: %s\n", name, part ? ", in part" : "", reason);
    fflush(stdout);
    FILE *f = path != NULL ? fopen(path, "a") : NULL;
    if (f != NULL) {
        fprintf(f, "%s\n", name);
        fclose(f);
    }
}

/* The lines of the skip file: one a skip. */
static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    if (f == NULL)
        return 0;
    while ((c = getc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

int main(void)
{
    char skips[] = "/tmp/hremu_skips_XXXXXX";
    int fd = mkstemp(skips);
    if (fd < 0 || setenv(SKIPS_ENV, skips, 1) != 0) {
        perror("tests/main.c: the file that counts skips");
        return EXIT_FAILURE;
    }
    close(fd);
    SRunner *sr = srunner_create(NULL);
#define HR_TEST_ADD(name) srunner_add_suite(sr, hr_##name##_suite());
    HR_TEST_SUITES(HR_TEST_ADD)
#undef HR_TEST_ADD
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr), run = srunner_ntests_run(sr);
    srunner_free(sr);
    int skipped = count_lines(skips);
    unlink(skips);
    printf("Skipped: %d of %d checks, wholly or in part (each a SKIP line above)\n", skipped, run);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
