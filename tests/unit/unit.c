/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * unit.c - unit tests of the pieces that need no executable: the sort's
 * tie and merge behaviour, the symbol table's duplicate rules and lookup,
 * number formatting and the string buffer; and main(), which also runs
 * the suites of the other tests/unit files (see unit.h).  Prints one
 * PASS:/FAIL: line per test; exits 1 if any failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "pipeline.h"
#include "print/print.h"
#include "unit.h"

static int failures;

static void check(bool ok, const char *name)
{
	printf("%s: unit:%s\n", ok ? "PASS" : "FAIL", name);
	if (!ok)
		failures++;
}

/* The reporter of the other files' suites. */
void unit_check(bool ok, const char *name)
{
	check(ok, name);
}

struct pair { int key, seq; };

static int cmp_key(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return ((const struct pair *)a)->key - ((const struct pair *)b)->key;
}

static void test_sort_stable(void)
{
	struct pair v[200];
	for (int i = 0; i < 200; i++)
		v[i] = (struct pair){ (i * 37) % 7, i };
	stable_sort(v, 200, sizeof v[0], cmp_key, NULL);
	bool ok = true;
	for (int i = 1; i < 200; i++)
		if (v[i - 1].key > v[i].key ||
		    (v[i - 1].key == v[i].key && v[i - 1].seq > v[i].seq))
			ok = false;
	check(ok, "sort_stable");
}

/* A comparator that is not a strict weak order: the result must be the
   one a top-down merge with a left-biased merge step gives. */
static int cmp_odd(const void *a, const void *b, void *ctx)
{
	int x = *(const int *)a, y = *(const int *)b;
	(void)ctx;
	if (x % 2 && y % 2)
		return x - y;
	return (x / 10) - (y / 10);
}

static int cmp_odd_q(const void *a, const void *b)
{
	return cmp_odd(a, b, NULL);
}

/* glibc's qsort is the merge sort GNU gprof relies on; with a comparator
   that is not a consistent order our sort must give the very same arrays. */
static void test_sort_pattern(void)
{
	bool ok = true;
	srand(1);
	for (int t = 0; t < 2000 && ok; t++) {
		int n = rand() % 60, a[64], b[64];
		for (int i = 0; i < n; i++)
			a[i] = b[i] = rand() % 100;
		stable_sort(a, (size_t)n, sizeof a[0], cmp_odd, NULL);
		qsort(b, (size_t)n, sizeof b[0], cmp_odd_q);
		ok = memcmp(a, b, (size_t)n * sizeof a[0]) == 0;
	}
	check(ok, "sort_matches_glibc_qsort");
}

/* stable_sort_desc() must give exactly stable_sort()'s order, ties,
   NaN, -0.0, names sharing 16 bytes and an inconsistent rule included
   (that rule comes before the names, so it is tried without name keys,
   as a comparison's later tests may be anything). */
struct dk_item {
	double t;
	uint64_t c;
	const char *name;
	bool head;                   /* like a cycle header: always first */
};

static double dk_t(const void *p) { return ((const struct dk_item *)p)->t; }
static uint64_t dk_c(const void *p) { return ((const struct dk_item *)p)->c; }
static const char *dk_name(const void *p)
{
	return ((const struct dk_item *)p)->name;
}

static int cmp_dk(const void *pa, const void *pb, void *ctx)
{
	const struct dk_item *a = *(struct dk_item *const *)pa;
	const struct dk_item *b = *(struct dk_item *const *)pb;
	(void)ctx;
	if (a->t != b->t)
		return a->t > b->t ? -1 : 1;
	if (a->c != b->c)
		return a->c > b->c ? -1 : 1;
	if (a->head)
		return -1;           /* both ways for two heads: inconsistent */
	if (b->head)
		return 1;
	return strcmp(a->name, b->name);
}

static void test_sort_desc(void)
{
	static const char *const names[] = {
		"a", "b", "bf_node_0000000001", "bf_node_0000000002",
		"bf_node_000000000", "bf_node_0000000001x", "\xe9t\xe9", "",
		"zzzzzzzzzzzzzzzzzzzz", "zzzzzzzzzzzzzzzzzzza"
	};
	static const double times[] = { 0.0, -0.0, 1.5, 2.0, -3.0, 1e300 };
	struct desc_keys keys = { dk_t, dk_c, dk_name, false };
	bool ok = true;

	srand(7);
	for (int t = 0; t < 3000 && ok; t++) {
		int n = t % 10 == 9 ? rand() % 600 : rand() % 80;
		struct dk_item it[600];
		struct dk_item *a[600], *b[600];

		for (int i = 0; i < n; i++) {
			/* some runs with many distinct times and wide counts,
			   for the radix passes */
			int spread = t % 5 == 0 ? rand() % 1000 : 1;
			it[i] = (struct dk_item){ times[rand() % 6] * spread,
			        (uint64_t)(rand() % 3) << (t % 3 ? 0 : 20 + t % 40),
			        names[rand() % 10],
			        t % 2 == 0 && rand() % 9 == 0 };
			if (t % 50 == 0 && rand() % 20 == 0)
				it[i].t = NAN;
			a[i] = b[i] = &it[i];
		}
		/* keys for a prefix of the comparison's tests only */
		keys.name = t % 2 ? dk_name : NULL;
		keys.second = t % 2 || t % 3 ? dk_c : NULL;
		/* two heads each claim to come first: a tie to the merge,
		   so a weak order either way; both paths are tried */
		keys.weak_order = t % 3 != 0;
		stable_sort(a, (size_t)n, sizeof a[0], cmp_dk, NULL);
		stable_sort_desc((void **)b, (size_t)n, &keys, cmp_dk, NULL);
		ok = memcmp(a, b, (size_t)n * sizeof a[0]) == 0;
	}
	check(ok, "sort_desc_matches_stable_sort");
}

