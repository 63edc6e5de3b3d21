/* machine.h: building an emulated machine and running an SPMD function on it.
 *
 * A machine is p processors, each a POSIX thread created once by hr_machine_create and parked
 * between runs. hr_machine_run releases them together on one function, so wall time covers the
 * algorithm and not thread start-up or input generation. One thread (the "machine thread", the one
 * that created the machine) calls create, run and destroy; a process may hold many machines.
 */
#ifndef HREMU_MACHINE_H
#define HREMU_MACHINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <hremu/hremu.h>

/* The most processors a machine may have: 2^20 under fibers, HR_MAX_THREADS under threads
 * (one operating-system thread each). */
#define HR_MAX_PROCS   (1 << 20)
#define HR_MAX_THREADS 4096

typedef struct hr_machine hr_machine;


/* A preset is one cost model's figures for a named machine, with their source (--list). Fill c
 * with cost model cost_model's preset called name (cost_model NULL: "bdm"; name NULL: the
 * model's default, the one a config takes when it sets no cost); HR_ENOENT if it has none. */
int hr_cost_model_preset(const char *cost_model, const char *name, hr_cost *c);
/* The i-th preset of cost_model (NULL: "bdm"), its name and one-line source (i from 0); NULL
 * past the end. */
const char *hr_cost_model_preset_name(const char *cost_model, int i, const char **summary);
/* The same for bdm, the default cost model: hr_cost_preset("cm5", &cfg.cost). */
int hr_cost_preset(const char *name, hr_cost *c);
const char *hr_cost_preset_name(int i, const char **summary);

/* Under discipline eager, sends of up to this many bytes are copied, larger ones are rendezvous
 * (hr_machine_config.eager_limit 0 means this). */
#define HR_EAGER_LIMIT 4096

/* Plain data the caller fills in. Names are those of --list: discipline "async", "sync",
 * "eager", "fifo", "priority", "arbitrary" or "ocpc"; topology a name with its shape where it has one:
 * "complete", "ring", "hypercube", "mesh 4x8", "torus 8x8", "torus 4x4x4". */
typedef struct hr_machine_config {
    int         procs;        /* 1 .. HR_MAX_PROCS, or 0: the p the topology's shape fixes */
    const char *discipline;   /* NULL: "async" */
    const char *topology;     /* NULL: "complete" */
    uint64_t    buffer;       /* async receive buffer per processor, bytes; 0 = unlimited */
    uint64_t    eager_limit;  /* eager: the largest send copied, bytes; 0 = HR_EAGER_LIMIT (not
                               * read under another discipline) */
    int         switching;    /* on a topology with links: 0 cut-through, 1 store-and-forward */
    hr_cost     cost;
    const char *cost_model;   /* how messages are charged: "bdm" (NULL: the seeds' tau + sigma*m,
                                 docs/model.md), "loggp" (Alexandrov et al. 1995) or "bsp"
                                 (Valiant 1990: w + h*g + l a superstep) */
    uint64_t    seed;
    int         jitter;       /* random yields and short sleeps at communication points; < 0: read
                                 HREMU_JITTER from the environment */
    const char *engine;       /* how processors run: "threads" (NULL: a POSIX thread each) or
                                 "fibers" (user-level contexts on carrier threads) */
    size_t      stack;        /* fibers: each processor's stack, bytes; 0: HR_FIBER_STACK */
    int         carriers;     /* fibers: carrier threads that run them; 0: one; HR_CARRIERS_CORES:
                                 one a core (at most procs) */
} hr_machine_config;

#define HR_FIBER_STACK (64 * 1024)
/* Below each fiber's stack, a guard of this many bytes: address space, not memory. */
#define HR_FIBER_GUARD (64 * 1024)
#define HR_CARRIERS_CORES (-1)

/* hr_run_result.notes: the run called collectives on a machine whose discipline is sync or eager
 * or whose buffers are bounded; collectives are costed by the async rules all the same (docs/model.md). */
#define HR_NOTE_COLL_ASYNC 0x1u

