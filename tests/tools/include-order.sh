# SPDX-License-Identifier: GPL-3.0-or-later
# include-order.sh - checks the tool's include lines against its folders:
# a file in src/FOLDER/ (or src/ itself, "top") includes headers of its
# own folder and of folders before it in ORDER only, and a header of
# another folder only through that folder's way in, FOLDER/FOLDER.h.
# module-deps.sh checks the calls; this checks the types and inline code
# that calls cannot show (the model folder has no object at all).
#
# Usage: sh tests/tools/include-order.sh "ORDER" SRC-DIR
#   e.g. sh tests/tools/include-order.sh "util model symbols reading
#        decode analysis print top" src
# Prints "PASS: ..." or one "FAIL: ..." line per include against the rules.
#
# POSIX sh and awk only.
set -u

if [ $# -ne 2 ]; then
	echo "usage: sh tests/tools/include-order.sh ORDER SRC-DIR" >&2
	exit 2
fi
order=$1 src=$2

for f in "$src"/*.[ch] "$src"/*/*.[ch]; do
	[ -f "$f" ] || continue
	dir=${f%/*}
	folder=top
	[ "$dir" != "$src" ] && folder=${dir##*/}
	case " $order " in *" $folder "*) ;; *) continue ;; esac
	# "file folder include" for each local include
	sed -n 's/^#[ 	]*include[ 	]*"\([^"]*\)".*/\1/p' "$f" |
		awk -v f="$f" -v fo="$folder" '{ print f, fo, $1 }'
done | awk -v order="$order" '
	BEGIN {
		n = split(order, o, " ")
		for (i = 1; i <= n; i++)
			rank[o[i]] = i
	}
	{
		file = $1; fo = $2; inc = $3
		if (inc !~ /\//)
			next              # its own folder, include/ or config.h
		split(inc, p, "/")
		to = p[1]
		if (!(to in rank))
			next              # not a folder of the tool (libgmon/...)
		if (to == fo)
			next
		if (rank[to] > rank[fo])
			printf "FAIL: include order: %s (%s) includes %s, a later folder\n", file, fo, inc
		else if (inc != to "/" to ".h")
			printf "FAIL: include order: %s includes %s, not the way in %s/%s.h\n", file, inc, to, to
	}
' > "${TMPDIR:-/tmp}/include-order.$$"
if [ -s "${TMPDIR:-/tmp}/include-order.$$" ]; then
	cat "${TMPDIR:-/tmp}/include-order.$$"
	rm -f "${TMPDIR:-/tmp}/include-order.$$"
	exit 1
fi
rm -f "${TMPDIR:-/tmp}/include-order.$$"
echo "PASS: include lines follow the folders' order ($order)"
