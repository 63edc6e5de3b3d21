# seed 000 Figure 6: routing time vs h (h = n/p .. 8n/p, eq. 7), n = 2^20, per p (log-log);
# solid hrel.two_phase, dashed hrel.direct.
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 900,650 font ",11"
set output out
set logscale xy 2
set format y "%.3g"
set xlabel "h / (n/p)"
set ylabel "model time (s), CM-5 costs"
set title "Fig. 6: n = 2^{20}, skewed input; solid hrel.two\\_phase, dashed hrel.direct"
set key outside right
set grid
set xrange [0.8:10]
f = dir."/fig6.csv"
plot for [i = 1:5] f using (column("h")*column("procs")/column("n")):((strcol("algorithm") eq "hrel.two_phase" && column("procs") == 2**(i+2)) ? column("model_time_s") : NaN) with linespoints lw 2 pt 7 lc i title sprintf("two-phase p = %d", 2**(i+2)), \
     for [i = 1:5] f using (column("h")*column("procs")/column("n")):((strcol("algorithm") eq "hrel.direct" && column("procs") == 2**(i+2)) ? column("model_time_s") : NaN) with linespoints lw 2 pt 6 dt 2 lc i title sprintf("direct p = %d", 2**(i+2))
