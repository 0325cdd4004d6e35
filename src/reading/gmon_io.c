/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmon_io.c - owns profile data files as a whole: opening them, telling
 * the GNU tagged format from the old and 4.4BSD ones, their headers, and
 * handing each record to its module (gmon_records.h), which reads it into
 * the model.  -s writes the sum through the same modules, to a temporary
 * file renamed into place so an interrupted run never damages an existing
 * gmon.sum.  Fields are decoded by gmon_codec.c, as the executable lays
 * them out.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "reading/reading.h"
#include "gmon_codec.h"
#include "gmon_records.h"

/* ---- loading ---- */

/* The layout of every field: the executable's, whatever the host's. */
static struct gmon_codec codec_of(const struct gprof *g)
{
	return (struct gmon_codec){ .addr_size = g->addr_size,
	                            .big_endian = g->big_endian,
	                            .sign_extend = g->sign_extend_vma };
}

/* The size of f if it is a regular file, else -1: only then can the
   codec stream it through a window rather than read it whole. */
static int64_t file_size(FILE *f)
{
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
		return (int64_t)st.st_size;
	return -1;
}

/* As xmalloc() reports it. */
static void out_of_memory(void) __attribute__((noreturn));
static void out_of_memory(void)
{
	fputs("gprof: out of memory\n", stderr);
	gprof_exit(1);
}

struct rec_counts {
	unsigned long hist, arcs, bbs;
};

/* The header (magic, version, spare bytes; the caller has checked that
   they are all there), then tagged records to the end of the file. */
static void read_gnu(struct gprof *g, struct gmon_reader *r, const char *name,
                     struct rec_counts *rc)
{
	uint32_t version;
	unsigned char tag;

	rd_skip(r, GMON_MAGIC_LEN);
	rd_u32(r, &version);
	if (version != GMON_VERSION && version != 0)
		die(g, "file `%s' has unsupported version %u", name, version);
	g->gmon_version = (int)version;
	rd_skip(r, GMON_HDR_SPARE);

