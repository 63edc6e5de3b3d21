/* fibers.c: the fiber engine ([machine] engine = fibers, hr__exec_fibers). Every processor is a
 * user-level context with a stack of its own (hr_machine_config.stack, a guard page below it),
 * and carrier threads run them: the caller of hr_machine_run and, by default, one more a core
 * ([machine] carriers). A carrier switches to a ready processor and gets control back when that
 * one sleeps, yields or finishes. Nothing else in core/ changes: the waits and wakes (wait.c),
 * the resolver and the model are the thread engine's, so the model figures are too
 * (tests/cli/engines.sh compares them on one carrier and on three).
 *
 * A switch saves the callee-saved registers, MXCSR and the x87 control word, and swaps stack
 * pointers: a few instructions, no system call (glibc's swapcontext saves the signal mask with
 * one; elsewhere than x86-64 we use it all the same). The sanitizers are told of every switch
 * (AddressSanitizer's start/finish_switch_fiber, ThreadSanitizer's fibers).
 *
 * The carriers share one ready queue under a spinlock (held for a push or a pop); a sleep is a
 * return to the carrier's scheduler, a wake a push. A fiber leaving its carrier is queued or
 * asleep before its registers are saved, so another carrier that takes it waits for its
 * `saving` flag to clear. With one carrier nothing is locked. The order the carriers run
 * fibers in decides no model figure (docs/model.md), as the thread schedule decides none.
 */
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/sync.h"

#if defined(__SANITIZE_ADDRESS__)
#define HR_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HR_FIBER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define HR_FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HR_FIBER_TSAN 1
#endif
#endif
#ifdef HR_FIBER_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef HR_FIBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif
/* Our own switch on x86-64; glibc's ucontext elsewhere, or when built with -DHR_FIBER_UCONTEXT
 * (to measure one against the other: docs/architecture.md). */
#if defined(__x86_64__) && !defined(HR_FIBER_UCONTEXT)
#define HR_FIBER_ASM 1
#else
#define HR_FIBER_ASM 0
#endif
#if !HR_FIBER_ASM
#include <ucontext.h>
#endif

static inline void hr__cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* ---- the switch --------------------------------------------------------------------------- */

#if HR_FIBER_ASM
/* hr__fib_switch(&save, to): push the callee-saved registers, MXCSR and the x87 control word,
 * store the stack pointer in *save, load `to` and pop them from there. A new fiber's stack is
 * laid out as if it had switched out just before hr__fib_start, whose first instruction hands
 * the fiber (kept in r12) to fiber_main. */
void hr__fib_switch(void **save, void *to);
void hr__fib_start(void);
__asm__(".text\n"
        ".globl hr__fib_switch\n"
        ".type hr__fib_switch, @function\n"
        "hr__fib_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n"
        "    fldcw 4(%rsp)\n"
        "    addq $8, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size hr__fib_switch, .-hr__fib_switch\n"
        ".globl hr__fib_start\n"
        ".type hr__fib_start, @function\n"
        "hr__fib_start:\n"
        "    movq %r12, %rdi\n"
        "    call hr__fib_main\n"
        "    ud2\n"
        ".size hr__fib_start, .-hr__fib_start\n"
        ".section .note.GNU-stack,\"\",@progbits\n"
        ".text\n");
#endif

typedef struct carrier carrier;

/* What a switch saves and resumes: a fiber's, or a carrier's scheduler's (jump). */
typedef struct context {
    void             *sp;        /* its saved stack pointer, while another runs */
#if !HR_FIBER_ASM
    ucontext_t        uc;
#endif
#ifdef HR_FIBER_TSAN
    void             *tsan;      /* ThreadSanitizer's name for it */
#endif
} context;

/* One carrier thread: the caller of hr_machine_run, or one it started. It runs fibers from the
 * shared ready queue on its own stack (the scheduler), and a fiber that leaves comes back to it. */
typedef struct runner {
    carrier          *c;
    context           sched;     /* its scheduler's, while a fiber runs */
    struct fiber     *left;      /* the fiber that last switched back to the scheduler */
    pthread_t         thread;
    void             *alt;       /* its signal stack, while protected guards are watched */
    stack_t           old_alt;
#ifdef HR_FIBER_ASAN
    const void       *sched_bottom;   /* the carrier thread's stack, as ASan reports it */
    size_t            sched_size;
#endif
} runner;

