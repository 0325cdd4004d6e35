# SPDX-License-Identifier: GPL-3.0-or-later
# speedscope_check.py: opens folded stacks in speedscope (the flame graph
# viewer from npm, installed by tests/deps.sh) in headless Chromium, and
# checks that its sandwich view gives every function the total and self
# samples the folded file implies.  Used by tests/formats/folded.sh.
#
#   python3 tests/tools/speedscope_check.py FILE.folded [--release DIR]
#
# DIR is speedscope's dist/release folder (default: under `npm root -g`).
# The folder and the file are served from 127.0.0.1 by a thread of this
# script, because speedscope loads a profile named in its URL
# (#profileURL=...) with fetch(), which file:// URLs do not allow.
import argparse
import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

TOTAL_SECONDS = cdp.load_scale.seconds(40)


def expected(path):
    """Per function: (total, self) samples.  A function's total counts
    each stack once, however often the function recurs in it."""
    total, self_ = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            stack, _, n = line.rstrip("\n").rpartition(" ")
            frames = stack.split(";")
            for name in set(frames):
                total[name] = total.get(name, 0) + int(n)
            self_[frames[-1]] = self_.get(frames[-1], 0) + int(n)
    return {k: (total[k], self_.get(k, 0)) for k in total}


def count(cell):
    """'4,732 (51%)' -> 4732 (speedscope groups digits by thousands)."""
    return int(cell.split(" ")[0].replace(",", ""))


def parse_table(text):
    """The sandwich view's rows, from the page's text: after the header
    'Total Self Symbol Name', three lines per row: 'T (p%)', 'S (p%)',
    name."""
    head = text.find("Symbol Name")
    if head < 0:
        raise cdp.Failure("no sandwich table in the page")
    lines = [x.strip() for x in text[head:].split("\n")[1:] if x.strip()]
    rows = {}
    for i in range(0, len(lines) - 2, 3):
        t, s, name = lines[i], lines[i + 1], lines[i + 2]
        try:
            rows[name] = (count(t), count(s))
        except ValueError:
            raise cdp.Failure("unexpected row %r %r %r" % (t, s, name))
    return rows


def serve(root):
    handler = functools.partial(Quiet, directory=root)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def load(page, base, want):
    page.navigate(base + "index.html#profileURL=" + base +
                  "profile.folded&view=sandwich")
    deadline = time.monotonic() + cdp.load_scale.seconds(15)
    while time.monotonic() < deadline:
        text = page.eval("document.body.innerText") or ""
        if "Symbol Name" in text:
            rows = parse_table(text)
            if len(rows) >= len(want):
                return rows
        time.sleep(0.2)
    raise cdp.Failure("speedscope showed no table of %d functions" % len(want))


def run(args, work):
    www = os.path.join(work, "www")
    shutil.copytree(args.release, www)
    shutil.copy(args.folded, os.path.join(www, "profile.folded"))
    want = expected(args.folded)
    srv = serve(www)
    proc = ws = None
    try:
        proc, port, _ = cdp.start_browser(os.path.join(work, "profile"))
        ws = cdp.WebSocket(cdp.page_target(port), cdp.STEP_SECONDS)
        page = cdp.Page(ws)
        for domain in ("Runtime", "Log", "Page"):
            page.call(domain + ".enable")
        base = "http://127.0.0.1:%d/" % srv.server_address[1]
        rows = load(page, base, want)
        title = page.eval("document.title")
        if "profile.folded" not in (title or ""):
            raise cdp.Failure("title %r does not name the profile" % title)
        if rows != want:
            diff = sorted(set(rows.items()) ^ set(want.items()))
            raise cdp.Failure("speedscope's (total, self) differ: %s" % diff[:8])
        if page.errors:
            raise cdp.Failure("errors in the console: %s" % page.errors)
        cdp.ok("speedscope shows %d functions with the folded totals"
               % len(rows))
    finally:
        if ws:
            ws.close()
        cdp.stop_browser(proc)
        srv.shutdown()


def default_release():
    try:
        root = subprocess.run(["npm", "root", "-g"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""
    return os.path.join(root, "speedscope", "dist", "release")


def main():
    ap = argparse.ArgumentParser(description="check folded stacks in "
                                 "speedscope")
    ap.add_argument("folded")
    ap.add_argument("--release", default=None)
    args = ap.parse_args()
    args.release = args.release or default_release()
    if not os.path.isfile(os.path.join(args.release, "index.html")):
        print("error: speedscope is not installed (sh tests/deps.sh)")
        return 1

    return cdp.bounded(run, args, TOTAL_SECONDS, "speedscope.")


if __name__ == "__main__":
    sys.exit(main())
