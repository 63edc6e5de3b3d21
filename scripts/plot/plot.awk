# plot.awk: the figures of scripts/plot.sh from one CSV of hremu rows, read after plotlib.sh's
# CSV_AWK (csv(), header(), fail()). Variables: me (for messages), file (the CSV's name, for
# messages), by (the --by columns, one a line, or empty) and stage (where NAME.dat is written).
# Prints a line per figure to draw, NAME<TAB>SCRIPT<TAB>gnuplot variables (SCRIPT: lines or
# scatter, scripts/plot/SCRIPT.gp), and says on stderr, a line each, which figures it skipped and
# why and which rows it left out. Columns are found by name in the header, never by number.

BEGIN {
    # hremu's measured columns (src/cli/report.c) and those of an aggregated row: what a run
    # gave, not how it was set up; never a series.
    split("model_time_s rounds messages bytes max_out_bytes max_in_bytes wall_s verified " \
          "rounds_per_h lost stalls status plan_s plan_steps count", a, " ")
    for (i in a) MEAS[a[i]] = 1
    # settings that a figure's subtitle leaves out when they are the same in every row
    split("buffer switching tau sigma overhead hop compute_unit compute repeat params", a, " ")
    for (i in a) QUIET[a[i]] = 1
    nby = split(by, B, "\n")
    SQ = "\047"
}
{ sub(/\r$/, "") }
FNR == 1 {
    header("")
    nc = csv($0)
    for (i = 1; i <= nc; i++) NAME[i] = F[i]
    for (i = 1; i <= nby; i++)
        if (!(B[i] in c)) {
            cols = NAME[1]
            for (j = 2; j <= nc; j++) cols = cols ", " NAME[j]
            fail(file ": no column \"" B[i] "\" to group by (--by); its columns: " cols)
        }
    next
}
/^[ \t]*$/ { next }
{
    if (csv($0) != nc) { short++; next }
    if (("status" in c) && F[c["status"]] != "ok") {
        if (!(F[c["status"]] in NOTOK)) ST[++nst] = F[c["status"]]
        NOTOK[F[c["status"]]]++; notok++; next
    }
    R++
    for (i = 1; i <= nc; i++) V[R, i] = F[i] ""
}

function note(msg) { printf "%s: %s\n", me, msg > "/dev/stderr" }
function isnum(s) { return s ~ /^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$/ }
function g(x) { return sprintf("%.9g", x) }
function plural(n, w) { return n " " w (n == 1 ? "" : "s") }
# gq(S): S as a gnuplot string in single quotes
function gq(s) { gsub(SQ, SQ SQ, s); return SQ s SQ }
function skip(name, why) { note("skipped " name ".png: " why); return 0 }
function measured(name) { return (name in MEAS) || name == "seed" || name ~ /_(mean|sd|min|max)$/ }

# use(XI, YI): U[1..nu] the rows with a number in columns XI and YI; returns nu
function use(xi, yi,   r) {
    split("", U); nu = 0
    for (r = 1; r <= R; r++) if (isnum(V[r, xi]) && isnum(V[r, yi])) U[++nu] = r
    return nu
}
# varies(I): column I takes more than one value in the rows U
function varies(i,   k) {
    for (k = 2; k <= nu; k++) if (V[U[k], i] != V[U[1], i]) return 1
    return 0
}
# distinct(I): how many values column I takes in the rows U
function distinct(i,   k, n, D) {
    split("", D); n = 0
    for (k = 1; k <= nu; k++) if (!(V[U[k], i] in D)) { D[V[U[k], i]] = 1; n++ }
    return n
}
# determined(I): in the rows U, column I is a function of the x column and the kept columns
# (ORD[j] with KEEP[j]): no two rows agree in those and differ in I.
function determined(i,   k, j, r, key, M) {
    split("", M)
    for (k = 1; k <= nu; k++) {
        r = U[k]; key = V[r, XI]
        for (j = 1; j <= no; j++) if (KEEP[j]) key = key SUBSEP V[r, ORD[j]]
        if (!(key in M)) M[key] = V[r, i]
        else if (M[key] != V[r, i]) return 0
    }
    return 1
}

