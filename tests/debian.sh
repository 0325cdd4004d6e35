# SPDX-License-Identifier: GPL-3.0-or-later
# debian.sh: builds the Debian packages (debian/) with dpkg-buildpackage in
# a scratch copy of the tree, without re-running the test suite
# (DEB_BUILD_OPTIONS=nocheck), and checks them: the file list of each
# .deb (dpkg-deb -c), that /usr/bin/gprof is not in them, the pkg-config
# file's paths, a program profiled with the unpacked packages only (no
# dpkg --install), README.Debian's gprof alternatives recipe on a scratch
# root, and lintian: no errors (warnings are listed).
# usage: sh tests/debian.sh (from the repository root).  Takes about a
# minute.  Skipped, with the command that fixes it, where the Debian tools
# are missing.
set -u
ROOT=$(pwd)
TESTS_DIR=$ROOT/tests
# shellcheck source=tests/lib.sh
. "$TESTS_DIR/lib.sh"
export LC_ALL=C

for tool in dpkg-buildpackage dh lintian fakeroot dpkg-deb pkg-config; do
	if ! command -v $tool >/dev/null 2>&1; then
		echo "SKIP: debian (no $tool: sh tests/deps.sh, or apt-get install dpkg-dev debhelper lintian fakeroot pkgconf)"
		exit 0
	fi
done

mkdir -p "$TESTS_DIR/tmp"
WORK=$(mktemp -d "$TESTS_DIR/tmp/debian.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
failed=0
result() { check_result debian "$@"; }

# What lies beside the tree now: a package built there by hand before
# the test is not the test's leftover.
outside() { (cd "$ROOT" && ls -d ../gproftk_* 2>/dev/null); }
outside_before=$(outside)

# The scratch copy: the files git knows (tracked, or new and not ignored),
# so that no build output of the tree goes in; from an unpacked release
# (no git), the tree cleaned with make distclean.
SRC=$WORK/gproftk
mkdir -p "$SRC"
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 cp --parents -P -p -t "$SRC" --)
else
	cp -a "$ROOT/." "$SRC" && rm -rf "$SRC/tests/tmp" &&
		make -s -C "$SRC" distclean >/dev/null 2>&1
fi
# not the files of a deleted-but-unstaged file
find "$SRC" -xtype l -delete 2>/dev/null

MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
DEBARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
VERSION=$(dpkg-parsechangelog -l "$SRC/debian/changelog" -S Version)
start=$(date +%s)
(cd "$SRC" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
	dpkg-buildpackage -us -uc -b) >"$WORK/build.log" 2>&1
status=$?
result dpkg-buildpackage $status "$(grep -m3 -iE 'error|missing' "$WORK/build.log"; tail -3 "$WORK/build.log")"
echo "debian: dpkg-buildpackage took $(($(date +%s) - start)) s"
if [ $status != 0 ]; then
	exit 1
fi

TOOL=$WORK/gproftk_${VERSION}_$DEBARCH.deb
DEV=$WORK/libgmon-dev_${VERSION}_$DEBARCH.deb
CHANGES=$WORK/gproftk_${VERSION}_$DEBARCH.changes

# files DEB: its regular files and links, one a line, without "./"
files() {
	dpkg-deb -c "$1" | awk '$1 !~ /^d/ { p = $6; sub(/^\.\//, "/", p); print p }' | sort
}
files "$TOOL" >"$WORK/tool.list"
files "$DEV" >"$WORK/dev.list"

# check_list NAME LIST FILE...: each FILE is in LIST
check_list() {
	name=$1 list=$2
	shift 2
	missing=
	for f in "$@"; do
		grep -qxF "$f" "$list" || missing="$missing $f"
	done
	result "$name" "$([ -z "$missing" ]; echo $?)" "missing:$missing"
}
man1=
for page in "$SRC"/doc/*.1; do
	name=${page##*/}
	[ "$name" = gprof.1 ] && name=gproftk.1
	man1="$man1 /usr/share/man/man1/$name.gz"
done
# shellcheck disable=SC2086
check_list gproftk-files "$WORK/tool.list" /usr/bin/gproftk /usr/bin/gprof-bbconv \
	/usr/lib/gproftk/bin/gprof /usr/share/doc/gproftk/README.Debian \
	/usr/share/doc/gproftk/copyright $man1
dev_files="/usr/include/libgmon.h /usr/lib/$MA/libgmon.a
	/usr/lib/$MA/libgmon/libgmon-audit.so /usr/lib/$MA/pkgconfig/libgmon.pc
	/usr/share/doc/libgmon-dev/copyright"
for page in "$SRC"/doc/*.3; do
	dev_files="$dev_files /usr/share/man/man3/${page##*/}.gz"
done
if grep -q '^Build-Depends:.*musl-tools' "$SRC/debian/control"; then
	dev_files="$dev_files /usr/lib/$MA/musl/libgmon.a /usr/lib/$MA/musl/gcrt1.o
		/usr/lib/$MA/pkgconfig/libgmon-musl.pc"
fi
# shellcheck disable=SC2086
check_list libgmon-dev-files "$WORK/dev.list" $dev_files

# binutils' /usr/bin/gprof and gprof.1 are not ours to ship (README.Debian)
! grep -Eq '^/usr/bin/gprof$|/man1/gprof\.1' "$WORK/tool.list" "$WORK/dev.list"
result leaves-binutils-gprof $? "$(grep -E '^/usr/bin/gprof$|/man1/gprof\.1' "$WORK/tool.list")"
dpkg-deb -f "$TOOL" Conflicts Replaces Breaks Provides >"$WORK/relations"
[ ! -s "$WORK/relations" ]
result no-conflicts-with-binutils $? "$(cat "$WORK/relations")"
# the link is relative and points at the program
[ "$(dpkg-deb -c "$TOOL" | awk '$6 == "./usr/bin/gproftk" { print $8 }')" = ../lib/gproftk/bin/gprof ]
result gproftk-link $?

