/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * nocounts-prog.c - the program tests/formats/nocounts.sh builds without
 * -pg (linked with libgmon only, as an unmodified program is run under
 * the preload runtime): main calls work_a and work_b, a thread calls
 * work_b, and work_b calls into a shared library (nocounts-lib.c).
 * Each function spends tens of milliseconds, so that each has samples.
 */
#include <pthread.h>

unsigned long lib_spin(unsigned long n);

volatile unsigned long sink;

__attribute__((noinline)) void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ (sink >> 3);
}

/* The calls after spin() keep them from being tail calls, which would
   take work_a and work_b off the stacks. */
__attribute__((noinline)) void work_a(void)
{
	spin(30000000UL);
	sink++;
}

__attribute__((noinline)) void work_b(void)
{
	spin(20000000UL);
	sink += lib_spin(20000000UL);
	sink++;
}

static void *thread_main(void *arg)
{
	(void)arg;
	work_b();
	return 0;
}

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, 0, thread_main, 0) != 0)
		return 1;
	work_a();
	work_b();
	pthread_join(t, 0);
	return sink == 42;
}
