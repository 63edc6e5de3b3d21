/* config.c: a config's storage, parsing with libinih, --set overrides and the whole-sweep check.
 *
 * Debian's libinih is built without line numbers for handlers (INI_HANDLER_LINENO 0), so we hand
 * ini_parse_stream our own reader over the file's bytes: it counts lines, and it also looks at
 * every line before libinih does, to catch what libinih would let pass silently: NUL bytes, lines
 * too long, section names it would truncate (it keeps 49 bytes), and section headers with nothing
 * under them (libinih calls the handler only for keys).
 */
#include "cli/config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "cli/config_int.h"
#include "work/textfile.h"

#define INIH_MAX_SECTION 50   /* libinih's section buffer, terminator included */

/* ---- storage --------------------------------------------------------------------------------- */

int hr__config_fail(hr_config_error *e, int code, const char *where, const char *fmt, ...)
{
    if (e == NULL)
        return code;
    size_t used = 0;
    if (where != NULL) {
        int k = snprintf(e->msg, sizeof e->msg, "%s: ", where);
        used = k > 0 && (size_t)k < sizeof e->msg ? (size_t)k : sizeof e->msg - 1;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg + used, sizeof e->msg - used, fmt, ap);
    va_end(ap);
    /* Values from the file end up in messages: keep them one line, with no terminal controls. */
    for (char *s = e->msg; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = '?';
    return code;
}

static int oom(hr_config_error *e, const char *where)
{
    return hr__config_fail(e, HR_ENOMEM, where, "out of memory");
}

static void free_items(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

static void free_entry(hr_config_entry *en)
{
    free(en->section);
    free(en->key);
    free(en->where);
    free_items(en->items, en->nitems);
}

void hr__config_free(hr_config *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < c->nentries; i++)
        free_entry(&c->entries[i]);
    for (size_t i = 0; i < c->nsections; i++)
        free(c->sections[i].name);
    free(c->entries);
    free(c->sections);
    free(c->name);
    free(c);
}

static hr_config_entry *find_entry(const hr_config *c, const char *section, const char *key)
{
    for (size_t i = 0; i < c->nentries; i++)
        if (strcmp(c->entries[i].section, section) == 0 && strcmp(c->entries[i].key, key) == 0)
            return &c->entries[i];
    return NULL;
}

const hr_config_entry *hr__config_find(const hr_config *c, const char *section, const char *key)
{
    return find_entry(c, section, key);
}

static const hr_config_section *find_section(const hr_config *c, const char *name)
{
    for (size_t i = 0; i < c->nsections; i++)
        if (strcmp(c->sections[i].name, name) == 0)
            return &c->sections[i];
    return NULL;
}

/* Grow *arr (of *cap elements of size) so that it holds at least need; 0 or HR_ENOMEM. */
static int grow(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return HR_OK;
    size_t n = *cap ? *cap * 2 : 8;
    void *p = realloc(*arr, n * size);
    if (p == NULL)
        return HR_ENOMEM;
    *arr = p;
    *cap = n;
    return HR_OK;
}

void hr__config_locate(const hr_config *c, const char *section, char *buf, size_t len)
{
    const hr_config_section *s = find_section(c, section);
    if (s != NULL)
        snprintf(buf, len, "%s:%d", c->name, s->line);
    else
        snprintf(buf, len, "%s", c->name);
}

void hr__config_locate_said(const hr_config *c, const char *section, const char *msg,
                            char *buf, size_t len)
{
    char key[64];
    size_t n = msg != NULL ? strspn(msg, "abcdefghijklmnopqrstuvwxyz_") : 0;
    const hr_config_entry *e = NULL;
    if (n > 0 && n < sizeof key) {
        memcpy(key, msg, n);
        key[n] = '\0';
        e = hr__config_find(c, section, key);
    }
    if (e != NULL)
        snprintf(buf, len, "%s", e->where);
    else
        hr__config_locate(c, section, buf, len);
}

int hr__config_each_input(const hr_config *c,
                          int (*fn)(void *arg, const char *what, const char *path), void *arg)
{
    int r = fn(arg, "the config", c->name);
    for (size_t i = 0; i < c->nentries && r == 0; i++) {
        const hr_config_entry *e = &c->entries[i];
        for (size_t k = 0; k < e->nitems && r == 0; k++)
            if (strncmp(e->items[k], "file:", 5) == 0 && e->items[k][5] != '\0')
                r = fn(arg, e->key, e->items[k] + 5);
    }
    return r;
}

/* ---- names and values ------------------------------------------------------------------------ */

/* "name1, name2, ..." of a fixed section's keys or an algorithm's parameters. */
static void key_names(const char *section, char *buf, size_t len)
{
    const hr_config_key *keys = hr__config_keys(section);
    const hr_algorithm *alg = keys ? NULL : hr_algorithm_find(section);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; used < len; i++) {
        const char *name = keys ? keys[i].name
                                : (alg && alg->params ? alg->params[i].name : NULL);
        if (name == NULL)
            break;
        int k = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", name);
        used += k > 0 ? (size_t)k : 0;
    }
    if (buf[0] == '\0')
        snprintf(buf, len, "none");
}

