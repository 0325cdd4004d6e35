/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * api.c - the public C interface declared in include/libgmon.h:
 * gmon_start, gmon_stop, gmon_reset and gmon_dump.
 */
#define _GNU_SOURCE
#include <errno.h>

#include "gmon_rt.h"
#include "offcpu.h"
#include "libgmon.h"

#define GMON_API __attribute__((visibility("default")))

void moncontrol(int mode);

/* The profiler's tables and histogram exist and the exit write is not
   done yet; otherwise fail with EINVAL. */
static int running(void)
{
	if (__atomic_load_n(&gmon_p.phase, __ATOMIC_ACQUIRE) == GMON_RUNNING)
		return 1;
	errno = EINVAL;
	return 0;
}

GMON_API int gmon_start(void)
{
	if (!running())
		return -1;
	moncontrol(1);
	return 0;
}

GMON_API int gmon_stop(void)
{
	if (!running())
		return -1;
	moncontrol(0);
	return 0;
}

/*
 * Counts are plain words written by their own thread, so a thread
 * counting at the very moment may keep a call made just before the
 * reset or lose one made just after it: exact only for threads that are
 * not inside profiled code meanwhile (the calling thread always is).
 */
GMON_API int gmon_reset(void)
{
	if (!running())
		return -1;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		uint32_t used = __atomic_load_n(&t->used, __ATOMIC_ACQUIRE);
		for (uint32_t i = 1; i <= used; i++)
			__atomic_store_n(&t->arcs[i].count, 0, __ATOMIC_RELAXED);
	}
	size_t nbins;
	uint32_t *bins = (uint32_t *)gmon_hist_bins(&nbins);
	for (size_t i = 0; i < nbins; i++)
		__atomic_store_n(&bins[i], 0, __ATOMIC_RELAXED);
	gmon_shlibs_reset();
	gmon_stacks_reset();
	gmon_cputime_reset();
	gmon_offstk_reset(0);
	return 0;
}

/* With GMON_OUT set and empty the user asked for no output at all:
   nothing is written, and that is a success, not an error. */
GMON_API int gmon_dump(const char *path)
{
	if (!running())
		return -1;
	if (gmon_output_disabled())
		return 0;
	int err = path ? gmon_write_path(path) : gmon_write_named(0, 1);
	if (err == 0)
		return 0;
	errno = err;
	return -1;
}
