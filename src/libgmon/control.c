/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * control.c - starting and stopping the profiler: the glibc-compatible
 * entry points (__monstartup, monstartup, moncontrol, _mcleanup), the
 * self-start constructor, the fork handler, and one-line messages.
 *
 * On glibc, `gcc -pg` links gcrt1.o, which calls __monstartup from _init
 * and registers _mcleanup with atexit.  Defining both here means glibc's
 * own profiler never starts.  Where nothing calls __monstartup (musl, or a
 * program linked without -pg) the constructor below starts the runtime
 * and registers _mcleanup itself.  Either way it starts at most once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "gmon_rt.h"

#define GMON_API __attribute__((visibility("default")))

GMON_API void __monstartup(unsigned long lowpc, unsigned long highpc);
GMON_API void monstartup(unsigned long lowpc, unsigned long highpc);
GMON_API void moncontrol(int mode);
GMON_API void _mcleanup(void);

struct gmon_params gmon_p;
static int start_claimed;

/*
 * The exit write and the exit signals (GMON_EXIT_SIGNALS) must agree, or
 * a signal that lands while the exit path writes kills the program
 * between the temporary file and its rename.  The rule: whoever claims
 * exit_state first writes the profile, and nobody dies before it is
 * renamed into place.  The writer holds libgmon's signals off its own
 * thread from before the claim to the end, so a signal sent meanwhile
 * waits and is handled after the rename; one that goes to another thread
 * finds the write claimed and waits in its _mcleanup for EXIT_WRITTEN
 * (wait_exit_write).  Either handler then dies of the signal.  The other
 * way round, a thread calling exit() while another thread's exit signal
 * writes waits there too, or its exit would end the process before the
 * rename.  A dump signal meanwhile writes nothing: the runtime is no
 * longer running.
 */
enum { EXIT_NONE, EXIT_WRITING, EXIT_WRITTEN };
static int exit_state;
/* Set on the thread inside _mcleanup's claim and write. */
static __thread int exit_writing_here __attribute__((tls_model("initial-exec")));

/* The linker defines both in every executable; weak so that a link
   without them still works (the constructor then asks the loader). */
extern char __executable_start[] __attribute__((weak));
extern char etext[] __attribute__((weak));