typedef struct fiber {
    context           ctx;       /* its own, while another runs */
    uint8_t          *map;       /* its slot of the stacks' mapping: a guard page, then the stack */
    runner           *on;        /* the carrier running it, or that it last ran on */
    _Atomic uint32_t *word;      /* what it sleeps on, or NULL ... */
    uint32_t          val;       /* ... while it holds this */
    /* Leaving its carrier: already asleep or queued for the others, its registers not yet
     * saved. A carrier that takes it from the queue waits for its scheduler to clear this. */
    _Atomic int       saving;
    hr_proc          *p;
} fiber;

/* The fibers, the stacks, and what the carriers share: the ready queue (a ring of p + 1), the
 * sleepers on words that are not a processor's state (the round's), and the counts that say
 * when the machine stands still. With one carrier nothing is locked. */
struct carrier {
    hr_machine       *m;
    fiber            *f;
    int               p;
    runner           *r;
    int               nr;        /* carriers */
    _Atomic int       lock;      /* with nr > 1: all below (a spinlock: held a few instructions) */
    _Atomic uint32_t  pushes;    /* bumped by a push while a carrier waits: its futex word */
    int               nidle;
    int               resolving; /* a carrier resolves a machine that stands still (schedule) */
    int              *ready;
    int               head, tail;
    _Atomic int       nready;    /* also read unlocked, as a hint, by a carrier about to wait */
    int               running;   /* fibers on a carrier and not leaving it */
    int               ndone;
    _Bool            *queued;    /* [p] in the ready queue (here, not in the fiber: a waker need
                                  * not touch the fiber's line). Not uint8_t: a store through a
                                  * character type may alias all of the carrier, whose fields the
                                  * wake's loop would then read again at every sleeper */
    struct sleeper   *others;    /* fibers asleep on a word outside every hr_proc */
    int               nothers;
    void            (*entry)(hr_proc *p);
    size_t            stack;
    size_t            page;
    size_t            guard;     /* below each stack (GUARD_BYTES, whole pages) */
    uint8_t          *stacks;    /* one mapping for all: p slots of a guard page and a stack */
    size_t            slot, stacks_len;
    int               canaries;  /* guards are canary words, not protected pages (start) */
};

/* A fiber asleep on a word outside every hr_proc (the round's), and what it holds: a waker
 * reads these, not the fiber. */
typedef struct sleeper {
    _Atomic uint32_t *word;
    uint32_t          val;
    int               id;
} sleeper;

static carrier *carrier_of(hr_machine *m)
{
    return m->fibers;
}

/* The carriers' lock. Held for a push or a pop, so a waiter spins; if the holder's thread was
 * preempted, it yields the core to it. */
static void lock(carrier *c)
{
    if (c->nr == 1)
        return;
    for (int spins = 0;; spins++) {
        if (atomic_load_explicit(&c->lock, memory_order_relaxed) == 0 &&
            atomic_exchange_explicit(&c->lock, 1, memory_order_acquire) == 0)
            return;
        if (spins < 100)
            hr__cpu_relax();
        else
            sched_yield();
    }
}

static void unlock(carrier *c)
{
    if (c->nr > 1)
        atomic_store_explicit(&c->lock, 0, memory_order_release);
}

static void check_canary(const carrier *c, int i, int last);

/* Save the running context in *from and resume *to, telling ThreadSanitizer. */
static void jump(context *from, context *to)
{
#ifdef HR_FIBER_TSAN
    __tsan_switch_to_fiber(to->tsan, 0);
#endif
#if HR_FIBER_ASM
    hr__fib_switch(&from->sp, to->sp);
#else
    swapcontext(&from->uc, &to->uc);
#endif
}

/* Switch from the scheduler of r to fiber i, and back when it leaves. */
static void enter(runner *r, int i)
{
    carrier *c = r->c;
    fiber *f = &c->f[i];
    /* Taken from the queue as it left another carrier: its registers are saved in a moment. */
    while (atomic_load_explicit(&f->saving, memory_order_acquire))
        sched_yield();
    f->on = r;
    hr__self = f->p;
#ifdef HR_FIBER_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, f->map + c->guard, c->stack);
#endif
    jump(&r->sched, &f->ctx);
    hr__self = NULL;
#ifdef HR_FIBER_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
    /* Not always f: on one carrier, f may have handed the carrier to another (hand_over). */
    atomic_store_explicit(&r->left->saving, 0, memory_order_release);
}

