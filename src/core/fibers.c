/* fibers.c: the fiber engine ([machine] engine = fibers, hr__exec_fibers). Every processor is a
 * user-level context with a stack of its own (hr_machine_config.stack, a guard page below it),
 * and one carrier thread, the caller of hr_machine_run, runs them all: it switches to a ready
 * processor and gets control back when that one sleeps, yields or finishes. Nothing else in
 * core/ changes: the waits, the resolver and the model are threads.c's callers' as they are, so
 * the model figures are the thread engine's (tests/cli/engines.sh compares them).
 *
 * A switch saves the callee-saved registers, MXCSR and the x87 control word, and swaps stack
 * pointers: a few instructions, no system call (glibc's swapcontext saves the signal mask with
 * one; elsewhere than x86-64 we use it all the same). The sanitizers are told of every switch
 * (AddressSanitizer's start/finish_switch_fiber, ThreadSanitizer's fibers).
 *
 * One carrier: a waiter's sleep is a return to the scheduler, a wake-up an entry in the ready
 * queue, and no futex or memory-order care is needed between processors that never run at
 * once. The order the scheduler runs them in decides no model figure (docs/model.md), as the
 * thread schedule decides none.
 */
#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

typedef struct fiber {
    void             *sp;        /* its saved stack pointer, while another runs */
#if !HR_FIBER_ASM
    ucontext_t        uc;
#endif
    uint8_t          *map;       /* its slot of the stacks' mapping: a guard page, then the stack */
    _Atomic uint32_t *word;      /* what it sleeps on, or NULL */
    int               queued;    /* in the ready queue */
    hr_proc          *p;
#ifdef HR_FIBER_TSAN
    void             *tsan;
#endif
} fiber;

/* The carrier: the processors' fibers, the ready queue (a ring of p + 1), the scheduler's own
 * saved context, and the sleepers on words that are not a processor's state (the round's). */
typedef struct carrier {
    fiber            *f;
    int               p;
    int              *ready;
    int               head, tail;
    int               current;   /* the fiber running, or -1: the scheduler */
    void             *sched_sp;
#if !HR_FIBER_ASM
    ucontext_t        sched_uc;
#endif
    int               ndone;
    int              *others;    /* fibers asleep on a word outside every hr_proc */
    int               nothers;
    void            (*entry)(hr_proc *p);
    size_t            stack;
    size_t            page;
    uint8_t          *stacks;    /* one mapping for all: p slots of a guard page and a stack */
    size_t            slot, stacks_len;
    int               canaries;  /* guards are canary words, not protected pages (start) */
#ifdef HR_FIBER_TSAN
    void             *sched_tsan;
#endif
#ifdef HR_FIBER_ASAN
    const void       *sched_bottom;   /* the carrier thread's stack, as ASan reports it */
    size_t            sched_size;
#endif
} carrier;

static carrier *carrier_of(hr_machine *m)
{
    return m->fibers;
}

static void check_canary(const carrier *c, int i);

/* Switch from the running context (from: a fiber, or the scheduler: -1) to `to`'s: a fiber
 * (index >= 0) or the scheduler (-1). A fiber that will not run again says so (last), so that
 * ASan lets its frames go. */
