#!/bin/sh
# The plot scripts, scripts/plot_*.sh, on small hand-written CSVs (--no-run --docs DIR): every
# figure is a non-empty PNG, the tables hold the expected figures and no nan, and a failing step
# (a missing column, a figure gnuplot cannot draw) exits non-zero with one message and leaves the
# outputs as they were. The CSVs put hremu's columns in another order, with columns hremu does
# not write and a quoted field holding a comma, so that a column read by number fails here.
# If HREMU_BIN names the binary, the columns the scripts read must be in its CSV header.
# Skipped (exit 0) when gnuplot is missing. Run from anywhere:
#     HREMU_BIN=build/hremu tests/plots.sh
# KEEP=1 keeps the temporary directory of CSVs, figures, tables and stderr, and prints its name.
# The last line is "N passed, M failed"; the exit status is nonzero if any case failed.
set -u
cd "$(dirname "$0")/.." || exit 1
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "SKIP tests/plots.sh: gnuplot is missing (scripts/deps.sh gnuplot-nox installs it)"
    exit 0
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hremu-plots.XXXXXX") || exit 1
trap '[ -n "${KEEP:-}" ] || rm -rf "$TMP"' EXIT INT TERM
pass=0
fail=0

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run NAME SCRIPT ARGS...: runs a plot script, stdout and stderr in $TMP/NAME.out, .err; $rc.
run() {
    name=$1; shift
    "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
    rc=$?
}

# expect_rc WANT NAME: the last run's exit status.
expect_rc() {
    if [ "$rc" -eq "$1" ]; then ok; else
        bad "$2: exit status $rc, want $1"; sed 's/^/    stderr: /' "$TMP/$2.err" | tail -n 5
    fi
}

# expect_png FILE NAME: FILE is a non-empty PNG.
expect_png() {
    if [ -s "$1" ] && [ "$(head -c 4 "$1" | tail -c 3)" = PNG ]; then ok; else bad "$2: $1 is not a PNG"; fi
}

# expect_line TEXT FILE NAME: FILE has the line TEXT.
expect_line() {
    if grep -qxF -- "$1" "$2" 2>/dev/null; then ok; else bad "$3: no line '$1' in $(basename "$2")"; fi
}

# expect_no_nan FILE NAME
expect_no_nan() {
    if [ -s "$1" ] && ! grep -iqwE 'nan|inf' "$1"; then ok; else bad "$2: $(basename "$1") is empty or holds nan/inf"; fi
}

# expect_last_err PREFIX NAME: the last line of NAME's stderr begins with PREFIX.
expect_last_err() {
    case $(tail -n 1 "$TMP/$2.err") in
    "$1"*) ok ;;
    *) bad "$2: the last line of stderr is '$(tail -n 1 "$TMP/$2.err")', want '$1...'" ;;
    esac
}

# expect_refused NAME WHAT PREFIX: the last run (NAME, a failing step's case WHAT) exited
# non-zero, and the last line of its stderr begins with PREFIX.
expect_refused() {
    [ "$rc" -ne 0 ] && ok || bad "$2: exit status 0"
    expect_last_err "$3" "$1"
}

# expect_same DIR COPY NAME: DIR's files are those of COPY, byte for byte, and nothing else (no
# staging directory left behind).
expect_same() {
    if diff -r "$1" "$2" >/dev/null 2>&1 && [ -z "$(find "$1" -name '.plot_*')" ]; then ok; else
        bad "$3: the outputs in $1 changed or a staging directory is left"
    fi
}

# refused_kept NAME WHAT LAST_ERR DIR COPY CMD...: run CMD as NAME; it fails with LAST_ERR as
# its last line of stderr (expect_refused) and leaves DIR as COPY (expect_same).
refused_kept() {
    rk_name=$1 rk_what=$2 rk_msg=$3 rk_dir=$4 rk_copy=$5
    shift 5
    run "$rk_name" "$@"
    expect_refused "$rk_name" "$rk_what" "$rk_msg"
    expect_same "$rk_dir" "$rk_copy" "$rk_what"
}

# The columns of every CSV below, in an order of their own: hremu's reversed, with four columns
# hremu does not write among them and a first column, note, whose value is quoted and holds a
# comma. Sort CSVs have dataset as well (plot_seed000.sh appends it to hremu's rows).
HDR="note,params,status,stalls,lost,rounds_per_h,verified,wall_s,tau,max_in_bytes,max_out_bytes,bytes"
HDR="$HDR,messages,rounds,model_time_s,sigma,seed,cost,topology,distribution,discipline,h,n,buffer,procs,algorithm"

# csv HEADER > FILE: rows from stdin, one a line as NAME=VALUE pairs separated by ';', written in
# HEADER's order with RFC 4180 quoting; a column a row does not name gets a filler value.
csv() {
    awk -v hdr="$1" '
        function q(s) { if (s ~ /[",]/ || s ~ /^ | $/) { gsub(/"/, "\"\"", s); s = "\"" s "\"" } return s }
        BEGIN { nh = split(hdr, h, ","); print hdr }
        {
            split("", v); n = split($0, kv, ";")
            for (i = 1; i <= n; i++) { e = index(kv[i], "="); v[substr(kv[i], 1, e - 1)] = substr(kv[i], e + 1) }
            line = ""
            for (i = 1; i <= nh; i++) {
                x = (h[i] in v) ? v[h[i]] : (h[i] == "note" ? "a, \"quoted\" note" : "0")
                line = line (i > 1 ? "," : "") q(x)
            }
            print line
        }'
}

# ---- the columns the scripts read are hremu's ----------------------------------------------
if [ -n "${HREMU_BIN:-}" ] && [ -x "$HREMU_BIN" ]; then
    "$HREMU_BIN" configs/seed000/fig4.ini --set workload.n=2^10 --set workload.dataset=R \
        --set machine.cost=cm5 --format csv >"$TMP/real.csv" 2>"$TMP/real.err"
    real=$(head -n 1 "$TMP/real.csv")
    for col in algorithm procs n h discipline topology cost model_time_s params status rounds_per_h lost stalls cost_model block_bytes; do
        case ",$real," in *",$col,"*) ok ;; *) bad "hremu's CSV header has no column $col: '$real'" ;; esac
    done
else
    echo "note: HREMU_BIN is not set; the column names are not checked against hremu's header"
fi

# ---- seed 000 ------------------------------------------------------------------------------
R0=$TMP/res000
mkdir -p "$R0"
# model time: any positive figure that grows with n and falls with p
hrel_rows() {   # ALGORITHMS PROCS NS HFACTORS (h = HFACTOR*n/p)
    for a in $1; do for p in $2; do for e in $3; do for k in $4; do
        n=$((1 << e)); h=$((k * n / p))
        echo "algorithm=$a;procs=$p;n=$n;h=$h;cost=cm5;discipline=async;model_time_s=$(awk "BEGIN { print 1e-4 + 4e-7 * $h + 1e-6 * $p }")"
    done; done; done; done
}
hrel_rows hrel.two_phase "4 8 16 32 64 128" "16 18 20 22" 4 | csv "$HDR" >"$R0/fig2.csv"
for input in transpose skewed uniform; do
    hrel_rows "hrel.two_phase hrel.xor hrel.direct" "4 8 16 32 64 128" "18 20" 1 | csv "$HDR" >"$R0/fig3_$input.csv"
done
hrel_rows "hrel.two_phase hrel.direct" "8 16 32 64 128" 20 "1 2 4 8" | csv "$HDR" >"$R0/fig6.csv"
sort_rows() {   # PROCS COSTS DATASETS NS PARAMS ; n from NS, a figure per (n, p, params)
    for p in $1; do for cost in $2; do for d in $3; do for n in $4; do for r in $5; do
        t=$(awk -v cost="$cost" "BEGIN { print ($r == 8 ? 7.5e-6 : 6.4e-6) * $n / $p * (cost == \"sp2\" ? 0.5 : 1) }")
        echo "dataset=$d;algorithm=sort.radix;procs=$p;n=$n;h=$((n / p));cost=$cost;discipline=async;params=r=$r;model_time_s=$t"
    done; done; done; done; done
}
sort_rows 16 "cm5 sp2" "R S C N" "65536 262144 1048576 4194304" 11 | csv "dataset,$HDR" >"$R0/fig4.csv"
sort_rows "4 8 16 32 64" cm5 R "65536 262144 1048576 4194304" 11 | csv "dataset,$HDR" >"$R0/fig5.csv"
sort_rows 32 cm5 "R C N" "131072 2097152 16777216" "8 11" | csv "dataset,$HDR" >"$R0/table1_cm5.csv"
sort_rows 16 sp2 "R C N" "65536 1048576 8388608" "8 11" | csv "dataset,$HDR" >"$R0/table1_sp2.csv"

