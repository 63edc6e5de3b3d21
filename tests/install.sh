#!/bin/sh
# Install test: `make install` into a fresh temporary PREFIX, then build examples/ring_sum outside
# the tree against the installed hremu (through the example's own Makefile, so with
# `pkg-config --cflags --libs hremu check` only) and run its test.
#   tests/install.sh BUILD_DIR        (`make check` runs it last, with its build directory)
# The environment gives SAN (the build's; `make install` is run with it), maybe MAKE and CC, and
# CFLAGS and LDFLAGS for the example: a sanitized libhremu.a needs -fsanitize at link time too.
# (Without SAN in the environment, SAN and those flags follow from BUILD_DIR's name.)
# Nothing else of the calling make (MAKEFLAGS) reaches the makes run here.
# Prints one line, "install: ok (...)"; or FAIL lines with the failing step's output, and exit 1.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
BUILD=${1:?usage: tests/install.sh BUILD_DIR}
MAKE=${MAKE:-make}
# By hand: SAN from the build directory's name (build-address-undefined), and its flags.
if [ -z "${SAN+set}" ]; then
    case ${BUILD%/} in
    *build-*) SAN=$(echo "${BUILD%/}" | sed 's/.*build-//' | tr - ,) ;;
    *) SAN= ;;
    esac
fi
if [ -n "$SAN" ]; then
    CFLAGS=${CFLAGS-"-fsanitize=$SAN -fno-omit-frame-pointer"}
    LDFLAGS=${LDFLAGS-"-fsanitize=$SAN"}
    export CFLAGS LDFLAGS
fi
LIB=$BUILD/libhremu.a
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hremu-install.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
PREFIX=$TMP/prefix
PC=$PREFIX/lib/pkgconfig/hremu.pc
EX=$TMP/ring_sum

fail() {
    echo "FAIL: install: $*"
    exit 1
}

# step NAME COMMAND...: runs COMMAND with its output in $TMP/log; on failure, shows the log.
step() {
    name=$1
    shift
    "$@" >"$TMP/log" 2>&1
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL: install: $name (exit status $status)"
        tail -n 40 "$TMP/log" | sed 's/^/    /'
        exit 1
    fi
}

# top_make TARGET ARGS...: the top-level make, with this build's SAN and directory but without
# the example's CFLAGS and LDFLAGS, so that `make install` keeps exactly the flags of the build it
# installs.
top_make() {
    (unset CFLAGS LDFLAGS MAKEFLAGS MFLAGS MAKELEVEL
     exec $MAKE --no-print-directory -C "$ROOT" SAN="${SAN:-}" BUILD="$BUILD" "$@")
}

# pc ARGS...: pkg-config sees the temporary PREFIX first.
pc() {
    PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig pkg-config "$@"
}

[ -f "$LIB" ] || fail "no $LIB: build it first (make check builds it)"
command -v pkg-config >/dev/null 2>&1 || fail "no pkg-config (scripts/deps.sh installs it)"

# ---- make install: the build's own library, not rebuilt -------------------------------------
before=$(cksum <"$LIB")
step "make install PREFIX=$PREFIX" top_make install PREFIX="$PREFIX"
if grep -E -e ' -c .*\.c' -e '^ar ' "$TMP/log" >/dev/null; then
    sed 's/^/    /' "$TMP/log"
    fail "make install compiled or archived something: it must install the build as it is (was $BUILD up to date?)"
fi
[ "$(cksum <"$LIB")" = "$before" ] || fail "make install changed $LIB"
cmp -s "$LIB" "$PREFIX/lib/libhremu.a" || fail "installed libhremu.a is not $LIB"

headers=0
for h in include/hremu/*.h; do
    cmp -s "$h" "$PREFIX/include/hremu/${h##*/}" || fail "$h not installed, or not as it is"
    headers=$((headers + 1))
done
[ "$headers" -gt 0 ] || fail "no headers in include/hremu"
[ "$(ls "$PREFIX/include/hremu" | wc -l)" -eq "$headers" ] ||
    fail "$PREFIX/include/hremu holds other files: $(ls "$PREFIX/include/hremu" | tr '\n' ' ')"

