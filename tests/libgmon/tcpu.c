/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tcpu.c - the side file's CPU times (tests/libgmon/cputime.sh): thread
   "user" spins in a user-space loop and thread "kern" makes system calls
   (getppid and writes to /dev/null), each for about ARGV[1] ms of its
   own CPU time, then ends; thread "live" spins, then waits, still alive,
   while main dumps the profile to dump.out; main then joins it and
   returns.  Every figure the test compares is printed by the program
   itself, from the clocks that count the same thing as the record:
     thread NAME CPU_NS      (CLOCK_THREAD_CPUTIME_ID at the thread's end,
                             or for "live" just before the dump)
     process CPU_NS WALL_NS  (CLOCK_PROCESS_CPUTIME_ID, and CLOCK_MONOTONIC
                             since main began, at main's return)
   With a second argument "reset", main calls gmon_reset() once "user"
   and "kern" have ended, and prints "reset CPU_NS WALL_NS" (the same
   clocks then): times count from there on. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libgmon.h"

static long long budget_ns = 300000000; /* per thread */
static volatile unsigned long sink;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int live_ready, live_go;
static long long live_cpu;

static long long clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

__attribute__((noinline)) void spin(void)
{
	for (int i = 0; i < 100000; i++)
		sink += (unsigned long)i * 7;
}

__attribute__((noinline)) void syscalls(int fd)
{
	static const char byte = 'x';
	for (int i = 0; i < 200; i++) {
		sink += (unsigned long)getppid();
		if (write(fd, &byte, 1) != 1)
			sink++;
	}
}

static void *user_thread(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "user");
	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < budget_ns)
		spin();
	printf("thread user %lld\n", clock_ns(CLOCK_THREAD_CPUTIME_ID));
	return NULL;
}

static void *kern_thread(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "kern");
	int fd = open("/dev/null", O_WRONLY);
	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < budget_ns)
		syscalls(fd);
	close(fd);
	printf("thread kern %lld\n", clock_ns(CLOCK_THREAD_CPUTIME_ID));
	return NULL;
}

/* Spins, reports its CPU time, then waits (no CPU) until main has
   dumped, so the dump finds it alive with that much CPU. */
static void *live_thread(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "live");
	while (clock_ns(CLOCK_THREAD_CPUTIME_ID) < budget_ns)
		spin();
	pthread_mutex_lock(&lock);
	live_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	live_ready = 1;
	pthread_cond_broadcast(&cond);
	while (!live_go)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(int argc, char **argv)
{
	long long t0 = clock_ns(CLOCK_MONOTONIC);
	if (argc > 1)
		budget_ns = atoll(argv[1]) * 1000000LL;
	setvbuf(stdout, NULL, _IOLBF, 0);
	pthread_t u, k, l;
	pthread_create(&u, NULL, user_thread, NULL);
	pthread_create(&k, NULL, kern_thread, NULL);
	pthread_join(u, NULL);
	pthread_join(k, NULL);
	if (argc > 2 && strcmp(argv[2], "reset") == 0) {
		if (gmon_reset() != 0)
			perror("gmon_reset");
		printf("reset %lld %lld\n", clock_ns(CLOCK_PROCESS_CPUTIME_ID),
		       clock_ns(CLOCK_MONOTONIC) - t0);
	}
	pthread_create(&l, NULL, live_thread, NULL);
	pthread_mutex_lock(&lock);
	while (!live_ready)
		pthread_cond_wait(&cond, &lock);
	printf("thread live %lld\n", live_cpu);
	if (gmon_dump("dump.out") != 0)
		perror("gmon_dump");
	live_go = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(l, NULL);
	printf("process %lld %lld\n", clock_ns(CLOCK_PROCESS_CPUTIME_ID),
	       clock_ns(CLOCK_MONOTONIC) - t0);
	return 0;
}
