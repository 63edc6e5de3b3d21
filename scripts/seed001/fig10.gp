# seed 001 Figure 10: the linear (LIB) and recursive (REB) broadcasts and the system's on 32
# nodes, model time vs message bytes, log-log. REB and the system's binomial tree coincide in
# the model: the system's is drawn dashed with open points so both show.
# Called by scripts/plot_seed001.sh with dir (holding results.csv) and out (the PNG).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 900,650 font ",11"
set output out
f = dir."/results.csv"
set title "Fig. 10: broadcast on 32 nodes, CM-5 fat tree and costs, synchronous sends"
set logscale xy 2
set format y "%g"
set xlabel "message bytes"
set ylabel "model time (ms)"
set xrange [5:26000]
set xtics ("8" 8, "128" 128, "512" 512, "1K" 1024, "2K" 2048, "4K" 4096, "8K" 8192, "16K" 16384)
set grid
set key top left noenhanced
sel(a) = (strcol("item") eq "fig10" && strcol("algorithm") eq a) ? column("value") : NaN
plot f using (column("bytes")):(sel("bcast.linear")) with linespoints lw 2 pt 7 lc 1 title "LIB (bcast.linear)", \
     f using (column("bytes")):(sel("bcast.recursive")) with linespoints lw 2 pt 7 lc 2 title "REB (bcast.recursive)", \
     f using (column("bytes")):(sel("bcast.system")) with linespoints lw 2 dt 2 pt 6 ps 2 lc 3 title "system (bcast.system)"