/* What one run measured. Model figures are deterministic; wall_s is not. */
typedef struct hr_run_result {
    int      status;          /* HR_OK, HR_EFAIL (hr_fail), HR_EMISUSE (the API misused: a bad
                                 argument or a call out of place, which the library detected),
                                 HR_EDEADLK, or HR_ERANGE (model time left the clock's range of
                                 2^63 - 1 ps, about 106.75 days) */
    double   model_time_s;    /* max over processors of its final clock; INFINITY for HR_ERANGE */
    uint64_t rounds;          /* max over processors of collective calls, supersteps and rounds;
                                 under hr_machine_neighbour_only, steps instead */
    uint64_t steps;           /* communication steps: the longest chain of messages, each
                                 processor's sends one step apart (docs/model.md) */
    uint64_t messages;        /* messages sent, all processors */
    uint64_t bytes;           /* payload bytes sent, all processors */
    uint64_t max_out_bytes;   /* max over processors of bytes sent */
    uint64_t max_in_bytes;    /* max over processors of bytes received */
    uint64_t stalls;          /* sends that waited for buffer space or a rendezvous; under fifo
                                 and priority, rounds that messages spent waiting in queues */
    uint64_t lost;            /* round messages lost in collisions (arbitrary, ocpc) */
    double   wall_s;          /* from release of the threads to the last one finishing */
    uint32_t notes;           /* HR_NOTE_* bits: what the caller should tell the user */
    uint64_t unreceived;      /* point-to-point messages sent and never received (a run that
                                 ended ok); unreceived_why names them by sender, receiver and
                                 tag: "P0 -> P1 tag 3: 2 messages (8 bytes); ..." */
    char     unreceived_why[256];
    char     report[4096];    /* why a run failed or deadlocked: one line per processor involved */
} hr_run_result;

/* Check cfg as hr_machine_create does, creating no thread: HR_OK, or HR_EINVAL with a reason in
 * why (if not NULL; a reason of create or check may live in a per-thread buffer until that
 * thread's next call). Any thread. */
int  hr_machine_check(const hr_machine_config *cfg, const char **why);
/* HREMU_JITTER as a machine whose .jitter is below 0 reads it: 1 (jitter), 0 (unset, empty or
 * "0": none), or -1, a value hr_machine_check and hr_machine_create refuse. Any thread. */
int  hr_machine_jitter_env(void);
/* The carrier threads a machine with cfg runs its fibers on (engine fibers): cfg->carriers (0:
 * one), or one a core this process may run on (HR_CARRIERS_CORES), at most its processors. */
int  hr_machine_carriers(const hr_machine_config *cfg);
/* Create a machine; threads are started and parked. Returns HR_OK, HR_EINVAL (bad config; a
 * reason goes to why, if not NULL), HR_ENOMEM or HR_ESYS. Machine thread only. */
int  hr_machine_create(const hr_machine_config *cfg, hr_machine **out, const char **why);
/* Run fn(proc, arg) on every processor and wait for all. Memory that procs took with hr_malloc in
 * the previous run is freed first; this run's stays readable until the next run or destroy.
 * Returns HR_OK or HR_ESYS; the run's own outcome is res->status. If m, fn or res is NULL, nothing
 * runs or changes and the call returns HR_EINVAL. Machine thread only. */
int  hr_machine_run(hr_machine *m, void (*fn)(hr_proc *, void *), void *arg, hr_run_result *res);
void hr_machine_destroy(hr_machine *m);

/* ---- the last run's figures per processor, per timed region and per superstep --------------
 * Model figures, deterministic as hr_run_result's are (docs/model.md, "Counters" and "Timed
 * regions and supersteps"). They describe the machine's last run and stay valid until its next
 * run or destroy; before the first run they are zero (no regions, no supersteps). After a run
 * whose status is not HR_OK they cover what was done before it stopped. Plain data: results may
 * be copied and kept. These calls cost no model time and do not block. Machine thread, between
 * runs. Times in seconds. */

