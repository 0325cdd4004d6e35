#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# make-env-seeds.sh: writes the seeds of the `env` harness (fuzz_env.c)
# to tests/fuzz/corpus/env/seed-SEL-NN: a selector byte (0 the exit
# signals, 1 the dump signal, 2 both, 3-6 the numbers, 7-9 the words),
# then a good or bad value.  Run from the top of the tree.
set -eu
d=tests/fuzz/corpus/env
mkdir -p "$d"
i=0
# seed SEL VALUE...: one file per value.
seed() {
	sel=$1
	shift
	for v in "$@"; do
		i=$((i + 1))
		{ printf "\\$(printf %03o "$sel")"; printf '%s' "$v"; } \
			>"$d/seed-$sel-$(printf %02d $i)"
	done
}
long=$(printf 'INT,%.0s' $(seq 70))TERM
seed 0 "INT,TERM" "SIGUSR2" "15" "" "," "INT,,TERM" "99999999999999999999" \
	"0x10" "-1" "1e3" "sigint,Sigterm,HUP" "CHLD" "KILL" "PROF" "64" "65" \
	"34" "INT," ",INT" "NOPE" "$long" "SIG" \
	"int,quit,abrt,segv,bus,fpe,ill,trap,sys,xcpu,xfsz,vtalrm,pwr,io,alrm,pipe,usr1,usr2,hup,term"
seed 1 "USR2" "SIGUSR1" "12" "" "PROF" "TERM" "99999" "0" "-12" " 12" "12 " \
	"SIGRTMAX" "KILL" "STOP" "winch" "CHLD" "99999999999999999999"
printf '\002INT,TERM\000TERM' >"$d/seed-2-both-same"
printf '\002INT\000USR2' >"$d/seed-2-both-ok"
printf '\002NOPE\000INT' >"$d/seed-2-bad-list"
for sel in 3 4 5 6; do
	seed "$sel" "1" "1000" "250" "" "0" "-1" "+5" " 7" "7 " "0x10" "1e3" \
		"99999999999999999999" "1000000" "1000001" "1024" "1025" "8388608" \
		"8388609" "16" "15" "100000000" "100000001" \
		"0000000000000000000000000000042" "-18446744073709551600" "lots"
done
for sel in 7 8 9; do
	seed "$sel" "cpu" "wall" "0" "1" "" "CPU" "yes" "1 " "01" \
		"$(printf 'a%.0s' $(seq 600))"
done
