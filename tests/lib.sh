# SPDX-License-Identifier: GPL-3.0-or-later
# lib.sh: helpers shared by the test scripts (sourced, not run): case-file
# parsing, fixture profile lists, gmon.sum masking and small utilities.

# Absolute form of a path (the file need not exist).
abspath() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s\n' "$PWD/$1" ;;
	esac
}

# The case files in use: cases.txt always; cases-callgraph.txt when
# GPROF_CG_TESTS=1 or tests/cases-callgraph.enabled exists.  With "all" as
# first argument, both files regardless (used to generate expected outputs).
case_files() {
	printf '%s\n' "$TESTS_DIR/cases.txt"
	if [ "${1:-}" = all ] || [ "${GPROF_CG_TESTS:-}" = 1 ] ||
	   [ -f "$TESTS_DIR/cases-callgraph.enabled" ]; then
		printf '%s\n' "$TESTS_DIR/cases-callgraph.txt"
	fi
}

# Print "ID OPTIONS..." for every case line of the given files: comments
# (# at the start of a line) and blank lines are dropped.
list_cases() {
	for f in "$@"; do
		sed -e 's/[[:space:]]*$//' -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$f"
	done
}

# The options of case ID (empty if it has none; status 1 if not found).
case_options() {
	_id=$1; shift
	_line=$(list_cases "$@" | awk -v id="$_id" '$1 == id { print; exit }')
	[ -n "$_line" ] || return 1
	printf '%s\n' "$_line" | sed -e 's/^[^[:space:]]*[[:space:]]*//'
}

# Per-fixture cases: tests/fixtures/NAME/cases.txt (same format as
# cases.txt) holds option sets run on that fixture only, in addition to the
# global ones, typically options that name its functions or files; an option
# may contain {FIXTURE}, replaced at run time by the fixture's absolute
# directory (for -I DIR, map files, ...; the path must not contain
# whitespace).  tests/fixtures/NAME/skip-cases.txt lists global case IDs
# ("ID reason...") NOT run on that fixture, where GNU's output is known to
# differ on purpose (see doc/gprof.md, "Differences from GNU gprof").

# The case files of fixture directory $1 (none, or its cases.txt).
fixture_case_files() {
	if [ -f "$1/cases.txt" ]; then
		printf '%s\n' "$1/cases.txt"
	fi
}

# The IDs of the cases run on fixture directory $1: the global ones in use
# (with "all" as second argument, all of them) minus the fixture's skipped
# ones, then the fixture's own.
fixture_case_ids() {
	_skip=
	if [ -f "$1/skip-cases.txt" ]; then
		_skip=$(list_cases "$1/skip-cases.txt" | awk '{ print $1 }' | tr '\n' ' ')
	fi
	# shellcheck disable=SC2046
	list_cases $(case_files "${2:-}") | awk -v skip="$_skip" '
	BEGIN { n = split(skip, s, " "); for (i = 1; i <= n; i++) drop[s[i]] = 1 }
	!($1 in drop) { print $1 }'
	# shellcheck disable=SC2046
	list_cases $(fixture_case_files "$1") | awk '{ print $1 }'
}

# Options $1 with every {FIXTURE} replaced by directory $2.
expand_options() {
	_o=$1
	_r=
	while :; do
		case $_o in
		*"{FIXTURE}"*)
			_r=$_r${_o%%"{FIXTURE}"*}$2
			_o=${_o#*"{FIXTURE}"} ;;
		*)
			break ;;
		esac
	done
	printf '%s\n' "$_r$_o"
}

