# SPDX-License-Identifier: GPL-3.0-or-later
# deps.sh: checks for the build dependencies (gcc, g++, make, autoconf,
# automake, and the headers of binutils-dev, libiberty-dev and zlib1g-dev)
# and installs the missing Debian packages with apt-get, as root or through
# a password-less sudo.  Otherwise prints the command to run and exits 1.
set -u

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

need_cmd gcc gcc
need_cmd g++ g++
need_cmd make make
need_cmd autoconf autoconf
need_cmd automake automake
need_header bfd.h binutils-dev
need_header libiberty/demangle.h libiberty-dev
need_header zlib.h zlib1g-dev

if [ -z "$missing" ]; then
	echo "deps: all build dependencies are installed"
	exit 0
fi
missing=${missing# }
echo "deps: missing packages: $missing"

if [ "$(id -u)" = 0 ]; then
	sudo=
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo="sudo -n"
else
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
echo "deps: installed $missing"