static void switch_to(carrier *c, int from, int to, int last)
{
    if (c->canaries && from >= 0)
        check_canary(c, from);
    void **save = from >= 0 ? &c->f[from].sp : &c->sched_sp;
    void *dest = to >= 0 ? c->f[to].sp : c->sched_sp;
#ifdef HR_FIBER_ASAN
    void *fake = NULL;
    if (to >= 0)
        __sanitizer_start_switch_fiber(last ? NULL : &fake, c->f[to].map + c->page, c->stack);
    else
        __sanitizer_start_switch_fiber(last ? NULL : &fake, c->sched_bottom, c->sched_size);
#else
    (void)last;
#endif
#ifdef HR_FIBER_TSAN
    __tsan_switch_to_fiber(to >= 0 ? c->f[to].tsan : c->sched_tsan, 0);
#endif
    c->current = to;
#if HR_FIBER_ASM
    hr__fib_switch(save, dest);
#else
    (void)save, (void)dest;
    swapcontext(from >= 0 ? &c->f[from].uc : &c->sched_uc, to >= 0 ? &c->f[to].uc : &c->sched_uc);
#endif
#ifdef HR_FIBER_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

void hr__fib_main(fiber *f);

/* A fiber's life in a run: the processor's entry (which ends with hr__exec_done), then back to
 * the scheduler for good. */
void hr__fib_main(fiber *f)
{
    carrier *c = carrier_of(f->p->m);
#ifdef HR_FIBER_ASAN
    /* Every fiber is first entered from the scheduler: ASan names the carrier's stack here. */
    __sanitizer_finish_switch_fiber(NULL, &c->sched_bottom, &c->sched_size);
#endif
    c->entry(f->p);
    switch_to(c, f->p->id, -1, 1);
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
    f->sp = sp;
#else
    HR_ASSERT(getcontext(&f->uc) == 0);
    f->uc.uc_stack.ss_sp = f->map + c->page;
    f->uc.uc_stack.ss_size = c->stack;
    f->uc.uc_link = NULL;
    uintptr_t a = (uintptr_t)f;
    makecontext(&f->uc, (void (*)(void))uc_main, 2, (unsigned)(a >> 32), (unsigned)a);
#endif
    (void)c;
}

/* ---- the engine --------------------------------------------------------------------------- */

static void push_ready(carrier *c, int i)
{
    if (c->f[i].queued)
        return;
    c->f[i].queued = 1;
    c->ready[c->tail] = i;
    c->tail = (c->tail + 1) % (c->p + 1);
}

/* ---- stacks and their guards ------------------------------------------------------------ */

/* Below every stack lies a guard page. Protected (PROT_NONE), an overflow faults there, and the
 * handler names the processor. Each protected page splits the mapping, two areas a fiber, and
 * the kernel caps a process's areas (vm.max_map_count, 65530 by default): a machine that would
 * pass the cap gets canaries instead, words at the top of each guard page that every switch out
 * of a fiber checks. A canary sees an overflow when the fiber next switches, not when it writes;
 * the guard page still keeps a short one off the next stack. */
#define CANARY UINT64_C(0x68726d7573746b21)    /* "hrmustk!" */
#define CANARY_WORDS 8
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

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    const carrier *c = overflow_watch;
    const uint8_t *a = si->si_addr;
    if (c != NULL && a >= c->stacks && a < c->stacks + c->stacks_len &&
        (size_t)(a - c->stacks) % c->slot < c->page)
        overflowed(c, (int)((size_t)(a - c->stacks) / c->slot));
    /* Not a guard: the fault is what it would have been without us. */
    sigaction(SIGSEGV, &old_segv, NULL);
    (void)sig, (void)uc;
}

static uint64_t *canary_of(const carrier *c, int i)
{
    return (uint64_t *)(void *)(c->f[i].map + c->page) - CANARY_WORDS;
}

static void check_canary(const carrier *c, int i)
{
    const uint64_t *w = canary_of(c, i);
    for (int k = 0; k < CANARY_WORDS; k++)
        if (w[k] != CANARY)
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
        if (c->f[i].tsan != NULL)
            __tsan_destroy_fiber(c->f[i].tsan);
#endif
    free(c->f);
    free(c->ready);
    free(c->others);
    free(c);
    m->fibers = NULL;
}

static int fibers_start(hr_machine *m, void (*entry)(hr_proc *p))
{
    carrier *c = calloc(1, sizeof *c);
    if (c == NULL)
        return HR_ENOMEM;
    m->fibers = c;
    c->p = m->p;
    c->entry = entry;
    c->page = (size_t)sysconf(_SC_PAGESIZE);
    c->stack = (m->cfg.stack + c->page - 1) / c->page * c->page;
    c->slot = c->page + c->stack;
    c->stacks_len = c->slot * (size_t)c->p;
    c->current = -1;
    c->f = calloc((size_t)c->p, sizeof *c->f);
    c->ready = malloc(sizeof *c->ready * (size_t)(c->p + 1));
    c->others = malloc(sizeof *c->others * (size_t)c->p);
    if (c->f == NULL || c->ready == NULL || c->others == NULL) {
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
            for (int k = 0; k < CANARY_WORDS; k++)
                w[k] = CANARY;
        } else if (mprotect(f->map, c->page, PROT_NONE) != 0) {
            fibers_stop(m);
            return HR_ESYS;
        }
#ifdef HR_FIBER_TSAN
        f->tsan = __tsan_create_fiber(0);
#endif
    }
    return HR_OK;
}

/* While a machine with protected guards runs, a fault in a guard names its processor: the
 * handler runs on a stack of its own (the faulting one is full). One such machine at a time is
 * watched; a fault elsewhere goes to the handler there was before. */
#define ALT_STACK (64 * 1024)

