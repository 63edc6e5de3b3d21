# seed 001 Figure 5: the four complete exchanges on 32 nodes, model time vs block bytes, on the
# CM-5's fat tree (left) and on a complete graph (right), log y.
# Called by scripts/plot_seed001.sh with dir (holding results.csv) and out (the PNG).
# Columns are found by name in the CSV header (column("NAME"), strcol("NAME")), never by number.
set datafile separator ","
set datafile missing NaN
set terminal pngcairo size 1300,580 font ",11"
set output out
f = dir."/results.csv"
algs = "xchg.lex xchg.pex xchg.rex xchg.bex"
names = "LEX PEX REX BEX"
set multiplot layout 1,2 title "Fig. 5: complete exchange on 32 nodes, CM-5 costs (88 {/Symbol m}s, 20 MB/s), synchronous sends"
set logscale y 10
set format y "%g"
set xlabel "block bytes (from every node to every other)"
set ylabel "model time (ms)"
set xrange [-50:2100]
set xtics 256
set grid
set key bottom right noenhanced
# BEX dashed with open points: it coincides with PEX on the complete graph
do for [topo in "fattree complete"] {
    set title (topo eq "fattree" ? "(a) fat tree" : "(b) complete graph")
    plot for [i = 1:4] f using (column("bytes")):((strcol("item") eq "fig5" && strcol("variant") eq topo && strcol("algorithm") eq word(algs, i)) ? column("value") : NaN) \
         with linespoints lw 2 pt (i == 4 ? 6 : 7) ps (i == 4 ? 1.8 : 1) dt 1 + (i == 4) lc i title word(names, i)." (".word(algs, i).")"
}
unset multiplot
