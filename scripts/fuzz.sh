#!/bin/sh
# Fuzz the config parser and validator: build tests/fuzz/fuzz_config.c with clang's libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer (compiling the library's sources directly), then
# run it for FUZZ_SECONDS (default 60) from the seed corpus tests/fuzz/corpus/.
# New interesting inputs go to tests/fuzz/corpus-new/ (not committed; merge the few worth keeping
# by hand); a crash, leak or hang is written to build-fuzz/ and fails this script.
# Extra arguments go to the fuzzer, e.g. `scripts/fuzz.sh -jobs=2`.
set -eu
cd "$(dirname "$0")/.."
CC=${FUZZ_CC:-clang}
SECS=${FUZZ_SECONDS:-60}
OUT=build-fuzz
BIN=$OUT/fuzz_config

# What the build needs, and clang with its libFuzzer and sanitizer runtimes (libclang-rt-14-dev)
# unless FUZZ_CC names another compiler: scripts/deps.sh installs whatever is missing.
if [ -z "${FUZZ_CC:-}" ]; then
    scripts/deps.sh clang libclang-rt-14-dev
else
    scripts/deps.sh
fi

mkdir -p "$OUT" tests/fuzz/corpus-new
SRC=$(ls src/*/*.c | grep -v '^src/cli/main\.c$')
# shellcheck disable=SC2086
"$CC" -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -pthread -Iinclude -Isrc $(pkg-config --cflags liburcu inih) \
    -o "$BIN" tests/fuzz/fuzz_config.c $SRC $(pkg-config --libs liburcu inih) -lm

echo "scripts/fuzz.sh: fuzzing the config parser for $SECS s"
"$BIN" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -dict=tests/fuzz/config.dict -artifact_prefix="$OUT/" -print_final_stats=1 "$@" \
    tests/fuzz/corpus-new tests/fuzz/corpus
