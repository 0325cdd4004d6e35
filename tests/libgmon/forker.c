/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * forker.c - fork behaviour: main calls f() 100 times, forks; the child
 * calls f() 30 times and burns 0.3 s of CPU in burn(), then exits; the
 * parent waits, calls f() 50 times more and prints "PARENT CHILD" pids.
 * The parent's profile must count 150 calls, the child's only its own
 * 30, with samples in burn().
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testfns.h"

volatile int sink;

KEEP int f(int x)
{
	sink += x;
	return x + 1;
}

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

KEEP void burn(double secs)
{
	double end = cpu_seconds() + secs;
	while (cpu_seconds() < end)
		for (int i = 0; i < 100000; i++)
			sink += i;
}

int main(void)
{
	for (int i = 0; i < 100; i++)
		sink = f(i);
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (int i = 0; i < 30; i++)
			sink = f(i);
		burn(0.3);
		exit(0);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return 1;
	for (int i = 0; i < 50; i++)
		sink = f(i);
	printf("%ld %ld\n", (long)getpid(), (long)pid);
	return 0;
}
