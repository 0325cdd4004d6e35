/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * basic_blocks.c - basic-block execution counts (tag 2 records): reading,
 * summing and writing them, the -C execution-count listing and the -A
 * annotated source.
 */
#include <stdlib.h>
#include <string.h>

#include "gprof.h"
#include "gmon_reader.h"
#include "report.h"

static void add_count(struct gprof *g, vma_t addr, uint64_t count)
{
	struct sym *s = sym_lookup(&g->syms, addr);
	if (!s)
		return;
	/* Up to BB_SLOTS blocks per symbol; further blocks are dropped.  The
	   slots are allocated with the first block: few symbols have any. */
	if (!s->bb)
		s->bb = xcalloc(BB_SLOTS, sizeof *s->bb);
	for (int i = 0; i < BB_SLOTS; i++) {
		if (i == s->nbb) {
			s->bb[i].addr = addr;
			s->bb[i].count = count;
			s->nbb++;
			return;
		}
		if (s->bb[i].addr == addr) {
			s->bb[i].count += count;
			return;
		}
	}
}

void bb_read_rec(struct gprof *g, struct reader *r)
{
	uint32_t n;

	if (!rd_u32(r, &n))
		die(g, "%s: unexpected end of file", r->name);
	if (g->gmon_version == 0)
		die(g, "%s: version 0 basic-block records are not supported",
		    r->name);
	if (!g->opt.line_gran && !g->bb_warned) {
		g->bb_warned = true;
		warnx_g(g, "warning: ignoring basic-block exec counts (use -l or --line)");
	}
	for (uint32_t i = 0; i < n; i++) {
		vma_t addr, count;
		if (!rd_vma(r, &addr) || !rd_vma(r, &count))
			die(g, "%s: unexpected end of file", r->name);
		debug_printf(g, DBG_BB, "[bb_read_rec] 0x%lx: %lu\n",
		             (unsigned long)addr, (unsigned long)count);
		if (g->opt.line_gran)
			add_count(g, addr, count);
	}
	g->input_bbs = true;
}

void bb_write_recs(struct gprof *g, struct writer *w)
{
	/* Every used slot is written, zero counts included, as GNU does. */
	uint32_t n = 0;
	for (size_t i = 0; i < g->syms.len; i++)
		n += (uint32_t)g->syms.base[i].nbb;
	wr_uint(w, GMON_TAG_BB_COUNT, 1);
	wr_uint(w, n, 4);
	for (size_t i = 0; i < g->syms.len; i++) {
		const struct sym *s = &g->syms.base[i];
		for (int k = 0; k < s->nbb; k++) {
			wr_uint(w, s->bb[k].addr, g->addr_size);
			wr_uint(w, s->bb[k].count, g->addr_size);
		}
	}
}

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
