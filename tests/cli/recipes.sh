#!/bin/sh
# The recipes of docs/contributing.md still hold: every row of every table the program lists
# (`hremu --list`: topologies, disciplines, workload kinds, algorithms, link models, h-relation
# distributions; `hremu --doc-columns`: report columns; `hremu --help`: options) has the docs
# and the test its recipe asks for. The rows come from the program, not from a list kept here, so a new
# row without its docs or its test fails this script. Each table is one check_TABLE function
# and one line in TABLES below; a table that --list does not show brings its own rows function.
# Then the script proves it can fail: a fake row, and docs with a row taken out, must be
# refused.
#
#   HREMU_BIN=build/hremu tests/cli/recipes.sh
#
# A failure names the row, what is missing and where. The last line is "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${HREMU_BIN:-./hremu}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hremu-recipes.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0
fail=0
# Where the checks read docs and tests: this checkout (the self-test points it at a copy).
R=.
# What a missing part is called: the check functions write to it, and check_row counts it.
missing=

for what in list doc-columns help; do
    if ! "$BIN" --$what >"$TMP/$what" 2>"$TMP/err"; then
        echo "FAIL: $BIN --$what: $(head -n 1 "$TMP/err")"
        echo "0 passed, 1 failed"
        exit 1
    fi
done

# need TEXT: the row lacks TEXT (a doc line or a test); check_row reports it.
need() { missing="$missing${missing:+; }$*"; }

# rows SECTION [LIST]: the names of a --list section ("topologies"), one a line: the first word
# of each line indented by two spaces under "SECTION:".
rows() {
    awk -v s="$1:" '/^[a-z][a-z ]*:$/ { on = ($0 == s); next } on && /^  [^ ]/ { print $1 }' \
        "${2:-$TMP/list}"
}

# subrows SECTION ROW [LIST]: the names of ROW's own lines in SECTION (a kind's keys, an
# algorithm's parameters): "NAME = DEFAULT ..." under the row, indented further.
subrows() {
    awk -v s="$1:" -v row="$2" '/^[a-z][a-z ]*:$/ { on = ($0 == s); next }
        on && /^  [^ ]/ { cur = $1; next }
        on && cur == row && /^    +[A-Za-z_0-9]+ = / { print $1 }' "${3:-$TMP/list}"
}

# md_section FILE HEADING: the lines of FILE from the "## HEADING" line to the next "## ".
md_section() {
    awk -v h="## $2" 'index($0, h) == 1 { on = 1; print; next } /^## / { on = 0 } on' "$1"
}

# key_row KEY: docs/config.md's row of a config key, "| `KEY` | ...".
key_row() {
    grep -F "| \`$1\` |" "$R/docs/config.md"
}

# scripts: the test scripts, this one left out (its own names prove nothing).
scripts() {
    for f in "$R"/tests/*.sh "$R"/tests/cli/*.sh; do
        case $f in */recipes.sh) ;; *) echo "$f" ;; esac
    done
}

