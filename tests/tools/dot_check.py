# SPDX-License-Identifier: GPL-3.0-or-later
# dot_check.py: checks gprof's --output-format=dot against its own text call
# graph, as Graphviz reads the DOT (dot -Tjson: labels as drawn, clusters).
# Used by tests/formats/dot.sh.
#
#   python3 tests/tools/dot_check.py [--complete] [--min-node PCT]
#           [--min-edge PCT] GPROF PROG PROFILE... [-- OPTION...]
#
# OPTIONs go to both runs (symspecs, thresholds).  Every drawn function's
# label (name, index, % total, self seconds, calls) and every call's label
# (count, and self and children seconds in its tooltip, their sum in the
# label) must equal the text call graph's (gprof -b -q); each cycle's
# cluster must hold exactly its drawn members and carry the numbers of
# its "as a whole" entry.  --complete: every function entry of the text
# graph is drawn, and every call between two drawn functions (for
# thresholds of 0).  --min-node/--min-edge: every drawn function's % time,
# every timed call's share of the total, reaches PCT (up to rounding).
# Prints "nodes=N edges=M clusters=C" and exits 1 on any mismatch.
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load_scale  # noqa: E402

LABEL_CHARS = 48
problems = []


def bad(msg):
    problems.append(msg)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=load_scale.seconds(60))
    if p.returncode != 0:
        sys.exit("%s failed: %s" % (cmd[0], p.stderr.decode()[:500]))
    return p.stdout.decode("utf-8", "replace")


# ---- the text call graph ----

PRIMARY = re.compile(r"^\[(\d+)\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)"
                     r"\s+(\d+(?:\+\d+)?)?\s+(.*?)\s+\[(\d+)\]$")
TIMED = re.compile(r"^\s+([\d.]+)\s+([\d.]+)\s+(\d+)/(\d+)\s+(.*?)\s+"
                   r"[\[(](\d+)[\])]$")
COUNTED = re.compile(r"^\s+(\d+)\s+(.*?)\s+[\[(](\d+)[\])]$")
CYCLE = re.compile(r"^(.*) <cycle (\d+)>$")


def parse_text(text):
    """index -> entry dict (pct, self, children, called, name, cycle,
    children lines by index)."""
    entries = {}
    body = text.split("index % time", 1)[1].split("\n", 1)[1]
    body = body.split("\x0c", 1)[0]
    for block in body.split("-----------------------------------------------"):
        lines = [l for l in block.split("\n") if l.strip()]
        prim = [i for i, l in enumerate(lines) if l.startswith("[")]
        if len(prim) != 1:
            continue
        m = PRIMARY.match(lines[prim[0]])
        if not m:
            bad("unparsed text line: %r" % lines[prim[0]])
            continue
        # gprof writes a byte that is not UTF-8 as '?' in DOT.
        name, cyc = m.group(6).replace("\ufffd", "?"), 0
        c = CYCLE.match(name)
        if c:
            name, cyc = c.group(1), int(c.group(2))
        e = dict(pct=m.group(2), self=m.group(3), children=m.group(4),
                 called=m.group(5) or "", name=name, cycle=cyc,
                 whole=name.startswith("<cycle ") and "as a whole" in name,
                 calls={})
        for l in lines[prim[0] + 1:]:
            t = TIMED.match(l)
            if t:
                e["calls"][int(t.group(6))] = dict(
                    self=t.group(1), children=t.group(2), count=t.group(3))
                continue
            t = COUNTED.match(l)
            if t:
                e["calls"][int(t.group(3))] = dict(count=t.group(1))
            elif not e["whole"]:
                bad("unparsed text line: %r" % l)
        entries[int(m.group(7))] = e
    return entries


# ---- the DOT, as Graphviz reads it ----

def texts(obj):
    return [op["text"] for op in obj.get("_ldraw_", []) if op.get("op") == "T"]


def parse_dot(js):
    g = json.loads(js)
    nodes, clusters, edges = {}, {}, []
    by_gvid = {}
    for o in g.get("objects", []):
        if o["name"].startswith("cluster_cycle"):
            clusters[int(o["name"][len("cluster_cycle"):])] = dict(
                lines=texts(o), members=o.get("nodes", []))
        elif "nodes" not in o:
            m = re.match(r"n(\d+)$", o["name"])
            if not m:
                bad("node with an unexpected id %r" % o["name"])
                continue
            nodes[int(m.group(1))] = dict(lines=texts(o))
            by_gvid[o["_gvid"]] = int(m.group(1))
    for c in clusters.values():
        c["members"] = sorted(by_gvid[i] for i in c["members"])
    for e in g.get("edges", []):
        edges.append(dict(tail=by_gvid[e["tail"]], head=by_gvid[e["head"]],
                          lines=texts(e), tooltip=e.get("tooltip", ""),
                          style=e.get("style", "")))
    return nodes, edges, clusters


def calls_line(called):
    if not called:
        return None
    total = sum(int(x) for x in called.split("+"))
    return "%s call%s" % (called, "" if total == 1 else "s")


