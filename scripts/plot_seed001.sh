#!/bin/sh
# Reproduce seed 001's experiments (Ponnusamy, Thakur, Choudhary, Fox 1992: complete exchange,
# broadcast and irregular schedules on the CM-5): run configs/seed001/NAME.ini for the NAMEs
# below with --format csv into a results dir (default build/seed001/NAME.csv), and write
#     docs/seed001/fig5.png       the four exchanges on 32 nodes against block bytes (fat tree, complete)
#     docs/seed001/fig6.png ...   PEX, REX, BEX against procs: blocks of 0 and 256 (fig6), 512
#                 fig7, fig8.png  (fig7) and 1920 bytes (fig8)
#     docs/seed001/fig10.png      the three broadcasts on 32 nodes against message bytes
#     docs/seed001/fig11.png      REB (to all, along rows) and the system's against procs, per size
#     docs/seed001/table.md       Tables 5 (2D FFT), 10 (steps on pattern P), 11 (synthetic
#                                 patterns, mean of the seeds) and 12 (Matrix Market patterns)
#     docs/seed001/results.csv    every figure point and table cell, one a line:
#                                 item,algorithm,variant,procs,size,bytes,quantity,value
# plotted by scripts/seed001/*.gp. docs/seed001.md discusses them. Run from anywhere:
#     scripts/plot_seed001.sh [--no-run] [--docs DIR] [RESULTS_DIR]
# --no-run    use the CSVs already in RESULTS_DIR (NAME.csv for each NAME), run nothing
# --docs DIR  write the figures, table.md and results.csv to DIR instead of docs/seed001/
# HREMU=path overrides the binary (default ./hremu, built with make if missing).
# Every row must verify (status ok). Every CSV column is found by name in the header, never by
# number. The outputs are written to new files and moved into place only when every step
# succeeded: a failing step prints one message "plot_seed001: ..." and exits 1, and leaves them
# as they were.
set -eu
me=plot_seed001
die() { echo "$me: $*" >&2; exit 1; }
seed=001 study='' helplines=2,24
. "$(dirname "$0")/plotlib.sh"
names="fig5 fig6 fig10 fig11 table5 table10 table11 table12"

if [ "$run" = 1 ]; then
    for name in $names; do
        run_config "configs/seed001/$name.ini" "$out/$name.csv"
    done
fi

# The columns each CSV must have; the awk program below reads the same names.
cols() {
    case $1 in
    fig5) echo "algorithm procs topology block_bytes model_time_s status" ;;
    fig6) echo "algorithm procs block_bytes model_time_s status" ;;
    fig10) echo "algorithm procs n model_time_s status" ;;
    fig11) echo "algorithm procs n params model_time_s status" ;;
    table5) echo "algorithm procs size params model_time_s status" ;;
    table10) echo "algorithm procs pattern msg_bytes model_time_s plan_steps status" ;;
    table11) echo "algorithm procs density msg_bytes seed model_time_s plan_steps status" ;;
    table12) echo "algorithm procs pattern messages bytes model_time_s plan_steps status" ;;
    esac
}
set --
for name in $names; do
    # shellcheck disable=SC2046
    need "$out/$name.csv" $(cols "$name")
    set -- "$@" "$out/$name.csv"
done

