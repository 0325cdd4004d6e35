/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "lines" test program: small inline functions used from several files, so
   that their lines belong to this header (and, at -O2, are inlined). */
#ifndef MATHX_H
#define MATHX_H

static inline unsigned long mix(unsigned long a, unsigned long b)
{
	a ^= b + 0x9e3779b97f4a7c15UL + (a << 6) + (a >> 2);
	return a;
}

static inline unsigned long churn(unsigned long x, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		x ^= x >> 17;
	}
	return x;
}

#endif
