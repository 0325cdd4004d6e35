/* SPDX-License-Identifier: GPL-3.0-or-later */
/* example.c: a small program to profile with gprof (used by `make demo`).
 *
 * It counts the primes below a limit in two ways (trial division and a
 * sieve), computes a few Fibonacci numbers recursively and checksums the
 * results.  About 0.3 s of CPU in all, spread over several functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOW_LIMIT 400000u
#define QUICK_LIMIT 4000000u
#define FIB_N 29u

/* Is n prime?  Plain trial division: deliberately slow. */
static int is_prime(unsigned n)
{
	if (n < 2)
		return 0;
	for (unsigned d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

/* Count the primes below limit, one number at a time. */
static unsigned count_primes_slowly(unsigned limit)
{
	unsigned count = 0;
	for (unsigned n = 0; n < limit; n++)
		count += is_prime(n);
	return count;
}

/* Count the primes below limit with the sieve of Eratosthenes. */
static unsigned count_primes_quickly(unsigned limit)
{
	char *composite = calloc(limit, 1);
	unsigned count = 0;

	if (composite == NULL)
		return 0;
	for (unsigned n = 2; n < limit; n++) {
		if (composite[n])
			continue;
		count++;
		for (unsigned long m = (unsigned long)n * n; m < limit; m += n)
			composite[m] = 1;
	}
	free(composite);
	return count;
}

/* The classic recursive Fibonacci: it calls itself a lot. */
static unsigned long fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* A simple checksum over a buffer, to have one more leaf function. */
static unsigned checksum(const unsigned char *buf, size_t len)
{
	unsigned sum = 0;
	for (size_t i = 0; i < len; i++)
		sum = sum * 31 + buf[i];
	return sum;
}

int main(void)
{
	unsigned slow = 0, quick = 0, sum = 0;
	unsigned long f = 0;
	unsigned char buf[4096];

	for (int round = 0; round < 3; round++) {
		slow = count_primes_slowly(SLOW_LIMIT);
		quick = count_primes_quickly(QUICK_LIMIT);
		f = fib(FIB_N);
		memset(buf, round, sizeof buf);
		for (int i = 0; i < 1000; i++)
			sum += checksum(buf, sizeof buf);
	}
	printf("primes below %u: %u, below %u: %u, fib(%u) = %lu, checksum %u\n",
	       SLOW_LIMIT, slow, QUICK_LIMIT, quick, FIB_N, f, sum);
	return 0;
}
