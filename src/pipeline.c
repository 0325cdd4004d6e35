/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pipeline.c - the pipeline main() drives: options, executable symbols,
 * symspecs, profile files, analysis (which computes every figure), then
 * the requested reports in GNU's order (which only read them).
 */
#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gmon_shlibs.h"
#include "pipeline.h"
#include "print/print.h"

/* Whether a profile has a side file (PROFILE.shlibs) that will be read. */
static bool side_file_beside(const struct gprof *g)
{
	for (size_t i = 0; !g->opt.no_shlibs && i < g->opt.nprofiles; i++) {
		const char *p = g->opt.profiles[i];
		if (strcmp(p, "-") == 0)
			continue;
		char *name = shlibs_side_name(p);
		bool there = access(name, R_OK) == 0;
		free(name);
		if (there)
			return true;
	}
	return false;
}

static void load_symbols(struct gprof *g)
{
	if (g->opt.ext_symtab) {
		core_read_ext_symtab(g, g->opt.ext_symtab);
	} else {
		core_read_syms(g);
		if (g->opt.map_file)
			map_file_read(g, g->opt.map_file);
		g->exe_pseudo_ok = side_file_beside(g);
		core_build_syms(g);
		/* Source files are listed in the order GNU meets them, which
		   -A follows: functions first, in symbol-table order. */
		if (g->opt.line_gran || (g->opt.style & STYLE_ANNOTATED))
			core_intern_files(g);
		if (g->opt.line_gran)
			core_build_line_syms(g);
	}
}

/* Without any report option, print what the data allows, minus the
   reports the user switched off. */
static void choose_default_styles(struct gprof *g, bool stack_arcs)
{
	struct options *o = &g->opt;
	if (o->style != 0)
		return;
	if (g->input_hist)
		o->style |= STYLE_FLAT;
	if (g->input_arcs || stack_arcs)
		o->style |= STYLE_CALL_GRAPH;
	if (!g->input_hist && !g->input_arcs)
		o->style |= STYLE_EXEC_COUNTS;
	o->style &= ~o->user_styles;
}

/* Everything the reports show is computed here, before any is printed. */
void gprof_analyse(struct gprof *g)
{
	arc_bulk_flush(g);              /* for callers that read files alone */
	clones_merge_stacks(g);
	if (stacks_wanted(g)) {
		if (g->nstacks == 0)
			die(g, "the profile has no call stacks (the program records "
			    "them when run with GMON_STACKS=1)");
		stacks_build(g);
	}
	/* --stacks needs them too; said before anything else goes wrong. */
	if (g->opt.stacks && g->nstacks == 0)
		die(g, "the profile has no call stacks for --stacks (the program "
		    "records them when run with GMON_STACKS=1)");
	if (g->input_hist)
		hist_assign_samples(g);
	clones_merge_time(g);
	totals_build(g);
	if (g->input_arcs)
		cg_propagate(g);
	if (g->input_arcs && cg_entries_wanted(g))
		g->entries = cg_entries_by_time(g, &g->nentries);
	if (g->input_arcs && (g->opt.stacks || g->arcs_from_stacks))
		stack_graph_build(g);
	if ((g->opt.style & STYLE_FLAT) && !g->input_hist)
		die(g, "gmon.out file is missing histogram");
	if ((g->opt.style & STYLE_CALL_GRAPH) && !g->input_arcs)
		die(g, "gmon.out file is missing call-graph data");
	if (g->input_arcs)
		cg_order(g);
	if ((g->opt.style & STYLE_FLAT) ||
	    (g->opt.out_format != OUT_TEXT && g->input_hist))
		flat_profile_build(g);
	if (sampling_error_wanted(g))
		sampling_error_build(g);
	if (g->opt.style & STYLE_ANNOTATED)
		source_lines_build(g);
	if (g->opt.out_format == OUT_DOT || g->opt.out_format == OUT_HTML)
		graph_view_build(g);
}

/* The requested reports, in GNU's order, into `v` (room for
   GPROF_MAX_REPORTS); returns how many. */
