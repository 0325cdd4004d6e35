# SPDX-License-Identifier: GPL-3.0-or-later
# stacks_gen.py: random call stacks of a test program, for the folded and
# flame tests (tests/formats/folded.sh, flame.sh).  Reads "name address"
# lines (nm's functions of the program) on stdin; writes a gmsl-gen
# description (include/gmon_shlibs.h records: THREAD, STACKS, SLOSS) to
# DESC and the folded lines the stacks must give to EXPECTED, as the
# truth the tool's output is compared with.  Return addresses are written
# one byte past a call inside the caller (the tool looks up address - 1).
#
#   python3 stacks_gen.py SEED RATE DESC EXPECTED < names
import random
import sys

seed, rate, desc, expected = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
rnd = random.Random(seed)
funcs = []
for line in sys.stdin:
    name, addr = line.split()
    funcs.append((name, int(addr, 16)))
main = [f for f in funcs if f[0] == "main"][0]
others = [f for f in funcs if f[0] != "main"]
want = {}
lines = ["header %s 0" % rate, "object 0 0 0x1000 0x2000 prog -",
         "thread 0 100 main", "thread 1 101 -"]
for th in (0, 1):
    entries = []
    for _ in range(rnd.randint(5, 25)):
        depth = rnd.randint(0, 6)
        path = [main] + [rnd.choice(others) for _ in range(depth)]
        count = rnd.randint(1, 1000)
        # leaf: an address inside the function; callers: a return address
        frames = ["0:%#x" % (path[-1][1] + rnd.randint(0, 2))]
        for f in reversed(path[:-1]):
            frames.append("0:%#x" % (f[1] + rnd.randint(1, 3)))
        entries.append("%d 0 %s" % (count, ",".join(frames)))
        key = ";".join(f[0] for f in path)
        want[key] = want.get(key, 0) + count
    lines.append("stacks %d %s" % (th, " ".join(entries)))
lines.append("sloss 0 0 64")
with open(desc, "w") as f:
    f.write("\n".join(lines) + "\n")
with open(expected, "w") as f:
    for k in sorted(want):
        f.write("%s %d\n" % (k, want[k]))
