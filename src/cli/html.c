/* html.c: the --html page (html.h). The rows' events are written as one JavaScript array of
 * plain numbers and short strings; the page's own script (src/cli/player.js) pairs each
 * message's events, follows its route along the links its link events name, and draws them with
 * SVG. */
#include "cli/html.h"

#include <inttypes.h>
#include <string.h>

#include <hremu/error.h>

#include "cli/jsonstr.h"
#include "cli/report.h"
#include "net/discipline.h"

static const char head[] =
"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
"<title>hremu: a run, round by round</title>\n<style>\n"
"body{font:14px sans-serif;margin:16px;color:#222}svg{border:1px solid #ccc;background:#fff}\n"
"#bar{margin:8px 0}#bar *{margin-right:8px;vertical-align:middle}#slider{width:420px}\n"
".key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}#note{color:#a40}\n"
"</style></head><body>\n<h3>hremu: a run, round by round</h3>\n"
"<div id=\"bar\"><select id=\"row\"></select><button id=\"play\">play</button>"
"<input id=\"slider\" type=\"range\" min=\"0\" value=\"0\"><span id=\"at\"></span></div>\n"
"<svg id=\"board\" width=\"640\" height=\"480\" viewBox=\"0 0 640 480\"></svg>\n"
"<div id=\"note\"></div>\n"
"<div id=\"counts\"></div>\n<div class=\"key\"><span style=\"background:#2a2\"></span>"
"delivered (dotted: from the queue it waited in)<span style=\"background:#e90\"></span>queued "
"(its sender stalls; faint: still queued)<span style=\"background:#d22\"></span>lost"
"<span style=\"background:#000\"></span>destroyed<span style=\"background:#36c\"></span>in "
"flight</div>\n<div>Each arrow follows its message's route along the links, on the right of "
"its way, so that the two directions between two nodes are two lines.</div>\n"
"<script>\nconst ROWS = [\n";

/* The page's script is src/cli/player.js, embedded by the Makefile (hr__player_js). It reads
 * ROWS: a row is {title, p, grid: [rows, cols] or null, wrap: a torus's wrap-around links,
 * rounds: bool, ev: [[kind, proc, peer, t0, t1, round, fate, msg], ...]} (kind 1 send,
 * 2 receive, 4 round message, 8 a link carrying msg from node proc to node peer; a message's
 * events joined by its id, the last field). Round rows step by round; the others by the
 * distinct times at which a send or a receive starts or ends. */

void hr__html_begin(hr_html *h, FILE *out)
{
    *h = (hr_html){ .out = out };
    fputs(head, out);
}

typedef struct sink_arg {
    FILE *out;
    int   first, lossy_destroys;
} sink_arg;

static void event(void *arg, const hr_event *e)
{
    sink_arg *a = arg;
    if (e->kind != HR_EV_SEND && e->kind != HR_EV_RECV && e->kind != HR_EV_ROUND &&
        e->kind != HR_EV_LINK)
        return;
    char t0[40], t1[40];
    hr__report_double(t0, sizeof t0, e->t0);
    hr__report_double(t1, sizeof t1, e->t1);
    const char *fate = e->fate == NULL ? "" : strcmp(e->fate, "lost") == 0 && a->lossy_destroys
                                                  ? "destroyed" : e->fate;
    fprintf(a->out, "%s[%d,%d,%d,%s,%s,%" PRIu64 ",\"%s\",%" PRIu64 "]", a->first ? "" : ",",
            e->kind, e->proc, e->peer, t0, t1, e->round, fate, e->msg);
    a->first = 0;
}

int hr__html_row(hr_html *h, const hr_machine *m, const char *what, const char *topology,
                 const char *discipline)
{
    int rows = 0, cols = 0, grid = 0, wrap = 0;
    if (topology != NULL && (strncmp(topology, "mesh ", 5) == 0 || strncmp(topology, "torus ", 6) == 0)) {
        char extra;
        grid = sscanf(strchr(topology, ' ') + 1, "%dx%d%c", &rows, &cols, &extra) == 2;
        wrap = grid && topology[0] == 't';
    }
    unsigned traits = hr__discipline_traits(discipline);
    int lossy_rounds = (traits & HR_DISC_IN_ROUNDS) != 0;
    fprintf(h->out, "%s{title:", h->rows ? ",\n" : "");
    hr__json_script_string(h->out, what);   /* JSON, and no "</script>" */
    fprintf(h->out, ",p:%d,grid:", hr_machine_procs(m));
    if (grid)
        fprintf(h->out, "[%d,%d]", rows, cols);
    else
        fputs("null", h->out);
    fprintf(h->out, ",wrap:%s,rounds:%s,ev:[", wrap ? "true" : "false",
            lossy_rounds ? "true" : "false");
    sink_arg a = { h->out, 1, (traits & HR_DISC_DESTROYS) != 0 };
    int err = hr_machine_event_each(m, event, &a);
    fputs("]}", h->out);
    h->rows++;
    return err;
}

void hr__html_end(hr_html *h)
{
    fputs("];\n", h->out);
    fwrite(hr__player_js, 1, hr__player_js_len, h->out);
    fputs("</script></body></html>\n", h->out);
}
