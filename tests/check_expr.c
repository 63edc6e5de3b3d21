/* check_expr.c: the config expression evaluator against hand-computed values and error cases. */
#include "hr_test.h"

#include <stdint.h>
#include <string.h>

#include "cli/expr.h"

/* n = 2^20, p = 16 unless a case says otherwise: the default workload on the default machine. */
static const hr_expr_vars np = { .n = 1u << 20, .p = 16, .has_n = 1, .has_p = 1 };

typedef struct good_case {
    const char *s;
    uint64_t    want;
} good_case;

static const good_case good[] = {
    { "0",                      0 },
    { "42",                     42 },
    { "007",                    7 },
    { "2^24",                   16777216 },
    { "4n/p",                   262144 },         /* 4 * 2^20 / 16 */
    { "n/(p*p)",                4096 },           /* 2^20 / 256 */
    { "n/2p",                   32768 },          /* implicit products bind first: n/(2p) */
    { "4 n / p",                262144 },
    { "2(p+1)",                 34 },
    { "(n)(p)",                 16777216 },
    { "n p",                    16777216 },
    { "2n^2",                   2199023255552ull }, /* 2 * 2^40: ^ binds tighter */
    { "2^3^2",                  512 },            /* right associative: 2^9 */
    { "(2^3)^2",                64 },
    { " 3 + 4 * 2 ",            11 },
    { "10 - 2 - 3",             5 },              /* left associative */
    { "100/10/5",               2 },
    { "7/2",                    3 },              /* floor */
    { "-7/2 + 10",              6 },              /* floor(-3.5) = -4 */
    { "-6/3 + 2",               0 },              /* exact negative division */
    { "7/-2 + 4",               0 },              /* floor(-3.5) = -4 */
    { "-2^2 + 8",               4 },              /* -(2^2) */
    { "(-3)^3 + 30",            3 },
    { "(-2)^2",                 4 },
    { "--5",                    5 },
    { "0^0",                    1 },
    { "0^5",                    0 },
    { "1^1000000000000",        1 },
    { "p - 16",                 0 },
    { "0 - 2^63 + 2^63",        0 },              /* negative intermediate values */
    { "18446744073709551615",   UINT64_MAX },
    { "2^63 + (2^63 - 1)",      UINT64_MAX },
    { "4294967296 * 4294967295 + 4294967295", UINT64_MAX },
    { "4K",                     4096 },           /* binary multiples on a number */
    { "2M",                     2097152 },
    { "1G",                     1073741824 },
    { "3K + 1",                 3073 },
    { "n/4K",                   256 },            /* 2^20 / 2^12 */
    { "4K p",                   65536 },          /* an implicit product: 4096 * 16 */
    { "16777215G",              18014397435740160ull }, /* (2^24 - 1) * 2^30 */
};

START_TEST(test_expr_values)
{
    const good_case *c = &good[_i];
    uint64_t got = 12345;
    char why[128] = "";
    int err = hr__expr_eval(c->s, &np, &got, why, sizeof why);
    ck_assert_msg(err == HR_OK, "'%s': %s", c->s, why);
    ck_assert_msg(got == c->want, "'%s' gave %llu, want %llu", c->s, (unsigned long long)got,
                  (unsigned long long)c->want);
}
END_TEST

typedef struct bad_case {
    const char *s;
    int         err;
    const char *why;     /* the exact message */
} bad_case;

static const bad_case bad[] = {
    { "",                     HR_EINVAL, "empty expression" },
    { "   ",                  HR_EINVAL, "empty expression" },
    { "1/0",                  HR_EINVAL, "division by zero at column 2" },
    { "n/(p-p)",              HR_EINVAL, "division by zero at column 2" },
    { "2^",                   HR_EINVAL, "expression ends where a number was expected" },
    { "(1+2",                 HR_EINVAL, "expected ')' for the '(' at column 1, found end" },
    { "1+2)",                 HR_EINVAL, "unexpected ')' at column 4" },
    { "x",                    HR_EINVAL, "unknown name 'x' at column 1 (names are n, p and h)" },
    { "np",                   HR_EINVAL, "unknown name 'np' at column 1 (names are n, p and h)" },
    { "n2",                   HR_EINVAL, "unknown name 'n2' at column 1 (names are n, p and h)" },
    { "18446744073709551616", HR_ERANGE, "number exceeds 2^64-1 at column 20" },
    { "2^64",                 HR_ERANGE, "value exceeds 2^64-1 at column 2" },
    { "2^32 * 2^32",          HR_ERANGE, "value exceeds 2^64-1 at column 6" },
    { "2^63 + 2^63",          HR_ERANGE, "value exceeds 2^64-1 at column 6" },
    { "0-1",                  HR_ERANGE, "value is negative (-1)" },
    { "-p",                   HR_ERANGE, "value is negative (-16)" },
    { "2^-1",                 HR_EINVAL, "negative exponent at column 2" },
    { "1 2",                  HR_EINVAL, "unexpected number at column 3 (write '*' between two "
                                         "numbers)" },
    { "3 $",                  HR_EINVAL, "unexpected '$' at column 3" },
    { "3 \x01",               HR_EINVAL, "unexpected \\x01 at column 3" },
    { "*3",                   HR_EINVAL, "expected a number, name or '(' at column 1, found '*'" },
    { "1.5",                  HR_EINVAL, "unexpected '.' at column 2" },
    { "K",                    HR_EINVAL, "unknown name 'K' at column 1 (names are n, p and h)" },
    { "4Kp",                  HR_EINVAL, "unknown name 'Kp' at column 2 (names are n, p and h)" },
    { "4 K",                  HR_EINVAL, "unknown name 'K' at column 3 (names are n, p and h)" },
    { "17179869184G",         HR_ERANGE, "number exceeds 2^64-1 at column 12" },  /* 2^34 * 2^30 */
};

