/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench/shlibs/lib.c - the call-heavy work of bench/shlibs.sh, in a shared
   library: recursive fib, built with -pg or without. */
__attribute__((noinline, noipa)) long lib_fib(int n)
{
	return n < 2 ? n : lib_fib(n - 1) + lib_fib(n - 2);
}
