/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arc_bulk.c - owns the bulk loading of a profile's call arcs: records are
 * resolved to symbol numbers as they are read (a few records late: see
 * arc_take()) and kept in one compact array; once every file is read,
 * arc_bulk_flush() merges repeated arcs and builds all of them at once,
 * laid out by caller.
 *
 * Tallying record by record (call_graph.c's cg_tally) costs a hash probe
 * and an allocation per record, scattered over memory: at a million arcs
 * that pointer chasing was most of the run.  The result here is the same
 * graph to the byte: each arc's creation number is that of its first
 * record, its parent's and child's lists are newest first, and g->arcs
 * holds the non-self arcs in creation order.  Bulk loading runs at most
 * once, into a graph with no arc on a real symbol yet; otherwise (or with
 * -d asking to see each tally) the records go through cg_tally.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* One record, as symbol numbers.  A count of WIDE or more is kept
   aside, with its record number (BSD counts are as wide as an address). */
struct arc_rec {
	uint32_t parent, child;
	uint32_t count;
};

#define WIDE UINT32_MAX

struct wide_count {
	size_t rec;
	uint64_t count;
};

/* A record not yet looked up: see arc_take(). */
struct raw_arc {
	vma_t from, self;
	uint64_t count;
};

#define AHEAD_RECS 8

struct arc_pending {
	struct arc_rec *v;
	size_t n, cap;
	struct wide_count *wide;     /* by record number */
	size_t nwide, wide_cap;
	struct raw_arc ahead[AHEAD_RECS];  /* a ring, oldest at ahead[first] */
	unsigned first, nahead;
};

/* Record-by-record tallying when -d wants to see each arc as it is made,
   or when arcs on real symbols exist already (nothing to merge into). */
static bool bulk_allowed(const struct gprof *g)
{
	return !(g->opt.debug & (DBG_TALLY | DBG_LOOKUP)) && !g->arcs_on_syms &&
	       g->syms.len < UINT32_MAX;
}

static uint64_t rec_count(const struct arc_pending *q, uint32_t count,
                          size_t r);

/* Below this many records the array just grows. */
#define COMPACT_MIN (1u << 20)

static size_t pair_hash(const struct arc_rec *a, size_t mask)
{
	uint64_t h = ((uint64_t)a->parent << 32 | a->child) *
	             0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 29) & mask;
}

/* The wide counts again, for the records of v as they are now (sums
   holds each record's whole count). */
static void rewiden(struct arc_pending *q, const uint64_t *sums)
{
	q->nwide = 0;
	for (size_t r = 0; r < q->n; r++) {
		if (sums[r] < WIDE)
			continue;
		if (q->nwide == q->wide_cap) {
			q->wide_cap = q->wide_cap ? q->wide_cap * 2 : 16;
			q->wide = xrealloc(q->wide, q->wide_cap * sizeof *q->wide);
		}
		q->wide[q->nwide++] = (struct wide_count){ r, sums[r] };
	}
}

/*
 * Merges the repeated records of one arc into its first, in place: the
 * first records keep their order, which is all the arcs' creation
 * numbers depend on, and counts add up as merge_records() would add
 * them.  Summing a thousand profiles (-s) otherwise kept every record of
 * every file, hundreds of megabytes where the arcs are a few thousand.
 */
static void pending_compact(struct arc_pending *q)
{
	size_t size = 1, u = 0;

	while (size < 2 * q->n)
		size *= 2;
	uint32_t *slot = xmalloc(size * sizeof *slot);
	uint64_t *sums = xmalloc(q->n * sizeof *sums);

	memset(slot, 0xff, size * sizeof *slot);
	for (size_t r = 0; r < q->n; r++) {
		const struct arc_rec *a = &q->v[r];
		uint64_t count = rec_count(q, a->count, r);
		size_t b = pair_hash(a, size - 1);

		while (slot[b] != UINT32_MAX && (q->v[slot[b]].parent != a->parent ||
		                                 q->v[slot[b]].child != a->child))
			b = (b + 1) & (size - 1);
		if (slot[b] != UINT32_MAX) {
			sums[slot[b]] += count;
			continue;
		}
		slot[b] = (uint32_t)u;
		sums[u] = count;
		q->v[u++] = (struct arc_rec){ a->parent, a->child, 0 };
	}
	free(slot);
	q->n = u;
	for (size_t r = 0; r < u; r++)
		q->v[r].count = sums[r] < WIDE ? (uint32_t)sums[r] : WIDE;
	rewiden(q, sums);
	free(sums);
}

