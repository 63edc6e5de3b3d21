#!/bin/sh
# hremu --html in a real browser: headless Chromium loads the page the command wrote, runs its
# script, and the test reads the DOM it built (nodes and arrows of a round) and a screenshot
# (the colours of delivered messages on the board). First, without a browser: the page's script
# is src/cli/player.js byte for byte (the build embeds it). scripts/deps.sh installs Chromium for
# make check; run by hand where it is missing, this checks the page's script, says SKIP for the
# rest and exits 0. The last line is "N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 1
BIN=${HREMU_BIN:-./hremu}
BROWSER=$(command -v chromium || command -v chromium-browser || true)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hremu-browser.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0
fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
browse() {   # browse ARGS...: headless Chromium, its own profile, no network needed
    timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$TMP/profile" "$@" 2>/dev/null
}

# The four disciplines on one relation: row 0 is hrel.offline under fifo, 8 processors, whose
# round 1 delivers 8 messages (exactly h rounds of a permutation each).
"$BIN" configs/teaching/disciplines.ini --html "$TMP/page.html" --out "$TMP/rows.txt" 2>/dev/null
[ -s "$TMP/page.html" ] && ok || bad "--html wrote no page"
# Self-contained: nothing to fetch (the SVG namespace URI is a name, not a load).
grep -Eq '(src|href)=|<link|import ' "$TMP/page.html" && bad "the page loads something" || ok
# The script: after the rows' "];" line, the lines of src/cli/player.js as they are, then the
# page's last line.
n=$(wc -l <src/cli/player.js)
tail -n $((n + 1)) "$TMP/page.html" | head -n "$n" | cmp -s - src/cli/player.js && ok ||
    bad "the page's script is not src/cli/player.js"
tail -n $((n + 2)) "$TMP/page.html" | head -n 1 | grep -q '\];$' && ok ||
    bad "no '];' line ends the rows before the script"
[ "$(tail -n 1 "$TMP/page.html")" = '</script></body></html>' ] && ok ||
    bad "the page does not end with </script></body></html>"
if [ -z "$BROWSER" ]; then
    echo "SKIP tests/browser.sh: Chromium is missing (scripts/deps.sh installs it); the page's script checked"
    echo "$pass passed, $fail failed (the --html page's script; no browser)"
    [ "$fail" -eq 0 ]
    exit
fi
browse --dump-dom "file://$TMP/page.html?row=0&step=0" >"$TMP/dom.html"
[ "$(grep -o 'class="node"' "$TMP/dom.html" | wc -l)" -eq 8 ] && ok ||
    bad "the board has $(grep -o 'class="node"' "$TMP/dom.html" | wc -l) nodes, want 8"
grep -q 'data-arrows="8"' "$TMP/dom.html" && ok || bad "round 1 has not 8 arrows"
grep -q 'round 1 of 7' "$TMP/dom.html" && ok || bad "the slider does not say round 1 of 7"
# The last round of the arbitrary-write row of hrel.aw_uniform shows its counts.
row=$(grep -o 'option value="[0-9]*">hrel.aw_uniform' "$TMP/dom.html" | grep -o '[0-9][0-9]*' | head -n 1)
[ -n "$row" ] && ok || bad "no hrel.aw_uniform row in the page's menu"
browse --dump-dom "file://$TMP/page.html?row=${row:-0}&step=0" >"$TMP/dom2.html"
grep -q 'hrel.aw_uniform.*delivered [0-9]* (from a queue 0), queued 0, still queued 0, lost [0-9]*' "$TMP/dom2.html" && ok ||
    bad "the aw_uniform row's counts"
# A screenshot of round 1: the board's delivered arrows are green (#2a2).
browse --window-size=700,640 --screenshot="$TMP/shot.png" "file://$TMP/page.html?row=0&step=0" \
    >/dev/null
python3 - "$TMP/shot.png" <<'PY' && ok || bad "the screenshot shows no green arrows"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w, h = 8, b"", 0, 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, stride, prev, green = zlib.decompress(idat), w * bpp, bytearray(w * bpp), 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(w):
        r, g, bl = line[x * bpp:x * bpp + 3]
        if g > 140 and r < 90 and bl < 90:
            green += 1
    prev = line
