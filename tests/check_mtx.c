/* check_mtx.c: the Matrix Market reader (work/mtx.h) on the collection's files and on hand-written
 * ones (every error names its file and line, asserted whole), files that are not regular, NUL
 * bytes and long lines; and the SpMV communication pattern against hand-computed matrices and,
 * on west0067 and jagmesh7, against its properties and a brute-force recount by another method. */
#include "hr_test.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hremu/error.h>
#include "work/mtx.h"
#include "work/textfile.h"

/* Tests run from the repository's root. */
#define DATA "tests/data/mtx/"

/* Read path, asserting success. */
static hr_mtx read_ok(const char *path)
{
    hr_mtx m;
    char why[512] = "";
    int err = hr__mtx_read(path, &m, why, sizeof why);
    ck_assert_msg(err == HR_OK, "%s: %d %s", path, err, why);
    ck_assert_str_eq(why, "");
    return m;
}

/* Assert that m's entries are exactly (row[k], col[k]) = want[2k], want[2k+1], 0-based. */
static void assert_entries(const hr_mtx *m, const uint32_t *want, uint64_t nnz)
{
    ck_assert_uint_eq(m->nnz, nnz);
    for (uint64_t k = 0; k < nnz; k++) {
        ck_assert_msg(m->row[k] == want[2 * k] && m->col[k] == want[2 * k + 1],
                      "entry %" PRIu64 " is (%" PRIu32 ", %" PRIu32 "), expected (%" PRIu32
                      ", %" PRIu32 ")", k, m->row[k], m->col[k], want[2 * k], want[2 * k + 1]);
    }
}

/* ---- good files -------------------------------------------------------------------------- */

START_TEST(test_mtx_read_collection)
{
    /* west0067: real general, 67 x 67, 294 entry lines, each kept once; its first entry line is
     * "5 1 -.2788416", its last "55 67 1" (tail -1 of the file). */
    hr_mtx m = read_ok(DATA "west0067.mtx");
    ck_assert_uint_eq(m.rows, 67);
    ck_assert_uint_eq(m.cols, 67);
    ck_assert_uint_eq(m.nnz, 294);
    ck_assert_uint_eq(m.row[0], 4);
    ck_assert_uint_eq(m.col[0], 0);
    ck_assert_uint_eq(m.row[293], 54);
    ck_assert_uint_eq(m.col[293], 66);
    hr__mtx_free(&m);
    ck_assert_ptr_null(m.row);
    ck_assert_uint_eq(m.nnz, 0);
    hr__mtx_free(&m);   /* twice is fine */

    /* empty.mtx: 3 x 4, no entries (and a "%%GraphBLAS" line, a comment). */
    m = read_ok(DATA "empty.mtx");
    ck_assert_uint_eq(m.rows, 3);
    ck_assert_uint_eq(m.cols, 4);
    ck_assert_uint_eq(m.nnz, 0);
    ck_assert_ptr_null(m.row);
    ck_assert_ptr_null(m.col);
    hr__mtx_free(&m);

    /* jagmesh7: pattern symmetric, 1138 x 1138, 4294 entry lines, all with I >= J. Counted once
     * with awk on the file (not with this reader):
     *   awk 'NR > 14 && $1 == $2' jagmesh7.mtx | wc -l     -> 1138 diagonal entries
     *   awk 'NR > 14 && $1 <  $2' jagmesh7.mtx | wc -l     -> 0 above the diagonal
     * so 4294 - 1138 = 3156 off-diagonal entries are mirrored: nnz = 4294 + 3156 = 7450. */
    m = read_ok(DATA "jagmesh7.mtx");
    ck_assert_uint_eq(m.rows, 1138);
    ck_assert_uint_eq(m.cols, 1138);
    ck_assert_uint_eq(m.nnz, 7450);
    /* The first lines are "1 1", "2 1", "18 1": (0,0), then (1,0) and its mirror (0,1), ... */
    static const uint32_t head[] = { 0, 0, 1, 0, 0, 1, 17, 0, 0, 17 };
    assert_entries(&(hr_mtx){ .nnz = 5, .row = m.row, .col = m.col }, head, 5);
    /* Every off-diagonal entry is followed at once by its mirror. */
    uint64_t diag = 0;
    for (uint64_t k = 0; k < m.nnz; k++) {
        if (m.row[k] == m.col[k]) {
            diag++;
            continue;
        }
        ck_assert_uint_gt(m.row[k], m.col[k]);
        ck_assert_uint_lt(k + 1, m.nnz);
        ck_assert_uint_eq(m.row[k + 1], m.col[k]);
        ck_assert_uint_eq(m.col[k + 1], m.row[k]);
        k++;
    }
    ck_assert_uint_eq(diag, 1138);
    hr__mtx_free(&m);
}
END_TEST