# ---- hremu.pc ---------------------------------------------------------------------------
[ -f "$PC" ] || fail "no $PC"
step "pkg-config --validate hremu" pc --validate hremu
[ "$(pc --variable=prefix hremu)" = "$PREFIX" ] || fail "hremu.pc prefix is '$(pc --variable=prefix hremu)'"
version=$("$BUILD/hremu" --version 2>/dev/null | sed -n 's/^hremu //p')
[ -n "$version" ] && [ "$(pc --modversion hremu)" = "$version" ] ||
    fail "hremu.pc version '$(pc --modversion hremu)' is not hremu --version's '$version'"
flags=$(pc --cflags --libs hremu) || fail "pkg-config --cflags --libs hremu fails"
# Plain pkg-config (no --static) links a program that calls hremu_main: libinih comes with it.
for want in "-I$PREFIX/include" "-L$PREFIX/lib" -lhremu -linih -pthread -lm; do
    case " $flags " in *" $want "*) ;; *) fail "pkg-config --cflags --libs hremu lacks $want: $flags" ;; esac
done
pc --print-requires-private hremu | grep -q '^liburcu' || fail "hremu.pc: liburcu is not in Requires.private"

# Each public header compiles on its own, with the installed flags and no -D_GNU_SOURCE.
for h in "$PREFIX"/include/hremu/*.h; do
    printf '#include <hremu/%s>\n' "${h##*/}" >"$TMP/one.c"
    # shellcheck disable=SC2046,SC2086
    step "<hremu/${h##*/}> on its own" ${CC:-cc} -std=c11 -Wall -Wextra -Werror -fsyntax-only \
        $(pc --cflags hremu) "$TMP/one.c"
done

