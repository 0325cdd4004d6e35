/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ticks.c - where each thread's SIGPROF ticks come from, and what one
 * tick is worth.
 *
 * The first choice is a perf task-clock event per thread (the kernel's
 * cpu-clock that perf itself samples with), whose overflow signal is
 * sent to its thread (F_SETSIG, F_SETOWN_EX).  It is driven by a
 * high-resolution timer while the thread runs.  POSIX CPU timers, the
 * second choice, are checked only at the scheduler tick of the CPU that
 * runs the thread: on a busy machine a thread that shares a CPU in
 * slices shorter than the tick may run 100 ms and more between checks,
 * and the whole overrun then lands on whatever code runs at the late
 * delivery (measured on a 2-core machine with both cores loaded: gaps of
 * up to 190 ms at 1000 Hz; none above 3 ms with the perf event).  A perf
 * tick is weighted by the task clock read in the handler, so a signal
 * lost while another was pending loses no time.
 *
 * The event costs a file descriptor per thread, moved above the low
 * numbers programs use for their own and closed on exec.  A program
 * that closes or replaces it silences that thread: the descriptor's
 * kernel id tells, and the exit line counts such threads.  Where perf
 * events are refused (perf_event_paranoid 3, seccomp, qemu-user) each
 * thread gets a POSIX timer; where those fail too, ITIMER_PROF serves
 * the process, as glibc's runtime does.  GMON_TIMER=perf|posix|itimer
 * chooses one (a refused choice falls back the same way).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "gmon_rt.h"

/*
 * The kernel's perf ABI, as far as it is used here: the attribute
 * block's first version (64 bytes, which every kernel since 2.6.31
 * takes) and three ioctls.  Spelled out so that toolchains without the
 * kernel's headers (musl-gcc, some cross compilers) build the same code.
 */
struct perf_attr0 {
	uint32_t type, size;
	uint64_t config, sample_period, sample_type, read_format;
	uint64_t flags;          /* bit 0 disabled, 5 exclude_kernel, 6 _hv */
	uint32_t wakeup_events, bp_type;
	uint64_t config1;
};
enum {
	PERF_SOFTWARE = 1, PERF_TASK_CLOCK = 1,
	PERF_DISABLED = 1 << 0, PERF_NO_KERNEL = 1 << 5, PERF_NO_HV = 1 << 6,
	PERF_OPEN_CLOEXEC = 8,
};
_Static_assert(sizeof(struct perf_attr0) == 64, "PERF_ATTR_SIZE_VER0");
#define PERF_IOC_ENABLE _IO('$', 0)
#define PERF_IOC_DISABLE _IO('$', 1)
#define PERF_IOC_ID _IOR('$', 7, uint64_t *)

/* The source new threads get (GMON_TICK_*). */
static int first_kind;
/* Threads whose event the program closed or replaced. */
static uint64_t closed;
/* ITIMER_PROF: process CPU time (ns) already credited. */
static uint64_t itimer_done;
/* What our POSIX timers carry in si_value, to tell their signals. */
static char timer_mark;

/* The perf event ticks at most every MIN_PERF_NS (10 kHz): each tick
   costs the thread a few microseconds, and at GMON_RATE=100000 a 10 us
   period left a program no time of its own.  A tick is still worth the
   periods of the rate it covers. */
enum { MIN_PERF_NS = 100000 };

/* Descriptors from here up are less likely to meet a program's dup2. */
enum { HIGH_FD = 100 };

/*
 * Creating, deleting and (dis)arming the sources is serialised by a spin
 * lock: these are rare events, and a lock-free list would not stop
 * moncontrol from arming a source that a thread is deleting.  The slow
 * path can reach this from a signal handler, so a thread that already
 * holds the lock does not wait for itself: it skips the work.
 */
static int tick_lock;
static __thread int holding_tick_lock __attribute__((tls_model("initial-exec")));

static int lock_ticks(void)
{
	if (holding_tick_lock)
		return 0;
	while (__atomic_exchange_n(&tick_lock, 1, __ATOMIC_ACQUIRE))
		GMON_ARCH_RELAX();
	holding_tick_lock = 1;
	return 1;
}

static void unlock_ticks(void)
{
	holding_tick_lock = 0;
	__atomic_store_n(&tick_lock, 0, __ATOMIC_RELEASE);
}

static pid_t my_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

/* Move fd up out of the program's way (keeping it if that fails). */
static int move_high(int fd)
{
	int high = fcntl(fd, F_DUPFD_CLOEXEC, HIGH_FD);
	if (high < 0)
		return fd;
	close(fd);
	return high;
}

/* A POSIX timer on the calling thread's CPU clock that signals it
   (into k->timer; the caller sets the kind). */
static int timer_open(struct gmon_ticker *k)
{
	struct sigevent ev;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGPROF;
	ev.sigev_value.sival_ptr = &timer_mark;
#ifdef sigev_notify_thread_id
	ev.sigev_notify_thread_id = my_tid();
#else
	ev._sigev_un._tid = my_tid();
#endif
	return timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &k->timer) != 0 ? -1 : 0;
}