# group(MODE): the series of the rows U: ORD[1..no] and KEEP[] (the columns a series is named
# by, the kept ones), SER[k] (row U[k]'s series, 1..ns, in the order of first appearance) and
# LAB[s]. MODE "auto": by algorithm and every other setting that varies but x, less those that x
# and the rest determine (the last first), h as a multiple of n/p (column nc + 1) when that takes
# fewer values than h; "by": by the --by columns; "algorithm": by algorithm alone. Returns the
# names of the grouping columns.
function group(mode,   i, j, k, r, hi, lab, key, ks, names, mixed, SK) {
    no = 0; split("", ORD); split("", KEEP)
    if (mode == "by") {
        for (j = 1; j <= nby; j++) if (c[B[j]] != XI) { ORD[++no] = c[B[j]]; KEEP[no] = 1 }
    } else if (mode == "algorithm") {
        if ("algorithm" in c) { ORD[++no] = c["algorithm"]; KEEP[no] = 1 }
    } else {
        if ("algorithm" in c) { ORD[++no] = c["algorithm"]; KEEP[no] = 1 }
        for (i = 1; i <= nc; i++) {
            if (i == XI || NAME[i] == "algorithm" || measured(NAME[i]) || !varies(i)) continue
            ORD[++no] = i; KEEP[no] = 1
            if (NAME[i] != "h" || !("n" in c) || !("procs" in c)) continue
            hi = no
            for (k = 1; k <= nu; k++) {
                r = U[k]
                if (!isnum(V[r, c["n"]]) || !isnum(V[r, c["procs"]]) || !isnum(V[r, i]) || V[r, c["n"]] + 0 <= 0) break
                V[r, nc + 1] = sprintf("%.6g", V[r, i] * V[r, c["procs"]] / V[r, c["n"]])
            }
            if (k <= nu || distinct(nc + 1) >= distinct(i)) continue
            KEEP[hi] = 0
            if (varies(nc + 1)) { ORD[++no] = nc + 1; KEEP[no] = 1 }
        }
        # the last first: drop each column that x and the rest determine
        for (j = no; j >= 1; j--) {
            if (!KEEP[j] || NAME[ORD[j]] == "algorithm") continue
            KEEP[j] = 0
            if (!determined(ORD[j])) KEEP[j] = 1
        }
    }
    # a column that varies and that the series and x do not determine: "auto" groups by it too (h
    # when its multiple of n/p would not do); with "by", a point of a line (AVG) averages rows
    # that differ in it
    mixed = ""
    for (i = 1; i <= nc && (mode == "auto" || mode == "by" && AVG); i++) {
        if (i == XI || measured(NAME[i]) || !varies(i)) continue
        for (j = 1; j <= no; j++) if (ORD[j] == i && KEEP[j]) break
        if (j <= no || determined(i)) continue
        if (mode == "auto") { ORD[++no] = i; KEEP[no] = 1 } else mixed = mixed (mixed == "" ? "" : ", ") NAME[i]
    }
    if (mixed != "") note(FIG ".png: a point averages rows that differ in " mixed " (not in --by)")
    names = ""
    for (j = 1; j <= no; j++) if (KEEP[j]) names = names (names == "" ? "" : ", ") (ORD[j] == nc + 1 ? "h/(n/p)" : NAME[ORD[j]])
    split("", SK); ns = 0
    for (k = 1; k <= nu; k++) {
        r = U[k]; key = ""; lab = ""
        for (j = 1; j <= no; j++) {
            if (!KEEP[j]) continue
            i = ORD[j]; key = key SUBSEP V[r, i]
            if (i == nc + 1) ks = "h=" (V[r, i] == 1 ? "" : V[r, i]) "n/p"
            else if (NAME[i] == "algorithm") ks = V[r, i]
            else ks = NAME[i] "=" (V[r, i] == "" ? "-" : V[r, i])
            lab = lab (lab == "" ? "" : ", ") ks
        }
        if (!(key in SK)) { SK[key] = ++ns; gsub(/"/, "'", lab); LAB[ns] = lab == "" ? "all rows" : lab }
        SER[k] = SK[key]
    }
    return names == "" ? "nothing" : names
}

# subtitle(): the settings the rows U share (not x, not grouped, not a machine detail), with
# the number of rows
function subtitle(   i, j, s) {
    s = ""
    for (i = 1; i <= nc; i++) {
        if (i == XI || measured(NAME[i]) || (NAME[i] in QUIET) || NAME[i] == "algorithm" || varies(i) || V[U[1], i] == "") continue
        for (j = 1; j <= no; j++) if (ORD[j] == i && KEEP[j]) break
        if (j <= no) continue
        s = s (s == "" ? "" : ", ") NAME[i] "=" V[U[1], i]
    }
    if (length(s) > 110) s = substr(s, 1, 107) "..."
    return plural(nu, "row") (s == "" ? "" : "; " s)
}

# lines(NAME, X, Y, TITLE, XLAB, YLAB): Y against X, a line per series, the mean over the rows
# of a point (seeds) with their min and max; NAME.dat holds what is drawn.
function lines(name, xc, yc, title, xlab, ylab,   k, r, s, x, y, p, i, j, t, n, f, err, xmin, xmax, ymin, ymax, gn, NX, XL, S, N, LO, HI) {
    FIG = name; AVG = 1
    if (!(xc in c)) return skip(name, "no column " xc)
    if (!(yc in c)) return skip(name, "no column " yc)
    XI = c[xc]
    if (!use(XI, c[yc])) return skip(name, "no row has a number in both " xc " and " yc)
    if (distinct(XI) < 2) return skip(name, xc " takes one value (" V[U[1], XI] ")")
    gn = group(nby ? "by" : "auto")
    split("", NX); err = 0
    for (k = 1; k <= nu; k++) {
        r = U[k]; s = SER[k]; x = g(V[r, XI]); y = V[r, c[yc]] + 0
        if (!((s, x) in N)) { XL[s, ++NX[s]] = x; LO[s, x] = HI[s, x] = y }
        S[s, x] += y; N[s, x]++
        if (y < LO[s, x]) LO[s, x] = y
        if (y > HI[s, x]) HI[s, x] = y
        if (N[s, x] > 1) err = 1
        if (k == 1 || x + 0 < xmin) xmin = x + 0
        if (k == 1 || x + 0 > xmax) xmax = x + 0
        if (k == 1 || y < ymin) ymin = y
        if (k == 1 || y > ymax) ymax = y
    }
    f = stage "/" name ".dat"
    print "# " title ": " yc " against " xc ", from " file > f
    print "# a block a series (gnuplot index 0, 1, ...) named in its first line, grouped by " gn ";" > f
    print "# a line a point: " xc ", then the mean, min and max of " yc " over its rows (seeds), and their number" > f
    for (s = 1; s <= ns; s++) {
        printf "%s\"%s\"\n", (s > 1 ? "\n\n" : ""), LAB[s] > f
        n = NX[s]
        for (i = 2; i <= n; i++)            # insertion sort by x; the lists are short
            for (j = i; j > 1 && XL[s, j - 1] + 0 > XL[s, j] + 0; j--) {
                t = XL[s, j]; XL[s, j] = XL[s, j - 1]; XL[s, j - 1] = t
            }
        for (i = 1; i <= n; i++) {
            p = XL[s, i]
            print p " " g(S[s, p] / N[s, p]) " " g(LO[s, p]) " " g(HI[s, p]) " " N[s, p] > f
        }
    }
    close(f)
    logx = (xmin > 0 && xmax >= 8 * xmin)
    printf "%s\tlines\tnser=%d; err=%d; logx=%d; logy=%d; xfmt=%s; ttl=%s; sub=%s; xlab=%s; ylab=%s\n", name, ns, err,
        logx, (ymin > 0 && ymax >= 100 * ymin), gq(logx && xc != "procs" ? "2^%L" : "%g"),
        gq(title (err ? (nby ? " (the mean of a point's rows" : " (the mean over seeds") "; bars: min to max)" : "")), gq(subtitle()), gq(xlab), gq(ylab)
    drawn++
}

# scatter(NAME): wall_s against model_time_s, a row a point, a point style per algorithm (or
# per --by series)
function scatter(name,   k, r, s, f, n, x, y, xmin, xmax, ymin, ymax, gn) {
    FIG = name; AVG = 0
    if (!("wall_s" in c)) return skip(name, "no column wall_s")
    XI = c["model_time_s"]
    if (!use(XI, c["wall_s"])) return skip(name, "no row has a number in both model_time_s and wall_s")
    gn = group(nby ? "by" : "algorithm")
    f = stage "/" name ".dat"
    print "# Wall time against model time, from " file > f
    print "# a block a series (gnuplot index 0, 1, ...) named in its first line, grouped by " gn ";" > f
    print "# a line a row: model_time_s wall_s" > f
    for (s = 1; s <= ns; s++) {
        printf "%s\"%s\"\n", (s > 1 ? "\n\n" : ""), LAB[s] > f
        for (k = 1; k <= nu; k++) {
            if (SER[k] != s) continue
            r = U[k]; x = V[r, XI] + 0; y = V[r, c["wall_s"]] + 0
            print g(x) " " g(y) > f
            if (!n++ || x < xmin) xmin = x
            if (n == 1 || x > xmax) xmax = x
            if (n == 1 || y < ymin) ymin = y
            if (n == 1 || y > ymax) ymax = y
        }
    }
    close(f)
    printf "%s\tscatter\tnser=%d; logx=%d; logy=%d; ttl=%s; sub=%s; xlab=%s; ylab=%s\n", name, ns,
        (xmin > 0 && xmax >= 100 * xmin), (ymin > 0 && ymax >= 100 * ymin),
        gq("Wall time of the emulation against model time"), gq(plural(nu, "row") ", a point each"),
        gq("model time (s)"), gq("wall time on this box (s)")
    drawn++
}

END {
    if (failed) exit 1
    if (notok) {
        s = ""
        for (i = 1; i <= nst; i++) s = s (i > 1 ? ", " : "") NOTOK[ST[i]] " " (ST[i] == "" ? "(empty)" : ST[i])
        note(file ": left out " plural(notok, "row") " whose status is not ok: " s)
    }
    if (short) note(file ": left out " plural(short, "line") " without the header's " nc " fields")
    if (!R) fail(file ": no row to plot")
    lines("time_procs", "procs", "model_time_s", "Model time against processors", "processors (procs)", "model time (s)")
    lines("time_n", "n", "model_time_s", "Model time against problem size", "problem size (n)", "model time (s)")
    lines("time_h", "h", "model_time_s", "Model time against h", "h (the h-relation's h)", "model time (s)")
    lines("rounds_per_h_procs", "procs", "rounds_per_h", "Rounds per h against processors", "processors (procs)", "rounds / h (rounds_per_h)")
    scatter("wall_model")
    if (!drawn) fail(file ": nothing to draw")
}
