/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * callsites.h - many distinct call sites of one function, for the libgmon
 * test programs that need many arcs (growth.c, many.c, exitrace.c): CN(n)
 * expands to N calls of leaf(), each from its own site, with arguments n
 * to n + N - 1.  Each program includes it once: it defines sink and leaf.
 */
#ifndef CALLSITES_H
#define CALLSITES_H

#include "testfns.h"

volatile int sink;

KEEP int leaf(int x)
{
	sink += x;
	return x;
}

#define C4(n) sink = leaf(n); sink = leaf(n + 1); sink = leaf(n + 2); sink = leaf(n + 3);
#define C16(n) C4(n) C4(n + 4) C4(n + 8) C4(n + 12)
#define C64(n) C16(n) C16(n + 16) C16(n + 32) C16(n + 48)
#define C256(n) C64(n) C64(n + 64) C64(n + 128) C64(n + 192)
#define C1024(n) C256(n) C256(n + 256) C256(n + 512) C256(n + 768)

#endif
