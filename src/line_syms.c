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

/* Is the line symbol static?  Like the previous line symbol if that is of
   the same function and file, else like the function symbol covering it. */
static bool line_is_static(const struct symtab *funcs, const struct sym *prev,
                           const struct sym *s)
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
	struct symtab lines = { 0 };
	struct line_scan ls = { 0 };
	struct probe cur;

	for (vma_t addr = lo; addr < hi; addr += step) {
		if (!scan_addr(g, &ls, addr, &cur))
			continue;
		struct sym *s = symtab_add(&lines);
		s->name = str_intern(g, cur.func);
		s->file = source_file_intern(g, cur.file);
		s->line = (int)cur.line;
		s->file_known = true;
		s->addr = addr;
		s->is_static = line_is_static(&g->syms, lines.len > 1 ?
		                              &lines.base[lines.len - 2] : NULL, s);
	}
	if (ls.ncold != (long)lines.len)
		die(g, "somebody miscounted: ltab.len=%ld instead of %zu",
		    ls.ncold, lines.len);
	for (size_t i = 0; i < lines.len; i++) {
		struct sym *s = symtab_add(&g->syms);
		*s = lines.base[i];
		s->bfd_order = (unsigned)g->syms.len;
	}
	free(lines.base);
	symtab_finish(g, &g->syms, hi);
}
