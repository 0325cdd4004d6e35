# SPDX-License-Identifier: GPL-3.0-or-later
# html_check.py: checks gprof's --output-format=html without a browser
# (tests/tools/cdp.py does the browser's part).  Used by
# tests/formats/html.sh.
#
#   python3 tests/tools/html_check.py FILE.html
#       the page is valid enough and self-contained: UTF-8, a doctype,
#       every element closed in order (void elements aside), unique ids,
#       every "#id" link has its target, no reference to anything outside
#       the file (no src=, <link>, url() other than url(#id), and no "http"
#       but the SVG namespace).
#   python3 tests/tools/html_check.py --numbers GPROF PROG PROFILE...
#           [-- OPTION...]
#       also writes the report and compares it with the text reports: the
#       flat profile table, row by row, with gprof -b -p --sampling-error;
#       the call graph, line by line, with gprof -b -q.
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load_scale  # noqa: E402
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}
SVG_NS = "http://www.w3.org/2000/svg"
problems = []


def bad(msg):
    problems.append(msg)


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.links = [], set(), []
        self.doctype = False
        self.in_svg = 0
        # flat table rows and call-graph rows: lists of cell texts
        self.table = None
        self.rows = {"flat-table": [], "cg-table": [], "compare-table": []}
        self.cell = None
        self.row = None

    def handle_decl(self, decl):
        if decl.lower() == "doctype html":
            self.doctype = True

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.in_svg += 1
        if tag not in VOID and not (self.in_svg and tag in ("path",)):
            self.stack.append(tag)
        if "id" in a:
            if a["id"] in self.ids:
                bad("duplicate id %r" % a["id"])
            self.ids.add(a["id"])
        for k, v in attrs:
            v = v or ""
            if k == "src" or (k in ("href", "xlink:href") and
                              not v.startswith("#")):
                bad("reference to %s=%r" % (k, v))
            if k == "href" and v.startswith("#"):
                self.links.append(v[1:])
            if "url(" in v and not re.fullmatch(r"url\(#[\w-]+\)", v):
                bad("external url() in %s=%r" % (k, v))
        if tag == "link":
            bad("<link> element")
        if tag == "table" and a.get("id") in self.rows:
            self.table = a["id"]
        if self.table and tag == "tr":
            self.row = []
        if self.row is not None and tag in ("td", "th"):
            self.cell = []

    def handle_startendtag(self, tag, attrs):
        # <path .../> and friends in the SVG, <br/> in HTML
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1] == tag:
            self.stack.pop()
        if tag == "svg":
            self.in_svg -= 1

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            bad("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack
                                       else "nothing"))
            return
        self.stack.pop()
        if tag == "svg":
            self.in_svg -= 1
        if tag in ("td", "th") and self.cell is not None:
            self.row.append("".join(self.cell).strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows[self.table].append(self.row)
            self.row = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def check_page(data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        bad("not UTF-8: %s" % e)
        text = data.decode("utf-8", "replace")
    for m in re.finditer(r"https?:[^\s\"'<>)]*", text):
        if m.group(0) != SVG_NS:
            bad("reference to %s" % m.group(0))
    p = Page()
    p.feed(text)
    p.close()
    if not p.doctype:
        bad("no <!DOCTYPE html>")
    if p.stack:
        bad("elements left open: %s" % p.stack)
    if '<meta charset="utf-8">' not in text:
        bad("no charset")
    for target in p.links:
        if target not in p.ids:
            bad("link to #%s, which is not on the page" % target)
    return p


def norm(s):
    return " ".join(s.replace("\ufffd", "?").split())


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=load_scale.seconds(60))
    if r.returncode != 0:
        sys.exit("%s failed: %s" % (" ".join(cmd[:3]), r.stderr.decode()[:400]))
    return r.stdout


FLAT_HEAD = re.compile(r"^ *(\S+) +(\S+) +(\S+) +(\S+) ")
FLAT_CALLS = re.compile(r"^ *([0-9]+) +(\S+) +(\S+)  ")


# The text's per-call unit, from its header ("ms/call"): seconds times
# this give its per-call columns.
PREFIX = {"": 1.0, "m": 1e3, "u": 1e6, "\u00b5": 1e6, "n": 1e9, "p": 1e12,
          "f": 1e15, "a": 1e18, "K": 1e-3, "M": 1e-6, "G": 1e-9, "T": 1e-12}
text_unit = [1.0]


def text_flat(text):
    rows, started = [], False
    for line in text.split("\n"):
        u = re.search(r"\s(\S?)\w/call\b", line)
        if u and not started:
            text_unit[0] = PREFIX.get(u.group(1), 1.0)
        if started and line.strip():
            m = FLAT_HEAD.match(line)
            if not m:
                break
            rest = line[m.end():]
            c = FLAT_CALLS.match(rest)
            calls = ["", "", ""]
            if c:
                calls = list(c.groups())
                rest = rest[c.end():]
            rows.append([norm(x) for x in list(m.groups()) + calls + [rest]])
        elif re.match(r"^ *time +seconds", line):
            started = True
    return rows


def text_cg(text):
    body = text.split("index % time", 1)[1].split("\n", 1)[1]
    body = body.split("\x0c", 1)[0]
    return [norm(l) for l in body.split("\n")
            if l.strip() and not l.startswith("-----")]


def per_call_same(h, t):
    """The HTML's per-call cell ("1.52 \u00b5s": three significant digits
    in a unit of its own) against the text's (two decimals in the unit
    of its header): the same figure, as far as both roundings allow.
    The text's blank (no calls) must be blank."""
    if t in ("", "inf", "-inf", "nan", "-nan"):
        return h == t
    m = re.fullmatch(r"(-?[0-9.]+)(?: (\S?)\w)?", h)
    if not m:
        return False
    v = float(m.group(1)) / PREFIX.get(m.group(2) or "", 1.0)
    x = v * text_unit[0]
    return abs(x - float(t)) <= 0.005 + 0.005 * abs(x) + 1e-9


def same_row(h, t, per_call):
    if not per_call or len(h) != len(t) or len(h) < 3:
        return h == t
    return (h[:-3] + h[-1:] == t[:-3] + t[-1:] and
            per_call_same(h[-3], t[-3]) and per_call_same(h[-2], t[-2]))


def compare(what, html_rows, text_rows, per_call=False):
    if len(html_rows) != len(text_rows):
        bad("%s: %d rows in HTML, %d in the text" % (what, len(html_rows),
                                                    len(text_rows)))
    for i, (h, t) in enumerate(zip(html_rows, text_rows)):
        if not same_row(h, t, per_call):
            bad("%s row %d: HTML %r, text %r" % (what, i + 1, h, t))
            break


def main():
    args = sys.argv[1:]
    if args and args[0] == "--numbers":
        opts = []
        if "--" in args:
            opts = args[args.index("--") + 1:]
            args = args[:args.index("--")]
        gprof, files = args[1], args[2:]
        page = check_page(run([gprof, "--output-format=html"] + opts + files))
        flat = text_flat(run([gprof, "-b", "-p", "--sampling-error"] + opts +
                             files).decode("utf-8", "replace"))
        compare("flat profile",
                [[norm(c) for c in r] for r in page.rows["flat-table"][1:]],
                flat, per_call=True)
        cg = text_cg(run([gprof, "-b", "-q"] + opts + files)
                     .decode("utf-8", "replace"))
        compare("call graph",
                [" ".join(norm(c) for c in r if c.strip())
                 for r in page.rows["cg-table"][1:]], cg)
        print("flat rows=%d, call-graph lines=%d" % (len(flat), len(cg)))
    elif len(args) == 1:
        with open(args[0], "rb") as f:
            check_page(f.read())
    else:
        sys.exit(__doc__ or "usage: html_check.py FILE | --numbers GPROF ...")
    for p in problems[:15]:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
