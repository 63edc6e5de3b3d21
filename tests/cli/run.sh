#!/bin/sh
# End-to-end tests of the hremu command: exit statuses, messages, output formats.
# Run from anywhere; HREMU_BIN names the binary (default ./hremu). The last line is
# "N passed, M failed, K skipped"; the exit status is nonzero if any case failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
BIN=${HREMU_BIN:-./hremu}
if [ ! -x "$BIN" ]; then
    echo "FAIL: no hremu binary at $BIN (build it, or set HREMU_BIN)"
    echo "0 passed, 1 failed"
    exit 1
fi
D=tests/data
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hremu-cli.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM
pass=0
fail=0
skip=0

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# skipped REASON: a case that cannot run here says so and is counted in the last line.
skipped() { skip=$((skip + 1)); echo "SKIP: $*"; }

# run ARGS...: runs hremu, leaving stdout in $TMP/out, stderr in $TMP/err, status in $rc.
run() {
    "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
}

# expect_rc WANT NAME: the last run's exit status.
expect_rc() {
    if [ "$rc" -eq "$1" ]; then ok; else
        bad "$2: exit status $rc, want $1"; sed 's/^/    stderr: /' "$TMP/err" | head -5
    fi
}

# expect_err TEXT NAME: the last run's stderr is exactly one line, TEXT.
expect_err() {
    if [ "$(cat "$TMP/err")" = "$1" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]; then ok; else
        bad "$2: stderr is '$(cat "$TMP/err")', want '$1'"
    fi
}

# expect_grep PATTERN FILE NAME: FILE has a line matching PATTERN (fixed string).
expect_grep() {
    if grep -qF -- "$1" "$2"; then ok; else bad "$3: no '$1' in $(basename "$2")"; fi
}

# expect_empty FILE NAME
expect_empty() {
    if [ ! -s "$1" ]; then ok; else bad "$2: $(basename "$1") is not empty"; fi
}

HEADER=algorithm,procs,n,h,discipline,topology,cost,seed,model_time_s,rounds,messages,bytes,max_out_bytes,max_in_bytes,wall_s,verified

# col NAME [FILE]: the column called NAME of CSV rows (FILE, default the last run's output), one
# line per row; read by name, as every script here reads columns. (No field holds a comma here.)
col() {
    awk -F, -v want="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == want) c = i; next }
                          c { print $c }' "${2:-$TMP/out}"
}

# ---- a cost file (hremu-mpi --calibrate writes one): its figures, its name in the cost column
run tests/data/good_cost_file.ini --format csv
expect_rc 0 "cost = file:"
if [ "$(col cost)" = "file:$D/cost_good.ini" ] && [ "$(col tau)" = "2e-06" ] &&
    [ "$(col sigma)" = "1e-09" ] && [ "$(col overhead)" = "1e-07" ]; then ok; else
    bad "cost = file:cost_good.ini: the row says cost $(col cost), tau $(col tau), sigma $(col sigma)"
fi

# A cost file is read as a config is: a key or a section given twice is refused, with its line;
# the column tells two files of one name apart.
printf '[cost]\ntau = 1e-5\ntau = 2e-5\n' >"$TMP/twice.cost"
run configs/default.ini --set machine.cost=file:"$TMP/twice.cost"
expect_rc 2 "a cost file with a key twice"
expect_err "hremu: --set machine.cost: cost = file:$TMP/twice.cost: $TMP/twice.cost:3: tau is set twice in [cost]" \
    "a cost file with a key twice"
printf '[cost]\ntau = 1e-5\n[loggp]\ntau = 1e-6\n[cost]\nsigma = 1e-9\n' >"$TMP/twice.cost"
run configs/default.ini --set machine.cost=file:"$TMP/twice.cost"
expect_rc 2 "a cost file with a section twice"
expect_grep "twice.cost:6: [cost] is given twice" "$TMP/err" "a cost file with a section twice"
mkdir "$TMP/ca" "$TMP/cb"
printf '[cost]\ntau = 1e-5\n' >"$TMP/ca/c.ini"; printf '[cost]\ntau = 2e-5\n' >"$TMP/cb/c.ini"
run configs/default.ini --format csv --set machine.cost=file:"$TMP/ca/c.ini",file:"$TMP/cb/c.ini"
[ "$(col cost | paste -sd ' ' -)" = "file:$TMP/ca/c.ini file:$TMP/cb/c.ini" ] && ok ||
    bad "two cost files of one name: cost column $(col cost | paste -sd ' ' -)"

# ... and with a section a cost model, each model's row reads its own ([cost] the others')
run tests/data/cost_models_file.ini --format csv
expect_rc 0 "a cost file's sections"
if [ "$(col cost_model | paste -sd ' ' -)" = "bdm loggp bsp" ] &&
    [ "$(col tau | paste -sd ' ' -)" = "2e-06 1.5e-06 8e-06" ] &&
    [ "$(col gap | paste -sd ' ' -)" = "0 3e-07 0" ] &&
    [ "$(col sigma | paste -sd ' ' -)" = "1e-09 1e-09 4e-09" ]; then ok; else
    bad "a cost file's sections: tau $(col tau | paste -sd ' ' -), gap $(col gap | paste -sd ' ' -), sigma $(col sigma | paste -sd ' ' -)"
fi

# ---- cost model loggp: the exchanges' model time worked by hand in the config, the column, the
# row on a topology with links skipped with its reason, and --list
run tests/data/loggp_exchange.ini --format csv
expect_rc 0 "cost_model = loggp"
if [ "$(col model_time_s | paste -sd ' ' -)" = "2.8e-05 2.8e-05" ] &&
    [ "$(col cost_model | paste -sd ' ' -)" = "loggp loggp" ] &&
    [ "$(col gap | paste -sd ' ' -)" = "5e-06 5e-06" ]; then ok; else
    bad "loggp exchanges: model_time_s $(col model_time_s | paste -sd ' ' -), cost_model $(col cost_model | paste -sd ' ' -), want 2.8e-05 under loggp"
fi
expect_grep "xchg.pex is not defined for cost model loggp on topology ring (it sends beyond a processor's links, and the model charges no hops)" "$TMP/err" \
    "loggp on ring: skipped with the reason"
run --list
expect_grep "  loggp              LogGP (Alexandrov et al., SPAA 1995)" "$TMP/out" "--list: loggp"
run tests/data/loggp_exchange.ini --set machine.cost_model=bdm
expect_rc 2 "a gap under bdm"
expect_grep "cost model bdm does not define a gap (LogGP's g)" "$TMP/err" "a gap under bdm: why"

# ---- cost model bsp: every world collective a superstep, model time BSP's W + H g + S l read off
# the row's own columns; the ring row and hrel.xor (point to point) skipped with their reasons
run tests/data/bsp_hrel.ini --format csv
expect_rc 0 "cost_model = bsp"
cp "$TMP/out" "$TMP/bsp.csv"
python3 - "$TMP/bsp.csv" <<'PY' && ok || bad "bsp: model_time_s is not bsp_w + sigma * bsp_h + tau * supersteps"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["algorithm"] for r in rows] == ["hrel.direct", "hrel.two_phase"], rows
for r in rows:
    want = float(r["bsp_w"]) + float(r["sigma"]) * int(r["bsp_h"]) + float(r["tau"]) * int(r["supersteps"])
    assert r["cost_model"] == "bsp" and int(r["supersteps"]) == 2, r
    # model time is integer picoseconds: each superstep rounds l and h*g to one (docs/model.md)
    assert abs(float(r["model_time_s"]) - want) <= 1e-12 * (2 * int(r["supersteps"]) + 1), (r["algorithm"], r["model_time_s"], want)
PY
expect_grep "hrel.xor is not defined for cost model bsp (it needs point-to-point messages)" "$TMP/err" \
    "bsp: hrel.xor skipped with the reason"
expect_grep "cost model bsp does not define links (topologies other than complete)" "$TMP/err" \
    "bsp on ring: skipped with the reason"
run tests/data/bsp_hrel.ini --set machine.topology=complete --set run.algorithms=hrel.direct
expect_grep "supersteps" "$TMP/out" "bsp: the table shows supersteps"
run tests/data/bsp_hrel.ini --set machine.overhead=1e-6
expect_rc 2 "an overhead under bsp"
expect_grep "cost model bsp does not define an overhead (o) a message" "$TMP/err" "an overhead under bsp: why"

# ---- presets: each cost model's own published figures (docs/model.md, "Presets"), a model's
# default when a config sets no cost, another model's preset refused, --list showing them
run tests/data/loggp_tukey.ini --format csv
expect_rc 0 "loggp's default preset"
if [ "$(col cost)" = "tukey" ] && [ "$(col model_time_s)" = "1.3564364e-05" ]; then ok; else
    bad "loggp's tukey preset: cost $(col cost), ping-pong $(col model_time_s) s, want tukey and Netgauge's 1-byte round trip 1.3564364e-05"
fi
run tests/data/loggp_tukey.ini --set machine.cost=cm5
expect_rc 2 "bdm's preset under loggp"
expect_grep "cost model loggp has no preset 'cm5' (its presets: tukey; or file:PATH, a cost file)" \
    "$TMP/err" "bdm's preset under loggp: why"
# a cost file given where a config goes: said so, with the key that takes it
run configs/models/box.ini
expect_rc 2 "a cost file as the config"
expect_grep "[cost] begins a cost file, not a config: a config names it as [machine] cost = file:PATH" \
    "$TMP/err" "a cost file as the config: why"
run tests/data/bsp_hrel.ini --set machine.topology=complete --set machine.cost=sp2 --format csv
expect_rc 0 "bsp's sp2 preset"
if [ "$(col cost | sort -u)" = "sp2" ] && [ "$(col tau | sort -u)" = "0.00020815384615384617" ]; then ok; else
    bad "bsp's sp2 preset: cost $(col cost | sort -u), tau $(col tau | sort -u), want the Oxford table's l = 5412 flops at 26 Mflop/s"
fi
run --list
expect_grep "                     preset tukey (the default): ANL Tukey, MVAPICH over InfiniBand" \
    "$TMP/out" "--list: loggp's presets"
expect_grep "                     preset sp2: IBM SP2 with MPL, p = 8: l 208 us" "$TMP/out" \
    "--list: bsp's presets"

# --calibrate measures MPI ranks: the thread engine's hremu says where it runs (tests/mpi/check.sh
# runs it on hremu-mpi)
run --calibrate
expect_rc 2 "--calibrate on threads"
expect_err "hremu: --calibrate measures messages between MPI ranks: run it on hremu-mpi (mpirun -np P build/hremu-mpi --calibrate)" "--calibrate on threads"

# ---- information -----------------------------------------------------------------------
run --version
expect_rc 0 "--version"
[ "$(cat "$TMP/out")" = "hremu 0.1.0" ] && ok || bad "--version prints '$(cat "$TMP/out")'"

run --help
expect_rc 0 "--help"
expect_grep "usage: hremu [CONFIG.ini]" "$TMP/out" "--help"
expect_grep "--set SECTION.KEY=VALUE" "$TMP/out" "--help"

# The man page does not drift from --help: every option --help names is in it.
for opt in $(grep -o -- '--[a-z]*' "$TMP/out" | sort -u); do
    grep -qF -- "$(echo "$opt" | sed 's/-/\\-/g')" docs/hremu.1 && ok || bad "docs/hremu.1 lacks $opt"
done

# The usage line comes from the option table (src/cli/options.c): every form, every option in
# the table's order, wrapped at 80 columns.
cat >"$TMP/want" <<'EOF'
usage: hremu [CONFIG.ini] [--set SECTION.KEY=VALUE]... [--format table|csv|json]
             [--out FILE] [--trace FILE|-] [--trace-limit N] [--trace-sample K]
             [--trace-wall] [--rounds FILE|-] [--html FILE] [--schedule FILE|-]
             [--regions FILE] [--columns LIST] [--aggregate seed] [--quiet]
       hremu --topology SPEC [--format table|csv|json] [--procs P]
       hremu-mpi --calibrate [--out FILE]
       hremu --list | --help | --version

EOF
head -8 "$TMP/out" | diff "$TMP/want" - >"$TMP/diff" && ok || { bad "--help's usage lines differ:"; cat "$TMP/diff"; }
# Every option of the table has its --help line ("  --name"); the hidden ones have none.
for opt in --set --format --out --trace --trace-limit --trace-sample --trace-wall --rounds \
           --html --schedule --regions --columns --aggregate --quiet --topology --procs --list \
           --help --version; do
    grep -q -- "^  $opt " "$TMP/out" && ok || bad "--help has no line for $opt"
done
grep -q -- "--man-options\|--doc-columns" "$TMP/out" && bad "--help shows a hidden option" || ok
run -h
expect_rc 0 "-h"
head -1 "$TMP/out" | grep -q "^usage: hremu" && ok || bad "-h does not print the usage"

# docs/hremu.1's OPTIONS section is what the option table makes of it: `hremu --man-options`
# prints it (replace the section with its output after changing an option).
run --man-options
expect_rc 0 "--man-options"
sed -n '/^\.SH OPTIONS$/,/^\.SH /p' docs/hremu.1 | sed '$d' | diff - "$TMP/out" >"$TMP/diff" && ok ||
    { bad "docs/hremu.1's OPTIONS differ from hremu --man-options (- the page, + the table):"; head -20 "$TMP/diff"; }
[ "$(grep -c '^\.TP$' "$TMP/out")" -eq 20 ] && ok || bad "--man-options: $(grep -c '^\.TP$' "$TMP/out") options, want 20"

# docs/config.md's list of columns is the column table's (src/cli/columns.c): every row has its
# line there, and the list has no other (`hremu --doc-columns` prints it).
run --doc-columns
expect_rc 0 "--doc-columns"
sed -n '/^<!-- The table below is `hremu --doc-columns`/,/^<!-- end of hremu --doc-columns -->$/p' docs/config.md |
    sed '1d;$d' | diff - "$TMP/out" >"$TMP/diff" && ok ||
    { bad "docs/config.md's columns differ from hremu --doc-columns (- the doc, + the table):"; head -20 "$TMP/diff"; }
# ... and its columns are the CSV header's, in its order.
sed -n 's/^| `\([a-z_0-9]*\)` .*/\1/p' "$TMP/out" >"$TMP/listed"
run configs/default.ini --format csv
head -1 "$TMP/out" | tr , '\n' | diff "$TMP/listed" - >"$TMP/diff" && ok ||
    { bad "hremu --doc-columns names other columns than the CSV header:"; head -10 "$TMP/diff"; }

