/* algorithm.h: the registry of algorithms, rows in a sorted table (names "family.name"). */
#ifndef HREMU_ALGORITHM_H
#define HREMU_ALGORITHM_H

#include <stdio.h>

#include <hremu/hremu.h>
#include <hremu/workload.h>

/* One numeric parameter, set in the config section named after the algorithm. */
typedef struct hr_param_spec {
    const char *name;          /* NULL ends a list */
    const char *summary;
    double      def, min, max;
    int         integer;       /* nonzero: only whole numbers */
} hr_param_spec;

/* What an off-line algorithm's plan may know besides the instance: its parameters (in the order
 * of .params), the machine's costs (seed 002's differential lambda weighs tau against the
 * per-byte time) and the machine's seed (a plan's random choices). */
typedef struct hr_plan_args {
    const double *params;
    hr_cost       cost;
    uint64_t      seed;
} hr_plan_args;

typedef struct hr_algorithm {
    const char *name;          /* "hrel.direct" */
    const char *summary;       /* one line, with the seed it comes from */
    hr_kind     kind;          /* the workload kind it takes */
    const char *disciplines;   /* comma list it is defined for; NULL: every discipline */
    const char *topologies;    /* comma list of topology names it runs on; NULL: every one */
    int         neighbour_only; /* nonzero: it sends only along links, and a message between
                                 * processors that are not neighbours fails the run */
    /* The SPMD body: inst is the workload instance, params follow the order of .params. */
    void      (*run)(hr_proc *p, void *inst, const double *params);
    const hr_param_spec *params;  /* NULL or a list ended by a row with name NULL */
    /* Off-line algorithms only (NULL for the others): plan runs once on the whole instance before
     * the processors start and leaves in it what the off-line model lets every processor know
     * (seed 003: "every processor knows the source and destination of every message"); unplan
     * frees that. Planning is not part of wall_s. HR_OK, or an error with a reason in why. */
    int       (*plan)(void *inst, const hr_plan_args *args, char *why, size_t whylen);
    void      (*unplan)(void *inst);
    /* Algorithms whose plan is a schedule (seed 001's and 002's schedulers), else NULL: its
     * steps (the plan_steps column), and the schedule in the paper's notation on out, one line
     * a step (hremu --schedule). Between plan and unplan; HR_OK or an error code. */
    uint64_t  (*plan_steps)(const void *inst);
    int       (*plan_print)(const void *inst, FILE *out);
    /* Optional (NULL: every point will do): whether the parameters (in the order of .params;
     * NULL when there are none) suit the machine of a row, p processors of topology ("mesh 4x8";
     * "complete" when the config sets none). Called with the config's check, before any machine
     * is built or instance made, so that what would fail every processor at run time is one
     * line instead. HR_OK, or HR_EINVAL with a one-line reason in why (whylen bytes), not naming
     * the algorithm. A sweep skips a point it refuses and counts it, as it does a discipline the
     * algorithm does not take; a config whose every row is refused is an error. Any thread;
     * pure (the same answer for the same arguments). */
    int       (*check)(const double *params, int procs, const char *topology, char *why,
                       size_t whylen);
} hr_algorithm;

/* How many algorithms, and how many workloads, a program may register. */
#define HR_MAX_REGISTERED 256

/* Add a program's own algorithm to the registry, after the built-in ones, for the hremu command
 * (hremu_main, <hremu/main.h>) and everything that looks algorithms up. alg is borrowed and must
 * outlive every use (a static row). A name is FAMILY.NAME, each part made of letters, digits, '_'
 * and '-' (names go into configs, rows, traces and the --html page); a parameter's name of
 * letters, digits and '_'. HR_OK, or HR_EINVAL with a reason in why (if not NULL): a name that is
 * taken or not of that form, a missing run or summary, no kind, a parameter whose default is out
 * of its range. Call it before anything runs, from one thread. */
int hr_algorithm_register(const hr_algorithm *alg, const char **why);
const hr_algorithm *hr_algorithm_find(const char *name);
const hr_algorithm *hr_algorithm_at(int i);   /* i from 0; NULL past the end */
/* Nonzero if alg is defined for the named discipline. */
int hr_algorithm_allows(const hr_algorithm *alg, const char *discipline);
/* Nonzero if alg runs on topology spec (its first word names the topology: "mesh 4x8"). */
int hr_algorithm_takes(const hr_algorithm *alg, const char *topology);

#endif /* HREMU_ALGORITHM_H */
