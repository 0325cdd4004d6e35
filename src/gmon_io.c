/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmon_io.c - profile data files: the GNU tagged format and the old and
 * 4.4BSD formats are read into the model (histograms, arcs, basic-block
 * counts); -s writes their sum, through a temporary file renamed into
 * place so an interrupted run never damages an existing gmon.sum.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "gprof.h"
#include "gmon_reader.h"
#include "safe_file.h"

/* ---- loading ---- */

/* Files up to this size are read whole; bigger regular files are read
   through a window of this size, so memory does not grow with them. */
#define WINDOW (1u << 18)

/* Reads all of `f`; `hint` (the size, if known, plus one) sizes the
   buffer so the last read meets end-of-file without growing it. */
static unsigned char *slurp(FILE *f, size_t hint, size_t *len)
{
	size_t cap = hint ? hint : 1 << 16, n = 0, got;
	unsigned char *buf = xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	*len = n;
	return buf;
}

/* Opens the window onto `f`: the whole file when it is small or not a
   regular file (whose size is unknown), else its first WINDOW bytes.
   Returns the file's length. */
static uint64_t reader_open(struct reader *r, FILE *f)
{
	struct stat st;
	size_t len;
	bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
	if (regular && (uint64_t)st.st_size > WINDOW) {
		r->buf = xmalloc(WINDOW);
		r->cap = WINDOW;
		len = fread(r->buf, 1, WINDOW, f);
		if (len == WINDOW) {
			r->f = f;
			r->size = (uint64_t)st.st_size;
		}
	} else {
		r->buf = slurp(f, regular ? (size_t)st.st_size + 1 : 0, &len);
		r->cap = len;
	}
	r->start = r->p = r->buf;
	r->end = r->buf + len;
	return r->f ? r->size : len;
}

/* Moves what is left of the window to its start and reads more behind
   it: true if at least n bytes are then at hand. */
static bool refill(struct reader *r, size_t n)
{
	if (!r->f)
		return false;
	size_t left = (size_t)(r->end - r->p);
	memmove(r->buf, r->p, left);
	r->off += (uint64_t)(r->p - r->start);
	r->start = r->p = r->buf;
	r->end = r->buf + left;
	size_t got = fread(r->buf + left, 1, r->cap - left, r->f);
	r->end += got;
	if (got == 0)
		r->f = NULL;
	return (size_t)(r->end - r->p) >= n;
}

/* Bytes not yet read. */
uint64_t rd_left(const struct reader *r)
{
	uint64_t at = r->off + (uint64_t)(r->p - r->start);
	if (r->f)
		return r->size > at ? r->size - at : 0;
	return (uint64_t)(r->end - r->p);
}

/* ---- field decoding in the executable's byte order ---- */

bool rd_bytes(struct reader *r, void *out, size_t n)
{
	if ((size_t)(r->end - r->p) < n && !refill(r, n))
		return false;
	memcpy(out, r->p, n);
	r->p += n;
	return true;
}

static uint64_t decode(const struct gprof *g, const unsigned char *b, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++) {
		int k = g->big_endian ? i : n - 1 - i;
		v = (v << 8) | b[k];
	}
	return v;
}

bool rd_u32(struct reader *r, uint32_t *v)
{
	unsigned char b[4];
	if (!rd_bytes(r, b, 4))
		return false;
	*v = (uint32_t)decode(r->g, b, 4);
	return true;
}

bool rd_u16(struct reader *r, uint16_t *v)
{
	unsigned char b[2];
	if (!rd_bytes(r, b, 2))
		return false;
	*v = (uint16_t)decode(r->g, b, 2);
	return true;
}

/* An address (or a BSD count): as wide as the executable's addresses;
   32-bit values widen as the target's BFD backend says. */
bool rd_vma(struct reader *r, vma_t *v)
{
	unsigned char b[8];
	int n = r->g->addr_size;
	if (!rd_bytes(r, b, (size_t)n))
		return false;
	*v = decode(r->g, b, n);
	if (n == 4 && r->g->sign_extend_vma && (*v & 0x80000000u))
		*v |= 0xffffffff00000000ull;
	return true;
}

/* ---- GNU format ---- */