# Algorithms include public headers, their own (alg/) and the workload kinds' (work/) only, as
# docs/architecture.md says: no thread, lock or queue of util/, core/, net/ or coll/.
grep -n '^#include "\(util\|core\|net\|coll\|cli\)/' src/alg/*.c src/alg/*.h >"$TMP/below"
expect_empty "$TMP/below" "src/alg/ includes below the public API"

# Above the engine seam (src/core/engine.h), the API's calls and the collectives see no thread,
# lock, futex or queue: no other header of core/, and nothing of util/'s sync, pthreads or liburcu.
grep -n '^#include \("core/[a-z]*\.h"\|"util/sync\.h"\|<pthread\.h>\|<urcu\|<linux/futex\)' \
    src/api/*.c src/coll/*.c src/coll/*.h | grep -v '"core/engine\.h"' >"$TMP/seam"
expect_empty "$TMP/seam" "src/api/ and src/coll/ include below the engine seam"

# In the thread engine and all it shares with the MPI engine (everything but src/mpi/, which
# has threads of its own on the model rank), the engines alone create a thread (core/threads.c,
# a processor each; core/fibers.c, its carriers), and core/threads.c alone touches a futex.
ls src/*/*.c src/*/*.h | grep -v '^src/mpi/' | xargs grep -ln 'pthread_create' >"$TMP/threads"
[ "$(cat "$TMP/threads" | paste -sd ' ' -)" = "src/core/fibers.c src/core/threads.c" ] && ok ||
    bad "files that create threads: $(tr '\n' ' ' <"$TMP/threads"), want src/core/fibers.c src/core/threads.c"
ls src/*/*.c src/*/*.h | grep -v '^src/mpi/' | xargs grep -ln 'linux/futex' >"$TMP/futex"
[ "$(cat "$TMP/futex")" = "src/core/threads.c" ] && ok ||
    bad "files that touch a futex: $(tr '\n' ' ' <"$TMP/futex"), want src/core/threads.c"

# The message docs/architecture.md walks crosses the files its table says, measured by
# scripts/message_path.sh (callgrind). The table's cells carry a directory over: "core/p2p.c,
# mailbox.c" is core/p2p.c and core/mailbox.c.
libdir=$(dirname "$(readlink -f "$BIN")")
if [ -n "${SAN:-}" ] || ! command -v valgrind >/dev/null 2>&1 || [ ! -f "$libdir/libhremu.a" ]; then
    skipped "the walked message's files: needs valgrind and a build without sanitizers"
else
    for topo in complete "torus 4x4"; do
        grep "^| \`$topo\` |" docs/architecture.md | awk -F'|' '{ print $4 }' |
            sed 's/^ *[0-9]*: //' | tr ',' '\n' |
            awk '{ gsub(/ /, ""); if (index($0, "/")) { d = $0; sub(/\/[^\/]*$/, "", d) }
                   else $0 = d "/" $0; print "src/" $0 }' | sort >"$TMP/want"
        scripts/message_path.sh "$libdir" async "$topo" >"$TMP/path" 2>&1
        sed -n 's/^\(src\/[^:]*\):.*/\1/p' "$TMP/path" | sort >"$TMP/got"
        if [ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got"; then ok; else
            bad "one message on $topo crosses other files than docs/architecture.md says:"
            diff "$TMP/want" "$TMP/got" | head -10
        fi
    done
fi

# docs/api.md lists every public call: each function include/hremu/ declares is named in it.
sed -n 's/^[a-z][a-z0-9_ ]*[ *]\(hr[a-z0-9_]*\)(.*/\1/p' include/hremu/*.h | sort -u >"$TMP/calls"
[ "$(wc -l <"$TMP/calls")" -gt 50 ] && ok || bad "include/hremu/ declares $(wc -l <"$TMP/calls") functions, want more than 50"
while read -r call; do
    grep -q "\b$call\b" docs/api.md || echo "docs/api.md lacks $call"
done <"$TMP/calls" >"$TMP/missing"
expect_empty "$TMP/missing" "public calls in docs/api.md"

run --list
expect_rc 0 "--list"
for section in algorithms: workloads: disciplines: topologies: "cost models:" "link models:"; do
    expect_grep "$section" "$TMP/out" "--list"
done
grep -A1 '^  hrel.pq_random ' "$TMP/out" | grep -qx ' *needs rounds, queues and priorities (disciplines: priority)' && ok ||
    bad "--list says an algorithm's needs in words, and the disciplines that meet them"
grep -A1 '^  hrel.xor ' "$TMP/out" | grep -qx ' *needs point-to-point messages and sends that complete at once (disciplines: async)' && ok ||
    bad "--list: hrel.xor's needs"
expect_grep "xchg = pex (transpose, lex, pex, rex, bex; or 0 .. 4): " "$TMP/out" "--list shows a parameter's words"
expect_grep "group = all (all, rows, columns; or 0 .. 2): " "$TMP/out" "--list shows group's words"
for name in hrel.direct hrelation async complete cm5 "distributions: " "  store_forward "; do
    expect_grep "$name" "$TMP/out" "--list"
done
# Every key a workload kind declares ("  NAME = DEFAULT (" under its kind) is in docs/config.md's
# table of declared keys, with its default.
keys=$(sed -n '/^workloads:/,/^disciplines:/p' "$TMP/out" | sed -n 's/^  *\([a-z_0-9]*\) = \([^ ]*\) (.*/\1 \2/p')
[ -n "$keys" ] && ok || bad "--list shows no declared workload keys"
echo "$keys" | while read -r key def; do
    grep -q "| \`$key\` | $def |" docs/config.md || echo "docs/config.md lacks the key $key (default $def)"
done >"$TMP/missing"
expect_empty "$TMP/missing" "declared keys in docs/config.md"
# README.md's table of what runs today names every algorithm --list names.
sed -n '/^algorithms:/,/^workloads:/s/^  \([a-z0-9_]*\.[a-z0-9_]*\) .*/\1/p' "$TMP/out" >"$TMP/algs"
[ -s "$TMP/algs" ] && ok || bad "--list names no algorithm"
while read -r name; do
    grep -q "^|.*\`$name\`" README.md || echo "README.md's algorithm table lacks $name"
done <"$TMP/algs" >"$TMP/missing"
expect_empty "$TMP/missing" "algorithms in README.md"
# A parameter's word or its number: the same rows; another word is one line naming the words.
run configs/seed001/fig11.ini --set machine.procs=8 --set workload.n=1p --set run.algorithms=bcast.recursive --set bcast.recursive.group=rows,1 --columns params,model_time_s --format csv
expect_rc 0 "group = rows, 1"
[ "$(col params | tr '\n' ' ')" = "group=1 rows=0 group=1 rows=0 " ] && [ "$(col model_time_s | sort -u | wc -l)" -eq 1 ] && ok ||
    bad "group = rows and group = 1: $(col params | tr '\n' ' ')/$(col model_time_s | tr '\n' ' ')"
run configs/seed001/fig11.ini --set bcast.recursive.group=row
expect_rc 2 "group = row"
expect_err "hremu: --set bcast.recursive.group: group = row: expected one of: all, rows, columns (or 0 .. 2)" "a bad word names the words"

# ---- running ---------------------------------------------------------------------------
run --format csv
expect_rc 0 "default config"
expect_empty "$TMP/err" "default config stderr"
[ "$(head -n 1 "$TMP/out" | cut -d, -f1-16)" = "$HEADER" ] && ok ||
    bad "CSV header is '$(head -n 1 "$TMP/out")'"
[ "$(wc -l <"$TMP/out")" -eq 2 ] && ok || bad "default config: $(wc -l <"$TMP/out") lines"
expect_grep "hrel.direct,16,1048576,262144,async,complete,cm5,1," "$TMP/out" "default config row"
cut -d, -f16 "$TMP/out" | tail -n 1 | grep -qx true && ok || bad "default config not verified"

run configs/default.ini
expect_rc 0 "table"
# One row: procs, n and h, the model figures, and no setting (none varies).
[ "$(head -n 1 "$TMP/out" | tr -s ' ')" = "algorithm procs n h model_time_s rounds messages bytes max_out_bytes max_in_bytes wall_s verified steps" ] && ok ||
    bad "table header is '$(head -n 1 "$TMP/out")'"
# The default table: within 160 characters, each column as wide as its widest text (header and
# rows end their columns at the same places), the settings that vary (cost and h here; not
# tau or sigma, which follow cost), nothing empty for every row.
run configs/examples/sweep.ini --set run.repeat=1
expect_rc 0 "sweep table"
[ "$(head -n 1 "$TMP/out" | tr -s ' ')" = "algorithm procs n h cost model_time_s rounds messages bytes max_out_bytes max_in_bytes wall_s verified steps" ] && ok ||
    bad "sweep table header is '$(head -n 1 "$TMP/out")'"
[ "$(awk '{ print length }' "$TMP/out" | sort -n | tail -n 1)" -le 160 ] && ok || bad "sweep table wider than 160"
awk 'NR == 1 { for (i = 1; i <= length($0); i++) if (substr($0, i, 1) != " " && substr($0, i + 1, 1) == " ") e[i] = 1; next }
     { for (i in e) if (i < length($0) && substr($0, i, 1) == " " && substr($0, i + 1, 1) == " " && substr($0, i + 2, 1) != " ") bad = 1 }
     END { exit bad }' "$TMP/out" && ok || bad "sweep table: columns not aligned"
run configs/teaching/disciplines.ini --set run.repeat=1
expect_rc 0 "disciplines table"
[ "$(awk '{ print length }' "$TMP/out" | sort -n | tail -n 1)" -le 160 ] && ok || bad "disciplines table wider than 160"
head -n 1 "$TMP/out" | tr -s ' ' | grep -q '^algorithm procs n h discipline model_time_s rounds messages bytes max_in_bytes verified steps rounds_per_h lost stalls params$' && ok ||
    bad "disciplines table header is '$(head -n 1 "$TMP/out")'"
expect_grep "hremu: note: the table leaves out max_out_bytes, wall_s to fit 160 columns (--format csv and --columns have every column)" "$TMP/err" "disciplines table note"
# steps: communication steps by hand, p = 8. hrel.xor: 7 exchanges, each a step for both sides
# (its barriers carry no data and take none); rounds counts its 7 barriers. hrel.direct: a
# transpose of counts (7 sends each, steps 1 .. 7) and an alltoallv (7 more): 14; rounds, its 2
# collective calls. bcast.binomial on the 3-cube: 3 steps, and rounds is steps (it sends along
# links only). hrel.offline under fifo: a round is a step: 7.
run --format csv --set machine.procs=8 --set workload.n=2^10 --set workload.h=n/p \
    --set run.algorithms=hrel.xor,hrel.direct --set run.repeat=1
[ "$(col steps | tr '\n' ' ')$(col rounds | tr '\n' ' ')" = "7 14 7 2 " ] && ok || bad "steps of hrel.xor, hrel.direct: $(col steps | tr '\n' ' ')rounds $(col rounds | tr '\n' ' ')"
run --format csv configs/seed004/values.ini --set machine.procs=8 --set machine.topology=hypercube \
    --set run.algorithms=bcast.binomial --set run.repeat=1
[ "$(col steps | sort -u | tr '\n' ' ')$(col rounds | sort -u | tr '\n' ' ')" = "3 3 " ] && ok || bad "steps of bcast.binomial: $(col steps | tr '\n' ' ')rounds $(col rounds | tr '\n' ' ')"
run --format csv configs/teaching/disciplines.ini --set run.algorithms=hrel.offline --set machine.discipline=fifo --set run.repeat=1
[ "$(col steps),$(col rounds)" = "7,7" ] && ok || bad "steps of hrel.offline under fifo: $(col steps),$(col rounds)"

run --set machine.procs=4,8 --set workload.n=2^10 --set run.repeat=2 --format=json
expect_rc 0 "json sweep"
[ "$(wc -l <"$TMP/out")" -eq 2 ] && ok || bad "json sweep: $(wc -l <"$TMP/out") rows, want 2"
[ "$(grep -c '^{"algorithm":"hrel.direct","procs":[48],"n":1024,' "$TMP/out")" -eq 2 ] && ok ||
    bad "json rows: $(cat "$TMP/out")"
# Every line is one JSON object, keys first in contract order, each key once.
if command -v python3 >/dev/null 2>&1 && python3 -c 'import json' 2>/dev/null; then
    if python3 -c '
import json, sys
want = sys.argv[1].split(",")
def pairs(kv):
    keys = [k for k, _ in kv]
    if len(set(keys)) != len(keys):
        sys.exit("duplicate keys: %s" % keys)
    if keys[:len(want)] != want:
        sys.exit("keys %s, want first %s" % (keys, want))
    return dict(kv)
rows = [json.loads(l, object_pairs_hook=pairs) for l in sys.stdin]
if len(rows) != 2 or not all(r["verified"] is True and type(r["model_time_s"]) in (int, float) for r in rows):
    sys.exit("rows: %s" % rows)
' "$HEADER" <"$TMP/out" 2>"$TMP/py"; then ok; else bad "json sweep does not parse: $(cat "$TMP/py")"; fi
else
    skipped "no python3 with its json module: the JSON parse case"
fi

run configs/examples/sweep.ini --format csv --set run.repeat=1
expect_rc 0 "example sweep"
[ "$(wc -l <"$TMP/out")" -eq 19 ] && ok || bad "example sweep: $(wc -l <"$TMP/out") lines, want 19"

# verify = false: the row is not verified, yet nothing failed.
run --format csv --set run.verify=false --set workload.n=2^12
expect_rc 0 "verify = false"
[ "$(col verified),$(col status)" = "false,unchecked" ] && ok || bad "verify = false: $(tail -n 1 "$TMP/out")"

# discipline sync (rendezvous) runs hrel.direct and verifies.
run --format csv --set machine.discipline=sync
expect_rc 0 "discipline sync"
expect_grep "hrel.direct,16,1048576,262144,sync,complete,cm5,1," "$TMP/out" "discipline sync row"
cut -d, -f16 "$TMP/out" | tail -n 1 | grep -qx true && ok || bad "discipline sync not verified"
# hrel.direct is a transpose: its collective is costed async, and stderr says so once (under
# async with no buffer, as in the default config above, it says nothing).
expect_grep "hremu: note: 1 row called collectives, which are costed by the async rules" \
    "$TMP/err" "collectives under sync: the note"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && ok || bad "collectives under sync: $(cat "$TMP/err")"

# A bounded receive buffer: fine with async, an error with sync.
run --format csv --set machine.buffer=4096
expect_rc 0 "buffer = 4096, async"
expect_grep "the first: hrel.direct, discipline async, buffer 4096" "$TMP/err" \
    "collectives with a bounded buffer: the note"
tail -n 1 "$TMP/out" | grep -q '^hrel.direct,16,1048576,262144,async,.*,true,' && ok ||
    bad "buffer = 4096, async: $(tail -n 1 "$TMP/out")"

# A run that fails is exit status 1: hrel.xor's point-to-point messages cannot fit in a 64-byte
# receive buffer, a misuse the library detects, which fails the run with one line for the
# processors that tried, and a row whose status is misuse.
run --format csv --set run.algorithms=hrel.xor --set machine.buffer=64 --set workload.n=2^12
expect_rc 1 "a failing run"
expect_grep "hremu: hrel.xor: P" "$TMP/err" "a failing run names the algorithm"
expect_grep "can never fit in P" "$TMP/err" "a failing run says why"
[ "$(col algorithm),$(col verified),$(col status)" = "hrel.xor,false,misuse" ] && ok ||
    bad "a failing run's row: $(tail -n 1 "$TMP/out")"

# Seed 004: the six algorithms of kind values on RH(2,1) and the 4-cube, their rows verified and
# their steps (the rounds column) as derived by hand in tests/check_cube.c: reduce.rh_tree
# k + (n+1) 2^n = 6, prefix.rh 2k + 7 = 11, every hypercube algorithm nu = 4; bcast.rh_tree from
# root 15 (BB 11, SB 1, place 1) 5, by hand: 15's children are 14 (the 1-cube of sec. 2.2; its
# subtree 14 -> 6 -> 4 -> 0 -> 2 and 14 -> 12 -> 8 -> 10 takes 4 steps), 7 (the spacer BB 01's
# entry: 7 -> 5 -> 1 -> 3, 3 steps) and 13 (13 -> 9 -> 11, 2), sent in that order: 5. From root
# 0 it is 6 (check_cube.c), as 0's link leads to the leaf BB and the spacer's link is a step
# away in SB 1. op and root in the
# rows; bad values of the kind's keys are configuration errors.
run --format csv configs/seed004/values.ini --set machine.procs=16 --set "machine.topology=rh 2 1, hypercube" \
    --set workload.dataset=double --set workload.root=p-1 --set workload.op=max
expect_rc 0 "seed004 values"
[ "$(col verified | sort -u)" = true ] && ok || bad "seed004 values: every row verifies: $(col verified | tr '\n' ' ')"
[ "$(col algorithm | tr '\n' ' ')" = "bcast.rh_tree reduce.rh_tree prefix.rh bcast.rh_tree reduce.rh_tree prefix.rh bcast.binomial reduce.binomial prefix.hypercube bcast.binomial reduce.binomial prefix.hypercube " ] && ok ||
    bad "seed004 values rows: $(col algorithm | tr '\n' ' ')"
[ "$(col rounds | tr '\n' ' ')" = "5 6 11 5 6 11 4 4 4 4 4 4 " ] && ok || bad "seed004 steps: $(col rounds | tr '\n' ' ')"
[ "$(col op | sort -u),$(col root | sort -u),$(col dataset | sort -u)" = "max,15,double" ] && ok ||
    bad "seed004 op, root, dataset columns: $(col op | sort -u),$(col root | sort -u),$(col dataset | sort -u)"
# Seed 001's complete exchanges: a kind's declared key (bytes) sweeps, has its column, and is
# refused with another kind or out of its range.
run --format csv configs/seed001/fig5.ini --set machine.procs=8 --set workload.bytes=0,100
expect_rc 0 "seed001 fig5"
[ "$(col verified | sort -u)" = true ] && ok || bad "seed001 fig5: every row verifies"
[ "$(col block_bytes | sort -u | tr '\n' ' ')" = "0 100 " ] && ok || bad "seed001 block_bytes: $(col block_bytes | sort -u | tr '\n' ' ')"
[ "$(col messages | sort -u | tr '\n' ' ')" = "24 56 " ] && ok || bad "seed001 messages: $(col messages | sort -u | tr '\n' ' ')"
run configs/seed001/fig5.ini --set workload.bytes=-1
expect_rc 2 "exchange bytes = -1"
expect_grep "hremu: --set workload.bytes: bytes = -1: " "$TMP/err" "exchange bytes = -1"
run configs/seed004/values.ini --set workload.bytes=8
expect_rc 2 "bytes with kind values"
expect_err "hremu: --set workload.bytes: bytes applies to workload kinds exchange and pattern only, not values (unset it)" "bytes with kind values"
# [run] unreceived: warn (the default) or error, nothing else.
run configs/default.ini --set run.unreceived=maybe
expect_rc 2 "unreceived = maybe"
expect_err "hremu: --set run.unreceived: unreceived = maybe: expected warn or error" "unreceived = maybe"
run configs/default.ini --set run.unreceived=error --format csv
expect_rc 0 "unreceived = error, every message received"
[ "$(col status)" = ok ] && [ ! -s "$TMP/err" ] && ok || bad "unreceived = error: $(cat "$TMP/err")"
run configs/seed001/fig5.ini --set machine.procs=6 --set run.algorithms=xchg.rex
expect_rc 2 "xchg.rex on p = 6"
expect_err "hremu: --set run.algorithms: xchg.rex on procs = 6, topology fattree: xchg.rex needs p a power of two (seed 001 Figure 3), not 6" \
    "xchg.rex on p = 6"
# Seed 001's schedulers on pattern P: plan_steps, and --schedule's text for GS, Table 10 but
# for its step 5's misprint ("2 <-> 4": row 2 of P sends nothing to 4, so it is 4 -> 2).
run --format csv --out "$TMP/rows.csv" configs/seed001/table10.ini --schedule "$TMP/sched.txt"
expect_rc 0 "seed001 table10"
[ "$(col plan_steps "$TMP/rows.csv" | tr '\n' ' ')" = "8 6 7 6 " ] && ok ||
    bad "seed001 table10 plan_steps: $(col plan_steps "$TMP/rows.csv" | tr '\n' ' ')"
sed -n '/^# irreg.gs/,$p' "$TMP/sched.txt" >"$TMP/gs.txt"
cat >"$TMP/table10.txt" <<'TABLE'
# irreg.gs procs=8 pattern=table6 bytes=256 seed=1: 6 steps
step 1: 0 <-> 1, 2 <-> 3, 4 <-> 5, 6 <-> 7
step 2: 0 <-> 3, 1 <-> 2, 4 <-> 7, 5 <-> 6
step 3: 0 -> 5, 1 <-> 4, 3 <-> 6
step 4: 0 <-> 6, 1 <-> 5, 3 <-> 4
step 5: 1 -> 6, 3 -> 5, 4 -> 2, 7 -> 0
step 6: 1 <-> 7, 6 -> 2
TABLE
cmp -s "$TMP/gs.txt" "$TMP/table10.txt" && ok || bad "--schedule irreg.gs: $(cat "$TMP/gs.txt")"
# CGMH's base (what lambda is a fraction of) is a declared parameter: every reading is in the
# rows' params, and every row verifies: 15 rows of cgmh_fixed (five lambdas), 3 and 3.
run configs/seed002/table3.ini --set machine.procs=8 --set workload.d=3 --set workload.msg_unit=16 \
    --set machine.seed=1 --set run.algorithms=irreg.cgmh_fixed,irreg.cgmh_ms,irreg.cgmh_bj \
    --set irreg.cgmh_fixed.base=0,1,2 --set irreg.cgmh_ms.base=0,1,2 --set irreg.cgmh_bj.base=0,1,2 \
    --format csv
expect_rc 0 "CGMH under the three bases"
[ "$(col status | grep -c '^ok$')" -eq 21 ] && ok || bad "CGMH bases: $(col status | sort | uniq -c)"
[ "$(col params | grep -c ' base=[012]$\|^base=[012]$')" -eq 21 ] && ok || bad "CGMH bases: params $(col params | head -3)"
[ "$(col params | grep -c 'base=2$')" -eq 7 ] && ok || bad "CGMH bases: base=2 in $(col params | grep -c 'base=2$') rows"
run configs/seed001/table10.ini --schedule -
expect_rc 2 "--schedule - without --out"
expect_err "hremu: --schedule - writes to standard output: give the rows a file with --out" "--schedule - without --out"
run configs/seed001/table10.ini --set machine.procs=16
expect_rc 2 "table6 on 16"
expect_err "hremu: configs/seed001/table10.ini:16: workload pattern, pattern = table6, bytes = 256, procs = 16: pattern table6 is seed 001's pattern P of 8 processors, not 16" "table6 on 16"
run configs/seed001/table10.ini --set workload.density=50
expect_rc 2 "density with pattern table6"
expect_err "hremu: --set workload.density: density applies when pattern=density only (unset it)" "density with pattern table6"
run configs/seed001/table12.ini --set workload.pattern=file:tests/data/mtx/mangled_format.mtx
expect_rc 2 "mangled matrix"
expect_grep "tests/data/mtx/mangled_format.mtx:1: " "$TMP/err" "mangled matrix"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && ok || bad "mangled matrix: more than one line"
# A real parameter's expression is not floored: K = 3/2 is refused, K = p/2 (whole) runs.
run configs/examples/rounds.ini --set machine.procs=4 --set run.algorithms=hrel.fifo_staged \
    --set hrel.fifo_staged.K=3/2
expect_rc 2 "a real parameter's fraction"
expect_err "hremu: --set hrel.fifo_staged.K: K = 3/2: 3/2 at column 2 is not a whole number: write the value as a decimal" \
    "a real parameter's fraction"
run configs/examples/rounds.ini --set machine.procs=4 --set run.algorithms=hrel.fifo_staged \
    --set hrel.fifo_staged.K=p/2 --format csv
expect_rc 0 "a real parameter's whole quotient"
run configs/seed001/table10.ini --set workload.bytes=-5
expect_rc 2 "negative message size"
run configs/seed001/table10.ini --set workload.n=64
expect_rc 2 "n with kind pattern"
expect_err "hremu: --set workload.n: n does not apply to workload kind pattern: its own keys (pattern, density, bytes, d, msg_unit, range) set its size (unset n)" "n with kind pattern"
run configs/seed004/values.ini --set workload.root=p
expect_rc 2 "seed004 root = p"
expect_err "hremu: --set workload.root: root = p: root 256 is not a processor (p = 256)" "seed004 root = p"
run configs/seed004/values.ini --set workload.n=300
expect_rc 2 "seed004 n not a multiple of p"
expect_grep "n = 300 is not a positive multiple of p = 256" "$TMP/err" "seed004 n not a multiple of p"
run configs/seed004/sort.ini --set workload.op=sum
expect_rc 2 "op with kind sort"
expect_err "hremu: --set workload.op: op applies to workload kind values only, not sort (unset it)" "op with kind sort"
run --format csv configs/seed004/sort.ini --set machine.procs=32 --set "machine.topology=rh 3 1, hypercube" \
    --set workload.dataset=C
expect_rc 0 "seed004 sorts"
[ "$(col algorithm | tr '\n' ' ')" = "sort.rh_bitonic sort.rh_bitonic sort.bitonic sort.bitonic " ] && ok ||
    bad "seed004 sort rows: $(col algorithm | tr '\n' ' ')"
[ "$(col rounds | tr '\n' ' ')" = "17 17 15 15 " ] && ok || bad "seed004 sort steps: $(col rounds | tr '\n' ' ')"
run --format csv configs/seed004/sort.ini --set workload.n=1000 --set machine.topology=hypercube \
    --set run.algorithms=sort.bitonic --set machine.cost=cm5
expect_rc 1 "sort.bitonic with n not a multiple of p"
expect_err "hremu: sort.bitonic: P0: sort.bitonic needs n divisible by p (n = 1000, p = 256)" \
    "sort.bitonic with n not a multiple of p"

# The sort family: both sorts verify on dataset N; on R, radix sort verifies and counting sort
# refuses the 31-bit keys (exit 1, one message); a sort config that sets h is a config error.
run --format csv configs/examples/sort.ini --set workload.n=2^14 --set workload.dataset=N
expect_rc 0 "sort example"
[ "$(grep -c ',true,' "$TMP/out")" = 2 ] && ok || bad "sort example: both sorts verify"
run --format csv configs/examples/sort.ini --set workload.n=2^14 --set workload.dataset=R
expect_rc 1 "sort.counting on 31-bit keys"
expect_grep "use sort.radix" "$TMP/err" "sort.counting says what to use"
[ "$(wc -l < "$TMP/err")" = 1 ] && ok || bad "sort.counting refusal: one line, not $(wc -l < "$TMP/err")"
run --format csv configs/examples/sort.ini --set workload.h=4n/p
expect_rc 2 "h with kind sort"

# A user's own relation from a file, routed by every h-relation algorithm, and a bad line.
run --format csv --set machine.procs=4 --set workload.n=8 --set workload.h=0 \
    --set workload.distribution=file:tests/data/hrel_good.txt \
    --set run.algorithms=hrel.direct,hrel.two_phase,hrel.xor
expect_rc 0 "distribution file:"
[ "$(grep -c ',true,' "$TMP/out")" = 3 ] && ok || bad "distribution file: all three verify"
run --format csv --set machine.procs=2 --set workload.n=8 --set workload.h=0 \
    --set workload.distribution=file:tests/data/hrel_good.txt
expect_rc 2 "distribution file: with a SOURCE >= p"
expect_grep "tests/data/hrel_good.txt:" "$TMP/err" "file: errors name the file and line"
# A relative file: path in a config is beside the config, whatever the current directory; one
# from --set is relative to the current directory.
mkdir -p "$TMP/beside/data"
cp tests/data/hrel_good.txt "$TMP/beside/data/rel.txt"
printf '[machine]\nprocs = 4\n[workload]\nn = 8\ndistribution = file:data/rel.txt\n[run]\nalgorithms = hrel.direct\n' >"$TMP/beside/rel.ini"
run --format csv "$TMP/beside/rel.ini"
expect_rc 0 "file: beside the config, run from the checkout"
[ "$(col distribution)" = "file:$TMP/beside/data/rel.txt" ] && ok || bad "file: beside the config: distribution $(col distribution)"
ABS_BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
(cd "$TMP/beside/data" && "$ABS_BIN" --format csv ../rel.ini >"$TMP/out" 2>"$TMP/err"); rc=$?
expect_rc 0 "file: beside the config, run from another directory"
[ "$(col distribution)" = "file:../data/rel.txt" ] && ok || bad "file: from another directory: distribution $(col distribution)"
run --format csv "$TMP/beside/rel.ini" --set workload.distribution=file:tests/data/hrel_good.txt
expect_rc 0 "file: from --set is relative to the current directory"

# alltoall, random and seed 003's difficult h-relation, each routed by every h-relation
# algorithm (n written as the docs suggest), and a difficult h-relation on too few processors.
generated() {   # PROCS N H DISTRIBUTION
    run --format csv --set machine.procs="$1" --set workload.n="$2" --set workload.h="$3" \
        --set workload.distribution="$4" --set run.algorithms=hrel.direct,hrel.two_phase,hrel.xor
    expect_rc 0 "distribution $4"
    [ "$(grep -c ',true,' "$TMP/out")" = 3 ] && ok || bad "distribution $4: all three verify"
}
generated 8 'p*(p-1)' 0 alltoall
generated 16 '3*p' 3 random
generated 15 21 3 difficult
run --format csv --set machine.procs=14 --set workload.n=21 --set workload.h=3 \
    --set workload.distribution=difficult
expect_rc 2 "distribution difficult with too few processors"
expect_grep "needs p >= 15" "$TMP/err" "difficult names the least p"

run --format csv --out "$TMP/rows.csv" --set workload.n=2^12
expect_rc 0 "--out"
expect_empty "$TMP/out" "--out leaves stdout"
[ "$(head -n 1 "$TMP/rows.csv" | cut -d, -f1-16)" = "$HEADER" ] && ok || bad "--out file header"

# The model columns (every column but wall_s) of the default config are the same whatever the
# thread schedule: all cores, one core (taskset), or jitter on (HREMU_JITTER=1).
model_cols() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") w = i }
             { s = ""; for (i = 1; i <= NF; i++) if (i != w) s = s "," $i; print substr(s, 2) }' "$1"
}
# same_model NAME CMD...: CMD (a prefix to hremu) gives, for the default config, the model columns
# of the plain run in $TMP/plain.csv.
same_model() {
    name=$1
    shift
    "$@" "$BIN" configs/default.ini --format csv >"$TMP/m.csv" 2>"$TMP/err"
    rc=$?
    expect_rc 0 "default config, $name"
    if [ "$(wc -l <"$TMP/m.csv")" -eq 2 ] && [ "$(model_cols "$TMP/m.csv")" = "$(model_cols "$TMP/plain.csv")" ]; then
        ok
    else
        bad "model columns differ: plain run and $name"
        printf '    plain: %s\n    %s: %s\n' "$(model_cols "$TMP/plain.csv" | tail -n 1)" "$name" \
            "$(model_cols "$TMP/m.csv" | tail -n 1)"
    fi
}
"$BIN" configs/default.ini --format csv >"$TMP/plain.csv" 2>/dev/null
grep -q ',wall_s,' "$TMP/plain.csv" && ok || bad "no wall_s column in '$(head -n 1 "$TMP/plain.csv")'"
same_model "a second plain run" env
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
    same_model "taskset -c 0" taskset -c 0
