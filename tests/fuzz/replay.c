/* replay.c: a main for a fuzz harness without libFuzzer, so that `make check` replays each seed
 * corpus with any C compiler (and under SAN=...): every file named on the command line, or in a
 * directory named there (in name order), goes once to LLVMFuzzerTestOneInput, in a buffer of its
 * exact size so that a sanitizer sees a read past its end. A crash or an abort in the harness
 * fails the replay; otherwise it prints how many inputs it replayed and exits 0. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

/* Feed one file; 0, or -1 when it cannot be read. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (b == NULL)
                free(buf);
            buf = b;
        }
    }
    int bad = buf == NULL || ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return -1;
    }
    /* Exactly len bytes, so that reading one more is an error ASan sees. */
    uint8_t *exact = malloc(len ? len : 1);
    if (exact == NULL) {
        free(buf);
        return -1;
    }
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int not_hidden(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

int main(int argc, char **argv)
{
    long n = 0;
    for (int a = 1; a < argc; a++) {
        struct stat st;
        if (stat(argv[a], &st) != 0) {
            fprintf(stderr, "%s: %s: cannot read\n", argv[0], argv[a]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (replay_file(argv[a]) != 0) {
                fprintf(stderr, "%s: %s: cannot read\n", argv[0], argv[a]);
                return 1;
            }
            n++;
            continue;
        }
        struct dirent **names;
        int k = scandir(argv[a], &names, not_hidden, alphasort);
        if (k < 0) {
            fprintf(stderr, "%s: %s: cannot list\n", argv[0], argv[a]);
            return 1;
        }
        int err = 0;
        for (int i = 0; i < k; i++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], names[i]->d_name);
            if (!err && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                if (replay_file(path) != 0) {
                    fprintf(stderr, "%s: %s: cannot read\n", argv[0], path);
                    err = 1;
                }
                n++;
            }
            free(names[i]);
        }
        free(names);
        if (err)
            return 1;
    }
    printf("%s: %ld inputs replayed\n", argv[0], n);
    return 0;
}
