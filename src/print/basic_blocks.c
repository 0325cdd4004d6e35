/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * basic_blocks.c - the -C execution-count listing: calls and basic-block
 * counts (which bb_record.c reads and writes) by source line.
 */
#include <stdlib.h>
#include <string.h>

#include "print/print.h"

/* One listed symbol with its source location (looked up through the
   report, so the model stays as analysis left it). */
struct exec_row {
	const struct sym *s;
	const char *file;            /* NULL: unknown */
	int line;
};

/* GNU orders by file and line when both symbols have a file, and by
   address otherwise.  That is not a consistent order; sort.c's merge
   pattern makes the result match GNU's anyway. */
static int cmp_exec(const void *pa, const void *pb, void *ctx)
{
	const struct exec_row *a = pa, *b = pb;
	(void)ctx;
	if (a->file && b->file) {
		int c = strcmp(a->file, b->file);
		if (c)
			return c;
		return a->line < b->line ? -1 : a->line > b->line;
	}
	return a->s->addr < b->s->addr ? -1 : a->s->addr > b->s->addr;
}

static void print_count(FILE *out, const struct exec_row *e, vma_t addr,
                        uint64_t count)
{
	fprintf(out, "%s:%d: (%s:0x%lx) %lu executions\n",
	        e->file ? e->file : "<unknown>", e->line, e->s->name,
	        (unsigned long)addr, (unsigned long)count);
}

void bb_print_exec_counts(const struct gprof *g, struct report *r)
{
	size_t n = 0;
	struct exec_row *v = xmalloc((g->syms.len + 1) * sizeof *v);

	report_section(r);
	for (size_t i = 0; i < g->syms.len; i++) {
		const struct sym *s = &g->syms.base[i];
		if (!sym_selected(g, s, INCL_EXEC))
			continue;
		v[n].s = s;
		if (!report_sym_file(g, r, s, &v[n].file, &v[n].line)) {
			v[n].file = NULL;
			v[n].line = 0;
		}
		n++;
	}
	stable_sort(v, n, sizeof *v, cmp_exec, NULL);
	for (size_t i = 0; i < n; i++) {
		const struct sym *s = v[i].s;
		if (s->ncalls > 0 || !g->opt.ignore_zeros)
			print_count(r->out, &v[i], s->addr, s->ncalls);
		for (int k = 0; k < s->nbb; k++)
			if (s->bb[k].count > 0 || !g->opt.ignore_zeros)
				print_count(r->out, &v[i], s->bb[k].addr,
				            s->bb[k].count);
	}
	free(v);
}
