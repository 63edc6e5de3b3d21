#!/bin/sh
# tests/cli/engines.sh: the fiber engine ([machine] engine = fibers, src/core/fibers.c) gives
# the thread engine's model columns (all but wall_s, plan_s and the engine's own: engine,
# stack, carriers), row for row: every config of tests/mpi/configs (every algorithm family,
# discipline and bounded buffers) at p = 4 and 8 on every topology kind that has p processors,
# configs/teaching, cost model loggp's exchanges and bsp's h-relations, on one carrier thread
# and on three (more than this box may have cores, so that fibers migrate between threads
# whatever the box), each plainly and with HREMU_JITTER=1 (which makes fibers yield at random);
# every row verified, under every sanitizer too. Reads columns by name (--columns from the
# header). The last line is "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${HREMU_BIN:-./hremu}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hremu-engines.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0
fail=0
RUNS="0:1 1:1 0:3 1:3"    # JITTER:CARRIERS
topologies() {
    case $1 in
    4) echo "complete, ring, hypercube, mesh 2x2, torus 2x2, fattree" ;;
    8) echo "complete, ring, hypercube, mesh 2x4, torus 2x2x2, fattree, rh 1 1" ;;
    esac
}
# compare WHAT ARGS...: hremu ARGS on threads, then on fibers (JITTER:CARRIERS each).
compare() {
    what=$1
    shift
    cols=$("$BIN" "$@" --format csv 2>/dev/null | head -1 | tr , '\n' |
        grep -v -x -e wall_s -e engine -e stack -e carriers -e plan_s | paste -sd , -)
    "$BIN" "$@" --format csv --columns "$cols" >"$TMP/want" 2>/dev/null
    rc_t=$?
    for run in $RUNS; do
        jitter=${run%:*} carriers=${run#*:}
        HREMU_JITTER=$jitter "$BIN" "$@" --set machine.engine=fibers \
            --set machine.carriers="$carriers" --format csv --columns "$cols" >"$TMP/got" 2>"$TMP/err"
        rc_f=$?
        if [ "$rc_t" -eq 0 ] && [ "$rc_f" -eq 0 ] && [ "$(wc -l <"$TMP/want")" -gt 1 ] &&
            cmp -s "$TMP/want" "$TMP/got"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL: $what (HREMU_JITTER=$jitter, carriers = $carriers): exit $rc_t on threads," \
                "$rc_f on fibers"
            diff "$TMP/want" "$TMP/got" | head -4
            head -3 "$TMP/err"
        fi
    done
}
for p in 4 8; do
    for cfg in tests/mpi/configs/*.ini; do
        compare "$cfg at p = $p" "$cfg" --set machine.procs="$p" --set "machine.topology=$(topologies "$p")"
    done
done
for cfg in configs/teaching/*.ini; do
    compare "$cfg" "$cfg"
done
# Cost model loggp: seed 001's exchanges at p = 8 with 100-byte blocks, and hrel.xor, whose
# steps end in barriers.
compare "tests/data/loggp_exchange.ini at p = 8" tests/data/loggp_exchange.ini \
    --set machine.procs=8 --set machine.topology=complete --set workload.bytes=100
compare "hrel.xor under loggp at p = 8" configs/default.ini --set machine.cost_model=loggp \
    --set machine.cost=tukey --set run.algorithms=hrel.xor --set machine.procs=8 --set machine.gap=1e-6 \
    --set machine.overhead=2e-6
# Cost model bsp: seed 000's h-relations, each world collective a superstep.
compare "tests/data/bsp_hrel.ini" tests/data/bsp_hrel.ini --set machine.topology=complete \
    --set run.algorithms=hrel.direct,hrel.two_phase
echo "$pass passed, $fail failed (the fiber engine against the thread engine)"
[ "$fail" -eq 0 ]
