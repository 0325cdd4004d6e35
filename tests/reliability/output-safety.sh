# SPDX-License-Identifier: GPL-3.0-or-later
# reliability/output-safety.sh: an existing gmon.sum survives a gprof -s
# that cannot finish: killed while writing (as soon as its temporary file
# appears, then after fixed delays), a corrupt input, a full file system
# (a tmpfs of 64 KiB) and a read-only folder (a tmpfs remounted read-only).
# The mounts need root and are skipped otherwise; they are recorded in
# MOUNTS for reliability.sh's clean-up.  Sourced by tests/reliability.sh
# after common.sh.

# sum_ok DIR: gmon.sum in DIR is still the original.
cp "$GMON" "$T/old.sum"
sum_ok() { cmp -s "$1/gmon.sum" "$T/old.sum"; }
no_temps() { ! ls "$1"/gmon.sum.?????? >/dev/null 2>&1; }

# Killed while writing: a 20 MB sum, killed as soon as its temporary file
# appears, then with fixed delays.
mkhist "$T/big.gmon" 10000000 1
mkdir -p "$T/kill"
cp "$T/old.sum" "$T/kill/gmon.sum"
(cd "$T/kill" && exec "$GPROF" -s -b "$PROG" ../big.gmon > /dev/null 2>&1) &
pid=$!
seen=0
while kill -0 $pid 2>/dev/null; do
	if ls "$T/kill"/gmon.sum.?????? >/dev/null 2>&1; then
		kill -KILL $pid 2>/dev/null && seen=1
		break
	fi
done
wait $pid 2>/dev/null
if [ $seen = 0 ]; then
	skip killed-mid-write "the write ended before it could be interrupted"
elif sum_ok "$T/kill"; then
	pass killed-mid-write
else
	fail killed-mid-write "gmon.sum changed"
fi
rm -f "$T/kill"/gmon.sum.??????
if command -v timeout >/dev/null 2>&1; then
	ok=1
	for d in 0.05 0.1 0.2 0.4; do
		cp "$T/old.sum" "$T/kill/gmon.sum"
		# (an inner shell, so that its "Killed" notice goes to /dev/null)
		(cd "$T/kill" && sh -c 'timeout -s KILL "$@" > /dev/null; :' sh \
			$d "$GPROF" -s -b "$PROG" ../big.gmon 2>/dev/null)
		# Either the old file, or the whole new one.
		if ! sum_ok "$T/kill" &&
		   [ "$(wc -c < "$T/kill/gmon.sum")" != "$(wc -c < "$T/big.gmon")" ]; then
			ok=0
		fi
		rm -f "$T/kill"/gmon.sum.??????
	done
	if [ $ok = 1 ]; then pass killed-by-timeout; else fail killed-by-timeout "gmon.sum damaged"; fi
fi

# A corrupt input: nothing is written.
mkdir -p "$T/corrupt"
cp "$T/old.sum" "$T/corrupt/gmon.sum"
head -c 100 "$GMON" > "$T/corrupt.gmon"
(cd "$T/corrupt" && "$GPROF" -s -b "$PROG" "$GMON" ../corrupt.gmon > /dev/null 2>&1)
rc=$?
if [ $rc = 1 ] && sum_ok "$T/corrupt" && no_temps "$T/corrupt"; then
	pass corrupt-input-keeps-sum
else
	fail corrupt-input-keeps-sum "status $rc"
fi

# A full file system and a read-only one (tmpfs mounts: root only).
mkdir -p "$T/full" "$T/ro"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=64k tmpfs "$T/full" 2>/dev/null; then
	MOUNTS="$MOUNTS $T/full"
	cp "$T/old.sum" "$T/full/gmon.sum"
	mkhist "$T/mid.gmon" 40000 1      # an 80 KB sum
	(cd "$T/full" && "$GPROF" -s -b "$PROG" ../mid.gmon > /dev/null 2> ../full.err)
	rc=$?
	if [ $rc = 1 ] && sum_ok "$T/full" && no_temps "$T/full" &&
	   grep -q 'No space left' "$T/full.err"; then
		pass disk-full-keeps-sum
	else
		fail disk-full-keeps-sum "status $rc, $(head -c 200 "$T/full.err")"
	fi
	umount "$T/full"
else
	skip disk-full-keeps-sum "cannot mount a tmpfs (needs root)"
fi
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=1m tmpfs "$T/ro" 2>/dev/null; then
	MOUNTS="$MOUNTS $T/ro"
	cp "$T/old.sum" "$T/ro/gmon.sum"
	if mount -o remount,ro "$T/ro" 2>/dev/null; then
		(cd "$T/ro" && "$GPROF" -s -b "$PROG" "$GMON" > /dev/null 2> ../ro.err)
		rc=$?
		if [ $rc = 1 ] && sum_ok "$T/ro" && grep -q 'Read-only' "$T/ro.err"; then
			pass read-only-folder-keeps-sum
		else
			fail read-only-folder-keeps-sum "status $rc, $(head -c 200 "$T/ro.err")"
		fi
	else
		skip read-only-folder-keeps-sum "cannot remount read-only"
	fi
	umount "$T/ro"
else
	skip read-only-folder-keeps-sum "cannot mount a tmpfs (needs root)"
fi
