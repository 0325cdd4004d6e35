# SPDX-License-Identifier: GPL-3.0-or-later
# manpages.sh: the manual pages.  Every doc/*.1 and doc/*.3 formats with
# `groff -ww -man -z` without a single warning (and through `man -l` when
# man-db is installed); the options doc/gprof.1 describes are exactly
# those `src/gprof --help` prints, and those of doc/gprof-bbconv.1 exactly
# those of its usage line; every environment variable the tool and the
# runtime read (getenv in src/, gmon_env in src/libgmon/) is described in
# gprof.1 or libgmon.3.  An option is "described" when it is named in the
# tag line of a .TP entry of the page's OPTIONS section (its .SS
# subsections included, nested .RS lists not); tags are rendered by groff
# itself, so escapes and font changes need no parsing here.  Without groff
# every check that needs it fails (tests/deps.sh installs groff-base).
# usage: sh tests/manpages.sh (from the repository root)
# shellcheck shell=sh
set -u
cd "$(dirname "$0")/.." || exit 1
mkdir -p tests/tmp
WORK=$(mktemp -d tests/tmp/manpages.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
export LC_ALL=C

# Options the man page may describe although --help does not print them
# (none now: -B, GNU's undocumented synonym of -q, is in --help).
HELP_GAPS=""

TESTS_DIR=$(pwd)/tests
# shellcheck source=tests/lib.sh
. "$TESTS_DIR/lib.sh"
failed=0
result() { check_result manpages "$@"; }  # NAME STATUS [DETAIL]

have_groff=1
command -v groff > /dev/null 2>&1 || have_groff=0

# (a) every page formats without a warning.
for page in doc/*.1 doc/*.3; do
	[ -f "$page" ] || continue
	name=$(basename "$page")
	if [ "$have_groff" = 0 ]; then
		result "groff-clean:$name" 1 "groff not installed: apt-get install groff-base"
		continue
	fi
	groff -ww -man -z "$page" > "$WORK/groff.out" 2>&1
	rc=$?
	[ "$rc" = 0 ] && [ ! -s "$WORK/groff.out" ]
	result "groff-clean:$name" $? "$(head -n 3 "$WORK/groff.out" | tr '\n' ' ')"
	if command -v man > /dev/null 2>&1; then
		MANWIDTH=80 man -l "$page" > "$WORK/man.out" 2> "$WORK/man.err" &&
			[ -s "$WORK/man.out" ]
		result "man-l:$name" $? "$(head -n 3 "$WORK/man.err" | tr '\n' ' ')"
	else
		echo "SKIP: manpages:man-l:$name (man not installed: apt-get install man-db)"
	fi
done

# The option names in a text: one per line, sorted, unique.  Words are
# split at blanks and at , / | [ ] = ; what is left is an option if it is
# -X or --long-name; @FILE (any @word) counts as the option "@".
option_tokens() {
	tr -s ' \t,/|[]=' '\n' |
		sed -n -e 's/^@.*/@/p' -e '/^-[A-Za-z0-9]$/p' -e '/^--[a-z][a-z0-9-]*$/p' |
		sort -u
}

# The tag lines of the .TP entries of PAGE's OPTIONS section, as groff
# renders them, one per line.
page_option_tags() {
	awk '
		/^\.SH/ { in_opts = ($0 ~ /^\.SH[ \t]+"?OPTIONS"?[ \t]*$/); depth = 0; next }
		!in_opts { next }
		/^\.RS/ { depth++; next }
		/^\.RE/ { if (depth > 0) depth--; next }
		take { print ".PP"; print; take = 0; next }
		/^\.TP/ { if (depth == 0) take = 1 }
	' "$1" > "$WORK/tags.man"
	{
		printf '.TH TAGS 1\n.nh\n.na\n'
		cat "$WORK/tags.man"
	} | groff -man -Tascii -P-c -P-b -P-u -rLL=1000n 2> /dev/null |
		sed -n 's/^       \([^ ]\)/\1/p'
}

# The left-hand column of a --help text: its lines that start (after
# blanks) with - or @, cut at the first run of two blanks.
help_option_column() {
	sed -n 's/^[ \t]*\([-@]\)/\1/p' | sed 's/  .*//'
}

# compare_sets NAME DOC-LIST CODE-LIST [GAPS]: every option of one list is
# in the other, except the GAPS, which may be in the page only.
compare_sets() {
	name=$1 doc=$2 code=$3 gaps=${4:-}
	missing_doc=$(comm -13 "$doc" "$code" | tr '\n' ' ')
	extra_doc=""
	for o in $(comm -23 "$doc" "$code"); do
		case " $gaps " in
		*" $o "*) echo "note: manpages:$name: $o is described but not in the usage text" ;;
		*) extra_doc="$extra_doc$o " ;;
		esac
	done
	[ -z "$missing_doc" ]
	result "$name:usage-options-described" $? "not in the page: $missing_doc"
	[ -z "$extra_doc" ]
	result "$name:described-options-exist" $? "not in the usage text: $extra_doc"
}

