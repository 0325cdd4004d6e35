/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * diagnose.c - the checks behind "why is my profile empty?": a sampling
 * rate of 0, a histogram over no function of the executable, too few
 * samples, no call arcs (or no call counted at all: a program not
 * built with -pg), a profile older than the executable, a run
 * that spent much of its time in the profiling hook.  Each
 * check's result is computed once into g->diag (print/diagnose_print.c
 * prints the most important problem as one line on stderr, and with
 * --diagnose every check).
 */
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"

/* Fewer samples than this leave every time uncertain by more than 10%. */
#define FEW_SAMPLES 100

static const char *const names[DIAG_NCHECKS] = {
	[DIAG_RATE] = "sampling rate",
	[DIAG_RANGE] = "histogram range",
	[DIAG_AGE] = "profile age",
	[DIAG_SAMPLES] = "samples",
	[DIAG_ARCS] = "call arcs",
	[DIAG_HOOK] = "profiling hook",
};

const char *diagnose_name(enum diag_id id)
{
	return names[id];
}

static void set(struct gprof *g, enum diag_id id, enum diag_status st,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void set(struct gprof *g, enum diag_id id, enum diag_status st,
                const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g->diag[id].status = st;
	vsnprintf(g->diag[id].text, sizeof g->diag[id].text, fmt, ap);
	va_end(ap);
}

/* The profile files as the messages name them: "gmon.out", or
   "gmon.1 (and 2 more)" for a sum. */
struct who {
	char name[300];
};

static const char *who_init(struct who *w, const struct gprof *g)
{
	const char *first = g->opt.nprofiles ? g->opt.profiles[0] : "gmon.out";
	if (g->opt.nprofiles > 1)
		snprintf(w->name, sizeof w->name, "%s (and %zu more)", first,
		         g->opt.nprofiles - 1);
	else
		snprintf(w->name, sizeof w->name, "%s", first);
	return w->name;
}

static void check_rate(struct gprof *g, const char *who)
{
	if (!g->input_hist)
		set(g, DIAG_RATE, DIAG_NOT_APPLICABLE, "no histogram");
	else if (!(g->hz > 0))
		set(g, DIAG_RATE, DIAG_PROBLEM, "%s: the sampling rate is 0: "
		    "every time prints as inf or nan (the runtime wrote no "
		    "rate; its timer was never set)", who);
	else
		set(g, DIAG_RATE, DIAG_OK, "%g Hz (%s)", g->hz,
		    g->dimen[0] ? g->dimen : "seconds");
}

/* Sum of every histogram bin, as read. */
static double bin_total(const struct gprof *g)
{
	double n = 0;
	for (size_t i = 0; i < g->nhists; i++)
		for (size_t b = 0; b < g->hists[i].num_bins; b++)
			n += (double)hist_bin(&g->hists[i], b);
	return n;
}

double diagnose_samples(const struct gprof *g)
{
	return bin_total(g) + g->shlib_ticks;
}

/* Does any histogram overlap a function of the executable? */
static bool hist_meets_functions(const struct gprof *g)
{
	size_t n = exe_syms_len(g);
	if (n == 0)
		return false;
	vma_t lo = g->syms.base[0].addr, hi = g->syms.base[n - 1].end_addr;
	for (size_t i = 0; i < g->nhists; i++)
		if (g->hists[i].lowpc <= hi && g->hists[i].highpc > lo)
			return true;
	return false;
}

static void check_range(struct gprof *g, const char *who, double bins,
                        double credited)
{
	if (!g->input_hist || g->nhists == 0) {
		set(g, DIAG_RANGE, DIAG_NOT_APPLICABLE, "no histogram");
		return;
	}
	const struct histogram *h = &g->hists[0];
	if (!hist_meets_functions(g)) {
		set(g, DIAG_RANGE, DIAG_PROBLEM, "%s: the histogram covers "
		    "0x%llx-0x%llx, where %s has no function: is it the "
		    "program that wrote the profile (not a PIE loaded elsewhere, "
		    "not another build)?", who,
		    (unsigned long long)h->lowpc, (unsigned long long)h->highpc,
		    g->opt.image);
	} else if (bins > 0 && credited < 0.5 * bins) {
		set(g, DIAG_RANGE, DIAG_PROBLEM, "%s: %.0f%% of the samples lie "
		    "outside every function of %s: is it the program that "
		    "wrote the profile?", who,
		    100.0 * (bins - credited) / bins, g->opt.image);
	} else {
		set(g, DIAG_RANGE, DIAG_OK, "0x%llx-0x%llx, over functions "
		    "of %s", (unsigned long long)h->lowpc,
		    (unsigned long long)h->highpc, g->opt.image);
	}
}

static void check_samples(struct gprof *g, const char *who, double bins)
{
	double n = bins + g->shlib_ticks;
	if (!g->input_hist) {
		set(g, DIAG_SAMPLES, DIAG_PROBLEM, "%s: the profile has no "
		    "histogram: no time was sampled", who);
	} else if (n == 0) {
		set(g, DIAG_SAMPLES, DIAG_PROBLEM, "%s: no samples: the program "
		    "ran for less than one sampling period (%g s) of CPU time",
		    who, g->hz > 0 ? 1.0 / g->hz : 0.0);
	} else if (n < FEW_SAMPLES) {
		set(g, DIAG_SAMPLES, DIAG_PROBLEM, "%s: only %.0f samples: each "
		    "time is uncertain by about the square root of its samples "
		    "(the total by %.0f%%); run longer or sum runs with -s",
		    who, n, 100.0 / sqrt(n));
	} else {
		set(g, DIAG_SAMPLES, DIAG_OK, "%.0f samples (the total time "
		    "is uncertain by %.1f%%)", n, 100.0 / sqrt(n));
	}
}

static void check_arcs(struct gprof *g, const char *who)
{
	if (g->narcs > 0) {
		set(g, DIAG_ARCS, DIAG_OK, "%zu arcs", g->narcs);
	} else if (g->arc_records > 0) {
		set(g, DIAG_ARCS, DIAG_PROBLEM, "%s: %llu call-arc records, none "
		    "between functions of %s: is it the program that wrote "
		    "the profile?", who,
		    (unsigned long long)g->arc_records, g->opt.image);
	} else {
		set(g, DIAG_ARCS, DIAG_PROBLEM, "%s: no call arcs: no call was "
		    "counted (-pg missing when linking, or a compiler that passes "
		    "mcount no caller address)", who);
	}
}

/* A run of a program not built with -pg (libgmon linked in, or the
   preload runtime): samples and a side file, maybe stacks, but no call
   counted.  Not a fault of the run, so the check says what the report
   gives instead and how to get counts.  False when the profile is not
   such a run (check_arcs() then speaks). */
static bool check_sampled_only(struct gprof *g, const char *who)
{
	if (!g->arcs_from_stacks &&
	    (g->input_arcs || (!shlibs_side_files(g) && g->nstacks == 0)))
		return false;
	if (g->arcs_from_stacks)
		set(g, DIAG_ARCS, DIAG_NOT_APPLICABLE, "%s: no call counts: %s "
		    "was not built with -pg; the call graph comes from the "
		    "sampled stacks and its counts are stack samples, not calls "
		    "(rebuild with -pg for exact call counts)", who,
		    g->opt.image);
	else if (g->nstacks > 0)
		set(g, DIAG_ARCS, DIAG_PROBLEM, "%s: no call counts: %s was not "
		    "built with -pg; use --stacks for a call graph from the "
		    "sampled stacks, or rebuild with -pg for exact call counts",
		    who, g->opt.image);
	else
		set(g, DIAG_ARCS, DIAG_PROBLEM, "%s: no call counts: %s was not "
		    "built with -pg; rebuild with -pg for call counts, or record "
		    "stacks (GMON_STACKS=1) and use --stacks for a call graph "
		    "from samples", who, g->opt.image);
	return true;
}

static void check_age(struct gprof *g)
{
	struct stat img, prof;
	if (stat(g->opt.image, &img) != 0) {
		set(g, DIAG_AGE, DIAG_NOT_APPLICABLE, "%s: not a file",
		    g->opt.image);
		return;
	}
	for (size_t i = 0; i < g->opt.nprofiles; i++) {
		const char *p = g->opt.profiles[i];
		/* (a pipe's time says nothing about the run) */
		if (stat(p, &prof) != 0 || !S_ISREG(prof.st_mode) ||
		    prof.st_mtime >= img.st_mtime)
			continue;
		set(g, DIAG_AGE, DIAG_PROBLEM, "%s is older than %s: the "
		    "program was rebuilt after the run that wrote it", p,
		    g->opt.image);
		return;
	}
	set(g, DIAG_AGE, DIAG_OK, "no profile is older than %s",
	    g->opt.image);
}

/* From this share of the samples on, the hook is a problem: the run was
   at least 1.25 times as slow, and the report's times are what is left. */
#define HOOK_HEAVY 0.20

/* The time the profiling hook took (totals.c), and the slow-down that
   implies. */
static void check_hook(struct gprof *g, const char *who)
{
	const struct run_totals *t = &g->totals;
	double hz = g->hz > 0 ? g->hz : 1;

	if (!g->input_hist || !(t->all > 0)) {
		set(g, DIAG_HOOK, DIAG_NOT_APPLICABLE, "no samples");
	} else if (!t->hook_measured) {
		set(g, DIAG_HOOK, DIAG_NOT_APPLICABLE, "not measured: the "
		    "program counts its calls with the C library's mcount, "
		    "outside the sampled text, so the time that took is in "
		    "no sample (profiling made the run slower by an unknown "
		    "amount)");
	} else if (t->hook_share >= HOOK_HEAVY) {
		set(g, DIAG_HOOK, DIAG_PROBLEM, "%s: %.2f s of %.2f s (%.1f%%) "
		    "in the profiling hook (counting calls): profiling made "
		    "the run about %.2f times as slow, and the functions' "
		    "times are what is left", who, t->hook / hz, t->all / hz,
		    100 * t->hook_share, t->slowdown);
	} else {
		set(g, DIAG_HOOK, DIAG_OK, "%.2f s of %.2f s (%.1f%%) in the "
		    "profiling hook: the run about %.2f times as slow",
		    t->hook / hz, t->all / hz, 100 * t->hook_share,
		    t->slowdown);
	}
}

/* After gprof_analyse(): reads the model, writes g->diag only. */
void diagnose_build(struct gprof *g)
{
	double bins = bin_total(g), credited = 0;
	struct who w;
	const char *who = who_init(&w, g);
	for (size_t i = 0; i < exe_syms_len(g); i++)
		credited += g->syms.base[i].hist_time;
	/* Samples in functions a symspec left out (-p NAME, -e...) are not
	   in their hist_time but did land in a function: hist.c took them
	   off the total instead. */
	double left_out = bins - (g->total_time - (double)g->shlib_ticks);
	if (left_out > 0)
		credited += left_out;

	check_rate(g, who);
	check_range(g, who, bins, credited);
	check_samples(g, who, bins);
	if (!check_sampled_only(g, who))
		check_arcs(g, who);
	check_age(g);
	check_hook(g, who);
}
