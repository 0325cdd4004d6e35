# SPDX-License-Identifier: GPL-3.0-or-later
# folded_check.py: reads folded stacks ("outer;...;leaf COUNT" lines, the
# count after the last space) and checks them: every line well-formed,
# the lines sorted and distinct, the counts summing to TOTAL when given,
# and with --expect FILE the same stacks and counts as FILE's.
#
#   python3 folded_check.py FOLDED [--total N] [--expect FILE]
import argparse
import sys


def read(path):
    stacks = {}
    order = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            frames, sep, count = line.rpartition(" ")
            if not sep or not frames or not count.isdigit():
                sys.exit("%s:%d: not 'frames count': %r" % (path, n, line))
            if any(not x for x in frames.split(";")):
                sys.exit("%s:%d: empty frame" % (path, n))
            if frames in stacks:
                sys.exit("%s:%d: stack repeated" % (path, n))
            stacks[frames] = int(count)
            order.append(line)
    if order != sorted(order, key=lambda s: s.encode()):
        sys.exit("%s: lines not sorted" % path)
    return stacks


ap = argparse.ArgumentParser()
ap.add_argument("folded")
ap.add_argument("--total", type=int)
ap.add_argument("--expect")
a = ap.parse_args()
got = read(a.folded)
total = sum(got.values())
if a.total is not None and total != a.total:
    sys.exit("counts sum to %d, not %d" % (total, a.total))
if a.expect:
    want = read(a.expect)
    for k in sorted(set(got) | set(want)):
        if got.get(k) != want.get(k):
            sys.exit("stack %s: %s, expected %s" % (k, got.get(k), want.get(k)))
print("%d stacks, %d samples" % (len(got), total))
