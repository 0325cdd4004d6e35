/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * state.c - the state every part of the runtime reads: the parameters
 * the recorder checks on every call (gmon_p), the calling thread's arc
 * table (gmon_cur), the settings read once at start-up (gmon_set), and
 * whether this thread runs one of libgmon's signal handlers.
 *
 * Defined here, in a file that calls nothing, so that the parts can all
 * read them without depending on the part that fills them in, and the
 * lifecycle (lifecycle.c) stays the only file that calls the parts'
 * hooks.  Who writes each field is said beside it in gmon_rt.h.
 */
#include "gmon_rt.h"

struct gmon_params gmon_p;

__thread struct gmon_table *gmon_cur
	__attribute__((tls_model("initial-exec")));

struct gmon_settings gmon_set;

__thread int gmon_in_handler __attribute__((tls_model("initial-exec")));
