/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * heapsort.c - the runtime's one sort, for the writer's arcs and the
 * stacks' samples.  Not qsort: it may allocate, and the profile can be
 * written from a signal handler.  In place, no recursion.
 */
#include <stddef.h>

#include "gmon_rt.h"

static void swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		unsigned char t = a[i];
		a[i] = b[i];
		b[i] = t;
	}
}

/* Moves element `root` down the heap of the first n elements. */
static void sift(unsigned char *v, size_t root, size_t n, size_t size,
                 int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t c = 2 * root + 1;
		if (c >= n)
			return;
		if (c + 1 < n && cmp(v + c * size, v + (c + 1) * size) < 0)
			c++;
		if (cmp(v + root * size, v + c * size) >= 0)
			return;
		swap_bytes(v + root * size, v + c * size, size);
		root = c;
	}
}

void gmon_heapsort(void *base, size_t n, size_t size,
                   int (*cmp)(const void *, const void *))
{
	unsigned char *v = base;
	for (size_t i = n / 2; i-- > 0;)
		sift(v, i, n, size, cmp);
	for (size_t end = n; end-- > 1;) {
		swap_bytes(v, v + end * size, size);
		sift(v, 0, end, size, cmp);
	}
}
