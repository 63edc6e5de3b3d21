/* html.c: the --html page (html.h). The rows' events are written as one JavaScript array of
 * plain numbers and short strings; the page's own script pairs each message's events, follows
 * its route along the links its link events name, and draws them with SVG. */
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

/* The page's script: a row is {title, p, grid: [rows, cols] or null, wrap: a torus's
 * wrap-around links, rounds: bool, ev: [[kind, proc, peer, t0, t1, round, fate, msg], ...]}
 * (kind 1 send, 2 receive, 4 round message, 8 a link carrying msg from node proc to node peer;
 * a message's events joined by its id, the last field). Round rows step by round; the others by
 * the distinct times at which a send or a receive starts or ends. */
static const char tail[] =
"];\n"
"const NS = 'http://www.w3.org/2000/svg', svg = document.getElementById('board');\n"
"const slider = document.getElementById('slider'), at = document.getElementById('at');\n"
"const counts = document.getElementById('counts'), sel = document.getElementById('row');\n"
"const note = document.getElementById('note');\n"
"const COLOUR = {delivered:'#2a2', queued:'#e90', lost:'#d22', destroyed:'#000', flight:'#36c'};\n"
"const W = 640, H = 480, SAMPLE_ABOVE = 64, SAMPLED = 16;\n"
"let row = 0, steps = [], timer = null;\n"
"function el(name, attrs, parent) { const e = document.createElementNS(NS, name);\n"
"  for (const k in attrs) e.setAttribute(k, attrs[k]); parent.appendChild(e); return e; }\n"
"/* A row's messages, once: ends, times, fates by round, and the route along the links its link\n"
" * events name (chained from the sender; null where the row has none: complete graph). */\n"
"function prepare(r) {\n"
"  if (r.msgs) return;\n"
"  r.msgs = new Map(); let nodes = r.p;\n"
"  const get = id => { let m = r.msgs.get(id);\n"
"    if (!m) { m = {id: id, src: -1, dst: -1, send: null, recv: null, fates: [], first: 0, got: 0, edges: []};\n"
"      r.msgs.set(id, m); } return m; };\n"
"  r.ev.forEach(e => { const [kind, a, b, t0, t1, round, fate, id] = e;\n"
"    if (kind === 8) { get(id).edges.push([a, b]); nodes = Math.max(nodes, a + 1, b + 1); return; }\n"
"    const m = get(id);\n"
"    if (kind === 1) { m.src = a; m.dst = b; m.send = [t0, t1]; }\n"
"    else if (kind === 2) { m.src = b; m.dst = a; m.recv = [t0, t1]; }\n"
"    else if (kind === 4) { m.src = a; m.dst = b; m.fates.push([round, fate]);\n"
"      if (!m.first) m.first = round; if (fate === 'delivered') m.got = round; } });\n"
"  r.nodes = nodes; r.level = new Array(nodes).fill(0);\n"
"  r.msgs.forEach(m => { m.route = null; if (!m.edges.length || m.src < 0) return;\n"
"    const next = new Map(m.edges); const path = [m.src];\n"
"    while (next.has(path[path.length - 1]) && path.length <= m.edges.length)\n"
"      path.push(next.get(path[path.length - 1]));\n"
"    if (path[path.length - 1] !== m.dst) return;\n"
"    m.route = path; const L = path.length - 1;\n"
"    path.forEach((u, i) => { if (u >= r.p) r.level[u] = Math.max(r.level[u], Math.min(i, L - i)); }); });\n"
"  r.stride = r.p > SAMPLE_ABOVE ? Math.ceil(r.p / SAMPLED) : 1;\n"
"  r.radius = r.p <= 32 ? 12 : Math.max(3, Math.min(8, 900 / r.nodes));\n"
"  layout(r);\n"
"}\n"
"/* Node positions: a grid for mesh and torus; processors along the bottom and switches in rows\n"
" * above them by level where there are switches (a fat tree); else a circle. */\n"
"function layout(r) {\n"
"  r.pos = [];\n"
"  if (r.grid) { const [R, C] = r.grid;\n"
"    for (let i = 0; i < r.p; i++) { const x = i % C, y = Math.floor(i / C);\n"
"      r.pos.push([70 + x * (W - 140) / Math.max(1, C - 1), 70 + y * (H - 140) / Math.max(1, R - 1)]); }\n"
"    return; }\n"
"  if (r.nodes > r.p) { const top = Math.max(1, ...r.level), byLevel = [];\n"
"    for (let i = 0; i < r.p; i++) r.pos.push([40 + (i + 0.5) * (W - 80) / r.p, H - 40]);\n"
"    for (let u = r.p; u < r.nodes; u++) (byLevel[r.level[u]] = byLevel[r.level[u]] || []).push(u);\n"
"    byLevel.forEach((us, l) => l > 0 && us.forEach((u, k) => {   /* level 0: carried nothing */\n"
"      r.pos[u] = [40 + (k + 0.5) * (W - 80) / us.length, H - 40 - l * (H - 100) / top]; }));\n"
"    return; }\n"
"  for (let i = 0; i < r.p; i++) { const a = 2 * Math.PI * i / r.p - Math.PI / 2;\n"
"    r.pos.push([W / 2 + 190 * Math.cos(a), H / 2 + 190 * Math.sin(a)]); }\n"
"}\n"
"function setup() {\n"
"  const r = ROWS[row]; prepare(r);\n"
"  if (r.rounds) { const n = r.ev.reduce((m, e) => Math.max(m, e[5]), 0); steps = [];\n"
"    for (let k = 1; k <= n; k++) steps.push(k); }\n"
"  else { const ts = new Set(); r.ev.forEach(e => { if (e[0] === 1 || e[0] === 2) { ts.add(e[3]); ts.add(e[4]); } });\n"
"    steps = Array.from(ts).sort((a, b) => a - b); }\n"
"  note.textContent = r.stride > 1 ? r.p + ' processors: the arrows are the messages sent by ' +\n"
"    Math.ceil(r.p / r.stride) + ' of them (P0, P' + r.stride + ', P' + 2 * r.stride +\n"
"    ', ...), one in every ' + r.stride + '; the counts are of every message.' : '';\n"
"  slider.max = Math.max(0, steps.length - 1); slider.value = 0; draw(); }\n"
"/* A torus's wrap-around link joins the two ends of a row or column: drawn as two stubs that\n"
" * leave one edge of the grid and enter at the other, not as a line across the grid. */\n"
"function wraps(r, u, v) {\n"
"  if (!r.wrap || u >= r.p || v >= r.p) return null; const C = r.grid[1];\n"
"  const du = u % C - v % C, dr = Math.floor(u / C) - Math.floor(v / C);\n"
"  if (Math.abs(du) > 1 && dr === 0) return [Math.sign(du), 0];\n"
"  if (Math.abs(dr) > 1 && du === 0) return [0, Math.sign(dr)];\n"
"  return null; }\n"
"/* One link's piece of an arrow, offset to its right by 4 pixels, so that the two directions\n"
" * between a pair are two lines; cut back by the nodes' radius. */\n"
"function piece(r, x1, y1, x2, y2, cut1, cut2) {\n"
"  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;\n"
"  const ox = -uy * 4, oy = ux * 4, f = v => v.toFixed(1);\n"
"  return 'M' + f(x1 + cut1 * ux + ox) + ' ' + f(y1 + cut1 * uy + oy) + ' L' + f(x2 - cut2 * ux + ox) +\n"
"    ' ' + f(y2 - cut2 * uy + oy) + ' '; }\n"
"function arrow(r, m, colour, style) {\n"
"  const path = m.route || [m.src, m.dst], R = r.radius + 2; let d = '';\n"
"  for (let i = 1; i < path.length; i++) { const u = path[i - 1], v = path[i];\n"
"    const [x1, y1] = r.pos[u], [x2, y2] = r.pos[v], w = wraps(r, u, v);\n"
"    const cut2 = i === path.length - 1 ? R + 2 : R;\n"
"    if (w) { d += piece(r, x1, y1, x1 + 40 * w[0], y1 + 40 * w[1], R, 0) +\n"
"                  piece(r, x2 - 40 * w[0], y2 - 40 * w[1], x2, y2, 0, cut2); }\n"
"    else d += piece(r, x1, y1, x2, y2, R, cut2); }\n"
"  el('path', {d: d, fill: 'none', stroke: colour, 'stroke-width': r.p > 32 ? 2 : 3,\n"
"    'stroke-dasharray': style === 'queued' ? '6 4' : style === 'fromq' ? '1 5' : '',\n"
"    'stroke-linecap': style === 'fromq' ? 'round' : 'butt', opacity: style === 'waiting' ? 0.35 : 1,\n"
"    'marker-end': 'url(#head)', class: 'msg ' + style, 'data-route': path.join(' ')}, svg); }\n"
"function draw() {\n"
"  const r = ROWS[row], k = +slider.value; svg.innerHTML = '';\n"
"  const defs = el('defs', {}, svg), mk = el('marker', {id: 'head', viewBox: '0 0 10 10', refX: 8,\n"
"    refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse'}, defs);\n"
"  el('path', {d: 'M 0 0 L 10 5 L 0 10 z', fill: 'context-stroke'}, mk);\n"
"  for (let u = r.p; u < r.nodes; u++) { if (!r.pos[u]) continue; const [x, y] = r.pos[u];\n"
"    el('rect', {x: x - 6, y: y - 6, width: 12, height: 12, fill: '#ddd', stroke: '#666', class: 'switch'}, svg); }\n"
"  for (let i = 0; i < r.p; i++) { const [x, y] = r.pos[i];\n"
"    const c = el('circle', {cx: x, cy: y, r: r.radius, fill: '#eef', stroke: '#333', class: 'node'}, svg);\n"
"    el('title', {}, c).textContent = 'P' + i;\n"
"    if (r.p <= 32) el('text', {x: x, y: y + 4, 'text-anchor': 'middle', 'font-size': 11}, svg).textContent = 'P' + i; }\n"
"  const n = {delivered: 0, fromq: 0, queued: 0, waiting: 0, lost: 0, destroyed: 0, flight: 0};\n"
"  let drawn = 0; const show = m => m.src % r.stride === 0;\n"
"  if (r.rounds) { const round = steps[k];\n"
"    r.msgs.forEach(m => { if (!m.first) return;\n"
"      if (m.first < round && m.got > round) {\n"
"        n.waiting++; if (show(m)) arrow(r, m, COLOUR.queued, 'waiting'); return; }\n"
"      const f = m.fates.find(x => x[0] === round); if (!f) return;\n"
"      const fate = f[1];\n"
"      const style = fate === 'delivered' && m.first < round ? 'fromq' : fate;\n"
"      n[fate]++; if (style === 'fromq') n.fromq++;\n"
"      if (show(m)) { arrow(r, m, COLOUR[fate], style); drawn++; } });\n"
"    at.textContent = 'round ' + round + ' of ' + steps.length; }\n"
"  else { const t = steps[k];\n"
"    r.msgs.forEach(m => { if (!m.send || !m.recv || m.send[0] > t) return;\n"
"      if (m.recv[1] <= t) { n.delivered++; if (m.recv[1] === t && show(m)) { arrow(r, m, COLOUR.delivered, 'delivered'); drawn++; } }\n"
"      else { n.flight++; if (show(m)) { arrow(r, m, COLOUR.flight, 'flight'); drawn++; } } });\n"
"    at.textContent = 't = ' + (t * 1e6).toPrecision(6) + ' us (step ' + (k + 1) + ' of ' + steps.length + ')'; }\n"
"  counts.textContent = r.title + ': ' + (r.rounds ? 'delivered ' + n.delivered + ' (from a queue ' + n.fromq +\n"
"    '), queued ' + n.queued + ', still queued ' + n.waiting + ', lost ' + n.lost + ', destroyed ' + n.destroyed :\n"
"    'in flight ' + n.flight + ', delivered so far ' + n.delivered);\n"
"  counts.dataset.arrows = drawn; }\n"
"ROWS.forEach((r, i) => {\n"
"  const o = document.createElement('option'); o.value = i; o.textContent = r.title; sel.appendChild(o); });\n"
"sel.onchange = () => { row = +sel.value; setup(); };\n"
"slider.oninput = draw;\n"
"document.getElementById('play').onclick = () => {\n"
"  if (timer) { clearInterval(timer); timer = null; return; }\n"
"  timer = setInterval(() => { if (+slider.value >= +slider.max) { clearInterval(timer); timer = null; return; }\n"
"    slider.value = +slider.value + 1; draw(); }, 700); };\n"
"/* ?row=R&step=K opens row R (from 0, as in the menu) at step K (from 0: the slider's place). */\n"
"const q = new URLSearchParams(location.search);\n"
"if (q.get('row') !== null && ROWS[+q.get('row')]) { row = +q.get('row'); sel.value = row; }\n"
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
    fputs(tail, h->out);
}
