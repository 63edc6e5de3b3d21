#!/bin/sh
# scripts/bench.sh BUILD_DIR: the figures of `make bench`, eleven tables.
#
# h-relations: `BUILD_DIR/hremu configs/bench/hrel.ini` (hrel.direct, hrel.two_phase, hrel.xor)
#   beside BUILD_DIR/bench/ref_alltoall (the same elements routed by p plain pthreads, in one
#   pass), BUILD_DIR/bench/ref_two_phase (the two-phase algorithm in plain pthreads) and
#   BUILD_DIR/bench/seq_route (one thread, one loop). Ratios: x_ref = elements/s over
#   ref_alltoall's; x_plain = hrel.two_phase's over ref_two_phase's (what the emulator costs).
# sorting: `BUILD_DIR/hremu configs/bench/radix.ini` (sort.radix) beside BUILD_DIR/bench/seq_radix
#   (one LSD radix sort of the same keys on one thread) and BUILD_DIR/bench/ref_radix (the
#   paper's radix sort in plain pthreads). Ratios: x_seq = elements/s over seq_radix's;
#   x_plain = sort.radix's over ref_radix's.
# rounds: `BUILD_DIR/hremu configs/bench/rounds.ini` (hrel.pq_random under the priority discipline
#   on the alltoall h-relation, swept over its procs list) beside, for each p of that list,
#   BUILD_DIR/bench/barrier (p threads doing only barriers: the floor of a round) and
#   BUILD_DIR/bench/seq_rounds (one thread simulating the same rounds). Ratios: x_barrier =
#   hremu's seconds per round over barrier's (the target is at most 1.5 at p = 1024); x_seq =
#   seq_rounds's seconds per round over hremu's, i.e. rounds/s over seq_rounds's rounds/s.
# topologies: `BUILD_DIR/hremu configs/bench/topologies.ini` (hrel.direct on complete and on
#   topologies with links): wall_s and model_time_s per topology, and x_complete = wall_s over
#   complete's (the wall-time cost of link contention; the target is at most 2).
# seed 004: `BUILD_DIR/hremu configs/bench/seed004.ini` (broadcast and prefix at p = 1024 on
#   RH(6,2) and the 10-cube): steps per second of wall time, and x_barrier = seconds per step over
#   bench/barrier's seconds per round at the same p (from the rounds table).
# bitonic sorts: `BUILD_DIR/hremu configs/bench/bitonic.ini` (sort.bitonic on the 6-cube,
#   sort.rh_bitonic on RH(4,1), beside sort.radix on the same 2^22 keys): wall_s, keys/s and
#   x_radix = keys/s over sort.radix's on complete.
# seed 001 exchange: `BUILD_DIR/hremu configs/bench/seed001.ini` (xchg.pex and xchg.system, the
#   machine's hr_transpose, at p = 256 with 1920-byte blocks, on complete and fattree): wall_s,
#   model_time_s and x_system = wall_s over xchg.system's on the same topology.
# seed 001 FFT: `BUILD_DIR/hremu configs/bench/fft.ini` (app.fft2d, 1024^2 on 32 processors, with
#   PEX and with hr_transpose) beside BUILD_DIR/bench/ref_fft2d (FFTW's 2D DFT of the same array
#   on one thread, ESTIMATE and MEASURE plans): wall_s and x_fftw = wall_s over FFTW's ESTIMATE
#   plan's (the target is at most 3), x_measure over its MEASURE plan's.
# seed 002 scheduling: `BUILD_DIR/hremu configs/bench/seed002.ini` (the schedulers on 512
#   processors, d = 32, five patterns): the median plan_s (wall time of computing the schedule)
#   and permutations per scheduler, and x_cgm = plan_s over irreg.cgm's (CGMH's target: at most 3).
#
# the fiber engine: hrel.pq_random at p = 1024 (rounds.ini), xchg.pex and xchg.system at p = 256
#   with 8-byte blocks (seed001.ini), hrel.two_phase at p = 16 and n = 2^24 (hrel.ini), each on
#   engine threads, engine fibers on a carrier a core and on one carrier: wall_s, and x =
#   s/round over seq_rounds's, over xchg.system's on the same engine, or over engine threads',
#   each taken within one invocation of hremu (pex8 7 of them, bulk 5; rounds 1 on threads and 5
#   on fibers, each over a run of seq_rounds right after it): x their median, x_range their
#   least and greatest.
#   Its floor: BUILD_DIR/bench/round_floor, p = 1024 fibers on one carrier doing empty rounds
#   and rounds of one message each, in ns a processor a round beside seq_rounds'.
# scale: configs/bench/scale.ini and scale_hrel.ini at p = 65536 on fibers, one process an
#   algorithm: wall_s, model_time_s, steps (or rounds) and peak resident set (/usr/bin/time).
# The references take p, n and seed from the configs, so every row of a table moves the same
# elements. Each figure is a median: over BENCH_RUNS runs (default 11) for a reference, at most 5
# in the rounds table (a barrier run at p = 1024 takes about half a second), over the config's
# repeat for hremu. Benchmarks are not tests: the figures vary run to run; the exit status
# is 1 only when a program fails or hremu reports a run it could not verify.
set -u

