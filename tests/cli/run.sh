#!/bin/sh
# End-to-end tests of the hremu command: exit statuses, messages, output formats.
# Run from anywhere; HREMU_BIN names the binary (default ./hremu). The last line is
# "N passed, M failed"; the exit status is nonzero if any case failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${HREMU_BIN:-./hremu}
if [ ! -x "$BIN" ]; then
    echo "FAIL: no hremu binary at $BIN (build it, or set HREMU_BIN)"
    echo "0 passed, 1 failed"
    exit 1
fi
D=tests/data
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hremu-cli.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0
fail=0

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run ARGS...: runs hremu, leaving stdout in $TMP/out, stderr in $TMP/err, status in $rc.
run() {
    "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
}

# expect_rc WANT NAME: the last run's exit status.
expect_rc() {
    if [ "$rc" -eq "$1" ]; then ok; else
        bad "$2: exit status $rc, want $1"; sed 's/^/    stderr: /' "$TMP/err" | head -5
    fi
}

# expect_err TEXT NAME: the last run's stderr is exactly one line, TEXT.
expect_err() {
    if [ "$(cat "$TMP/err")" = "$1" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]; then ok; else
        bad "$2: stderr is '$(cat "$TMP/err")', want '$1'"
    fi
}

# expect_grep PATTERN FILE NAME: FILE has a line matching PATTERN (fixed string).
expect_grep() {
    if grep -qF -- "$1" "$2"; then ok; else bad "$3: no '$1' in $(basename "$2")"; fi
}

# expect_empty FILE NAME
expect_empty() {
    if [ ! -s "$1" ]; then ok; else bad "$2: $(basename "$1") is not empty"; fi
}

HEADER=algorithm,procs,n,h,discipline,topology,cost,seed,model_time_s,rounds,messages,bytes,max_out_bytes,max_in_bytes,wall_s,verified

# ---- information -----------------------------------------------------------------------
run --version
expect_rc 0 "--version"
[ "$(cat "$TMP/out")" = "hremu 0.1.0" ] && ok || bad "--version prints '$(cat "$TMP/out")'"

run --help
expect_rc 0 "--help"
expect_grep "usage: hremu [CONFIG.ini]" "$TMP/out" "--help"
expect_grep "--set SECTION.KEY=VALUE" "$TMP/out" "--help"

run --list
expect_rc 0 "--list"
for section in algorithms: workloads: disciplines: topologies: "cost presets:"; do
    expect_grep "$section" "$TMP/out" "--list"
done
for name in hrel.direct hrelation async complete cm5 "distributions: "; do
    expect_grep "$name" "$TMP/out" "--list"
done

# ---- running ---------------------------------------------------------------------------
run --format csv
expect_rc 0 "default config"
expect_empty "$TMP/err" "default config stderr"
[ "$(head -n 1 "$TMP/out" | cut -d, -f1-16)" = "$HEADER" ] && ok ||
    bad "CSV header is '$(head -n 1 "$TMP/out")'"
[ "$(wc -l <"$TMP/out")" -eq 2 ] && ok || bad "default config: $(wc -l <"$TMP/out") lines"
expect_grep "hrel.direct,16,1048576,262144,async,complete,cm5,1," "$TMP/out" "default config row"
cut -d, -f16 "$TMP/out" | tail -n 1 | grep -qx true && ok || bad "default config not verified"

run configs/default.ini
expect_rc 0 "table"
head -n 1 "$TMP/out" | grep -q '^algorithm  *procs  *n  *h  *discipline' && ok ||
    bad "table header is '$(head -n 1 "$TMP/out")'"

run --set machine.procs=4,8 --set workload.n=2^10 --set run.repeat=2 --format=json
expect_rc 0 "json sweep"
[ "$(wc -l <"$TMP/out")" -eq 2 ] && ok || bad "json sweep: $(wc -l <"$TMP/out") rows, want 2"
[ "$(grep -c '^{"algorithm":"hrel.direct","procs":[48],"n":1024,' "$TMP/out")" -eq 2 ] && ok ||
    bad "json rows: $(cat "$TMP/out")"

