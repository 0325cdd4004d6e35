# SPDX-License-Identifier: GPL-3.0-or-later
# module-deps.sh - checks that modules call each other one way only.  For
# each object given, its undefined symbols are mapped to the object that
# defines them (by nm); each such pair is an edge "a.o -> b.o" (a calls
# or uses something of b).  tsort then looks for loops; with -o, the
# edges must also follow the order of the objects' folders.
#
# Usage: sh tests/tools/module-deps.sh [-v] [-g 'PATTERN...'] [-o ORDER]
#                                      [-u FOLDER:OBJ]... OBJECT...
#   -v         also prints every edge, with the symbols that make it
#   -g PATS    the objects whose names match one of these shell patterns
#              count as one module, named by the patterns joined with
#              "+": for a module written in two languages, such as
#              libgmon's recorder (record.c and the architecture's
#              stubs-*.S, which call each other by design: the hook calls
#              the C recorder, which calls the stubs' register-saving
#              trampoline)
#   -o ORDER   the folders from the bottom up, e.g. "util symbols reading
#              analysis print top": an object may use objects of its own
#              folder and of the folders before it, never of a later one.
#              An object's folder is the name of the folder it lies in,
#              or "top" when that folder is build/ or build-san/ itself.
#   -u F:OBJ   objects of folder F may be used by OBJ only (repeatable;
#              e.g. decode:cg_scan.o, the -c decoders)
# Prints "PASS: ..." lines, or one "FAIL: ..." line per loop and per edge
# against the order, like the other tests; exit status 1 on any failure.
#
# POSIX sh, awk, nm and tsort only.
set -u
set -f # -g's patterns are matched by case, not expanded

verbose=0 order= only= group=
while [ $# -gt 0 ]; do
	case $1 in
	-v) verbose=1; shift ;;
	-g) [ $# -ge 2 ] || { echo "module-deps: -g needs patterns" >&2; exit 2; }
	    group=$2; shift 2 ;;
	-o) order=$2; shift 2 ;;
	-u) only="$only $2"; shift 2 ;;
	*) break ;;
	esac
done
if [ $# -eq 0 ]; then
	echo "usage: sh tests/tools/module-deps.sh [-v] [-g PATS] [-o ORDER] [-u FOLDER:OBJ]... OBJECT..." >&2
	exit 2
fi
group_name=$(printf '%s\n' $group | paste -sd+ -)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/module-deps.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

# "object type symbol" for every symbol of every object (nm -P prints
# "symbol type [value size]").
for o in "$@"; do
	dir=${o%/*}
	[ "$dir" = "$o" ] && dir=.
	dir=${dir##*/}
	case $dir in build|build-san|.) dir=top ;; esac
	m=${o##*/}
	for p in $group; do
		# shellcheck disable=SC2254 # p is a pattern
		case $m in $p) m=$group_name; break ;; esac
	done
	echo "$m $dir" >> "$tmp/folders"
	nm -P "$o" > "$tmp/nm" || { echo "FAIL: module-deps: nm $o failed"; exit 1; }
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

awk '{ print $1, $2 }' "$tmp/edges" | tsort > /dev/null 2> "$tmp/tsort"

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

# Edges against the folders' order, and uses of a folder kept for one
# object by someone else.
if [ -n "$order" ] || [ -n "$only" ]; then
	awk -v order="$order" -v only="$only" '
		FNR == NR { folder[$1] = $2; next }
		BEGIN {
			n = split(order, o, " ")
			for (i = 1; i <= n; i++)
				rank[o[i]] = i
			m = split(only, u, " ")
			for (i = 1; i <= m; i++) {
				split(u[i], fu, ":")
				keep[fu[1]] = fu[2]
			}
		}
		{
			fa = folder[$1]; fb = folder[$2]
			if (order != "" && !(fa in rank))
				printf "FAIL: module order: %s is in folder %s, not in \"%s\"\n", $1, fa, order
			else if (order != "" && !(fb in rank))
				printf "FAIL: module order: %s is in folder %s, not in \"%s\"\n", $2, fb, order
			else if (order != "" && rank[fa] < rank[fb])
				printf "FAIL: module order: %s (%s) uses %s (%s): %s\n", $1, fa, $2, fb, $3
			if (fb in keep && fa != fb && $1 != keep[fb])
				printf "FAIL: module order: %s uses %s (%s), which is for %s only: %s\n", $1, $2, fb, keep[fb], $3
		}
	' "$tmp/folders" "$tmp/edges" | sort -u >> "$tmp/loops"
fi

if [ -s "$tmp/loops" ]; then
	cat "$tmp/loops"
	exit 1
fi
echo "PASS: module dependencies have no loop"
[ -n "$order" ] && echo "PASS: module dependencies follow the folders' order ($order)"
exit 0
