/* textfile.c: regular files only, bounded lines, decimal fields, tokens shown safely
 * (textfile.h). */
#include "work/textfile.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hremu/error.h>

#include "work/common.h"

int hr__text_parse_dec(const char *t, size_t len, uint64_t *v)
{
    uint64_t x = 0;
    int big = 0;
    if (len == 0)
        return -1;
    for (size_t i = 0; i < len; i++) {
        if (t[i] < '0' || t[i] > '9')
            return -1;
        unsigned digit = (unsigned)(t[i] - '0');
        if (x > (UINT64_MAX - digit) / 10)
            big = 1;
        else
            x = x * 10 + digit;
    }
    *v = x;
    return big ? -2 : 0;
}

void hr__text_show_token(char *out, size_t cap, const char *t, size_t len)
{
    size_t k = 0, max = cap - 4;   /* room for "..." and the NUL */
    for (; k < len && k < max; k++)
        out[k] = isprint((unsigned char)t[k]) ? t[k] : '?';
    if (k < len)
        memcpy(out + k, "...", 4);
    else
        out[k] = '\0';
}

/* What a file's type is called in a message. */
static const char *file_type(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/* A device can be endless (/dev/zero) and a FIFO can wait for a writer forever. The type is
 * checked twice: by stat, so that such a file is refused without being opened at all, and by
 * fstat on the descriptor, so that a path replaced between the two is refused too. The open
 * itself never blocks (O_NONBLOCK: opening a FIFO for reading would wait for a writer); on a
 * regular file O_NONBLOCK changes nothing. */
int hr__text_open(const char *path, int *fd, uint64_t *size, char *why, size_t whylen)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return hr__work_fail(why, whylen, HR_EINVAL, "%s: cannot open: %s", path,
                             strerror(errno));
    if (!S_ISREG(st.st_mode))
        return hr__work_fail(why, whylen, HR_EINVAL, "%s: is %s, not a regular file", path,
                             file_type(st.st_mode));
    *fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (*fd < 0)
        return hr__work_fail(why, whylen, HR_EINVAL, "%s: cannot open: %s", path,
                             strerror(errno));
    if (fstat(*fd, &st) != 0) {
        int e = errno;
        close(*fd);
        return hr__work_fail(why, whylen, HR_EINVAL, "%s: cannot open: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(*fd);
        return hr__work_fail(why, whylen, HR_EINVAL, "%s: is %s, not a regular file", path,
                             file_type(st.st_mode));
    }
    if (size != NULL)
        *size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    return HR_OK;
}

int hr__text_next_line(hr_text_reader *lr, char *line, size_t *len)
{
    size_t have = 0;
    int any = 0;
    for (;;) {
        if (lr->pos == lr->len) {
            ssize_t got;
            do
                got = read(lr->fd, lr->buf, HR_TEXT_READ_CHUNK);
            while (got < 0 && errno == EINTR);
            if (got < 0)
                return -2;
            if (got == 0) {
                *len = have;
                return any ? 1 : 0;
            }
            lr->pos = 0;
            lr->len = (size_t)got;
        }
        any = 1;
        const char *start = lr->buf + lr->pos;
        size_t avail = lr->len - lr->pos;
        const char *nl = memchr(start, '\n', avail);
        size_t take = nl != NULL ? (size_t)(nl - start) : avail;
        if (take > HR_TEXT_MAX_LINE - have)
            return -1;
        memcpy(line + have, start, take);
        have += take;
        lr->pos += take + (nl != NULL);
        if (nl != NULL) {
            *len = have;
            return 1;
        }
    }
}

int hr__text_split(const char *line, size_t len, const char **tok, size_t *tlen, int max)
{
    int n = 0;
    for (const char *c = line, *end = line + len; c < end;) {
        if (isspace((unsigned char)*c)) {
            c++;
            continue;
        }
        const char *t = c;
        while (c < end && !isspace((unsigned char)*c))
            c++;
        if (n < max) {
            tok[n] = t;
            tlen[n] = (size_t)(c - t);
        }
        n++;
    }
    return n;
}