static void pending_push(struct arc_pending *q, uint32_t p, uint32_t c,
                         uint64_t count)
{
	if (q->n == q->cap) {
		if (q->n >= COMPACT_MIN)
			pending_compact(q);
		/* Grow unless compacting freed half of it. */
		if (q->n == q->cap || q->n > q->cap / 2) {
			/* Large blocks are mmapped: growth moves no pages. */
			q->cap = q->cap ? q->cap * 2 : 4096;
			q->v = xrealloc(q->v, q->cap * sizeof *q->v);
		}
	}
	if (count >= WIDE) {
		if (q->nwide == q->wide_cap) {
			q->wide_cap = q->wide_cap ? q->wide_cap * 2 : 16;
			q->wide = xrealloc(q->wide, q->wide_cap * sizeof *q->wide);
		}
		q->wide[q->nwide++] = (struct wide_count){ q->n, count };
	}
	q->v[q->n] = (struct arc_rec){ p, c, count >= WIDE ? WIDE
	                                                   : (uint32_t)count };
	q->n++;
}

static int cmp_wide(const void *key, const void *elem)
{
	size_t r = *(const size_t *)key;
	const struct wide_count *w = elem;

	return (r > w->rec) - (r < w->rec);
}

/* Record r's count (looked up aside when it was too wide to keep: every
   such record has its entry there, in record order). */
static uint64_t rec_count(const struct arc_pending *q, uint32_t count,
                          size_t r)
{
	if (count != WIDE)
		return count;
	const struct wide_count *w = bsearch(&r, q->wide, q->nwide,
	                                     sizeof *q->wide, cmp_wide);

	return w ? w->count : WIDE;
}

/* A record into the pending ones, as symbol numbers. */
static void resolve(struct gprof *g, struct arc_pending *q,
                    const struct raw_arc *ra)
{
	struct sym *parent = sym_lookup_exe(g, ra->from);
	struct sym *child = sym_lookup_exe(g, ra->self);

	if (!cg_arc_wanted(g, &parent, &child))
		return;
	pending_push(q, (uint32_t)(parent - g->syms.base),
	             (uint32_t)(child - g->syms.base), ra->count);
}

/* The records still waiting for their lookups, in the order read. */
static void resolve_all(struct gprof *g, struct arc_pending *q)
{
	for (; q->nahead > 0; q->nahead--) {
		resolve(g, q, &q->ahead[q->first]);
		q->first = (q->first + 1) % AHEAD_RECS;
	}
}

/*
 * Records come in no useful order, so each lookup would wait for memory:
 * a record's lookups are done a few records after it is taken, the
 * symbol table having been asked for those addresses when it came.
 * Resolving later changes nothing: the table does not change while
 * profiles are read, and the records keep their order.
 */
void arc_take(struct gprof *g, vma_t from_pc, vma_t self_pc, uint64_t count)
{
	struct arc_pending *q = g->arc_pending;

	if (g->thread_only)
		return;
	if (!bulk_allowed(g)) {
		if (q)
			resolve_all(g, q);
		cg_tally(g, from_pc, self_pc, count);
		return;
	}
	if (!q)
		q = g->arc_pending = xcalloc(1, sizeof *q);
	sym_lookup_prefetch(&g->syms, from_pc);
	sym_lookup_prefetch(&g->syms, self_pc);
	if (q->nahead == AHEAD_RECS) {
		resolve(g, q, &q->ahead[q->first]);
		q->first = (q->first + 1) % AHEAD_RECS;
		q->nahead--;
	}
	q->ahead[(q->first + q->nahead++) % AHEAD_RECS] =
		(struct raw_arc){ from_pc, self_pc, count };
}

