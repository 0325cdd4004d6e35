/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * growth.c - 6144 distinct call sites of one function, hence 6144 arcs,
 * each called ROUNDS (argument, default 3) times: more arcs than a
 * table's first committed chunk holds (2048 on 64-bit targets), so the
 * table must grow, and exactly how many calls a small GMON_MAXARCS drops
 * is known: (6144 - cap) x ROUNDS.  The sites are in helper functions of
 * 1024 each, so no function is too large to compile quickly.
 */
#include <stdlib.h>

#include "callsites.h"

KEEP void sites0(void) { C1024(0) }
KEEP void sites1(void) { C1024(1024) }
KEEP void sites2(void) { C1024(2048) }
KEEP void sites3(void) { C1024(3072) }
KEEP void sites4(void) { C1024(4096) }
KEEP void sites5(void) { C1024(5120) }

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	for (int r = 0; r < rounds; r++) {
		sites0();
		sites1();
		sites2();
		sites3();
		sites4();
		sites5();
	}
	return 0;
}
