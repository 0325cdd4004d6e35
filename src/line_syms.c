/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * line_syms.c - line-level symbols for -l (and -s, which records arcs by
 * call line): one symbol per run of text addresses that share a source
 * file, line and function, merged with the function symbols.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <bfd.h>

#include "gprof.h"

struct probe {
	const char *file, *func;
	unsigned line;
};

static bool probe_at(struct gprof *g, vma_t addr, struct probe *p)
{
	return core_find_line(g, addr, &p->file, &p->func, &p->line) &&
	       p->file && p->func && p->line != 0;
}

static bool same_place(const struct probe *a, const struct probe *b)
{
	return a->line == b->line && strcmp(a->file, b->file) == 0 &&
	       strcmp(a->func, b->func) == 0;
}

/* Is the line symbol static?  Like the previous line symbol of the same
   function, else like the function symbol covering it. */
static bool line_is_static(struct gprof *g, const struct symtab *funcs,
                           const struct sym *prev, const struct probe *p,
                           vma_t addr)
{
	if (prev && strcmp(prev->name, p->func) == 0)
		return prev->is_static;
	const struct sym *f = sym_lookup(funcs, addr);
	return f ? f->is_static : false;
}

void core_build_line_syms(struct gprof *g)
{
	asection *text = g->text_sec;
	vma_t lo = bfd_section_vma(text), hi = lo + bfd_section_size(text);
	unsigned step = bfd_get_arch(g->abfd) == bfd_arch_alpha ? 4 : 1;

	/* A finished copy of the function symbols, for lookups. */
	struct symtab funcs = { 0 };
	funcs.base = xmalloc(g->syms.len * sizeof *funcs.base);
	memcpy(funcs.base, g->syms.base, g->syms.len * sizeof *funcs.base);
	funcs.len = funcs.cap = g->syms.len;
	symtab_finish(g, &funcs, hi);

	struct probe prev = { 0 }, cur;
	bool have_prev = false;
	size_t first_line = g->syms.len;
	for (vma_t addr = lo; addr < hi; addr += step) {
		if (!probe_at(g, addr, &cur))
			continue;
		if (have_prev && same_place(&prev, &cur))
			continue;
		struct sym *last = g->syms.len > first_line ?
			&g->syms.base[g->syms.len - 1] : NULL;
		bool is_static = line_is_static(g, &funcs, last, &cur, addr);
		struct sym *s = symtab_add(&g->syms);
		s->name = xstrdup(cur.func);
		s->file = source_file_intern(g, cur.file);
		s->line = (int)cur.line;
		s->file_known = true;
		s->addr = addr;
		s->is_static = is_static;
		s->bfd_order = (unsigned)g->syms.len;
		prev = cur;
		have_prev = true;
	}
	free(funcs.base);
	symtab_finish(g, &g->syms, hi);
}
