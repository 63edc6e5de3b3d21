# plotlib.sh: what scripts/plot_*.sh share, sourced by them after they set
#   me     the script's name, for messages ("plot_seed000")
#   seed   its seed's number ("000"): configs/seedNNN/, docs/seedNNN/, build/seedNNN/
#   study  with seed='', the name those directories take instead ("topologies")
#   die    how a failure ends the script (one message on stderr, then its exit status)
#   helplines  the lines of its header comment that --help prints (sed range, e.g. 2,12)
# and the script's arguments. It parses [--no-run] [--docs DIR] [RESULTS_DIR], goes to the
# checkout's root, sets run, out, docs and hremu, makes the staging directory $stage (next to
# the outputs, removed on any exit), checks for gnuplot, and defines CSV_AWK, TABLE_AWK,
# run_config(), run_configs(), need(), draw() and publish().
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

run=1 docs='' out='' hremu=''
while [ $# -gt 0 ]; do
    case $1 in
    --no-run) run=0 ;;
    --docs) [ $# -ge 2 ] || die "--docs needs a directory"; docs=$(abs "$2"); shift ;;
    -h|--help) sed -n "${helplines}s/^# \{0,1\}//p" "$0"; exit 0 ;;
    -*) die "unknown option $1 (usage: scripts/$me.sh [--no-run] [--docs DIR] [RESULTS_DIR])" ;;
    *) [ -z "$out" ] || die "more than one RESULTS_DIR"; out=$(abs "$1") ;;
    esac
    shift