/* Fiber i leaves for its carrier's scheduler; it has set f->saving and said, under the lock,
 * where it goes (asleep, queued, done). One that will not run again says so (last), so that
 * ASan lets its frames go. */
static void leave(carrier *c, int i, int last)
{
    fiber *f = &c->f[i];
    runner *r = f->on;
    if (c->canaries)
        check_canary(c, i, last);
    r->left = f;
#ifdef HR_FIBER_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(last ? NULL : &fake, r->sched_bottom, r->sched_size);
#else
    (void)last;
#endif
    jump(&f->ctx, &r->sched);
#ifdef HR_FIBER_ASAN
    /* Back on whichever carrier took it next: ASan names that carrier's stack here. */
    __sanitizer_finish_switch_fiber(fake, &f->on->sched_bottom, &f->on->sched_size);
#endif
}

static int pop_ready(carrier *c);
static void begin_leaving(carrier *c, int i);

/* Fiber i, asleep on one carrier, leaves it. With another fiber ready it switches straight to
 * that one: the scheduler's round trip, a switch and its loop, saved. Nothing else runs
 * meanwhile, so it needs none of the carriers' handshake (the `saving` flag, the running
 * count): the fiber handed the carrier runs in its place. (Not under ASan, which is told at
 * every switch back to a scheduler whose stack it came from.) */
static void hand_over(carrier *c, int i)
{
#ifndef HR_FIBER_ASAN
    if (c->head != c->tail) {
        fiber *f = &c->f[i], *g = &c->f[pop_ready(c)];
        if (c->head != c->tail) {
            /* The one after g: the top of its stack, where its frames resume, and the two
             * lines of its hr_proc that every call reads (core.h) are on their way while g
             * runs (hrel.pq_random at p = 1024: 5 % off a round; two ahead gained less). */
            const fiber *h = &c->f[c->ready[c->head]];
            const char *sp = h->ctx.sp, *q = (const char *)h->p;
#pragma GCC unroll 8
            for (int k = 0; k < 8; k++)
                __builtin_prefetch(sp + 64 * k);
            __builtin_prefetch(q + 64);
            __builtin_prefetch(q + 128);
        }
        g->on = f->on;      /* g may not have run yet */
        if (c->canaries)
            check_canary(c, i, 0);
        hr__self = g->p;
        jump(&f->ctx, &g->ctx);
        return;
    }
#endif
    begin_leaving(c, i);
    leave(c, i, 0);
}

/* Fiber i at the front of the ring ready[0 .. np], whose front is *head. */
static inline __attribute__((always_inline)) void ring_front(int *ready, int np, int *head, int i)
{
    *head = *head == 0 ? np : *head - 1;    /* a ring of p + 1: no division on the hot path */
    ready[*head] = i;
}

/* Queue fiber i to run: one that starts or yields at the back, one that is woken at the front,
 * to run next. So a receiver runs while the message just sent to it is in the caches, and a
 * pairwise exchange goes pair by pair instead of sweeping all p processors between a send and
 * its receive (xchg.pex at p = 256 with 8-byte blocks on one carrier: cachegrind's misses of a
 * 512 KiB L2 from 10 to 1.4 a message, a fifth off the wall time). The waiters a round
 * releases run in the reverse of the order they arrived in, the latest first. The order decides
 * no model figure. */
static inline __attribute__((always_inline)) int enqueue(carrier *c, int i, int front)
{
    if (c->queued[i])
        return 0;
    c->queued[i] = 1;
    if (front) {
        ring_front(c->ready, c->p, &c->head, i);
    } else {
        c->ready[c->tail] = i;
        if (++c->tail == c->p + 1)
            c->tail = 0;
    }
    return 1;
}

/* n more fibers in the queue: count them, and call a carrier that waits for one. */
static inline __attribute__((always_inline)) void count_ready(carrier *c, int n)
{
    atomic_store_explicit(&c->nready, atomic_load_explicit(&c->nready, memory_order_relaxed) + n,
                          memory_order_relaxed);
    if (n > 0 && c->nidle > 0) {
        atomic_fetch_add(&c->pushes, 1);
        hr__futex_wake(&c->pushes, n);
    }
}

static inline __attribute__((always_inline)) void push_ready(carrier *c, int i, int front)
{
    if (enqueue(c, i, front))
        count_ready(c, 1);
}

