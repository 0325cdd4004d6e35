/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu.c - the wall clock's second sampler (GMON_CLOCK=wall): one
 * background thread that looks, at the profile's rate, at every profiled
 * thread and credits the wall time since its last look by what the
 * thread is doing.
 *
 * It sends the threads no signal (a handler would cut nanosleep, read or
 * poll short with EINTR and so change the program): it reads
 * /proc/self/task/TID/syscall, "running" for a thread on a CPU or
 * waiting for one, else the system call it is blocked in with its user
 * stack pointer and PC.  A blocked thread is credited to where it waits
 * and, with GMON_STACKS, its stack is recorded (offwalk.c finds both,
 * offstk.c keeps the stacks).  A thread woken from the wait the last
 * look found but not yet back on a CPU (its CPU time, read from its
 * per-thread CPU clock, has not moved) is still credited to that wait.
 * A running or runnable thread's samples are owed to its next SIGPROF,
 * which credits them at its PC (sampler.c): the CPU timer gives the
 * places, the wall clock the amounts, so that a thread that waits for
 * a CPU on a busy machine spends that wall time where it was preempted.
 *
 * Looks come at random times, on average one step apart (at most 250 a
 * second), each credits the samples due at the time it was meant for,
 * and ticks a whole step late are skipped, so the total follows the
 * clock.  A thread still in the same wait as at the last look is
 * credited where that one was, without reading its stack again.
 * The thread has no arc table, takes no signal, and idles on a futex
 * while sampling is off.  It is created at the first start and again in
 * a fork child.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "gmon_shlibs.h"
#include "gmon_rt.h"
#include "offcpu.h"

#define FUTEX_WAIT_PRIV 128 /* FUTEX_WAIT | FUTEX_PRIVATE_FLAG */
#define FUTEX_WAKE_PRIV 129 /* FUTEX_WAKE | FUTEX_PRIVATE_FLAG */
/* At most 250 ticks a second: a tick's wake-up costs the most (about
   35 us on the test machine, so 1000 ticks took near 4% of a CPU), and
   CPU-time samples come at the kernel's tick, 250 a second or so, too. */
#define MIN_TICK_NS 4000000L
#define STACK_SIZE (64 * 1024)

static struct {
	int on;        /* sampling wanted (futex word) */
	int busy;      /* the sampler is crediting a tick */
	int created;   /* the sampler thread exists in this process */
	int broken;    /* /proc/self/task/TID/syscall is unusable */
	int atfork;    /* the fork handlers are registered */
	int forking;   /* threads between fork's prepare and parent steps */
	pid_t pid;     /* this process's */
	uint32_t depth; /* frames of a blocked stack; 0: stacks not kept */
	struct gmon_offcpu_slot *slots; /* the block slots are taken from */
	unsigned slots_left;
	uintptr_t frames[GMSL_MAX_DEPTH]; /* the blocked stack being walked */
} oc;

static pid_t self_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* Record the thread id of table t's new owner (its own thread calls). */
void gmon_offcpu_thread_begin(struct gmon_table *t)
{
	__atomic_store_n(&t->tid, (int)self_tid(), __ATOMIC_RELEASE);
}

/* ---- reading the state of a thread ---- */

static int open_syscall_file(int tid)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%d/syscall", tid);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/*
 * Parse "NR ARG1..ARG6 SP PC" (or "-1 SP PC", a thread blocked in a
 * fault): the last two numbers.  "running" and anything else unexpected
 * give 0.  *nr and *arg0 are the first two numbers.
 */
static int parse_syscall(char *s, long *nr, uintptr_t *arg0, uintptr_t *sp,
                         uintptr_t *pc)
{
	unsigned long long v[9];
	int n = 0;
	char *end;
	*nr = strtol(s, &end, 10);
	if (end == s)
		return 0;
	for (s = end; n < 9; s = end) {
		v[n] = strtoull(s, &end, 16);
		if (end == s)
			break;
		n++;
	}
	if (n != 2 && n != 8)
		return 0;
	*arg0 = (uintptr_t)v[0];
	*sp = (uintptr_t)v[n - 2];
	*pc = (uintptr_t)v[n - 1];
	return 1;
}

