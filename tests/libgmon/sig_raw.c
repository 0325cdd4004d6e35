/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sig_raw.c - threads that block SIGPROF where libgmon cannot see it (the
 * rt_sigprocmask system call, not the C library's call) are not sampled,
 * and the exit line must count and name them (tests/libgmon/sigmask.sh).
 * "rawexit" blocks it, runs spin() and exits before the profile is
 * written; "rawlive" does the same and is still alive, waiting on a
 * pipe, when main returns; "plain" spins without blocking anything and
 * must not be named; nor must "early", which blocks it before its first
 * profiled call: libgmon finds it blocked when it sets the thread up,
 * and unblocks it (keeping it blocked in the program's view), so that
 * early_spin() is sampled.  Each spins 0.1 s of its CPU.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "testfns.h"

volatile unsigned long sink;
static int wait_pipe[2];

KEEP void spin(double secs)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < secs);
}

/* The kernel's own call: a 64-bit mask with SIGPROF's bit. */
NOPROF static void raw_block_sigprof(void)
{
	unsigned long long bit = 1ull << (SIGPROF - 1);
	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &bit, NULL, 8);
}

/* Profiled: the thread is set up at its entry, before it blocks. */
KEEP static void *thread(void *p)
{
	const char *name = p;
	prctl(PR_SET_NAME, name, 0, 0, 0);
	if (name[0] == 'r')
		raw_block_sigprof();
	spin(0.1);
	if (name[3] == 'l') {
		char c;
		ssize_t n = read(wait_pipe[0], &c, 1);
		(void)n;
	}
	return NULL;
}

KEEP void early_spin(double secs)
{
	spin(secs);
}

NOPROF static void *early(void *p)
{
	prctl(PR_SET_NAME, "early", 0, 0, 0);
	raw_block_sigprof();
	early_spin(0.1);
	return p;
}

int main(void)
{
	pthread_t t[4];
	if (pipe(wait_pipe) != 0 ||
	    pthread_create(&t[0], NULL, thread, "rawexit") != 0 ||
	    pthread_create(&t[1], NULL, thread, "plain") != 0 ||
	    pthread_create(&t[3], NULL, early, NULL) != 0)
		return 1;
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	pthread_join(t[3], NULL);
	if (pthread_create(&t[2], NULL, thread, "rawlive") != 0)
		return 1;
	/* rawlive has spun once its CPU clock shows 0.1 s. */
	clockid_t c;
	struct timespec ts = { 0, 0 };
	pthread_getcpuclockid(t[2], &c);
	while (ts.tv_sec == 0 && ts.tv_nsec < 100000000) {
		struct timespec ms = { 0, 10000000 };
		nanosleep(&ms, NULL);
		clock_gettime(c, &ts);
	}
	struct timespec ms = { 0, 50000000 };
	nanosleep(&ms, NULL);
	return 0;
}
