/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlibs_io.h - owns the GMON_SHLIBS side file in memory: read and checked
 * as a whole, merged and summed for -s, and written (read by shlibs_io.c, summed
 * and written by shlibs_sum.c).  The
 * layout is include/gmon_shlibs.h's; doc/shlibs.md describes it.
 */
#ifndef SHLIBS_IO_H
#define SHLIBS_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gmon_shlibs.h"
#include "model/model.h"

struct gmsl_object {
	uint32_t id;                 /* as the file numbers it */
	uint64_t bias, lo, hi;       /* load bias, [lo, hi) executable span */
	char *path;                  /* NUL-terminated copy (never NULL) */
	uint16_t build_id_len;
	unsigned char build_id[GMSL_MAX_BUILD_ID];
};

/* Samples and arcs name objects by their index in `objs`, not their id. */
struct gmsl_sample {
	uint32_t obj;
	uint32_t count;
	uint64_t addr;
};

struct gmsl_arc {
	uint32_t from_obj, to_obj;
	uint64_t from, to;
	uint64_t count;
};

/* CPU and wall time, in ns: a file's PTIMES, a thread's TTIMES (several
   of either add up). */
struct gmsl_times {
	bool have;
	uint32_t flags;              /* GMSL_TTIMES_*: ENDED while every part
	                                says so, TICKS when any part does */
	uint64_t user_ns, sys_ns, wall_ns;
};

/* Call stacks and threads (GMON_STACKS=1).  Threads are named by their
   index in `threads`, frames' objects by their index in `objs`. */
struct gmsl_thread {
	uint32_t id;                 /* as the file numbers it */
	uint32_t tid;                /* the system's thread id */
	char *name;                  /* NUL-terminated copy (never NULL) */
	struct gmsl_times times;     /* its TTIMES */
};

struct gmsl_frame {
	uint32_t obj;
	uint64_t addr;
};

/* One distinct stack: frames[first .. first + depth - 1] of the file's
   frame pool, leaf (the interrupted pc) first. */
struct gmsl_stack {
	uint32_t thread;
	uint16_t depth, flags;
	size_t first;
	uint64_t count;
};

struct gmsl_tsample {
	uint32_t thread;
	struct gmsl_sample s;
};

struct gmsl_tarc {
	uint32_t thread;
	struct gmsl_arc a;
};

struct gmsl_file {
	uint32_t rate;               /* samples per second */
	uint32_t clock;              /* enum gmsl_clock (not checked) */
	struct gmsl_object *objs;
	size_t nobjs, objs_cap;
	struct gmsl_sample *samples;
	size_t nsamples, samples_cap;
	struct gmsl_arc *arcs;
	size_t narcs, arcs_cap;
	struct gmsl_thread *threads;
	size_t nthreads, threads_cap;
	struct gmsl_stack *stacks;
	size_t nstacks, stacks_cap;
	struct gmsl_frame *frames;   /* the stacks' frames, one pool */
	size_t nframes, frames_cap;
	struct gmsl_tsample *tsamples;
	size_t ntsamples, tsamples_cap;
	struct gmsl_tarc *tarcs;
	size_t ntarcs, tarcs_cap;
	bool have_sloss;             /* an SLOSS record was read */
	uint64_t stack_truncated;    /* SLOSS: ticks cut at the depth limit */
	uint64_t stack_lost;         /* SLOSS: ticks whose stack was dropped */
	uint32_t depth_limit;        /* SLOSS: the writer's depth limit */
	struct gmsl_times ptimes;    /* PTIMES: the process's times */
	uint32_t *id_hash;           /* reader: 1 + index by id, open hashing */
	size_t id_hash_size;
};

/* Does the file at `path` start with the side-file magic?  (False for a
   file that cannot be opened or is shorter.) */
bool gmsl_has_magic(const char *path);

/* Reads and checks the side file at `path` into *f (zeroed first).
   Returns false, with *f empty, when there is no such file; any damage or
   read error ends the run with one message naming the file (die()). */
bool gmsl_read(const struct gprof *g, struct gmsl_file *f, const char *path);

/* Reads a side file held in memory (the fuzz harness's entry point). */
void gmsl_parse(const struct gprof *g, struct gmsl_file *f, const char *name,
                const unsigned char *data, size_t len);

void gmsl_free(struct gmsl_file *f);

/* Are a and b the same object: the same path and the same build-id? */
bool gmsl_same_object(const struct gmsl_object *a,
                      const struct gmsl_object *b);

/* Adds src into dst: objects matched by path and build-id (id 0, the
   main executable, always to dst's index 0), threads matched by id and
   name (so that the main thread of several runs is one), samples, arcs,
   stacks and per-thread data appended under dst's numbering, losses
   added.  dst starts zeroed; its objs[i] gets id i. */
void gmsl_merge(struct gmsl_file *dst, const struct gmsl_file *src);

/* Sorts the samples, arcs, stacks and per-thread samples and arcs and
   adds up those of the same place (a sum that would overflow its field
   starts another entry). */
void gmsl_combine(struct gmsl_file *f);

/* Writes f (objects with ids 0..nobjs-1, as gmsl_merge numbers them);
   false on a write error (errno set). */
bool gmsl_write(const struct gmsl_file *f, FILE *out);

/* Adds src's PTIMES or TTIMES to dst's (shlibs_sum.c). */
void gmsl_times_add(struct gmsl_times *dst, const struct gmsl_times *src);

#endif
