/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * totals-prog.c - the program tests/formats/totals.sh runs: almost
 * nothing but calls of tiny functions, so that counting them (the
 * profiling hook) takes a large share of the run, as in a call-heavy
 * real program; and some time in a function of a -pg shared library
 * (totals-lib.c) when the test builds one (-DWITH_LIB).
 */
#ifdef WITH_LIB
unsigned long lib_spin(unsigned long n);
#endif

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) static unsigned long mid(unsigned long x)
{
	return leaf(x) ^ leaf(x >> 1);
}

/* Some time of its own, outside the hook. */
__attribute__((noinline)) static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ (sink >> 3);
}

int main(void)
{
	for (unsigned long i = 0; i < 50000000UL; i++)
		sink += mid(i);
	spin(20000000UL);
#ifdef WITH_LIB
	sink += lib_spin(20000000UL);
#endif
	return sink == 42;
}
