# Model time of every algorithm on every topology, one panel per input (log y). Reads
# dir/times.csv, written by scripts/plot_topologies.sh, with the variables it sets: inputs (the
# panels' input names) and series_NAME (each input's series, in the order of the s column).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 1400,1000 font ",11"
set output out
f = dir."/times.csv"
np = words(inputs)
set multiplot layout (np + 1) / 2, 2 title "Model time on six networks of 64 processors (CM-5 costs)"
set logscale y 10
set format y "%.3g"
set ylabel "model time (s)"
set xtics rotate by -25 nomirror
set grid ytics
set key below horizontal noenhanced
set offsets 0.3, 0.3, 0, 0
do for [k = 1:np] {
    inp = word(inputs, k)
    ser = value("series_".inp)
    set title inp
    plot for [i = 1:words(ser)] f using (column("x")):((strcol("input") eq inp && column("s") == i) ? column("model_time_s") : NaN):xtic(strcol("topology")) \
         with linespoints lw 2 pt 7 lc i title word(ser, i)
}
unset multiplot