static int read_syscall(int fd, long *nr, uintptr_t *arg0, uintptr_t *sp,
                        uintptr_t *pc)
{
	char line[256];
	ssize_t n = pread(fd, line, sizeof line - 1, 0);
	if (n <= 0)
		return 0;
	line[n] = '\0';
	return parse_syscall(line, nr, arg0, sp, pc);
}

/*
 * Can this system tell us where another thread waits?  A thread reading
 * its own file sees that very pread, with the file's descriptor as first
 * argument; under qemu-user the file describes the emulator instead (the
 * host's system call numbers), and some kernels lack it or deny it.
 */
static int probe(void)
{
	int tid = (int)self_tid(), fd = open_syscall_file(tid), ok = 0, err;
	long nr = 0;
	uintptr_t arg0 = 0, sp, pc;
	if (fd >= 0) {
		ok = read_syscall(fd, &nr, &arg0, &sp, &pc) && nr == SYS_pread64 &&
		     arg0 == (uintptr_t)fd;
		err = errno;
		close(fd);
	} else {
		err = errno;
	}
	if (!ok)
		gmon_say("GMON_CLOCK=wall: /proc/self/task/%d/syscall %s; "
		         "sampling CPU time only", tid,
		         fd < 0 ? strerror(err) : "does not describe this thread");
	return ok;
}

/* ---- one thread's wall time ---- */


/* Close fd if it is still the file opened (inode ino): a program that
   closes descriptors it did not open (closefrom) may have put a file of
   its own at that number meanwhile; that one is just forgotten. */
static void close_ours(int fd, uint64_t ino)
{
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && (uint64_t)st.st_ino == ino)
		close(fd);
}

/* Forget a thread that is gone (or a fork's copy of one). */
static void drop_file(struct gmon_offcpu_slot *o)
{
	if (o->tid != 0)
		close_ours(o->fd, o->ino);
	o->tid = 0;
	o->key = 0;
	o->ref = 0;
	o->blocked = 0;
}

static int open_task_file(int tid, const char *name, uint64_t *ino)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof path, "/proc/self/task/%d/%s", tid, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) != 0) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0)
		*ino = (uint64_t)st.st_ino;
	return fd;
}

/* The open syscall file of thread tid, or -1. */
static int file_of(struct gmon_offcpu_slot *o, int tid)
{
	if (o->tid == tid)
		return o->fd;
	drop_file(o);
	int fd = open_task_file(tid, "syscall", &o->ino);
	if (fd < 0)
		return -1;
	o->fd = fd;
	o->tid = tid;
	return fd;
}

/* t's slot, mapped a block at a time by this thread (never freed: tables
   are not either). */