static void after_fork_child(void)
{
	/* Forked during another thread's exit write: no thread of the child
	   will finish it, so its exit signals must not wait for it. */
	int writing = EXIT_WRITING;
	__atomic_compare_exchange_n(&exit_state, &writing, EXIT_WRITTEN, 0,
	                            __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
	if (__atomic_load_n(&gmon_p.phase, __ATOMIC_ACQUIRE) != GMON_RUNNING)
		return;
	gmon_p.forked = 1;
	gmon_tables_after_fork(gmon_cur);
	gmon_hist_after_fork(gmon_cur);
	gmon_shlibs_after_fork();
	gmon_stacks_after_fork(gmon_cur);
	gmon_signals_after_fork();
}

static void give_up(const char *why)
{
	gmon_say("profiling disabled: %s", why);
	__atomic_store_n(&gmon_p.phase, GMON_DONE, __ATOMIC_RELEASE);
}

/* Returns 1 if this call started the runtime, 0 if it was already started
   (or had failed or finished before), -1 if starting failed now. */
static int start(uintptr_t lowpc, uintptr_t highpc)
{
	if (__atomic_exchange_n(&start_claimed, 1, __ATOMIC_ACQ_REL))
		return 0;
	gmon_shlibs_quiet(1);
	gmon_widen_text(&lowpc, &highpc);
	uintptr_t lo = lowpc & ~(uintptr_t)3, hi = (highpc + 3) & ~(uintptr_t)3;
	if (hi <= lo) {
		give_up("empty text range");
		return -1;
	}
	gmon_p.lowpc = lo;
	gmon_p.textsize = hi - lo;
	gmon_p.bias = gmon_find_bias(lo);
	gmon_stacks_init(); /* first: it needs shlibs.c's objects */
	gmon_shlibs_init();
	gmon_tables_init();
	if (gmon_hist_init(lo, hi - lo) != 0) {
		give_up("cannot map the histogram");
		return -1;
	}
	pthread_atfork(NULL, NULL, after_fork_child);
	__atomic_store_n(&gmon_p.phase, GMON_RUNNING, __ATOMIC_RELEASE);
	/* The starting thread (normally the main one) is sampled from now
	   on, even if it never calls a profiled function again. */
	if (gmon_cur == NULL)
		gmon_thread_setup();
	moncontrol(1);
	gmon_signals_init();
	gmon_shlibs_quiet(0);
	return 1;
}

void __monstartup(unsigned long lowpc, unsigned long highpc)
{
	start(lowpc, highpc);
}

void monstartup(unsigned long lowpc, unsigned long highpc)
{
	start(lowpc, highpc);
}

/* Recording and sampling are switched together, as in glibc. */
void moncontrol(int mode)
{
	if (__atomic_load_n(&gmon_p.phase, __ATOMIC_ACQUIRE) != GMON_RUNNING)
		return;
	if (mode) {
		gmon_hist_start();
		gmon_set_limit(gmon_p.textsize);
	} else {
		gmon_set_limit(0);
		gmon_hist_stop();
	}
}

/* Stop recording and write, if the runtime is running. */
static void stop_and_write(void)
{
	int expect = GMON_RUNNING;
	if (!__atomic_compare_exchange_n(&gmon_p.phase, &expect, GMON_DONE, 0,
	                                 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	gmon_set_limit(0);
	gmon_hist_stop();
	gmon_write_profile();
	gmon_report_losses();
}

/* Returns once the exit write another thread claimed is complete.  The
   wait is bounded (30 s) so that a writer stuck on a dead file system
   cannot keep the program from ending. */
static void wait_exit_write(void)
{
	for (int i = 0; i < 30000; i++) {
		if (__atomic_load_n(&exit_state, __ATOMIC_ACQUIRE) != EXIT_WRITING)
			break;
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
}

/* Stop and write the profile.  Only the first call does anything, and the
   caller's errno survives (it may run from atexit after a failure). */
void _mcleanup(void)
{
	int saved = errno, expect = EXIT_NONE;
	sigset_t old;
	gmon_signals_hold(&old);
	if (exit_writing_here) {
		/* A program's own handler, on the writer's thread: the write
		   it interrupted finishes when the handler returns. */
		gmon_signals_release(&old);
		errno = saved;
		return;
	}
	exit_writing_here = 1;
	int mine = __atomic_compare_exchange_n(&exit_state, &expect, EXIT_WRITING, 0,
	                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	if (mine) {
		stop_and_write();
		__atomic_store_n(&exit_state, EXIT_WRITTEN, __ATOMIC_RELEASE);
	}
	exit_writing_here = 0;
	gmon_signals_release(&old);
	/* Another thread claimed the write: dying of a signal or exiting now
	   would end the process under it, so this thread waits for the
	   rename (an exit signal's handler and exit() alike). */
	if (!mine)
		wait_exit_write();
	errno = saved;
}

/* The text range gcrt1.o would pass; without the linker symbols, the
   loaded segment that holds this very code (libgmon is linked into the
   executable, so that segment is the executable's text). */
static void text_bounds(uintptr_t *lo, uintptr_t *hi)
{
	*lo = (uintptr_t)__executable_start;
	*hi = (uintptr_t)etext;
	if (*lo == 0 || *hi <= *lo)
		gmon_find_text((uintptr_t)&text_bounds, lo, hi);
}

/*
 * Priority 101 is the earliest a program may use, so the runtime is up
 * before ordinary constructors run.  glibc's gcrt1.o has already called
 * __monstartup from _init by now, and then this does nothing.
 */
__attribute__((constructor(101))) static void gmon_autostart(void)
{
	uintptr_t lo, hi;
	text_bounds(&lo, &hi);
	if (start(lo, hi) == 1)
		atexit(_mcleanup);
}
