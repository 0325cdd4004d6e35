/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare.c - --compare's figures: two sides, each one run or several
 * runs of one program (or of one of two builds of it), every run loaded
 * and analysed by the whole pipeline (compare_run.c).  Functions are
 * matched by symbol name, first among one side's runs, then between the
 * sides, into one comparison model that every --compare printer only
 * reads.
 *
 * The statistics: a side's figure is the mean of its runs.  Its standard
 * error adds the sampling error of that mean (each run's square root of
 * samples) to the spread between the runs (their sample variance over
 * their number), which measures the program's own run-to-run variation.
 * The sampling term is counted twice that way (it is in the spread too):
 * it errs towards a larger error, and keeps a spread that came out small
 * by chance from two or three runs from making the error too small.  A
 * change is judged by Student's t with Welch's degrees of freedom (the
 * sampling terms being known, they add none), or by the normal law when
 * no side has a spread (one run each, or runs that agree exactly); it is
 * significant at p < CMP_ALPHA.  On simulated runs (doc/formats.md) that
 * flags at most about 2 unchanged functions in 1000 with three runs a
 * side, and finds a function twice as slow unless the runs vary by
 * several percent.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

/* ---- the tail of Student's t ---- */

/* The continued fraction of the regularized incomplete beta function
   I_x(a, b), evaluated by Lentz's method; it converges quickly for
   x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = 1 / (fabs(d) < tiny ? tiny : d);
	double f = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m;
		double even = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		double odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		double step = 1;
		for (int k = 0; k < 2; k++) {
			double num = k == 0 ? even : odd;
			d = 1 + num * d;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = 1 + num / c;
			if (fabs(c) < tiny)
				c = tiny;
			step = c * d;
			f *= step;
		}
		if (fabs(step - 1) < 1e-15)
			break;
	}
	return f;
}

static double beta_regularized(double a, double b, double x)
{
	if (!(x > 0))
		return 0;
	if (!(x < 1))
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
	                   a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

/* The chance that |T| >= t for Student's t with dof degrees of freedom
   (the normal law when dof is infinite). */
static double two_sided_p(double t, double dof)
{
	if (isinf(dof) || dof > 1e7)
		return erfc(t / sqrt(2.0));
	return beta_regularized(dof / 2, 0.5, dof / (dof + t * t));
}

/* The test of one change: its error from the two sides' variances
   (sampling and spread: var_*, of which spread_* came from the spread of
   k_* runs), its degrees of freedom and p-value. */
struct change_test {
	double err, dof, p;
	bool significant;
};

static double spread_share(double spread_var, size_t k)
{
	return k > 1 ? spread_var * spread_var / (double)(k - 1) : 0;
}

static struct change_test test_change(double d, double var_old,
                                      double spread_old, size_t k_old,
                                      double var_new, double spread_new,
                                      size_t k_new)
{
	struct change_test t;
	double v = var_old + var_new;
	double den = spread_share(spread_old, k_old) +
	             spread_share(spread_new, k_new);
	t.err = sqrt(v);
	t.dof = den > 0 ? v * v / den : INFINITY;
	t.p = t.err > 0 ? two_sided_p(fabs(d) / t.err, t.dof) : NAN;
	t.significant = t.p < CMP_ALPHA;
	return t;
}

/* ---- one side's functions ---- */

/* One function of one run, for matching. */
struct run_fn {
	const char *key;             /* raw symbol name */
	size_t occ;                  /* its same-named predecessors in the run */
	size_t run;
	const struct sym *s;
	size_t idx;                  /* into that run's syms */
};

static int cmp_key(const struct run_fn *a, const struct run_fn *b)
{
	int d = strcmp(a->key, b->key);
	if (d)
		return d;
	return a->occ < b->occ ? -1 : a->occ > b->occ;
}

static int by_key(const void *pa, const void *pb, void *ctx)
{
	(void)ctx;
	return cmp_key(pa, pb);
}

/* Appends the symbols the flat profile of run r would consider to v,
   sorted by name and numbered among equal names (stable: same-named
   statics keep their address order and pair up in it). */
static size_t run_functions(const struct gprof *g, size_t r,
                            struct run_fn *v)
{
	size_t k = 0;
	for (size_t i = 0; i < g->syms.len; i++) {
		const struct sym *s = &g->syms.base[i];
		if (!sym_selected(g, s, INCL_FLAT))
			continue;
		v[k] = (struct run_fn){ s->name, 0, r, s, i };
		k++;
	}
	stable_sort(v, k, sizeof *v, by_key, NULL);
	for (size_t i = 1; i < k; i++)
		if (!strcmp(v[i].key, v[i - 1].key))
			v[i].occ = v[i - 1].occ + 1;
	return k;
}

