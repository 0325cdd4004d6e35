/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * busy.c - an ordinary (not profiled) program that uses SECONDS of CPU
 * (argument) and exits 0: the program execer.c turns into.
 */
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.5;
	struct timespec t;
	do {
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while (t.tv_sec + t.tv_nsec / 1e9 < secs);
	return 0;
}
