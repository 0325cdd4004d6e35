/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * clones.c - GCC's compiler clones among the symbols: which names are
 * clones (foo.part.0, foo.isra.0, foo.constprop.0, foo.cold, and their
 * combinations), the ones GNU's name rule drops (their code then counts
 * as the function's before them: the ranges the diagnosis measures), and
 * with --clones=merge the function each clone is credited to.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <bfd.h>

#include "symbols/symbols.h"

/* ---- clone names ---- */

/* GCC's clone suffixes: the word, and whether a number must follow
   (the others may take one: foo.cold.1). */
static const struct clone_word {
	const char *word;
	bool numbered;
} clone_words[] = {
	{ ".part.", true },          /* split off by partial inlining */
	{ ".isra.", true },          /* arguments cut down by IPA-SRA */
	{ ".constprop.", true },     /* specialised for constant arguments */
	{ ".clone.", true },         /* older GCCs' name for the same */
	{ ".lto_priv.", true },      /* a static made unique by LTO */
	{ ".specialized.", true },
	{ ".cold", false },          /* the unlikely blocks, moved away */
	{ ".localalias", false },    /* a local alias of the function */
};

/* The length of the one clone suffix at p, or 0. */
static size_t suffix_len(const char *p)
{
	for (size_t i = 0; i < sizeof clone_words / sizeof *clone_words; i++) {
		const struct clone_word *w = &clone_words[i];
		size_t n = strlen(w->word);
		if (strncmp(p, w->word, n) != 0)
			continue;
		const char *q = p + n;
		if (w->numbered && !isdigit((unsigned char)*q))
			continue;
		if (!w->numbered && q[0] == '.' && isdigit((unsigned char)q[1]))
			q++;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q == '\0' || *q == '.')
			return (size_t)(q - p);
	}
	return 0;
}

/* Do clone suffixes make up all of p? */
static bool all_suffixes(const char *p)
{
	while (*p) {
		size_t n = suffix_len(p);
		if (n == 0)
			return false;
		p += n;
	}
	return true;
}

/* The length of the name a clone was made from (foo of foo.part.0 and
   of foo.constprop.0.isra.0), or 0 when `name` is no clone's. */
size_t clone_base_len(const char *name)
{
	for (const char *p = strchr(name, '.'); p; p = strchr(p + 1, '.'))
		if (p > name && all_suffixes(p))
			return (size_t)(p - name);
	return 0;
}

/* Is `part` a piece that partial inlining split off `whole` (its name
   followed by one .part.N)?  A call from whole into it is the rest of
   whole's own body, not a call of the program. */
bool clone_is_split_of(const char *part, const char *whole)
{
	size_t n = strlen(whole);
	return strncmp(part, whole, n) == 0 && strncmp(part + n, ".part.", 6) == 0 &&
	       suffix_len(part + n) == strlen(part + n);
}

/* ---- the clones GNU's rule drops ---- */

