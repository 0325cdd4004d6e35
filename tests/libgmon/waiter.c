/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * waiter.c - threads that wait while the main thread computes, for
 * GMON_CLOCK=wall (wall.sh): reader() blocks in read() on a pipe and
 * cond_waiter() in pthread_cond_wait, while spinner() computes for
 * SECONDS of wall time (argument, default 0.4), then wakes both.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "testfns.h"

static int fds[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int go;
volatile unsigned long sink;

KEEP void *reader(void *arg)
{
	char c;
	(void)arg;
	while (read(fds[0], &c, 1) < 0)
		;
	return NULL;
}

KEEP void *cond_waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!go)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

KEEP void spinner(double seconds)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < seconds);
}

int main(int argc, char **argv)
{
	double seconds = argc > 1 ? atof(argv[1]) : 0.4;
	pthread_t a, b;
	if (pipe(fds) != 0)
		return 1;
	pthread_create(&a, NULL, reader, NULL);
	pthread_create(&b, NULL, cond_waiter, NULL);
	spinner(seconds);
	pthread_mutex_lock(&lock);
	go = 1;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	if (write(fds[1], "x", 1) != 1)
		return 1;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
