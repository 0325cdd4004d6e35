/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * basic_blocks.c - basic-block execution counts (tag 2 records, which
 * bb_record.c reads and writes): the -C execution-count listing and the
 * -A annotated source.
 */
#include <stdlib.h>
#include <string.h>

#include "gprof.h"

/* GNU orders by file and line when both symbols have a file, and by
   address otherwise.  That is not a consistent order; sort.c's merge
   pattern makes the result match GNU's anyway. */
static int cmp_exec(const void *pa, const void *pb, void *ctx)
{
	const struct sym *a = *(struct sym *const *)pa;
	const struct sym *b = *(struct sym *const *)pb;
	(void)ctx;
	if (a->file && b->file) {
		int c = strcmp(a->file->name, b->file->name);
		if (c)
			return c;
		return a->line < b->line ? -1 : a->line > b->line;
	}
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static void print_count(FILE *out, const struct sym *s, vma_t addr,
                        uint64_t count)
{
	fprintf(out, "%s:%d: (%s:0x%lx) %lu executions\n",
	        s->file ? s->file->name : "<unknown>", s->line, s->name,
	        (unsigned long)addr, (unsigned long)count);
}

void bb_print_exec_counts(struct gprof *g, FILE *out)
{
	size_t n = 0;
	struct sym **v = xmalloc((g->syms.len + 1) * sizeof *v);

	section_break(g, out);
	for (size_t i = 0; i < g->syms.len; i++) {
		struct sym *s = &g->syms.base[i];
		if (!sym_selected(g, s, INCL_EXEC))
			continue;
		sym_lookup_file(g, s);
		v[n++] = s;
	}
	stable_sort(v, n, sizeof *v, cmp_exec, NULL);
	for (size_t i = 0; i < n; i++) {
		const struct sym *s = v[i];
		if (s->ncalls > 0 || !g->opt.ignore_zeros)
			print_count(out, s, s->addr, s->ncalls);
		for (int k = 0; k < s->nbb; k++)
			if (s->bb[k].count > 0 || !g->opt.ignore_zeros)
				print_count(out, s, s->bb[k].addr, s->bb[k].count);
	}
	free(v);
}

