# SPDX-License-Identifier: GPL-3.0-or-later
# deps.sh: checks for everything the build and the whole test suite need,
# and installs the missing Debian packages with apt-get, as root or through
# a password-less sudo; otherwise prints the command to run and exits 1.
# `make check`, `make deps` and .ci/run call it, and `make demo` with
# --build, so the list lives here only.
#
#   sh tests/deps.sh          the build and every test's toolchain
#   sh tests/deps.sh --build  only what building src/gprof and libgmon need
#
# The consumers of the output formats: Graphviz, Chromium, valgrind's
# callgrind_annotate, Go's pprof and python3-jsonschema.
# The test toolchains: musl-gcc and clang (libgmon's other C library and
# compiler), dpkg-dev (for `apt-get source musl`: make libc_p; deb-src
# entries are added when apt-get finds no source packages), the i386
# libraries for gcc -m32, a gcc cross compiler and C library for every
# architecture libgmon supports besides x86, qemu-user to run their
# programs, and GNU binutils' multi-target build (its gprof is the
# reference for foreign files, its libbfd lets src/gprof read them).
# tests/install.sh and tests/debian.sh: pkgconf, debhelper, lintian,
# fakeroot and build-essential.
set -u

# shellcheck source=tests/targets.sh
. "$(dirname "$0")/targets.sh"

missing=

need_cmd() {	# command, package
	command -v "$1" >/dev/null 2>&1 || missing="$missing $2"
}

need_header() {	# header, package
	if command -v gcc >/dev/null 2>&1; then
		printf '#include <%s>\n' "$1" | gcc -E -x c - >/dev/null 2>&1 && return
	elif [ -f "/usr/include/$1" ]; then
		return
	fi
	missing="$missing $2"
}

need_file() {	# path, package
	[ -e "$1" ] || missing="$missing $2"
}

need_cmd gcc gcc
need_cmd g++ g++
need_cmd make make
need_cmd autoconf autoconf
need_cmd automake automake
need_header bfd.h binutils-dev
need_header libiberty/demangle.h libiberty-dev
need_header zlib.h zlib1g-dev
# optional for the build (-l reads DWARF line tables with it), but wanted
need_header elfutils/libdw.h libdw-dev

if [ "${1:-}" != --build ]; then
	need_cmd musl-gcc musl-tools
	# apt-get source musl, for make libc_p (musl's C library with -pg)
	need_cmd dpkg-source dpkg-dev
	need_cmd clang clang
	# the consumers of the output formats (tests/formats.sh)
	need_cmd dot graphviz
	need_cmd chromium chromium
	need_cmd callgrind_annotate valgrind
	need_cmd go golang-go
	command -v python3 >/dev/null 2>&1 &&
		python3 -c 'import jsonschema' 2>/dev/null ||
		missing="$missing python3-jsonschema"
	need_file /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf fonts-dejavu-core
	# gcc-12-multilib, not gcc-multilib: the latter conflicts with every
	# gcc cross compiler (see fix_m32_headers).
	need_file /usr/lib/gcc/x86_64-linux-gnu/12/32/libgcc.a gcc-12-multilib
	need_file /usr/include/x86_64-linux-gnu/gnu/stubs-32.h libc6-dev-i386
	for t in $CROSS_TRIPLES; do
		need_cmd "$t-gcc" "gcc-$t"
		need_file "/usr/$t/include/stdio.h" "libc6-dev-$(target_debarch "$t")-cross"
		need_cmd "$(target_qemu "$t")" qemu-user
	done
	need_file /usr/lib/x86_64-linux-gnu/libbfd-multiarch.so binutils-multiarch-dev
	need_file /usr/bin/x86_64-linux-gnu-gprof.single binutils-multiarch
	# speedscope (from npm) reads the folded stacks in tests/formats.sh
	need_cmd npm npm
	# bench/accuracy.sh compares libgmon with perf (it installs the rest
	# of what it needs, the C library's debug symbols among them)
	need_cmd perf linux-perf
	# the manual pages' checks (tests/manpages.sh)
	need_cmd groff groff-base
	need_cmd man man-db
	# tests/install.sh and tests/debian.sh: pkg-config, and what building
	# and checking the Debian packages needs (dpkg-buildpackage wants
	# build-essential besides debian/control's Build-Depends)
	need_cmd pkg-config pkgconf
	need_cmd dpkg-buildpackage dpkg-dev
	need_cmd dh debhelper
	need_cmd lintian lintian
	need_cmd fakeroot fakeroot
	dpkg-query -W -f='${Status}' build-essential 2>/dev/null | grep -q ' installed$' ||
		missing="$missing build-essential"
