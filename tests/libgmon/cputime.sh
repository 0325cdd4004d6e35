# SPDX-License-Identifier: GPL-3.0-or-later
# tests/libgmon/cputime.sh: the side file's CPU times (PTIMES, TTIMES;
# include/gmon_shlibs.h).  tests/libgmon/tcpu.c runs a user-space loop
# in one thread and a system-call loop in another, each for a CPU time
# it measures itself with CLOCK_THREAD_CPUTIME_ID, and a third thread
# that is still alive when the program dumps its profile.  Each thread's
# TTIMES (user + system) must match its own clock within 10% + 20 ms
# (both count the same thing, so a loaded machine changes neither), the
# user loop be mostly user time and the system-call loop have a real
# system share, ended threads be flagged, the live one not; PTIMES must
# match CLOCK_PROCESS_CPUTIME_ID and the program's wall time.  After a
# gmon_reset the times count from there: the threads that ended before
# it have none, the process's are what it used since.  With
# GMON_SHLIBS alone the side file has PTIMES and no TTIMES.  glibc,
# musl and i386 where present.  The side file is read with
# tests/tools/gmsl_stacks.py.
# Sourced by tests/libgmon.sh; word lists unquoted on purpose, and the
# variables come from tests/libgmon/common.sh:
# shellcheck shell=sh disable=SC2086,SC2154

GMSL_DUMP=$ROOT/tests/tools/gmsl_stacks.py

# tcpu_dump NAME FILE: FILE's side file as gmsl_stacks.py prints it.
tcpu_dump() {
	python3 "$GMSL_DUMP" "$W/$1/$2.shlibs" /dev/null dump 2>&1
}

# tcpu_verdict OUT EXIT_DUMP DUMP_DUMP: "ok" or what is wrong, from the
# program's output and the two side files' dumps.
tcpu_verdict() {
	python3 - "$1" "$2" "$3" <<'EOF'
import sys
out, exit_d, dump_d = (open(p).read().split("\n") for p in sys.argv[1:4])
own = {}
for l in out:
    p = l.split()
    if p[:1] == ["thread"]:
        own[p[1]] = int(p[2])
    elif p[:1] == ["process"]:
        proc_cpu, proc_wall = int(p[1]), int(p[2])
def parse(lines):
    names, times, pt = {}, {}, None
    for l in lines:
        p = l.split()
        if p[:1] == ["thread"]:
            names[int(p[1])] = p[3]
        elif p[:1] == ["ttimes"]:
            times[names[int(p[1])]] = [int(x) for x in p[2:]]
        elif p[:1] == ["ptimes"]:
            pt = [int(x) for x in p[1:]]
    return times, pt
bad = []
def near(what, got, want):
    if abs(got - want) > want / 10 + 20e6:
        bad.append("%s: %.3f s in the record, %.3f s measured" % (what, got / 1e9, want / 1e9))
times, pt = parse(exit_d)
for name in ("user", "kern"):
    if name not in times:
        bad.append("no TTIMES for thread %s" % name)
        continue
    flags, u, s, w = times[name]
    near("thread %s user+system" % name, u + s, own[name])
    if not flags & 1:
        bad.append("thread %s ended but is not flagged so" % name)
    if w < u + s - 20e6:
        bad.append("thread %s: wall %d ns below its CPU %d ns" % (name, w, u + s))
if "user" in times and times["user"][1] < 0.7 * sum(times["user"][1:3]):
    bad.append("user loop: user time %d of %d ns" % (times["user"][1], sum(times["user"][1:3])))
if "kern" in times and times["kern"][2] < 0.2 * sum(times["kern"][1:3]):
    bad.append("system-call loop: system time %d of %d ns" % (times["kern"][2], sum(times["kern"][1:3])))
if pt is None:
    bad.append("no PTIMES at exit")
else:
    near("process user+system", pt[0] + pt[1], proc_cpu)
    if not proc_wall * 0.9 - 10e6 <= pt[2] <= proc_wall + 1e9:
        bad.append("process wall %d ns, measured %d ns" % (pt[2], proc_wall))
dtimes, dpt = parse(dump_d)
if "live" not in dtimes or dpt is None:
    bad.append("the dump has no TTIMES for the live thread or no PTIMES")
else:
    flags, u, s, w = dtimes["live"]
    near("live thread at the dump", u + s, own["live"])
    if flags & 1:
        bad.append("the live thread is flagged as ended in the dump")
print("; ".join(bad) or "ok")
EOF
}