static struct gmon_offcpu_slot *slot_of(struct gmon_table *t)
{
	enum { BLOCK = 64 };
	if (t->ocs != NULL)
		return t->ocs;
	if (oc.slots_left == 0) {
		void *m = mmap(NULL, BLOCK * sizeof *oc.slots, PROT_READ | PROT_WRITE,
		               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return NULL;
		oc.slots = m;
		oc.slots_left = BLOCK;
	}
	struct gmon_offcpu_slot *o = &oc.slots[--oc.slots_left];
	o->fd = -1;
	t->ocs = o;
	return o;
}

/* FNV-1a, never 0 (0 means nothing cached). */
static uint64_t line_key(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h | 1;
}

/* Thread tid's CPU time in ns (the kernel's per-thread CPU clock, which
   any thread of the process may read; exact, the running slice too). */
static int64_t thread_cpu(int tid)
{
	struct timespec ts;
	clockid_t id = (clockid_t)(((unsigned)~tid << 3) | 6); /* THREAD|SCHED */
	if (clock_gettime(id, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A new wait: where to credit it, and its stack when stacks are kept. */
static void new_wait(struct gmon_table *t, struct gmon_offcpu_slot *o,
                     uintptr_t sp, uintptr_t pc)
{
	uintptr_t slot;
	o->at = gmon_offwalk_site(sp, pc, &slot);
	o->ref = 0;
	if (oc.depth != 0) {
		int cut;
		uint32_t d = gmon_offwalk_stack(pc, o->at, slot, oc.frames, oc.depth, &cut);
		o->ref = gmon_offstk_record(t, oc.frames, d, cut, 0);
	}
}

static void credit_wait(struct gmon_table *t, uint32_t w)
{
	gmon_hist_credit(t->ocs->at, w);
	if (t->ocs->ref != 0)
		gmon_offstk_add(t, t->ocs->ref, w);
}

/* Read the thread's state: 1 blocked (o->at, o->ref set), 0 running or
   runnable, -1 unreadable. */
static int read_state(struct gmon_table *t, struct gmon_offcpu_slot *o, int tid)
{
	int fd = file_of(o, tid);
	char line[256];
	ssize_t n = fd >= 0 ? pread(fd, line, sizeof line - 1, 0) : -1;
	if (n < 0 && errno == EBADF)
		o->tid = 0; /* closed by the program: open it again next time */
	if (n <= 0)
		return -1;
	line[n] = '\0';
	uint64_t key = line_key(line, (size_t)n);
	long nr;
	uintptr_t arg0, sp, pc;
	if (o->blocked && key == o->key)
		return 1; /* the same wait as last time: no need to walk again */
	if (!parse_syscall(line, &nr, &arg0, &sp, &pc))
		return 0; /* "running": on a CPU or waiting for one */
	new_wait(t, o, sp, pc);
	o->key = key;
	return 1;
}

/*
 * Credit w samples of table t's thread by what it is doing now:
 *  - blocked in a system call: to where it waits;
 *  - woken from the wait the last look found but not yet back on a CPU
 *    (its CPU time has not moved since): still to that wait, which a busy
 *    machine lengthens;
 *  - running, or runnable where it was preempted: owed to the thread's
 *    next SIGPROF, which credits them at its PC (sampler.c).  The CPU
 *    timer then gives only the places, the wall clock the amounts, so
 *    that time spent waiting for a CPU counts where the thread waited.
 */
static void sample_table(struct gmon_table *t, uint32_t w)
{
	struct gmon_offcpu_slot *o = slot_of(t);
	if (o == NULL)
		return;
	if (__atomic_load_n(&t->owner, __ATOMIC_ACQUIRE) != GMON_TABLE_OWNED) {
		drop_file(o);
		return;
	}
	int tid = __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE);
	int was = o->blocked, is = tid != 0 ? read_state(t, o, tid) : -1;
	if (is < 0)
		return;
	int64_t cpu = thread_cpu(tid);
	if (is || (was && cpu != 0 && cpu == o->cpu)) {
		credit_wait(t, w);
		is = 1;
	} else {
		__atomic_fetch_add(&t->wall_owed, w, __ATOMIC_RELAXED);
	}
	o->blocked = is;
	o->cpu = cpu;
}

static void tick(uint32_t w)
{
	__atomic_store_n(&oc.busy, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&oc.on, __ATOMIC_SEQ_CST) &&
	    !__atomic_load_n(&oc.forking, __ATOMIC_SEQ_CST))
		for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
			sample_table(t, w);
	__atomic_store_n(&oc.busy, 0, __ATOMIC_SEQ_CST);
}

/* Wait until the sampler is between ticks (it takes no signal, so no
   handler of its own can be waiting here for it). */
static void wait_idle(void)
{
	while (__atomic_load_n(&oc.busy, __ATOMIC_SEQ_CST)) {
		struct timespec ts = { 0, 100000 };
		nanosleep(&ts, NULL);
	}
}

/* ---- the sampler thread ---- */

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_until(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void idle_while_off(void)
{
	while (!__atomic_load_n(&oc.on, __ATOMIC_SEQ_CST))
		syscall(SYS_futex, &oc.on, FUTEX_WAIT_PRIV, 0, NULL, NULL, 0);
}

/* Samples due after `ns` of sampling at `rate` a second. */
static uint64_t due(int64_t ns, int rate)
{
	return (uint64_t)(ns / 1000000000) * (uint64_t)rate +
	       (uint64_t)(ns % 1000000000) * (uint64_t)rate / 1000000000;
}

/*
 * The time to the next tick: step on average, uniform between half and
 * one and a half steps.  At even steps the ticks can fall into step with
 * a program that repeats at a multiple of them (5 ms asleep, 5 ms
 * computing: rounds of 2.5 ticks) and see the same phases of it again
 * and again: runs of the same program then gave its sleeping function
 * 21% to 52% of a measured 42%.  Random times see every phase alike.
 */
static int64_t jittered(int64_t step, uint32_t *seed)
{
	uint32_t x = *seed ? *seed : 0x9e3779b9u; /* xorshift32 */
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*seed = x;
	return step / 2 + (int64_t)(x % (uint32_t)step);
}

/*
 * Each period of sampling starts its count afresh; a wake-up more than a
 * second late (the process was stopped, or the machine starved it)
 * counts as one tick rather than as time spent where the threads wait.
 */
static void *sampler_main(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "gmon-wall", 0, 0, 0);
	int rate = gmon_set.rate;
	int64_t step = 1000000000L / rate;
	if (step < MIN_TICK_NS)
		step = MIN_TICK_NS;
	for (;;) {
		idle_while_off();
		int64_t start = now_ns(), next = 0;
		uint64_t done = 0;
		uint32_t seed = (uint32_t)start ^ (uint32_t)oc.pid;
		while (__atomic_load_n(&oc.on, __ATOMIC_SEQ_CST)) {
			next += jittered(step, &seed);
			sleep_until(start + next);
			int64_t t = now_ns() - start;
			/* A tick late by less than a step gets the samples due at
			   the time it was meant for: how late the sampler runs
			   depends on what the threads do (a busy one delays it),
			   and the weight must not. */
			uint64_t d = due(t - next < step ? next : t, rate), w = d - done;
			done = d;
			if (t - next > 1000000000)
				w = 1;
			if (t - next >= step) /* ticks were missed: skip them */
				next = t;
			if (w > 0)
				tick((uint32_t)w);
		}
	}
	return NULL;
}

/* The thread, with every signal blocked and a small stack. */
static int create_sampler(void)
{
	pthread_attr_t attr;
	sigset_t all, old;
	pthread_t id;
	size_t size = STACK_SIZE;
	if (size < (size_t)PTHREAD_STACK_MIN)
		size = (size_t)PTHREAD_STACK_MIN;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, size);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(&id, &attr, sampler_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err != 0) {
		gmon_say("GMON_CLOCK=wall: cannot start the sampler thread: %s; "
		         "sampling CPU time only", strerror(err));
		return -1;
	}
	oc.created = 1;
	return 0;
}

/* ---- fork ---- */

/* No tick may be half done (a file half opened) when fork copies us;
   ticks that fall meanwhile credit nothing. */
static void before_fork(void)
{
	__atomic_fetch_add(&oc.forking, 1, __ATOMIC_SEQ_CST);
	wait_idle();
}

static void after_fork_parent(void)
{
	__atomic_fetch_sub(&oc.forking, 1, __ATOMIC_SEQ_CST);
}

/*
 * The child has no sampler thread, and the files it inherited describe
 * the parent's threads: close them, note the forking thread's new id,
 * and start a sampler of its own if sampling is on.
 */
static void after_fork_child(void)
{
	oc.forking = 0;
	oc.busy = 0;
	oc.created = 0;
	oc.pid = getpid();
	gmon_offwalk_pid(oc.pid);
	if (__atomic_load_n(&gmon_p.phase, __ATOMIC_ACQUIRE) != GMON_RUNNING)
		return;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		if (t->ocs != NULL)
			drop_file(t->ocs);
	struct gmon_table *mine = gmon_cur;
	if (mine != NULL && mine != &gmon_dead_table && mine != &gmon_nomem_table)
		gmon_offcpu_thread_begin(mine);
	if (oc.on && create_sampler() != 0)
		oc.broken = 1;
}

/* ---- starting and stopping ---- */

/* Start (or resume) sampling threads that wait; -1 if it cannot be. */
int gmon_offcpu_start(void)
{
	if (oc.broken)
		return -1;
	if (!oc.created) {
		oc.pid = getpid();
		gmon_offwalk_pid(oc.pid);
		if (gmon_set.stacks) {
			uint32_t d = gmon_offstk_depth();
			oc.depth = d < GMSL_MAX_DEPTH ? d : GMSL_MAX_DEPTH;
		}
		if (!probe() || create_sampler() != 0) {
			oc.broken = 1;
			return -1;
		}
		if (!oc.atfork)
			oc.atfork = pthread_atfork(before_fork, after_fork_parent,
			                           after_fork_child) == 0;
	}
	__atomic_store_n(&oc.on, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &oc.on, FUTEX_WAKE_PRIV, 1, NULL, NULL, 0);
	return 0;
}

/* Stop, and wait until no tick is crediting (async-signal-safe). */
void gmon_offcpu_stop(void)
{
	__atomic_store_n(&oc.on, 0, __ATOMIC_SEQ_CST);
	wait_idle();
}
