#!/bin/sh
# Reproduce seed 000's experiments (Bader, Helman, JaJa: h-relation routing and radix sort):
# run every config under configs/seed000/ with --format csv into a results dir (default
# build/seed000/), plot each figure with gnuplot to docs/seed000/FIGURE.png and write Table I to
# RESULTS_DIR/table1.md. docs/seed000.md discusses the results. Run from anywhere:
#     scripts/plot_seed000.sh [--no-run] [--docs DIR] [RESULTS_DIR]
# --no-run    plot the CSVs already in RESULTS_DIR (CONFIG.csv for each config), run nothing
# --docs DIR  write the figures to DIR instead of docs/seed000/
# HREMU=path overrides the binary (default ./hremu, built with make if missing).
# Every CSV column is found by name in the header, never by number (hremu's columns may move).
# The outputs are written to new files and moved into place only when every step succeeded: a
# failing step prints one message "plot_seed000: ..." and exits 1, and leaves them as they were.
set -eu
me=plot_seed000
die() { echo "$me: $*" >&2; exit 1; }
seed=000 helplines=2,12
. "$(dirname "$0")/plotlib.sh"

# kind sort: hremu's CSV may have no dataset column, so each dataset of the config's list runs
# alone and, if the header has no `dataset`, its name is appended to every row as a last column.
# Each CSV is written to CSV.tmp and renamed when complete.
if [ "$run" = 1 ]; then
    for cfg in configs/seed000/*.ini; do
        name=$(basename "$cfg" .ini)
        csv="$out/$name.csv"
        sets=$(sed -n 's/^dataset *= *\([^;#]*\).*/\1/p' "$cfg" | tr -d ' ' | tr ',' ' ')
        echo "$me: $cfg -> $csv"
        rm -f "$csv.tmp"
        if [ -z "$sets" ]; then
            "$hremu" "$cfg" --format csv --out "$csv.tmp" || die "$cfg: hremu failed (exit $?)"
        else
            for d in $sets; do
                part="$out/$name.$d.tmp"
                "$hremu" "$cfg" --set workload.dataset="$d" --format csv --out "$part" ||
                    die "$cfg: hremu failed on dataset $d (exit $?)"
                awk -v me="$me" -v d="$d" -v first="$([ -f "$csv.tmp" ] && echo 0 || echo 1)" "$CSV_AWK"'
                    FNR == 1 { header(""); add = !("dataset" in c); if (first) print $0 (add ? ",dataset" : ""); next }
                    { print $0 (add ? "," d : "") }' "$part" >> "$csv.tmp" || die "$part: cannot add the dataset column"
                rm -f "$part"
            done
        fi
        mv -f "$csv.tmp" "$csv" || die "cannot move $csv.tmp to $csv"
    done
fi

# Check every input before drawing anything: the columns the figures and Table I read.
for name in fig2 fig3_transpose fig3_skewed fig3_uniform fig5 fig6; do
    need "$out/$name.csv" algorithm procs n h model_time_s
done
for name in fig4 table1_cm5 table1_sp2; do
    need "$out/$name.csv" procs n cost model_time_s params dataset
done

draw "dir='$out'"

# Table I as markdown: model seconds per input, n/p and r, beside the paper's BHJ column.
awk -v me="$me" "$CSV_AWK"'
    FNR == 1 { header("procs n cost model_time_s params dataset"); next }
    {
        csv($0); p = F[c["procs"]]; np = F[c["n"]] / p; k = (np >= 1024 ? np / 1024 "K" : np)
        key = F[c["cost"]] " p=" p "|" F[c["dataset"]] "|" k
        v[key, F[c["params"]]] = F[c["model_time_s"]]
        if (!(key in seen)) { seen[key] = 1; order[++m] = key }
    }
    END {
        if (failed) exit 1
        paper["cm5 p=32|R|4K"] = 0.163; paper["cm5 p=32|R|64K"] = 1.91; paper["cm5 p=32|R|512K"] = 15.1
        paper["cm5 p=32|C|4K"] = 0.163; paper["cm5 p=32|C|64K"] = 1.89; paper["cm5 p=32|C|512K"] = 14.9
        paper["cm5 p=32|N|4K"] = 0.163; paper["cm5 p=32|N|64K"] = 1.89; paper["cm5 p=32|N|512K"] = 15.0
        paper["sp2 p=16|R|4K"] = 0.107; paper["sp2 p=16|R|64K"] = 0.592; paper["sp2 p=16|R|512K"] = 4.03
        paper["sp2 p=16|C|4K"] = 0.107; paper["sp2 p=16|C|64K"] = 0.584; paper["sp2 p=16|C|512K"] = 4.02
        paper["sp2 p=16|N|4K"] = 0.109; paper["sp2 p=16|N|64K"] = 0.613; paper["sp2 p=16|N|512K"] = 4.12
        for (i = 1; i <= m; i++) {
            if (!(order[i] in paper)) fail("table1: no paper figure for " order[i])
            if (!((order[i], "r=8") in v) || !((order[i], "r=11") in v) || v[order[i], "r=11"] + 0 <= 0)
                fail("table1: " order[i] " lacks an r=8 or r=11 model time")
        }
        print "| machine | input | n/p | paper BHJ (s) | hremu r=8 (s) | hremu r=11 (s) | paper / hremu r=11 |"
        print "|---|---|---|---|---|---|---|"
        for (i = 1; i <= m; i++) {
            split(order[i], f, "|")
            printf "| %s | %s | %s | %s | %.4f | %.4f | %.1f |\n", f[1], f[2], f[3], paper[order[i]],
                   v[order[i], "r=8"], v[order[i], "r=11"], paper[order[i]] / v[order[i], "r=11"]
        }
    }' "$out"/table1_cm5.csv "$out"/table1_sp2.csv > "$stage/table1.md" || die "table1: not written"

publish
mv -f "$stage/table1.md" "$out/table1.md" || die "cannot move table1.md into $out"
echo "$me: $out/table1.md"
cat "$out/table1.md"
