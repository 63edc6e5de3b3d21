#!/bin/sh
# Reproduce seed 000's experiments (Bader, Helman, JaJa: h-relation routing and radix sort):
# run every config under configs/seed000/ with --format csv into a results dir (default
# build/seed000/) and plot each figure with gnuplot to docs/seed000/FIGURE.png.
# docs/seed000.md discusses the results. Run from anywhere:
#     scripts/plot_seed000.sh [RESULTS_DIR]
# HREMU=path overrides the binary (default ./hremu, built with make if missing).
set -e
cd "$(dirname "$0")/.."
out=${1:-build/seed000}
hremu=${HREMU:-./hremu}
figs=docs/seed000
mkdir -p "$out" "$figs"
[ -x "$hremu" ] || make
scripts/deps.sh gnuplot-nox

# kind sort: the CSV has no dataset column, so each dataset of the config's list runs alone
# and its name is appended to every row as a last column, `dataset`.
for cfg in configs/seed000/*.ini; do
    name=$(basename "$cfg" .ini)
    csv="$out/$name.csv"
    sets=$(sed -n 's/^dataset *= *\([^;#]*\).*/\1/p' "$cfg" | tr -d ' ' | tr ',' ' ')
    echo "plot_seed000: $cfg -> $csv"
    if [ -z "$sets" ]; then
        "$hremu" "$cfg" --format csv --out "$csv"
    else
        rm -f "$csv"
        for d in $sets; do
            "$hremu" "$cfg" --set workload.dataset="$d" --format csv --out "$out/$name.$d.tmp"
            if [ ! -f "$csv" ]; then
                head -n 1 "$out/$name.$d.tmp" | sed 's/$/,dataset/' > "$csv"
            fi
            tail -n +2 "$out/$name.$d.tmp" | sed "s/\$/,$d/" >> "$csv"
            rm -f "$out/$name.$d.tmp"
        done
    fi
done

for gp in scripts/seed000/*.gp; do
    fig=$(basename "$gp" .gp)
    echo "plot_seed000: $gp -> $figs/$fig.png"
    gnuplot -e "dir='$out'; out='$figs/$fig.png'" "$gp"
done

# Table I as markdown: model seconds per input, n/p and r, beside the paper's BHJ column.
awk -F, '
    FNR == 1 { next }
    { np = $3 / $2; k = (np >= 1024 ? np / 1024 "K" : np)
      key = $7 " p=" $2 "|" $20 "|" k; v[key, $19] = $9; if (!(key in seen)) { seen[key] = 1; order[++m] = key } }
    END {
        paper["cm5 p=32|R|4K"] = 0.163; paper["cm5 p=32|R|64K"] = 1.91; paper["cm5 p=32|R|512K"] = 15.1
        paper["cm5 p=32|C|4K"] = 0.163; paper["cm5 p=32|C|64K"] = 1.89; paper["cm5 p=32|C|512K"] = 14.9
        paper["cm5 p=32|N|4K"] = 0.163; paper["cm5 p=32|N|64K"] = 1.89; paper["cm5 p=32|N|512K"] = 15.0
        paper["sp2 p=16|R|4K"] = 0.107; paper["sp2 p=16|R|64K"] = 0.592; paper["sp2 p=16|R|512K"] = 4.03
        paper["sp2 p=16|C|4K"] = 0.107; paper["sp2 p=16|C|64K"] = 0.584; paper["sp2 p=16|C|512K"] = 4.02
        paper["sp2 p=16|N|4K"] = 0.109; paper["sp2 p=16|N|64K"] = 0.613; paper["sp2 p=16|N|512K"] = 4.12
        print "| machine | input | n/p | paper BHJ (s) | hremu r=8 (s) | hremu r=11 (s) | paper / hremu r=11 |"
        print "|---|---|---|---|---|---|---|"
        for (i = 1; i <= m; i++) {
            split(order[i], f, "|")
            printf "| %s | %s | %s | %s | %.4f | %.4f | %.1f |\n", f[1], f[2], f[3], paper[order[i]],
                   v[order[i], "r=8"], v[order[i], "r=11"], paper[order[i]] / v[order[i], "r=11"]
        }
    }' "$out"/table1_cm5.csv "$out"/table1_sp2.csv > "$out/table1.md"
echo "plot_seed000: $out/table1.md"
cat "$out/table1.md"
