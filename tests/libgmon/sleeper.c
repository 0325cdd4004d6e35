/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sleeper.c - a known split of wall time for GMON_CLOCK=wall (wall.sh):
 * ROUNDS rounds (argument, default 10) in which napper() sleeps 50 ms in
 * nanosleep and cruncher() computes until it has used 50 ms of CPU time.
 * Under the CPU clock the split is all cruncher's whatever the machine's
 * speed or load.  Under the wall clock cruncher also spends the time it
 * waits for a CPU on a busy machine, so the program times both phases
 * with CLOCK_MONOTONIC and prints "share napper P", napper's percentage
 * of the two, for the test to compare with.
 *
 * With "fork" as second argument a child does the rounds while the
 * parent waits for it in parent_waits() (waitpid); the parent prints
 * the child's pid first (flushed before the child can print its share).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testfns.h"

#define SLICE_NS 50000000L

volatile unsigned long sink;

static long long wall_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static long cpu_since(const struct timespec *from)
{
	struct timespec now;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	return (now.tv_sec - from->tv_sec) * 1000000000L + now.tv_nsec - from->tv_nsec;
}

KEEP void napper(void)
{
	struct timespec d = { 0, SLICE_NS };
	while (nanosleep(&d, &d) != 0)
		;
}

KEEP void cruncher(void)
{
	struct timespec t0;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	while (cpu_since(&t0) < SLICE_NS)
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
}

KEEP int parent_waits(pid_t child)
{
	int status;
	while (waitpid(child, &status, 0) < 0)
		;
	return status;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 10;
	if (argc > 2 && strcmp(argv[2], "fork") == 0) {
		pid_t child = fork();
		if (child > 0) {
			printf("%d\n", (int)child);
			fflush(stdout);
			return parent_waits(child) != 0;
		}
	}
	long long nap = 0, crunch = 0;
	for (int r = 0; r < rounds; r++) {
		long long a = wall_ns();
		napper();
		long long b = wall_ns();
		cruncher();
		nap += b - a;
		crunch += wall_ns() - b;
	}
	printf("share napper %.2f\n", 100.0 * (double)nap / (double)(nap + crunch));
	return 0;
}
