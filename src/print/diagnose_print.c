/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * diagnose_print.c - prints the diagnosis analysis/diagnose.c computed:
 * the most important problem as one line on stderr, or with --diagnose
 * every check and its status.
 */
#include "print/print.h"

/* Missing arcs matter when a call graph was asked for, or when the user
   chose no report and may wonder where the call graph went. */
static bool arcs_matter(const struct gprof *g)
{
	return g->opt.user_styles == 0 ||
	       (g->opt.style & STYLE_CALL_GRAPH) != 0;
}

/* Whether a report is printed: -s alone writes gmon.sum and prints
   nothing, so there is nothing to warn about (a shell loop summing a
   hundred profiles would print a hundred lines). */
static bool report_printed(const struct gprof *g)
{
	return g->opt.out_format != OUT_TEXT ||
	       (g->opt.style & ~(unsigned)STYLE_SUMMARY) != 0;
}

/* The checks in the order their problems are told: another program's
   profile explains every later problem it causes (a rebuilt-program
   age, too few samples), so it comes right after the histogram range
   (whose own message already asks whether it is the program). */
static int warn_order(int k)
{
	if (k <= DIAG_RANGE)
		return k;
	if (k == DIAG_RANGE + 1)
		return DIAG_PROGRAM;
	return k <= DIAG_PROGRAM ? k - 1 : k;
}

/* One line on stderr: the most important problem only (a histogram over
   no function explains its lack of samples as well). */
void diagnose_warn(const struct gprof *g)
{
	if (g->opt.diagnose || !report_printed(g))
		return;
	for (int k = 0; k < DIAG_NCHECKS; k++) {
		int i = warn_order(k);
		if (g->diag[i].status != DIAG_PROBLEM)
			continue;
		if (i == DIAG_ARCS && !arcs_matter(g))
			continue;
		warnx_g(g, "diagnosis: %s", g->diag[i].text);
		return;
	}
}

/* The side files' CPU and wall time (PTIMES), and how much of the CPU
   time the samples cover; only when a side file gave them, so that a
   diagnosis of GNU's files reads as before. */
static void print_run_times(const struct gprof *g, FILE *out)
{
	if (!g->have_run_times)
		return;
	double user = g->run_user_ns / 1e9, sys = g->run_sys_ns / 1e9;
	double cpu = user + sys;
	fprintf(out, "  %-16s %-8s %.2f s (user %.2f s, system %.2f s = %.1f%%), "
	        "wall %.2f s", "CPU time", "info", cpu, user, sys,
	        cpu > 0 ? 100 * sys / cpu : 0.0, g->run_wall_ns / 1e9);
	if (cpu > 0 && g->hz > 0 && strcmp(g->dimen, "seconds") == 0)
		fprintf(out, "; the samples cover %.1f%% of it",
		        100 * (diagnose_samples(g) / g->hz) / cpu);
	fputc('\n', out);
}

void diagnose_print(const struct gprof *g, FILE *out)
{
	static const char *const status[] = {
		[DIAG_OK] = "ok", [DIAG_PROBLEM] = "PROBLEM",
		[DIAG_NOT_APPLICABLE] = "n/a"
	};
	int problems = 0;

	fprintf(out, "Diagnosis of %s", g->opt.image);
	for (size_t i = 0; i < g->opt.nprofiles; i++)
		fprintf(out, "%s%s", i ? ", " : " with ", g->opt.profiles[i]);
	fputs(":\n", out);
	for (int i = 0; i < DIAG_NCHECKS; i++) {
		fprintf(out, "  %-16s %-8s %s\n", diagnose_name(i),
		        status[g->diag[i].status], g->diag[i].text);
		problems += g->diag[i].status == DIAG_PROBLEM;
	}
	print_run_times(g, out);
	if (problems)
		fprintf(out, "%d problem%s found.\n", problems,
		        problems == 1 ? "" : "s");
	else
		fputs("No problem found.\n", out);
}
