/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sort.c - the one sort used for every report ordering.
 *
 * GNU gprof sorts with glibc's qsort, which is a top-down merge sort: the
 * array is split at n/2, both halves are sorted, and the merge takes from
 * the left half whenever cmp(left, right) <= 0.  Ties therefore keep their
 * input order, and even comparators that are not strict weak orders (the
 * -C ordering) give one well-defined result.  Reproducing the exact merge
 * pattern, not just stability, makes such orders identical too.
 */
#include <stdlib.h>
#include <string.h>

#include "gprof.h"

struct sort_ctx {
	size_t size;
	cmp_fn cmp;
	void *ctx;
	char *tmp;
};

static void merge_sort(struct sort_ctx *s, char *b, size_t n)
{
	if (n <= 1)
		return;
	size_t n1 = n / 2, n2 = n - n1, size = s->size;
	char *b1 = b, *b2 = b + n1 * size, *out = s->tmp;

	merge_sort(s, b1, n1);
	merge_sort(s, b2, n2);
	while (n1 > 0 && n2 > 0) {
		if (s->cmp(b1, b2, s->ctx) <= 0) {
			memcpy(out, b1, size);
			b1 += size;
			n1--;
		} else {
			memcpy(out, b2, size);
			b2 += size;
			n2--;
		}
		out += size;
	}
	/* What is left of the right half is already in place. */
	if (n1 > 0)
		memcpy(out, b1, n1 * size);
	memcpy(b, s->tmp, (n - n2) * size);
}

void stable_sort(void *base, size_t n, size_t size, cmp_fn cmp, void *ctx)
{
	if (n <= 1)
		return;
	struct sort_ctx s = { size, cmp, ctx, xmalloc(n * size) };
	merge_sort(&s, base, n);
	free(s.tmp);
}