/* One function of one side: its runs' entries (a group of run_fn). */
struct side_fn {
	const struct run_fn *first;
	size_t n;
	struct cmp_side v;
};

/* Mean, sampling variance and spread variance of a side's figure from
   per-run values x and per-run sampling errors e. */
struct side_stat {
	double mean, var, spread_var, spread;
};

static struct side_stat side_stat(const double *x, const double *e, size_t k)
{
	struct side_stat st = { 0, 0, 0, NAN };
	double ss = 0, ee = 0;
	for (size_t r = 0; r < k; r++) {
		st.mean += x[r];
		ee += e[r] * e[r];
	}
	st.mean /= (double)k;
	for (size_t r = 0; r < k; r++)
		ss += (x[r] - st.mean) * (x[r] - st.mean);
	if (k > 1) {
		st.spread = sqrt(ss / (double)(k - 1));
		st.spread_var = ss / (double)(k - 1) / (double)k;
	}
	st.var = ee / ((double)k * (double)k) + st.spread_var;
	return st;
}

/* The side's figures of one function from its runs' entries. */
static void fill_side(const struct cmp_input *in, struct side_fn *f,
                      double *scratch)
{
	size_t k = in->nruns;
	double *self = scratch, *err = scratch + k, *total = scratch + 2 * k;
	double calls = 0;
	memset(scratch, 0, 3 * k * sizeof *scratch);
	for (size_t i = 0; i < f->n; i++) {
		const struct run_fn *e = &f->first[i];
		const struct gprof *g = in->runs[e->run];
		self[e->run] = e->s->hist_time / g->hz;
		total[e->run] = (e->s->hist_time + e->s->child_time) / g->hz;
		err[e->run] = g->flat.sample_err ? g->flat.sample_err[e->idx] : 0;
		calls += (double)e->s->ncalls;
	}
	struct side_stat st = side_stat(self, err, k);
	double total_sum = 0;
	for (size_t r = 0; r < k; r++)
		total_sum += total[r];
	f->v.present = true;
	f->v.self = st.mean;
	f->v.self_err = sqrt(st.var);
	f->v.self_spread = st.spread;
	f->v.total = total_sum / (double)k;
	f->v.calls = (uint64_t)llround(calls / (double)k);
}

/* Every function of a side, one entry each, sorted by (name, occ); *pool
   receives the runs' entries the groups point into. */
static struct side_fn *side_functions(const struct cmp_input *in,
                                      struct run_fn **pool, size_t *n)
{
	size_t cap = 1;
	for (size_t r = 0; r < in->nruns; r++)
		cap += in->runs[r]->syms.len;
	struct run_fn *v = xmalloc(cap * sizeof *v);
	size_t nv = 0;
	for (size_t r = 0; r < in->nruns; r++)
		nv += run_functions(in->runs[r], r, v + nv);
	/* Stable: a group's entries stay in run order. */
	stable_sort(v, nv, sizeof *v, by_key, NULL);

	struct side_fn *f = xcalloc(nv + 1, sizeof *f);
	double *scratch = xmalloc(3 * in->nruns * sizeof *scratch);
	size_t nf = 0;
	for (size_t i = 0; i < nv;) {
		size_t j = i + 1;
		while (j < nv && !cmp_key(&v[i], &v[j]))
			j++;
		f[nf].first = &v[i];
		f[nf].n = j - i;
		fill_side(in, &f[nf], scratch);
		nf++;
		i = j;
	}
	free(scratch);
	*pool = v;
	*n = nf;
	return f;
}

/* ---- rows ---- */

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

/* A side's variance and spread variance, from its figures. */
static double side_var(const struct cmp_side *s)
{
	return s->present ? s->self_err * s->self_err : 0;
}

static double side_spread_var(const struct cmp_side *s, size_t k)
{
	return s->present && k > 1 ? s->self_spread * s->self_spread / (double)k
	                           : 0;
}

