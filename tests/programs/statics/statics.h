/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared declarations of the "statics" test program. */
#ifndef STATICS_H
#define STATICS_H
unsigned long run_a(unsigned long rounds);
unsigned long run_b(unsigned long rounds);
extern unsigned long a_total, b_total;
#endif
