#!/bin/sh
# Seed 004's comparison: run configs/seed004/values.ini and sort.ini on every RH(k,n) of the list
# below and the hypercube of the same size (--set machine.procs=P --set "machine.topology=rh K
# N, hypercube"), with --format csv into a results dir (default build/seed004/), and write
#     docs/seed004/table.md     per operation and shape: steps and model time on RH and on the
#                               hypercube, their ratio, and the links a node keeps
#     docs/seed004/ratios.csv   the same figures, one line per operation, shape and cost
#     docs/seed004/fig_*.png    plotted by scripts/seed004/fig_*.gp
# docs/seed004.md discusses them. Run from anywhere:
#     scripts/plot_seed004.sh [--no-run] [--docs DIR] [RESULTS_DIR]
# --no-run    use the CSVs already in RESULTS_DIR (values_K_N.csv, sort_K_N.csv), run nothing
# --docs DIR  write the table, ratios.csv and the figures to DIR instead of docs/seed004/
# HREMU=path overrides the binary (default ./hremu, built with make if missing).
# Every row must verify (status ok). Every CSV column is found by name in the header, never by
# number. The outputs are written to new files and moved into place only when every step
# succeeded: a failing step prints one message "plot_seed004: ..." and exits 1, and leaves them
# as they were.
set -eu
me=plot_seed004
die() { echo "$me: $*" >&2; exit 1; }
seed=004 study='' helplines=2,18
. "$(dirname "$0")/plotlib.sh"
# The shapes, as "K N": the thesis's RH(2,1), RH(3,1), RH(4,2), RH(5,2), RH(6,2), and more to show
# how the ratios grow with k (n = 1, 2) and with n.
shapes="2_1 3_1 5_1 8_1 2_2 4_2 5_2 6_2 7_2 3_3"
COLUMNS_USED="algorithm procs topology cost model_time_s rounds status"

for sh in $shapes; do
    k=${sh%_*} n=${sh#*_}
    p=$((1 << (k + (1 << n))))
    for cfg in values sort; do
        csv="$out/${cfg}_$sh.csv"
        [ "$run" = 1 ] || continue
        [ -f "configs/seed004/$cfg.ini" ] || die "configs/seed004/$cfg.ini: missing"
        echo "$me: configs/seed004/$cfg.ini on rh $k $n and hypercube (p = $p) -> $csv"
        rc=0
        "$hremu" "configs/seed004/$cfg.ini" --set "machine.procs=$p" \
            --set "machine.topology=rh $k $n, hypercube" --format csv --out "$csv.tmp" || rc=$?
        case $rc in
        0) mv -f "$csv.tmp" "$csv" || die "cannot move $csv.tmp to $csv" ;;
        1) mv -f "$csv.tmp" "$csv"; die "$cfg on rh $k $n: a run failed (see the status column of $csv)" ;;
        *) rm -f "$csv.tmp"; die "$cfg on rh $k $n: hremu failed (exit $rc)" ;;
        esac
    done
done

set --
for sh in $shapes; do
    for cfg in values sort; do
        # shellcheck disable=SC2086
        need "$out/${cfg}_$sh.csv" $COLUMNS_USED
        set -- "$@" "$out/${cfg}_$sh.csv"
    done
done

