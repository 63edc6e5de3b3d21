#!/bin/sh
# hremu --html in a real browser: headless Chromium loads the page the command wrote, runs its
# script, and the test reads the DOM it built (nodes and arrows of a round) and a screenshot
# (the colours of delivered messages on the board). Skipped (exit 0) where Chromium is missing;
# `make check-browser` installs it (scripts/deps.sh chromium) and runs this. The last line is
# "N passed, M failed".
set -u
cd "$(dirname "$0")/.." || exit 1
BIN=${HREMU_BIN:-./hremu}
BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
    echo "SKIP tests/browser.sh: Chromium is missing (make check-browser installs it)"
    exit 0
fi
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
browse --dump-dom "file://$TMP/page.html?row=0&step=0" >"$TMP/dom.html"
[ "$(grep -o 'class="node"' "$TMP/dom.html" | wc -l)" -eq 8 ] && ok ||
    bad "the board has $(grep -o 'class="node"' "$TMP/dom.html" | wc -l) nodes, want 8"
grep -q 'data-arrows="8"' "$TMP/dom.html" && ok || bad "round 1 has not 8 arrows"
grep -q 'round 1 of 7' "$TMP/dom.html" && ok || bad "the slider does not say round 1 of 7"
# The last round of the arbitrary-write row of hrel.aw_uniform shows its counts.
row=$(grep -o 'option value="[0-9]*">hrel.aw_uniform' "$TMP/dom.html" | grep -o '[0-9][0-9]*' | head -n 1)
[ -n "$row" ] && ok || bad "no hrel.aw_uniform row in the page's menu"
browse --dump-dom "file://$TMP/page.html?row=${row:-0}&step=0" >"$TMP/dom2.html"
grep -q 'hrel.aw_uniform.*delivered [0-9]*, queued 0, lost [0-9]*' "$TMP/dom2.html" && ok ||
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
echo "$pass passed, $fail failed (the --html page in headless Chromium)"
[ "$fail" -eq 0 ]
