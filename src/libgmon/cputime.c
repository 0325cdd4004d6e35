/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cputime.c - the CPU and wall time the samples are measured against:
 * the process's user and system time and its wall time (the side file's
 * PTIMES record, in every side file), and under GMON_STACKS each
 * profiled thread's (one TTIMES record per THREAD), taken at the
 * thread's end and at every write (exit, dump signal, gmon_dump).
 *
 * Sources, and why:
 *  - the thread's own times, at its set-up and its end: getrusage
 *    (RUSAGE_THREAD).  Linux scales the tick-sampled user/system split
 *    to the scheduler's exact run time, so the sum is exact to the
 *    microsecond and only the split is statistical;
 *  - another live thread's, at a write: its CPU clock (the clock id
 *    pthread_getcpuclockid builds from the thread id) for the exact
 *    sum, split in the ratio of /proc/self/task/TID/stat's utime and
 *    stime, which are whole clock ticks (TTIMES flag bit 1 says so);
 *  - the process: getrusage(RUSAGE_SELF), which counts ended threads,
 *    and threads libgmon never set up, too.
 * A write may run in a signal handler: only system calls here (no
 * stdio, no malloc), /proc read and parsed by hand.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "gmon_shlibs.h"
#include "gmon_rt.h"

/* The process's clocks at the start (or the last gmon_reset/fork). */
static uint64_t proc_start, proc_base_user, proc_base_sys;

static uint64_t mono_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

/* RUSAGE_THREAD (the calling thread) or RUSAGE_SELF, in ns. */
static void usage_ns(int who, uint64_t *user, uint64_t *sys)
{
	struct rusage ru;
	*user = *sys = 0;
	if (getrusage(who, &ru) == 0) {
		*user = tv_ns(&ru.ru_utime);
		*sys = tv_ns(&ru.ru_stime);
	}
}

static int self_tid(void)
{
	return (int)syscall(SYS_gettid);
}

/* Fields 14 and 15 (utime, stime, in clock ticks) of a thread's stat
   line; the comm field before them may hold spaces or ')', so counting
   starts after the last ')'.  0 if unreadable. */
static int stat_ticks(int tid, uint64_t *ut, uint64_t *st)
{
	char path[48] = "/proc/self/task/", num[12], buf[512];
	size_t p = strlen(path);
	int n = 0;
	for (unsigned v = (unsigned)tid; n == 0 || v != 0; v /= 10)
		num[n++] = (char)('0' + v % 10);
	while (n > 0)
		path[p++] = num[--n];
	memcpy(path + p, "/stat", 6);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t r = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (r <= 0)
		return 0;
	buf[r] = '\0';
	const char *s = strrchr(buf, ')');
	uint64_t field[13]; /* fields 3 to 15 */
	int k = 0;
	while (s != NULL && k < 13 && *++s != '\0') {
		while (*s == ' ')
			s++;
		field[k] = 0;
		for (; *s >= '0' && *s <= '9'; s++)
			field[k] = field[k] * 10 + (uint64_t)(*s - '0');
		k++;
		s = strchr(s, ' '); /* the space before the next field */
	}
	if (k < 13)
		return 0;
	*ut = field[11]; /* field 3 is k = 0 */
	*st = field[12];
	return 1;
}

/*
 * A live thread's user and system time in ns: its own getrusage when it
 * is the caller, else its CPU clock split by its stat ticks (*ticks set).
 * 0 if the thread is gone.
 */
static int thread_now(int tid, uint64_t *user, uint64_t *sys, uint32_t *ticks)
{
	if (tid == self_tid()) {
		usage_ns(RUSAGE_THREAD, user, sys);
		return 1;
	}
	/* The kernel's encoding of a thread's CPU clock (what glibc's and
	   musl's pthread_getcpuclockid return): ~tid << 3, per-thread, sched. */
	clockid_t id = (clockid_t)((~(unsigned)tid << 3) | 6);
	struct timespec ts;
	uint64_t ut = 0, st = 0;
	if (tid <= 0 || clock_gettime(id, &ts) != 0)
		return 0;
	uint64_t total = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	*sys = 0;
	if (stat_ticks(tid, &ut, &st) && ut + st != 0)
		*sys = (uint64_t)((double)total * (double)st / (double)(ut + st));
	if (*sys > total)
		*sys = total;
	*user = total - *sys;
	*ticks = 1;
	return 1;
}

static uint64_t since(uint64_t now, uint64_t then)
{
	return now > then ? now - then : 0;
}

void gmon_cputime_init(void)
{
	proc_start = mono_ns();
}

/* The owning thread's updates of its slot run between these two (only
   it writes the slot, but a write on another thread may read it). */
