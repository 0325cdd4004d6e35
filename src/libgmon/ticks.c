/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ticks.c - where each thread's SIGPROF ticks come from, and what one
 * tick is worth.
 *
 * Each thread has a POSIX timer on its CPU clock.  The kernel checks it
 * at its scheduler tick, on the CPU that runs the thread, and the
 * signal reports the periods missed (si_overrun).  On a busy machine
 * that check can come very late: a thread that shares a CPU in slices
 * shorter than the tick may run 100 ms and more between checks, and the
 * whole overrun then lands on whatever code runs at the late delivery
 * (measured on a 2-core machine with both cores loaded: gaps of up to
 * 190 ms at 1000 Hz, and in sections.c up to 180 of a function's 300
 * samples moved to the next function).  So beside the timer each
 * thread gets a perf task-clock event (the clock `perf record -e
 * cpu-clock` samples with), driven by a high-resolution timer while the
 * thread runs: no gap above 3 ms (at 1000 a second) under the same
 * load.  Whichever ticks credits the periods of the thread's CPU time
 * since the last credit (perf_weight), at its own PC: the event keeps
 * the ticks on time, and the timer goes on where the event cannot (the
 * program closed its descriptor; and always at the return from a system
 * call, as the event is blind to the kernel).
 *
 * The event costs a file descriptor, moved above the low numbers
 * programs use for their own and closed on exec; a program that closes
 * or replaces it (a daemon closing every descriptor) leaves the thread
 * to its timer, and ours is never closed once it is not ours.  Where
 * perf events are refused
 * (perf_event_paranoid 3, seccomp, qemu-user) the timers work alone;
 * where those fail too, ITIMER_PROF serves the process, as glibc's
 * runtime does.  GMON_TIMER=perf|posix|itimer chooses (a refused
 * choice falls back the same way).
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
/* ITIMER_PROF: process CPU time (ns) already credited. */
static uint64_t itimer_done;
/* What our POSIX timers carry in si_value, to tell their signals. */
static char timer_mark;

/* The perf event ticks at most every MIN_PERF_NS of CPU time (250 a
   second), as the kernel's tick limited the POSIX timers: each of its
   ticks costs a timer interrupt, which on the test machine's virtual
   CPUs came to 4% of the CPU at 1000 a second and about half a point
   over the POSIX timer at 250.  A tick is still worth the periods of
   the rate it covers. */
enum { MIN_PERF_NS = 4000000 };

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
	/* Blind to the kernel, for everyone.  An unprivileged user (the
	   usual perf_event_paranoid 2) may not ask for more, and an event
	   that saw the kernel ticked inside execve too: its signal stayed
	   pending into the new program, which died of SIGPROF (status 155
	   in 2 of 3 runs of the exec test).  The thread's timer credits
	   the kernel's time, at the return from the call (perf_weight). */
	a.flags = PERF_DISABLED | PERF_NO_KERNEL | PERF_NO_HV;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
	                      PERF_OPEN_CLOEXEC);
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
	return 0;
}

/* Is k's descriptor still the event we opened? */
static int perf_ours(const struct gmon_ticker *k)
{
	uint64_t id;
	return ioctl(k->fd, PERF_IOC_ID, &id) == 0 && id == k->id;
}

/* Give up k's source; a perf descriptor the program took over is left
   to it. */
static void close_source(struct gmon_ticker *k)
{
	if (k->kind == GMON_TICK_PERF) {
		if (perf_ours(k))
			close(k->fd);
	}
	if (k->has_timer)
		timer_delete(k->timer);
	k->has_timer = 0;
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

static void arm_timer(struct gmon_ticker *k, long ns)
{
	if (ns > 0 && ns < MIN_PERF_NS && k->kind == GMON_TICK_PERF)
		ns = MIN_PERF_NS; /* the event's period will do */
	struct itimerspec v;
	memset(&v, 0, sizeof v);
	v.it_interval.tv_nsec = v.it_value.tv_nsec = ns % 1000000000;
	v.it_interval.tv_sec = v.it_value.tv_sec = ns / 1000000000;
	timer_settime(k->timer, 0, &v, NULL);
}

static void arm(struct gmon_ticker *k, long ns)
{
	if (k->kind == GMON_TICK_PERF) {
		k->rebase = 1;
		ioctl(k->fd, ns > 0 ? PERF_IOC_ENABLE : PERF_IOC_DISABLE, 0);
	}
	if (k->has_timer)
		arm_timer(k, ns);
}

/* Open the best source from `kind` down for the calling thread. */
static int open_source(struct gmon_ticker *k, int kind, long ns)
{
	k->has_timer = kind <= GMON_TICK_TIMER && timer_open(k) == 0;
	if (kind == GMON_TICK_PERF && perf_open(k, ns) == 0) {
		k->helper = k->has_timer; /* without a timer, the event credits all */
		return k->kind = GMON_TICK_PERF;
	}
	return k->kind = k->has_timer ? GMON_TICK_TIMER : GMON_TICK_NONE;
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

/* The calling thread's CPU time in ns (0 if unreadable). */
static uint64_t own_cpu(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The periods of the thread's CPU time since the last tick credited; at
 * most one event period (`one`) for a tick of the event, which is blind
 * to the kernel: it comes only in user code, and the time spent in the
 * kernel is the helping timer's to credit, at the return from the
 * system call.  The
 * amounts come from the thread's CPU clock, the one POSIX timers, the
 * side file's times and programs measuring themselves use, not from
 * the event's count: a virtual CPU's task clock also runs while the
 * host has taken the CPU away (a loaded run once showed 370 samples in
 * a function of 0.3 s).  The first tick after arming only sets the base.
 */
static uint32_t perf_weight(struct gmon_ticker *k, long ns, int one)
{
	uint64_t now = own_cpu();
	if (k->rebase || now < k->done) {
		k->rebase = 0;
		k->done = now;
		return 1;
	}
	uint64_t w = (now - k->done) / (uint64_t)ns;
	uint64_t cap = ns < MIN_PERF_NS ? MIN_PERF_NS / ns : 1; /* an event period */
	if (one && w > cap)
		w = cap;
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
			return perf_weight(k, ns, k->helper);
		return timer ? perf_weight(k, ns, 0) : 0;
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
		t->tick.has_timer = 0; /* timers are not inherited */
	}
	if (first_kind == GMON_TICK_ITIMER) {
		if (armed)
			set_itimer(ns);
	} else if (mine != NULL && mine != &gmon_dead_table) {
		gmon_ticks_thread_begin(mine, ns, armed);
	}
}