static void read_hist_rec(struct reader *r)
{
	struct gprof *g = r->g;
	vma_t lowpc, highpc;
	uint32_t nbins, rate;
	char dimen[GMON_DIMEN_LEN + 1] = { 0 };
	char abbrev;

	if (!rd_vma(r, &lowpc) || !rd_vma(r, &highpc) || !rd_u32(r, &nbins) ||
	    !rd_u32(r, &rate) || !rd_bytes(r, dimen, GMON_DIMEN_LEN) ||
	    !rd_bytes(r, &abbrev, 1))
		die(g, "%s: unexpected end of file", r->name);

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
		die(g, "%s: unexpected EOF after reading %zu of %u samples",
		    r->name, (size_t)avail, nbins);
	struct histogram *h = old ? old : hist_record(g, lowpc, highpc, nbins,
	                                              rate, dimen, abbrev);
	/* Bins are decoded straight from the window, as many at a time as
	   it holds. */
	for (uint32_t i = 0; i < nbins;) {
		if (r->end - r->p < 2 && !refill(r, 2))
			die(g, "%s: unexpected EOF after reading %u of %u samples",
			    r->name, i, nbins);
		size_t m = (size_t)(r->end - r->p) / 2;
		if (m > nbins - i)
			m = nbins - i;
		const unsigned char *q = r->p;
		int hi = g->big_endian ? 0 : 1;
		for (size_t k = 0; k < m; k++, q += 2)
			hist_add(h, i + k, (uint64_t)(q[hi] << 8 | q[1 - hi]));
		r->p = q;
		i += (uint32_t)m;
	}
	g->input_hist = true;
}

static void read_arc_rec(struct reader *r)
{
	vma_t from, self;
	uint32_t count;
	size_t a = (size_t)r->g->addr_size;
	if ((size_t)(r->end - r->p) >= 2 * a + 4 && a == 8) {
		/* the common case, decoded in place */
		from = decode(r->g, r->p, 8);
		self = decode(r->g, r->p + 8, 8);
		count = (uint32_t)decode(r->g, r->p + 16, 4);
		r->p += 20;
	} else if (!rd_vma(r, &from) || !rd_vma(r, &self) ||
	           !rd_u32(r, &count)) {
		die(r->g, "%s: unexpected end of file", r->name);
	}
	debug_printf(r->g, DBG_SAMPLE, "[cg_read_rec] frompc 0x%lx selfpc 0x%lx "
	             "count %u\n", (unsigned long)from, (unsigned long)self, count);
	cg_tally(r->g, from, self, count);
	r->g->arc_records++;
	r->g->input_arcs = true;
}

struct rec_counts {
	unsigned long hist, arcs, bbs;
};

static void read_gnu(struct reader *r, struct rec_counts *rc)
{
	struct gprof *g = r->g;
	uint32_t version;
	unsigned char tag;

	r->p += GMON_MAGIC_LEN;
	rd_u32(r, &version);
	if (version != GMON_VERSION && version != 0)
		die(g, "file `%s' has unsupported version %u", r->name, version);
	g->gmon_version = (int)version;
	r->p += GMON_HDR_SPARE;

	while (rd_bytes(r, &tag, 1)) {
		switch (tag) {
		case GMON_TAG_TIME_HIST:
			rc->hist++;
			read_hist_rec(r);
			break;
		case GMON_TAG_CG_ARC:
			rc->arcs++;
			read_arc_rec(r);
			break;
		case GMON_TAG_BB_COUNT:
			rc->bbs++;
			bb_read_rec(g, r);
			break;
		default:
			die(g, "%s: found bad tag %d (file corrupted?)", r->name, tag);
		}
	}
}

/* ---- BSD formats ---- */

/* Ticks per second for old BSD files, which do not record it. */
static int host_hertz(void)
{
	long t = sysconf(_SC_CLK_TCK);
	return t > 0 ? (int)t : 1;
}

struct bsd_hdr {
	vma_t lowpc, highpc;
	uint32_t ncnt, version, rate;
	int size;
};

