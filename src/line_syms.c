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

/* BFD hands back the same strings for the same place, so pointers
   usually settle it. */
static bool same_place(const struct probe *a, const struct probe *b)
{
	return a->line == b->line &&
	       (a->file == b->file || strcmp(a->file, b->file) == 0) &&
	       (a->func == b->func || strcmp(a->func, b->func) == 0);
}

/* A line symbol as the scan finds it: kept small, since there may be one
   per few bytes of text, and made a full symbol only at the end. */
struct line_rec {
	vma_t addr;
	const char *name;
	struct source_file *file;
	int line;
	bool is_static;
};

/* Is the line symbol static?  Like the previous line symbol if that is of
   the same function and file, else like the function symbol covering it. */
static bool line_is_static(const struct symtab *funcs,
                           const struct line_rec *prev,
                           const struct line_rec *s)
{
	if (prev && prev->file == s->file && strcmp(prev->name, s->name) == 0)
		return prev->is_static;
	const struct sym *f = sym_lookup(funcs, s->addr);
	return f ? f->is_static : false;
}

/*
 * BFD may answer the first query into a compilation unit differently from
 * later ones (an inlined function's name, say), because it builds its
 * lookup tables lazily.  GNU probes all of .text twice, counting line
 * symbols on the cold pass and creating them on the warm one, and gives
 * up when the two disagree.  One pass here does both: each address is
 * probed once for the cold count, and again wherever a new symbol would
 * start, for the warm answer.
 */
struct line_scan {
	struct probe cold_prev, prev;
	bool have_cold, have_prev;
	long ncold;
};

static bool scan_addr(struct gprof *g, struct line_scan *ls, vma_t addr,
                      struct probe *out)
{
	struct probe cur;
	if (!probe_at(g, addr, &cur))
		return false;
	if (!ls->have_cold || !same_place(&ls->cold_prev, &cur)) {
		ls->ncold++;
		ls->cold_prev = cur;
		ls->have_cold = true;
	}
	if (ls->have_prev && same_place(&ls->prev, &cur))
		return false;
	if (!probe_at(g, addr, &cur) ||
	    (ls->have_prev && same_place(&ls->prev, &cur)))
		return false;
	ls->prev = cur;
	ls->have_prev = true;
	*out = cur;
	return true;
}

/* Line symbols are collected apart, then join the (already finished)
   function symbols, and the whole table is finished again. */
void core_build_line_syms(struct gprof *g)
{
	asection *text = g->text_sec;
	vma_t lo = bfd_section_vma(text), hi = lo + bfd_section_size(text);
	unsigned step = bfd_get_arch(g->abfd) == bfd_arch_alpha ? 4 : 1;
	/* Every address is probed: a damaged header claiming more text than
	   the whole file holds would keep us (and GNU gprof) busy for ages. */
	ufile_ptr fsize = bfd_get_file_size((bfd *)g->abfd);
	if ((bfd_section_flags(text) & SEC_HAS_CONTENTS) && fsize > 0 &&
	    bfd_section_size(text) > fsize)
		die(g, "%s: section .text is larger than the file (damaged?)",
		    g->opt.image);
	struct line_rec *lines = NULL;
	size_t n = 0, cap = 0;
	struct line_scan ls = { 0 };
	struct probe cur;

	for (vma_t addr = lo; addr < hi; addr += step) {
		if (!scan_addr(g, &ls, addr, &cur))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			lines = xrealloc(lines, cap * sizeof *lines);
		}
		struct line_rec *r = &lines[n++];
		r->name = str_intern(g, cur.func);
		r->file = source_file_intern(g, cur.file);
		r->line = (int)cur.line;
		r->addr = addr;
		r->is_static = line_is_static(&g->syms, n > 1 ? r - 1 : NULL, r);
	}
	if (ls.ncold != (long)n)
		die(g, "somebody miscounted: ltab.len=%ld instead of %zu",
		    ls.ncold, n);
	symtab_reserve(&g->syms, g->syms.len + n);
	for (size_t i = 0; i < n; i++) {
		struct sym *s = symtab_add(&g->syms);
		s->name = lines[i].name;
		s->file = lines[i].file;
		s->line = lines[i].line;
		s->file_known = true;
		s->addr = lines[i].addr;
		s->is_static = lines[i].is_static;
		s->bfd_order = (unsigned)g->syms.len;
	}
	free(lines);
	symtab_finish(g, &g->syms, hi);
}