D0=$TMP/docs000
run plot000 scripts/plot_seed000.sh --no-run --docs "$D0" "$R0"
expect_rc 0 plot000
for gp in scripts/seed000/*.gp; do
    expect_png "$D0/$(basename "$gp" .gp).png" "plot_seed000 $(basename "$gp")"
done
expect_no_nan "$R0/table1.md" "plot_seed000 table1.md"
# cm5 r=8: 7.5e-6 * 4096 = 0.0307; r=11: 6.4e-6 * 4096 = 0.0262; 0.163 / 0.0262144 = 6.2
expect_line "| cm5 p=32 | R | 4K | 0.163 | 0.0307 | 0.0262 | 6.2 |" "$R0/table1.md" "plot_seed000 table1.md"
# sp2 (half): 7.5e-6 * 524288 / 2 = 1.9661; 6.4e-6 * 524288 / 2 = 1.6777; 4.12 / 1.6777216 = 2.5
expect_line "| sp2 p=16 | N | 512K | 4.12 | 1.9661 | 1.6777 | 2.5 |" "$R0/table1.md" "plot_seed000 table1.md"
n=$(grep -c '^| [cs][mp][52] p=' "$R0/table1.md" 2>/dev/null)
[ "${n:-0}" -eq 18 ] && ok || bad "plot_seed000: table1.md has ${n:-no} rows, want 18"

# A failing step leaves the figures and table1.md as they were.
cp -r "$D0" "$TMP/docs000.before"
cp "$R0/table1.md" "$TMP/table1.before" 2>/dev/null
cp "$R0/fig4.csv" "$TMP/fig4.good"
sed '1s/^dataset,/set,/' "$TMP/fig4.good" >"$R0/fig4.csv"
refused_kept plot000_nocol "plot_seed000 without a dataset column" "plot_seed000: $R0/fig4.csv: no column \"dataset\"" \
    "$D0" "$TMP/docs000.before" scripts/plot_seed000.sh --no-run --docs "$D0" "$R0"
# gnuplot fails on fig4 (no cost is cm5 or sp2: no point to draw) after fig2 and fig3 succeeded.
sed '2,$s/,cm5,/,cm6,/; 2,$s/,sp2,/,sp3,/' "$TMP/fig4.good" >"$R0/fig4.csv"
refused_kept plot000_gnuplot "plot_seed000 with nothing to draw in fig4" "plot_seed000: scripts/seed000/fig4.gp: gnuplot failed" \
    "$D0" "$TMP/docs000.before" scripts/plot_seed000.sh --no-run --docs "$D0" "$R0"
cmp -s "$R0/table1.md" "$TMP/table1.before" && ok || bad "plot_seed000 with nothing to draw in fig4: table1.md changed"
cp "$TMP/fig4.good" "$R0/fig4.csv"

# ---- seed 003 ------------------------------------------------------------------------------
R3=$TMP/res003
mkdir -p "$R3"
# ALGORITHM DISCIPLINE PARAMS: p = 64 and 256, seeds 1-3, rounds/h 1.8, 1.9, 2.0 (+ 0.01 at
# p = 256), stalls n/2.
round_rows() {
    for p in 64 256; do for s in 1 2 3; do
        echo "algorithm=$1;discipline=$2;params=$3;procs=$p;n=$((p * (p - 1)));h=$((p - 1));seed=$s;status=ok;lost=0;stalls=$((p * (p - 1) / 2));rounds_per_h=$(awk "BEGIN { print 1.7 + $s / 10 + ($p == 256) / 100 }")"
    done; done
}
{ round_rows hrel.fifo_staged fifo "K=1 mu=0.267"; round_rows hrel.offline fifo ""; } | csv "$HDR" >"$R3/fifo.csv"
{ round_rows hrel.pq_random priority ""; round_rows hrel.fifo_staged priority "K=1 mu=0.267"
  round_rows hrel.offline priority ""; } | csv "$HDR" >"$R3/priority.csv"
{ round_rows hrel.aw_weighted arbitrary beta=0.1; round_rows hrel.aw_uniform arbitrary beta=0.1
  round_rows hrel.ocpc_gt arbitrary eps=0.1; round_rows hrel.offline arbitrary ""; } | csv "$HDR" >"$R3/arbitrary.csv"
{ round_rows hrel.ocpc_gt ocpc eps=0.1; round_rows hrel.offline ocpc ""; } | csv "$HDR" >"$R3/ocpc.csv"
for K in 0.5 0.75 1.0 1.25 1.5 1.9 2.5 3.0; do round_rows hrel.fifo_staged fifo "K=$K mu=0.267"; done |
    csv "$HDR" >"$R3/fig2_k.csv"

D3=$TMP/docs003
run plot003 scripts/plot_seed003.sh --no-run --docs "$D3" "$R3"
expect_rc 0 plot003
for gp in scripts/seed003/*.gp; do
    expect_png "$D3/$(basename "$gp" .gp).png" "plot_seed003 $(basename "$gp")"
done
expect_no_nan "$D3/table.md" "plot_seed003 table.md"
expect_no_nan "$D3/fig2_k.csv" "plot_seed003 fig2_k.csv"
expect_line "| hrel.fifo_staged | fifo | 64 | K=1 mu=0.267 | 3/3 | 1.900 ± 0.100 | 1.800 | 2.000 | 0.000 | 0.500 | 2.08 (its minimum over K; analysis: 3.4 at K = 1.9) |" \
    "$D3/table.md" "plot_seed003 table.md"
expect_line "| hrel.offline | ocpc | 256 | - | 3/3 | 1.910 ± 0.100 | 1.810 | 2.010 | 0.000 | 0.500 | exactly 1 (h rounds) |" \
    "$D3/table.md" "plot_seed003 table.md"
n=$(grep -c '^| hrel\.' "$D3/table.md" 2>/dev/null)
[ "${n:-0}" -eq 22 ] && ok || bad "plot_seed003: table.md has ${n:-no} rows, want 22"
expect_line "K,p,mean,sd,min,max" "$D3/fig2_k.csv" "plot_seed003 fig2_k.csv"
expect_line "1.9,256,1.9100,0.1000,1.8100,2.0100" "$D3/fig2_k.csv" "plot_seed003 fig2_k.csv"
n=$(wc -l <"$D3/fig2_k.csv" 2>/dev/null)
[ "${n:-0}" -eq 17 ] && ok || bad "plot_seed003: fig2_k.csv has ${n:-no} lines, want 17"

# A run that failed: left out of the statistics, exit status 1, the outputs written.
cp "$R3/priority.csv" "$TMP/priority.good"
awk 'NR == 2 { sub(/,ok,/, ",failed,") } { print }' "$TMP/priority.good" >"$R3/priority.csv"
run plot003_failed scripts/plot_seed003.sh --no-run --docs "$D3" "$R3"
expect_rc 1 plot003_failed
expect_line "| hrel.pq_random | priority | 64 | - | 2/3 | 1.950 ± 0.071 | 1.900 | 2.000 | 0.000 | 0.500 | about 1.85 |" \
    "$D3/table.md" "plot_seed003 with a failed run"
cp "$TMP/priority.good" "$R3/priority.csv"

# A failing step leaves table.md, fig2_k.csv and fig2_k.png as they were.
run plot003_again scripts/plot_seed003.sh --no-run --docs "$D3" "$R3"
expect_rc 0 plot003_again
cp -r "$D3" "$TMP/docs003.before"
cp "$R3/fig2_k.csv" "$TMP/fig2_k.good"
sed '1s/,rounds_per_h,/,rounds_per_H,/' "$TMP/fig2_k.good" >"$R3/fig2_k.csv"
run plot003_nocol scripts/plot_seed003.sh --no-run --docs "$D3" "$R3"
[ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && ok || bad "plot_seed003 without a rounds_per_h column: exit status $rc, want 2"
expect_last_err "plot_seed003: $R3/fig2_k.csv: no column \"rounds_per_h\"" plot003_nocol
expect_same "$D3" "$TMP/docs003.before" "plot_seed003 without a rounds_per_h column"
cp "$TMP/fig2_k.good" "$R3/fig2_k.csv"

# ---- topologies ----------------------------------------------------------------------------
RT=$TMP/restopo
mkdir -p "$RT"
# topo_rows ALGORITHM PARAMS BASE N: one row per topology, model time BASE times the topology's
# factor (complete 1, ring 16, torus 6, hypercube 1, fattree 5, rh 2); hrel.two_phase takes 0.4
# of that on the hypercube, so that it is the fastest there.
topo_rows() {
    for t in "ring:16" "complete:1" "torus 8x8:6" "hypercube:1" "fattree:5" "rh 4 1:2"; do
        f=${t##*:}
        [ "$1:${t%:*}" != hrel.two_phase:hypercube ] || f=0.4
        echo "algorithm=$1;params=$2;procs=64;n=$4;cost=cm5;discipline=async;status=ok;topology=${t%:*};model_time_s=$(awk "BEGIN { print $3 * $f }")"
    done
}
for input in uniform transpose skewed; do
    { topo_rows hrel.direct "" 0.01 1048576; topo_rows hrel.two_phase "" 0.02 1048576
      topo_rows hrel.xor sync=1 0.04 1048576; topo_rows hrel.xor sync=0 0.012 1048576; } | csv "$HDR" >"$RT/$input.csv"
done
topo_rows sort.radix r=11 0.1 65536 | csv "dataset,$HDR" >"$RT/sort.csv"

DT=$TMP/docstopo
run plottopo scripts/plot_topologies.sh --no-run --docs "$DT" "$RT"
expect_rc 0 plottopo
for gp in scripts/topologies/*.gp; do
    expect_png "$DT/$(basename "$gp" .gp).png" "plot_topologies $(basename "$gp")"
done
expect_no_nan "$DT/table.md" "plot_topologies table.md"
expect_no_nan "$DT/times.csv" "plot_topologies times.csv"
# complete first, then the topologies in the order of the CSV; ring 16x, torus 6x, ...; the
# fastest of each column in bold (hrel.direct, but hrel.two_phase on the hypercube)
expect_line "| input | algorithm | complete | ring | torus 8x8 | hypercube | fattree | rh 4 1 |" \
    "$DT/table.md" "plot_topologies table.md"
expect_line "| uniform, n = 2^20 | hrel.direct | **0.0100** | **0.160 (16.0)** | **0.0600 (6.0)** | 0.0100 (1.0) | **0.0500 (5.0)** | **0.0200 (2.0)** |" \
    "$DT/table.md" "plot_topologies table.md"
expect_line "| skewed, n = 2^20 | hrel.two_phase | 0.0200 | 0.320 (16.0) | 0.120 (6.0) | **0.00800 (0.4)** | 0.100 (5.0) | 0.0400 (2.0) |" \
    "$DT/table.md" "plot_topologies table.md"
expect_line "| transpose, n = 2^20 | hrel.xor(sync=0) | 0.0120 | 0.192 (16.0) | 0.0720 (6.0) | 0.0120 (1.0) | 0.0600 (5.0) | 0.0240 (2.0) |" \
    "$DT/table.md" "plot_topologies table.md"
# one series alone: nothing in bold
expect_line "| sort, n = 2^16 | sort.radix(r=11) | 0.100 | 1.60 (16.0) | 0.600 (6.0) | 0.100 (1.0) | 0.500 (5.0) | 0.200 (2.0) |" \
    "$DT/table.md" "plot_topologies table.md"
n=$(grep -c '^| [a-z]*, n = ' "$DT/table.md" 2>/dev/null)
[ "${n:-0}" -eq 13 ] && ok || bad "plot_topologies: table.md has ${n:-no} rows, want 13"
expect_line "input,n,series,s,topology,x,model_time_s,x_complete" "$DT/times.csv" "plot_topologies times.csv"
expect_line "skewed,1048576,hrel.two_phase,2,hypercube,3,0.008,0.4000" "$DT/times.csv" "plot_topologies times.csv"
expect_line "uniform,1048576,hrel.direct,1,ring,0,0.16,16.0000" "$DT/times.csv" "plot_topologies times.csv"
n=$(wc -l <"$DT/times.csv" 2>/dev/null)
[ "${n:-0}" -eq 79 ] && ok || bad "plot_topologies: times.csv has ${n:-no} lines, want 79"

# A failing step leaves table.md, times.csv and the figures as they were: a missing column, a run
# that did not verify, no row on complete.
cp -r "$DT" "$TMP/docstopo.before"
cp "$RT/uniform.csv" "$TMP/topo_uniform.good"
sed '1s/,topology,/,network,/' "$TMP/topo_uniform.good" >"$RT/uniform.csv"
refused_kept plottopo_nocol "plot_topologies without a topology column" "plot_topologies: $RT/uniform.csv: no column \"topology\"" \
    "$DT" "$TMP/docstopo.before" scripts/plot_topologies.sh --no-run --docs "$DT" "$RT"
awk 'NR == 3 { sub(/,ok,/, ",failed,") } { print }' "$TMP/topo_uniform.good" >"$RT/uniform.csv"
refused_kept plottopo_failed "plot_topologies with a failed run" "plot_topologies: $RT/uniform.csv: hrel.direct on complete: status failed, not ok" \
    "$DT" "$TMP/docstopo.before" scripts/plot_topologies.sh --no-run --docs "$DT" "$RT"
grep -v ',complete,' "$TMP/topo_uniform.good" >"$RT/uniform.csv"
refused_kept plottopo_nocomplete "plot_topologies with no complete row" "plot_topologies: uniform: hrel.direct has no positive model time on complete" \
    "$DT" "$TMP/docstopo.before" scripts/plot_topologies.sh --no-run --docs "$DT" "$RT"
cp "$TMP/topo_uniform.good" "$RT/uniform.csv"

# ---- models --------------------------------------------------------------------------------
RM=$TMP/resmodels
mkdir -p "$RM"
MHDR="block_bytes,cost_model,$HDR"
# model_rows STUDY CASE ALGORITHM PARAMS TOPOLOGY BDM LOGGP [BSP]: a row per model that has a time.
model_rows() {
    col=n
    [ "$1" = exchange ] && col=block_bytes
    [ "$1" = bcast ] && col=procs
    for m in "bdm:$6" "loggp:$7" "bsp:${8:-}"; do
        [ -n "${m#*:}" ] || continue
        echo "algorithm=$3;params=$4;topology=$5;procs=16;n=64;block_bytes=0;$col=$2;cost=file:box.ini;cost_model=${m%%:*};status=ok;model_time_s=${m#*:}"
    done
}
{ model_rows hrel 4096 hrel.direct "" complete 0.002 0.003 0.005
  model_rows hrel 4096 hrel.xor sync=1 complete 0.004 0.0025
  model_rows hrel 262144 hrel.direct "" complete 0.02 0.03 0.05
  model_rows hrel 262144 hrel.xor sync=1 complete 0.01 0.06; } | csv "$MHDR" >"$RM/hrel.csv"
{ model_rows exchange 16 xchg.lex "" complete 0.001 0.004
  model_rows exchange 16 xchg.pex "" complete 0.002 0.002; } | csv "$MHDR" >"$RM/exchange.csv"
model_rows bcast 64 bcast.binomial "" hypercube 0.003 0.003 | csv "$MHDR" >"$RM/bcast.csv"

DM=$TMP/docsmodels
run plotmodels scripts/plot_models.sh --no-run --docs "$DM" "$RM"
expect_rc 0 plotmodels
for gp in scripts/models/*.gp; do
    expect_png "$DM/$(basename "$gp" .gp).png" "plot_models $(basename "$gp")"
done
expect_no_nan "$DM/table.md" "plot_models table.md"
expect_no_nan "$DM/times.csv" "plot_models times.csv"
# a column a model in the order of the rows; the ranks per model: hrel.xor wins under loggp at
# n = 4096 only, xchg.lex under bdm only; a model without the algorithm: a dash
expect_line "| study | case | algorithm | bdm | loggp | bsp |" "$DM/table.md" "plot_models table.md"
expect_line "| hrel | n = 4096 | hrel.direct | **0.00200 (1)** | 0.00300 (2) | **0.00500 (1)** |" \
    "$DM/table.md" "plot_models table.md"
expect_line "| hrel | n = 4096 | hrel.xor(sync=1) | 0.00400 (2) | **0.00250 (1)** | - |" \
    "$DM/table.md" "plot_models table.md"
expect_line "| hrel | n = 262144 | hrel.xor(sync=1) | **0.0100 (1)** | 0.0600 (2) | - |" \
    "$DM/table.md" "plot_models table.md"
expect_line "| exchange | block_bytes = 16 | xchg.lex | **0.00100 (1)** | 0.00400 (2) | - |" \
    "$DM/table.md" "plot_models table.md"
expect_line "| bcast | procs = 64 | bcast.binomial on hypercube | **0.00300 (1)** | **0.00300 (1)** | - |" \
    "$DM/table.md" "plot_models table.md"
n=$(grep -c '^| [a-z]* | [a-z_]* = ' "$DM/table.md" 2>/dev/null)
[ "${n:-0}" -eq 7 ] && ok || bad "plot_models: table.md has ${n:-no} rows, want 7"
expect_line "study,case,series,s,cost_model,m,model_time_s,x_best,rank" "$DM/times.csv" "plot_models times.csv"
expect_line "hrel,4096,hrel.direct,1,loggp,2,0.003,1.2000,2" "$DM/times.csv" "plot_models times.csv"
expect_line "exchange,16,xchg.pex,2,loggp,2,0.002,1.0000,1" "$DM/times.csv" "plot_models times.csv"
n=$(wc -l <"$DM/times.csv" 2>/dev/null)
[ "${n:-0}" -eq 17 ] && ok || bad "plot_models: times.csv has ${n:-no} lines, want 17"

# A failing step leaves the outputs as they were: a missing column, a run that did not verify.
cp -r "$DM" "$TMP/docsmodels.before"
cp "$RM/hrel.csv" "$TMP/models_hrel.good"
sed '1s/,cost_model,/,model,/' "$TMP/models_hrel.good" >"$RM/hrel.csv"
refused_kept plotmodels_nocol "plot_models without a cost_model column" "plot_models: $RM/hrel.csv: no column \"cost_model\"" \
    "$DM" "$TMP/docsmodels.before" scripts/plot_models.sh --no-run --docs "$DM" "$RM"
awk 'NR == 3 { sub(/,ok,/, ",failed,") } { print }' "$TMP/models_hrel.good" >"$RM/hrel.csv"
refused_kept plotmodels_failed "plot_models with a failed run" "plot_models: $RM/hrel.csv: hrel.direct under loggp: status failed, not ok" \
    "$DM" "$TMP/docsmodels.before" scripts/plot_models.sh --no-run --docs "$DM" "$RM"
cp "$TMP/models_hrel.good" "$RM/hrel.csv"
# The real runs (a second): docs/models/table.md and the table docs/models.md shows are today's.
if [ -n "${HREMU_BIN:-}" ] && [ -x "$HREMU_BIN" ]; then
    run plotmodels_real env HREMU="$HREMU_BIN" scripts/plot_models.sh --docs "$TMP/models_real" "$TMP/models_runs"
    expect_rc 0 plotmodels_real
    if cmp -s "$TMP/models_real/table.md" docs/models/table.md &&
        sed -n '/^| study |/,/^$/p' docs/models.md | grep '^|' |
            cmp -s - "$(grep '^|' "$TMP/models_real/table.md" >"$TMP/models_rows"; echo "$TMP/models_rows")"; then
        ok
    else
        bad "docs/models/table.md or docs/models.md's table differs from scripts/plot_models.sh's (rerun it)"
    fi
fi

# ---- seed 004 --------------------------------------------------------------------------------
R4=$TMP/res004
mkdir -p "$R4"
# s004_rows K N FAMILY RHALG CUBEALG: the rows of one operation on RH(K,N) and the hypercube of
# its p = 2^nu, under cm5 and sp2: steps 3 nu on RH and nu on the cube; model time 0.002 nu and
# 0.001 nu under cm5, 0.0015 nu and 0.001 nu under sp2. So every ratio is 3 (steps), 2 (cm5) and
# 1.5 (sp2).
s004_rows() {
    nu=$(($1 + (1 << $2))); p=$((1 << nu))
    for cost in cm5 sp2; do
        f=0.002; [ $cost = cm5 ] || f=0.0015
        echo "algorithm=$4;procs=$p;topology=rh $1 $2;cost=$cost;status=ok;rounds=$((3 * nu));model_time_s=$(awk "BEGIN { print $f * $nu }")"
        echo "algorithm=$5;procs=$p;topology=hypercube;cost=$cost;status=ok;rounds=$nu;model_time_s=$(awk "BEGIN { print 0.001 * $nu }")"
    done
}
for sh in 2_1 3_1 5_1 8_1 2_2 4_2 5_2 6_2 7_2 3_3; do
    k=${sh%_*} n=${sh#*_}
    { s004_rows "$k" "$n" bcast bcast.rh_tree bcast.binomial; s004_rows "$k" "$n" reduce reduce.rh_tree reduce.binomial
      s004_rows "$k" "$n" prefix prefix.rh prefix.hypercube; } | csv "$HDR" >"$R4/values_$sh.csv"
    s004_rows "$k" "$n" sort sort.rh_bitonic sort.bitonic | csv "dataset,$HDR" >"$R4/sort_$sh.csv"
done
D4=$TMP/docs004
run plot004 scripts/plot_seed004.sh --no-run --docs "$D4" "$R4"
expect_rc 0 plot004
for gp in scripts/seed004/*.gp; do
    expect_png "$D4/$(basename "$gp" .gp).png" "plot_seed004 $(basename "$gp")"
done
expect_no_nan "$D4/table.md" "plot_seed004 table.md"
expect_no_nan "$D4/ratios.csv" "plot_seed004 ratios.csv"
# RH(2,1): nu = 4, p = 16, 3 of 4 links; RH(3,3): nu = 11, 4 of 11 links
expect_line "| bcast | RH(2,1) | 16 | 3 / 4 | 12 / 4 (3.00) | 0.00800 / 0.00400 (2.00) | 0.00600 / 0.00400 (1.50) |" \
    "$D4/table.md" "plot_seed004 table.md"
expect_line "| sort | RH(3,3) | 2048 | 4 / 11 | 33 / 11 (3.00) | 0.0220 / 0.0110 (2.00) | 0.0165 / 0.0110 (1.50) |" \
    "$D4/table.md" "plot_seed004 table.md"
n=$(grep -c '^| [a-z]* | RH([0-9]' "$D4/table.md" 2>/dev/null)
[ "${n:-0}" -eq 40 ] && ok || bad "plot_seed004: table.md has ${n:-no} rows, want 40"
expect_line "op,x,shape,k,n,p,degree_rh,degree_hc,cost,steps_rh,steps_hc,steps_ratio,time_rh,time_hc,time_ratio" \
    "$D4/ratios.csv" "plot_seed004 ratios.csv"
expect_line "prefix,5,rh 4 2,4,2,256,5,8,sp2,24,8,3.0000,0.012,0.008,1.5000" "$D4/ratios.csv" "plot_seed004 ratios.csv"
n=$(wc -l <"$D4/ratios.csv" 2>/dev/null)
[ "${n:-0}" -eq 81 ] && ok || bad "plot_seed004: ratios.csv has ${n:-no} lines, want 81"
# A failing step leaves the outputs as they were: a missing column, a run that did not verify.
cp -r "$D4" "$TMP/docs004.before"
cp "$R4/values_4_2.csv" "$TMP/values_4_2.good"
sed '1s/,rounds,/,steps,/' "$TMP/values_4_2.good" >"$R4/values_4_2.csv"
refused_kept plot004_nocol "plot_seed004 without a rounds column" "plot_seed004: $R4/values_4_2.csv: no column \"rounds\"" \
    "$D4" "$TMP/docs004.before" scripts/plot_seed004.sh --no-run --docs "$D4" "$R4"
awk 'NR == 2 { sub(/,ok,/, ",wrong,") } { print }' "$TMP/values_4_2.good" >"$R4/values_4_2.csv"
refused_kept plot004_failed "plot_seed004 with a failed run" "plot_seed004: $R4/values_4_2.csv: bcast.rh_tree on rh 4 2: status wrong, not ok" \
    "$D4" "$TMP/docs004.before" scripts/plot_seed004.sh --no-run --docs "$D4" "$R4"
cp "$TMP/values_4_2.good" "$R4/values_4_2.csv"

# ---- seed 001 --------------------------------------------------------------------------------
R1=$TMP/res001
mkdir -p "$R1"
# hremu's columns in the order of HDR, with seed 001's among them and around them.
HDR1="plan_steps,density,$HDR,pattern,size,plan_s,msg_bytes,block_bytes"
if [ -n "${HREMU_BIN:-}" ] && [ -x "$HREMU_BIN" ]; then
    "$HREMU_BIN" configs/seed001/table10.ini --format csv >"$TMP/real001.csv" 2>"$TMP/real001.err"
    real=$(head -n 1 "$TMP/real001.csv")
    for col in algorithm procs n topology model_time_s status block_bytes size params pattern density msg_bytes messages bytes plan_steps seed; do
        case ",$real," in *",$col,"*) ok ;; *) bad "hremu's CSV header has no column $col: '$real'" ;; esac
    done
fi
# fig5: model time (k + f b/256) ms, k = 60 (LEX), 5 (PEX), 1 (REX), 6 (BEX), f = 1 on the fat
# tree and 0.5 on the complete graph.
for topo in fattree:1 complete:0.5; do for a in lex:60 pex:5 rex:1 bex:6; do for b in 0 256 2048; do
    echo "algorithm=xchg.${a%:*};procs=32;topology=${topo%:*};block_bytes=$b;status=ok;model_time_s=$(awk "BEGIN { print (${a#*:} + ${topo#*:} * $b / 256) / 1000 }")"
done; done; done | csv "$HDR1" >"$R1/fig5.csv"
# fig6: p i (1 + b/256) / 8 ms, i = 1 (PEX), 2 (REX), 3 (BEX)
for p in 8 16 32; do for b in 0 256 512 1920; do for a in pex:1 rex:2 bex:3; do
    echo "algorithm=xchg.${a%:*};procs=$p;topology=fattree;block_bytes=$b;status=ok;model_time_s=$(awk "BEGIN { print $p * ${a#*:} * (1 + $b / 256) / 8000 }")"
done; done; done | csv "$HDR1" >"$R1/fig6.csv"
# fig10: k + bytes/1024 ms, k = 3 (linear), 0.5 (recursive and system); n = 32 m, 8 m bytes
for m in 1 128 2048; do for a in linear:3 recursive:0.5 system:0.5; do
    echo "algorithm=bcast.${a%:*};procs=32;n=$((32 * m));params=group=0 rows=0;status=ok;model_time_s=$(awk "BEGIN { print (${a#*:} + 8 * $m / 1024) / 1000 }")"
done; done | csv "$HDR1" >"$R1/fig10.csv"
# fig11: lg p (1 + bytes/1024) ms, half that along rows (group=1)
for p in 8:3 16:4 32:5; do for m in 1 128 512 2048; do for a in recursive:0 recursive:1 system:0; do
    echo "algorithm=bcast.${a%:*};procs=${p%:*};n=$((${p%:*} * m));params=group=${a#*:} rows=0;status=ok;model_time_s=$(awk "BEGIN { print ${p#*:} * (1 + 8 * $m / 1024) * (${a#*:} ? 0.5 : 1) / 1000 }")"
done; done; done | csv "$HDR1" >"$R1/fig11.csv"
# table5: x N/256 s, half that on 256 procs; x = 2 (xchg=1, LEX), 0.5 (PEX), 0.25 (REX), 0.75
# (BEX), 1 (xchg=0, transpose); the rows out of order
for p in 256 32; do for N in 512 256; do for x in 1:2 2:0.5 3:0.25 4:0.75 0:1; do
    echo "algorithm=app.fft2d;procs=$p;size=$N;params=xchg=${x%:*} mflops=128;status=ok;model_time_s=$(awk "BEGIN { print ${x#*:} * $N / 256 * ($p == 32 ? 1 : 0.5) }")"
done; done; done | csv "$HDR1" >"$R1/table5.csv"
# table10: the paper's steps, model times of the real run
printf '%s\n' ls:8:0.0031248 ps:6:0.0011152 bs:7:0.0013168 gs:6:0.001128 | while IFS=: read -r a st t; do
    echo "algorithm=irreg.$a;procs=8;pattern=table6;msg_bytes=256;density=25;plan_steps=$st;status=ok;model_time_s=$t"
done | csv "$HDR1" >"$R1/table10.csv"
# table11: i d/10 b/256 + (seed - 2)/2 ms and i d/10 + seed steps, i = 1 (LS) .. 4 (GS); density
# written as hremu writes it (1e+01); means i d/10 b/256 ms and i d/10 + 2 steps
for s in 1 2 3; do for d in 1e+01 5e+01; do for b in 256 512; do for a in ls:1 ps:2 bs:3 gs:4; do
    echo "algorithm=irreg.${a%:*};procs=32;pattern=density;density=$d;msg_bytes=$b;seed=$s;status=ok;plan_steps=$(awk "BEGIN { print ${a#*:} * $d / 10 + $s }");model_time_s=$(awk "BEGIN { print (${a#*:} * $d / 10 * $b / 256 + ($s - 2) / 2) / 1000 }")"
done; done; done; done | csv "$HDR1" >"$R1/table11.csv"
# table12: 2i + m ms and 3i + m steps, i = 1 (LS) .. 4 (GS), m = 1 (jagmesh7), 2 (cryg2500)
printf '%s\n' jagmesh7:1:146:7456 cryg2500:2:64:25600 | while IFS=: read -r mat m msgs bytes; do for a in ls:1 ps:2 bs:3 gs:4; do
    echo "algorithm=irreg.${a%:*};procs=32;pattern=file:configs/seed001/matrices/$mat.mtx;messages=$msgs;bytes=$bytes;density=25;msg_bytes=256;status=ok;plan_steps=$((3 * ${a#*:} + m));model_time_s=$(awk "BEGIN { print (2 * ${a#*:} + $m) / 1000 }")"
done; done | csv "$HDR1" >"$R1/table12.csv"

D1=$TMP/docs001
run plot001 scripts/plot_seed001.sh --no-run --docs "$D1" "$R1"
expect_rc 0 plot001
for gp in scripts/seed001/*.gp; do
    expect_png "$D1/$(basename "$gp" .gp).png" "plot_seed001 $(basename "$gp")"
done
expect_no_nan "$D1/table.md" "plot_seed001 table.md"
expect_no_nan "$D1/results.csv" "plot_seed001 results.csv"
T1=$D1/table.md
expect_line "| 32 | 512 | hremu | 4.000 | 1.000 | 0.5000 | 1.500 | 2.000 |" "$T1" "plot_seed001 table.md"
expect_line "| 256 | 256 | hremu | 1.000 | 0.2500 | 0.1250 | 0.3750 | 0.5000 |" "$T1" "plot_seed001 table.md"
expect_line "| 256 | 256 | paper | 4.340 | 0.076 | 0.077 | 0.076 | - |" "$T1" "plot_seed001 table.md"
expect_line "| table6 | 8 | 256 | irreg.bs | 7 | 7 | 1.317 |" "$T1" "plot_seed001 table.md"
expect_line "| scheduler | 10 %, 256 B | 10 %, 512 B | 50 %, 256 B | 50 %, 512 B |" "$T1" "plot_seed001 table.md"
expect_line "| irreg.ls | 1.000 | 2.000 | 5.000 | 10.00 |" "$T1" "plot_seed001 table.md"
expect_line "| irreg.ps | 2.000 | 4.000 | 10.00 | 20.00 |" "$T1" "plot_seed001 table.md"
expect_line "| paper Linear | 4.723 | 6.116 | 29.01 | 38.27 |" "$T1" "plot_seed001 table.md"
expect_line "| irreg.gs | 6.0 | 6.0 | 22.0 | 22.0 |" "$T1" "plot_seed001 table.md"
# jagmesh7: 146 / (32 31) = 14.7 %, 7456 / 146 = 51 bytes; cryg2500: 6.5 %, 400 bytes
expect_line "| jagmesh7 | 32 | 146 | 14.7 | 51 | 3.000 (4) | 5.000 (7) | 7.000 (10) | 9.000 (13) |" "$T1" "plot_seed001 table.md"
expect_line "| cryg2500 | 32 | 64 | 6.5 | 400 | 4.000 (5) | 6.000 (8) | 8.000 (11) | 10.00 (14) |" "$T1" "plot_seed001 table.md"
n=$(grep -c '^| [0-9]* | [0-9]* | hremu |' "$T1" 2>/dev/null)
[ "${n:-0}" -eq 4 ] && ok || bad "plot_seed001: table.md has ${n:-no} Table 5 rows, want 4"
C1=$D1/results.csv
expect_line "item,algorithm,variant,procs,size,bytes,quantity,value" "$C1" "plot_seed001 results.csv"
expect_line "fig5,xchg.rex,complete,32,,256,model_time_ms,1.5" "$C1" "plot_seed001 results.csv"
expect_line "fig8,xchg.bex,,16,,1920,model_time_ms,51" "$C1" "plot_seed001 results.csv"
expect_line "fig10,bcast.linear,,32,,1024,model_time_ms,4" "$C1" "plot_seed001 results.csv"
expect_line "fig11,bcast.recursive,group=1,16,,4096,model_time_ms,10" "$C1" "plot_seed001 results.csv"
expect_line "table5,app.fft2d,REX,256,256,,model_time_s,0.125" "$C1" "plot_seed001 results.csv"
expect_line "table10,irreg.bs,table6,8,,256,plan_steps,7" "$C1" "plot_seed001 results.csv"
expect_line "table11,irreg.ps,density=50,32,,512,model_time_ms_mean,20" "$C1" "plot_seed001 results.csv"
expect_line "table11,irreg.ps,density=50,32,,512,plan_steps_mean,12.0000" "$C1" "plot_seed001 results.csv"
expect_line "table12,,jagmesh7,32,,,density_pct,14.7177" "$C1" "plot_seed001 results.csv"
expect_line "table12,irreg.gs,cryg2500,32,,,plan_steps,14" "$C1" "plot_seed001 results.csv"
# 24 + 36 + 9 + 36 + 20 + 8 + 32 (16 cells, 2 figures each) + 2 * (3 + 8)
n=$(wc -l <"$C1" 2>/dev/null)
[ "${n:-0}" -eq 188 ] && ok || bad "plot_seed001: results.csv has ${n:-no} lines, want 188"

# A failing step leaves the outputs as they were: a missing column, a run that did not verify.
cp -r "$D1" "$TMP/docs001.before"
cp "$R1/table11.csv" "$TMP/table11.good"
sed '1s/^plan_steps,/steps,/' "$TMP/table11.good" >"$R1/table11.csv"
run plot001_nocol scripts/plot_seed001.sh --no-run --docs "$D1" "$R1"
expect_refused plot001_nocol "plot_seed001 without a plan_steps column" "plot_seed001: $R1/table11.csv: no column \"plan_steps\" in its header"
n=$(wc -l <"$TMP/plot001_nocol.err")
[ "$n" -eq 1 ] && ok || bad "plot_seed001 without a plan_steps column: $n lines of stderr, want 1"
expect_same "$D1" "$TMP/docs001.before" "plot_seed001 without a plan_steps column"
cp "$TMP/table11.good" "$R1/table11.csv"
cp "$R1/fig11.csv" "$TMP/fig11.good"
awk 'NR == 3 { sub(/,ok,/, ",failed,") } { print }' "$TMP/fig11.good" >"$R1/fig11.csv"
run plot001_failed scripts/plot_seed001.sh --no-run --docs "$D1" "$R1"
expect_refused plot001_failed "plot_seed001 with a failed run" "plot_seed001: $R1/fig11.csv: bcast.recursive (line 3): status failed, not ok"
n=$(wc -l <"$TMP/plot001_failed.err")
[ "$n" -eq 1 ] && ok || bad "plot_seed001 with a failed run: $n lines of stderr, want 1"
expect_same "$D1" "$TMP/docs001.before" "plot_seed001 with a failed run"
cp "$TMP/fig11.good" "$R1/fig11.csv"

# ---- seed 002 --------------------------------------------------------------------------------
R2=$TMP/res002
mkdir -p "$R2"
# hremu's columns in the order of HDR, with seed 002's among them and around them.
HDR2="plan_s,d,$HDR,pattern,msg_unit,range,plan_steps"
if [ -n "${HREMU_BIN:-}" ] && [ -x "$HREMU_BIN" ]; then
    "$HREMU_BIN" configs/seed002/table5.ini --set workload.msg_unit=16 --set machine.seed=1 \
        --format csv >"$TMP/real002.csv" 2>"$TMP/real002.err"
    real=$(head -n 1 "$TMP/real002.csv")
    for col in algorithm procs seed d msg_unit pattern params model_time_s plan_s plan_steps max_in_bytes status; do
        case ",$real," in *",$col,"*) ok ;; *) bad "hremu's CSV header has no column $col: '$real'" ;; esac
    done
fi
# table1: plan_steps d + k + 2 (1 - reset) + seed, k = 4 (lambda 3/4), 2 (15/16), 1 (31/32):
# means d + k + 2 (1 - reset) + 1.5 over seeds 1, 2
for s in 1 2; do for d in 4 8 16 31; do for l in 0.75:4 0.9375:2 0.96875:1; do for r in 1 0; do
    echo "algorithm=irreg.cgmh_fixed;procs=32;seed=$s;d=$d;params=lambda=${l%:*} reset=$r base=1;status=ok;plan_steps=$((d + ${l#*:} + 2 * (1 - r) + s))"
done; done; done; done | csv "$HDR2" >"$R2/table1.csv"
# table2: plan_steps 2d + 10 (1 - reset), one seed
for d in 64 511; do for l in 0.75 0.96875; do for r in 1 0; do
    echo "algorithm=irreg.cgmh_fixed;procs=512;seed=1;d=$d;params=lambda=$l reset=$r base=1;status=ok;plan_steps=$((2 * d + 10 * (1 - r)))"
done; done; done | csv "$HDR2" >"$R2/table2.csv"
# s002_rows D M LEVELS SEEDS [PATTERN]: the seven schedulers; scheduler i = 1 (LP) .. 6
# (CGM+heap): model time i M mu/16 ms (seed 1: -0.1 ms, seed 2: +0.1), plan_s i (1 or 3) 1e-5 s
# (msg_unit 16 or not), plan_steps 10 + i + seed. CGMH+fixed: lambda 3/4: M mu/32 ms (times
# 3.125 from msg_unit 1024 on), plan_s 1e-4 s, 20 + seed steps; lambda 1: M 0.8 ms at 16, M
# mu/25.6 above, plan_s 3e-4 s, 10 + seed steps.
s002_rows() {
    for s in $4; do for mu in $3; do
        i=0
        for a in lp cgm cgmh_ms cgmh_bj cgm_sort cgm_heap; do
            i=$((i + 1))
            echo "algorithm=irreg.$a;procs=32;seed=$s;d=$1;pattern=${5:-random_d};msg_unit=$mu;status=ok;params=;plan_steps=$((10 + i + s));plan_s=$(awk "BEGIN { print $i * ($mu == 16 ? 1 : 3) * 1e-5 }");model_time_s=$(awk "BEGIN { print ($i * $2 * $mu / 16 + ($s - 1.5) / 5) / 1000 }")"
        done
        echo "algorithm=irreg.cgmh_fixed;procs=32;seed=$s;d=$1;pattern=${5:-random_d};msg_unit=$mu;status=ok;params=lambda=0.75 reset=1;plan_steps=$((20 + s));plan_s=0.0001;model_time_s=$(awk "BEGIN { print ($2 * $mu / 32 * ($mu >= 1024 ? 3.125 : 1) + ($s - 1.5) / 5) / 1000 }")"
        echo "algorithm=irreg.cgmh_fixed;procs=32;seed=$s;d=$1;pattern=${5:-random_d};msg_unit=$mu;status=ok;params=lambda=1 reset=1;plan_steps=$((10 + s));plan_s=0.0003;model_time_s=$(awk "BEGIN { print ($2 * ($mu == 16 ? 0.8 : $mu / 25.6) + ($s - 1.5) / 5) / 1000 }")"
    done; done
}
s002_rows 8 1 "16 1024" "1 2" | csv "$HDR2" >"$R2/table3.csv"
s002_rows 16 1 64 "1 2" | csv "$HDR2" >"$R2/table4.csv"
s002_rows "" 2 256 "2 1" set2 | csv "$HDR2" >"$R2/table5.csv"
{ s002_rows "" 1 "16 8192" 1 file:configs/seed001/matrices/jagmesh7.mtx
  s002_rows "" 2 "8192 16" 1 file:configs/seed001/matrices/cryg2500.mtx; } | csv "$HDR2" >"$R2/table6.csv"
# ac: (1 + K/10) ms with an unlimited buffer; ac_buffer: columns of its own order, a quoted note
for k in 8 4 2 1 0; do
    echo "algorithm=irreg.ac;procs=32;params=strip=$k;status=ok;max_in_bytes=12992;model_time_s=$(awk "BEGIN { print (1 + $k / 10) / 1000 }")"
done | csv "$HDR2" >"$R2/ac.csv"
printf '%s\n' 0:8000:0.0012 1:1984:0.0015 2:2496:0.0014 4:4032:0.0013 8:6016:0.00125 | while IFS=: read -r k b t; do
    echo "strip=$k;buffer_bytes=$b;model_time_s=$t;probes=9"
done | csv "note,model_time_s,probes,buffer_bytes,strip" >"$R2/ac_buffer.csv"

D2=$TMP/docs002
run plot002 scripts/plot_seed002.sh --no-run --docs "$D2" "$R2"
expect_rc 0 plot002
for gp in scripts/seed002/*.gp; do
    expect_png "$D2/$(basename "$gp" .gp).png" "plot_seed002 $(basename "$gp")"
done
expect_no_nan "$D2/table.md" "plot_seed002 table.md"
expect_no_nan "$D2/results.csv" "plot_seed002 results.csv"
T2=$D2/table.md
# d1 = 4/0.75 + 2/0.5625 = 8.89, d2 = 5 + 7.11 + 0.25 - 2 = 10.36; for d = 31, lambda = 31/32:
# d1 = 32 + 4.954/0.9385 = 37.28, d2 = 30 + 4.262 + 1.9375 + 0.954 = 37.15; for d = 511, lambda
# = 3/4: d1 = 681.33 + 16.00 = 697.33, d2 = 638.75 + 7.11 + 31.94 + 5.00 = 682.80
expect_line "| 0.75000 | 4 | 8.89 | 10.36 | 9.50 | 11.50 | 4 | 8.89 | 10.36 | 6.62 | 8.46 |" "$T2" "plot_seed002 table.md"
expect_line "| 0.96875 | 31 | 37.28 | 37.15 | 33.50 | 35.50 | 32 | 38.36 | 38.23 | 35.90 | 36.24 |" "$T2" "plot_seed002 table.md"
expect_line "| 0.75000 | 511 | 697.33 | 682.80 | 1022.00 | 1032.00 | 512 | 698.67 | 684.11 | 712.26 | 728.74 |" "$T2" "plot_seed002 table.md"
n=$(grep -c '^| 0\.[0-9]* | [0-9]* | ' "$T2" 2>/dev/null)
[ "${n:-0}" -eq 16 ] && ok || bad "plot_seed002: table.md has ${n:-no} rows in Tables 1-2, want 16"
# Table 3: i and 64 i ms; CGMH+fixed 0.5 ms (lambda 3/4) at 16, 40 ms (lambda 1) at 1024; comp
# 0.02 i ms, CGMH+fixed (0.1 + 0.3)/2 ms; # iters 11.5 + i, CGMH+fixed (21.5 + 11.5)/2
expect_line "| 16 | hremu | 1.000 | 2.000 | 3.000 | 4.000 | 5.000 | 6.000 | 0.5000 | 0.75 |" "$T2" "plot_seed002 table.md"
expect_line "| 1024 | hremu | 64.00 | 128.0 | 192.0 | 256.0 | 320.0 | 384.0 | 40.00 | 1 |" "$T2" "plot_seed002 table.md"
expect_line "| 16 | paper | 9.271 | 3.696 | 3.7 | 3.711 | 3.663 | 3.608 | - | |" "$T2" "plot_seed002 table.md"
expect_line "| comp (ms) | hremu | 0.02000 | 0.04000 | 0.06000 | 0.08000 | 0.1000 | 0.1200 | 0.2000 | |" "$T2" "plot_seed002 table.md"
expect_line "| # iters | hremu | 12.50 | 13.50 | 14.50 | 15.50 | 16.50 | 17.50 | 16.50 | |" "$T2" "plot_seed002 table.md"
expect_line "| # iters | paper | 31.0 | 10.18 | 12.8 | 11.6 | 10.1 | 10.2 | - | |" "$T2" "plot_seed002 table.md"
expect_line "| 64 | hremu | 4.000 | 8.000 | 12.00 | 16.00 | 20.00 | 24.00 | 2.000 | 0.75 |" "$T2" "plot_seed002 table.md"
expect_line "| 256 | hremu | 32.00 | 64.00 | 96.00 | 128.0 | 160.0 | 192.0 | 16.00 | 0.75 |" "$T2" "plot_seed002 table.md"
expect_line "| 256 | paper | 12.035 | 7.484 | 7.305 | 7.598 | 7.452 | 7.593 | 7.388 | |" "$T2" "plot_seed002 table.md"
# jagmesh7 (Table 6) and cryg2500 (Table 7): one seed, so 0.1 ms less than i M mu/16
expect_line "| 16 | hremu | 0.9000 | 1.900 | 2.900 | 3.900 | 4.900 | 5.900 | 0.4000 | 0.75 |" "$T2" "plot_seed002 table.md"
expect_line "| 8192 | hremu | 1023.9 | 2047.9 | 3071.9 | 4095.9 | 5119.9 | 6143.9 | 639.9 | 1 |" "$T2" "plot_seed002 table.md"
expect_line "| 8192 | paper | 16656.6 | 11787.9 | 10484.9 | 10223.6 | 11429 | 10215 | 10013.3 | |" "$T2" "plot_seed002 table.md"
expect_line "| 0 (no strips) | 8000 | 1.200 | 1.000 | 12992 |" "$T2" "plot_seed002 table.md"
expect_line "| 1 | 1984 | 1.500 | 1.100 | 12992 |" "$T2" "plot_seed002 table.md"
C2=$D2/results.csv
expect_line "item,source,algorithm,variant,procs,d,msg_unit,quantity,value" "$C2" "plot_seed002 results.csv"
expect_line "table1,hremu,irreg.cgmh_fixed,lambda=0.75 reset=1,32,4,,plan_steps_mean,9.5000" "$C2" "plot_seed002 results.csv"
expect_line "table1,eq3,,lambda=0.75,32,4,,d1,8.8889" "$C2" "plot_seed002 results.csv"
expect_line "table2,paper,irreg.cgmh_fixed,lambda=0.75 reset=0,512,512,,plan_steps_mean,728.74" "$C2" "plot_seed002 results.csv"
expect_line "table3,hremu,irreg.cgmh_fixed,lambda=1,32,8,1024,model_time_ms_mean,40" "$C2" "plot_seed002 results.csv"
expect_line "table3,hremu,irreg.lp,,32,8,,plan_ms_mean,0.02" "$C2" "plot_seed002 results.csv"
expect_line "table3,hremu,irreg.cgmh_fixed,best lambda,32,8,,plan_steps_mean,16.5000" "$C2" "plot_seed002 results.csv"
expect_line "table5,hremu,irreg.cgm,,32,,256,model_time_ms_mean,64" "$C2" "plot_seed002 results.csv"
expect_line "table7,hremu,irreg.lp,,32,,8192,model_time_ms_mean,1023.9" "$C2" "plot_seed002 results.csv"
expect_line "table7,paper,irreg.cgmh_fixed,,32,,8192,model_time_ms,10013.3" "$C2" "plot_seed002 results.csv"
expect_line "ac,hremu,irreg.ac,strip=1,32,,,buffer_bytes,1984" "$C2" "plot_seed002 results.csv"
expect_line "ac,hremu,irreg.ac,strip=1,32,,,model_time_ms,1.5" "$C2" "plot_seed002 results.csv"
# 1 + 12 * 8 + 4 * 8 (Tables 1-2: d1, d2, two means, four of the paper's a row) + 52 + 39 + 42 +
# 2 * 56 (Tables 3-7: 7 cells and the paper's 6 or 7 a level, comp and # iters) + 5 * 4 (AC)
n=$(wc -l <"$C2" 2>/dev/null)
[ "${n:-0}" -eq 394 ] && ok || bad "plot_seed002: results.csv has ${n:-no} lines, want 394"

# A failing step leaves the outputs as they were: a missing column, a run that did not verify, a
# missing ac_buffer.csv.
cp -r "$D2" "$TMP/docs002.before"
cp "$R2/table3.csv" "$TMP/table3.good"
sed '1s/^plan_s,/planning_s,/' "$TMP/table3.good" >"$R2/table3.csv"
run plot002_nocol scripts/plot_seed002.sh --no-run --docs "$D2" "$R2"
expect_refused plot002_nocol "plot_seed002 without a plan_s column" "plot_seed002: $R2/table3.csv: no column \"plan_s\" in its header"
n=$(wc -l <"$TMP/plot002_nocol.err")
[ "$n" -eq 1 ] && ok || bad "plot_seed002 without a plan_s column: $n lines of stderr, want 1"
expect_same "$D2" "$TMP/docs002.before" "plot_seed002 without a plan_s column"
cp "$TMP/table3.good" "$R2/table3.csv"
cp "$R2/table6.csv" "$TMP/table6.good"
awk 'NR == 3 { sub(/,ok,/, ",deadlock,") } { print }' "$TMP/table6.good" >"$R2/table6.csv"
run plot002_failed scripts/plot_seed002.sh --no-run --docs "$D2" "$R2"
expect_refused plot002_failed "plot_seed002 with a failed run" "plot_seed002: $R2/table6.csv: irreg.cgm (line 3): status deadlock, not ok"
n=$(wc -l <"$TMP/plot002_failed.err")
[ "$n" -eq 1 ] && ok || bad "plot_seed002 with a failed run: $n lines of stderr, want 1"
expect_same "$D2" "$TMP/docs002.before" "plot_seed002 with a failed run"
cp "$TMP/table6.good" "$R2/table6.csv"
mv "$R2/ac_buffer.csv" "$TMP/ac_buffer.good"
refused_kept plot002_nobuf "plot_seed002 without ac_buffer.csv" "plot_seed002: $R2/ac_buffer.csv: missing or empty" \
    "$D2" "$TMP/docs002.before" scripts/plot_seed002.sh --no-run --docs "$D2" "$R2"
mv "$TMP/ac_buffer.good" "$R2/ac_buffer.csv"
run plot002_help scripts/plot_seed002.sh --help
expect_rc 0 plot002_help
case $(head -n 1 "$TMP/plot002_help.out") in
"Reproduce seed 002's experiments"*) ok ;;
*) bad "plot_seed002 --help: first line '$(head -n 1 "$TMP/plot002_help.out")'" ;;
esac

# ---- scripts/plot.sh: any CSV of hremu rows ------------------------------------------------
RP=$TMP/plot
mkdir -p "$RP"
# Two algorithms on 4, 8 and 16 processors, two seeds, two topologies; n = 1024 and h = n/p.
# Model time a p f + 0.0002 (seed - 1), a = 0.001 (direct), 0.005 (xor), f = 1 (complete), 3
# (ring): a point's mean is a p f + 0.0001. rounds_per_h p/8 + seed/10 for hrel.direct, empty
# for hrel.xor. One more row failed (its model time 99 would show in any mean).
for a in direct:0.001 xor:0.005; do for t in complete:1 ring:3; do for p in 4 8 16; do for s in 1 2; do
    rph=''; [ "${a%:*}" = xor ] || rph=$(awk "BEGIN { print $p / 8 + $s / 10 }")
    echo "algorithm=hrel.${a%:*};procs=$p;n=1024;h=$((1024 / p));topology=${t%:*};seed=$s;status=ok;rounds_per_h=$rph;wall_s=0.00$p;model_time_s=$(awk "BEGIN { print ${a#*:} * $p * ${t#*:} + 0.0002 * ($s - 1) }")"
done; done; done; done >"$TMP/plot_rows"
echo "algorithm=hrel.xor;procs=8;n=1024;h=128;topology=ring;seed=3;status=failed;model_time_s=99" >>"$TMP/plot_rows"
csv "$HDR" <"$TMP/plot_rows" >"$RP/runs.csv"
PD=$RP/runs_plots

# expect_point DAT SERIES LINE NAME: in DAT, the block of SERIES (its first line, quoted) has LINE.
expect_point() {
    if awk -v s="\"$2\"" -v l="$3" '/^"/ { cur = $0 } cur == s && $0 == l { f = 1 } END { exit !f }' "$1" 2>/dev/null
    then ok; else bad "$4: no point '$3' in the series $2 of $(basename "$1")"; fi
}
# expect_series DAT N NAME: DAT has N series.
expect_series() {
    n=$(grep -c '^"' "$1" 2>/dev/null)
    if [ "${n:-0}" -eq "$2" ]; then ok; else bad "$3: $(basename "$1") has ${n:-no} series, want $2"; fi
}

run plot scripts/plot.sh "$RP/runs.csv"
expect_rc 0 plot
for f in time_procs time_h rounds_per_h_procs wall_model; do
    expect_png "$PD/$f.png" "plot $f"
    expect_line "$PD/$f.png" "$TMP/plot.out" "plot's list of files"
    expect_line "$PD/$f.dat" "$TMP/plot.out" "plot's list of files"
done
if [ ! -e "$PD/time_n.png" ] && [ -z "$(find "$RP" -name '.plot.*')" ]; then ok; else bad "plot: time_n.png drawn or a staging directory left"; fi
expect_line "plot: skipped time_n.png: n takes one value (1024)" "$TMP/plot.err" "plot's stderr"
expect_line "plot: $RP/runs.csv: left out 1 row whose status is not ok: 1 failed" "$TMP/plot.err" "plot's stderr"
n=$(wc -l <"$TMP/plot.err")
if [ "$n" -eq 2 ]; then ok; else bad "plot: $n lines of stderr, want 2"; fi
# series by the topology too, not by h (which procs determines); 8 processors, on the ring:
# 0.024 and 0.0242, mean 0.0241
G='# a block a series (gnuplot index 0, 1, ...) named in its first line, grouped by algorithm, topology;'
expect_line "$G" "$PD/time_procs.dat" "plot time_procs.dat"
expect_series "$PD/time_procs.dat" 4 "plot time_procs.dat"
expect_point "$PD/time_procs.dat" "hrel.direct, topology=ring" "8 0.0241 0.024 0.0242 2" "plot time_procs.dat"
expect_point "$PD/time_procs.dat" "hrel.xor, topology=complete" "16 0.0801 0.08 0.0802 2" "plot time_procs.dat"
expect_point "$PD/time_procs.dat" "hrel.xor, topology=ring" "8 0.1201 0.12 0.1202 2" "plot time_procs.dat"
# against h = 1024/p: the same points, procs not a series
expect_line "$G" "$PD/time_h.dat" "plot time_h.dat"
expect_point "$PD/time_h.dat" "hrel.direct, topology=ring" "128 0.0241 0.024 0.0242 2" "plot time_h.dat"
# rounds_per_h: hrel.direct alone (hrel.xor's cells are empty); 16 processors: 2.1 and 2.2
expect_series "$PD/rounds_per_h_procs.dat" 2 "plot rounds_per_h_procs.dat"
expect_point "$PD/rounds_per_h_procs.dat" "hrel.direct, topology=complete" "16 2.15 2.1 2.2 2" "plot rounds_per_h_procs.dat"
# wall against model: a series per algorithm, a point per row that is ok
expect_series "$PD/wall_model.dat" 2 "plot wall_model.dat"
expect_point "$PD/wall_model.dat" "hrel.xor" "0.1202 0.008" "plot wall_model.dat"
n=$(grep -c '^0' "$PD/wall_model.dat" 2>/dev/null)
if [ "${n:-0}" -eq 24 ]; then ok; else bad "plot wall_model.dat: ${n:-no} points, want 24"; fi

# --by algorithm: a point is the mean over both topologies and seeds, with a note that it is
# 8 processors: 0.008, 0.0082, 0.024, 0.0242
run plot_by scripts/plot.sh "$RP/runs.csv" --by algorithm --out "$RP/by"
expect_rc 0 plot_by
expect_png "$RP/by/time_procs.png" "plot --by algorithm"
expect_series "$RP/by/time_procs.dat" 2 "plot --by algorithm time_procs.dat"
expect_point "$RP/by/time_procs.dat" "hrel.direct" "8 0.0161 0.008 0.0242 4" "plot --by algorithm time_procs.dat"
expect_line "plot: time_procs.png: a point averages rows that differ in topology (not in --by)" "$TMP/plot_by.err" "plot --by algorithm's stderr"
run plot_by2 scripts/plot.sh "$RP/runs.csv" --by topology --by seed --out "$RP/by2"
expect_rc 0 plot_by2
expect_series "$RP/by2/time_procs.dat" 4 "plot --by topology --by seed time_procs.dat"
expect_point "$RP/by2/time_procs.dat" "topology=ring, seed=2" "4 0.0362 0.0122 0.0602 2" "plot --by topology --by seed time_procs.dat"

# Failures: one line on stderr, exit status 1, nothing written (a new DIR is not made, an old
# one is left as it was).
cp -r "$PD" "$TMP/plot.before"
sed '1s/,model_time_s,/,model_s,/' "$RP/runs.csv" >"$RP/nomodel.csv"
run plot_nocol scripts/plot.sh "$RP/nomodel.csv"
expect_rc 1 plot_nocol
expect_line "plot: $RP/nomodel.csv: no column \"model_time_s\" in its header" "$TMP/plot_nocol.err" "plot without model_time_s"
n=$(wc -l <"$TMP/plot_nocol.err")
if [ "$n" -eq 1 ]; then ok; else bad "plot without model_time_s: $n lines of stderr, want 1"; fi
if [ ! -e "$RP/nomodel_plots" ]; then ok; else bad "plot without model_time_s: $RP/nomodel_plots written"; fi
run plot_nocol2 scripts/plot.sh "$RP/nomodel.csv" --out "$PD"
expect_rc 1 plot_nocol2
expect_same "$PD" "$TMP/plot.before" "plot without model_time_s into an existing DIR"
run plot_badby scripts/plot.sh "$RP/runs.csv" --by topo --out "$RP/badby"
expect_rc 1 plot_badby
expect_line "plot: $RP/runs.csv: no column \"topo\" to group by (--by); its columns: $(echo "$HDR" | sed 's/,/, /g')" \
    "$TMP/plot_badby.err" "plot --by topo"
n=$(wc -l <"$TMP/plot_badby.err")
if [ "$n" -eq 1 ]; then ok; else bad "plot --by topo: $n lines of stderr, want 1"; fi
if [ ! -e "$RP/badby" ] && [ -z "$(find "$RP" -name '.plot.*')" ]; then ok; else bad "plot --by topo: $RP/badby or a staging directory written"; fi
head -n 1 "$RP/runs.csv" >"$RP/empty.csv"
run plot_norows scripts/plot.sh "$RP/empty.csv"
expect_rc 1 plot_norows
expect_last_err "plot: $RP/empty.csv: no rows under the header" plot_norows
run plot_help scripts/plot.sh --help
expect_rc 0 plot_help
case $(head -n 1 "$TMP/plot_help.out") in
"Plot any CSV of hremu rows"*) ok ;;
*) bad "plot --help: first line '$(head -n 1 "$TMP/plot_help.out")'" ;;
esac

# A real CSV: configs/examples/sweep.ini (procs 4, 8, 16; costs cm5 and sp2; h = n/p, 2n/p,
# 4n/p): along procs, a series per cost and multiple of n/p.
if [ -n "${HREMU_BIN:-}" ] && [ -x "$HREMU_BIN" ]; then
    "$HREMU_BIN" configs/examples/sweep.ini --format csv >"$RP/sweep.csv" 2>"$TMP/sweep.err"
    run plot_sweep scripts/plot.sh "$RP/sweep.csv"
    expect_rc 0 plot_sweep
    for f in time_procs time_h rounds_per_h_procs wall_model; do
        expect_png "$RP/sweep_plots/$f.png" "plot sweep.csv $f"
    done
    expect_series "$RP/sweep_plots/time_procs.dat" 6 "plot sweep.csv time_procs.dat"
    expect_line '"hrel.direct, h=2n/p, cost=sp2"' "$RP/sweep_plots/time_procs.dat" "plot sweep.csv time_procs.dat"
fi

# ---- every plot script has a case above ----------------------------------------------------
for s in scripts/plot_*.sh; do
    case $s in
    scripts/plot_seed000.sh|scripts/plot_seed001.sh|scripts/plot_seed002.sh|scripts/plot_seed003.sh|scripts/plot_seed004.sh|scripts/plot_topologies.sh|scripts/plot_models.sh) ok ;;
    *) bad "$s: tests/plots.sh has no CSVs for it" ;;
    esac
done

[ -z "${KEEP:-}" ] || echo "kept $TMP"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