/* A disabled task-clock event of the calling thread that, once enabled,
   sends it SIGPROF every ns of its CPU time; 0 or -1. */
static int perf_open(struct gmon_ticker *k, long ns)
{
	struct perf_attr0 a;
	memset(&a, 0, sizeof a);
	a.type = PERF_SOFTWARE;
	a.size = sizeof a;
	a.config = PERF_TASK_CLOCK;
	a.sample_period = (uint64_t)(ns < MIN_PERF_NS ? MIN_PERF_NS : ns);
	a.wakeup_events = 1;
	/* With the kernel's side where allowed (root, perf_event_paranoid
	   1 or less): a tick in a system call then comes at its return, in
	   the wrapper that made it, as a CPU timer's does.  Without it (an
	   unprivileged user under the usual paranoid 2) the time still
	   counts, but waits for the next tick in user code, which may lie
	   a period further on. */
	a.flags = PERF_DISABLED | PERF_NO_HV;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
	                      PERF_OPEN_CLOEXEC);
	int user_only = fd < 0;
	if (user_only) {
		a.flags |= PERF_NO_KERNEL;
		fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
		                  PERF_OPEN_CLOEXEC);
	}
	if (fd < 0)
		return -1;
	fd = move_high(fd);
	struct f_owner_ex own = { F_OWNER_TID, my_tid() };
	uint64_t id;
	if (fcntl(fd, F_SETSIG, SIGPROF) != 0 ||
	    fcntl(fd, F_SETOWN_EX, &own) != 0 ||
	    fcntl(fd, F_SETFL, O_ASYNC) != 0 ||
	    ioctl(fd, PERF_IOC_ID, &id) != 0) {
		close(fd);
		return -1;
	}
	k->fd = fd;
	k->id = id;
	k->done = 0;
	/* Blind to the kernel, the event alone would credit a system call's
	   time at the next tick in user code, a period or more on (measured:
	   a loop of read(2) calls, 99% system time, showed 21% in its own
	   code).  A CPU timer beside it ticks at the return from the call:
	   the event's ticks credit one period each, on time, the timer's
	   whatever else is owed (perf_weight). */
	k->user_only = user_only && timer_open(k) == 0;
	k->kind = GMON_TICK_PERF;
	return 0;
}

/* Is k's descriptor still the event we opened? */
static int perf_ours(const struct gmon_ticker *k)
{
	uint64_t id;
	return ioctl(k->fd, PERF_IOC_ID, &id) == 0 && id == k->id;
}

/* Give up k's source; a perf descriptor the program took over is left
   to it and counted. */
static void close_source(struct gmon_ticker *k)
{
	if (k->kind == GMON_TICK_PERF) {
		if (perf_ours(k))
			close(k->fd);
		else
			__atomic_fetch_add(&closed, 1, __ATOMIC_RELAXED);
	}
	if (k->kind == GMON_TICK_TIMER || (k->kind == GMON_TICK_PERF && k->user_only))
		timer_delete(k->timer);
	k->kind = GMON_TICK_NONE;
}

static void set_itimer(long ns)
{
	/* CPU time used before arming is no tick's. */
	struct timespec ts;
	if (ns > 0 && clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0)
		__atomic_store_n(&itimer_done, (uint64_t)ts.tv_sec * 1000000000u +
		                 (uint64_t)ts.tv_nsec, __ATOMIC_RELAXED);
	struct itimerval v;
	memset(&v, 0, sizeof v);
	long us = ns == 0 ? 0 : ns < 1000 ? 1 : ns / 1000;
	v.it_interval.tv_usec = v.it_value.tv_usec = us % 1000000;
	v.it_interval.tv_sec = v.it_value.tv_sec = us / 1000000;
	setitimer(ITIMER_PROF, &v, NULL);
}

static void arm(struct gmon_ticker *k, long ns)
{
	if (k->kind == GMON_TICK_PERF)
		ioctl(k->fd, ns > 0 ? PERF_IOC_ENABLE : PERF_IOC_DISABLE, 0);
	if (k->kind == GMON_TICK_TIMER || (k->kind == GMON_TICK_PERF && k->user_only)) {
		struct itimerspec v;
		memset(&v, 0, sizeof v);
		v.it_interval.tv_nsec = v.it_value.tv_nsec = ns % 1000000000;
		v.it_interval.tv_sec = v.it_value.tv_sec = ns / 1000000000;
		timer_settime(k->timer, 0, &v, NULL);
	}
}

/* Open the best source from `kind` down for the calling thread. */
static int open_source(struct gmon_ticker *k, int kind, long ns)
{
	if (kind == GMON_TICK_PERF && perf_open(k, ns) == 0)
		return GMON_TICK_PERF;
	if (kind <= GMON_TICK_TIMER && timer_open(k) == 0)
		return k->kind = GMON_TICK_TIMER;
	return GMON_TICK_NONE;
}

