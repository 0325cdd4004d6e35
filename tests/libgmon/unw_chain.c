/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * unw_chain.c - call chains through code without frame pointers, for
 * tests/libgmon/unwind.sh: in each of 8 rounds, in an order that
 * changes, (q) phase_qsort sorts with the C library's qsort and a
 * comparator, cmp_work, that does all the work (each comparison some
 * microseconds: qsort's own part is far below a point); (l) phase_lib
 * calls unw_lib_run (unw_lib.c: -O2 -fomit-frame-pointer, frame
 * register full of junk), which works itself and calls back lib_cb,
 * which works too, each part several ticks long (the loops' speeds are
 * measured first); (m) main works in its own body.  Every block is of
 * random length, several kernel ticks long.  The program measures with
 * CLOCK_THREAD_CPUTIME_ID the CPU time of each phase and of the
 * callbacks, and prints them in seconds:
 *   total T  qsort Q  lib L  cb C  main M  libcal K
 * (K: the measure of the library's speed, a call of unw_lib_run from
 * main itself).
 * Arguments: the seconds of CPU the whole run should take (default 2),
 * and "noqsort" to leave the qsort phase out (a C library without
 * call-frame information, as musl's: no unwinder can pass its qsort).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void unw_lib_run(void (*cb)(long), const long *own, const long *arg, int n);
#ifdef UNW_DLOPEN
/* Built with -DUNW_DLOPEN: the library is dlopen'ed (path in $UNW_LIB)
   once the profile runs, so the stack walk learns of it late. */
#include <dlfcn.h>
static void (*lib_run)(void (*)(long), const long *, const long *, int);
#else
#define lib_run unw_lib_run
#endif

volatile unsigned long sink;
static double t_cb;
static long cmp_n = 2000;
static unsigned rng = 2463534242u;

static unsigned next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void loop(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i * 7u;
}

__attribute__((noinline)) int cmp_work(const void *a, const void *b)
{
	for (long i = 0; i < cmp_n; i++)
		sink += (unsigned long)i * 5u;
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

__attribute__((noinline)) void lib_cb(long n)
{
	double t0 = cpu();
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i * 3u;
	t_cb += cpu() - t0;
}

/* Iterations of the plain loop per second of CPU. */
static double per_second(void)
{
	double t0 = cpu();
	loop(20000000);
	double t = cpu() - t0;
	return t > 0 ? 20000000 / t : 1e9;
}

__attribute__((noinline)) void phase_qsort(int n)
{
	int *v = malloc((size_t)n * sizeof *v);
	for (int i = 0; i < n; i++)
		v[i] = (int)(next_rand() % 100000);
	qsort(v, (size_t)n, sizeof *v, cmp_work);
	sink += (unsigned long)v[0];
	free(v);
}

/* Two rounds of the library's own work and the callback's, each from
   20% to 80% of the round: blocks of 2 to 8 ticks at the default run. */
__attribute__((noinline)) void phase_lib(double ips, double lib_ips, double sec)
{
	long own[2], arg[2];
	for (int i = 0; i < 2; i++) {
		double share = 0.2 + (next_rand() % 61) / 100.0;
		own[i] = (long)(lib_ips * sec / 2 * share);
		arg[i] = (long)(ips * sec / 2 * (1 - share));
	}
	lib_run(lib_cb, own, arg, 2);
}

__attribute__((noinline)) void cb_none(long n)
{
	sink += (unsigned long)n;
}

/* Iterations of the library's loop per second of CPU. */
static double lib_per_second(void)
{
	long own = 20000000, arg = 0;
	double t0 = cpu();
	lib_run(cb_none, &own, &arg, 1);
	double t = cpu() - t0;
	return t > 0 ? 20000000 / t : 1e9;
}

int main(int argc, char **argv)
{
	double start = cpu();
	double want = argc > 1 ? atof(argv[1]) : 2.0;
	int phases = argc > 2 && strcmp(argv[2], "noqsort") == 0 ? 2 : 3;
	double ips = per_second();
#ifdef UNW_DLOPEN
	void *h = dlopen(getenv("UNW_LIB"), RTLD_NOW);
	if (h == NULL || (*(void **)&lib_run = dlsym(h, "unw_lib_run")) == NULL) {
		fprintf(stderr, "cannot load $UNW_LIB: %s\n", dlerror());
		return 1;
	}
#endif
	/* cmp_n: about 20 microseconds a comparison. */
	cmp_n = (long)(ips * 20e-6);
	double t_cal = cpu();
	double lib_ips = lib_per_second();  /* unw_lib_run's, not phase_lib's */
	t_cal = cpu() - t_cal;
	double tq = 0, tl = 0, tm = 0;
	for (int round = 0; round < 8; round++) {
		double sec = want / 8 / phases * (0.6 + (next_rand() % 81) / 100.0);
		for (int k = 0; k < phases; k++) {
			double t0 = cpu();
			switch ((round + k) % phases + 3 - phases) {
			case 0: /* n log2 n comparisons of 20 us: n = 800 is about 0.15 s */
				phase_qsort((int)(800 * sec / 0.15));
				tq += cpu() - t0;
				break;
			case 1:
				phase_lib(ips, lib_ips, sec);
				tl += cpu() - t0;
				break;
			default:
				for (long i = 0; i < (long)(ips * sec); i++)
					sink += (unsigned long)i * 7u;
				tm += cpu() - t0;
				break;
			}
		}
	}
	double total = cpu() - start;
	printf("total %.6f qsort %.6f lib %.6f cb %.6f main %.6f libcal %.6f\n", total, tq,
	       tl, t_cb, tm, t_cal);
	return 0;
}
