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

# Run a command with a time limit when timeout(1) exists.
with_timeout() {
	if command -v timeout >/dev/null 2>&1; then
		timeout "$@"
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
