/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sysloop.c - for tests/libgmon/histogram.sh: a loop of read(2) calls on
 * /dev/zero, nearly all of its CPU time in the kernel, for SECONDS of
 * CPU (argument, default 1).  That time belongs to the read wrapper that
 * made the calls (in the C library, seen with GMON_SHLIBS=1), not to
 * sysloop's own few instructions: a tick source blind to the kernel
 * once credited it at the next tick in user code, and sysloop showed 21%.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "testfns.h"

KEEP void sysloop(double secs)
{
	static char buf[65536];
	int fd = open("/dev/zero", O_RDONLY);
	struct timespec t;
	if (fd < 0)
		exit(1);
	do {
		for (int i = 0; i < 50; i++)
			if (read(fd, buf, sizeof buf) < 0)
				exit(1);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while (t.tv_sec + t.tv_nsec / 1e9 < secs);
	close(fd);
}

int main(int argc, char **argv)
{
	sysloop(argc > 1 ? atof(argv[1]) : 1.0);
	return 0;
}
