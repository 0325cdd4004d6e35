#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/accuracy.py - the arithmetic of bench/accuracy.sh, which owns the
# runs: from one run's files it prints that program's part of the table
# (method: shared/reference/accuracy-method.md).
#
#   accuracy.py DIR PROG COMM HOOKSYMS
#     DIR       the run's folder: perf.script (perf script -F
#               comm,tid,ip,sym,dso --no-inline), stacks.txt (gprof -b -q
#               --stacks), flat.txt (gprof -b -p), folded.txt (gprof
#               --output-format=folded), time.txt (/usr/bin/time -f
#               "%U %S %e"), gmon.out and gmon.out.shlibs
#     PROG      the profiled executable (for the alias map of its names)
#     COMM      the program's command name in perf's samples
#     HOOKSYMS  a file of libgmon's function names, one a line
#
# Shares, both sides alike: a sample counts for every function on its
# user-space stack once (inclusive) over all samples with a user frame;
# kernel frames are dropped, so time in the kernel counts for the user
# frame that entered it.  The hook (libgmon's mcount and recorder) is
# its own leaf on both sides; its callers' inclusive shares include it,
# and its own share is a row of its own (GNU's reports, and so ours, do
# not list the mcount family as functions: it is left out of the top
# ten).
# Names are merged through aliases (one address, several names) read
# with nm from each object and its build-id debug file.
import os
import re
import struct
import subprocess
import sys

STARTUP = {"main", "_start", "__libc_start_main", "__libc_start_call_main",
           "__libc_start_main_impl", "_dl_start", "_dl_start_user",
           "start_thread", "clone3", "clone", "__clone", "__clone3",
           "[unknown]"}


def debug_file(path):
    """The build-id debug file of an object, or the object itself."""
    try:
        out = subprocess.run(["readelf", "-n", path], capture_output=True,
                             text=True).stdout
    except OSError:
        return path
    m = re.search(r"Build ID: ([0-9a-f]+)", out)
    if m:
        d = "/usr/lib/debug/.build-id/%s/%s.debug" % (m.group(1)[:2], m.group(1)[2:])
        if os.path.exists(d):
            return d
    return path


def alias_map(objects):
    """name -> canonical name, over the text symbols of the objects."""
    canon = {}
    for obj in objects:
        groups = {}
        for args in (["nm", "--defined-only"], ["nm", "-D", "--defined-only"]):
            out = subprocess.run(args + [debug_file(obj)], capture_output=True,
                                 text=True).stdout
            for line in out.splitlines():
                p = line.split()
                if len(p) == 3 and p[1] in "tTwWi":
                    groups.setdefault(p[0], set()).add(p[2].split("@")[0])
        for names in groups.values():
            # Prefer the plain public name: fewest leading underscores,
            # then the shortest.
            best = min(names, key=lambda n: (len(n) - len(n.lstrip("_")), len(n), n))
            for n in names:
                canon.setdefault(n, best)
    return canon


def perf_samples(path, comm):
    """Each sample's user-space function names, leaf first, and the set
    of objects they came from."""
    samples, objects, cur, keep = [], set(), None, False
    with open(path, errors="replace") as f:
        for line in f:
            if not line.strip():
                if keep and cur:
                    samples.append(cur)
                cur, keep = None, False
                continue
            if not line[0].isspace():
                keep = line.split()[0] == comm
                cur = []
                continue
            m = re.match(r"\s*([0-9a-f]+) (.*) \((.*)\)$", line.rstrip("\n"))
            if not m or cur is None or int(m.group(1), 16) >= 0x800000000000:
                continue
            name = re.sub(r"\+0x[0-9a-f]+$", "", m.group(2)).split("@")[0]
            cur.append(name)
            if m.group(3).startswith("/"):
                objects.add(m.group(3))
    if keep and cur:
        samples.append(cur)
    return samples, objects


