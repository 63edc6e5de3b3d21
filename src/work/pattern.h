/* pattern.h: the "pattern" workload (seed 001 sec. 4, seed 002): irregular all-to-many
 * communication given by a COM matrix, com[i*p + j] = the bytes processor i sends to j, from a
 * generator or a Matrix Market file; and its verifier.
 *
 * Generators (key pattern):
 *  - density: a given percentage of complete exchange (seed 001 Table 11): exactly
 *    round(density/100 * p (p - 1)) of the p (p - 1) ordered pairs, chosen uniformly from the
 *    seed (a partial Fisher-Yates shuffle of the pairs in row-major order), each a message of
 *    `bytes` bytes;
 *  - table6: seed 001's pattern P (Table 6) on 8 processors, each message `bytes` bytes;
 *  - file:PATH: the pattern of y = A x for the Matrix Market matrix at PATH (work/mtx.h), rows
 *    and x split in p contiguous blocks: i sends j 8 bytes for each x entry i owns that j's rows
 *    reference. bytes is not used.
 */
#ifndef HREMU_WORK_PATTERN_H
#define HREMU_WORK_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include <hremu/workload.h>

#define HR_KIND_PATTERN ((hr_kind)5)

/* An instance. Processor i starts with its messages in in[i], to j (ascending) at
 * in[i] + soff[i*p + j], com[i*p + j] bytes each. It must end with out[j] (memory from hr_malloc,
 * set on processor j only, done[j] = 1): every message to j, from i ascending, the one from i at
 * out[j] + roff[i*p + j] (hr__pattern_in_bytes(j) bytes in all). plan is the algorithm's (an
 * off-line schedule, set by its plan hook), NULL otherwise. */
typedef struct hr_pattern {
    int             p;
    const uint64_t *com;
    uint8_t       **in;
    const size_t   *soff, *roff;
    const size_t   *in_bytes;   /* [p]: what processor j receives in all */
    uint8_t       **out;
    char           *done;
    void           *plan;
} hr_pattern;

extern const hr_wkey_spec hr__pattern_keys[];

/* The hr_workload row's slots (contracts in workload.h). make: HR_EINVAL with one line for a
 * file that is not a valid square Matrix Market matrix (its own "PATH:LINE: ..."), one with fewer
 * rows than p, table6 on p != 8; HR_ENOMEM. verify checks every byte of every message. min_bytes:
 * the sum of com, over every message (moved: their number). h: the most bytes a processor
 * receives. mem_bytes: twice the bytes of the pattern and the p^2 tables; for a file, from its
 * banner and size line (hr__mtx_read_size), the larger of make's peak while it reads and sorts the
 * entries (16 bytes an entry) and the messages, at most one x entry an entry (an upper bound),
 * or an estimate from p when the header cannot be read (make then says why). */
int      hr__pattern_make(const hr_workload_spec *s, int p, void **inst, char *why, size_t len);
void     hr__pattern_reset(void *inst);
int      hr__pattern_parts(void *inst, int pid, hr_part *out, int max);
int      hr__pattern_verify(const void *inst, char *why, size_t whylen);
uint64_t hr__pattern_min_bytes(const void *inst, uint64_t *moved);
uint64_t hr__pattern_h(const void *inst);
uint64_t hr__pattern_mem_bytes(const hr_workload_spec *s, int p);
void     hr__pattern_destroy(void *inst);

#endif /* HREMU_WORK_PATTERN_H */
