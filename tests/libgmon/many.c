/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * many.c - 64 distinct call sites, hence 64 arcs: more than a table
 * limited with GMON_MAXARCS=16 can hold.  The runtime must count the
 * calls it drops, say so in one line at exit, and write a valid profile.
 */
#include "callsites.h"

int main(void)
{
	for (int i = 0; i < 10; i++) {
		C16(0) C16(16) C16(32) C16(48)
	}
	return 0;
}