build=${1:?usage: scripts/bench.sh BUILD_DIR}
cd "$(dirname "$0")/.." || exit 1
runs=${BENCH_RUNS:-11}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
status=0

# The box the figures are of: the ratios move with its processor and caches as much as with
# the code (docs/architecture.md, "How many carriers").
cpu=$(awk -F': ' '/^model name/ && !n++ { m = $2 } /^cpu family/ && !f++ { fam = $2 }
    /^model[ \t]*:/ && !k++ { mod = $2 }
    END { if (m != "") printf "%s%s", m, fam != "" ? " (family " fam ", model " mod ")" : "" }' \
    /proc/cpuinfo 2>/dev/null)
caches=$(getconf LEVEL2_CACHE_SIZE 2>/dev/null)
echo "box: ${cpu:-an unknown processor}, $(nproc) cores$([ "${caches:-0}" -gt 0 ] 2>/dev/null &&
    echo ", L2 $((caches / 1024)) KiB a core"), $(date -u +%Y-%m-%d)"

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

# bench_program NAME P N RUNS SEED ROWS PREFIX KEY...: run BUILD_DIR/bench/NAME on P, N, RUNS,
# SEED and show its line; append "[PREFIX ]NAME VALUE..." with the values of the named keys ("-"
# where it prints none) to ROWS. A program not built is skipped; one that fails sets status = 1.
bench_program() {
    name=$1 bp=$2 bn=$3 bruns=$4 bseed=$5 rows=$6 prefix=$7
    shift 7
    if [ ! -x "$build/bench/$name" ]; then
        echo "bench.sh: $build/bench/$name is not built; skipped" >&2
        return
    fi
    if ! out=$("$build/bench/$name" "$bp" "$bn" "$bruns" "$bseed"); then
        echo "bench.sh: $name failed" >&2
        status=1
        return
    fi
    echo "$out"
    echo "$out" | awk -v name="$name" -v prefix="$prefix" -v keys="$*" '{
        for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
        line = (prefix == "" ? "" : prefix " ") name
        nk = split(keys, k, " ")
        for (j = 1; j <= nk; j++) line = line " " ((k[j] in f) ? f[k[j]] : "-")
        print line }' >> "$rows"
}

# reference NAME ROWS: run BUILD_DIR/bench/NAME on p, n, seed; append "NAME median_s n" to ROWS.
reference() {
    bench_program "$1" "$p" "$n" "$runs" "$seed" "$2" "" median_s n
}

# hremu_rows CONFIG OUT COLUMN...: run hremu on CONFIG and write to OUT, per row, "OK VALUE..."
# with the named columns' values (found by name in the header: more may follow the contract's
# first sixteen) and OK 1 if the row verified, 0 if not. Sets status = 1 if hremu fails, a
# column is missing or a row did not verify; returns 1 if hremu is not built.
hremu_rows() {
    cfg=$1 rows=$2
    shift 2
    : > "$rows"
    if [ ! -x "$build/hremu" ]; then
        echo "bench.sh: $build/hremu is not built; only the references ran" >&2
        return 1
    fi
    "$build/hremu" "$cfg" --format csv > "$tmp/csv" 2> "$tmp/err"
    rc=$?
    cat "$tmp/err" >&2
    [ $rc -eq 0 ] || { echo "bench.sh: hremu $cfg exited with status $rc" >&2; status=1; }
    awk -F, -v want="$*" '
        { gsub(/"/, "") }
        NR == 1 {
            for (i = 1; i <= NF; i++) col[$i] = i
            nw = split(want, w, " ")
            for (k = 1; k <= nw; k++) if (!(w[k] in col)) { missing = w[k]; exit }
            next
        }
        {
            v = ("verified" in col) ? $col["verified"] : "true"
            ok = v == "true" || v == "1" || v == "yes"
            line = ok ? 1 : 0
            for (k = 1; k <= nw; k++) line = line " " $col[w[k]]
            print line
            if (!ok) bad = 1
        }
        END {
            if (missing != "") { print "bench.sh: hremu'"'"'s CSV lacks the " missing " column" > "/dev/stderr"; exit 3 }
            exit bad ? 4 : 0
        }' "$tmp/csv" > "$rows"
    case $? in
        0) ;;
        3) status=1 ;;
        *) echo "bench.sh: hremu could not verify a run of $cfg" >&2; status=1 ;;
    esac
    return 0
}

