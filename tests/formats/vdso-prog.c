/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * vdso-prog.c - owns the vDSO test's program (tests/formats/vdso.sh):
 * reads the clock through clock_gettime, which the C library hands to
 * the kernel's vDSO, until it has used 0.3 s of CPU time, so that most
 * of its samples fall in the vDSO.  Built without -pg.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

static double cpu_seconds(void)
{
	struct rusage r;
	getrusage(RUSAGE_SELF, &r);
	return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) +
		(double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

int main(void)
{
	struct timespec t;
	unsigned long sum = 0;
	do {
		for (int i = 0; i < 100000; i++) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			sum += (unsigned long)t.tv_nsec;
		}
	} while (cpu_seconds() < 0.3);
	return sum == 1; /* never: keeps the loop */
}
