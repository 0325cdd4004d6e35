# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/threads.sh: --per-thread (sourced by tests/formats.sh,
# which gives $GPROF, $FIXTURES, $WORK and the helpers).  A side file
# (tests/tools/gmsl-gen.c) with two named threads of the cycle-O0 program,
# each with known samples and calls: each thread's flat profile and call
# graph show exactly its own, the threads' calls add up to the whole,
# selecting by id and by name works, the output without the option does
# not change, and a profile without threads or an unknown thread is one
# message and status 1.

TH=$WORK/threads
mkdir -p "$TH"

# th_section FILE N: the lines of the N-th thread's section (from its
# "Thread" line to the next).
th_section() {
	awk -v n="$2" '/^Thread [0-9]+ \(tid / { k++ } k == n' "$1"
}
# th_flat FILE: "name self-seconds calls" of each flat-profile row.
th_flat() {
	awk '/^Flat profile:/ { f = 1; next }
	     f && /^$/ { if (seen) f = 0; next }
	     f && $1 ~ /^[0-9.]+$/ && NF >= 4 {
		seen = 1
		print $NF, $3, (NF >= 7 ? $4 : "-") }' "$1"
}
# th_calls FILE: "caller callee count" of each caller line of the call
# graph (the lines above an entry, "self children n/m name [i]").
th_calls() {
	awk '/^index % time/ { g = 1; next }
	     /^Index by function name/ { g = 0 }
	     !g { next }
	     /^\[[0-9]+\]/ { me = $(NF - 1)
		for (i = 1; i <= np; i++) print par[i], me, cnt[i]; np = 0; next }
	     /^-+$/ { np = 0; next }
	     $3 ~ /^[0-9]+\/[0-9]+$/ { split($3, c, "/"); par[++np] = $4;
		cnt[np] = c[1] }' "$1" | sort
}

