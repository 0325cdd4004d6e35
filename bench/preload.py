#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/preload.py - the arithmetic of bench/preload.sh, which owns the
# runs: from one workload's folder it prints that workload's part of the
# table: the overhead of gprof-run, and the self and inclusive shares of
# the top ten functions, perf's against ours.
#
#   preload.py DIR PROG COMM
#     DIR   the workload's folder: cpu.txt (lines "MODE USER SYSTEM
#           WALL", MODE plain, flat or stacks) and perf/ (one run under
#           perf and gprof-run --stacks: perf.script, stacks.txt,
#           flat.txt, folded.txt, time.txt, gmon.out, gmon.out.shlibs)
#     PROG  the profiled executable (for the alias map of its names)
#     COMM  the program's command name in perf's samples
#
# Shares are counted as bench/accuracy.py counts them (its functions
# are used): over perf's samples with a user frame, kernel frames
# dropped; a sample counts for every function on its stack once
# (inclusive) and for its leaf (self).  Ours: self from `gprof -b -p`
# (the flat profile's "% time", over every sample recorded), inclusive
# from `gprof -b -q --stacks`.
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy  # noqa: E402  (bench/accuracy.py)

TARGET_FLAT, TARGET_STACKS, TARGET_POINTS = 2.0, 5.0, 3.0


def cpu_times(path):
    """mode -> list of CPU seconds (user + system), in run order."""
    t = {}
    for line in open(path):
        p = line.split()
        if len(p) == 4:
            t.setdefault(p[0], []).append(float(p[1]) + float(p[2]))
    return t


def quartiles(v):
    if len(v) < 4:
        return min(v), max(v)
    q = statistics.quantiles(v, n=4)
    return q[0], q[2]


def overhead(t):
    base = statistics.median(t["plain"])
    lo, hi = quartiles(t["plain"])
    print("  CPU time, median of %d runs (quartiles): plain %.2f s (%.2f..%.2f)"
          % (len(t["plain"]), base, lo, hi))
    for mode, label, target in (("flat", "gprof-run", TARGET_FLAT),
                                ("stacks", "gprof-run --stacks", TARGET_STACKS)):
        v = t.get(mode, [])
        if not v:
            continue
        m = statistics.median(v)
        lo, hi = quartiles(v)
        # the overhead of each round against the plain run of that round
        pairs = [100.0 * (a / b - 1) for a, b in zip(v, t["plain"]) if b > 0]
        print("    %-20s %.2f s (%.2f..%.2f): overhead %+.1f%% (median of "
              "rounds %+.1f%%), target <= %.0f%%: %s"
              % (label, m, lo, hi, 100.0 * (m / base - 1),
                 statistics.median(pairs) if pairs else 0.0, target,
                 "met" if 100.0 * (m / base - 1) <= target else "missed"))


def our_self(path, canon):
    """Self % of each function in the flat profile (gprof -b -p)."""
    shares = {}
    num = re.compile(r"^[\d.]+$")
    for line in open(path):
        p = line.split()
        k = 0
        while k < len(p) and num.match(p[k]):
            k += 1
        if k < 3 or k == len(p):
            continue
        name = " ".join(p[k:])
        name = canon.get(name, name)
        shares[name] = shares.get(name, 0.0) + float(p[0])
    return shares


def main():
    d, prog, comm = sys.argv[1:4]
    overhead(cpu_times(os.path.join(d, "cpu.txt")))
    r = os.path.join(d, "perf")
    samples, objects = accuracy.perf_samples(os.path.join(r, "perf.script"), comm)
    canon = accuracy.alias_map(sorted(objects | {prog}))
    pincl, pself, ptotal = accuracy.perf_shares(samples, canon)
    ours_incl = accuracy.our_shares(os.path.join(r, "stacks.txt"), canon)
    ours_self = our_self(os.path.join(r, "flat.txt"), canon)
    ncut, leaves = accuracy.cut_short(samples, canon)
    cut = 100.0 * ncut / max(ptotal, 1)
    print("  perf: %d samples with a user frame, %d (%.1f%%) with a stack cut short"
          " of its thread's root%s" % (ptotal, ncut, cut,
                                       " (leaves: %s)" % ", ".join("%s %d" % kv for kv in leaves)
                                       if ncut else ""))
    print("  %-30s %7s %7s %7s   %-30s %7s %7s %7s %7s" % (
        "top ten by self %", "perf", "ours", "diff",
        "top ten by inclusive %", "perf", "+cut", "ours", "off"))
    top_self = [n for n in sorted(pself, key=lambda n: -pself[n])
                if n != "[unknown]"][:10]
    top_incl = [n for n in sorted(pincl, key=lambda n: -pincl[n])
                if n not in accuracy.STARTUP][:10]
    worst_self = worst_incl = 0.0
    for i in range(max(len(top_self), len(top_incl))):
        left = right = ""
        if i < len(top_self):
            n = top_self[i]
            o = ours_self.get(n, 0.0)
            worst_self = max(worst_self, abs(o - pself[n]))
            left = "%-30s %7.1f %7.1f %+7.1f" % (n[:30], pself[n], o, o - pself[n])
        if i < len(top_incl):
            n = top_incl[i]
            p = pincl[n]
            o = ours_incl.get(n)
            off = None if o is None else (o - p - cut if o > p + cut else min(0.0, o - p))
            if off is not None:
                worst_incl = max(worst_incl, abs(off))
            right = "%-30s %7.1f %7.1f %7s %7s" % (
                n[:30], p, min(100.0, p + cut), "-" if o is None else "%.1f" % o,
                "-" if off is None else "%+.1f" % off)
        print("  %-54s   %s" % (left, right))
    print("  largest difference: self %.1f points, inclusive %.1f points outside"
          " [perf, perf+cut] (target %.0f): %s, %s" % (
              worst_self, worst_incl, TARGET_POINTS,
              "met" if worst_self <= TARGET_POINTS else "missed",
              "met" if worst_incl <= TARGET_POINTS else "missed"))
    hist, rate = accuracy.gmon_samples(os.path.join(r, "gmon.out"))
    lib, srate, pt, _ = accuracy.side_records(os.path.join(r, "gmon.out.shlibs"))
    rate = rate or srate
    rec = (hist + lib) / rate if rate else 0.0
    tu, ts, _ = (float(x) for x in open(os.path.join(r, "time.txt")).read().split()[-3:])
    cpu = (pt[0] + pt[1]) / 1e9 if pt else tu + ts
    print("  samples recorded %.2f s of %.2f s CPU (%.1f%%)" % (
        rec, cpu, 100.0 * rec / cpu if cpu else 0.0))


if __name__ == "__main__":
    main()
