/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bb_record.c - owns basic-block counts on disk: GNU basic-block records
 * (tag 2), read into the symbols' block slots (with -l) and written for
 * -s.
 */
#include "reading/reading.h"
#include "gmon_codec.h"
#include "gmon_records.h"

/* Adds a block's count to the symbol holding it. */
static void add_count(struct gprof *g, vma_t addr, uint64_t count)
{
	struct sym *s = sym_lookup_exe(g, addr);
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

void bb_read_rec(struct gprof *g, struct gmon_reader *r, const char *name)
{
	uint32_t n;

	if (!rd_u32(r, &n))
		die(g, "%s: unexpected end of file", name);
	if (g->gmon_version == 0)
		die(g, "%s: version 0 basic-block records are not supported", name);
	if (!g->opt.line_gran && !g->bb_warned) {
		g->bb_warned = true;
		warnx_g(g, "warning: ignoring basic-block exec counts (use -l or --line)");
	}
	for (uint32_t i = 0; i < n; i++) {
		vma_t addr, count;
		if (!rd_vma(r, &addr) || !rd_vma(r, &count))
			die(g, "%s: unexpected end of file", name);
		debug_printf(g, DBG_BB, "[bb_read_rec] 0x%lx: %lu\n",
		             (unsigned long)addr, (unsigned long)count);
		if (g->opt.line_gran)
			add_count(g, addr, count);
	}
	g->input_bbs = true;
}

/* One record holding every used slot, zero counts included, as GNU
   writes it. */
void bb_write_recs(struct gprof *g, struct gmon_writer *w)
{
	uint32_t n = 0;
	for (size_t i = 0; i < g->syms.len; i++)
		n += (uint32_t)g->syms.base[i].nbb;
	wr_uint(w, GMON_TAG_BB_COUNT, 1);
	wr_uint(w, n, 4);
	for (size_t i = 0; i < g->syms.len; i++) {
		const struct sym *s = &g->syms.base[i];
		for (int k = 0; k < s->nbb; k++) {
			wr_vma(w, s->bb[k].addr);
			wr_vma(w, s->bb[k].count);
		}
	}
}
