/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arc_record.c - owns call arcs on disk: GNU arc records (tag 1) and the
 * untagged arcs after a BSD file's histogram, read into the call graph
 * (arc_bulk.c) and written for -s.
 */
#include "reading/reading.h"
#include "gmon_codec.h"
#include "gmon_records.h"

/* A number from 0 to n - 1 that looks random but is fixed by i
   (splitmix64's mixer). */
static uint64_t pick(uint64_t i, uint64_t n)
{
	uint64_t z = i + 0x9e3779b97f4a7c15u;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return (z ^ (z >> 31)) % n;
}

/* Keeps record number g->arc_records (this one) in g->arc_probe with the
   chance every record has (reservoir sampling): diagnose.c checks the
   records as they were written, ends that match no function included,
   whatever the order of the file, and in bounded time for a million. */
static void probe_keep(struct gprof *g, vma_t from, vma_t self)
{
	uint64_t seen = g->arc_records;
	size_t at;
	if (seen < ARC_PROBE_MAX) {
		if (!g->arc_probe)
			g->arc_probe = xmalloc(ARC_PROBE_MAX * sizeof *g->arc_probe);
		at = g->narc_probe++;
	} else {
		uint64_t j = pick(seen, seen + 1);
		if (j >= ARC_PROBE_MAX)
			return;
		at = (size_t)j;
	}
	g->arc_probe[at] = (struct arc_probe){ from, self };
}

static void arc_rec(struct gprof *g, vma_t from, vma_t self, uint32_t count)
{
	probe_keep(g, from, self);
	debug_printf(g, DBG_SAMPLE, "[cg_read_rec] frompc 0x%lx selfpc 0x%lx "
	             "count %u\n", (unsigned long)from, (unsigned long)self, count);
	g->arc_sink(g, from, self, count);
	g->arc_records++;
}

/* The whole arc records (tag and fields) that come next, decoded where
   they lie in the reader's buffer.  A big profile is mostly arcs, and
   reading them field by field cost a call per field and per tag: an
   eighth of the instructions of `-b -p` at a million arcs.  Stops before anything else:
   another tag, or a record cut short, which the caller's reading then
   reports. */
static unsigned long arc_read_run(struct gprof *g, struct gmon_reader *r)
{
	const struct gmon_codec *c = &r->codec;
	size_t a = (size_t)c->addr_size, len = 1 + 2 * a + 4;
	const unsigned char *q;
	unsigned long n = 0;

	while ((q = rd_peek(r, len)) && q[0] == GMON_TAG_CG_ARC) {
		vma_t from = gmon_decode_vma(c, q + 1);
		vma_t self = gmon_decode_vma(c, q + 1 + a);
		uint32_t count = (uint32_t)gmon_decode(c, q + 1 + 2 * a, 4);

		rd_skip(r, len);
		arc_rec(g, from, self, count);
		n++;
	}
	return n;
}

unsigned long arc_read_rec(struct gprof *g, struct gmon_reader *r,
                           const char *name)
{
	vma_t from, self;
	uint32_t count;
	if (!rd_vma(r, &from) || !rd_vma(r, &self) || !rd_u32(r, &count))
		die(g, "%s: unexpected end of file", name);
	arc_rec(g, from, self, count);
	g->input_arcs = true;
	return 1 + arc_read_run(g, r);
}

/* BSD arcs have no tag and no count of them: they run to the end of the
   file, and a trailing partial arc is ignored.  Their counts are as wide
   as an address. */
unsigned long arc_read_bsd(struct gprof *g, struct gmon_reader *r)
{
	unsigned long n = 0;
	vma_t from, self, count;
	while (rd_vma(r, &from) && rd_vma(r, &self) && rd_vma(r, &count)) {
		probe_keep(g, from, self);
		g->arc_sink(g, from, self, count);
		g->arc_records++;
		n++;
	}
	return n;
}

/* The most a count field holds: GNU's is 32 bits; a BSD one is as wide as
   an address. */
static uint64_t count_max(const struct gmon_writer *w, bool bsd)
{
	return bsd && w->codec.addr_size == 8 ? UINT64_MAX : 0xffffffffu;
}

/* One arc, as several records if its count is wider than the field:
   every reader adds them back up. */
static void write_arc(struct gmon_writer *w, bool bsd, const struct sym *p,
                      const struct arc *arc)
{
	uint64_t left = arc->count, max = count_max(w, bsd);
	do {
		uint64_t part = left > max ? max : left;
		if (!bsd)
			wr_uint(w, GMON_TAG_CG_ARC, 1);
		wr_vma(w, p->addr);
		wr_vma(w, arc->child->addr);
		if (bsd)
			wr_vma(w, part);
		else
			wr_uint(w, part, 4);
		left -= part;
	} while (left > 0);
}

/* Arcs in symbol address order of the parent, each parent's arcs newest
   first, as GNU writes them.  Arcs to or from a shared library belong to
   its side file (shlibs.c writes their sum). */
void arc_write_recs(struct gprof *g, struct gmon_writer *w, bool bsd)
{
	for (size_t i = 0; i < exe_syms_len(g); i++) {
		const struct sym *p = &g->syms.base[i];
		for (const struct arc *arc = p->children; arc; arc = arc->next_child)
			if (!sym_in_shlib(g, arc->child))
				write_arc(w, bsd, p, arc);
	}
}

/* Counts summed from GNU files never need more records than were read
   (each held at most 2^32 - 1); a 64-bit BSD count near 2^64 would need
   2^32 of them, so beyond a margin for genuine 64-bit counts the writer
   refuses rather than write gigabytes for a damaged file. */
bool arc_sum_fits(struct gprof *g, bool bsd)
{
	if (bsd && g->addr_size == 8)
		return true;            /* counts are written whole */
	uint64_t extra = 0, limit = g->arc_records + (1u << 16);
	for (size_t i = 0; i < g->syms.len; i++)
		for (struct arc *arc = g->syms.base[i].children; arc;
		     arc = arc->next_child) {
			if (arc->count > 0)
				extra += (arc->count - 1) / 0xffffffffu;
			if (extra > limit)
				return false;
		}
	return true;
}
