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
 * call, the test asks for more).  With PRE_PROBE set it also prints what
 * pre_probe.h sees of the ticks, for the test's window:
 *   cost READ CHUNK          seconds of one clock read and of one of
 *                            pre_burn's chunks of work between reads
 *   probe NAME T IN OUT SUM2 CALLS FIRST
 *                            per function: the CPU time of its phase (its
 *                            burn; for cmp_slow the whole sorting loop,
 *                            qsort's own code included, and CALLS the
 *                            comparisons, 0 for the others), the carries
 *                            at its start and end, the sum of its squared
 *                            credits, and for those that start a thread
 *                            (thr_burn, lib_early) its first credit
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pre_burn.h"
#include "pre_probe.h"
#include "testfns.h"

double lib_burn(double seconds);
double lib_early_join(void);
void lib_early_probe(double *in, double *out, double *sum2, double *first);

static double secs, thr_secs, cmp_secs;
static int cmp_loop = 4000;
static long cmp_calls;
static struct pre_probe thr_probe;
static double thr_in, thr_out, thr_sum2, thr_first;

KEEP double main_burn(double s)
{
	return pre_burn(s);
}

KEEP static void *thr_burn(void *arg)
{
	(void)arg;
	pre_probe_start(&thr_probe);
	thr_in = pre_probe_carry(&thr_probe);
	double s2 = thr_probe.sum2;
	thr_secs = pre_burn(secs);
	thr_out = pre_probe_carry(&thr_probe);
	thr_sum2 = thr_probe.sum2 - s2;
	thr_first = thr_probe.first;
	pre_probe_stop(&thr_probe);
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
	cmp_calls++;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	secs = argc > 1 ? atof(argv[1]) : 0.2;
	const char *loop = getenv("PRE_CMP_LOOP");
	if (loop != NULL && atoi(loop) > 0)
		cmp_loop = atoi(loop);
	const char *mod = argc > 2 ? argv[2] : "./premod.so";
	struct pre_probe mp;
	pre_probe_start(&mp);
	/* (the probe's figures: see above; c[] the carries, q[] the sums) */
	double c[8], q[8], rd = 0, chunk = 0;
	if (mp.on) {
		double t = pre_now();
		for (int i = 0; i < 2000; i++)
			pre_now();
		rd = (pre_now() - t) / 2001;
		t = pre_now();
		for (int k = 0; k < 20; k++)
			for (int i = 0; i < 200000; i++)
				pre_sink += (unsigned long)i ^ (pre_sink >> 3);
		chunk = (pre_now() - t) / 20;
	}
	pthread_t th;
	if (pthread_create(&th, NULL, thr_burn, NULL) != 0)
		return 1;
	c[0] = pre_probe_carry(&mp), q[0] = mp.sum2;
	double m = main_burn(secs);
	c[1] = pre_probe_carry(&mp), q[1] = mp.sum2;
	double l = lib_burn(secs);
	c[2] = pre_probe_carry(&mp), q[2] = mp.sum2;
	int v[1000];
	unsigned r = 12345;
	double sort0 = pre_now();
	c[3] = pre_probe_carry(&mp), q[3] = mp.sum2;
	while (cmp_secs < secs) {
		for (int i = 0; i < 1000; i++)
			v[i] = (int)((r = r * 1103515245u + 12345u) >> 8);
		qsort(v, 1000, sizeof v[0], cmp_slow);
	}
	c[4] = pre_probe_carry(&mp), q[4] = mp.sum2;
	double sort = pre_now() - sort0;
	void *h = dlopen(mod, RTLD_NOW);
	double (*mb)(double) = h ? (double (*)(double))dlsym(h, "mod_burn") : NULL;
	if (mb == NULL) {
		fprintf(stderr, "cannot load %s: %s\n", mod, dlerror());
		return 1;
	}
	c[5] = pre_probe_carry(&mp), q[5] = mp.sum2;
	double d = mb(secs);
	c[6] = pre_probe_carry(&mp), q[6] = mp.sum2;
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
	if (mp.on) {
		double ein, eout, esum2, efirst;
		lib_early_probe(&ein, &eout, &esum2, &efirst);
		printf("cost %.9f %.9f\n", rd, chunk);
		printf("probe main_burn %.6f %.6f %.6f %.9f 0 0\n", m, c[0], c[1], q[1] - q[0]);
		printf("probe lib_burn %.6f %.6f %.6f %.9f 0 0\n", l, c[1], c[2], q[2] - q[1]);
		printf("probe cmp_slow %.6f %.6f %.6f %.9f %ld 0\n", sort, c[3], c[4], q[4] - q[3],
		       cmp_calls);
		printf("probe mod_burn %.6f %.6f %.6f %.9f 0 0\n", d, c[5], c[6], q[6] - q[5]);
		printf("probe thr_burn %.6f %.6f %.6f %.9f 0 %.6f\n", thr_secs, thr_in, thr_out,
		       thr_sum2, thr_first);
		printf("probe lib_early %.6f %.6f %.6f %.9f 0 %.6f\n", e, ein, eout, esum2, efirst);
	}
	return 0;
}
