# A line figure of scripts/plot.sh: the blocks of dat (a series each, named by its first line;
# x, the mean, min and max of y, rows), a line each, with the min-max bars when err is 1.
# Variables: dat, out, nser, err, logx (log2 x), logy (log10 y), xfmt, ttl, sub, xlab, ylab.
set terminal pngcairo size 1100,700 font ",11" noenhanced
set output out
set title ttl."\n".sub
set xlabel xlab
set ylabel ylab
if (logx) { set logscale x 2 }
# a linear y axis starts at 0 (model times, rounds are not negative)
if (logy) { set logscale y 10 } else { set yrange [0:*] }
set format x xfmt
set format y "%g"
set grid
set autoscale fix
set key below horizontal maxrows 8
set offsets graph 0.03, graph 0.03, graph 0.05, graph (logy ? 0.05 : 0)
# series i: one of 8 colours, 12 point types and 4 dash types
pts = "7 5 9 11 13 15 4 6 8 10 12 14"
ptype(i) = int(word(pts, i % 12 + 1))
dash(i) = int(i / 8) % 4 + 1
if (err) {
    plot for [i = 0:nser - 1] dat index i using 1:2:3:4 with yerrorlines lw 2 ps 1.2 \
         lc (i % 8) + 1 dt dash(i) pt ptype(i) title columnheader(1)
} else {
    plot for [i = 0:nser - 1] dat index i using 1:2 with linespoints lw 2 ps 1.2 \
         lc (i % 8) + 1 dt dash(i) pt ptype(i) title columnheader(1)
}
