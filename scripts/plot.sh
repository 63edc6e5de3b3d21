#!/bin/sh
# Plot any CSV of hremu rows (hremu CONFIG.ini --format csv) with gnuplot, in one command:
#     scripts/plot.sh RESULTS.csv [--out DIR] [--by COLUMN]...
# writes into DIR (default: RESULTS_plots/ beside the CSV) the figures the CSV can fill, each a
# PNG with NAME.dat beside it (what is drawn, one block a series), and prints their names:
#     time_procs.png          model_time_s against procs, a line per series
#     time_n.png, time_h.png  the same against n and against h, when they vary
#     rounds_per_h_procs.png  rounds_per_h against procs, when that column has numbers
#     wall_model.png          wall_s against model_time_s, a point a row, a style per algorithm
# A series is the rows that share the algorithm and every other setting that varies in the CSV,
# but for the x axis, the seed, the measured columns and a setting that x and the others
# determine (h = n/p along procs); h along procs is named as a multiple of n/p (h=2n/p) when that
# takes fewer values. A point is the mean over its rows (the seeds), with min-max bars when there
# are several. A line's x axis is log2 when it spans a factor of 8; other axes log10 from 100.
# --out DIR     write the figures into DIR
# --by COLUMN   series by these columns instead (repeatable); a note says when a point then
#               averages rows that differ in another setting
# Columns are found by name in the header (RFC 4180 quoting), in any order. Rows whose status is
# not ok are left out, with a count on stderr; so is each figure the CSV cannot fill, with why.
# The figures are written to new files and moved into place only when every one was drawn (the
# figures of an earlier run that this one cannot draw are removed then): a failure prints one
# message "plot: ..." and exits 1, and leaves DIR as it was. Needs gnuplot
# (scripts/deps.sh gnuplot-nox installs it).
set -eu
me=plot
die() { echo "$me: $*" >&2; exit 1; }
usage="usage: scripts/plot.sh RESULTS.csv [--out DIR] [--by COLUMN]..."
lib=$(cd "$(dirname "$0")" && pwd) || exit 1
csv='' dir='' by=''
while [ $# -gt 0 ]; do
    case $1 in
    --out) [ $# -ge 2 ] || die "--out needs a directory"; dir=$2; shift ;;
    --by) { [ $# -ge 2 ] && [ -n "$2" ]; } || die "--by needs a column name"
          by="$by${by:+
}$2"; shift ;;
    -h|--help) break ;;
    -*) die "unknown option $1 ($usage)" ;;
    *) [ -z "$csv" ] || die "more than one CSV: $csv and $1 ($usage)"; csv=$1 ;;
    esac
    shift
done
if [ $# -gt 0 ]; then
    set -- --help          # plotlib.sh prints the lines above and exits
else
    [ -n "$csv" ] || die "$usage"
    [ -f "$csv" ] || die "$csv: no such file"
    dir=${dir:-${csv%.csv}_plots}
    [ ! -e "$dir" ] || [ -d "$dir" ] || die "$dir: not a directory"
    # plotlib.sh makes the staging directory in the one it is given (--docs), here the parent
    # of DIR, so that the figures move into DIR in one step at the end
    set -- --no-run --docs "$(dirname "$dir")" "$(dirname "$dir")"
fi
seed='' study=plot helplines=2,23
wd=$PWD
. "$lib/plotlib.sh"
cd "$wd" || die "cannot go back to $wd"

# An --aggregate seed CSV has model_time_s_mean instead: say so; need() reports the rest.
awk -v me="$me" -v file="$csv" "$CSV_AWK"'
    NR == 1 { header(""); if (("model_time_s_mean" in c) && !("model_time_s" in c))
                  fail(file ": no column \"model_time_s\" in its header (an --aggregate CSV: plot the rows before aggregating; plot.sh takes the mean over seeds)")
              exit }' "$csv" || exit 1
need "$csv" model_time_s

# One pass over the CSV: NAME.dat for each figure it can fill, and the list of them.
awk -v me="$me" -v file="$csv" -v by="$by" -v stage="$stage" "$CSV_AWK$(cat "$lib/plot/plot.awk")" "$csv" \
    >"$stage/.figures" || exit 1

figs=''
while IFS='	' read -r name gp vars; do
    gnuplot -e "$vars; dat='$stage/$name.dat'; out='$stage/$name.png'" "$lib/plot/$gp.gp" ||
        die "$name.png: gnuplot failed; $dir is unchanged"
    [ -s "$stage/$name.png" ] || die "$name.png: gnuplot wrote nothing; $dir is unchanged"
    figs="$figs $name"
done <"$stage/.figures"

# Every figure was drawn: move them into DIR, and remove the figures of an earlier run that this
# one did not draw.
mkdir -p "$dir" || die "cannot create $dir"
for name in time_procs time_n time_h rounds_per_h_procs wall_model; do
    case " $figs " in
    *" $name "*) ;;
    *) rm -f "$dir/$name.png" "$dir/$name.dat" ;;
    esac
done
for name in $figs; do
    mv -f "$stage/$name.dat" "$dir/$name.dat" || die "cannot move $name.dat into $dir"
    mv -f "$stage/$name.png" "$dir/$name.png" || die "cannot move $name.png into $dir"
done
for name in $figs; do
    echo "$dir/$name.png"
    echo "$dir/$name.dat"
done
