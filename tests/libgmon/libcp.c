/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libcp.c - the program of tests/libgmon/libcp.sh, linked with libc_p.a
 * (musl built with -pg): known numbers of calls from main into memcpy,
 * malloc, free and read, and a qsort whose comparator counts its own
 * calls and prints the count, for comparison with the profile's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COPIES 1237 /* memcpy */
#define ALLOCS 311  /* malloc and free */
#define READS 7     /* read */
#define ITEMS 1000  /* qsort */

static volatile size_t len = 16; /* so that memcpy stays a call */
static long compares;

static int by_value(const void *a, const void *b)
{
	compares++;
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	static char src[64] = "0123456789abcdefghijklmnopqrstuvwxyz", dst[64];
	for (int i = 0; i < COPIES; i++)
		memcpy(dst, src + (i & 15), len);

	for (int i = 0; i < ALLOCS; i++)
		free(malloc(len + (size_t)i));

	int fd = open("/dev/zero", O_RDONLY);
	for (int i = 0; i < READS; i++)
		if (fd < 0 || read(fd, dst, len) != (ssize_t)len)
			return 1;
	close(fd);

	static int a[ITEMS];
	unsigned x = 12345;
	for (int i = 0; i < ITEMS; i++) {
		x = x * 1103515245u + 12345u;
		a[i] = (int)(x >> 8) % 100000;
	}
	qsort(a, ITEMS, sizeof a[0], by_value);
	for (int i = 1; i < ITEMS; i++)
		if (a[i - 1] > a[i])
			return 2;
	printf("compares %ld\n", compares);
	return 0;
}