static void read_bsd_hdr(struct reader *r, struct bsd_hdr *h)
{
	struct gprof *g = r->g;
	int a = g->addr_size;
	if (!rd_vma(r, &h->lowpc) || !rd_vma(r, &h->highpc) ||
	    !rd_u32(r, &h->ncnt) || !rd_u32(r, &h->version))
		die_plain("%s: file too short to be a gmon file", r->name);
	if (h->version == GMON_BSD44_VERSION) {
		char spare[12];
		if (!rd_u32(r, &h->rate) || !rd_bytes(r, spare, sizeof spare))
			die_plain("%s: file too short to be a gmon file", r->name);
		h->size = GMON_BSD44_HDR_SIZE(a);
		if (!g->have_bsd_rate) {
			g->hz = h->rate;
			g->have_bsd_rate = true;
		} else if (g->hz != h->rate) {
			die_plain("%s: profiling rate incompatible with first gmon file",
			          r->name);
		}
	} else {
		if (g->opt.file_format == FF_BSD44)
			die(g, "file `%s' has bad magic cookie", r->name);
		h->size = GMON_BSD_HDR_SIZE(a);
		if (!g->have_bsd_rate) {
			g->hz = host_hertz();
			g->have_bsd_rate = true;
		}
	}
	r->p = r->start + h->size;
}

static void read_bsd(struct reader *r, struct rec_counts *rc)
{
	struct gprof *g = r->g;
	struct bsd_hdr h;
	read_bsd_hdr(r, &h);

	/* GNU subtracts in unsigned and keeps the result in an int. */
	int samp_bytes = (int)(h.ncnt - (uint32_t)h.size);
	int nbins = samp_bytes / 2;
	/* Every later file must match the first histogram, whatever format
	   that came in. */
	if (g->nhists > 0) {
		const struct histogram *first = &g->hists[0];
		if (h.lowpc != first->lowpc || h.highpc != first->highpc ||
		    (size_t)nbins != first->num_bins)
			die_plain("%s: incompatible with first gmon file", r->name);
	}
	if (samp_bytes < 0 || h.lowpc > h.highpc)
		die(g, "file '%s' does not appear to be in gmon.out format", r->name);

	/* GNU's message counts one bin fewer than it read. */
	uint64_t avail = rd_left(r) / 2;
	if (avail < (uint64_t)nbins)
		die(g, "unexpected EOF after reading %d/%d bins", (int)avail - 1,
		    nbins);
	struct histogram *hg = hist_bsd_record(g, h.lowpc, h.highpc,
	                                       (size_t)nbins);
	for (int i = 0; i < nbins; i++) {
		uint16_t c;
		rd_u16(r, &c);
		hist_add(hg, i, c);
	}
	rc->hist = nbins > 0;

	vma_t from, self, count;
	while (rd_vma(r, &from) && rd_vma(r, &self) && rd_vma(r, &count)) {
		cg_tally(g, from, self, count);
		g->arc_records++;
		rc->arcs++;
	}
	g->input_hist = g->input_arcs = true;
	g->input_bbs = false;
}

/* ---- entry point ---- */

static void print_file_info(struct gprof *g, const char *name,
                            const struct rec_counts *rc)
{
	printf("File `%s' (version %d) contains:\n", name, g->gmon_version);
	printf("\t%lu histogram record%s\n", rc->hist, rc->hist == 1 ? "" : "s");
	printf("\t%lu call-graph record%s\n", rc->arcs, rc->arcs == 1 ? "" : "s");
	printf("\t%lu basic-block count record%s\n", rc->bbs,
	       rc->bbs == 1 ? "" : "s");
	g->first_output = false;
}

void gmon_read(struct gprof *g, const char *name)
{
	FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "rb");
	if (!f) {
		fflush(stdout);
		perror(name);
		gprof_exit(1);
	}
	struct reader r = { .g = g, .name = name };
	uint64_t len = reader_open(&r, f);
	const unsigned char *buf = r.buf;

	struct rec_counts rc = { 0, 0, 0 };
	enum file_format ff = g->opt.file_format;
	if (ff == FF_AUTO || ff == FF_MAGIC) {
		if (len < GMON_HDR_SIZE)
			die_plain("%s: file too short to be a gmon file", name);
		if (memcmp(buf, GMON_MAGIC, GMON_MAGIC_LEN) == 0)
			read_gnu(&r, &rc);
		else if (ff == FF_MAGIC)
			die(g, "file `%s' has bad magic cookie", name);
		else
			read_bsd(&r, &rc);
	} else {
		read_bsd(&r, &rc);
	}
	free(r.buf);
	if (f != stdin)
		fclose(f);
	if (g->opt.style & STYLE_GMON_INFO)
		print_file_info(g, name, &rc);
}

/* ---- writing gmon.sum ---- */

static void put(struct writer *w, const void *p, size_t n)
{
	if (fwrite(p, 1, n, w->f) != n)
		w->failed = true;
}

