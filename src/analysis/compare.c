/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare.c - --compare's figures: two profiles of one program, or of two
 * builds of it, each loaded and analysed by the whole pipeline
 * (compare_run.c), matched function by function (by symbol name) into one comparison model that
 * every --compare printer only reads.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* A change is significant when it exceeds twice its expected error: a
   chance of about 1 in 20 that an unchanged function is flagged. */
#define SIGNIFICANCE 2.0

/* One function of one side, for matching. */
struct side_fn {
	const char *key;             /* raw symbol name */
	const struct sym *s;
	size_t idx;                  /* into that side's syms */
};

static int cmp_key(const void *pa, const void *pb, void *ctx)
{
	const struct side_fn *a = pa, *b = pb;
	(void)ctx;
	return strcmp(a->key, b->key);
}

/* The symbols the flat profile would consider, sorted by name (stable:
   same-named statics keep their address order and pair up in it). */
static struct side_fn *side_functions(const struct gprof *g, size_t *n)
{
	struct side_fn *v = xmalloc((g->syms.len ? g->syms.len : 1) * sizeof *v);
	size_t k = 0;
	for (size_t i = 0; i < g->syms.len; i++) {
		const struct sym *s = &g->syms.base[i];
		if (!sym_selected(g, s, INCL_FLAT))
			continue;
		v[k].key = s->name;
		v[k].s = s;
		v[k].idx = i;
		k++;
	}
	stable_sort(v, k, sizeof *v, cmp_key, NULL);
	*n = k;
	return v;
}

static void fill_side(const struct gprof *g, const struct side_fn *f,
                      struct cmp_side *out)
{
	out->present = true;
	out->self = f->s->hist_time / g->hz;
	out->total = (f->s->hist_time + f->s->child_time) / g->hz;
	out->self_err = g->flat.sample_err ? g->flat.sample_err[f->idx] : 0;
	out->calls = f->s->ncalls;
}

static char *shown_name(const struct gprof *g, const struct sym *s)
{
	char *dem = NULL;
	if (g->opt.demangle && !g->opt.bsd_style && g->abfd)
		dem = core_demangle(g, s->name);
	return dem ? dem : xstrdup(s->name);
}

static bool idle(const struct cmp_row *r)
{
	return r->old.self == 0 && r->new.self == 0 && r->old.calls == 0 &&
	       r->new.calls == 0;
}

static void finish_row(struct cmp_row *r)
{
	r->d_self = r->new.self - r->old.self;
	r->d_total = r->new.total - r->old.total;
	r->d_self_pct = r->old.self != 0 ? 100.0 * r->d_self / r->old.self : 0;
	r->d_calls = (int64_t)r->new.calls - (int64_t)r->old.calls;
	r->err = sqrt(r->old.self_err * r->old.self_err +
	              r->new.self_err * r->new.self_err);
	r->significant = fabs(r->d_self) > SIGNIFICANCE * r->err;
}

/* Merges the two name-sorted lists into rows. */
static void match(struct comparison *c, const struct side_fn *a, size_t na,
                  const struct side_fn *b, size_t nb)
{
	size_t i = 0, j = 0;
	c->rows = xcalloc(na + nb + 1, sizeof *c->rows);
	while (i < na || j < nb) {
		int d = i == na ? 1 : j == nb ? -1 : strcmp(a[i].key, b[j].key);
		struct cmp_row *r = &c->rows[c->nrows];
		memset(r, 0, sizeof *r);
		if (d <= 0)
			fill_side(c->old, &a[i], &r->old);
		if (d >= 0)
			fill_side(c->new, &b[j], &r->new);
		r->name = shown_name(d <= 0 ? c->old : c->new,
		                     d <= 0 ? a[i].s : b[j].s);
		i += d <= 0;
		j += d >= 0;
		finish_row(r);
		if (idle(r))
			free((char *)r->name);
		else
			c->nrows++;
	}
}

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
	const struct cmp_row *a = pa, *b = pb;
	(void)ctx;
	if (a->significant != b->significant)
		return a->significant ? -1 : 1;
	double x = fabs(a->d_self), y = fabs(b->d_self);
	if (x != y)
		return x > y ? -1 : 1;
	x = fabs(a->d_total);
	y = fabs(b->d_total);
	if (x != y)
		return x > y ? -1 : 1;
	int64_t p = llabs(a->d_calls), q = llabs(b->d_calls);
	if (p != q)
		return p > q ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void totals(struct comparison *c)
{
	const struct gprof *o = c->old, *n = c->new;
	c->old_total = o->total_time / o->hz;
	c->new_total = n->total_time / n->hz;
	c->old_total_err = o->flat.total_err;
	c->new_total_err = n->flat.total_err;
	c->d_total = c->new_total - c->old_total;
	c->d_total_pct = c->old_total != 0 ? 100.0 * c->d_total / c->old_total : 0;
	double err = sqrt(c->old_total_err * c->old_total_err +
	                  c->new_total_err * c->new_total_err);
	c->total_significant = fabs(c->d_total) > SIGNIFICANCE * err;
}

void compare_build(struct comparison *c)
{
	size_t na, nb;
	struct side_fn *a = side_functions(c->old, &na);
	struct side_fn *b = side_functions(c->new, &nb);
	match(c, a, na, b, nb);
	free(a);
	free(b);
	stable_sort(c->rows, c->nrows, sizeof *c->rows, cmp_rows, NULL);
	for (size_t i = 0; i < c->nrows; i++)
		c->nsignificant += c->rows[i].significant;
	totals(c);
}