else
    skipped "taskset missing (or CPU 0 not allowed): the one-core determinism case"
fi
same_model "HREMU_JITTER=1" env HREMU_JITTER=1

# Seed 003's rounds: the example config's three algorithms verify, off-line takes exactly h
# rounds, the model columns survive jitter, and an algorithm on a discipline it is not defined
# for is one line and status 2.
run --format csv configs/examples/rounds.ini
expect_rc 0 "rounds example"
[ "$(grep -c ',true,' "$TMP/out")" = 3 ] && ok || bad "rounds example: all three verify"
col algorithm >"$TMP/c1"; col rounds >"$TMP/c2"; col h >"$TMP/c3"
[ "$(paste -d, "$TMP/c1" "$TMP/c2" "$TMP/c3" | grep '^hrel.offline')" = "hrel.offline,31,31" ] && ok ||
    bad "rounds example: offline takes h rounds: $(grep offline "$TMP/out")"
cp "$TMP/out" "$TMP/rounds.csv"
HREMU_JITTER=1 "$BIN" configs/examples/rounds.ini --format csv >"$TMP/m.csv" 2>"$TMP/err"
[ "$(model_cols "$TMP/m.csv")" = "$(model_cols "$TMP/rounds.csv")" ] && ok ||
    bad "rounds example: model columns differ with HREMU_JITTER=1"
