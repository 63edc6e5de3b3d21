/* algorithm.h: the registry of algorithms, rows in a sorted table (names "family.name"). */
#ifndef HREMU_ALGORITHM_H
#define HREMU_ALGORITHM_H

#include <stdio.h>

#include <hremu/hremu.h>
#include <hremu/workload.h>

/* One parameter, set in the config section named after the algorithm: a number, or one of
 * words standing for whole numbers. */
typedef struct hr_param_spec {
    const char *name;          /* NULL ends a list */
    const char *summary;
    double      def, min, max;
    int         integer;       /* nonzero: only whole numbers */
    /* NULL, or a comma list of words, "transpose, lex, pex, rex, bex": the k-th word (from 0)
     * stands for the value k, so integer is set, min is 0 and max the words' count less one.
     * A config may write the word or the number; the algorithm sees the number. */
    const char *choices;
} hr_param_spec;

/* What an off-line algorithm's plan may know besides the instance: its parameters (in the order
 * of .params), the machine's costs (a plan may weigh the start-up time tau against the per-byte
 * time) and the machine's seed (a plan's random choices). */
typedef struct hr_plan_args {
    const double *params;
    hr_cost       cost;
    uint64_t      seed;
} hr_plan_args;

/* What an algorithm relies on of the contention discipline (the .needs of its row): a row runs
 * under every discipline that meets all of its needs (hr_discipline_unmet), and no other. Needs
 * of 0: every discipline, as an algorithm that only calls collectives. */
enum {
    HR_NEEDS_P2P          = 1u << 0,  /* point-to-point sends and receives (hr_send, hr_recv) */
    HR_NEEDS_COPY_SENDS   = 1u << 1,  /* every send completes at once, whatever its size, without
                                       * waiting for its receive: sends and receives may go in
                                       * any order without a deadlock */
    HR_NEEDS_ROUNDS       = 1u << 2,  /* synchronous rounds (hr_round_send, hr_round_end) */
    HR_NEEDS_QUEUES       = 1u << 3,  /* a round message not received waits in its receiver's
                                       * queue, and its sender stalls until it is through */
    HR_NEEDS_PRIORITIES   = 1u << 4,  /* ... and the queue serves the highest priority first */
    HR_NEEDS_LOSSES       = 1u << 5,  /* a round message may be lost, and its sender learns so
                                       * after the round, to send it again */
    HR_NEEDS_ONE_RECEIVED = 1u << 6,  /* of the round messages that collide at a receiver, one is
                                       * received (the others wait or are lost): a message sent
                                       * again and again gets through */
};

typedef struct hr_algorithm {
    const char *name;          /* "hrel.direct" */
    const char *summary;       /* one line, with the paper it comes from */
    hr_kind     kind;          /* the workload kind it takes */
    unsigned    needs;         /* HR_NEEDS_* bits: what it relies on of the discipline */
    /* Kept for rows written before .needs: NULL, or a comma list of discipline names; when set,
     * a discipline must be named in it as well as meet .needs. A list leaves out disciplines
     * added later, whatever they offer; .needs takes them in. */
    const char *disciplines;
    const char *topologies;    /* comma list of topology names it runs on; NULL: every one */
    int         neighbour_only; /* nonzero: it sends only along links, and a message between
                                 * processors that are not neighbours fails the run */
    /* The SPMD body: inst is the workload instance, params follow the order of .params. */
    void      (*run)(hr_proc *p, void *inst, const double *params);
    const hr_param_spec *params;  /* NULL or a list ended by a row with name NULL */
    /* Off-line algorithms only (NULL for the others): plan runs once on the whole instance before
     * the processors start and leaves in it what the off-line model lets every processor know
     * (every processor knows the source and destination of every message); unplan
     * frees that. Planning is not part of wall_s. HR_OK, or an error with a reason in why. */
    int       (*plan)(void *inst, const hr_plan_args *args, char *why, size_t whylen);
    void      (*unplan)(void *inst);
    /* Algorithms whose plan is a schedule (of steps of pairwise or partial-permutation
     * messages), else NULL: its steps (the plan_steps column), and the schedule on out in the
     * notation of the paper it comes from, one line
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
    /* Nonzero if a run sends O(p log p) messages or fewer (a tree, a hypercube's dimensions, an
     * h-relation in rounds) and a processor holds O(log p) memory beyond its data. hremu counts
     * a message record for every pair of processors for the others (an all-to-all's, all alive
     * at once), and refuses their rows up front where that cannot fit: at p = 65536 it is
     * about 1 TiB. */
    int         few_messages;
    /* Nonzero if every processor may send to every other before the receivers take anything
     * (xchg.lex: in step s all send to s, and a sender goes on): a message record and a copy
     * of the bytes sent are counted for every pair besides the all-to-all's, all alive at once,
     * where for the others the receivers keep up (a pairwise exchange holds a message a
     * processor). */
    int         pairs_in_flight;
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
/* Nonzero if alg is defined for the named discipline: the discipline meets alg->needs, and
 * alg->disciplines (if set) names it. */
int hr_algorithm_allows(const hr_algorithm *alg, const char *discipline);
/* The needs (HR_NEEDS_* bits) that the named discipline does not meet: 0 if it meets them all;
 * all of needs for a name no discipline has. Any thread. */
unsigned hr_discipline_unmet(const char *discipline, unsigned needs);
/* needs in words, "rounds, queues and priorities", into buf (len bytes, always ended); "" for
 * none. Returns the length the whole text needs, as snprintf does. */
size_t hr_needs_text(unsigned needs, char *buf, size_t len);
/* A parameter's choices (hr_param_spec.choices): the k-th word (from 0; its length in *len), or
 * NULL past the last; and the number a word of len bytes stands for, or -1 if it is none. */
const char *hr_param_word(const hr_param_spec *s, int k, size_t *len);
int hr_param_choice(const hr_param_spec *s, const char *word, size_t len);
/* Nonzero if alg runs on topology spec (its first word names the topology: "mesh 4x8"). */
int hr_algorithm_takes(const hr_algorithm *alg, const char *topology);

#endif /* HREMU_ALGORITHM_H */