done
case ${HREMU:-} in */*) hremu=$(abs "$HREMU") ;; *) hremu=${HREMU:-} ;; esac
cd "$(dirname "$0")/.."
[ -z "$seed" ] || study=seed$seed
out=${out:-build/$study}
docs=${docs:-docs/$study}
hremu=${hremu:-./hremu}
mkdir -p "$out" "$docs" || die "cannot create $out or $docs"

# Everything is written into a staging directory next to the outputs and moved into place at the
# end; it is removed on any exit.
stage=$(mktemp -d "$docs/.$me.XXXXXX") || die "cannot create a staging directory in $docs"
trap 'rm -rf "$stage"' EXIT
trap 'exit 130' INT TERM

# CSV parsing shared by the awk programs below: csv(LINE) splits one RFC 4180 line (hremu quotes
# a field that holds a comma, a quote or edge spaces) into F[1..n] and returns n; header(NAMES)
# maps the header line's names to column numbers in c[] and fails if one of NAMES is missing.
CSV_AWK='
function csv(s,   n, i, ch, q, f) {
    if (index(s, "\"") == 0) return split(s, F, ",")
    split("", F); n = 0; f = ""; q = 0
    for (i = 1; i <= length(s); i++) {
        ch = substr(s, i, 1)
        if (q) {
            if (ch != "\"") f = f ch
            else if (substr(s, i + 1, 1) == "\"") { f = f ch; i++ }
            else q = 0
        } else if (ch == "\"") q = 1
        else if (ch == ",") { F[++n] = f; f = "" }
        else f = f ch
    }
    F[++n] = f
    return n
}
function header(names,   n, i, want) {
    split("", c); n = csv($0)
    for (i = 1; i <= n; i++) c[F[i]] = i
    n = split(names, want, " ")
    for (i = 1; i <= n; i++)
        if (!(want[i] in c)) fail(FILENAME ": no column \"" want[i] "\" in its header")
}
function fail(msg) { printf "%s: %s\n", me, msg > "/dev/stderr"; failed = 1; exit 1 }
'

# Table building shared by the awk programs that gather a paper's tables from several CSVs (after
# CSV_AWK; `name` is the file's base name): col(NAME) the current row's field; once(KEY, WHAT)
# fails on a second row of KEY in a file; add(LIST, V) appends V to the ordered list LIST
# (nl[LIST], L[LIST, i]) once; nsort(LIST) sorts it numerically; param(KEY) the row's KEY=VALUE
# from its params column.
TABLE_AWK='
function col(name) { return F[c[name]] }
function once(key, what) {
    if ((name, key) in seen) fail(FILENAME ": two rows of " what)
    seen[name, key] = 1
}
function add(list, v) { if (!((list, v) in inl)) { inl[list, v] = 1; L[list, ++nl[list]] = v } }
function nsort(list,   i, j, t) {
    for (i = 2; i <= nl[list]; i++)
        for (j = i; j > 1 && L[list, j - 1] + 0 > L[list, j] + 0; j--) {
            t = L[list, j]; L[list, j] = L[list, j - 1]; L[list, j - 1] = t
        }
}
function param(key,   s) {
    s = " " col("params") " "
    if (!match(s, " " key "=[^ ]*")) fail(FILENAME ": " col("algorithm") " (line " FNR "): no " key "= in params \"" col("params") "\"")
    return substr(s, RSTART + length(key) + 2, RLENGTH - length(key) - 2)
}
'

# run_config CFG CSV: hremu runs CFG into CSV, written to CSV.tmp and renamed when hremu has
# finished; if a run failed (exit 1) CSV is kept, so that its status column shows which, and the
# script stops.
run_config() {
    [ -f "$1" ] || die "$1: missing"
    echo "$me: $1 -> $2"
    rc=0
    "$hremu" "$1" --format csv --out "$2.tmp" || rc=$?
    case $rc in
    0) mv -f "$2.tmp" "$2" || die "cannot move $2.tmp to $2" ;;
    1) mv -f "$2.tmp" "$2"; die "$1: a run failed (see the status column of $2)" ;;
    *) rm -f "$2.tmp"; die "$1: hremu failed (exit $rc)" ;;
    esac
}

# run_configs NAMES: unless --no-run, run_config for each NAME: configs/STUDY/NAME.ini into
# RESULTS_DIR/NAME.csv.
run_configs() {
    [ "$run" = 1 ] || return 0
    for name in $1; do
        run_config "configs/$study/$name.ini" "$out/$name.csv"
    done
}

# need FILE NAMES: FILE exists, has every named column and at least one row.
need() {
    f=$1; shift
    [ -s "$f" ] || die "$f: missing or empty"
    awk -v me="$me" -v names="$*" "$CSV_AWK"'
        FNR == 1 { header(names); next }
        { rows++ }
        END { if (!failed && !rows) fail(FILENAME ": no rows under the header"); exit failed }' "$f" || exit 1
}

if [ "$run" = 1 ]; then
    [ -x "$hremu" ] || make || die "make failed"
    scripts/deps.sh gnuplot-nox || die "scripts/deps.sh gnuplot-nox failed"
fi
command -v gnuplot >/dev/null 2>&1 || die "gnuplot not found (scripts/deps.sh gnuplot-nox installs it)"

# draw VARS: every scripts/STUDY/*.gp drawn by gnuplot -e "VARS; out='STAGE/NAME.png'" into the
# staging directory; a failure stops the script with the outputs unchanged.
draw() {
    for gp in scripts/$study/*.gp; do
        fig=$(basename "$gp" .gp)
        echo "$me: $gp -> $docs/$fig.png"
        gnuplot -e "$1; out='$stage/$fig.png'" "$gp" || die "$gp: gnuplot failed; $docs/$fig.png is unchanged"
        [ -s "$stage/$fig.png" ] || die "$gp: gnuplot wrote nothing; $docs/$fig.png is unchanged"
    done
}

# publish FILE...: every step succeeded: move the staged FILEs and figures into the docs directory.
publish() {
    for f in "$@"; do
        mv -f "$stage/$f" "$docs/$f" || die "cannot move $f into $docs"
    done
    for gp in scripts/$study/*.gp; do
        fig=$(basename "$gp" .gp)
        mv -f "$stage/$fig.png" "$docs/$fig.png" || die "cannot move $fig.png into $docs"
    done
}
