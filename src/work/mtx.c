/* mtx.c: the Matrix Market coordinate reader and the SpMV communication pattern (mtx.h). The
 * reader is a line-at-a-time state machine (banner, then size line, then entries) over
 * textfile.h's bounded lines, so its memory is the arrays the size line announces, no more. */
#include "work/mtx.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <hremu/error.h>

#include "work/common.h"
#include "work/textfile.h"

enum field { F_REAL = 0, F_INTEGER, F_COMPLEX, F_PATTERN };
enum symmetry { S_GENERAL = 0, S_SYMMETRIC, S_SKEW, S_HERMITIAN };

static const char *const field_name[] = { "real", "integer", "complex", "pattern" };
static const char *const sym_name[] = { "general", "symmetric", "skew-symmetric", "hermitian" };
static const int value_fields[] = { 1, 1, 2, 0 };   /* per enum field */

/* The most tokens a line is split into; the count goes on past it, so "found 9 fields" is
 * still exact. A banner has 5, an entry at most 4. */
#define MAX_TOK 6

/* Room for a token in a reason: 24 characters and "...". */
#define SHOWN 28

/* The reader's state between lines. */
typedef struct reader {
    const char *path;
    char       *why;
    size_t      whylen;
    uint64_t    line;        /* the current line, 1-based */
    int         stage;       /* 0: banner next, 1: size line next, 2: entries */
    int         field;       /* enum field */
    int         sym;         /* enum symmetry */
    uint64_t    size;        /* the file's bytes */
    uint64_t    size_line;   /* where the size line was */
    uint64_t    want;        /* NNZ: entry lines announced */
    uint64_t    found;       /* entry lines read */
    int         header_only; /* stop after the size line, allocating nothing */
    hr_mtx      m;           /* being filled; m.nnz counts mirrors too */
} reader;

