# SPDX-License-Identifier: GPL-3.0-or-later
# module-deps.sh - checks that the tool's modules call each other without
# a loop.  For each object given, its undefined symbols are mapped to the
# object that defines them (by nm); each such pair is an edge "a.o -> b.o"
# (a calls or uses something of b).  tsort then looks for loops.
#
# Usage: sh tests/tools/module-deps.sh [-v] [-g 'PATTERN...'] src/*.o
#   -v  also prints every edge, with the symbols that make it
#   -g  the objects whose names match one of these shell patterns count
#       as one module, named by the patterns joined with "+": for a
#       module written in two languages, such as libgmon's recorder
#       (record.c and the architecture's stubs-*.S, which call each
#       other by design: the hook calls the C recorder, which calls the
#       stubs' register-saving trampoline)
#
# One loop is allowed: call_graph.o <-> sym_ids.o (sym_ids.c records the
# FROM/TO arcs of symspecs with arc_add(); call_graph.c asks sym_ids.c
# which arcs are selected).  Any other loop is printed and makes the exit
# status 1.
# Prints "PASS: module dependencies have no loop" or one "FAIL: ..." line
# per loop, like the other tests.
#
# POSIX sh, awk, nm and tsort only.
set -u
set -f # -g's patterns are matched by case, not expanded

ALLOW_A=call_graph.o
ALLOW_B=sym_ids.o

verbose=0
group=
while [ $# -gt 0 ]; do
	case $1 in
	-v) verbose=1; shift ;;
	-g) [ $# -ge 2 ] || { echo "module-deps: -g needs patterns" >&2; exit 2; }
	    group=$2; shift 2 ;;
	*) break ;;
	esac
done
group_name=$(printf '%s\n' $group | paste -sd+ -)
if [ $# -eq 0 ]; then
	echo "usage: sh tests/tools/module-deps.sh [-v] OBJECT..." >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/module-deps.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

# "object type symbol" for every symbol of every object (nm -P prints
# "symbol type [value size]").
for o in "$@"; do
	nm -P "$o" > "$tmp/nm" || { echo "FAIL: module-deps: nm $o failed"; exit 1; }
	m=${o##*/}
	for p in $group; do
		# shellcheck disable=SC2254 # p is a pattern
		case $m in $p) m=$group_name; break ;; esac
	done
	awk -v o="$m" 'NF >= 2 { print o, $2, $1 }' "$tmp/nm"
done > "$tmp/syms"

# Edges "a.o b.o sym1,sym2,...": defined globals are upper-case types other
# than U; undefined ones are U (or w/v, weak references).  A symbol two
# objects define goes to the first, as the linker would complain anyway.
awk '
	$2 ~ /^[A-TV-Z]$/ { if (!($3 in def)) def[$3] = $1; next }
	$2 == "U" || $2 == "w" || $2 == "v" { nu++; uo[nu] = $1; us[nu] = $3 }
	END {
		for (i = 1; i <= nu; i++) {
			d = def[us[i]]
			if (d == "" || d == uo[i])
				continue
			k = uo[i] " " d
			if ((k, us[i]) in seen)
				continue
			seen[k, us[i]] = 1
			if (k in via)
				via[k] = via[k] "," us[i]
			else
				via[k] = us[i]
		}
		for (k in via)
			print k, via[k]
	}
' "$tmp/syms" | sort > "$tmp/edges"

if [ "$verbose" = 1 ]; then
	awk '{ print "edge: " $1 " -> " $2 " (" $3 ")" }' "$tmp/edges"
fi

# A simple loop other than the allowed pair lacks at least one of the
# pair's two edges, so it shows in one of these two graphs, while the pair
# itself shows in neither.  (Removing both edges at once would hide longer
# loops that go through one of them.)
for drop in "$ALLOW_A $ALLOW_B" "$ALLOW_B $ALLOW_A"; do
	awk -v drop="$drop" '$1 " " $2 != drop { print $1, $2 }' "$tmp/edges" |
		tsort > /dev/null 2>> "$tmp/tsort"
done

# tsort prints "tsort: -: input contains a loop:" then one member per
# line, in the loop's order; keep each loop once.
awk '
	function flush() {
		if (n == 0)
			return
		path = m[1]
		for (i = 2; i <= n; i++)
			path = path " -> " m[i]
		path = path " -> " m[1]
		# the same loop may come from both graphs, starting elsewhere:
		# its members in sorted order name it
		for (i = 1; i <= n; i++)
			k[i] = m[i]
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && k[j - 1] > k[j]; j--) {
				t = k[j]; k[j] = k[j - 1]; k[j - 1] = t
			}
		canon = ""
		for (i = 1; i <= n; i++)
			canon = canon " " k[i]
		if (!(canon in seen)) {
			seen[canon] = 1
			print "FAIL: module dependency loop: " path
		}
		n = 0
	}
	/loop:$|cycle in data/ { flush(); next }
	{ sub(/^tsort: /, ""); m[++n] = $0 }
	END { flush() }
' "$tmp/tsort" > "$tmp/loops"

if [ -s "$tmp/loops" ]; then
	cat "$tmp/loops"
	exit 1
fi
echo "PASS: module dependencies have no loop"
exit 0