# (b) gprof.1 against src/gprof --help.
if [ "$have_groff" = 0 ]; then
	result "gprof:options" 1 "groff not installed: apt-get install groff-base"
	result "gprof-bbconv:options" 1 "groff not installed: apt-get install groff-base"
else
	if src/gprof --help > "$WORK/help.txt" 2>&1; then
		help_option_column < "$WORK/help.txt" | option_tokens > "$WORK/help.opts"
		page_option_tags doc/gprof.1 | option_tokens > "$WORK/page.opts"
		# Sanity: both sides found a plausible number of options.
		[ "$(wc -l < "$WORK/help.opts")" -ge 60 ] &&
			[ "$(wc -l < "$WORK/page.opts")" -ge 60 ]
		result "gprof:options-parsed" $? \
			"$(wc -l < "$WORK/help.opts") in --help, $(wc -l < "$WORK/page.opts") in gprof.1"
		compare_sets gprof "$WORK/page.opts" "$WORK/help.opts" "$HELP_GAPS"
		# And the page against what src/options.c accepts: its getopt
		# string and tables (an option the code takes but neither --help
		# nor the page names would pass the check above).
		{
			sed -n '/short_opts\[\] =/,/;/p' src/options.c | grep -o '"[^"]*"' |
				tr -d '":' | fold -w1 | sed 's/^/-/'
			sed -n -e '/long_opts\[\] = {/,/^};/p' -e '/ext_opts\[\] = {/,/^};/p' \
				src/options.c | grep -o '{ "[a-z][a-z0-9-]*"' | sed 's/^{ "/--/; s/"$//'
		} | sort -u > "$WORK/code.opts"
		grep -vx '@' "$WORK/page.opts" > "$WORK/page-noat.opts"
		[ "$(wc -l < "$WORK/code.opts")" -ge 60 ] &&
			cmp -s "$WORK/page-noat.opts" "$WORK/code.opts"
		result "gprof:page-matches-options.c" $? \
			"$(diff "$WORK/page-noat.opts" "$WORK/code.opts" | grep '^[<>]' | tr '\n' ' ')"
	else
		result "gprof:options" 1 "src/gprof --help failed"
	fi

	# gprof-bbconv has no --help: its usage line, printed for a bad
	# option, lists its options (a --help, should it get one, is read the
	# same way).
	src/gprof-bbconv --help > "$WORK/bbhelp.txt" 2>&1
	{
		grep -i '^usage:' "$WORK/bbhelp.txt" | sed 's/^[Uu][Ss][Aa][Gg][Ee]: *[^ ]*//'
		help_option_column < "$WORK/bbhelp.txt"
	} | option_tokens > "$WORK/bbhelp.opts"
	page_option_tags doc/gprof-bbconv.1 | option_tokens > "$WORK/bbpage.opts"
	[ "$(wc -l < "$WORK/bbhelp.opts")" -ge 3 ] && [ "$(wc -l < "$WORK/bbpage.opts")" -ge 3 ]
	result "gprof-bbconv:options-parsed" $? \
		"$(wc -l < "$WORK/bbhelp.opts") in the usage, $(wc -l < "$WORK/bbpage.opts") in gprof-bbconv.1"
	compare_sets gprof-bbconv "$WORK/bbpage.opts" "$WORK/bbhelp.opts"
fi

# (c) the environment variables: each one the code reads is described in
# the ENVIRONMENT section of its page.
env_section() {  # PAGE: the names in bold tag lines of ENVIRONMENT
	awk '
		/^\.SH/ { in_env = ($0 ~ /^\.SH[ \t]+"?ENVIRONMENT"?[ \t]*$/); next }
		in_env
	' "$1" | grep -o '[A-Z][A-Z0-9_]*[A-Z0-9]' | sort -u
}
check_env() {  # NAME PAGE VARIABLES...
	name=$1 page=$2
	shift 2
	env_section "$page" > "$WORK/env.page"
	missing=""
	for v in "$@"; do
		grep -qx "$v" "$WORK/env.page" || missing="$missing$v "
	done
	[ $# -gt 0 ] && [ -z "$missing" ]
	result "$name:environment-described" $? "read by the code, not in ENVIRONMENT: $missing"
}
# shellcheck disable=SC2046
check_env gprof doc/gprof.1 \
	$(grep -rho --include='*.c' --exclude-dir=libgmon 'getenv("[A-Z0-9_]*")' src |
		sed 's/.*("\(.*\)")/\1/' | sort -u)
# shellcheck disable=SC2046
check_env libgmon doc/libgmon.3 \
	$(grep -ho 'gmon_env("[A-Z0-9_]*")' src/libgmon/*.c | sed 's/.*("\(.*\)")/\1/' | sort -u)
exit $failed
