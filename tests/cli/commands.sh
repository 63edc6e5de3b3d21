#!/bin/sh
# Every hremu command the project shows a user runs and succeeds: the commands in README.md,
# docs/*.md (code lines and `inline code`) and in the comments of configs/**/*.ini ("; ./hremu
# ...", continued with a backslash). Synopses (CONFIG.ini, FILE, SECTION.KEY, [...]) are not
# commands and are skipped. Each runs in a scratch directory that holds links to configs/,
# tests/ and the binary as ./hremu, so a command that writes a file (--out sweep.csv) leaves the
# checkout alone. A command passes when it exits 0 with no warning on stderr; one refused by a
# ThreadSanitizer build for its size (more fibers than TSan tracks) is skipped. The last line is
# "N passed, M failed, K skipped".
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
BIN=${HREMU_BIN:-./hremu}
case $BIN in /*) ;; *) BIN=$ROOT/$BIN ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hremu-cmds.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
ln -s "$ROOT/configs" "$TMP/configs"
ln -s "$ROOT/tests" "$TMP/tests"
ln -s "$BIN" "$TMP/hremu"

python3 - "$ROOT" >"$TMP/commands" <<'EOF'
import glob, os, re, sys
root = sys.argv[1]
synopsis = re.compile(r"CONFIG\.ini|FILE|SECTION\.KEY|\[|\||\.\.\.")
found = []
def add(where, cmd):
    cmd = " ".join(cmd.split())
    if cmd.startswith("hremu "):
        cmd = "./" + cmd
    if not cmd.startswith("./hremu") or synopsis.search(cmd):
        return
    found.append((where, cmd))
for path in sorted(glob.glob(os.path.join(root, "README.md")) + glob.glob(os.path.join(root, "docs", "*.md"))):
    rel = os.path.relpath(path, root)
    text = open(path).read()
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        s = lines[k].strip()
        start = k
        if s.startswith("./hremu"):           # a code line (indented or fenced), maybe continued
            while s.endswith("\\") and k + 1 < len(lines):
                k += 1
                s = s[:-1] + " " + lines[k].strip()
            add("%s:%d" % (rel, start + 1), s.split("  #")[0])
        k += 1
    # inline code spans, which may run over a line break
    for m in re.finditer(r"`(\.?/?hremu\s[^`]*)`", text):
        add("%s:%d" % (rel, text.count("\n", 0, m.start()) + 1), m.group(1))
for path in sorted(glob.glob(os.path.join(root, "configs", "**", "*.ini"), recursive=True)):
    rel = os.path.relpath(path, root)
    lines = open(path).read().split("\n")
    k = 0
    while k < len(lines):
        s = lines[k].lstrip(";# ").rstrip()
        start = k
        if s.startswith("./hremu"):
            cmd = s
            while cmd.endswith("\\") and k + 1 < len(lines):
                k += 1
                cmd = cmd[:-1] + " " + lines[k].lstrip(";# ").rstrip()
            add("%s:%d" % (rel, start + 1), cmd)
        k += 1
seen = set()
for where, cmd in found:
    if cmd not in seen:
        seen.add(cmd)
        print("%s\t%s" % (where, cmd))
EOF

pass=0
fail=0
skip=0
TIMEOUT=""
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 300"
while IFS="$(printf '\t')" read -r where cmd; do
    (cd "$TMP" && eval "$TIMEOUT $cmd" >"$TMP/out" 2>"$TMP/err" </dev/null)
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q "warning" "$TMP/err"; then
        # A command shown to a user runs clean: a warning means the command or its config
        # says something hremu does not use.
        fail=$((fail + 1))
        echo "FAIL: $where: $cmd: warns"
        sed 's/^/    stderr: /' "$TMP/err" | head -5
    elif [ "$rc" -eq 0 ]; then
        pass=$((pass + 1))
    elif [ "$rc" -eq 2 ] && grep -q "a ThreadSanitizer build runs up to" "$TMP/err"; then
        skip=$((skip + 1))     # a machine larger than ThreadSanitizer can track (machine.c)
    else
        fail=$((fail + 1))
        echo "FAIL: $where: $cmd: exit status $rc"
        sed 's/^/    stderr: /' "$TMP/err" | head -5
    fi
done <"$TMP/commands"
[ -n "${HREMU_CMDS_VERBOSE:-}" ] && cat "$TMP/commands"
[ "$pass" -gt 0 ] || { echo "FAIL: no commands found"; fail=$((fail + 1)); }
echo "$pass passed, $fail failed, $skip skipped (commands shown in README.md, docs/ and configs/)"
[ "$fail" -eq 0 ]