static void finish_row(const struct comparison *c, struct cmp_row *r)
{
	size_t ko = c->old.nruns, kn = c->new.nruns;
	r->d_self = r->new.self - r->old.self;
	r->d_total = r->new.total - r->old.total;
	r->d_self_pct = r->old.self != 0 ? 100.0 * r->d_self / r->old.self : 0;
	r->d_calls = (int64_t)r->new.calls - (int64_t)r->old.calls;
	struct change_test t = test_change(r->d_self,
	                                   side_var(&r->old),
	                                   side_spread_var(&r->old, ko), ko,
	                                   side_var(&r->new),
	                                   side_spread_var(&r->new, kn), kn);
	r->err = t.err;
	r->dof = t.dof;
	r->p = t.p;
	r->significant = t.significant;
}

/* Merges the two sides' name-sorted lists into rows. */
static void match(struct comparison *c, const struct side_fn *a, size_t na,
                  const struct side_fn *b, size_t nb)
{
	size_t i = 0, j = 0;
	c->rows = xcalloc(na + nb + 1, sizeof *c->rows);
	while (i < na || j < nb) {
		int d = i == na ? 1 : j == nb ? -1
		                  : cmp_key(a[i].first, b[j].first);
		struct cmp_row *r = &c->rows[c->nrows];
		memset(r, 0, sizeof *r);
		if (d <= 0)
			r->old = a[i].v;
		if (d >= 0)
			r->new = b[j].v;
		const struct run_fn *e = d <= 0 ? a[i].first : b[j].first;
		const struct cmp_input *in = d <= 0 ? &c->old : &c->new;
		r->name = shown_name(in->runs[e->run], e->s);
		i += d <= 0;
		j += d >= 0;
		finish_row(c, r);
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

/* ---- totals ---- */

/* A side's total time: the mean of its runs', its error and spread;
   returns its spread variance. */
static double side_total(struct cmp_input *in, double *var)
{
	size_t k = in->nruns;
	double *x = xmalloc(2 * k * sizeof *x), *e = x + k;
	in->samples = 0;
	for (size_t r = 0; r < k; r++) {
		const struct gprof *g = in->runs[r];
		x[r] = g->total_time / g->hz;
		e[r] = g->flat.total_err;
		in->samples += g->total_time;
	}
	struct side_stat st = side_stat(x, e, k);
	free(x);
	in->total = st.mean;
	in->total_err = sqrt(st.var);
	in->total_spread = st.spread;
	*var = st.var;
	return st.spread_var;
}

static void totals(struct comparison *c)
{
	double vo, vn;
	double so = side_total(&c->old, &vo), sn = side_total(&c->new, &vn);
	c->d_total = c->new.total - c->old.total;
	c->d_total_pct = c->old.total != 0 ? 100.0 * c->d_total / c->old.total
	                                   : 0;
	struct change_test t = test_change(c->d_total, vo, so, c->old.nruns,
	                                   vn, sn, c->new.nruns);
	c->d_total_err = t.err;
	c->total_dof = t.dof;
	c->total_p = t.p;
	c->total_significant = t.significant;
}

/* What a side of one run leaves out of the errors. */
static const char *variation_note(const struct comparison *c)
{
	if (c->run_variation)
		return NULL;
	if (c->old.nruns == 1 && c->new.nruns == 1)
		return "one run on each side: the errors are sampling errors "
		       "only; the program's own run-to-run variation is not "
		       "included.  Give each side several runs (their profiles "
		       "separated by commas) to include it.";
	return c->old.nruns == 1
	       ? "one run on the old side: its errors are sampling errors "
	         "only; the program's own run-to-run variation is not "
	         "included there.  Give it several runs (their profiles "
	         "separated by commas) to include it."
	       : "one run on the new side: its errors are sampling errors "
	         "only; the program's own run-to-run variation is not "
	         "included there.  Give it several runs (their profiles "
	         "separated by commas) to include it.";
}

void compare_build(struct comparison *c)
{
	size_t na, nb;
	struct run_fn *pa, *pb;
	c->alpha = CMP_ALPHA;
	c->run_variation = c->old.nruns > 1 && c->new.nruns > 1;
	c->note = variation_note(c);
	struct side_fn *a = side_functions(&c->old, &pa, &na);
	struct side_fn *b = side_functions(&c->new, &pb, &nb);
	match(c, a, na, b, nb);
	free(a);
	free(b);
	free(pa);
	free(pb);
	stable_sort(c->rows, c->nrows, sizeof *c->rows, cmp_rows, NULL);
	for (size_t i = 0; i < c->nrows; i++)
		c->nsignificant += c->rows[i].significant;
	totals(c);
}
