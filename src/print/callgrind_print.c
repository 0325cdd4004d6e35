/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * callgrind_print.c - the --output-format=callgrind document: the profile
 * in the format valgrind's callgrind writes, for KCachegrind and
 * callgrind_annotate (doc/formats.md, section callgrind).
 *
 * Callgrind's model is gprof's: a self cost per function and, per call
 * arc, a call count and the inclusive cost of those calls, which is the
 * time the call graph propagates along the arc (arc->time +
 * arc->child_time).  Costs are integers, so times are written in
 * microseconds, rounded (event Time_us); a second event, Err_us, carries
 * each function's expected sampling error the same way.  With a sampling
 * rate of 0 there are no times: the one event is then Samples, the
 * histogram's counts.  Names are written whole (no name compression),
 * which every reader handles.  Each function's block names its object
 * (ob=: the executable, or the shared library the side file recorded)
 * and each call its callee's (cob=).  The summary is every sample recorded;
 * the profiling hook's samples, those in no function and those of
 * functions a symspec left out are functions of their own, "[profiling
 * hook]", "[outside every function]" and "[functions left out]".
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "print/print.h"

struct cg_doc {
	const struct gprof *g;
	struct report *r;
	FILE *out;
	double per_tick;             /* cost units per sample */
	bool times;                  /* Time_us and Err_us, not Samples */
	bool *listed;                /* by sym index: gets an fn= block */
	bool *named;                 /* listed, or called by a listed one */
	bool *clash;                 /* another named one has its file and name */
};

/* A cost: rounded, and kept within what a 64-bit counter holds. */
static uint64_t cost(double units)
{
	if (!(units > 0))
		return 0;
	if (units >= 9e18)
		return UINT64_C(9000000000000000000);
	return (uint64_t)llround(units);
}

/* Names and paths go on one line each: a line break in one (which no
   toolchain makes) would end it, so it is written as '?'. */
static void put_line_safe(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\n' || *s == '\r' ? '?' : *s, out);
}

static const char *sym_file(const struct cg_doc *d, const struct sym *s,
                            int *line)
{
	const char *file;

	*line = 0;
	if (!report_sym_file(d->g, d->r, s, &file, line)) {
		*line = 0;
		return "???";
	}
	if (*line < 0)
		*line = 0;
	return file;
}

static size_t sym_index(const struct cg_doc *d, const struct sym *s)
{
	return (size_t)(s - d->g->syms.base);
}

/* ---- which functions, under which names ---- */

/* The functions the text reports list: the flat profile's rows and the
   call graph's shown entries; symspecs and -z select them as there. */
static void choose_listed(struct cg_doc *d)
{
	const struct gprof *g = d->g;
	size_t n = g->syms.len;

	for (size_t i = 0; i < g->flat.nrows && g->input_hist; i++)
		d->listed[sym_index(d, g->flat.rows[i])] = true;
	for (size_t i = 0; i < g->nentries && g->input_arcs; i++) {
		const struct sym *s = g->entries[i];
		if (s->name && cg_entry_shown(g, s))
			d->listed[sym_index(d, s)] = true;
	}
	for (size_t i = 0; i < n; i++) {
		if (!d->listed[i])
			continue;
		d->named[i] = true;
		for (const struct arc *a = g->syms.base[i].children; a;
		     a = a->next_child)
			d->named[sym_index(d, a->child)] = true;
	}
}

struct name_key {
	const char *object, *file, *name;
	size_t index;
};

static int cmp_name_key(const void *pa, const void *pb, void *ctx)
{
	const struct name_key *a = pa, *b = pb;
	int c = strcmp(a->object, b->object);
	(void)ctx;
	if (c == 0)
		c = strcmp(a->file, b->file);
	return c ? c : strcmp(a->name, b->name);
}

/* Readers know a function by its object, file and name: two static
   functions of one name whose file is unknown would be merged, so those
   get their address (in their object) added to the name. */
static void find_clashes(struct cg_doc *d)
{
	size_t n = d->g->syms.len, k = 0;
	struct name_key *v = xmalloc((n ? n : 1) * sizeof *v);

	for (size_t i = 0; i < n; i++) {
		if (!d->named[i])
			continue;
		int line;
		const struct sym *s = &d->g->syms.base[i];
		v[k].object = sym_object_path(d->g, s);
		v[k].file = sym_file(d, s, &line);
		v[k].name = display_name(d->g, d->r, s);
		v[k++].index = i;
	}
	stable_sort(v, k, sizeof *v, cmp_name_key, NULL);
	for (size_t i = 1; i < k; i++) {
		if (cmp_name_key(&v[i - 1], &v[i], NULL) == 0) {
			d->clash[v[i - 1].index] = true;
			d->clash[v[i].index] = true;
		}
	}
	free(v);
}

static void put_name(const struct cg_doc *d, const struct sym *s)
{
	put_line_safe(d->out, display_name(d->g, d->r, s));
	if (d->clash[sym_index(d, s)])
		fprintf(d->out, " [0x%" PRIx64 "]",
		        (uint64_t)sym_object_addr(d->g, s));
}

/* ---- the document ---- */

