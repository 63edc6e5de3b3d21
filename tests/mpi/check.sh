#!/bin/sh
# tests/mpi/check.sh MPI_BUILD_DIR: tests/mpi/ring.c (examples/ring_sum, requests in a timed
# region, the topology's enquiries, receives from any source, collectives) linked with the thread
# engine and with the MPI engine gives the same model figures, status and deadlock report, line
# for line, at P = 1, 2, 4 and 8, under async, sync and eager, on the complete graph and on two
# topologies with links (ring, hypercube); once over Open MPI's shared memory and once over TCP
# (--mca btl tcp,self), the path between machines. Every rank prints the run's line, and rank 0
# the timed region's (from the model); they must agree with the thread engine's. The last line
# is "N passed, M failed".
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
                if [ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got" &&
                    [ "$(grep -c '^status' "$TMP/mpi")" -eq "$np" ]; then
                    pass=$((pass + 1))
                else
                    fail=$((fail + 1))
                    echo "FAIL: btl $btl, P = $np, $disc on $topo: the engines differ"
                    diff "$TMP/want" "$TMP/got" | head -6
                    head -3 "$TMP/err"
                fi
            done
        done
    done
done
# The comparison can fail: async on threads and sync (a deadlock) on MPI must differ.
"$dir/ring-threads" 2 async complete >"$TMP/threads"
timeout 60 mpirun --oversubscribe -np 2 "$dir/ring-mpi" 2 sync complete 2>/dev/null | sort -u >"$TMP/got"
if cmp -s "$TMP/threads" "$TMP/got"; then
    fail=$((fail + 1)); echo "FAIL: async on threads and sync on MPI compare equal"
else
    pass=$((pass + 1))
fi
echo "$pass passed, $fail failed (the MPI engine against the thread engine)"
[ "$fail" -eq 0 ]
