/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Declarations shared by the files of the "symspec" test program. */
#ifndef SYMSPEC_H
#define SYMSPEC_H

#define NOINLINE __attribute__((noinline))

/* Burns CPU time in the function that uses it (not in a callee). */
#define BURN(n) do { \
	unsigned long x_ = sink; \
	for (unsigned long i_ = 0; i_ < (n) * 24000UL; i_++) \
		x_ += (x_ >> 3) ^ i_; \
	sink = x_; \
} while (0)

extern volatile unsigned long sink;
void spin(unsigned long n);
void alpha_run(int i);
void beta_run(int i);
void odd_run(int i);
/* A global function whose symbol name contains dots. */
void dotted_work(int i) __asm__("name.with.dot");

#endif