# Unpack both (no dpkg database, no root) and profile a program with them.
U=$WORK/unpacked
dpkg-deb -x "$TOOL" "$U" && dpkg-deb -x "$DEV" "$U"
result unpack $?
pc=$U/usr/lib/$MA/pkgconfig/libgmon.pc
grep -qx 'libdir=/usr/lib/'"$MA" "$pc" && grep -qx 'includedir=/usr/include' "$pc" &&
	grep -qx "auditmodule=/usr/lib/$MA/libgmon/libgmon-audit.so" "$pc"
result pkg-config-paths $? "$(grep -E '^(libdir|includedir|auditmodule)=' "$pc" | tr '\n' ' ')"
cp "$SRC/tests/programs/installed/leaf.c" "$WORK/prog.c"
(
	cd "$WORK" || exit 1
	export PKG_CONFIG_LIBDIR="$U/usr/lib/$MA/pkgconfig" PKG_CONFIG_PATH= \
		PKG_CONFIG_SYSROOT_DIR="$U"
	# shellcheck disable=SC2046
	cc -g $(pkg-config --cflags libgmon) -o prog prog.c $(pkg-config --libs libgmon) &&
		./prog >/dev/null && "$U/usr/bin/gproftk" -b -q prog gmon.out >report
) >"$WORK/profile.log" 2>&1
grep -Eq '^\[[0-9]+\] .* 1000 +leaf \[[0-9]+\]$' "$WORK/report" 2>/dev/null
result profile-with-packages $? "$(tail -3 "$WORK/profile.log")"

# README.Debian's recipe for making gprof mean gproftk (diversions of
# binutils' files, then update-alternatives), and its undoing, run as
# written on a scratch root (--root) holding the unpacked package and
# stand-ins for binutils' /usr/bin/gprof link and gprof.1.gz.
R=$WORK/altroot
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/alternatives" "$R/etc/alternatives" \
	"$R/usr/bin" && : >"$R/var/lib/dpkg/diversions" && : >"$R/var/lib/dpkg/status" &&
	cp -a "$U/usr" "$R" && rm -f "$R/usr/bin/gprof" &&
	printf '#!/bin/sh\necho GNU\n' >"$R/usr/bin/$MA-gprof" &&
	ln -s "$MA-gprof" "$R/usr/bin/gprof" &&
	echo GNU | gzip >"$R/usr/share/man/man1/gprof.1.gz"
awk '/^ +(dpkg-divert|update-alternatives) / || cont {
	line = line " " $0; cont = /\\$/
	if (!cont) { gsub(/\\/, "", line); gsub(/ +/, " ", line); sub(/^ /, "", line); print line; line = "" }
}' "$SRC/debian/gproftk.README.Debian" |
	sed -e 's|^\([a-z-]*\) |\1 --root '"$R"' |' \
	    -e 's|--config gprof$|--set gprof /usr/lib/gproftk/bin/gprof|' >"$WORK/recipe"
set_line=$(grep -n -- '--set gprof' "$WORK/recipe" | cut -d: -f1)
if [ -z "$set_line" ] || [ "$(wc -l <"$WORK/recipe")" -lt 6 ]; then
	result alternatives-recipe 1 "README.Debian's commands not found"
else
	head -n "$set_line" "$WORK/recipe" >"$WORK/recipe.on"
	tail -n +"$((set_line + 1))" "$WORK/recipe" >"$WORK/recipe.off"
	sh -e "$WORK/recipe.on" >"$WORK/recipe.log" 2>&1 &&
		[ "$(readlink "$R/etc/alternatives/gprof")" = /usr/lib/gproftk/bin/gprof ] &&
		[ "$(readlink "$R/etc/alternatives/gprof.1.gz")" = /usr/share/man/man1/gproftk.1.gz ] &&
		[ "$(readlink "$R/usr/bin/gprof.binutils")" = "$MA-gprof" ]
	result alternatives-recipe $? "$(tail -2 "$WORK/recipe.log")"
	sh -e "$WORK/recipe.off" >>"$WORK/recipe.log" 2>&1 &&
		[ "$(readlink "$R/usr/bin/gprof")" = "$MA-gprof" ] &&
		[ ! -e "$R/usr/bin/gprof.binutils" ] && [ -f "$R/usr/share/man/man1/gprof.1.gz" ] &&
		[ ! -s "$R/var/lib/dpkg/diversions" ]
	result alternatives-undo $? "$(tail -2 "$WORK/recipe.log")"
fi

# lintian: errors fail; warnings are shown, not counted.
lintian --fail-on error --no-tag-display-limit "$CHANGES" >"$WORK/lintian.log" 2>&1
status=$?
grep -E '^[EW]: ' "$WORK/lintian.log" | sed 's/^/debian: lintian: /'
result lintian-no-errors $status "$(grep -m3 '^E: ' "$WORK/lintian.log")"

# The scratch copy only: the source tree has no debian/ build output.
leftover=$( (cd "$ROOT" && ls -d debian/tmp debian/gproftk debian/libgmon-dev \
	debian/.debhelper debian/files 2>/dev/null
	[ "$(outside)" = "$outside_before" ] || outside) | head -3)
[ -z "$leftover" ]
result source-tree-untouched $? "$leftover"

exit $failed
