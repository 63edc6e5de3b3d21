# seed 000 Figure 5: radix sort (input R), CM-5 costs: (a) model time vs n per p, with a
# slope-1 guide; (b) model time vs p per n, with a 1/p guide (log-log).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 1300,580 font ",11"
set output out
set multiplot layout 1,2 title "Fig. 5: sort.radix (r = 11), input R, CM-5 costs"
set logscale xy 2
set format y "%.3g"
set ylabel "model time (s)"
set grid
set key top left
f = dir."/fig5.csv"
set xlabel "keys n"
set format x "2^{%L}"
set title "(a) vs n (dashed: slope 1 through p = 4, n = 2^{22})"
plot for [p in "4 8 16 32 64"] f using (column("n")):(column("procs") == p ? column("model_time_s") : NaN) with linespoints lw 2 pt 7 title "p = ".p, \
     [2**16:2**22] 3.7976*x/2**22 with lines dt 2 lc rgb "gray40" notitle
set xlabel "processors p"
set format x "%g"
set key top right
set title "(b) vs p (dashed: 1/p through p = 4, n = 2^{22})"
plot for [e in "16 18 20 22"] f using (column("procs")):(column("n") == 2**e ? column("model_time_s") : NaN) with linespoints lw 2 pt 7 title sprintf("n = 2^{%s}", e), \
     [4:64] 3.7976*4/x with lines dt 2 lc rgb "gray40" notitle
unset multiplot
