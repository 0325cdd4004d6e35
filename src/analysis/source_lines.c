/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * source_lines.c - for annotated source (-A): each source file's lines
 * mapped to the symbol that starts there, and the calls per file, built
 * once after the profile is read.
 */
#include <stdlib.h>

#include "analysis/analysis.h"

/* Fills each file's per-line symbol slots (after core_intern_files()).
   A second symbol on a line is folded into a private copy, so that no
   real symbol changes. */
void source_lines_build(struct gprof *g)
{
	size_t n = g->syms.len;
	struct sym **v = xmalloc((n + 1) * sizeof *v);
	size_t nv = 0;

	for (size_t i = 0; i < n; i++) {
		struct sym *s = &g->syms.base[i];
		if (!sym_selected(g, s, INCL_ANNO))
			continue;
		sym_lookup_file(g, s);
		if (!s->file || s->line <= 0)
			continue;
		if (s->line > s->file->num_lines)
			s->file->num_lines = s->line;
		v[nv++] = s;
	}
	for (size_t i = 0; i < nv; i++) {
		struct source_file *f = v[i]->file;
		if (!f->line)
			f->line = xcalloc((size_t)f->num_lines + 1, sizeof *f->line);
		f->ncalls += v[i]->ncalls;
		struct sym **slot = &f->line[v[i]->line];
		if (!*slot) {
			*slot = v[i];
			continue;
		}
		if (!(*slot)->is_copy) {
			struct sym *copy = xmalloc(sizeof *copy);
			*copy = **slot;
			copy->addr = 0;
			copy->is_copy = true;
			*slot = copy;
		}
		/* Only the calls add up; the blocks shown stay the first's. */
		(*slot)->ncalls += v[i]->ncalls;
	}
	free(v);
}