static void print_header(const struct cg_doc *d)
{
	const struct gprof *g = d->g;
	FILE *out = d->out;

	fputs("# callgrind format\nversion: 1\n"
	      "creator: gproftk " PACKAGE_VERSION "\ncmd: ", out);
	put_line_safe(out, g->opt.image);
	fputc('\n', out);
	for (size_t i = 0; i < g->opt.nprofiles; i++) {
		fputs("desc: Profile: ", out);
		put_line_safe(out, g->opt.profiles[i]);
		fputc('\n', out);
	}
	fprintf(out, "desc: Sampling rate: %g Hz\n", g->hz);
	if (g->arcs_from_stacks)
		fputs("desc: Calls: none counted (not built with -pg); each "
		      "calls= line is the stack samples with that call\n", out);
	fputs("positions: line\n", out);
	if (d->times) {
		fputs("event: Time_us : Time (microseconds)\n"
		      "event: Err_us : Expected sampling error of the self time "
		      "(microseconds; its sums mean nothing)\n"
		      "events: Time_us Err_us\n", out);
		fprintf(out, "summary: %" PRIu64 " %" PRIu64 "\n",
		        cost(g->totals.all * d->per_tick),
		        cost(g->flat.total_err * 1e6));
	} else {
		fputs("event: Samples : Histogram samples (no sampling rate: no times)\n"
		      "events: Samples\n", out);
		fprintf(out, "summary: %" PRIu64 "\n", cost(g->totals.all));
	}
}

static void print_self(const struct cg_doc *d, const struct sym *s, int line)
{
	fprintf(d->out, "%d %" PRIu64, line, cost(s->hist_time * d->per_tick));
	if (d->times) {
		const double *err = d->g->flat.sample_err;
		fprintf(d->out, " %" PRIu64,
		        err ? cost(err[sym_index(d, s)] * 1e6) : 0);
	}
	fputc('\n', d->out);
}

/* One call arc: its count, then the time propagated along it as the
   inclusive cost of the calls (0 for a call within a cycle or to
   itself, along which gprof propagates nothing). */
static void print_call(const struct cg_doc *d, const struct arc *a, int line)
{
	int cline;
	const char *cfile = sym_file(d, a->child, &cline);

	fputs("cob=", d->out);
	put_line_safe(d->out, sym_object_path(d->g, a->child));
	fputs("\ncfi=", d->out);
	put_line_safe(d->out, cfile);
	fputs("\ncfn=", d->out);
	put_name(d, a->child);
	fprintf(d->out, "\ncalls=%" PRIu64 " %d\n%d %" PRIu64 "\n", a->count,
	        cline, line, cost((a->time + a->child_time) * d->per_tick));
}

static void print_function(const struct cg_doc *d, const struct sym *s)
{
	int line;
	const char *file = sym_file(d, s, &line);

	fputs("\nob=", d->out);
	put_line_safe(d->out, sym_object_path(d->g, s));
	fputs("\nfl=", d->out);
	put_line_safe(d->out, file);
	fputs("\nfn=", d->out);
	put_name(d, s);
	fputc('\n', d->out);
	print_self(d, s, line);
	if (s->by_rank_children) {
		for (struct arc **ap = s->by_rank_children; *ap; ap++)
			print_call(d, *ap, line);
	} else {
		for (const struct arc *a = s->children; a; a = a->next_child)
			print_call(d, a, line);
	}
}

/* Samples of no listed function, as a function of their own, so that
   the functions add up to the summary, which is every sample (totals.c):
   the profiling hook's, those in no function and those of functions a
   symspec left out.  The hook lives in the executable (libgmon is linked
   in statically); the others belong to no known object. */
static void print_pseudo(const struct cg_doc *d, const char *name,
                         const char *object, double ticks)
{
	if (!(ticks > 0))
		return;
	fputs("\nob=", d->out);
	put_line_safe(d->out, object ? object : "???");
	fprintf(d->out, "\nfl=???\nfn=%s\n0 %" PRIu64, name,
	        cost(ticks * d->per_tick));
	if (d->times)
		fputs(" 0", d->out);
	fputc('\n', d->out);
}

void callgrind_print(const struct gprof *g, struct report *r)
{
	size_t n = g->syms.len ? g->syms.len : 1;
	struct cg_doc d = {
		.g = g, .r = r, .out = r->out,
		.times = g->hz > 0 && isfinite(g->hz),
		.listed = xcalloc(n, sizeof (bool)),
		.named = xcalloc(n, sizeof (bool)),
		.clash = xcalloc(n, sizeof (bool)),
	};

	d.per_tick = d.times ? 1e6 / g->hz : 1.0;
	choose_listed(&d);
	find_clashes(&d);
	print_header(&d);
	for (size_t i = 0; i < g->syms.len; i++)
		if (d.listed[i])
			print_function(&d, &g->syms.base[i]);
	const char *exe = g->nobjects ? g->objects[0].path : NULL;
	print_pseudo(&d, STACK_HOOK_LABEL, exe, g->totals.hook);
	print_pseudo(&d, "[outside every function]", NULL, g->totals.outside);
	print_pseudo(&d, "[functions left out]", NULL, g->totals.excluded);
	free(d.listed);
	free(d.named);
	free(d.clash);
}