# in_tests ERE [FILE...]: a line of the test sources (default every one) matches ERE.
in_tests() {
    ere=$1
    shift
    [ $# -gt 0 ] || set -- "$R"/tests/*.c $(scripts) "$R"/tests/data/*.ini
    grep -qE -- "$ere" "$@" 2>/dev/null
}

# in_tested_configs ERE: a config that a test script runs (its path is in tests/) matches ERE.
in_tested_configs() {
    for c in $(grep -ohE 'configs/[A-Za-z0-9_/.-]+\.ini' $(scripts) | sort -u); do
        [ -f "$R/$c" ] && grep -qE -- "$1" "$R/$c" && return 0
    done
    return 1
}

# ---- the recipes, one function a table (docs/contributing.md has each in words) ------------

# A topology: docs/model.md's "Topologies" table has its row, the `topology` key of
# docs/config.md names it, and tests/check_topology.c makes it (a spec "NAME" or "NAME ...")
# or it has its own tests/check_topo_NAME.c.
check_topology() {
    md_section "$R/docs/model.md" Topologies | grep -qE "^\| $1( [^|]*)? \|" ||
        need "a row '| $1 ...' in docs/model.md's Topologies table"
    key_row topology | grep -qE "\`$1( [^\`]*)?\`" ||
        need "\`$1\` in docs/config.md's topology key"
    in_tests "\"$1[ \"]" "$R/tests/check_topology.c" || [ -f "$R/tests/check_topo_$1.c" ] ||
        need "a case in tests/check_topology.c (or tests/check_topo_$1.c)"
}

# A discipline: docs/config.md's `discipline` key names it, a heading of docs/model.md names it
# (its cost rules), tests/check_round.c's traits test has its row, and a test runs or resolves
# it (the name in another line of a test than the traits row and check_util.c's --list names).
check_discipline() {
    key_row discipline | grep -qF "\`$1\`" || need "\`$1\` in docs/config.md's discipline key"
    grep -E '^## ' "$R/docs/model.md" | grep -qF "\`$1\`" ||
        need "a heading of docs/model.md naming \`$1\` (its rules)"
    in_tests "\{ \"$1\", HR_DISC_" "$R/tests/check_round.c" ||
        need "its traits row in tests/check_round.c (test_round_discipline_traits)"
    for f in "$R"/tests/*.c; do
        case $f in */check_util.c) continue ;; esac
        grep -E "\"$1\"" "$f" | grep -qvE "\{ \"$1\", HR_DISC_" && return 0
    done
    need "a test that runs it (\"$1\" in tests/check_*.c)"
}

# A workload kind: docs/config.md's `kind` key names it, a paragraph of docs/config.md is its
# own ("**The NAME workload.**"), the keys table of docs/config.md has a row for each key it
# declares, and a test makes an instance (.kind = "NAME" in tests/*.c, or kind = NAME in a
# config a test runs).
check_workload() {
    key_row kind | grep -qF "\`$1\`" || need "\`$1\` in docs/config.md's kind key"
    grep -qE "^\*\*[^*]*\b$1\b[^*]*\*\*" "$R/docs/config.md" ||
        need "a paragraph of docs/config.md that starts '**The $1 workload**'"
    for k in $(subrows workloads "$1"); do
        grep -qE "^\| $1 \| \`$k\` \|" "$R/docs/config.md" ||
            need "a row '| $1 | \`$k\` |' in docs/config.md's table of declared keys"
    done
    in_tests "kind = \"$1\"" || in_tests "^kind *= *$1\b" ||
        in_tested_configs "^kind *= *$1\b" ||
        need "a test that makes an instance (.kind = \"$1\" in tests/)"
}

# An algorithm: README.md's table of what runs names it, a page of docs/ names it (its paper's
# docs/seedNNN.md, or config.md, tutorial.md ...; not architecture.md's memory table),
# docs/config.md names each of its parameters (`[ALG] PARAM`, or `PARAM` beside it), and a test
# runs it by name (in tests/, or in the algorithms of a config a test runs).
check_algorithm() {
    grep -E '^\|' "$R/README.md" | grep -qF "\`$1\`" || need "\`$1\` in README.md's table"
    for k in $(subrows algorithms "$1"); do
        grep -qE "\`$k\`|\] $k\b" "$R/docs/config.md" ||
            need "its parameter $k in docs/config.md ('[$1] $k')"
    done
    for f in "$R"/docs/*.md; do
        case $f in */architecture.md) ;; *) grep -qF "$1" "$f" && break ;; esac
        f=
    done
    [ -n "$f" ] || need "$1 in a page of docs/ (its docs/seedNNN.md)"
    re=$(printf '%s' "$1" | sed 's/\./\\./g')
    in_tests "\"$re\"|algorithms *=.*\b$re\b|run\.algorithms=[^ ]*\b$re\b" ||
        in_tested_configs "^algorithms *=.*\b$re\b" ||
        need "a test that runs it (\"$1\" in tests/, or a config a test runs)"
}

