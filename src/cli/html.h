/* html.h: hremu --html FILE: one self-contained page (no network, no build step: its script is
 * inline) that plays each row's first run, round by round under the round disciplines and along
 * model time under the others: processors as nodes laid out by topology, messages as arrows
 * coloured by fate along their routes (the links their link events name), the two directions
 * between a pair apart, deliveries from a queue marked, a sample of the senders above 64
 * processors, a slider, a play button and the counts; ?row=R&step=K opens a step. The command's
 * thread only. */
#ifndef HREMU_CLI_HTML_H
#define HREMU_CLI_HTML_H

#include <stddef.h>
#include <stdio.h>

#include <hremu/machine.h>

typedef struct hr_html {
    FILE  *out;
    size_t rows;
} hr_html;

void hr__html_begin(hr_html *h, FILE *out);
/* m's last run as row `what` (any text: it is escaped for the script), on topology (its spec:
 * "torus 4x4" lays the nodes out as a grid with wrap-around links) and discipline. HR_OK or
 * HR_ENOMEM. */
int  hr__html_row(hr_html *h, const hr_machine *m, const char *what, const char *topology,
                  const char *discipline);
void hr__html_end(hr_html *h);

/* The page's script: the bytes of src/cli/player.js, which the Makefile turns into a C array
 * ($(BUILD)/gen/player.c) at build time; hr__player_js_len of them, then a 0 byte. */
extern const unsigned char hr__player_js[];
extern const size_t        hr__player_js_len;

#endif /* HREMU_CLI_HTML_H */
