/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sampler.c - the PC-sampling histogram: CPU-time timers, a SIGPROF handler
 * that credits the interrupted PC to a bin, and the rate setting.
 *
 * Each profiled thread gets a POSIX timer on its own CPU clock
 * (CLOCK_THREAD_CPUTIME_ID) whose signal is directed at that thread
 * (SIGEV_THREAD_ID), so every sample is the PC of the thread that used
 * the CPU.  A single process-wide timer would not do: kernels before 6.3
 * deliver its signal to the main thread whenever that thread could take
 * it, even while it sleeps in pthread_join, and the workers' time would
 * be lost.  Unlike glibc's ITIMER_PROF, POSIX timers are deleted by
 * execve (an exec'd program is not killed by a stray SIGPROF), and they
 * report overruns: the kernel checks CPU timers only at its scheduler
 * tick, so above the tick rate one signal stands for several periods, and
 * crediting 1 + si_overrun samples keeps the total equal to CPU time x
 * rate, which is what gprof's seconds are computed from.
 *
 * If the system refuses POSIX timers, ITIMER_PROF (process-wide, like
 * glibc) is the fallback.
 *
 * GMON_CLOCK=wall adds offcpu.c's sampler for the time threads spend
 * blocked (lifecycle.c starts and stops it with this one), and the file
 * then says "wall-sec" (gmon_set.clock).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "gmon_rt.h"

enum { TIMERS_NONE, TIMERS_PER_THREAD, TIMERS_ITIMER };

static struct {
	uintptr_t lowpc;
	uintptr_t span;          /* bytes covered: nbins << GMON_BIN_SHIFT */
	uint32_t *bins;
	size_t nbins;
	uintptr_t obj_lo;        /* the executable's whole mapped span ... */
	uintptr_t obj_span;      /* ... (all its PT_LOAD segments) */
	unsigned long lost;      /* samples in it but outside the bins */
	int mode;                /* TIMERS_* */
	int on;                  /* sampling wanted (between start and stop) */
} h;

/*
 * Creating, deleting and (dis)arming the per-thread timers is serialised
 * by a spin lock: these are rare events, and a lock-free list would not
 * stop moncontrol from arming a timer that a thread is deleting.  The
 * slow path can reach this from a signal handler, so a thread that
 * already holds the lock does not wait for itself: it skips the work.
 */
static int timer_lock;
static __thread int holding_timer_lock __attribute__((tls_model("initial-exec")));

static int lock_timers(void)
{
	if (holding_timer_lock)
		return 0;
	while (__atomic_exchange_n(&timer_lock, 1, __ATOMIC_ACQUIRE))
		GMON_ARCH_RELAX();
	holding_timer_lock = 1;
	return 1;
}

static void unlock_timers(void)
{
	holding_timer_lock = 0;
	__atomic_store_n(&timer_lock, 0, __ATOMIC_RELEASE);
}

/* The interrupted PC; the architecture header knows where it is saved. */
static uintptr_t sample_pc(void *ctx)
{
	ucontext_t *uc = ctx;
	return (uintptr_t)GMON_ARCH_UC_PC(uc);
}

/* Add without ever wrapping: a bin that reaches 2^32-1 stays there. */
static void bin_add(uint32_t *bin, uint32_t w)
{
	uint32_t old = __atomic_load_n(bin, __ATOMIC_RELAXED), sum;
	do
		sum = old > UINT32_MAX - w ? UINT32_MAX : old + w;
	while (!__atomic_compare_exchange_n(bin, &old, sum, 1, __ATOMIC_RELAXED,
	                                    __ATOMIC_RELAXED));
}

/*
 * Credit w samples to the code at pc.  Safe in a signal handler and from
 * any thread: the SIGPROF handler uses it for the interrupted thread, and
 * other samplers (the wall clock's, for threads that wait) for others.
 */
void gmon_hist_credit(uintptr_t pc, uint32_t w)
{
	uintptr_t off = pc - h.lowpc;
	if (off < h.span) {
		bin_add(&h.bins[off >> GMON_BIN_SHIFT], w);
		return;
	}
	/* Code of the executable itself that the histogram does not cover is
	   a loss, counted for the summary at exit; a shared library or the
	   vDSO is outside the profile unless GMON_SHLIBS asks for them. */
	if (pc - h.obj_lo < h.obj_span)
		__atomic_fetch_add(&h.lost, w, __ATOMIC_RELAXED);
	else
		gmon_shlibs_sample(pc, w);
}

/* Under the wall clock a thread that offcpu.c's sampler follows is
   credited the wall-clock samples that sampler found it running or
   runnable for since its last SIGPROF, not its CPU time: a thread that
   waits for a CPU on a busy machine spends wall time there too. */
static uint32_t wall_weight(uint32_t w)
{
	struct gmon_table *t = gmon_cur;
	if (gmon_set.clock != GMON_CLOCK_WALL || t == NULL ||
	    t == &gmon_dead_table || t == &gmon_nomem_table)
		return w;
	return __atomic_exchange_n(&t->wall_owed, 0, __ATOMIC_RELAXED);
}

/* Runs on the thread whose CPU time expired the timer. */
static void on_sigprof(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	/* Only libgmon's own ticks: its timers carry &h; ITIMER_PROF's
	   signals come from the kernel.  A SIGPROF the program raises
	   (its handler is refused meanwhile, sigmask.c) is no sample. */
	if (h.mode == TIMERS_PER_THREAD ? si->si_code != SI_TIMER ||
	                                  si->si_value.sival_ptr != (void *)&h
	                                : si->si_code != SI_KERNEL)
		return;
	uint32_t w = 1;
	if (si->si_code == SI_TIMER && si->si_overrun > 0)
		w += (uint32_t)si->si_overrun;
	if ((w = wall_weight(w)) == 0)
		return;
	gmon_hist_credit(sample_pc(ctx), w);
	if (gmon_set.stacks)
		gmon_stacks_tick(ctx, w);
}

static int read_rate(void)
{
	long v = gmon_env_number(GMON_NUM_RATE);
	return v != 0 ? (int)v : GMON_DEFAULT_RATE;
}

/* GMON_CLOCK=cpu|wall: CPU time (the default), or wall-clock time. */
static int read_clock(void)
{
	return gmon_env_word("GMON_CLOCK", "cpu", "wall") == 1 ? GMON_CLOCK_WALL
	                                                       : GMON_CLOCK_CPU;
}

static long period_ns(void)
{
	return 1000000000L / gmon_set.rate;
}

/* A timer on the calling thread's CPU clock that signals this thread. */
static int thread_timer(timer_t *id)
{
	struct sigevent ev;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGPROF;
	ev.sigev_value.sival_ptr = &h;
#ifdef sigev_notify_thread_id
	ev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
#else
	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
#endif
	return timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, id);
}