/* One processor. */
typedef struct hr_proc_result {
    double   clock_s;         /* its model clock when it returned */
    double   end_s;           /* max(clock, injection port free): its share of model_time_s */
    double   work_s;          /* local work charged: hr_compute, or measured CPU time */
    uint64_t messages_out;    /* messages it sent to others (barrier messages included) */
    uint64_t messages_in;     /* messages it received from others */
    uint64_t bytes_out;       /* payload bytes of those */
    uint64_t bytes_in;
    uint64_t stalls;          /* as hr_run_result's, for this processor */
    uint64_t rounds;          /* collective calls, barriers, supersteps and rounds it took part in */
    uint64_t steps;           /* the communication step of its last send or received message */
    uint64_t lost;            /* its round messages lost in collisions */
} hr_proc_result;

/* Processor pid's figures: HR_OK, or HR_EINVAL if there is no such processor. */
int hr_machine_proc_result(const hr_machine *m, int pid, hr_proc_result *out);

/* One timed region (hr_region_begin/end), over every processor that entered it. A processor's
 * time in it is the sum of its clock's advances from each outermost begin to its end. */
typedef struct hr_region_result {
    char     name[HR_REGION_NAME_MAX + 1];
    int      procs;           /* processors that entered it */
    uint64_t entries;         /* hr_region_begin calls for it, all processors, nested ones too */
    double   time_s;          /* max over processors of its time in the region */
    double   time_sum_s;      /* sum over processors (time_sum_s / procs is the mean) */
    double   work_s;          /* max over processors of the local work charged in it */
    uint64_t messages;        /* messages sent inside it, all processors */
    uint64_t bytes;           /* payload bytes of those */
    uint64_t h;               /* max over processors of max(bytes sent, bytes received) in it */
} hr_region_result;

/* How many regions the last run entered. */
size_t hr_machine_regions(const hr_machine *m);
/* The i-th (from 0) in canonical order: by the model time at which any processor first entered
 * it, then that processor's id, then the order in which it entered its regions. HR_OK, or
 * HR_EINVAL if i is past the end. */
int hr_machine_region_result(const hr_machine *m, size_t i, hr_region_result *out);

/* One superstep: the stretch of the run that an hr_sync ends, from the run's start or the
 * previous hr_sync (an hr_barrier does not end a superstep). BSP's cost w + g*h + l. */
typedef struct hr_superstep_result {
    double   time_s;          /* the largest clock on leaving this hr_sync minus the largest on
                                 leaving the previous one (or 0): they add up to the run's time
                                 up to its last hr_sync */
    double   time_sum_s;      /* sum over processors of their clocks' advance in it */
    double   work_s;          /* max over processors of the local work charged in it: w */
    uint64_t messages;        /* messages sent in it, barrier messages included */
    uint64_t bytes;           /* payload bytes of those, puts and gets included */
    uint64_t h;               /* max over processors of max(bytes sent, bytes received) in it */
} hr_superstep_result;

/* How many supersteps (hr_sync calls of each processor) the last run had. */
size_t hr_machine_supersteps(const hr_machine *m);
/* The s-th superstep (from 0); HR_OK, or HR_EINVAL if s is past the end. */
int hr_machine_superstep_result(const hr_machine *m, size_t s, hr_superstep_result *out);
/* ---- events: what happened, for timelines and traces ------------------------------------------
 * With events on, a run records what each processor did, in buffers of its own, and afterwards
 * hands them out merged in one canonical order: the same for every thread schedule. A message
 * is named by its sender and the sender's count of messages (msg), so that its send and its
 * receive can be paired. Times are model seconds. */