# A link model: docs/model.md's "Link contention" gives its rule under `switching = NAME`,
# docs/config.md's `switching` key names it, and tests/check_link_model.c times a route under it
# by hand (a fixture made with its row: HR_NET_NAME or hr__link_model_find("NAME")); the walks
# of that file cover every row without a line, so only the hand-timed case shows it is checked.
check_link_model() {
    md_section "$R/docs/model.md" "Link contention" | grep -qF "switching = $1" ||
        need "its rule under 'switching = $1' in docs/model.md's Link contention"
    key_row switching | grep -qF "\`$1\`" || need "\`$1\` in docs/config.md's switching key"
    up=$(printf '%s' "$1" | tr 'a-z' 'A-Z')
    in_tests "fixture_make\(.*(\bHR_NET_$up\b|hr__link_model_find\(\"$1\"\))" \
        "$R/tests/check_link_model.c" ||
        need "a route timed by hand under it in tests/check_link_model.c (fixture_make)"
}

# A cost model: docs/model.md's "Cost models" section names it (`NAME`, with its formulas),
# docs/config.md's `cost_model` key names it, and tests/check_cost_model.c runs a machine under
# it (cost_model = "NAME") against figures worked by hand.
check_cost_model() {
    md_section "$R/docs/model.md" "Cost models" | grep -qF "\`$1\`" ||
        need "its formulas under '\`$1\`' in docs/model.md's Cost models"
    key_row cost_model | grep -qF "\`$1\`" || need "\`$1\` in docs/config.md's cost_model key"
    in_tests "cost_model = \"$1\"" "$R/tests/check_cost_model.c" ||
        need "a machine under it timed by hand in tests/check_cost_model.c (cost_model = \"$1\")"
}

# A report column: docs/config.md's table of columns has its row (tests/cli/run.sh checks the
# whole block against --doc-columns), and a test asserts its value by its name: the hand-written
# JSON line of tests/check_report.c (test_report_json: "NAME":VALUE) or, for a kind's key,
# test_report_declared's list; or a test script reads it by name (col NAME, --columns ...).
check_column() {
    sed -n '/^<!-- The table below is `hremu --doc-columns`/,/^<!-- end of hremu --doc-columns/p' \
        "$R/docs/config.md" | grep -qF "| \`$1\` |" ||
        need "a row '| \`$1\` |' in docs/config.md's columns"
    in_tests "\\\\?\"$1\\\\?\"" "$R/tests/check_report.c" ||
        in_tests "\bcol $1\b|--columns[ =][^ ]*\b$1\b" $(scripts) ||
        need "its value asserted by name (\\\"$1\\\": in tests/check_report.c, or col $1 in a test script)"
}

# An option (as --help shows it): an entry of docs/hremu.1's OPTIONS (".TP", then ".B \-\-NAME"
# or ".BI \-\-NAME ..."), and a test script that runs hremu with it (run.sh's list of --help
# lines only names it, so a line that calls the program is asked for).
check_option() {
    man=$(printf '%s' "$1" | sed 's/-/\\-/g')
    awk 'tp { print } { tp = ($0 == ".TP") }' "$R/docs/hremu.1" | cut -d' ' -f1,2 |
        sed 's/^\.BI* //' | grep -qxF -- "$man" ||
        need "an entry '.TP' '.B $man' in docs/hremu.1's OPTIONS"
    in_tests "(^|[ ;(|&])(run|\"?\\\$\{?(BIN|HREMU_BIN|REF_BIN)\}?\"?|\"\\\$@\") [^#]*$1([ =\"']|\$)" \
        $(scripts) || need "a test script that runs hremu with $1"
}

