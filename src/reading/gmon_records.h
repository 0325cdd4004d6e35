/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmon_records.h - the record modules of profile files, one per record
 * type, each reading its records into the model and writing them back
 * for -s: hist_record.c (histograms), arc_record.c (call arcs),
 * bb_record.c (basic-block counts).  gmon_io.c, which owns the file
 * level (headers, tags, the output file), is their only caller.
 *
 * Readers take the file's name for their messages, and end the run (with
 * GNU's message) on a damaged record; writers record failures in the
 * writer, which the caller checks once at the end.
 */
#ifndef READING_GMON_RECORDS_H
#define READING_GMON_RECORDS_H

#include "gmon_codec.h"
#include "model/model.h"

/* A BSD file's header, as gmon_io.c has read it. */
struct gmon_bsd_hdr {
	vma_t lowpc, highpc;         /* the histogram's range */
	uint32_t ncnt;               /* header size plus sample bytes */
	uint32_t version;            /* GMON_BSD44_VERSION, or old BSD */
	uint32_t rate;               /* ticks per second (4.4BSD only) */
	int size;                    /* bytes in the header */
};

/* ---- hist_record.c ---- */
void hist_read_rec(struct gprof *g, struct gmon_reader *r, const char *name);
void hist_write_recs(struct gprof *g, struct gmon_writer *w);
/* The histogram behind a BSD header: returns whether it has any bins. */
bool hist_read_bsd(struct gprof *g, struct gmon_reader *r, const char *name,
                   const struct gmon_bsd_hdr *h);
void hist_write_bsd(struct gprof *g, struct gmon_writer *w);

/* ---- arc_record.c ---- */
/* The arc record whose tag was just read, and those that follow it
   straight after; returns how many. */
unsigned long arc_read_rec(struct gprof *g, struct gmon_reader *r,
                           const char *name);
/* A BSD file's arcs, read to the end of the file; returns how many. */
unsigned long arc_read_bsd(struct gprof *g, struct gmon_reader *r);
/* Whether the summed counts can be written without an absurd number of
   records (see arc_record.c); checked before the output file is made. */
bool arc_sum_fits(struct gprof *g, bool bsd);
void arc_write_recs(struct gprof *g, struct gmon_writer *w, bool bsd);

/* ---- bb_record.c ---- */
void bb_read_rec(struct gprof *g, struct gmon_reader *r, const char *name);
void bb_write_recs(struct gprof *g, struct gmon_writer *w);

#endif
