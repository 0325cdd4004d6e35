/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench/shlibs/main.c - the program of bench/shlibs.sh.  "fib N" calls the
 * shared library's recursive fib (fib(N) makes about 1.6^N calls, all
 * inside the library); "plt N" makes N calls from the program into the C
 * library through the PLT (getppid, a system call that does almost
 * nothing).  Prints the calls made and the CPU seconds they took,
 * start-up and the profile write excluded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

long lib_fib(int n);

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long fib_calls(int n)
{
	long a = 1, b = 1;
	for (int i = 1; i < n; i++) {
		long c = a + b + 1;
		a = b;
		b = c;
	}
	return b;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	long n = atol(argv[2]), calls;
	double t0 = cpu_now();
	if (strcmp(argv[1], "fib") == 0) {
		volatile long r = lib_fib((int)n);
		(void)r;
		calls = fib_calls((int)n);
	} else {
		for (long i = 0; i < n; i++)
			(void)getppid();
		calls = n;
	}
	printf("%ld %.6f\n", calls, cpu_now() - t0);
	return 0;
}
