/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu.c - the wall clock's second sampler (GMON_CLOCK=wall): one
 * background thread that samples, at the profile's rate, the profiled
 * threads that are blocked in the kernel, and credits each to the
 * function it waits in.
 *
 * Running threads are already sampled by their CPU timers (sampler.c);
 * this covers the rest of their wall time without sending them a signal
 * (a handler would cut nanosleep, read or poll short with EINTR and so
 * change the program).  Every tick the thread reads
 * /proc/self/task/TID/syscall of each profiled thread: "running" for one
 * on a CPU or waiting for one, else the system call it is blocked in and
 * its user stack pointer and PC.  That PC lies in the C library's
 * wrapper; unless shared libraries are profiled (GMON_SHLIBS) the sample
 * goes to the wrapper's caller in the program, found as the first return
 * address into the program's text on the blocked thread's stack, read
 * with process_vm_readv (which fails instead of faulting).
 *
 * Ticks are absolute times on CLOCK_MONOTONIC, at most 250 a second;
 * each credits the samples due since the last one (several at higher
 * rates or after a late wake-up), so the total follows the clock.  A
 * thread still in the same wait as at the last tick is credited where
 * that one was, without reading its stack again.
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
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "gmon_rt.h"

#define FUTEX_WAIT_PRIV 128 /* FUTEX_WAIT | FUTEX_PRIVATE_FLAG */
#define FUTEX_WAKE_PRIV 129 /* FUTEX_WAKE | FUTEX_PRIVATE_FLAG */
/* At most 250 ticks a second: a tick's wake-up costs the most (about
   35 us on the test machine, so 1000 ticks took near 4% of a CPU), and
   CPU-time samples come at the kernel's tick, 250 a second or so, too. */
#define MIN_TICK_NS 4000000L
#define SCAN_BYTES (64 * 1024) /* how far up the stack a caller is sought */
#define CHUNK 4096             /* stack read per system call */
#define STACK_SIZE (64 * 1024)

