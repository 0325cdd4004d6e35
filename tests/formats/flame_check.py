# SPDX-License-Identifier: GPL-3.0-or-later
# flame_check.py: checks an SVG flame graph of gprof: it parses as XML,
# asks for nothing outside itself (no href, no url(), no external script),
# its root frame holds TOTAL samples, every frame has a <title> with its
# name, samples and percent, each frame's children fit inside it, and the
# frames whose name is NAME hold N samples in all (--samples NAME=N).
# Frames under 1/12000 of the samples are not drawn: every frame drawn
# is that wide but the "[N narrow frames]" boxes (each drawn frame's
# narrow callees, after its other callees), and the note under the title
# counts what was merged.  With --folded FILE (the same stacks as folded
# lines), every frame's samples are the truth's, each box holds exactly
# its caller's narrow callees, a caller without a box has only a blank
# span under 1/12000 left, and the note's counts are exact.
#
#   python3 flame_check.py FLAME.svg --total N [--samples NAME=N]...
#       [--folded FILE] [--max-bytes N]
import argparse
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
ap = argparse.ArgumentParser()
ap.add_argument("svg")
ap.add_argument("--total", type=int, required=True)
ap.add_argument("--samples", action="append", default=[])
ap.add_argument("--folded")
ap.add_argument("--max-bytes", type=int)
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
    m = re.fullmatch(r"(.*) \((\d+) samples?, ([0-9.]+)%\)(?: in .+|: .+)?",
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

DIV = 12000
BOX = re.compile(r"\[(\d+) narrow frames?\]")
if a.max_bytes is not None and len(text.encode()) > a.max_bytes:
    sys.exit("%d bytes, over %d" % (len(text.encode()), a.max_bytes))
boxes = {i: v for i, v in by_id.items() if i.startswith("n")}
for i, (s, t, d, nm) in by_id.items():
    if i.startswith("n") != bool(BOX.fullmatch(nm)):
        sys.exit("frame %s: %r" % (i, nm))
    if not i.startswith("n") and t * DIV < a.total:
        sys.exit("frame %s (%s): %d samples, under 1/%d" % (i, nm, t, DIV))
note = root.find(".//%stext[@id='narrow']" % NS)
merged = of = nbox = hidden = 0
if note is not None:
    m = re.fullmatch(r"(\d+) of (\d+) frames are under 1/%d of the samples "
                     r"\(a tenth of a pixel\): merged into (\d+) "
                     r"\"\[N narrow frames\]\" box(?:es)?"
                     r"(?:, (\d+) in spans too narrow even so, left blank)?"
                     % DIV, note.text)
    if not m:
        sys.exit("note: %r" % note.text)
    merged, of, nbox = int(m.group(1)), int(m.group(2)), int(m.group(3))
    hidden = int(m.group(4) or 0)
if nbox != len(boxes):
    sys.exit("note says %d boxes, %d drawn" % (nbox, len(boxes)))
in_boxes = sum(int(BOX.fullmatch(v[3]).group(1)) for v in boxes.values())
if in_boxes + hidden != merged:
    sys.exit("boxes hold %d frames, %d blank: not the %d merged"
             % (in_boxes, hidden, merged))
if a.folded:
    # The truth: each prefix's samples (total) and its own (self).
    tot, own = {}, {}
    for line in open(a.folded, encoding="utf-8"):
        path, _, n = line.rstrip("\n").rpartition(" ")
        fr = tuple(path.split(";"))
        own[fr] = own.get(fr, 0) + int(n)
        for k in range(1, len(fr) + 1):
            tot[fr[:k]] = tot.get(fr[:k], 0) + int(n)
    drawn = {i: v for i, v in by_id.items() if not i.startswith("n")}
    if note is not None and of != len(tot):
        sys.exit("note says %d frames, the stacks have %d" % (of, len(tot)))
    if len(drawn) - 1 + merged != len(tot):
        sys.exit("%d drawn and %d merged, the stacks have %d frames"
                 % (len(drawn) - 1, merged, len(tot)))
    # Each frame's caller: the frame one row down that holds its span.
    rows = {}
    for i, v in by_id.items():
        rows.setdefault(v[2], []).append((v[0], v[1], i))
    def caller(v):
        for s, t, i in rows.get(v[2] - 1, []):
            if s <= v[0] and v[0] + v[1] <= s + t:
                return i
    path = {"f0": ()}
    kids = {}
    for i, v in sorted(drawn.items(), key=lambda x: x[1][2]):
        if i == "f0":
            continue
        p = caller(v)
        path[i] = path[p] + (v[3],)
        kids.setdefault(p, []).append(i)
        if tot.get(path[i]) != v[1]:
            sys.exit("frame %s %s: %d samples, the stacks give %s"
                     % (i, ";".join(path[i]), v[1], tot.get(path[i])))
    for i, v in boxes.items():
        kids.setdefault(caller(v), []).append(i)
    for i in drawn:
        t = drawn[i][1]
        rest = t - own.get(path[i], 0) - sum(by_id[k][1] for k in kids.get(i, []))
        has_box = any(k.startswith("n") for k in kids.get(i, []))
        if rest < 0 or (has_box and rest) or (rest and rest * DIV >= a.total):
            sys.exit("frame %s: %d samples not drawn" % (i, rest))
print("%d frames, %d samples" % (len(frames), a.total))
