/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * symtab.c - symbol tables: building, the address sort with GNU's rules for
 * choosing one symbol among several at the same address, and O(log n)
 * lookup of the symbol that covers an address.
 */
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"

struct sym *symtab_add(struct symtab *tab)
{
	if (tab->len == tab->cap)
		symtab_reserve(tab, tab->cap ? tab->cap * 2 : 1024);
	free(tab->addrs);
	free(tab->bucket);
	tab->addrs = NULL;
	tab->bucket = NULL;
	struct sym *s = &tab->base[tab->len++];
	memset(s, 0, sizeof *s);
	s->cyc_head = NULL;
	return s;
}

/* Room for n symbols in all (symbols are big: callers that know how many
   are coming avoid the slack of doubling). */
void symtab_reserve(struct symtab *tab, size_t n)
{
	if (n <= tab->cap)
		return;
	tab->cap = n;
	tab->base = xrealloc(tab->base, tab->cap * sizeof *tab->base);
}

static void index_addrs(struct symtab *tab);

/*
 * Address order; at one address functions come before other symbols and
 * globals before statics.  Remaining ties keep creation order.  The
 * symbols are big and the table long, so the order is worked out on
 * small keys by sort.c's radix sort (address, then the order at one
 * address) and the symbols are moved once, into place.
 */

/* Puts base[i] where key k[i] says it came from, following each cycle
   of the permutation with one symbol held aside. */
static void move_into_place(struct sym *base, struct radix_item *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (k[i].at == i)
			continue;
		struct sym hold = base[i];
		size_t j = i;
		for (;;) {
			size_t from = k[j].at;
			k[j].at = (uint32_t)j;
			if (from == i) {
				base[j] = hold;
				break;
			}
			base[j] = base[from];
			j = from;
		}
	}
}

static void sort_by_addr(struct sym *base, size_t n)
{
	struct radix_item *k = xmalloc((n ? n : 1) * sizeof *k);

	for (size_t i = 0; i < n; i++)
		k[i] = (struct radix_item){
			{ base[i].addr,
			  2 * (uint64_t)!base[i].is_func + base[i].is_static },
			(uint32_t)i };
	radix_sort(k, n);
	move_into_place(base, k, n);
	free(k);
}

/* Should `cand` replace `kept`, the symbol already chosen at its address?
   A global beats a static; then a function beats a non-function; then a
   name without a leading underscore beats one with, and "_x" beats "__x". */
static bool prefer(const struct sym *cand, const struct sym *kept)
{
	if (!cand->is_static && kept->is_static)
		return true;
	if (cand->is_static != kept->is_static)
		return false;
	if (cand->is_func != kept->is_func)
		return cand->is_func;
	const char *c = cand->name, *k = kept->name;
	if (c[0] != '_' && k[0] == '_')
		return true;
	return c[0] == '_' && k[0] == '_' && c[1] != '_' && k[1] == '_';
}

/* Sorts base[from..], and keeps one symbol per address among them. */
static void sort_from(struct symtab *tab, size_t from)
{
	sort_by_addr(tab->base + from, tab->len - from);
	size_t kept = from;
	for (size_t i = from; i < tab->len; i++) {
		struct sym *s = &tab->base[i];
		if (kept > from && s->addr == tab->base[kept - 1].addr) {
			struct sym *k = &tab->base[kept - 1];
			if (prefer(s, k))
				*k = *s;
			continue;
		}
		if (kept > from && tab->base[kept - 1].end_addr == 0)
			tab->base[kept - 1].end_addr = s->addr - 1;
		if (s->end_addr == 0 || s->addr <= s->end_addr) {
			if (kept != i)
				tab->base[kept] = *s;
			kept++;
		}
	}
	tab->len = kept;
}

/*
 * Sorts, drops duplicate addresses and sets each symbol's end address.
 * A symbol whose end was already set by an earlier pass keeps it, and is
 * dropped if that range is empty: in -l mode the function symbols have
 * been finished once before the line symbols join them, so a function
 * symbol lying beyond .text (such as data_start) disappears, as in GNU.
 */
void symtab_finish(struct gprof *g, struct symtab *tab, vma_t text_end)
{
	(void)g;
	if (tab->len == 0)
		return;
	sort_from(tab, 0);
	if (tab->len > 0 && tab->base[tab->len - 1].end_addr == 0)
		tab->base[tab->len - 1].end_addr = text_end - 1;
	index_addrs(tab);
}

/* Finishes symbols added after the table was finished, all of them above
   every earlier one, with their end addresses set (shared libraries):
   the earlier symbols are left exactly as they are. */
void symtab_finish_from(struct gprof *g, struct symtab *tab, size_t from)
{
	(void)g;
	if (tab->len == from)
		return;
	sort_from(tab, from);
	index_addrs(tab);
}

