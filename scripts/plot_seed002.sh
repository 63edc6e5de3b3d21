#!/bin/sh
# Reproduce seed 002's experiments (Ranka, Wang, Kumar 1992: all-to-many communication avoiding
# node contention; LP, CGM, CGMH and AC on a 32-node CM-5): run configs/seed002/NAME.ini for the
# NAMEs below with --format csv into a results dir (default build/seed002/NAME.csv), search for
# each strip size K of ac.ini the smallest receive buffer (to 64 bytes) with which AC completes
# (bisection over --set machine.buffer=B, from the most bytes one processor receives down to 1
# byte; written to RESULTS_DIR/ac_buffer.csv: strip,buffer_bytes,model_time_s), and write
#     docs/seed002/table.md       Tables 1-2 (permutations of CGMH with a fixed lambda, with and
#                                 without resetting, beside equations (3) and (4)), Tables 3-7
#                                 (communication time by msg_unit, scheduling time and
#                                 permutations of the seven schedulers) and the AC buffer search,
#                                 each beside the paper's figures
#     docs/seed002/results.csv    every table cell, one a line:
#                                 item,source,algorithm,variant,procs,d,msg_unit,quantity,value
#     docs/seed002/fig8.png ...   communication time against msg_unit (Figures 8, 9, 11, 12, 13:
#                 fig13.png       Tables 3, 4, 5, 6, 7), hremu and the paper, and relative to CGM
#     docs/seed002/fig_perm.png   Tables 1-2: permutations against d, per lambda, reset or not
#     docs/seed002/fig_ac.png     the smallest buffer with which AC completes against the strip
# plotted by scripts/seed002/*.gp. docs/seed002.md discusses them. Run from anywhere:
#     scripts/plot_seed002.sh [--no-run] [--docs DIR] [RESULTS_DIR]
# --no-run    use the CSVs already in RESULTS_DIR (NAME.csv for each NAME and ac_buffer.csv),
#             run and search nothing
# --docs DIR  write the figures, table.md and results.csv to DIR instead of docs/seed002/
# HREMU=path overrides the binary (default ./hremu, built with make if missing).
# Every row must verify (status ok), but for the buffer search's runs, which may deadlock. Every
# CSV column is found by name in the header, never by number. The outputs are written to new
# files and moved into place only when every step succeeded: a failing step prints one message
# "plot_seed002: ..." and exits 1, and leaves them as they were.
set -eu
me=plot_seed002
die() { echo "$me: $*" >&2; exit 1; }
seed=002 study='' helplines=2,28
. "$(dirname "$0")/plotlib.sh"
names="table1 table2 table3 table4 table5 table6 ac"

# The columns each CSV must have; the awk programs below read the same names.
cols() {
    case $1 in
    table1|table2) echo "algorithm procs seed d params plan_steps status" ;;
    table3|table4) echo "algorithm procs seed d msg_unit params model_time_s plan_s plan_steps status" ;;
    table5) echo "algorithm procs seed msg_unit params model_time_s plan_s plan_steps status" ;;
    table6) echo "algorithm procs seed pattern msg_unit params model_time_s plan_s plan_steps status" ;;
    ac) echo "algorithm procs params model_time_s max_in_bytes status" ;;
    ac_buffer) echo "strip buffer_bytes model_time_s" ;;
    esac
}

