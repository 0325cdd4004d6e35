/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Declarations shared by the files of the "callgraph" test program. */
#ifndef CG_H
#define CG_H

#define NOINLINE __attribute__((noinline))

extern volatile unsigned long sink;
void burn(unsigned long n);
void chain_top(int i);
void chain_mid(int i);
void chain_leaf(int i);

#endif
