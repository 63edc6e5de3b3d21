#!/bin/sh
# The algorithms on six networks: run every config under configs/topologies/ (the h-relation
# algorithms on the uniform, transpose and skewed inputs, and the radix sort; p = 64 on complete,
# ring, torus 8x8, hypercube, fattree and rh 4 1) with --format csv into a results dir (default
# build/topologies/), and write
#     docs/topologies/table.md     model time per input, algorithm and topology, with the ratio
#                                  to complete
#     docs/topologies/times.csv    the same figures, one line each (the figures' data)
#     docs/topologies/fig_*.png    plotted by scripts/topologies/fig_*.gp
# docs/topologies.md discusses them. Run from anywhere:
#     scripts/plot_topologies.sh [--no-run] [--docs DIR] [RESULTS_DIR]
# --no-run    use the CSVs already in RESULTS_DIR (CONFIG.csv for each config), run nothing
# --docs DIR  write the table, times.csv and the figures to DIR instead of docs/topologies/
# HREMU=path overrides the binary (default ./hremu, built with make if missing).
# Every row must verify (status ok): a run that fails stops the script, as does any other failing
# step. Every CSV column is found by name in the header, never by number (hremu's columns may
# move). The outputs are written to new files and moved into place only when every step
# succeeded: a failing step prints one message "plot_topologies: ..." and exits 1, and leaves
# them as they were.
set -eu
me=plot_topologies
die() { echo "$me: $*" >&2; exit 1; }
seed='' study=topologies helplines=2,19
. "$(dirname "$0")/plotlib.sh"
# The inputs in the order of the table and the figures' panels: configs/topologies/NAME.ini.
inputs="uniform transpose skewed sort"
COLUMNS_USED="algorithm procs n cost topology model_time_s params status"

run_configs "$inputs"

# Check every input before writing anything: the columns read, and at least one row.
set --
for name in $inputs; do
    # shellcheck disable=SC2086
    need "$out/$name.csv" $COLUMNS_USED
    set -- "$@" "$out/$name.csv"
done

