#!/bin/sh
# scripts/message_path.sh [BUILD_DIR [DISCIPLINE TOPOLOGY]]: the source files one message runs
# code of, measured, not read off the code. scripts/message_path/one_message.c sends 8 bytes
# from P0 to P5 (async on torus 4x4 unless told); callgrind collects inside hr_send and hr_recv
# only, and the files of hremu's functions that ran code there are listed (code inlined from a
# header counts with the function it is inlined into; the callers of hr_send and hr_recv ran
# none, so they are not listed). docs/architecture.md's
# walk of one message gives these counts. Needs valgrind (scripts/deps.sh installs it).
set -eu
build=${1:-build}
disc=${2:-async}
topo=${3:-torus 4x4}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pkgs="liburcu"
# The headers of the tree the build was made from (BUILD_DIR/..), whose library it links.
cc -std=c11 -O2 -g -I"$build/../include" -o "$tmp/one_message" \
    "$here/scripts/message_path/one_message.c" "$build/libhremu.a" \
    $(pkg-config --libs $pkgs) -pthread -lm
valgrind --tool=callgrind --callgrind-out-file="$tmp/out" \
    --toggle-collect=hr_send --toggle-collect=hr_recv \
    "$tmp/one_message" "$disc" "$topo" >"$tmp/stdout" 2>"$tmp/stderr" || {
    cat "$tmp/stderr" >&2
    exit 1
}
# Every function of the program (hremu is linked in whole) that ran instructions of its own:
# "N (P%)  FILE:FUNCTION [.../one_message]" lines; FILE from src/ or include/ on.
callgrind_annotate --inclusive=no --threshold=100 --auto=no "$tmp/out" 2>/dev/null |
    sed -n 's|^ *[0-9,]* ([ 0-9.]*%) *\([^ ]*/\)\{0,1\}\(src/[^ :]*\):\([^ ]*\) \[.*/one_message\]$|\2 \3|p' \
    >"$tmp/raw"
# callgrind names a function by the file of its first instruction's line: one that begins with
# code inlined from a header is named by the header. Such a function counts with the file that
# defines it (found by its definition, its name without GCC's .isra/.constprop/.part suffix).
while read -r file fn; do
    base=${fn%%.*}
    def="^[a-zA-Z_].*[ *]$base\("
    case $file in
    *.h)
        if ! grep -qE "$def" "$here/$file"; then
            owner=$(cd "$here" && grep -lE "$def" src/*/*.c | head -2)
            [ "$(echo "$owner" | wc -l)" -eq 1 ] && [ -n "$owner" ] && file=$owner
        fi ;;
    esac
    echo "$file $fn"
done <"$tmp/raw" >"$tmp/fns"
echo "one message, $disc on $topo: files of hremu whose functions ran"
awk '{ f[$1] = f[$1] " " $2 } END { for (k in f) print k ":" f[k] }' "$tmp/fns" | sort
echo "files: $(awk '{ print $1 }' "$tmp/fns" | sort -u | wc -l)"
