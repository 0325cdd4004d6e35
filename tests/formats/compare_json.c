/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare_json.c - a hand-made `struct comparison` printed by
 * compare_print_json(), for tests/formats/json.sh to validate against
 * doc/gprof-compare.schema.json: a function in both profiles, one only in
 * the new, one only in the old, figures that are not finite, a name that
 * needs escaping.  Linked with the tool's objects.
 */
#include <math.h>
#include <stdio.h>

#include "print/print.h"

int main(void)
{
	struct cmp_row rows[] = {
		{ .name = "spin",
		  .old = { true, 0.20, 0.20, 0.0447, 1301 },
		  .new = { true, 0.30, 0.31, 0.0548, 1301 },
		  .d_self = 0.10, .d_total = 0.11, .d_self_pct = 50,
		  .d_calls = 0, .err = 0.0707, .significant = true },
		{ .name = "fresh\t\"new\" \xff",
		  .old = { false, 0, 0, 0, 0 },
		  .new = { true, 0.01, 0.01, 0.01, 3 },
		  .d_self = 0.01, .d_total = 0.01, .d_self_pct = 0,
		  .d_calls = 3, .err = 0.01, .significant = false },
		{ .name = "gone",
		  .old = { true, INFINITY, NAN, 0, 7 },
		  .new = { false, 0, 0, 0, 0 },
		  .d_self = -INFINITY, .d_total = NAN, .d_self_pct = -100,
		  .d_calls = -7, .err = 0, .significant = false },
	};
	struct comparison c = {
		.old_image = "old/prog", .new_image = "new/prog",
		.old_profile = "old/gmon.out", .new_profile = "new/gmon.out",
		.old_total = 0.20, .new_total = 0.32,
		.old_total_err = 0.0447, .new_total_err = 0.0566,
		.d_total = 0.12, .d_total_pct = 60, .total_significant = true,
		.rows = rows, .nrows = sizeof rows / sizeof rows[0],
		.nsignificant = 1,
	};

	compare_print_json(&c, stdout);
	return ferror(stdout) != 0;
}
