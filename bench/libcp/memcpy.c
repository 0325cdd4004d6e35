/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * memcpy.c - the program of bench/libcp.sh: N calls of memcpy of LEN
 * bytes from main, timed alone (start-up and the profile write are left
 * out); prints "wall_ns cpu_ns".
 *
 *   memcpy N LEN
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static long long ns(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	static char src[4096], dst[4096];
	if (argc != 3)
		return 2;
	long n = atol(argv[1]);
	volatile size_t len = (size_t)atol(argv[2]); /* keeps memcpy a call */
	if (len > sizeof dst)
		return 2;
	long long w0 = ns(CLOCK_MONOTONIC), c0 = ns(CLOCK_PROCESS_CPUTIME_ID);
	for (long i = 0; i < n; i++) {
		memcpy(dst, src, len);
		__asm__ volatile("" ::: "memory");
	}
	long long w1 = ns(CLOCK_MONOTONIC), c1 = ns(CLOCK_PROCESS_CPUTIME_ID);
	printf("%lld %lld\n", w1 - w0, c1 - c0);
	return 0;
}
