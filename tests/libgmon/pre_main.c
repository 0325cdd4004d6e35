/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pre_main.c - the unmodified program of the preload test (built without
 * -pg, linked with libpre.so): each of six functions spends about
 * SECONDS of CPU (argument, default 0.2) and the program prints what it
 * measured of itself, one "function seconds" line each:
 *   main_burn   in the main thread
 *   thr_burn    in a thread the program creates
 *   lib_burn    in its shared library (pre_lib.c)
 *   lib_early   in a thread that library's constructor started
 *   cmp_slow    qsort's comparator (the C library calls it), its CPU
 *               time read around every call
 *   mod_burn    in a module it dlopens and dlcloses (pre_mod.c; its
 *               path is the second argument)
 * and forks a child that runs child_burn for a tenth of SECONDS and
 * exits (its own profile, gmon.out.PID).  PRE_SECONDS in the environment
 * sets lib_early's time (the constructor runs before main); PRE_CMP_LOOP
 * the comparator's work between its two clock reads (default 4000 turns,
 * about 20 microseconds natively; emulated, where each read is a system
 * call, the test asks for more).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pre_burn.h"
#include "testfns.h"

double lib_burn(double seconds);
double lib_early_join(void);

static double secs, thr_secs, cmp_secs;
static int cmp_loop = 4000;

KEEP double main_burn(double s)
{
	return pre_burn(s);
}

KEEP static void *thr_burn(void *arg)
{
	(void)arg;
	thr_secs = pre_burn(secs);
	return NULL;
}

KEEP void child_burn(double s)
{
	pre_burn(s);
}

/* About 20 microseconds a comparison; the clock is read around each. */
KEEP static int cmp_slow(const void *a, const void *b)
{
	double t0 = pre_now();
	for (int i = 0; i < cmp_loop; i++)
		pre_sink += (unsigned long)i ^ (pre_sink >> 3);
	int x = *(const int *)a, y = *(const int *)b;
	cmp_secs += pre_now() - t0;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	secs = argc > 1 ? atof(argv[1]) : 0.2;
	const char *loop = getenv("PRE_CMP_LOOP");
	if (loop != NULL && atoi(loop) > 0)
		cmp_loop = atoi(loop);
	const char *mod = argc > 2 ? argv[2] : "./premod.so";
	pthread_t th;
	if (pthread_create(&th, NULL, thr_burn, NULL) != 0)
		return 1;
	double m = main_burn(secs);
	double l = lib_burn(secs);
	int v[1000];
	unsigned r = 12345;
	while (cmp_secs < secs) {
		for (int i = 0; i < 1000; i++)
			v[i] = (int)((r = r * 1103515245u + 12345u) >> 8);
		qsort(v, 1000, sizeof v[0], cmp_slow);
	}
	void *h = dlopen(mod, RTLD_NOW);
	double (*mb)(double) = h ? (double (*)(double))dlsym(h, "mod_burn") : NULL;
	if (mb == NULL) {
		fprintf(stderr, "cannot load %s: %s\n", mod, dlerror());
		return 1;
	}
	double d = mb(secs);
	dlclose(h);
	pid_t pid = fork();
	if (pid == 0) {
		child_burn(secs / 10);
		exit(0);
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;
	pthread_join(th, NULL);
	double e = lib_early_join();
	printf("main_burn %.4f\nthr_burn %.4f\nlib_burn %.4f\nlib_early %.4f\ncmp_slow %.4f\nmod_burn %.4f\nchild %d\n",
	       m, thr_secs, l, e, cmp_secs, d, (int)pid);
	return 0;
}
