/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * safe_file.c - output files that appear whole or not at all: data goes
 * to a temporary file in the destination's folder, which is renamed over
 * the destination only once everything has been written and flushed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/safe_file.h"

/* Depends on nothing else of gprof's, so that gprof-bbconv links it too. */
bool safe_open(struct safe_file *sf, const char *path)
{
	size_t len = strlen(path) + sizeof ".XXXXXX";
	sf->path = path;
	sf->f = NULL;
	if (!(sf->tmp = malloc(len)))
		return false;
	snprintf(sf->tmp, len, "%s.XXXXXX", path);

	int fd = mkstemp(sf->tmp);
	if (fd < 0) {
		free(sf->tmp);
		return false;
	}
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	sf->f = fdopen(fd, "wb");
	if (!sf->f) {
		int e = errno;
		close(fd);
		unlink(sf->tmp);
		free(sf->tmp);
		errno = e;
		return false;
	}
	return true;
}

void safe_abort(struct safe_file *sf)
{
	if (sf->f)
		fclose(sf->f);
	unlink(sf->tmp);
	free(sf->tmp);
	sf->f = NULL;
}

bool safe_commit(struct safe_file *sf)
{
	bool ok = !ferror(sf->f) && fflush(sf->f) == 0 &&
	          fsync(fileno(sf->f)) == 0;
	int e = errno;
	ok = fclose(sf->f) == 0 && ok;
	sf->f = NULL;
	if (ok && rename(sf->tmp, sf->path) == 0) {
		free(sf->tmp);
		return true;
	}
	e = errno ? errno : e;
	unlink(sf->tmp);
	free(sf->tmp);
	errno = e ? e : EIO;
	return false;
}