# An h-relation distribution: docs/config.md's `distribution` key names it and its paragraph
# of hrelation distributions has its item ("- `NAME`: ..."); tests/check_workload.c has its
# small instance ({ "NAME", in small[] of test_workload_hrel_distributions) and a test of its
# own (test_..._NAME, the part before ':' for file:PATH) against values worked by hand.
check_distribution() {
    key_row distribution | grep -qF "\`$1\`" || need "\`$1\` in docs/config.md's distribution key"
    grep -qF -- "- \`$1\`: " "$R/docs/config.md" ||
        need "an item '- \`$1\`: ...' in docs/config.md's hrelation distributions"
    in_tests "^ *\{ \"$1\", " "$R/tests/check_workload.c" ||
        need "its small instance in small[] of tests/check_workload.c"
    in_tests "START_TEST\(test_[a-z_]*_${1%%:*}(_[a-z_]*)?\)" "$R"/tests/*.c ||
        need "a test of its own (test_workload_${1%%:*})"
}

# in_order SECTION [LIST]: every table is kept in name order, each name once.
in_order() {
    if [ $# -gt 1 ]; then rows "$1" "$2"; else table_rows "$1"; fi >"$TMP/order"
    case " $UNSORTED " in
        *" $1 "*) LC_ALL=C sort "$TMP/order" | uniq -d | sed 's/^/twice: /' >"$TMP/sort"
                  [ ! -s "$TMP/sort" ] ;;
        *) LC_ALL=C sort -c -u "$TMP/order" 2>"$TMP/sort" ;;
    esac
}

# The tables: the --list section that holds the rows, and the check of a row. A table that
# --list does not show names a function rows_SECTION that prints its rows, one a line.
TABLES="topologies:topology disciplines:discipline workloads:workload algorithms:algorithm
        link_models:link_model cost_models:cost_model distributions:distribution columns:column
        options:option"
# Tables whose order is not by name: a link model's place is its public number (rows are
# appended), a cost model's first row is the default, columns are in output order, options in
# --help's order. Each name is still once.
UNSORTED="link_models cost_models columns options"

rows_link_models() { rows "link models"; }
rows_cost_models() { rows "cost models"; }
rows_distributions() {
    sed -n 's/.*(distributions: \(.*\))$/\1/p' "$TMP/list" | tr ',' '\n' | sed 's/^ *//' |
        grep -vx none
}
rows_columns() { awk -F'`' '/^\| `/ && $2 != "KEY" { print $2 }' "$TMP/doc-columns"; }
rows_options() { awk '/^  --[a-z]/ { print $1 }' "$TMP/help"; }

# table_rows SECTION: the rows of a table, from rows_SECTION if there is one, else --list.
table_rows() {
    if command -v "rows_$1" >/dev/null 2>&1; then "rows_$1"; else rows "$1"; fi
}

# check_row TABLE NAME: one case; prints what is missing.
check_row() {
    missing=
    "check_$1" "$2"
    if [ -z "$missing" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL: $1 $2 lacks $missing (docs/contributing.md, its recipe)"
    fi
}

for t in $TABLES; do
    n=0
    for name in $(table_rows "${t%%:*}"); do
        check_row "${t#*:}" "$name"
        n=$((n + 1))
    done
    # A list that lost its section would pass every row it no longer has.
    if [ "$n" -gt 0 ]; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL: no rows in the '${t%%:*}:' section of hremu --list"
    fi
    if in_order "${t%%:*}"; then pass=$((pass + 1)); else
        fail=$((fail + 1))
        echo "FAIL: the ${t%%:*} are not in name order, each once: $(cat "$TMP/sort")"
    fi
done

# ---- the checks can fail ------------------------------------------------------------------

# refused TABLE NAME WHAT [PART]: the check of NAME must find something missing (quietly), and
# PART among what it names, if given.
refused() {
    missing=
    "check_$1" "$2"
    case $missing in
        *"${4:-}"*) [ -n "$missing" ] && pass=$((pass + 1)) && return ;;
    esac
    fail=$((fail + 1))
    echo "FAIL: the $1 check of $2 ($3) finds '$missing', not '${4:-something}' missing"
}

