#!/bin/sh
# The seeds' algorithms under the three cost models: run every config under configs/models/
# (seed 000's h-relations, seed 001's exchanges and seed 004's broadcasts, each under bdm, loggp
# and bsp where the model defines them, with the figures of configs/models/box.ini) with
# --format csv into a results dir (default build/models/), and write
#     docs/models/table.md     model time per study, case, algorithm and cost model, with its
#                              rank among the case's algorithms under that model
#     docs/models/times.csv    the same figures, one line each (the figure's data)
#     docs/models/fig_rank.png plotted by scripts/models/fig_rank.gp
# docs/models.md discusses them. Run from anywhere:
#     scripts/plot_models.sh [--no-run] [--docs DIR] [RESULTS_DIR]
# --no-run    use the CSVs already in RESULTS_DIR (STUDY.csv for each config), run nothing
# --docs DIR  write the table, times.csv and the figure to DIR instead of docs/models/
# HREMU=path overrides the binary (default ./hremu, built with make if missing).
# Every row must verify (status ok): a run that fails stops the script, as does any other failing
# step. Every CSV column is found by name in the header, never by number (hremu's columns may
# move). The outputs are written to new files and moved into place only when every step
# succeeded: a failing step prints one message "plot_models: ..." and exits 1, and leaves them as
# they were.
set -eu
me=plot_models
die() { echo "$me: $*" >&2; exit 1; }
seed='' study=models helplines=2,20
. "$(dirname "$0")/plotlib.sh"
# The studies in the order of the table and the figure's panels (configs/models/NAME.ini), and
# the column that tells a study's cases apart.
studies="hrel exchange bcast"
case_of() {
    case $1 in
    hrel) echo n ;;
    exchange) echo block_bytes ;;
    *) echo procs ;;
    esac
}
COLUMNS_USED="algorithm procs n block_bytes topology cost_model model_time_s params status"

run_configs "$studies"

# Check every study before writing anything: the columns read, and at least one row.
set --
cases=''
for name in $studies; do
    # shellcheck disable=SC2086
    need "$out/$name.csv" $COLUMNS_USED
    set -- "$@" "$out/$name.csv"
    cases="$cases $name=$(case_of "$name")"
done

