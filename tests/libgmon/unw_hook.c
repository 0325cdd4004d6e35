/* SPDX-License-Identifier: GPL-3.0-or-later */
/* unw_hook.c - for tests/libgmon/unwind.sh: a call-heavy program, so
   that many ticks land in libgmon's hook (the mcount stub or the C
   recorder): hot calls tiny over and over for about the CPU seconds
   given (default 1).  Those ticks must be recorded as the hook's PC
   followed by the profiled function that called the hook (tiny, or hot
   or main for their own entries), then its callers. */
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;

__attribute__((noinline)) int tiny(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) void hot(long n)
{
	unsigned long acc = 0;
	for (long i = 0; i < n; i++)
		acc += (unsigned long)tiny((int)i);
	sink += acc;
}

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double want = argc > 1 ? atof(argv[1]) : 1.0, t0 = cpu();
	while (cpu() - t0 < want)
		hot(200000);
	return 0;
}
