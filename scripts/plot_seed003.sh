#!/bin/sh
# Reproduce seed 003's experiments (Adler, Byers, Karp: scheduling the h-relation in rounds,
# sec. 7 and Figure 2): run every config under configs/seed003/ with --format csv into a results
# dir (default build/seed003/), aggregate rounds/h over the seeds with awk, and write
#     docs/seed003/table.md    rounds/h of every algorithm per discipline and p
#     docs/seed003/fig2_k.csv  hrel.fifo_staged rounds/h against K (K,p,mean,sd,min,max)
#     docs/seed003/fig2_k.png  the same, plotted by scripts/seed003/fig2_k.gp
# Run from anywhere:
#     scripts/plot_seed003.sh [--no-run] [--docs DIR] [RESULTS_DIR]
# --no-run    use the CSVs already in RESULTS_DIR (CONFIG.csv for each config), run nothing
# --docs DIR  write the table and the figure to DIR instead of docs/seed003/
# HREMU=path overrides the binary (default ./hremu, built with make if missing).
# A run that fails verification (hremu exit 1) does not stop the script: its rows are left out
# of the statistics, counted in the table's "runs ok" column, and the script exits 1 at the end.
# Every CSV column is found by name in the header, never by number (hremu's columns may move).
# The outputs are written to new files and moved into place only when every step succeeded: a
# failing step prints one message "plot_seed003: ..." and exits 2, and leaves them as they were.
set -eu
me=plot_seed003
die() { echo "$me: $*" >&2; exit 2; }
seed=003 helplines=2,17
. "$(dirname "$0")/plotlib.sh"
start=$(date +%s)
COLUMNS_USED="algorithm discipline procs n params status rounds_per_h lost stalls"

