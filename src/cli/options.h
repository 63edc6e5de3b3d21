/* options.h: the hremu command's options, declared once, one row each in options.c: the name,
 * its value, where it goes, its --help lines and its man page paragraph. Parsing, the usage
 * line, --help and docs/hremu.1's OPTIONS section (`hremu --man-options`) all come from there.
 */
#ifndef HREMU_CLI_OPTIONS_H
#define HREMU_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

/* The config run when none is given (cli.c looks for it). */
#define HR_DEFAULT_CONFIG "configs/default.ini"

/* The command's exit statuses: every row verified, a row failed, a usage or config error. */
enum { HR_EXIT_OK = 0, HR_EXIT_FAILED = 1, HR_EXIT_USAGE = 2 };

/* The values of a repeated option (--set), in the order given. */
typedef struct hr_option_list {
    const char **v;   /* room for argc values (the caller's) */
    int          n;
} hr_option_list;

/* What the command line said: the options' values, NULL (0) when not given. */
typedef struct hr_options {
    const char    *config;
    hr_option_list sets;
    const char    *format, *out, *trace, *trace_limit, *trace_sample;
    int            trace_wall;
    const char    *rounds, *html, *schedule, *regions, *columns, *aggregate;
    int            quiet;
    const char    *topology, *procs;
    int            list, help, version;
    int            man_options, doc_columns;   /* hidden: the docs' generated parts */
    int            calibrate;
} hr_options;

typedef enum hr_option_kind {
    HR_OPT_VALUE,   /* --name VALUE or --name=VALUE: a const char * */
    HR_OPT_FLAG,    /* --name: an int set to 1 */
    HR_OPT_LIST,    /* --name VALUE, again and again: an hr_option_list */
} hr_option_kind;

/* Where an option goes in the usage line: the forms of the command. */
enum {
    HR_FORM_RUN = 1,        /* hremu [CONFIG.ini] [--name ARG] ... */
    HR_FORM_TOPOLOGY = 2,   /* hremu --topology SPEC [--name ARG] ... */
    HR_FORM_ALONE = 4,      /* hremu --list | --help | --version */
    HR_FORM_TOPOLOGY_MODE = 8,  /* the first word of the topology form (--topology SPEC) */
    HR_FORM_CALIBRATE = 16, /* hremu-mpi --calibrate [--out FILE] */
};

/* An option. Rows are in the order of the usage line, --help and the man page; the table ends
 * with a row whose name is NULL. */
typedef struct hr_option {
    const char    *name;      /* "--trace" */
    const char    *alias;     /* another spelling ("-h"), or NULL */
    hr_option_kind kind;
    size_t         at;        /* offsetof(hr_options, FIELD) */
    const char    *arg;       /* the value's name in --help and the man page; in capitals a
                               * placeholder (FILE), else a word to write as is (seed) */
    const char    *usage;     /* the value in the usage line, when not arg ("FILE|-") */
    unsigned       forms;     /* HR_FORM_*; 0: hidden, in no usage, --help or man page */
    /* A value the option refuses: says why on stderr and returns HR_EXIT_USAGE (next: the word
     * after the value, or NULL); else HR_EXIT_OK. */
    int          (*check)(const char *value, const char *next);
    const char    *help;      /* --help's lines, separated by \n */
    const char    *man;       /* the man page's paragraph (roff), ending in a newline */
} hr_option;

/* The i-th option (from 0), or NULL past the last. Any thread. */
const hr_option *hr__option_at(int i);

/* Read argv into o (zeroed by the caller, o->sets.v with room for argc values): HR_EXIT_OK, or
 * HR_EXIT_USAGE with the one-line reason on stderr. */
int hr__options_parse(int argc, char **argv, hr_options *o);

/* "hremu: " fmt (with arg) " (hremu --help shows the usage)" on stderr; returns
 * HR_EXIT_USAGE. */
int hr__usage_error(const char *fmt, const char *arg);

/* The usage lines and --help's text. */
void hr__options_help(FILE *out);

/* docs/hremu.1's OPTIONS section, from ".SH OPTIONS" to the last option's paragraph. */
void hr__options_man(FILE *out);

#endif /* HREMU_CLI_OPTIONS_H */
