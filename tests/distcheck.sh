# SPDX-License-Identifier: GPL-3.0-or-later
# distcheck.sh: what `make distcheck` runs after `make dist`.  Unpacks the
# release tarball in a scratch folder, builds it, runs `make check` there,
# installs it into a scratch DESTDIR, uninstalls it and checks that no file
# is left; then that make distclean leaves only the tarball's files.
# usage: sh tests/distcheck.sh gproftk-VERSION.tar.gz
# Slow (a whole make check); not part of make check.
set -u
[ $# = 1 ] || { echo "usage: sh $0 TARBALL" >&2; exit 2; }
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
name=$(basename "$tarball" .tar.gz)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/distcheck.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

die() { echo "distcheck: $*"; exit 1; }

cd "$WORK" || exit 1
tar -xzf "$tarball" || die "cannot unpack $tarball"
[ -d "$name" ] || die "$tarball does not unpack to $name/"
tar -tzf "$tarball" | sed 's|/$||' | sort >files.orig
cd "$name" || exit 1

echo "distcheck: building $name in $WORK"
make >"$WORK/build.log" 2>&1 || { tail -20 "$WORK/build.log"; die "make failed"; }
grep -q 'autoreconf' "$WORK/build.log" &&
	die "make ran autoreconf: the tarball's configure should have been used"

echo "distcheck: make check"
make check >"$WORK/check.log" 2>&1
status=$?
tail -3 "$WORK/check.log"
grep '^FAIL: \|^SKIP: ' "$WORK/check.log" | head -20
[ $status = 0 ] || die "make check failed in the unpacked release"

D=$WORK/destdir
echo "distcheck: make install DESTDIR=$D, then make uninstall"
make install DESTDIR="$D" >"$WORK/install.log" 2>&1 || die "make install failed"
[ -x "$D/usr/local/bin/gprof" ] || die "make install did not install gprof"
make uninstall DESTDIR="$D" >>"$WORK/install.log" 2>&1 || die "make uninstall failed"
left=$(find "$D" ! -type d)
[ -z "$left" ] || die "make uninstall left files behind: $left"

echo "distcheck: make distclean"
make distclean >"$WORK/distclean.log" 2>&1 || die "make distclean failed"
# what is left must be the tarball's files (make distclean may remove the
# generated configure, config.h.in and install-sh, which make regenerates)
(cd .. && find "$name" | sort) >"$WORK/files.after"
extra=$(comm -13 "$WORK/files.orig" "$WORK/files.after" | head -10)
[ -z "$extra" ] || die "make distclean left files that are not in the tarball: $extra"

echo "distcheck: $name.tar.gz is ready for release"
