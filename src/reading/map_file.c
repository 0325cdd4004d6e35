/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * map_file.c - the -R map file (`nm --extern-only --defined-only -v
 * --print-file-name` output): which object file defines each function.
 * For -R, each object file is represented by its first function, renamed
 * to the object's name; its other functions merge into it.
 */
#include <stdlib.h>
#include <string.h>

#include "reading/reading.h"


static int cmp_func(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(((const struct map_entry *)a)->func,
	              ((const struct map_entry *)b)->func);
}

/* "FILE:ADDR TYPE NAME": the file runs to the first colon, the function
   is what follows the last space (possibly nothing, as GNU accepts). */
static bool parse_line(const char *line, struct map_entry *e)
{
	const char *colon = strchr(line, ':');
	const char *space = strrchr(line, ' ');
	if (!colon || colon == line || !space || space < colon)
		return false;
	e->file = strndup(line, (size_t)(colon - line));
	e->func = xstrdup(space + 1);
	return true;
}

static void add_entry(struct gprof *g, const struct map_entry *e)
{
	size_t n = g->nmap_entries;
	if ((n & (n - 1)) == 0) {         /* grow at powers of two */
		size_t cap = n ? n * 2 : 1;
		g->map_entries = xrealloc(g->map_entries,
		                          cap * sizeof *g->map_entries);
		g->map_files = xrealloc(g->map_files, cap * sizeof *g->map_files);
	}
	struct map_entry *m = &g->map_entries[n];
	*m = *e;
	m->first = n == 0 || strcmp(g->map_entries[n - 1].file, e->file) != 0;
	g->map_files[n] = m->file;
	g->nmap_entries = g->nmap_files = n + 1;
}

void map_file_read(struct gprof *g, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		die(g, "could not open %s.", path);
	while ((n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (strncmp(line, "No symbols in ", 14) == 0)
			continue;
		struct map_entry e;
		if (!parse_line(line, &e))
			die(g, "unable to parse mapping file %s.", path);
		add_entry(g, &e);
	}
	free(line);
	fclose(f);
	/* Sorted by function for lookups; map_files keeps file order. */
	stable_sort(g->map_entries, g->nmap_entries, sizeof *g->map_entries,
	            cmp_func, NULL);
}