static void watch_guards(carrier *c, stack_t *old_alt, void **alt)
{
    *alt = NULL;
    if (c->canaries || (*alt = malloc(ALT_STACK)) == NULL)
        return;
    stack_t ss = { .ss_sp = *alt, .ss_size = ALT_STACK };
    struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_ONSTACK };
    sigemptyset(&sa.sa_mask);
    sigaltstack(&ss, old_alt);
    overflow_watch = c;
    sigaction(SIGSEGV, &sa, &old_segv);
}

static void unwatch_guards(const stack_t *old_alt, void *alt)
{
    if (alt == NULL)
        return;
    sigaction(SIGSEGV, &old_segv, NULL);
    overflow_watch = NULL;
    sigaltstack(old_alt, NULL);
    free(alt);
}

static void fibers_run(hr_machine *m)
{
    carrier *c = carrier_of(m);
    c->head = c->tail = 0;
    c->ndone = 0;
    c->nothers = 0;
    for (int i = 0; i < c->p; i++) {
        c->f[i].word = NULL;
        c->f[i].queued = 0;
        fiber_prime(c, &c->f[i]);
        push_ready(c, i);
    }
#ifdef HR_FIBER_TSAN
    c->sched_tsan = __tsan_get_current_fiber();
#endif
    stack_t old_alt;
    void *alt;
    watch_guards(c, &old_alt, &alt);
    while (c->ndone < c->p) {
        /* Someone is always ready until all are done: the last processor to block runs the
         * resolver, which grants one or aborts the run and wakes them all (wait.c). */
        HR_ASSERT(c->head != c->tail);
        int i = c->ready[c->head];
        c->head = (c->head + 1) % (c->p + 1);
        c->f[i].queued = 0;
        switch_to(c, -1, i, 0);
    }
    unwatch_guards(&old_alt, alt);
}

static void fibers_done(hr_proc *p)
{
    carrier_of(p->m)->ndone++;
}

/* The index of the processor whose state word `word` is, or -1 (a word outside every hr_proc:
 * the round's). */
static int owner_of(hr_machine *m, const _Atomic uint32_t *word)
{
    const char *w = (const char *)word, *base = (const char *)m->procs;
    if (w < base || w >= base + sizeof(hr_proc) * (size_t)m->p)
        return -1;
    int i = (int)((size_t)(w - base) / sizeof(hr_proc));
    return &m->procs[i].state == word ? i : -1;
}

static void fibers_sleep(hr_proc *p, _Atomic uint32_t *word, uint32_t val)
{
    carrier *c = carrier_of(p->m);
    if (atomic_load(word) != val)
        return;
    fiber *f = &c->f[p->id];
    f->word = word;
    if (owner_of(p->m, word) < 0)
        c->others[c->nothers++] = p->id;
    switch_to(c, p->id, -1, 0);
}

static void fibers_wake(hr_machine *m, _Atomic uint32_t *word, int n)
{
    carrier *c = carrier_of(m);
    int i = owner_of(m, word);
    if (i >= 0) {
        if (c->f[i].word == word && n > 0) {
            c->f[i].word = NULL;
            push_ready(c, i);
        }
        return;
    }
    int k = 0;
    for (int j = 0; j < c->nothers; j++) {
        fiber *f = &c->f[c->others[j]];
        if (f->word == word && n > 0) {
            f->word = NULL;
            push_ready(c, c->others[j]);
            n--;
        } else {
            c->others[k++] = c->others[j];
        }
    }
    c->nothers = k;
}

static void fibers_yield(hr_proc *p)
{
    carrier *c = carrier_of(p->m);
    push_ready(c, p->id);
    switch_to(c, p->id, -1, 0);
}

static void fibers_jitter(hr_proc *p)
{
    /* A yield one time in four shuffles the order they run in. */
    if (hr__jitter_draw(p) % 4 == 0)
        fibers_yield(p);
}

/* A fiber woken and not yet running is in the ready queue; with it empty, the settled ones are
 * all asleep, and nothing runs while the caller (the last to settle) resolves. */
static int fibers_still(hr_machine *m)
{
    const carrier *c = carrier_of(m);
    return c->head == c->tail;
}

const hr_exec hr__exec_fibers = {
    .name = "fibers", .start = fibers_start, .stop = fibers_stop, .run = fibers_run,
    .done = fibers_done, .sleep = fibers_sleep, .wake = fibers_wake, .yield = fibers_yield,
    .jitter = fibers_jitter, .still = fibers_still,
};