START_TEST(test_mtx_read_forms)
{
    /* good_forms.mtx: the banner in mixed case, a "%%GraphBLAS" line, an indented comment, a
     * blank line and a line of a tab before the size line, a comment between entries, signed
     * integer values. */
    hr_mtx m = read_ok(DATA "good_forms.mtx");
    ck_assert_uint_eq(m.rows, 2);
    ck_assert_uint_eq(m.cols, 3);
    static const uint32_t forms[] = { 0, 2, 1, 0, 1, 1 };
    assert_entries(&m, forms, 3);
    hr__mtx_free(&m);

    /* sym_small.mtx (real symmetric): 1 1, 2 1, 3 3, 4 2, 4 3: three off the diagonal. */
    m = read_ok(DATA "sym_small.mtx");
    static const uint32_t sym[] = { 0, 0, 1, 0, 0, 1, 2, 2, 3, 1, 1, 3, 3, 2, 2, 3 };
    assert_entries(&m, sym, 8);
    hr__mtx_free(&m);

    /* skew_small.mtx (integer skew-symmetric): 2 1, 3 2, both mirrored. */
    m = read_ok(DATA "skew_small.mtx");
    static const uint32_t skew[] = { 1, 0, 0, 1, 2, 1, 1, 2 };
    assert_entries(&m, skew, 4);
    hr__mtx_free(&m);

    /* herm_small.mtx (complex hermitian): 1 1, 2 1, 2 2 with two values each. */
    m = read_ok(DATA "herm_small.mtx");
    static const uint32_t herm[] = { 0, 0, 1, 0, 0, 1, 1, 1 };
    assert_entries(&m, herm, 4);
    hr__mtx_free(&m);

    /* crlf.mtx: CRLF line ends, and the last line has no newline at all. */
    m = read_ok(DATA "crlf.mtx");
    static const uint32_t crlf[] = { 0, 1, 1, 0 };
    assert_entries(&m, crlf, 2);
    hr__mtx_free(&m);
}
END_TEST

/* ---- bad files: every reason, whole ----------------------------------------------------- */