def perf_shares(samples, canon):
    incl, self_ = {}, {}
    for s in samples:
        names = [canon.get(n, n) for n in s]
        self_[names[0]] = self_.get(names[0], 0) + 1
        for n in set(names):
            incl[n] = incl.get(n, 0) + 1
    total = len(samples)
    return ({n: 100.0 * c / total for n, c in incl.items()},
            {n: 100.0 * c / total for n, c in self_.items()}, total)


ROOTS = {"main", "start_thread", "clone3", "clone", "__clone", "__clone3"}


def cut_short(samples, canon):
    """How many of perf's stacks stop short of a thread's root (main, or
    a thread's start) (its unwinding gives up in parts of the C library,
    malloc's internals most), and their most frequent leaves."""
    leaves, n = {}, 0
    for s in samples:
        names = [canon.get(x, x) for x in s]
        if not ROOTS & set(names):
            n += 1
            leaves[names[0]] = leaves.get(names[0], 0) + 1
    return n, sorted(leaves.items(), key=lambda kv: -kv[1])[:4]


def our_shares(path, canon):
    """Inclusive % of each function's primary line in gprof --stacks."""
    shares = {}
    pat = re.compile(r"^\[\d+\]\s+([\d.]+)\s+\S+\s+\S+\s+(?:\S+\s+)?(.*?)\s+\[\d+\]$")
    with open(path) as f:
        for line in f:
            m = pat.match(line.rstrip())
            if not m or "as a whole" in m.group(2):
                continue
            name = re.sub(r" <cycle \d+>$", "", m.group(2))
            name = canon.get(name, name)
            shares[name] = max(shares.get(name, 0.0), float(m.group(1)))
    return shares


def folded_hook(path, hooks):
    """Our samples whose leaf is libgmon's, and all samples (folded)."""
    hook = total = 0
    with open(path) as f:
        for line in f:
            stack, _, n = line.rstrip().rpartition(" ")
            if not n.isdigit():
                continue
            total += int(n)
            if stack.split(";")[-1] in hooks:
                hook += int(n)
    return hook, total


def gmon_samples(path):
    """Histogram samples of gmon.out and their rate."""
    data = open(path, "rb").read()
    pos, total, rate = 20, 0, 0
    while pos < len(data):
        tag = data[pos]
        pos += 1
        if tag == 0:
            lo, hi, n, rate = struct.unpack_from("<QQII", data, pos)
            pos += 24 + 16
            total += sum(struct.unpack_from("<%dH" % n, data, pos))
            pos += 2 * n
        elif tag == 1:
            pos += 20
        else:
            break
    return total, rate


def side_records(path):
    """Library samples, PTIMES, and per thread (name, TTIMES, samples)."""
    data = open(path, "rb").read()
    rate = struct.unpack_from("<I", data, 8)[0]
    pos, lib, ptimes, threads = 16, 0, None, {}
    while pos + 5 <= len(data):
        tag, ln = struct.unpack_from("<BI", data, pos)
        p = data[pos + 5:pos + 5 + ln]
        pos += 5 + ln
        if tag == 2:
            n = struct.unpack_from("<I", p, 4)[0]
            lib += sum(struct.unpack_from("<I", p, 8 + 12 * i + 8)[0] for i in range(n))
        elif tag == 4:
            tid, _, nl = struct.unpack_from("<IIH", p, 0)
            threads[tid] = [p[10:10 + nl].decode(errors="replace"), None, 0]
        elif tag == 6:
            tid, _, n = struct.unpack_from("<III", p, 0)
            threads[tid][2] += sum(struct.unpack_from("<I", p, 12 + 12 * i + 8)[0]
                                   for i in range(n))
        elif tag == 9:
            ptimes = struct.unpack_from("<QQQ", p, 0)
        elif tag == 10:
            tid, flags, u, s, w = struct.unpack_from("<IIQQQ", p, 0)
            threads[tid][1] = (u, s, w)
    return lib, rate, ptimes, threads