/* radix_sort() against a plain stable sort of the same items, on
   arrays long enough for several levels of buckets: keys spread over all
   16 bytes, keys that share their high bytes, few distinct keys (long
   runs of ties, whose order must be kept) and keys all equal. */
static int cmp_radix_ref(const void *pa, const void *pb, void *ctx)
{
	const struct radix_item *a = pa, *b = pb;
	(void)ctx;
	for (int i = 0; i < 2; i++)
		if (a->key[i] != b->key[i])
			return a->key[i] < b->key[i] ? -1 : 1;
	return 0;
}

static uint64_t radix_key(int shape)
{
	uint64_t r = (uint64_t)rand() << 33 ^ (uint64_t)rand() << 11 ^
	             (uint64_t)rand();
	switch (shape) {
	case 0: return r;                            /* all bytes vary */
	case 1: return UINT64_C(0xffffffff00000000) | (r & 0xfffff);
	case 2: return r % 5;                        /* long ties */
	default: return 42;                          /* all equal */
	}
}

static void test_radix_sort(void)
{
	bool ok = true;

	srand(11);
	for (int t = 0; t < 32 && ok; t++) {
		size_t n = (size_t)(t % 4 == 3 ? rand() % 100 : 20000 + rand() % 20000);
		struct radix_item *r = xmalloc(n * sizeof *r);
		struct radix_item *ref = xmalloc(n * sizeof *ref);

		for (size_t i = 0; i < n; i++) {
			r[i].key[0] = radix_key(t % 4);
			r[i].key[1] = radix_key((t / 4) % 4);
			r[i].at = (uint32_t)i;
		}
		memcpy(ref, r, n * sizeof *r);
		stable_sort(ref, n, sizeof *ref, cmp_radix_ref, NULL);
		radix_sort(r, n);
		for (size_t i = 0; i < n && ok; i++)
			ok = r[i].at == ref[i].at;
		free(r);
		free(ref);
	}
	check(ok, "radix_sort_matches_stable_sort");
}

static struct sym *add(struct symtab *t, vma_t addr, const char *name,
                       bool func, bool stat)
{
	struct sym *s = symtab_add(t);
	s->addr = addr;
	s->name = name;
	s->is_func = func;
	s->is_static = stat;
	return s;
}

static void test_symtab_dups(void)
{
	struct gprof g = { 0 };
	struct symtab t = { 0 };
	add(&t, 0x100, "lfunc", true, true);
	add(&t, 0x100, "__dualias", true, false);
	add(&t, 0x100, "work", true, false);
	add(&t, 0x100, "nofunc", false, false);
	add(&t, 0x100, "_ualias", true, false);
	add(&t, 0x200, "next", true, false);
	symtab_finish(&g, &t, 0x300);
	check(t.len == 2 && strcmp(t.base[0].name, "work") == 0 &&
	      t.base[0].end_addr == 0x1ff && t.base[1].end_addr == 0x2ff,
	      "symtab_duplicates");
	check(sym_lookup(&t, 0x150) == &t.base[0] &&
	      sym_lookup(&t, 0x2ff) == &t.base[1] &&
	      sym_lookup(&t, 0x300) == NULL && sym_lookup(&t, 0xff) == NULL,
	      "symtab_lookup");
	free(t.base);
	free(t.addrs);
	free(t.bucket);
}

static void test_symtab_lookup_many(void)
{
	struct gprof g = { 0 };
	struct symtab t = { 0 };
	for (vma_t a = 0; a < 100000; a++)
		add(&t, 0x1000 + a * 16, "f", true, false);
	symtab_finish(&g, &t, 0x1000 + 100000 * 16);
	bool ok = true;
	for (vma_t a = 0; a < 100000; a += 7)
		ok &= sym_lookup(&t, 0x1000 + a * 16 + 9) == &t.base[a];
	check(ok, "symtab_lookup_100k");
	free(t.base);
	free(t.addrs);
	free(t.bucket);
}

/* Big elements are sorted through pointers, pointer-sized ones by a merge
   of their own: both must give the pattern of the plain merge. */
struct big { int v; char pad[60]; };

static int cmp_odd_big(const void *a, const void *b, void *ctx)
{
	return cmp_odd(&((const struct big *)a)->v, &((const struct big *)b)->v,
	               ctx);
}

