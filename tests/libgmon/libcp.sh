# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/libcp.sh: libc_p.a, musl's C library built with -pg
# (`make libc_p`, src/libgmon/libc_p.mk), linked statically with libgmon:
# the calls into the C library are counted exactly (memcpy, malloc, free,
# read from main; qsort's comparator as often as it counted itself), both
# gprofs print the same reports, and the runtime's own calls into the C
# library (growing a table) are not reported as losses.  Without source
# package lists, libc_p.sh stops with one line naming the fix.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

LIBCP_LIBS="-L$L/musl -lgmon -lc_p"

# callgraph_arcs NAME: "caller callee count" for every parent line of
# src/gprof's call graph of NAME's profile.
callgraph_arcs() {
	(cd "$W/$1" && "$OUR_GPROF" -b -q prog gmon.out) |
		awk '/^-+$/ { n = 0; next }
		     /^\[[0-9]+\]/ { for (i = 1; i <= n; i++) print p[i], $(NF - 1), c[i]; n = 0; next }
		     NF >= 3 && $(NF - 2) ~ /^[0-9]+\/[0-9]+$/ { split($(NF - 2), k, "/"); p[++n] = $(NF - 1); c[n] = k[1] }'
}

# flat_calls NAME FUNCTION: the calls column of FUNCTION's flat profile line.
flat_calls() {
	(cd "$W/$1" && "$OUR_GPROF" -b -p prog gmon.out) |
		awk -v f="$2" '$NF == f && NF == 7 { print $4 }'
}

if [ -z "$MUSL" ]; then
	skip libcp "musl-gcc or src/libgmon/musl/libgmon.a is missing; apt-get install musl-tools"
elif [ ! -f "$L/musl/libc_p.a" ]; then
	fail libcp "src/libgmon/musl/libc_p.a is missing: make libc_p builds it, or says in one line what it needs"
else
	# libcp.c: -fno-builtin keeps memcpy, malloc and free real calls.
	n=libcp
	if build "$n" libcp.c "$LIBCP_LIBS" musl-gcc -O2 -fno-builtin -pg -static; then
		run "$n" --
		compares=$(sed -n 's/^compares //p' "$W/$n/out")
		printf '%s\n' "main memcpy 1237" "main malloc 311" "main free 311" \
			"main read 7" "wrapper_cmp by_value $compares" | sort >"$W/$n/expected"
		callgraph_arcs "$n" >"$W/$n/arcs.all"
		only_expected "$W/$n/expected" <"$W/$n/arcs.all" | sort >"$W/$n/arcs"
		flat=$(flat_calls "$n" by_value)
		if [ "$(rc_of "$n")" != 0 ] || [ -s "$W/$n/err" ] || [ -z "$compares" ]; then
			fail "$n" "exit status $(rc_of "$n"), output: $(cat "$W/$n/out")" "$(cat "$W/$n/err")"
		elif ! diff "$W/$n/expected" "$W/$n/arcs" >"$W/$n/arcs.diff"; then
			fail "$n" "call graph (src/gprof -q) differs (< expected, > got):" "$(cat "$W/$n/arcs.diff")"
		elif [ "$flat" != "$compares" ]; then
			fail "$n" "flat profile: by_value called $flat times; the program counted $compares"
		elif ! why=$(reports_agree "$n"); then
			fail "$n" "$why"
		else
			pass "$n"
		fi
	fi

	# Threads, with the C library profiled: the program's arcs are exact.
	exact libcp-threads threads.c threads.expected 8 "$LIBCP_LIBS" musl-gcc -O2 -pg -static

	# growth.c grows its table twice; mprotect and the rest of the
	# runtime's own calls then meet the busy recorder: no loss line.
	n=libcp-growth
	if build "$n" growth.c "$LIBCP_LIBS" musl-gcc -O2 -pg -static; then
		run "$n" --
		v=$("$W/gmondump" -w 8 "$W/$n/gmon.out" arcs 2>&1 | awk '$3 == 3 { ok++ } END { print ok + 0 }')
		if [ "$(rc_of "$n")" = 0 ] && [ ! -s "$W/$n/err" ] && [ "$v" -ge 6144 ]; then
			pass "$n"
		else
			fail "$n" "status $(rc_of "$n"), $v arcs with count 3 (want 6144 or more); stderr:" "$(cat "$W/$n/err")"
		fi
	fi
fi

# Without source package lists, `make libc_p` stops with one line that
# names the fix (a stand-in apt-get answers as Debian's does then).
n=libcp-no-deb-src
mkdir -p "$W/$n/bin"
cat >"$W/$n/bin/apt-get" <<'FAKE'
#!/bin/sh
echo "E: You must put some 'deb-src' URIs in your sources.list" >&2
exit 100
FAKE
printf '#!/bin/sh\nexit 0\n' >"$W/$n/bin/dpkg-source"
chmod +x "$W/$n/bin/apt-get" "$W/$n/bin/dpkg-source"
PATH="$W/$n/bin:$PATH" sh "$L/libc_p.sh" "$W/$n/fetch" "$W/$n/build" "$W/$n/libc_p.a" \
	>"$W/$n/out" 2>"$W/$n/err"
st=$?
if [ "$st" = 1 ] && [ "$(wc -l <"$W/$n/err")" = 1 ] &&
   grep -q '^libc_p: apt-get source musl finds no source packages: add deb-src' "$W/$n/err" &&
   [ ! -e "$W/$n/libc_p.a" ]; then
	pass "$n"
else
	fail "$n" "status $st (want 1), stderr (want one line naming deb-src):" "$(cat "$W/$n/err")"
fi
