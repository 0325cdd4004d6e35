/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * execer.c - a profiled program that makes some calls and then replaces
 * itself with another program (argv[1...]).  With glibc's runtime the
 * inherited ITIMER_PROF kills a CPU-bound exec'd program with SIGPROF;
 * libgmon's timer must not survive the exec.
 */
#include <stdio.h>
#include <unistd.h>

#include "testfns.h"

volatile int sink;

KEEP int f(int x)
{
	for (int i = 0; i < 1000; i++)
		sink += i;
	return x + 1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	for (int i = 0; i < 20000; i++)
		sink = f(i);
	execv(argv[1], argv + 1);
	perror("execv");
	return 3;
}