/* A record grouped under its parent: the parent is implied by the
   group. */
struct grp_rec {
	uint32_t child;
	uint32_t count;              /* WIDE: see rec_count() */
	uint32_t rec;                /* record number */
};

/* The records grouped by parent, in record order within each group (a
   counting sort that moves the records themselves, so that merging then
   reads them in order); ends[p] is one past group p. */
static struct grp_rec *group_by_parent(const struct arc_pending *q,
                                       size_t nsym, uint32_t **ends)
{
	uint32_t *end = xcalloc(nsym + 1, sizeof *end);
	struct grp_rec *grp = xmalloc((q->n ? q->n : 1) * sizeof *grp);

	for (size_t r = 0; r < q->n; r++)
		end[q->v[r].parent + 1]++;
	for (size_t p = 1; p <= nsym; p++)
		end[p] += end[p - 1];
	/* end[p] is now group p's start; filling moves it to its end. */
	for (size_t r = 0; r < q->n; r++) {
		const struct arc_rec *a = &q->v[r];

		grp[end[a->parent]++] = (struct grp_rec){ a->child, a->count,
		                                          (uint32_t)r };
	}
	*ends = end;
	return grp;
}

/* Bit r of `bits` is set when record r is the first of its arc: an arc's
   creation number is the count of such records before its own, and
   below[w] holds that count for the records before word w. */
struct first_recs {
	uint64_t *bits;
	uint32_t *below;
};

static unsigned popcount64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

/* The arcs whose first records come before record r. */
static size_t firsts_before(const struct first_recs *fr, size_t r)
{
	uint64_t below_r = ((uint64_t)1 << (r % 64)) - 1;

	return fr->below[r / 64] + popcount64(fr->bits[r / 64] & below_r);
}

static void firsts_count(struct first_recs *fr, size_t nrec)
{
	size_t nw = nrec / 64 + 1;

	fr->below = xmalloc(nw * sizeof *fr->below);
	for (size_t w = 0, sum = 0; w < nw; w++) {
		fr->below[w] = (uint32_t)sum;
		sum += popcount64(fr->bits[w]);
	}
}

/* One arc per (parent, child), by parent, each parent's arcs in the
   order of their first records; an arc's id holds that record's number
   for now, and fr marks those records.  nto[c] counts the arcs to c.
   Returns the arcs (exactly *narcs of them); *spent is the grouped
   records' block, done with (12 bytes a record). */
static struct arc *merge_records(struct gprof *g, struct arc_pending *q,
                                 struct first_recs *fr, uint32_t *nto,
                                 size_t *narcs, void **spent)
{
	size_t nsym = g->syms.len, nu = 0;
	uint32_t *end;
	struct grp_rec *grp = group_by_parent(q, nsym, &end);

	/* The records are grouped: their array lives on only as room for
	   g->arcs (see reuse_for_arcs()), which never needs more than a
	   pointer a record. */
	q->v = xrealloc(q->v, (q->n ? q->n : 1) * sizeof(struct arc *));
	/* seen[c]: the arc to c of the current parent, when owner[c] is it */
	uint32_t *owner = xcalloc(nsym ? nsym : 1, sizeof *owner);
	uint32_t *seen = xmalloc((nsym ? nsym : 1) * sizeof *seen);
	struct arc *v = xmalloc(q->n * sizeof *v);
	struct sym *base = g->syms.base;

	for (size_t p = 0, k = 0; p < nsym; p++) {
		for (; k < end[p]; k++) {
			const struct grp_rec *rec = &grp[k];
			uint64_t count = rec_count(q, rec->count, rec->rec);

			if (owner[rec->child] == p + 1) {
				v[seen[rec->child]].count += count;
				continue;
			}
			owner[rec->child] = (uint32_t)p + 1;
			seen[rec->child] = (uint32_t)nu;
			nto[rec->child]++;
			fr->bits[rec->rec / 64] |= (uint64_t)1 << (rec->rec % 64);
			v[nu++] = (struct arc){ .parent = &base[p],
			                        .child = &base[rec->child],
			                        .count = count, .id = rec->rec };
		}
	}
	free(owner);
	free(seen);
	free(end);
	*spent = grp;
	*narcs = nu;
	/* Shrinking an mmapped block keeps its address; arcs are only
	   pointed at from here on. */
	return xrealloc(v, (nu ? nu : 1) * sizeof *v);
}

