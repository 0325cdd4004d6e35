/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pre_probe.h - the preload test's view of the ticks the runtime gets
 * when it has only its POSIX timers (under qemu-user, which refuses perf
 * events): with PRE_PROBE set in the environment, each thread that
 * starts a probe gets a second POSIX timer on its own CPU clock, with the
 * runtime's period (1 ms, GMON_RATE's default), signalling SIGURG to
 * that thread.  The kernel checks every CPU timer of a thread at the
 * same scheduler ticks, so the probe's signals come when the runtime's
 * do and carry the same number of periods (1 + si_overrun), to within
 * one period (the two were armed at different times).  From them the
 * program tells the test (pre_main.c's "probe" lines):
 *   pre_probe_carry  the thread's CPU time not yet credited by a signal:
 *                    what a signal still to come will credit to
 *                    whatever runs then (a function's sampled time is its
 *                    measured time plus the carry at its start minus
 *                    the carry at its end);
 *   sum2             the sum of the squared credits (seconds^2), whose
 *                    ratio to their sum is the mean credit a second of
 *                    CPU comes in: the variance where code alternates
 *                    faster than the ticks (the qsort comparator);
 *   first            the thread's first credit (seconds), which the
 *                    runtime may not count: a signal that comes before
 *                    the new thread's table is set up counts nothing.
 * Without PRE_PROBE nothing is armed and the functions return 0.
 * Each object that includes this has its own copy; the signal handler
 * reads the probe from the signal's value, so any copy serves any
 * thread.
 */
#ifndef PRE_PROBE_H
#define PRE_PROBE_H

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PRE_PROBE_NS 1000000L

struct pre_probe {
	int on;
	timer_t timer;
	double armed;          /* thread CPU seconds when armed */
	volatile long periods; /* credited so far */
	volatile double sum2;  /* of the credits, in seconds^2 */
	volatile double first; /* the first credit, in seconds */
};

static void pre_probe_tick(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	struct pre_probe *p = si->si_value.sival_ptr;
	if (si->si_code != SI_TIMER || p == NULL)
		return;
	long w = 1 + (si->si_overrun > 0 ? si->si_overrun : 0);
	double s = w * (PRE_PROBE_NS / 1e9);
	if (p->periods == 0)
		p->first = s;
	p->periods += w;
	p->sum2 += s * s;
}

static inline double pre_probe_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Arm p for the calling thread, if PRE_PROBE is set. */
static inline void pre_probe_start(struct pre_probe *p)
{
	memset(p, 0, sizeof *p);
	if (getenv("PRE_PROBE") == NULL)
		return;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = pre_probe_tick;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	/* Both timers fire at the same tick: SIGPROF waits until this
	   handler has returned, so the runtime samples the interrupted
	   code, not the start of this handler. */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGPROF);
	sigaction(SIGURG, &sa, NULL);
	struct sigevent ev;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGURG;
	ev.sigev_value.sival_ptr = p;
#ifdef sigev_notify_thread_id /* musl, glibc 2.35 and later */
	ev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
#else
	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
#endif
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &p->timer) != 0)
		return;
	struct itimerspec it = { { 0, PRE_PROBE_NS }, { 0, PRE_PROBE_NS } };
	p->armed = pre_probe_now();
	if (timer_settime(p->timer, 0, &it, NULL) == 0)
		p->on = 1;
}

/* The calling thread's CPU time not yet credited (seconds). */
static inline double pre_probe_carry(struct pre_probe *p)
{
	if (!p->on)
		return 0;
	return pre_probe_now() - p->armed - p->periods * (PRE_PROBE_NS / 1e9);
}

static inline void pre_probe_stop(struct pre_probe *p)
{
	if (p->on)
		timer_delete(p->timer);
	p->on = 0;
}

#endif