# ---- the example, outside the tree, through its own Makefile ---------------------------------
mkdir "$EX" || exit 1
cp examples/ring_sum/Makefile examples/ring_sum/*.c examples/ring_sum/*.h "$EX/" || exit 1
# A user's build: nothing from our make (MAKEFLAGS, MAKELEVEL) leaks into it.
ex_make() {
    (unset MAKEFLAGS MFLAGS MAKELEVEL
     PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig exec $MAKE --no-print-directory -C "$EX" CC="${CC:-cc}" "$@")
}
step "example build (make -C \$EX check_ring_sum)" ex_make check_ring_sum
if grep -F -e "$ROOT/" -e "-I$ROOT" "$TMP/log" >/dev/null; then
    sed 's/^/    /' "$TMP/log"
    fail "the example's build refers to the source tree $ROOT"
fi
grep -F -e "-I$PREFIX/include" "$TMP/log" >/dev/null || fail "the example's build does not use -I$PREFIX/include"
[ -x "$EX/check_ring_sum" ] || fail "the example's build made no check_ring_sum"

# Its default target runs the test (as the example's Makefile comment promises).
step "example test (make -C \$EX)" ex_make
grep -q '^100%: Checks: [1-9][0-9]*, Failures: 0, Errors: 0' "$TMP/log" ||
    { sed 's/^/    /' "$TMP/log"; fail "the example's test did not report 100%"; }

# ---- the command and its man page; a program's own command, built against the install --------
[ -x "$PREFIX/bin/hremu" ] || fail "no $PREFIX/bin/hremu"
[ "$("$PREFIX/bin/hremu" --version)" = "hremu $version" ] || fail "installed hremu --version: $("$PREFIX/bin/hremu" --version)"
[ -f "$PREFIX/share/man/man1/hremu.1" ] || fail "no man page in $PREFIX/share/man/man1"
# The configs and docs in share/hremu; from a directory without configs/, the command runs the
# installed default.ini, and a config whose file: paths are relative runs from anywhere.
for f in configs/default.ini configs/seed001/matrices/jagmesh7.mtx docs/config.md docs/model.md README.md; do
    cmp -s "$f" "$PREFIX/share/hremu/$f" || fail "$f not installed in $PREFIX/share/hremu, or not as it is"
done
grep -q 'share/hremu' "$PREFIX/share/man/man1/hremu.1" || fail "the man page does not say where the configs are"
mkdir "$TMP/elsewhere" || exit 1
(cd "$TMP/elsewhere" && "$PREFIX/bin/hremu" --format csv --set run.repeat=1) >"$TMP/log" 2>&1 ||
    { sed 's/^/    /' "$TMP/log"; fail "installed hremu with no config, outside the tree"; }
grep -q '^hrel.direct,16,1048576,' "$TMP/log" || { sed 's/^/    /' "$TMP/log"; fail "installed hremu's default row"; }
(cd "$TMP/elsewhere" && "$PREFIX/bin/hremu" --format csv "$PREFIX/share/hremu/configs/seed002/table6.ini" \
     --set run.algorithms=irreg.lp --set workload.msg_unit=16) >"$TMP/log" 2>&1 ||
    { sed 's/^/    /' "$TMP/log"; fail "installed seed002/table6.ini (file: matrices) outside the tree"; }
[ "$(grep -c ',true,' "$TMP/log")" -ge 2 ] || { sed 's/^/    /' "$TMP/log"; fail "installed seed002/table6.ini rows"; }
OWN=$TMP/own_command
mkdir "$OWN" && cp examples/own_command/Makefile examples/own_command/*.c examples/own_command/*.h \
    examples/own_command/*.ini "$OWN/" || exit 1
own_make() {
    (unset MAKEFLAGS MFLAGS MAKELEVEL
     PKG_CONFIG_PATH=$PREFIX/lib/pkgconfig exec $MAKE --no-print-directory -C "$OWN" CC="${CC:-cc}" "$@")
}
step "own command build (make -C \$OWN my_hremu)" own_make my_hremu
grep -F -e "--static" "$OWN/Makefile" >/dev/null && fail "the own command's Makefile uses pkg-config --static"
grep -F -e "$ROOT/" "$TMP/log" >/dev/null && fail "the own command's build refers to the source tree"
step "own command run (make -C \$OWN)" own_make
# Its row, read by column name: verified, and model time by hand: the local scan of 1024 elements
# (1.024 us at compute_unit 1 ns), hr_exscan of 8 bytes over 4 processors (2 (88 + 0.4) us under
# cm5), the offsets added (1.024 us): 178.848 us.
awk -F, '/^algorithm,/ { for (i = 1; i <= NF; i++) c[$i] = i; next }
         $c["algorithm"] == "mine.prefix" && $c["verified"] == "true" && $c["model_time_s"] == "0.000178848" { ok = 1 }
         END { exit !ok }' "$TMP/log" || { sed 's/^/    /' "$TMP/log"; fail "the own command's row"; }
(cd "$OWN" && ./my_hremu --list) >"$TMP/log" 2>&1 || fail "my_hremu --list"
grep -q '^  mine.prefix ' "$TMP/log" && grep -q '^  prefix ' "$TMP/log" && grep -q '^  hrel.direct ' "$TMP/log" ||
    fail "my_hremu --list lacks its own or the built-in rows"

# ---- DESTDIR staging and uninstall ----------------------------------------------------------
step "make install DESTDIR=... PREFIX=/opt/hremu" top_make install DESTDIR="$TMP/stage" PREFIX=/opt/hremu
[ -f "$TMP/stage/opt/hremu/lib/libhremu.a" ] || fail "DESTDIR install: no libhremu.a under DESTDIR"
grep -qx 'prefix=/opt/hremu' "$TMP/stage/opt/hremu/lib/pkgconfig/hremu.pc" ||
    fail "DESTDIR install: hremu.pc prefix is not /opt/hremu"
step "make uninstall PREFIX=$PREFIX" top_make uninstall PREFIX="$PREFIX"
left=$(find "$PREFIX" -type f | sed "s|^$PREFIX/||" | tr '\n' ' ')
[ -z "$left" ] || fail "make uninstall left $left"

echo "install: ok ($headers headers, hremu.pc, the command and its man page, configs and docs, both examples built and passed)"
