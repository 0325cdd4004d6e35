/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sampler.c - the PC-sampling histogram: a SIGPROF handler that credits
 * the interrupted PC to a bin, and the rate setting.
 *
 * Each profiled thread has a source of ticks on its own CPU time whose
 * signal is directed at that thread (ticks.c: a perf task-clock event,
 * else a POSIX CPU timer), so every sample is the PC of the thread that
 * used the CPU.  A single process-wide timer would not do: kernels
 * before 6.3 deliver its signal to the main thread whenever that thread
 * could take it, even while it sleeps in pthread_join, and the workers'
 * time would be lost.  ITIMER_PROF is only the last fallback.  A tick
 * may stand for several periods (ticks.c says how many), so that the
 * total stays CPU time x rate, which gprof's seconds are computed from.
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

static struct {
	uintptr_t lowpc;
	uintptr_t span;          /* bytes covered: nbins << GMON_BIN_SHIFT */
	uint32_t *bins;
	size_t nbins;
	uintptr_t obj_lo;        /* the executable's whole mapped span ... */
	uintptr_t obj_span;      /* ... (all its PT_LOAD segments) */
	unsigned long lost;      /* samples in it but outside the bins */
	int on;                  /* sampling wanted (between start and stop) */
} h;

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

static long period_ns(void)
{
	return 1000000000L / gmon_set.rate;
}

/* Runs on the thread whose CPU time made the tick. */
static void on_sigprof(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	/* Only libgmon's own ticks (ticks.c tells them and their worth): a
	   SIGPROF the program raises (its handler is refused meanwhile,
	   sigmask.c) is no sample. */
	uint32_t w = gmon_ticks_weight(si, period_ns());
	if (w == 0 || (w = wall_weight(w)) == 0)
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
	gmon_ticks_init();
	return 0;
}

/* Give the calling thread, which now owns table t, its ticks. */
void gmon_hist_thread_begin(struct gmon_table *t)
{
	gmon_ticks_thread_begin(t, period_ns(), h.on);
}

/* The thread owning table t is exiting. */
void gmon_hist_thread_end(struct gmon_table *t)
{
	gmon_ticks_thread_end(t);
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
	gmon_ticks_set_all(period_ns());
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
	gmon_ticks_set_all(0);
	gmon_sigprof_give_back();
}

/*
 * A fork child inherits the handler and only the forking thread: start
 * from empty bins; ticks.c gives the forking thread a source again.
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
	gmon_ticks_after_fork(mine, period_ns(), h.on);
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
