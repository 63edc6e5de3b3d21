/* expr.c: a recursive-descent evaluator for the integer expressions of expr.h. */
#include "cli/expr.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <hremu/error.h>

/* Deeper nesting than this is refused, so that no input can exhaust the stack. */
#define MAX_DEPTH 100

/* A signed value as sign and magnitude, so that the whole of 0 .. 2^64-1 is reachable while
 * intermediate results may still be negative. Zero is never negative. */
typedef struct value {
    uint64_t mag;
    int      neg;
} value;

typedef struct parser {
    const char         *s;      /* the whole expression, for column numbers */
    const char         *at;     /* next character to read */
    const hr_expr_vars *v;
    int                 depth;
    int                 opcol;  /* column of the operator being applied, for its errors */
    char               *why;
    size_t              whylen;
} parser;

static int sum(parser *ps, value *out);

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(parser *ps, int code, const char *fmt, ...)
{
    if (ps->why && ps->whylen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->why, ps->whylen, fmt, ap);
        va_end(ap);
    }
    return code;
}

static int column(const parser *ps)
{
    return (int)(ps->at - ps->s) + 1;
}

static void skip(parser *ps)
{
    while (isspace((unsigned char)*ps->at))
        ps->at++;
}

/* Describe the character at ps->at for an error message, printable or not. */
static const char *shown(const parser *ps, char buf[8])
{
    unsigned char c = (unsigned char)*ps->at;
    if (c == '\0')
        snprintf(buf, 8, "end");
    else if (isprint(c))
        snprintf(buf, 8, "'%c'", c);
    else
        snprintf(buf, 8, "\\x%02x", c);
    return buf;
}

static void normalize(value *x)
{
    if (x->mag == 0)
        x->neg = 0;
}

static int overflow(parser *ps)
{
    return fail(ps, HR_ERANGE, "value exceeds 2^64-1 at column %d", ps->opcol);
}

static int add(parser *ps, value a, value b, value *out)
{
    if (a.neg == b.neg) {
        if (a.mag > UINT64_MAX - b.mag)
            return overflow(ps);
        out->mag = a.mag + b.mag;
        out->neg = a.neg;
    } else if (a.mag >= b.mag) {
        out->mag = a.mag - b.mag;
        out->neg = a.neg;
    } else {
        out->mag = b.mag - a.mag;
        out->neg = b.neg;
    }
    normalize(out);
    return HR_OK;
}

static int mul(parser *ps, value a, value b, value *out)
{
    if (a.mag != 0 && b.mag > UINT64_MAX / a.mag)
        return overflow(ps);
    out->mag = a.mag * b.mag;
    out->neg = a.neg != b.neg;
    normalize(out);
    return HR_OK;
}

/* Floor division, so that -7/2 is -4 like the mathematical floor. */
static int divide(parser *ps, value a, value b, value *out)
{
    if (b.mag == 0)
        return fail(ps, HR_EINVAL, "division by zero at column %d", ps->opcol);
    if (ps->v != NULL && ps->v->exact && a.mag % b.mag != 0)
        return fail(ps, HR_EINVAL, "%" PRIu64 "/%" PRIu64 " at column %d is not a whole number: "
                    "write the value as a decimal", a.mag, b.mag, ps->opcol);
    out->mag = a.mag / b.mag;
    out->neg = a.neg != b.neg;
    if (out->neg && a.mag % b.mag != 0)
        out->mag++;
    normalize(out);
    return HR_OK;
}

/* Exponentiation by squaring. Squaring the base only when bits of the exponent remain means the
 * square is a factor of the final result, so its overflow is the result's overflow. */
static int power(parser *ps, value base, value e, value *out)
{
    if (e.neg)
        return fail(ps, HR_EINVAL, "negative exponent at column %d", ps->opcol);
    value r = { 1, 0 };
    int odd = (int)(e.mag & 1);
    value b = { base.mag, 0 };
    for (uint64_t k = e.mag; k != 0; k >>= 1) {
        if ((k & 1) && mul(ps, r, b, &r) < 0)
            return HR_ERANGE;
        if ((k >> 1) != 0 && mul(ps, b, b, &b) < 0)
            return HR_ERANGE;
    }
    r.neg = base.neg && odd;
    normalize(&r);
    *out = r;
    return HR_OK;
}

static int is_name_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static int number(parser *ps, value *out)
{
    uint64_t x = 0;
    while (isdigit((unsigned char)*ps->at)) {
        unsigned d = (unsigned)(*ps->at - '0');
        if (x > (UINT64_MAX - d) / 10)
            return fail(ps, HR_ERANGE, "number exceeds 2^64-1 at column %d", column(ps));
        x = x * 10 + d;
        ps->at++;
    }
    /* A binary multiple written on the number: 4K, 2M, 1G (a name's letter after it would make
     * it a name: "4Kp" is 4 times the unknown name Kp). */
    static const char units[] = "KMG";
    const char *u = *ps->at != '\0' ? strchr(units, *ps->at) : NULL;
    if (u != NULL && !is_name_start(ps->at[1]) && !isdigit((unsigned char)ps->at[1])) {
        unsigned shift = 10 * (unsigned)(u - units + 1);
        if (x > UINT64_MAX >> shift)
            return fail(ps, HR_ERANGE, "number exceeds 2^64-1 at column %d", column(ps));
        x <<= shift;
        ps->at++;
    }
    out->mag = x;
    out->neg = 0;
    return HR_OK;
}

