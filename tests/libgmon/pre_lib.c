/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pre_lib.c - the shared library the preload test's program links
 * (libpre.so): lib_burn() runs on the caller's thread, and lib_early()
 * on a thread the library's constructor starts before main (so the
 * preloaded runtime must catch a thread a library made before it could
 * have seen a profiled call).  Built without -pg.
 */
#include <pthread.h>
#include <stdlib.h>

#include "pre_burn.h"
#include "pre_probe.h"
#include "testfns.h"

static pthread_t early;
static double early_secs, early_want;
static struct pre_probe early_probe;
static double early_in, early_out, early_sum2;

KEEP double lib_burn(double seconds)
{
	return pre_burn(seconds);
}

KEEP static void *lib_early(void *arg)
{
	(void)arg;
	pre_probe_start(&early_probe);
	early_in = pre_probe_carry(&early_probe);
	double s2 = early_probe.sum2;
	early_secs = pre_burn(early_want);
	early_out = pre_probe_carry(&early_probe);
	early_sum2 = early_probe.sum2 - s2;
	pre_probe_stop(&early_probe);
	return NULL;
}

__attribute__((constructor)) static void start_early(void)
{
	const char *s = getenv("PRE_SECONDS");
	early_want = s ? atof(s) : 0.2;
	pthread_create(&early, NULL, lib_early, NULL);
}

/* The CPU time lib_early measured, once it is done. */
/* With PRE_PROBE: the carries at lib_early's start and end, its squared
   credits and its thread's first credit (pre_probe.h). */
void lib_early_probe(double *in, double *out, double *sum2, double *first)
{
	*first = early_probe.first;
	*in = early_in;
	*out = early_out;
	*sum2 = early_sum2;
}

double lib_early_join(void)
{
	pthread_join(early, NULL);
	return early_secs;
}