run configs/examples/rounds.ini --set machine.procs=4 --trace "$TMP/trace.csv"
expect_rc 0 "--trace"
[ "$(head -n 1 "$TMP/trace.csv")" = "row,algorithm,event,proc,peer,msg,t0_s,t1_s,bytes,tag,priority,queue,round,fate,name,link" ] && ok || bad "--trace header"
[ "$(col row "$TMP/trace.csv" | sort -u | tr '\n' ' ')" = "0 1 2 " ] && ok || bad "--trace: the three rows"
# off-line: 12 messages, 3 rounds, every one delivered in its round
# hrel.offline delivers each of the 12 messages of the all-to-all on 4 once, in 3 rounds
[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
              $c["algorithm"] == "hrel.offline" && $c["fate"] == "delivered" { n++; r[$c["round"]] = 1 }
              END { print n, length(r) }' "$TMP/trace.csv")" = "12 3" ] && ok ||
    bad "--trace: offline's 12 deliveries in 3 rounds"
# --rounds: the off-line schedule of the all-to-all on 4 delivers 4 messages in each of 3 rounds,
# nothing queued or lost; the boards are the same under jitter.
run configs/examples/rounds.ini --set machine.procs=4 --set machine.discipline=fifo --set run.algorithms=hrel.offline --rounds "$TMP/boards.txt"
expect_rc 0 "--rounds"
[ "$(grep -c '^round ' "$TMP/boards.txt")" = 3 ] && ok || bad "--rounds: 3 rounds"
[ "$(grep -c 'delivered 4, queued 0, lost 0, destroyed 0; stalled: none' "$TMP/boards.txt")" = 3 ] && ok ||
    bad "--rounds: 4 delivered a round: $(grep delivered "$TMP/boards.txt")"
[ "$(sed -n '/^round 1 /,/^  delivered/p' "$TMP/boards.txt" | grep -c '^  from .*D')" = 4 ] && ok ||
    bad "--rounds: every sender delivers in round 1"
HREMU_JITTER=1 "$BIN" configs/examples/rounds.ini --set machine.procs=4 --set machine.discipline=fifo \
    --set run.algorithms=hrel.offline --rounds "$TMP/boards2.txt" >/dev/null 2>&1
cmp -s "$TMP/boards.txt" "$TMP/boards2.txt" && ok || bad "--rounds: the same under jitter"
# The tutorial's walk (docs/tutorial.md, "Change the discipline"): under arbitrary write every
# receiver column of a board holds at most one D, and the lost messages are sent again
# (messages = the relation's 56 + lost); under fifo nothing is lost and each board's counts add
# up to its letters. The figures the tutorial quotes are the ones printed.
TEACH=configs/teaching/disciplines.ini
run $TEACH --set machine.discipline=arbitrary --set run.algorithms=hrel.aw_uniform --rounds "$TMP/aw.txt" --format csv
expect_rc 0 "tutorial: arbitrary"
[ "$(col lost)" = 21 ] && [ "$(col messages)" = 77 ] && [ "$(col rounds)" = 12 ] && ok ||
    bad "tutorial: aw_uniform lost $(col lost), messages $(col messages), rounds $(col rounds); docs/tutorial.md says 21, 77, 12"
run $TEACH --set machine.discipline=fifo --set run.algorithms=hrel.fifo_staged --rounds "$TMP/fifo.txt" --format csv
expect_rc 0 "tutorial: fifo"
[ "$(col lost)" = 0 ] && [ "$(col stalls)" = 24 ] && [ "$(col rounds)" = 12 ] && ok ||
    bad "tutorial: fifo_staged lost $(col lost), stalls $(col stalls), rounds $(col rounds); docs/tutorial.md says 0, 24, 12"
python3 - "$TMP/aw.txt" "$TMP/fifo.txt" <<'PY' && ok || bad "tutorial: the boards' letters and counts"
import re, sys
def boards(path):
    out, cur = [], None
    for line in open(path):
        if line.startswith("round "):
            cur = {"cells": []}; out.append(cur)
        elif cur is not None and line.strip().startswith("from"):
            cur["cells"].append(line.split()[2:])
        elif cur is not None and line.strip().startswith("delivered "):
            cur["counts"] = {w: int(n) for w, n in
                             re.findall(r"(delivered|queued|lost|destroyed) (\d+)", line)}
    return out
aw, ff = boards(sys.argv[1]), boards(sys.argv[2])
assert len(aw) == 12 and len(ff) == 12
for b in aw:
    cols = list(zip(*b["cells"]))
    assert all(c.count("D") <= 1 for c in cols)
    flat = sum(b["cells"], [])
    assert b["counts"]["delivered"] == flat.count("D") and b["counts"]["lost"] == flat.count("L")
for b in ff:
    flat = sum(b["cells"], [])
    assert "L" not in flat
    assert b["counts"]["delivered"] == flat.count("D") + flat.count("d")
    assert b["counts"]["queued"] == flat.count("Q")
assert sum(b["counts"]["lost"] for b in aw) == 21
PY
run configs/examples/sweep.ini --set run.repeat=1 --set machine.procs=4 --rounds "$TMP/none.txt"
expect_rc 0 "--rounds on async"
expect_grep "no row runs a round discipline" "$TMP/err" "--rounds on async says so"
run configs/examples/rounds.ini --set machine.procs=4 --html -
expect_rc 2 "--html -"
expect_err "hremu: --html writes a page to a file, not to standard output (hremu --help shows the usage)" "--html -"
run configs/examples/rounds.ini --set machine.procs=4 --html "$TMP/page.html"
expect_rc 0 "--html"
[ "$(grep -c '^{title:' "$TMP/page.html")" = 3 ] && ok || bad "--html: a row each"
run configs/examples/rounds.ini --trace "$TMP/no/such/dir/trace.csv"
expect_rc 2 "--trace into a missing directory"
expect_grep "cannot open" "$TMP/err" "--trace names the problem"

# A sweep crossing algorithms with disciplines skips the pairs an algorithm is not defined for and
# says so on stderr; a sweep of nothing but such pairs is an error.
run configs/examples/rounds.ini --set machine.discipline=fifo --format csv
expect_rc 0 "pq_random under fifo, with others"
expect_err "hremu: skipped 1 of 3 rows whose algorithm does not take the discipline, cost model, workload kind, topology or procs; the first: configs/examples/rounds.ini:22: hrel.pq_random is not defined for discipline fifo (it needs priorities)" \
    "a skipped row is said"
[ "$(col algorithm | tr '\n' ' ')" = "hrel.fifo_staged hrel.offline " ] && ok || bad "skipped: rows $(col algorithm)"
run configs/examples/rounds.ini --set machine.discipline=fifo,arbitrary --set machine.procs=8 --format csv
expect_rc 0 "rounds algorithms crossed with two disciplines"
[ "$(col discipline | tr '\n' ' ')" = "fifo fifo arbitrary " ] && ok ||
    bad "crossed: rows $(col algorithm | tr '\n' ' ')/$(col discipline | tr '\n' ' ')"
expect_grep "skipped 3 of 6 rows" "$TMP/err" "crossed: three skipped"
run configs/examples/rounds.ini --set machine.discipline=fifo --set run.algorithms=hrel.pq_random
expect_rc 2 "pq_random under fifo alone"
expect_err "hremu: --set run.algorithms: hrel.pq_random is not defined for discipline fifo (it needs priorities)" \
    "an algorithm on a discipline it is not for"
run configs/examples/rounds.ini --set machine.discipline=async --set run.algorithms=hrel.offline
expect_rc 2 "offline under async"
expect_err "hremu: --set run.algorithms: hrel.offline is not defined for discipline async (it needs rounds)" \
    "a round algorithm under a point-to-point discipline: needs rounds"
run configs/default.ini --set machine.discipline=sync --set run.algorithms=hrel.xor
expect_rc 2 "hrel.xor under sync"
expect_err "hremu: --set run.algorithms: hrel.xor is not defined for discipline sync (it needs sends that complete at once)" \
    "xor under rendezvous"

# A section for an algorithm that is not in the run is a warning, and the run goes on (a --set
# of a key of that section makes the section).
run configs/examples/rounds.ini --set run.algorithms=hrel.offline --set hrel.fifo_staged.K=2 --format csv
expect_rc 0 "a section for an algorithm not in the run"
expect_err "hremu: --set hrel.fifo_staged.K: warning: [hrel.fifo_staged] is set but hrel.fifo_staged is not in [run] algorithms; its keys are not used" \
    "the unused section's warning"

# Model time that passes the clock's range (a day of latency per message, p - 1 steps) fails
# the row with status overflow, exit 1, and says why; it is never a verified row.
run --format csv --set run.algorithms=hrel.xor --set machine.tau=86400 --set machine.procs=128,256 \
    --set workload.n=2^14 --set run.repeat=1
expect_rc 1 "model time past the clock's range"
[ "$(col status | tr '\n' ' ')" = "overflow overflow " ] && ok || bad "overflow: status $(col status)"
[ "$(col model_time_s | tr '\n' ' ')" = "inf inf " ] && ok || bad "overflow: model_time_s $(col model_time_s)"
expect_grep "model time passes the end of the clock's range" "$TMP/err" "overflow says why"

# compute = measured is documented as nondeterministic: repeats are not compared, and the row
# shows the median.
run --format csv --set machine.compute=measured --set run.repeat=3 --set workload.n=2^14
expect_rc 0 "compute = measured, repeat = 3"
[ "$(col status),$(col compute),$(col repeat)" = "ok,measured,3" ] && ok ||
    bad "compute = measured: $(tail -n 1 "$TMP/out")"

# Every setting that varies between rows appears in the rows.
run --format csv --set machine.tau=1e-5,2e-5 --set machine.buffer=unlimited,64K --set workload.n=2^12 \
    --set run.repeat=1
expect_rc 0 "settings sweep"
[ "$(sort -u "$TMP/out" | wc -l)" -eq 5 ] && ok || bad "settings sweep: rows look alike"
[ "$(col tau | tr '\n' ' ')" = "1e-05 2e-05 1e-05 2e-05 " ] && ok || bad "tau column: $(col tau)"
[ "$(col buffer | tr '\n' ' ')" = "unlimited unlimited 65536 65536 " ] && ok || bad "buffer column: $(col buffer)"
[ "$(col distribution | sort -u)" = "skewed" ] && ok || bad "distribution column: $(col distribution)"
# A key that applies to some rows of a sweep applies to those (docs/config.md, "Sweeps"); the
# others run without it, their column empty.
run --format csv --set machine.discipline=async,eager,sync --set machine.eager_limit=1K \
    --set machine.buffer=2K --set workload.n=2^12 --set run.algorithms=hrel.direct --set run.repeat=1
expect_rc 0 "a sweep with keys for some of its rows"
[ "$(col discipline | tr '\n' ' ')" = "async eager sync " ] && ok || bad "discipline column: $(col discipline)"
[ "$(col eager_limit | tr '\n' ' ')" = " 1024  " ] && ok || bad "eager_limit column: $(col eager_limit)"
[ "$(col buffer | tr '\n' ' ')" = "2048   " ] && ok || bad "buffer column: $(col buffer)"
# The note on collectives names a row's buffer only where it is bounded: sync has none.
run --format csv --set machine.discipline=sync --set workload.n=2^12 --set run.algorithms=hrel.direct \
    --set run.repeat=1
expect_rc 0 "hrel.direct under sync"
[ "$(grep -c 'the first: hrel.direct, discipline sync$' "$TMP/err")" -eq 1 ] && ok ||
    bad "the note on collectives under sync: $(cat "$TMP/err")"
run --format csv --set workload.kind=exchange,hrelation --set workload.bytes=1K \
    --set workload.distribution=random --set workload.h=4 --set workload.n=4p \
    --set run.algorithms=xchg.pex,hrel.direct --set run.repeat=1
expect_rc 0 "a sweep of kinds with a key of each"
[ "$(col algorithm | tr '\n' ' ')" = "xchg.pex hrel.direct " ] && ok || bad "kinds sweep: $(col algorithm)"
[ "$(col h | tr '\n' ' ')" = "15360 4 " ] && ok || bad "kinds sweep: h column $(col h)"
run --format csv configs/examples/sort.ini --set workload.n=2^12 --set workload.dataset=N,S \
    --set run.algorithms=sort.radix --set sort.radix.r=8,11
expect_rc 0 "sort settings sweep"
[ "$(col dataset | tr '\n' ' ')" = "N N S S " ] && ok || bad "dataset column: $(col dataset)"
[ "$(col params | tr '\n' ' ')" = "r=8 r=11 r=8 r=11 " ] && ok || bad "params column: $(col params)"

# A row that cannot fit in memory is refused before anything is made, with both figures.
run --set workload.n=2^40
expect_rc 2 "a row too big for the box"
grep -q "^hremu: configs/default.ini:[0-9]*: workload hrelation, n = 1099511627776, h = 274877906944, distribution skewed, procs = 16 needs about .* of memory, more than the .* available on this box" "$TMP/err" &&
    [ "$(wc -l <"$TMP/err")" -eq 1 ] && ok || bad "too big: $(cat "$TMP/err")"
HREMU_MEMORY=10M "$BIN" configs/default.ini >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 2 "HREMU_MEMORY"
expect_err "hremu: configs/default.ini:10: workload hrelation, n = 1048576, h = 262144, distribution skewed, procs = 16 needs about 33.1 MiB of memory, more than the 10.0 MiB that HREMU_MEMORY allows: lower n or procs" \
    "HREMU_MEMORY's refusal"
# HREMU_JITTER takes 1 or 0 (or nothing); another value was taken as 1 without a word.
HREMU_JITTER=yes "$BIN" configs/default.ini >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 2 "HREMU_JITTER=yes"
expect_err "hremu: HREMU_JITTER='yes': give 1 (yield and sleep at random at every communication point) or 0" \
    "HREMU_JITTER=yes: why"
[ ! -s "$TMP/out" ] && ok || bad "HREMU_JITTER=yes: rows written"
HREMU_JITTER=0 "$BIN" configs/teaching/torus.ini --set run.repeat=1 >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 0 "HREMU_JITTER=0"
# xchg.lex sends every pair's message before its receivers take them (pairs_in_flight): a record
# and the bytes a pair besides the all-to-all's are counted, so at p = 1024 it is refused where
# xchg.pex, whose receivers keep up, still fits (xchg.lex peaks at 487 MB at p = 2048).
HREMU_MEMORY=150M "$BIN" configs/teaching/torus.ini --set machine.engine=fibers --set machine.procs=1024 \
    --set workload.bytes=8 --set run.algorithms=xchg.lex,xchg.pex --set machine.topology=complete \
    --set run.repeat=1 --format csv --columns algorithm,verified >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 0 "xchg.lex's messages in flight"
[ "$(tr '\n' ' ' <"$TMP/out")" = "algorithm,verified xchg.pex,true " ] && ok ||
    bad "xchg.lex's messages in flight: rows $(tr '\n' ' ' <"$TMP/out")"
expect_grep "xchg.lex may send a message between every pair of its 1024 processors: about 308.0 MiB of memory, more than the 150.0 MiB that HREMU_MEMORY allows" \
    "$TMP/err" "xchg.lex's messages in flight: why"

# A parameter that does not suit the machine (hr_algorithm.check) is a config error before any
# machine is built: one line naming the parameter's line, exit 2 (it used to be exit 1 and a
# line from each of the 256 processors). In a sweep such points are skipped and counted, as an
# unfit discipline is; only if every row is refused is it an error.
cat >"$TMP/rows.ini" <<'INI'
[machine]
procs = 256
[workload]
kind = values
dataset = int
n = 768
[run]
algorithms = bcast.linear
[bcast.linear]
rows = 3
INI
run "$TMP/rows.ini"
expect_rc 2 "bcast.linear rows = 3 at p = 256"
expect_err "hremu: $TMP/rows.ini:10: bcast.linear on procs = 256, topology complete: rows = 3 does not divide p = 256" \
    "bcast.linear rows = 3 at p = 256"
run "$TMP/rows.ini" --format csv --set machine.procs=6,256
expect_rc 0 "bcast.linear rows = 3 swept over p = 6, 256"
[ "$(col procs | tr '\n' ' ')" = "6 " ] && ok || bad "rows = 3 sweep rows: $(col procs | tr '\n' ' ')"
expect_err "hremu: skipped 1 of 2 rows whose algorithm does not take the discipline, cost model, workload kind, topology or procs; the first: $TMP/rows.ini:10: bcast.linear on procs = 256, topology complete: rows = 3 does not divide p = 256" \
    "bcast.linear rows = 3 swept over p = 6, 256"
run configs/seed001/fig5.ini --format csv --set machine.procs=24 --set workload.bytes=256 \
    --set machine.topology=fattree
expect_rc 0 "xchg.rex at p = 24"
[ "$(col algorithm | tr '\n' ' ')" = "xchg.lex xchg.pex xchg.bex " ] && ok ||
    bad "fig5 at p = 24: $(col algorithm | tr '\n' ' ')"
expect_err "hremu: skipped 1 of 4 rows whose algorithm does not take the discipline, cost model, workload kind, topology or procs; the first: configs/seed001/fig5.ini:18: xchg.rex on procs = 24, topology fattree: xchg.rex needs p a power of two (seed 001 Figure 3), not 24" \
    "xchg.rex at p = 24"

# HREMU_MEMORY that is not a size is refused, not ignored.
for v in 12QB -1 "" 1e400 0 " 5M" 99999999999999999999T; do
    HREMU_MEMORY="$v" "$BIN" configs/default.ini >"$TMP/out" 2>"$TMP/err"
    rc=$?
    expect_rc 2 "HREMU_MEMORY='$v'"
    expect_err "hremu: HREMU_MEMORY = '$v' is not a size: give bytes above 0, or a number with K, M, G or T (512M, 8G)" \
        "HREMU_MEMORY='$v'"
done

# The check before the first row builds no machine: a sweep of nine points of 4,096 processors
# and a tenth, none of whose workloads can be made, is refused at once (building the nine
# machines to check them took 36,864 threads, 3.4 s and 434 MB here).
start=$(date +%s)
run --set machine.procs=4096,4096,4096,4096,4096,4096,4096,4096,4096,14 --set workload.n=22 \
    --set workload.distribution=difficult --set workload.h=3
expect_rc 2 "a big sweep's bad point"
expect_err "hremu: configs/default.ini:10: workload hrelation, n = 22, h = 3, distribution difficult, procs = 4096: distribution difficult with h = 3 has n = h^3 - h^2 + h = 21 elements; n = 22" "a big sweep's bad point says why"
[ $(($(date +%s) - start)) -le 2 ] && ok || bad "a big sweep's bad point took $(($(date +%s) - start)) s"

# Topologies: a shape that fixes p gives procs when it is left out; every h-relation algorithm
# verifies on each topology, with the same model columns under jitter; bad shapes are one line.
run "$D/mesh.ini" --format csv
expect_rc 0 "mesh 4x8 without procs"
[ "$(col procs | sort -u),$(col topology | sort -u),$(grep -c ',true,' "$TMP/out")" = "32,mesh 4x8,3" ] && ok ||
    bad "mesh 4x8 without procs: $(cat "$TMP/out")"
for topo in ring hypercube "torus 4x4" "torus 2x2x4" "mesh 4x4" fattree "rh 2 1"; do
    run --format csv --set machine.topology="$topo" --set machine.hop=1e-6 --set workload.n=2^12 \
        --set run.algorithms=hrel.direct,hrel.two_phase,hrel.xor --set run.repeat=1
    expect_rc 0 "topology $topo"
    cp "$TMP/out" "$TMP/topo.csv"
    HREMU_JITTER=1 "$BIN" --format csv --set machine.topology="$topo" --set machine.hop=1e-6 \
        --set workload.n=2^12 --set run.algorithms=hrel.direct,hrel.two_phase,hrel.xor \
        --set run.repeat=1 >"$TMP/m.csv" 2>/dev/null
    [ "$(model_cols "$TMP/m.csv")" = "$(model_cols "$TMP/topo.csv")" ] && ok ||
        bad "topology $topo: model columns differ with HREMU_JITTER=1"
done
# Discipline sync on a topology with links: a rendezvous is routed from when both sides are ready.
for j in 0 1; do
    HREMU_JITTER=$j "$BIN" --format csv --set machine.topology="torus 4x4" --set machine.discipline=sync \
        --set workload.n=2^12 --set run.algorithms=hrel.direct,hrel.two_phase --set run.repeat=1 \
        >"$TMP/sync$j.csv" 2>"$TMP/err"
done
[ "$(grep -c ',true,' "$TMP/sync0.csv")" = 2 ] && ok || bad "sync on torus 4x4: $(cat "$TMP/sync0.csv" "$TMP/err")"
[ "$(model_cols "$TMP/sync1.csv")" = "$(model_cols "$TMP/sync0.csv")" ] && ok ||
    bad "sync on torus 4x4: model columns differ with HREMU_JITTER=1"
# fattree_bw: one list (not a sweep) of the fat tree's per-level bandwidths, shown in the row.
run --format csv --set machine.topology=fattree --set machine.fattree_bw=20M,10M,1M --set workload.n=2^12
expect_rc 0 "fattree_bw"
[ "$(col topology)" = "fattree 20M 10M 1M" ] && ok || bad "fattree_bw: topology column $(col topology)"
run --set machine.fattree_bw=1M
expect_rc 2 "fattree_bw on complete"
expect_err "hremu: --set machine.fattree_bw: fattree_bw applies to topology fattree (with no bandwidths of its own), not complete" "fattree_bw on complete"
run --set machine.topology="mesh 3x5"
expect_rc 2 "mesh 3x5 with procs = 16"
expect_err "hremu: configs/default.ini:4: procs = 16, but topology mesh 3x5 needs procs = 15 (or set procs = auto)" "mesh 3x5 with procs = 16"
# procs = auto: the p a shape fixes, as when procs is left out of the file; an error where the
# shape fixes none.
run --format csv --set machine.topology="mesh 3x5" --set machine.procs=auto --set workload.n=15*15*4 --set workload.h=n/p --set run.repeat=1
expect_rc 0 "procs = auto on mesh 3x5"
[ "$(col procs)" = 15 ] && ok || bad "procs = auto on mesh 3x5: procs $(col procs)"
run --set machine.procs=auto
expect_rc 2 "procs = auto on complete"
expect_err "hremu: --set machine.procs: procs = auto: topology complete does not fix p; auto takes it from a shape that does (mesh 4x8, torus 4x4x4, rh 2 1)" "procs = auto on complete"
# A sweep point whose settings do not go together is skipped and counted, as unfit algorithms
# are: skewed needs h | 2n (p = 6: h = 4n/p = 2730 does not), a hypercube a power of two.
run --format csv --set machine.procs=4,6,8 --set workload.n=2^12 --set run.repeat=1
expect_rc 0 "a sweep with one invalid point"
[ "$(col procs | tr '\n' ' ')" = "4 8 " ] && ok || bad "a sweep with one invalid point: procs $(col procs | tr '\n' ' ')"
expect_err "hremu: skipped 1 of 3 rows whose settings do not go together; the first: configs/default.ini:10: workload hrelation, n = 4096, h = 2730, distribution skewed, procs = 6: eq. (7) needs 2n/h to be a whole number: h = 2730 does not divide 2n = 8192" "a sweep with one invalid point"
run --format csv --set machine.topology=hypercube --set machine.procs=8,12 --set workload.n=2^12 \
    --set workload.h=n/p --set run.algorithms=hrel.direct,hrel.xor --set run.repeat=1
expect_rc 0 "a sweep with an invalid machine"
[ "$(col procs | tr '\n' ' ')" = "8 8 " ] && ok || bad "a sweep with an invalid machine: procs $(col procs | tr '\n' ' ')"
expect_grep "hremu: skipped 2 of 4 rows whose settings do not go together; the first: configs/default.ini:3: machine of procs = 12, topology hypercube" "$TMP/err" "a sweep with an invalid machine"
# n may use h: the h of distribution random swept with n = p*h.
run --format csv --set machine.procs=8 --set machine.discipline=fifo --set workload.distribution=random \
    --set workload.n=p*h --set workload.h=2,3 --set run.algorithms=hrel.offline --set run.repeat=1
expect_rc 0 "n = p*h"
[ "$(col n | tr '\n' ' ')$(col h | tr '\n' ' ')" = "16 24 2 3 " ] && ok || bad "n = p*h: n $(col n | tr '\n' ' ')h $(col h | tr '\n' ' ')"
run --set workload.n=p*h --set workload.h=n/p
expect_rc 2 "n and h use each other"
expect_err "hremu: --set workload.h: h = n/p: h uses n, and n = p*h uses h: one of them must not" "n and h use each other"
run --set workload.n=4h --set workload.kind=sort --set workload.dataset=R --set workload.h=0 --set run.algorithms=sort.radix
expect_rc 2 "n uses h, kind sort"
# --set with a space instead of '=': say so, not "more than one config file".
run --set machine.procs 8
expect_rc 2 "--set without '='"
expect_err "hremu: --set machine.procs: no '=' in it: write --set machine.procs=8 (--set SECTION.KEY=VALUE, one word)" "--set without '='"
run --set machine.procs --quiet
expect_rc 2 "--set without '=' before an option"
expect_err "hremu: --set machine.procs: no '=' in it: write --set SECTION.KEY=VALUE" "--set without '=' before an option"
run --set machine.topology=hypercube --set machine.procs=12
expect_rc 2 "hypercube with p = 12"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && expect_grep "power of two" "$TMP/err" "hypercube with p = 12" ||
    bad "hypercube with p = 12: $(cat "$TMP/err")"
for shape in "torus 0x4" "torus 4x4 junk" "mesh 4" "cube"; do
    run --set machine.topology="$shape"
    expect_rc 2 "topology $shape"
    [ "$(wc -l <"$TMP/err")" -eq 1 ] && ok || bad "topology $shape: $(cat "$TMP/err")"
done

# --topology prints a topology's figures, by hand: the hypercube on 64 processors has 64*6
# directed links, degree 6, diameter 6, average distance 6*32/63 and bisection 32; the 8x8 torus
# 256 links, diameter 8, average 4*64/63 and bisection 16.
run --topology hypercube --procs 64 --format csv
expect_rc 0 "--topology hypercube"
[ "$(tail -n 1 "$TMP/out")" = "hypercube,64,0,384,6,6,6,3.0476,32,-,-,-,-" ] && ok || bad "--topology hypercube: $(cat "$TMP/out")"
[ "$(head -n 1 "$TMP/out")" = "topology,procs,switches,directed_links,degree_min,degree_max,diameter,avg_distance,bisection_edges,dilation_max,dilation_avg,theorem_max,theorem_avg" ] && ok ||
    bad "--topology header: $(head -n 1 "$TMP/out")"
run --topology "torus 8x8" --format json
expect_rc 0 "--topology torus 8x8"
expect_grep '{"topology":"torus 8x8","procs":64,"switches":0,"directed_links":256,"degree_min":4,"degree_max":4,"diameter":8,"avg_distance":4.0635,"bisection_edges":16,"dilation_max":null,"dilation_avg":null,"theorem_max":null,"theorem_avg":null}' "$TMP/out" "--topology torus 8x8 json"
# A mesh has a bisection width whatever its sides: 3x3 splits 4 | 5 across a jog, 4 edges (12
# directed links of its 24 stay inside; by hand).
run --topology "mesh 3x3" --format csv
expect_rc 0 "--topology mesh 3x3"
[ "$(tail -n 1 "$TMP/out")" = "mesh 3x3,9,0,24,2,4,4,2.0000,4,-,-,-,-" ] && ok || bad "--topology mesh 3x3: $(cat "$TMP/out")"
# The reduced hypercube RH(3,1): 32 nodes of degree 4; the hypercube's dilation on it, by BFS,
# is seed 004's 3 (2n+1) and 7/5 ((k + (n+1) 2^n) / (k + 2^n)).
run --topology "rh 3 1" --format csv
expect_rc 0 "--topology rh 3 1"
[ "$(tail -n 1 "$TMP/out")" = "rh 3 1,32,0,128,4,4,6,3.0968,-,3,1.4000,3,1.4000" ] && ok || bad "--topology rh 3 1: $(cat "$TMP/out")"
run --topology "rh 1 2"
expect_rc 2 "--topology rh 1 2"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && ok || bad "rh 1 2: $(cat "$TMP/err")"
run --topology "mesh 3x5" --procs 16
expect_rc 2 "--topology mesh 3x5 --procs 16"
expect_err "hremu: --topology mesh 3x5: topology mesh 3x5 needs procs = 15 (it is 16)" "--topology mesh 3x5 --procs 16"
run --topology hypercube
expect_rc 2 "--topology hypercube without --procs"
expect_err "hremu: --topology hypercube: topology hypercube does not fix p: give procs" "--topology hypercube without --procs"

# A device or a pipe is not a relation file.
run --set workload.distribution=file:/dev/zero --set workload.h=0
expect_rc 2 "file:/dev/zero"
[ "$(wc -l <"$TMP/err")" -eq 1 ] && ok || bad "file:/dev/zero: $(cat "$TMP/err")"

# Inputs are bounded by what they hold. A 70-byte Matrix Market file declaring 2^32 - 1 rows and
# no entries is an empty pattern: it runs, in well under a second and a few MB (it took over 60 s
# and 8.5 GB when the pattern kept a word a row). /usr/bin/time measures time and peak RSS.
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%e %M" -o "$TMP/time" "$BIN" configs/seed001/table12.ini --format csv \
        --set workload.pattern=file:$D/mtx/huge_empty.mtx >"$TMP/out" 2>"$TMP/err"
    rc=$?
    expect_rc 0 "a matrix of 2^32 - 1 rows and no entries"
    [ "$(col bytes | sort -u)" = "0" ] && ok || bad "huge empty matrix: bytes $(col bytes | tr '\n' ' ')"
    awk '{ exit !($1 < 2 && $2 < 200 * 1024) }' "$TMP/time" && ok ||
        bad "a matrix of 2^32 - 1 rows and no entries took $(cat "$TMP/time") (s, KB)"
else
    skipped "no /usr/bin/time: the huge empty matrix's time and memory are not measured"
fi
# A relation file longer than n is refused at its element line n + 1, not read to its end: here
# 5 lines for n = 4 and then half a million more.
awk 'BEGIN { for (g = 0; g < 500005; g++) print g % 4, (g + 1) % 4, g }' >"$TMP/long.txt"
run --set machine.procs=4 --set workload.n=4 --set workload.h=0 \
    --set workload.distribution=file:$TMP/long.txt
expect_rc 2 "a relation file longer than n"
expect_err "hremu: configs/default.ini:10: workload hrelation, n = 4, h = 0, distribution file:$TMP/long.txt, procs = 4: $TMP/long.txt:5: more element lines than n = 4: n must equal the number of element lines" \
    "a relation file longer than n"

# 1024 processors (threads) on a few cores: verifies and exits 0, in seconds (a minute at most:
# `timeout` turns a hang into a failure). TSan makes this take many minutes (here 512 threads:
# 17 s, 1024: over 10 min), so under TSan p is 256.
P_BIG=1024
grep -q __tsan_init "$BIN" 2>/dev/null && P_BIG=256 && echo "note: ThreadSanitizer build: procs = 1024 case runs with procs = 256"
TIMEOUT=""
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 60"
$TIMEOUT "$BIN" configs/default.ini --format csv --set machine.procs=$P_BIG --set workload.n=65536 \
    --set workload.distribution=uniform --set workload.h=0 --set run.repeat=1 >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 124 ] && [ -n "$TIMEOUT" ] && echo "note: procs = $P_BIG: timed out after 60 s"