/* Creation numbers in the order of the arcs' first records, and by_id
   (room for nu arcs in g->arcs) filled in that order.  Each parent's
   arcs are adjacent in v, oldest first: its list runs through them
   backwards, then on to the arcs it had before.  True if every count
   fits in 32 bits. */
static bool number_arcs(struct gprof *g, struct arc *v, size_t nu,
                        struct first_recs *fr, struct arc **by_id)
{
	bool narrow = true;

	for (size_t u = 0; u < nu; u++) {
		struct arc *a = &v[u];
		struct sym *p = a->parent;
		size_t n = firsts_before(fr, a->id);

		a->id = g->narcs + n;
		by_id[n] = a;
		a->next_child = p->children;
		p->children = a;
		if (a->count > UINT32_MAX)
			narrow = false;
	}
	return narrow;
}

/* What link_parents() gathers for each child before storing it in the
   symbol at once: the symbols are big and met at random. */
struct child_acc {
	struct arc *parents;
	uint64_t ncalls;
};

/* How many arcs ahead link_parents() asks for the one it will need. */
#define AHEAD 16

/* Parents' lists and the calls each child receives, oldest arc first so
   that prepending leaves them newest first; g->arcs gains the non-self
   arcs in creation order.  With room cv, the callers are packed too:
   start[c] counts down from the end of c's run (to its start), so the
   oldest arc lands last, as in c->parents. */
static void link_parents(struct gprof *g, struct arc **by_id, size_t nu,
                         uint32_t *start, struct caller *cv)
{
	struct sym *sb = g->syms.base;
	size_t nsym = g->syms.len, kept = 0;
	struct child_acc *acc = xmalloc((nsym ? nsym : 1) * sizeof *acc);

	for (size_t c = 0; c < nsym; c++)
		acc[c] = (struct child_acc){ sb[c].parents, 0 };
	for (size_t i = 0; i < nu; i++) {
		struct arc *a = by_id[i];
		size_t c = (size_t)(a->child - sb);

		/* Arcs come at random: each would wait for memory. */
		if (i + AHEAD < nu)
			__builtin_prefetch(by_id[i + AHEAD]);
		acc[c].ncalls += a->count;
		a->next_parent = acc[c].parents;
		acc[c].parents = a;
		if (cv)
			cv[--start[c]] = (struct caller){
				(uint32_t)(a->parent - sb), (uint32_t)a->count };
		if (a->parent != a->child)
			by_id[kept++] = a;
	}
	for (size_t c = 0; c < nsym; c++) {
		sb[c].parents = acc[c].parents;
		sb[c].ncalls += acc[c].ncalls;
	}
	free(acc);
	g->narcs_global += kept;
	if (cv) {
		arc_callers_drop(g);
		g->callers = cv;
		g->callers_start = start;
	} else {
		free(start);
	}
}

/* Run ends from counts, start[nsym] the end of them all. */
static void runs_from_counts(uint32_t *start, size_t nsym, size_t total)
{
	for (size_t c = 1; c < nsym; c++)
		start[c] += start[c - 1];
	start[nsym] = (uint32_t)total;
}

/*
 * The record arrays are done with once the arcs are merged, and at least
 * as big as g->arcs and the packed callers need (8 bytes an arc, 12 a
 * record): their pages, touched already, serve again rather than fresh
 * ones, each a page fault.
 */
