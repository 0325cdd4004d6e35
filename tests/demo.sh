# SPDX-License-Identifier: GPL-3.0-or-later
# demo.sh: what `make demo` runs.  Installs missing build dependencies
# (tests/deps.sh --build: the build's only; make check installs the test
# toolchains it needs), builds src/gprof with make, compiles tests/demo/example.c
# with gcc -pg -g in a scratch directory (tests/tmp/demo), runs it there to
# get gmon.out, and prints the full report of src/gprof on it.
set -eu

cd "$(dirname "$0")/.."
root=$PWD

echo "demo: checking build dependencies"
sh tests/deps.sh --build

echo "demo: building src/gprof"
make

dir=tests/tmp/demo
echo "demo: compiling tests/demo/example.c with gcc -pg -g into $dir"
rm -rf "$dir"
mkdir -p "$dir"
gcc -pg -g -O0 -o "$dir/example" tests/demo/example.c

echo "demo: running the example (writes $dir/gmon.out)"
(cd "$dir" && ./example)

echo "demo: src/gprof example gmon.out"
echo
cd "$dir"
"$root/src/gprof" example gmon.out
