#!/bin/sh
# Reproduce seed 003's experiments (Adler, Byers, Karp: scheduling the h-relation in rounds,
# sec. 7 and Figure 2): run every config under configs/seed003/ with --format csv into a results
# dir (default build/seed003/), aggregate rounds/h over the seeds with awk, and write
#     docs/seed003/table.md    rounds/h of every algorithm per discipline and p
#     docs/seed003/fig2_k.csv  hrel.fifo_staged rounds/h against K (K,p,mean,sd,min,max)
#     docs/seed003/fig2_k.png  the same, plotted by scripts/seed003/fig2_k.gp
# Run from anywhere:
#     scripts/plot_seed003.sh [RESULTS_DIR]
# HREMU=path overrides the binary (default ./hremu, built with make if missing).
# A run that fails verification (hremu exit 1) does not stop the script: its rows are left out
# of the statistics, counted in the table's "runs ok" column, and the script exits 1 at the end.
set -e
cd "$(dirname "$0")/.."
start=$(date +%s)
out=${1:-build/seed003}
hremu=${HREMU:-./hremu}
docs=docs/seed003
mkdir -p "$out" "$docs"
[ -x "$hremu" ] || make
scripts/deps.sh gnuplot-nox

failed=0
for cfg in configs/seed003/*.ini; do
    name=$(basename "$cfg" .ini)
    echo "plot_seed003: $cfg -> $out/$name.csv"
    rc=0
    "$hremu" "$cfg" --format csv --out "$out/$name.csv" || rc=$?
    case $rc in
    0) ;;
    1) echo "plot_seed003: $cfg: a run failed (see the status column of $out/$name.csv)" >&2
       failed=1 ;;
    *) exit "$rc" ;;
    esac
done

# Per (algorithm, discipline, procs, params) over the seeds: runs, ok runs, then over the ok runs
# the mean, sample standard deviation, min and max of rounds_per_h, and the mean of lost and
# stalls per message of the relation (divided by n; the messages column also counts lost sends).
# Columns are found by name in each file's header. Groups come out in file order, then in order
# of first appearance, with p ascending; one line per group, tab separated:
#     algorithm discipline procs params runs ok mean sd min max lost/n stalls/n
aggregate() {
    awk -F, '
        FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        {
            g = $c["algorithm"] "\t" $c["discipline"] "\t" $c["params"]
            if (!(g in seen)) { seen[g] = 1; order[++ng] = g }
            p = $c["procs"] + 0
            if (!((g, p) in runs)) { np[g]++; ps[g, np[g]] = p }
            runs[g, p]++
            if ($c["status"] != "ok") next
            k = ++ok[g, p]
            v[g, p, k] = $c["rounds_per_h"] + 0
            lost[g, p] += $c["lost"] / $c["n"]
            stalls[g, p] += $c["stalls"] / $c["n"]
        }
        END {
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

aggregate "$out"/fifo.csv "$out"/priority.csv "$out"/arbitrary.csv "$out"/ocpc.csv > "$out/table.tsv"
aggregate "$out"/fig2_k.csv > "$out/fig2_k.tsv"

# The table, beside the figures sec. 1 and sec. 7 of the paper give (all-to-all, rounds/h).
awk -F'\t' '
    BEGIN {
        paper["hrel.fifo_staged|fifo|K=1 mu=0.267"] = "2.08 (its minimum over K; analysis: 3.4 at K = 1.9)"
        paper["hrel.pq_random|priority|"] = "about 1.85"
        paper["hrel.aw_weighted|arbitrary|beta=0.1"] = "1.57 (bound 1.62)"
        paper["hrel.aw_uniform|arbitrary|beta=0.1"] = "no better than 1.7"
        print "| algorithm | discipline | p | params | runs ok | rounds/h mean ± sd | min | max | lost/msg | stalls/msg | paper |"
        print "|---|---|---|---|---|---|---|---|---|---|---|"
    }
    {
        key = $1 "|" $2 "|" $4
        fig = (key in paper) ? paper[key] : ($1 == "hrel.offline" ? "exactly 1 (h rounds)" : "-")
        printf "| %s | %s | %d | %s | %d/%d | %.3f ± %.3f | %.3f | %.3f | %.3f | %.3f | %s |\n",
               $1, $2, $3, ($4 == "" ? "-" : $4), $6, $5, $7, $8, $9, $10, $11, $12, fig
    }' "$out/table.tsv" > "$docs/table.md"
cat >> "$docs/table.md" <<EOF

All-to-all (one message between every ordered pair of processors, h = p-1), cm5 costs, complete
topology, seeds 1 to 10 (configs/seed003/*.ini). Statistics are over the runs that verified;
sd is the sample standard deviation. lost/msg and stalls/msg are the mean lost sends and stalls
per message of the relation (lost and stalls divided by n). Written by scripts/plot_seed003.sh.
EOF
echo "plot_seed003: $docs/table.md"
cat "$docs/table.md"

# Figure 2 data: K from the params column (K=VALUE mu=VALUE), rows by p then K.
awk -F'\t' '
    BEGIN { print "K,p,mean,sd,min,max" }
    { split($4, a, " "); sub(/^K=/, "", a[1]); printf "%s,%d,%s,%s,%s,%s\n", a[1], $3, $7, $8, $9, $10 }
' "$out/fig2_k.tsv" | { read -r hdr; echo "$hdr"; sort -t, -k2,2n -k1,1n; } > "$docs/fig2_k.csv"
echo "plot_seed003: $docs/fig2_k.csv"
cat "$docs/fig2_k.csv"

for gp in scripts/seed003/*.gp; do
    fig=$(basename "$gp" .gp)
    echo "plot_seed003: $gp -> $docs/$fig.png"
    gnuplot -e "dir='$docs'; out='$docs/$fig.png'" "$gp"
done

echo "plot_seed003: done in $(( $(date +%s) - start )) s"
exit "$failed"