static int name(parser *ps, value *out)
{
    const char *start = ps->at;
    int col = column(ps);
    while (is_name_start(*ps->at) || isdigit((unsigned char)*ps->at))
        ps->at++;
    int len = (int)(ps->at - start);
    if (len == 1 && (*start == 'n' || *start == 'p' || *start == 'h')) {
        const hr_expr_vars *v = ps->v;
        int bound = v != NULL && (*start == 'n' ? v->has_n : *start == 'p' ? v->has_p : v->has_h);
        if (!bound)
            return fail(ps, HR_EINVAL, "'%c' is not defined here (column %d)", *start, col);
        out->mag = *start == 'n' ? v->n : *start == 'p' ? v->p : v->h;
        out->neg = 0;
        return HR_OK;
    }
    if (len > 20)
        len = 20;
    return fail(ps, HR_EINVAL, "unknown name '%.*s' at column %d (names are n, p and h)", len,
                start, col);
}

static int primary(parser *ps, value *out)
{
    char buf[8];
    skip(ps);
    if (isdigit((unsigned char)*ps->at))
        return number(ps, out);
    if (is_name_start(*ps->at))
        return name(ps, out);
    if (*ps->at == '(') {
        int col = column(ps);
        ps->at++;
        int err = sum(ps, out);
        if (err < 0)
            return err;
        skip(ps);
        if (*ps->at != ')')
            return fail(ps, HR_EINVAL, "expected ')' for the '(' at column %d, found %s", col,
                        shown(ps, buf));
        ps->at++;
        return HR_OK;
    }
    if (*ps->at == '\0')
        return fail(ps, HR_EINVAL, "expression ends where a number was expected");
    return fail(ps, HR_EINVAL, "expected a number, name or '(' at column %d, found %s",
                column(ps), shown(ps, buf));
}

static int unary(parser *ps, value *out);

static int power_term(parser *ps, value *out)
{
    int err = primary(ps, out);
    if (err < 0)
        return err;
    skip(ps);
    if (*ps->at != '^')
        return HR_OK;
    int col = column(ps);
    ps->at++;
    value e;
    if ((err = unary(ps, &e)) < 0)
        return err;
    ps->opcol = col;
    return power(ps, *out, e, out);
}

static int unary(parser *ps, value *out)
{
    if (++ps->depth > MAX_DEPTH)
        return fail(ps, HR_EINVAL, "expression nested too deeply at column %d", column(ps));
    skip(ps);
    int err;
    if (*ps->at == '-') {
        ps->at++;
        if ((err = unary(ps, out)) == HR_OK) {
            out->neg = !out->neg;
            normalize(out);
        }
    } else {
        err = power_term(ps, out);
    }
    ps->depth--;
    return err;
}

static int juxt(parser *ps, value *out)
{
    int err = unary(ps, out);
    while (err == HR_OK) {
        skip(ps);
        if (!is_name_start(*ps->at) && *ps->at != '(')
            break;
        int col = column(ps);
        value r;
        if ((err = unary(ps, &r)) == HR_OK) {
            ps->opcol = col;
            err = mul(ps, *out, r, out);
        }
    }
    return err;
}

static int product(parser *ps, value *out)
{
    int err = juxt(ps, out);
    while (err == HR_OK) {
        skip(ps);
        char op = *ps->at;
        if (op != '*' && op != '/')
            break;
        int col = column(ps);
        ps->at++;
        value r;
        if ((err = juxt(ps, &r)) == HR_OK) {
            ps->opcol = col;
            err = op == '*' ? mul(ps, *out, r, out) : divide(ps, *out, r, out);
        }
    }
    return err;
}

static int sum(parser *ps, value *out)
{
    int err = product(ps, out);
    while (err == HR_OK) {
        skip(ps);
        char op = *ps->at;
        if (op != '+' && op != '-')
            break;
        int col = column(ps);
        ps->at++;
        value r;
        if ((err = product(ps, &r)) == HR_OK) {
            ps->opcol = col;
            r.neg = op == '-' ? !r.neg : r.neg;
            normalize(&r);
            err = add(ps, *out, r, out);
        }
    }
    return err;
}

int hr__expr_eval(const char *s, const hr_expr_vars *v, uint64_t *out, char *why, size_t whylen)
{
    parser ps = { .s = s, .at = s, .v = v, .why = why, .whylen = whylen };
    char buf[8];
    if (why && whylen > 0)
        why[0] = '\0';
    skip(&ps);
    if (*ps.at == '\0')
        return fail(&ps, HR_EINVAL, "empty expression");
    value x;
    int err = sum(&ps, &x);
    if (err < 0)
        return err;
    skip(&ps);
    if (*ps.at != '\0') {
        if (isdigit((unsigned char)*ps.at))
            return fail(&ps, HR_EINVAL, "unexpected number at column %d (write '*' between "
                        "two numbers)", column(&ps));
        return fail(&ps, HR_EINVAL, "unexpected %s at column %d", shown(&ps, buf), column(&ps));
    }
    if (x.neg)
        return fail(&ps, HR_ERANGE, "value is negative (-%" PRIu64 ")", x.mag);
    *out = x.mag;
    return HR_OK;
}

int hr__expr_uses(const char *s, char var)
{
    while (*s != '\0') {
        if (is_name_start(*s)) {
            const char *start = s;
            while (is_name_start(*s) || isdigit((unsigned char)*s))
                s++;
            if (s - start == 1 && *start == var)
                return 1;
        } else {
            s++;
        }
    }
    return 0;
}
