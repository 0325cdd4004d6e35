# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/callgrind_check.py: compares what callgrind_annotate read
# from an --output-format=callgrind file with the text reports.
#
#   python3 callgrind_check.py CALLGRIND SELF.txt INCL.txt FLAT.txt|- DOC.json
#
# SELF.txt and INCL.txt are `callgrind_annotate --inclusive=no` and
# `--inclusive=yes` output for CALLGRIND; FLAT.txt is `gprof -b -p
# --sampling-error` output of the same inputs ("-": no histogram); DOC.json
# the same run's --output-format=json document, for the call graph's
# figures (tests/formats/json.sh checks those against the text).
# Checks: the program total and every function's self time and sampling
# error agree with the flat profile (costs are microseconds, so a figure
# may round the other way when it lies within 1 us of a boundary); every
# function of the call graph outside cycles (and not called only by
# itself) has the inclusive cost its entry gives (self + children); every
# fn= block names its object (ob=) and every call its callee's (cob=).  Exits 1 on any difference.
import json
import re
import sys

errors = []


def err(msg):
    if len(errors) < 20:
        errors.append(msg)


def agrees(us, text):
    """Does a cost in microseconds print as the text's 2-decimal field?"""
    if text in ('inf', '-inf', 'nan', '-nan'):
        return False
    x, t = us / 1e6, float(text)
    return '%.2f' % x == text or abs(abs(x - t) - 0.005) <= 1.001e-6


def cost(field):
    return 0 if field == '.' else int(field.replace(',', ''))


COST = r'([\d,]+|\.)(?: \( *[\d.]+%\))?'


def read_annotate(path, nevents, files):
    """PROGRAM TOTALS and {function name: [costs...]} (a name may occur
    more than once: static functions of one name in unknown files)."""
    line_re = re.compile(r'^ *' + ' +'.join([COST] * nevents) + r' +(\S.*)$')
    totals, funcs, in_funcs = None, {}, False
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.endswith('file:function'):
                in_funcs = True
                continue
            if in_funcs and line.startswith('-- Auto-annotated'):
                break
            m = line_re.match(line)
            if not m:
                continue
            costs = [cost(c) for c in m.groups()[:nevents]]
            where = m.group(nevents + 1)
            if where.startswith('PROGRAM TOTALS'):
                totals = costs
            elif in_funcs:
                funcs.setdefault(strip_file(where, files), []).append(costs)
    return totals, funcs


OBJECTS = set()


def strip_file(key, files):
    """callgrind_annotate shows FILE:FUNCTION [OBJECT]; the function's name
    as the text shows it (without the address added to clashing names)."""
    for fl in sorted(files, key=len, reverse=True):
        if key.startswith(fl + ':'):
            key = key[len(fl) + 1:]
            break
    for ob in sorted(OBJECTS, key=len, reverse=True):
        if key.endswith(' [' + ob + ']'):
            key = key[:-len(ob) - 3]
            break
    return re.sub(r' \[0x[0-9a-f]+\]$', '', key)


def read_callgrind(path):
    events, files, prev = None, set(), ''
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            line = line.rstrip('\n')
            if line.startswith('events: '):
                events = line.split()[1:]
            elif line.startswith(('fl=', 'cfi=')):
                files.add(line.split('=', 1)[1])
            elif line.startswith(('ob=', 'cob=')):
                OBJECTS.add(line.split('=', 1)[1])
            # every function names its object (ob=) and every call its
            # callee's (cob=), on the line before its file
            if line.startswith(('fl=', 'cfi=')) and \
               not prev.startswith('cob=' if line[0] == 'c' else 'ob='):
                err('%s without its object before it' % line)
            prev = line
    return events, files


FLAT_ROW = re.compile(r'^ *(\S+) +(\S+) +(\S+) +(\S+) (?: {28}(.*)|'
                      r' *\d+ +\S+ +\S+  (.*))$')


def read_flat(path):
    rows, started = [], False
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            line = line.rstrip('\n')
            if not started:
                started = line.startswith(' time ')
                continue
            if not line.strip():
                break
            m = FLAT_ROW.match(line)
            if not m:
                err('flat: unparsed %r' % line)
                continue
            pct, cum, self_s, e, n0, n1 = m.groups()
            rows.append((n0 if n0 is not None else n1, cum, self_s, e))
    return rows


def check_flat(rows, totals, funcs, times):
    if not rows:
        return
    # The samples of no function of the text ("[profiling hook]",
    # "[outside every function]") are in the total as functions of
    # their own.
    extra = sum(c[0] for name, got in funcs.items() if name.startswith('[')
                for c in got)
    if times and not agrees(totals[0] - extra, rows[-1][1]):
        err('program total %d us (%d us of no function), text %s s' %
            (totals[0], extra, rows[-1][1]))
    by_name = {}
    for name, cum, self_s, e in rows:
        by_name.setdefault(name, []).append((self_s, e))
    for name, texts in by_name.items():
        got = sorted(funcs.get(name, []))
        texts = sorted(texts, key=lambda t: float(t[0]))
        if len(got) != len(texts):
            err('%s: %d functions in callgrind, %d rows in the text' %
                (name, len(got), len(texts)))
            continue
        for c, (self_s, e) in zip(got, texts):
            if times and not agrees(c[0], self_s):
                err('%s: self %d us, text %s s' % (name, c[0], self_s))
            if times and not agrees(c[1], e):
                err('%s: error %d us, text %s s' % (name, c[1], e))
    for name, got in funcs.items():
        if (name not in by_name and not name.startswith('[') and
                any(c[0] for c in got)):
            err('%s: self cost %r, not in the flat profile' % (name, got))


def check_inclusive(doc, incl):
    if doc['call_graph'] is None:
        return
    for e in doc['call_graph']['entries']:
        if e['kind'] != 'function' or e['cycle'] is not None:
            continue
        # callgrind_annotate takes a called function's inclusive cost as
        # the sum of the calls into it: 0 when it is called only by
        # itself, along which nothing is propagated
        if e['callers'] and all(a['internal'] for a in e['callers']):
            continue
        got = incl.get(e['name'], [])
        if len(got) != 1:
            continue            # clashing names: not told apart here
        want = e['self_seconds'] + e['children_seconds']
        arcs = len(e['callers']) + len(e['callees']) + 1
        # each call's cost is rounded to 1 us on its own
        if abs(got[0][0] / 1e6 - want) > arcs * 1e-6 + 1e-9:
            err('%s: inclusive %d us, call graph %.6f s' %
                (e['name'], got[0][0], want))


def main():
    cg_path, self_path, incl_path, flat_path, doc_path = sys.argv[1:6]
    events, files = read_callgrind(cg_path)
    times = events == ['Time_us', 'Err_us']
    if not times and events != ['Samples']:
        err('events: %r' % events)
    n = len(events or [])
    totals, funcs = read_annotate(self_path, n, files)
    _, incl = read_annotate(incl_path, n, files)
    if totals is None:
        err('callgrind_annotate printed no PROGRAM TOTALS')
    else:
        if flat_path != '-':
            check_flat(read_flat(flat_path), totals, funcs, times)
        if times:
            with open(doc_path, encoding='utf-8') as f:
                check_inclusive(json.load(f), incl)
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


main()
