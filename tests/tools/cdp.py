# SPDX-License-Identifier: GPL-3.0-or-later
# cdp.py: checks an HTML report of gprof in headless Chromium, through the
# Chrome DevTools Protocol, with the Python standard library only (a small
# websocket client of its own).  Used by tests/formats/html.sh.
#
#   python3 tests/tools/cdp.py REPORT.html [--function NAME]
#           [--flame NAME] [--screenshot OUT.png] [--shot-at ID] [--width W] [--height H]
#
# It loads the page and fails on any console error, uncaught exception,
# error log entry or request for anything but the file itself; clicks (a
# real mouse click) the flat profile's link to NAME (default: the first
# link) and checks that the URL's hash names NAME's call-graph entry and
# that the entry is in view; sorts the flat profile by clicking the
# "calls" header twice; types in the filter box; checks that the page
# still reads with JavaScript off; and takes a screenshot (scrolled to
# element ID if given).  With --flame NAME the file is an SVG flame graph
# instead: a click on frame NAME zooms to it, the search box highlights
# it, Reset zoom goes back (no console error or request either).  Chromium is always killed at the end; every wait
# has a timeout, and the whole run is bounded by an alarm.
import argparse
import base64
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import load_scale  # noqa: E402

# A cold Chromium start and a page take about 2 s on a quiet machine; the
# limits are scaled with the load when the checker starts.
TOTAL_SECONDS = load_scale.seconds(30)
STEP_SECONDS = load_scale.seconds(10)


class Failure(Exception):
    pass


# ---- websocket (RFC 6455), client side ----

