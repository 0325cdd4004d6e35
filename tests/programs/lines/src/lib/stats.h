/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "lines" test program: the statistics part (src/lib/). */
#ifndef STATS_H
#define STATS_H

unsigned long stats_sum(int i);
unsigned long stats_rare(int i);
unsigned long lib_util(unsigned long v);

#endif