# emulated CONFIG ROWS: run hremu on CONFIG; append "hremu:ALGORITHM wall_s n" per row to ROWS.
emulated() {
    hremu_rows "$1" "$tmp/hrows" algorithm wall_s n || return
    awk '{ print "hremu:" $2 ($1 ? "" : ":NOT-VERIFIED"), $3, $4 }' "$tmp/hrows" >> "$2"
}

# table ROWS BASE COLUMN [PAIRS]: name, wall_s, elements/s and COLUMN = elements/s over BASE's
# elements/s; with PAIRS ("ROW=PLAIN ..."), also x_plain = ROW's elements/s over PLAIN's: hremu's
# run of an algorithm over the plain pthreads program of the same algorithm.
table() {
    awk -v base="$2" -v column="$3" -v pairs="${4:-}" '
        { name[NR] = $1; wall[NR] = $2; n[NR] = $3; if ($2 > 0) eps[$1] = $3 / $2 }
        END {
            np = split(pairs, pr, " ")
            for (k = 1; k <= np; k++) { split(pr[k], ab, "="); plain[ab[1]] = ab[2] }
            ref = (base in eps) ? eps[base] : 0
            printf "%-28s %10s %12s %8s%s\n", "name", "wall_s", "elements/s", column,
                   np ? sprintf(" %8s", "x_plain") : ""
            for (i = 1; i <= NR; i++) {
                e = (wall[i] > 0) ? n[i] / wall[i] : 0
                x = (e > 0 && ref > 0) ? sprintf("%.2f", e / ref) : "-"
                q = plain[name[i]]
                xp = (e > 0 && q != "" && eps[q] > 0) ? sprintf("%.2f", e / eps[q]) : "-"
                printf "%-28s %10.6f %12s %8s%s\n", name[i], wall[i],
                       (e > 0) ? sprintf("%.3e", e) : "-", x, np ? sprintf(" %8s", xp) : ""
            }
        }' "$1"
}

# rounds_setup CONFIG: rprocs (the procs list, blank-separated), rseed and rruns for the round
# table; the procs must be plain numbers of at least 2 (alltoall needs two processors).
rounds_setup() {
    rprocs=$(ini "$1" machine procs | tr , ' ')
    rseed=$(ini "$1" machine seed)
    case "$rseed" in
        *[!0-9]* | "") echo "bench.sh: $1: seed must be a plain number" >&2; exit 2 ;;
    esac
    [ -n "$rprocs" ] || { echo "bench.sh: $1: no procs" >&2; exit 2; }
    for q in $rprocs; do
        case "$q" in
            *[!0-9]* | "" | [01]) echo "bench.sh: $1: procs must be plain numbers >= 2" >&2; exit 2 ;;
        esac
    done
    rruns=$runs
    [ "$rruns" -gt 5 ] 2> /dev/null && rruns=5
}

# round_reference NAME P ROWS: run BUILD_DIR/bench/NAME on P, n = P(P-1), rruns, rseed; append
# "P NAME per_round_s rounds" to ROWS (rounds "-" when NAME does not print one).
round_reference() {
    bench_program "$1" "$2" $(($2 * ($2 - 1))) "$rruns" "$rseed" "$3" "$2" per_round_s rounds
}

# emulated_rounds CONFIG ROWS: run hremu on CONFIG; append "P hremu rounds messages wall_s" per
# verified row to ROWS.
emulated_rounds() {
    hremu_rows "$1" "$tmp/hrows" procs rounds messages wall_s || return
    awk '$1 { print $2, "hremu", $3, $4, $5 }' "$tmp/hrows" >> "$2"
}

