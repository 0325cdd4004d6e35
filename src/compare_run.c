/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_run.c - the whole of --compare, a pipeline of its own beside
 * pipeline.c: each side loaded and analysed in a context of its own,
 * compared (analysis/compare.c), and printed in the format asked.
 */
#include <string.h>

#include "output.h"
#include "pipeline.h"
#include "print/print.h"

/* One side: a context of its own with the shared options, through the
   whole pipeline. */
static struct gprof *load_side(const struct gprof *g, const char *image,
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

static void check_usage(struct gprof *g)
{
	const struct options *o = &g->opt;
	if (o->nprofiles != 2 && o->nprofiles != 3)
		die(g, "--compare needs IMAGE OLD-PROFILE NEW-PROFILE, or "
		    "OLD-IMAGE OLD-PROFILE NEW-IMAGE NEW-PROFILE");
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
	c.old_image = g->opt.image;
	c.old_profile = g->opt.profiles[0];
	c.new_image = two_builds ? g->opt.profiles[1] : g->opt.image;
	c.new_profile = g->opt.profiles[two_builds ? 2 : 1];
	c.old = load_side(g, c.old_image, &c.old_profile);
	c.new = load_side(g, c.new_image, &c.new_profile);
	/* Warnings only once both sides have loaded: a bad second file
	   stops the run with its one line. */
	diagnose_warn(c.old);
	diagnose_warn(c.new);
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
