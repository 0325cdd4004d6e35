/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_json.c - a hand-made `struct comparison` printed by
 * compare_print_json(), for tests/formats/json.sh to validate against
 * doc/gprof-compare.schema.json: a function in both profiles, one only in
 * the new, one only in the old, figures that are not finite, a name that
 * needs escaping, a side of one run and one of two.  Linked with the
 * tool's objects.
 */
#include <math.h>
#include <stdio.h>

#include "print/print.h"

int main(void)
{
	struct cmp_row rows[] = {
		{ .name = "spin",
		  .old = { true, 0.20, 0.20, 0.0447, NAN, 1301 },
		  .new = { true, 0.30, 0.31, 0.0548, NAN, 1301 },
		  .d_self = 0.10, .d_total = 0.11, .d_self_pct = 50,
		  .d_calls = 0, .err = 0.0707, .dof = INFINITY, .p = 1.5e-3,
		  .significant = true },
		{ .name = "fresh\t\"new\" \xff",
		  .old = { false, 0, 0, 0, NAN, 0 },
		  .new = { true, 0.01, 0.01, 0.01, 0.002, 3 },
		  .d_self = 0.01, .d_total = 0.01, .d_self_pct = 0,
		  .d_calls = 3, .err = 0.01, .dof = 2.5, .p = 0.4,
		  .significant = false },
		{ .name = "gone",
		  .old = { true, INFINITY, NAN, 0, 0, 7 },
		  .new = { false, 0, 0, 0, NAN, 0 },
		  .d_self = -INFINITY, .d_total = NAN, .d_self_pct = -100,
		  .d_calls = -7, .err = 0, .dof = INFINITY, .p = NAN,
		  .significant = false },
	};
	const char *old_runs[] = { "old/gmon.out" };
	const char *new_runs[] = { "new/gmon.1", "new/gmon,2" };
	struct comparison c = {
		.old = { .image = "old/prog", .profiles = old_runs, .nruns = 1,
		         .samples = 20, .total = 0.20, .total_err = 0.0447,
		         .total_spread = NAN },
		.new = { .image = "new/prog", .profiles = new_runs, .nruns = 2,
		         .samples = 64, .total = 0.32, .total_err = 0.0566,
		         .total_spread = 0.01 },
		.d_total = 0.12, .d_total_pct = 60, .d_total_err = 0.072,
		.total_dof = 3.5, .total_p = 0.2, .total_significant = false,
		.alpha = CMP_ALPHA, .run_variation = false,
		.note = "one run on the old side",
		.rows = rows, .nrows = sizeof rows / sizeof rows[0],
		.nsignificant = 1,
	};

	compare_print_json(&c, stdout);
	return ferror(stdout) != 0;
}
