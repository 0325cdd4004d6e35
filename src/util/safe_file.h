/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * safe_file.h - output files written to a temporary file in the same
 * folder and renamed into place, so that a file the user already has is
 * replaced whole or not at all (safe_file.c).
 *
 * Usage: safe_open(), write to sf.f, then safe_commit() to keep the
 * result or safe_abort() to drop it.  Every function leaves errno set on
 * failure, for perror().  The module depends on nothing else of gprof's,
 * so gprof-bbconv links it too.
 */
#ifndef SAFE_FILE_H
#define SAFE_FILE_H
#include <stdbool.h>
#include <stdio.h>

struct safe_file {
	FILE *f;                     /* where to write; NULL once closed */
	const char *path;            /* final name (the caller's string, which
	                                must outlive the safe_file) */
	char *tmp;                   /* PATH.XXXXXX, owned */
};

/* Creates PATH.XXXXXX beside `path` with the permissions a new file would
   get (0666 less the umask) and opens it for writing.  False (nothing
   created, nothing to free) when the folder is not writable or memory
   runs out. */
bool safe_open(struct safe_file *sf, const char *path);

/* Flushes, syncs and closes the temporary file and renames it to the
   final name.  True on success; on any failure (a write error seen by
   the stream included) removes the temporary file, leaves the old file
   as it was and returns false.  Either way sf is finished. */
bool safe_commit(struct safe_file *sf);

/* Closes and removes the temporary file; the old file is untouched. */
void safe_abort(struct safe_file *sf);
#endif