expect_rc 0 "procs = $P_BIG"
tail -n 1 "$TMP/out" | awk -F, -v p=$P_BIG '$1 == "hrel.direct" && $2 == p && $3 == 65536 && $16 == "true"' |
    grep -q . && ok ||
    bad "procs = $P_BIG row: $(tail -n 1 "$TMP/out")"

# ---- usage and config errors: status 2, one line, nothing run -------------------------------
run "$D/no_such.ini"
expect_rc 2 "missing file"
expect_err "hremu: $D/no_such.ini: cannot open: No such file or directory" "missing file"
expect_empty "$TMP/out" "missing file stdout"
# A config that is a FIFO or a directory is refused without opening it (a FIFO would wait for
# a writer forever: `timeout` turns a hang into a failure).
mkfifo "$TMP/fifo.ini"
TIMEOUT5=""
command -v timeout >/dev/null 2>&1 && TIMEOUT5="timeout 5"
$TIMEOUT5 "$BIN" "$TMP/fifo.ini" >"$TMP/out" 2>"$TMP/err"
rc=$?
expect_rc 2 "a FIFO as the config"
expect_err "hremu: $TMP/fifo.ini: is a FIFO (named pipe), not a regular file" "a FIFO as the config"
run "$D"
expect_rc 2 "a directory as the config"
expect_err "hremu: $D: is a directory, not a regular file" "a directory as the config"

