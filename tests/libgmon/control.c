/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * control.c - the glibc-compatible control functions: calls made while
 * moncontrol(0) is in force are not counted, and a second monstartup()
 * is ignored.  main -> f must come out as 125 (100 + 25, not the 50
 * made while off).
 */
#include "testfns.h"

void moncontrol(int mode);
void monstartup(unsigned long lowpc, unsigned long highpc);

volatile int sink;

KEEP int f(int x)
{
	sink += x;
	return x + 1;
}

int main(void)
{
	for (int i = 0; i < 100; i++)
		sink = f(i);
	moncontrol(0);
	for (int i = 0; i < 50; i++)
		sink = f(i);
	moncontrol(1);
	monstartup((unsigned long)&main, (unsigned long)&f);
	for (int i = 0; i < 25; i++)
		sink = f(i);
	return 0;
}
