/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pre_odd.c - the preload test's program for the cases that must not
 * disturb a program (built without -pg; -pg -lgmon for the mixed case).
 * It prints "odd MODE done" and exits with status 7 after its MODE:
 *   plain     about 0.3 s of CPU in odd_burn
 *   clearenv  clears its environment, then burns (the profile must still
 *             go where gprof-run -o said)
 *   sigprof   installs its own SIGPROF handler and ITIMER_PROF timer,
 *             then burns
 *   exec      execs itself as "after", which burns in after_exec (the
 *             new image is profiled through the inherited environment)
 *   signals   burns, raises SIGUSR1 (GMON_DUMP_SIGNAL), burns again and
 *             dies of SIGTERM (GMON_EXIT_SIGNALS)
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "pre_burn.h"
#include "testfns.h"

KEEP void odd_burn(double s)
{
	pre_burn(s);
}

KEEP void after_exec(double s)
{
	pre_burn(s);
}

static void on_prof(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "plain";
	if (strcmp(mode, "clearenv") == 0) {
		clearenv();
	} else if (strcmp(mode, "sigprof") == 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_prof;
		sigaction(SIGPROF, &sa, NULL);
		struct itimerval it = { { 0, 10000 }, { 0, 10000 } };
		setitimer(ITIMER_PROF, &it, NULL);
	} else if (strcmp(mode, "exec") == 0) {
		fflush(stdout);
		execl("/proc/self/exe", argv[0], "after", (char *)NULL);
		return 1;
	} else if (strcmp(mode, "after") == 0) {
		after_exec(0.3);
		printf("odd exec done\n");
		return 7;
	} else if (strcmp(mode, "signals") == 0) {
		odd_burn(0.1);
		raise(SIGUSR1);
		odd_burn(0.1);
		printf("odd signals done\n");
		fflush(stdout);
		raise(SIGTERM);
		return 1;
	}
	odd_burn(0.3);
	printf("odd %s done\n", mode);
	return 7;
}