size_t gprof_reports(const struct gprof *g, report_fn *v)
{
	unsigned style = g->opt.style;
	bool graph = cg_graph_printed(g);
	size_t n = 0;

	/* Every other format is one document with everything in it. */
	static const report_fn documents[] = {
		[OUT_DOT] = dot_print, [OUT_HTML] = html_print,
		[OUT_JSON] = json_print, [OUT_CALLGRIND] = callgrind_print,
		[OUT_PPROF] = pprof_print, [OUT_FOLDED] = folded_print,
		[OUT_FLAME] = flame_print
	};
	if (g->opt.out_format != OUT_TEXT) {
		v[0] = documents[g->opt.out_format];
		return 1;
	}

	if (g->opt.bsd_style && graph)
		v[n++] = cg_print;
	if (style & STYLE_FLAT)
		v[n++] = flat_print;
	if (!g->opt.bsd_style && graph)
		v[n++] = cg_print;
	if (graph)
		v[n++] = cg_print_index;
	if (style & STYLE_EXEC_COUNTS)
		v[n++] = bb_print_exec_counts;
	if (style & STYLE_ANNOTATED)
		v[n++] = annotate_sources;
	if (style & STYLE_FUNC_ORDER)
		v[n++] = link_order_functions;
	if (style & STYLE_FILE_ORDER)
		v[n++] = link_order_files;
	return n;
}

/* The reports only read the model: printing them again, or in another
   order, gives the same bytes (tests/reports checks it). */
void gprof_print(const struct gprof *g, FILE *out)
{
	report_fn v[GPROF_MAX_REPORTS];
	size_t n = gprof_reports(g, v);
	struct report r;

	report_init(&r, out, !g->first_output);
	for (size_t i = 0; i < n; i++)
		v[i](g, &r);
	report_free(&r);
}

/* The command line, into g->opt. */
void gprof_parse(struct gprof *g, int argc, char **argv)
{
	setlocale(LC_CTYPE, "");
	g->whoami = argv[0];
	g->first_output = true;
	options_parse(g, argc, argv);
	sym_ids_add_defaults(g);
}

/* Whether no report will read an arc, so that the arcs need not be made
   (arc_bulk.c): GNU's text flat profile alone (-p), asked for by name,
   with nothing that adds arcs after the profiles (side files, -c) or
   walks them (-d, --stacks and the other extensions). */
static bool arcs_unread(const struct gprof *g)
{
	const struct options *o = &g->opt;

	return o->style == STYLE_FLAT && o->out_format == OUT_TEXT &&
	       !o->bsd_style && !o->static_call_graph && !o->stacks &&
	       !o->compare && !o->diagnose && !o->per_thread && !o->debug &&
	       !g->thread_only && !shlibs_side_files(g);
}

/* Symbols and profile files the options name, up to the -s summary
   file. */
void gprof_load_inputs(struct gprof *g)
{
	core_open(g);
	load_symbols(g);
	shlibs_load(g);
	clones_map(g);
	sym_ids_resolve(g);
	cg_add_spec_arcs(g);
	sym_ids_finish(g);
	if (g->opt.file_format == FF_PROF)
		die(g, "sorry, file format `prof' is not yet supported");
	g->arcs_unread = arcs_unread(g);
	g->arc_sink = arc_take;
	clones_set_sink(g);
	for (size_t i = 0; i < g->opt.nprofiles; i++)
		gmon_read(g, g->opt.profiles[i]);
	arc_bulk_flush(g);
	shlibs_apply(g);

	/* A program not built with -pg: its calls from the stacks, after
	   the -s summary (which keeps the profile as recorded). */
	bool stack_arcs = stack_arcs_wanted(g);
	choose_default_styles(g, stack_arcs);
	if (g->opt.style & STYLE_SUMMARY) {
		gmon_write_sum(g, "gmon.sum");
		shlibs_write_sum(g, "gmon.sum" GMSL_SUFFIX);
	}
	if (stack_arcs)
		stack_arcs_build(g);
}

void gprof_load(struct gprof *g, int argc, char **argv)
{
	gprof_parse(g, argc, argv);
	gprof_load_inputs(g);
}