static int cmp_range(const void *pa, const void *pb)
{
	const struct clone_range *a = pa, *b = pb;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int cmp_vma(const void *pa, const void *pb)
{
	vma_t a = *(const vma_t *)pa, b = *(const vma_t *)pb;
	return a < b ? -1 : a > b;
}

/*
 * The symbols classify() marked 'x' (static functions GNU rejects for
 * their names) become the clone ranges.  One at the address of a symbol
 * GNU keeps (foo.localalias beside foo) moves nothing: it is left out,
 * and never joins the table.  Under GNU's rule none joins it; otherwise
 * the others do (cls stays 'x').
 */
void clones_note_dropped(struct gprof *g, void **bfd_syms, char *cls, long n)
{
	asymbol **syms = (asymbol **)bfd_syms;
	struct clone_stats *c = &g->clones;
	size_t nkept = 0, nx = 0;
	for (long i = 0; i < n; i++) {
		nkept += cls[i] == 'T' || cls[i] == 't';
		nx += cls[i] == 'x';
	}
	if (nx == 0)
		return;
	vma_t *kept = xmalloc((nkept + 1) * sizeof *kept);
	nkept = 0;
	for (long i = 0; i < n; i++)
		if (cls[i] == 'T' || cls[i] == 't')
			kept[nkept++] = bfd_asymbol_value(syms[i]);
	qsort(kept, nkept, sizeof *kept, cmp_vma);
	c->ranges = xrealloc(c->ranges, (c->nranges + nx) * sizeof *c->ranges);
	for (long i = 0; i < n; i++) {
		if (cls[i] != 'x')
			continue;
		vma_t a = bfd_asymbol_value(syms[i]);
		if (bsearch(&a, kept, nkept, sizeof *kept, cmp_vma)) {
			cls[i] = 0;
			continue;
		}
		c->ranges[c->nranges++] = (struct clone_range){
			.name = syms[i]->name, .addr = a };
		if (g->opt.clones == CLONES_GNU)
			cls[i] = 0;
	}
	free(kept);
	qsort(c->ranges, c->nranges, sizeof *c->ranges, cmp_range);
}

/* Is there a clone range starting at a? */
static bool is_range_start(const struct clone_stats *c, vma_t a)
{
	struct clone_range key = { .addr = a };
	return bsearch(&key, c->ranges, c->nranges, sizeof *c->ranges,
	               cmp_range) != NULL;
}

/*
 * Once the executable's table is finished: where each range ends (the
 * next symbol's start, a clone's or a kept one's) and which function
 * GNU credits it to (the last one GNU keeps starting before it).  Two
 * clones at one address count once.
 */
void clones_finish_ranges(struct gprof *g, vma_t text_end)
{
	struct clone_stats *c = &g->clones;
	const struct symtab *t = &g->syms;
	size_t k = 0, j = 0;
	for (size_t i = 0; i < c->nranges; i++) {
		if (k > 0 && c->ranges[i].addr == c->ranges[k - 1].addr)
			continue;
		c->ranges[k++] = c->ranges[i];
	}
	c->nranges = k;
	const char *owner = NULL;
	for (size_t i = 0; i < c->nranges; i++) {
		struct clone_range *r = &c->ranges[i];
		/* the table's symbols up to r, and the first one after it */
		for (; j < t->len && t->base[j].addr <= r->addr; j++)
			if (!is_range_start(c, t->base[j].addr))
				owner = t->base[j].name;
		r->gnu_owner = owner;
		r->end = j < t->len ? t->base[j].addr : text_end;
		if (i + 1 < c->nranges && c->ranges[i + 1].addr < r->end)
			r->end = c->ranges[i + 1].addr;
		if (r->end < r->addr)
			r->end = r->addr;
	}
}

/* ---- --clones=merge: each clone's origin ---- */

struct named {
	const char *name;
	struct sym *s;
};

static int cmp_named(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	int d = strcmp(a->name, b->name);
	if (d)
		return d;
	return a->s->addr < b->s->addr ? -1 : a->s->addr > b->s->addr;
}

/* The first entry named by the n bytes at `name`, or v + nv. */
static const struct named *first_named(const struct named *v, size_t nv,
                                       const char *name, size_t n)
{
	size_t lo = 0, hi = nv;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int d = strncmp(v[mid].name, name, n);
		if (d == 0 && v[mid].name[n] != '\0')
			d = 1;
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return v + lo;
}

/* Of the symbols named by the n bytes at `name`, the one nearest to s in
   s's own object (the executable, or the libraries: a library's clone
   lies in its library); NULL if none.  Several statics of one name in
   different files are told apart by distance alone: a clone is emitted
   with its origin. */
static struct sym *find_origin(const struct gprof *g, const struct named *v,
                               size_t nv, const struct sym *s,
                               const char *name, size_t n)
{
	struct sym *best = NULL;
	vma_t best_d = 0;
	for (const struct named *e = first_named(v, nv, name, n);
	     e < v + nv && strncmp(e->name, name, n) == 0 && e->name[n] == '\0';
	     e++) {
		if (e->s == s || sym_in_shlib(g, e->s) != sym_in_shlib(g, s))
			continue;
		vma_t d = e->s->addr > s->addr ? e->s->addr - s->addr
		                               : s->addr - e->s->addr;
		if (!best || d < best_d) {
			best = e->s;
			best_d = d;
		}
	}
	return best;
}

/* The origin of one clone: the shortest name it was made from that is
   a function of the table (foo, else foo.constprop.0 for
   foo.constprop.0.isra.0). */
static struct sym *origin_of(const struct gprof *g, const struct named *v,
                             size_t nv, const struct sym *s)
{
	size_t n = clone_base_len(s->name);
	if (n == 0)
		return NULL;
	while (s->name[n]) {
		struct sym *o = find_origin(g, v, nv, s, s->name, n);
		if (o)
			return o;
		n += suffix_len(s->name + n);
	}
	return NULL;
}

/* --clones=merge: sets each clone's origin (the shared libraries'
   symbols included, so after they are loaded).  A clone whose origin
   is not in the table stays a function under its own name. */
void clones_map(struct gprof *g)
{
	struct symtab *t = &g->syms;
	if (g->opt.clones != CLONES_MERGE || g->opt.line_gran || t->len == 0)
		return;
	struct named *v = xmalloc(t->len * sizeof *v);
	size_t nv = 0;
	bool any = false;
	for (size_t i = 0; i < t->len; i++) {
		v[nv++] = (struct named){ t->base[i].name, &t->base[i] };
		any = any || clone_base_len(t->base[i].name) > 0;
	}
	if (any) {
		qsort(v, nv, sizeof *v, cmp_named);
		for (size_t i = 0; i < t->len; i++) {
			struct sym *s = &t->base[i];
			s->origin = origin_of(g, v, nv, s);
			g->clones.nmerged += s->origin != NULL;
		}
		/* an origin is never a clone with an origin of its own, but
		   say so to every reader */
		for (size_t i = 0; i < t->len; i++) {
			struct sym *s = &t->base[i];
			for (int hops = 0; s->origin && s->origin->origin && hops < 8;
			     hops++)
				s->origin = s->origin->origin;
		}
	}
	free(v);
}
