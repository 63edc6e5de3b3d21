# Each algorithm's model time over the fastest algorithm's under the same cost model, one panel
# per study and case, a bar per cost model (log y; 1 is the model's winner). Reads
# dir/panel_K.csv (s, series, then a column per cost model), written by scripts/plot_models.sh
# with the variables it sets: np (the panels), models (the cost models, in the files' column
# order), title_K, xt_K (panel K's x tics) and pm_K (the numbers of the models that have bars
# in panel K). The winner's bar is 1; the axis starts at 1/2 so that it shows. Columns are
# found by name (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 1400,1100 font ",11"
set output out
nm = words(models)
w = 0.8 / nm
set multiplot layout (np + 1) / 2, 2 title "Model time over the fastest algorithm's, under each cost model (configs/models/box.ini)"
set logscale y 2
set format y "%g"
set ylabel "time / fastest's"
set xtics rotate by -25 nomirror noenhanced
set grid ytics
set key below horizontal noenhanced
set yrange [0.5:*]
set style fill solid 0.8 border -1
set boxwidth w absolute
set offsets 0.5, 0.5, 0, 0
do for [k = 1:np] {
    f = sprintf("%s/panel_%d.csv", dir, k)
    pm = value(sprintf("pm_%d", k))
    set title value(sprintf("title_%d", k)) noenhanced
    eval("set xtics ".value(sprintf("xt_%d", k)))
    plot for [i = 1:words(pm)] f using (column("s") + (int(word(pm, i)) - (nm + 1) / 2.0) * w):(column(word(models, int(word(pm, i))))) \
         with boxes lc int(word(pm, i)) title word(models, int(word(pm, i)))
}
unset multiplot
