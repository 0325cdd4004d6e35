/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/libgmon/shlibs.c - GMON_SHLIBS: a program whose time goes to a
 * shared library it is linked with (shlib_hot.c), a module it dlopen's
 * and closes again (shlib_plug.c, path in argv[1]), and its own code, in
 * about equal thirds.  Each part's CPU time is measured here and printed
 * as "share hot P", "share plug P", "share main P" (percent of the three)
 * for the test to compare with the profile.  argv[2] sets the calls per
 * part (default 20000: each call does 4000 multiply-adds).  "getppid N"
 * instead calls getppid() N times from ppid_caller(), through the PLT,
 * for libgmon-audit.so.  "dumps N" writes N snapshots dump.1 ... dump.N
 * with gmon_dump() while a second thread keeps the library busy, so that
 * samples and arcs keep arriving while each side file is written.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libgmon.h"

uint64_t hot_loop(long n);
static volatile uint64_t sink;

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) uint64_t main_step(uint64_t x)
{
	for (int i = 0; i < 4000; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

__attribute__((noinline)) void main_work(long n)
{
	uint64_t x = 1;
	for (long i = 0; i < n; i++)
		x = main_step(x);
	sink = x;
}

__attribute__((noinline)) void ppid_caller(long n)
{
	for (long i = 0; i < n; i++)
		(void)getppid();
}

static double plug(const char *path, long n)
{
	void *h = dlopen(path, RTLD_NOW);
	if (h == NULL) {
		fprintf(stderr, "%s\n", dlerror());
		exit(1);
	}
	uint64_t (*work)(long) = (uint64_t (*)(long))dlsym(h, "plug_work");
	double t = cpu();
	for (int i = 0; i < 5; i++)
		sink = work(n / 5);
	t = cpu() - t;
	dlclose(h);
	return t;
}

static volatile int stop;

static void *busy_lib(void *arg)
{
	(void)arg;
	while (!stop)
		sink = hot_loop(10);
	return NULL;
}

static int dumps(long n)
{
	pthread_t t;
	if (pthread_create(&t, NULL, busy_lib, NULL) != 0)
		return 1;
	int bad = 0;
	for (long i = 1; i <= n; i++) {
		char name[32];
		snprintf(name, sizeof name, "dump.%ld", i);
		main_work(20);
		bad |= gmon_dump(name) != 0;
	}
	stop = 1;
	pthread_join(t, NULL);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "dumps") == 0)
		return dumps(atol(argv[2]));
	if (argc > 2 && strcmp(argv[1], "getppid") == 0) {
		ppid_caller(atol(argv[2]));
		return 0;
	}
	long n = argc > 2 ? atol(argv[2]) : 20000;
	double t0 = cpu();
	for (int i = 0; i < 10; i++)
		sink = hot_loop(n / 10);
	double t1 = cpu();
	main_work(n);
	double t2 = cpu();
	double tp = plug(argc > 1 ? argv[1] : "./libplug.so", n);
	double all = (t1 - t0) + (t2 - t1) + tp;
	printf("share hot %.1f\nshare main %.1f\nshare plug %.1f\n",
	       100 * (t1 - t0) / all, 100 * (t2 - t1) / all, 100 * tp / all);
	return 0;
}
