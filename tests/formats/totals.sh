# SPDX-License-Identifier: GPL-3.0-or-later
# tests/formats/totals.sh: one set of totals, and the profiling hook's
# share said everywhere (sourced by tests/formats.sh, which gives $GPROF,
# $WORK and the helpers).
# totals-prog.c, built with -pg and libgmon and run with GMON_STACKS=1
# GMON_SHLIBS=1, spends most of its time counting calls (the hook) and
# some in a -pg shared library (totals-lib.c).  Every format must agree
# on what 100% is (every sample recorded: JSON's summary.totals.samples)
# and name the hook's samples and those in no function rather than drop
# them: --stacks (the call graph's total, the flat percentages, no
# inclusive time over 100%), pprof (duration and samples), callgrind
# (summary and its functions), folded and flame (the stacks), html and
# dot (their captions); --diagnose and the stderr line say the hook's
# share.  The run is real, so the test asserts nothing about times: the
# totals are compared with each other (within rounding), and the hook's
# share only against 20%, far below the program's (about 60%).

TT=$WORK/totals
mkdir -p "$TT"
_t_src=$TESTS_DIR/formats
if ${CC:-cc} -pg -O2 -fPIC -shared -o "$TT/libtot.so" "$_t_src/totals-lib.c" &&
   ${CC:-cc} -pg -O2 -DWITH_LIB -o "$TT/prog" "$_t_src/totals-prog.c" \
	-L"$TT" -ltot -Wl,-rpath,"$TT" -L"$ROOT/src/libgmon" -lgmon -pthread &&
   (cd "$TT" && GMON_STACKS=1 GMON_SHLIBS=1 ./prog); then
	pass "totals: the program ran with stacks"
else
	fail "totals: the program ran with stacks"
fi

# tt_run NAME ARGS...: gprof ARGS on the run into $TT/NAME (stderr in
# $TT/NAME.err); status 0 if it worked.
tt_run() {
	_t_n=$1
	shift
	"$GPROF" "$@" "$TT/prog" "$TT/gmon.out" > "$TT/$_t_n" 2> "$TT/$_t_n.err"
}

if [ -f "$TT/gmon.out.shlibs" ] &&
   tt_run json --output-format=json && tt_run sjson --output-format=json --stacks &&
   tt_run flat -b -p && tt_run sflat -b -p --stacks &&
   tt_run diag --diagnose && tt_run cg --output-format=callgrind &&
   tt_run folded --output-format=folded && tt_run flame --output-format=flame &&
   tt_run html --output-format=html && tt_run dot --output-format=dot &&
   tt_run pprof --output-format=pprof && tt_run spprof --output-format=pprof --no-shlibs; then
	pass "totals: every format written"
else
	fail "totals: every format written" "$(cat "$TT/$_t_n.err" 2>/dev/null | head -5)"
fi

# pprof's own totals, read by go tool pprof (its Duration and Total
# samples lines, in ms).
tt_pprof() {	# FILE OUT
	env HOME="$TT/go/home" GOCACHE="$TT/go/cache" GOTOOLCHAIN=local \
		GOPROXY=off GOFLAGS= PPROF_TMPDIR="$TT/go/tmp" go tool pprof \
		-top -unit=ms -nodefraction=0 "$1" > "$2" 2>&1
}
if need go golang-go; then
	mkdir -p "$TT/go/home" "$TT/go/cache" "$TT/go/tmp"
	tt_pprof "$TT/pprof" "$TT/pprof.top" || fail "totals: pprof read" "$(head -5 "$TT/pprof.top")"
	tt_pprof "$TT/spprof" "$TT/spprof.top" || fail "totals: pprof read" "$(head -5 "$TT/spprof.top")"
fi

