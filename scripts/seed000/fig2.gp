# seed 000 Figure 2: two-phase routing, h = 4n/p, model time vs p for each n (log-log).
# Dashed: the paper's bound 2 tau + 8 sigma (p-1) (n/p^2 + h/p + p) with 8-byte elements, cm5.
# Called by scripts/plot_seed000.sh with dir (the CSV directory) and out (the PNG).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 900,650 font ",11"
set output out
set logscale xy 2
set format y "%.3g"
set xlabel "processors p"
set ylabel "model time (s), CM-5 costs"
set title "Fig. 2: hrel.two\\_phase, skewed h = 4n/p (dashed: 2{/Symbol t} + 8{/Symbol s}(p-1)(n/p^2 + h/p + p))"
set key top right
set grid
tau = 88e-6; sig = 50e-9
T(p, n) = 2*tau + 8*sig*(p-1)*(n/p**2 + 4*n/p**2 + p)
f = dir."/fig2.csv"
plot for [e in "16 18 20 22"] f using (column("procs")):(column("n") == 2**e ? column("model_time_s") : NaN) with linespoints lw 2 pt 7 title sprintf("n = 2^{%s}", e), \
     for [e in "16 18 20 22"] [4:128:2] '+' using 1:(T($1, 2.0**e)) with lines dt 2 lc rgb "gray40" notitle
