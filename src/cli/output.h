/* output.h: the files a run writes (--out, --trace, --schedule, --rounds, --html, --regions).
 * Each is written to a temporary file in its own directory and renamed onto its name only when
 * the run ends well, so a run that fails (a usage error found late, a write error) leaves the
 * files that were there as they were and no half-written one; two outputs on one file are
 * refused before anything is written, and so is an output onto a file the run reads (its
 * config, a relation, a matrix, a cost file: hr__outputs_input). "-" (standard output), a file
 * that is not a regular one (/dev/null, a FIFO) and a file in a directory that takes no new
 * file are written in place. The command's thread only. */
#ifndef HREMU_CLI_OUTPUT_H
#define HREMU_CLI_OUTPUT_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define HR_OUTPUTS_MAX 8

typedef struct hr_output {
    const char *opt;      /* the option, "--trace" */
    const char *path;     /* as given */
    FILE       *f;
    char       *tmp;      /* the temporary file, or NULL when written in place */
    char       *target;   /* what tmp is renamed onto: path, or a symbolic link's target */
    char       *canon;    /* a file that does not exist yet: its directory resolved, and its name */
    dev_t       dev;      /* a file that exists: its identity */
    ino_t       ino;
    int         exists;
    int         device;   /* not a regular file: written in place */
    int         shared;   /* a character device (a terminal, /dev/null): may take several */
    int         std;      /* standard output ("-"): neither closed nor renamed here */
} hr_output;

/* A file the run reads, which no output may be. */
typedef struct hr_input {
    const char *what;     /* what it is to the run: "the config", "distribution" */
    char       *path;
    dev_t       dev;
    ino_t       ino;
} hr_input;

typedef struct hr_outputs {
    hr_output v[HR_OUTPUTS_MAX];
    int       n;
    hr_input *in;         /* [nin] */
    int       nin, incap;
} hr_outputs;

/* Say that the run reads path (what: "the config", or the key that names it), before the
 * outputs are opened. A path that names no regular file is not recorded (its reader says what
 * is wrong with it). 0, or -1 out of memory. */
int hr__outputs_input(hr_outputs *s, const char *what, const char *path);

/* Open path for option opt ("-" is standard output) into *f: a temporary file beside it, or
 * the file itself if it is not a regular one. 0, or -1 with one line in why (without the
 * "hremu: " prefix): the file is already another output's or an input's, or cannot be
 * opened. */
int hr__outputs_open(hr_outputs *s, const char *opt, const char *path, FILE **f, char *why,
                     size_t len);
/* Close every output (standard output is left open); if keep and every write succeeded, rename
 * each temporary file onto its name, else remove them all and leave the old files. 0, or -1
 * with one line in why (a write error, a failed rename). The set is empty afterwards, its
 * inputs forgotten. */
int hr__outputs_close(hr_outputs *s, int keep, char *why, size_t len);

#endif /* HREMU_CLI_OUTPUT_H */