threads_main() {
	_t_prog=$FIXTURES/cycle-O0/prog
	if ! ${CC:-cc} -O -o "$TH/gmsl-gen" "$TESTS_DIR/tools/gmsl-gen.c"; then
		fail "threads: gmsl-gen builds"
		return
	fi
	cp "$FIXTURES/cycle-O0/gmon.out" "$TH/gmon.out"
	# Without a side file, to compare the default output with.
	"$GPROF" "$_t_prog" "$TH/gmon.out" > "$TH/plain" 2>&1
	_t_rate=$(od -An -tu4 -j41 -N4 "$TH/gmon.out" | tr -d ' ')
	nm "$_t_prog" | awk '$2 ~ /^[Tt]$/ &&
		$3 ~ /^(main|fib|leaf|ping|pong)$/ { print $3, "0x" $1 }' \
		> "$TH/names"
	# Addresses inside each function (a call's return address is 4
	# bytes in: the caller is still that function).
	for _t_f in main fib leaf ping pong; do
		eval "_t_$_t_f=\$(awk -v n=$_t_f '\$1 == n { print \$2 }' \"\$TH/names\")"
	done
	if [ -z "$_t_main" ] || [ -z "$_t_pong" ]; then
		fail "threads: the fixture's symbols" "$(cat "$TH/names")"
		return
	fi
	# Thread 0 "main": samples main 5, fib 3; calls main->fib 7,
	# fib->leaf 4.  Thread 1 "worker": samples ping 6, pong 2; calls
	# ping->pong 5, pong->leaf 2.
	cat > "$TH/desc" <<EOD
header $_t_rate 0
object 0 0 0x1000 0x2000 prog -
thread 0 4242 main
thread 1 4243 worker
tsamples 0 0 $_t_main 5 $_t_fib 3
tarcs 0 0 $((_t_main + 4)) 0 $_t_fib 7 0 $((_t_fib + 4)) 0 $_t_leaf 4
tsamples 1 0 $_t_ping 6 $_t_pong 2
tarcs 1 0 $((_t_ping + 4)) 0 $_t_pong 5 0 $((_t_pong + 4)) 0 $_t_leaf 2
EOD
	if ! "$TH/gmsl-gen" "$TH/gmon.out.shlibs" < "$TH/desc"; then
		fail "threads: side file generated"
		return
	fi

	# The default output does not change with thread records.
	"$GPROF" "$_t_prog" "$TH/gmon.out" > "$TH/plain2" 2>&1
	if cmp -s "$TH/plain" "$TH/plain2"; then
		pass "threads: the default output is unchanged"
	else
		fail "threads: the default output is unchanged" \
			"$(diff "$TH/plain" "$TH/plain2" | head -10)"
	fi

	if ! "$GPROF" --per-thread -b "$_t_prog" "$TH/gmon.out" \
	        > "$TH/all" 2> "$TH/err"; then
		fail "threads: --per-thread runs" "$(head -5 "$TH/err")"
		return
	fi
	if [ "$(grep -c '^Thread ' "$TH/all")" -eq 2 ] &&
	   grep -qx 'Thread 0 (tid 4242, "main"):' "$TH/all" &&
	   grep -qx 'Thread 1 (tid 4243, "worker"):' "$TH/all"; then
		pass "threads: one section per thread, headed by it"
	else
		fail "threads: one section per thread, headed by it" \
			"$(grep '^Thread' "$TH/all")"
	fi
	th_section "$TH/all" 1 > "$TH/t0"
	th_section "$TH/all" 2 > "$TH/t1"
	printf '%s\n' "main 0.05 -" "fib 0.03 7" "leaf 0.00 4" > "$TH/want0"
	printf '%s\n' "ping 0.06 -" "pong 0.02 5" "leaf 0.00 2" > "$TH/want1"
	printf '%s\n' "fib leaf 4" "main fib 7" > "$TH/calls0"
	printf '%s\n' "ping pong 5" "pong leaf 2" > "$TH/calls1"
	for _t_n in 0 1; do
		th_flat "$TH/t$_t_n" > "$TH/flat$_t_n"
		if cmp -s "$TH/flat$_t_n" "$TH/want$_t_n"; then
			pass "threads: thread $_t_n's flat profile is its own"
		else
			fail "threads: thread $_t_n's flat profile is its own" \
				"$(diff "$TH/want$_t_n" "$TH/flat$_t_n")"
		fi
		th_calls "$TH/t$_t_n" > "$TH/got$_t_n"
		if cmp -s "$TH/got$_t_n" "$TH/calls$_t_n"; then
			pass "threads: thread $_t_n's call graph is its own"
		else
			fail "threads: thread $_t_n's call graph is its own" \
				"$(diff "$TH/calls$_t_n" "$TH/got$_t_n")"
		fi
	done
	# The threads' calls add up to the whole: every arc of the side
	# file's threads, summed by caller and callee.
	cat "$TH/got0" "$TH/got1" | awk '{ n[$1 " " $2] += $3 }
		END { for (k in n) print k, n[k] }' | sort > "$TH/sum"
	printf '%s\n' "fib leaf 4" "main fib 7" "ping pong 5" "pong leaf 2" |
		awk '{ n[$1 " " $2] += $3 } END { for (k in n) print k, n[k] }' |
		sort > "$TH/whole"
	_t_calls=$(awk '{ n += $3 } END { print n }' "$TH/sum")
	if cmp -s "$TH/sum" "$TH/whole" && [ "$_t_calls" -eq 18 ]; then
		pass "threads: the threads' calls add up to the whole"
	else
		fail "threads: the threads' calls add up to the whole" \
			"$(cat "$TH/sum")"
	fi

	# Selecting one thread, by id and by name: that section alone.
	for _t_sel in 1 worker; do
		if "$GPROF" --per-thread="$_t_sel" -b "$_t_prog" "$TH/gmon.out" \
		        > "$TH/one" 2> "$TH/err" && cmp -s "$TH/one" "$TH/t1"; then
			pass "threads: --per-thread=$_t_sel is thread 1 alone"
		else
			fail "threads: --per-thread=$_t_sel is thread 1 alone" \
				"$(head -3 "$TH/err")" "$(diff "$TH/t1" "$TH/one" | head)"
		fi
	done

	# An unknown thread: one line listing them, status 1, no output.
	"$GPROF" --per-thread=nobody "$_t_prog" "$TH/gmon.out" > "$TH/out" \
		2> "$TH/err"
	_t_rc=$?
	if [ $_t_rc -eq 1 ] && [ ! -s "$TH/out" ] &&
	   [ "$(wc -l < "$TH/err")" -eq 1 ] &&
	   grep -q '0 "main", 1 "worker"' "$TH/err"; then
		pass "threads: an unknown thread is one line listing them"
	else
		fail "threads: an unknown thread is one line listing them" \
			"status $_t_rc" "$(cat "$TH/err")"
	fi

	# No thread records: the reason, once.
	rm -f "$TH/gmon.out.shlibs"
	"$GPROF" --per-thread "$_t_prog" "$TH/gmon.out" > "$TH/out" 2> "$TH/err"
	_t_rc=$?
	if [ $_t_rc -eq 1 ] && [ ! -s "$TH/out" ] &&
	   [ "$(wc -l < "$TH/err")" -eq 1 ] && grep -q 'GMON_STACKS=1' "$TH/err"
	then
		pass "threads: no thread records is one message and status 1"
	else
		fail "threads: no thread records is one message and status 1" \
			"status $_t_rc" "$(cat "$TH/err")"
	fi
}
threads_main