	while (rd_bytes(r, &tag, 1)) {
		switch (tag) {
		case GMON_TAG_TIME_HIST:
			rc->hist++;
			hist_read_rec(g, r, name);
			break;
		case GMON_TAG_CG_ARC:
			rc->arcs += arc_read_rec(g, r, name);
			break;
		case GMON_TAG_BB_COUNT:
			rc->bbs++;
			bb_read_rec(g, r, name);
			break;
		default:
			die(g, "%s: found bad tag %d (file corrupted?)", name, tag);
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

/* All BSD files profile at the rate of the first one. */
static void bsd_rate(struct gprof *g, const char *name, double hz)
{
	if (!g->have_bsd_rate) {
		g->hz = hz;
		g->have_bsd_rate = true;
	} else if (g->hz != hz) {
		die_plain("%s: profiling rate incompatible with first gmon file",
		          name);
	}
}

/* The 4.4BSD header is told from the old one by its version word, which
   in an old file is already the first histogram bin: it is only peeked
   at, and consumed when it is a version. */
static void read_bsd_hdr(struct gprof *g, struct gmon_reader *r,
                         const char *name, struct gmon_bsd_hdr *h)
{
	const unsigned char *v;
	if (!rd_vma(r, &h->lowpc) || !rd_vma(r, &h->highpc) ||
	    !rd_u32(r, &h->ncnt) || !(v = rd_peek(r, 4)))
		die_plain("%s: file too short to be a gmon file", name);
	h->version = (uint32_t)gmon_decode(&r->codec, v, 4);
	if (h->version == GMON_BSD44_VERSION) {
		if (!rd_skip(r, 4) || !rd_u32(r, &h->rate) || !rd_skip(r, 12))
			die_plain("%s: file too short to be a gmon file", name);
		h->size = GMON_BSD44_HDR_SIZE(g->addr_size);
		bsd_rate(g, name, h->rate);
	} else {
		if (g->opt.file_format == FF_BSD44)
			die(g, "file `%s' has bad magic cookie", name);
		h->size = GMON_BSD_HDR_SIZE(g->addr_size);
		h->rate = 0;
		if (!g->have_bsd_rate)
			bsd_rate(g, name, host_hertz());
	}
}

/* A header, one histogram, then arcs to the end of the file. */
static void read_bsd(struct gprof *g, struct gmon_reader *r, const char *name,
                     struct rec_counts *rc)
{
	struct gmon_bsd_hdr h;
	read_bsd_hdr(g, r, name, &h);
	rc->hist = hist_read_bsd(g, r, name, &h);
	rc->arcs += arc_read_bsd(g, r);
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
	shlibs_print_info(g, name);
	g->first_output = false;
}

/* Which format the file is in: -O says, or (by default, and for -O
   magic) the magic string does. */
static void read_any(struct gprof *g, struct gmon_reader *r, const char *name,
                     struct rec_counts *rc)
{
	enum file_format ff = g->opt.file_format;
	if (ff != FF_AUTO && ff != FF_MAGIC) {
		read_bsd(g, r, name, rc);
		return;
	}
	if (rd_left(r) < GMON_HDR_SIZE)
		die_plain("%s: file too short to be a gmon file", name);
	if (memcmp(rd_peek(r, GMON_MAGIC_LEN), GMON_MAGIC, GMON_MAGIC_LEN) == 0)
		read_gnu(g, r, name, rc);
	else if (ff == FF_MAGIC)
		die(g, "file `%s' has bad magic cookie", name);
	else
		read_bsd(g, r, name, rc);
}

void gmon_read(struct gprof *g, const char *name)
{
	FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "rb");
	if (!f) {
		fflush(stdout);
		perror(name);
		gprof_exit(1);
	}
	struct gmon_reader r;
	if (!gmon_reader_open(&r, f, codec_of(g), file_size(f)))
		out_of_memory();
	struct rec_counts rc = { 0, 0, 0 };
	read_any(g, &r, name, &rc);
	gmon_reader_close(&r);
	if (f != stdin)
		fclose(f);
	if (g->opt.style & STYLE_GMON_INFO)
		print_file_info(g, name, &rc);
}

/* ---- the sampling rate, before the files are read ---- */

/* The rate of the first histogram record of a GNU file, skipping the
   records before it. */
static bool peek_gnu_rate(struct gmon_reader *r, int addr_size, double *hz)
{
	unsigned char tag;
	uint32_t n, rate;
	vma_t lo, hi;
	if (!rd_skip(r, GMON_HDR_SIZE))
		return false;
	while (rd_bytes(r, &tag, 1)) {
		if (tag == GMON_TAG_TIME_HIST) {
			if (!rd_vma(r, &lo) || !rd_vma(r, &hi) || !rd_u32(r, &n) ||
			    !rd_u32(r, &rate))
				return false;
			*hz = rate;
			return true;
		}
		if (tag == GMON_TAG_CG_ARC) {
			if (!rd_skip(r, 2 * (size_t)addr_size + 4))
				return false;
		} else if (tag != GMON_TAG_BB_COUNT || !rd_u32(r, &n) ||
		           rd_left(r) / (2 * (uint64_t)addr_size) < n ||
		           !rd_skip(r, (size_t)n * 2 * (size_t)addr_size)) {
			return false;
		}
	}
	return false;
}

static bool peek_rate(struct gprof *g, struct gmon_reader *r, double *hz)
{
	enum file_format ff = g->opt.file_format;
	const unsigned char *m = rd_peek(r, GMON_MAGIC_LEN);
	if ((ff == FF_AUTO || ff == FF_MAGIC) && m &&
	    memcmp(m, GMON_MAGIC, GMON_MAGIC_LEN) == 0)
		return peek_gnu_rate(r, g->addr_size, hz);
	if (ff == FF_MAGIC)
		return false;
	vma_t lo, hi;
	uint32_t ncnt, version, rate;
	if (!rd_vma(r, &lo) || !rd_vma(r, &hi) || !rd_u32(r, &ncnt) ||
	    !rd_u32(r, &version))
		return false;
	if (version != GMON_BSD44_VERSION) {
		*hz = host_hertz();
		return true;
	}
	if (!rd_u32(r, &rate))
		return false;
	*hz = rate;
	return true;
}

/* The rate the histogram of the profile `name` will have once it is read
   (its first histogram record's, a 4.4BSD header's, or this host's for an
   old BSD file), for checking side files before any profile is read;
   false when the file has no histogram or is damaged (gmon_read() reports
   that later). */
bool gmon_peek_rate(struct gprof *g, const char *name, double *hz)
{
	struct stat st;
	if (strcmp(name, "-") == 0 || stat(name, &st) != 0 ||
	    !S_ISREG(st.st_mode))
		return false;            /* a pipe is read once, by gmon_read */
	FILE *f = fopen(name, "rb");
	if (!f)
		return false;
	struct gmon_reader r;
	bool ok = gmon_reader_open(&r, f, codec_of(g), file_size(f));
	if (ok) {
		ok = peek_rate(g, &r, hz);
		gmon_reader_close(&r);
	}
	fclose(f);
	return ok;
}

/* ---- writing gmon.sum ---- */

static void write_gnu(struct gprof *g, struct gmon_writer *w)
{
	unsigned char spare[GMON_HDR_SPARE] = { 0 };
	wr_bytes(w, GMON_MAGIC, GMON_MAGIC_LEN);
	wr_uint(w, GMON_VERSION, 4);
	wr_bytes(w, spare, sizeof spare);
	hist_write_recs(g, w);
	if (g->input_arcs)
		arc_write_recs(g, w, false);
	if (g->input_bbs)
		bb_write_recs(g, w);
}

/* The header describes the first histogram; a rate other than this
   host's can only be given in the 4.4BSD header. */
static void write_bsd(struct gprof *g, struct gmon_writer *w)
{
	int a = g->addr_size;
	bool bsd44 = g->opt.file_format == FF_BSD44 || g->hz != host_hertz();
	const struct histogram *h = g->nhists ? &g->hists[0] : NULL;
	size_t nbins = h ? h->num_bins : 0;
	int hdr = bsd44 ? GMON_BSD44_HDR_SIZE(a) : GMON_BSD_HDR_SIZE(a);

	wr_vma(w, h ? h->lowpc : 0);
	wr_vma(w, h ? h->highpc : 0);
	wr_uint(w, nbins * 2 + (size_t)hdr, 4);
	if (bsd44) {
		unsigned char spare[12] = { 0 };
		wr_uint(w, GMON_BSD44_VERSION, 4);
		wr_uint(w, (uint64_t)g->hz, 4);
		wr_bytes(w, spare, sizeof spare);
	}
	hist_write_bsd(g, w);
	arc_write_recs(g, w, true);
}

/* Writes the summed profile to `filename` via a temporary file in the
   same directory, so that the old file survives any failure. */
void gmon_write_sum(struct gprof *g, const char *filename)
{
	struct safe_file sf;
	bool bsd = g->opt.file_format == FF_BSD || g->opt.file_format == FF_BSD44;
	if (g->input_arcs && !arc_sum_fits(g, bsd))
		die(g, "%s: call counts too large to be written (damaged input?)",
		    filename);
	if (!safe_open(&sf, filename))
		die_plain("%s: %s", filename, strerror(errno));
	struct gmon_writer w;
	gmon_writer_init(&w, sf.f, codec_of(g));
	if (bsd)
		write_bsd(g, &w);
	else
		write_gnu(g, &w);
	if (w.failed) {
		int e = errno;
		safe_abort(&sf);
		die_plain("%s: %s", filename, strerror(e ? e : EIO));
	}
	if (!safe_commit(&sf))
		die_plain("%s: %s", filename, strerror(errno));
}