if [ "$run" = 1 ]; then
    for name in $names; do
        run_config "configs/seed002/$name.ini" "$out/$name.csv"
    done

    # The AC buffer search. probe K B: ac.ini with strip K and a B-byte receive buffer; true when
    # it completes (exit 0, status ok), false when it deadlocks or a message can never fit (exit
    # 1, status deadlock or failed); anything else stops the script. Sets ptime (model_time_s).
    # shellcheck disable=SC2046
    need "$out/ac.csv" $(cols ac)
    probe() {
        prc=0
        "$hremu" configs/seed002/ac.ini --set "irreg.ac.strip=$1" --set "machine.buffer=$2" \
            --format csv --out "$stage/ac_probe.csv" 2>"$stage/ac_probe.err" || prc=$?
        [ "$prc" -le 1 ] || die "ac.ini at strip $1 and buffer $2: hremu failed (exit $prc): $(tail -n 1 "$stage/ac_probe.err")"
        r=$(awk -v me="$me" "$CSV_AWK"'
            FNR == 1 { header("status model_time_s"); next }
            { csv($0); n++; s = F[c["status"]] " " F[c["model_time_s"]] }
            END { if (!failed && n != 1) fail(FILENAME ": " n " rows, want 1"); if (!failed) print s; exit failed }' \
            "$stage/ac_probe.csv") || exit 1
        ptime=${r#* }
        case $prc:${r%% *} in
        0:ok) return 0 ;;
        1:deadlock|1:failed) return 1 ;;
        *) die "ac.ini at strip $1 and buffer $2: exit status $prc with status ${r%% *}" ;;
        esac
    }
    # strip K and its most incoming bytes (with an unlimited buffer), a line each, from ac.csv
    strips=$(awk -v me="$me" "$CSV_AWK"'
        FNR == 1 { header("params max_in_bytes"); next }
        { csv($0); s = " " F[c["params"]] " "
          if (!match(s, " strip=[^ ]*")) fail(FILENAME ": line " FNR ": no strip= in params")
          print substr(s, RSTART + 7, RLENGTH - 7), F[c["max_in_bytes"]] }
        END { exit failed }' "$out/ac.csv") || exit 1
    echo "strip,buffer_bytes,model_time_s" >"$stage/ac_buffer.csv"
    while read -r k most; do
        # in units of 64 bytes: lo does not complete (0 stands for 1 byte), hi does
        hi=$(((most + 63) / 64)) lo=0
        [ "$hi" -gt 0 ] || die "ac.csv: strip $k: no incoming bytes ($most)"
        probe "$k" $((64 * hi)) || die "ac.ini at strip $k: deadlocks even with a $((64 * hi))-byte buffer"
        best=$((64 * hi)) t=$ptime
        if probe "$k" 1; then
            best=1 t=$ptime
        else
            while [ $((hi - lo)) -gt 1 ]; do
                mid=$(((lo + hi) / 2))
                if probe "$k" $((64 * mid)); then hi=$mid t=$ptime; else lo=$mid; fi
            done
            best=$((64 * hi))
        fi
        echo "$me: ac.ini at strip $k: the smallest buffer that completes is $best bytes"
        echo "$k,$best,$t" >>"$stage/ac_buffer.csv"
    done <<EOF
$strips
EOF
    rm -f "$stage/ac_probe.csv" "$stage/ac_probe.err"
    mv -f "$stage/ac_buffer.csv" "$out/ac_buffer.csv" || die "cannot move ac_buffer.csv into $out"
fi

set --
for name in $names ac_buffer; do
    # shellcheck disable=SC2046
    need "$out/$name.csv" $(cols "$name")
    set -- "$@" "$out/$name.csv"
done

# One pass over the eight CSVs (a file is known by its base name). Every row but ac_buffer's
# must be ok; two rows of one table cell and seed are an error. Writes results.csv (which the
# figures read) and table.md.
awk -v me="$me" -v results="$stage/results.csv" \
    -v C_table1="$(cols table1)" -v C_table3="$(cols table3)" -v C_table5="$(cols table5)" \
    -v C_table6="$(cols table6)" -v C_ac="$(cols ac)" -v C_ac_buffer="$(cols ac_buffer)" "$CSV_AWK$TABLE_AWK"'
    function g4(x) { return x >= 1000 ? sprintf("%.1f", x) : sprintf("%#.4g", x) }
    function f2(x) { return sprintf("%.2f", x) }
    function f4(x) { return sprintf("%.4f", x) }
    function lg(x) { return log(x) / log(2) }
    # samep(ITEM, P): every row of ITEM has P processors
    function samep(item, p) {
        if ((item in P) && P[item] != p) fail(FILENAME ": line " FNR ": " p " processors, other rows " P[item])
        P[item] = p
    }
    # seeds(T, N): every cell of table T is the mean of N rows
    function seeds(t, n, what) {
        if ((t in NS) && NS[t] != n) fail(t ": " what " has " n " seeds, other cells " NS[t])
        NS[t] = n
    }
    # the paper'"'"'s d for ours: 31 and 511 stand for 32 and 512 (a message to oneself)
    function pd(d,   x) { for (x = 1; x < d; x *= 2); return (x == d || x == d + 1) ? x : d }
    function out(item, src, alg, variant, p, d, mu, q, v) {
        print item "," src "," alg "," variant "," p "," d "," mu "," q "," v > results
    }
    FNR == 1 {
        name = FILENAME; sub(/.*\//, "", name); sub(/\.csv$/, "", name)
        if (name !~ /^(table[1-6]|ac|ac_buffer)$/) fail(FILENAME ": not one of seed 002'"'"'s CSVs")
        header(name ~ /^table[12]$/ ? C_table1 : name ~ /^table[34]$/ ? C_table3 : name == "table5" ? C_table5 : \
               name == "table6" ? C_table6 : name == "ac" ? C_ac : C_ac_buffer)
        next
    }
    {
        csv($0)
        if (name != "ac_buffer" && col("status") != "ok") fail(FILENAME ": " col("algorithm") " (line " FNR "): status " col("status") ", not ok")
    }
    name == "table1" || name == "table2" {
        lam = param("lambda") + 0; rs = param("reset") + 0; d = col("d") + 0; b = param("base") + 0
        if ((name in BASE) && BASE[name] != b) fail(FILENAME ": line " FNR ": base=" b ", other rows base=" BASE[name] " (one reading of lambda a table)")
        BASE[name] = b
        once(lam SUBSEP rs SUBSEP d SUBSEP col("seed"), "lambda=" lam " reset=" rs " at d = " d ", seed " col("seed"))
        samep(name, col("procs") + 0); A1[name] = col("algorithm")
        add(name "l", lam); add(name "d", d)
        k = name SUBSEP lam SUBSEP d SUBSEP rs
        N1[k]++; S1[k] += col("plan_steps"); next
    }
    name ~ /^table[3-6]$/ {
        item = name; alg = col("algorithm")
        if (name == "table6") {
            m = col("pattern"); sub(/^file:/, "", m); sub(/.*\//, "", m); sub(/\.mtx$/, "", m)
            item = m == "jagmesh7" ? "table6" : m == "cryg2500" ? "table7" : ""
            if (item == "") fail(FILENAME ": pattern " col("pattern") " is neither jagmesh7 (Table 6) nor cryg2500 (Table 7)")
        }
        if (!(alg in AN)) fail(FILENAME ": " alg " (line " FNR ") is none of LP, CGM, CGMH+MS, CGMH+BJ, CGM+sort, CGM+heap, CGMH+fixed")
        v = ""; mu = col("msg_unit") + 0
        if (alg == "irreg.cgmh_fixed") { lam = param("lambda") + 0; v = "lambda=" lam; add(item "lam", lam) }
        once(item SUBSEP alg SUBSEP v SUBSEP mu SUBSEP col("seed"), \
             alg (v == "" ? "" : " (" v ")") (item == name ? "" : " on " m) " at msg_unit " mu ", seed " col("seed"))
        samep(item, col("procs") + 0)
        D3[item] = name ~ /^table[34]$/ ? col("d") + 0 : ""
        add(item "mu", mu)
        k = item SUBSEP alg SUBSEP v SUBSEP mu
        N3[k]++; T3[k] += col("model_time_s"); C3[k] += col("plan_s"); I3[k] += col("plan_steps"); next
    }
    name == "ac" {
        s = param("strip") + 0
        once(s, "strip " s); add("acs", s)
        ACT[s] = col("model_time_s"); ACH[s] = col("max_in_bytes"); next
    }
    name == "ac_buffer" {
        s = col("strip") + 0
        once(s, "strip " s); add("acs", s)
        ACB[s] = col("buffer_bytes"); ACBT[s] = col("model_time_s"); next
    }
    BEGIN {
        print "item,source,algorithm,variant,procs,d,msg_unit,quantity,value" > results
        split("irreg.lp irreg.cgm irreg.cgmh_ms irreg.cgmh_bj irreg.cgm_sort irreg.cgm_heap irreg.cgmh_fixed", ALG, " ")
        split("LP CGM CGMH+MS CGMH+BJ CGM+sort CGM+heap CGMH+fixed", NAME, " ")
        for (a = 1; a <= 7; a++) AN[ALG[a]] = NAME[a]
        # The paper: Tables 1 and 2, d1, d2, resetting and no resetting for lambda = 3/4, 15/16,
        # 31/32 (the outer loop) and d = 4, 8, 16, 32 (Table 1) and 64, 128, 256, 512 (Table 2)
        split("0.75000 0.93750 0.96875", PL, " ")
        split("8.89 10.36 6.62 8.46 16.00 16.61 13.52 15.34 28.44 28.11 26.00 27.78 51.56 50.11 48.86 50.84 " \
              "6.54 6.80 6.02 6.42 11.95 12.05 11.02 11.42 21.62 21.55 20.34 20.72 39.82 39.55 37.76 38.00 " \
              "6.26 6.38 5.72 6.12 11.45 11.50 10.54 10.96 20.78 20.75 19.38 19.72 38.36 38.23 35.90 36.24", pv, " ")
        for (i = 0; i < 12; i++) PT1["table1", PL[int(i / 4) + 1], 4 * 2 ^ (i % 4)] = pv[4 * i + 1] " " pv[4 * i + 2] " " pv[4 * i + 3] " " pv[4 * i + 4]
        split("96.00 93.11 99.86 103.22 183.11 178.11 189.26 194.86 355.56 347.11 364.42 374.20 698.67 684.11 712.26 728.74 " \
              "75.09 74.55 77.10 77.88 144.50 143.55 148.04 149.44 282.17 280.55 288.12 290.58 556.37 553.55 566.62 570.38 " \
              "72.46 72.20 73.84 74.16 139.59 139.13 142.02 142.78 272.78 272.00 277.08 277.88 538.11 536.75 546.40 547.34", pv, " ")
        for (i = 0; i < 12; i++) PT1["table2", PL[int(i / 4) + 1], 64 * 2 ^ (i % 4)] = pv[4 * i + 1] " " pv[4 * i + 2] " " pv[4 * i + 3] " " pv[4 * i + 4]
        # Tables 3-7: comm (ms) at each msg_unit, then comp (ms) and # iters, in the columns LP,
        # CGM, CGMH+MS, CGMH+BJ, CGM+sort, CGM+heap and (Tables 5-7) CGMH+fixed
        PT3["table3", 16] = "9.271 3.696 3.7 3.711 3.663 3.608"
        PT3["table3", 64] = "16.838 7.862 7.987 7.933 7.674 7.437"
        PT3["table3", 256] = "46.056 24.007 23.83 23.599 24.177 23.23"
        PT3["table3", 1024] = "166.985 93.243 90.813 90.346 93.081 89.285"
        PT3["table3", 4096] = "659.505 461.421 376.511 375.833 418.1 361.665"
        PT3["table3", 16384] = "3912.66 2817.77 2486.44 2551.58 2588.58 2478.39"
        PT3["table3", 32768] = "8678.48 5505.83 5047.04 4993.06 5336.94 4996.32"
        PT3["table3", "comp"] = "0.331 4.86 23.66 21.038 4.824 14.406"
        PT3["table3", "iters"] = "31.0 10.18 12.8 11.6 10.1 10.2"
        PT3["table4", 16] = "10.531 6.871 6.978 6.938 6.816 6.564"
        PT3["table4", 64] = "21.461 14.626 15.29 14.602 14.473 13.726"
        PT3["table4", 256] = "64.642 46.037 44.433 43.322 45.23 41.821"
        PT3["table4", 1024] = "246.212 177.323 165.46 163.812 174.903 163.695"
        PT3["table4", 4096] = "1689.99 1206.87 1080.36 661.314 750.824 1124.03"
        PT3["table4", 16384] = "6872.43 5458.28 4717.96 4514.93 4867.82 4793.25"
        PT3["table4", 32768] = "13866.9 10763.8 9321.5 9204.59 10158.6 9553.41"
        PT3["table4", "comp"] = "0.363 9.729 72.764 60.87 9.759 43.108"
        PT3["table4", "iters"] = "31.0 18.54 27.4 22.0 18.6 18.88"
        PT3["table5", 16] = "7.267 4.326 4.37 4.436 4.348 4.042 3.888"
        PT3["table5", 64] = "8.167 4.852 5.04 5 4.836 4.661 4.596"
        PT3["table5", 256] = "12.035 7.484 7.305 7.598 7.452 7.593 7.388"
        PT3["table5", 1024] = "27.077 18.48 16.389 17.238 18.982 18.406 15.918"
        PT3["table5", 4096] = "89.24 63.837 52.863 57.784 63.039 67.391 50.403"
        PT3["table5", 16384] = "343.345 252.116 197.247 226.384 258.203 258.204 200.155"
        PT3["table5", 32768] = "866.909 745.569 459.59 580.13 564.715 762.867 507.858"
        PT3["table5", "comp"] = "0.323 7.797 31.944 29.827 8.81 19.177 35.53"
        PT3["table5", "iters"] = "31.0 17.6 19.1 18.9 18.1 19.0 20.8"
        PT3["table6", 16] = "9.366 5.146 4.843 4.956 5.195 4.785 4.808"
        PT3["table6", 64] = "17.669 9.797 9.127 9.099 9.843 9.091 9.049"
        PT3["table6", 256] = "49.685 29.524 25.151 25.475 29.133 25.673 24.936"
        PT3["table6", 1024] = "181.931 110.56 90.939 94.887 110.904 95.759 90.599"
        PT3["table6", 4096] = "1192.89 719.717 421.729 431.597 735.459 387.859 367.001"
        PT3["table6", 8192] = "2850.1 1459.54 1219.31 1247.11 1404.68 1254.11 1180.08"
        PT3["table6", "comp"] = "0.308 6.918 33.327 27.996 6.785 19.922 34.263"
        PT3["table6", "iters"] = "31.0 15.4 17.4 15.6 15.3 15.9 18.0"
        PT3["table7", 16] = "26.733 18.127 17.151 16.319 17.462 15.911 15.96"
        PT3["table7", 64] = "86.02 60.72 51.722 51.859 57.827 51.033 50.062"
        PT3["table7", 256] = "340.269 238.227 196.03 197.183 225.356 201.373 194.733"
        PT3["table7", 1024] = "1841.66 1675.2 1219.57 1262.86 1549.04 1243.48 1226.96"
        PT3["table7", 4096] = "9127.03 6844.15 5624.51 5683.95 6334.7 5687.45 5185.75"
        PT3["table7", 8192] = "16656.6 11787.9 10484.9 10223.6 11429 10215 10013.3"
        PT3["table7", "comp"] = "0.333 8.48 51.574 37.633 8.492 27.325 34.738"
        PT3["table7", "iters"] = "31.0 18.2 25.3 19.4 18.2 18.2 18.0"
        PD3["table3"] = 8; PD3["table4"] = 16
    }
    # Table 1 or 2 (T): a row per lambda and d, our figures beside the paper'"'"'s
    function perm(t, title,   i, j, lam, d, rs, k, d1, d2, pk, w, line, pp) {
        nsort(t "l"); nsort(t "d"); pp = t == "table1" ? 32 : 512
        print "## " title ": permutations of CGMH with a fixed lambda, " P[t] " processors"
        print ""
        print "| lambda | d | d1 (3) | d2 (4) | resetting | no resetting | paper: d | d1 | d2 | resetting | no resetting |"
        print "|---|---|---|---|---|---|---|---|---|---|---|"
        for (i = 1; i <= nl[t "l"]; i++) for (j = 1; j <= nl[t "d"]; j++) {
            lam = L[t "l", i]; d = L[t "d", j]
            d1 = d / lam + lg(d) / lam ^ 2
            d2 = 15 / 16 * d / lam + 4 / lam ^ 2 + d / 16 + lg(d / 16)
            line = "| " sprintf("%.5f", lam) " | " d " | " f2(d1) " | " f2(d2)
            out(t, "eq3", "", "lambda=" lam, P[t], d, "", "d1", f4(d1))
            out(t, "eq4", "", "lambda=" lam, P[t], d, "", "d2", f4(d2))
            for (rs = 1; rs >= 0; rs--) {
                k = t SUBSEP lam SUBSEP d SUBSEP rs
                if (!(k in N1)) { line = line " | -"; continue }
                seeds(t, N1[k], "lambda=" lam " reset=" rs " at d = " d)
                line = line " | " f2(S1[k] / N1[k])
                out(t, "hremu", A1[t], "lambda=" lam " reset=" rs, P[t], d, "", "plan_steps_mean", f4(S1[k] / N1[k]))
            }
            pk = t SUBSEP sprintf("%.5f", lam) SUBSEP pd(d)
            if (pk in PT1) {
                split(PT1[pk], w, " ")
                line = line " | " pd(d) " | " w[1] " | " w[2] " | " w[3] " | " w[4]
                out(t, "paper", "", "lambda=" lam, pp, pd(d), "", "d1", w[1])
                out(t, "paper", "", "lambda=" lam, pp, pd(d), "", "d2", w[2])
                out(t, "paper", "irreg.cgmh_fixed", "lambda=" lam " reset=1", pp, pd(d), "", "plan_steps_mean", w[3])
                out(t, "paper", "irreg.cgmh_fixed", "lambda=" lam " reset=0", pp, pd(d), "", "plan_steps_mean", w[4])
            } else line = line " | - | - | - | - | -"
            print line " |"
        }
        print ""
        print "Permutations (plan_steps) of irreg.cgmh_fixed, the mean of " NS[t] " random patterns a point (sizes 1 .. p"
        print "units, as the paper'"'"'s Appendix D), with reset = 1 (\"resetting lambda\" to 1 once the mean active entries of"
        print "a column fall to max(2, d/16)) and reset = 0. d1 (3) = d/lambda + log2(d)/lambda^2 and d2 (4) ="
        print "(15/16)(d/lambda) + 4/lambda^2 + d/16 + log2(d/16), computed with our d. hremu'"'"'s patterns have"
        print "no message to oneself: its d = " (t == "table1" ? 31 : 511) " stands for the paper'"'"'s " pp ". lambda counts against"
        print (BASE[t] == 0 ? "the permutation'"'"'s messages" : BASE[t] == 1 ? "the senders still holding messages" : "the n processors") \
              " (base = " BASE[t] "; docs/seed002.md sets the three readings side by side). configs/seed002/" t ".ini."
        print ""
    }
    # Tables 3-7 (T): a row per msg_unit (hremu, then the paper), then comp and # iters
    function comm(t, title, note,   i, j, a, mu, k, bk, bt, bl, line, w, n, cs, is, cn, v, pdd) {
        nsort(t "mu"); nsort(t "lam")
        split("", cs); split("", is); split("", cn)
        pdd = (t in PD3) ? PD3[t] : ""
        print "## " title
        print ""
        print "| msg_unit | source | LP | CGM | CGMH+MS | CGMH+BJ | CGM+sort | CGM+heap | CGMH+fixed | best lambda |"
        print "|---|---|---|---|---|---|---|---|---|---|"
        for (i = 1; i <= nl[t "mu"]; i++) {
            mu = L[t "mu", i]; line = "| " mu " | hremu"
            for (a = 1; a <= 7; a++) {
                bk = ""
                if (a < 7) { k = t SUBSEP ALG[a] SUBSEP "" SUBSEP mu; if (k in N3) bk = k }
                else for (j = 1; j <= nl[t "lam"]; j++) {
                    k = t SUBSEP ALG[a] SUBSEP "lambda=" L[t "lam", j] SUBSEP mu
                    if ((k in N3) && (bk == "" || T3[k] / N3[k] < bt)) { bk = k; bt = T3[k] / N3[k]; bl = L[t "lam", j] }
                }
                if (bk == "") { line = line " | -"; continue }
                seeds(t, N3[bk], ALG[a] " at msg_unit " mu)
                line = line " | " g4(T3[bk] / N3[bk] * 1000)
                v = a < 7 ? "" : "lambda=" bl
                out(t, "hremu", ALG[a], v, P[t], D3[t], mu, "model_time_ms_mean", sprintf("%.9g", T3[bk] / N3[bk] * 1000))
                cs[a] += C3[bk] / N3[bk]; is[a] += I3[bk] / N3[bk]; cn[a]++
            }
            print line " | " (bk == "" ? "-" : bl) " |"
            if (!((t, mu) in PT3)) continue
            n = split(PT3[t, mu], w, " "); line = "| " mu " | paper"
            for (a = 1; a <= 7; a++) {
                line = line " | " (a <= n ? w[a] : "-")
                if (a <= n) out(t, "paper", ALG[a], "", 32, pdd, mu, "model_time_ms", w[a])
            }
            print line " | |"
        }
        line = "| comp (ms) | hremu"
        for (a = 1; a <= 7; a++) {
            line = line " | " (cn[a] ? g4(cs[a] / cn[a] * 1000) : "-")
            if (cn[a]) out(t, "hremu", ALG[a], a < 7 ? "" : "best lambda", P[t], D3[t], "", "plan_ms_mean", sprintf("%.9g", cs[a] / cn[a] * 1000))
        }
        print line " | |"
        n = split(PT3[t, "comp"], w, " "); line = "| comp (ms) | paper"
        for (a = 1; a <= 7; a++) {
            line = line " | " (a <= n ? w[a] : "-")
            if (a <= n) out(t, "paper", ALG[a], "", 32, pdd, "", "plan_ms", w[a])
        }
        print line " | |"
        line = "| # iters | hremu"
        for (a = 1; a <= 7; a++) {
            line = line " | " (cn[a] ? f2(is[a] / cn[a]) : "-")
            if (cn[a]) out(t, "hremu", ALG[a], a < 7 ? "" : "best lambda", P[t], D3[t], "", "plan_steps_mean", f4(is[a] / cn[a]))
        }
        print line " | |"
        n = split(PT3[t, "iters"], w, " "); line = "| # iters | paper"
        for (a = 1; a <= 7; a++) {
            line = line " | " (a <= n ? w[a] : "-")
            if (a <= n) out(t, "paper", ALG[a], "", 32, pdd, "", "plan_steps", w[a])
        }
        print line " | |"
        print ""
        print note
        print "comm: model time in ms, the mean of " NS[t] " pattern(s) a cell; comp: plan_s, the wall time of computing"
        print "the schedule on this box (the paper'"'"'s: on the CM-5), in ms, and # iters: plan_steps (permutations),"
        print "each the mean over the msg_unit levels. CGMH+fixed: of lambda = " lams(t) ", the one with the least"
        print "mean model time at each level (the best lambda column), and its comp and # iters."
        print ""
    }
    function lams(t,   j, s) { s = ""; for (j = 1; j <= nl[t "lam"]; j++) s = s (j > 1 ? ", " : "") L[t "lam", j]; return s }
    END {
        if (failed) exit 1
        for (i = 1; i <= 7; i++)
            if (!(("table" i) in P)) fail("no rows of Table " i (i == 6 ? " (jagmesh7 in table6.csv)" : i == 7 ? " (cryg2500 in table6.csv)" : ""))
        perm("table1", "Table 1"); perm("table2", "Table 2")
        comm("table3", "Table 3: test set 1, d = " D3["table3"] ", communication (ms) and computation", \
             "Test set 1: d = " D3["table3"] " messages a processor, " P["table3"] " processors, sizes 1 .. 32 units of msg_unit bytes; configs/seed002/table3.ini.\nThe paper (50 patterns) has no CGMH+fixed column in Tables 3 and 4.")
        comm("table4", "Table 4: test set 1, d = " D3["table4"] ", communication (ms) and computation", \
             "Test set 1: d = " D3["table4"] " messages a processor, " P["table4"] " processors, sizes 1 .. 32 units of msg_unit bytes; configs/seed002/table4.ini.\nThe paper (50 patterns) has no CGMH+fixed column in Tables 3 and 4.")
        comm("table5", "Table 5: test set 2, communication (ms) and computation", \
             "Test set 2 (pattern = set2): a few processors send a few large messages, the rest many small ones,\n16 units each; " P["table5"] " processors (the paper: 10 patterns); configs/seed002/table5.ini.")
        comm("table6", "Table 6: test set 3, jagmesh7 for the 2800-point mesh, communication (ms) and computation", \
             "jagmesh7 (SuiteSparse, 1138 nodes) in " P["table6"] " blocks of rows stands in for the paper'"'"'s 2800-point mesh,\nwhich is not available; each x entry is a unit of msg_unit bytes. configs/seed002/table6.ini.")
        comm("table7", "Table 7: test set 3, cryg2500 for the 53961-point mesh, communication (ms) and computation", \
             "cryg2500 (SuiteSparse) in " P["table7"] " blocks of rows stands in for the paper'"'"'s 53961-point mesh,\nwhich is not available; each x entry is a unit of msg_unit bytes. configs/seed002/table6.ini.")

        nsort("acs")
        print "## AC (sec. 3.3): the smallest receive buffer with which it completes"
        print ""
        print "| strip K | smallest buffer (bytes) | model time at it (ms) | model time, unlimited buffer (ms) | most bytes into one processor |"
        print "|---|---|---|---|---|"
        for (i = 1; i <= nl["acs"]; i++) {
            s = L["acs", i]
            print "| " s (s == 0 ? " (no strips)" : "") " | " ((s in ACB) ? ACB[s] + 0 : "-") " | " ((s in ACBT) ? g4(ACBT[s] * 1000) : "-") \
                  " | " ((s in ACT) ? g4(ACT[s] * 1000) : "-") " | " ((s in ACH) ? ACH[s] + 0 : "-") " |"
            if (s in ACB) {
                out("ac", "hremu", "irreg.ac", "strip=" s, 32, "", "", "buffer_bytes", ACB[s] + 0)
                out("ac", "hremu", "irreg.ac", "strip=" s, 32, "", "", "model_time_ms", sprintf("%.9g", ACBT[s] * 1000))
            }
            if (s in ACT) {
                out("ac", "hremu", "irreg.ac", "strip=" s, 32, "", "", "model_time_ms_unlimited", sprintf("%.9g", ACT[s] * 1000))
                out("ac", "hremu", "irreg.ac", "strip=" s, 32, "", "", "max_in_bytes", ACH[s] + 0)
            }
        }
        print ""
        print "configs/seed002/ac.ini (test set 1, d = 8, 64-byte units, asynchronous sends): every processor sends"
        print "all its messages, then receives (K = 0), or alternates strips of K sends and K receives. The"
        print "smallest buffer: a bisection over machine.buffer in steps of 64 bytes between 1 byte and the most"
        print "bytes one processor receives, for the least buffer whose run ends with status ok (not deadlock)."
        print ""
        print "Written by scripts/plot_seed002.sh from the CSVs of configs/seed002/*.ini (CM-5 costs: 88 us,"
        print "20 MB/s; synchronous sends on a complete network but for AC; node contention only)."
        close(results)
    }' "$@" > "$stage/table.md" || exit 1

draw "dir='$stage'"
publish results.csv table.md
echo "$me: $docs/table.md"
cat "$docs/table.md"
