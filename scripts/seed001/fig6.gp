# seed 001 Figure 6: PEX, REX and BEX vs processors, blocks of 0 bytes (dashed) and 256 bytes
# (solid), fat tree, log-log.
# Called by scripts/plot_seed001.sh with dir (holding results.csv) and out (the PNG).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 900,650 font ",11"
set output out
f = dir."/results.csv"
algs = "xchg.pex xchg.rex xchg.bex"
names = "PEX REX BEX"
set title "Fig. 6: complete exchange, blocks of 0 bytes (dashed) and 256 bytes (solid)\nCM-5 fat tree and costs, synchronous sends"
set logscale xy 2
set format y "%g"
set xlabel "processors p"
set ylabel "model time (ms)"
set xrange [6:320]
set grid
set key top left noenhanced
plot for [i = 1:3] f using (column("procs")):((strcol("item") eq "fig6" && column("bytes") == 256 && strcol("algorithm") eq word(algs, i)) ? column("value") : NaN) \
         with linespoints lw 2 pt 7 lc i title word(names, i)." 256 B", \
     for [i = 1:3] f using (column("procs")):((strcol("item") eq "fig6" && column("bytes") == 0 && strcol("algorithm") eq word(algs, i)) ? column("value") : NaN) \
         with linespoints lw 2 dt 2 pt 6 ps 1.5 lc i title word(names, i)." 0 B"
