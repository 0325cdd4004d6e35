/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * files.c - the source files the debug information names, and the names
 * of line symbols, each interned once in a table of the model.
 */
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"

static size_t str_hash(const char *s)
{
	size_t h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static void file_table_grow(struct file_table *files)
{
	size_t size = files->size ? files->size * 2 : 256;
	struct source_file **slot = xcalloc(size, sizeof *slot);
	for (size_t i = 0; i < files->size; i++) {
		struct source_file *f = files->slot[i];
		if (!f)
			continue;
		size_t h = str_hash(f->name) & (size - 1);
		while (slot[h])
			h = (h + 1) & (size - 1);
		slot[h] = f;
	}
	free(files->slot);
	files->slot = slot;
	files->size = size;
}

struct source_file *source_file_intern(struct gprof *g, const char *path)
{
	struct file_table *files = &g->file_table;
	if (files->count * 2 >= files->size)
		file_table_grow(files);
	size_t h = str_hash(path) & (files->size - 1);
	for (; files->slot[h]; h = (h + 1) & (files->size - 1))
		if (strcmp(files->slot[h]->name, path) == 0)
			return files->slot[h];
	struct source_file *f = xcalloc(1, sizeof *f);
	f->name = xstrdup(path);
	f->next = g->files;
	g->files = f;
	files->slot[h] = f;
	files->count++;
	return f;
}

/* Line symbols repeat their function's name many times over; one copy
   each is kept (in a table of the same shape as the file table). */
const char *str_intern(struct gprof *g, const char *s)
{
	struct file_table *t = &g->name_table;
	if (t->count * 2 >= t->size)
		file_table_grow(t);
	size_t h = str_hash(s) & (t->size - 1);
	for (; t->slot[h]; h = (h + 1) & (t->size - 1))
		if (strcmp(t->slot[h]->name, s) == 0)
			return t->slot[h]->name;
	struct source_file *f = xcalloc(1, sizeof *f);
	f->name = xstrdup(s);
	t->slot[h] = f;
	t->count++;
	return f->name;
}

