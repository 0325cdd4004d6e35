/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * threads.c - owns --per-thread: the flat profile and call graph of each
 * thread the side file names (GMON_STACKS=1 records them), or of one.
 *
 * Each thread gets a whole context of its own, loaded and analysed by the
 * ordinary pipeline with the run's options, like each side of --compare;
 * only, its context has thread_only set, so that shlibs.c credits that
 * thread's TSAMPLES and TARCS instead of gmon.out's histogram and arcs
 * and the side file's whole-program records.  Nothing of the analysis or
 * the printers knows about threads: every figure of a thread's reports
 * is the one the whole program's would have, from that thread's data.
 */
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "pipeline.h"
#include "print/print.h"

static void check_usage(const struct gprof *g)
{
	const struct options *o = &g->opt;
	if (o->out_format != OUT_TEXT)
		die(g, "--per-thread prints text, not another --output-format");
	if (o->style & STYLE_SUMMARY)
		die(g, "--per-thread and -s cannot be used together");
	if (o->diagnose)
		die(g, "--per-thread and --diagnose cannot be used together");
}

/* Does `sel` name thread t, by its decimal id or by its name? */
static bool selects(const char *sel, const struct thread_info *t)
{
	char *end;
	unsigned long id = strtoul(sel, &end, 10);
	if (end != sel && *end == '\0' && sel[0] != '-' && sel[0] != '+' &&
	    id == t->id)
		return true;
	return strcmp(sel, t->name) == 0;
}

/* The unknown thread's message lists them all: one line, what to type. */
static void no_such_thread(const struct gprof *g, const char *sel,
                           const struct thread_info *v, size_t n)
{
	size_t len = 1;
	for (size_t i = 0; i < n; i++)
		len += strlen(v[i].name) + 32;
	char *list = xmalloc(len), *p = list;
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%u \"%s\"", i ? ", " : "", (unsigned)v[i].id,
		             v[i].name);
	*p = '\0';
	/* die()'s message, with the list freed before the exit (which an
	   in-process caller turns into a longjmp) */
	warnx_g(g, "--per-thread: no thread `%s' in the profile (threads: %s)",
	        sel, list);
	free(list);
	gprof_exit(1);
}

/* One thread's context: the run's options, through the whole pipeline. */
static void load_thread(const struct gprof *g, const struct thread_info *t,
                        struct gprof **slot)
{
	struct gprof *x = *slot = xcalloc(1, sizeof *x);
	x->opt = g->opt;
	x->whoami = g->whoami;
	x->first_output = true;
	x->thread_only = true;
	x->thread_id = t->id;
	x->thread_name = t->name;
	/* Only the two reports a thread's data makes sense for: the others
	   (-A, -C, function ordering) read gmon.out's own records. */
	x->opt.style &= STYLE_FLAT | STYLE_CALL_GRAPH;
	gprof_load_inputs(x);
	gprof_analyse(x);
}

int threads_run(struct gprof *g)
{
	struct thread_info *v;
	struct output out;

	check_usage(g);
	gprof_load_inputs(g);
	if ((g->opt.style & (STYLE_FLAT | STYLE_CALL_GRAPH)) == 0)
		die(g, "--per-thread prints the flat profile and the call graph; "
		    "neither is requested");
	size_t n = g->nthreads = shlibs_threads(g, &g->threads);
	v = g->threads;
	if (n == 0)
		die(g, "the profile has no per-thread records (the program "
		    "records them when run with GMON_STACKS=1)");
	const char *sel = g->opt.thread_sel;
	size_t nsel = 0;
	for (size_t i = 0; i < n; i++)
		nsel += !sel || selects(sel, &v[i]);
	if (nsel == 0)
		no_such_thread(g, sel, v, n);

	/* Every selected context is loaded before anything is written, so
	   that an error stops the run with its one line and no output. */
	struct gprof **ctx = g->thread_ctx = xcalloc(n, sizeof *ctx);
	for (size_t i = 0; i < n; i++)
		if (!sel || selects(sel, &v[i]))
			load_thread(g, &v[i], &ctx[i]);

	output_open(g, &out);
	bool first = true;
	for (size_t i = 0; i < n; i++) {
		if (!ctx[i])
			continue;
		/* GNU's separator of sections, then which thread this is. */
		if (!first)
			fputs("\f\n", out.f);
		first = false;
		fprintf(out.f, "Thread %u (tid %u, \"%s\"):\n\n", (unsigned)v[i].id,
		        (unsigned)v[i].tid, v[i].name);
		gprof_print(ctx[i], out.f);
	}
	output_close(g, &out);
	return 0;
}
