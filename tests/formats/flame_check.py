# SPDX-License-Identifier: GPL-3.0-or-later
# flame_check.py: checks an SVG flame graph of gprof: it parses as XML,
# asks for nothing outside itself (no href, no url(), no external script),
# its root frame holds TOTAL samples, every frame has a <title> with its
# name, samples and percent, each frame's children fit inside it, and the
# frames whose name is NAME hold N samples in all (--samples NAME=N).
#
#   python3 flame_check.py FLAME.svg --total N [--samples NAME=N]...
import argparse
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
ap = argparse.ArgumentParser()
ap.add_argument("svg")
ap.add_argument("--total", type=int, required=True)
ap.add_argument("--samples", action="append", default=[])
a = ap.parse_args()
text = open(a.svg, encoding="utf-8").read()
root = ET.fromstring(text)
if re.search(r'(?:href|src)\s*=|url\(|@import', text):
    sys.exit("refers to something outside the file")
frames = [g for g in root.iter(NS + "g") if g.get("class") == "f"]
if not frames:
    sys.exit("no frames")
by_id = {}
for g in frames:
    s, t, d = int(g.get("data-s")), int(g.get("data-t")), int(g.get("data-d"))
    title = g.find(NS + "title")
    # NAME (N samples, P%), then " in OBJECT" for a function's frame
    m = re.fullmatch(r"(.*) \((\d+) samples?, ([0-9.]+)%\)(?: in .+)?",
                     title.text or "")
    if not m or m.group(1) != g.get("data-n") or int(m.group(2)) != t:
        sys.exit("frame %s: title %r" % (g.get("id"), title.text))
    if abs(float(m.group(3)) - 100.0 * t / a.total) > 0.006:
        sys.exit("frame %s: percent %s" % (g.get("id"), m.group(3)))
    by_id[g.get("id")] = (s, t, d, g.get("data-n"))
s0, t0, d0, _ = by_id["f0"]
if (s0, t0, d0) != (0, a.total, 0):
    sys.exit("root frame holds %d samples, not %d" % (t0, a.total))
# Children of one frame (depth + 1, inside its span) never overlap.
spans = sorted(v for v in by_id.values())
for d in range(1, max(v[2] for v in spans) + 1):
    row = sorted((s, t) for s, t, dd, _ in spans if dd == d)
    for (s1, t1), (s2, _) in zip(row, row[1:]):
        if s1 + t1 > s2:
            sys.exit("frames overlap at depth %d" % d)
    for s, t in row:
        if not any(ps <= s and s + t <= ps + pt
                   for ps, pt, pd, _ in spans if pd == d - 1):
            sys.exit("a frame at depth %d is outside every caller" % d)
for spec in a.samples:
    name, _, n = spec.rpartition("=")
    got = sum(t for _, t, _, nm in spans if nm == name)
    if got != int(n):
        sys.exit("%s: %d samples, expected %s" % (name, got, n))
print("%d frames, %d samples" % (len(frames), a.total))