def check_node(idx, n, t, min_node):
    lines = n["lines"]
    head = "%s [%d]" % (t["name"], idx)
    if len(t["name"]) <= LABEL_CHARS:
        if lines[0] != head:
            bad("n%d: name %r, text %r" % (idx, lines[0], head))
    elif not (lines[0].startswith(t["name"][:LABEL_CHARS - 3]) and
              lines[0].endswith("... [%d]" % idx)):
        bad("n%d: cut name %r, text %r" % (idx, lines[0], t["name"]))
    if lines[1] != t["pct"] + "% total":
        bad("n%d: %r, text %% time %s" % (idx, lines[1], t["pct"]))
    m = re.match(r"([\d.]+)% self, (\S+) s$", lines[2])
    if not m or m.group(2) != t["self"]:
        bad("n%d: %r, text self %s" % (idx, lines[2], t["self"]))
    want = calls_line(t["called"])
    got = lines[3] if len(lines) > 3 else None
    if got != want:
        bad("n%d: calls %r, text %r" % (idx, got, want))
    if min_node is not None and float(t["pct"]) < min_node - 0.05:
        bad("n%d: %s%% is under the threshold %g" % (idx, t["pct"], min_node))


def check_edge(e, text, total, min_edge):
    p, c = e["tail"], e["head"]
    line = text.get(p, {}).get("calls", {}).get(c)
    if line is None:
        bad("edge n%d -> n%d: no such line in the text graph" % (p, c))
        return
    want = calls_line(line["count"]).replace("+", "")
    if e["lines"][0] != want:
        bad("edge n%d -> n%d: %r, text count %s" % (p, c, e["lines"][0],
                                                    line["count"]))
    if "self" not in line:
        if len(e["lines"]) != 1 or e["style"] != "dashed":
            bad("edge n%d -> n%d: within a cycle, yet %r" % (p, c, e["lines"]))
        return
    m = re.search(r"self (\S+) s, children (\S+) s", e["tooltip"])
    if not m or (m.group(1), m.group(2)) != (line["self"], line["children"]):
        bad("edge n%d -> n%d: tooltip %r, text %s %s" % (
            p, c, e["tooltip"], line["self"], line["children"]))
    s = re.match(r"(\S+) s$", e["lines"][1]) if len(e["lines"]) > 1 else None
    if not s or abs(float(s.group(1)) - float(line["self"]) -
                    float(line["children"])) > 0.0101:
        bad("edge n%d -> n%d: time %r, text %s + %s" % (
            p, c, e["lines"][1:], line["self"], line["children"]))
    elif min_edge is not None and total > 0 and \
            100 * float(s.group(1)) / total < min_edge - 100 * 0.0051 / total:
        bad("edge n%d -> n%d: %s s is under %g%% of %g s" % (
            p, c, s.group(1), min_edge, total))


def check_clusters(nodes, clusters, text):
    for num, c in clusters.items():
        whole = [i for i, t in text.items()
                 if t["whole"] and t["name"].startswith("<cycle %d " % num)]
        if not whole:
            # The text graph leaves the cycle's entry out: no figures.
            if c["lines"] != ["<cycle %d>" % num]:
                bad("cluster_cycle%d: %r for a cycle the text graph leaves "
                    "out" % (num, c["lines"]))
        if len(whole) != 1:
            continue
        t = text[whole[0]]
        want = ["<cycle %d as a whole> [%d]" % (num, whole[0]),
                "%s%% total, %s s self" % (t["pct"], t["self"])]
        if calls_line(t["called"]):
            want.append(calls_line(t["called"]))
        if c["lines"] != want:
            bad("cluster_cycle%d: %r, text %r" % (num, c["lines"], want))
        members = sorted(i for i in nodes if text[i]["cycle"] == num)
        if c["members"] != members:
            bad("cluster_cycle%d holds %s, not the drawn members %s" % (
                num, c["members"], members))
    for i in nodes:
        if text[i]["cycle"] and text[i]["cycle"] not in clusters:
            bad("n%d is in cycle %d, which has no cluster" % (i, text[i]["cycle"]))


def main():
    args = sys.argv[1:]
    complete = min_node = min_edge = None
    while args and args[0].startswith("--"):
        flag = args.pop(0)
        if flag == "--complete":
            complete = True
        elif flag == "--min-node":
            min_node = float(args.pop(0))
        elif flag == "--min-edge":
            min_edge = float(args.pop(0))
        else:
            sys.exit("unknown flag " + flag)
    opts = []
    if "--" in args:
        opts = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    gprof, files = args[0], args[1:]
    text = parse_text(run([gprof, "-b", "-q"] + opts + files))
    dot = run([gprof, "--output-format=dot"] + opts + files)
    nodes, edges, clusters = parse_dot(run_dot(dot))
    m = re.search(r"call graph, (\S+) s in all", dot)
    total = float(m.group(1)) if m else 0.0
    for idx, n in nodes.items():
        if idx not in text or text[idx]["whole"]:
            bad("n%d: no such function entry in the text graph" % idx)
            continue
        check_node(idx, n, text[idx], min_node)
    for e in edges:
        check_edge(e, text, total, min_edge)
    check_clusters(nodes, clusters, text)
    if complete:
        for idx, t in text.items():
            if not t["whole"] and idx not in nodes:
                bad("entry [%d] %s is not drawn" % (idx, t["name"]))
        drawn = {(e["tail"], e["head"]) for e in edges}
        for p in nodes:
            for c in text[p]["calls"]:
                if c in nodes and (p, c) not in drawn:
                    bad("call n%d -> n%d is not drawn" % (p, c))
    print("nodes=%d edges=%d clusters=%d" % (len(nodes), len(edges),
                                              len(clusters)))
    for p in problems[:20]:
        print("  " + p)
    return 1 if problems else 0


def run_dot(dot):
    p = subprocess.run(["dot", "-Tjson"], input=dot.encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=load_scale.seconds(60))
    if p.returncode != 0 or p.stderr:
        sys.exit("dot -Tjson: %s" % p.stderr.decode()[:500])
    return p.stdout.decode()


if __name__ == "__main__":
    sys.exit(main())
