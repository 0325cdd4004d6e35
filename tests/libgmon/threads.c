/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * threads.c - exact counts under threads: three waves of 4 threads call
 * the same two functions at once while main calls one of them too.  The
 * later waves reuse the tables of exited threads, so this also checks
 * that a thread's exit loses none of its counts (threads.expected).
 */
#include <pthread.h>

#include "testfns.h"

#define THREADS 4
#define WAVES 3
#define CALLS 100000

volatile int sink;

KEEP int shared_b(int x)
{
	sink += x;
	return x ^ 1;
}

KEEP int shared_a(int x)
{
	int r = shared_b(x);
	sink = r;
	return r + 1;
}

KEEP static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < CALLS; i++) {
		sink = shared_a(i);
		if (i & 1)
			sink = shared_b(i);
	}
	return NULL;
}

int main(void)
{
	for (int w = 0; w < WAVES; w++) {
		pthread_t t[THREADS];
		for (int i = 0; i < THREADS; i++)
			if (pthread_create(&t[i], NULL, worker, NULL) != 0)
				return 1;
		if (w == WAVES - 1)
			for (int i = 0; i < 1000; i++)
				sink = shared_a(i);
		for (int i = 0; i < THREADS; i++)
			pthread_join(t[i], NULL);
	}
	return 0;
}
