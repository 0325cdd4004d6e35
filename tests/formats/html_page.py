# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/html_page.py: checks what the HTML report keeps of a big
# profile and how its picture opens (tests/formats/html.sh).
#
#   python3 html_page.py FILE.html CHECK...
#
# CHECKs:
#   size=BYTES   the page is at most BYTES long
#   left-out     the page cut the flat profile and the call graph, and
#                says so: at most 2000 flat rows, 1000 entries, 20 callers
#                and 20 callees (100 members) an entry, each cut list
#                followed by its "and N more" row, and the two notes
#   whole        the page cut nothing (no note, no "and N more" row)
#   width=PX     the picture is at most PX wide
#   main         the picture has a box for main, in its top row
#   per-call     every flat row with calls and self time shows non-zero
#                per-call times
# Prints what failed; exits 1 if anything did.
import re
import sys
from html.parser import HTMLParser

FLAT_ROWS, ENTRIES, ARCS, MEMBERS = 2000, 1000, 20, 100
ROW_TOP = 16.0          # svg_draw.c: MARGIN, the top row's y


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.flat = []          # rows: [(data-v, text), ...]
        self.entries = []       # entries: lists of row classes
        self.table = None
        self.row = None
        self.cell = None
        self.svg = None         # the <svg> element's attributes
        self.title = None       # text of the <title> being read
        self.last_title = None
        self.boxes = {}         # box title -> rect y

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "table":
            self.table = a.get("id")
        elif tag == "tbody" and self.table == "cg-table":
            self.entries.append([])
        elif tag == "tr" and self.table:
            self.row = []
            if self.table == "cg-table" and self.entries:
                self.entries[-1].append(a.get("class") or "")
        elif tag == "td" and self.row is not None:
            self.cell = [a.get("data-v"), ""]
        elif tag == "svg" and self.svg is None:
            self.svg = a
        elif tag == "title":
            self.title = ""
        elif tag == "rect" and self.last_title is not None:
            self.boxes[self.last_title] = float(a.get("y", "0"))
            self.last_title = None

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag == "title" and self.title is not None:
            self.last_title = self.title
            self.title = None
        elif tag == "td" and self.cell is not None:
            self.row.append(tuple(self.cell))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if self.table == "flat-table" and self.row:
                self.flat.append(self.row)
            self.row = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data
        if self.title is not None:
            self.title += data


def main():
    path, checks = sys.argv[1], sys.argv[2:]
    with open(path, "rb") as f:
        data = f.read()
    p = Page()
    p.feed(data.decode("utf-8", "replace"))
    p.close()
    bad = []
    cuts = [cls for e in p.entries for cls in e if "left-out" in cls]
    for c in checks:
        if c.startswith("size="):
            if len(data) > int(c[5:]):
                bad.append("page of %d bytes, over %s" % (len(data), c[5:]))
        elif c == "left-out":
            if len(p.flat) > FLAT_ROWS:
                bad.append("%d flat rows" % len(p.flat))
            if len(p.entries) > ENTRIES:
                bad.append("%d call-graph entries" % len(p.entries))
            for note in ("flat-left-out", "cg-left-out"):
                if note not in p.ids:
                    bad.append("no note #%s" % note)
            if not cuts:
                bad.append("no entry says it left callers or callees out")
            for e in p.entries:
                for side in ("up", "down"):
                    n = sum(1 for cls in e if cls == side)
                    # a cycle's entry (no caller rows) lists members
                    cap = MEMBERS if "up" not in e else ARCS
                    if n > cap:
                        bad.append("an entry with %d %s rows" % (n, side))
                        break
        elif c == "whole":
            if cuts or {"flat-left-out", "cg-left-out",
                        "picture-left-out"} & p.ids:
                bad.append("the page left something out")
        elif c.startswith("width="):
            w = float((p.svg or {}).get("width", "inf"))
            if w > float(c[6:]):
                bad.append("picture %g px wide, over %s" % (w, c[6:]))
        elif c == "main":
            ys = [y for t, y in p.boxes.items() if re.match(r"main \[\d+\]( in .*)?$",
                                                            t)]
            if not ys:
                bad.append("no box for main in the picture")
            elif ys[0] > ROW_TOP:
                bad.append("main's box at y=%g, below the top row" % ys[0])
        elif c == "per-call":
            seen = 0
            for r in p.flat:
                calls, self_s, pc = r[-4], r[2], r[-3:-1]
                if not calls[1].strip() or not float(self_s[0] or 0) > 0:
                    continue
                seen += 1
                for v, text in pc:
                    if not float(v or 0) > 0 or \
                       re.match(r"^0(\.0*)?( |$)", text.strip()):
                        bad.append("per-call %r for %r calls and %r s" %
                                   (text, calls[1], self_s[1]))
                        break
            if not seen:
                bad.append("no flat row with calls and self time")
        else:
            sys.exit("html_page.py: unknown check %r" % c)
    for b in bad[:10]:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
