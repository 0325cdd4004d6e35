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

/* Why writing to f failed, once its error flag is set.  errno says it
   when the failed write was the last thing that set it (the final flush).
   But a write that failed earlier leaves no cause behind: stdio writes a
   block larger than its buffer directly, so a report whose last block
   failed that way has nothing pending at close, and a message line on
   stderr flushes standard output before it, clearing errno.  The output
   is already incomplete (a file is removed, and the run exits 1), so one
   more byte is written to make the device say why: a full disk says "No
   space left on device" again, a file-size limit "File too large".
   Input/output error only if even that write succeeds. */
static int write_error_cause(FILE *f, int seen)
{
	if (seen)
		return seen;
	clearerr(f);
	errno = 0;
	if ((fputc('\n', f) == EOF || fflush(f) != 0) && errno)
		return errno;
	return EIO;
}

void output_close(const struct gprof *g, struct output *o)
{
	if (o->f == stdout) {
		errno = 0;
		if (fflush(stdout) != 0 || ferror(stdout))
			die(g, "%s: write error: %s", o->name,
			    strerror(write_error_cause(stdout, errno)));
		return;
	}
	pending = NULL;
	errno = 0;
	if (ferror(o->f)) {
		int e = write_error_cause(o->f, 0);
		safe_abort(&o->sf);
		die(g, "%s: write error: %s", o->name, strerror(e));
	}
	if (!safe_commit(&o->sf))
		die(g, "%s: write error: %s", o->name,
		    strerror(errno ? errno : EIO));
}