run "$D/bad_unknown_key.ini"
expect_rc 2 "bad key"
expect_err "hremu: $D/bad_unknown_key.ini:4: unknown key 'prcs' in [machine] (keys: procs, topology, fattree_bw, switching, discipline, buffer, eager_limit, cost_model, cost, tau, sigma, overhead, hop, gap, compute_unit, compute, seed, engine, stack, carriers)" "bad key"

run "$D/bad_procs.ini"
expect_rc 2 "p > 2^20 in a file"
expect_err "hremu: $D/bad_procs.ini:2: procs = 1048577: must be 1 .. 1048576 (it is 1048577)" "p > 2^20"

run --set machine.procs=1048577
expect_rc 2 "p > 2^20 by --set"
expect_err "hremu: --set machine.procs: procs = 1048577: must be 1 .. 1048576 (it is 1048577)" "--set p"
expect_empty "$TMP/out" "p > 2^20 stdout"

# Threads take up to 4096 processors; fibers more.
run --set machine.procs=8192 --set workload.n=8192 --set run.algorithms=hrel.pq_random \
    --set machine.discipline=priority --set workload.distribution=random --set workload.h=1
expect_rc 2 "p > 4096 on threads"
expect_err "hremu: --set machine.procs: procs = 8192: engine threads runs up to 4096 processors, a POSIX thread each: set engine = fibers" "p > 4096 on threads says why"
# engine = auto: threads up to 256 processors, fibers above, and it says which on stderr. Under
# TSan, which keeps a thread's state for every fiber (1024 of them: 20 GB and 3 minutes on one carrier),
# just above the threshold.
P_AUTO=1024
[ "$P_BIG" -lt 1024 ] && P_AUTO=260
run --set machine.engine=auto --set machine.procs=16,$P_AUTO --set run.algorithms=hrel.two_phase \
    --set workload.n=4096 --set workload.distribution=uniform --set workload.h=0 --format csv \
    --columns procs,engine,verified
expect_rc 0 "engine = auto"
[ "$(tr '\n' ' ' <"$TMP/out")" = "procs,engine,verified 16,threads,true $P_AUTO,fibers,true " ] && ok ||
    bad "engine = auto rows: $(tr '\n' ' ' <"$TMP/out")"
[ "$(tr '\n' ' ' <"$TMP/err")" = "hremu: engine = auto: threads for procs = 16 hremu: engine = auto: fibers for procs = $P_AUTO " ] &&
    ok || bad "engine = auto says: $(cat "$TMP/err")"

# A machine the library refuses for one key's figure names the place that set the key.
run configs/teaching/contention.ini --set machine.tau=1e-20
expect_rc 2 "tau below a picosecond"
expect_err "hremu: --set machine.tau: machine of procs = 8, topology complete, discipline async: tau must be at least one picosecond" \
    "tau below a picosecond: where"

# A size written another way than K, M, G says how to write it.
run configs/teaching/contention.ini --set machine.engine=fibers --set machine.stack=64KB
expect_rc 2 "stack = 64KB"
expect_err "hremu: --set machine.stack: stack = 64KB: a size is a number of bytes with K, M or G after it (powers of 1024: 64K, 1M), or an expression of them" \
    "stack = 64KB"

# Fiber stacks past the address space are refused before anything runs, saying so (they were
# "out of memory" after the header was written).
run configs/seed004/values.ini --set machine.engine=fibers --set machine.procs=262144 \
    --set machine.stack=1G --set machine.topology=hypercube --set run.algorithms=bcast.binomial
expect_rc 2 "fiber stacks past the address space"
expect_grep "262144 fiber stacks of 1048576 KiB with their 64 KiB guards take 256 TiB of address space, more than 32 TiB: lower stack or procs" \
    "$TMP/err" "fiber stacks past the address space: why"
expect_empty "$TMP/out" "fiber stacks past the address space: no header"

# A bad point late in a sweep stops everything before the first row runs.
run --set machine.procs=2,4,5000 --format csv
expect_rc 2 "bad sweep point"
expect_empty "$TMP/out" "bad sweep point stdout"

run --set machine.buffer=4096 --set machine.discipline=sync --format csv
expect_rc 2 "buffer with sync"
grep -Eq '^hremu: --set machine\.(buffer|discipline): .*sync' "$TMP/err" && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
    ok || bad "buffer with sync: stderr is '$(cat "$TMP/err")', want one line on --set machine.buffer"
expect_empty "$TMP/out" "buffer with sync stdout"

run "$D/bad_transpose.ini"
expect_rc 2 "workload preflight"
grep -q "^hremu: $D/bad_transpose.ini:1: workload hrelation, n = 1000" "$TMP/err" && ok ||
    bad "workload preflight: $(cat "$TMP/err")"

run "$D/bad_syntax.ini"
expect_rc 2 "syntax"
expect_err "hremu: $D/bad_syntax.ini:3: expected KEY = VALUE, [SECTION] or a comment" "syntax"

run --set hrel.direct.K=1
expect_rc 2 "algorithm section by --set"
grep -q "^hremu: --set hrel.direct.K: unknown key 'K' in \[hrel.direct\]" "$TMP/err" && ok ||
    bad "algorithm section by --set: $(cat "$TMP/err")"

run --bogus
expect_rc 2 "unknown option"
expect_grep "hremu: unknown option '--bogus'" "$TMP/err" "unknown option"

# Each form of the command takes its own options and words only: a word or an option the form
# would leave unread is refused (--help takes anything).
run --list extra.ini
expect_rc 2 "--list with a config"
expect_err "hremu: --list takes no config file ('extra.ini') (hremu --help shows the usage)" "--list with a config"
run --version --set machine.procs=4
expect_rc 2 "--version with --set"
expect_err "hremu: --set does not go with --version (hremu --help shows the usage)" "--version with --set"
run --topology "mesh 2x2" configs/default.ini
expect_rc 2 "--topology with a config"
run --topology "mesh 2x2" --trace "$TMP/t.csv"
expect_rc 2 "--topology with --trace"
expect_err "hremu: --trace does not go with --topology (hremu --help shows the usage)" "--topology with --trace"
run --help --list
expect_rc 0 "--help takes anything"
run configs/teaching/contention.ini --trace-limit 10
expect_rc 2 "--trace-limit without --trace"
expect_err "hremu: --trace-limit shapes the trace, and there is none: give --trace FILE too (hremu --help shows the usage)" \
    "--trace-limit without --trace"
run configs/teaching/contention.ini --trace-wall
expect_rc 2 "--trace-wall without --trace"
run configs/teaching/contention.ini --columns algorithm,procs,algorithm
expect_rc 2 "a column listed twice"
expect_err "hremu: --columns: algorithm is listed twice" "a column listed twice"
run configs/teaching/contention.ini --out ""
expect_rc 2 "an empty --out"
expect_err "hremu: --out takes a file name (or -), not an empty one" "an empty --out"
# An integer key's range is written as integers.
run configs/bench/seed001.ini --set workload.bytes=2^30+1
expect_rc 2 "bytes past its range"
expect_grep "must be 0 .. 1073741824" "$TMP/err" "bytes past its range: the range in integers"
# engine = auto under compute = measured, which fibers cannot give: threads, up to their cap.
run configs/teaching/contention.ini --set machine.engine=auto --set machine.procs=300 \
    --set machine.compute=measured --format csv --columns procs,engine,verified
expect_rc 0 "engine = auto under compute = measured"
[ "$(tr '\n' ' ' <"$TMP/out")" = "procs,engine,verified 300,threads,true 300,threads,true " ] && ok ||
    bad "engine = auto under compute = measured: $(tr '\n' ' ' <"$TMP/out")"
# stack and carriers set where no row runs fibers: refused, as any key that fits no row.
run configs/teaching/contention.ini --set machine.stack=128K
expect_rc 2 "stack under threads"
expect_err "hremu: --set machine.stack: stack applies to engine fibers only, not threads (unset it)" "stack under threads"
run configs/teaching/contention.ini --set machine.engine=threads,fibers --set machine.carriers=2 \
    --format csv --columns engine,carriers
expect_rc 0 "carriers where one row runs fibers"

run --format xml
expect_rc 2 "bad format"

run --set
expect_rc 2 "--set without a value"

run a.ini b.ini
expect_rc 2 "two configs"

run --out "$TMP/no/such/dir/x.csv"
expect_rc 2 "--out unwritable"
expect_grep "cannot open" "$TMP/err" "--out unwritable"

# ---- --regions -------------------------------------------------------------------------------
# hrel.two_phase marks seed 000's two phases (route.balance, route.deliver); hrel.direct marks none.
# Read by column name: the regions' lines say which row they belong to.
REG="--set machine.procs=4 --set workload.n=2^12 --set run.algorithms=hrel.two_phase,hrel.direct"
# shellcheck disable=SC2086
run $REG --format csv --regions "$TMP/regions.csv"
expect_rc 0 "--regions"
[ "$(head -n 1 "$TMP/regions.csv")" = "row,algorithm,kind,name,procs,entries,time_s,time_sum_s,work_s,messages,bytes,h" ] &&
    ok || bad "--regions header: $(head -n 1 "$TMP/regions.csv")"
[ "$(col name "$TMP/regions.csv" | tr '\n' ' ')" = "route.balance route.deliver " ] && ok ||
    bad "--regions: the two phases, in order: $(cat "$TMP/regions.csv")"
[ "$(col row "$TMP/regions.csv" | sort -u)" = 1 ] && [ "$(col algorithm "$TMP/regions.csv" | sort -u)" = hrel.two_phase ] &&
    ok || bad "--regions: lines of row 1, hrel.two_phase"
[ "$(col procs "$TMP/regions.csv" | sort -u),$(col entries "$TMP/regions.csv" | sort -u),$(col kind "$TMP/regions.csv" | sort -u)" = "4,4,region" ] &&
    ok || bad "--regions: every processor enters each phase once"
# two_phase sends nothing outside its phases: the row's messages and bytes are the regions' sums,
# and neither phase is longer than the run.
row_msgs=$(col messages | head -n 1); row_bytes=$(col bytes | head -n 1); row_time=$(col model_time_s | head -n 1)
[ "$(col messages "$TMP/regions.csv" | awk '{ s += $1 } END { print s }')" = "$row_msgs" ] &&
    [ "$(col bytes "$TMP/regions.csv" | awk '{ s += $1 } END { print s }')" = "$row_bytes" ] && ok ||
    bad "--regions: messages and bytes add up to the row's ($row_msgs, $row_bytes)"
col time_s "$TMP/regions.csv" | awk -v t="$row_time" '$1 <= 0 || $1 > t { bad = 1 } END { exit bad }' && ok ||
    bad "--regions: a phase's time is within the run's $row_time s"
cp "$TMP/out" "$TMP/rows.csv"
# The rows are the same with and without --regions; the regions the same under jitter.
# shellcheck disable=SC2086
run $REG --format csv
[ "$(model_cols "$TMP/out")" = "$(model_cols "$TMP/rows.csv")" ] && ok || bad "--regions changes the rows"
# shellcheck disable=SC2086
HREMU_JITTER=1 "$BIN" $REG --format csv --regions "$TMP/jitter.csv" >"$TMP/out" 2>"$TMP/err"
cmp -s "$TMP/jitter.csv" "$TMP/regions.csv" && ok || bad "--regions differ with HREMU_JITTER=1"
# shellcheck disable=SC2086
run $REG --format json --regions "$TMP/regions.json"
expect_rc 0 "--regions json"
[ "$(wc -l <"$TMP/regions.json")" -eq 2 ] && grep -q '^{"row":1,"algorithm":"hrel.two_phase","kind":"region","name":"route.balance","procs":4,' "$TMP/regions.json" &&
    ok || bad "--regions json: $(cat "$TMP/regions.json")"