void wr_uint(struct writer *w, uint64_t v, int n)
{
	unsigned char b[8];
	for (int i = 0; i < n; i++) {
		int k = w->g->big_endian ? n - 1 - i : i;
		b[k] = (unsigned char)(v >> (8 * i));
	}
	put(w, b, (size_t)n);
}

void wr_bytes(struct writer *w, const void *p, size_t n)
{
	put(w, p, n);
}

/* Arcs in symbol address order of the parent, each parent's arcs newest
   first, as GNU writes them.  A count wider than the 32-bit field is split
   over several records, which every reader adds back up. */
static void write_arcs(struct writer *w, bool bsd)
{
	struct gprof *g = w->g;
	int a = g->addr_size;
	for (size_t i = 0; i < g->syms.len; i++) {
		struct sym *p = &g->syms.base[i];
		for (struct arc *arc = p->children; arc; arc = arc->next_child) {
			uint64_t left = arc->count;
			do {
				uint64_t part = left;
				if (!bsd || a == 4)
					part = left > 0xffffffffu ? 0xffffffffu : left;
				if (!bsd)
					wr_uint(w, GMON_TAG_CG_ARC, 1);
				wr_uint(w, p->addr, a);
				wr_uint(w, arc->child->addr, a);
				wr_uint(w, part, bsd ? a : 4);
				left -= part;
			} while (left > 0);
		}
	}
}

static void write_gnu(struct writer *w)
{
	struct gprof *g = w->g;
	unsigned char spare[GMON_HDR_SPARE] = { 0 };
	wr_bytes(w, GMON_MAGIC, GMON_MAGIC_LEN);
	wr_uint(w, GMON_VERSION, 4);
	wr_bytes(w, spare, sizeof spare);
	hist_write_recs(g, w);
	if (g->input_arcs)
		write_arcs(w, false);
	if (g->input_bbs)
		bb_write_recs(g, w);
}

static void write_bsd(struct writer *w)
{
	struct gprof *g = w->g;
	int a = g->addr_size;
	bool bsd44 = g->opt.file_format == FF_BSD44 || g->hz != host_hertz();
	struct histogram *h = g->nhists ? &g->hists[0] : NULL;
	size_t nbins = h ? h->num_bins : 0;
	int hdr = bsd44 ? GMON_BSD44_HDR_SIZE(a) : GMON_BSD_HDR_SIZE(a);

	wr_uint(w, h ? h->lowpc : 0, a);
	wr_uint(w, h ? h->highpc : 0, a);
	wr_uint(w, nbins * 2 + (size_t)hdr, 4);
	if (bsd44) {
		unsigned char spare[12] = { 0 };
		wr_uint(w, GMON_BSD44_VERSION, 4);
		wr_uint(w, (uint64_t)g->hz, 4);
		wr_bytes(w, spare, sizeof spare);
	}
	for (size_t i = 0; i < nbins; i++) {
		uint64_t c = hist_bin(h, i);
		wr_uint(w, c > 0xffff ? 0xffff : c, 2);
	}
	write_arcs(w, true);
}

/* A count wider than the 32-bit field is split over several records.
   Counts summed from GNU files never need more records than were read
   (each held at most 2^32 - 1); a 64-bit BSD count near 2^64 would need
   2^32 of them, so beyond a margin for genuine 64-bit counts the writer
   refuses rather than write gigabytes for a damaged file. */
static bool arcs_fit(struct gprof *g, bool bsd)
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

/* Writes the summed profile to `filename` via a temporary file in the
   same directory, so that the old file survives any failure. */
void gmon_write_sum(struct gprof *g, const char *filename)
{
	struct safe_file sf;
	bool bsd = g->opt.file_format == FF_BSD || g->opt.file_format == FF_BSD44;
	if (g->input_arcs && !arcs_fit(g, bsd))
		die(g, "%s: call counts too large to be written (damaged input?)",
		    filename);
	if (!safe_open(&sf, filename))
		die_plain("%s: %s", filename, strerror(errno));
	struct writer w = { g, sf.f, false };
	if (g->opt.file_format == FF_BSD || g->opt.file_format == FF_BSD44)
		write_bsd(&w);
	else
		write_gnu(&w);
	if (w.failed) {
		int e = errno;
		safe_abort(&sf);
		die_plain("%s: %s", filename, strerror(e ? e : EIO));
	}
	if (!safe_commit(&sf))
		die_plain("%s: %s", filename, strerror(errno));
}
