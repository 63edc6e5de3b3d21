#!/bin/sh
# Run the fuzz harnesses that `make fuzz` built (FUZZ=1: clang, libFuzzer, ASan and UBSan), each for
# FUZZ_SECONDS (default 60), from its seed corpus tests/fuzz/corpus/NAME/:
#     scripts/fuzz.sh DIR NAME...     # DIR/fuzz_NAME for each NAME, e.g. build-fuzz/fuzz config mtx
# New interesting inputs go to tests/fuzz/corpus-new/NAME/ (not committed: copy the few worth
# keeping into tests/fuzz/corpus/NAME/, which `make check` replays); a crash, leak, timeout or
# out-of-memory input is written to build-fuzz/NAME-* and fails this script. Extra libFuzzer
# flags go in FUZZ_FLAGS, e.g. FUZZ_FLAGS=-jobs=2.
set -eu
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: scripts/fuzz.sh DIR NAME..." >&2; exit 2; }
DIR=$1
shift
SECS=${FUZZ_SECONDS:-60}
failed=""
for name in "$@"; do
    bin=$DIR/fuzz_$name
    [ -x "$bin" ] || { echo "scripts/fuzz.sh: $bin is not built (make fuzz builds it)" >&2; exit 2; }
    new=tests/fuzz/corpus-new/$name
    mkdir -p "$new"
    dict=
    [ -f "tests/fuzz/$name.dict" ] && dict=-dict=tests/fuzz/$name.dict
    echo "scripts/fuzz.sh: fuzzing $name for $SECS s"
    # shellcheck disable=SC2086
    "$bin" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=8192 $dict \
        -artifact_prefix="build-fuzz/$name-" -print_final_stats=1 ${FUZZ_FLAGS:-} \
        "$new" "tests/fuzz/corpus/$name" || failed="$failed $name"
done
if [ -n "$failed" ]; then
    echo "scripts/fuzz.sh: failed:$failed (inputs in build-fuzz/)" >&2
    exit 1
fi
echo "scripts/fuzz.sh: $# harnesses ran $SECS s each without a fault"
