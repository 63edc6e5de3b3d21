# seed 002 Tables 1 and 2: permutations of CGMH with a fixed lambda against d, on 32 processors
# (left) and 512 (right); above the permutations, below the permutations per message (over d).
# A colour per lambda; hremu's resetting lambda solid with filled points, no resetting dashed
# with open points; the paper's as separate markers (x resetting, + no resetting) at its d.
# Called by scripts/plot_seed002.sh with dir (holding results.csv) and out (the PNG).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 1300,1000 font ",11"
set output out
f = dir."/results.csv"
lams = "0.75 0.9375 0.96875"
# ITEM's mean permutations by source, lambda and reset (1, 0)
perm(t, s, l, r) = (strcol("item") eq t && strcol("source") eq s && strcol("quantity") eq "plan_steps_mean" \
                    && strcol("variant") eq sprintf("lambda=%s reset=%d", l, r)) ? column("value") : NaN
set multiplot layout 2,2 title "Tables 1-2: permutations of CGMH, fixed lambda (solid, filled: resetting lambda; dashed, open: no resetting;\nx, +: the paper's, resetting and not; hremu's d = 31, 511 stand for the paper's 32, 512)"
set logscale x 2
set grid
set offsets 0, 0, graph 0.05, graph 0.05
set key top left reverse Left noenhanced
set xlabel "d (messages a processor)"
do for [row = 1:2] {
    do for [t in "table1 table2"] {
        set xrange [(t eq "table1" ? 3 : 48):(t eq "table1" ? 40 : 650)]
        x0 = t eq "table1" ? 4 : 64
        set xtics x0, 2
        set title (t eq "table1" ? "Table 1: 32 processors" : "Table 2: 512 processors")
        set ylabel (row == 1 ? "permutations" : "permutations / d")
        if (row == 2) { set key off }
        plot for [i = 1:3] f using (column("d")):(perm(t, "hremu", word(lams, i), 1) / (row == 1 ? 1 : column("d"))) \
                 with linespoints lw 2 pt 7 lc i title "lambda = ".word(lams, i), \
             for [i = 1:3] f using (column("d")):(perm(t, "hremu", word(lams, i), 0) / (row == 1 ? 1 : column("d"))) \
                 with linespoints lw 2 dt 2 pt 6 ps 1.3 lc i notitle, \
             for [i = 1:3] f using (column("d")):(perm(t, "paper", word(lams, i), 1) / (row == 1 ? 1 : column("d"))) \
                 with points pt 2 ps 2 lw 2 lc i notitle, \
             for [i = 1:3] f using (column("d")):(perm(t, "paper", word(lams, i), 0) / (row == 1 ? 1 : column("d"))) \
                 with points pt 1 ps 2 lw 2 lc i notitle
    }
}
unset multiplot
