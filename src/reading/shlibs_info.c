/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlibs_info.c - what -i says about a profile's side file
 * (PROFILE.shlibs): its objects, samples, arcs, threads, stacks and
 * times, printed after GNU's lines about the profile itself.  A profile
 * without a side file (every profile GNU gprof reads) gets GNU's lines
 * only, byte for byte.
 */
#include <inttypes.h>
#include <string.h>

#include "reading/reading.h"

static const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

/* The side file read beside profile `name`, or -1. */
static long side_file_of(const struct shlibs *sl, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; sl && i < sl->nfiles; i++)
		if (strncmp(sl->names[i], name, n) == 0 &&
		    strcmp(sl->names[i] + n, GMSL_SUFFIX) == 0)
			return (long)i;
	return -1;
}

static void print_objects(const struct gmsl_file *f)
{
	printf("\t%zu object%s:\n", f->nobjs, plural(f->nobjs));
	for (size_t k = 0; k < f->nobjs; k++) {
		const struct gmsl_object *o = &f->objs[k];
		uint64_t samples = 0, arcs = 0;
		for (size_t i = 0; i < f->nsamples; i++)
			samples += f->samples[i].obj == k ? f->samples[i].count : 0;
		for (size_t i = 0; i < f->narcs; i++)
			arcs += f->arcs[i].from_obj == k || f->arcs[i].to_obj == k;
		printf("\t\t%s%s: %" PRIu64 " sample%s, %" PRIu64 " call arc%s, "
		       "build-id ", o->path[0] ? o->path : "(no name)",
		       o->id == 0 ? " (the executable)" : "", samples,
		       plural(samples), arcs, plural(arcs));
		for (size_t i = 0; i < o->build_id_len; i++)
			printf("%02x", o->build_id[i]);
		puts(o->build_id_len ? "" : "none");
	}
}

static void print_stacks(const struct gmsl_file *f)
{
	uint64_t ticks = 0;
	unsigned depth = 0;
	for (size_t i = 0; i < f->nstacks; i++) {
		ticks += f->stacks[i].count;
		if (f->stacks[i].depth > depth)
			depth = f->stacks[i].depth;
	}
	printf("\t%zu thread%s\n", f->nthreads, plural(f->nthreads));
	for (size_t t = 0; t < f->nthreads; t++)
		printf("\t\tthread %" PRIu32 " (system id %" PRIu32 ")%s%s\n",
		       f->threads[t].id, f->threads[t].tid,
		       f->threads[t].name[0] ? ": " : "", f->threads[t].name);
	printf("\t%zu call stack%s (%" PRIu64 " tick%s, up to %u frame%s deep)\n",
	       f->nstacks, plural(f->nstacks), ticks, plural(ticks), depth,
	       plural(depth));
	if (f->have_sloss)
		printf("\t%" PRIu64 " tick%s with a stack cut at %" PRIu32
		       " frames, %" PRIu64 " without a stack\n",
		       f->stack_truncated, plural(f->stack_truncated),
		       f->depth_limit, f->stack_lost);
	if (f->ntsamples || f->ntarcs)
		printf("\t%zu per-thread sample record%s, %zu per-thread call "
		       "arc%s\n", f->ntsamples, plural(f->ntsamples), f->ntarcs,
		       plural(f->ntarcs));
}

/* After GNU's -i lines about profile `name`: its side file, if one was
   read (none with --no-shlibs). */
void shlibs_print_info(const struct gprof *g, const char *name)
{
	const struct shlibs *sl = g->shlibs;
	long i = side_file_of(sl, name);
	if (i < 0)
		return;
	const struct gmsl_file *f = &sl->files[i];
	printf("Side file `%s' (version %d, %" PRIu32 " Hz, %s time) "
	       "contains:\n", sl->names[i], GMSL_VERSION, f->rate,
	       f->clock == GMSL_CLOCK_WALL ? "wall" : "CPU");
	if (sl->skipped && sl->skipped[i])
		printf("\t(ignored: its sampling rate differs from the "
		       "profile's)\n");
	print_objects(f);
	uint64_t samples = 0;
	for (size_t k = 0; k < f->nsamples; k++)
		samples += f->samples[k].count;
	printf("\t%zu sample record%s (%" PRIu64 " sample%s)\n", f->nsamples,
	       plural(f->nsamples), samples, plural(samples));
	printf("\t%zu call arc%s\n", f->narcs, plural(f->narcs));
	print_stacks(f);
	if (f->ptimes.have)
		printf("\tprocess times: user %.2f s, system %.2f s, wall %.2f s\n",
		       f->ptimes.user_ns / 1e9, f->ptimes.sys_ns / 1e9,
		       f->ptimes.wall_ns / 1e9);
}