# One pass: every row must be ok. A file holds one RH shape and the hypercube of its size; an
# operation is the algorithm's family (bcast, reduce, prefix, sort). Writes
#     ratios.csv  op,x,shape,k,n,p,degree_rh,degree_hc,cost,steps_rh,steps_hc,steps_ratio,
#                 time_rh,time_hc,time_ratio (x numbers the shapes from 0, in the list's order)
#     table.md    a row per operation and shape
awk -v me="$me" -v names="$COLUMNS_USED" -v ratios="$stage/ratios.csv" "$CSV_AWK"'
    function cell(x) { return sprintf("%#.3g", x) }
    FNR == 1 { header(names); file++; next }
    {
        csv($0)
        alg = F[c["algorithm"]]; topo = F[c["topology"]]; cost = F[c["cost"]]
        if (F[c["status"]] != "ok") fail(FILENAME ": " alg " on " topo ": status " F[c["status"]] ", not ok")
        op = alg; sub(/\..*/, "", op)
        if (topo ~ /^rh /) {
            side = "rh"
            split(topo, w, " ")
            if (!(FILENAME in shape)) {
                shape[FILENAME] = topo; kk[FILENAME] = w[2]; nn[FILENAME] = w[3]
                if (!(topo in x)) { x[topo] = nx; sx[nx++] = topo; sk[topo] = w[2]; sn[topo] = w[3]; sp[topo] = F[c["procs"]] }
            }
        } else if (topo == "hypercube") side = "hc"
        else fail(FILENAME ": topology " topo " is neither rh nor hypercube")
        key = FILENAME SUBSEP op SUBSEP cost SUBSEP side
        if (key in st) fail(FILENAME ": two rows of " op " on " topo " under " cost)
        st[key] = F[c["rounds"]] + 0; tm[key] = F[c["model_time_s"]] + 0
        if (!(op in oi)) { oi[op] = no; ops[no++] = op }
        if (!(cost in ci)) { ci[cost] = nc; costs[nc++] = cost }
        files[FILENAME] = 1
    }
    END {
        if (failed) exit 1
        print "op,x,shape,k,n,p,degree_rh,degree_hc,cost,steps_rh,steps_hc,steps_ratio,time_rh,time_hc,time_ratio" > ratios
        for (o = 0; o < no; o++)
            for (i = 0; i < nx; i++)
                for (f in files) {
                    if (shape[f] != sx[i]) continue
                    for (q = 0; q < nc; q++) {
                        a = f SUBSEP ops[o] SUBSEP costs[q]
                        if (!((a SUBSEP "rh") in st)) continue
                        if (!((a SUBSEP "hc") in st)) fail(f ": " ops[o] " under " costs[q] " has no hypercube row")
                        k = sk[sx[i]]; n = sn[sx[i]]
                        r[o, i, q] = sprintf("%s,%d,%s,%d,%d,%d,%d,%d,%s,%d,%d,%.4f,%.9g,%.9g,%.4f",
                            ops[o], i, sx[i], k, n, sp[sx[i]], k + 1, k + 2 ^ n, costs[q],
                            st[a, "rh"], st[a, "hc"], st[a, "rh"] / st[a, "hc"],
                            tm[a, "rh"], tm[a, "hc"], tm[a, "rh"] / tm[a, "hc"])
                        print r[o, i, q] > ratios
                    }
                }
        close(ratios)
        line = "| operation | RH(k,n) | p | links a node (RH / cube) | steps RH / cube (ratio)"
        sep = "|---|---|---|---|---"
        for (q = 0; q < nc; q++) { line = line " | time " costs[q] " RH / cube (ratio)"; sep = sep "|---" }
        print line " |"; print sep "|"
        for (o = 0; o < no; o++)
            for (i = 0; i < nx; i++) {
                if (!((o, i, 0) in r)) continue
                split(r[o, i, 0], v, ",")
                line = "| " ops[o] " | RH(" v[4] "," v[5] ") | " v[6] " | " v[7] " / " v[8] " | " v[10] " / " v[11] sprintf(" (%.2f)", v[12])
                for (q = 0; q < nc; q++) {
                    split(r[o, i, q], v, ",")
                    line = line " | " cell(v[13]) " / " cell(v[14]) sprintf(" (%.2f)", v[15])
                }
                print line " |"
            }
        print ""
        print "Steps (the rounds column: one message a node a step) and model time in seconds of each"
        print "operation on RH(k,n) and on the hypercube of the same p; in parentheses RH over the cube."
        print "configs/seed004/values.ini (one 64-bit integer a node, sum, root 0) and sort.ini (64 keys a"
        print "node, dataset R). Written by scripts/plot_seed004.sh."
    }' "$@" > "$stage/table.md" || exit 1

draw "dir='$stage'"
publish ratios.csv table.md
echo "$me: $docs/table.md"
cat "$docs/table.md"
