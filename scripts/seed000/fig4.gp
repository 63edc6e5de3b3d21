# seed 000 Figure 4: radix sort on inputs R, S, C, N, p = 16: model time vs n (log-log), CM-5
# and SP-2 costs. The four inputs' points should coincide.
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 900,650 font ",11"
set output out
set logscale xy 2
set format y "%.3g"
set xlabel "keys n"
set format x "2^{%L}"
set ylabel "model time (s)"
set title "Fig. 4: sort.radix (r = 11), p = 16, inputs R, S, C, N"
set key top left
set grid
f = dir."/fig4.csv"
ds = "R S C N"
plot for [i = 1:4] f using (column("n")):((strcol("cost") eq "cm5" && strcol("dataset") eq word(ds, i)) ? column("model_time_s") : NaN) with linespoints lw 2 pt (3 + i) ps (2.6 - 0.4*i) lc i title "CM-5, ".word(ds, i), \
     for [i = 1:4] f using (column("n")):((strcol("cost") eq "sp2" && strcol("dataset") eq word(ds, i)) ? column("model_time_s") : NaN) with linespoints lw 2 dt 2 pt (3 + i) ps (2.6 - 0.4*i) lc i title "SP-2, ".word(ds, i)