static int section_known(const char *name)
{
    return hr__config_keys(name) != NULL || hr_algorithm_find(name) != NULL;
}

static int key_known(const char *section, const char *key)
{
    const hr_config_key *keys = hr__config_keys(section);
    if (keys != NULL) {
        for (; keys->name; keys++)
            if (strcmp(keys->name, key) == 0)
                return 1;
        return 0;
    }
    const hr_algorithm *alg = hr_algorithm_find(section);
    for (const hr_param_spec *s = alg ? alg->params : NULL; s && s->name; s++)
        if (strcmp(s->name, key) == 0)
            return 1;
    return 0;
}

static int check_key(const char *where, const char *section, const char *key, hr_config_error *e)
{
    char names[512];
    if (!section_known(section))
        return hr__config_fail(e, HR_EINVAL, where, "unknown section [%.100s]", section);
    if (key_known(section, key))
        return HR_OK;
    key_names(section, names, sizeof names);
    return hr__config_fail(e, HR_EINVAL, where, "unknown key '%.100s' in [%s] (keys: %s)", key,
                           section, names);
}

/* Split value at commas into trimmed, non-empty items. */
static int split_items(const char *where, const char *key, const char *value, char ***out,
                       size_t *nout, hr_config_error *e)
{
    size_t n = 1, k = 0;
    for (const char *s = value; *s; s++)
        n += *s == ',';
    char **items = calloc(n, sizeof *items);
    if (items == NULL)
        return oom(e, where);
    for (const char *at = value;; at++) {
        size_t len = strcspn(at, ",");
        const char *start = at, *end = at + len;
        while (start < end && isspace((unsigned char)*start))
            start++;
        while (end > start && isspace((unsigned char)end[-1]))
            end--;
        if (start == end) {
            free_items(items, k);
            return hr__config_fail(e, HR_EINVAL, where, n == 1 ? "%s has no value"
                                   : "%s: empty item in the list", key);
        }
        if ((items[k++] = strndup(start, (size_t)(end - start))) == NULL) {
            free_items(items, k - 1);
            return oom(e, where);
        }
        at += len;
        if (*at == '\0')
            break;
    }
    *out = items;
    *nout = k;
    return HR_OK;
}

static int add_entry(hr_config *c, const char *where, int line, const char *section,
                     const char *key, char **items, size_t nitems, hr_config_error *e)
{
    if (grow((void **)&c->entries, &c->entries_cap, c->nentries + 1, sizeof *c->entries) < 0)
        return oom(e, where);
    hr_config_entry en = { .section = strdup(section), .key = strdup(key), .where = strdup(where),
                           .line = line, .items = items, .nitems = nitems };
    if (en.section == NULL || en.key == NULL || en.where == NULL) {
        free(en.section);
        free(en.key);
        free(en.where);
        return oom(e, where);
    }
    c->entries[c->nentries++] = en;
    return HR_OK;
}

