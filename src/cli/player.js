const NS = 'http://www.w3.org/2000/svg', svg = document.getElementById('board');
const slider = document.getElementById('slider'), at = document.getElementById('at');
const counts = document.getElementById('counts'), sel = document.getElementById('row');
const note = document.getElementById('note');
const COLOUR = {delivered:'#2a2', queued:'#e90', lost:'#d22', destroyed:'#000', flight:'#36c'};
const W = 640, H = 480, SAMPLE_ABOVE = 64, SAMPLED = 16;
let row = 0, steps = [], timer = null;
function el(name, attrs, parent) { const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]); parent.appendChild(e); return e; }
/* A row's messages, once: ends, times, fates by round, and the route along the links its link
 * events name (chained from the sender; null where the row has none: complete graph). */
function prepare(r) {
  if (r.msgs) return;
  r.msgs = new Map(); let nodes = r.p;
  const get = id => { let m = r.msgs.get(id);
    if (!m) { m = {id: id, src: -1, dst: -1, send: null, recv: null, fates: [], first: 0, got: 0, edges: []};
      r.msgs.set(id, m); } return m; };
  r.ev.forEach(e => { const [kind, a, b, t0, t1, round, fate, id] = e;
    if (kind === 8) { get(id).edges.push([a, b]); nodes = Math.max(nodes, a + 1, b + 1); return; }
    const m = get(id);
    if (kind === 1) { m.src = a; m.dst = b; m.send = [t0, t1]; }
    else if (kind === 2) { m.src = b; m.dst = a; m.recv = [t0, t1]; }
    else if (kind === 4) { m.src = a; m.dst = b; m.fates.push([round, fate]);
      if (!m.first) m.first = round; if (fate === 'delivered') m.got = round; } });
  r.nodes = nodes; r.level = new Array(nodes).fill(0);
  r.msgs.forEach(m => { m.route = null; if (!m.edges.length || m.src < 0) return;
    const next = new Map(m.edges); const path = [m.src];
    while (next.has(path[path.length - 1]) && path.length <= m.edges.length)
      path.push(next.get(path[path.length - 1]));
    if (path[path.length - 1] !== m.dst) return;
    m.route = path; const L = path.length - 1;
    path.forEach((u, i) => { if (u >= r.p) r.level[u] = Math.max(r.level[u], Math.min(i, L - i)); }); });
  r.stride = r.p > SAMPLE_ABOVE ? Math.ceil(r.p / SAMPLED) : 1;
  r.radius = r.p <= 32 ? 12 : Math.max(3, Math.min(8, 900 / r.nodes));
  layout(r);
}
/* Node positions: a grid for mesh and torus; processors along the bottom and switches in rows
 * above them by level where there are switches (a fat tree); else a circle. */
function layout(r) {
  r.pos = [];
  if (r.grid) { const [R, C] = r.grid;
    for (let i = 0; i < r.p; i++) { const x = i % C, y = Math.floor(i / C);
      r.pos.push([70 + x * (W - 140) / Math.max(1, C - 1), 70 + y * (H - 140) / Math.max(1, R - 1)]); }
    return; }
  if (r.nodes > r.p) { const top = Math.max(1, ...r.level), byLevel = [];
    for (let i = 0; i < r.p; i++) r.pos.push([40 + (i + 0.5) * (W - 80) / r.p, H - 40]);
    for (let u = r.p; u < r.nodes; u++) (byLevel[r.level[u]] = byLevel[r.level[u]] || []).push(u);
    byLevel.forEach((us, l) => l > 0 && us.forEach((u, k) => {   /* level 0: carried nothing */
      r.pos[u] = [40 + (k + 0.5) * (W - 80) / us.length, H - 40 - l * (H - 100) / top]; }));
    return; }
  for (let i = 0; i < r.p; i++) { const a = 2 * Math.PI * i / r.p - Math.PI / 2;
    r.pos.push([W / 2 + 190 * Math.cos(a), H / 2 + 190 * Math.sin(a)]); }
}
function setup() {
  const r = ROWS[row]; prepare(r);
  if (r.rounds) { const n = r.ev.reduce((m, e) => Math.max(m, e[5]), 0); steps = [];
    for (let k = 1; k <= n; k++) steps.push(k); }
  else { const ts = new Set(); r.ev.forEach(e => { if (e[0] === 1 || e[0] === 2) { ts.add(e[3]); ts.add(e[4]); } });
    steps = Array.from(ts).sort((a, b) => a - b); }
  note.textContent = r.stride > 1 ? r.p + ' processors: the arrows are the messages sent by ' +
    Math.ceil(r.p / r.stride) + ' of them (P0, P' + r.stride + ', P' + 2 * r.stride +
    ', ...), one in every ' + r.stride + '; the counts are of every message.' : '';
  slider.max = Math.max(0, steps.length - 1); slider.value = 0; draw(); }
/* A torus's wrap-around link joins the two ends of a row or column: drawn as two stubs that
 * leave one edge of the grid and enter at the other, not as a line across the grid. */
function wraps(r, u, v) {
  if (!r.wrap || u >= r.p || v >= r.p) return null; const C = r.grid[1];
  const du = u % C - v % C, dr = Math.floor(u / C) - Math.floor(v / C);
  if (Math.abs(du) > 1 && dr === 0) return [Math.sign(du), 0];
  if (Math.abs(dr) > 1 && du === 0) return [0, Math.sign(dr)];
  return null; }
/* One link's piece of an arrow, offset to its right by 4 pixels, so that the two directions
 * between a pair are two lines; cut back by the nodes' radius. */
