/* jsonstr.c: JSON string literals (jsonstr.h). */
#include "cli/jsonstr.h"

#include <stdint.h>

/* The length of the well-formed UTF-8 sequence at s (1 to 4) and its code point in *cp, or 0 if
 * the bytes there are not one (a stray continuation byte, a truncated sequence, an overlong
 * form, a surrogate, a code point past U+10FFFF). s[0] >= 0x80. */
static int utf8_seq(const unsigned char *s, uint32_t *cp)
{
    int n;
    uint32_t c, min;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        n = 2, c = s[0] & 0x1fu, min = 0x80;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        n = 3, c = s[0] & 0x0fu, min = 0x800;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        n = 4, c = s[0] & 0x07u, min = 0x10000;
    } else {
        return 0;
    }
    for (int i = 1; i < n; i++) {   /* stops at the terminating NUL, which is no continuation */
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3fu);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return n;
}

static void write_string(FILE *out, const char *str, int script)
{
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', out);
    while (*s != '\0') {
        unsigned char c = *s;
        if (c < 0x80) {
            if (c == '"' || c == '\\')
                fprintf(out, "\\%c", c);
            else if (c == '\n')
                fputs("\\n", out);
            else if (c == '\t')
                fputs("\\t", out);
            else if (c < 0x20 || c == 0x7f || (script && (c == '<' || c == '>' || c == '&')))
                fprintf(out, "\\u%04x", c);
            else
                fputc(c, out);
            s++;
            continue;
        }
        uint32_t cp = 0;
        int n = utf8_seq(s, &cp);
        if (n == 0) {
            fputs("\\ufffd", out);
            s++;
        } else if (script && (cp == 0x2028 || cp == 0x2029)) {
            fprintf(out, "\\u%04x", (unsigned)cp);
            s += n;
        } else {
            fwrite(s, 1, (size_t)n, out);
            s += n;
        }
    }
    fputc('"', out);
}

void hr__json_string(FILE *out, const char *s)
{
    write_string(out, s, 0);
}

void hr__json_script_string(FILE *out, const char *s)
{
    write_string(out, s, 1);
}
