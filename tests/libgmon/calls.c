/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * calls.c - a deterministic -pg program for tests/libgmon.sh: every
 * caller/callee count is known (calls.expected).  It also checks that the
 * hook preserves argument registers: fpmix takes 8 doubles and 6 integers
 * (all in registers on x86-64) and vsum is variadic (%al live), and the
 * first profiled call of a new thread, which takes the runtime's slow
 * path, is fpmix itself.  A wrong result makes the program exit 1.
 * An optional argument is the exit status to use otherwise.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "testfns.h"

volatile int sink;
volatile double dsink;

KEEP int leaf(int x)
{
	sink += x;
	return x + 1;
}

KEEP int twice(int x)
{
	int a = leaf(x);
	int b = leaf(a);
	sink = b;
	return a + b;
}

KEEP int rec(int n)
{
	if (n <= 0) {
		sink++;
		return 0;
	}
	int r = rec(n - 1);
	sink = r;
	return r + 1;
}

#define FPMIX_BODY \
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + \
	       i1 * 10 + i2 * 100 + i3 * 1000 + i4 * 3 + i5 * 7 + i6 * 11;

KEEP double fpmix(double a, double b, double c, double d, double e, double f,
                  double g, double h, int i1, long i2, int i3, long i4,
                  int i5, long i6)
{
	FPMIX_BODY
}

NOPROF static double fpmix_ref(double a, double b, double c, double d,
                               double e, double f, double g, double h, int i1,
                               long i2, int i3, long i4, int i5, long i6)
{
	FPMIX_BODY
}

KEEP double vsum(int n, ...)
{
	va_list ap;
	double s = 0;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, double);
	va_end(ap);
	return s;
}

KEEP static int hidden_static(int x)
{
	int r = leaf(x);
	sink = r;
	return r * 2;
}

int (*const table[2])(int) = { leaf, hidden_static };

KEEP int indirect(int k)
{
	int s = 0;
	for (int i = 0; i < k; i++)
		s += table[i & 1](i);
	sink = s;
	return s;
}

static int bad;

NOPROF KEEP static void check_fp(int i)
{
	double x = i * 0.5;
	double got = fpmix(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7,
	                   i, i + 1L, i + 2, i + 3L, i + 4, i + 5L);
	double want = fpmix_ref(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7,
	                        i, i + 1L, i + 2, i + 3L, i + 4, i + 5L);
	if (got != want) {
		fprintf(stderr, "calls: fpmix(%d) = %g, want %g\n", i, got, want);
		bad = 1;
	}
}

/* Not instrumented: fpmix is this thread's first profiled call. */
NOPROF static void *fp_thread(void *arg)
{
	check_fp(*(int *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	for (int i = 0; i < 1000; i++)
		sink = twice(i);
	for (int i = 0; i < 7; i++)
		sink = rec(10);
	for (int i = 0; i < 300; i++)
		check_fp(i);
	for (int i = 0; i < 50; i++) {
		double s = vsum(3, 1.25, 2.5, i * 1.0);
		if (s != 3.75 + i) {
			fprintf(stderr, "calls: vsum = %g, want %g\n", s, 3.75 + i);
			bad = 1;
		}
	}
	sink = indirect(100);
	pthread_t t;
	int arg = 42;
	if (pthread_create(&t, NULL, fp_thread, &arg) == 0)
		pthread_join(t, NULL);
	else
		bad = 1;
	if (bad)
		return 1;
	return argc > 1 ? atoi(argv[1]) : 0;
}