# One pass over the CSVs, in the order of $inputs: every row must have status ok. A series is an
# algorithm with its params ("hrel.xor(sync=1)"); the topologies keep the order of their first
# appearance, and every series needs a complete row (the ratios' base). Writes
#     times.csv  input,n,series,s,topology,x,model_time_s,x_complete (s numbers the input's
#                series from 1, x the topologies from 0)
#     table.md   a row per input and series, a column per topology: "time (ratio)", the fastest
#                series of an input on a topology in bold
awk -v me="$me" -v names="$COLUMNS_USED" -v times="$stage/times.csv" "$CSV_AWK"'
    function pow2(n,   k) { for (k = 0; 2 ^ k < n; k++); return (2 ^ k == n) ? "2^" k : n }
    function cell(x) { return sprintf("%#.3g", x) }
    FNR == 1 {
        header(names)
        input = FILENAME; sub(/.*\//, "", input); sub(/\.csv$/, "", input)
        inp[++ni] = input
        next
    }
    {
        csv($0)
        alg = F[c["algorithm"]]; topo = F[c["topology"]]; par = F[c["params"]]
        if (F[c["status"]] != "ok")
            fail(FILENAME ": " alg (par == "" ? "" : " " par) " on " topo ": status " F[c["status"]] ", not ok")
        s = alg (par == "" ? "" : "(" par ")")
        gsub(/,/, ";", s)
        if (!((input, s) in sidx)) { sidx[input, s] = ++ns[input]; ser[input, ns[input]] = s }
        if (!(topo in tidx)) { tidx[topo] = nt; top[nt++] = topo }
        if ((input, s, topo) in t) fail(FILENAME ": two rows of " s " on " topo)
        t[input, s, topo] = F[c["model_time_s"]] + 0
        if (!(input in n)) n[input] = F[c["n"]]
        else if (n[input] != F[c["n"]]) fail(FILENAME ": n differs between rows (" n[input] ", " F[c["n"]] ")")
        procs[F[c["procs"]]] = 1; cost[F[c["cost"]]] = 1
    }
    END {
        if (failed) exit 1
        if (!("complete" in tidx)) fail("no row on complete: the ratios have no base")
        for (i = 1; i <= ni; i++)
            for (j = 1; j <= ns[inp[i]]; j++)
                if (!((inp[i], ser[inp[i], j], "complete") in t) || t[inp[i], ser[inp[i], j], "complete"] <= 0)
                    fail(inp[i] ": " ser[inp[i], j] " has no positive model time on complete")
        print "input,n,series,s,topology,x,model_time_s,x_complete" > times
        for (i = 1; i <= ni; i++)
            for (j = 1; j <= ns[inp[i]]; j++)
                for (k = 0; k < nt; k++) {
                    key = inp[i] SUBSEP ser[inp[i], j] SUBSEP top[k]
                    if (!(key in t)) continue
                    printf "%s,%s,%s,%d,%s,%d,%.9g,%.4f\n", inp[i], n[inp[i]], ser[inp[i], j], j, top[k], k,
                           t[key], t[key] / t[inp[i], ser[inp[i], j], "complete"] > times
                }
        close(times)
        # the complete column first, then the others in order
        m = 0; col[m++] = "complete"
        for (k = 0; k < nt; k++) if (top[k] != "complete") col[m++] = top[k]
        line = "| input | algorithm"; sep = "|---|---"
        for (k = 0; k < m; k++) { line = line " | " col[k]; sep = sep "|---" }
        print line " |"; print sep "|"
        for (i = 1; i <= ni; i++) {
            for (k = 0; k < m; k++) {           # the fastest series of the input on each topology
                best[k] = ""
                for (j = 1; j <= ns[inp[i]]; j++) {
                    key = inp[i] SUBSEP ser[inp[i], j] SUBSEP col[k]
                    if ((key in t) && (best[k] == "" || t[key] < t[best[k]])) best[k] = key
                }
            }
            for (j = 1; j <= ns[inp[i]]; j++) {
                line = "| " inp[i] ", n = " pow2(n[inp[i]] + 0) " | " ser[inp[i], j]
                for (k = 0; k < m; k++) {
                    key = inp[i] SUBSEP ser[inp[i], j] SUBSEP col[k]
                    if (!(key in t)) { line = line " | -"; continue }
                    v = cell(t[key])
                    if (col[k] != "complete")
                        v = v sprintf(" (%.1f)", t[key] / t[inp[i], ser[inp[i], j], "complete"])
                    if (ns[inp[i]] > 1 && best[k] == key) v = "**" v "**"
                    line = line " | " v
                }
                print line " |"
            }
        }
        ps = ""; for (x in procs) ps = ps (ps == "" ? "" : ", ") x
        cs = ""; for (x in cost) cs = cs (cs == "" ? "" : ", ") x
        print ""
        print "Model time in seconds, p = " ps ", cost " cs " (configs/topologies/*.ini); in parentheses the"
        print "time over complete'\''s. Bold: the fastest algorithm of the input on that topology. Written by"
        print "scripts/plot_topologies.sh."
    }' "$@" > "$stage/table.md" || exit 1    # awk said what failed

# The figures read the staged times.csv (dir is the staging directory), with the inputs and each
# input's series as gnuplot strings (series_NAME, words in the order of s).
gpvars="dir='$stage'; inputs='$inputs'"
for name in $inputs; do
    list=$(awk -F, -v i="$name" 'NR > 1 && $1 == i && !($3 in seen) { seen[$3] = 1; printf "%s%s", (n++ ? " " : ""), $3 }' \
        "$stage/times.csv")
    gpvars="$gpvars; series_$name='$list'"
done
draw "$gpvars"
publish times.csv table.md
echo "$me: $docs/table.md"
cat "$docs/table.md"