class WebSocket:
    def __init__(self, url, timeout):
        if not url.startswith("ws://"):
            raise Failure("not a ws:// URL: " + url)
        rest = url[5:]
        hostport, _, path = rest.partition("/")
        host, _, port = hostport.partition(":")
        self.sock = socket.create_connection((host, int(port or 80)),
                                             timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = ("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
                   "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                   "Sec-WebSocket-Version: 13\r\n\r\n" % (path, hostport, key))
        self.sock.sendall(request.encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            self.buf += self._recv_some()
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status + b" ":
            raise Failure("websocket handshake refused: %r" % status)

    def _recv_some(self):
        data = self.sock.recv(65536)
        if not data:
            raise Failure("the browser closed the connection")
        return data

    def _read(self, n):
        while len(self.buf) < n:
            self.buf += self._recv_some()
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def _send_frame(self, opcode, payload):
        # Client frames are always masked (section 5.3).
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, text):
        self._send_frame(0x1, text.encode())

    def _frame(self):
        b0, b1 = self._read(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack("!H", self._read(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self._read(8))[0]
        mask = self._read(4) if b1 & 0x80 else None
        payload = self._read(n)
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return b0 & 0x80, b0 & 0x0F, payload

    def recv(self):
        """The next text message (continuation frames joined)."""
        parts = []
        while True:
            fin, opcode, payload = self._frame()
            if opcode == 0x9:                   # ping
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:                   # pong
                continue
            if opcode == 0x8:
                raise Failure("the browser closed the websocket")
            parts.append(payload)
            if fin:
                return b"".join(parts).decode("utf-8", "replace")

    def close(self):
        try:
            self._send_frame(0x8, b"")
        except OSError:
            pass
        self.sock.close()


# ---- the DevTools protocol ----

class Page:
    def __init__(self, ws):
        self.ws = ws
        self.next_id = 0
        self.events = []
        self.errors = []
        self.requests = []

    def _note(self, msg):
        method = msg.get("method", "")
        p = msg.get("params", {})
        if method == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            self.errors.append("exception: %s" % (
                d.get("exception", {}).get("description") or d.get("text")))
        elif method == "Runtime.consoleAPICalled" and p.get("type") == "error":
            self.errors.append("console.error: %s" % " ".join(
                str(a.get("value", a.get("description", "")))
                for a in p.get("args", [])))
        elif method == "Log.entryAdded" and \
                p.get("entry", {}).get("level") == "error":
            self.errors.append("log: %s %s" % (p["entry"].get("text"),
                                               p["entry"].get("url", "")))
        elif method == "Network.requestWillBeSent":
            self.requests.append(p.get("request", {}).get("url", ""))
        self.events.append(msg)

    def call(self, method, **params):
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method,
                                 "params": params}))
        deadline = time.monotonic() + STEP_SECONDS
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mid:
                if "error" in msg:
                    raise Failure("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self._note(msg)
        raise Failure("no answer to " + method)

    def wait_event(self, method):
        for i, msg in enumerate(self.events):
            if msg.get("method") == method:
                del self.events[i]
                return msg
        deadline = time.monotonic() + STEP_SECONDS
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv())
            self._note(msg)
            if msg.get("method") == method:
                self.events.remove(msg)
                return msg
        raise Failure("timed out waiting for " + method)

    def eval(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            raise Failure("evaluating %s: %s" % (expr[:60], r["exceptionDetails"]))
        return r.get("result", {}).get("value")

    def poll(self, expr, what):
        deadline = time.monotonic() + STEP_SECONDS // 2
        while time.monotonic() < deadline:
            if self.eval(expr):
                return
            time.sleep(0.05)
        raise Failure("timed out: " + what)

    def click(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y,
                      button="left" if kind != "mouseMoved" else "none",
                      clickCount=1 if kind != "mouseMoved" else 0)

    def navigate(self, url):
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")


# ---- the browser ----

def start_browser(profile_dir):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        raise Failure("chromium is not installed (sh tests/deps.sh)")
    proc = subprocess.Popen(
        [exe, "--headless=new", "--no-sandbox", "--disable-gpu",
         "--remote-debugging-port=0", "--user-data-dir=" + profile_dir,
         "--no-first-run", "--no-default-browser-check", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    port_file = os.path.join(profile_dir, "DevToolsActivePort")
    deadline = time.monotonic() + STEP_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise Failure("chromium exited at once (status %d)" % proc.returncode)
        try:
            with open(port_file) as f:
                lines = f.read().split("\n")
            if len(lines) >= 2 and lines[0].strip():
                return proc, int(lines[0]), lines[1].strip()
        except OSError:
            pass
        time.sleep(0.05)
    raise Failure("chromium wrote no DevToolsActivePort")


def page_target(port):
    deadline = time.monotonic() + STEP_SECONDS
    while time.monotonic() < deadline:
        with urllib.request.urlopen("http://127.0.0.1:%d/json" % port,
                                    timeout=STEP_SECONDS // 2) as f:
            targets = json.load(f)
        for t in targets:
            if t.get("type") == "page" and "webSocketDebuggerUrl" in t:
                return t["webSocketDebuggerUrl"]
        time.sleep(0.1)
    raise Failure("no page target")


def stop_browser(proc):
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass


# ---- the checks ----

def ok(msg):
    print("ok: " + msg)


def js_str(s):
    return json.dumps(s)


def click_function(page, name):
    """Clicks the flat profile's link to `name`; returns the entry's id."""
    box = page.eval("""(function(){
        var links=[].slice.call(document.querySelectorAll('#flat-table a'));
        var a=%s===null?links[0]:links.find(function(l){
            return l.textContent===%s;});
        if(!a)return null;
        a.scrollIntoView({block:'center'});
        var r=a.getBoundingClientRect();
        return {x:r.left+Math.min(r.width/2,20),y:r.top+r.height/2,
                href:a.getAttribute('href'),name:a.textContent};
    })()""" % (js_str(name), js_str(name)))
    if not box:
        raise Failure("no link to %r in the flat profile" % name)
    page.click(box["x"], box["y"])
    target = box["href"].lstrip("#")
    page.poll("location.hash===%s" % js_str("#" + target),
              "location.hash to become #" + target)
    ok("clicked %s: location.hash is #%s" % (box["name"], target))
    page.poll("""(function(){var e=document.getElementById(%s);
        if(!e)return false;var r=e.getBoundingClientRect();
        return r.top>=-1&&r.top<innerHeight&&r.bottom>0;})()""" % js_str(target),
              "entry %s in the viewport" % target)
    me = page.eval("""(function(){var e=document.getElementById(%s);
        var m=e&&e.querySelector('tr.me td.name');
        return m?m.textContent:null;})()""" % js_str(target))
    if not me or not me.startswith(box["name"]):
        raise Failure("entry #%s is about %r, not %r" % (target, me, box["name"]))
    ok("entry #%s (%s) is in view" % (target, me))
    return target


def header_box(page, table, label):
    box = page.eval("""(function(){
        var th=[].slice.call(document.querySelectorAll('#%s thead th')).find(
            function(h){return h.textContent.replace(/[\\u25b2\\u25bc ]+$/,'')===%s;});
        if(!th)return null;th.scrollIntoView({block:'center'});
        var r=th.getBoundingClientRect();
        return {x:r.left+r.width/2,y:r.top+r.height/2,
                i:[].indexOf.call(th.parentNode.cells,th)};})()""" %
                   (table, js_str(label)))
    if not box:
        raise Failure("no %r header in #%s" % (label, table))
    return box


def column_values(page, table, i):
    return page.eval("""[].map.call(document.querySelectorAll(
        '#%s tbody tr'),function(r){var v=r.cells[%d].getAttribute('data-v');
        return v===''?null:+v;})""" % (table, i))


def check_sort(page):
    box = header_box(page, "flat-table", "calls")
    rank = lambda v: float("-inf") if v is None else v
    for order in ("descending", "ascending"):
        page.click(box["x"], box["y"])
        vals = column_values(page, "flat-table", box["i"])
        want = sorted(vals, key=rank, reverse=order == "descending")
        if [rank(v) for v in vals] != [rank(v) for v in want]:
            raise Failure("calls not %s after a click: %s" % (order, vals[:10]))
        state = page.eval("document.querySelectorAll('#flat-table thead th')"
                          "[%d].getAttribute('aria-sort')" % box["i"])
        if state != order:
            raise Failure("header says %r, not %r" % (state, order))
        ok("sorted by calls, %s (%d rows)" % (order, len(vals)))


def check_filter(page, name):
    box = page.eval("""(function(){var f=document.querySelector(
        'input[data-filter=flat-table]');if(!f||f.hidden)return null;
        f.scrollIntoView({block:'center'});var r=f.getBoundingClientRect();
        return {x:r.left+10,y:r.top+r.height/2};})()""")
    if not box:
        raise Failure("no visible filter box (did the script run?)")
    page.click(box["x"], box["y"])
    part = name[:max(2, len(name) // 2)]
    page.call("Input.insertText", text=part)
    shown = page.eval("""[].filter.call(document.querySelectorAll(
        '#flat-table tbody tr'),function(r){return !r.hidden;}).map(
        function(r){return r.getAttribute('data-name');})""")
    total = page.eval("document.querySelectorAll('#flat-table tbody tr').length")
    if not shown or any(part.lower() not in s.lower() for s in shown):
        raise Failure("filter %r shows %s" % (part, shown))
    ok("filter %r shows %d of %d rows" % (part, len(shown), total))
    page.eval("""(function(){var f=document.querySelector(
        'input[data-filter=flat-table]');f.value='';
        f.dispatchEvent(new Event('input'));})()""")


def check_no_js(page, url):
    page.call("Emulation.setScriptExecutionDisabled", value=True)
    page.navigate(url)
    rows = page.eval("document.querySelectorAll('#flat-table tbody tr').length")
    entries = page.eval("document.querySelectorAll('tbody.entry').length")
    hidden = page.eval("document.querySelector('input[data-filter]')"
                       ".hidden")
    if not rows or not entries or not hidden:
        raise Failure("without JavaScript: %s flat rows, %s entries, "
                      "filter hidden %s" % (rows, entries, hidden))
    ok("without JavaScript: %d flat rows, %d entries, no filter box"
       % (rows, entries))
    page.call("Emulation.setScriptExecutionDisabled", value=False)
    page.navigate(url)


def screenshot(page, path, at):
    page.eval("""(function(){var e=%s&&document.getElementById(%s);
        if(e)e.scrollIntoView({block:'start'});else scrollTo(0,0);
        location.hash='';})()""" % (js_str(at), js_str(at)))
    time.sleep(0.2)
    data = base64.b64decode(page.call("Page.captureScreenshot",
                                      format="png")["data"])
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise Failure("the screenshot is not a PNG")
    w, h = struct.unpack("!II", data[16:24])
    if w < 200 or h < 200 or len(data) < 5000:
        raise Failure("screenshot too small: %dx%d, %d bytes" % (w, h, len(data)))
    with open(path, "wb") as f:
        f.write(data)
    ok("screenshot %s: %dx%d PNG, %d bytes" % (path, w, h, len(data)))


def check_flame(page, name):
    """An SVG flame graph: a real click on the frame named `name` zooms
    to it (its box then spans the whole width), the search box highlights
    the frames whose name has `name` in it, and Reset zoom goes back."""
    sel = "document.querySelector('g.f[data-n=' + %s + ']')" % js_str(
        js_str(name))
    box = page.eval("(function () { var r = %s.querySelector('rect')"
                    ".getBoundingClientRect(); return [r.left + r.width / 2,"
                    " r.top + r.height / 2, r.width]; })()" % sel)
    if not box:
        raise Failure("no frame named %s" % name)
    page.click(box[0], box[1])
    page.poll("Math.abs(%s.querySelector('rect').getBoundingClientRect()"
              ".width - document.documentElement.getBoundingClientRect()"
              ".width) < 1" % sel, "the clicked frame spans the width")
    ok("a click on %s zooms to it (width %.0f px -> all)" % (name, box[2]))
    page.eval("(function () { var b = document.getElementById('search');"
              " b.value = %s; b.dispatchEvent(new Event('input')); })()"
              % js_str(name))
    page.poll("document.querySelectorAll('g.f.hit').length > 0 && "
              "+document.documentElement.getAttribute('data-matched') > 0",
              "search highlights %s" % name)
    ok("search for %s: %s frames, %s samples" % (
        name, page.eval("document.querySelectorAll('g.f.hit').length"),
        page.eval("document.documentElement.getAttribute('data-matched')")))
    r = page.eval("(function () { var r = document.getElementById('reset')"
                  ".getBoundingClientRect(); return [r.left + r.width / 2,"
                  " r.top + r.height / 2]; })()")
    page.click(r[0], r[1])
    page.poll("document.documentElement.getAttribute('data-zoom') === 'f0'",
              "Reset zoom")
    ok("Reset zoom")


def run(args, profile_dir):
    proc = None
    ws = None
    try:
        proc, port, browser_path = start_browser(profile_dir)
        ok("chromium on port %d (%s)" % (port, browser_path))
        ws = WebSocket(page_target(port), STEP_SECONDS)
        page = Page(ws)
        for domain in ("Runtime", "Log", "Page", "Network"):
            page.call(domain + ".enable")
        page.call("Emulation.setDeviceMetricsOverride", width=args.width,
                  height=args.height, deviceScaleFactor=1, mobile=False)
        url = "file://" + os.path.abspath(args.report)
        page.navigate(url)
        ok("loaded " + url)
        if args.flame:
            check_flame(page, args.flame)
        else:
            title = page.eval("document.title")
            if not title:
                raise Failure("the page has no title")
            click_function(page, args.function)
            check_sort(page)
            check_filter(page, args.function or page.eval(
                "document.querySelector('#flat-table a').textContent"))
            check_no_js(page, url)
        if args.screenshot:
            screenshot(page, args.screenshot, args.shot_at)
        page.eval("1")                          # drain the last events
        foreign = [u for u in page.requests if not u.startswith(url)]
        if foreign:
            raise Failure("the page asked for other resources: %s" % foreign)
        if page.errors:
            raise Failure("errors in the console: %s" % page.errors)
        ok("no console error, no request beyond the file")
        try:
            page.call("Browser.close")
        except (Failure, OSError):
            pass
    finally:
        if ws:
            ws.close()
        stop_browser(proc)


def main():
    ap = argparse.ArgumentParser(description="check an HTML report in "
                                 "headless Chromium")
    ap.add_argument("report")
    ap.add_argument("--function", help="flat-profile link to click "
                    "(default: the first)")
    ap.add_argument("--flame", metavar="NAME", help="the report is a flame "
                    "graph (SVG): zoom to and search for frame NAME")
    ap.add_argument("--screenshot", help="PNG to write")
    ap.add_argument("--shot-at", help="id of the element to show in it")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=900)
    args = ap.parse_args()

    return bounded(run, args, TOTAL_SECONDS, "cdp-chromium.")


def bounded(fn, args, seconds, prefix):
    """fn(args, scratch_dir) within `seconds` (an alarm), with a scratch
    folder removed afterwards: 0, or 1 after printing the error."""
    def alarm(signum, frame):
        raise Failure("gave up after %d s" % seconds)
    signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    work = tempfile.mkdtemp(prefix=prefix)
    try:
        fn(args, work)
    except (Failure, OSError, ValueError) as e:
        print("error: %s" % e)
        return 1
    finally:
        signal.alarm(0)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
