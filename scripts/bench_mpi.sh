#!/bin/sh
# scripts/bench_mpi.sh BUILD_DIR: the figures of `make bench-mpi`, one table.
#
# hremu-mpi runs hrel.direct and hrel.two_phase on configs/bench/hrel.ini (p = 16, n = 2^24
# elements of 8 bytes, uniform destinations), once with the model (`[run] model = on`) and once
# without (`off`), beside BUILD_DIR/bench/ref_alltoallv_mpi, a plain MPI program that moves the
# same elements with one MPI_Alltoallv (bench/ref_alltoallv_mpi.c). Each figure is a median
# over BENCH_RUNS runs (default 11): the reference's, and hremu-mpi's repeats (wall_s: the
# slowest rank's, from a barrier). x_mpi = wall_s over the reference's: 1.00 is as
# fast (the goals: at most 1.2 with the model off, 2 with it on). On a box with fewer cores than
# ranks, mpirun oversubscribes them (--oversubscribe, mpi_yield_when_idle): quote the ratios,
# not the seconds. Not a test: the exit status is 1 only when a program fails or a row is not
# verified.
set -u
build=${1:?usage: scripts/bench_mpi.sh BUILD_DIR}
cd "$(dirname "$0")/.." || exit 1
runs=${BENCH_RUNS:-11}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cfg=configs/bench/hrel.ini
p=$(awk -F'[=;]' '/^procs/ { gsub(/ /, "", $2); print $2; exit }' "$cfg")
n=$(awk -F'[=;]' '/^n / { gsub(/ /, "", $2); print $2; exit }' "$cfg")
seed=$(awk -F'[=;]' '/^seed/ { gsub(/ /, "", $2); print $2; exit }' "$cfg")
mpirun="mpirun --oversubscribe --mca mpi_yield_when_idle 1 -np $p"
status=0
$mpirun "$build/bench/ref_alltoallv_mpi" "$p" "$n" "$runs" "$seed" >"$tmp/ref" || status=1
$mpirun "$build/hremu-mpi" "$cfg" --set run.algorithms=hrel.direct,hrel.two_phase \
    --set run.model=on,off --set run.repeat="$runs" --format csv --quiet >"$tmp/rows" || status=1
ref=$(sed -n 's/.*median_s=\([0-9.e+-]*\).*/\1/p' "$tmp/ref")
echo "hremu-mpi beside plain MPI_Alltoallv: p = $p, n = $n, seed $seed ($(nproc) cores)"
awk -F, -v ref="${ref:-0}" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { printf "%-16s model=%-3s  wall_s %.4f  ref_s %.4f  x_mpi %.2f  %s\n", $col["algorithm"],
             $col["model"], $col["wall_s"], ref, (ref > 0 ? $col["wall_s"] / ref : 0),
             $col["status"]
      if ($col["status"] != "ok") bad = 1 }
    END { exit bad }' "$tmp/rows" || status=1
echo "x_mpi: wall_s over ref_alltoallv_mpi's (the same elements, one MPI_Alltoallv): 1.00 as fast"
exit $status
