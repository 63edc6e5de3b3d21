# seed 003 Figure 2: hrel.fifo_staged (mu = 0.267) under the fifo discipline on all-to-all,
# mean rounds/h over 10 seeds against the stage length factor K, p = 64 and 256; bars span the
# min .. max over the seeds. The paper's two points: 2.08 observed at K = 1 (its minimum) and 3.4
# predicted by its analysis at K = 1.9. Dotted: the off-line optimum, exactly h rounds.
# The p = 64 points are drawn dx left of their K and the p = 256 points dx right, so that the
# bars do not hide each other.
# Called by scripts/plot_seed003.sh with dir (the directory of fig2_k.csv) and out (the PNG).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 900,650 font ",11"
set output out
set xlabel "stage length factor K (a stage lasts K h_{i-1} rounds)"
set ylabel "rounds / h"
set title "Fig. 2: hrel.fifo\\_staged ({/Symbol m} = 0.267), fifo, all-to-all (h = p-1), 10 seeds"
set key top left
set grid
set xrange [0.3:3.2]
set yrange [0:*]
f = dir."/fig2_k.csv"
dx = 0.02
set label "2.08 (paper, observed)" at 1, 2.08 center offset 0, 1.4 font ",10"
set label "3.4 (paper, analysis)" at 1.9, 3.4 offset 1.5, 0 font ",10"
plot f using (column("K") - dx):(column("p") == 64 ? column("mean") : NaN) with lines lw 2 lc 1 notitle, \
     f using (column("K") - dx):(column("p") == 64 ? column("mean") : NaN):(column("min")):(column("max")) with yerrorbars pt 7 lc 1 title "hremu p = 64 (mean, bars min..max)", \
     f using (column("K") + dx):(column("p") == 256 ? column("mean") : NaN) with lines lw 2 lc 2 notitle, \
     f using (column("K") + dx):(column("p") == 256 ? column("mean") : NaN):(column("min")):(column("max")) with yerrorbars pt 5 lc 2 title "hremu p = 256 (mean, bars min..max)", \
     '-' using 1:2 with points pt 9 ps 2.2 lc rgb "black" title "paper: 2.08 observed at K = 1", \
     '-' using 1:2 with points pt 11 ps 2.2 lc rgb "red" title "paper: 3.4 predicted by its analysis at K = 1.9", \
     1 with lines dt 3 lc rgb "gray40" title "off-line: exactly h"
1,2.08
e
1.9,3.4
e
