# seed 001 Figure 11: the recursive broadcast to all (group=0) and along every row of a mesh
# (group=1), and the system's, vs processors, a panel per message size, log-log. REB to all and
# the system's binomial tree coincide in the model: the system's is dashed with open points.
# Called by scripts/plot_seed001.sh with dir (holding results.csv) and out (the PNG).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 1300,1000 font ",11"
set output out
f = dir."/results.csv"
sizes = "8 1024 4096 16384"
set multiplot layout 2,2 title "Fig. 11: broadcast vs processors, CM-5 fat tree and costs, synchronous sends"
set logscale xy 2
set format y "%g"
set xlabel "processors p"
set ylabel "model time (ms)"
set xrange [6:320]
set grid
set key top left noenhanced
sel(a, g, b) = (strcol("item") eq "fig11" && strcol("algorithm") eq a && strcol("variant") eq g && column("bytes") == b) ? column("value") : NaN
do for [s in sizes] {
    b = s + 0
    set title sprintf("messages of %d bytes", b)
    plot f using (column("procs")):(sel("bcast.recursive", "group=0", b)) with linespoints lw 2 pt 7 lc 2 title "REB to all (group=0)", \
         f using (column("procs")):(sel("bcast.recursive", "group=1", b)) with linespoints lw 2 pt 5 lc 4 title "REB along rows (group=1)", \
         f using (column("procs")):(sel("bcast.system", "group=0", b)) with linespoints lw 2 dt 2 pt 6 ps 2 lc 3 title "system (bcast.system)"
}
unset multiplot