static inline __attribute__((always_inline)) int pop_ready(carrier *c)
{
    int i = c->ready[c->head];
    if (++c->head == c->p + 1)
        c->head = 0;
    c->queued[i] = 0;
    atomic_store_explicit(&c->nready, atomic_load_explicit(&c->nready, memory_order_relaxed) - 1,
                          memory_order_relaxed);
    return i;
}

/* Fiber i stops running on its carrier: a fiber leaving is not running (under the lock). */
static void begin_leaving(carrier *c, int i)
{
    atomic_store_explicit(&c->f[i].saving, 1, memory_order_relaxed);
    c->running--;
}

/* Called from the assembly above alone, which GCC's link-time optimization does not see: kept,
 * and by its name (clang has no externally_visible, and its builds here are not so linked). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((used, externally_visible))
#endif
void hr__fib_main(fiber *f);

/* A fiber's life in a run: the processor's entry (which ends with hr__exec_done), then back to
 * its carrier for good. */
void hr__fib_main(fiber *f)
{
    carrier *c = carrier_of(f->p->m);
#ifdef HR_FIBER_ASAN
    /* Every fiber is first entered from a scheduler: ASan names that carrier's stack here. */
    __sanitizer_finish_switch_fiber(NULL, &f->on->sched_bottom, &f->on->sched_size);
#endif
    c->entry(f->p);
    lock(c);
    begin_leaving(c, f->p->id);
    if (++c->ndone == c->p && c->nidle > 0) {
        atomic_fetch_add(&c->pushes, 1);
        hr__futex_wake(&c->pushes, INT32_MAX);
    }
    unlock(c);
    leave(c, f->p->id, 1);
    HR_ASSERT(!"a finished fiber was resumed");
}

#if !HR_FIBER_ASM
static void uc_main(unsigned hi, unsigned lo)
{
    hr__fib_main((fiber *)(((uintptr_t)hi << 32) | lo));
}
#endif

/* Lay out f's stack to begin at hr__fib_main(f) when first switched to. */
static void fiber_prime(carrier *c, fiber *f)
{
#if HR_FIBER_ASM
    uintptr_t top = ((uintptr_t)(f->map + c->slot)) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)top;
    /* switch's ret: hr__fib_start then runs with the stack 16-aligned, as a call wants it */
    *--sp = (uint64_t)(uintptr_t)hr__fib_start;
    *--sp = 0;                                   /* rbp */
    *--sp = 0;                                   /* rbx */
    *--sp = (uint64_t)(uintptr_t)f;              /* r12: the fiber */
    *--sp = 0;                                   /* r13 */
    *--sp = 0;                                   /* r14 */
    *--sp = 0;                                   /* r15 */
    *--sp = UINT64_C(0x037f) << 32 | 0x1f80;     /* MXCSR, then the x87 control word */
    f->ctx.sp = sp;
#else
    ucontext_t *uc = &f->ctx.uc;
    HR_ASSERT(getcontext(uc) == 0);
    uc->uc_stack.ss_sp = f->map + c->guard;
    uc->uc_stack.ss_size = c->stack;
    uc->uc_link = NULL;
    uintptr_t a = (uintptr_t)f;
    makecontext(uc, (void (*)(void))uc_main, 2, (unsigned)(a >> 32), (unsigned)a);
#endif
    (void)c;
}

/* ---- stacks and their guards ------------------------------------------------------------ */

/* Below every stack lies a guard of GUARD_BYTES: address space only, never touched by a stack
 * that fits. Protected (PROT_NONE), an overflow faults there, and the handler names the
 * processor; 64 KiB, so that a frame larger than a page (a big local array written from its
 * low end) still lands in the guard rather than in the next stack. Each protected guard splits
 * the mapping, two areas a fiber, and the kernel caps a process's areas (vm.max_map_count, 65530
 * by default): a machine that would pass the cap gets canaries instead, its top page filled
 * with a canary word: every switch out of a fiber checks the line next to the stack, and the
 * fiber's end the whole page (a sparse frame that writes a few bytes in 500 may skip the line,
 * not the page). A canary sees an overflow then, not when it writes; a crash meanwhile (the
 * overflow went past the guard, or spoilt the next stack) is laid to the fiber whose canary
 * page is spoilt. Frames larger than the guard can still pass it unseen:
 * -fstack-clash-protection, which touches every page of a large frame, closes that (docs). */
