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
#include <stdbool.h>
#include <stdint.h>
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

/* The same merge for arrays of pointers, which most report orders are:
   plain assignments instead of memcpy calls. */
static void merge_sort_ptr(const struct sort_ctx *s, void **b, size_t n)
{
	if (n <= 1)
		return;
	size_t n1 = n / 2, n2 = n - n1;
	void **b1 = b, **b2 = b + n1, **out = (void **)s->tmp;

	merge_sort_ptr(s, b1, n1);
	merge_sort_ptr(s, b2, n2);
	while (n1 > 0 && n2 > 0) {
		if (s->cmp(b1, b2, s->ctx) <= 0) {
			*out++ = *b1++;
			n1--;
		} else {
			*out++ = *b2++;
			n2--;
		}
	}
	while (n1 > 0) {
		*out++ = *b1++;
		n1--;
	}
	memcpy(b, s->tmp, (n - n2) * sizeof *b);
}

/* The same merge again, over pointers that carry 64-bit keys ordered as
   the comparison's first tests order them (see stable_sort_keyed):
   most steps then compare two integers side by side in memory instead
   of calling through to two structures elsewhere. */
struct keyed {
	uint64_t key[4];             /* compared in that order */
	void *p;
};

/* Whether a goes before b by their keys: -1 before, 1 after, 0 equal. */
static inline int keys_order(const struct keyed *a, const struct keyed *b)
{
	for (int i = 0; i < 4; i++)
		if (a->key[i] != b->key[i])
			return a->key[i] < b->key[i] ? -1 : 1;
	return 0;
}

static void merge_sort_keyed(const struct sort_ctx *s, struct keyed *b,
                             size_t n)
{
	if (n <= 1)
		return;
	size_t n1 = n / 2, n2 = n - n1;
	struct keyed *b1 = b, *b2 = b + n1, *out = (struct keyed *)s->tmp;

	merge_sort_keyed(s, b1, n1);
	merge_sort_keyed(s, b2, n2);
	while (n1 > 0 && n2 > 0) {
		int o = keys_order(b1, b2);
		bool left = o != 0 ? o < 0 : s->cmp(&b1->p, &b2->p, s->ctx) <= 0;

		if (left) {
			*out++ = *b1++;
			n1--;
		} else {
			*out++ = *b2++;
			n2--;
		}
	}
	while (n1 > 0) {
		*out++ = *b1++;
		n1--;
	}
	memcpy(b, s->tmp, (n - n2) * sizeof *b);
}

/* Sorts the pointers v as stable_sort() would with cmp, given for each
   keys such that those of v[i], compared in order, are below those of
   v[j] whenever cmp(&v[i], &v[j]) < 0, and above them whenever cmp says
   > 0 (equal keys say nothing): every merge step then takes the same
   side as with cmp alone, so the result is the same to the last tie. */
static void stable_sort_keyed(void **v, struct keyed *kv, size_t n,
                              cmp_fn cmp, void *ctx)
{
	struct sort_ctx s = { sizeof *kv, cmp, ctx, xmalloc(n * sizeof *kv) };

	merge_sort_keyed(&s, kv, n);
	for (size_t i = 0; i < n; i++)
		v[i] = kv[i].p;
	free(s.tmp);
}

/* A key that orders doubles descending, as comparing the doubles does;
   false for a NaN, which no key can place (-0.0 and 0.0 compare equal,
   and get one key). */
static bool key_desc(double x, uint64_t *key)
{
	uint64_t u;

	if (x != x)
		return false;
	if (x == 0)
		x = 0.0;
	memcpy(&u, &x, sizeof u);
	/* Sign and magnitude to an unsigned order: negatives reversed
	   below the positives. */
	u = (u >> 63) ? ~u : u | (UINT64_C(1) << 63);
	*key = ~u;
	return true;
}

/* Bytes i*8 .. i*8+7 of s, big-endian, zeros past its end: comparing
   these in order compares as strcmp() does, up to 16 bytes. */
static void name_keys(const char *s, uint64_t *k)
{
	size_t i = 0;

	k[0] = k[1] = 0;
	for (; i < 16 && s[i]; i++)
		k[i / 8] |= (uint64_t)(unsigned char)s[i] << (56 - 8 * (i % 8));
}

/*
 * When cmp is a strict weak order, the stable order is the only one, and
 * any way to it will do: a radix sort, stable, on the first two keys (8
 * bits a pass, leaving out the bytes every key shares: times and calls
 * differ in few of them), then the keyed merge of each run those keys
 * tie.  At 100,000 symbols the merge's 17 levels, each pass jumping
 * between two halves, cost two or three times more.
 */
#define RADIX_DIGITS 16              /* bytes of key[0] and key[1] */

/* What the passes move: the two keys and where the rest is. */
struct radix_item {
	uint64_t key[2];
	uint32_t at;
};

static unsigned digit(const struct radix_item *r, int d)
{
	/* d = 0 is key[1]'s lowest byte, d = 15 key[0]'s highest */
	return (unsigned)(r->key[1 - d / 8] >> (8 * (d % 8))) & 0xff;
}

