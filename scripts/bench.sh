#!/bin/sh
# scripts/bench.sh BUILD_DIR: the figures of `make bench`, two tables.
#
# h-relations: `BUILD_DIR/hremu configs/bench/hrel.ini` (hrel.direct, hrel.two_phase, hrel.xor)
#   beside BUILD_DIR/bench/ref_alltoall (the same elements routed by p plain pthreads) and
#   BUILD_DIR/bench/seq_route (one thread, one loop). Ratio: x_ref = elements/s over
#   ref_alltoall's elements/s.
# sorting: `BUILD_DIR/hremu configs/bench/radix.ini` (sort.radix) beside BUILD_DIR/bench/seq_radix
#   (one LSD radix sort of the same keys on one thread). Ratio: x_seq = elements/s over
#   seq_radix's elements/s.
#
# The references take p, n and seed from the configs, so every row of a table moves the same
# elements. Each figure is a median: over BENCH_RUNS runs (default 11) for a reference, over the
# config's repeat for hremu. Benchmarks are not tests: the figures vary run to run; the exit status
# is 1 only when a program fails or hremu reports a run it could not verify.
set -u

build=${1:?usage: scripts/bench.sh BUILD_DIR}
cd "$(dirname "$0")/.." || exit 1
runs=${BENCH_RUNS:-11}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0

# ini CONFIG SECTION KEY: the value of KEY in [SECTION], comments and blanks stripped.
ini() {
    awk -F= -v sec="$2" -v key="$3" '
        /^[ \t]*\[/ { s = $0; gsub(/[][ \t]/, "", s); next }
        s == sec {
            k = $1; gsub(/[ \t]/, "", k)
            if (k == key) { v = $2; sub(/[;#].*/, "", v); gsub(/[ \t]/, "", v); print v; exit }
        }' "$1"
}

# setup CONFIG: p, n and seed from CONFIG, which must be plain numbers for the references.
setup() {
    p=$(ini "$1" machine procs)
    n=$(ini "$1" workload n)
    seed=$(ini "$1" machine seed)
    case "$p$n$seed" in
        *[!0-9]* | "") echo "bench.sh: $1: procs, n and seed must be plain numbers" >&2; exit 2 ;;
    esac
}

# reference NAME ROWS: run BUILD_DIR/bench/NAME on p, n, seed; append "NAME median_s n" to ROWS.
reference() {
    if [ ! -x "$build/bench/$1" ]; then
        echo "bench.sh: $build/bench/$1 is not built; skipped" >&2
        return
    fi
    if ! out=$("$build/bench/$1" "$p" "$n" "$runs" "$seed"); then
        echo "bench.sh: $1 failed" >&2
        status=1
        return
    fi
    echo "$out"
    echo "$out" | awk -v name="$1" '{
        for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
        print name, f["median_s"], f["n"] }' >> "$2"
}

# emulated CONFIG ROWS: run hremu on CONFIG; append "hremu:ALGORITHM wall_s n" per row to ROWS.
emulated() {
    if [ ! -x "$build/hremu" ]; then
        echo "bench.sh: $build/hremu is not built; only the references ran" >&2
        return
    fi
    "$build/hremu" "$1" --format csv > "$tmp/csv" 2> "$tmp/err"
    rc=$?
    cat "$tmp/err" >&2
    [ $rc -eq 0 ] || { echo "bench.sh: hremu $1 exited with status $rc" >&2; status=1; }
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
        END { exit missing ? 3 : bad ? 4 : 0 }' "$tmp/csv" >> "$2"
    case $? in
        0) ;;
        3) echo "bench.sh: hremu's CSV lacks the algorithm, n or wall_s column" >&2; status=1 ;;
        *) echo "bench.sh: hremu could not verify a run of $1" >&2; status=1 ;;
    esac
}

# table ROWS BASE COLUMN: name, wall_s, elements/s and COLUMN = elements/s over BASE's elements/s.
table() {
    awk -v base="$2" -v column="$3" '
        { name[NR] = $1; wall[NR] = $2; n[NR] = $3; if ($1 == base) ref = $3 / $2 }
        END {
            printf "%-28s %10s %12s %8s\n", "name", "wall_s", "elements/s", column
            for (i = 1; i <= NR; i++) {
                eps = (wall[i] > 0) ? n[i] / wall[i] : 0
                e = (eps > 0) ? sprintf("%.3e", eps) : "-"
                x = (eps > 0 && ref > 0) ? sprintf("%.2f", eps / ref) : "-"
                printf "%-28s %10.6f %12s %8s\n", name[i], wall[i], e, x
            }
        }' "$1"
}

hrel=configs/bench/hrel.ini
setup "$hrel"
hrel_p=$p hrel_n=$n hrel_seed=$seed
: > "$tmp/hrel"
reference ref_alltoall "$tmp/hrel"
reference seq_route "$tmp/hrel"
emulated "$hrel" "$tmp/hrel"

radix=configs/bench/radix.ini
setup "$radix"
: > "$tmp/sort"
reference seq_radix "$tmp/sort"
emulated "$radix" "$tmp/sort"

echo
echo "h-relations: uniform, p = $hrel_p, n = $hrel_n, seed $hrel_seed ($hrel)"
if [ -s "$tmp/hrel" ]; then
    table "$tmp/hrel" ref_alltoall x_ref
    echo "x_ref: elements/s over ref_alltoall's (plain pthreads): 1.00 as fast, 0.50 half as fast"
else
    echo "(nothing ran)"
fi
echo
echo "sorting: dataset R (31-bit keys), p = $p, n = $n, seed $seed ($radix)"
if [ -s "$tmp/sort" ]; then
    table "$tmp/sort" seq_radix x_seq
    echo "x_seq: elements/s over seq_radix's (one thread, one LSD radix sort): above 1.00 faster"
else
    echo "(nothing ran)"
fi
echo "wall_s: medians over runs; the box is shared, so quote the ratios, not the absolute times"
[ -s "$tmp/hrel" ] || [ -s "$tmp/sort" ] || { echo "bench.sh: nothing ran" >&2; exit 1; }
exit $status