#define GUARD_BYTES HR_FIBER_GUARD
#define CANARY UINT64_C(0x68726d7573746b21)    /* "hrmustk!" */
#define MAP_COUNT_ROOM 1024                  /* areas kept for the rest of the process */

static long max_map_count(void)
{
    long v = 65530;
    FILE *fp = fopen("/proc/sys/vm/max_map_count", "r");
    if (fp != NULL) {
        if (fscanf(fp, "%ld", &v) != 1)
            v = 65530;
        fclose(fp);
    }
    return v;
}

static carrier *volatile overflow_watch;     /* the machine whose guards the handler knows */
static struct sigaction old_segv;

/* A message and _exit from a signal handler: write(2) and digits by hand. */
static void overflowed(const carrier *c, int i)
{
    char msg[160], num[24];
    size_t at = 0;
    const char *parts[] = { "hremu: P", NULL, " overflowed its fiber stack of ", NULL,
                            " KiB: raise [machine] stack\n" };
    for (int k = 0; k < 5; k++) {
        const char *s = parts[k];
        if (s == NULL) {
            unsigned long v = k == 1 ? (unsigned long)i : (unsigned long)(c->stack >> 10);
            int n = 0;
            do
                num[n++] = (char)('0' + v % 10);
            while ((v /= 10) > 0 && n < 23);
            while (n > 0 && at < sizeof msg)
                msg[at++] = num[--n];
            continue;
        }
        while (*s != '\0' && at < sizeof msg)
            msg[at++] = *s++;
    }
    ssize_t w = write(STDERR_FILENO, msg, at);
    (void)w;
    _exit(1);
}

static int canary_intact(const carrier *c, int i, size_t from);

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    const carrier *c = overflow_watch;
    const uint8_t *a = si->si_addr;
    if (c != NULL && c->canaries) {
        for (int i = 0; i < c->p; i++)
            if (!canary_intact(c, i, 0))
                overflowed(c, i);
    } else if (c != NULL && a >= c->stacks && a < c->stacks + c->stacks_len &&
               (size_t)(a - c->stacks) % c->slot < c->guard) {
        overflowed(c, (int)((size_t)(a - c->stacks) / c->slot));
    }
    /* Not a guard: the fault is what it would have been without us. */
    sigaction(SIGSEGV, &old_segv, NULL);
    (void)sig, (void)uc;
}

/* The top page of fiber i's guard, right below its stack. */
static uint64_t *canary_of(const carrier *c, int i)
{
    return (uint64_t *)(void *)(c->f[i].map + c->guard - c->page);
}

/* Are the canary words [from, page) of fiber i's guard page whole? */
static int canary_intact(const carrier *c, int i, size_t from)
{
    const uint64_t *w = canary_of(c, i);
    uint64_t diff = 0;
    for (size_t k = from; k < c->page / sizeof *w; k++)   /* no branch a word: vectorised */
        diff |= w[k] ^ CANARY;
    return diff == 0;
}

/* At every switch out, the line right below the stack, where an overflow enters first (a
 * whole page every switch doubled hrel.pq_random at p = 65536); the whole page as the fiber
 * ends (last), where frames that wrote a few bytes each and skipped that line are seen. */
static void check_canary(const carrier *c, int i, int last)
{
    size_t words = c->page / sizeof(uint64_t);
    if (!canary_intact(c, i, last ? 0 : words - 8))
        overflowed(c, i);
}

static void fibers_stop(hr_machine *m)
{
    carrier *c = carrier_of(m);
    if (c == NULL)
        return;
    if (c->stacks != NULL)
        munmap(c->stacks, c->stacks_len);
#ifdef HR_FIBER_TSAN
    for (int i = 0; i < c->p && c->f != NULL; i++)
        if (c->f[i].ctx.tsan != NULL)
            __tsan_destroy_fiber(c->f[i].ctx.tsan);
#endif
    free(c->f);
    free(c->r);
    free(c->ready);
    free(c->others);
    free(c->queued);
    free(c);
    m->fibers = NULL;
    m->nready = NULL;
}

