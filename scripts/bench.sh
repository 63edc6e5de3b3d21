#!/bin/sh
# scripts/bench.sh BUILD_DIR: the figures of `make bench`. Runs the plain references
# (BUILD_DIR/bench/ref_alltoall: p pthreads; BUILD_DIR/bench/seq_route: one thread) and
# `BUILD_DIR/hremu configs/bench/direct.ini --format csv` on the same uniform h-relation, and prints
# one table: name, wall_s, elements/s, and vs_ref = wall_s / ref_alltoall's wall_s.
# Benchmarks are not tests: the figures vary run to run; the exit status is 1 only when a program
# fails or hremu reports a run it could not verify.
set -u

build=${1:?usage: scripts/bench.sh BUILD_DIR}
cd "$(dirname "$0")/.." || exit 1
config=configs/bench/direct.ini
runs=${BENCH_RUNS:-11}

# The references take p, n and seed from the config, so all rows move the same elements.
ini() {
    awk -F= -v sec="$1" -v key="$2" '
        /^[ \t]*\[/ { s = $0; gsub(/[][ \t]/, "", s); next }
        s == sec {
            k = $1; gsub(/[ \t]/, "", k)
            if (k == key) { v = $2; sub(/[;#].*/, "", v); gsub(/[ \t]/, "", v); print v; exit }
        }' "$config"
}
p=$(ini machine procs)
n=$(ini workload n)
seed=$(ini machine seed)
case "$p$n$seed" in
    *[!0-9]* | "") echo "bench.sh: $config: procs, n and seed must be plain numbers" >&2; exit 2 ;;
esac

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
rows=$tmp/rows   # name wall_s n
status=0

for ref in ref_alltoall seq_route; do
    if [ ! -x "$build/bench/$ref" ]; then
        echo "bench.sh: $build/bench/$ref is not built; skipped" >&2
        continue
    fi
    if ! out=$("$build/bench/$ref" "$p" "$n" "$runs" "$seed"); then
        echo "bench.sh: $ref failed" >&2
        status=1
        continue
    fi
    echo "$out"
    echo "$out" | awk -v name="$ref" '{
        for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
        print name, f["median_s"], f["n"] }' >> "$rows"
done

if [ -x "$build/hremu" ]; then
    "$build/hremu" "$config" --format csv > "$tmp/csv" 2> "$tmp/err"
    rc=$?
    cat "$tmp/err" >&2
    [ $rc -eq 0 ] || { echo "bench.sh: hremu exited with status $rc" >&2; status=1; }
    # Columns are found by name in the header: more may follow the contract's first sixteen.
    awk -F, '
        { gsub(/"/, "") }
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        !("algorithm" in col) || !("wall_s" in col) || !("n" in col) { missing = 1; exit }
        {
            v = ("verified" in col) ? $col["verified"] : "true"
            ok = v == "true" || v == "1" || v == "yes"
            print "hremu:" $col["algorithm"] (ok ? "" : ":NOT-VERIFIED"), $col["wall_s"], $col["n"]
            if (!ok) bad = 1
        }
        END { exit missing ? 3 : bad ? 4 : 0 }' "$tmp/csv" >> "$rows"
    case $? in
        0) ;;
        3) echo "bench.sh: hremu's CSV lacks the algorithm, n or wall_s column" >&2; status=1 ;;
        *) echo "bench.sh: hremu could not verify a run" >&2; status=1 ;;
    esac
else
    echo "bench.sh: $build/hremu is not built; only the references ran" >&2
fi

[ -s "$rows" ] || { echo "bench.sh: nothing ran" >&2; exit 1; }
echo
echo "uniform h-relation, p = $p, n = $n, seed $seed; wall_s: median over runs"
awk '
    { name[NR] = $1; wall[NR] = $2; n[NR] = $3; if ($1 == "ref_alltoall") ref = $2 }
    END {
        printf "%-32s %10s %12s %8s\n", "name", "wall_s", "elements/s", "vs_ref"
        for (i = 1; i <= NR; i++) {
            eps = wall[i] > 0 ? sprintf("%.3e", n[i] / wall[i]) : "-"
            vs = ref > 0 ? sprintf("%.2f", wall[i] / ref) : "-"
            printf "%-32s %10.6f %12s %8s\n", name[i], wall[i], eps, vs
        }
        print "vs_ref: wall_s / ref_alltoall wall_s (1.00: as fast as plain pthreads, 2.00: half)"
    }' "$rows"
exit $status
