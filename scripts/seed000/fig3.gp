# seed 000 Figure 3: one-phase (hrel.xor) vs two-phase (hrel.two_phase), with hrel.direct,
# model time vs p, on three inputs; solid n = 2^20, dashed n = 2^18 (log-log).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
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
# hrel.xor runs twice per point: with a synchronization per step (sync=1, seed 000's reading)
# and without (sync=0); the params column tells them apart.
algs   = "hrel.two_phase hrel.xor hrel.xor hrel.direct"
pars   = "any sync=1 sync=0 any"
titles = "hrel.two_phase hrel.xor hrel.xor(sync=0) hrel.direct"
want(i) = strcol("algorithm") eq word(algs, i) && (word(pars, i) eq "any" || strcol("params") eq word(pars, i))
do for [input in "transpose skewed uniform"] {
    f = dir."/fig3_".input.".csv"
    set title (input eq "transpose" ? "transpose, h = n/p" : (input eq "skewed" ? "skewed (eq. 7), h = 4n/p" : "uniform random destinations"))
    plot for [i = 1:4] f using (column("procs")):((want(i) && column("n") == 2**20) ? column("model_time_s") : NaN) with linespoints lw 2 pt 7 lc i title word(titles, i) noenhanced, \
         for [i = 1:4] f using (column("procs")):((want(i) && column("n") == 2**18) ? column("model_time_s") : NaN) with linespoints lw 2 pt 6 dt 2 lc i notitle
}
unset multiplot
