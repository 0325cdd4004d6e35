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

#include "util/util.h"

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
 * any way to it will do: a radix sort, stable, on the first two keys,
 * then the keyed merge of each run those keys tie, with the names' keys
 * made for those runs only.  (The entry order of 100,000 symbols, whose
 * ties the merge settled by calling cmp, went from 32 to 18 ms.)
 *
 * The radix sort takes the most significant byte first.  Sorting on the
 * least significant first took one pass over the whole array per byte
 * that varies, eleven for a column of times: 100,000 items of 24 bytes,
 * source and destination, no longer fit a 4 MB cache and every pass
 * missed it.  From the top, a pass splits the items into buckets of the
 * byte that varies first, and each bucket, a few hundred items after one
 * or two passes, is sorted while it sits in the cache.
 */
#define RADIX_DIGITS 16              /* bytes of key[0] and key[1] */
#define RADIX_SMALL 48               /* fewer items: insertion sort */

static unsigned digit(const struct radix_item *r, int d)
{
	/* d = 0 is key[1]'s lowest byte, d = 15 key[0]'s highest */
	return (unsigned)(r->key[1 - d / 8] >> (8 * (d % 8))) & 0xff;
}

static bool item_before(const struct radix_item *a, const struct radix_item *b)
{
	if (a->key[0] != b->key[0])
		return a->key[0] < b->key[0];
	return a->key[1] < b->key[1];
}

/* Stable: an item moves left only past items its keys are below. */
static void insertion_radix(struct radix_item *r, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct radix_item x = r[i];
		size_t j = i;

		for (; j > 0 && item_before(&x, &r[j - 1]); j--)
			r[j] = r[j - 1];
		r[j] = x;
	}
}

/* The highest digit in which some item differs from the first; -1 when
   all keys are equal. */
static int top_varying_digit(const struct radix_item *r, size_t n)
{
	uint64_t diff[2] = { 0, 0 };

	for (size_t i = 1; i < n; i++) {
		diff[0] |= r[i].key[0] ^ r[0].key[0];
		diff[1] |= r[i].key[1] ^ r[0].key[1];
	}
	if (diff[0])
		return 8 + (63 - __builtin_clzll(diff[0])) / 8;
	if (diff[1])
		return (63 - __builtin_clzll(diff[1])) / 8;
	return -1;
}

/* Sorts r[0..n-1] in place, tmp (as long) for room.  The items of a
   bucket share every digit above the one it was split on, so the next
   varying digit found among them is always a lower one: the depth is at
   most RADIX_DIGITS. */
static void msd_radix(struct radix_item *r, struct radix_item *tmp, size_t n)
{
	if (n < RADIX_SMALL) {
		insertion_radix(r, n);
		return;
	}
	int d = top_varying_digit(r, n);

	if (d < 0)
		return;                  /* all equal: already in order */
	size_t count[256] = { 0 }, at[256];

	for (size_t i = 0; i < n; i++)
		count[digit(&r[i], d)]++;
	size_t sum = 0;

	for (int b = 0; b < 256; b++) {
		at[b] = sum;
		sum += count[b];
	}
	for (size_t i = 0; i < n; i++)
		tmp[at[digit(&r[i], d)]++] = r[i];
	memcpy(r, tmp, n * sizeof *r);
	for (size_t b = 0, from = 0; b < 256; from += count[b], b++)
		if (count[b] > 1)
			msd_radix(r + from, tmp + from, count[b]);
}

void radix_sort(struct radix_item *r, size_t n)
{
	struct radix_item *tmp = xmalloc((n ? n : 1) * sizeof *tmp);

	msd_radix(r, tmp, n);
	free(tmp);
}

/* One run of items the first two keys tie (r[0..n-1]) in cmp's order,
   into out: the keyed merge, names' keys made only here. */
static void sort_run(struct sort_ctx *s, const struct radix_item *r,
                     size_t n, void **v, const struct desc_keys *dk,
                     void **out)
{
	struct keyed *run = (struct keyed *)s->tmp + n;

	for (size_t k = 0; k < n; k++) {
		run[k] = (struct keyed){ { r[k].key[0], r[k].key[1], 0, 0 },
		                         v[r[k].at] };
		if (dk->name)
			name_keys(dk->name(run[k].p), &run[k].key[2]);
	}
	merge_sort_keyed(s, run, n);
	for (size_t k = 0; k < n; k++)
		out[k] = run[k].p;
}

/* stable_sort_desc() for a weak order (see there); false, with v as it
   was, if a key cannot be made. */
static bool sort_weak(void **v, size_t n, const struct desc_keys *dk,
                      cmp_fn cmp, void *ctx)
{
	struct radix_item *r = xmalloc(n * sizeof *r);

	for (size_t i = 0; i < n; i++) {
		if (!key_desc(dk->first(v[i]), &r[i].key[0])) {
			free(r);
			return false;
		}
		/* descending: the complement ascends */
		r[i].key[1] = dk->second ? ~dk->second(v[i]) : 0;
		r[i].at = (uint32_t)i;
	}
	radix_sort(r, n);
	void **out = xmalloc(n * sizeof *out);
	/* the merge's room, then the run's: twice the longest run */
	struct sort_ctx s = { sizeof(struct keyed), cmp, ctx, NULL };
	size_t cap = 0;

	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && r[j].key[0] == r[i].key[0] &&
		                r[j].key[1] == r[i].key[1]; j++)
			;
		if (j - i == 1) {
			out[i] = v[r[i].at];
			continue;
		}
		if (j - i > cap) {
			cap = j - i;
			s.tmp = xrealloc(s.tmp, 2 * cap * sizeof(struct keyed));
		}
		sort_run(&s, r + i, j - i, v, dk, out + i);
	}
	memcpy(v, out, n * sizeof *v);
	free(s.tmp);
	free(out);
	free(r);
	return true;
}

void stable_sort_desc(void **v, size_t n, const struct desc_keys *dk,
                      cmp_fn cmp, void *ctx)
{
	if (n <= 1)
		return;
	if (dk->weak_order && n < UINT32_MAX && sort_weak(v, n, dk, cmp, ctx))
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
	if (i == n)
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