static int cmp_odd_long(const void *a, const void *b, void *ctx)
{
	int x = (int)*(const long *)a, y = (int)*(const long *)b;
	return cmp_odd(&x, &y, ctx);
}

static void test_sort_sizes(void)
{
	bool ok = true;
	srand(2);
	for (int t = 0; t < 2000 && ok; t++) {
		int n = rand() % 60, a[64];
		struct big b[64];
		long l[64];
		for (int i = 0; i < n; i++) {
			a[i] = l[i] = b[i].v = rand() % 100;
			memset(b[i].pad, a[i], sizeof b[i].pad);
		}
		stable_sort(a, (size_t)n, sizeof a[0], cmp_odd, NULL);
		stable_sort(b, (size_t)n, sizeof b[0], cmp_odd_big, NULL);
		stable_sort(l, (size_t)n, sizeof l[0], cmp_odd_long, NULL);
		for (int i = 0; i < n; i++)
			ok &= b[i].v == a[i] && l[i] == a[i] &&
			      b[i].pad[0] == (char)a[i] && b[i].pad[59] == (char)a[i];
	}
	check(ok, "sort_big_and_pointer_sized");
}

/* Lookups through the address buckets agree with a linear search, for
   dense, sparse and clustered addresses, inside and outside the table. */
static void test_symtab_lookup_random(void)
{
	bool ok = true;
	srand(3);
	for (int t = 0; t < 60 && ok; t++) {
		struct gprof g = { 0 };
		struct symtab tab = { 0 };
		int n = 1 + rand() % 300;
		vma_t base = t % 3 == 0 ? 0 : (vma_t)rand() << (t % 40);
		vma_t a = base;
		for (int i = 0; i < n; i++) {
			add(&tab, a, "f", true, false);
			a += 1 + (vma_t)(rand() % (t % 2 ? 8 : 100000));
			if (rand() % 50 == 0)
				a += (vma_t)1 << (20 + rand() % 30);
		}
		symtab_finish(&g, &tab, a);
		for (int q = 0; q < 2000 && ok; q++) {
			vma_t x = base - 50 + (vma_t)rand() % (a - base + 100);
			struct sym *want = NULL;
			for (size_t i = 0; i < tab.len; i++)
				if (tab.base[i].addr <= x)
					want = &tab.base[i];
			if (want == &tab.base[tab.len - 1] && x > want->end_addr)
				want = NULL;
			ok &= sym_lookup(&tab, x) == want;
		}
		free(tab.base);
		free(tab.addrs);
		free(tab.bucket);
	}
	check(ok, "symtab_lookup_random");
}

/* The report formatters print exactly what printf prints, near rounding
   ties, for negative zero, huge and odd values too. */
static void test_fmt(void)
{
	static char a[FMT_BUF + 8], b[FMT_BUF + 8];
	uint64_t st = 88172645463325252ull;
	bool ok = true;
	for (long i = 0; i < 300000 && ok; i++) {
		st ^= st << 13, st ^= st >> 7, st ^= st << 17;
		double v;
		switch (i % 6) {
		case 0: v = (double)(st % 100000) / 100.0; break;
		case 1: v = (double)(st % 10000000) / 1000.0 + 1e-12 * (double)(st % 3); break;
		case 2: memcpy(&v, &st, sizeof v); break;
		case 3: v = (double)(st % 1000) + 0.5 * (double)(st >> 40 & 1) +
		            0.005 * (double)(st >> 41 & 3); break;
		case 4: v = (double)(st % 1000000) / (double)(1u << (st >> 50 & 31)); break;
		default: v = (double)st / 1e10; break;
		}
		if (st >> 60 & 1)
			v = -v;
		if (i == 7)
			v = -0.0;
		int w = (int)((st >> 20) % 12), p = (int)((st >> 30) % 7);
		fmt_fixed(a, v, w, p);
		snprintf(b, sizeof b, "%*.*f", w, p, v);
		ok &= strcmp(a, b) == 0;
		uint64_t u = st >> (st % 64);
		bool left = st & 1;
		fmt_uint(a, u, w, left);
		snprintf(b, sizeof b, left ? "%-*llu" : "%*llu", w,
		         (unsigned long long)u);
		ok &= strcmp(a, b) == 0;
	}
	check(ok, "fmt_fixed_and_uint_match_printf");
}

static void test_strbuf(void)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 1000; i++)
		sb_printf(&sb, "%d,", i);
	const char *s = sb_str(&sb);
	check(strncmp(s, "0,1,2,", 6) == 0 && strlen(s) == sb.len &&
	      strcmp(s + sb.len - 4, "999,") == 0, "strbuf");
	sb_free(&sb);
}

int main(void)
{
	test_sort_stable();
	test_sort_pattern();
	test_sort_desc();
	test_radix_sort();
	test_symtab_dups();
	test_symtab_lookup_many();
	test_sort_sizes();
	test_symtab_lookup_random();
	test_fmt();
	test_strbuf();
	unit_hist_assign();
	unit_shlib_syms();
	unit_demangle();
	unit_json_numbers();
	unit_call_graph();
	unit_decoders();
	return failures != 0;
}