/* "PATH:LINE: " and the message, as HR_EINVAL. */
static int line_fail(const reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int line_fail(const reader *r, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return hr__work_fail(r->why, r->whylen, HR_EINVAL, "%s:%" PRIu64 ": %s", r->path, r->line,
                         msg);
}

/* Is the token word, ignoring case? */
static int is_word(const char *t, size_t len, const char *word)
{
    return len == strlen(word) && strncasecmp(t, word, len) == 0;
}

/* Which of names[0 .. n) the token is, ignoring case; -1 if none. */
static int which(const char *t, size_t len, const char *const *names, int n)
{
    for (int k = 0; k < n; k++)
        if (is_word(t, len, names[k]))
            return k;
    return -1;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* [+-]digits: an integer field's value. */
static int is_integer(const char *t, size_t len)
{
    size_t i = (len > 0 && (t[0] == '+' || t[0] == '-')) ? 1 : 0;
    if (i == len)
        return 0;
    for (; i < len; i++)
        if (!is_digit(t[i]))
            return 0;
    return 1;
}

/* [+-](digits[.digits] | .digits)[(e|E)[+-]digits]: a real value as the collection writes them
 * (west0067 has "-.2788416"). Checked by hand rather than with strtod, which also takes inf, nan
 * and hex and follows the locale's decimal point. */
static int is_real(const char *t, size_t len)
{
    size_t i = 0, digits = 0;
    if (i < len && (t[i] == '+' || t[i] == '-'))
        i++;
    for (; i < len && is_digit(t[i]); i++)
        digits++;
    if (i < len && t[i] == '.')
        for (i++; i < len && is_digit(t[i]); i++)
            digits++;
    if (digits == 0)
        return 0;
    if (i < len && (t[i] == 'e' || t[i] == 'E')) {
        size_t exp = 0;
        i++;
        if (i < len && (t[i] == '+' || t[i] == '-'))
            i++;
        for (; i < len && is_digit(t[i]); i++)
            exp++;
        if (exp == 0)
            return 0;
    }
    return i == len;
}

/* Line 1: "%%MatrixMarket matrix coordinate FIELD SYMMETRY". */
static int read_banner(reader *r, const char **tok, const size_t *tlen, int nt)
{
    char shown[SHOWN];
    if (nt == 0 || !is_word(tok[0], tlen[0], "%%MatrixMarket"))
        return line_fail(r, "expected the banner \"%%%%MatrixMarket matrix coordinate FIELD "
                            "SYMMETRY\" as the first line");
    if (nt < 5)
        return line_fail(r, "the banner needs 4 words after %%%%MatrixMarket (OBJECT FORMAT "
                            "FIELD SYMMETRY), found %d", nt - 1);
    if (nt > 5) {
        hr__text_show_token(shown, sizeof shown, tok[5], tlen[5]);
        return line_fail(r, "unexpected \"%s\" after the banner's symmetry", shown);
    }
    if (!is_word(tok[1], tlen[1], "matrix")) {
        hr__text_show_token(shown, sizeof shown, tok[1], tlen[1]);
        return line_fail(r, "object \"%s\" is not \"matrix\", the only object read here",
                         shown);
    }
    int array = is_word(tok[2], tlen[2], "array");
    if (!array && !is_word(tok[2], tlen[2], "coordinate")) {
        hr__text_show_token(shown, sizeof shown, tok[2], tlen[2]);
        return line_fail(r, "format \"%s\" is neither coordinate nor array", shown);
    }
    int f = which(tok[3], tlen[3], field_name, 4);
    if (f < 0) {
        hr__text_show_token(shown, sizeof shown, tok[3], tlen[3]);
        return line_fail(r, "field \"%s\" is not real, integer, complex or pattern", shown);
    }
    int s = which(tok[4], tlen[4], sym_name, 4);
    if (s < 0) {
        hr__text_show_token(shown, sizeof shown, tok[4], tlen[4]);
        return line_fail(r, "symmetry \"%s\" is not general, symmetric, skew-symmetric or "
                            "hermitian", shown);
    }
    /* The spec's exclusions come first, so that "array pattern" is named as invalid rather
     * than merely unsupported. */
    if (array && f == F_PATTERN)
        return line_fail(r, "\"array pattern\" is not a valid Matrix Market type (an array "
                            "lists every value; a pattern needs coordinate)");
    if (s == S_HERMITIAN && f != F_COMPLEX)
        return line_fail(r, "\"%s hermitian\" is not a valid Matrix Market type (hermitian "
                            "needs complex values)", field_name[f]);
    if (s == S_SKEW && f == F_PATTERN)
        return line_fail(r, "\"pattern skew-symmetric\" is not a valid Matrix Market type "
                            "(skew-symmetric needs values)");
    if (array)
        return line_fail(r, "format array is not read here: the pattern of a sparse "
                            "matrix-vector product needs coordinate format");
    r->field = f;
    r->sym = s;
    return HR_OK;
}

/* A decimal ROWS, COLS or NNZ of the size line into *v, at most max. */
static int size_field(reader *r, const char *name, const char *t, size_t len, uint64_t max,
                      uint64_t *v)
{
    char shown[SHOWN];
    hr__text_show_token(shown, sizeof shown, t, len);
    int got = hr__text_parse_dec(t, len, v);
    if (got == -1)
        return line_fail(r, "size line: %s \"%s\" is not a decimal number", name, shown);
    if (got == -2 || *v > max)
        return line_fail(r, "size line: %s %s exceeds the limit %" PRIu64, name, shown, max);
    return HR_OK;
}

/* "ROWS COLS NNZ": check it, then allocate the entries. */
static int read_size(reader *r, const char **tok, const size_t *tlen, int nt)
{
    char shown[SHOWN];
    if (nt < 3)
        return line_fail(r, "size line needs ROWS COLS NNZ, found %d field%s", nt,
                         nt == 1 ? "" : "s");
    if (nt > 3) {
        hr__text_show_token(shown, sizeof shown, tok[3], tlen[3]);
        return line_fail(r, "unexpected \"%s\" after the size line's ROWS COLS NNZ", shown);
    }
    uint64_t rows, cols, nnz;
    int err;
    if ((err = size_field(r, "ROWS", tok[0], tlen[0], UINT32_MAX, &rows)) != HR_OK ||
        (err = size_field(r, "COLS", tok[1], tlen[1], UINT32_MAX, &cols)) != HR_OK ||
        (err = size_field(r, "NNZ", tok[2], tlen[2], HR_MTX_MAX_NNZ, &nnz)) != HR_OK)
        return err;
    if (r->sym != S_GENERAL && rows != cols)
        return line_fail(r, "a %s matrix must be square, but the size line says %" PRIu64
                            " x %" PRIu64, sym_name[r->sym], rows, cols);
    /* An entry line of F fields takes at least 2F bytes (one character and a separator each),
     * the last line 2F - 1 without its newline: the file's size bounds NNZ before anything is
     * allocated for it. */
    uint64_t per = 2 * (uint64_t)(2 + value_fields[r->field]);
    uint64_t room = (r->size + 1) / per;
    if (nnz > room)
        return line_fail(r, "size line: NNZ %" PRIu64 " cannot be: the file's %" PRIu64
                            " bytes hold at most %" PRIu64 " entry lines of %d fields",
                         nnz, r->size, room, 2 + value_fields[r->field]);
    uint64_t cap = r->sym == S_GENERAL ? nnz : 2 * nnz;
    if (cap > 0 && !r->header_only) {
        r->m.row = malloc((size_t)cap * sizeof *r->m.row);
        r->m.col = malloc((size_t)cap * sizeof *r->m.col);
        if (r->m.row == NULL || r->m.col == NULL)
            return hr__work_fail(r->why, r->whylen, HR_ENOMEM,
                                 "%s:%" PRIu64 ": out of memory for %" PRIu64 " entries (%"
                                 PRIu64 " bytes)", r->path, r->line, cap, cap * 8);
    }
    r->m.rows = rows;
    r->m.cols = cols;
    r->want = nnz;
    if (r->header_only)
        r->m.nnz = cap;   /* what hr__mtx_read would store */
    r->size_line = r->line;
    return HR_OK;
}

/* An index of an entry line: 1 .. max, returned 1-based in *v. */
static int entry_index(reader *r, const char *name, const char *t, size_t len, uint64_t max,
                       uint64_t *v)
{
    char shown[SHOWN];
    hr__text_show_token(shown, sizeof shown, t, len);
    int got = hr__text_parse_dec(t, len, v);
    if (got == -1)
        return line_fail(r, "%s index \"%s\" is not a decimal number", name, shown);
    if (got == -2 || *v == 0 || *v > max)
        return line_fail(r, "%s index %s is out of range 1 .. %" PRIu64, name, shown, max);
    return HR_OK;
}

/* "I J [VALUE...]": check it and store it, with its mirror when the file lists one triangle. */
static int read_entry(reader *r, const char **tok, const size_t *tlen, int nt)
{
    char shown[SHOWN];
    if (r->found == r->want)
        return line_fail(r, "more entries than the %" PRIu64 " the size line (line %" PRIu64
                            ") announces", r->want, r->size_line);
    int vf = value_fields[r->field], need = 2 + vf;
    if (nt < need)
        return line_fail(r, "a %s entry needs %s, found %d field%s", field_name[r->field],
                         vf == 0 ? "I J" : vf == 1 ? "I J VALUE" : "I J REAL IMAGINARY", nt,
                         nt == 1 ? "" : "s");
    if (nt > need) {
        hr__text_show_token(shown, sizeof shown, tok[need], tlen[need]);
        return line_fail(r, "unexpected \"%s\" after a %s entry's %d fields", shown,
                         field_name[r->field], need);
    }
    uint64_t i, j;
    int err;
    if ((err = entry_index(r, "row", tok[0], tlen[0], r->m.rows, &i)) != HR_OK ||
        (err = entry_index(r, "column", tok[1], tlen[1], r->m.cols, &j)) != HR_OK)
        return err;
    for (int k = 2; k < need; k++) {
        int ok = r->field == F_INTEGER ? is_integer(tok[k], tlen[k]) : is_real(tok[k], tlen[k]);
        if (!ok) {
            hr__text_show_token(shown, sizeof shown, tok[k], tlen[k]);
            return line_fail(r, "value \"%s\" is not %s", shown,
                             r->field == F_INTEGER ? "an integer" : "a decimal number");
        }
    }
    if (r->sym == S_SKEW && i == j)
        return line_fail(r, "diagonal entry (%" PRIu64 ", %" PRIu64 ") in a skew-symmetric "
                            "matrix, whose diagonal is zero and not listed", i, j);
    if (r->sym != S_GENERAL && i < j)
        return line_fail(r, "entry (%" PRIu64 ", %" PRIu64 ") is above the diagonal: a %s "
                            "file lists only the lower triangle (row %s column)", i, j,
                         sym_name[r->sym], r->sym == S_SKEW ? ">" : ">=");
    r->m.row[r->m.nnz] = (uint32_t)(i - 1);
    r->m.col[r->m.nnz] = (uint32_t)(j - 1);
    r->m.nnz++;
    if (r->sym != S_GENERAL && i != j) {
        r->m.row[r->m.nnz] = (uint32_t)(j - 1);
        r->m.col[r->m.nnz] = (uint32_t)(i - 1);
        r->m.nnz++;
    }
    r->found++;
    return HR_OK;
}

/* One line, by stage. */
static int read_line(reader *r, const char *buf, size_t len)
{
    const char *nul = memchr(buf, '\0', len);
    if (nul != NULL)
        return line_fail(r, "NUL byte at column %zu: not a text file", (size_t)(nul - buf) + 1);
    const char *tok[MAX_TOK];
    size_t tlen[MAX_TOK];
    int nt = hr__text_split(buf, len, tok, tlen, MAX_TOK);
    if (r->stage == 0) {
        r->stage = 1;
        return read_banner(r, tok, tlen, nt);
    }
    if (nt == 0 || tok[0][0] == '%')
        return HR_OK;   /* blank or comment */
    if (r->stage == 1) {
        r->stage = 2;
        return read_size(r, tok, tlen, nt);
    }
    return read_entry(r, tok, tlen, nt);
}

/* Read path up to its size line (header_only) or whole into *m. */
static int read_path(const char *path, hr_mtx *m, int header_only, char *why, size_t whylen)
{
    reader r = { .path = path, .why = why, .whylen = whylen, .header_only = header_only };
    hr_text_reader lr = { .fd = -1 };
    int err = hr__text_open(path, &lr.fd, &r.size, why, whylen);
    if (err != HR_OK)
        return err;
    char *buf = malloc(HR_TEXT_MAX_LINE);
    lr.buf = malloc(HR_TEXT_READ_CHUNK);
    if (buf == NULL || lr.buf == NULL) {
        err = hr__work_fail(why, whylen, HR_ENOMEM, "%s: out of memory for a read buffer", path);
        goto done;
    }
    size_t len;
    int got;
    while ((got = hr__text_next_line(&lr, buf, &len)) != 0) {
        r.line++;
        if (got == -1)
            err = line_fail(&r, "line longer than %d bytes", HR_TEXT_MAX_LINE);
        else if (got == -2)
            err = line_fail(&r, "cannot read: %s", strerror(errno));
        else
            err = read_line(&r, buf, len);
        if (err != HR_OK || (header_only && r.stage == 2))
            goto done;
    }
    /* Faults found at the end are placed on the line after the last. */
    r.line++;
    if (r.stage == 0)
        err = line_fail(&r, "empty file: expected the banner \"%%%%MatrixMarket matrix "
                            "coordinate FIELD SYMMETRY\"");
    else if (r.stage == 1)
        err = line_fail(&r, "end of file before the size line ROWS COLS NNZ");
    else if (r.found < r.want)
        err = line_fail(&r, "end of file after %" PRIu64 " entries; the size line (line %"
                            PRIu64 ") announces %" PRIu64, r.found, r.size_line, r.want);
done:
    free(buf);
    free(lr.buf);
    close(lr.fd);
    if (err != HR_OK) {
        hr__mtx_free(&r.m);
        return err;
    }
    *m = r.m;
    return HR_OK;
}

int hr__mtx_read(const char *path, hr_mtx *m, char *why, size_t whylen)
{
    return read_path(path, m, 0, why, whylen);
}

int hr__mtx_read_size(const char *path, hr_mtx *m, char *why, size_t whylen)
{
    return read_path(path, m, 1, why, whylen);
}

void hr__mtx_free(hr_mtx *m)
{
    if (m == NULL)
        return;
    free(m->row);
    free(m->col);
    *m = (hr_mtx){ 0 };
}

/* The SpMV pattern's sort: a counting pass's digits. */
#define SPMV_DIGIT ((size_t)1 << 16)
enum { SPMV_LOW, SPMV_HIGH, SPMV_OWNER };

/* One stable counting pass over entry indices: in (NULL: 0 .. nnz-1) into out, by the column's
 * low or high 16 bits or by the owner of the row; count holds max(p, 2^16) + 1 slots. */
static void spmv_pass(const hr_mtx *m, int p, const uint32_t *in, uint32_t *out, size_t *count,
                      int by)
{
    size_t nnz = (size_t)m->nnz, slots = by == SPMV_OWNER ? (size_t)p : SPMV_DIGIT;
#define KEY(e) (by == SPMV_LOW    ? (size_t)(m->col[e] & 0xffff)                               \
                : by == SPMV_HIGH ? (size_t)(m->col[e] >> 16)                                  \
                                  : (size_t)hr__mtx_owner(m->row[e], m->rows, p))
#define AT(k) (in != NULL ? in[k] : (uint32_t)(k))
    memset(count, 0, (slots + 1) * sizeof *count);
    for (size_t k = 0; k < nnz; k++)
        count[KEY(AT(k)) + 1]++;
    for (size_t d = 0; d < slots; d++)
        count[d + 1] += count[d];
    for (size_t k = 0; k < nnz; k++)
        out[count[KEY(AT(k))]++] = AT(k);
#undef AT
#undef KEY
}

int hr__mtx_spmv_pattern(const hr_mtx *m, int p, uint64_t *com, char *why, size_t whylen)
{
    if (m->rows != m->cols)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "the SpMV pattern needs a square matrix; this one is %" PRIu64
                             " x %" PRIu64, m->rows, m->cols);
    uint64_t n = m->rows;
    if (p < 1 || (uint64_t)p > n)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "the SpMV pattern needs 1 <= p <= rows = %" PRIu64 "; p = %d", n, p);
    if (n > UINT32_MAX)
        return hr__work_fail(why, whylen, HR_EINVAL,
                             "the SpMV pattern needs rows <= %" PRIu32 "; rows = %" PRIu64,
                             UINT32_MAX, n);
    for (uint64_t k = 0; k < m->nnz; k++)
        if (m->row[k] >= n || m->col[k] >= n)
            return hr__work_fail(why, whylen, HR_EINVAL,
                                 "entry %" PRIu64 " (%" PRIu32 ", %" PRIu32 ", 0-based) is "
                                 "outside the %" PRIu64 " x %" PRIu64 " matrix",
                                 k, m->row[k], m->col[k], n, n);
    /* Sort the entries by (owner of their row, column) with three stable counting passes, least
     * significant first: the column's low 16 bits, its high 16 bits, then the owner. Each
     * processor's columns are then ascending, so the x entries it needs are the distinct values
     * of runs, counted once each. Work and memory follow the entries and p, never the rows: a
     * matrix of 2^32 - 1 rows and no entries costs nothing (a table per row would cost 16 GiB). */
    size_t nnz = (size_t)m->nnz, slots = (size_t)p > SPMV_DIGIT ? (size_t)p : SPMV_DIGIT;
    uint32_t *a = malloc((nnz > 0 ? nnz : 1) * sizeof *a);
    uint32_t *b = malloc((nnz > 0 ? nnz : 1) * sizeof *b);
    size_t *count = malloc((slots + 1) * sizeof *count);
    if (a == NULL || b == NULL || count == NULL) {
        free(a);
        free(b);
        free(count);
        return hr__work_fail(why, whylen, HR_ENOMEM,
                             "out of memory for the SpMV pattern of %" PRIu64 " entries",
                             m->nnz);
    }
    spmv_pass(m, p, NULL, a, count, SPMV_LOW);
    spmv_pass(m, p, a, b, count, SPMV_HIGH);
    spmv_pass(m, p, b, a, count, SPMV_OWNER);
    memset(com, 0, (size_t)p * (size_t)p * sizeof *com);
    int last_j = -1;
    uint32_t last_c = 0;
    for (size_t k = 0; k < nnz; k++) {
        uint32_t c = m->col[a[k]];
        int j = hr__mtx_owner(m->row[a[k]], n, p);
        if (j == last_j && c == last_c)
            continue;
        last_j = j;
        last_c = c;
        int i = hr__mtx_owner(c, n, p);
        if (i != j)
            com[(size_t)i * (size_t)p + (size_t)j] += 8;
    }
    free(a);
    free(b);
    free(count);
    return HR_OK;
}