# Each CSV is written to CSV.tmp and renamed when hremu has finished (exit 0 or 1).
failed=0
for cfg in configs/seed003/*.ini; do
    name=$(basename "$cfg" .ini)
    csv="$out/$name.csv"
    rc=0
    if [ "$run" = 1 ]; then
        echo "$me: $cfg -> $csv"
        "$hremu" "$cfg" --format csv --out "$csv.tmp" || rc=$?
        case $rc in
        0|1) mv -f "$csv.tmp" "$csv" || die "cannot move $csv.tmp to $csv" ;;
        *) rm -f "$csv.tmp"; die "$cfg: hremu failed (exit $rc)" ;;
        esac
    fi
    [ -s "$csv" ] || die "$csv: missing or empty"
    # A run failed if hremu said so or a row's status is not ok (with --no-run, the latter only).
    bad=$(awk -v me="$me" -v names="$COLUMNS_USED" "$CSV_AWK"'
        FNR == 1 { header(names); next }
        { csv($0); rows++; if (F[c["status"]] != "ok") bad++ }
        END { if (failed) exit 1; if (!rows) fail(FILENAME ": no rows under the header"); print bad + 0 }' "$csv") ||
        exit 2
    if [ "$run" = 1 ] && [ "$rc" = 1 ] || [ "$bad" -gt 0 ]; then
        echo "$me: $cfg: a run failed (see the status column of $csv)" >&2
        failed=1
    fi
done

# Per (algorithm, discipline, procs, params) over the seeds: runs, ok runs, then over the ok runs
# the mean, sample standard deviation, min and max of rounds_per_h, and the mean of lost and
# stalls per message of the relation (divided by n; the messages column also counts lost sends).
# Columns are found by name in each file's header. Groups come out in file order, then in order
# of first appearance, with p ascending; one line per group, tab separated:
#     algorithm discipline procs params runs ok mean sd min max lost/n stalls/n
aggregate() {
    awk -v me="$me" -v names="$COLUMNS_USED" "$CSV_AWK"'
        FNR == 1 { header(names); next }
        {
            csv($0)
            g = F[c["algorithm"]] "\t" F[c["discipline"]] "\t" F[c["params"]]
            if (!(g in seen)) { seen[g] = 1; order[++ng] = g }
            p = F[c["procs"]] + 0
            if (!((g, p) in runs)) { np[g]++; ps[g, np[g]] = p }
            runs[g, p]++
            if (F[c["status"]] != "ok") next
            k = ++ok[g, p]
            v[g, p, k] = F[c["rounds_per_h"]] + 0
            lost[g, p] += F[c["lost"]] / F[c["n"]]
            stalls[g, p] += F[c["stalls"]] / F[c["n"]]
        }
        END {
            if (failed) exit 1
            for (i = 1; i <= ng; i++) {
                g = order[i]
                for (a = 2; a <= np[g]; a++)            # insertion sort of the p values
                    for (b = a; b > 1 && ps[g, b - 1] > ps[g, b]; b--) {
                        t = ps[g, b]; ps[g, b] = ps[g, b - 1]; ps[g, b - 1] = t
                    }
                for (a = 1; a <= np[g]; a++) {
                    p = ps[g, a]; m = ok[g, p] + 0
                    split(g, f, "\t")
                    if (m == 0) {
                        printf "%s\t%s\t%d\t%s\t%d\t0\tNaN\tNaN\tNaN\tNaN\tNaN\tNaN\n", f[1], f[2], p, f[3], runs[g, p]
                        continue
                    }
                    s = 0; lo = v[g, p, 1]; hi = lo
                    for (k = 1; k <= m; k++) {
                        x = v[g, p, k]; s += x
                        if (x < lo) lo = x
                        if (x > hi) hi = x
                    }
                    mean = s / m; ss = 0
                    for (k = 1; k <= m; k++) ss += (v[g, p, k] - mean) ^ 2
                    sd = (m > 1) ? sqrt(ss / (m - 1)) : 0
                    printf "%s\t%s\t%d\t%s\t%d\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", f[1], f[2], p, f[3],
                           runs[g, p], m, mean, sd, lo, hi, lost[g, p] / m, stalls[g, p] / m
                }
            }
        }' "$@"
}

aggregate "$out"/fifo.csv "$out"/priority.csv "$out"/arbitrary.csv "$out"/ocpc.csv > "$out/table.tsv" ||
    die "table: the aggregation failed"
aggregate "$out"/fig2_k.csv > "$out/fig2_k.tsv" || die "fig2_k: the aggregation failed"

# The table, beside the figures sec. 1 and sec. 7 of the paper give (all-to-all, rounds/h).
{
    awk -F'\t' '
        BEGIN {
            paper["hrel.fifo_staged|fifo|K=1 mu=0.267"] = "2.08 (its minimum over K; analysis: 3.4 at K = 1.9)"
            paper["hrel.pq_random|priority|"] = "about 1.85"
            paper["hrel.aw_weighted|arbitrary|beta=0.1"] = "1.57 (bound 1.62)"
            paper["hrel.aw_uniform|arbitrary|"] = "no better than 1.7"
            print "| algorithm | discipline | p | params | runs ok | rounds/h mean ± sd | min | max | lost/msg | stalls/msg | paper |"
            print "|---|---|---|---|---|---|---|---|---|---|---|"
        }
        {
            key = $1 "|" $2 "|" $4
            fig = (key in paper) ? paper[key] : ($1 == "hrel.offline" ? "exactly 1 (h rounds)" : "-")
            printf "| %s | %s | %d | %s | %d/%d | %.3f ± %.3f | %.3f | %.3f | %.3f | %.3f | %s |\n",
                   $1, $2, $3, ($4 == "" ? "-" : $4), $6, $5, $7, $8, $9, $10, $11, $12, fig
        }' "$out/table.tsv"
    cat <<EOF

All-to-all (one message between every ordered pair of processors, h = p-1), cm5 costs, complete
topology, seeds 1 to 10 (configs/seed003/*.ini). Statistics are over the runs that verified;
sd is the sample standard deviation. lost/msg and stalls/msg are the mean lost sends and stalls
per message of the relation (lost and stalls divided by n). Written by scripts/plot_seed003.sh.
EOF
} > "$stage/table.md" || die "table.md: not written"

# Figure 2 data: K from the params column (K=VALUE mu=VALUE), rows by p then K.
{
    echo "K,p,mean,sd,min,max"
    awk -F'\t' '{ split($4, a, " "); sub(/^K=/, "", a[1]); printf "%s,%d,%s,%s,%s,%s\n", a[1], $3, $7, $8, $9, $10 }' \
        "$out/fig2_k.tsv" | sort -t, -k2,2n -k1,1n
} > "$stage/fig2_k.csv" || die "fig2_k.csv: not written"

# The figures read the staged fig2_k.csv (dir is the staging directory).
draw "dir='$stage'"
publish table.md fig2_k.csv
for f in table.md fig2_k.csv; do
    echo "$me: $docs/$f"
    cat "$docs/$f"
done

echo "$me: done in $(( $(date +%s) - start )) s"
exit "$failed"