static void slot_open(struct gmon_cpu_slot *c)
{
	__atomic_store_n(&c->seq, c->seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void slot_close(struct gmon_cpu_slot *c)
{
	__atomic_store_n(&c->seq, c->seq + 1, __ATOMIC_RELEASE);
}

/* Relaxed 64-bit accesses: a count must not tear on 32-bit targets. */
#define PUT(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)
#define GET(field) __atomic_load_n(&(field), __ATOMIC_RELAXED)

/* Thread set-up, on the thread itself (after stacks.c gave it its id). */
void gmon_cputime_thread_begin(struct gmon_table *t)
{
	struct gmon_cpu_slot *c = &t->cpu;
	uint64_t user, sys;
	if (!gmon_set.stacks)
		return;
	usage_ns(RUSAGE_THREAD, &user, &sys);
	slot_open(c);
	PUT(c->base_user, user);
	PUT(c->base_sys, sys);
	PUT(c->start, mono_ns());
	slot_close(c);
}

/* Thread end, on the thread itself: its times join the table's done. */
void gmon_cputime_thread_end(struct gmon_table *t)
{
	struct gmon_cpu_slot *c = &t->cpu;
	if (!gmon_set.stacks || c->start == 0)
		return;
	uint64_t user, sys, now = mono_ns();
	usage_ns(RUSAGE_THREAD, &user, &sys);
	slot_open(c);
	PUT(c->done_user, c->done_user + since(user, c->base_user));
	PUT(c->done_sys, c->done_sys + since(sys, c->base_sys));
	PUT(c->done_wall, c->done_wall + since(now, c->start));
	PUT(c->start, 0);
	slot_close(c);
}

/* Is the table's current owner a thread being timed? */
static int timed_owner(const struct gmon_table *t)
{
	return __atomic_load_n(&t->owner, __ATOMIC_ACQUIRE) == GMON_TABLE_OWNED &&
	       __atomic_load_n(&t->cpu.start, __ATOMIC_ACQUIRE) != 0;
}

/* gmon_reset: times count from now on, as the samples do. */
void gmon_cputime_reset(void)
{
	usage_ns(RUSAGE_SELF, &proc_base_user, &proc_base_sys);
	proc_start = mono_ns();
	if (!gmon_set.stacks)
		return;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		struct gmon_cpu_slot *c = &t->cpu;
		c->done_user = c->done_sys = c->done_wall = 0;
		if (timed_owner(t) &&
		    thread_now(t->ttid, &c->base_user, &c->base_sys, &c->ticks))
			c->start = proc_start;
	}
}

/* A fork child: its process and its one thread start from zero. */
void gmon_cputime_after_fork(struct gmon_table *keep)
{
	proc_base_user = proc_base_sys = 0;
	proc_start = mono_ns();
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		memset(&t->cpu, 0, sizeof t->cpu);
	if (keep != NULL && keep != &gmon_dead_table && keep != &gmon_nomem_table)
		gmon_cputime_thread_begin(keep);
}

/* Remember which threads have a THREAD id now: their THREAD records are
   about to be written (stacks.c), and a TTIMES may name only those. */
void gmon_cputime_mark(void)
{
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		t->cpu.listed = __atomic_load_n(&t->tseq, __ATOMIC_ACQUIRE);
}

static void put_head(struct gmon_out *o, unsigned tag, uint64_t len)
{
	gmon_out_le(o, tag, 1);
	gmon_out_le(o, len, 4);
}

/* What the table's ended owners used, plus the live one's so far, into
   v[] (user, system, wall); returns the TTIMES flags.  Read again when
   the owner started or ended meanwhile (a few tries: a dump in a handler
   on that very thread finds the slot open for good, and takes it so). */
static uint32_t thread_times(struct gmon_table *t, uint64_t now, uint64_t *v)
{
	struct gmon_cpu_slot *c = &t->cpu;
	uint32_t flags = 0;
	for (int tries = 0; tries < 100; tries++) {
		uint32_t seq = __atomic_load_n(&c->seq, __ATOMIC_ACQUIRE);
		uint32_t ticks = c->ticks;
		uint64_t start = GET(c->start), u, s;
		v[0] = GET(c->done_user);
		v[1] = GET(c->done_sys);
		v[2] = GET(c->done_wall);
		flags = GMSL_TTIMES_ENDED;
		if (start != 0 && timed_owner(t) && thread_now(t->ttid, &u, &s, &ticks)) {
			v[0] += since(u, GET(c->base_user));
			v[1] += since(s, GET(c->base_sys));
			v[2] += since(now, start);
			flags = 0;
		}
		if (ticks)
			flags |= GMSL_TTIMES_TICKS;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (!(seq & 1) && __atomic_load_n(&c->seq, __ATOMIC_RELAXED) == seq)
			break;
	}
	return flags;
}

/* One thread's TTIMES. */
static void put_ttimes(struct gmon_out *o, struct gmon_table *t, uint64_t now)
{
	uint64_t v[3];
	uint32_t flags = thread_times(t, now, v);
	put_head(o, GMSL_TAG_TTIMES, GMSL_TTIMES_SIZE);
	gmon_out_le(o, t->cpu.listed - 1, 4);
	gmon_out_le(o, flags, 4);
	gmon_out_le(o, v[0], 8);
	gmon_out_le(o, v[1], 8);
	gmon_out_le(o, v[2], 8);
}

void gmon_cputime_fill(struct gmon_out *o)
{
	uint64_t user, sys, now = mono_ns();
	usage_ns(RUSAGE_SELF, &user, &sys);
	put_head(o, GMSL_TAG_PTIMES, GMSL_PTIMES_SIZE);
	gmon_out_le(o, since(user, proc_base_user), 8);
	gmon_out_le(o, since(sys, proc_base_sys), 8);
	gmon_out_le(o, since(now, proc_start), 8);
	if (!gmon_set.stacks)
		return;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		if (t->cpu.listed != 0)
			put_ttimes(o, t, now);
}
