#!/bin/sh
# The determinism matrix: every config under configs/ that runs in a few seconds gives the same
# model columns (every column but the wall-clock ones and repeat, read by name) plain, under
# HREMU_JITTER=1, and on one core (taskset), and never says "nondeterministic" when a row is
# run twice under jitter ([run] repeat = 2: the sweep compares a row's repeats itself).
# Sanitizer builds run the smallest configs only (they are ten times slower), and say how many
# they left out.
#
#   tests/cli/determinism.sh [CONFIG.ini ...]     (default: the quick list below)
#   HREMU_BIN=build/hremu REF_BIN=/path/to/other/hremu tests/cli/determinism.sh
#     also compares with another build's model columns (what a change to the engine altered);
#     with REF_ROOT=/path/to/its/tree, that build reads its own copy of each config.
# The last line is "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${HREMU_BIN:-./hremu}
REF=${REF_BIN:-}
REF_ROOT=${REF_ROOT:-}   # the other build's tree: its own configs/ (the same names, its syntax)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hremu-det.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM

# Quick configs (a few seconds each plain on a 2-core box), every engine and discipline among
# them: async and sync p2p, rounds, supersteps, collectives, six topologies with links, and the
# three cost models (configs/models/: bdm, loggp on complete and on hypercubes, bsp).
QUICK="configs/default.ini configs/examples/rounds.ini configs/examples/sweep.ini
configs/teaching/contention.ini configs/teaching/disciplines.ini configs/teaching/pipelined.ini
configs/teaching/skewed.ini configs/teaching/torus.ini configs/seed001/table10.ini
configs/seed001/table12.ini configs/seed001/fig11.ini configs/seed002/ac.ini
configs/seed004/values.ini configs/seed004/sort.ini configs/seed001/fig5.ini
configs/seed001/fig10.ini configs/seed001/table11.ini configs/seed002/table6.ini
configs/bench/topologies.ini configs/seed002/table1.ini configs/topologies/skewed.ini
configs/topologies/transpose.ini configs/models/hrel.ini configs/models/exchange.ini
configs/models/bcast.ini"
SMALL="configs/default.ini configs/examples/rounds.ini configs/teaching/contention.ini
configs/teaching/disciplines.ini configs/teaching/pipelined.ini configs/teaching/skewed.ini
configs/teaching/torus.ini configs/seed001/table10.ini configs/seed001/table12.ini
configs/seed002/ac.ini configs/seed004/values.ini configs/models/bcast.ini"
# Sync, and eager with limits that make sends of both kinds, on topologies with links, where
# rendezvous and routing meet.
EXTRA="configs/teaching/contention.ini --set machine.discipline=sync
configs/teaching/torus.ini --set machine.discipline=sync
configs/seed002/table6.ini --set machine.topology=fattree --set machine.discipline=sync
configs/seed001/table10.ini --set machine.topology=ring --set machine.discipline=sync
configs/teaching/torus.ini --set machine.discipline=eager --set machine.eager_limit=512
configs/seed001/table10.ini --set machine.topology=ring --set machine.discipline=eager --set machine.eager_limit=1K"

if [ -n "${SAN:-}" ]; then
    set -- $SMALL
    left=$(($(echo $QUICK | wc -w) - $#))
    echo "SKIP $left of the quick configs under SAN=$SAN (the smallest $# run)"
    EXTRA=""
elif [ $# -eq 0 ]; then
    set -- $QUICK
fi

pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# model CSV OUT: the rows of `hremu ARGS --format csv`, without the wall-clock columns.
model() {
    out=$1
    shift
    "$@" --format csv --quiet >"$out.raw" 2>"$out.err"
    echo $? >"$out.rc"
    python3 - "$out.raw" >"$out" <<'EOF'
import csv, sys
wall = {"wall_s", "plan_s", "repeat"}
rows = list(csv.reader(open(sys.argv[1])))
if rows:
    keep = [i for i, name in enumerate(rows[0]) if name not in wall]
    for r in rows:
        print(",".join(r[i] for i in keep if i < len(r)))
EOF
}

onecore=""
command -v taskset >/dev/null 2>&1 && onecore="taskset -c 0"

check() {    # check NAME ARGS...: the matrix for one command
    name=$1
    shift
    model "$TMP/plain" "$BIN" "$@"
    if [ "$(cat "$TMP/plain.rc")" -ge 2 ] || [ ! -s "$TMP/plain" ]; then
        bad "$name: did not run: $(head -c 300 "$TMP/plain.err")"
        return
    fi
    if grep -q nondeterministic "$TMP/plain"; then
        bad "$name: a repeated row differs: $(grep nondeterministic "$TMP/plain" | head -1)"
    else
        ok
    fi
    # Jittered, twice in one sweep: the sweep says nondeterministic if the two differ.
    HREMU_JITTER=1 model "$TMP/jitter" "$BIN" "$@" --set run.repeat=2
    if grep -q nondeterministic "$TMP/jitter"; then
        bad "$name: repeat = 2 under HREMU_JITTER=1 says nondeterministic: $(grep nondeterministic "$TMP/jitter" | head -1)"
    else
        ok
    fi
    if cmp -s "$TMP/plain" "$TMP/jitter"; then ok; else
        bad "$name: HREMU_JITTER=1 changes the model columns:"
        diff "$TMP/plain" "$TMP/jitter" | head -4
    fi
    if [ -n "$onecore" ]; then
        model "$TMP/one" $onecore "$BIN" "$@"
        if cmp -s "$TMP/plain" "$TMP/one"; then ok; else
            bad "$name: one core changes the model columns:"
            diff "$TMP/plain" "$TMP/one" | head -4
        fi
    fi
    if [ -n "$REF" ]; then
        if [ -n "$REF_ROOT" ]; then
            (cd "$REF_ROOT" && model "$TMP/ref" "$REF" "$@")
        else
            model "$TMP/ref" "$REF" "$@"
        fi
        if same_model "$TMP/ref.raw" "$TMP/plain.raw" >"$TMP/why"; then ok; else
            bad "$name: differs from $REF: $(cat "$TMP/why")"
        fi
    fi
}

# same_model A.csv B.csv: the model columns both builds write are equal, by name, row by row.
# A column only one of them has is a new column, not a changed figure: it is left out.
same_model() {
    python3 - "$1" "$2" <<'EOF'
import csv, sys
wall = {"wall_s", "plan_s", "repeat"}
a = list(csv.reader(open(sys.argv[1])))
b = list(csv.reader(open(sys.argv[2])))
if not a or not b:
    print("no rows from one of them")
    sys.exit(1)
common = [n for n in a[0] if n in b[0] and n not in wall]
if len(a) != len(b):
    print("%d rows against %d" % (len(a) - 1, len(b) - 1))
    sys.exit(1)
for k, (ra, rb) in enumerate(zip(a[1:], b[1:]), 1):
    for n in common:
        x, y = ra[a[0].index(n)], rb[b[0].index(n)]
        if x != y:
            print("row %d, %s: %s against %s" % (k, n, x, y))
            sys.exit(1)
EOF
}

for cfg in "$@"; do
    check "$cfg" "$cfg"
done
echo "$EXTRA" | while IFS= read -r line; do
    [ -n "$line" ] || continue
    # shellcheck disable=SC2086
    check "$line" $line
    echo "$pass $fail" >"$TMP/counts"
done
[ -f "$TMP/counts" ] && read -r pass fail <"$TMP/counts"
echo "$pass passed, $fail failed (determinism matrix: plain, HREMU_JITTER=1 twice, one core)"
[ "$fail" -eq 0 ]
