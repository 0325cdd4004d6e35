# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/histogram.sh: the sampling histogram: the share of time
# and its total, threads sampled on their own CPU clocks, GMON_RATE, and
# bins over 65535 samples written as several records.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

# A 3:1 split of about 2 s of CPU must show within 5 points of 75%, and
# the samples must add up to the CPU time the program measured (10%).
# The kernel delivers at most one sample per tick (250-300 a second is
# common), so the share has a standard error near 2 points: a run that
# misses is repeated once before the test fails.
split_verdict() {
	hist "$1" 8 >"$W/$1/hist" 2>"$W/$1/dump.err"
	awk -v cpu="$(cat "$W/$1/out")" '
		$1 == "heavy" { h = $2 } $1 == "light" { l = $2 }
		$1 == "total" { t = $2 } $1 == "rate" { r = $2 }
		END {
			if (h + l == 0 || r == 0 || cpu == 0) { print "no samples"; exit }
			share = 100 * h / (h + l); secs = t / r
			ok = share >= 70 && share <= 80 && secs >= 0.9 * cpu && secs <= 1.1 * cpu
			printf "%s heavy share %.1f%%, %.2f s sampled at %d Hz for %.2f s of CPU\n",
				ok ? "ok" : "bad", share, secs, r, cpu
		}' "$W/$1/hist"
}
n=time-split
if build "$n" split.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" -- 2
	first=$(split_verdict "$n")
	verdict=$first
	case $first in
	ok*) ;;
	*) run "$n" -- 2; verdict=$(split_verdict "$n") ;;
	esac
	case $verdict in
	ok*) pass "$n" ;;
	*) fail "$n" "$first" "$verdict (want 70-80%, samples within 10% of CPU time)" \
		"$(cat "$W/$n/err" "$W/$n/dump.err")" ;;
	esac
fi

# Threads are sampled too, not only the main thread (which here only
# waits), even threads whose only profiled function is their start
# routine: the samples in worker() must match the CPU time within 15%.
n=thread-sampling
if build "$n" tsample.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" -- 0.5
	hist "$n" 8 >"$W/$n/hist" 2>"$W/$n/dump.err"
	verdict=$(awk -v cpu="$(cat "$W/$n/out")" '
		$1 == "worker" { s = $2 } $1 == "rate" { r = $2 }
		END {
			if (r == 0 || cpu == 0) { print "no profile"; exit }
			secs = s / r
			ok = secs >= 0.85 * cpu && secs <= 1.15 * cpu
			printf "%s %.2f s sampled in worker for %.2f s of CPU\n",
				ok ? "ok" : "bad", secs, cpu
		}' "$W/$n/hist")
	case $verdict in
	ok*) pass "$n" ;;
	*) fail "$n" "$verdict" "$(cat "$W/$n/err" "$W/$n/dump.err")" ;;
	esac
fi

# GMON_RATE sets the sampling rate written to the file; a bad value is
# reported once and the default (1000) used.
n=rate-setting
if build "$n" control.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" GMON_RATE=250 --
	r1=$(hist "$n" 8 2>/dev/null | awk '$1 == "rate" { print $2 }')
	run "$n" GMON_RATE=fast --
	r2=$(hist "$n" 8 2>/dev/null | awk '$1 == "rate" { print $2 }')
	msgs=$(grep -c 'ignoring GMON_RATE=fast' "$W/$n/err")
	if [ "${r1:-}" = 250 ] && [ "${r2:-}" = 1000 ] && [ "$msgs" = 1 ]; then
		pass "$n"
	else
		fail "$n" "rate ${r1:-none} for GMON_RATE=250, ${r2:-none} for a bad value" \
			"$msgs warnings" "$(cat "$W/$n/err")"
	fi
fi

# A bin over 65535 samples goes into several records over the same range;
# GNU gprof must add them up (the seconds it prints match the samples).
n=bin-over-65535
if build "$n" bigbin.c "$GLIBC_LIBS" $CC -O2 -pg; then
	run "$n" GMON_RATE=200000 -- 1.2
	hist "$n" 8 >"$W/$n/hist" 2>"$W/$n/dump.err"
	spin=$(awk '$1 == "spin" { print $2 }' "$W/$n/hist")
	recs=$(awk '$1 == "records" { print $2 }' "$W/$n/hist")
	want=$(awk -v s="${spin:-0}" 'BEGIN { printf "%.2f", s / 200000 }')
	got=$want
	if [ -x "$GNU_GPROF" ]; then
		got=$(cd "$W/$n" && "$GNU_GPROF" -b -p prog gmon.out 2>&1 |
			awk '$NF == "spin" { print $3 }')
	fi
	if [ "${spin:-0}" -le 65535 ] || [ "${recs:-0}" -lt 2 ]; then
		fail "$n" "spin has ${spin:-no} samples in ${recs:-no} records (want > 65535, >= 2)"
	elif [ -z "$got" ] || ! awk -v a="$got" -v b="$want" \
		'BEGIN { exit !(a - b <= 0.011 && b - a <= 0.011) }'; then
		fail "$n" "GNU gprof shows ${got:-nothing} for spin, the samples make $want s"
	elif ! why=$(reports_agree "$n"); then
		fail "$n" "$why"
	else
		pass "$n"
	fi
fi
