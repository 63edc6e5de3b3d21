/* check_options.c: the option table (cli/options.c) and the parsing, usage and man page made
 * from it, against hand-written expectations. */
#include "hr_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"

/* Parse the words (NULL-terminated, argv[0] first) into o; returns the exit status. */
static int parse(hr_options *o, const char **v, char **room)
{
    int argc = 0;
    while (v[argc] != NULL)
        argc++;
    memset(o, 0, sizeof *o);
    o->sets.v = (const char **)room;
    /* hr__options_parse keeps pointers into argv; the words are string literals here. */
    return hr__options_parse(argc, (char **)(void *)v, o);
}

/* Each row: a unique name and spelling, a value name exactly when it takes a value, and, unless
 * hidden, its --help lines and man page paragraph; a hidden one is in neither. */
START_TEST(test_options_table)
{
    int n = 0, hidden = 0;
    for (const hr_option *o; (o = hr__option_at(n)) != NULL; n++) {
        ck_assert_msg(strncmp(o->name, "--", 2) == 0, "%s", o->name);
        for (int j = 0; j < n; j++)
            ck_assert_msg(strcmp(hr__option_at(j)->name, o->name) != 0, "%s twice", o->name);
        ck_assert_msg((o->arg != NULL) == (o->kind != HR_OPT_FLAG), "%s", o->name);
        ck_assert_msg(o->help != NULL && o->help[0] != '\0', "%s has no help", o->name);
        if (o->forms == 0) {
            hidden++;
            continue;
        }
        ck_assert_msg(o->man != NULL && o->man[strlen(o->man) - 1] == '\n', "%s", o->name);
    }
    ck_assert_int_eq(n, 22);
    ck_assert_int_eq(hidden, 2);
}
END_TEST

/* --calibrate is a form of its own: its usage line names it with --out, and parsing sets it. */
START_TEST(test_options_calibrate)
{
    hr_options o;
    char *room[4];
    const char *a[] = { "hremu-mpi", "--calibrate", "--out", "cost.ini", NULL };
    ck_assert_int_eq(parse(&o, a, room), HR_EXIT_OK);
    ck_assert_int_eq(o.calibrate, 1);
    ck_assert_str_eq(o.out, "cost.ini");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    hr__options_help(f);
    fclose(f);
    ck_assert_msg(strstr(text, "\n       hremu-mpi --calibrate [--out FILE]\n") != NULL, "%s",
                  text);
    free(text);
}
END_TEST

/* Values by "--name VALUE" and "--name=VALUE", flags, an alias, a repeated option in order, a
 * config file, and "--" before a name that starts with a dash. */
START_TEST(test_options_parse)
{
    hr_options o;
    char *room[16];
    const char *a[] = { "hremu", "--trace", "t.csv", "--columns=algorithm,n", "--set", "a.b=1",
                        "x.ini", "--set=c.d=2", "--quiet", "-h", "--trace-limit=5", NULL };
    ck_assert_int_eq(parse(&o, a, room), HR_EXIT_OK);
    ck_assert_str_eq(o.trace, "t.csv");
    ck_assert_str_eq(o.columns, "algorithm,n");
    ck_assert_str_eq(o.config, "x.ini");
    ck_assert_int_eq(o.sets.n, 2);
    ck_assert_str_eq(o.sets.v[0], "a.b=1");
    ck_assert_str_eq(o.sets.v[1], "c.d=2");
    ck_assert_int_eq(o.quiet, 1);
    ck_assert_int_eq(o.help, 1);
    ck_assert_str_eq(o.trace_limit, "5");
    ck_assert_ptr_null(o.out);
    ck_assert_int_eq(o.list, 0);
    const char *b[] = { "hremu", "--", "--odd.ini", NULL };
    ck_assert_int_eq(parse(&o, b, room), HR_EXIT_OK);
    ck_assert_str_eq(o.config, "--odd.ini");
    /* The last of a repeated value wins; "-" is a file name (standard output) or a config. */
    const char *c[] = { "hremu", "--out", "a", "--out", "-", "-", NULL };
    ck_assert_int_eq(parse(&o, c, room), HR_EXIT_OK);
    ck_assert_str_eq(o.out, "-");
    ck_assert_str_eq(o.config, "-");
}
END_TEST

/* What the parser refuses: exit status 2 (its one line goes to stderr). */
START_TEST(test_options_refused)
{
    hr_options o;
    char *room[8];
    const char *unknown[] = { "hremu", "--nosuch", NULL };
    const char *flag_value[] = { "hremu", "--list=1", NULL };
    const char *prefix[] = { "hremu", "--tracex", "f", NULL };
    const char *last[] = { "hremu", "--out", NULL };
    const char *set[] = { "hremu", "--set", "machine.procs", "8", NULL };
    const char *agg[] = { "hremu", "--aggregate", "mean", NULL };
    const char *two[] = { "hremu", "a.ini", "b.ini", NULL };
    const char **bad[] = { unknown, flag_value, prefix, last, set, agg, two };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(parse(&o, bad[i], room) == HR_EXIT_USAGE, "%s %s", bad[i][1], bad[i][2]);
}
END_TEST

/* Write f's output into a string (the caller frees it). */
static char *capture(void (*f)(FILE *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(out);
    f(out);
    fclose(out);
    return buf;
}

/* The man page's tags: a placeholder in italics, a word to write as is in bold, a flag bold;
 * every '-' of a name roff's \-. */
START_TEST(test_options_man)
{
    char *man = capture(hr__options_man);
    ck_assert_msg(strncmp(man, ".SH OPTIONS\n.TP\n.BI \\-\\-set \" SECTION.KEY=VALUE\"\n", 47) == 0,
                  "%s", man);
    ck_assert_msg(strstr(man, "\n.TP\n.B \\-\\-aggregate seed\n") != NULL, "%s", man);
    ck_assert_msg(strstr(man, "\n.TP\n.B \\-\\-trace\\-wall\n") != NULL, "%s", man);
    ck_assert_msg(strstr(man, "man\\-options") == NULL, "a hidden option in %s", man);
    free(man);
    char *help = capture(hr__options_help);
    ck_assert_msg(strstr(help, "\n  --trace-limit N          record at most N events a run "
                               "(default 1000000; more are left\n"
                               "                           out, and stderr says how many)\n")
                  != NULL, "%s", help);
    free(help);
}
END_TEST

Suite *hr_options_suite(void)
{
    Suite *s = suite_create("options");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_options_table);
    tcase_add_test(tc, test_options_calibrate);
    tcase_add_test(tc, test_options_parse);
    tcase_add_test(tc, test_options_refused);
    tcase_add_test(tc, test_options_man);
    suite_add_tcase(s, tc);
    return s;
}
