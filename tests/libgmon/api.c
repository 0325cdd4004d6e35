/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * api.c - the C interface of include/libgmon.h with exact counts.  Prints
 * its pid, then the errno names of the calls expected to fail.  The
 * profiles, as "calls f N" (see tests/libgmon/signals.sh):
 *   snap/one.out  40  (10 + 30; the 20 made under gmon_stop are absent)
 *   two.out        5  (after gmon_reset)
 *   gmon.out      12  (at exit: the 5 plus 7 more)
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "libgmon.h"
#include "testfns.h"

volatile int sink;

KEEP int f(int x)
{
	sink += x;
	return x + 1;
}

KEEP void calls(int n)
{
	for (int i = 0; i < n; i++)
		sink = f(i);
}

static void check(const char *what, int r)
{
	if (r != 0)
		printf("%s failed: %s\n", what, errno == ENOENT ? "ENOENT" : "other");
}

int main(void)
{
	printf("%ld\n", (long)getpid());
	calls(10);
	check("stop", gmon_stop());
	calls(20);
	check("start", gmon_start());
	calls(30);
	check("dump one", gmon_dump("snap/one.out"));
	check("reset", gmon_reset());
	calls(5);
	check("dump two", gmon_dump("two.out"));
	check("dump default", gmon_dump(NULL));
	check("dump nodir", gmon_dump("nodir/three.out"));
	calls(7);
	return 0;
}
