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
#include "testfns.h"

static pthread_t early;
static double early_secs, early_want;

KEEP double lib_burn(double seconds)
{
	return pre_burn(seconds);
}

KEEP static void *lib_early(void *arg)
{
	(void)arg;
	early_secs = pre_burn(early_want);
	return NULL;
}

__attribute__((constructor)) static void start_early(void)
{
	const char *s = getenv("PRE_SECONDS");
	early_want = s ? atof(s) : 0.2;
	pthread_create(&early, NULL, lib_early, NULL);
}

/* The CPU time lib_early measured, once it is done. */
double lib_early_join(void)
{
	pthread_join(early, NULL);
	return early_secs;
}
