/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tsample.c - sampling in threads: while main waits in pthread_join, two
 * threads each use SECONDS of CPU (argument, default 0.5) in worker(),
 * which calls no other profiled function (the only hook call it makes
 * comes from the C library's thread start, outside the profiled text).
 * The samples in worker() must add up to the CPU time used, which the
 * program prints: every thread is sampled, not just the main one.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "testfns.h"

volatile unsigned long sink;
static double secs;

NOPROF static double cpu_of(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

KEEP static void *worker(void *arg)
{
	(void)arg;
	double end = cpu_of(CLOCK_THREAD_CPUTIME_ID) + secs;
	while (cpu_of(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
	return NULL;
}

int main(int argc, char **argv)
{
	secs = argc > 1 ? atof(argv[1]) : 0.5;
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%.3f\n", cpu_of(CLOCK_PROCESS_CPUTIME_ID));
	return 0;
}