# shellcheck disable=SC2086
run $REG --regions "$TMP/regions.txt"
head -n 1 "$TMP/regions.txt" | grep -q '^ row  algorithm  *kind  *name  *procs  *entries  *time_s' && ok ||
    bad "--regions table header: $(head -n 1 "$TMP/regions.txt")"
run --regions "$TMP/no/such/dir/regions.csv"
expect_rc 2 "--regions into a missing directory"
expect_grep "cannot open" "$TMP/err" "--regions names the problem"
expect_empty "$TMP/out" "--regions into a missing directory: no rows"

# ---- columns, aggregation, progress, trace to standard output ----------------------------------
SW="configs/examples/sweep.ini --set run.repeat=1 --set machine.procs=4"
run $SW --format csv --columns model_time_s,algorithm,procs
expect_rc 0 "--columns csv"
[ "$(head -n 1 "$TMP/out")" = "model_time_s,algorithm,procs" ] && ok || bad "--columns csv header: $(head -n 1 "$TMP/out")"
[ "$(sed -n 2p "$TMP/out" | cut -d, -f2,3)" = "hrel.direct,4" ] && ok || bad "--columns csv row: $(sed -n 2p "$TMP/out")"
run $SW --format json --columns procs,verified
head -n 1 "$TMP/out" | grep -qx '{"procs":4,"verified":true}' && ok || bad "--columns json: $(head -n 1 "$TMP/out")"
run $SW --columns "$(seq 130 | sed 's/.*/procs/' | paste -sd, -)"
expect_rc 2 "--columns: one column 130 times"
expect_err "hremu: --columns: procs is listed twice" "--columns: one column 130 times"
run $SW --columns algorithm,bogus
expect_rc 2 "--columns unknown"
grep -q "^hremu: --columns: no column 'bogus'; the columns are algorithm, procs, n" "$TMP/err" && ok ||
    bad "--columns unknown: $(cat "$TMP/err")"
# The table leaves out what async rows cannot fill; CSV keeps every column; round rows keep theirs.
run $SW
head -n 1 "$TMP/out" | grep -q "rounds_per_h\|lost\|stalls" && bad "table hides rounds_per_h, lost, stalls for async" || ok
head -n 1 "$TMP/out" | grep -q "model_time_s" && ok || bad "table keeps model_time_s"
run configs/examples/rounds.ini --set machine.procs=4 --set machine.discipline=arbitrary --set run.algorithms=hrel.aw_uniform
head -n 1 "$TMP/out" | grep -q "rounds_per_h *lost" && ok || bad "table keeps rounds_per_h and lost for arbitrary: $(head -n 1 "$TMP/out")"
# --aggregate seed: the statistics of the rows, computed here from the rows themselves.
run $SW --set workload.distribution=uniform --set workload.h=0 --set machine.seed=1,2,3,4 --format csv
cp "$TMP/out" "$TMP/rows.csv"
run $SW --set workload.distribution=uniform --set workload.h=0 --set machine.seed=1,2,3,4 --format csv --aggregate seed
expect_rc 0 "--aggregate seed"
[ "$(col count | tr '\n' ' ')" = "4 4 " ] && ok || bad "--aggregate seed count: $(col count | tr '\n' ' ')"
[ "$(col seed | head -n 1)" = "1 2 3 4" ] && ok || bad "--aggregate seed lists the seeds: $(col seed | head -n 1)"
for c in h model_time_s; do
    for cost in cm5 sp2; do
        want=$(awk -F, -v c="$c" -v cost="$cost" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == c) k = i; if ($i == "cost") q = i }; next }
            $q == cost { n++; s += $k; ss += $k * $k; if (n == 1 || $k < lo) lo = $k; if (n == 1 || $k > hi) hi = $k }
            END { m = s / n; printf "%.9g %.6g %.9g %.9g", m, sqrt((ss - n * m * m) / (n - 1)), lo, hi }' "$TMP/rows.csv")
        got=$(awk -F, -v c="$c" -v cost="$cost" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == c "_mean") a = i; if ($i == c "_sd") b = i; if ($i == c "_min") d = i; if ($i == c "_max") e = i; if ($i == "cost") q = i }; next }
            $q == cost { printf "%.9g %.6g %.9g %.9g", $a, $b, $d, $e }' "$TMP/out")
        [ "$got" = "$want" ] && ok || bad "--aggregate seed $c ($cost): $got, want $want"
    done
done
run $SW --aggregate runs
expect_rc 2 "--aggregate other than seed"
# h set by the config is a setting: the docs' example keeps its 18 settings apart, 3 seeds each,
# with h a column (and --columns may name it) and no h statistics.
run configs/examples/sweep.ini --set machine.seed=1,2,3 --set run.repeat=1 --aggregate seed --format csv
expect_rc 0 "--aggregate seed with h swept"
[ "$(col count | sort -u)" = 3 ] && [ "$(col count | wc -l)" = 18 ] && ok || bad "--aggregate seed with h swept: counts $(col count | tr '\n' ' ')"
[ "$(col h | head -n 3 | tr '\n' ' ')" = "16384 32768 65536 " ] && [ -z "$(col h_mean | sort -u)" ] && ok ||
    bad "--aggregate seed with h swept: h $(col h | head -n 3 | tr '\n' ' '), h_mean $(col h_mean | sort -u)"
run configs/examples/sweep.ini --set machine.seed=1,2 --set run.repeat=1 --aggregate seed --columns procs,h,cost,count,model_time_s_mean
expect_rc 0 "--aggregate seed --columns h"
[ "$(wc -l <"$TMP/out")" = 19 ] && ok || bad "--aggregate seed --columns h: $(wc -l <"$TMP/out") lines"
run configs/examples/sweep.ini --set machine.seed=1,2 --set run.repeat=1 --aggregate seed
[ "$(awk '{ print length }' "$TMP/out" | sort -n | tail -n 1)" -le 160 ] && ok || bad "aggregated table wider than 160"
expect_empty "$TMP/err" "aggregated table fits"
# Progress: none when standard error is not a terminal; under a pseudo-terminal it goes to
# standard error, never into --out, and --quiet turns it off.
run $SW --format csv --out "$TMP/p.csv"
grep -q "row 1 of" "$TMP/err" && bad "progress without a terminal" || ok
if command -v script >/dev/null 2>&1; then
    script -qec "$BIN $SW --format csv --out $TMP/p.csv" /dev/null >"$TMP/pty" 2>&1
    grep -q "row 6 of 6" "$TMP/pty" && ok || bad "progress on a terminal: $(head -c 200 "$TMP/pty")"
    grep -q "$(printf '\r')" "$TMP/p.csv" && bad "progress in --out" || ok
    script -qec "$BIN $SW --format csv --out $TMP/p.csv --quiet" /dev/null >"$TMP/pty" 2>&1
    [ ! -s "$TMP/pty" ] && ok || bad "--quiet: $(head -c 200 "$TMP/pty")"
fi
# --trace -: the trace on standard output, the rows in --out; a trace with no rounds says so.
run configs/examples/rounds.ini --set machine.procs=4 --trace -
expect_rc 2 "--trace - without --out"
run configs/examples/rounds.ini --set machine.procs=4 --trace - --out "$TMP/rows.txt" --format csv
expect_rc 0 "--trace -"
[ "$(head -n 1 "$TMP/out" | cut -d, -f1-3)" = "row,algorithm,event" ] && ok || bad "--trace - header: $(head -n 1 "$TMP/out")"
grep -q "^2,hrel" "$TMP/out" && ok || bad "--trace - rows"
[ "$(col verified "$TMP/rows.txt" | sort -u)" = "true" ] && ok || bad "--trace - rows in --out"
# Under async the trace has every send and receive, each message's send paired with its receive
# (the same msg id, the send before the receive), and it is the same file under jitter.
run $SW --trace "$TMP/async.csv"
expect_rc 0 "--trace on async"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
         $c["event"] == "send" { s[$c["row"] "," $c["msg"]] = $c["t0_s"]; ns++ }
         $c["event"] == "recv" { r[$c["row"] "," $c["msg"]] = $c["t1_s"]; nr++ }
         END { for (k in s) if (!(k in r) || r[k] + 0 < s[k] + 0) bad++
               for (k in r) if (!(k in s)) bad++
               exit !(ns > 0 && ns == nr && bad == 0) }' "$TMP/async.csv" && ok ||
    bad "--trace on async: sends and receives pair"
HREMU_JITTER=1 "$BIN" $SW --trace "$TMP/async2.csv" >/dev/null 2>&1
cmp -s "$TMP/async.csv" "$TMP/async2.csv" && ok || bad "--trace: the same file under HREMU_JITTER=1"
# Chrome trace JSON: parses; every slice on a track follows or nests in the one before (no partial
# overlap: a program waits in one call at a time, a port sends one message at a time);
# every flow's start has its finish; the last slice ends at the row's model time.
run configs/teaching/contention.ini --trace "$TMP/trace.json" --format csv --out "$TMP/rows.csv"
expect_rc 0 "--trace FILE.json"
python3 - "$TMP/trace.json" "$TMP/rows.csv" <<'PY' && ok || bad "--trace FILE.json: slices, flows, times"
import csv, json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
rows = list(csv.DictReader(open(sys.argv[2])))
tracks = {}
for e in ev:
    if e["ph"] == "X":
        tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
for spans in tracks.values():
    spans.sort()
    for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
        assert b0 >= a1 - 1e-9 or b1 <= a1 + 1e-9, (a0, a1, b0, b1)
starts = {(e["pid"], e["id"]) for e in ev if e["ph"] == "s"}
ends = {(e["pid"], e["id"]) for e in ev if e["ph"] == "f"}
assert starts and starts == ends
names = [e for e in ev if e["ph"] == "M" and e["name"] == "thread_name"]
assert len(names) == 2 * 2 * 8   # two rows of 8 processors, a program and a port track each
for pid, row in enumerate(rows):
    last = max(b for (p, t), spans in tracks.items() if p == pid for (a, b) in spans)
    assert abs(last - float(row["model_time_s"]) * 1e6) < 1e-6, (last, row["model_time_s"])
PY
# Regions and collectives: the 2-D FFT's three regions and its hr_transpose are slices on each
# program track that hold the receives and computing inside them (proper nesting, checked with a
# stack), and the CSV names them.
FFT="configs/seed001/table5.ini --set machine.procs=4 --set workload.size=64 --set app.fft2d.xchg=transpose --set machine.discipline=async"
run $FFT --trace "$TMP/fft.json"
expect_rc 0 "--trace FILE.json with regions"
python3 - "$TMP/fft.json" <<'PY' && ok || bad "--trace FILE.json: regions and collectives nest"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
tracks = {}
for e in ev:
    if e["ph"] == "X":
        tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], -(e["ts"] + e["dur"]), e))
inside = 0
for spans in tracks.values():
    spans.sort(key=lambda s: s[:2])
    stack = []
    for t0, neg, e in spans:
        while stack and stack[-1][1] <= t0 + 1e-9:
            stack.pop()
        assert not stack or -neg <= stack[-1][1] + 1e-9, (stack[-1][2], e)
        if e["cat"] == "recv" and any(s[2]["cat"] == "collective" for s in stack):
            inside += 1
        stack.append((t0, -neg, e))
names = {(e["cat"], e["name"]) for e in ev if e["ph"] == "X" and e["cat"] in ("region", "collective")}
assert names == {("region", "fft.rows"), ("region", "fft.exchange"), ("region", "fft.columns"),
                 ("collective", "hr_transpose")}, names
assert inside == 4 * 3, inside   # each processor takes 3 blocks in the transpose
PY
run $FFT --trace "$TMP/fft.csv"
# event NAME: the name column of the trace's lines of event NAME, by column name.
event() {
    awk -F, -v want="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                          $c["event"] == want { print $c["name"] }' "$TMP/fft.csv"
}
[ "$(event collective | sort -u)" = hr_transpose ] && [ "$(event collective | wc -l)" = 4 ] &&
[ "$(event region | wc -l)" = 12 ] && ok ||
    bad "--trace CSV: a collective line a processor named hr_transpose, 3 regions a processor"
# Link occupancy on the 4 x 4 torus: a track a link that carried anything, named by its ends;
# its slices never overlap (a link carries one message at a time); every slice belongs to a
# message that was sent; on the complete graph there are none.
run configs/teaching/torus.ini --trace "$TMP/torus.json"
expect_rc 0 "--trace on a torus"
python3 - "$TMP/torus.json" <<'PY' && ok || bad "--trace FILE.json: link tracks"
import json, re, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
sent = {(e["pid"], e["args"]["msg"]) for e in ev if e.get("cat") == "send"}
links = [e for e in ev if e.get("cat") == "link"]
named = {(e["pid"], e["tid"]) for e in ev if e["name"] == "thread_name" and
         re.fullmatch(r"link \d+: P\d+>P\d+", e["args"]["name"])}
assert links and {(e["pid"], e["tid"]) for e in links} == named
assert all((e["pid"], e["args"]["msg"]) in sent for e in links)
assert {e["pid"] for e in links} == {2, 3}     # the torus rows; rows 0 and 1 are the complete graph
spans = {}
for e in links:
    spans.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
for v in spans.values():
    v.sort()
    assert all(b0 >= a1 - 1e-9 for (a0, a1), (b0, b1) in zip(v, v[1:]))
PY
# --trace-wall adds wall_s, this computer's time of each event: non-negative, and every other
# column as without it; in JSON a second process a row with an instant for each event.
run configs/teaching/contention.ini --trace "$TMP/w.csv" --trace-wall
expect_rc 0 "--trace-wall"
run configs/teaching/contention.ini --trace "$TMP/nw.csv"
python3 - "$TMP/w.csv" "$TMP/nw.csv" <<'PY' && ok || bad "--trace-wall: wall_s beside the same model columns"
import csv, sys
w = list(csv.DictReader(open(sys.argv[1])))
nw = list(csv.DictReader(open(sys.argv[2])))
assert len(w) == len(nw) > 0
for a, b in zip(w, nw):
    assert float(a.pop("wall_s")) >= 0
    assert a == b, (a, b)
PY
run configs/teaching/contention.ini --trace "$TMP/w.json" --trace-wall
python3 - "$TMP/w.json" <<'PY' && ok || bad "--trace-wall: JSON wall processes"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
for row in (0, 1):
    slices = [e for e in ev if e["pid"] == row and e["ph"] == "X"]
    wall = [e for e in ev if e["pid"] == 1000000 + row and e["ph"] == "i"]
    assert len(wall) == len(slices) > 0 and all(e["ts"] >= 0 for e in wall)
    assert [e for e in ev if e["pid"] == 1000000 + row and e["name"] == "process_name"]
