/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlibs.c - GMON_SHLIBS: samples and arcs in shared libraries and
 * dlopen'ed objects, and the side file that names them.
 */
#include "gmon_rt.h"

int gmon_shlibs_enabled(void)
{
	return 0;
}

void gmon_shlibs_sample(uintptr_t pc, uint32_t w)
{
	(void)pc;
	(void)w;
}

void gmon_shlibs_fill(struct gmon_out *o)
{
	(void)o;
}
