# SPDX-License-Identifier: GPL-3.0-or-later
# narrow_gen.py: many call stacks with many tiny frames, for the narrow
# part (tests/formats/narrow.sh).  Reads "name address" lines (nm's
# functions of the program: main, and names that are prefixes of others,
# f1 and f10, whose folded lines do not sort as the names do) on stdin;
# writes a gmsl-gen description to DESC (one heavy stack, main;g, and
# NSTACKS light random ones up to 9 frames deep, so that most frames are
# under 1/12000 of the samples) and the folded lines they must give to
# EXPECTED, summed and sorted bytewise: the slow reference the tool's
# folded output must equal byte for byte.
#
#   python3 narrow_gen.py SEED NSTACKS DESC EXPECTED < names
import random
import sys

seed, nstacks = int(sys.argv[1]), int(sys.argv[2])
desc, expected = sys.argv[3], sys.argv[4]
rnd = random.Random(seed)
funcs = dict(line.split() for line in sys.stdin)
addr = {n: int(a, 16) for n, a in funcs.items()}
others = sorted(n for n in addr if n not in ("main", "g"))
want = {}
entries = []


def stack(path, count):
    # leaf: an address inside the function; callers: a return address
    frames = ["0:%#x" % (addr[path[-1]] + rnd.randint(0, 2))]
    for f in reversed(path[:-1]):
        frames.append("0:%#x" % (addr[f] + rnd.randint(1, 3)))
    entries.append("%d 0 %s" % (count, ",".join(frames)))
    key = ";".join(path)
    want[key] = want.get(key, 0) + count


stack(["main", "g"], 50 * nstacks)
for _ in range(nstacks):
    path = ["main"] + [rnd.choice(others) for _ in range(rnd.randint(0, 8))]
    stack(path, rnd.randint(1, 3))
with open(desc, "w") as f:
    f.write("header 100 0\nobject 0 0 0x1000 0x2000 prog -\n"
            "thread 0 100 main\n")
    for i in range(0, len(entries), 200):    # gmsl-gen's lines are short
        f.write("stacks 0 %s\n" % " ".join(entries[i:i + 200]))
    f.write("sloss 0 0 64\n")
lines = sorted(("%s %d\n" % (k, v)).encode() for k, v in want.items())
with open(expected, "wb") as f:
    f.write(b"".join(lines))
