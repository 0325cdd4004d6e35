/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * output.c - the destination of the reports: standard output or a file
 * replaced whole, and one message for any write error.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

/* The file being written, removed if the run exits before committing it
   (a bad input found while printing, for instance). */
static struct safe_file *pending;

static void drop_pending(void)
{
	if (pending)
		safe_abort(pending);
	pending = NULL;
}

void output_open(const struct gprof *g, struct output *o)
{
	memset(o, 0, sizeof *o);
	/* A closed pipe (`gprof ... | head`) ends the run by SIGPIPE, quietly,
	   as it ends GNU gprof and every filter: the reader has what it
	   wanted, and standard output has no file to clean up.  (If the
	   program was started with SIGPIPE ignored, the write fails with
	   EPIPE and is reported like any other write error.) */
	if (!g->opt.output) {
		o->f = stdout;
		o->name = "standard output";
		return;
	}
	/* Past a file-size limit, a write fails like one to a full disk
	   instead of killing the run. */
	signal(SIGXFSZ, SIG_IGN);
	o->name = g->opt.output;
	if (!safe_open(&o->sf, g->opt.output))
		die(g, "%s: cannot create: %s", g->opt.output, strerror(errno));
	o->f = o->sf.f;
	if (!pending)
		atexit(drop_pending);
	pending = &o->sf;
}

void output_close(const struct gprof *g, struct output *o)
{
	if (o->f == stdout) {
		errno = 0;
		if (fflush(stdout) != 0 || ferror(stdout))
			die(g, "%s: write error: %s", o->name,
			    strerror(errno ? errno : EIO));
		return;
	}
	pending = NULL;
	errno = 0;
	if (!safe_commit(&o->sf))
		die(g, "%s: write error: %s", o->name,
		    strerror(errno ? errno : EIO));
}
