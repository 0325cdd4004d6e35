/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * run.c - one whole run of the tool, as main() and the fuzz harnesses
 * start it: the pipeline (pipeline.c) over one profile, or the comparison
 * of two (compare_run.c), or of each thread (threads.c), into the output the
 * options name (output.c).
 */
#include "output.h"
#include "pipeline.h"
#include "print/print.h"

/* The whole run over a zeroed context; the fuzz harnesses call it once per
   input (with gprof_exit_jmp set), main() once. */
int gprof_run(struct gprof *g, int argc, char **argv)
{
	struct output out;

	gprof_parse(g, argc, argv);
	if (g->opt.compare)
		return compare_run(g);
	if (g->opt.per_thread)
		return threads_run(g);
	gprof_load_inputs(g);
	gprof_analyse(g);
	diagnose_build(g);
	diagnose_warn(g);
	output_open(g, &out);
	if (g->opt.diagnose)
		diagnose_print(g, out.f);
	else
		gprof_print(g, out.f);
	output_close(g, &out);
	return 0;
}
