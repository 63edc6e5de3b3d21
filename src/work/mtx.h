/* mtx.h: a Matrix Market (coordinate) reader that keeps a sparse matrix's pattern, and the
 * communication pattern of a sparse matrix-vector product y = A x distributed by row blocks.
 * No globals: any thread may call any function here; calls on distinct hr_mtx values never
 * interfere, and hr__mtx_spmv_pattern only reads its matrix, so several threads may share one. */
#ifndef HREMU_WORK_MTX_H
#define HREMU_WORK_MTX_H

#include <stddef.h>
#include <stdint.h>

/* The most entry lines a file may announce on its size line (2^28). The reader allocates room for
 * the announced count before it reads the entries (twice that for a symmetric, skew-symmetric or
 * hermitian file, whose off-diagonal entries are mirrored): up to 4 GiB at the cap. The count is
 * also refused when the file is too short to hold it (an entry line takes at least 2 bytes a
 * field), so a small hostile file never makes the reader allocate much. */
#define HR_MTX_MAX_NNZ (UINT64_C(1) << 28)

/* A sparse matrix's pattern: rows x cols, and nnz entries (row[k], col[k]), 0-based, in the
 * file's order. Each off-diagonal entry of a symmetric, skew-symmetric or hermitian file appears
 * twice: as stored, (i, j) with i > j, then at once its mirror (j, i); diagonal entries once.
 * Entries a file repeats are kept as repeated (the format does not forbid them). row and col are
 * NULL when nnz is 0. rows and cols are at most UINT32_MAX. Owned by the caller: hr__mtx_free. */
typedef struct hr_mtx {
    uint64_t  rows, cols, nnz;
    uint32_t *row, *col;   /* [nnz] each */
} hr_mtx;

/* Read the Matrix Market file at path into *m. What is accepted:
 *  - line 1, the banner "%%MatrixMarket matrix coordinate FIELD SYMMETRY", its four words
 *    compared without regard to case as NIST's mmio.c does (and, more leniently than mmio.c,
 *    "%%MatrixMarket" itself); any white space between the words; FIELD is
 *    real, integer, complex or pattern, SYMMETRY general, symmetric, skew-symmetric or hermitian.
 *    Refused: format array (an SpMV pattern needs coordinates), object vector, and the
 *    combinations the spec excludes: array pattern, pattern skew-symmetric, and hermitian with
 *    any field but complex;
 *  - then comment lines (first non-blank character '%') and blank lines, anywhere;
 *  - the size line "ROWS COLS NNZ" (decimal; ROWS and COLS at most UINT32_MAX, NNZ at most
 *    HR_MTX_MAX_NNZ and what the file's size can hold; a symmetric, skew-symmetric or hermitian
 *    matrix square);
 *  - exactly NNZ entry lines "I J" plus 0 (pattern), 1 (real, integer) or 2 (complex) values,
 *    I in 1 .. ROWS and J in 1 .. COLS. A real value is decimal, [+-]digits[.digits][e[+-]digits]
 *    (".5" and "5." too; no inf, nan or hex); an integer value [+-]digits. Values are checked,
 *    not kept. A symmetric or hermitian file lists only the lower triangle with the diagonal
 *    (I >= J), a skew-symmetric one only the strict lower triangle (I > J), as the spec says
 *    ("only the entries on or below the main diagonal are to be listed"; for skew-symmetric
 *    "strictly below"); an entry above the diagonal is an error rather than silently mirrored,
 *    since with its mirror also listed the matrix would hold it twice.
 * Lines are at most HR_TEXT_MAX_LINE (4096) bytes, '\r' counts as a space, and a NUL byte is an
 * error. path must be a regular file: a directory, FIFO or device is refused without blocking.
 * path and m are not NULL; why may be NULL when whylen is 0.
 * Returns 0 with *m filled (free it with hr__mtx_free), or HR_EINVAL for a bad file (HR_ENOMEM
 * when memory runs out) with *m untouched and one line in why: "PATH:LINE: what is wrong", LINE
 * 1-based; a fault found at the end of the file (too few entries, no size line) names the line
 * after the last; one not tied to a line (a missing file) reads "PATH: what is wrong". */
int hr__mtx_read(const char *path, hr_mtx *m, char *why, size_t whylen);

/* What hr__mtx_read would make of path, from its banner and size line alone (the entries are not
 * read): rows, cols, and in nnz the room for entries it would allocate (the size line's count,
 * twice that for a symmetric, skew-symmetric or hermitian file, whose mirrors are stored too),
 * row and col NULL. The same checks and messages as hr__mtx_read up to the size
 * line. For estimating memory before the file is read. */
int hr__mtx_read_size(const char *path, hr_mtx *m, char *why, size_t whylen);

/* Free m's arrays and zero it. m may be NULL, zeroed, or already freed. */
void hr__mtx_free(hr_mtx *m);

/* The processor that owns row (and x entry) i of an n-row matrix split among p processors in
 * contiguous blocks: processor b owns [floor(b n / p), floor((b + 1) n / p)), computed in 64 bits.
 * Needs 1 <= p <= n <= UINT32_MAX and i < n. */
static inline int hr__mtx_owner(uint64_t i, uint64_t n, int p)
{
    /* i >= floor(b n / p) iff (i + 1) p > b n, so the owner is the largest such b. */
    return (int)(((i + 1) * (uint64_t)p - 1) / n);
}

/* The communication of y = A x with the rows of A and the entries of x partitioned alike among p
 * processors in contiguous blocks (hr__mtx_owner): processor i sends to j != i each x entry it
 * owns that at least one row owned by j references (a column of an entry of that row), once
 * however many rows or entries reference it, as a double. So com[i*p + j] = 8 * the number of
 * such entries, and com[i*p + i] = 0. m and com are not NULL; com holds p*p entries and is
 * wholly written on success.
 * Needs a square matrix (rows == cols), 1 <= p <= rows, and every entry inside the matrix.
 * Returns 0, or HR_EINVAL (a broken need) or HR_ENOMEM, with a one-line reason in why and com
 * untouched. Time O(nnz + p^2) (a stable sort of the entries by owner and column in three
 * counting passes, then one walk), memory O(nnz + p) besides com: never O(rows), so a matrix of
 * 2^32 - 1 rows and few entries is cheap. */
int hr__mtx_spmv_pattern(const hr_mtx *m, int p, uint64_t *com, char *why, size_t whylen);

#endif
