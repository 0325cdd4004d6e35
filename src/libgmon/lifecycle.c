/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * lifecycle.c - starting and stopping the profiler, and the one file that
 * calls every part's hooks: the glibc-compatible entry points
 * (__monstartup, monstartup, moncontrol, _mcleanup), the self-start
 * constructor, the fork handler, a thread's set-up and exit, the
 * recorder's slow paths, and the one-line summary at exit of what was not
 * recorded.  The parts (tables.c, sampler.c, offcpu.c, shlibs.c,
 * stacks.c, cputime.c, signals.c, write.c) never call back into this file; what
 * they all read lives in state.c and env.c.
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
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gmon_rt.h"
#include "offcpu.h"
#include "preload.h"
#include "unwind.h"

#define GMON_API __attribute__((visibility("default")))

GMON_API void __monstartup(unsigned long lowpc, unsigned long highpc);
GMON_API void monstartup(unsigned long lowpc, unsigned long highpc);
GMON_API void moncontrol(int mode);
GMON_API void _mcleanup(void);

static int start_claimed;

#ifndef GMON_PRELOAD
/* The marker by which libgmon-preload.so sees that this program has a
   libgmon of its own and stays out (preload.h). */
__asm__(".pushsection .note.gproftk.runtime,\"a\",%note\n"
        "	.balign 4\n"
        "	.long 8, 4, 0x6772746d\n"
        "	.asciz \"gproftk\"\n"
        "	.long 0\n"
        "	.popsection\n");
#endif

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
	gmon_cputime_after_fork(gmon_cur);
	gmon_offstk_reset(1);
	gmon_signals_after_fork();
	gmon_sigmask_after_fork();
}

static void give_up(const char *why)
{
	gmon_say("profiling disabled: %s", why);
	__atomic_store_n(&gmon_p.phase, GMON_DONE, __ATOMIC_RELEASE);
}

/* ---- threads: set-up, exit and the recorder's slow paths ---- */

static pthread_key_t exit_key;
static int have_exit_key;
static __thread int in_setup __attribute__((tls_model("initial-exec")));

/*
 * Thread exit (a pthread key destructor).  The table returns to the pool;
 * if a later destructor of this thread makes a profiled call, the slow path
 * takes a table again and sets the key again, so the C library runs this
 * destructor once more in its next round and nothing is lost.
 */
static void thread_gone(void *p)
{
	struct gmon_table *t = p;
	gmon_cur = NULL;
	gmon_sigmask_thread_end();
	gmon_hist_thread_end(t);
	gmon_cputime_thread_end(t);
	gmon_stacks_thread_end(t);
	__atomic_store_n(&t->owner, GMON_TABLE_FREE, __ATOMIC_RELEASE);
}

