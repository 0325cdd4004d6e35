#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/preload.py - the arithmetic of bench/preload.sh, which owns the
# runs: from one workload's folder it prints that workload's part of the
# table: the overhead of gprof-run, and the self and inclusive shares of
# the top ten functions, perf's against ours.
#
#   preload.py DIR PROG COMM
#     DIR   the workload's folder: cpu.txt (lines "MODE USER SYSTEM
#           WALL", MODE plain, flat or stacks), perf-stacks/ (one run
#           under perf and gprof-run --stacks: perf.script, stacks.txt,
#           flat.txt, folded.txt, time.txt, gmon.out, gmon.out.shlibs),
#           perf-plain/ and perf-flat/ (perf.script of a run under perf
#           alone, and under perf and gprof-run)
#     PROG  the profiled executable (for the alias map of its names)
#     COMM  the program's command name in perf's samples
#
# Shares are counted as bench/accuracy.py counts them (its functions
# are used): over perf's samples with a user frame, kernel frames
# dropped; a sample counts for every function on its stack once
# (inclusive) and for its leaf (self).  Ours: self from `gprof -b -p`
# (the flat profile's "% time", over every sample recorded), inclusive
# from `gprof -b -q --stacks`.
#
# The overhead from within a run: the share of perf's samples (every
# sample of the program's threads, kernel ones included) with a frame
# in libgmon-preload.so (the SIGPROF handler, the stack walk, the
# watcher thread) or in the kernel's signal delivery, plus how much more
# of the run the kernel took than in the plain run under perf.  It
# misses what perf cannot see (the timer's expiry in the kernel's tick)
# and the caches the handler evicts, but the machine's other load does
# not move it as it moves CPU times.
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
              "rounds %+.1f%%, of the fastest runs %+.1f%%), target <= %.0f%%: %s"
              % (label, m, lo, hi, 100.0 * (m / base - 1),
                 statistics.median(pairs) if pairs else 0.0,
                 100.0 * (min(v) / min(t["plain"]) - 1), target,
                 "met" if 100.0 * (m / base - 1) <= target else "missed"))


SIGNAL_PATH = re.compile(r"sig|rt_frame|posix_cpu_timer|posixtimer|perf_event_overflow")


def all_samples(path, comm):
    """Every sample of comm's threads: its frames (name, object)."""
    samples, cur, keep = [], None, False
    with open(path, errors="replace") as f:
        for line in f:
            if not line.strip():
                if keep and cur:
                    samples.append(cur)
                cur, keep = None, False
                continue
            if not line[0].isspace():
                keep, cur = line.split()[0] == comm, []
                continue
            m = re.match(r"\s*([0-9a-f]+) (.*) \((.*)\)$", line.rstrip("\n"))
            if m and cur is not None:
                cur.append((m.group(2), m.group(3)))
    if keep and cur:
        samples.append(cur)
    return samples


def runtime_kernel(path, comm):
    """% of samples in the runtime, and % otherwise with a kernel leaf."""
    samples = all_samples(path, comm)
    rt = kern = 0
    for s in samples:
        if any(d.endswith("libgmon-preload.so") or
               (d == "[kernel.kallsyms]" and SIGNAL_PATH.search(n)) for n, d in s):
            rt += 1
        elif s[0][1] == "[kernel.kallsyms]":
            kern += 1
    n = max(len(samples), 1)
    return 100.0 * rt / n, 100.0 * kern / n


def direct(d, comm):
    paths = {m: os.path.join(d, "perf-" + m, "perf.script")
             for m in ("plain", "flat", "stacks")}
    if not all(os.path.exists(p) for p in paths.values()):
        return
    _, k0 = runtime_kernel(paths["plain"], comm)
    print("  from within the runs (perf's samples): kernel %.1f%% plain" % k0)
    for mode, label in (("flat", "gprof-run"), ("stacks", "gprof-run --stacks")):
        rt, k = runtime_kernel(paths[mode], comm)
        print("    %-20s runtime %.1f%%, kernel otherwise %.1f%%: overhead about %+.1f%%"
              % (label, rt, k, rt + k - k0))


def object_key(path):
    """An object's file name, symbolic links resolved (perf names the
    file the loader mapped, the side file the name it was asked for)."""
    if path.startswith("/"):
        path = os.path.realpath(path)
    return os.path.basename(path)