/* ---- parsing --------------------------------------------------------------------------------- */

/* The state of one parse: the bytes, where the reader is, and the first error. libinih stops at
 * the first error we report (ini_stop_on_first_error), so there is only ever one. */
typedef struct parse_state {
    hr_config      *c;
    const char     *text;
    size_t          len, pos;
    int             line;        /* the line libinih is working on, from 1 */
    int             mid_line;    /* the last chunk handed out did not end a line */
    int             err;         /* the first error (e holds its message), or HR_OK */
    hr_config_error *e;
    const char     *dir;         /* the config file's directory, for file: paths; or NULL */
} parse_state;

static int parse_fail(parse_state *ps, int code, const char *fmt, ...)
{
    char where[300], msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(where, sizeof where, "%s:%d", ps->c->name, ps->line);
    ps->err = code;
    return hr__config_fail(ps->e, code, where, "%s", msg);
}

/* libinih's inline-comment rule: ';' or '#' after whitespace starts a comment. Returns the
 * position of the first of chars outside a comment, or of the comment, or of the line's end. */
static size_t scan_to(const char *s, size_t n, const char *chars)
{
    int was_space = 0;
    size_t i = 0;
    for (; i < n && !strchr(chars, s[i]); i++) {
        if (was_space && (s[i] == ';' || s[i] == '#'))
            break;
        was_space = isspace((unsigned char)s[i]);
    }
    return i;
}

/* A "[name]" line: check the name and remember it, as libinih will not tell us about sections
 * without keys. s[0..n) is the line after its leading white space, s[0] == '['. */
static int note_section(parse_state *ps, const char *s, size_t n)
{
    size_t close = 1 + scan_to(s + 1, n - 1, "]");
    if (close >= n || s[close] != ']')
        return parse_fail(ps, HR_EINVAL, "section header without a closing ']'");
    size_t rest = close + 1;
    while (rest < n && isspace((unsigned char)s[rest]))
        rest++;
    if (rest < n && s[rest] != ';' && s[rest] != '#')
        return parse_fail(ps, HR_EINVAL, "text after the section header's ']'");
    size_t k = close - 1;
    if (k == 0 || k >= INIH_MAX_SECTION)
        return parse_fail(ps, HR_EINVAL, k ? "section name longer than %d bytes"
                          : "empty section name", INIH_MAX_SECTION - 1);
    char name[INIH_MAX_SECTION];
    memcpy(name, s + 1, k);
    name[k] = '\0';
    if (strcmp(name, "cost") == 0)      /* the first section of a cost file */
        return parse_fail(ps, HR_EINVAL, "[cost] begins a cost file, not a config: a config "
                          "names it as [machine] cost = file:PATH");
    if (!section_known(name))
        return parse_fail(ps, HR_EINVAL, "unknown section [%s]", name);
    const hr_config_section *old = find_section(ps->c, name);
    if (old != NULL)
        return parse_fail(ps, HR_EINVAL, "duplicate section [%s] (first at line %d)", name,
                          old->line);
    hr_config *c = ps->c;
    char *copy = strdup(name);
    if (copy == NULL || grow((void **)&c->sections, &c->sections_cap, c->nsections + 1,
                             sizeof *c->sections) < 0) {
        free(copy);
        return parse_fail(ps, HR_ENOMEM, "out of memory");
    }
    c->sections[c->nsections++] = (hr_config_section){ .name = copy, .line = ps->line };
    return HR_OK;
}

