/* fuzz_config.c: libFuzzer target for the config parser and validator (nothing runs).
 *
 * The input is a config file, optionally followed by a line "%%" and then one --set assignment
 * per line ("machine.procs=4,8"), so that overrides are fuzzed through the same checks. Every
 * input must come back as HR_OK or an error with a one-line message; ASan and UBSan watch for
 * everything else, LeakSanitizer for lost memory. `make fuzz` builds and runs it; `make check`
 * replays tests/fuzz/corpus/config/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The message is one line with a location before the first ": ". */
static void check_message(const hr_config_error *e)
{
    if (strchr(e->msg, '\n') != NULL || strstr(e->msg, ": ") == NULL)
        abort();
}

/* Apply each line of text[0..len) as an override until one fails. */
static void apply_sets(hr_config *c, const char *text, size_t len)
{
    while (len > 0) {
        const char *nl = memchr(text, '\n', len);
        size_t n = nl ? (size_t)(nl - text) : len;
        char *line = strndup(text, n);
        if (line == NULL)
            return;
        hr_config_error e;
        int err = hr__config_set(c, line, &e);
        free(line);
        if (err < 0) {
            check_message(&e);
            return;
        }
        text += n + (nl != NULL);
        len -= n + (nl != NULL);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *sep = memmem(text, size, "\n%%\n", 4);
    size_t cfg_len = sep ? (size_t)(sep - text) + 1 : size;
    hr_config *c = NULL;
    hr_config_error e;
    if (hr__config_parse("fuzz.ini", text, cfg_len, &c, &e) != HR_OK) {
        check_message(&e);
        return 0;
    }
    if (sep != NULL)
        apply_sets(c, sep + 4, size - cfg_len - 3);
    if (hr__config_check(c, &e) != HR_OK)
        check_message(&e);
    else if (hr__config_rows(c) == 0 || hr__config_rows(c) > HR_CONFIG_MAX_ROWS)
        abort();   /* a checked config has between 1 and the limit of rows */
    hr__config_free(c);
    return 0;
}