/* kv's order by its first two keys, stable, as positions in kv. */
static struct radix_item *radix_order(const struct keyed *kv, size_t n)
{
	uint32_t (*count)[256] = xcalloc(RADIX_DIGITS, sizeof *count);
	struct radix_item *src = xmalloc(n * sizeof *src);
	struct radix_item *dst = xmalloc(n * sizeof *dst);

	for (size_t i = 0; i < n; i++) {
		src[i] = (struct radix_item){ { kv[i].key[0], kv[i].key[1] },
		                              (uint32_t)i };
		for (int d = 0; d < RADIX_DIGITS; d++)
			count[d][digit(&src[i], d)]++;
	}
	for (int d = 0; d < RADIX_DIGITS; d++) {
		if (count[d][digit(&src[0], d)] == n)
			continue;            /* every key has this byte */
		uint32_t at = 0;
		for (int b = 0; b < 256; b++) {
			uint32_t c = count[d][b];
			count[d][b] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[d][digit(&src[i], d)]++] = src[i];
		struct radix_item *t = src;
		src = dst;
		dst = t;
	}
	free(dst);
	free(count);
	return src;
}

static void sort_weak(void **v, struct keyed *kv, size_t n, cmp_fn cmp,
                      void *ctx)
{
	struct sort_ctx s = { sizeof *kv, cmp, ctx, xmalloc(n * sizeof *kv) };
	struct keyed *by = (struct keyed *)s.tmp;
	struct radix_item *r = radix_order(kv, n);

	for (size_t i = 0; i < n; i++)
		by[i] = kv[r[i].at];
	memcpy(kv, by, n * sizeof *kv);
	free(r);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && kv[j].key[0] == kv[i].key[0] &&
		                kv[j].key[1] == kv[i].key[1]; j++)
			;
		merge_sort_keyed(&s, kv + i, j - i);
	}
	for (size_t i = 0; i < n; i++)
		v[i] = kv[i].p;
	free(s.tmp);
}

void stable_sort_desc(void **v, size_t n, const struct desc_keys *dk,
                      cmp_fn cmp, void *ctx)
{
	if (n <= 1)
		return;
	struct keyed *kv = xcalloc(n, sizeof *kv);
	size_t i = 0;

	for (; i < n && key_desc(dk->first(v[i]), &kv[i].key[0]); i++) {
		/* descending: the complement ascends */
		if (dk->second)
			kv[i].key[1] = ~dk->second(v[i]);
		if (dk->name)
			name_keys(dk->name(v[i]), &kv[i].key[2]);
		kv[i].p = v[i];
	}
	if (i == n && dk->weak_order && n < UINT32_MAX)
		sort_weak(v, kv, n, cmp, ctx);
	else if (i == n)
		stable_sort_keyed(v, kv, n, cmp, ctx);
	else
		stable_sort(v, n, sizeof *v, cmp, ctx);
	free(kv);
}

/* Elements bigger than this (symbols, say) are sorted through an array of
   pointers and then moved into place once, each along its permutation
   cycle: the same comparisons in the same order, so the same result, but
   without copying large structures at every level of the merge or a
   second array of them. */
#define INDIRECT_ABOVE 32

struct indirect {
	cmp_fn cmp;
	void *ctx;
};

static int cmp_indirect(const void *a, const void *b, void *ctx)
{
	const struct indirect *ind = ctx;
	return ind->cmp(*(char *const *)a, *(char *const *)b, ind->ctx);
}

static void permute(char *base, char **p, size_t n, size_t size)
{
	char *hold = xmalloc(size);
	for (size_t i = 0; i < n; i++) {
		if (p[i] == base + i * size)
			continue;
		memcpy(hold, base + i * size, size);
		size_t j = i;
		for (;;) {
			size_t k = (size_t)(p[j] - base) / size;
			p[j] = base + j * size;
			if (k == i) {
				memcpy(base + j * size, hold, size);
				break;
			}
			memcpy(base + j * size, base + k * size, size);
			j = k;
		}
	}
	free(hold);
}

void stable_sort(void *base, size_t n, size_t size, cmp_fn cmp, void *ctx)
{
	if (n <= 1)
		return;
	if (size > INDIRECT_ABOVE) {
		char **p = xmalloc(n * sizeof *p);
		struct indirect ind = { cmp, ctx };
		struct sort_ctx s = { sizeof *p, cmp_indirect, &ind,
		                      xmalloc(n * sizeof *p) };
		for (size_t i = 0; i < n; i++)
			p[i] = (char *)base + i * size;
		merge_sort_ptr(&s, (void **)p, n);
		free(s.tmp);
		permute(base, p, n, size);
		free(p);
		return;
	}
	struct sort_ctx s = { size, cmp, ctx, xmalloc(n * size) };
	if (size == sizeof(void *))
		merge_sort_ptr(&s, base, n);
	else
		merge_sort(&s, base, n);
	free(s.tmp);
}