START_TEST(test_mtx_read_rejects)
{
    static const struct {
        const char *file;
        const char *why;   /* after "tests/data/mtx/FILE" */
    } cases[] = {
        /* The collection's malformed files: all three are wrong in the banner, line 1. */
        { "mangled1.mtx", ":1: object \"mangled\" is not \"matrix\", the only object read here" },
        { "mangled5.mtx", ":1: \"pattern hermitian\" is not a valid Matrix Market type "
                          "(hermitian needs complex values)" },
        { "mangled_format.mtx", ":1: \"array pattern\" is not a valid Matrix Market type (an "
                                "array lists every value; a pattern needs coordinate)" },
        /* The banner. */
        { "empty_file.mtx", ":1: empty file: expected the banner \"%%MatrixMarket matrix "
                            "coordinate FIELD SYMMETRY\"" },
        { "bad_banner.mtx", ":1: expected the banner \"%%MatrixMarket matrix coordinate FIELD "
                            "SYMMETRY\" as the first line" },
        { "bad_banner_short.mtx", ":1: the banner needs 4 words after %%MatrixMarket (OBJECT "
                                  "FORMAT FIELD SYMMETRY), found 3" },
        { "bad_banner_extra.mtx", ":1: unexpected \"extra\" after the banner's symmetry" },
        { "bad_format.mtx", ":1: format \"sparse\" is neither coordinate nor array" },
        { "bad_field.mtx", ":1: field \"quaternion\" is not real, integer, complex or pattern" },
        { "bad_symmetry.mtx", ":1: symmetry \"symmetrical\" is not general, symmetric, "
                              "skew-symmetric or hermitian" },
        { "array_real.mtx", ":1: format array is not read here: the pattern of a sparse "
                            "matrix-vector product needs coordinate format" },
        { "real_hermitian.mtx", ":1: \"real hermitian\" is not a valid Matrix Market type "
                                "(hermitian needs complex values)" },
        { "pattern_skew.mtx", ":1: \"pattern skew-symmetric\" is not a valid Matrix Market "
                              "type (skew-symmetric needs values)" },
        /* The size line. */
        { "no_size.mtx", ":4: end of file before the size line ROWS COLS NNZ" },
        { "size_fields.mtx", ":3: size line needs ROWS COLS NNZ, found 2 fields" },
        { "size_number.mtx", ":2: size line: COLS \"x3\" is not a decimal number" },
        { "size_extra.mtx", ":2: unexpected \"9\" after the size line's ROWS COLS NNZ" },
        { "size_big.mtx", ":2: size line: ROWS 4294967296 exceeds the limit 4294967295" },
        { "nnz_cap.mtx", ":2: size line: NNZ 268435457 exceeds the limit 268435456" },
        { "nnz_huge.mtx", ":2: size line: NNZ 1000 cannot be: the file's 64 bytes hold at most "
                          "16 entry lines of 2 fields" },
        { "sym_nonsquare.mtx", ":2: a symmetric matrix must be square, but the size line says "
                               "3 x 4" },
        /* Entries. */
        { "row_range.mtx", ":4: row index 0 is out of range 1 .. 3" },
        { "col_range.mtx", ":4: column index 5 is out of range 1 .. 4" },
        { "index_word.mtx", ":3: row index \"-1\" is not a decimal number" },
        { "too_many.mtx", ":6: more entries than the 2 the size line (line 2) announces" },
        { "too_few.mtx", ":6: end of file after 2 entries; the size line (line 2) announces 3" },
        { "bad_value.mtx", ":3: value \"1.5e\" is not a decimal number" },
        { "bad_integer.mtx", ":3: value \"1.5\" is not an integer" },
        { "bad_nan.mtx", ":3: value \"nan\" is not a decimal number" },
        { "trailing.mtx", ":4: unexpected \"junk\" after a real entry's 3 fields" },
        { "pattern_value.mtx", ":3: unexpected \"1\" after a pattern entry's 2 fields" },
        { "few_fields.mtx", ":4: a real entry needs I J VALUE, found 2 fields" },
        { "complex_one.mtx", ":3: a complex entry needs I J REAL IMAGINARY, found 3 fields" },
        { "sym_upper.mtx", ":4: entry (1, 3) is above the diagonal: a symmetric file lists only "
                           "the lower triangle (row >= column)" },
        { "skew_diag.mtx", ":4: diagonal entry (2, 2) in a skew-symmetric matrix, whose "
                           "diagonal is zero and not listed" },
        /* Not there at all. */
        { "no_such_file.mtx", ": cannot open: No such file or directory" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char path[128], want[512], why[512] = "";
        snprintf(path, sizeof path, DATA "%s", cases[c].file);
        snprintf(want, sizeof want, "%s%s", path, cases[c].why);
        hr_mtx m = { .rows = 77, .nnz = 5 };   /* must stay untouched */
        int err = hr__mtx_read(path, &m, why, sizeof why);
        ck_assert_msg(err == HR_EINVAL, "%s accepted (%d)", path, err);
        ck_assert_str_eq(why, want);
        ck_assert_uint_eq(m.rows, 77);
        ck_assert_uint_eq(m.nnz, 5);
        ck_assert_ptr_null(m.row);
        /* A short buffer is cut, never overrun; no buffer at all is fine. */
        char small[8];
        memset(small, 'x', sizeof small);
        ck_assert_int_eq(hr__mtx_read(path, &m, small, 5), HR_EINVAL);
        ck_assert_int_eq(small[4], '\0');
        ck_assert_int_eq(small[5], 'x');
        ck_assert_int_eq(hr__mtx_read(path, &m, NULL, 0), HR_EINVAL);
    }
}
END_TEST

/* A directory and a FIFO are refused by their type, without blocking (the case has a timeout). */
START_TEST(test_mtx_read_not_regular)
{
    char why[512], want[512], dir[] = "/tmp/hremu_check_mtx_XXXXXX", fifo[64];
    hr_mtx m = { 0 };
    ck_assert_int_eq(hr__mtx_read("tests/data/mtx", &m, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "tests/data/mtx: is a directory, not a regular file");
    ck_assert_int_eq(hr__mtx_read("/dev/zero", &m, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "/dev/zero: is a character device, not a regular file");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/fifo.mtx", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    int err = hr__mtx_read(fifo, &m, why, sizeof why);
    remove(fifo);
    rmdir(dir);
    ck_assert_int_eq(err, HR_EINVAL);
    snprintf(want, sizeof want, "%s: is a FIFO (named pipe), not a regular file", fifo);
    ck_assert_str_eq(why, want);
    ck_assert_ptr_null(m.row);
}
END_TEST

/* Write len bytes of body to a scratch file of this process; its path in path. */
static void write_scratch(char *path, size_t cap, const char *body, size_t len)
{
    snprintf(path, cap, "/tmp/hremu_check_mtx_%ld.mtx", (long)getpid());
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(body, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

/* A NUL byte, and lines at and past HR_TEXT_MAX_LINE, written here rather than kept as data
 * (a 4 KB line and a binary file would clutter tests/data). */
START_TEST(test_mtx_read_bytes)
{
    char path[128], want[512], why[512];
    hr_mtx m = { 0 };
    static const char nul[] = "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\0 1\n";
    write_scratch(path, sizeof path, nul, sizeof nul - 1);
    ck_assert_int_eq(hr__mtx_read(path, &m, why, sizeof why), HR_EINVAL);
    snprintf(want, sizeof want, "%s:3: NUL byte at column 4: not a text file", path);
    ck_assert_str_eq(why, want);

    /* A comment line of exactly HR_TEXT_MAX_LINE bytes is read; one byte more is refused. */
    static const char head[] = "%%MatrixMarket matrix coordinate pattern general\n";
    static const char tail[] = "\n2 2 1\n2 1\n";
    size_t cap = sizeof head + HR_TEXT_MAX_LINE + 1 + sizeof tail;
    char *body = malloc(cap);
    ck_assert_ptr_nonnull(body);
    for (int extra = 0; extra <= 1; extra++) {
        size_t n = 0, comment = HR_TEXT_MAX_LINE + (size_t)extra;
        memcpy(body, head, sizeof head - 1);
        n += sizeof head - 1;
        memset(body + n, '%', comment);
        n += comment;
        memcpy(body + n, tail, sizeof tail - 1);
        n += sizeof tail - 1;
        write_scratch(path, sizeof path, body, n);
        int err = hr__mtx_read(path, &m, why, sizeof why);
        if (extra == 0) {
            ck_assert_msg(err == HR_OK, "%s", why);
            ck_assert_uint_eq(m.nnz, 1);
            hr__mtx_free(&m);
        } else {
            ck_assert_int_eq(err, HR_EINVAL);
            snprintf(want, sizeof want, "%s:2: line longer than %d bytes", path,
                     HR_TEXT_MAX_LINE);
            ck_assert_str_eq(why, want);
        }
    }
    free(body);
    remove(path);
}
END_TEST

/* ---- the SpMV pattern -------------------------------------------------------------------- */

/* The owner of i by a linear scan over the block bounds floor(b n / p): another way than
 * hr__mtx_owner's division. */
static int owner_scan(uint64_t i, uint64_t n, int p)
{
    int b = 0;
    while (b + 1 < p && i >= (uint64_t)(b + 1) * n / (uint64_t)p)
        b++;
    return b;
}

START_TEST(test_mtx_owner)
{
    for (uint64_t n = 1; n <= 40; n++)
        for (int p = 1; (uint64_t)p <= n; p++) {
            uint64_t held[40] = { 0 };
            for (uint64_t i = 0; i < n; i++) {
                int b = hr__mtx_owner(i, n, p);
                ck_assert_int_eq(b, owner_scan(i, n, p));
                held[b]++;
            }
            /* Blocks differ by at most one row, and none is empty (p <= n). */
            for (int b = 0; b < p; b++) {
                ck_assert_uint_ge(held[b], n / (uint64_t)p);
                ck_assert_uint_le(held[b], (n + (uint64_t)p - 1) / (uint64_t)p);
            }
        }
    /* The largest sizes the contract allows do not overflow. */
    ck_assert_int_eq(hr__mtx_owner(UINT32_MAX - 1, UINT32_MAX, 2147483647), 2147483646);
    ck_assert_int_eq(hr__mtx_owner(0, UINT32_MAX, 2147483647), 0);
}
END_TEST

/* Assert com (p x p) equals want. */
static void assert_com(const uint64_t *com, const uint64_t *want, int p)
{
    for (int i = 0; i < p; i++)
        for (int j = 0; j < p; j++)
            ck_assert_msg(com[i * p + j] == want[i * p + j],
                          "com[%d][%d] = %" PRIu64 ", expected %" PRIu64, i, j, com[i * p + j],
                          want[i * p + j]);
}

START_TEST(test_mtx_spmv_small)
{
    /* small6.mtx, 0-based, row: columns referenced (the file lists (1,3) twice):
     *   row 0: 0 3 5     row 1: 1 3 3     row 2: 2 0 1
     *   row 3: 3 4       row 4: 4 0       row 5: 5 1 0
     *
     * p = 3: processor b owns rows and x entries 2b, 2b+1.
     *   j = 0 (rows 0,1) needs x 3 (from 1), x 5 (from 2)        -> com[1][0] = 8, com[2][0] = 8
     *   j = 1 (rows 2,3) needs x 0, x 1 (from 0), x 4 (from 2)   -> com[0][1] = 16, com[2][1] = 8
     *   j = 2 (rows 4,5) needs x 0, x 1 (from 0; x 0 twice, sent once) -> com[0][2] = 16 */
    hr_mtx m = read_ok(DATA "small6.mtx");
    ck_assert_uint_eq(m.nnz, 16);
    uint64_t com[36];
    char why[256] = "";
    static const uint64_t want3[9] = {
        0, 16, 16,
        8, 0,  0,
        8, 8,  0,
    };
    ck_assert_int_eq(hr__mtx_spmv_pattern(&m, 3, com, why, sizeof why), HR_OK);
    assert_com(com, want3, 3);

    /* p = 4, uneven blocks: bounds floor(6b/4) = 0, 1, 3, 4, 6, so processor 0 owns {0}, 1 owns
     * {1, 2}, 2 owns {3}, 3 owns {4, 5}.
     *   j = 0 (row 0) needs x 3 (from 2), x 5 (from 3)            -> com[2][0] = com[3][0] = 8
     *   j = 1 (rows 1,2) needs x 3 (from 2), x 0 (from 0)         -> com[2][1] = com[0][1] = 8
     *   j = 2 (row 3) needs x 4 (from 3)                          -> com[3][2] = 8
     *   j = 3 (rows 4,5) needs x 0 (from 0), x 1 (from 1)         -> com[0][3] = com[1][3] = 8 */
    static const uint64_t want4[16] = {
        0, 8, 0, 8,
        0, 0, 0, 8,
        8, 8, 0, 0,
        8, 0, 8, 0,
    };
    ck_assert_int_eq(hr__mtx_spmv_pattern(&m, 4, com, why, sizeof why), HR_OK);
    assert_com(com, want4, 4);

    /* p = 6: one row each; row j needs each foreign column it names, once. */
    uint64_t want6[36] = { 0 };
    static const int need[][2] = { { 3, 0 }, { 5, 0 }, { 3, 1 }, { 0, 2 }, { 1, 2 },
                                   { 4, 3 }, { 0, 4 }, { 1, 5 }, { 0, 5 } };
    for (size_t k = 0; k < sizeof need / sizeof need[0]; k++)
        want6[need[k][0] * 6 + need[k][1]] = 8;
    ck_assert_int_eq(hr__mtx_spmv_pattern(&m, 6, com, why, sizeof why), HR_OK);
    assert_com(com, want6, 6);

    /* p = 1: nothing moves. */
    com[0] = 99;
    ck_assert_int_eq(hr__mtx_spmv_pattern(&m, 1, com, why, sizeof why), HR_OK);
    ck_assert_uint_eq(com[0], 0);
    ck_assert_str_eq(why, "");
    hr__mtx_free(&m);
}
END_TEST

START_TEST(test_mtx_spmv_rejects)
{
    uint64_t com[16];
    for (int k = 0; k < 16; k++)
        com[k] = 7;   /* must stay untouched */
    char why[256];
    hr_mtx e = read_ok(DATA "empty.mtx");
    ck_assert_int_eq(hr__mtx_spmv_pattern(&e, 2, com, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "the SpMV pattern needs a square matrix; this one is 3 x 4");
    hr__mtx_free(&e);

    hr_mtx m = read_ok(DATA "small6.mtx");
    ck_assert_int_eq(hr__mtx_spmv_pattern(&m, 0, com, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "the SpMV pattern needs 1 <= p <= rows = 6; p = 0");
    ck_assert_int_eq(hr__mtx_spmv_pattern(&m, 7, com, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "the SpMV pattern needs 1 <= p <= rows = 6; p = 7");
    ck_assert_int_eq(hr__mtx_spmv_pattern(&m, -3, com, why, sizeof why), HR_EINVAL);
    hr__mtx_free(&m);

    /* A matrix built by hand with an entry outside it. */
    uint32_t row[2] = { 0, 1 }, col[2] = { 1, 4 };
    hr_mtx bad = { .rows = 4, .cols = 4, .nnz = 2, .row = row, .col = col };
    ck_assert_int_eq(hr__mtx_spmv_pattern(&bad, 2, com, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "entry 1 (1, 4, 0-based) is outside the 4 x 4 matrix");
    for (int k = 0; k < 16; k++)
        ck_assert_uint_eq(com[k], 7);

    /* A square matrix with no entries: all zero. */
    hr_mtx none = { .rows = 4, .cols = 4 };
    ck_assert_int_eq(hr__mtx_spmv_pattern(&none, 4, com, why, sizeof why), HR_OK);
    for (int k = 0; k < 16; k++)
        ck_assert_uint_eq(com[k], 0);
}
END_TEST

/* Work and memory follow the entries and p, not the rows: a 70-byte file declaring 2^32 - 1 rows
 * and no entries, and a hand-built matrix of that order with a few entries at both ends (and
 * columns that differ only in their high 16 bits), under a 64 MiB limit on the address space
 * (a table per row would need 16 GiB). The sanitizers' allocators cannot live under a limit:
 * there the same calls run without one. */
START_TEST(test_mtx_spmv_huge_order)
{
    hr_mtx e = read_ok(DATA "huge_empty.mtx");
    ck_assert_uint_eq(e.rows, UINT32_MAX);
    ck_assert_uint_eq(e.nnz, 0);
    const uint32_t n1 = UINT32_MAX - 1;   /* the last row or column, 0-based */
    /* n = 2^32 - 1, p = 4: the blocks start at 0, 1073741823, 2147483647, 3221225471.
     *   row 0 (P0) needs x[n1] (P3)                                  -> com[3][0] = 8
     *   row n1 (P3) needs x[0] twice, x[0x10005], x[0x20005] (P0)    -> com[0][3] = 24
     *   row n1 - 1 (P3) needs x[0x10005] again                      -> (already counted)
     *   row 1073741823 (P1) needs x[1073741822] (P0)                 -> com[0][1] = 8
     *   row 2147483647 (P2) needs x[2147483647] (P2)                 -> nothing */
    uint32_t row[] = { 0, n1, n1, n1, n1, n1 - 1, 1073741823u, 2147483647u };
    uint32_t col[] = { n1, 0, 0x10005, 0, 0x20005, 0x10005, 1073741822u, 2147483647u };
    hr_mtx m = { .rows = UINT32_MAX, .cols = UINT32_MAX, .nnz = 8, .row = row, .col = col };
    static const uint64_t want[16] = {
        0, 8, 0, 24,
        0, 0, 0, 0,
        0, 0, 0, 0,
        8, 0, 0, 0,
    };
    uint64_t com4[16], com32[32 * 32];
    char why[256] = "";
    struct rlimit old;
    int limited = hr_test_may_limit_memory();
    if (limited)
        ck_assert_int_eq(hr_test_limit_memory(64u << 20, &old), 0);
    int err_e = hr__mtx_spmv_pattern(&e, 32, com32, why, sizeof why);
    int err_m = hr__mtx_spmv_pattern(&m, 4, com4, why, sizeof why);
    if (limited)
        ck_assert_int_eq(setrlimit(RLIMIT_AS, &old), 0);
    ck_assert_msg(err_e == HR_OK && err_m == HR_OK, "%d %d: %s", err_e, err_m, why);
    for (int k = 0; k < 32 * 32; k++)
        ck_assert_uint_eq(com32[k], 0);
    assert_com(com4, want, 4);
    hr__mtx_free(&e);
}
END_TEST

/* The header alone: the room hr__mtx_read allocates (mirrors too), and the same refusals. */
START_TEST(test_mtx_read_size)
{
    char why[512] = "";
    hr_mtx m;
    ck_assert_int_eq(hr__mtx_read_size(DATA "sym_small.mtx", &m, why, sizeof why), HR_OK);
    ck_assert_uint_eq(m.rows, 4);
    ck_assert_uint_eq(m.cols, 4);
    ck_assert_uint_eq(m.nnz, 10);   /* 5 entries, room for their mirrors */
    ck_assert_ptr_null(m.row);
    ck_assert_ptr_null(m.col);
    ck_assert_int_eq(hr__mtx_read_size(DATA "west0067.mtx", &m, why, sizeof why), HR_OK);
    ck_assert_uint_eq(m.nnz, 294);
    ck_assert_int_eq(hr__mtx_read_size(DATA "huge_empty.mtx", &m, why, sizeof why), HR_OK);
    ck_assert_uint_eq(m.rows, UINT32_MAX);
    ck_assert_uint_eq(m.nnz, 0);
    /* Entries are not read: too_many.mtx's extra entry is the full read's error only. */
    ck_assert_int_eq(hr__mtx_read_size(DATA "too_many.mtx", &m, why, sizeof why), HR_OK);
    /* Up to the size line, the full read's messages. */
    char whole[512];
    hr_mtx full;
    ck_assert_int_eq(hr__mtx_read_size(DATA "size_big.mtx", &m, why, sizeof why), HR_EINVAL);
    ck_assert_int_eq(hr__mtx_read(DATA "size_big.mtx", &full, whole, sizeof whole), HR_EINVAL);
    ck_assert_str_eq(why, whole);
    ck_assert_int_eq(hr__mtx_read_size(DATA "no_size.mtx", &m, why, sizeof why), HR_EINVAL);
    ck_assert_int_eq(hr__mtx_read(DATA "no_size.mtx", &full, whole, sizeof whole), HR_EINVAL);
    ck_assert_str_eq(why, whole);
}
END_TEST

/* The pattern recounted by brute force: a dense n x p table of which processor's rows reference
 * which column, owners found by owner_scan; no bucketing, no marks. */
static uint64_t *brute_com(const hr_mtx *m, int p)
{
    uint64_t n = m->rows;
    unsigned char *ref = calloc((size_t)n * (size_t)p, 1);
    uint64_t *com = calloc((size_t)p * (size_t)p, sizeof *com);
    ck_assert_ptr_nonnull(ref);
    ck_assert_ptr_nonnull(com);
    for (uint64_t k = 0; k < m->nnz; k++)
        ref[(size_t)m->col[k] * (size_t)p + (size_t)owner_scan(m->row[k], n, p)] = 1;
    for (uint64_t c = 0; c < n; c++) {
        int i = owner_scan(c, n, p);
        for (int j = 0; j < p; j++)
            if (j != i && ref[(size_t)c * (size_t)p + (size_t)j])
                com[i * p + j] += 8;
    }
    free(ref);
    return com;
}

/* Properties of com for m at p, and equality with the brute-force count; returns the total. */
static uint64_t check_real(const char *file, int p, int symmetric)
{
    hr_mtx m = read_ok(file);
    uint64_t *com = malloc((size_t)p * (size_t)p * sizeof *com);
    ck_assert_ptr_nonnull(com);
    char why[256] = "";
    ck_assert_int_eq(hr__mtx_spmv_pattern(&m, p, com, why, sizeof why), HR_OK);
    uint64_t *brute = brute_com(&m, p), total = 0;
    for (int i = 0; i < p; i++) {
        ck_assert_uint_eq(com[i * p + i], 0);
        for (int j = 0; j < p; j++) {
            uint64_t c = com[i * p + j];
            ck_assert_uint_eq(c % 8, 0);
            /* No processor sends more x entries than it owns. */
            ck_assert_uint_le(c / 8, m.rows / (uint64_t)p + 1);
            if (symmetric)
                ck_assert_msg((c != 0) == (com[j * p + i] != 0),
                              "%s p = %d: com[%d][%d] = %" PRIu64 " but com[%d][%d] = %" PRIu64,
                              file, p, i, j, c, j, i, com[j * p + i]);
            ck_assert_msg(c == brute[i * p + j],
                          "%s p = %d: com[%d][%d] = %" PRIu64 ", brute force %" PRIu64, file, p,
                          i, j, c, brute[i * p + j]);
            total += c;
        }
    }
    free(brute);
    free(com);
    hr__mtx_free(&m);
    return total;
}

START_TEST(test_mtx_spmv_collection)
{
    /* Both move something: neither matrix is block diagonal at these p. */
    ck_assert_uint_gt(check_real(DATA "west0067.mtx", 4, 0), 0);
    ck_assert_uint_gt(check_real(DATA "jagmesh7.mtx", 8, 1), 0);
    /* And at other p, uneven blocks included. */
    check_real(DATA "west0067.mtx", 67, 0);
    check_real(DATA "west0067.mtx", 5, 0);
    check_real(DATA "jagmesh7.mtx", 3, 1);
    check_real(DATA "jagmesh7.mtx", 64, 1);
    check_real(DATA "small6.mtx", 4, 0);
}
END_TEST

Suite *hr_mtx_suite(void)
{
    Suite *s = suite_create("mtx");
    TCase *read = tcase_create("read");
    tcase_add_test(read, test_mtx_read_collection);
    tcase_add_test(read, test_mtx_read_forms);
    tcase_add_test(read, test_mtx_read_rejects);
    tcase_add_test(read, test_mtx_read_not_regular);
    tcase_add_test(read, test_mtx_read_bytes);
    tcase_add_test(read, test_mtx_read_size);
    tcase_set_timeout(read, 10);
    suite_add_tcase(s, read);
    TCase *spmv = tcase_create("spmv");
    tcase_add_test(spmv, test_mtx_owner);
    tcase_add_test(spmv, test_mtx_spmv_small);
    tcase_add_test(spmv, test_mtx_spmv_rejects);
    tcase_add_test(spmv, test_mtx_spmv_collection);
    tcase_add_test(spmv, test_mtx_spmv_huge_order);
    tcase_set_timeout(spmv, 30);
    suite_add_tcase(s, spmv);
    return s;
}