# A row no doc or test knows, as a new row in a table would be.
printf 'topologies:\n  moebius            a row with no docs\n' >"$TMP/fake"
[ "$(rows topologies "$TMP/fake")" = moebius ] && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL: rows does not read a --list section"; }
for t in $TABLES; do
    refused "${t#*:}" moebius "a fake row"
done
printf 'topologies:\n  ring               b\n  mesh               a\n' >"$TMP/fake"
if in_order topologies "$TMP/fake"; then fail=$((fail + 1)); echo "FAIL: in_order passes ring, mesh"
else pass=$((pass + 1)); fi
# The docs with a real row's line taken out, in a copy: each part of a recipe is checked.
mkdir -p "$TMP/copy/docs" "$TMP/copy/tests/cli" "$TMP/copy/tests/data"
cp README.md "$TMP/copy/"
cp docs/*.md docs/hremu.1 "$TMP/copy/docs/"
cp tests/*.c tests/*.sh "$TMP/copy/tests/"
cp tests/cli/*.sh "$TMP/copy/tests/cli/"
cp tests/data/*.ini "$TMP/copy/tests/data/"
ln -s "$(pwd)/configs" "$TMP/copy/configs"
R=$TMP/copy
sed -i '/^| ring /d' "$R/docs/model.md"
refused topology ring "docs/model.md without its row" "docs/model.md's Topologies table"
sed -i 's/^## Discipline `sync`/## Discipline rendezvous/' "$R/docs/model.md"
refused discipline sync "docs/model.md without its heading" "a heading of docs/model.md"
sed -i '/^| values | `root` |/d' "$R/docs/config.md"
refused workload values "docs/config.md without its key's row" "| values | \`root\` |"
sed -i 's/`hrel.xor`/hrel.x0r/' "$R/README.md"
refused algorithm hrel.xor "README.md without it" "README.md's table"
sed -i 's/\[sort.radix\] r`/[sort.radix] R`/' "$R/docs/config.md"
refused algorithm sort.radix "docs/config.md without its parameter" "its parameter r"
sed -i 's/"ring"/"r1ng"/g; s/"ring /"r1ng /g' "$R/tests/check_topology.c"
refused topology ring "tests/check_topology.c without it" "a case in tests/check_topology.c"
sed -i 's/^`switching = store_forward`/`switching = hop_by_hop`/' "$R/docs/model.md"
refused link_model store_forward "docs/model.md without its rule" "Link contention"
sed -i 's/fixture_make(\(.*\)HR_NET_STORE_FORWARD/fixture_make(\11/' "$R/tests/check_link_model.c"
refused link_model store_forward "tests/check_link_model.c without its hand case" "timed by hand"
sed -i 's/cost_model = "loggp"/cost_model = "log_gp"/' "$R/tests/check_cost_model.c"
refused cost_model loggp "tests/check_cost_model.c without it" "timed by hand"
sed -i 's/\\"hop\\":0,//' "$R/tests/check_report.c"
refused column hop "tests/check_report.c without its value" "its value asserted by name"
sed -i '/^| `eager_limit` | whole |/d' "$R/docs/config.md"
refused column eager_limit "docs/config.md without its row" "docs/config.md's columns"
sed -i 's/^\.B \\-\\-trace\\-wall$/.B \\-\\-trace\\-walls/' "$R/docs/hremu.1"
refused option --trace-wall "docs/hremu.1 without its entry" "docs/hremu.1's OPTIONS"
sed -i '/^[^#]*--trace-wall/d' "$R"/tests/cli/*.sh
refused option --trace-wall "no test script running it" "runs hremu with --trace-wall"
sed -i '/^- `alltoall`: /s/^- //' "$R/docs/config.md"
refused distribution alltoall "docs/config.md without its item" "hrelation distributions"
sed -i '/^ *{ "skewed", /d' "$R/tests/check_workload.c"
refused distribution skewed "no small instance" "small[]"
R=.

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
