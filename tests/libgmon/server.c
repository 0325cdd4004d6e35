/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * server.c - a program that runs until a signal ends it, for the exit and
 * dump signal tests: it calls work() in bursts of 1000 with short sleeps
 * between, and once the first burst is done creates the file "ready"
 * holding its pid.  With the argument "handle" it installs its own
 * SIGINT handler, which makes main return normally after the burst in
 * progress; it then prints the number of calls made.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "testfns.h"

volatile int sink;
static volatile sig_atomic_t stop;

KEEP int work(int x)
{
	sink += x;
	return x + 1;
}

static void on_int(int sig)
{
	(void)sig;
	stop = 1;
}

static void say_ready(void)
{
	FILE *f = fopen("ready.tmp", "w");
	if (f == NULL)
		return;
	fprintf(f, "%ld\n", (long)getpid());
	fclose(f);
	rename("ready.tmp", "ready");
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "handle") == 0)
		signal(SIGINT, on_int);
	long calls = 0;
	for (int burst = 0; !stop; burst++) {
		for (int i = 0; i < 1000; i++)
			sink = work(i);
		calls += 1000;
		if (burst == 0)
			say_ready();
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
	printf("%ld\n", calls);
	return 0;
}
