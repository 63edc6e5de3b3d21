/* sched.h: seed 001's communication schedules (Ponnusamy, Thakur, Choudhary, Fox 1992) as pure
 * functions: the irregular schedulers LS, PS, BS, GS of sec. 4, computed from a pattern, and
 * the partners of the complete exchanges PEX, BEX, REX (sec. 3.2-3.4) step by step. LEX, PEX
 * and BEX's schedules are LS, PS and BS on the complete pattern (every off-diagonal entry
 * nonzero).
 *
 * A pattern is p * p bytes counts, com[i * p + j] = the bytes processor i sends to j (the
 * paper's Pattern[i][j]); 0 means no message, and the diagonal com[i * p + i] is ignored (a
 * processor's data for itself never crosses the network). A "message" is a nonzero
 * off-diagonal entry.
 *
 * No state, no threads: every function here may be called from any thread, on distinct or
 * const-shared arguments.
 */
#ifndef HREMU_ALG_SCHED_H
#define HREMU_ALG_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The largest p a scheduler takes: p * p must fit comfortably in size_t and an int index. */
#define HR_SCHED_MAX_P 65536

/* One message: src sends bytes (> 0) to dst (!= src) in its step. */
typedef struct hr_xfer {
    int      src, dst;
    uint64_t bytes;
} hr_xfer;

/* A schedule: steps run one after another; a step's transfers run at once.
 *
 * Invariants (hr__sched_check tests them all, the "pairs" ones on request):
 * - start[0] == 0 and start[s] < start[s + 1]: step s is xfer[start[s] .. start[s + 1]) and is
 *   never empty (a step of the paper's loop in which nobody communicates is dropped, which is
 *   how the paper counts: LS 8, PS 6, BS 7, GS 6 steps on its pattern 'P').
 * - Canonical order: inside a step, transfers are sorted by (src, dst), strictly ascending.
 * - Every message of the pattern appears exactly once, with its bytes; nothing else appears.
 * - PS, BS, GS ("pairs"): in a step, each processor is in at most one pair {a, b}; the pair
 *   carries a -> b, b -> a or both (an exchange, the paper's a <-> b). LS is not pairs: in its
 *   step one processor receives from many (the paper's Table 1, "i <- j").
 * - An empty pattern (or p == 1) has nsteps == 0; start is then { 0 } and xfer may be NULL.
 * Schedules of permutations (seed 002, alg/perm.h) relax or tighten these, each by a flag of
 * hr__sched_check_flags (HR_SCHED_*, below):
 * - PERM: each step is a partial permutation, every processor sending at most one transfer and
 *   receiving at most one (seed 002's pm_k; a pairs step is one, LS's step is not).
 * - SPLITS: a message may go in parts over several steps (CGMH's M_eff, seed 002 sec. 3.2):
 *   each part carries > 0 bytes, at most one part of a message a step (canonical order already
 *   says so), and the parts' bytes sum to the pattern's. Without it, a message goes whole, once.
 * - DUMMIES: a transfer of 0 bytes may stand where the pattern has no message (LP's dummy
 *   messages, seed 002 sec. 3.1); it moves nothing and counts for no message. A message of the
 *   pattern never goes as 0 bytes.
 * Owned by whoever called the scheduler; freed with hr__sched_free. */
typedef struct hr_sched {
    int      p;        /* processors */
    int      nsteps;   /* non-empty steps */
    size_t  *start;    /* [nsteps + 1] */
    hr_xfer *xfer;     /* [start[nsteps]] */
    int      overlap;  /* how a step with a pair i -> j, j -> i runs: 0, in seed 001's Figure 2
                        * order (one direction after the other); nonzero, both at once, as
                        * seed 002's permutations send and receive (the schedulers leave it 0;
                        * whoever runs the schedule sets it) */
} hr_sched;

/* ---- schedulers ------------------------------------------------------------------------------
 * Each computes the schedule of pattern com on p processors (1 <= p <= HR_SCHED_MAX_P) into
 * *out: HR_OK, HR_EINVAL (p < 1, a NULL pointer), HR_ERANGE (p too large) or HR_ENOMEM; on
 * failure *out is untouched and nothing leaks. */

/* Linear Scheduling (sec. 4.1; LEX of sec. 3.1 restricted to the pattern): in loop step s,
 * 0 <= s < p, processor s receives from every j with a message for it. Never an exchange. */
int hr__sched_ls(int p, const uint64_t *com, hr_sched *out);

/* Pairwise Scheduling (sec. 4.2; PEX, Figure 2): in loop step j, processor i is paired with
 * i XOR j and they send what the pattern holds between them. For p not a power of two, j runs
 * 1 .. P2 - 1 (P2 the next power of two) and i idles when i XOR j >= p. */
int hr__sched_ps(int p, const uint64_t *com, hr_sched *out);

/* Balanced Scheduling (sec. 4.3; BEX, Figure 4): PS on virtual numbers v = (i + 1) mod p; the
 * partner of v in loop step j is w = v XOR j, physical w - 1 (p - 1 when w == 0). For p not a
 * power of two, as PS: j runs 1 .. P2 - 1 and i idles when w >= p. */
int hr__sched_bs(int p, const uint64_t *com, hr_sched *out);

/* Greedy Scheduling (sec. 4.4, Figure 12): each iteration, processors i = 0 .. p-1 in turn, if
 * still available, pick the lowest-numbered available j they still have to send to; the pair
 * exchanges if j still has a message for i, else i -> j one way; both become unavailable for
 * the iteration. Reproduces the paper's Table 10 (with one misprint, see sched.c) and, on the
 * complete pattern, PS's schedule. O(steps * p^2) time, O(p^2) bytes. */
int hr__sched_gs(int p, const uint64_t *com, hr_sched *out);