START_TEST(test_expr_errors)
{
    const bad_case *c = &bad[_i];
    uint64_t got = 777;
    char why[128] = "";
    int err = hr__expr_eval(c->s, &np, &got, why, sizeof why);
    ck_assert_msg(err == c->err, "'%s' returned %d (%s), want %d", c->s, err, why, c->err);
    ck_assert_str_eq(why, c->why);
    ck_assert_msg(got == 777, "'%s' changed *out on failure", c->s);
}
END_TEST

START_TEST(test_expr_unbound)
{
    /* n is being defined: only p is bound. */
    hr_expr_vars v = { .p = 16, .has_p = 1 };
    uint64_t got = 0;
    char why[128];
    ck_assert_int_eq(hr__expr_eval("4n/p", &v, &got, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "'n' is not defined here (column 2)");
    ck_assert_int_eq(hr__expr_eval("p^2", &v, &got, why, sizeof why), HR_OK);
    ck_assert_uint_eq(got, 256);
    /* No names at all: NULL vars. */
    ck_assert_int_eq(hr__expr_eval("p", NULL, &got, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "'p' is not defined here (column 1)");
    ck_assert_int_eq(hr__expr_eval("2^10", NULL, &got, why, sizeof why), HR_OK);
    ck_assert_uint_eq(got, 1024);
}
END_TEST

/* n may use h ("n = p*h"): h is a name where the caller binds it, and hr__expr_uses finds it as
 * the grammar reads names. */
START_TEST(test_expr_h)
{
    hr_expr_vars v = { .p = 16, .h = 3, .has_p = 1, .has_h = 1 };
    uint64_t got = 0;
    char why[128];
    ck_assert_int_eq(hr__expr_eval("p*h", &v, &got, why, sizeof why), HR_OK);
    ck_assert_uint_eq(got, 48);
    ck_assert_int_eq(hr__expr_eval("2h*p + 1", &v, &got, why, sizeof why), HR_OK);
    ck_assert_uint_eq(got, 97);
    ck_assert_int_eq(hr__expr_eval("4h", &np, &got, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "'h' is not defined here (column 2)");
    ck_assert(hr__expr_uses("p*h", 'h'));
    ck_assert(hr__expr_uses("4h", 'h'));
    ck_assert(hr__expr_uses("(h)", 'h'));
    ck_assert(!hr__expr_uses("h2 + hp", 'h'));
    ck_assert(!hr__expr_uses("4n/p", 'h'));
    ck_assert(hr__expr_uses("4n/p", 'n'));
    ck_assert(!hr__expr_uses("", 'h'));
}
END_TEST

/* An exact expression (a real parameter's) refuses a division with a remainder, wherever it
 * stands, and takes one that comes out whole; the same text is floored otherwise. */
START_TEST(test_expr_exact)
{
    hr_expr_vars v = np;
    v.exact = 1;
    uint64_t got = 0;
    char why[128];
    ck_assert_int_eq(hr__expr_eval("3/2", &np, &got, why, sizeof why), HR_OK);
    ck_assert_uint_eq(got, 1);
    ck_assert_int_eq(hr__expr_eval("3/2", &v, &got, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "3/2 at column 2 is not a whole number: write the value as a decimal");
    ck_assert_int_eq(hr__expr_eval("1 + p/3", &v, &got, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "16/3 at column 6 is not a whole number: write the value as a decimal");
    ck_assert_int_eq(hr__expr_eval("p/2 + n/p", &v, &got, why, sizeof why), HR_OK);
    ck_assert_uint_eq(got, 8 + 65536);
}
END_TEST

START_TEST(test_expr_limits)
{
    uint64_t got = 0;
    char why[128], s[512];
    /* 99 parentheses are fine, 150 are refused rather than recursed into. */
    memset(s, '(', 99);
    strcpy(s + 99, "7");
    memset(s + 100, ')', 99);
    s[199] = '\0';
    ck_assert_int_eq(hr__expr_eval(s, NULL, &got, why, sizeof why), HR_OK);
    ck_assert_uint_eq(got, 7);
    memset(s, '-', 150);
    strcpy(s + 150, "1");
    ck_assert_int_eq(hr__expr_eval(s, NULL, &got, why, sizeof why), HR_EINVAL);
    ck_assert_str_eq(why, "expression nested too deeply at column 101");
    /* A small why buffer is still terminated; a NULL one is allowed. */
    char tiny[6];
    ck_assert_int_eq(hr__expr_eval("1/0", NULL, &got, tiny, sizeof tiny), HR_EINVAL);
    ck_assert_str_eq(tiny, "divis");
    ck_assert_int_eq(hr__expr_eval("1/0", NULL, &got, NULL, 0), HR_EINVAL);
}
END_TEST

Suite *hr_expr_suite(void)
{
    Suite *s = suite_create("expr");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, test_expr_values, 0, (int)(sizeof good / sizeof good[0]));
    tcase_add_loop_test(tc, test_expr_errors, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(tc, test_expr_unbound);
    tcase_add_test(tc, test_expr_h);
    tcase_add_test(tc, test_expr_exact);
    tcase_add_test(tc, test_expr_limits);
    suite_add_tcase(s, tc);
    return s;
}