def object_shares(r, comm, nours):
    """Self % per object (the leaf's): perf's (its first user frame)
    and ours (the JSON flat profile's rows, over every sample)."""
    perf, n = {}, 0
    for s in all_samples(os.path.join(r, "perf.script"), comm):
        user = [d for _, d in s if d != "[kernel.kallsyms]"]
        if not user:
            continue
        k = object_key(user[0])
        perf[k] = perf.get(k, 0) + 1
        n += 1
    perf = {k: 100.0 * v / max(n, 1) for k, v in perf.items()}
    ours = {}
    path = os.path.join(r, "flat.json")
    if os.path.exists(path):
        import json
        for row in json.load(open(path))["flat_profile"]:
            k = object_key(row["object"] or "")
            ours[k] = ours.get(k, 0.0) + 100.0 * row["self_samples"] / max(nours, 1)
    return perf, ours


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
    direct(d, comm)
    r = os.path.join(d, "perf-stacks")
    samples, objects = accuracy.perf_samples(os.path.join(r, "perf.script"), comm)
    canon = accuracy.alias_map(sorted(objects | {prog}))
    pincl, pself, ptotal = accuracy.perf_shares(samples, canon)
    ours_incl = accuracy.our_shares(os.path.join(r, "stacks.txt"), canon)
    ours_self = our_self(os.path.join(r, "flat.txt"), canon)
    ncut, leaves = accuracy.cut_short(samples, canon)
    cut = 100.0 * ncut / max(ptotal, 1)
    if pself.get("[unknown]", 0) >= 1:
        print("  perf names no function for %.1f%% of its samples (a stripped object"
              " without a debug file: ours credits them to the exported function"
              " before them)" % pself["[unknown]"])
    print("  perf: %d samples with a user frame, %d (%.1f%%) with a stack cut short"
          " of its thread's root%s" % (ptotal, ncut, cut,
                                       " (leaves: %s)" % ", ".join("%s %d" % kv for kv in leaves)
                                       if ncut else ""))
    hist, rate = accuracy.gmon_samples(os.path.join(r, "gmon.out"))
    lib, srate, pt, _ = accuracy.side_records(os.path.join(r, "gmon.out.shlibs"))
    rate = rate or srate
    nours = hist + lib

    def noise(p):
        """Two standard deviations of the difference of two independent
        samplings of a share p (in %) by perf's and our sample counts."""
        q = p / 100.0
        return 200.0 * (q * (1 - q) * (1.0 / max(ptotal, 1) + 1.0 / max(nours, 1))) ** 0.5

    print("  %-30s %6s %6s %6s %5s   %-30s %6s %6s %6s %6s" % (
        "top ten by self %", "perf", "ours", "diff", "2sd",
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
            left = "%-30s %6.1f %6.1f %+6.1f %5.1f" % (n[:30], pself[n], o, o - pself[n],
                                                  noise(pself[n]))
        if i < len(top_incl):
            n = top_incl[i]
            p = pincl[n]
            o = ours_incl.get(n)
            off = None if o is None else (o - p - cut if o > p + cut else min(0.0, o - p))
            if off is not None:
                worst_incl = max(worst_incl, abs(off))
            right = "%-30s %6.1f %6.1f %6s %6s" % (
                n[:30], p, min(100.0, p + cut), "-" if o is None else "%.1f" % o,
                "-" if off is None else "%+.1f" % off)
        print("  %-57s   %s" % (left, right))
    print("  largest difference: self %.1f points, inclusive %.1f points outside"
          " [perf, perf+cut] (target %.0f): %s, %s" % (
              worst_self, worst_incl, TARGET_POINTS,
              "met" if worst_self <= TARGET_POINTS else "missed",
              "met" if worst_incl <= TARGET_POINTS else "missed"))
    pobj, oobj = object_shares(r, comm, nours)
    if oobj:
        top = sorted(set(pobj) | set(oobj), key=lambda k: -max(pobj.get(k, 0), oobj.get(k, 0)))[:5]
        print("  self %% per object, perf / ours: %s" % ", ".join(
            "%s %.1f / %.1f" % (k, pobj.get(k, 0.0), oobj.get(k, 0.0)) for k in top))
    rec = nours / rate if rate else 0.0
    tu, ts, _ = (float(x) for x in open(os.path.join(r, "time.txt")).read().split()[-3:])
    cpu = (pt[0] + pt[1]) / 1e9 if pt else tu + ts
    print("  samples recorded %.2f s of %.2f s CPU (%.1f%%)" % (
        rec, cpu, 100.0 * rec / cpu if cpu else 0.0))


if __name__ == "__main__":
    main()