/* Give the calling thread a table and a sampling timer. */
static struct gmon_table *thread_setup(void)
{
	struct gmon_table *t = gmon_table_acquire(gmon_stacks_recycle());
	if (t == NULL) {
		static int told;
		if (!__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
			gmon_say("cannot map an arc table; calls in some threads are not counted");
		gmon_cur = &gmon_nomem_table;
		return NULL;
	}
	if (have_exit_key)
		pthread_setspecific(exit_key, t);
	gmon_offcpu_thread_begin(t);
	gmon_sigmask_thread_begin();
	gmon_stacks_thread_begin(t);
	gmon_cputime_thread_begin(t); /* after stacks.c: it needs the id */
	gmon_hist_thread_begin(t);
	gmon_cur = t;
	return t;
}

/*
 * The first profiled call of a thread, even one from outside the profiled
 * text (the C library starting the thread): set the thread up, so that
 * its time is sampled even if it never calls another profiled function.
 * The recorder then counts the call if gmon_cur is the thread's own
 * table.  Before start-up a thread stays unset and asks again; after the
 * profile is written it gets the dead table, so that its calls cost
 * nothing more.
 */
static void first_call(void)
{
	int phase = __atomic_load_n(&gmon_p.phase, __ATOMIC_ACQUIRE);
	if (in_setup || phase == GMON_IDLE)
		return;
	if (phase != GMON_RUNNING) {
		gmon_cur = &gmon_dead_table;
		return;
	}
	in_setup = 1;
	thread_setup();
	in_setup = 0;
}

/* A thread that sigmask.c starts with GMON_SHLIBS on is set up before
   its start routine runs: it may run library code only, which makes no
   profiled call to set it up. */
static void thread_start(void)
{
	if (gmon_cur == NULL)
		first_call();
}

/* The recorder's rare paths, called through __gmon_slowcall (stubs). */
void __gmon_slow_dispatch(int op, uintptr_t a, uintptr_t b)
{
	(void)b;
	switch (op) {
	case GMON_SLOW_FIRST_CALL:
		first_call();
		break;
	case GMON_SLOW_GROW:
		gmon_table_grow((struct gmon_table *)a);
		break;
	case GMON_SLOW_STACKS:
		gmon_stacks_grow((struct gmon_table *)a);
		break;
	case GMON_SLOW_XMAP:
		gmon_shlibs_map_arcs((struct gmon_table *)a);
		break;
	case GMON_SLOW_WALK:
		gmon_shlibs_walk();
		break;
	case GMON_SLOW_NO_CALLER:
		gmon_say("functions compiled without a caller address (%s): "
		         "their call counts are not recorded", (const char *)a);
		break;
	}
}

/* ---- starting ---- */

/* GMON_DUMP_SIGNAL's numbered snapshot n (signals.c calls it). */
static void write_snapshot(unsigned long n)
{
	(void)gmon_write_named(n, 0);
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
#ifdef GMON_UW_CFI
	if (gmon_set.stacks)
		gmon_ehobjs_init(); /* the objects the stack walk unwinds through */
#endif
	gmon_tables_init();
	gmon_cputime_init();
	gmon_sigmask_init(thread_start);
	have_exit_key = pthread_key_create(&exit_key, thread_gone) == 0;
	if (gmon_hist_init(lo, hi - lo) != 0) {
		give_up("cannot map the histogram");
		return -1;
	}
	pthread_atfork(NULL, NULL, after_fork_child);
	__atomic_store_n(&gmon_p.phase, GMON_RUNNING, __ATOMIC_RELEASE);
	/* The starting thread (normally the main one) is sampled from now
	   on, even if it never calls a profiled function again. */
	if (gmon_cur == NULL)
		thread_setup();
	moncontrol(1);
	gmon_signals_init(_mcleanup, write_snapshot);
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

/*
 * The histogram's timers and, with GMON_CLOCK=wall, offcpu.c's sampler
 * of the threads that wait, switched together.  Without its sampler the
 * wall clock is the CPU clock (and the file says so).
 */
static void sampling_start(void)
{
	if (gmon_hist_start() && gmon_set.clock == GMON_CLOCK_WALL &&
	    gmon_offcpu_start() != 0)
		gmon_set.clock = GMON_CLOCK_CPU;
}

static void sampling_stop(void)
{
	if (gmon_hist_on() && gmon_set.clock == GMON_CLOCK_WALL)
		gmon_offcpu_stop();
	gmon_hist_stop();
}

/* Recording and sampling are switched together, as in glibc. */
void moncontrol(int mode)
{
	if (__atomic_load_n(&gmon_p.phase, __ATOMIC_ACQUIRE) != GMON_RUNNING)
		return;
	if (mode) {
		sampling_start();
		gmon_set_limit(gmon_p.textsize);
	} else {
		gmon_set_limit(0);
		sampling_stop();
	}
}

/* ---- stopping ---- */

/* Append ", N what" to buf when n is not 0. */
static void add_part(char *buf, size_t size, uint64_t n, const char *what)
{
	if (n == 0)
		return;
	size_t len = strlen(buf);
	snprintf(buf + len, size - len, "%s%llu %s", len ? ", " : "",
	         (unsigned long long)n, what);
}

/* Threads alive at the exit write that block SIGPROF for real are not
   sampled (sigmask.c), nor were those that exited so; names in buf. */
static uint64_t unsampled_threads(char *buf, size_t size)
{
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		if (__atomic_load_n(&t->owner, __ATOMIC_ACQUIRE) == GMON_TABLE_OWNED)
			gmon_sigmask_check_thread(__atomic_load_n(&t->tid, __ATOMIC_ACQUIRE));
	return gmon_sigmask_unsampled(buf, size);
}

/*
 * At exit: one line for everything that was not recorded, naming each
 * cause that occurred, and nothing when all was recorded.  The counts
 * of every table (live and pooled) are added up.
 */
static void report_losses(void)
{
	uint64_t cap = 0, busy = 0, nomem = 0, lib_samples, lib_calls;
	gmon_shlibs_losses(&lib_samples, &lib_calls);
	cap += lib_calls;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		cap += t->lost_cap;
		busy += t->lost_busy;
		nomem += t->lost_nomem;
	}
	nomem += __atomic_load_n(&gmon_nomem_calls, __ATOMIC_RELAXED);
	char what[64], buf[400] = "", names[128], blocked[256];
	snprintf(what, sizeof what, "calls beyond the arc cap (GMON_MAXARCS=%lu)",
	         gmon_tables_cap());
	add_part(buf, sizeof buf, cap, what);
	add_part(buf, sizeof buf, busy,
	         "calls from signal handlers that interrupted the recorder");
	add_part(buf, sizeof buf, nomem, "calls for lack of memory");
	add_part(buf, sizeof buf, gmon_hist_lost(),
	         "samples outside the program's text");
	add_part(buf, sizeof buf, lib_samples,
	         "samples in no known object or beyond the sample table");
	add_part(buf, sizeof buf, gmon_stacks_lost(),
	         "call stacks (the table of distinct stacks was full: "
	         "raise GMON_STACK_TABLE)");
	uint64_t unsampled = unsampled_threads(names, sizeof names);
	snprintf(blocked, sizeof blocked, "%s CPU time (blocking SIGPROF where "
	         "libgmon cannot see it: %s)", unsampled > 1 ? "threads'" : "thread's",
	         names);
	add_part(buf, sizeof buf, unsampled, blocked);
	if (buf[0] != '\0')
		gmon_say("not recorded: %s", buf);
}

/* Stop recording and write, if the runtime is running. */
static void stop_and_write(void)
{
	int expect = GMON_RUNNING;
	if (!__atomic_compare_exchange_n(&gmon_p.phase, &expect, GMON_DONE, 0,
	                                 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	gmon_set_limit(0);
	sampling_stop();
	gmon_write_profile();
	report_losses();
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
#ifdef GMON_PRELOAD
	/* A shared object: the executable is found from its entry point. */
	if (gmon_preload_text(lo, hi))
		return;
#endif
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
#ifdef GMON_PRELOAD
/* glibc passes the environment to constructors; under -z initfirst this
   runs before the C library's own initializer has set environ. */
__attribute__((constructor(101))) static void gmon_autostart(int argc, char **argv,
                                                               char **envp)
{
	(void)argc;
	(void)argv;
#else
__attribute__((constructor(101))) static void gmon_autostart(void)
{
#endif
	uintptr_t lo, hi;
#ifdef GMON_PRELOAD
	/* libgmon-preload.so: started by the loader (-z initfirst: before
	   the other objects' constructors, which may start threads); it
	   stays out of a program that links a libgmon of its own. */
#ifdef __GLIBC__
	gmon_env_keep(envp);
#else
	(void)envp; /* musl sets environ first and passes nothing */
	gmon_env_keep(NULL);
#endif
	if (gmon_preload_stand_aside()) {
		__atomic_store_n(&start_claimed, 1, __ATOMIC_RELEASE);
		return;
	}
#endif
	text_bounds(&lo, &hi);
	if (start(lo, hi) == 1) {
		atexit(_mcleanup);
#ifdef GMON_PRELOAD
		gmon_preload_watch();
#endif
	}
}
