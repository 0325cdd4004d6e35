# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/json_check.py: checks one --output-format=json document
# against its schema and against the text reports of the same run.
#
#   python3 json_check.py SCHEMA DOC.json [FLAT.txt|- CG.txt|-]
#
# FLAT.txt is `gprof -b -p` output and CG.txt `gprof -b -q` output of the
# same inputs; "-" means the text could not print that report (no
# histogram, no arcs), so the document must hold null there.  Every figure
# the text prints is compared with the document's, rounded as the text
# rounds it.  Prints what differs; exits 1 if anything does.
import json
import re
import sys

import jsonschema

errors = []


def err(msg):
    if len(errors) < 20:
        errors.append(msg)


def same(value, text, prec=2, scale=1.0):
    """Does the document's value print as the text's field?  A value that
    lies on a rounding boundary (up to the last bits, as when the text
    multiplied in another order) may round either way."""
    if value is None:
        return text in ('inf', '-inf', 'nan', '-nan')
    x = value * scale
    if '%.*f' % (prec, x) == text:
        return True
    try:
        t = float(text)
    except ValueError:
        return False
    half = 0.5 * 10 ** -prec
    return abs(abs(x - t) - half) <= 1e-9 * max(1.0, abs(x))


def check(where, value, text, prec=2, scale=1.0):
    if not same(value, text, prec, scale):
        err('%s: document %r, text %r' % (where, value, text))


def check_int(where, value, text):
    if value is None or str(value) != text:
        err('%s: document %r, text %r' % (where, value, text))


# ---- flat profile ----

FLAT_ROW = re.compile(r'^ *(\S+) +(\S+) +(\S+) (?: {28}(.*)|'
                      r' *(\d+) +(\S+) +(\S+)  (.*))$')


def parse_flat(lines):
    unit, rows, started = None, [], False
    for line in lines:
        if not started:
            if line.startswith(' time '):
                started = True
                unit = [w for w in line.split() if w.endswith('/call')][0]
            continue
        if not line.strip() or line.startswith('\f'):
            break
        m = FLAT_ROW.match(line)
        if not m:
            err('flat: unparsed text row %r' % line)
            continue
        rows.append(m.groups())
    return unit, rows


def compare_flat(doc, lines):
    unit, rows = parse_flat(lines)
    summ = doc['summary']
    if unit != '%s/call' % summ['per_call_unit']:
        err('flat: per-call unit %r, text %r' % (summ['per_call_unit'], unit))
    scale = summ['per_call_scale']
    flat = doc['flat_profile']
    if len(flat) != len(rows):
        err('flat: %d rows, text %d' % (len(flat), len(rows)))
    for i, (r, t) in enumerate(zip(flat, rows)):
        pct, cum, self_s, name0, calls, spc, tpc, name1 = t
        name = name0 if name0 is not None else name1
        w = 'flat row %d (%s)' % (i, name)
        if r['name'] != name:
            err('%s: document name %r' % (w, r['name']))
        check(w + ' %', r['percent'], pct)
        check(w + ' cumulative', r['cumulative_seconds'], cum)
        check(w + ' self', r['self_seconds'], self_s)
        if calls is None:
            for k in ('calls', 'self_seconds_per_call',
                      'total_seconds_per_call'):
                if r[k] is not None:
                    err('%s: %s %r where the text is blank' % (w, k, r[k]))
        else:
            check_int(w + ' calls', r['calls'], calls)
            check(w + ' self/call', r['self_seconds_per_call'], spc,
                  scale=scale)
            check(w + ' total/call', r['total_seconds_per_call'], tpc,
                  scale=scale)


# ---- call graph ----

# An index wider than its 6 columns loses its ']' in the text, as in GNU's.
CYCLE_LINE = re.compile(r'^\[(\d+)\]? +(\S+) +(\S+) +(\S+) +(\d+)(?:\+(\d+))?'
                        r' +<cycle (\d+) as a whole> \[(\d+)\]$')
PRIMARY = re.compile(r'^\[(\d+)\]? +(\S+) +(\S+) +(\S+) +'
                     r'(?:(\d+)(?:\+(\d+))? +)?(.*)$')
ARC_FULL = re.compile(r'^ +(\S+) +(\S+) +(\d+)/(\d+) +(.*)$')
ARC_COUNT = re.compile(r'^ +(\d+) +(.*)$')
MEMBER = re.compile(r'^ +(\S+) +(\S+) +(\d+)(?:\+(\d+))? +(.*)$')
TAIL = re.compile(r'^(.*) ([\[(])(\d+)[\])]$')


def parse_cg(lines):
    blocks, cur, started = [], [], False
    for line in lines:
        if not started:
            started = line.startswith('index % time')
            continue
        if line.startswith('\f'):
            break
        if line.startswith('-----'):
            blocks.append(cur)
            cur = []
        elif line.strip():
            cur.append(line)
    return blocks


def shown_name(name, cycle):
    return name + (' <cycle %d>' % cycle if cycle else '')


def check_named(where, text, name, cycle, index):
    m = TAIL.match(text)
    if not m or m.group(1) != shown_name(name, cycle) \
            or int(m.group(3)) != index:
        err('%s: text %r, document %r <cycle %r> [%r]' %
            (where, text, name, cycle, index))


