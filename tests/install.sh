# SPDX-License-Identifier: GPL-3.0-or-later
# install.sh: tests `make install` and `make uninstall`.  Installs into a
# scratch DESTDIR (with prefix and libdir overridden), checks the file
# list, then builds and profiles small programs with the installed files
# only: pkg-config finds libgmon.pc in the DESTDIR (PKG_CONFIG_LIBDIR,
# PKG_CONFIG_SYSROOT_DIR), cc -pg links the installed libgmon.a and
# includes the installed libgmon.h, the installed gprof reads the
# gmon.out; the same for the musl and i386 builds where they were made.
# Then uninstalls and checks that no file is left.
# usage: sh tests/install.sh (from the repository root, after `make`)
set -u
ROOT=$(pwd)
TESTS_DIR=$ROOT/tests
# shellcheck source=tests/lib.sh
. "$TESTS_DIR/lib.sh"
mkdir -p "$TESTS_DIR/tmp"
WORK=$(mktemp -d "$TESTS_DIR/tmp/install.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export LC_ALL=C

D=$WORK/root
P=/opt/gptk
LIB=$P/lib64
failed=0
result() { check_result install "$@"; }

# The variables a user would give; the tree is built already, so this
# only copies.
make -s -C "$ROOT" install DESTDIR="$D" prefix=$P libdir=$LIB \
	>"$WORK/install.log" 2>&1
result make-install $? "$(tail -3 "$WORK/install.log")"

# Every file the build made, where the variables say.
missing=
expect() { [ -f "$D$1" ] || missing="$missing $1"; }
expect $P/bin/gprof
expect $P/bin/gprof-bbconv
expect $P/include/libgmon.h
expect $LIB/libgmon.a
expect $LIB/libgmon-audit.so
expect $P/bin/gprof-run
expect $LIB/gproftk/libgmon-preload.so
[ ! -f "$ROOT/src/libgmon/musl/libgmon-preload.so" ] || expect $LIB/gproftk/musl/libgmon-preload.so
[ ! -f "$ROOT/src/libgmon/32/libgmon-preload.so" ] || expect $LIB/gproftk/32/libgmon-preload.so
expect $LIB/pkgconfig/libgmon.pc
for page in "$ROOT"/doc/*.1; do expect "$P/share/man/man1/${page##*/}"; done
for page in "$ROOT"/doc/*.3; do expect "$P/share/man/man3/${page##*/}"; done
if [ -f "$ROOT/src/libgmon/musl/libgmon.a" ]; then
	expect $LIB/musl/libgmon.a
	expect $LIB/musl/gcrt1.o
	expect $LIB/pkgconfig/libgmon-musl.pc
fi
[ ! -f "$ROOT/src/libgmon/musl/libc_p.a" ] || expect $LIB/musl/libc_p.a
if [ -f "$ROOT/src/libgmon/32/libgmon.a" ]; then
	expect $P/lib32/libgmon.a
	expect $LIB/pkgconfig/libgmon-32.pc
fi
for a in "$ROOT"/src/libgmon/cross/*/libgmon.a; do
	[ -f "$a" ] || continue
	t=${a%/libgmon.a}
	t=${t##*/}
	expect $P/$t/lib/libgmon.a
	expect $P/$t/lib/pkgconfig/libgmon.pc
	[ ! -f "${a%.a}-preload.so" ] || expect $P/$t/lib/gproftk/libgmon-preload.so
done
result file-list "$([ -z "$missing" ]; echo $?)" "missing:$missing"

# pkg-config sees only the DESTDIR's files, with the DESTDIR before each
# path, as a packager's staging tree is used.
export PKG_CONFIG_LIBDIR="$D$LIB/pkgconfig" PKG_CONFIG_PATH= PKG_CONFIG_SYSROOT_DIR="$D"
GPROF=$D$P/bin/gprof
flags=$(pkg-config --cflags --libs libgmon 2>&1)
case $flags in
*-pg*"-I$D$P/include"*"-L$D$LIB"*-lgmon*) result pkg-config 0 ;;
*) result pkg-config 1 "pkg-config --cflags --libs libgmon: $flags" ;;
esac
# (pkgconf puts the sysroot before the variable too; pkg-config does not)
audit=$(pkg-config --variable=auditmodule libgmon)
audit=${audit#"$D"}
[ "$audit" = "$LIB/libgmon-audit.so" ] && [ -f "$D$audit" ]
result pkg-config-auditmodule $? "auditmodule=$audit"

cp "$TESTS_DIR/programs/installed/leaf.c" "$WORK/prog.c"

# profile CC PKG NAME [FLAGS]: build prog.c in its own folder with the
# installed files only, run it and check the installed gprof's report:
# leaf called 1000 times from main, and libgmon (not the C library's
# mcount) linked.
profile() {
	cc=$1 pkg=$2 name=$3
	shift 3
	dir=$WORK/$name
	mkdir -p "$dir"
	# shellcheck disable=SC2046
	if ! (cd "$dir" && $cc "$@" -g $(pkg-config --cflags "$pkg") -o prog ../prog.c \
		$(pkg-config --libs "$pkg")) >"$dir/build.log" 2>&1; then
		result "$name" 1 "build: $(head -3 "$dir/build.log")"
		return
	fi
	if ! nm "$dir/prog" | grep -q ' T gmon_start$'; then
		result "$name" 1 "libgmon not linked (no gmon_start in prog)"
		return
	fi
	if ! (cd "$dir" && ./prog >/dev/null 2>"$dir/run.log") || [ ! -s "$dir/gmon.out" ]; then
		result "$name" 1 "run: no gmon.out $(head -2 "$dir/run.log")"
		return
	fi
	(cd "$dir" && "$GPROF" -b prog gmon.out) >"$dir/report" 2>&1
	grep -Eq '^ +[0-9.]+ +[0-9.]+ +1000/1000 +main \[[0-9]+\]$' "$dir/report" &&
		grep -Eq '^\[[0-9]+\] .* 1000 +leaf \[[0-9]+\]$' "$dir/report"
	result "$name" $? "installed gprof's report: $(grep -m2 leaf "$dir/report")"
}

profile cc libgmon glibc -pg
if [ -f "$D$LIB/pkgconfig/libgmon-musl.pc" ]; then
	profile musl-gcc libgmon-musl musl -static
fi
if [ -f "$D$LIB/pkgconfig/libgmon-32.pc" ]; then
	profile "cc -m32" libgmon-32 i386
fi

# The installed gprof-bbconv runs and says what it is.
"$D$P/bin/gprof-bbconv" --help >"$WORK/bbconv.txt" 2>&1
grep -qi usage "$WORK/bbconv.txt"
result gprof-bbconv $? "$(head -1 "$WORK/bbconv.txt")"

make -s -C "$ROOT" uninstall DESTDIR="$D" prefix=$P libdir=$LIB \
	>"$WORK/uninstall.log" 2>&1
result make-uninstall $? "$(tail -3 "$WORK/uninstall.log")"
left=$(find "$D" ! -type d | sed "s|^$D||" | head -5)
[ -z "$left" ]
result nothing-left $? "left behind: $(echo $left)"
# the folders that are libgmon's alone go too
owned=
for d in $LIB/musl $LIB/pkgconfig; do
	[ ! -d "$D$d" ] || owned="$owned $d"
done
result own-folders-removed "$([ -z "$owned" ]; echo $?)" "still there:$owned"

exit $failed
