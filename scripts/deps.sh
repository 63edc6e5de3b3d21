#!/bin/sh
# Install what a fresh Debian 12 lacks to build and test hremu, so that no test of make check
# skips: python3 checks the JSON output in tests/cli/run.sh; time (/usr/bin/time) measures the
# huge empty matrix's time and memory there; gnuplot-nox draws the figures, and tests/plots.sh
# checks the plot scripts; chromium runs the --html page in tests/browser.sh; valgrind measures
# the files one message crosses (scripts/message_path.sh, checked by tests/cli/run.sh); Open MPI
# builds and runs the MPI engine (make mpi, make check-mpi), and MPICH builds it too (make
# check-mpi builds and runs it once with mpicc.mpich; Open MPI stays the default mpicc and
# mpirun, its alternatives' priority being the higher). Quiet and quick when all is there.
# Extra package names may be passed (e.g. `scripts/deps.sh gdb`).
# Recommended packages are left out (with them, gnuplot-nox alone pulls in some 40 more).
set -e
need="pkg-config liburcu-dev check libinih-dev libfftw3-dev python3 time gnuplot-nox chromium valgrind openmpi-bin libopenmpi-dev libmpich-dev $*"
missing=""
for pkg in $need; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
echo "scripts/deps.sh: installing$missing"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
