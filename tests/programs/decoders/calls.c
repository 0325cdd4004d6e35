/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "decoders" test program for tests/decoders.sh: direct calls between
   global and static functions, recursion, calls through the PLT, a call
   through a function pointer and (at -O2) tail calls, so that the -c scan
   of each instruction set has every kind of call to find.  On 32-bit ARM
   two functions are built in the other instruction set (A32 in a Thumb
   build, Thumb in an A32 one), so that calls switch between the two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

#if defined(__arm__) && defined(__thumb__)
#define OTHER_ISA __attribute__((target("arm")))
#elif defined(__arm__)
#define OTHER_ISA __attribute__((target("thumb")))
#else
#define OTHER_ISA
#endif

static volatile unsigned long sink;

NOINLINE static unsigned long mix(unsigned long x)
{
	for (int i = 0; i < 1000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
	return x;
}

NOINLINE unsigned long fib(unsigned n)
{
	if (n < 2)
		return mix(n);
	return fib(n - 1) + fib(n - 2);
}

/* At -O2 the call to mix() becomes a tail call (a plain branch). */
NOINLINE OTHER_ISA unsigned long tail(unsigned long x)
{
	return mix(x + 1);
}

NOINLINE static unsigned long via_plt(const char *s)
{
	return strlen(s) + (unsigned long)atoi(s);
}

NOINLINE OTHER_ISA unsigned long twice(unsigned long (*f)(unsigned long),
                             unsigned long x)
{
	return f(f(x));
}

NOINLINE static void never_called(void)
{
	puts("never");
	exit(3);
}

int main(int argc, char **argv)
{
	unsigned long r = fib(12);

	r += tail(r);
	r += via_plt(argc > 1 ? argv[1] : "42");
	r += twice(mix, r);
	if (argc > 5)
		never_called();
	printf("%lu\n", r & 0xff);
	return 0;
}
