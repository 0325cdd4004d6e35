/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * map_file.c - the -R map file (`nm --extern-only --defined-only -v
 * --print-file-name` output): which object file defines each function.
 * For -R, each object file is represented by its first function, renamed
 * to the object's name; its other functions merge into it.
 */
#include <stdlib.h>
#include <string.h>

#include "gprof.h"
#include "strbuf.h"

struct map_entry {
	char *file, *func;
	bool first;                  /* first entry of its object file */
};

static struct map_entry *entries;
static size_t nentries;

static int cmp_func(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return strcmp(((const struct map_entry *)a)->func,
	              ((const struct map_entry *)b)->func);
}

/* "FILE:ADDR TYPE NAME": the file runs to the first colon, the function
   is what follows the last space. */
static bool parse_line(const char *line, struct map_entry *e)
{
	const char *colon = strchr(line, ':');
	const char *space = strrchr(line, ' ');
	if (!colon || colon == line || !space || !space[1] || space < colon)
		return false;
	e->file = strndup(line, (size_t)(colon - line));
	e->func = xstrdup(space + 1);
	return true;
}

static void add_entry(struct gprof *g, const struct map_entry *e)
{
	static size_t cap;
	if (nentries == cap) {
		cap = cap ? cap * 2 : 256;
		entries = xrealloc(entries, cap * sizeof *entries);
		g->map_files = xrealloc(g->map_files, cap * sizeof *g->map_files);
	}
	entries[nentries] = *e;
	entries[nentries].first = nentries == 0 ||
		strcmp(entries[nentries - 1].file, e->file) != 0;
	g->map_files[nentries] = entries[nentries].file;
	nentries++;
	g->nmap_files = nentries;
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
	/* A private sorted copy for lookups; map_files keeps file order. */
	struct map_entry *sorted = xmalloc((nentries + 1) * sizeof *sorted);
	memcpy(sorted, entries, nentries * sizeof *sorted);
	stable_sort(sorted, nentries, sizeof *sorted, cmp_func, NULL);
	free(entries);
	entries = sorted;
}

/* The object file a function stands for: NULL if the map does not name
   it, "" if it is a later function of its object (to be dropped). */
const char *map_file_object(const char *func)
{
	size_t lo = 0, hi = nentries;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(entries[mid].func, func);
		if (c == 0) {
			while (mid > 0 && strcmp(entries[mid - 1].func, func) == 0)
				mid--;
			return entries[mid].first ? entries[mid].file : "";
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