PY
# --trace-sample 3 on 8 processors keeps 0, 3 and 6: their tracks, their slices, and the arrows
# between them, every one paired.
run configs/teaching/contention.ini --trace "$TMP/sample.json" --trace-sample 3
expect_rc 0 "--trace-sample"
python3 - "$TMP/sample.json" <<'PY' && ok || bad "--trace-sample: processors 0, 3, 6 and their arrows"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = sorted({e["args"]["name"] for e in ev if e["name"] == "thread_name"})
assert names == ["P0", "P0 sends", "P3", "P3 sends", "P6", "P6 sends"], names
assert all(e["tid"] // 2 in (0, 3, 6) for e in ev if e["ph"] != "M")
starts = {(e["pid"], e["id"]) for e in ev if e["ph"] == "s"}
ends = {(e["pid"], e["id"]) for e in ev if e["ph"] == "f"}
assert starts == ends and len(starts) == 2 * 6, len(starts)   # 2 rows, 3 x 2 ordered pairs
PY
run configs/teaching/contention.ini --trace "$TMP/sample.json" --trace-sample 0
expect_rc 2 "--trace-sample 0"
expect_err "hremu: --trace-sample takes a processor stride from 1 to 1048576 (it is '0') (hremu --help shows the usage)" "--trace-sample 0"
run $SW --trace "$TMP/few.csv" --trace-limit 10
expect_rc 0 "--trace-limit"
expect_grep "events past the limit of 10 a run were left out" "$TMP/err" "--trace-limit says so"
run $SW --trace "$TMP/few.csv" --trace-limit x
expect_rc 2 "--trace-limit x"
run $SW --trace "$TMP/few.csv" --trace-limit 99999999999999999999999
expect_rc 2 "--trace-limit past 2^64"
expect_err "hremu: --trace-limit takes a positive number of events (it is '99999999999999999999999') (hremu --help shows the usage)" \
    "--trace-limit past 2^64"

# ---- outputs: never two on one file, never half written ----------------------------------------
# Two outputs on one file (however spelled) are refused before anything is written, and the file
# that was there stays as it was.
CT=configs/teaching/contention.ini
mkdir "$TMP/o"
echo old >"$TMP/o/r.csv"
run $CT --out "$TMP/o/r.csv" --trace "$TMP/o/r.csv"
expect_rc 2 "--out and --trace on one file"
expect_err "hremu: --out and --trace write to the same file, $TMP/o/r.csv: give each its own" "--out and --trace on one file"
[ "$(cat "$TMP/o/r.csv")" = old ] && ok || bad "--out and --trace on one file: the old file changed"
run $CT --out "$TMP/o/new.csv" --regions "$TMP/o/../o/new.csv"
expect_rc 2 "--out and --regions on one new file"
[ ! -e "$TMP/o/new.csv" ] && ok || bad "--out and --regions on one new file: a file was written"
ln -s r.csv "$TMP/o/link.csv"
run $CT --html "$TMP/o/link.csv" --out "$TMP/o/r.csv"
expect_rc 2 "--out and --html on one file through a link"
# Nor is an output one of the files the run reads: its config, a relation, a cost file (each
# stays as it was); nor standard output's own file or pipe under another name.
mkdir "$TMP/in"
cp $CT "$TMP/in/c.ini"
run "$TMP/in/c.ini" --out "$TMP/in/c.ini"
expect_rc 2 "--out onto the config"
expect_err "hremu: --out $TMP/in/c.ini would overwrite $TMP/in/c.ini, which this run reads (the config): give it another file" \
    "--out onto the config"
cmp -s $CT "$TMP/in/c.ini" && ok || bad "--out onto the config: the config changed"
cp $D/hrel_good.txt "$TMP/in/rel.txt"
run --format csv configs/default.ini --set machine.procs=4 --set workload.n=8 --set workload.h=0 \
    --set workload.distribution=file:"$TMP/in/rel.txt" --trace "$TMP/in/rel.txt"
expect_rc 2 "--trace onto a relation file"
expect_grep "which this run reads (distribution)" "$TMP/err" "--trace onto a relation file"
cmp -s $D/hrel_good.txt "$TMP/in/rel.txt" && ok || bad "--trace onto a relation file: the file changed"
run $CT --trace /dev/stdout
expect_rc 2 "the rows and --trace both on standard output"
expect_err "hremu: the rows (standard output) and --trace write to the same file, /dev/stdout: give each its own" \
    "the rows and --trace both on standard output"
run $CT --out /dev/stdout --trace -
expect_rc 2 "--out /dev/stdout and --trace -"
run $CT --out /dev/null --trace /dev/null
expect_rc 0 "/dev/null takes several outputs"
# One output that cannot be opened: the others, opened before it, are left as they were.
run $CT --out "$TMP/o/r.csv" --trace "$TMP/o/no/such/t.json"
expect_rc 2 "an output that cannot be opened"
[ "$(cat "$TMP/o/r.csv")" = old ] && ok || bad "an output that cannot be opened: --out's file was truncated"
# A write that fails (a file size limit: the trace is the biggest output) leaves every old file
# as it was, the page too, and no temporary file behind.
echo old >"$TMP/o/t.json"; echo old >"$TMP/o/p.html"
(ulimit -f 20; trap '' XFSZ; "$BIN" $CT --out "$TMP/o/r.csv" --trace "$TMP/o/t.json" \
    --html "$TMP/o/p.html" >"$TMP/out" 2>"$TMP/err"); rc=$?
expect_rc 2 "a write error"
expect_err "hremu: $TMP/o/t.json: write error" "a write error"
[ "$(cat "$TMP/o/r.csv" "$TMP/o/t.json" "$TMP/o/p.html" | tr '\n' ' ')" = "old old old " ] && ok ||
    bad "a write error: the old files changed"
[ "$(ls -A "$TMP/o" | tr '\n' ' ')" = "link.csv p.html r.csv t.json " ] && ok ||
    bad "a write error: files left behind: $(ls -A "$TMP/o")"
# A run that ends well replaces the files whole (through the link: the link stays a link), with
# the mode the file had; a row that fails verification (exit 1) keeps its files, which say so.
chmod 640 "$TMP/o/r.csv"
run $CT --out "$TMP/o/link.csv" --format csv --trace "$TMP/o/t.json" --html "$TMP/o/p.html"
expect_rc 0 "outputs replaced"
[ -L "$TMP/o/link.csv" ] && [ "$(col algorithm "$TMP/o/r.csv" | tr '\n' ' ')" = "xchg.lex xchg.pex " ] &&
    [ "$(stat -c %a "$TMP/o/r.csv")" = 640 ] && ok || bad "outputs replaced: the link, the rows or the mode"
tail -n 1 "$TMP/o/p.html" | grep -q '</html>' && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$TMP/o/t.json" &&
    ok || bad "outputs replaced: the page or the trace is not whole"
run --format csv --set run.algorithms=hrel.xor --set machine.buffer=64 --set workload.n=2^12 \
    --out "$TMP/o/r.csv" --trace "$TMP/o/t.csv"
expect_rc 1 "a failing run's outputs"
[ "$(col status "$TMP/o/r.csv")" = misuse ] && [ "$(col row "$TMP/o/t.csv" | sort -u)" = 0 ] && ok ||
    bad "a failing run's outputs: the row and its trace are kept"
[ "$(ls -A "$TMP/o" | tr '\n' ' ')" = "link.csv p.html r.csv t.csv t.json " ] && ok ||
    bad "outputs: files left behind: $(ls -A "$TMP/o")"
run $CT --out /dev/null --rounds /dev/null
expect_rc 0 "two outputs on /dev/null"
# A file one may write in a directory that takes no new file is written in place, as before.
# Root writes in any directory: as root the case runs as nobody (runuser).
as=""
[ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null 2>&1 && as="runuser -u nobody --"
if [ "$(id -u)" -ne 0 ] || [ -n "$as" ]; then
    mkdir "$TMP/ro" && echo old >"$TMP/ro/r.csv" && chmod 666 "$TMP/ro/r.csv" &&
        chmod 555 "$TMP/ro" && chmod 755 "$TMP"
    $as "$BIN" $CT --out "$TMP/ro/r.csv" --format csv >"$TMP/out" 2>"$TMP/err"
    rc=$?
    expect_rc 0 "an output in a read-only directory"
    [ "$(col algorithm "$TMP/ro/r.csv" | tr '\n' ' ')" = "xchg.lex xchg.pex " ] && ok ||
        bad "an output in a read-only directory: $(cat "$TMP/ro/r.csv")"
    chmod 755 "$TMP/ro"
    chmod 700 "$TMP"
else
    skipped "an output in a read-only directory (root writes there all the same, and no runuser)"
fi
# Standard output takes one output: the rows, or one of the side outputs with the rows in --out.
run $CT --trace - --regions - --out "$TMP/o/r.csv"
expect_rc 2 "two side outputs on standard output"
expect_err "hremu: only one of --trace, --schedule, --rounds and --regions can write to standard output (hremu --help shows the usage)" "two side outputs on standard output"
run $CT --regions - --out "$TMP/o/r.csv" --format csv
expect_rc 0 "--regions -"
[ "$(head -n 1 "$TMP/out" | cut -d, -f1-3)" = "row,algorithm,kind" ] && ok || bad "--regions -: $(head -n 1 "$TMP/out")"

# ---- strings: a file name that is not UTF-8 still makes valid JSON rows -----------------------
LATIN1=$(printf 'r\351l.txt')
cp tests/data/hrel_good.txt "$TMP/$LATIN1"
run --format json --set machine.procs=4 --set workload.n=8 --set workload.h=0 \
    --set "workload.distribution=file:$TMP/$LATIN1" --set run.algorithms=hrel.direct
expect_rc 0 "a file name in Latin-1"
python3 - "$TMP/out" <<'PY' && ok || bad "a file name in Latin-1: the JSON rows are not valid UTF-8 JSON"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1], "rb").read().decode("utf-8").splitlines()]
assert len(rows) == 1 and rows[0]["distribution"].endswith("r\ufffdl.txt"), rows
PY

# ---- traces a viewer reads ---------------------------------------------------------------------
# Arrows as a viewer binds them: by id alone (Chrome trace ids are global, across rows), each id
# one start and one finish, each bound to the slice that encloses it on its track (the deepest
# one holding its time): the start to the message's sending, the finish to its receipt.
cat >"$TMP/flows.py" <<'PY'
def check_flows(ev, sending=("send",), receiving=("recv",)):
    """The arrows of a trace, paired by id as a viewer does; returns how many."""
    slices = {}
    for e in ev:
        if e["ph"] == "X":
            slices.setdefault((e["pid"], e["tid"]), []).append(e)
    def enclosing(f):
        inside = [e for e in slices.get((f["pid"], f["tid"]), [])
                  if e["ts"] - 1e-9 <= f["ts"] <= e["ts"] + e["dur"] + 1e-9]
        assert inside, ("an arrow end binds to no slice", f)
        return max(inside, key=lambda e: (e["ts"], -e["dur"]))
    ends = {}
    for e in ev:
        if e["ph"] in "sf" and e.get("cat") == "flow":
            ends.setdefault(e["id"], []).append(e)
    for i, v in ends.items():
        assert sorted(e["ph"] for e in v) == ["f", "s"], ("id", i, "has", [e["ph"] for e in v])
        s = next(e for e in v if e["ph"] == "s")
        f = next(e for e in v if e["ph"] == "f")
        a, b = enclosing(s), enclosing(f)
        assert s["pid"] == f["pid"], ("an arrow between rows", s, f)
        assert a["cat"] in sending and b["cat"] in receiving, (a, b)
        assert a["args"]["msg"] == b["args"]["msg"], ("an arrow binds two messages", a, b)
        assert s["ts"] <= f["ts"]
    return len(ends)
PY
run $CT --trace "$TMP/ct.json" --out /dev/null
python3 - "$TMP/ct.json" "$TMP" <<'PY' && ok || bad "--trace FILE.json: arrows paired by id alone, within their row"
import json, sys
sys.path.insert(0, sys.argv[2])
from flows import check_flows
ev = json.load(open(sys.argv[1]))["traceEvents"]
recvs = [e for e in ev if e.get("cat") == "recv"]
assert check_flows(ev) == len(recvs) == 2 * 56, (check_flows(ev), len(recvs))
PY
# Round messages have arrows too: from the round a message is sent in, on its sender's port, to
# the round it is delivered in, on its receiver's track, a queued one later than it was sent;
# every delivery of the CSV trace has one.
run configs/teaching/disciplines.ini --trace "$TMP/rd.json" --out /dev/null
run configs/teaching/disciplines.ini --trace "$TMP/rd.csv" --out /dev/null
python3 - "$TMP/rd.json" "$TMP/rd.csv" "$TMP" <<'PY' && ok || bad "--trace FILE.json: round messages' arrows"
import csv, json, sys
sys.path.insert(0, sys.argv[3])
from flows import check_flows
ev = json.load(open(sys.argv[1]))["traceEvents"]
rows = list(csv.DictReader(open(sys.argv[2])))
delivered = [r for r in rows if r["event"] == "round" and r["fate"] == "delivered"]
assert check_flows(ev, ("round",), ("round",)) == len(delivered) > 0
first = {}
for r in rows:
    if r["event"] == "round":
        first.setdefault((r["row"], r["msg"]), int(r["round"]))
later = [r for r in delivered if int(r["round"]) > first[(r["row"], r["msg"])]]
assert later, "no message waited in a queue"
byid = {}
for e in ev:
    if e.get("cat") == "flow":
        byid.setdefault(e["id"], {})[e["ph"]] = e
tracks = {}
for e in ev:
    if e["ph"] == "X":
        tracks.setdefault((e["pid"], e["tid"]), []).append(e)
def at(f):   # the round slice that holds an arrow's end
    return next(e for e in tracks[(f["pid"], f["tid"])] if e["ts"] <= f["ts"] <= e["ts"] + e["dur"])
waited = [v for v in byid.values() if at(v["f"])["args"]["round"] > at(v["s"])["args"]["round"]]
assert len(waited) == len(later), (len(waited), len(later))
assert all(at(v["f"])["name"].endswith("from the queue") for v in waited)
PY
# What a person reads: a discipline's unused fields left out (fifo has no priorities: its order
# is the queue's; arbitrary and ocpc have no queues), integers past 2^53 as strings (pq_random's
# priorities), links' slices named by the message's ends, times in whole picoseconds.
python3 - "$TMP/rd.json" "$TMP/rd.csv" "$TMP/torus.json" <<'PY' && ok || bad "--trace: readable values"
import csv, json, re, sys
text = open(sys.argv[1]).read()
ev = json.loads(text)["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in ev if e["name"] == "process_name"}
def numbers(x):
    if isinstance(x, dict):
        for v in x.values(): yield from numbers(v)
    elif isinstance(x, list):
        for v in x: yield from numbers(v)
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        yield x
assert all(abs(v) <= 2 ** 53 for v in numbers(ev))
big = 0
for e in ev:
    if e.get("cat") != "round" or "to" not in e["args"]:
        continue
    disc = re.search(r"discipline=(\w+)", procs[e["pid"]]).group(1)
    assert ("priority" in e["args"]) == (disc == "priority"), (disc, e)
    assert ("receiver's queue" in e["args"]) == (disc in ("fifo", "priority")), (disc, e)
    if isinstance(e["args"].get("priority"), str):
        big += int(e["args"]["priority"]) > 2 ** 53
assert big > 0, "no priority past 2^53 (hrel.pq_random's)"
fifo = {str(pid) for pid, name in procs.items() if "discipline=fifo" in name}
fifo = [r for r in csv.DictReader(open(sys.argv[2])) if r["event"] == "round" and r["row"] in fifo]
assert fifo and all(r["priority"] == "" and r["queue"] != "" for r in fifo)
assert all(not re.search(r'"(ts|dur)":-?\d+\.\d{7,}', line) for line in text.splitlines())
tev = json.load(open(sys.argv[3]))["traceEvents"]
sends = {(e["pid"], e["args"]["msg"]): (e["tid"] // 2, int(e["name"].split("P")[-1]))
         for e in tev if e.get("cat") == "send"}
links = [e for e in tev if e.get("cat") == "link"]
assert links and all(e["name"] == "P%d -> P%d" % sends[(e["pid"], e["args"]["msg"])] for e in links)
PY

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
