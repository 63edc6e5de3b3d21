/* textfile.h: reading small text inputs safely: open only regular files (never block on a FIFO
 * or a device), read bounded lines, parse decimal fields, and show a token in a one-line reason.
 * Shared by the readers of relation files (hrel.c) and Matrix Market files (mtx.c). No globals:
 * any thread may call any function here, each on its own reader. */
#ifndef HREMU_WORK_TEXTFILE_H
#define HREMU_WORK_TEXTFILE_H

#include <stddef.h>
#include <stdint.h>

/* The longest line a reader takes, newline excluded. An element or entry line needs some 20 to
 * 60 bytes; the rest is room for spacing, leading zeros and a comment. The bound keeps what one
 * line costs small whatever the file holds (a file of one endless line would otherwise be read
 * whole into memory). A caller's line buffer holds HR_TEXT_MAX_LINE bytes. */
#define HR_TEXT_MAX_LINE 4096

/* The size of a reader's chunk buffer, buf: the caller allocates it (and frees it). */
#define HR_TEXT_READ_CHUNK (64 * 1024)

/* Open path for reading into *fd, if it is a regular file; its size in bytes in *size unless
 * size is NULL. A directory, a FIFO, a device or a socket is refused by its type before it is
 * opened (and, should the path be replaced meanwhile, after a non-blocking open), so this never
 * blocks. 0, or HR_EINVAL with "PATH: cannot open: REASON" or "PATH: is a directory, not a
 * regular file" (a FIFO (named pipe), a character device, ...) in why. After a success the
 * caller closes *fd; after a failure nothing is open. */
int hr__text_open(const char *path, int *fd, uint64_t *size, char *why, size_t whylen);

/* Lines of a file descriptor, read in chunks of HR_TEXT_READ_CHUNK bytes. The caller sets fd,
 * points buf at HR_TEXT_READ_CHUNK bytes and zeroes pos and len; it owns both. */
typedef struct hr_text_reader {
    int    fd;
    char  *buf;          /* [HR_TEXT_READ_CHUNK] */
    size_t pos, len;     /* unread bytes: buf[pos .. len) */
} hr_text_reader;

/* The next line into line[0 .. *len) (line holds HR_TEXT_MAX_LINE bytes; no NUL is added),
 * without its newline (the last line may lack one): 1, or 0 at the end of the file, -1 for a line
 * longer than HR_TEXT_MAX_LINE, -2 for a read error (errno says which). A '\r' before the newline
 * is kept: callers that split on isspace ignore it. */
int hr__text_next_line(hr_text_reader *lr, char *line, size_t *len);

/* A decimal number of len characters into *v: 0, -1 if it is not one (empty, sign, hex, other
 * characters), -2 if it exceeds 2^64-1 (*v is then meaningless). */
int hr__text_parse_dec(const char *t, size_t len, uint64_t *v);

/* A token as it may appear in a one-line message, into out (cap >= 5 bytes): at most cap - 4
 * characters, anything unprintable shown as '?', "..." when cut; always NUL-terminated. */
void hr__text_show_token(char *out, size_t cap, const char *t, size_t len);

/* Split line[0 .. len) at white space: the first max tokens into tok[] and tlen[] (start and
 * length); returns how many tokens there are in all (more than max if the line has more). */
int hr__text_split(const char *line, size_t len, const char **tok, size_t *tlen, int max);

#endif
