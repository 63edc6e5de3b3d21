# The scatter figure of scripts/plot.sh: the blocks of dat (a series each, named by its first
# line; model time, wall time), a point style each. Variables: dat, out, nser, logx, logy (log10
# axes), ttl, sub, xlab, ylab.
set terminal pngcairo size 1100,700 font ",11" noenhanced
set output out
set title ttl."\n".sub
set xlabel xlab
set ylabel ylab
# a linear axis starts at 0 (times are not negative)
if (logx) { set logscale x 10 } else { set xrange [0:*] }
if (logy) { set logscale y 10 } else { set yrange [0:*] }
set format x "%g"
set format y "%g"
set grid
set autoscale fix
set key below horizontal maxrows 8
set offsets graph (logx ? 0.03 : 0), graph 0.03, graph 0.05, graph (logy ? 0.05 : 0)
# series i: one of 8 colours, 12 point types and 4 dash types
pts = "7 5 9 11 13 15 4 6 8 10 12 14"
ptype(i) = int(word(pts, i % 12 + 1))
dash(i) = int(i / 8) % 4 + 1
plot for [i = 0:nser - 1] dat index i using 1:2 with points ps 1.4 \
     lc (i % 8) + 1 pt ptype(i) title columnheader(1)