static struct {
	int on;        /* sampling wanted (futex word) */
	int busy;      /* the sampler is crediting a tick */
	int created;   /* the sampler thread exists in this process */
	int broken;    /* /proc/self/task/TID/syscall is unusable */
	int atfork;    /* the fork handlers are registered */
	int forking;   /* threads between fork's prepare and parent steps */
	pid_t pid;     /* this process's */
	unsigned char buf[CHUNK]; /* the sampler's stack reads */
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

/* Read our own memory at addr; a short count at an unmapped page. */
static ssize_t read_self(uintptr_t addr, void *to, size_t len)
{
	struct iovec local = { to, len };
	struct iovec remote = { (void *)addr, len };
	return process_vm_readv(oc.pid, &local, 1, &remote, 1, 0);
}

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

/* ---- the function a thread waits in ---- */

static int in_text(uintptr_t a)
{
	return a - gmon_p.lowpc < gmon_p.textsize;
}

/* Does a call instruction end at ra?  Where the architecture can tell
   (x86: GMON_ARCH_IS_CALL), the code before ra is read and checked; else
   only the alignment is. */
static int after_call(uintptr_t ra)
{
	if (ra & (GMON_ARCH_RA_ALIGN - 1))
		return 0;
#ifdef GMON_ARCH_CALL_BYTES
	unsigned char c[GMON_ARCH_CALL_BYTES];
	if (ra - gmon_p.lowpc < sizeof c ||
	    read_self(ra - sizeof c, c, sizeof c) != (ssize_t)sizeof c)
		return 0;
	return GMON_ARCH_IS_CALL(c);
#else
	return 1;
#endif
}

/* If word v is a return address into the program, the address to credit
   (inside the call), else 0. */
static uintptr_t as_return(uintptr_t v)
{
	v = GMON_ARCH_RA_STRIP(v);
	if (!in_text(v) || !after_call(v))
		return 0;
	return v - 1;
}

/* The first return address into the program's text at or above sp, read
   a chunk at a time so that the search ends at an unmapped page. */
static uintptr_t caller_in_text(uintptr_t sp)
{
	const size_t word = sizeof(uintptr_t);
	uintptr_t a = (sp + word - 1) & ~(uintptr_t)(word - 1), end = a + SCAN_BYTES;
	while (a < end) {
		uintptr_t stop = (a | (CHUNK - 1)) + 1;
		ssize_t n = read_self(a, oc.buf, stop - a);
		if (n <= 0)
			return 0;
		for (size_t i = 0; i + word <= (size_t)n; i += word) {
			uintptr_t v, r;
			memcpy(&v, oc.buf + i, word);
			if ((r = as_return(v)) != 0)
				return r;
		}
		if ((size_t)n < stop - a)
			return 0;
		a = stop;
	}
	return 0;
}

/* Where a thread blocked at pc (stack at sp) waits: pc itself if it is
   the program's or shared libraries are profiled, else its caller in
   the program if one is found. */
static uintptr_t wait_site(uintptr_t sp, uintptr_t pc)
{
	if (in_text(pc) || gmon_shlibs_enabled())
		return pc;
	uintptr_t ra = caller_in_text(sp);
	return ra != 0 ? ra : pc;
}

/* ---- one tick ---- */

/*
 * Close the file kept for a thread that is gone.  A program that closes
 * descriptors it did not open (closefrom) may have put a file of its own
 * at that number meanwhile: the descriptor is closed only if it is still
 * the file opened, else just forgotten.
 */
static void drop_file(struct gmon_offcpu_slot *o)
{
	struct stat st;
	if (o->tid != 0 && fstat(o->fd, &st) == 0 && (uint64_t)st.st_ino == o->ino)
		close(o->fd);
	o->tid = 0;
	o->key = 0;
}

/* The open syscall file of thread tid, or -1. */
static int file_of(struct gmon_offcpu_slot *o, int tid)
{
	if (o->tid == tid)
		return o->fd;
	drop_file(o);
	struct stat st;
	int fd = open_syscall_file(tid);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	o->fd = fd;
	o->tid = tid;
	o->ino = (uint64_t)st.st_ino;
	return fd;
}

/* FNV-1a, never 0 (0 means nothing cached). */
static uint64_t line_key(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h | 1;
}

/*
 * Credit w samples to where table t's thread waits, if it is blocked.
 * A thread still in the very wait of the last tick (the same system
 * call, arguments, stack pointer and PC) is credited where that one was,
 * without reading its stack again.
 */
static void sample_table(struct gmon_table *t, uint32_t w)
{
	struct gmon_offcpu_slot *o = &t->oc;
	if (__atomic_load_n(&t->owner, __ATOMIC_ACQUIRE) != GMON_TABLE_OWNED) {
		drop_file(o);
		return;
	}
	int tid = __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE);
	int fd = tid != 0 ? file_of(o, tid) : -1;
	char line[256];
	ssize_t n = fd >= 0 ? pread(fd, line, sizeof line - 1, 0) : -1;
	if (n < 0 && errno == EBADF)
		o->tid = 0; /* closed by the program: open it again next time */
	if (n <= 0)
		return;
	line[n] = '\0';
	uint64_t key = line_key(line, (size_t)n);
	if (key != o->key) {
		long nr;
		uintptr_t arg0, sp, pc;
		if (!parse_syscall(line, &nr, &arg0, &sp, &pc))
			return; /* "running": the CPU timer samples it */
		o->at = wait_site(sp, pc);
		o->key = key;
	}
	gmon_hist_credit(o->at, w);
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
		while (__atomic_load_n(&oc.on, __ATOMIC_SEQ_CST)) {
			next += step;
			sleep_until(start + next);
			int64_t t = now_ns() - start;
			uint64_t d = due(t, rate), w = d - done;
			done = d;
			if (t - next > 1000000000)
				w = 1;
			if (t - next >= step) /* ticks were missed: skip them */
				next = t / step * step;
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
	if (__atomic_load_n(&gmon_p.phase, __ATOMIC_ACQUIRE) != GMON_RUNNING)
		return;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		drop_file(&t->oc);
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
