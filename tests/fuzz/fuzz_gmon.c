/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_gmon.c - libFuzzer harness for the profile-data reader (gmon_io.c,
 * gmon_codec.c and the record modules hist_record.c, arc_record.c,
 * bb_record.c): GNU tagged files with histogram, arc and basic-block
 * records, old BSD and 4.4BSD files.
 *
 * Input: one option byte, then up to four profile files separated by the
 * marker "FZSP" (all read into one context, as `gprof prog f1 f2 ...`).
 * Option byte: bits 0-1 -O format (auto, magic, bsd, 4.4bsd), bit 2 -l,
 * bit 3 32-bit addresses, bit 4 big-endian, bit 5 sign-extended
 * addresses, bit 6 -i (file info).
 *
 * After reading, the sum is written as with -s and, when it is in the GNU
 * format, read back into a fresh context: every histogram bin, arc count
 * and basic-block count must come back exactly (abort otherwise).  Then
 * the samples are assigned and the flat profile and -C listing printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

static void setup(struct gprof *g, unsigned opt)
{
	fuzz_context_from_template(g);
	static const enum file_format ff[4] = { FF_AUTO, FF_MAGIC, FF_BSD,
	                                        FF_BSD44 };
	g->opt.file_format = ff[opt & 3];
	g->opt.line_gran = (opt & 4) != 0;
	if (opt & 8)
		g->addr_size = 4;
	g->big_endian = (opt & 16) != 0;
	g->sign_extend_vma = (opt & 32) != 0;
	if (opt & 64)
		g->opt.style |= STYLE_GMON_INFO;
	g->opt.ignore_zeros = true;
	g->opt.min_count = 1;
	g->opt.table_length = 10;
}

static void compare(const struct gprof *a, const struct gprof *b)
{
	if (a->nhists != b->nhists)
		abort();
	for (size_t i = 0; i < a->nhists; i++) {
		const struct histogram *x = &a->hists[i], *y = &b->hists[i];
		if (x->lowpc != y->lowpc || x->highpc != y->highpc ||
		    x->num_bins != y->num_bins)
			abort();
		for (size_t k = 0; k < x->num_bins; k++)
			if (hist_bin(x, k) != hist_bin(y, k))
				abort();
	}
	if (a->syms.len != b->syms.len || a->narcs != b->narcs)
		abort();
	for (size_t i = 0; i < a->syms.len; i++) {
		const struct sym *s = &a->syms.base[i], *t = &b->syms.base[i];
		if (s->ncalls != t->ncalls)
			abort();
		/* A BSD file read after a GNU one drops the block counts
		   from -s, as GNU does (its input flags are assigned, not
		   added to): they then need not come back. */
		if (a->input_bbs && s->nbb != t->nbb)
			abort();
		for (int k = 0; a->input_bbs && k < s->nbb; k++)
			if (s->bb[k].addr != t->bb[k].addr ||
			    s->bb[k].count != t->bb[k].count)
				abort();
		for (const struct arc *arc = s->children; arc;
		     arc = arc->next_child) {
			size_t pi = (size_t)(arc->parent - a->syms.base);
			size_t ci = (size_t)(arc->child - a->syms.base);
			struct arc *o = arc_lookup((struct gprof *)b,
			                           &b->syms.base[pi],
			                           &b->syms.base[ci]);
			if (!o || o->count != arc->count)
				abort();
		}
	}
	/* Arc and histogram records are written only when there are any. */
	if (b->input_hist != (a->nhists > 0) || b->input_arcs != (a->narcs > 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	fuzz_begin();
	unsigned opt = data[0];
	const uint8_t *piece[4];
	size_t plen[4];
	size_t n = fuzz_split(data + 1, size - 1, piece, plen, 4);
	const char *path[4];
	for (size_t i = 0; i < n; i++)
		path[i] = fuzz_file((int)i, piece[i], plen[i]);

	static char sum[300];
	snprintf(sum, sizeof sum, "%s/gmon.sum", fuzz_workdir());

	static struct gprof g, g2;
	int st;
	setup(&g, opt);
	FUZZ_TRY(st) {
		for (size_t i = 0; i < n; i++)
			gmon_read(&g, path[i]);
	} FUZZ_END;
	if (st != 0)
		goto out;

	/* -s: write, then read back. */
	FUZZ_TRY(st) {
		arc_bulk_flush(&g);     /* the arcs read so far, as arcs */
		gmon_write_sum(&g, sum);
	} FUZZ_END;
	if (st == 0 && (g.opt.file_format == FF_AUTO ||
	                g.opt.file_format == FF_MAGIC)) {
		setup(&g2, opt & ~64u);
		g2.opt.file_format = FF_MAGIC;
		FUZZ_TRY(st) {
			gmon_read(&g2, sum);
			arc_bulk_flush(&g2);    /* the arcs read, as arcs */
		} FUZZ_END;
		if (st != 0)
			abort();        /* our own output must read back */
		compare(&g, &g2);
		fuzz_free_context(&g2, 0);
	}
	remove(sum);

	FUZZ_TRY(st) {
		g.opt.style = STYLE_EXEC_COUNTS;
		if (g.input_hist)
			g.opt.style |= STYLE_FLAT;
		gprof_analyse(&g);
		gprof_print(&g, stdout);
	} FUZZ_END;
out:
	fuzz_free_context(&g, 0);
	fuzz_end();
	return 0;
}
