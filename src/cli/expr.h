/* expr.h: integer expressions in config values ("2^24", "4n/p", "n/(p*p)").
 *
 * Grammar, loosest first; whitespace may appear between any two tokens:
 *   sum     := product (('+' | '-') product)*
 *   product := juxt (('*' | '/') juxt)*            '/' is floor division
 *   juxt    := unary (unary)*                      implicit product; the second and later factors
 *                                                  must start with a name or '(' ("4n", "2(p+1)")
 *   unary   := '-' unary | power
 *   power   := primary ('^' unary)?                right associative: 2^3^2 = 2^9
 *   primary := DECIMAL [K | M | G] | NAME | '(' sum ')'   4K = 4096, 2M = 2^21, 1G = 2^30
 * Implicit products bind tighter than '*' and '/', as in written mathematics: "n/2p" is n/(2p),
 * and "4n/p" is (4n)/p. Intermediate values may be negative (sign and 64-bit magnitude); the
 * result must lie in 0 .. 2^64-1.
 */
#ifndef HREMU_CLI_EXPR_H
#define HREMU_CLI_EXPR_H

#include <stddef.h>
#include <stdint.h>

/* The names an expression may use; a name whose has_ flag is 0 is "not defined here". exact:
 * the value stands for a real number, so a division that leaves a remainder is an error rather
 * than floored (an algorithm's real parameter: K = 3/2 is not 1). */
typedef struct hr_expr_vars {
    uint64_t n, p, h;
    int      has_n, has_p, has_h;
    int      exact;
} hr_expr_vars;

/* Evaluate s. On success returns HR_OK with the value in *out. On a malformed expression, a
 * negative result, an overflow or a division by zero returns HR_EINVAL or HR_ERANGE with one line
 * in why (at most whylen bytes, always terminated) and leaves *out alone. v may be NULL (no names).
 * Pure function: any thread. */
int hr__expr_eval(const char *s, const hr_expr_vars *v, uint64_t *out, char *why, size_t whylen);

/* Does s name the one-letter variable var ('n', 'p', 'h') anywhere, as the grammar reads names
 * ("4h" and "p*h" do, "h2" does not)? Pure function: any thread. */
int hr__expr_uses(const char *s, char var);

#endif /* HREMU_CLI_EXPR_H */
