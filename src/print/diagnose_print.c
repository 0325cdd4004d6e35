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

/* One line on stderr: the most important problem only (a histogram over
   no function explains its lack of samples as well). */
void diagnose_warn(const struct gprof *g)
{
	if (g->opt.diagnose)
		return;
	for (int i = 0; i < DIAG_NCHECKS; i++) {
		if (g->diag[i].status != DIAG_PROBLEM)
			continue;
		if (i == DIAG_ARCS && !arcs_matter(g))
			continue;
		warnx_g(g, "diagnosis: %s", g->diag[i].text);
		return;
	}
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
	if (problems)
		fprintf(out, "%d problem%s found.\n", problems,
		        problems == 1 ? "" : "s");
	else
		fputs("No problem found.\n", out);
}