function piece(r, x1, y1, x2, y2, cut1, cut2) {
  const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;
  const ox = -uy * 4, oy = ux * 4, f = v => v.toFixed(1);
  return 'M' + f(x1 + cut1 * ux + ox) + ' ' + f(y1 + cut1 * uy + oy) + ' L' + f(x2 - cut2 * ux + ox) +
    ' ' + f(y2 - cut2 * uy + oy) + ' '; }
function arrow(r, m, colour, style) {
  const path = m.route || [m.src, m.dst], R = r.radius + 2; let d = '';
  for (let i = 1; i < path.length; i++) { const u = path[i - 1], v = path[i];
    const [x1, y1] = r.pos[u], [x2, y2] = r.pos[v], w = wraps(r, u, v);
    const cut2 = i === path.length - 1 ? R + 2 : R;
    if (w) { d += piece(r, x1, y1, x1 + 40 * w[0], y1 + 40 * w[1], R, 0) +
                  piece(r, x2 - 40 * w[0], y2 - 40 * w[1], x2, y2, 0, cut2); }
    else d += piece(r, x1, y1, x2, y2, R, cut2); }
  el('path', {d: d, fill: 'none', stroke: colour, 'stroke-width': r.p > 32 ? 2 : 3,
    'stroke-dasharray': style === 'queued' ? '6 4' : style === 'fromq' ? '1 5' : '',
    'stroke-linecap': style === 'fromq' ? 'round' : 'butt', opacity: style === 'waiting' ? 0.35 : 1,
    'marker-end': 'url(#head)', class: 'msg ' + style, 'data-route': path.join(' ')}, svg); }
function draw() {
  const r = ROWS[row], k = +slider.value; svg.innerHTML = '';
  const defs = el('defs', {}, svg), mk = el('marker', {id: 'head', viewBox: '0 0 10 10', refX: 8,
    refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse'}, defs);
  el('path', {d: 'M 0 0 L 10 5 L 0 10 z', fill: 'context-stroke'}, mk);
  for (let u = r.p; u < r.nodes; u++) { if (!r.pos[u]) continue; const [x, y] = r.pos[u];
    el('rect', {x: x - 6, y: y - 6, width: 12, height: 12, fill: '#ddd', stroke: '#666', class: 'switch'}, svg); }
  for (let i = 0; i < r.p; i++) { const [x, y] = r.pos[i];
    const c = el('circle', {cx: x, cy: y, r: r.radius, fill: '#eef', stroke: '#333', class: 'node'}, svg);
    el('title', {}, c).textContent = 'P' + i;
    if (r.p <= 32) el('text', {x: x, y: y + 4, 'text-anchor': 'middle', 'font-size': 11}, svg).textContent = 'P' + i; }
  const n = {delivered: 0, fromq: 0, queued: 0, waiting: 0, lost: 0, destroyed: 0, flight: 0};
  let drawn = 0; const show = m => m.src % r.stride === 0;
  if (r.rounds) { const round = steps[k];
    r.msgs.forEach(m => { if (!m.first) return;
      if (m.first < round && m.got > round) {
        n.waiting++; if (show(m)) arrow(r, m, COLOUR.queued, 'waiting'); return; }
      const f = m.fates.find(x => x[0] === round); if (!f) return;
      const fate = f[1];
      const style = fate === 'delivered' && m.first < round ? 'fromq' : fate;
      n[fate]++; if (style === 'fromq') n.fromq++;
      if (show(m)) { arrow(r, m, COLOUR[fate], style); drawn++; } });
    at.textContent = 'round ' + round + ' of ' + steps.length; }
  else { const t = steps[k];
    r.msgs.forEach(m => { if (!m.send || !m.recv || m.send[0] > t) return;
      if (m.recv[1] <= t) { n.delivered++; if (m.recv[1] === t && show(m)) { arrow(r, m, COLOUR.delivered, 'delivered'); drawn++; } }
      else { n.flight++; if (show(m)) { arrow(r, m, COLOUR.flight, 'flight'); drawn++; } } });
    at.textContent = 't = ' + (t * 1e6).toPrecision(6) + ' us (step ' + (k + 1) + ' of ' + steps.length + ')'; }
  counts.textContent = r.title + ': ' + (r.rounds ? 'delivered ' + n.delivered + ' (from a queue ' + n.fromq +
    '), queued ' + n.queued + ', still queued ' + n.waiting + ', lost ' + n.lost + ', destroyed ' + n.destroyed :
    'in flight ' + n.flight + ', delivered so far ' + n.delivered);
  counts.dataset.arrows = drawn; }
ROWS.forEach((r, i) => {
  const o = document.createElement('option'); o.value = i; o.textContent = r.title; sel.appendChild(o); });
sel.onchange = () => { row = +sel.value; setup(); };
slider.oninput = draw;
document.getElementById('play').onclick = () => {
  if (timer) { clearInterval(timer); timer = null; return; }
  timer = setInterval(() => { if (+slider.value >= +slider.max) { clearInterval(timer); timer = null; return; }
    slider.value = +slider.value + 1; draw(); }, 700); };
/* ?row=R&step=K opens row R (from 0, as in the menu) at step K (from 0: the slider's place). */
const q = new URLSearchParams(location.search);
if (q.get('row') !== null && ROWS[+q.get('row')]) { row = +q.get('row'); sel.value = row; }
setup(); if (q.get('step') !== null) { slider.value = q.get('step'); draw(); }
