/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * clones.c - a test program whose -O2 build has GCC's compiler clones
 * beside the functions they were cloned from: a partly inlined function
 * (split_work.part.0), one whose struct argument is cut down to the
 * field it reads (sra_work.isra.0, whose original is gone), one specialised for a constant
 * argument (cp_work.constprop.0) and one whose impossible path is moved
 * out of line (cold_check.cold).  split_work and cp_work are also called
 * through pointers, so that they stay functions of their own.  The clones burn
 * time and are called a known number of times: tests/formats/clones.sh
 * builds it with the flags that make them and checks them with nm.
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

/* Partial inlining: the quick test is inlined into the callers, the
   loops behind it become split_work.part.0. */
static unsigned long split_work(unsigned long n)
{
	if (__builtin_expect(n < 2, 1))
		return n;
	unsigned long acc = 0;
	for (unsigned long i = 0; i < n * 2000; i++) {
		acc += i * i ^ (acc >> 5);
		sink += acc;
	}
	for (unsigned long i = 0; i < n * 1000; i++) {
		acc ^= (i << 3) + (acc >> 7);
		sink -= acc;
	}
	for (unsigned long i = 0; i < n * 500; i++)
		sink += acc * i;
	return acc;
}

struct job {
	unsigned long rounds;
	char pad[64];
	const char *name;
};

/* IPA-SRA: only j->rounds is read, so the clone takes it by value. */
static unsigned long __attribute__((noinline)) sra_work(const struct job *j)
{
	unsigned long acc = 0;
	for (unsigned long i = 0; i < j->rounds * 3000; i++)
		acc += (i * 7) ^ (acc << 1);
	sink += acc;
	return acc;
}

/* Constant propagation: every direct call passes step 3. */
static unsigned long __attribute__((noinline)) cp_work(unsigned long n,
                                                       unsigned long step)
{
	unsigned long acc = 0;
	for (unsigned long i = 0; i < n * 2000; i += step)
		acc += i ^ (acc >> 2);
	sink += acc;
	return acc;
}

static unsigned long cell = 5;

/* The path that would read through a null pointer is cut out of the
   loop into cold_check.cold (a trap that is never reached).  External:
   GCC 12 keeps the path in line in a static function. */
unsigned long cold_check(unsigned long n);

unsigned long __attribute__((noinline)) cold_check(unsigned long n)
{
	unsigned long *q = &cell;
	for (unsigned long i = 0; i < n; i++) {
		if (i == 1000000007)
			q = 0;
		sink += *q + i;
	}
	return n + 1;
}

/* The originals, called through pointers the compiler cannot see
   through. */
static unsigned long (*volatile split_ptr)(unsigned long) = split_work;
static unsigned long (*volatile cp_ptr)(unsigned long, unsigned long) =
	cp_work;

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;
	struct job j = { 0 };
	unsigned long acc = 0;

	for (unsigned long r = 0; r < rounds; r++) {
		j.rounds = r % 7 + 1;
		acc += split_work(r % 5 + 2);
		acc += sra_work(&j);
		acc += cp_work(r % 4 + 1, 3);
		acc += cold_check(r % 9 * 100);
	}
	acc += split_ptr(3) + cp_ptr(2, 5);
	printf("%lu\n", acc & 1);
	return 0;
}
