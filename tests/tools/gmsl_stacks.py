#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/tools/gmsl_stacks.py: a small, strict reader of the side file's
# call-stack records (include/gmon_shlibs.h) for tests/libgmon/stacks.sh;
# it owns nothing else.  Addresses are named with the executable's symbols
# (nm -n -S output), so the tests can speak of functions.
#
#   gmsl_stacks.py SIDEFILE SYMS dump [--offsets]
#     prints, one per line:
#       thread ID TID NAME
#       stack ID COUNT FLAGS f0;f1;... (function names, frame 0 first;
#             frames outside the executable print as ?OBJ; with
#             --offsets frame 0 is NAME+HEX, its offset in the function)
#       tsamples ID OBJ TOTAL
#       tarc ID CALLER CALLEE COUNT   (executable functions only)
#       sloss TRUNCATED LOST DEPTH
#       ptimes USER_NS SYSTEM_NS WALL_NS
#       ttimes ID FLAGS USER_NS SYSTEM_NS WALL_NS
# Exit status 1 (with a message) on any malformed record: a reader that
# accepts a broken file would let a writer bug pass.
import bisect
import struct
import sys


def die(msg):
    sys.stderr.write("gmsl_stacks: %s\n" % msg)
    sys.exit(1)


def load_syms(path):
    syms = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 4 and p[2] in "tTwW":
                syms.append((int(p[0], 16), int(p[1], 16), p[3]))
    syms.sort()
    return syms


class Names:
    def __init__(self, syms):
        self.syms = syms
        self.starts = [s[0] for s in syms]

    def name(self, obj, addr, ret=False, offset=False):
        if obj != 0:
            return "?%d" % obj
        # A return address may be just past its caller's last byte.
        a = addr - 1 if ret else addr
        i = bisect.bisect_right(self.starts, a) - 1
        if i >= 0 and a < self.syms[i][0] + max(self.syms[i][1], 1):
            if offset:
                return "%s+%x" % (self.syms[i][2], a - self.syms[i][0])
            return self.syms[i][2]
        return "?0"


def read(path):
    data = open(path, "rb").read()
    if len(data) < 16 or data[:4] != b"gmsl":
        die("not a side file")
    ver, rate, clock = struct.unpack_from("<III", data, 4)
    if ver != 1:
        die("version %d" % ver)
    pos = 16
    recs = []
    while pos < len(data):
        if pos + 5 > len(data):
            die("truncated record head at %d" % pos)
        tag, ln = struct.unpack_from("<BI", data, pos)
        pos += 5
        if pos + ln > len(data):
            die("record %d at %d overruns the file" % (tag, pos))
        recs.append((tag, data[pos:pos + ln]))
        pos += ln
    return recs


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[3] != "dump" or \
            sys.argv[4:] not in ([], ["--offsets"]):
        die("usage: gmsl_stacks.py SIDEFILE SYMS dump [--offsets]")
    offsets = sys.argv[4:] == ["--offsets"]
    names = Names(load_syms(sys.argv[2]))
    objects = set()
    threads = set()
    out = []
    for tag, p in read(sys.argv[1]):
        if tag == 1:
            objects.add(struct.unpack_from("<I", p, 0)[0])
        elif tag == 4:
            tid, systid, nl = struct.unpack_from("<IIH", p, 0)
            if len(p) != 10 + nl or tid in threads:
                die("bad THREAD record")
            threads.add(tid)
            out.append("thread %d %d %s" % (tid, systid, p[10:].decode("utf-8", "replace") or "-"))
        elif tag == 5:
            tid, n = struct.unpack_from("<II", p, 0)
            if tid not in threads:
                die("STACKS of an undefined thread %d" % tid)
            q = 8
            for _ in range(n):
                count, depth, flags = struct.unpack_from("<QHH", p, q)
                q += 12
                fr = []
                for k in range(depth):
                    obj, addr = struct.unpack_from("<IQ", p, q)
                    q += 12
                    if obj not in objects:
                        die("frame in undefined object %d" % obj)
                    fr.append(names.name(obj, addr, ret=k > 0,
                                         offset=offsets and k == 0))
                out.append("stack %d %d %d %s" % (tid, count, flags, ";".join(fr) or "-"))
            if q != len(p):
                die("STACKS length %d, entries end at %d" % (len(p), q))
        elif tag == 6:
            tid, obj, n = struct.unpack_from("<III", p, 0)
            if len(p) != 12 + 12 * n or tid not in threads or obj not in objects:
                die("bad TSAMPLES record")
            total = sum(struct.unpack_from("<QI", p, 12 + 12 * i)[1] for i in range(n))
            out.append("tsamples %d %d %d" % (tid, obj, total))
        elif tag == 7:
            tid, n = struct.unpack_from("<II", p, 0)
            if len(p) != 8 + 32 * n or tid not in threads:
                die("bad TARCS record")
            for i in range(n):
                fo, fa, so, sa, c = struct.unpack_from("<IQIQQ", p, 8 + 32 * i)
                if c and fo == 0 and so == 0:
                    out.append("tarc %d %s %s %d" % (tid, names.name(0, fa, True),
                                                     names.name(0, sa), c))
        elif tag == 8:
            if len(p) != 20:
                die("bad SLOSS record")
            out.append("sloss %d %d %d" % struct.unpack_from("<QQI", p, 0))
        elif tag == 9:
            if len(p) != 24:
                die("bad PTIMES record")
            out.append("ptimes %d %d %d" % struct.unpack_from("<QQQ", p, 0))
        elif tag == 10:
            if len(p) != 32 or struct.unpack_from("<I", p, 0)[0] not in threads:
                die("bad TTIMES record")
            out.append("ttimes %d %d %d %d %d" % struct.unpack_from("<IIQQQ", p, 0))
    print("\n".join(out))


main()
