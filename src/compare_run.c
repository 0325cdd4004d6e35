/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_run.c - the whole of --compare, a pipeline of its own beside
 * pipeline.c: each side's operand split into its runs, each run loaded
 * and analysed in a context of its own (the runs of a side checked to be
 * of one program at one rate), compared (analysis/compare.c), and printed
 * in the format asked.
 */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "output.h"
#include "pipeline.h"
#include "print/print.h"

/* One run: a context of its own with the shared options, through the
   whole pipeline. */
static struct gprof *load_run(const struct gprof *g, const char *image,
                              const char **profile)
{
	struct gprof *x = xcalloc(1, sizeof *x);
	x->opt = g->opt;
	x->whoami = g->whoami;
	x->first_output = true;
	x->opt.image = image;
	x->opt.profiles = profile;
	x->opt.nprofiles = 1;
	gprof_load_inputs(x);
	gprof_analyse(x);
	diagnose_build(x);
	return x;
}

/* A side's profiles: the operand's comma-separated names, or the operand
   itself when it names a file (so that a name with a comma still works)
   or has no comma. */
static void split_runs(struct gprof *g, const char *operand,
                       struct cmp_input *in)
{
	size_t n = 1;
	bool whole = !strchr(operand, ',') || access(operand, F_OK) == 0;
	if (!whole)
		for (const char *p = operand; *p; p++)
			n += *p == ',';
	in->profiles = xcalloc(n, sizeof *in->profiles);
	in->nruns = n;
	if (whole) {
		in->profiles[0] = operand;
		return;
	}
	const char *p = operand;
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(p, ",");
		if (len == 0)
			die(g, "--compare: '%s': an empty profile name between "
			    "commas", operand);
		char *name = xmalloc(len + 1);
		memcpy(name, p, len);
		name[len] = '\0';
		in->profiles[i] = name;
		p += len + 1;
	}
}

static bool same_histograms(const struct gprof *a, const struct gprof *b)
{
	if (a->nhists != b->nhists)
		return false;
	for (size_t i = 0; i < a->nhists; i++)
		if (a->hists[i].lowpc != b->hists[i].lowpc ||
		    a->hists[i].highpc != b->hists[i].highpc ||
		    a->hists[i].num_bins != b->hists[i].num_bins)
			return false;
	return true;
}

/* The runs of one side must be of one program at one rate, or their
   spread measures nothing: each is checked against the first, the
   program (by its histogram's range) before the rate. */
static void check_run(struct gprof *g, const struct cmp_input *in, size_t r)
{
	const struct gprof *a = in->runs[0], *b = in->runs[r];
	const char *fa = in->profiles[0], *fb = in->profiles[r];
	if (!same_histograms(a, b)) {
		const struct histogram *h = b->nhists ? b->hists : NULL;
		const struct histogram *k = a->nhists ? a->hists : NULL;
		die(g, "--compare: %s: not a run of the same program as %s (its "
		    "histogram covers 0x%" PRIx64 "-0x%" PRIx64 ", the other's "
		    "0x%" PRIx64 "-0x%" PRIx64 ")", fb, fa,
		    (uint64_t)(h ? h->lowpc : 0), (uint64_t)(h ? h->highpc : 0),
		    (uint64_t)(k ? k->lowpc : 0), (uint64_t)(k ? k->highpc : 0));
	}
	if (a->nhists && b->nhists &&
	    (a->hz != b->hz || strcmp(a->dimen, b->dimen) != 0))
		die(g, "--compare: %s: sampled at %g Hz (%s), but %s at %g Hz "
		    "(%s): the runs of one side must share their rate", fb,
		    b->hz, b->dimen, fa, a->hz, a->dimen);
}

static void load_side(struct gprof *g, const char *image,
                      const char *operand, struct cmp_input *in)
{
	in->image = image;
	split_runs(g, operand, in);
	in->runs = xcalloc(in->nruns, sizeof *in->runs);
	for (size_t r = 0; r < in->nruns; r++) {
		in->runs[r] = load_run(g, image, &in->profiles[r]);
		check_run(g, in, r);
	}
}

static void check_usage(struct gprof *g)
{
	const struct options *o = &g->opt;
	if (o->nprofiles != 2 && o->nprofiles != 3)
		die(g, "--compare needs IMAGE OLD-PROFILE NEW-PROFILE, or "
		    "OLD-IMAGE OLD-PROFILE NEW-IMAGE NEW-PROFILE (a side of "
		    "several runs: their profiles separated by commas)");
	if (o->style & STYLE_SUMMARY)
		die(g, "--compare and -s cannot be used together");
	if (o->out_format != OUT_TEXT && o->out_format != OUT_JSON &&
	    o->out_format != OUT_HTML)
		die(g, "--compare prints text, json or html, not another "
		    "--output-format");
	if (o->diagnose)
		die(g, "--compare and --diagnose cannot be used together");
}

int compare_run(struct gprof *g)
{
	struct comparison c;
	struct output out;

	check_usage(g);
	memset(&c, 0, sizeof c);
	bool two_builds = g->opt.nprofiles == 3;
	load_side(g, g->opt.image, g->opt.profiles[0], &c.old);
	load_side(g, two_builds ? g->opt.profiles[1] : g->opt.image,
	          g->opt.profiles[two_builds ? 2 : 1], &c.new);
	/* Warnings only once both sides have loaded: a bad later file
	   stops the run with its one line. */
	for (size_t r = 0; r < c.old.nruns; r++)
		diagnose_warn(c.old.runs[r]);
	for (size_t r = 0; r < c.new.nruns; r++)
		diagnose_warn(c.new.runs[r]);
	compare_build(&c);

	output_open(g, &out);
	if (g->opt.out_format == OUT_JSON)
		compare_print_json(&c, out.f);
	else if (g->opt.out_format == OUT_HTML)
		compare_print_html(&c, out.f);
	else
		compare_print_text(&c, out.f);
	output_close(g, &out);
	return 0;
}