static int fibers_start(hr_machine *m, void (*entry)(hr_proc *p))
{
    carrier *c = calloc(1, sizeof *c);
    if (c == NULL)
        return HR_ENOMEM;
    m->fibers = c;
    c->m = m;
    c->p = m->p;
    c->nr = m->cfg.carriers;              /* machine.c resolved it: 1 .. p */
    m->serial = c->nr == 1;               /* one processor at a time (core.h, hr__add) */
    m->nready = &c->nready;               /* read by hr__exec_still before fibers_still */
    c->entry = entry;
    c->page = (size_t)sysconf(_SC_PAGESIZE);
    c->stack = (m->cfg.stack + c->page - 1) / c->page * c->page;
    c->guard = (GUARD_BYTES + c->page - 1) / c->page * c->page;
    c->slot = c->guard + c->stack;
    c->stacks_len = c->slot * (size_t)c->p;
    c->f = calloc((size_t)c->p, sizeof *c->f);
    c->r = calloc((size_t)c->nr, sizeof *c->r);
    c->ready = malloc(sizeof *c->ready * (size_t)(c->p + 1));
    c->others = malloc(sizeof *c->others * (size_t)c->p);
    c->queued = calloc((size_t)c->p, sizeof *c->queued);
    if (c->f == NULL || c->r == NULL || c->ready == NULL || c->others == NULL ||
        c->queued == NULL) {
        fibers_stop(m);
        return HR_ENOMEM;
    }
    /* Reserved, not committed: a processor's stack costs the pages it touches. */
    void *map = mmap(NULL, c->stacks_len, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (map == MAP_FAILED) {
        fibers_stop(m);
        return HR_ENOMEM;
    }
    c->stacks = map;
    c->canaries = 2 * (long)c->p + MAP_COUNT_ROOM > max_map_count();
    for (int i = 0; i < c->p; i++) {
        fiber *f = &c->f[i];
        f->p = &m->procs[i];
        f->map = c->stacks + c->slot * (size_t)i;
        if (c->canaries) {
            uint64_t *w = canary_of(c, i);
            for (size_t k = 0; k < c->page / sizeof *w; k++)
                w[k] = CANARY;
        } else if (mprotect(f->map, c->guard, PROT_NONE) != 0) {
            fibers_stop(m);
            return HR_ESYS;
        }
#ifdef HR_FIBER_TSAN
        f->ctx.tsan = __tsan_create_fiber(0);
#endif
    }
    for (int k = 0; k < c->nr; k++)
        c->r[k].c = c;
    return HR_OK;
}

/* While a machine with protected guards runs, a fault in a guard names its processor: the
 * handler runs on a stack of its own (the faulting one is full), one a carrier thread. One such
 * machine at a time is watched; a fault elsewhere goes to the handler there was before. */
#define ALT_STACK (64 * 1024)

static void watch_guards(carrier *c)
{
    struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_ONSTACK };
    sigemptyset(&sa.sa_mask);
    overflow_watch = c;
    sigaction(SIGSEGV, &sa, &old_segv);
}

static void unwatch_guards(carrier *c)
{
    (void)c;
    sigaction(SIGSEGV, &old_segv, NULL);
    overflow_watch = NULL;
}

/* A carrier's run: take the next ready fiber and run it until it leaves, until all are done.
 * With one carrier someone is always ready until then: the last processor to block runs the
 * resolver, which grants one or aborts the run and wakes them all (wait.c). With more, a carrier
 * that finds the queue empty spins a little, then waits for a push. */
#define IDLE_SPINS 2000

static void schedule(runner *r)
{
    carrier *c = r->c;
    r->alt = NULL;
    if ((r->alt = malloc(ALT_STACK)) != NULL) {
        stack_t ss = { .ss_sp = r->alt, .ss_size = ALT_STACK };
        sigaltstack(&ss, &r->old_alt);
    }
#ifdef HR_FIBER_TSAN
    r->sched.tsan = __tsan_get_current_fiber();
#endif
    lock(c);
    while (c->ndone < c->p) {
        if (c->head == c->tail && c->running == 0 && !c->resolving) {
            /* Every live fiber sleeps in its wait and none is queued: nothing changes until the
             * resolver acts. The last processor to settle resolved, or left it to one still on
             * a carrier or queued, which settles again (woken_by sees to that); should that
             * argument fail, a carrier resolves here rather than every carrier waiting for
             * ever. */
            c->resolving = 1;
            unlock(c);
            /* Nothing runs or is queued, and only a resolver queues one (fibers_still). */
            hr__resolve_idle(c->m, HR_STILL_YES);
            lock(c);
            c->resolving = 0;
            HR_ASSERT(c->head != c->tail || c->ndone == c->p);   /* it granted or aborted */
            continue;
        }
        if (c->head == c->tail) {
            unlock(c);
            for (int k = 0; k < IDLE_SPINS &&
                            atomic_load_explicit(&c->nready, memory_order_relaxed) == 0; k++)
                hr__cpu_relax();
            lock(c);
            if (c->head == c->tail && c->ndone < c->p) {
                /* A push after this bumps pushes: the futex then does not sleep. */
                c->nidle++;
                uint32_t seen = atomic_load(&c->pushes);
                unlock(c);
                hr__futex_wait(&c->pushes, seen);
                lock(c);
                c->nidle--;
            }
            continue;
        }
        int i = pop_ready(c);
        c->running++;
        unlock(c);
        enter(r, i);
        lock(c);
    }
    unlock(c);
    if (r->alt != NULL) {
        sigaltstack(&r->old_alt, NULL);
        free(r->alt);
    }
}