/* GMON_TIMER=perf|posix|itimer; unset or unknown: perf. */
static int wanted_kind(void)
{
	static const char *const names[] = { "perf", "posix", "itimer" };
	const char *s = gmon_env("GMON_TIMER");
	if (s == NULL)
		return GMON_TICK_PERF;
	for (int i = 0; i < 3; i++)
		if (strcmp(s, names[i]) == 0)
			return GMON_TICK_PERF + i;
	gmon_say("ignoring GMON_TIMER=%s (expected perf, posix or itimer)", s);
	return GMON_TICK_PERF;
}

int gmon_ticks_init(void)
{
	int kind = wanted_kind();
	struct gmon_ticker probe;
	memset(&probe, 0, sizeof probe);
	first_kind = kind == GMON_TICK_ITIMER ? kind : open_source(&probe, kind, 1000000);
	if (first_kind == GMON_TICK_NONE)
		first_kind = GMON_TICK_ITIMER;
	close_source(&probe);
	return first_kind;
}

void gmon_ticks_thread_begin(struct gmon_table *t, long ns, int armed)
{
	if (first_kind == GMON_TICK_ITIMER || !lock_ticks())
		return;
	if (open_source(&t->tick, first_kind, ns) != GMON_TICK_NONE) {
		if (armed)
			arm(&t->tick, ns);
	} else {
		static int told;
		if (!__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
			gmon_say("cannot create a CPU timer: some threads are not sampled");
	}
	unlock_ticks();
}

void gmon_ticks_thread_end(struct gmon_table *t)
{
	if (t->tick.kind == GMON_TICK_NONE || !lock_ticks())
		return;
	close_source(&t->tick);
	unlock_ticks();
}

void gmon_ticks_set_all(long ns)
{
	if (first_kind == GMON_TICK_ITIMER) {
		set_itimer(ns);
		return;
	}
	if (!lock_ticks())
		return;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		arm(&t->tick, ns);
	unlock_ticks();
}

/* The task-clock periods since the last tick credited; at most one
   (`one`) for a tick of an event blind to the kernel: it comes only in
   user code, and the periods spent in the kernel are the helping
   timer's to credit, at the return from the system call. */
static uint32_t perf_weight(struct gmon_ticker *k, long ns, int one)
{
	uint64_t now;
	if (read(k->fd, &now, sizeof now) != (ssize_t)sizeof now || now < k->done)
		return 1;
	uint64_t w = (now - k->done) / (uint64_t)ns;
	if (one && w > 1)
		w = 1;
	k->done += w * (uint64_t)ns;
	return w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
}

/* ITIMER_PROF signals at most once per kernel tick and tells of no
   overrun: weigh each by the process's CPU time since the periods
   already credited (any thread may take it). */

static uint32_t itimer_weight(long ns)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 1;
	uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	uint64_t old = __atomic_load_n(&itimer_done, __ATOMIC_RELAXED), w;
	do {
		if (now < old)
			return 0;
		w = (now - old) / (uint64_t)ns;
	} while (!__atomic_compare_exchange_n(&itimer_done, &old, old + w * (uint64_t)ns, 0,
	                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
}

uint32_t gmon_ticks_weight(const siginfo_t *si, long ns)
{
	if (first_kind == GMON_TICK_ITIMER)
		return si->si_code == SI_KERNEL ? itimer_weight(ns) : 0;
	struct gmon_table *t = gmon_cur;
	if (t == NULL)
		return 0;
	struct gmon_ticker *k = &t->tick;
	int timer = si->si_code == SI_TIMER && si->si_value.sival_ptr == &timer_mark;
	if (k->kind == GMON_TICK_PERF) {
		if ((si->si_code == POLL_IN || si->si_code == POLL_HUP) && si->si_fd == k->fd)
			return perf_weight(k, ns, k->user_only);
		return timer && k->user_only ? perf_weight(k, ns, 0) : 0;
	}
	if (!timer)
		return 0;
	return 1 + (si->si_overrun > 0 ? (uint32_t)si->si_overrun : 0);
}

/*
 * A fork child has none of the parent's timers, but it has copies of
 * the perf descriptors, which count the parent's threads: close them
 * (those still ours), then give the forking thread a source of its own.
 */
void gmon_ticks_after_fork(struct gmon_table *mine, long ns, int armed)
{
	tick_lock = 0;
	holding_tick_lock = 0;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		if (t->tick.kind == GMON_TICK_PERF && perf_ours(&t->tick))
			close(t->tick.fd);
		t->tick.kind = GMON_TICK_NONE;
	}
	__atomic_store_n(&closed, 0, __ATOMIC_RELAXED);
	if (first_kind == GMON_TICK_ITIMER) {
		if (armed)
			set_itimer(ns);
	} else if (mine != NULL && mine != &gmon_dead_table) {
		gmon_ticks_thread_begin(mine, ns, armed);
	}
}

uint64_t gmon_ticks_closed(void)
{
	if (lock_ticks()) {
		for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
			if (t->tick.kind == GMON_TICK_PERF && !perf_ours(&t->tick)) {
				__atomic_fetch_add(&closed, 1, __ATOMIC_RELAXED);
				t->tick.kind = GMON_TICK_NONE;
			}
		unlock_ticks();
	}
	return __atomic_load_n(&closed, __ATOMIC_RELAXED);
}
