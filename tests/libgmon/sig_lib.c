/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sig_lib.c - a thread pool inside a shared library, built without -pg,
 * as liblzma's is (tests/libgmon/sigmask.sh, with sig_libmain.c).  Its
 * calls of pthread_sigmask and pthread_create must reach libgmon's, which
 * the executable exports, and with GMON_SHLIBS=1 its threads, which run
 * library code only, must be sampled.  sig_lib_run(secs, out) runs two
 * workers: "self" blocks every signal itself; "inh" is created while the
 * calling thread blocks every signal, which it then restores (liblzma's
 * way), so it inherits the full mask.  Each alternates its alpha (3
 * units of 30 ms) and beta (1 unit) blocks of random length, as
 * sig_pool.c does, until it has used secs of CPU, and measures them with
 * its CPU clock: out[] gets self's alpha and beta, inh's alpha and beta
 * (seconds), and mask_ok[] whether each read its mask as full.
 */
#include <pthread.h>
#include <signal.h>
#include <time.h>

volatile unsigned long sig_lib_sink;

static double cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static inline __attribute__((always_inline)) void loop(long n)
{
	for (long i = 0; i < n; i++)
		sig_lib_sink += (unsigned long)i;
}

__attribute__((noinline)) void lib_self_alpha(long n) { loop(n); }
__attribute__((noinline)) void lib_self_beta(long n) { loop(n); }
__attribute__((noinline)) void lib_inh_alpha(long n) { loop(n); }
__attribute__((noinline)) void lib_inh_beta(long n) { loop(n); }
__attribute__((noinline)) void lib_calibrate(long n) { loop(n); }

struct job {
	int self;
	double secs, a, b;
	int mask_ok;
};

static void *work(void *p)
{
	struct job *j = p;
	sigset_t all, now;
	sigfillset(&all);
	if (j->self)
		pthread_sigmask(SIG_SETMASK, &all, NULL);
	pthread_sigmask(SIG_BLOCK, NULL, &now);
	j->mask_ok = sigismember(&now, SIGPROF) == 1 && sigismember(&now, SIGINT) == 1;
	double t0 = cpu_now();
	lib_calibrate(2000000);
	double per = (cpu_now() - t0) / 2000000;
	long unit = (long)(0.03 / (per > 0 ? per : 1e-9));
	unsigned x = j->self ? 2463534242u : 88172645u;
	void (*alpha)(long) = j->self ? lib_self_alpha : lib_inh_alpha;
	void (*beta)(long) = j->self ? lib_self_beta : lib_inh_beta;
	double start = cpu_now();
	while (cpu_now() - start < j->secs) {
		long n[2];
		for (int k = 0; k < 2; k++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			n[k] = unit / 2 + (long)((double)(x >> 8) / (1 << 24) * unit);
		}
		double a = cpu_now();
		alpha(3 * n[0]);
		double b = cpu_now();
		beta(n[1]);
		double c = cpu_now();
		j->a += b - a;
		j->b += c - b;
	}
	return NULL;
}

int sig_lib_run(double secs, double out[4], int mask_ok[2])
{
	struct job j[2] = { { 1, secs, 0, 0, 0 }, { 0, secs, 0, 0, 0 } };
	pthread_t t[2];
	sigset_t all, old;
	if (pthread_create(&t[0], NULL, work, &j[0]) != 0)
		return -1;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(&t[1], NULL, work, &j[1]);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_join(t[0], NULL);
	if (err != 0)
		return -1;
	pthread_join(t[1], NULL);
	for (int i = 0; i < 2; i++) {
		out[2 * i] = j[i].a;
		out[2 * i + 1] = j[i].b;
		mask_ok[i] = j[i].mask_ok;
	}
	return 0;
}
