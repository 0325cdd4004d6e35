/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fib.c - the call-heavy program of bench/runtime.sh: recursive fib(N) in
 * each of T threads, started together.  It prints the wall-clock and CPU
 * time of the computation alone (start-up and the profile write are left
 * out) as "wall_ns cpu_ns".
 *
 *   fib N THREADS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int n_arg;
static pthread_barrier_t go;
volatile long result;

__attribute__((noinline, noipa)) int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&go);
	result = fib(n_arg);
	return NULL;
}

static long long ns(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	n_arg = atoi(argv[1]);
	int threads = atoi(argv[2]);
	pthread_t t[64];
	if (threads < 1 || threads > 64)
		return 2;
	pthread_barrier_init(&go, NULL, (unsigned)threads + 1);
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	long long w0 = ns(CLOCK_MONOTONIC), c0 = ns(CLOCK_PROCESS_CPUTIME_ID);
	pthread_barrier_wait(&go);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	long long w1 = ns(CLOCK_MONOTONIC), c1 = ns(CLOCK_PROCESS_CPUTIME_ID);
	printf("%lld %lld\n", w1 - w0, c1 - c0);
	return 0;
}
