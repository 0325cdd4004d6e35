# SPDX-License-Identifier: GPL-3.0-or-later
# tests/targets.sh: the foreign targets libgmon and the tests know, and
# the names each one goes by in Debian and qemu.  Sourced by tests/deps.sh
# and by the cross-target tests.
# shellcheck shell=sh disable=SC2034

# The gcc triples, little-endian first; s390x is the big-endian one.
CROSS_TRIPLES="aarch64-linux-gnu arm-linux-gnueabihf riscv64-linux-gnu powerpc64le-linux-gnu s390x-linux-gnu"

# target_debarch TRIPLE: Debian's architecture name (libc6-dev-ARCH-cross).
target_debarch() {
	case $1 in
	aarch64-*) echo arm64 ;;
	arm-*gnueabihf) echo armhf ;;
	riscv64-*) echo riscv64 ;;
	powerpc64le-*) echo ppc64el ;;
	s390x-*) echo s390x ;;
	esac
}

# target_qemu TRIPLE: the qemu-user program that runs its executables.
target_qemu() {
	case $1 in
	powerpc64le-*) echo qemu-ppc64le ;;
	*) echo "qemu-${1%%-*}" ;;
	esac
}

# target_gnu_gprof TRIPLE: the GNU gprof that reads its files: the
# multi-target build where binutils-multiarch is installed, else the
# target's own cross gprof (binutils-TRIPLE, which its gcc pulls in).
target_gnu_gprof() {
	if [ -x /usr/bin/x86_64-linux-gnu-gprof.single ]; then
		echo /usr/bin/gprof
	else
		echo "/usr/bin/$1-gprof"
	fi
}