static void *carrier_main(void *arg)
{
    schedule(arg);
    return NULL;
}

static void fibers_run(hr_machine *m)
{
    carrier *c = carrier_of(m);
    c->head = c->tail = 0;
    atomic_store(&c->nready, 0);
    c->running = c->ndone = c->nothers = c->nidle = 0;
    for (int i = 0; i < c->p; i++) {
        c->f[i].word = NULL;
        c->queued[i] = 0;
        atomic_store(&c->f[i].saving, 0);
        fiber_prime(c, &c->f[i]);
        push_ready(c, i, 0);
    }
    watch_guards(c);
    /* The caller is carrier 0; a carrier that cannot be started leaves its share to the rest. */
    int started = 1;
    for (int k = 1; k < c->nr; k++)
        if (pthread_create(&c->r[k].thread, NULL, carrier_main, &c->r[k]) == 0)
            started++;
        else
            break;
    schedule(&c->r[0]);
    for (int k = 1; k < started; k++)
        HR_ASSERT(pthread_join(c->r[k].thread, NULL) == 0);
    unwatch_guards(c);
}

static void fibers_done(hr_proc *p)
{
    (void)p;   /* counted as it leaves its carrier for good (hr__fib_main) */
}

/* The word is read again under the lock, which a waker takes after it changes the word: either
 * the sleeper sees the change, or the waker finds the sleeper and queues it. */
static void fibers_sleep(hr_proc *p, _Atomic uint32_t *word, uint32_t val)
{
    carrier *c = carrier_of(p->m);
    int alone = c->nr == 1;     /* nothing else runs: nothing is locked, the word holds */
    if (atomic_load_explicit(word, memory_order_relaxed) != val)
        return;
    fiber *f = &c->f[p->id];
    if (!alone) {
        lock(c);
        if (atomic_load(word) != val) {
            unlock(c);
            return;
        }
    }
    f->word = word;
    f->val = val;
    if (word != &p->state)      /* a shared word (fibers_wake), not its own (fibers_wake_proc) */
        c->others[c->nothers++] = (sleeper){ word, val, p->id };
    if (alone) {
        hand_over(c, p->id);
        return;
    }
    begin_leaving(c, p->id);
    unlock(c);
    leave(c, p->id, 0);
}

/* Only a sleeper whose word has changed is queued, or every sleeper once the run is aborted
 * (wait.c: the round's word does not change then). A waker may come late: the change it made
 * ended an earlier sleep of the same fiber (which saw the word changed and went on), and the
 * fiber sleeps on the word again, holding its value once more. Queued, it would wake for
 * nothing and sleep again without settling anew, while its place in the queue told the last
 * to settle that someone would (fibers_still). */
static int woken_by(const carrier *c, const _Atomic uint32_t *slept_on, uint32_t val,
                    const _Atomic uint32_t *word)
{
    return slept_on == word && (atomic_load(word) != val || atomic_load(&c->m->abort) != 0);
}

static void fibers_wake_proc(hr_proc *q)
{
    carrier *c = carrier_of(q->m);
    fiber *f = &c->f[q->id];
    lock(c);
    if (woken_by(c, f->word, f->val, &q->state)) {
        f->word = NULL;
        push_ready(c, q->id, 1);
    }
    unlock(c);
}