def flat_total(path):
    last = 0.0
    for line in open(path):
        p = line.split()
        if len(p) >= 4 and re.match(r"^[\d.]+$", p[0]) and re.match(r"^[\d.]+$", p[1]):
            last = float(p[1])
    return last


def main():
    d, prog, comm, hookfile = sys.argv[1:5]
    hooks = set(open(hookfile).read().split())
    samples, objects = perf_samples(os.path.join(d, "perf.script"), comm)
    canon = alias_map(sorted(objects | {prog}))
    pincl, pself, ptotal = perf_shares(samples, canon)
    ours = our_shares(os.path.join(d, "stacks.txt"), canon)
    ncut, leaves = cut_short(samples, canon)
    cut = 100.0 * ncut / max(ptotal, 1)
    print("%s: perf %d samples with a user frame, %d of them (%.1f%%) with a stack"
          " perf cut short of its thread's root" % (comm, ptotal, ncut, cut))
    if ncut:
        print("  (their leaves: %s).  A function's true inclusive share then lies"
              " between perf's\n  and perf's plus that %.1f%%: 'off' is how far ours"
              " lies outside that range" % (", ".join("%s %d" % kv for kv in leaves), cut))
    print("  %-34s %8s %8s %8s %7s %7s" % ("function (inclusive %)", "perf", "+cut",
                                          "ours", "diff", "off"))
    top = [n for n in sorted(pincl, key=lambda n: -pincl[n])
           if n not in STARTUP and n not in hooks][:10]
    for n in ["main"] + top:
        o = ours.get(n)
        p = pincl.get(n, 0.0)
        off = None if o is None else (o - p - cut if o > p + cut else min(0.0, o - p))
        print("  %-34s %8.1f %8.1f %8s %7s %7s" % (n[:34], p, min(100.0, p + cut),
              "-" if o is None else "%.1f" % o,
              "-" if o is None else "%+.1f" % (o - p),
              "-" if off is None else "%+.1f" % off))
    phook = sum(1 for s in samples if s[0] in hooks)
    ohook, ofold = folded_hook(os.path.join(d, "folded.txt"), hooks)
    print("  %-34s %8.1f %8.1f" % ("hook (leaf in libgmon), self %",
          100.0 * phook / max(ptotal, 1), 100.0 * ohook / max(ofold, 1)))
    hist, rate = gmon_samples(os.path.join(d, "gmon.out"))
    lib, srate, pt, threads = side_records(os.path.join(d, "gmon.out.shlibs"))
    rate = rate or srate
    rec = (hist + lib) / rate
    flat = flat_total(os.path.join(d, "flat.txt"))
    tu, ts, te = (float(x) for x in open(os.path.join(d, "time.txt")).read().split()[-3:])
    print("  coverage: recorded %.2f s (flat total %.2f s + hook and outside "
          "every function %.2f s)" % (rec, flat, rec - flat))
    if pt:
        cpu = (pt[0] + pt[1]) / 1e9
        print("    process CPU (PTIMES) %.2f s = user %.2f + system %.2f; wall %.2f s;"
              " /usr/bin/time %.2f s" % (cpu, pt[0] / 1e9, pt[1] / 1e9, pt[2] / 1e9, tu + ts))
        print("    recorded / CPU: %.1f%%" % (100.0 * rec / cpu if cpu else 0))
    else:
        print("    no PTIMES record; /usr/bin/time CPU %.2f s: recorded / CPU %.1f%%"
              % (tu + ts, 100.0 * rec / (tu + ts) if tu + ts else 0))
    for tid in sorted(threads):
        name, tt, n = threads[tid]
        if tt is None:
            continue
        cpu = (tt[0] + tt[1]) / 1e9
        print("    thread %-3d %-16s CPU %6.2f s (system %4.1f%%)  sampled %6.2f s (%5.1f%%)"
              % (tid, name or "-", cpu, 100.0 * tt[1] / 1e9 / cpu if cpu else 0,
                 n / rate, 100.0 * n / rate / cpu if cpu else 0))


if __name__ == "__main__":
    main()