# round_table ROWS PROCS: one line per p of PROCS (blank-separated), "-" where a figure is missing.
round_table() {
    awk -v procs="$2" '
        $2 == "hremu" { hr[$1] = $3; hm[$1] = $4; hw[$1] = $5 }
        $2 == "barrier" { bs[$1] = $3 }
        $2 == "seq_rounds" { ss[$1] = $3; sr[$1] = $4 }
        function num(x, f) { return (x != "" && x + 0 > 0) ? sprintf(f, x) : "-" }
        END {
            printf "%5s %7s %7s %9s %9s %9s %9s %10s %9s %10s %7s\n", "p", "rounds", "seq_rnd",
                   "wall_s", "rounds/s", "msg/s", "s/round", "barrier_s", "x_barrier", "seq_s",
                   "x_seq"
            np = split(procs, P, " ")
            for (i = 1; i <= np; i++) {
                q = P[i]
                ok = (q in hr) && hr[q] > 0 && hw[q] > 0
                spr = ok ? hw[q] / hr[q] : 0
                printf "%5s %7s %7s %9s %9s %9s %9s %10s %9s %10s %7s\n", q,
                       ok ? hr[q] : "-", (q in sr) ? sr[q] : "-",
                       ok ? sprintf("%.3f", hw[q]) : "-",
                       ok ? sprintf("%.3e", hr[q] / hw[q]) : "-",
                       ok ? sprintf("%.3e", hm[q] / hw[q]) : "-",
                       ok ? sprintf("%.3e", spr) : "-",
                       num(bs[q], "%.3e"),
                       (ok && bs[q] > 0) ? sprintf("%.2f", spr / bs[q]) : "-",
                       num(ss[q], "%.3e"),
                       (ok && ss[q] > 0) ? sprintf("%.4f", ss[q] / spr) : "-"
            }
        }' "$1"
}

rounds=configs/bench/rounds.ini
rounds_setup "$rounds"

hrel=configs/bench/hrel.ini
setup "$hrel"
hrel_p=$p hrel_n=$n hrel_seed=$seed
: > "$tmp/hrel"
reference ref_alltoall "$tmp/hrel"
reference ref_two_phase "$tmp/hrel"
reference seq_route "$tmp/hrel"
emulated "$hrel" "$tmp/hrel"

radix=configs/bench/radix.ini
setup "$radix"
: > "$tmp/sort"
reference seq_radix "$tmp/sort"
reference ref_radix "$tmp/sort"
emulated "$radix" "$tmp/sort"

: > "$tmp/rounds"
for q in $rprocs; do
    round_reference barrier "$q" "$tmp/rounds"
    round_reference seq_rounds "$q" "$tmp/rounds"
done
emulated_rounds "$rounds" "$tmp/rounds"

echo
echo "h-relations: uniform, p = $hrel_p, n = $hrel_n, seed $hrel_seed ($hrel)"
if [ -s "$tmp/hrel" ]; then
    table "$tmp/hrel" ref_alltoall x_ref "hremu:hrel.two_phase=ref_two_phase"
    echo "x_ref: elements/s over ref_alltoall's (plain pthreads, one pass): 1.00 as fast, 0.50 half as fast"
    echo "x_plain: hremu's elements/s over those of the same algorithm in plain pthreads (ref_two_phase)"
else
    echo "(nothing ran)"
fi
echo
echo "sorting: dataset R (31-bit keys), p = $p, n = $n, seed $seed ($radix)"
if [ -s "$tmp/sort" ]; then
    table "$tmp/sort" seq_radix x_seq "hremu:sort.radix=ref_radix"
    echo "x_seq: elements/s over seq_radix's (one thread, one LSD radix sort): above 1.00 faster"
    echo "x_plain: hremu's elements/s over those of the same algorithm in plain pthreads (ref_radix)"
else
    echo "(nothing ran)"
fi
echo
echo "rounds: $(ini "$rounds" run algorithms), $(ini "$rounds" machine discipline) discipline, alltoall (n = p(p-1), h = p-1), seed $rseed ($rounds)"
if [ -s "$tmp/rounds" ]; then
    round_table "$tmp/rounds" "$rprocs"
    echo "rounds, wall_s, rounds/s, msg/s (messages sent per second), s/round: hremu's (wall_s the median of the config's repeat)"
    echo "barrier_s: s/round of bench/barrier, p threads doing only pthread barriers (the floor)"
    echo "x_barrier: hremu's s/round over barrier_s: 1.00 is a bare barrier; target <= 1.50 at p = 1024"
    echo "seq_s, seq_rnd: s/round and rounds of bench/seq_rounds, one thread simulating the same rounds"
    echo "  from the same priorities (so seq_rnd = rounds), drawing and sorting them included"
    echo "x_seq: seq_s over hremu's s/round (rounds/s over seq_rounds's): above 1.00 faster"
    echo "barrier_s, seq_s: medians over $rruns runs (BENCH_RUNS, at most 5 in this table)"
else
    echo "(nothing ran)"
