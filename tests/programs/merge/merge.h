/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared declarations of the "merge" test program. */
#ifndef MERGE_H
#define MERGE_H
unsigned long crunch(unsigned long seed, int amount);
unsigned long digest(const unsigned char *buf, int len);
unsigned long polish(unsigned long v);
#endif
