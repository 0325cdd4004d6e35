/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sig_pool.c - threads that block every signal are still sampled
 * (tests/libgmon/sigmask.sh).  Two workers, each with its own two
 * functions: "self" blocks every signal itself (pthread_sigmask with a
 * full set, as servers do), "inh" is created by a spawner thread that
 * blocked every signal before pthread_create (liblzma's thread pool), so
 * it inherits the full mask.  Each worker checks that it reads SIGPROF
 * as blocked, then alternates its alpha (3 units) and beta (1 unit)
 * blocks until it has used SECONDS of CPU (argument, default 0.8).  A
 * unit is 30 ms of CPU, and each block's length is drawn from 0.5 to 1.5
 * times its mean, so blocks are many ticks long and the ticks' phase at
 * their ends is random (tests/README, "Checks on sampled data").
 *
 * Each worker measures its blocks with its own CPU clock and prints
 *     WORKER ALPHA-CPU BETA-CPU     (seconds)
 * and the line "mask ok" for each worker that read its mask as set.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "testfns.h"

volatile unsigned long sink;
static double secs = 0.8;

NOPROF static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Inlined, so that each function's samples fall in its own code. */
static inline __attribute__((always_inline)) void loop(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i;
}

KEEP void self_alpha(long n) { loop(n); }
KEEP void self_beta(long n) { loop(n); }
KEEP void inh_alpha(long n) { loop(n); }
KEEP void inh_beta(long n) { loop(n); }
KEEP void calibrate(long n) { loop(n); }

struct worker {
	const char *name;
	void (*alpha)(long);
	void (*beta)(long);
	unsigned seed;
	double a, b;
	int mask_ok;
};

/* Iterations of loop() in 30 ms of this thread's CPU. */
NOPROF static long unit_iterations(void)
{
	double t0 = cpu_now();
	calibrate(2000000);
	double per = (cpu_now() - t0) / 2000000;
	return (long)(0.03 / (per > 0 ? per : 1e-9));
}

NOPROF static int reads_all_blocked(void)
{
	sigset_t now;
	pthread_sigmask(SIG_BLOCK, NULL, &now);
	return sigismember(&now, SIGPROF) == 1 && sigismember(&now, SIGINT) == 1;
}

NOPROF static void *work(void *p)
{
	struct worker *w = p;
	if (w->alpha == self_alpha) {
		sigset_t all;
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, NULL);
	}
	w->mask_ok = reads_all_blocked();
	long unit = unit_iterations();
	unsigned x = w->seed;
	double start = cpu_now();
	while (cpu_now() - start < secs) {
		long n[2];
		for (int k = 0; k < 2; k++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			n[k] = unit / 2 + (long)((double)(x >> 8) / (1 << 24) * unit);
		}
		double t0 = cpu_now();
		w->alpha(3 * n[0]);
		double t1 = cpu_now();
		w->beta(n[1]);
		double t2 = cpu_now();
		w->a += t1 - t0;
		w->b += t2 - t1;
	}
	return NULL;
}

/* Blocks every signal, then starts the worker, which inherits that. */
NOPROF static void *spawner(void *p)
{
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, NULL);
	pthread_t t;
	if (pthread_create(&t, NULL, work, p) != 0)
		return p;
	pthread_join(t, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		secs = atof(argv[1]);
	struct worker w[2] = {
		{ "self", self_alpha, self_beta, 2463534242u, 0, 0, 0 },
		{ "inh", inh_alpha, inh_beta, 88172645u, 0, 0, 0 },
	};
	pthread_t t[2];
	if (pthread_create(&t[0], NULL, work, &w[0]) != 0 ||
	    pthread_create(&t[1], NULL, spawner, &w[1]) != 0)
		return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 2; i++) {
		printf("%s %.4f %.4f\n", w[i].name, w[i].a, w[i].b);
		if (w[i].mask_ok)
			printf("mask ok %s\n", w[i].name);
	}
	return 0;
}