static void set_timer(timer_t id, long ns)
{
	struct itimerspec v;
	memset(&v, 0, sizeof v);
	v.it_interval.tv_nsec = v.it_value.tv_nsec = ns % 1000000000;
	v.it_interval.tv_sec = v.it_value.tv_sec = ns / 1000000000;
	timer_settime(id, 0, &v, NULL);
}

static void set_itimer(long ns)
{
	struct itimerval v;
	memset(&v, 0, sizeof v);
	long us = ns == 0 ? 0 : ns < 1000 ? 1 : ns / 1000;
	v.it_interval.tv_usec = v.it_value.tv_usec = us % 1000000;
	v.it_interval.tv_sec = v.it_value.tv_sec = us / 1000000;
	setitimer(ITIMER_PROF, &v, NULL);
}

int gmon_hist_init(uintptr_t lowpc, uintptr_t textsize)
{
	h.lowpc = lowpc;
	h.nbins = textsize >> GMON_BIN_SHIFT;
	h.span = (uintptr_t)h.nbins << GMON_BIN_SHIFT;
	gmon_set.rate = read_rate();
	gmon_set.clock = read_clock();
	uintptr_t olo, ohi;
	gmon_object_span(lowpc, &olo, &ohi);
	h.obj_lo = olo;
	h.obj_span = ohi - olo;
	void *m = mmap(NULL, h.nbins * sizeof(uint32_t) + 1, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return -1;
	h.bins = m;
	timer_t probe;
	if (thread_timer(&probe) == 0) {
		timer_delete(probe);
		h.mode = TIMERS_PER_THREAD;
	} else {
		h.mode = TIMERS_ITIMER;
	}
	return 0;
}

/* Give the calling thread, which now owns table t, its sampling timer. */
void gmon_hist_thread_begin(struct gmon_table *t)
{
	if (h.mode != TIMERS_PER_THREAD || !lock_timers())
		return;
	if (thread_timer(&t->timer) == 0) {
		t->has_timer = 1;
		if (h.on)
			set_timer(t->timer, period_ns());
	} else {
		static int told;
		if (!__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
			gmon_say("cannot create a CPU timer: some threads are not sampled");
	}
	unlock_timers();
}

/* The thread owning table t is exiting: delete its timer. */
void gmon_hist_thread_end(struct gmon_table *t)
{
	if (!t->has_timer || !lock_timers())
		return;
	timer_delete(t->timer);
	t->has_timer = 0;
	unlock_timers();
}

/* Arm (ns > 0) or disarm (ns == 0) every thread's timer. */
static void set_all_timers(long ns)
{
	if (h.mode == TIMERS_ITIMER) {
		set_itimer(ns);
		return;
	}
	if (!lock_timers())
		return;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		if (t->has_timer)
			set_timer(t->timer, ns);
	unlock_timers();
}

/* 1 if this call switched sampling on; 0 if it was on already or
   cannot be. */
int gmon_hist_start(void)
{
	if (h.bins == NULL || h.on)
		return 0;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigprof;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	if (gmon_sigprof_take(&sa) != 0)
		return 0;
	h.on = 1;
	set_all_timers(period_ns());
	return 1;
}

/* Is sampling on (between gmon_hist_start and gmon_hist_stop)? */
int gmon_hist_on(void)
{
	return h.on;
}

/* Disarm, then restore the program's action (sigmask.c passes through
   SIG_IGN, so that a tick still pending does not end the process). */
void gmon_hist_stop(void)
{
	if (!h.on)
		return;
	h.on = 0;
	set_all_timers(0);
	gmon_sigprof_give_back();
}

/*
 * A fork child inherits the handler but no timer (neither kind is
 * inherited), and only the forking thread: start from empty bins, forget
 * the other threads' timers, and give the forking thread a new one.
 */
void gmon_hist_after_fork(struct gmon_table *mine)
{
	if (h.bins == NULL)
		return;
	/* Dropping the pages zero-fills them on next touch without writing
	   the whole array, which would cost as much as the text is large. */
	size_t bytes = h.nbins * sizeof(uint32_t) + 1;
	if (madvise(h.bins, bytes, MADV_DONTNEED) != 0)
		memset(h.bins, 0, h.nbins * sizeof(uint32_t));
	h.lost = 0;
	timer_lock = 0;
	holding_timer_lock = 0;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		t->has_timer = 0;
	if (h.mode == TIMERS_ITIMER) {
		if (h.on)
			set_itimer(period_ns());
	} else if (mine != NULL && mine != &gmon_dead_table) {
		gmon_hist_thread_begin(mine);
	}
}

const uint32_t *gmon_hist_bins(size_t *nbins)
{
	*nbins = h.bins ? h.nbins : 0;
	return h.bins;
}

/* Samples the executable's own code took outside the histogram. */
uint64_t gmon_hist_lost(void)
{
	return __atomic_load_n(&h.lost, __ATOMIC_RELAXED);
}