/* Sleepers on a shared word (a round's, a barrier's: c->others). A fiber taken off this list
 * keeps its word in f->word: only a wake on its own state word reads that, and no such word is
 * one of these; its next sleep sets it anew. */
static void fibers_wake(hr_machine *m, _Atomic uint32_t *word, int n)
{
    carrier *c = carrier_of(m);
    int k = 0;
    if (c->nr == 1 && c->nothers > 0 && c->others[0].word == word) {
        /* One carrier: whoever changes a word wakes its sleepers before anything else runs, so
         * they all hold the value it had before: the first one's fate is every one's. (On
         * several, a late waker finds some holding the word's new value: woken_by, below.)
         * 20 instructions a waiter where the loop below took 36, hrel.pq_random at p = 256. */
        if (!woken_by(c, word, c->others[0].val, word))
            return;
        /* The ring's front and the arrays in locals: a store into one of the carrier's int
         * arrays may alias its int fields, which the compiler would read again each time. */
        sleeper *others = c->others;
        int *ready = c->ready, head = c->head, np = c->p, nothers = c->nothers, queued = 0;
        _Bool *flag = c->queued;
        for (int j = 0; j < nothers; j++) {
            const sleeper *sl = &others[j];
            if (sl->word == word && n > 0) {
                if (!flag[sl->id]) {
                    flag[sl->id] = 1;
                    ring_front(ready, np, &head, sl->id);
                    queued++;
                }
                n--;
            } else {
                others[k++] = *sl;
            }
        }
        c->head = head;
        c->nothers = k;
        count_ready(c, queued);
        return;
    }
    lock(c);
    for (int j = 0; j < c->nothers; j++) {
        const sleeper *sl = &c->others[j];
        if (woken_by(c, sl->word, sl->val, word) && n > 0) {
            push_ready(c, sl->id, 1);
            n--;
        } else {
            c->others[k++] = *sl;
        }
    }
    c->nothers = k;
    unlock(c);
}

static void fibers_yield(hr_proc *p)
{
    carrier *c = carrier_of(p->m);
    lock(c);
    push_ready(c, p->id, 0);
    begin_leaving(c, p->id);
    unlock(c);
    leave(c, p->id, 0);
}

static void fibers_jitter(hr_proc *p)
{
    /* A yield one time in four shuffles the order they run in. */
    if (hr__jitter_draw(p) % 4 == 0)
        fibers_yield(p);
}

/* A fiber woken and not yet running is in the ready queue: with one there, the machine does not
 * stand still. With it empty on one carrier, the caller (the last to settle, or the one that
 * finishes) is the only fiber running, every other is asleep, and nothing runs while it
 * resolves. On several carriers the engine vouches when, under the lock, the queue is empty and
 * the caller is the only fiber on any carrier (c->running counts them all, the caller too):
 * then every other live fiber sleeps in its wait or is leaving its carrier to do so, settled.
 * Nothing can queue one before the caller's resolver acts but a resolver itself, which grants
 * under the resolver's lock: only a carrier that found no fiber running resolves idle
 * (schedule), and a fiber runs again only once woken, so if one did, the caller is the fiber it
 * woke, and its grant came before. Otherwise (another fiber runs, settling or not) the engine
 * does not vouch, and the resolver reads every processor's state, as on threads: at p = 16384
 * on two carriers that scan was 43 % of bcast.binomial's run. */
static int fibers_still(hr_machine *m)
{
    carrier *c = carrier_of(m);
    /* Unlocked: a fiber counted here, even one a carrier has taken off the queue since, was
     * woken (woken_by) and runs, and then settles or finishes after the caller counted itself:
     * it resolves then if it is the last. (One that settled before the caller did was taken
     * off before: the caller's count in m->blocked read its count there, which the take came
     * before.) */
    if (atomic_load(&c->nready) > 0)
        return HR_STILL_NO;
    if (c->nr == 1)
        return HR_STILL_YES;
    lock(c);
    int alone = c->head == c->tail && c->running == 1;
    unlock(c);
    return alone ? HR_STILL_YES : HR_STILL_UNKNOWN;
}

const hr_exec hr__exec_fibers = {
    .name = "fibers", .start = fibers_start, .stop = fibers_stop, .run = fibers_run,
    .done = fibers_done, .sleep = fibers_sleep, .wake = fibers_wake,
    .wake_proc = fibers_wake_proc, .yield = fibers_yield,
    .jitter = fibers_jitter, .still = fibers_still,
};
