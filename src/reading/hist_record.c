/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * hist_record.c - owns the histogram on disk: GNU histogram records (tag
 * 0) and the histogram behind a BSD header, read (checked against earlier
 * records through hist.c's model functions) and written for -s.
 */
#include <inttypes.h>

#include "reading/reading.h"
#include "gmon_codec.h"
#include "gmon_records.h"

/* Bins are decoded this many at a time. */
#define CHUNK 4096

/* Adds nbins bins from r to h; the caller has made sure the file holds
   them, so running short means the file shrank as it was read.  Returns
   how many bins were read. */
static uint32_t add_bins(struct gmon_reader *r, struct histogram *h,
                         uint32_t nbins)
{
	uint16_t c[CHUNK];
	uint32_t i = 0;
	while (i < nbins) {
		size_t want = nbins - i < CHUNK ? nbins - i : CHUNK;
		size_t got = rd_u16s(r, c, want);
		for (size_t k = 0; k < got; k++)
			hist_add(h, i + k, c[k]);
		i += (uint32_t)got;
		if (got < want)
			break;
	}
	return i;
}

void hist_read_rec(struct gprof *g, struct gmon_reader *r, const char *name)
{
	vma_t lowpc, highpc;
	uint32_t nbins, rate;
	char dimen[GMON_DIMEN_LEN + 1] = { 0 };
	char abbrev;

	if (!rd_vma(r, &lowpc) || !rd_vma(r, &highpc) || !rd_u32(r, &nbins) ||
	    !rd_u32(r, &rate) || !rd_bytes(r, dimen, GMON_DIMEN_LEN) ||
	    !rd_bytes(r, &abbrev, 1))
		die(g, "%s: unexpected end of file", name);

	/* A record with the range of an earlier one adds to it, and as many
	   samples as that one has are read, as GNU does, whatever this header
	   says (they differ only in damaged files, where the scale check
	   cannot tell them apart: an empty range has scale 0 at any size). */
	struct histogram *old = hist_check(g, lowpc, highpc, nbins, rate, dimen,
	                                   abbrev);
	if (old)
		nbins = (uint32_t)old->num_bins;
	debug_printf(g, DBG_SAMPLE, "[hist_read_rec] 0x%lx-0x%lx, %u bins, "
	             "rate %u\n", (unsigned long)lowpc, (unsigned long)highpc,
	             nbins, rate);
	/* A damaged count must not make us allocate what the file lacks. */
	uint64_t avail = rd_left(r) / 2;
	if (avail < nbins)
		die(g, "%s: unexpected EOF after reading %" PRIu64 " of %u samples",
		    name, avail, nbins);
	struct histogram *h = old ? old : hist_record(g, lowpc, highpc, nbins,
	                                              rate, dimen, abbrev);
	uint32_t got = add_bins(r, h, nbins);
	if (got < nbins)
		die(g, "%s: unexpected EOF after reading %u of %u samples",
		    name, got, nbins);
	g->input_hist = true;
}

static uint64_t max_bin(const struct histogram *h)
{
	uint64_t m = 0;
	for (size_t i = 0; i < h->num_bins; i++)
		if (hist_bin(h, i) > m)
			m = hist_bin(h, i);
	return m;
}

/* Record number r of a histogram split as above: each bin's count less
   what the earlier records carried, up to 0xffff. */
static void write_hist(struct gprof *g, struct gmon_writer *w,
                       const struct histogram *h, uint64_t r)
{
	wr_uint(w, GMON_TAG_TIME_HIST, 1);
	wr_vma(w, h->lowpc);
	wr_vma(w, h->highpc);
	wr_uint(w, h->num_bins, 4);
	wr_uint(w, (uint64_t)g->hz, 4);
	wr_bytes(w, g->dimen, GMON_DIMEN_LEN);
	wr_uint(w, (unsigned char)g->dimen_abbrev, 1);
	uint64_t done = r * 0xffff;
	for (size_t b = 0; b < h->num_bins; b++) {
		uint64_t c = hist_bin(h, b);
		uint64_t left = c > done ? c - done : 0;
		wr_uint(w, left > 0xffff ? 0xffff : left, 2);
	}
}

/* One record per histogram, unless a summed bin no longer fits in 16 bits:
   then the counts are spread over several records of the same range, which
   readers (GNU's included) add back together.  GNU instead wraps them. */
void hist_write_recs(struct gprof *g, struct gmon_writer *w)
{
	for (size_t i = 0; i < g->nhists; i++) {
		const struct histogram *h = &g->hists[i];
		uint64_t m = max_bin(h);
		uint64_t nrec = m == 0 ? 1 : (m + 0xfffe) / 0xffff;
		for (uint64_t r = 0; r < nrec; r++)
			write_hist(g, w, h, r);
	}
}

/* ---- BSD ---- */

bool hist_read_bsd(struct gprof *g, struct gmon_reader *r, const char *name,
                   const struct gmon_bsd_hdr *h)
{
	/* GNU subtracts in unsigned and keeps the result in an int. */
	int samp_bytes = (int)(h->ncnt - (uint32_t)h->size);
	int nbins = samp_bytes / 2;
	/* Every later file must match the first histogram, whatever format
	   that came in. */
	if (g->nhists > 0) {
		const struct histogram *first = &g->hists[0];
		if (h->lowpc != first->lowpc || h->highpc != first->highpc ||
		    (size_t)nbins != first->num_bins)
			die_plain("%s: incompatible with first gmon file", name);
	}
	if (samp_bytes < 0 || h->lowpc > h->highpc)
		die(g, "file '%s' does not appear to be in gmon.out format", name);

	/* GNU's message counts one bin fewer than it read. */
	uint64_t avail = rd_left(r) / 2;
	if (avail < (uint64_t)nbins)
		die(g, "unexpected EOF after reading %d/%d bins", (int)avail - 1,
		    nbins);
	struct histogram *hg = hist_bsd_record(g, h->lowpc, h->highpc,
	                                       (size_t)nbins);
	add_bins(r, hg, (uint32_t)nbins);
	return nbins > 0;
}

/* The bins of the one histogram a BSD file holds (the header, written by
   gmon_io.c, gave their number), each clamped to its 16 bits: there is
   no second record to carry the rest. */
void hist_write_bsd(struct gprof *g, struct gmon_writer *w)
{
	const struct histogram *h = g->nhists ? &g->hists[0] : NULL;
	size_t nbins = h ? h->num_bins : 0;
	for (size_t i = 0; i < nbins; i++) {
		uint64_t c = hist_bin(h, i);
		wr_uint(w, c > 0xffff ? 0xffff : c, 2);
	}
}