static struct arc **reuse_for_arcs(struct gprof *g, struct arc_pending *q,
                                   size_t nu)
{
	size_t need = g->narcs_global + nu;

	if (!g->arcs) {
		g->arcs = xrealloc(q->v, (need ? need : 1) * sizeof *g->arcs);
		g->arcs_cap = need;
		q->v = NULL;
	} else if (need > g->arcs_cap) {
		g->arcs_cap = need;
		g->arcs = xrealloc(g->arcs, g->arcs_cap * sizeof *g->arcs);
	}
	free(q->v);
	q->v = NULL;
	return g->arcs + g->narcs_global;
}

static void build_arcs(struct gprof *g, struct arc_pending *q)
{
	size_t nu, nsym = g->syms.len;
	struct first_recs fr = {
		xcalloc(q->n / 64 + 1, sizeof *fr.bits), NULL };
	uint32_t *start = xcalloc(nsym + 1, sizeof *start);
	void *spent;
	struct arc *v = merge_records(g, q, &fr, start, &nu, &spent);
	struct arc **by_id = reuse_for_arcs(g, q, nu);

	firsts_count(&fr, q->n);
	bool narrow = number_arcs(g, v, nu, &fr, by_id);

	free(fr.bits);
	free(fr.below);
	runs_from_counts(start, nsym, nu);
	struct caller *cv = NULL;
	if (narrow && nu < UINT32_MAX)
		cv = xrealloc(spent, (nu ? nu : 1) * sizeof *cv);
	else
		free(spent);
	link_parents(g, by_id, nu, start, cv);
	arc_adopt_block(g, v, nu);
}

/* ---- arcs nobody reads ---- */

/*
 * When no report will read an arc (g->arcs_unread: GNU's text flat
 * profile alone, see pipeline.c), the analysis needs each symbol's
 * callees with their counts, the calls it receives and its callers: as
 * arrays, a few bytes an arc.  The arcs themselves, 64 bytes each,
 * written once and linked at random, would be most of the run at a
 * million of them.  Only into a graph with no arc yet, and while every
 * arc's count fits in 32 bits, as the packed callers need
 * (build_compact() checks the sums).
 */
static bool compact_allowed(const struct gprof *g, const struct arc_pending *q)
{
	return g->arcs_unread && g->narcs == 0 && q->nwide == 0 &&
	       g->syms.len < UINT32_MAX && q->n < UINT32_MAX;
}

/* The merged arcs by parent, as cg_adj.c lays out callee lists; each
   arc's first record number too (first[u]).  wide: a count went past 32
   bits. */
struct merged {
	uint32_t *first;
	size_t n;
	bool wide;
};

/* merge_records() into arrays: adj's callees and counts, by parent in
   the order of first records (made list order, newest first, later). */
static struct merged merge_compact(struct gprof *g, const struct grp_rec *grp,
                                   size_t nrec, const uint32_t *end,
                                   struct first_recs *fr, uint32_t *nto,
                                   uint64_t *ncalls)
{
	size_t nsym = g->syms.len, nu = 0;
	struct cg_adj *adj = &g->adj;
	uint32_t *owner = xcalloc(nsym ? nsym : 1, sizeof *owner);
	uint32_t *seen = xmalloc((nsym ? nsym : 1) * sizeof *seen);
	struct merged m = { xmalloc((nrec ? nrec : 1) * sizeof *m.first), 0,
	                    false };

	adj->first = xmalloc((nsym + 1) * sizeof *adj->first);
	adj->kid = xmalloc((nrec ? nrec : 1) * sizeof *adj->kid);
	adj->cnt = xmalloc((nrec ? nrec : 1) * sizeof *adj->cnt);
	for (size_t p = 0, k = 0; p < nsym; p++) {
		adj->first[p] = (uint32_t)nu;
		for (; k < end[p]; k++) {
			const struct grp_rec *rec = &grp[k];

			ncalls[rec->child] += rec->count;
			if (owner[rec->child] == p + 1) {
				uint32_t *c = &adj->cnt[seen[rec->child]];

				m.wide |= *c > UINT32_MAX - rec->count;
				*c += rec->count;
				continue;
			}
			owner[rec->child] = (uint32_t)p + 1;
			seen[rec->child] = (uint32_t)nu;
			nto[rec->child]++;
			fr->bits[rec->rec / 64] |= (uint64_t)1 << (rec->rec % 64);
			adj->kid[nu] = rec->child;
			adj->cnt[nu] = rec->count;
			m.first[nu++] = rec->rec;
		}
	}
	adj->first[nsym] = (uint32_t)nu;
	free(owner);
	free(seen);
	m.n = nu;
	return m;
}