assert green > 500, green
PY

# arrows DOM: the drawn arrows of a dumped page as (route, [straight pieces]), and its nodes'
# centres and radius.
cat >"$TMP/page.py" <<'PY'
import re
def arrows(path):
    text = open(path).read()
    out = []
    for m in re.finditer(r'<path d="([^"]*)"[^>]*class="msg ([a-z]+)"[^>]*data-route="([^"]*)"', text):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", m.group(1))]
        pieces = [tuple(nums[i:i + 4]) for i in range(0, len(nums), 4)]
        out.append(([int(v) for v in m.group(3).split()], pieces, m.group(2)))
    nodes = [(float(x), float(y), float(r)) for x, y, r in
             re.findall(r'<circle cx="([-\d.]+)" cy="([-\d.]+)" r="([\d.]+)"[^>]*class="node"', text)]
    return out, nodes
def dist(px, py, x1, y1, x2, y2):   # from a point to a segment
    dx, dy = x2 - x1, y2 - y1
    t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / ((dx * dx + dy * dy) or 1)))
    return ((px - x1 - t * dx) ** 2 + (py - y1 - t * dy) ** 2) ** 0.5
PY

# A torus: every arrow follows its message's route, link by link (the hop count of the torus's
# dimension-order route, each hop between neighbours), and no piece of it crosses a node it does
# not leave or enter; a wrap-around hop is two stubs off the grid's edges, not a line across it.
"$BIN" configs/teaching/torus.ini --html "$TMP/torus.html" --out /dev/null 2>/dev/null
browse --dump-dom "file://$TMP/torus.html?row=2&step=0" >"$TMP/torus0.html"
python3 - "$TMP/torus0.html" "$TMP" <<'PY' && ok || bad "the torus: arrows along the links"
import sys
sys.path.insert(0, sys.argv[2])
from page import arrows, dist
msgs, nodes = arrows(sys.argv[1])
assert len(nodes) == 16 and len(msgs) == 16, (len(nodes), len(msgs))
def ring(a, b): d = abs(a - b) % 4; return min(d, 4 - d)
def hops(a, b): return ring(a % 4, b % 4) + ring(a // 4, b // 4)
assert max(len(r) - 1 for r, _, _ in msgs) >= 2, "no message of two hops at this step"
for route, pieces, _ in msgs:
    assert len(route) - 1 == hops(route[0], route[-1]), route
    assert all(hops(u, v) == 1 for u, v in zip(route, route[1:])), route
    wraps = sum(1 for u, v in zip(route, route[1:]) if abs(u % 4 - v % 4) == 3 or abs(u // 4 - v // 4) == 3)
    assert len(pieces) == len(route) - 1 + wraps, (route, pieces)
    for x1, y1, x2, y2 in pieces:
        for i, (cx, cy, r) in enumerate(nodes):
            assert dist(cx, cy, x1, y1, x2, y2) > r or i in route, ("crosses P%d" % i, route)
PY
# A fat tree: the switches drawn above the processors, every arrow through them (up and down the
# tree: an even number of hops, the middle node the highest).
"$BIN" configs/teaching/contention.ini --set machine.topology=fattree --set run.algorithms=xchg.pex \
    --html "$TMP/ft.html" --out /dev/null 2>/dev/null
browse --dump-dom "file://$TMP/ft.html?row=0&step=4" >"$TMP/ft4.html"
python3 - "$TMP/ft4.html" "$TMP" <<'PY' && ok || bad "the fat tree: arrows through the switches"
import re, sys
sys.path.insert(0, sys.argv[2])
from page import arrows
msgs, nodes = arrows(sys.argv[1])
switches = [float(y) for y in re.findall(r'<rect x="[-\d.]+" y="([-\d.]+)"[^>]*class="switch"', open(sys.argv[1]).read())]
assert len(nodes) == 8 and switches and max(switches) < min(y for _, y, _ in nodes), (nodes, switches)
assert msgs and all(len(r) % 2 == 1 and len(r) >= 3 and all(u >= 8 for u in r[1:-1]) for r, _, _ in msgs), msgs
PY
# Opposite directions between one pair are two lines: in PEX's third time step on the complete
# graph (t = 292.8 us) four pairs of processors exchange, both messages of each pair in flight.
"$BIN" configs/teaching/contention.ini --html "$TMP/ct.html" --out /dev/null 2>/dev/null
browse --dump-dom "file://$TMP/ct.html?row=1&step=2" >"$TMP/ct0.html"
grep -q 't = 292.800 us' "$TMP/ct0.html" && ok || bad "PEX's step 2 is not at 292.8 us"
python3 - "$TMP/ct0.html" "$TMP" <<'PY' && ok || bad "opposite directions drawn on one line"
import sys
sys.path.insert(0, sys.argv[2])
from page import arrows
msgs, _ = arrows(sys.argv[1])
mid = {tuple(r): ((p[0][0] + p[0][2]) / 2, (p[0][1] + p[0][3]) / 2) for r, p, _ in msgs}
pairs = [(a, b) for (a, b) in mid if a < b and (b, a) in mid]
assert len(pairs) == 4, (pairs, list(mid))
for a, b in pairs:
    (x1, y1), (x2, y2) = mid[(a, b)], mid[(b, a)]
    assert ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 >= 6, (a, b, mid[(a, b)], mid[(b, a)])
PY
# A message delivered from the queue it waited in is marked as such (dotted), and the ones still
# waiting are drawn faint: as many as the --rounds board's d and q cells of the round.
"$BIN" configs/teaching/disciplines.ini --rounds "$TMP/boards.txt" --out /dev/null 2>/dev/null
round=$(awk '/^# /{row++} row == 2 && /^round /{r=$2} row == 2 && /^  from/{n=gsub(/ d/, ""); if (n && !found) {found=r}} END{print found}' "$TMP/boards.txt")
[ -n "$round" ] && ok || bad "no round of hrel.fifo_staged under fifo delivers from a queue"
cells() {   # LETTER: the cells of row 1's board for round $round
    awk -v r="$round" -v c="$1" '/^# /{row++} row == 2 && /^round /{on = ($2 == r)}
        row == 2 && on && /^  from/{n += gsub(" " c "( |$)", "")} END{print n + 0}' "$TMP/boards.txt"
}
browse --dump-dom "file://$TMP/page.html?row=1&step=$((${round:-1} - 1))" >"$TMP/fifo.html"
[ "$(grep -o 'class="msg fromq"' "$TMP/fifo.html" | wc -l)" -eq "$(cells d)" ] &&
    [ "$(grep -o 'class="msg waiting"' "$TMP/fifo.html" | wc -l)" -eq "$(cells q)" ] && ok ||
    bad "round $round: $(grep -o 'class="msg fromq"' "$TMP/fifo.html" | wc -l) arrows from a queue, $(cells d) on the board; $(grep -o 'class="msg waiting"' "$TMP/fifo.html" | wc -l) waiting, $(cells q) on the board"
grep -q "from a queue $(cells d))" "$TMP/fifo.html" && ok || bad "round $round: the counts of deliveries from a queue"
# p = 256: the page says what it draws, a sample of the senders' messages, and draws that.
"$BIN" configs/examples/rounds.ini --set machine.procs=256 --set machine.discipline=fifo \
    --set run.algorithms=hrel.offline --html "$TMP/big.html" --out /dev/null 2>/dev/null
browse --dump-dom "file://$TMP/big.html?row=0&step=0" >"$TMP/big0.html"
grep -q '256 processors: the arrows are the messages sent by 16 of them (P0, P16, P32, ...)' "$TMP/big0.html" &&
    [ "$(grep -o 'class="node"' "$TMP/big0.html" | wc -l)" -eq 256 ] &&
    [ "$(grep -o 'class="msg delivered"' "$TMP/big0.html" | wc -l)" -eq 16 ] && ok ||
    bad "p = 256: the note, the nodes or the sample's 16 arrows of round 1"

echo "$pass passed, $fail failed (the --html page in headless Chromium)"
[ "$fail" -eq 0 ]
