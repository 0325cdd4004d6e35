/* SPDX-License-Identifier: GPL-3.0-or-later */
/* unw_sig.c - for tests/libgmon/unwind.sh: ticks inside a signal
   handler.  main spins in work() (and in unw_lib_run's frameless loop,
   unw_lib.c, with its frame register full of junk); every 25 ms a
   SIGALRM runs on_sig, which spends about 5 ms of CPU in in_handler.
   A tick in in_handler must be recorded through on_sig, past the
   kernel's signal frame, into the interrupted code and up to main.
   Argument: the CPU seconds to run (default 1.5). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

void unw_lib_run(void (*cb)(long), const long *own, const long *arg, int n);
#ifdef UNW_DLOPEN
/* Built with -DUNW_DLOPEN: the library is dlopen'ed (path in $UNW_LIB)
   once the profile runs, so the walk's first meeting with it makes
   libgmon refresh its objects, which must keep the trampoline. */
#include <dlfcn.h>
#include <stdio.h>
static void (*lib_run)(void (*)(long), const long *, const long *, int);
#else
#define lib_run unw_lib_run
#endif

volatile unsigned long sink;
static long handler_n = 1000000;

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void in_handler(void)
{
	for (long i = 0; i < handler_n; i++)
		sink += (unsigned long)i;
}

/* in_handler's loop under another name, to measure its speed: no tick
   in in_handler may come from outside the handler. */
__attribute__((noinline)) void probe(void)
{
	for (long i = 0; i < handler_n; i++)
		sink += (unsigned long)i;
}

/* At most a fifth of the CPU: on a loaded machine the 25 ms of wall
   time between signals hold little CPU, and the handler must not eat
   all of it. */
static double last_end;

static void on_sig(int sig)
{
	(void)sig;
	if (cpu() - last_end < 0.02)
		return;
	in_handler();
	last_end = cpu();
}

__attribute__((noinline)) void work(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i * 3u;
}

__attribute__((noinline)) void cb_none(long n)
{
	sink += (unsigned long)n;
}

int main(int argc, char **argv)
{
	double want = argc > 1 ? atof(argv[1]) : 1.5, t0 = cpu();
#ifdef UNW_DLOPEN
	void *h = dlopen(getenv("UNW_LIB"), RTLD_NOW);
	if (h == NULL || (*(void **)&lib_run = dlsym(h, "unw_lib_run")) == NULL) {
		fprintf(stderr, "cannot load $UNW_LIB: %s\n", dlerror());
		return 1;
	}
#endif
	probe();
	double t = cpu() - t0;
	if (t > 0)
		handler_n = (long)(handler_n * 0.005 / t);  /* about 5 ms */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sig;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 25000 }, { 0, 25000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	/* Rounds counted, not timed: no clock read in the loop, where a
	   signal would often interrupt it (at the system call's return) in
	   the C library, whose musl build has no call-frame information. */
	long own = 2000000, arg = 0;
	double t1 = cpu();
	work(2000000);
	lib_run(cb_none, &own, &arg, 1);
	double round = cpu() - t1;
	long rounds = round > 0 ? (long)(want / round) : 100;
	for (long i = 0; i < rounds; i++) {
		work(2000000);
		lib_run(cb_none, &own, &arg, 1);
	}
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);
	return 0;
}