run configs/examples/sweep.ini --format csv --set run.repeat=1
expect_rc 0 "example sweep"
[ "$(wc -l <"$TMP/out")" -eq 19 ] && ok || bad "example sweep: $(wc -l <"$TMP/out") lines, want 19"

# verify = false: the row is not verified, yet nothing failed.
run --format csv --set run.verify=false --set workload.n=2^12
expect_rc 0 "verify = false"
tail -n 1 "$TMP/out" | grep -q ',false,0,unchecked,$' && ok || bad "verify = false: $(tail -n 1 "$TMP/out")"

run --format csv --out "$TMP/rows.csv" --set workload.n=2^12
expect_rc 0 "--out"
expect_empty "$TMP/out" "--out leaves stdout"
[ "$(head -n 1 "$TMP/rows.csv" | cut -d, -f1-16)" = "$HEADER" ] && ok || bad "--out file header"

# The model columns are deterministic, whatever the thread schedule (jitter on).
model_cols() { cut -d, -f1-14 "$1"; }
"$BIN" --format csv --set machine.procs=8 --set workload.n=2^14 >"$TMP/a.csv" 2>/dev/null
HREMU_JITTER=1 "$BIN" --format csv --set machine.procs=8 --set workload.n=2^14 \
    >"$TMP/b.csv" 2>/dev/null
if [ -s "$TMP/a.csv" ] && [ "$(model_cols "$TMP/a.csv")" = "$(model_cols "$TMP/b.csv")" ]; then
    ok
else
    bad "model columns differ between two runs of one config"
fi

# ---- usage and config errors: status 2, one line, nothing run -------------------------------
run "$D/no_such.ini"
expect_rc 2 "missing file"
expect_err "hremu: $D/no_such.ini: cannot open: No such file or directory" "missing file"
expect_empty "$TMP/out" "missing file stdout"

run "$D/bad_unknown_key.ini"
expect_rc 2 "bad key"
expect_err "hremu: $D/bad_unknown_key.ini:4: unknown key 'prcs' in [machine] (keys: procs, topology, discipline, buffer, cost, tau, sigma, overhead, hop, compute_unit, compute, seed)" "bad key"

run "$D/bad_procs.ini"
expect_rc 2 "p > 4096 in a file"
expect_err "hremu: $D/bad_procs.ini:2: procs = 4097: must be 1 .. 4096 (it is 4097)" "p > 4096"

run --set machine.procs=4097
expect_rc 2 "p > 4096 by --set"
expect_err "hremu: --set machine.procs: procs = 4097: must be 1 .. 4096 (it is 4097)" "--set p"
expect_empty "$TMP/out" "p > 4096 stdout"

# A bad point late in a sweep stops everything before the first row runs.
run --set machine.procs=2,4,5000 --format csv
expect_rc 2 "bad sweep point"
expect_empty "$TMP/out" "bad sweep point stdout"

run "$D/bad_transpose.ini"
expect_rc 2 "workload preflight"
grep -q "^hremu: $D/bad_transpose.ini:1: workload hrelation, n = 1000" "$TMP/err" && ok ||
    bad "workload preflight: $(cat "$TMP/err")"

run "$D/bad_syntax.ini"
expect_rc 2 "syntax"
expect_err "hremu: $D/bad_syntax.ini:3: expected KEY = VALUE, [SECTION] or a comment" "syntax"

run --set hrel.direct.K=1
expect_rc 2 "algorithm section by --set"
grep -q "^hremu: --set hrel.direct.K: unknown key 'K' in \[hrel.direct\]" "$TMP/err" && ok ||
    bad "algorithm section by --set: $(cat "$TMP/err")"

run --bogus
expect_rc 2 "unknown option"
expect_grep "hremu: unknown option '--bogus'" "$TMP/err" "unknown option"

run --format xml
expect_rc 2 "bad format"

run --set
expect_rc 2 "--set without a value"

run a.ini b.ini
expect_rc 2 "two configs"

run --out "$TMP/no/such/dir/x.csv"
expect_rc 2 "--out unwritable"
expect_grep "cannot open" "$TMP/err" "--out unwritable"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
