/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sigs.c - signal safety: a profiled SIGALRM handler fires every 100 us
 * of real time while main makes 3,000,000 profiled calls, so handlers
 * often interrupt the recorder.  main's calls must still be counted
 * exactly; the handler's own calls may only be undercounted (a call that
 * interrupts the recorder on the same thread is dropped).  Prints the
 * number of handler runs.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "testfns.h"

volatile int sink;
volatile long handled;

KEEP int work(int x)
{
	sink += x;
	return x + 1;
}

KEEP int in_handler(int x)
{
	sink ^= x;
	return x;
}

KEEP static void on_alarm(int sig)
{
	handled++;
	sink = in_handler(sig);
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 100 }, { 0, 100 } };
	setitimer(ITIMER_REAL, &it, NULL);
	for (int i = 0; i < 3000000; i++)
		sink = work(i);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	printf("%ld\n", (long)handled);
	return 0;
}
