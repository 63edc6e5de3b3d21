# seed 002 Figure 11: test set 2 (Table 5):
# communication (model) time of the seven schedulers against msg_unit: hremu (left) and the
# paper's CM-5 (right), log-log, and below each the time relative to CGM's at the same msg_unit.
# CGMH+fixed is the best lambda at each level.
# Called by scripts/plot_seed002.sh with dir (holding results.csv) and out (the PNG).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 1300,1000 font ",11"
set output out
f = dir."/results.csv"
item = "table5"
npaper = 7
algs = "irreg.lp irreg.cgm irreg.cgmh_ms irreg.cgmh_bj irreg.cgm_sort irreg.cgm_heap irreg.cgmh_fixed"
names = "LP CGM CGMH+MS CGMH+BJ CGM+sort CGM+heap CGMH+fixed"
pts = "7 5 9 11 13 4 6"
# a cell of the table: ITEM's model time at a msg_unit by source and algorithm
cell(s, a) = (strcol("item") eq item && strcol("source") eq s && strcol("algorithm") eq a && strcol("msg_unit") ne "" \
              && strcol("quantity")[1:10] eq "model_time") ? column("value") : NaN
# CGM's time at each level (log2 msg_unit), hremu's in H and the paper's in P
lv(x) = int(log(x) / log(2) + 0.5)
array H[20]
array P[20]
do for [i = 1:20] { H[i] = NaN; P[i] = NaN }
stats f using ((strcol("item") eq item && strcol("algorithm") eq "irreg.cgm" && strcol("msg_unit") ne "") ? \
    (strcol("source") eq "hremu" ? (H[lv(column("msg_unit"))] = column("value")) : (P[lv(column("msg_unit"))] = column("value"))) : 0) nooutput
rel(s, a) = strcol("msg_unit") eq "" ? NaN : cell(s, a) / (s eq "hremu" ? H[lv(column("msg_unit"))] : P[lv(column("msg_unit"))])
set multiplot layout 2,2 title "Fig. 11 (Table 5): test set 2, 32 processors"
set logscale x 2
set xrange [11:50000]
set xtics ("16" 16, "64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384, "32K" 32768)
set xlabel "msg_unit (bytes)" noenhanced
set grid
set key top left reverse Left noenhanced
set logscale y 10
set format y "%g"
set ylabel "communication (model) time (ms)"
set title "(a) hremu: CM-5 costs, synchronous sends, complete network"
plot for [i = 1:7] f using (column("msg_unit")):(cell("hremu", word(algs, i))) with linespoints lw 2 pt (word(pts, i) + 0) lc i title word(names, i)
set title "(b) the paper: a 32-node CM-5"
plot for [i = 1:npaper] f using (column("msg_unit")):(cell("paper", word(algs, i))) with linespoints lw 2 pt (word(pts, i) + 0) lc i title word(names, i)
unset logscale y
set ylabel "time / CGM's time"
set key off
set title "(c) hremu, relative to CGM"
plot for [i = 1:7] f using (column("msg_unit")):(rel("hremu", word(algs, i))) with linespoints lw 2 pt (word(pts, i) + 0) lc i title word(names, i)
set title "(d) the paper, relative to CGM"
plot for [i = 1:npaper] f using (column("msg_unit")):(rel("paper", word(algs, i))) with linespoints lw 2 pt (word(pts, i) + 0) lc i title word(names, i)
unset multiplot