typedef enum hr_event_kind {
    HR_EV_SEND = 1,   /* proc sent msg to peer: t0 injection start (a rendezvous: the send's
                       * issue), t1 its port free again (a rendezvous: the transfer's end) */
    HR_EV_RECV,       /* proc received msg from peer: t0 the receive posted, t1 absorbed */
    HR_EV_COMPUTE,    /* proc computed (hr_compute) from t0 to t1 */
    HR_EV_ROUND,      /* a round message from proc to peer met its fate in round `round`
                       * (starting at t0): delivered, queued, lost (arbitrary, ocpc); queue is
                       * the receiver's queue length after the round, prio the message's */
    HR_EV_REGION,     /* proc was inside region `name` from t0 to t1 (its outermost stretch:
                       * a region re-entered inside itself is one) */
    HR_EV_COLL,       /* proc was in collective `name` ("hr_bcast from root 0", "hr_sync")
                       * from its call at t0 to its return at t1: for a barrier, its wait; a
                       * collective's messages are SEND and RECV events with its (negative)
                       * tag */
    HR_EV_STALL,      /* proc's send of msg to peer waited from t0 to t1 for room in peer's
                       * bounded receive buffer (buffer = BYTES): the run's stalls */
    HR_EV_LINK,       /* on a topology with links: directed link `link`, from node proc to node
                       * peer (nodes from p on are switches), carried msg's bytes from t0 to t1
                       * (msg 0: a superstep's put or get) */
} hr_event_kind;

typedef struct hr_event {
    int         kind;         /* an hr_event_kind */
    int         proc, peer;   /* peer -1 for COMPUTE */
    uint64_t    msg;          /* (sender << 32) | its message count; 0 for COMPUTE */
    double      t0, t1;
    uint64_t    bytes;
    int         tag;          /* the message's tag (internal tags of collectives are negative) */
    uint64_t    prio;         /* ROUND: the message's priority; else 0 */
    int         queue;        /* ROUND: the receiver's queue after the round; else -1 */
    uint64_t    round;        /* ROUND: from 1; else 0 */
    const char *fate;         /* ROUND: "delivered", "queued" or "lost"; else NULL */
    const char *name;         /* REGION, COLL: the region or the collective; else NULL (valid
                               * until the machine's next run) */
    int         link;         /* LINK: the link's index (0 .. links - 1); else -1 */
    double      wall_s;       /* when it was recorded, in seconds of this computer's clock from
                               * the run's start: not a model figure, it differs between runs
                               * (the canonical order does not use it) */
} hr_event;

/* Record up to limit events in each following run (0: none, the default). Machine thread,
 * between runs. */
void   hr_machine_events(hr_machine *m, size_t limit);
/* The last run's events: how many were recorded and how many more happened past the limit. */
size_t hr_machine_event_count(const hr_machine *m, size_t *dropped);
/* Hand the last run's events to sink in the canonical order: by t0, then kind (a message's send
 * before its receive, rounds by receiver as they were resolved), processor, message.
 * HR_OK, or HR_ENOMEM. Machine thread, after a run. */
int    hr_machine_event_each(const hr_machine *m, void (*sink)(void *arg, const hr_event *e),
                             void *arg);
int  hr_machine_procs(const hr_machine *m);
/* For the following runs: nonzero makes a message (or put, get, round message) between two
 * processors that are not linked fail the run, for algorithms that promise to use links only;
 * on complete every pair is linked. Their hr_run_result.rounds is then the run's steps, as the
 * papers of such algorithms count them. Machine thread, between runs. */
void hr_machine_neighbour_only(hr_machine *m, int on);
/* For the following runs: keep the model (on, the default) or not. Off runs the algorithm with
 * no clock, no conservative waiting and no figure but wall_s (docs/mpi.md, `[run] model = off`):
 * the MPI engine's, to time an algorithm alone on a cluster. HR_OK, or HR_EINVAL where the
 * engine cannot: the thread engine (its processors' waits are the model's), a round discipline
 * (a round's outcome is the model's). Machine thread, between runs. */
int  hr_machine_model(hr_machine *m, int on);

/* The i-th discipline / topology name and summary (i from 0); NULL past the end. */
const char *hr_discipline_name(int i, const char **summary);
const char *hr_topology_name(int i, const char **summary);
/* The i-th topology's syntax ("mesh RxC"); NULL past the end. */
const char *hr_topology_syntax(int i);
/* The p that topology string spec fixes ("mesh 4x8": 32) in *p, 0 if its shape fixes none;
 * HR_OK, or HR_EINVAL with a reason in why (an unknown name, a malformed shape). Any thread. */
int hr_topology_procs(const char *spec, int *p, char *why, size_t len);

#endif /* HREMU_MACHINE_H */
