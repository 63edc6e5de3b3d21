/* output.c: outputs written aside and renamed into place (output.h). */
#include "cli/output.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The identity of a file that exists (st), for comparing outputs and inputs. */
static void identity(hr_output *o, const struct stat *st)
{
    o->exists = 1;
    o->dev = st->st_dev;
    o->ino = st->st_ino;
    o->device = !S_ISREG(st->st_mode);
    o->shared = S_ISCHR(st->st_mode);
}

/* Where path's file is: its identity if it exists (standard output's, for "-"), else its
 * directory resolved and its name (two spellings of one new file, "r.csv" and "./r.csv",
 * compare equal). 0, or -1 with errno set when the directory cannot be resolved. */
static int identify(hr_output *o)
{
    struct stat st;
    if (o->std) {
        if (fstat(STDOUT_FILENO, &st) == 0)
            identity(o, &st);
        else
            o->exists = o->device = o->shared = 1;   /* closed: nothing to compare */
        return 0;
    }
    if (stat(o->path, &st) == 0) {
        identity(o, &st);
        return 0;
    }
    if (errno != ENOENT)
        return -1;
    char *a = strdup(o->path), *b = strdup(o->path);
    char *dir = a ? realpath(dirname(a), NULL) : NULL;
    if (dir != NULL && b != NULL) {
        const char *base = basename(b);
        size_t n = strlen(dir) + strlen(base) + 2;
        if ((o->canon = malloc(n)) != NULL)
            snprintf(o->canon, n, "%s/%s", dir, base);
    }
    int err = errno;
    free(dir);
    free(a);
    free(b);
    errno = o->canon == NULL ? (err ? err : ENOMEM) : 0;
    return o->canon == NULL ? -1 : 0;
}

/* One file, which two outputs would interleave in or one would replace under the other. A
 * terminal or /dev/null may take several; a pipe, a FIFO or a regular file may not. */
static int same_file(const hr_output *a, const hr_output *b)
{
    if (a->exists != b->exists)
        return 0;
    if (a->exists)
        return a->dev == b->dev && a->ino == b->ino && !a->shared;
    return strcmp(a->canon, b->canon) == 0;
}

int hr__outputs_input(hr_outputs *s, const char *what, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    if (s->nin == s->incap) {
        int cap = s->incap ? 2 * s->incap : 8;
        hr_input *in = realloc(s->in, (size_t)cap * sizeof *in);
        if (in == NULL)
            return -1;
        s->in = in;
        s->incap = cap;
    }
    char *copy = strdup(path);
    if (copy == NULL)
        return -1;
    s->in[s->nin++] = (hr_input){ .what = what, .path = copy, .dev = st.st_dev, .ino = st.st_ino };
    return 0;
}

/* The input that o would overwrite, or NULL. */
static const hr_input *read_here(const hr_outputs *s, const hr_output *o)
{
    for (int i = 0; o->exists && i < s->nin; i++)
        if (s->in[i].dev == o->dev && s->in[i].ino == o->ino)
            return &s->in[i];
    return NULL;
}

/* A temporary file in target's directory, ".NAME.XXXXXX", with the mode the file has or a new
 * file would get. */
static FILE *open_aside(hr_output *o)
{
    char *a = strdup(o->target), *b = strdup(o->target);
    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        errno = ENOMEM;
        return NULL;
    }
    const char *dir = dirname(a), *base = basename(b);
    size_t n = strlen(dir) + strlen(base) + 10;
    o->tmp = malloc(n);
    if (o->tmp != NULL)
        snprintf(o->tmp, n, "%s/.%s.XXXXXX", dir, base);
    free(a);
    free(b);
    if (o->tmp == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        free(o->tmp);
        o->tmp = NULL;
        return NULL;
    }
    struct stat st;
    mode_t mode;
    if (o->exists && stat(o->target, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);   /* no other thread runs yet: nothing else creates files */
        umask(mask);
        mode = 0666 & ~mask;
    }
    FILE *f = NULL;
    if (fchmod(fd, mode) != 0 || (f = fdopen(fd, "w")) == NULL) {
        int err = errno;
        close(fd);
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        errno = err;
    }
    return f;
}

int hr__outputs_open(hr_outputs *s, const char *opt, const char *path, FILE **f, char *why,
                     size_t len)
{
    *f = NULL;
    if (path[0] == '\0') {
        snprintf(why, len, "%s takes a file name (or -), not an empty one", opt);
        return -1;
    }
    if (s->n == HR_OUTPUTS_MAX) {
        snprintf(why, len, "%s %s: too many outputs", opt, path);
        return -1;
    }
    hr_output *o = &s->v[s->n];
    *o = (hr_output){ .opt = opt, .path = path, .std = strcmp(path, "-") == 0 };
    if (identify(o) != 0) {
        snprintf(why, len, "%s: cannot open: %s", path, strerror(errno));
        free(o->canon);
        return -1;
    }
    for (int i = 0; i < s->n; i++)
        if (same_file(&s->v[i], o)) {
            snprintf(why, len, "%s and %s write to the same file, %s: give each its own",
                     s->v[i].opt, opt, o->std ? s->v[i].path : path);
            free(o->canon);
            return -1;
        }
    const hr_input *in = o->shared ? NULL : read_here(s, o);
    if (in != NULL) {
        snprintf(why, len, "%s%s%s would overwrite %s, which this run reads (%s): give it "
                 "another file", opt, o->std ? "" : " ", o->std ? "" : path, in->path, in->what);
        return -1;
    }
    if (o->std) {
        o->f = stdout;
    } else if (o->device) {
        o->f = fopen(path, "w");
    } else {
        /* rename onto a symbolic link's target, not over the link */
        o->target = o->exists ? realpath(path, NULL) : strdup(path);
        o->f = o->target != NULL ? open_aside(o) : NULL;
        /* A file one may write in a directory one may not: written in place, as before. */
        if (o->f == NULL && o->exists && (errno == EACCES || errno == EPERM || errno == EROFS))
            o->f = fopen(path, "w");
    }
    if (o->f == NULL) {
        snprintf(why, len, "%s: cannot open: %s", path, strerror(errno));
        free(o->target);
        free(o->canon);
        return -1;
    }
    s->n++;
    *f = o->f;
    return 0;
}

int hr__outputs_close(hr_outputs *s, int keep, char *why, size_t len)
{
    int rc = 0;
    for (int i = 0; i < s->n; i++) {
        hr_output *o = &s->v[i];
        if (o->std)
            continue;      /* the command flushes and checks it (cli.c) */
        int bad = ferror(o->f);
        if (fclose(o->f) != 0 || bad) {
            if (rc == 0)
                snprintf(why, len, "%s: write error", o->path);
            rc = -1;
        }
    }
    for (int i = 0; i < s->n; i++) {
        hr_output *o = &s->v[i];
        if (o->tmp != NULL && keep && rc == 0 && rename(o->tmp, o->target) != 0) {
            snprintf(why, len, "%s: cannot write: %s", o->path, strerror(errno));
            rc = -1;
        }
        if (o->tmp != NULL && (!keep || rc != 0))
            unlink(o->tmp);   /* a rename that failed, or every one after a failed write */
        free(o->tmp);
        free(o->target);
        free(o->canon);
    }
    s->n = 0;
    for (int i = 0; i < s->nin; i++)
        free(s->in[i].path);
    free(s->in);
    s->in = NULL;
    s->nin = s->incap = 0;
    return rc;
}
