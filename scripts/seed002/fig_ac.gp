# seed 002 sec. 3.3: the smallest receive buffer with which AC completes against the strip size
# K (0: every send, then every receive), and the model time at that buffer and with an unlimited
# one (right axis), on test set 1 (d = 8, 64-byte units, 32 processors).
# Called by scripts/plot_seed002.sh with dir (holding results.csv) and out (the PNG).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 900,650 font ",11"
set output out
f = dir."/results.csv"
ac(q) = (strcol("item") eq "ac" && strcol("quantity") eq q) ? column("value") : NaN
strip = '(strcol("item") eq "ac" ? real(strcol("variant")[7:]) : NaN)'
set title "AC with a bounded receive buffer: test set 1, d = 8, 32 processors, asynchronous sends"
set xlabel "strip K (sends and receives alternate in strips of K; 0: all sends first)"
set xrange [-0.5:8.5]
set xtics ("0" 0, "1" 1, "2" 2, "4" 4, "8" 8)
set ylabel "smallest buffer that completes (bytes)"
set yrange [0:*]
set y2label "model time (ms)"
set y2range [0:*]
set y2tics
set ytics nomirror
set grid
set key bottom right noenhanced box opaque
plot f using (@strip):(ac("buffer_bytes")) with linespoints lw 2 pt 7 ps 1.5 lc 1 title "smallest buffer (bytes)", \
     f using (@strip):(ac("max_in_bytes")) with lines lw 2 dt 3 lc "gray40" title "most bytes into one processor", \
     f using (@strip):(ac("model_time_ms")) axes x1y2 with linespoints lw 2 pt 5 lc 2 title "model time at that buffer (ms)", \
     f using (@strip):(ac("model_time_ms_unlimited")) axes x1y2 with linespoints lw 2 dt 2 pt 4 lc 3 title "model time, unlimited buffer (ms)"
