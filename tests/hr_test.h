/* hr_test.h: the suites of the one Check runner, and small helpers shared by tests. */
#ifndef HREMU_TESTS_HR_TEST_H
#define HREMU_TESTS_HR_TEST_H

#include <check.h>
#include <hremu/machine.h>
#include <hremu/workload.h>

/* One suite per module; tests/main.c runs them all (CK_RUN_SUITE=name runs one). */
#define HR_TEST_SUITES(X) \
    X(util)               \
    X(rng)                \
    X(cost)               \
    X(cost_model)         \
    X(topology)           \
    X(topo_fattree)       \
    X(topo_rh)            \
    X(link_model)         \
    X(mailbox)            \
    X(p2p)                \
    X(nonblock)           \
    X(order)              \
    X(buffer)             \
    X(deadlock)           \
    X(fibers)             \
    X(superstep)          \
    X(region)             \
    X(round)              \
    X(coll)               \
    X(group)              \
    X(expr)               \
    X(config)             \
    X(report)             \
    X(options)            \
    X(workload)           \
    X(sortwork)           \
    X(mtx)                \
    X(values)             \
    X(alg)                \
    X(cube)               \
    X(sched)              \
    X(xchg)               \
    X(bcast)              \
    X(irreg)              \
    X(perm)               \
    X(fft)                \
    X(event)              \
    X(determinism)

#define HR_TEST_DECL(name) Suite *hr_##name##_suite(void);
HR_TEST_SUITES(HR_TEST_DECL)
#undef HR_TEST_DECL

/* Skip the running test, or part of it: Check has no skip status, so hr_test_skip prints one
 * line "SKIP test_name: reason" (", in part" after the name when part) and the runner counts
 * the skips in its summary (tests/main.c). HR_TEST_SKIP returns from the test: a test that
 * skips says so instead of passing in silence. */
void hr_test_skip(const char *reason, int part);
#define HR_TEST_SKIP(reason)         \
    do {                             \
        hr_test_skip((reason), 0);   \
        return;                      \
    } while (0)

/* ThreadSanitizer's cost per synchronisation grows with the number of threads: tests of scale
 * use HR_TEST_SCALE_PROCS processors (1024, or 256 under TSan) and HR_TEST_TSAN to shrink loops. */
#if defined(__SANITIZE_THREAD__)
#define HR_TEST_TSAN 1
#define HR_TEST_SCALE_PROCS 256
#else
#define HR_TEST_TSAN 0
#define HR_TEST_SCALE_PROCS 1024
#endif

/* A machine config with the cm5 costs, p processors, discipline disc (NULL: async). */
hr_machine_config hr_test_config(int p, const char *disc);

/* Run fn on a fresh machine of cfg; asserts the machine could be built and run. */
/* Run fn(arg) on a machine of p processors and check instance inst of workload w, while the
 * machine that owns the outputs is alive: w->verify's code in *verify_err, hr_workload_verify's
 * in *run_err (its message in why); then reset inst. Returns the run's payload bytes. */
uint64_t hr_test_run_verify(const hr_workload *w, void *inst, int p, void (*fn)(hr_proc *, void *),
                            void *arg, int *verify_err, int *run_err, char *why, size_t whylen);
/* Run the algorithm called alg on inst, an instance of the workload called kind, on a fresh
 * machine of cfg, with params (NULL: the algorithm's defaults), then check it with
 * hr_workload_verify and reset inst. *res gets the run's result. Returns the verifier's code
 * (why its reason), or HR_EFAIL when the run did not end ok (res->report says why). A plan, if
 * the algorithm has one, is the caller's to make before and undo after. */
#define HR_TEST_MAX_PARAMS 16
int hr_test_run_alg(const hr_machine_config *cfg, const char *alg, const char *kind, void *inst,
                    const double *params, hr_run_result *res, char *why, size_t whylen);

#if defined(__SANITIZE_ADDRESS__)
#define HR_TEST_ASAN 1
#else
#define HR_TEST_ASAN 0
#endif

/* The sanitizers' allocators neither report through mallinfo2 nor live within a small limit of
 * address space: the tests that measure the heap or limit it skip under them. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HR_TEST_PLAIN_ALLOC 0
#else
#define HR_TEST_PLAIN_ALLOC 1
#endif

/* Heap bytes in use: the main arena's and the mmapped blocks' (mallinfo2). */
uint64_t hr_test_heap_in_use(void);
/* May this test limit its process's address space? Only with the plain allocator, and only in
 * a forked test (with CK_FORK=no the limit would outlive it). */
int hr_test_may_limit_memory(void);
/* Lower the soft address-space limit to what the process maps now plus margin bytes, the limit
 * before in *old (restore it with setrlimit(RLIMIT_AS, old)). 0, or -1. Any thread. */
struct rlimit;
int hr_test_limit_memory(size_t margin, struct rlimit *old);

/* Build topology spec on p processors (0: the shape's p), asserting it builds; free it with
 * hr__topo_destroy (net/topology.h). */
struct hr_topo *hr_test_topo(const char *spec, int p);
void hr_test_run(const hr_machine_config *cfg, void (*fn)(hr_proc *, void *), void *arg,
                 hr_run_result *res);

#endif