# tcpu_case NAME "LIBS" COMPILER [FLAGS...]
tcpu_case() {
	_tn=$1 _tl=$2
	shift 2
	build "$_tn" tcpu.c "$_tl" "$@" -I"$ROOT/include" || return 1
	run "$_tn" GMON_STACKS=1 -- 300
	if [ "$(rc_of "$_tn")" != 0 ] || [ -s "$W/$_tn/err" ]; then
		fail "$_tn" "status $(rc_of "$_tn")" "$(cat "$W/$_tn/err")"
		return 1
	fi
	tcpu_dump "$_tn" gmon.out >"$W/$_tn/exit.dump"
	tcpu_dump "$_tn" dump.out >"$W/$_tn/dump.dump"
	v=$(tcpu_verdict "$W/$_tn/out" "$W/$_tn/exit.dump" "$W/$_tn/dump.dump" 2>&1)
	if [ "$v" = ok ]; then
		pass "$_tn"
	else
		fail "$_tn" "$v" "$(grep times "$W/$_tn/exit.dump" "$W/$_tn/dump.dump")"
	fi
}

if ! have python3; then
	skip cputime "python3 is needed to read the side file"
else
	tcpu_case cputime "$GLIBC_LIBS" $CC -O1 -pg
	[ -n "$MUSL" ] && tcpu_case cputime-musl "$MUSL_LIBS" $MUSL -O1 -pg
	[ -n "$M32" ] && tcpu_case cputime-m32 "$M32_LIBS" $CC -m32 -O1 -pg

	# gmon_reset once "user" and "kern" have ended.
	n=cputime-reset
	if build "$n" tcpu.c "$GLIBC_LIBS" $CC -O1 -pg -I"$ROOT/include" &&
	   run "$n" GMON_STACKS=1 -- 200 reset && [ "$(rc_of "$n")" = 0 ]; then
		tcpu_dump "$n" gmon.out >"$W/$n/exit.dump"
		v=$(python3 - "$W/$n/out" "$W/$n/exit.dump" <<'EOF'
import sys
own = {}
for l in open(sys.argv[1]):
    p = l.split()
    own[p[0] + (p[1] if p[0] == "thread" else "")] = p
names, times, pt, bad = {}, {}, None, []
for l in open(sys.argv[2]):
    p = l.split()
    if p[0] == "thread":
        names[p[1]] = p[3]
    elif p[0] == "ttimes":
        times[names[p[1]]] = [int(x) for x in p[2:]]
    elif p[0] == "ptimes":
        pt = [int(x) for x in p[1:]]
for name in ("user", "kern"):
    if times.get(name, [0, 1])[1:3] != [0, 0]:
        bad.append("thread %s ended before the reset: %s" % (name, times.get(name)))
live = int(own["threadlive"][2])
if "live" not in times or abs(sum(times["live"][1:3]) - live) > live / 10 + 20e6:
    bad.append("live thread %s, measured %d" % (times.get("live"), live))
since = int(own["process"][1]) - int(own["reset"][1])
if pt is None or abs(pt[0] + pt[1] - since) > since / 10 + 20e6:
    bad.append("PTIMES %s, process CPU since the reset %d" % (pt, since))
print("; ".join(bad) or "ok")
EOF
)
		if [ "$v" = ok ]; then
			pass "$n"
		else
			fail "$n" "$v" "$(grep times "$W/$n/exit.dump")"
		fi
	else
		fail "$n" "status $(rc_of "$n" 2>/dev/null)" "$(cat "$W/$n/err" 2>/dev/null)"
	fi

	# GMON_SHLIBS alone: the process's times, no thread's.
	n=cputime-shlibs
	if build "$n" tcpu.c "$GLIBC_LIBS" $CC -O1 -pg -I"$ROOT/include" &&
	   run "$n" GMON_SHLIBS=1 -- 50 && [ "$(rc_of "$n")" = 0 ]; then
		d=$(tcpu_dump "$n" gmon.out)
		# (the kernel splits a process's CPU time between user and
		# system by the ticks that found it: a run of 50 ms on a loaded
		# machine once had every tick in the system, "ptimes 0
		# 160993000 ...", so only their sum must be above 0)
		if echo "$d" | awk '$1 == "ptimes" && $2 + $3 > 0 { ok = 1 } END { exit !ok }' &&
		   ! echo "$d" | grep -q '^ttimes'; then
			pass "$n"
		else
			fail "$n" "want PTIMES and no TTIMES" "$d"
		fi
	else
		fail "$n" "status $(rc_of "$n" 2>/dev/null)" "$(cat "$W/$n/err" 2>/dev/null)"
	fi
fi