# One pass over the CSVs, in the order of $studies: every row must have status ok. A series is an
# algorithm with its params, and its topology when it is not complete ("hrel.xor(sync=1)",
# "bcast.rh_tree on rh 4 1"); a case is the value of the study's case column; the cost models
# keep the order of their first appearance. Each (study, case, model) ranks its series by model
# time (ties share the better rank). Writes
#     times.csv  study,case,series,s,cost_model,m,model_time_s,x_best,rank (s numbers the
#                study's series from 1, m the models from 1; x_best is the time over the fastest
#                series' under the same model in the same case)
#     table.md   a row per study, case and series, a column per model: "time (rank)", the first
#                in bold
awk -v me="$me" -v names="$COLUMNS_USED" -v cases="$cases" -v times="$stage/times.csv" \
    "$CSV_AWK"'
    function cell(x) { return sprintf("%#.3g", x) }
    BEGIN {
        n = split(cases, cs, " ")
        for (i = 1; i <= n; i++) { split(cs[i], kv, "="); casecol[kv[1]] = kv[2] }
    }
    FNR == 1 {
        header(names)
        st = FILENAME; sub(/.*\//, "", st); sub(/\.csv$/, "", st)
        if (!(st in casecol)) fail(FILENAME ": no study " st)
        if (!(casecol[st] in c)) fail(FILENAME ": no column \"" casecol[st] "\"")
        stu[++nst] = st
        next
    }
    {
        csv($0)
        alg = F[c["algorithm"]]; topo = F[c["topology"]]; par = F[c["params"]]
        model = F[c["cost_model"]]; k = F[c[casecol[st]]]
        if (F[c["status"]] != "ok")
            fail(FILENAME ": " alg (par == "" ? "" : " " par) " under " model ": status " F[c["status"]] ", not ok")
        s = alg (par == "" ? "" : "(" par ")") (topo == "complete" ? "" : " on " topo)
        gsub(/,/, ";", s)
        if (!((st, s) in sidx)) { sidx[st, s] = ++ns[st]; ser[st, ns[st]] = s }
        if (!((st, k) in kidx)) { kidx[st, k] = ++nk[st]; cas[st, nk[st]] = k }
        if (!(model in midx)) { midx[model] = ++nm; mod[nm] = model }
        if ((st, k, s, model) in t) fail(FILENAME ": two rows of " s " under " model " at " casecol[st] " = " k)
        t[st, k, s, model] = F[c["model_time_s"]] + 0
        if (t[st, k, s, model] <= 0) fail(FILENAME ": " s " under " model ": model time " F[c["model_time_s"]] ", not positive")
    }
    END {
        if (failed) exit 1
        print "study,case,series,s,cost_model,m,model_time_s,x_best,rank" > times
        for (a = 1; a <= nst; a++) {
            st = stu[a]
            for (b = 1; b <= nk[st]; b++)
                for (m = 1; m <= nm; m++) {
                    k = cas[st, b]; best = 0
                    for (j = 1; j <= ns[st]; j++) {
                        key = st SUBSEP k SUBSEP ser[st, j] SUBSEP mod[m]
                        if ((key in t) && (best == 0 || t[key] < best)) best = t[key]
                    }
                    for (j = 1; j <= ns[st]; j++) {
                        key = st SUBSEP k SUBSEP ser[st, j] SUBSEP mod[m]
                        if (!(key in t)) continue
                        r = 1
                        for (i = 1; i <= ns[st]; i++) {
                            other = st SUBSEP k SUBSEP ser[st, i] SUBSEP mod[m]
                            if ((other in t) && t[other] < t[key]) r++
                        }
                        rank[key] = r
                        printf "%s,%s,%s,%d,%s,%d,%.9g,%.4f,%d\n", st, k, ser[st, j], j, mod[m], m,
                               t[key], t[key] / best, r > times
                    }
                }
        }
        close(times)
        line = "| study | case | algorithm"; sep = "|---|---|---"
        for (m = 1; m <= nm; m++) { line = line " | " mod[m]; sep = sep "|---" }
        print line " |"; print sep "|"
        for (a = 1; a <= nst; a++) {
            st = stu[a]
            for (b = 1; b <= nk[st]; b++) {
                k = cas[st, b]
                for (j = 1; j <= ns[st]; j++) {
                    line = "| " st " | " casecol[st] " = " k " | " ser[st, j]; any = 0
                    for (m = 1; m <= nm; m++) {
                        key = st SUBSEP k SUBSEP ser[st, j] SUBSEP mod[m]
                        if (!(key in t)) { line = line " | -"; continue }
                        any = 1
                        v = cell(t[key]) " (" rank[key] ")"
                        if (rank[key] == 1) v = "**" v "**"
                        line = line " | " v
                    }
                    if (any) print line " |"
                }
            }
        }
        print ""
        print "Model time in seconds (configs/models/*.ini), and in parentheses its rank among the"
        print "case'\''s algorithms under that cost model; bold: the fastest. A dash: the model does not"
        print "define the algorithm'\''s calls (its rows are skipped). Written by scripts/plot_models.sh."
    }' "$@" > "$stage/table.md" || exit 1    # awk said what failed

# The figure reads a file a panel (a study and case), panel_K.csv in the staging directory (dir):
# s,series and the series' x_best under each cost model, NaN where the model does not define it;
# with the panels' titles (title_K) and x tics (xt_K: the series at their s), the models in the
# order of the m column, and each panel's models that have bars (pm_K, their numbers), so that
# gnuplot plots no empty series.
gpvars=$(awk -F, -v dir="$stage" -v cases="$cases" '
    NR == 1 { next }
    {
        key = $1 SUBSEP $2
        if (!(key in panel)) { panel[key] = ++np; pst[np] = $1; pcs[np] = $2 }
        if (!($5 in mnum)) { mnum[$5] = $6; mname[$6] = $5; if ($6 > nm) nm = $6 }
        k = panel[key]; ser[k, $4] = $3; if ($4 > ns[k]) ns[k] = $4
        x[k, $4, $6] = $8; has[k, $6] = 1
    }
    END {
        n = split(cases, cs, " ")
        for (i = 1; i <= n; i++) { split(cs[i], kv, "="); casecol[kv[1]] = kv[2] }
        models = ""
        for (m = 1; m <= nm; m++) models = models (m > 1 ? " " : "") mname[m]
        printf "dir='\''%s'\''; np=%d; models='\''%s'\''", dir, np, models
        for (k = 1; k <= np; k++) {
            f = dir "/panel_" k ".csv"
            line = "s,series"
            for (m = 1; m <= nm; m++) line = line "," mname[m]
            print line > f
            for (j = 1; j <= ns[k]; j++) {
                if (!((k, j) in ser)) continue
                line = j "," ser[k, j]
                for (m = 1; m <= nm; m++) line = line "," (((k, j, m) in x) ? x[k, j, m] : "NaN")
                print line > f
            }
            close(f)
            pm = ""
            for (m = 1; m <= nm; m++) if ((k, m) in has) pm = pm (pm == "" ? "" : " ") m
            xt = ""
            for (j = 1; j <= ns[k]; j++)
                if ((k, j) in ser) xt = xt (xt == "" ? "" : ", ") "\"" ser[k, j] "\" " j
            printf "; title_%d='\''%s, %s = %s'\''; pm_%d='\''%s'\''; xt_%d='\''(%s)'\''", k, pst[k],
                   casecol[pst[k]], pcs[k], k, pm, k, xt
        }
    }' "$stage/times.csv")
draw "$gpvars"
publish times.csv table.md
echo "$me: $docs/table.md"
cat "$docs/table.md"
