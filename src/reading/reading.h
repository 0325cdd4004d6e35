/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * reading/reading.h - the way into the reading folder: profile files
 * (gmon_io.c, with the codec and one module per record type), the
 * histograms they hold (hist_merge.c), the side files of shared
 * libraries, stacks and threads (shlibs.c, shlibs_io.c, shlibs_sum.c,
 * and shlibs_info.c for -i; vdso.c for the kernel's vDSO),
 * and the -R map (map_file.c).  Readers put what they read into the model; the call
 * arcs go to the model's arc sink (g->arc_sink), which the pipeline
 * points at the analysis, so that reading calls nothing above it.
 * Uses the utilities, the model and the symbols.
 */
#ifndef READING_READING_H
#define READING_READING_H

#include "model/model.h"
#include "reading/shlibs_io.h"
#include "symbols/symbols.h"
#include "util/util.h"

/* ---- gmon_io.c ---- */
void gmon_read(struct gprof *g, const char *filename);
/* Writes -s's summary: the caller makes the arcs read so far into arcs
   (arc_bulk_flush) first. */
void gmon_write_sum(struct gprof *g, const char *filename);
bool gmon_peek_rate(struct gprof *g, const char *name, double *hz);

/* ---- hist_merge.c ---- */
void hist_widen(struct histogram *h);
struct histogram *hist_record(struct gprof *g, vma_t lowpc, vma_t highpc,
                              uint32_t nbins, uint32_t rate, const char *dimen,
                              char abbrev);
struct histogram *hist_check(struct gprof *g, vma_t lowpc, vma_t highpc,
                             uint32_t nbins, uint32_t rate, const char *dimen,
                             char abbrev);
struct histogram *hist_bsd_record(struct gprof *g, vma_t lowpc, vma_t highpc,
                                  size_t nbins);

/* Adds to bin i (32-bit bins widen to 64 bits on the first overflow). */
static inline void hist_add(struct histogram *h, size_t i, uint64_t count)
{
	if (!h->wide && h->bins[i] + count > UINT32_MAX)
		hist_widen(h);
	if (h->wide)
		h->wide[i] += count;
	else
		h->bins[i] += (uint32_t)count;
}

/* ---- map_file.c ---- */
void map_file_read(struct gprof *g, const char *path);

/* ---- vdso.c: the kernel's vDSO ---- */
bool vdso_is_name(const char *path);
void *vdso_open_own(const unsigned char *id, size_t len);

/* ---- shlibs.c: shared libraries from PROFILE.shlibs side files ---- */
void shlibs_load(struct gprof *g);
bool shlibs_side_files(const struct gprof *g);
/* Profile p's side file name, p + ".shlibs" (malloc'ed). */
char *shlibs_side_name(const char *p);
void shlibs_write_sum(struct gprof *g, const char *filename);
void shlibs_free(struct gprof *g);
size_t shlibs_threads(const struct gprof *g, struct thread_info **out);
/* -i: profile `name`'s side file, after GNU's lines (shlibs_info.c). */
void shlibs_print_info(const struct gprof *g, const char *name);
/* The side files' build-id of the main executable against the
   executable's NT_GNU_BUILD_ID (UNKNOWN: no side file records one). */
enum build_id_match { BUILD_ID_UNKNOWN, BUILD_ID_SAME, BUILD_ID_DIFFERS };
enum build_id_match shlibs_exe_build_id(const struct gprof *g,
                                        const char **file);

/* What shlibs_load() leaves for the analysis to credit (shlibs_apply(),
   analysis/shlib_credit.c): each side file, its objects matched to the
   libraries, and where each library's symbols were placed. */
enum lib_state {
	LIB_SKIPPED,                 /* its data is ignored (warned) */
	LIB_NO_SYMS,                 /* samples count in the total only */
	LIB_LOADED                   /* symbols at [lo, hi] + delta */
};

/* One object, across every side file (matched by path and build-id). */
struct lib {
	const struct gmsl_object *o; /* its first description */
	enum lib_state state;
	vma_t lo, hi;                /* link-time span of its symbols */
	vma_t delta;                 /* synthetic address - link-time one */
	uint64_t nsamples, narcs;    /* its data, for the warnings */
	uint64_t nframes;            /* stack frames in it: worth loading */
};

struct shlibs {
	struct gmsl_file *files;     /* one per profile with a side file */
	char **names;
	bool *skipped;               /* rate differs: the file is ignored */
	uint32_t **map;              /* per file: object index -> lib */
	size_t nfiles;
	struct lib *libs;            /* libs[0] is the main executable */
	size_t nlibs;
	const char **profiles;       /* g->opt.profiles once side files are
	                                dropped from it */
	double rate;                 /* the profiles' sampling rate, or 0 */
};

/* The thread of side file f that a --per-thread context g is about
   (matched by id and name), or f->nthreads when f has none such. */
size_t shlibs_thread_of(const struct gprof *g, const struct gmsl_file *f);

#endif