/* Arcs i .. j-1 (one parent's) reversed: oldest first becomes the
   callee list's order, newest first. */
static void reverse_run(struct cg_adj *adj, uint32_t *first, size_t i,
                        size_t j)
{
	for (; i + 1 < j; i++, j--) {
		uint32_t k = adj->kid[i], f = first[i];
		uint32_t c = adj->cnt[i];

		adj->kid[i] = adj->kid[j - 1];
		adj->cnt[i] = adj->cnt[j - 1];
		first[i] = first[j - 1];
		adj->kid[j - 1] = k;
		adj->cnt[j - 1] = c;
		first[j - 1] = f;
	}
}

/* The packed callers, as link_parents() packs them: the arcs in creation
   order (crec, room for nu) each go to the end of their child's run. */
static void pack_callers(struct gprof *g, const struct merged *m,
                         struct first_recs *fr, struct grp_rec *crec,
                         uint32_t *start, struct caller *cv)
{
	const struct cg_adj *adj = &g->adj;

	for (size_t p = 0; p < g->syms.len; p++)
		for (uint32_t u = adj->first[p]; u < adj->first[p + 1]; u++)
			crec[firsts_before(fr, m->first[u])] = (struct grp_rec){
				adj->kid[u], adj->cnt[u], (uint32_t)p };
	for (size_t n = 0; n < m->n; n++)
		cv[--start[crec[n].child]] = (struct caller){ crec[n].rec,
		                                              crec[n].count };
	g->callers = cv;
	g->callers_start = start;
}

/* The analysis's arrays, and no arc (see compact_allowed()); false, with
   nothing changed, if an arc's count is too wide for them. */
static bool build_compact(struct gprof *g, struct arc_pending *q)
{
	size_t nsym = g->syms.len;
	struct first_recs fr = {
		xcalloc(q->n / 64 + 1, sizeof *fr.bits), NULL };
	uint32_t *start = xcalloc(nsym + 1, sizeof *start);
	uint64_t *ncalls = xcalloc(nsym ? nsym : 1, sizeof *ncalls);
	uint32_t *end;
	struct grp_rec *grp = group_by_parent(q, nsym, &end);
	struct merged m = merge_compact(g, grp, q->n, end, &fr, start, ncalls);

	free(end);
	if (m.wide) {
		cg_adj_free(&g->adj);
		free(m.first);
		free(grp);
		free(fr.bits);
		free(start);
		free(ncalls);
		return false;
	}
	for (size_t p = 0; p < nsym; p++)
		reverse_run(&g->adj, m.first, g->adj.first[p], g->adj.first[p + 1]);
	runs_from_counts(start, nsym, m.n);
	/* The records' arrays serve again: 12 bytes a record, where the
	   callers need 8 an arc. */
	struct caller *cv = xrealloc(q->v, (q->n ? q->n : 1) * sizeof *cv);
	q->v = NULL;
	firsts_count(&fr, q->n);
	pack_callers(g, &m, &fr, grp, start, cv);
	free(fr.bits);
	free(fr.below);
	free(m.first);
	free(grp);
	for (size_t c = 0; c < nsym; c++)
		g->syms.base[c].ncalls += ncalls[c];
	free(ncalls);
	g->narcs = m.n;
	g->arcs_on_syms = true;
	g->arcs_compact = true;
	return true;
}

void arc_bulk_flush(struct gprof *g)
{
	struct arc_pending *q = g->arc_pending;

	if (!q)
		return;
	resolve_all(g, q);
	g->arc_pending = NULL;
	if (q->n > 0 && !(compact_allowed(g, q) && build_compact(g, q)))
		build_arcs(g, q);
	free(q->v);
	free(q->wide);
	free(q);
}