/* Look at the line starting at ps->pos before libinih reads it. */
static int inspect_line(parse_state *ps)
{
    const char *s = ps->text + ps->pos;
    size_t left = ps->len - ps->pos;
    const char *nl = memchr(s, '\n', left);
    size_t n = nl ? (size_t)(nl - s) : left;
    if (memchr(s, '\0', n) != NULL)
        return parse_fail(ps, HR_EINVAL, "NUL byte in the line");
    const char *cr = memchr(s, '\r', n);
    if (cr != NULL && (size_t)(cr - s) + 1 < n)   /* CRLF is fine; a CR inside a line is not */
        return parse_fail(ps, HR_EINVAL, "a carriage return inside the line (old Mac line ends?): "
                          "end lines with a newline");
    if (n >= HR_CONFIG_MAX_LINE)
        return parse_fail(ps, HR_EINVAL, "line longer than %d bytes", HR_CONFIG_MAX_LINE - 1);
    if (ps->line == 1 && n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) {
        s += 3;   /* libinih skips a UTF-8 byte order mark */
        n -= 3;
    }
    while (n > 0 && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    return n > 0 && *s == '[' ? note_section(ps, s, n) : HR_OK;
}

/* libinih's fgets-like reader: up to num-1 bytes, stopping after a newline. A long line comes in
 * several calls; only the first of them starts a new line. Returning NULL ends the parse. */
static char *read_line(char *str, int num, void *stream)
{
    parse_state *ps = stream;
    if (ps->err < 0 || ps->pos >= ps->len || num < 2)
        return NULL;
    if (!ps->mid_line) {
        ps->line++;
        if (inspect_line(ps) < 0)
            return NULL;
    }
    size_t want = (size_t)num - 1, k = 0;
    while (k < want && ps->pos < ps->len) {
        char ch = ps->text[ps->pos++];
        str[k++] = ch;
        if (ch == '\n')
            break;
    }
    str[k] = '\0';
    ps->mid_line = str[k - 1] != '\n';
    return str;
}

/* A [workload] value, or [machine] cost, "file:PATH" with a relative PATH names a file beside
 * the config, as its reader expects: PATH becomes DIR/PATH, DIR being the config file's
 * directory (ps->dir, NULL for a config read from the current directory or from text). --set
 * values stay relative to the current directory, as any command-line path is. */
static int beside_config(parse_state *ps, char **item)
{
    const char *path = *item + 5;
    if (ps->dir == NULL || strncmp(*item, "file:", 5) != 0 || path[0] == '/' || path[0] == '\0')
        return HR_OK;
    size_t len = strlen(ps->dir) + strlen(path) + 7;
    char *joined = malloc(len);
    if (joined == NULL)
        return parse_fail(ps, HR_ENOMEM, "out of memory");
    snprintf(joined, len, "file:%s/%s", ps->dir, path);
    free(*item);
    *item = joined;
    return HR_OK;
}

static int on_key(void *user, const char *section, const char *key, const char *value)
{
    parse_state *ps = user;
    char where[300];
    if (ps->err < 0)
        return 0;
    snprintf(where, sizeof where, "%s:%d", ps->c->name, ps->line);
    if (section[0] == '\0') {
        parse_fail(ps, HR_EINVAL, "key '%.100s' outside any section", key);
        return 0;
    }
    const hr_config_entry *old = find_entry(ps->c, section, key);
    int err = check_key(where, section, key, ps->e);
    if (err == HR_OK && old != NULL)
        err = hr__config_fail(ps->e, HR_EINVAL, where,
                              "duplicate key '%s' in [%s] (first at line %d)", key, section,
                              old->line);
    char **items = NULL;
    size_t n = 0;
    if (err == HR_OK)
        err = split_items(where, key, value, &items, &n, ps->e);
    int paths = strcmp(section, "workload") == 0 ||
                (strcmp(section, "machine") == 0 && strcmp(key, "cost") == 0);
    for (size_t i = 0; err == HR_OK && i < n && paths; i++)
        err = beside_config(ps, &items[i]);
    if (err == HR_OK)
        err = add_entry(ps->c, where, ps->line, section, key, items, n, ps->e);
    if (err < 0)
        free_items(items, n);
    ps->err = err;
    return err == HR_OK;
}

/* libinih's settings are process-wide; these are the ones our syntax needs. */
static void configure_inih(void)
{
    static char comment_prefixes[] = ";#";
    ini_inline_comment_prefixes = comment_prefixes;
    ini_start_comment_prefixes = comment_prefixes;
    ini_allow_inline_comments = true;
    ini_allow_multiline = false;
    ini_allow_no_value = false;
    ini_allow_bom = true;
    ini_use_stack = false;
    ini_allow_realloc = true;
    ini_max_line = HR_CONFIG_MAX_LINE + 16;   /* above our own limit, so we see long lines first */
    ini_stop_on_first_error = true;
}

static hr_config *config_new(const char *name)
{
    hr_config *c = calloc(1, sizeof *c);
    if (c != NULL && (c->name = strdup(name)) == NULL) {
        free(c);
        c = NULL;
    }
    return c;
}

static int parse(const char *name, const char *dir, const char *text, size_t len,
                 hr_config **out, hr_config_error *e)
{
    hr_config *c = config_new(name);
    if (c == NULL)
        return oom(e, name);
    parse_state ps = { .c = c, .text = text, .len = len, .e = e, .dir = dir };
    configure_inih();
    int bad = ini_parse_stream(read_line, &ps, on_key, &ps);
    int err = ps.err;
    if (err == HR_OK && bad == -2)
        err = oom(e, name);
    else if (err == HR_OK && bad != 0) {
        ps.line = bad;
        err = parse_fail(&ps, HR_EINVAL, "expected KEY = VALUE, [SECTION] or a comment");
    }
    if (err < 0) {
        hr__config_free(c);
        return err;
    }
    *out = c;
    return HR_OK;
}

/* Read the whole file: configs are small, and the parse then works on bytes, NULs included. Only
 * a regular file is opened (hr__text_open): a FIFO would wait for a writer forever, a device
 * might never end. */
static int read_file(const char *path, char **text, size_t *len, hr_config_error *e)
{
    char why[512];
    int fd;
    if (hr__text_open(path, &fd, NULL, why, sizeof why) != HR_OK)
        return hr__config_fail(e, HR_ESYS, NULL, "%s", why);
    FILE *f = fdopen(fd, "rb");
    if (f == NULL) {
        close(fd);
        return hr__config_fail(e, HR_ESYS, path, "cannot open: %s", strerror(errno));
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    int err = buf ? HR_OK : oom(e, path);
    while (err == HR_OK) {
        n += fread(buf + n, 1, cap - n, f);
        if (ferror(f))
            err = hr__config_fail(e, HR_ESYS, path, "cannot read: %s", strerror(errno));
        else if (feof(f))
            break;
        else if (cap >= (size_t)HR_CONFIG_MAX_FILE)
            err = hr__config_fail(e, HR_EINVAL, path, "larger than %d bytes", HR_CONFIG_MAX_FILE);
        else if (n == cap) {
            char *p = realloc(buf, cap * 2);
            err = p ? HR_OK : oom(e, path);
            buf = p ? p : buf;
            cap *= p ? 2 : 1;
        }
    }
    fclose(f);
    if (err < 0) {
        free(buf);
        return err;
    }
    *text = buf;
    *len = n;
    return HR_OK;
}

int hr__config_parse(const char *name, const char *text, size_t len, hr_config **out,
                     hr_config_error *e)
{
    return parse(name, NULL, text, len, out, e);
}

int hr__config_load(const char *path, hr_config **out, hr_config_error *e)
{
    char *text = NULL, *dir = NULL;
    size_t len = 0;
    const char *slash = strrchr(path, '/');
    int err = read_file(path, &text, &len, e);
    if (err == HR_OK && slash != NULL &&
        (dir = strndup(path, slash == path ? 1 : (size_t)(slash - path))) == NULL)
        err = oom(e, path);
    if (err == HR_OK)
        err = parse(path, dir != NULL && strcmp(dir, "/") == 0 ? "" : dir, text, len, out, e);
    free(dir);
    free(text);
    return err;
}

/* ---- overrides ------------------------------------------------------------------------------- */

/* Store an override; lhs ("SECTION.KEY") is ours to cut at its last dot. */
static int set_entry(hr_config *c, const char *where, char *lhs, const char *eq,
                     hr_config_error *e)
{
    char *dot = strrchr(lhs, '.');
    if (eq == NULL || dot == NULL || dot == lhs || dot[1] == '\0')
        return hr__config_fail(e, HR_EINVAL, where, "expected --set SECTION.KEY=VALUE");
    *dot = '\0';
    const char *key = dot + 1;
    char **items = NULL;
    size_t n = 0;
    int err = check_key(where, lhs, key, e);
    if (err == HR_OK)
        err = split_items(where, key, eq + 1, &items, &n, e);
    if (err < 0)
        return err;
    hr_config_entry *old = find_entry(c, lhs, key);
    if (old == NULL) {
        if ((err = add_entry(c, where, 0, lhs, key, items, n, e)) < 0)
            free_items(items, n);
        return err;
    }
    char *wcopy = strdup(where);
    if (wcopy == NULL) {
        free_items(items, n);
        return oom(e, where);
    }
    free_items(old->items, old->nitems);
    free(old->where);
    old->line = 0;
    old->items = items;
    old->nitems = n;
    old->where = wcopy;
    return HR_OK;
}

int hr__config_set(hr_config *c, const char *assignment, hr_config_error *e)
{
    const char *eq = strchr(assignment, '=');
    const char *start = assignment + strspn(assignment, " \t");
    const char *end = eq ? eq : start + strlen(start);
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    char *lhs = strndup(start, (size_t)(end - start));
    if (lhs == NULL)
        return oom(e, "--set");
    char where[300];
    snprintf(where, sizeof where, "--set %.200s", lhs);
    int err = set_entry(c, where, lhs, eq, e);
    free(lhs);
    return err;
}

/* ---- the whole-sweep check ------------------------------------------------------------------- */

static int listed(const hr_config_entry *algs, const char *name)
{
    for (size_t i = 0; algs && i < algs->nitems; i++)
        if (strcmp(algs->items[i], name) == 0)
            return 1;
    return 0;
}

/* Names: every algorithm listed exists. (A section of an algorithm that is not listed is only
 * a warning, hr__config_warnings: a config may keep the parameters of algorithms a --set of
 * [run] algorithms leaves out.) */
static int check_names(const hr_config *c, hr_config_error *e)
{
    const hr_config_entry *algs = hr__config_find(c, "run", "algorithms");
    if (algs == NULL)
        return hr__config_fail(e, HR_EINVAL, c->name, "[run] algorithms is not set");
    for (size_t i = 0; i < algs->nitems; i++)
        if (hr_algorithm_find(algs->items[i]) == NULL)
            return hr__config_fail(e, HR_ENOENT, algs->where,
                                   "unknown algorithm '%.100s' (hremu --list shows them)",
                                   algs->items[i]);
    return HR_OK;
}

static int has_section(const hr_config *c, const char *name)
{
    for (size_t i = 0; i < c->nsections; i++)
        if (strcmp(c->sections[i].name, name) == 0)
            return 1;
    return 0;
}

void hr__config_warnings(const hr_config *c, void (*warn)(void *arg, const char *msg), void *arg)
{
    const hr_config_entry *algs = hr__config_find(c, "run", "algorithms");
    char msg[512];
    for (size_t i = 0; i < c->nsections; i++) {
        const hr_config_section *s = &c->sections[i];
        if (hr__config_keys(s->name) != NULL || listed(algs, s->name))
            continue;
        snprintf(msg, sizeof msg, "%s:%d: warning: [%s] is set but %s is not in [run] "
                 "algorithms; its keys are not used", c->name, s->line, s->name, s->name);
        warn(arg, msg);
    }
    /* Keys set with --set in a section the file does not have: one warning per section. */
    for (size_t i = 0; i < c->nentries; i++) {
        const hr_config_entry *en = &c->entries[i];
        if (hr__config_keys(en->section) != NULL || listed(algs, en->section) ||
            has_section(c, en->section))
            continue;
        size_t first = 0;
        while (strcmp(c->entries[first].section, en->section) != 0)
            first++;
        if (first != i)
            continue;
        snprintf(msg, sizeof msg, "%s: warning: [%s] is set but %s is not in [run] algorithms; "
                 "its keys are not used", en->where, en->section, en->section);
        warn(arg, msg);
    }
}

/* Every point of every level, and every algorithm for every machine and workload point (the
 * algorithm checks depend on both). A row whose algorithm does not take the point's discipline
 * or workload kind (HR_EKIND) is skipped, not an error, unless every row is; so is a key that
 * does not apply to a point (hr_misfits), unless it applies to no point of its level. Work is
 * bounded by the row limit. */
static int check_points(const hr_config *c, hr_config_error *e)
{
    hr_point pt;
    memset(&pt, 0, sizeof pt);
    hr_misfits mis = { calloc(c->nentries + 1, sizeof *mis.count),
                       calloc(c->nentries + 1, sizeof *mis.first) };
    if (mis.count == NULL || mis.first == NULL) {
        free(mis.count);
        free(mis.first);
        return oom(e, c->name);
    }
    pt.misfits = &mis;
    int err = HR_OK;
    size_t fit = 0, unfit = 0, machines = 0, workloads = 0;
    hr_config_error first = { "" };
    for (size_t r = 0; r < hr__config_runs(c) && err == HR_OK; r++)
        err = hr__config_run(c, r, &pt, e);
    for (size_t m = 0; m < hr__config_machines(c) && err == HR_OK; m++) {
        err = hr__config_machine(c, m, &pt, e);
        machines++;
        for (size_t w = 0; w < hr__config_workloads(c) && err == HR_OK; w++) {
            err = hr__config_workload(c, w, &pt, e);
            workloads++;
            for (size_t a = 0; a < hr__config_algorithms(c) && err == HR_OK; a++)
                for (size_t q = 0; q < hr__config_params(c, a) && err == HR_OK; q++) {
                    hr_config_error why;
                    err = hr__config_algorithm(c, a, q, &pt, &why);
                    if (err == HR_EKIND) {
                        if (unfit++ == 0)
                            first = why;
                        err = HR_OK;
                    } else if (err == HR_OK) {
                        fit++;
                    } else if (e != NULL) {
                        *e = why;
                    }
                }
        }
    }
    for (size_t i = 0; i < c->nentries && err == HR_OK; i++) {
        size_t points = strcmp(c->entries[i].section, "machine") == 0 ? machines : workloads;
        if (mis.count[i] > 0 && mis.count[i] == points) {
            if (e != NULL)
                *e = mis.first[i];
            err = HR_EINVAL;
        }
    }
    free(mis.count);
    free(mis.first);
    if (err == HR_OK && fit == 0 && unfit > 0) {
        if (e != NULL)
            *e = first;
        return HR_EKIND;
    }
    return err;
}

int hr__config_check(const hr_config *c, hr_config_error *e)
{
    int err = check_names(c, e);
    if (err < 0)
        return err;
    if (hr__config_rows(c) > HR_CONFIG_MAX_ROWS)
        return hr__config_fail(e, HR_ERANGE, c->name, "the sweep has more than %d rows",
                               HR_CONFIG_MAX_ROWS);
    return check_points(c, e);
}
