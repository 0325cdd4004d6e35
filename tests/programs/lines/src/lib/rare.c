/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "lines" test program: a function called only now and then, alone in its
   file so that the object file defines one external symbol (for the
   --file-ordering map). */
#include "stats.h"
#include "../include/mathx.h"

/*
 * Called on every fifth round of main's loop.  The inline churn from
 * mathx.h is emitted in this file at -O0 (as a local function whose
 * line, as gprof reports it, belongs to this file's name).
 */
unsigned long stats_rare(int i)
{
	unsigned long v = churn((unsigned long)i, 600000);

	return v + lib_util((unsigned long)i);
}
