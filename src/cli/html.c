/* html.c: the --html page (html.h). The rows' events are written as one JavaScript array of
 * plain numbers and short strings; the page's own script draws them with SVG. */
#include "cli/html.h"

#include <inttypes.h>
#include <string.h>

#include <hremu/error.h>

#include "cli/report.h"

static const char head[] =
"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
"<title>hremu: a run, round by round</title>\n<style>\n"
"body{font:14px sans-serif;margin:16px;color:#222}svg{border:1px solid #ccc;background:#fff}\n"
"#bar{margin:8px 0}#bar *{margin-right:8px;vertical-align:middle}#slider{width:420px}\n"
".key span{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}\n"
"</style></head><body>\n<h3>hremu: a run, round by round</h3>\n"
"<div id=\"bar\"><select id=\"row\"></select><button id=\"play\">play</button>"
"<input id=\"slider\" type=\"range\" min=\"0\" value=\"0\"><span id=\"at\"></span></div>\n"
"<svg id=\"board\" width=\"640\" height=\"480\" viewBox=\"0 0 640 480\"></svg>\n"
"<div id=\"counts\"></div>\n<div class=\"key\"><span style=\"background:#2a2\"></span>"
"delivered<span style=\"background:#e90\"></span>queued (its sender stalls)"
"<span style=\"background:#d22\"></span>lost<span style=\"background:#000\"></span>destroyed"
"<span style=\"background:#36c\"></span>in flight</div>\n<script>\nconst ROWS = [\n";

/* The page's script: a row is {title, p, grid: [rows, cols] or null, rounds: bool, ev: [[kind,
 * proc, peer, t0, t1, round, fate], ...]} (kind 1 send, 2 receive, 4 round message; a
 * message's send and receive joined by its id as the last field). Round rows step by round;
 * the others by the distinct times at which something starts or ends. */
