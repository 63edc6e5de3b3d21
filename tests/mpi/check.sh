#!/bin/sh
# tests/mpi/check.sh MPI_BUILD_DIR: first, tests/mpi/ring.c (examples/ring_sum, requests in a timed
# region, the topology's enquiries, receives from any source, collectives) linked with the thread
# engine and with the MPI engine gives the same model figures, status and deadlock report, line
# for line, at P = 1, 2, 4 and 8, under async, sync and eager, on the complete graph and on two
# topologies with links (ring, hypercube); once over Open MPI's shared memory and once over TCP
# (--mca btl tcp,self), the path between machines. Every rank prints the run's line, and rank 0
# the timed region's and the supersteps' (from the model); they must agree with the thread
# engine's. Then the configs of tests/mpi/configs through hremu and hremu-mpi (below). The last
# line is "N passed, M failed".
set -u
dir=${1:-build/mpi}
cd "$(dirname "$0")/../.." || exit 1
# mpirun refuses root unless told; CI runs as root. The ranks and rank 0's model threads share
# this box's cores, so ranks waiting in MPI yield them (mpi_yield_when_idle) instead of polling.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hremu-mpi.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0
fail=0
# verdict WHAT: count the case, passed when the condition before it held ($? is 0); else say
# WHAT, how $TMP/want and $TMP/got differ, and $TMP/err's first lines.
verdict() {
    if [ "$?" -eq 0 ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: $1"
        diff "$TMP/want" "$TMP/got" 2>/dev/null | head -6
        head -3 "$TMP/err" 2>/dev/null
    fi
}
for btl in "vader,self" "tcp,self"; do
    for np in 1 2 4 8; do
        for disc in async sync eager; do
            for topo in complete ring hypercube; do
                "$dir/ring-threads" "$np" "$disc" "$topo" >"$TMP/threads" 2>&1
                timeout 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 --mca btl "$btl" -np "$np" \
                    "$dir/ring-mpi" "$np" "$disc" "$topo" >"$TMP/mpi" 2>"$TMP/err"
                # The thread engine's lines; every rank printed the run's
                sort -u "$TMP/threads" >"$TMP/want"
                sort -u "$TMP/mpi" >"$TMP/got"
                [ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got" &&
                    [ "$(grep -c '^status' "$TMP/mpi")" -eq "$np" ]
                verdict "btl $btl, P = $np, $disc on $topo: the engines differ"
            done
        done
    done
done
# The configs in tests/mpi/configs (every algorithm family, every discipline, bounded buffers)
# at P = 1, 2, 4 and 8 on every topology kind that has P processors: hremu-mpi's model columns
# (all but wall_s, engine, hosts and plan_s) must be hremu's, row for row, and both must exit 0
# (every row verified; on MPI, by rank 0 from every rank's outputs).
hremu="$dir/../hremu"
hremu_mpi="$dir/../hremu-mpi"
topologies() {
    case $1 in
    1) echo "complete, ring, hypercube, mesh 1x1, torus 1x1, fattree" ;;
    2) echo "complete, ring, hypercube, mesh 1x2, torus 1x2, fattree" ;;
    4) echo "complete, ring, hypercube, mesh 2x2, torus 2x2, fattree" ;;
    8) echo "complete, ring, hypercube, mesh 2x4, torus 2x2x2, fattree, rh 1 1" ;;
    esac
}
# The model columns, by name, from the header of a thread engine's command (the first argument).
model_columns() {
    "$@" --format csv 2>/dev/null | head -1 | tr , '\n' |
        grep -v -x -e wall_s -e engine -e hosts -e plan_s | paste -sd , -
}
# same_as_threads WHAT CFG NP LAUNCHER...: CFG at NP processors on every topology kind that has
# them, through hremu and through LAUNCHER (mpirun ... hremu-mpi): both exit 0, and the model
# columns are equal row for row.
same_as_threads() {
    what=$1 cfg=$2 np=$3
    shift 3
    topo=$(topologies "$np")
    cols=$(model_columns "$hremu" "$cfg" --set machine.procs="$np" --set "machine.topology=$topo")
    "$hremu" "$cfg" --set machine.procs="$np" --set "machine.topology=$topo" --format csv \
        --columns "$cols" >"$TMP/want" 2>"$TMP/err"
    rc_t=$?
    timeout 300 "$@" "$cfg" --set machine.procs="$np" --set "machine.topology=$topo" \
        --format csv --columns "$cols" >"$TMP/got" 2>"$TMP/err"
    rc_m=$?
    [ "$rc_t" -eq 0 ] && [ "$rc_m" -eq 0 ] && [ "$(wc -l <"$TMP/want")" -gt 1 ] &&
        cmp -s "$TMP/want" "$TMP/got"
    verdict "$what, P = $np, $cfg: exit $rc_t on threads, $rc_m on MPI"
}
for btl in "vader,self" "tcp,self"; do
    for np in 1 2 4 8; do
        for cfg in tests/mpi/configs/*.ini; do
            same_as_threads "btl $btl" "$cfg" "$np" mpirun --oversubscribe \
                --mca mpi_yield_when_idle 1 --mca btl "$btl" -np "$np" "$hremu_mpi"
        done
    done
done
# The cost models other than bdm: loggp's exchanges and bsp's h-relations (their rows on
# topologies with links are skipped on both engines alike; bsp_hrel.ini's h = 4n/p needs p >= 4).
for np in 4 8; do
    for cfg in tests/data/loggp_exchange.ini tests/data/bsp_hrel.ini; do
        same_as_threads "cost model" "$cfg" "$np" mpirun --oversubscribe \
            --mca mpi_yield_when_idle 1 -np "$np" "$hremu_mpi"
    done
done
# expect WHAT STATUS PATTERN: the last command's status ($rc) and one line of $TMP/err matching.
expect() {
    [ "$rc" -eq "$2" ] && [ "$(grep -c -e "$3" "$TMP/err")" -eq 1 ]
    verdict "$1: exit $rc (want $2)"
}
# The side outputs come from rank 0's model: --trace, --rounds and --regions equal the thread
# engine's, byte for byte (no --trace-wall), at P = 4.
for cfg in tests/mpi/configs/hrel.ini tests/mpi/configs/rounds.ini; do
    set -- "$cfg" --set machine.procs=4 --set "machine.topology=complete, torus 2x2" --quiet
    "$hremu" "$@" --format csv --out "$TMP/rows" --trace "$TMP/trace.thr" --rounds \
        "$TMP/rounds.thr" --regions "$TMP/regions.thr" 2>/dev/null
    timeout 300 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 4 "$hremu_mpi" "$@" \
        --format csv --out "$TMP/rows" --trace "$TMP/trace.mpi" --rounds "$TMP/rounds.mpi" \
        --regions "$TMP/regions.mpi" 2>/dev/null
    cat "$TMP/trace.thr" "$TMP/rounds.thr" "$TMP/regions.thr" >"$TMP/want"
    cat "$TMP/trace.mpi" "$TMP/rounds.mpi" "$TMP/regions.mpi" >"$TMP/got"
    [ -s "$TMP/trace.thr" ] && cmp -s "$TMP/want" "$TMP/got"
    verdict "$cfg at P = 4: --trace, --rounds or --regions differ between the engines"
done

# model = off (direct.c): every config but the round disciplines', at P = 2 and 4, every row
# verified (the model columns empty); the thread engine refuses it.
for np in 2 4; do
    for cfg in tests/mpi/configs/*.ini; do
        [ "$cfg" = tests/mpi/configs/rounds.ini ] && continue
        timeout 300 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np "$np" "$hremu_mpi" \
            "$cfg" --set machine.procs="$np" --set "machine.topology=$(topologies "$np")" \
            --set run.model=off --format csv --columns algorithm,model,model_time_s,status \
            >"$TMP/got" 2>"$TMP/err"
        rc=$?
        grep -v ',off,,ok$' "$TMP/got" >"$TMP/want"     # the header alone
        [ "$rc" -eq 0 ] && [ "$(wc -l <"$TMP/got")" -gt 1 ] && [ "$(wc -l <"$TMP/want")" -eq 1 ]
        verdict "model = off, P = $np, $cfg: exit $rc, rows not ok (want: the header alone)"
    done
done
"$hremu" tests/mpi/configs/hrel.ini --set run.model=off >/dev/null 2>"$TMP/err"
rc=$?
expect "model = off on threads" 2 "only hremu-mpi runs without the model"

# examples/own_command, a user's workload and algorithm with hremu_main, linked with each engine.
for np in 1 2 4; do
    set -- examples/own_command/prefix.ini --set machine.procs="$np"
    cols=$(model_columns "$dir/own-threads" "$@")
    "$dir/own-threads" "$@" --format csv --columns "$cols" >"$TMP/want" 2>&1
    timeout 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np "$np" "$dir/own-mpi" "$@" \
        --format csv --columns "$cols" >"$TMP/got" 2>"$TMP/err"
    [ "$(wc -l <"$TMP/want")" -eq 2 ] && grep -q -e ',ok,' -e ',ok$' "$TMP/want" &&
        cmp -s "$TMP/want" "$TMP/got"
    verdict "examples/own_command at P = $np: the engines differ"
done
# The comparison can fail: async on threads and sync (a deadlock) on MPI must differ.
"$dir/ring-threads" 2 async complete >"$TMP/threads"
timeout 60 mpirun --oversubscribe -np 2 "$dir/ring-mpi" 2 sync complete 2>/dev/null | sort -u >"$TMP/got"
! cmp -s "$TMP/threads" "$TMP/got"
verdict "async on threads and sync on MPI compare equal"
# ... and so can the configs': another seed on MPI.
set -- tests/mpi/configs/hrel.ini --set machine.procs=2
cols=$(model_columns "$hremu" "$@")
"$hremu" "$@" --format csv --columns "$cols" >"$TMP/want" 2>/dev/null
timeout 60 mpirun --oversubscribe -np 2 "$hremu_mpi" "$@" --set machine.seed=4 --format csv \
    --columns "$cols" >"$TMP/got" 2>/dev/null
! cmp -s "$TMP/want" "$TMP/got"
verdict "seed 3 on threads and seed 4 on MPI compare equal"
# MPICH (MPICH_BUILD: a build with MPICC=mpicc.mpich, make check-mpi's): every config at P = 4
# under its launcher, the model columns hremu's.
if [ -n "${MPICH_BUILD:-}" ]; then
    for cfg in tests/mpi/configs/*.ini; do
        same_as_threads MPICH "$cfg" 4 mpirun.mpich -np 4 "$MPICH_BUILD/hremu-mpi"
    done
fi

# Faults: one clear line and the same non-zero status on every rank, never a hang.
hrel=tests/mpi/configs/hrel.ini
# a config only some ranks can read
timeout 60 mpirun --oversubscribe -np 1 "$hremu_mpi" "$hrel" --set machine.procs=2 : \
    -np 1 "$hremu_mpi" "$TMP/none.ini" >/dev/null 2>"$TMP/err"
rc=$?
expect "a config rank 1 cannot read" 2 "^hremu: rank 1: $TMP/none.ini: cannot open"
# procs other than the ranks
timeout 60 mpirun --oversubscribe -np 3 "$hremu_mpi" "$hrel" >/dev/null 2>"$TMP/err"
rc=$?
expect "procs = 4 on 3 ranks" 2 "no row has procs = 3"
# an algorithm that fails on one rank (counting sort's keys are too wide on P0): the row fails
# as on threads, the status 1
set -- tests/mpi/configs/sort.ini --set machine.procs=2 --set workload.dataset=R \
    --set run.algorithms=sort.counting --set machine.discipline=async
timeout 60 mpirun --oversubscribe -np 2 "$hremu_mpi" "$@" --format csv >"$TMP/got" 2>"$TMP/err"
rc=$?
expect "sort.counting failing on P0" 1 "^hremu: sort.counting: P0: sort.counting: the largest key"
# no mpirun: one rank, said
"$hremu_mpi" "$hrel" --set machine.procs=1,2 >/dev/null 2>"$TMP/err"
rc=$?
expect "hremu-mpi alone" 0 "not started by mpirun"
# a rank killed mid-run: mpirun ends the job
timeout 120 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 2 "$hremu_mpi" "$hrel" \
    --set machine.procs=2 --set run.repeat=1000000 >/dev/null 2>"$TMP/err" &
job=$!
# Its ranks may take a while to start on a busy box: wait for one (up to 30 s), then kill it.
rank=
for _ in $(seq 60); do
    rank=$(pgrep -f "^$hremu_mpi $hrel --set machine.procs=2 --set run.repeat=1000000" | tail -1)
    [ -n "$rank" ] && break
    sleep 0.5
done
sleep 1
kill -9 "$rank"
wait "$job"
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]
verdict "a rank killed mid-run: mpirun exited $rc (124: a hang the timeout ended)"

# --calibrate writes each cost model's figures in the section its rows read: [cost] (bdm),
# [loggp] and [bsp], every latency above 0; a config naming the file runs under all three, each
# row with its own section's tau.
timeout 300 mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np 2 "$hremu_mpi" --calibrate \
    --out "$TMP/cost.ini" >/dev/null 2>"$TMP/err"
printf '[machine]\nprocs = 4\ncost = file:cost.ini\ncost_model = bdm, loggp, bsp\n[workload]\nn = 64\n[run]\nalgorithms = hrel.direct\n' \
    >"$TMP/models.ini"
"$hremu" "$TMP/models.ini" --format csv --columns cost_model,tau,status >"$TMP/got" 2>"$TMP/err"
python3 - "$TMP/cost.ini" "$TMP/got" <<'PY'
import configparser, csv, sys
cost = configparser.ConfigParser(inline_comment_prefixes=(";",))
cost.read(sys.argv[1])
assert cost.sections() == ["cost", "loggp", "bsp"], cost.sections()
rows = list(csv.DictReader(open(sys.argv[2])))
assert [r["cost_model"] for r in rows] == ["bdm", "loggp", "bsp"], rows
for r in rows:
    section = "cost" if r["cost_model"] == "bdm" else r["cost_model"]
    tau = float(cost[section]["tau"])
    assert tau > 0 and r["status"] == "ok" and float(r["tau"]) == tau, (r, tau)
PY
verdict "--calibrate's sections, read by a row of each cost model"

# The commands README.md and docs/mpi.md show (mpirun lines and scripts; synopses skipped), on
# this box's cores (--oversubscribe added), in a scratch directory that links to the checkout's
# build/, configs/ and scripts/, so that a command's files (--out cost.ini) land there.
root=$(pwd)
mkdir "$TMP/run" && ln -s "$root/build" "$root/configs" "$root/scripts" "$TMP/run/"
grep -h -e '^ *mpirun ' -e '^ *scripts/mpi_predict' README.md docs/mpi.md |
    grep -v -e CONFIG -e HOSTS -e '\.\.\.' -e ' P ' |
    sed 's/^ *mpirun /mpirun --oversubscribe --mca mpi_yield_when_idle 1 /' >"$TMP/commands"
while IFS= read -r cmd; do
    (cd "$TMP/run" && timeout 300 sh -c "$cmd" </dev/null) >/dev/null 2>"$TMP/err"
    verdict "$cmd"
done <"$TMP/commands"
[ -s "$TMP/commands" ] || { fail=$((fail + 1)); echo "FAIL: no mpirun command found in the docs"; }

echo "$pass passed, $fail failed (the MPI engine against the thread engine)"
[ "$fail" -eq 0 ]
