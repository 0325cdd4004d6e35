/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * exitrace.c - a program whose exit takes a few milliseconds of profile
 * writing, for the exit-signal race test (racer.c sends the signal at
 * stepped moments around its exit).  2048 call sites make 2048 arcs, and
 * a megabyte of padding in .text makes a histogram of 256K bins: half a
 * megabyte to write, as a large program would have.  It prints "ready"
 * and calls exit() at once.  With the argument "thread" an idle thread
 * runs beside main, so that a signal the exiting thread holds off goes
 * to that thread instead.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callsites.h"

KEEP void sites0(void) { C1024(0) }
KEEP void sites1(void) { C1024(1024) }

/* Never executed: it only widens the text the histogram covers. */
__asm__(".pushsection .text\n\t.p2align 4\n\t.space 1048576\n\t.popsection");

static void *idle(void *arg)
{
	for (;;)
		pause();
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (argc > 1 && strcmp(argv[1], "thread") == 0 &&
	    pthread_create(&t, NULL, idle, NULL) != 0)
		return 2;
	sites0();
	sites1();
	fputs("ready\n", stdout);
	fflush(stdout);
	exit(0);
}