# Move the annotated-source files that -y writes (NAME-ann) from directory
# $1 into directory $2 (created only when there is one).
collect_ann() {
	case $- in *f*) _noglob=1 ;; *) _noglob=0 ;; esac
	set +f
	for _f in "$1"/*-ann; do
		[ -f "$_f" ] || continue
		mkdir -p "$2"
		mv "$_f" "$2/"
	done
	[ "$_noglob" = 0 ] || set -f
}

# The profile files of a fixture directory, in command-line order.
fixture_profiles() {
	if [ -f "$1/gmon.1" ]; then
		_p='' _i=1
		while [ -f "$1/gmon.$_i" ]; do
			_p="$_p gmon.$_i"
			_i=$((_i + 1))
		done
		printf '%s\n' "${_p# }"
	else
		printf '%s\n' gmon.out
	fi
}

# Copy a gmon.sum-style file, zeroing bytes 9..20 (the spare header bytes
# that GNU gprof leaves uninitialised) when it is a GNU-format file.
mask_sum() {
	if [ "$(head -c 4 "$1")" = gmon ]; then
		{ head -c 8 "$1"; head -c 12 /dev/zero; tail -c +21 "$1"; } > "$2"
	else
		cp "$1" "$2"
	fi
}

# Number of lines of a file, counting a last line without a newline.
count_lines() {
	awk 'END { print NR }' "$1"
}

# Escape a string for use as a literal in a sed pattern delimited by |.
sed_literal() {
	printf '%s\n' "$1" | sed -e 's/[]|\\$*.^[]/\\&/g'
}

# Indent the first N lines of stdin by four spaces.
indent_head() {
	head -n "$1" | sed -e 's/^/    /'
}

# timeout_scale: how many times a quiet machine's time limit a step gets
# now: 1 + the load average per core, rounded down (a load of 10 on 2
# cores gives 6), times GPROFTK_TIMEOUT_SCALE when that is set (a slow
# emulator, a shared build server).  Read at each call, so that a step
# started under load gets the room the load takes.  A limit catches a
# hang; it must never turn a slow machine into a failure.
# tests/tools/load_scale.py says the same for the Python checkers.
timeout_scale() {
	_cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
	awk -v c="${_cores:-1}" -v m="${GPROFTK_TIMEOUT_SCALE:-1}" '
		{ f = 1 + int($1 / (c > 0 ? c : 1)); if (m + 0 >= 1) f *= int(m); print f; exit }
		END { if (NR == 0) print 1 }' /proc/loadavg 2>/dev/null || echo 1
}

# scaled SECONDS: SECONDS times timeout_scale.
scaled() {
	echo $(($1 * $(timeout_scale)))
}

# with_timeout SECONDS COMMAND...: run COMMAND with a time limit of
# SECONDS on a quiet machine, scaled with the load (timeout_scale), when
# timeout(1) exists.
with_timeout() {
	if command -v timeout >/dev/null 2>&1; then
		_limit=$(scaled "$1")
		shift
		timeout "$_limit" "$@"
	else
		shift
		"$@"
	fi
}

# Copy a gprof report, replacing each explanatory blurb of the FSF-style
# flat profile and call graph by one marker line ("[flat profile blurb]",
# "[call graph blurb]").  The blurbs are this project's own text, not GNU's,
# so reports are compared with them masked.  A flat blurb is everything from
# the blank line after the last table row up to the form feed that starts
# the call graph or the index (or the end); a call-graph blurb everything
# after the last row of dashes up to the form feed before the index (or the
# end).  BSD-style (-T) blurbs are left alone.
strip_blurbs() {
	awk '
	{ line[NR] = $0 }
	function section_start(i) {
		return line[i] == "\f" && (line[i + 1] == "\t\t     Call graph (explanation follows)" ||
		    line[i + 1] == "\t\t\tCall graph" || line[i + 1] == "Index by function name")
	}
	END {
		mode = ""
		for (i = 1; i <= NR; i++) {
			l = line[i]
			if (mode == "skip") {
				if (section_start(i)) { mode = ""; print l }
				continue
			}
			if (l == "Flat profile:") mode = "flat"
			else if (l == "\t\t     Call graph (explanation follows)") mode = "graph"
			else if (mode == "flat" && l ~ /^ time /) mode = "rows"
			else if (mode == "rows" && l == "") {
				print "[flat profile blurb]"; mode = "skip"; continue
			} else if (mode == "graph" && l ~ /^-+$/ && i < NR && line[i + 1] == "") {
				print l; print "[call graph blurb]"; mode = "skip"; continue
			}
			print l
		}
	}' "$1" > "$2.tmp"
	# awk ends every line with a newline: keep a missing final one missing.
	if [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -A n -t x1 | tr -d ' ')" != 0a ]; then
		head -c $(($(wc -c < "$2.tmp") - 1)) "$2.tmp" > "$2"
		rm -f "$2.tmp"
	else
		mv "$2.tmp" "$2"
	fi
}

# Sets the sanitizer runtime's options when $1 is the sanitizer build:
# leaks are not reported (gprof leaves its model to the exit) and a report
# makes the run fail with its stack trace.
sanitizer_env() {
	case $1 in
	*build-san*)
		ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
		UBSAN_OPTIONS=print_stacktrace=1
		export ASAN_OPTIONS UBSAN_OPTIONS ;;
	esac
}

# GNU gprof 2.40 for x86 files: with binutils-multiarch installed,
# /usr/bin/gprof is the multi-target build and Debian keeps the x86-only
# original as x86_64-linux-gnu-gprof.single, which is the reference.
gnu_x86_gprof() {
	if [ -x /usr/bin/x86_64-linux-gnu-gprof.single ]; then
		echo /usr/bin/x86_64-linux-gnu-gprof.single
	else
		echo /usr/bin/gprof
	fi
}

# Removes from FILE (in place) the one line of diagnosis gproftk adds on
# stderr when a profile is empty or has few samples (doc/gprof.md,
# difference 13): tests that hold our stderr to GNU's compare the rest.
strip_diagnosis() {
	sed '/gprof: diagnosis: /d' "$1" > "$1.nodiag" && mv "$1.nodiag" "$1"
}

# check_result GROUP NAME STATUS [DETAIL]: "PASS: GROUP:NAME" when STATUS
# is 0, else "FAIL: GROUP:NAME (DETAIL)" and failed=1.
check_result() {
	if [ "$3" = 0 ]; then
		echo "PASS: $1:$2"
	else
		echo "FAIL: $1:$2${4:+ ($4)}"
		failed=1
	fi
}