/* Lookups go through buckets of 2^shift bytes, about two per symbol:
   a bucket names the symbol covering its start and where the next one
   starts, which settles most lookups with one cache line.  Only when
   several symbols start within one bucket is a packed copy of the start
   addresses searched. */
static void index_addrs(struct symtab *tab)
{
	size_t n = tab->len;
	const vma_t *a;
	if (n == 0) {
		free(tab->addrs);
		free(tab->bucket);
		tab->addrs = NULL;
		tab->bucket = NULL;
		return;
	}
	tab->addrs = xrealloc(tab->addrs, n * sizeof *tab->addrs);
	for (size_t i = 0; i < n; i++)
		tab->addrs[i] = tab->base[i].addr;
	a = tab->addrs;

	vma_t span = a[n - 1] - a[0];
	unsigned shift = 0;
	while ((span >> shift) > 4 * (vma_t)n)
		shift++;
	size_t nb = (size_t)(span >> shift) + 1;
	tab->bucket = xrealloc(tab->bucket, nb * sizeof *tab->bucket);
	tab->nbucket = nb;
	tab->shift = shift;
	for (size_t k = 0, j = 0; k < nb; k++) {
		vma_t start = a[0] + ((vma_t)k << shift);
		while (j + 1 < n && a[j + 1] <= start)
			j++;
		vma_t off = j + 1 < n ? a[j + 1] - start : UINT32_MAX;
		tab->bucket[k] = (struct sym_bucket){
			(uint32_t)j, off < UINT32_MAX ? (uint32_t)off : UINT32_MAX };
	}
}

/* The last of a[lo..hi-1] at or below addr (a[lo] is). */
static size_t search_addrs(const vma_t *a, size_t lo, size_t hi, vma_t addr)
{
	/* branch-free: the choice compiles to a conditional move */
	size_t n = hi - lo;
	while (n > 1) {
		size_t half = n / 2;
		lo = a[lo + half] <= addr ? lo + half : lo;
		n -= half;
	}
	return lo;
}

/* The last symbol starting at or below addr, through the buckets. */
static size_t lookup_bucketed(const struct symtab *tab, vma_t addr)
{
	const vma_t *a = tab->addrs;
	vma_t rel = addr - a[0], k = rel >> tab->shift;
	if (k >= tab->nbucket)
		return search_addrs(a, tab->bucket[tab->nbucket - 1].first,
		                    tab->len, addr);
	const struct sym_bucket *b = &tab->bucket[k];
	size_t hi = k + 1 < tab->nbucket ? (size_t)b[1].first + 1 : tab->len;
	if (tab->shift >= 32)           /* offsets too wide to keep */
		return search_addrs(a, b->first, hi, addr);
	/* Past the next start, the answer is among the symbols starting
	   up to the next bucket's start: usually just that next one. */
	bool past = rel - (k << tab->shift) >= b->next_off;
	size_t lo = b->first + past;
	if (past && hi - lo > 1)
		return search_addrs(a, lo, hi, addr);
	return lo;
}

/* Asks for the memory that looking addr up will read (the one bucket
   that settles most lookups), so that it comes meanwhile. */
void sym_lookup_prefetch(const struct symtab *tab, vma_t addr)
{
	if (!tab->addrs || addr < tab->addrs[0])
		return;
	vma_t k = (addr - tab->addrs[0]) >> tab->shift;
	if (k < tab->nbucket)
		__builtin_prefetch(&tab->bucket[k]);
}

/* The symbol covering `addr`: the last one starting at or below it, which
   for the last symbol must also end at or above it. */
struct sym *sym_lookup(const struct symtab *tab, vma_t addr)
{
	size_t lo = 0, hi = tab->len;
	if (hi == 0 || addr < tab->base[0].addr)
		return NULL;
	if (tab->addrs) {
		lo = lookup_bucketed(tab, addr);
	} else {
		while (hi - lo > 1) {
			size_t mid = lo + (hi - lo) / 2;
			if (tab->base[mid].addr <= addr)
				lo = mid;
			else
				hi = mid;
		}
	}
	struct sym *s = &tab->base[lo];
	if (lo + 1 < tab->len)
		return s;
	return addr <= s->end_addr ? s : NULL;
}

/* sym_lookup() among the executable's own symbols only: addresses from
   the profile never land on a shared library's (see shlibs.c), and the
   last of the executable's symbols ends where it did without them. */
struct sym *sym_lookup_exe(const struct gprof *g, vma_t addr)
{
	struct sym *s = sym_lookup(&g->syms, addr);
	if (!s || !g->shlib_base)
		return s;
	if (addr >= g->shlib_base || (s == &g->syms.base[g->shlib_first - 1] &&
	                              addr > s->end_addr))
		return NULL;
	return s;
}