fi
echo
topo_cfg=configs/bench/topologies.ini
echo "topologies: $(ini "$topo_cfg" run algorithms), p = $(ini "$topo_cfg" machine procs), n = $(ini "$topo_cfg" workload n), uniform ($topo_cfg)"
if [ -x "$build/hremu" ] && "$build/hremu" "$topo_cfg" --format csv > "$tmp/topo.csv" 2> "$tmp/err"; then
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                  printf "%-14s %10s %14s %10s\n", "topology", "wall_s", "model_time_s", "x_complete"; next }
        { gsub(/"/, ""); t[NR] = $c["topology"]; w[NR] = $c["wall_s"]; m[NR] = $c["model_time_s"]
          if ($c["topology"] == "complete") base = $c["wall_s"]; n = NR }
        END { for (i = 2; i <= n; i++)
                  printf "%-14s %10.6f %14.6g %10.2f\n", t[i], w[i], m[i], (base > 0 ? w[i] / base : 0) }' "$tmp/topo.csv"
    echo "x_complete: wall_s over that of complete (what link contention costs this box); target <= 2.00"
else
    cat "$tmp/err" >&2
    echo "(hremu failed on $topo_cfg)"
    status=1
fi
echo
s4_cfg=configs/bench/seed004.ini
s4_p=$(ini "$s4_cfg" machine procs)
echo "seed 004: $(ini "$s4_cfg" run algorithms), p = $s4_p, one value a node ($s4_cfg)"
if [ -x "$build/hremu" ] && "$build/hremu" "$s4_cfg" --format csv > "$tmp/s4.csv" 2> "$tmp/err"; then
    # the barrier floor at the same p, from the rounds table's references (if it ran that p)
    floor=$(awk -v p="$s4_p" '$1 == p && $2 == "barrier" { print $3 }' "$tmp/rounds")
    awk -F, -v floor="${floor:-0}" '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                  printf "%-18s %-10s %6s %10s %10s %12s %10s\n", "algorithm", "topology", "steps", "wall_s", "steps/s", "s/step", "x_barrier"; next }
        { gsub(/"/, ""); if ($c["verified"] != "true") bad = 1
          s = $c["rounds"]; w = $c["wall_s"]
          printf "%-18s %-10s %6d %10.6f %10.1f %12.6f %10s\n", $c["algorithm"], $c["topology"], s, w,
                 (w > 0 ? s / w : 0), (s > 0 ? w / s : 0), (floor > 0 && s > 0 ? sprintf("%.2f", w / s / floor) : "-") }
        END { exit bad }' "$tmp/s4.csv" || status=1
    echo "steps: the rounds column (one message a node a step); s/step: wall_s / steps"
    echo "x_barrier: s/step over bench/barrier's s/round at the same p (p threads doing only barriers)"
else
    cat "$tmp/err" >&2
    echo "(hremu failed on $s4_cfg)"
    status=1
fi
echo
bit_cfg=configs/bench/bitonic.ini
echo "bitonic sorts: $(ini "$bit_cfg" run algorithms), p = $(ini "$bit_cfg" machine procs), n = $(ini "$bit_cfg" workload n), dataset R ($bit_cfg)"
if [ -x "$build/hremu" ] && "$build/hremu" "$bit_cfg" --format csv > "$tmp/bit.csv" 2> "$tmp/err"; then
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                  printf "%-18s %-10s %10s %12s %10s %14s\n", "algorithm", "topology", "wall_s", "keys/s", "x_radix", "model_time_s"; next }
        { gsub(/"/, ""); if ($c["verified"] != "true") bad = 1
          a[NR] = $c["algorithm"]; t[NR] = $c["topology"]; w[NR] = $c["wall_s"]; m[NR] = $c["model_time_s"]; n = $c["n"]
          if (a[NR] == "sort.radix" && t[NR] == "complete") base = w[NR]; last = NR }
        END { for (i = 2; i <= last; i++)
                  printf "%-18s %-10s %10.6f %12.4g %10.2f %14.6g\n", a[i], t[i], w[i], (w[i] > 0 ? n / w[i] : 0),
                         (w[i] > 0 && base > 0 ? base / w[i] : 0), m[i]
              exit bad }' "$tmp/bit.csv" || status=1
    echo "x_radix: keys/s over sort.radix's on complete (the same keys): 1.00 as fast, 0.50 half as fast"
else
    cat "$tmp/err" >&2
    echo "(hremu failed on $bit_cfg)"
    status=1
fi
echo
x1_cfg=configs/bench/seed001.ini
echo "seed 001 exchange: $(ini "$x1_cfg" run algorithms), p = $(ini "$x1_cfg" machine procs), $(ini "$x1_cfg" workload bytes)-byte blocks ($x1_cfg)"
if [ -x "$build/hremu" ] && "$build/hremu" "$x1_cfg" --format csv > "$tmp/x1.csv" 2> "$tmp/err"; then
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                  printf "%-14s %-10s %10s %14s %10s\n", "algorithm", "topology", "wall_s", "model_time_s", "x_system"; next }
        { gsub(/"/, ""); if ($c["verified"] != "true") bad = 1
          a[NR] = $c["algorithm"]; t[NR] = $c["topology"]; w[NR] = $c["wall_s"]; m[NR] = $c["model_time_s"]
          if (a[NR] == "xchg.system") sys[t[NR]] = w[NR]; last = NR }
        END { for (i = 2; i <= last; i++)
                  printf "%-14s %-10s %10.6f %14.6g %10s\n", a[i], t[i], w[i], m[i],
                         (sys[t[i]] > 0 ? sprintf("%.2f", w[i] / sys[t[i]]) : "-")
              exit bad }' "$tmp/x1.csv" || status=1
    echo "x_system: wall_s over xchg.system's (hr_transpose of the same blocks) on the same topology"
else
    cat "$tmp/err" >&2
    echo "(hremu failed on $x1_cfg)"
    status=1
fi
echo
fft_cfg=configs/bench/fft.ini
fft_n=$(ini "$fft_cfg" workload size)
echo "seed 001 FFT: app.fft2d of ${fft_n}^2 complex doubles, p = $(ini "$fft_cfg" machine procs) ($fft_cfg)"
: > "$tmp/fft"
if [ -x "$build/bench/ref_fft2d" ] && "$build/bench/ref_fft2d" 1 $((fft_n * fft_n)) "$runs" 1 > "$tmp/fftref"; then
    cat "$tmp/fftref"
    # "NAME ... median_s=S ...": NAME S, one line each plan
    awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "median_s") print $1, kv[2] } }' \
        "$tmp/fftref" > "$tmp/fft"
