/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gmon_reader.h - field readers and writers for profile files, shared by
   gmon_io.c, hist.c and basic_blocks.c. */
#ifndef GMON_READER_H
#define GMON_READER_H

#include "gprof.h"

/* A file being read: all of it in memory (f == NULL), or a window onto a
   big regular file that rd_bytes() slides forward as fields are read. */
struct reader {
	struct gprof *g;
	const char *name;               /* file name, for messages */
	const unsigned char *start, *p, *end;   /* the bytes in memory */
	FILE *f;                        /* refills the window, or NULL */
	unsigned char *buf;             /* the window's storage */
	size_t cap;
	uint64_t off;                   /* file offset of `start` */
	uint64_t size;                  /* file size (streamed files) */
};

struct writer {
	struct gprof *g;
	FILE *f;
	bool failed;
};

bool rd_bytes(struct reader *r, void *out, size_t n);
uint64_t rd_left(const struct reader *r);
bool rd_u16(struct reader *r, uint16_t *v);
bool rd_u32(struct reader *r, uint32_t *v);
bool rd_vma(struct reader *r, vma_t *v);
void wr_uint(struct writer *w, uint64_t v, int nbytes);
void wr_bytes(struct writer *w, const void *p, size_t n);

struct histogram *hist_record(struct gprof *g, vma_t lowpc, vma_t highpc,
                              uint32_t nbins, uint32_t rate, const char *dimen,
                              char abbrev);
struct histogram *hist_check(struct gprof *g, vma_t lowpc, vma_t highpc,
                             uint32_t nbins, uint32_t rate, const char *dimen,
                             char abbrev);
struct histogram *hist_bsd_record(struct gprof *g, vma_t lowpc, vma_t highpc,
                                  size_t nbins);
void hist_write_recs(struct gprof *g, struct writer *w);
void bb_read_rec(struct gprof *g, struct reader *r);
void bb_write_recs(struct gprof *g, struct writer *w);

#endif
