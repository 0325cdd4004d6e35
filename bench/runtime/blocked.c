/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * blocked.c - the idle program of bench/wall.sh: T threads blocked in
 * read() on a pipe while the main thread sleeps SECONDS, so that all
 * T + 1 are blocked and the process's CPU time is what the profiler
 * spends watching them.  Prints "wall_ns cpu_ns" of that interval.
 *
 *   blocked THREADS SECONDS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static int fds[2];

__attribute__((noinline, noipa)) void *waiter(void *arg)
{
	char c;
	(void)arg;
	while (read(fds[0], &c, 1) < 0)
		;
	return NULL;
}

__attribute__((noinline, noipa)) void pause_for(double s)
{
	struct timespec d = { (time_t)s, (long)((s - (time_t)s) * 1e9) };
	while (nanosleep(&d, &d) != 0)
		;
}

static long long ns(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc != 3 || pipe(fds) != 0)
		return 2;
	int threads = atoi(argv[1]);
	double secs = atof(argv[2]);
	pthread_t *t = calloc((size_t)threads + 1, sizeof *t);
	if (t == NULL)
		return 2;
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, waiter, NULL);
	pause_for(0.05); /* every waiter is in read() */
	long long w0 = ns(CLOCK_MONOTONIC), c0 = ns(CLOCK_PROCESS_CPUTIME_ID);
	pause_for(secs);
	long long w1 = ns(CLOCK_MONOTONIC), c1 = ns(CLOCK_PROCESS_CPUTIME_ID);
	close(fds[1]);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	printf("%lld %lld\n", w1 - w0, c1 - c0);
	return 0;
}