else
    echo "bench.sh: $build/bench/ref_fft2d failed or is not built" >&2
    status=1
fi
if [ -x "$build/hremu" ] && "$build/hremu" "$fft_cfg" --format csv > "$tmp/fft.csv" 2> "$tmp/err"; then
    awk -F, -v refs="$tmp/fft" '
        BEGIN { while ((getline line < refs) > 0) { split(line, f, " "); ref[f[1]] = f[2] } }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
                  printf "%-12s %-22s %10s %14s %8s %10s\n", "algorithm", "params", "wall_s", "model_time_s", "x_fftw", "x_measure"; next }
        { gsub(/"/, ""); if ($c["verified"] != "true") bad = 1
          w = $c["wall_s"]; e = ref["ref_fft2d"]; m = ref["ref_fft2d_measure"]
          printf "%-12s %-22s %10.6f %14.6g %8s %10s\n", $c["algorithm"], $c["params"], w, $c["model_time_s"],
                 (e > 0 ? sprintf("%.2f", w / e) : "-"), (m > 0 ? sprintf("%.2f", w / m) : "-") }
        END { exit bad }' "$tmp/fft.csv" || status=1
    echo "x_fftw: wall_s over FFTW's one-thread 2D DFT with an ESTIMATE plan (app.fft2d's plans are ESTIMATE; target <= 3);"
    echo "x_measure: over FFTW's MEASURE plan (0.5 s of planning first)"
else
    cat "$tmp/err" >&2
    echo "(hremu failed on $fft_cfg)"
    status=1
fi
echo
s2_cfg=configs/bench/seed002.ini
echo "seed 002 scheduling: p = $(ini "$s2_cfg" machine procs), d = $(ini "$s2_cfg" workload d), five patterns ($s2_cfg)"
if [ -x "$build/hremu" ] && "$build/hremu" "$s2_cfg" --format csv > "$tmp/s2.csv" 2> "$tmp/err"; then
    awk -F, '
        function median(a, n,   i, j, t) {
            for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { gsub(/"/, ""); if ($c["verified"] != "true") bad = 1
          a = $c["algorithm"]; if (!(a in n)) order[++na] = a
          n[a]++; ps[a, n[a]] = $c["plan_s"]; st[a] += $c["plan_steps"] }
        END {
            printf "%-18s %12s %12s %8s\n", "algorithm", "plan_s", "permutations", "x_cgm"
            for (k = 1; k <= na; k++) { a = order[k]; split("", v); for (i = 1; i <= n[a]; i++) v[i] = ps[a, i]; med[a] = median(v, n[a]) }
            for (k = 1; k <= na; k++) { a = order[k]
                printf "%-18s %12.6f %12.1f %8s\n", a, med[a], st[a] / n[a], (med["irreg.cgm"] > 0 ? sprintf("%.2f", med[a] / med["irreg.cgm"]) : "-") }
            exit bad }' "$tmp/s2.csv" || status=1
    echo "plan_s: the median over the patterns of the wall time of computing one schedule; x_cgm: over irreg.cgm's"
else
    cat "$tmp/err" >&2
    echo "(hremu failed on $s2_cfg)"
    status=1
fi
echo
# The fiber engine beside the thread engine, on one box in one run: fine-grained rounds, small
# blocks, bulk copies. Each line is hremu on an existing config with --set, run N times; every
# invocation runs all the rows of its case, one right after another, and a ratio is taken
# within an invocation and quoted as the median over them (with its least and greatest). This
# box changes speed within a second (xchg.system 4 or 6.5 ms): a ratio of two figures taken at
# two speeds says nothing, and one whose two figures come from one invocation rarely straddles
# a change, while the median drops the few that do.
echo "the fiber engine: the same rows on engine threads and engine fibers"
: > "$tmp/fib"
# engines WHAT ENGINES FIRST LAST CONFIG SET...: invocations FIRST .. LAST of case WHAT on
# ENGINES (threads,fibers; fibers); rows "WHAT ENGINE ALGORITHM wall_s rounds INVOCATION".
engines() {
    what=$1 eng=$2 k=$3 last=$4 cfg=$5
    shift 5
    while [ "$k" -le "$last" ]; do
        if [ -x "$build/hremu" ] && "$build/hremu" "$cfg" "$@" --set machine.engine="$eng" \
            --set machine.carriers=cores,1 --format csv > "$tmp/fib.csv" 2> "$tmp/err"; then
            # engine "fibers/N": on N carrier threads; threads once (carriers do not apply)
            awk -F, -v what="$what" -v k="$k" '
                NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                { gsub(/"/, ""); if ($c["verified"] != "true") { bad = 1; next }
                  e = $c["engine"]; if (e == "fibers") e = e "/" $c["carriers"]
                  if (seen[e, $c["algorithm"]]++) next
                  print what, e, $c["algorithm"], $c["wall_s"], $c["rounds"], k }
                END { exit bad }' "$tmp/fib.csv" >> "$tmp/fib" || status=1
            # rounds: seq_rounds on the same p right after, its s/round the row "seq" of this
            # invocation (the rows' x are over it: one thread and hremu a second apart)
            if [ "$what" = rounds ] && [ -x "$build/bench/seq_rounds" ] &&
                out=$("$build/bench/seq_rounds" 1024 $((1024 * 1023)) "$rruns" "$rseed"); then
                echo "$out" | awk -v k="$k" '{ for (i = 2; i <= NF; i++) { split($i, kv, "=")
                    if (kv[1] == "per_round_s") print "rounds seq seq_rounds", kv[2], "-", k } }' >> "$tmp/fib"
            fi
        else
            cat "$tmp/err" >&2
            echo "(hremu failed on $cfg $*)"
            status=1
            return
        fi
        k=$((k + 1))
    done
}
# rounds: threads in one invocation (15 s at p = 1024), the fibers in five more; each ratio is
# over a run of seq_rounds right after its invocation (the rounds table's figure if that fails).
engines rounds threads,fibers 1 1 configs/bench/rounds.ini --set machine.procs=1024
engines rounds fibers 2 6 configs/bench/rounds.ini --set machine.procs=1024
engines pex8 threads,fibers 1 7 configs/bench/seed001.ini --set workload.bytes=8 --set machine.topology=complete
engines bulk threads,fibers 1 5 configs/bench/hrel.ini --set run.algorithms=hrel.two_phase
awk -v seq="$(awk '$1 == 1024 && $2 == "seq_rounds" { print $3 }' "$tmp/rounds")" '
    function med(v, n,   i, j, t) {    # sorts v[1..n]; its median
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[i] > v[j]) { t = v[i]; v[i] = v[j]; v[j] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
    $2 == "seq" { sq[$1, $6] = $4; next }
    { w[$1, $2, $3, $6] = $4; r[$1, $2, $3, $6] = $5; if ($6 > runs[$1]) runs[$1] = $6
      if (!(($1, $2, $3) in seen)) { seen[$1, $2, $3] = 1; row[++n] = $1 " " $2 " " $3 } }
    END {
        printf "%-7s %-9s %-16s %10s %10s %17s %-30s\n", "case", "engine", "algorithm", "wall_s", "x", "x_range", "x is"
        for (i = 1; i <= n; i++) {
            split(row[i], f, " "); what = f[1]; e = f[2]; a = f[3]; is = ""; m = 0; nx = 0
            for (k = 1; k <= runs[what]; k++) {
                if (!((what, e, a, k) in w)) continue
                ws[++m] = w[what, e, a, k]; x = ""
                sk = ((what, k) in sq) ? sq[what, k] : seq
                if (what == "rounds" && sk > 0 && r[what, e, a, k] > 0) {
                    x = w[what, e, a, k] / r[what, e, a, k] / sk; is = "s/round over seq_rounds (p = 1024)" }
                if (what == "pex8" && w[what, e, "xchg.system", k] > 0) {
                    x = w[what, e, a, k] / w[what, e, "xchg.system", k]; is = "over xchg.system, same engine" }
                if (what == "bulk" && w[what, "threads", a, k] > 0) {
                    x = w[what, e, a, k] / w[what, "threads", a, k]; is = "over engine threads" }
                if (x != "") xs[++nx] = x
            }
            mx = nx ? sprintf("%.2f", med(xs, nx)) : "-"
            range = nx > 1 ? sprintf("%.2f-%.2f", xs[1], xs[nx]) : "-"
            printf "%-7s %-9s %-16s %10.6f %10s %17s %-30s\n", what, e, a, med(ws, m), mx, range, is
        }
        printf "wall_s: the median over the case'"'"'s invocations (rounds: threads 1, fibers 5; pex8 %d; bulk %d); x: the\n", runs["pex8"], runs["bulk"]
        printf "median of the ratios taken within an invocation (rounds: over seq_rounds run right after\n"
        printf "it), x_range their least and greatest\n"
    }' "$tmp/fib"
echo "rounds: hrel.pq_random, alltoall, p = 1024 (rounds.ini); pex8: seed 001's exchange, p = 256, 8-byte blocks"
echo "(seed001.ini on complete); bulk: hrel.two_phase, p = 16, n = 2^24 (hrel.ini). fibers/N: on N carrier threads"
echo "([machine] carriers: 1, the default, and cores, $(nproc) here)."
# The engine's own part of a round: bench/round_floor's empty rounds and rounds of one message
# each, beside seq_rounds' whole round, all per processor.
if [ -x "$build/bench/round_floor" ] && floor=$("$build/bench/round_floor" 1024 1 "$rruns" "$rseed"); then
    echo "$floor" | awk -v seq="$(awk '$1 == 1024 && $2 == "seq_rounds" { print $3 }' "$tmp/rounds")" '
        { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
        END { printf "floor: fibers/1 at p = 1024, ns a processor a round: %.1f empty, %.1f with one message each",
                  v["empty_per_proc_round_s"] * 1e9, v["one_per_proc_round_s"] * 1e9
              if (seq > 0) printf "; seq_rounds %.1f for the whole of pq_random", seq / 1024 * 1e9
              printf " (bench/round_floor)\n" }'
else
    echo "(bench/round_floor failed or is not built)"
    status=1
fi
echo
echo "scale: p = 65536 on engine fibers, each algorithm its own process (configs/bench/scale.ini, scale_hrel.ini)"
printf "%-18s %-10s %10s %14s %8s %12s\n" "algorithm" "topology" "wall_s" "model_time_s" "steps" "peak_rss_MiB"
scale_row() {    # scale_row CONFIG ALGORITHM
    if [ -x "$build/hremu" ] && /usr/bin/time -f "%M" -o "$tmp/rss" "$build/hremu" "$1" \
        --set run.algorithms="$2" --format csv > "$tmp/sc.csv" 2> "$tmp/err"; then
        awk -F, -v rss="$(tail -n 1 "$tmp/rss")" '
            NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { gsub(/"/, ""); if ($c["verified"] != "true") bad = 1
              printf "%-18s %-10s %10.3f %14.6g %8s %12.0f\n", $c["algorithm"], $c["topology"], $c["wall_s"],
                     $c["model_time_s"], $c["steps"] != "" ? $c["steps"] : $c["rounds"], rss / 1024 }
            END { exit bad }' "$tmp/sc.csv" || status=1
    else
        cat "$tmp/err" >&2
        echo "(hremu failed on $1, $2)"
        status=1
    fi
}
for a in bcast.rh_tree prefix.rh bcast.binomial prefix.hypercube; do
    scale_row configs/bench/scale.ini "$a"
done
scale_row configs/bench/scale_hrel.ini hrel.pq_random
echo "Rows that send a message between every pair (hrel.direct, bcast.system, ...) are refused at this p, before they start."
echo
echo "wall_s: medians over runs; the box is shared, so quote the ratios, not the absolute times"
[ -s "$tmp/hrel" ] || [ -s "$tmp/sort" ] || [ -s "$tmp/rounds" ] || {
    echo "bench.sh: nothing ran" >&2
    exit 1
}
exit $status