# One pass over the eight CSVs, in the order of $names (a file is known by its base name). Every
# row must be ok; two rows of one figure point or table cell are an error. Writes results.csv
# (which the figures read) and table.md.
awk -v me="$me" -v results="$stage/results.csv" \
    -v C_fig5="$(cols fig5)" -v C_fig6="$(cols fig6)" -v C_fig10="$(cols fig10)" \
    -v C_fig11="$(cols fig11)" -v C_table5="$(cols table5)" -v C_table10="$(cols table10)" \
    -v C_table11="$(cols table11)" -v C_table12="$(cols table12)" "$CSV_AWK$TABLE_AWK"'
    function ms(s) { return sprintf("%.9g", s * 1000) }
    function g4(x) { return sprintf("%#.4g", x) }
    function out(item, alg, variant, p, size, bytes, q, v) {
        print item "," alg "," variant "," p "," size "," bytes "," q "," v > results
    }
    FNR == 1 {
        name = FILENAME; sub(/.*\//, "", name); sub(/\.csv$/, "", name)
        if (name !~ /^(fig5|fig6|fig10|fig11|table5|table10|table11|table12)$/)
            fail(FILENAME ": not one of seed 001'"'"'s CSVs")
        header(name == "fig5" ? C_fig5 : name == "fig6" ? C_fig6 : name == "fig10" ? C_fig10 : \
               name == "fig11" ? C_fig11 : name == "table5" ? C_table5 : name == "table10" ? C_table10 : \
               name == "table11" ? C_table11 : C_table12)
        next
    }
    {
        csv($0); alg = col("algorithm"); p = col("procs") + 0; t = col("model_time_s")
        if (col("status") != "ok") fail(FILENAME ": " alg " (line " FNR "): status " col("status") ", not ok")
    }
    name == "fig5" {
        b = col("block_bytes") + 0; topo = col("topology")
        once(alg SUBSEP topo SUBSEP b SUBSEP p, alg " on " topo " with " b "-byte blocks")
        out("fig5", alg, topo, p, "", b, "model_time_ms", ms(t)); next
    }
    name == "fig6" {
        b = col("block_bytes") + 0
        fig = (b == 0 || b == 256) ? "fig6" : b == 512 ? "fig7" : b == 1920 ? "fig8" : ""
        if (fig == "") fail(FILENAME ": block_bytes " b " is none of 0, 256 (fig6), 512 (fig7), 1920 (fig8)")
        once(alg SUBSEP b SUBSEP p, alg " on " p " procs with " b "-byte blocks")
        out(fig, alg, "", p, "", b, "model_time_ms", ms(t)); next
    }
    name == "fig10" {
        b = 8 * col("n") / p
        once(alg SUBSEP b SUBSEP p, alg " on " p " procs with " b "-byte messages")
        out("fig10", alg, "", p, "", b, "model_time_ms", ms(t)); next
    }
    name == "fig11" {
        b = 8 * col("n") / p; grp = "group=" param("group")
        once(alg SUBSEP grp SUBSEP b SUBSEP p, alg " (" grp ") on " p " procs with " b "-byte messages")
        out("fig11", alg, grp, p, "", b, "model_time_ms", ms(t)); next
    }
    name == "table5" {
        x = param("xchg"); N = col("size") + 0
        if (!(x in XN)) fail(FILENAME ": xchg=" x " is none of 0 (transpose), 1 (LEX), 2 (PEX), 3 (REX), 4 (BEX)")
        once(p SUBSEP N SUBSEP x, "N = " N " on " p " procs with xchg=" x)
        mf[param("mflops")] = 1
        add("t5p", p); add("t5N", N); T5[p, N, x] = t
        out("table5", alg, XN[x], p, N, "", "model_time_s", sprintf("%.9g", t)); next
    }
    name == "table10" {
        pat = col("pattern"); b = col("msg_bytes") + 0
        once(alg SUBSEP pat SUBSEP b SUBSEP p, alg " on pattern " pat)
        add("t10", pat SUBSEP b SUBSEP p SUBSEP alg)
        T10s[pat, b, p, alg] = col("plan_steps"); T10t[pat, b, p, alg] = t
        out("table10", alg, pat, p, "", b, "plan_steps", col("plan_steps") + 0)
        out("table10", alg, pat, p, "", b, "model_time_ms", ms(t)); next
    }
    name == "table11" {
        d = col("density") + 0; b = col("msg_bytes") + 0
        once(alg SUBSEP d SUBSEP b SUBSEP p SUBSEP col("seed"), alg " at " d " % and " b " bytes, seed " col("seed"))
        add("t11a", alg); add("t11d", d); add("t11b", b); add("t11p", p)
        k = alg SUBSEP d SUBSEP b
        N11[k]++; S11t[k] += t; S11s[k] += col("plan_steps"); next
    }
    name == "table12" {
        m = col("pattern"); sub(/^file:/, "", m); sub(/.*\//, "", m); sub(/\.mtx$/, "", m)
        once(alg SUBSEP m, alg " on " m)
        add("t12m", m); add("t12a", alg)
        if ((m in P12) && (P12[m] != p || M12[m] != col("messages") || B12[m] != col("bytes")))
            fail(FILENAME ": " m "'"'"'s procs, messages or bytes differ between its rows")
        P12[m] = p; M12[m] = col("messages"); B12[m] = col("bytes")
        T12t[m, alg] = t; T12s[m, alg] = col("plan_steps"); next
    }
    BEGIN {
        print "item,algorithm,variant,procs,size,bytes,quantity,value" > results
        XN[1] = "LEX"; XN[2] = "PEX"; XN[3] = "REX"; XN[4] = "BEX"; XN[0] = "transpose"
        # the paper: Table 5 (s), Table 10 steps, Table 11 (ms)
        split("0.215 0.152 0.112 0.114 0.845 0.470 0.467 0.470 3.135 2.007 2.480 2.005 14.780 9.032 9.245 8.509", a, " ")
        for (i = 0; i < 16; i++) PT5[32, 256 * 2 ^ int(i / 4), i % 4 + 1] = a[i + 1]
        split("4.340 0.076 0.077 0.076 4.750 0.120 0.120 0.120 5.968 0.314 0.313 0.312 18.087 1.738 2.160 1.668", a, " ")
        for (i = 0; i < 16; i++) PT5[256, 256 * 2 ^ int(i / 4), i % 4 + 1] = a[i + 1]
        PS10["irreg.ls"] = 8; PS10["irreg.ps"] = 6; PS10["irreg.bs"] = 7; PS10["irreg.gs"] = 6
        split("irreg.ls irreg.ps irreg.bs irreg.gs", sch, " ")
        split("Linear Pairwise Balanced Greedy", PNAME, " ")
        split("4.723 6.116 11.67 15.34 29.01 38.27 50.14 66.63 1.766 2.275 3.977 5.193 6.324 8.360 7.882 10.52 " \
              "1.933 2.494 3.724 4.861 6.034 8.013 7.856 10.50 1.597 2.044 3.266 4.192 6.009 7.934 9.241 12.29", a, " ")
        split("10 25 50 75", dd, " ")
        for (i = 0; i < 32; i++) PT11[sch[int(i / 8) + 1], dd[int(i % 8 / 2) + 1], 256 * (1 + i % 2)] = a[i + 1]
        for (i = 1; i <= 4; i++) PN[sch[i]] = PNAME[i]
    }
    END {
        if (failed) exit 1
        nsort("t5p"); nsort("t5N"); nsort("t11d"); nsort("t11b")
        mfs = ""; for (x in mf) mfs = mfs (mfs == "" ? "" : ", ") x

        print "## Table 5: 2D FFT, model time (s)"
        print ""
        print "| p | N | source | LEX | PEX | REX | BEX | transpose |"
        print "|---|---|---|---|---|---|---|---|"
        for (i = 1; i <= nl["t5p"]; i++) for (j = 1; j <= nl["t5N"]; j++) {
            p = L["t5p", i]; N = L["t5N", j]
            line = "| " p " | " N " | hremu"
            for (x = 1; x <= 5; x++) line = line " | " (((p, N, x % 5) in T5) ? g4(T5[p, N, x % 5]) : "-")
            print line " |"
            if ((p, N, 1) in PT5) {
                line = "| " p " | " N " | paper"
                for (x = 1; x <= 4; x++) line = line " | " PT5[p, N, x]
                print line " | - |"
            }
        }
        print ""
        print "An N x N array of complex doubles (16 bytes) by rows: 1-D FFTs of the rows, a complete exchange"
        print "of (N/p)^2-element blocks (LEX, PEX, REX, BEX: the params xchg = 1..4; transpose: xchg = 0,"
        print "hremu'"'"'s hr_transpose), 1-D FFTs of the columns; mflops = " mfs " a node. configs/seed001/table5.ini."
        print ""

        print "## Table 10: steps of each schedule on pattern P"
        print ""
        print "| pattern | p | message bytes | scheduler | steps | paper steps | model time (ms) |"
        print "|---|---|---|---|---|---|---|"
        for (i = 1; i <= nl["t10"]; i++) {
            split(L["t10", i], w, SUBSEP)
            print "| " w[1] " | " w[3] " | " w[2] " | " w[4] " | " T10s[L["t10", i]] + 0 " | " \
                ((w[1] == "table6" && w[4] in PS10) ? PS10[w[4]] : "-") " | " g4(T10t[L["t10", i]] * 1000) " |"
        }
        print ""
        print "Steps: the plan_steps column (empty steps dropped). configs/seed001/table10.ini."
        print ""

        print "## Table 11: synthetic patterns, mean model time (ms)"
        print ""
        line = "| scheduler"; sep = "|---"; ns = 0
        for (i = 1; i <= nl["t11d"]; i++) for (j = 1; j <= nl["t11b"]; j++) {
            line = line " | " L["t11d", i] " %, " L["t11b", j] " B"; sep = sep "|---"
        }
        print line " |"; print sep "|"
        for (ai = 1; ai <= nl["t11a"]; ai++) {
            alg = L["t11a", ai]; line = "| " alg
            for (i = 1; i <= nl["t11d"]; i++) for (j = 1; j <= nl["t11b"]; j++) {
                k = alg SUBSEP L["t11d", i] SUBSEP L["t11b", j]
                if (!(k in N11)) fail("table11: no row of " alg " at " L["t11d", i] " % and " L["t11b", j] " bytes")
                if (ns && N11[k] != ns) fail("table11: " alg " at " L["t11d", i] " % and " L["t11b", j] " bytes has " N11[k] " seeds, others " ns)
                ns = N11[k]
                line = line " | " g4(S11t[k] / ns * 1000)
                out("table11", alg, "density=" L["t11d", i], L["t11p", 1], "", L["t11b", j], "model_time_ms_mean", sprintf("%.9g", S11t[k] / ns * 1000))
                out("table11", alg, "density=" L["t11d", i], L["t11p", 1], "", L["t11b", j], "plan_steps_mean", sprintf("%.4f", S11s[k] / ns))
            }
            print line " |"
        }
        for (ai = 1; ai <= nl["t11a"]; ai++) {
            alg = L["t11a", ai]
            if (!(alg in PN)) continue
            line = "| paper " PN[alg]
            for (i = 1; i <= nl["t11d"]; i++) for (j = 1; j <= nl["t11b"]; j++)
                line = line " | " (((alg, L["t11d", i], L["t11b", j]) in PT11) ? PT11[alg, L["t11d", i], L["t11b", j]] : "-")
            print line " |"
        }
        print ""
        print "Mean steps (plan_steps):"
        print ""
        line = "| scheduler"
        for (i = 1; i <= nl["t11d"]; i++) for (j = 1; j <= nl["t11b"]; j++) line = line " | " L["t11d", i] " %, " L["t11b", j] " B"
        print line " |"; print sep "|"
        for (ai = 1; ai <= nl["t11a"]; ai++) {
            alg = L["t11a", ai]; line = "| " alg
            for (i = 1; i <= nl["t11d"]; i++) for (j = 1; j <= nl["t11b"]; j++)
                line = line " | " sprintf("%.1f", S11s[alg, L["t11d", i], L["t11b", j]] / ns)
            print line " |"
        }
        print ""
        print "p = " L["t11p", 1] "; a random pattern of the given density (% of the p(p-1) messages of a complete"
        print "exchange) and message bytes per seed; the mean of " ns " seeds. configs/seed001/table11.ini."
        print ""

        print "## Table 12: Matrix Market patterns, model time (ms) and steps"
        print ""
        line = "| matrix | p | messages | density (%) | mean message (bytes)"; sep = "|---|---|---|---|---"
        for (ai = 1; ai <= nl["t12a"]; ai++) { line = line " | " L["t12a", ai] " ms (steps)"; sep = sep "|---" }
        print line " |"; print sep "|"
        for (i = 1; i <= nl["t12m"]; i++) {
            m = L["t12m", i]; p = P12[m]
            if (M12[m] + 0 <= 0) fail("table12: " m " has no messages")
            dens = 100 * M12[m] / (p * (p - 1)); mb = B12[m] / M12[m]
            line = "| " m " | " p " | " M12[m] + 0 " | " sprintf("%.1f", dens) " | " sprintf("%.0f", mb)
            out("table12", "", m, p, "", "", "messages", M12[m] + 0)
            out("table12", "", m, p, "", "", "density_pct", sprintf("%.4f", dens))
            out("table12", "", m, p, "", "", "mean_message_bytes", sprintf("%.4f", mb))
            for (ai = 1; ai <= nl["t12a"]; ai++) {
                alg = L["t12a", ai]
                if (!((m, alg) in T12t)) { line = line " | -"; continue }
                line = line " | " g4(T12t[m, alg] * 1000) " (" T12s[m, alg] + 0 ")"
                out("table12", alg, m, p, "", "", "model_time_ms", ms(T12t[m, alg]))
                out("table12", alg, m, p, "", "", "plan_steps", T12s[m, alg] + 0)
            }
            print line " |"
        }
        print ""
        print "Each matrix read as y = Ax with rows and x in p contiguous blocks, 8 bytes an x entry; density:"
        print "messages / (p(p-1)). configs/seed001/table12.ini. The paper'"'"'s meshes are not available."
        print ""
        print "Written by scripts/plot_seed001.sh from the CSVs of configs/seed001/*.ini (CM-5 costs: 88 us,"
        print "20 MB/s; synchronous sends; the fat tree)."
        close(results)
    }' "$@" > "$stage/table.md" || exit 1

draw "dir='$stage'"
publish results.csv table.md
echo "$me: $docs/table.md"
cat "$docs/table.md"
