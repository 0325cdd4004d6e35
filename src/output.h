/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * output.h - where a run's reports go (output.c): standard output, or the
 * file --output names, written through a temporary file in its folder
 * and renamed into place only when everything was written.
 */
#ifndef OUTPUT_H
#define OUTPUT_H

#include <stdio.h>

#include "model/model.h"
#include "util/util.h"

struct output {
	FILE *f;                     /* where printers write */
	struct safe_file sf;         /* with --output */
	const char *name;            /* for messages */
};

/* Opens the destination the options name; dies with one line when the
   file's folder is not writable. */
void output_open(const struct gprof *g, struct output *o);

/* Flushes and checks the stream; with --output renames the file into
   place.  A write error (a full disk, a closed pipe) gives one line on
   stderr and exit status 1, and leaves no file behind. */
void output_close(const struct gprof *g, struct output *o);

#endif
