/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * closer.c - for tests/libgmon/histogram.sh: a program that closes every
 * descriptor above 2, as daemons do, between two spells of CPU work
 * (before() and after(), SECONDS each, default 1).  libgmon's perf
 * event (ticks.c) goes with them, and its POSIX timer must go on
 * sampling the thread.  Prints "perf" when a perf event was among the
 * descriptors closed, "none" otherwise (a system that refuses perf
 * events gives libgmon the timer alone).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testfns.h"

volatile unsigned long sink;

static inline __attribute__((always_inline)) void spell(double secs)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 20000; i++)
			sink += (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
}

/* Close 3..1023; say whether one of them was a perf event. */
static int close_all(void)
{
	int perf = 0;
	for (int fd = 3; fd < 1024; fd++) {
		char path[64], what[64];
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		ssize_t n = readlink(path, what, sizeof what - 1);
		if (n > 0) {
			what[n] = '\0';
			perf |= strstr(what, "perf_event") != NULL;
		}
		close(fd);
	}
	return perf;
}

KEEP void before(double secs)
{
	spell(secs);
}

KEEP void after(double secs)
{
	spell(secs);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	before(secs);
	int perf = close_all();
	after(secs);
	puts(perf ? "perf" : "none");
	return 0;
}