if _t_out=$(python3 - "$TT" <<'EOF' 2>&1
import json, re, sys
d = sys.argv[1]
def rd(n):
    return open('%s/%s' % (d, n), encoding='utf-8', errors='replace').read()
errors = []
def ok(cond, msg):
    if not cond:
        errors.append(msg)
def near(a, b, tol, msg):
    ok(abs(a - b) <= tol, '%s: %r, expected %r' % (msg, a, b))

j = json.loads(rd('json'))['summary']
t = j['totals']
hz = j['sampling_rate_hz']
tick = 1.0 / hz
allsec = t['seconds']
near(t['samples'] * tick, allsec, 1e-9, 'json: samples and seconds')
near(t['shown_seconds'] + t['hook_seconds'] + t['outside_seconds'] +
     t['excluded_seconds'], allsec, 1e-6, 'json: the parts add up')
near(j['total_seconds'], allsec - t['hook_seconds'] - t['excluded_seconds'],
     1e-6, "json: total_seconds is GNU's flat total")
ok(t['hook_measured'] and t['hook_share'] >= 0.2,
   'json: the hook share %r is under 20%%' % t['hook_share'])
near(t['hook_slowdown'], 1 / (1 - t['hook_share']), 1e-9, 'json: slow-down')
ok(t['shown_seconds'] > 0, 'json: no time in the functions')

# --stacks: the call graph's 100% is the stacks' samples: every sample
# but those without a stack (the writer loses none here, but allow a few).
sj = json.loads(rd('sjson'))
ss = sj['summary']
near(ss['totals']['seconds'], allsec, 1e-9, '--stacks json: all')
near(ss['propagated_seconds'], allsec, 3 * tick, '--stacks json: propagated')
incl = max(r.get('inclusive_seconds') or 0 for r in sj['flat_profile'])
ok(incl <= allsec + 1e-9, '--stacks: inclusive %r over all %r' % (incl, allsec))
for r in sj['flat_profile']:
    near(r['percent'], 100 * r['self_seconds'] / allsec, 1e-6,
         '--stacks flat %% of every sample (%s)' % r['name'])
ok(re.search(r'^ +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+ ', rd('sflat'), re.M),
   '--stacks: no flat profile with an inclusive column')

# diagnose: the line, and the stderr line of a plain report
ok(re.search(r'profiling hook +PROBLEM .*%.2f s of %.2f s \(%.1f%%\).*'
             r'about %.2f times as slow' % (t['hook_seconds'], allsec,
             100 * t['hook_share'], t['hook_slowdown']), rd('diag')),
   '--diagnose: no profiling-hook line with the JSON figures')
ok('profiling hook' in rd('flat.err'), 'stderr: no profiling-hook line')

# callgrind: the summary is every sample; the hook's, no function's and
# left-out functions' samples are functions, and with the others they
# make the summary.
cg = rd('cg')
m = re.search(r'^summary: (\d+)', cg, re.M)
near(int(m.group(1)) / 1e6, allsec, 1e-6, 'callgrind: summary')
selfs, fn = 0, None
for line in cg.splitlines():
    if line.startswith('fn='):
        fn = line[3:]
    elif fn and re.match(r'^\d+ \d+', line):
        selfs += int(line.split()[1])
        fn = None
near(selfs / 1e6, allsec, 1e-3, 'callgrind: functions')
hook = re.search(r'^fn=\[profiling hook\]\n\d+ (\d+)', cg, re.M)
ok(hook and abs(int(hook.group(1)) / 1e6 - t['hook_seconds']) < 1e-6,
   'callgrind: no [profiling hook] function of the hook\'s time')

# folded and flame: every stack's sample, the hook a frame of its own
fo = [l.rsplit(' ', 1) for l in rd('folded').splitlines()]
fsum = sum(int(c) for _, c in fo)
fhook = sum(int(c) for s, c in fo if s.endswith(';[profiling hook]'))
near(fsum * tick, allsec, 3 * tick, 'folded: samples')
ok(all(not s.startswith('[profiling hook]') for s, _ in fo),
   'folded: a hook frame without its caller')
# the stacks see the hook as the histogram does, within sampling error
near(fhook * tick, t['hook_seconds'],
     max(3 * tick, 3 * (t['hook_seconds'] * tick) ** 0.5), 'folded: hook')
fl = rd('flame')
m = re.search(r'Flame graph: (\d+) samples[^<]*; ([\d.]+)% in the profiling '
              r'hook \(the run about ([\d.]+) times as slow\)', fl)
ok(m is not None, 'flame: no hook share in the header')
if m:
    near(int(m.group(1)), fsum, 0, 'flame: samples')
    near(float(m.group(2)), 100.0 * fhook / fsum, 0.06, 'flame: hook share')
ok('[profiling hook] (' in fl, 'flame: no [profiling hook] frame')

# html and dot name every sample, the hook's share and slow-down
h = rd('html')
ok('<th>All samples</th><td>%d, %.2f s: 100%%' % (t['samples'], allsec) in h,
   'html: no All samples row')
ok(re.search(r'<th>Profiling hook</th><td>%.2f s, %.1f%% of the samples: '
             r'profiling made the run about %.2f times as slow' %
             (t['hook_seconds'], 100 * t['hook_share'], t['hook_slowdown']), h),
   'html: no hook row with the JSON figures')
ok('\\n%.2f s sampled: %.2f s (%.1f%%) in the profiling hook (the run about '
   '%.2f times as slow), %.2f s in no function' % (allsec, t['hook_seconds'],
   100 * t['hook_share'], t['hook_slowdown'], t['outside_seconds'])
   in rd('dot'), 'dot: no caption of every sample and the hook')

# pprof: the duration is every sample; the stack samples add up to it
# (--no-shlibs: the self samples plus the hook and no-function ones, of
# the executable's samples only)
def top(n):
    try:
        s = rd(n)
    except OSError:
        return None
    dur = re.search(r'Duration: ([\d.]+)(ms|s)\b', s)
    tot = re.search(r'Total samples = ([\d.]+)ms', s)
    return (float(dur.group(1)) * (1 if dur.group(2) == 's' else 1e-3),
            float(tot.group(1)) / 1e3, s)
p = top('pprof.top')
if p:
    near(p[0], allsec, 0.006, 'pprof: duration')
    near(p[1], allsec, 3 * tick, 'pprof: total samples')
    ok(re.search(r'\[profiling hook\]', p[2]), 'pprof: no [profiling hook]')
    ok('no stacks' not in p[2], 'pprof: a stack profile said to have none')
p = top('spprof.top')
if p:
    near(p[1], p[0], 0.006, 'pprof --no-shlibs: samples and duration')
for e in errors:
    print(e)
sys.exit(1 if errors else 0)
EOF
); then
	pass "totals: every format agrees on 100% and names the hook's share"
else
	fail "totals: every format agrees on 100% and names the hook's share" "$_t_out"
fi

# glibc's -pg runtime: the hook is in libc.so, outside the histogram; its
# time is not measured, and nothing claims it was 0.
_t_fx=$FIXTURES/cycle-O2
"$GPROF" --diagnose "$_t_fx/prog" "$_t_fx/gmon.out" > "$TT/gdiag" 2>&1
"$GPROF" --output-format=json "$_t_fx/prog" "$_t_fx/gmon.out" > "$TT/gjson" 2>/dev/null
check "totals: glibc's hook is not measured" \
	grep -q 'profiling hook   n/a      not measured' "$TT/gdiag"
check "totals: glibc's hook share is null in JSON" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["summary"]["totals"]
sys.exit(not (t["hook_measured"] is False and t["hook_seconds"] is None))' \
	"$TT/gjson"