/* Free what a scheduler allocated and zero *s. NULL, or an already freed schedule, is fine. */
void hr__sched_free(hr_sched *s);

/* ---- the complete exchanges' partners (what PS, BS and a running PEX, BEX, REX share) ------ */

/* The loop bound of PEX and BEX: steps j = 1 .. span - 1, span = P2 the least power of two
 * >= p (p itself for a power of two: Figures 2 and 4's nproc - 1 steps). 1 for p < 1 or
 * p > HR_SCHED_MAX_P (no steps). */
int hr__sched_span(int p);

/* PEX (Figure 2): the partner of processor me in loop step j, me XOR j; -1 when that is >= p
 * (me idles in the step, p not a power of two) or an argument is out of range (p, 1 <= j <
 * span, 0 <= me < p). Symmetric: the partner's partner is me. */
int hr__sched_pex_partner(int p, int j, int me);

/* BEX (Figure 4): the partner of me in loop step j, through the virtual numbers v = (me + 1)
 * mod p: w = v XOR j, physical w - 1 (p - 1 for w == 0); -1 as for PEX (w >= p, or an
 * argument out of range). Symmetric. */
int hr__sched_bex_partner(int p, int j, int me);

/* Recursive Exchange (sec. 3.3, Figure 3): the partner of processor me in step step (0-based,
 * 0 <= step < lg p), me XOR p / 2^(step + 1). p must be a power of two >= 2. The partner, or
 * HR_EINVAL. */
int hr__sched_rex_partner(int p, int step, int me);

/* ---- checking and printing ------------------------------------------------------------------ */

/* Does s schedule pattern com (s->p processors) as the invariants above say: well-formed steps
 * in canonical order, every message exactly once with its bytes, no transfer of 0 bytes, none on
 * the diagonal or out of range; and, when pairs != 0, each step disjoint pairs. HR_OK, or
 * HR_EINVAL with the first fault in why (NUL-terminated, truncated to whylen; why may be NULL),
 * or HR_ENOMEM. */
int hr__sched_check(const hr_sched *s, const uint64_t *com, int pairs, char *why, size_t whylen);

/* What hr__sched_check_flags asks beyond the invariants every schedule holds (see hr_sched). */
enum {
    HR_SCHED_PAIRS   = 1u << 0, /* each step disjoint pairs (hr__sched_check's pairs != 0) */
    HR_SCHED_PERM    = 1u << 1, /* each step a partial permutation: one send, one receive each */
    HR_SCHED_SPLITS  = 1u << 2, /* a message may go in parts (> 0 bytes each) summing to its bytes */
    HR_SCHED_DUMMIES = 1u << 3, /* 0-byte transfers allowed where the pattern has no message */
    /* The shapes of the paper's schedules, which with "every message exactly once" make a
     * schedule the paper's own (LS's, PS's, BS's; LP's but for which dummies it sends): */
    HR_SCHED_LINEAR  = 1u << 4, /* each step one receiver, receivers ascending step to step (LS) */
    HR_SCHED_XOR     = 1u << 5, /* each step the pairs i, i XOR j of one j, j ascending step to
                                 * step (PS, LP) */
    HR_SCHED_XOR_BS  = 1u << 6, /* as XOR on the virtual numbers (i + 1) mod p (BS) */
};

/* hr__sched_check with the HR_SCHED_* flags above or'ed in flags: hr__sched_check(s, com, pairs,
 * ...) is hr__sched_check_flags(s, com, pairs ? HR_SCHED_PAIRS : 0, ...), word for word in why.
 * An unknown flag bit, or two of the shapes LINEAR, XOR, XOR_BS, is HR_EINVAL. Same returns as
 * hr__sched_check; why names the step (numbered from 1) and the processors of the first fault.
 * O(p^2 + transfers) time. Any thread. */
int hr__sched_check_flags(const hr_sched *s, const uint64_t *com, unsigned flags, char *why,
                          size_t whylen);

/* Write s in the paper's notation, one line a step, numbered from 1:
 *     step 1: 0 <-> 1, 2 <-> 3, 4 -> 5
 * when the step is disjoint pairs: each pair once, in the order of its first transfer (so by
 * the lower processor for an exchange, the sender for one way), "a <-> b" for an exchange
 * (a < b), "a -> b" one way. Any other step (LS's) is written by receiver, ascending, as the
 * paper's Table 1 does, senders ascending and receivers separated by "; ":
 *     step 1: 0 <- 1, 3, 6, 7
 * s must hold the invariants above (a processor out of range aborts: a programmer error).
 * HR_OK, HR_EINVAL (NULL), HR_ENOMEM, or HR_ESYS when f reports a write error. */
int hr__sched_print(const hr_sched *s, FILE *f);

/* Options of hr__sched_print_opts. */
enum {
    HR_SCHED_PRINT_BYTES = 1u << 0, /* every transfer on its own, with its bytes */
};

/* hr__sched_print with options: opts == 0 writes exactly what hr__sched_print writes. With
 * HR_SCHED_PRINT_BYTES each transfer is written on its own, in the step's (src, dst) order, no
 * "<->" or "<-" grouping (the two directions of an exchange may carry different bytes):
 *     step 1: 0 -> 1 (128 B), 1 -> 0 (7 B), 3 -> 2 (100 of 300 B), 4 -> 5 (dummy)
 * "(b of t B)" for a part of a message split over several steps, t the sum of its parts in the
 * schedule; "(dummy)" for a 0-byte transfer. An unknown option bit is HR_EINVAL. Otherwise as
 * hr__sched_print. */
int hr__sched_print_opts(const hr_sched *s, unsigned opts, FILE *f);

#endif /* HREMU_ALG_SCHED_H */