static const char tail[] =
"];\n"
"const NS = 'http://www.w3.org/2000/svg', svg = document.getElementById('board');\n"
"const slider = document.getElementById('slider'), at = document.getElementById('at');\n"
"const counts = document.getElementById('counts'), sel = document.getElementById('row');\n"
"const COLOUR = {delivered:'#2a2', queued:'#e90', lost:'#d22', destroyed:'#000', flight:'#36c'};\n"
"let row = 0, steps = [], timer = null;\n"
"function el(name, attrs, parent) { const e = document.createElementNS(NS, name);\n"
"  for (const k in attrs) e.setAttribute(k, attrs[k]); parent.appendChild(e); return e; }\n"
"function place(r, i) {\n"
"  if (r.grid) { const [R, C] = r.grid, x = i % C, y = Math.floor(i / C);\n"
"    return [60 + x * 520 / Math.max(1, C - 1), 60 + y * 360 / Math.max(1, R - 1)]; }\n"
"  const a = 2 * Math.PI * i / r.p - Math.PI / 2; return [320 + 190 * Math.cos(a), 240 + 190 * Math.sin(a)]; }\n"
"function setup() {\n"
"  const r = ROWS[row];\n"
"  if (r.rounds) { const n = r.ev.reduce((m, e) => Math.max(m, e[5]), 0); steps = [];\n"
"    for (let k = 1; k <= n; k++) steps.push(k); }\n"
"  else { const ts = new Set(); r.ev.forEach(e => { ts.add(e[3]); ts.add(e[4]); });\n"
"    steps = Array.from(ts).sort((a, b) => a - b); }\n"
"  slider.max = Math.max(0, steps.length - 1); slider.value = 0; draw(); }\n"
"function arrow(r, s, d, colour, wait) {\n"
"  const [x1, y1] = place(r, s), [x2, y2] = place(r, d), dx = x2 - x1, dy = y2 - y1;\n"
"  const len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;\n"
"  el('line', {x1: x1 + 14 * ux, y1: y1 + 14 * uy, x2: x2 - 16 * ux, y2: y2 - 16 * uy,\n"
"    stroke: colour, 'stroke-width': 3, 'stroke-dasharray': wait ? '6 4' : '',\n"
"    'marker-end': 'url(#head)', class: 'msg'}, svg); }\n"
"function draw() {\n"
"  const r = ROWS[row], k = +slider.value; svg.innerHTML = '';\n"
"  const defs = el('defs', {}, svg), m = el('marker', {id: 'head', viewBox: '0 0 10 10', refX: 8,\n"
"    refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse'}, defs);\n"
"  el('path', {d: 'M 0 0 L 10 5 L 0 10 z', fill: 'context-stroke'}, m);\n"
"  const n = {delivered: 0, queued: 0, lost: 0, destroyed: 0, flight: 0};\n"
"  if (r.rounds) { const round = steps[k];\n"
"    r.ev.filter(e => e[5] === round).forEach(e => { n[e[6]]++; arrow(r, e[1], e[2], COLOUR[e[6]], e[6] === 'queued'); });\n"
"    at.textContent = 'round ' + round + ' of ' + steps.length; }\n"
"  else { const t = steps[k];\n"
"    r.ev.filter(e => e[0] === 1).forEach(e => { const rv = r.recv[e[7]];\n"
"      if (rv === undefined || e[3] > t) return;\n"
"      if (rv[4] <= t) { n.delivered++; if (rv[4] === t) arrow(r, e[1], e[2], COLOUR.delivered, false); }\n"
"      else { n.flight++; arrow(r, e[1], e[2], COLOUR.flight, false); } });\n"
"    at.textContent = 't = ' + (t * 1e6).toPrecision(6) + ' us (step ' + (k + 1) + ' of ' + steps.length + ')'; }\n"
"  for (let i = 0; i < r.p; i++) { const [x, y] = place(r, i);\n"
"    el('circle', {cx: x, cy: y, r: 12, fill: '#eef', stroke: '#333', class: 'node'}, svg);\n"
"    el('text', {x: x, y: y + 4, 'text-anchor': 'middle', 'font-size': 11}, svg).textContent = 'P' + i; }\n"
"  counts.textContent = r.title + ': ' + (r.rounds ? 'delivered ' + n.delivered + ', queued ' + n.queued +\n"
"    ', lost ' + n.lost + ', destroyed ' + n.destroyed : 'in flight ' + n.flight + ', delivered so far ' + n.delivered);\n"
"  counts.dataset.arrows = svg.querySelectorAll('.msg').length; }\n"
"ROWS.forEach((r, i) => { r.recv = {}; r.ev.forEach(e => { if (e[0] === 2) r.recv[e[7]] = e; });\n"
"  const o = document.createElement('option'); o.value = i; o.textContent = r.title; sel.appendChild(o); });\n"
"sel.onchange = () => { row = +sel.value; setup(); };\n"
"slider.oninput = draw;\n"
"document.getElementById('play').onclick = () => {\n"
"  if (timer) { clearInterval(timer); timer = null; return; }\n"
"  timer = setInterval(() => { if (+slider.value >= +slider.max) { clearInterval(timer); timer = null; return; }\n"
"    slider.value = +slider.value + 1; draw(); }, 700); };\n"
"const q = new URLSearchParams(location.search);\n"
"if (q.get('row') !== null) { row = +q.get('row'); sel.value = row; }\n"
"setup(); if (q.get('step') !== null) { slider.value = q.get('step'); draw(); }\n"
"</script></body></html>\n";

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
    if (e->kind != HR_EV_SEND && e->kind != HR_EV_RECV && e->kind != HR_EV_ROUND)
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
    int rows = 0, cols = 0, grid = 0;
    if (topology != NULL && (strncmp(topology, "mesh ", 5) == 0 || strncmp(topology, "torus ", 6) == 0))
        grid = sscanf(strchr(topology, ' ') + 1, "%dx%d", &rows, &cols) == 2;
    int lossy_rounds = strcmp(discipline, "fifo") == 0 || strcmp(discipline, "priority") == 0 ||
                       strcmp(discipline, "arbitrary") == 0 || strcmp(discipline, "ocpc") == 0;
    fprintf(h->out, "%s{title:\"", h->rows ? ",\n" : "");
    for (const char *c = what; *c; c++)   /* a JavaScript string: no quote or backslash inside */
        fputc(*c == '"' || *c == '\\' || (unsigned char)*c < 0x20 ? '?' : *c, h->out);
    fprintf(h->out, "\",p:%d,grid:", hr_machine_procs(m));
    if (grid)
        fprintf(h->out, "[%d,%d]", rows, cols);
    else
        fputs("null", h->out);
    fprintf(h->out, ",rounds:%s,ev:[", lossy_rounds ? "true" : "false");
    sink_arg a = { h->out, 1, strcmp(discipline, "ocpc") == 0 };
    int err = hr_machine_event_each(m, event, &a);
    fputs("]}", h->out);
    h->rows++;
    return err;
}

void hr__html_end(hr_html *h)
{
    fputs(tail, h->out);
}
