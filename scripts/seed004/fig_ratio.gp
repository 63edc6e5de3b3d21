# RH over hypercube, per operation and shape: steps (left) and model time under each cost
# (right). Reads dir/ratios.csv, written by scripts/plot_seed004.sh; columns by name.
set datafile separator ","
set terminal pngcairo size 1400,560 font ",11"
set output out
f = dir."/ratios.csv"
ops = "bcast reduce prefix sort"
set multiplot layout 1, 2 title "Reduced hypercube RH(k,n) against the hypercube of the same size (ratio > 1: RH slower)"
set xtics rotate by -30 nomirror noenhanced
set grid ytics
set key top left noenhanced
set logscale y 2
set ytics (1, 1.5, 2, 3, 4, 6, 8, 12)
set offsets 0.3, 0.3, 0, 0
set ylabel "steps, RH / hypercube"
set title "steps"
plot for [i = 1:words(ops)] f using (column("x")):((strcol("op") eq word(ops, i) && strcol("cost") eq "cm5") ? column("steps_ratio") : NaN):xtic(strcol("shape")) \
     with points pt 7 ps 1.6 lc i title word(ops, i)
set ylabel "model time, RH / hypercube"
set title "model time (filled: cm5, open: sp2)"
plot for [i = 1:words(ops)] f using (column("x")):((strcol("op") eq word(ops, i) && strcol("cost") eq "cm5") ? column("time_ratio") : NaN):xtic(strcol("shape")) \
     with points pt 7 ps 1.6 lc i title word(ops, i), \
     for [i = 1:words(ops)] f using (column("x")):((strcol("op") eq word(ops, i) && strcol("cost") eq "sp2") ? column("time_ratio") : NaN) \
     with points pt 6 ps 1.6 lc i notitle
unset multiplot