def compare_arc(where, a, line):
    m = ARC_FULL.match(line)
    if m:
        if a['internal']:
            err('%s: internal in the document, not in the text' % where)
        check(where + ' self', a['self_seconds'], m.group(1))
        check(where + ' children', a['children_seconds'], m.group(2))
        check_int(where + ' count', a['count'], m.group(3))
        check_int(where + ' total', a['total_count'], m.group(4))
        check_named(where, m.group(5), a['name'], a['cycle'], a['index'])
        return
    m = ARC_COUNT.match(line)
    if not m:
        err('%s: unparsed text line %r' % (where, line))
        return
    if not a['internal'] or a['total_count'] is not None:
        err('%s: count-only in the text, not in the document' % where)
    check_int(where + ' count', a['count'], m.group(1))
    check_named(where, m.group(2), a['name'], a['cycle'], a['index'])


def compare_arcs(where, arcs, lines):
    if len(arcs) != len(lines):
        err('%s: %d lines in the document, %d in the text' %
            (where, len(arcs), len(lines)))
    for i, (a, line) in enumerate(zip(arcs, lines)):
        compare_arc('%s %d' % (where, i), a, line)


def compare_times(where, e, pct, self_s, child):
    if pct is not None:
        check(where + ' %', e['percent'], pct, prec=1)
    check(where + ' self', e['self_seconds'], self_s)
    check(where + ' children', e['children_seconds'], child)


def compare_cycle(e, block):
    where = 'cg entry [%d]' % e['index']
    m = CYCLE_LINE.match(block[0])
    if not m:
        err('%s: text %r is not a cycle line' % (where, block[0]))
        return
    idx, pct, self_s, child, called, selfc, num, idx2 = m.groups()
    check_int(where + ' index', e['index'], idx)
    compare_times(where, e, pct, self_s, child)
    check_int(where + ' called', e['called'], called)
    check_int(where + ' self calls', e['self_calls'], selfc or '0')
    check_int(where + ' cycle', e['cycle'], num)
    if len(e['members']) != len(block) - 1:
        err('%s: %d members, text %d' %
            (where, len(e['members']), len(block) - 1))
    for i, (mem, line) in enumerate(zip(e['members'], block[1:])):
        w = '%s member %d' % (where, i)
        m = MEMBER.match(line)
        if not m:
            err('%s: unparsed %r' % (w, line))
            continue
        compare_times(w, mem, None, m.group(1), m.group(2))
        check_int(w + ' called', mem['called'], m.group(3))
        check_int(w + ' self calls', mem['self_calls'], m.group(4) or '0')
        check_named(w, m.group(5), mem['name'], e['cycle'], mem['index'])


def compare_function(e, block):
    where = 'cg entry [%d]' % e['index']
    at = [i for i, line in enumerate(block) if line.startswith('[')]
    if len(at) != 1:
        err('%s: no primary line in %r' % (where, block[:3]))
        return
    k = at[0]
    m = PRIMARY.match(block[k])
    idx, pct, self_s, child, called, selfc, name = m.groups()
    check_int(where + ' index', e['index'], idx)
    compare_times(where, e, pct, self_s, child)
    if called is None:
        if e['called'] is not None:
            err('%s: called %r where the text is blank' % (where, e['called']))
    else:
        check_int(where + ' called', e['called'], called)
    check_int(where + ' self calls', e['self_calls'], selfc or '0')
    check_named(where, name, e['name'], e['cycle'], e['index'])
    callers = block[:k]
    spont = len(callers) == 1 and callers[0].strip() == '<spontaneous>'
    if spont != e['spontaneous']:
        err('%s: spontaneous %r, text %r' % (where, e['spontaneous'], spont))
    if not spont:
        compare_arcs(where + ' caller', e['callers'], callers)
    compare_arcs(where + ' callee', e['callees'], block[k + 1:])


def compare_cg(doc, lines):
    blocks = parse_cg(lines)
    entries = doc['call_graph']['entries']
    if len(entries) != len(blocks):
        err('call graph: %d entries, text %d' % (len(entries), len(blocks)))
    for e, block in zip(entries, blocks):
        if e['kind'] == 'cycle':
            compare_cycle(e, block)
        else:
            compare_function(e, block)


def read_lines(path):
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        return f.read().split('\n')


def main():
    schema_path, doc_path = sys.argv[1:3]
    with open(schema_path) as f:
        schema = json.load(f)
    with open(doc_path, 'rb') as f:
        doc = json.loads(f.read().decode('utf-8'))
    validator = jsonschema.Draft202012Validator(schema)
    for e in validator.iter_errors(doc):
        err('schema: %s at %s' % (e.message, '/'.join(map(str, e.path))))
    if not errors and len(sys.argv) > 3:
        flat, cg = sys.argv[3:5]
        for key, path, fn in (('flat_profile', flat, compare_flat),
                              ('call_graph', cg, compare_cg)):
            if path == '-':
                if doc[key] is not None:
                    err('%s: the text has none, the document has one' % key)
            elif doc[key] is None:
                err('%s: null, the text has one' % key)
            else:
                fn(doc, read_lines(path))
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


main()
