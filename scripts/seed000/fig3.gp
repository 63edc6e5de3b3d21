# seed 000 Figure 3: one-phase (hrel.xor) vs two-phase (hrel.two_phase), with hrel.direct,
# model time vs p, on three inputs; solid n = 2^20, dashed n = 2^18 (log-log).
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 1500,560 font ",11"
set output out
set multiplot layout 1,3 title "Fig. 3: one- vs two-phase routing, CM-5 costs (solid n = 2^{20}, dashed n = 2^{18})"
set logscale xy 2
set format y "%.3g"
set xlabel "processors p"
set ylabel "model time (s)"
set grid
set key top right
algs = "hrel.two_phase hrel.xor hrel.direct"
do for [input in "transpose skewed uniform"] {
    f = dir."/fig3_".input.".csv"
    set title (input eq "transpose" ? "transpose, h = n/p" : (input eq "skewed" ? "skewed (eq. 7), h = 4n/p" : "uniform random destinations"))
    plot for [i = 1:3] f using 2:((strcol(1) eq word(algs, i) && $3 == 2**20) ? $9 : NaN) with linespoints lw 2 pt 7 lc i title word(algs, i) noenhanced, \
         for [i = 1:3] f using 2:((strcol(1) eq word(algs, i) && $3 == 2**18) ? $9 : NaN) with linespoints lw 2 pt 6 dt 2 lc i notitle
}
unset multiplot