fi
if [ "$(id -u)" = 0 ]; then
	sudo=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo="sudo -n"
else
	sudo=no
fi

# gcc-multilib's only file is the /usr/include/asm link that gcc -m32
# needs (its i386 include folder has no asm/); a cross compiler's install
# removes that package, so put the same link back.
fix_m32_headers() {
	[ "${1:-}" = --build ] && return 0
	[ -e /usr/include/asm ] && return 0
	[ -d /usr/include/x86_64-linux-gnu/asm ] || return 0
	echo "deps: linking /usr/include/asm -> x86_64-linux-gnu/asm for gcc -m32"
	$sudo ln -s x86_64-linux-gnu/asm /usr/include/asm
}

# The npm registry's consumers (pinned versions), after the Debian ones:
# speedscope, the flame graph viewer that reads folded stacks.
SPEEDSCOPE=speedscope@1.25.0
npm_tools() {
	[ "${1:-}" = --build ] && return 0
	command -v npm >/dev/null 2>&1 || return 1
	root=$(npm root -g 2>/dev/null) || return 1
	[ -f "$root/speedscope/dist/release/index.html" ] && return 0
	echo "deps: installing $SPEEDSCOPE from the npm registry"
	$sudo npm install -g --no-audit --no-fund "$SPEEDSCOPE" >/dev/null ||
		{ echo "deps: could not install $SPEEDSCOPE (npm install -g $SPEEDSCOPE)"; return 1; }
}

# `make libc_p` (musl's C library with -pg, tested by make check) fetches
# musl's source with apt-get source, which needs source package lists:
# when apt-get cannot find it, add deb-src beside each deb entry of
# Debian's own sources (the one-line /etc/apt/sources.list and the deb822
# debian.sources), other repositories left alone, and update the lists.
enable_deb_src() {
	tmp=$(mktemp) || return 1
	f=/etc/apt/sources.list
	if [ -f "$f" ]; then
		awk '{ print }
		     /^deb-src[ \t]/ { have[$0] = 1 }
		     /^deb[ \t]/ { s = $0; sub(/^deb/, "deb-src", s); add[++n] = s }
		     END { for (i = 1; i <= n; i++) if (!(add[i] in have)) print add[i] }' \
			"$f" >"$tmp"
		cmp -s "$f" "$tmp" || $sudo cp "$tmp" "$f"
	fi
	f=/etc/apt/sources.list.d/debian.sources
	if [ -f "$f" ]; then
		sed '/^Types:/{/deb-src/!s/\<deb\>/deb deb-src/;}' "$f" >"$tmp"
		cmp -s "$f" "$tmp" || $sudo cp "$tmp" "$f"
	fi
	rm -f "$tmp"
}
musl_source() {
	[ "${1:-}" = --build ] && return 0
	command -v apt-get >/dev/null 2>&1 || return 0
	apt-get source --print-uris musl >/dev/null 2>&1 && return 0
	if [ "$sudo" = no ]; then
		echo "deps: apt-get finds no source packages (make libc_p needs musl's): add deb-src" \
			"beside deb in /etc/apt/sources.list or \"Types: deb deb-src\" in" \
			"/etc/apt/sources.list.d/debian.sources, then sudo apt-get update"
		return 1
	fi
	echo "deps: enabling Debian's source packages (deb-src) for apt-get source musl"
	enable_deb_src && $sudo apt-get update -q >/dev/null ||
		{ echo "deps: could not enable deb-src; make libc_p will say what to do"; return 1; }
	apt-get source --print-uris musl >/dev/null 2>&1 ||
		{ echo "deps: apt-get source musl still finds nothing; make libc_p will say what to do"; return 1; }
}

missing=$(printf '%s\n' $missing | sort -u | tr '\n' ' ')
missing=${missing% }
if [ -z "$missing" ]; then
	echo "deps: all dependencies are installed"
	[ "$sudo" = no ] || { fix_m32_headers "$@"; npm_tools "$@" || exit 1; }
	musl_source "$@" || exit 1
	exit 0
fi
echo "deps: missing packages: $missing"
if [ "$sudo" = no ]; then
	echo "deps: not root and no password-less sudo; install them with:"
	echo "  sudo apt-get install $missing"
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! $sudo apt-get install -y $missing; then
	echo "deps: install failed; updating the package lists and retrying"
	if ! { $sudo apt-get update && $sudo apt-get install -y $missing; }; then
		echo "deps: could not install: $missing"
		exit 1
	fi
fi
fix_m32_headers "$@"
npm_tools "$@" || exit 1
musl_source "$@" || exit 1
echo "deps: installed $missing"
