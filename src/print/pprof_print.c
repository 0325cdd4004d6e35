/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pprof_print.c - the --output-format=pprof document: a gzipped
 * perftools.profiles.Profile message (pprof's profile.proto), as `go tool
 * pprof` reads it.  doc/formats.md describes the mapping.
 *
 * pprof profiles are made of stack samples, and gmon files record no
 * stacks, only the histogram and call arcs.  So each function of the flat
 * profile becomes a one-frame sample carrying its self time, and each
 * call arc a two-frame sample (callee leaf first, then caller) carrying
 * only its call count, in a value type of its own.  With the default
 * sample type (cpu) pprof's flat column is then the flat profile's self
 * time; with -sample_index=calls, pprof's traces are the arcs.  When
 * the side file holds call stacks (GMON_STACKS=1), they are the samples
 * instead of the one-frame ones, and pprof's cum is true inclusive time.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "print/print.h"
#include "protobuf.h"

/* Field numbers of profile.proto. */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4, PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6,
	PROFILE_DURATION_NANOS = 10, PROFILE_PERIOD_TYPE = 11,
	PROFILE_PERIOD = 12, PROFILE_COMMENT = 13,
	PROFILE_DEFAULT_SAMPLE_TYPE = 14
};
enum { VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2 };
enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3 };
enum { LABEL_KEY = 1, LABEL_NUM = 3, LABEL_NUM_UNIT = 4 };
enum {
	MAPPING_ID = 1, MAPPING_MEMORY_START = 2, MAPPING_MEMORY_LIMIT = 3,
	MAPPING_FILENAME = 5, MAPPING_BUILD_ID = 6, MAPPING_HAS_FUNCTIONS = 7,
	MAPPING_HAS_FILENAMES = 8, MAPPING_HAS_LINE_NUMBERS = 9
};
enum {
	LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_ADDRESS = 3,
	LOCATION_LINE = 4
};
enum { LINE_FUNCTION_ID = 1, LINE_LINE = 2 };
enum {
	FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3,
	FUNCTION_FILENAME = 4, FUNCTION_START_LINE = 5
};

/* The values of every sample, in this order (see sample_types). */
enum { VAL_SAMPLES, VAL_CPU, VAL_CALLS, NVALUES };

static const char *const sample_types[NVALUES][2] = {
	[VAL_SAMPLES] = { "samples", "count" },
	[VAL_CPU] = { "cpu", "nanoseconds" },
	[VAL_CALLS] = { "calls", "count" }
};

/* One mapping per object (g->objects): the executable's id is 1, and
   the shared library objects[k] has id k + 1. */
static uint64_t mapping_id(const struct gprof *g, const struct sym *s)
{
	const struct object_info *o = sym_object(g, s);
	return o ? (uint64_t)(o - g->objects) + 1 : 0;
}

static const char comment_text[] =
	"gproftk: gmon data has no stacks; each function's self time is a "
	"one-frame sample (samples/count, cpu/nanoseconds) labelled with its "
	"sampling_error, and each call arc a two-frame sample [callee, "
	"caller] valued only in calls/count";
static const char stacks_comment_text[] =
	"gproftk: the samples are the call stacks the program recorded "
	"(GMON_STACKS=1), valued in samples/count and cpu/nanoseconds and "
	"labelled with their thread; each call arc is a two-frame sample "
	"[callee, caller] valued only in calls/count";

static const char nocalls_comment_text[] =
	"gproftk: the samples are the call stacks the program recorded "
	"(GMON_STACKS=1), valued in samples/count and cpu/nanoseconds and "
	"labelled with their thread; no call was counted (the program was "
	"not built with -pg), so calls/count is 0 throughout";

/* Functions of no symbol: the profiling hook (stacks.c's label, one
   frame for the whole hook) and samples in no function.  The duration
   is every sample recorded (totals.c), so that pprof's percentages are
   of what was measured. */
enum { LABEL_HOOK, LABEL_OUTSIDE, NLABELS };
static const char *const label_names[NLABELS] = {
	[LABEL_HOOK] = STACK_HOOK_LABEL,
	[LABEL_OUTSIDE] = "[outside every function]"
};

struct pprof {
	const struct gprof *g;
	struct report *r;
	struct strbuf msg;           /* the Profile, field by field */
	struct strbuf sub, subsub;   /* scratch for nested messages */
	/* string table: strs[i] is index i; slot holds index + 1 (0: free) */
	char **strs;
	size_t nstrs, strs_cap;
	size_t *slot;
	size_t nslot;
	/* functions: fid[i] is the id of g->syms.base[i], 0 until used;
	   by_id[id - 1] the symbol */
	uint64_t *fid;
	const struct sym **by_id;    /* NULL: the label of label_of[id - 1] */
	int *label_of;
	uint64_t label_id[NLABELS];  /* their function ids, 0 until used */
	size_t nfuncs;
	char **names;                /* Function.name of each, by id - 1 */
};

/* ---- the string table ---- */

static size_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;     /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return (size_t)h;
}

static void strtab_grow(struct pprof *p)
{
	size_t n = p->nslot ? 2 * p->nslot : 256;

	free(p->slot);
	p->slot = xcalloc(n, sizeof *p->slot);
	p->nslot = n;
	for (size_t i = 0; i < p->nstrs; i++) {
		size_t b = str_hash(p->strs[i]) & (n - 1);

		while (p->slot[b])
			b = (b + 1) & (n - 1);
		p->slot[b] = i + 1;
	}
}

/* The index of `s` in the string table, added on first use. */
static int64_t str_id(struct pprof *p, const char *s)
{
	if (2 * (p->nstrs + 1) > p->nslot)
		strtab_grow(p);
	size_t b = str_hash(s) & (p->nslot - 1);

	for (; p->slot[b]; b = (b + 1) & (p->nslot - 1))
		if (strcmp(p->strs[p->slot[b] - 1], s) == 0)
			return (int64_t)(p->slot[b] - 1);
	if (p->nstrs == p->strs_cap) {
		p->strs_cap = p->strs_cap ? 2 * p->strs_cap : 256;
		p->strs = xrealloc(p->strs, p->strs_cap * sizeof *p->strs);
	}
	p->strs[p->nstrs] = xstrdup(s);
	p->slot[b] = ++p->nstrs;
	return (int64_t)(p->nstrs - 1);
}

/* ---- numbers ---- */

/* pprof values are integers: non-finite figures (hz 0) become 0, the
   rest are rounded and kept in range. */
static int64_t to_int(double v)
{
	if (!isfinite(v))
		return 0;
	if (v >= 9.2e18)
		return INT64_MAX;
	if (v <= -9.2e18)
		return INT64_MIN;
	return (int64_t)llround(v);
}

/* The flat profile's self seconds of `s` (hist_time / hz), in ns. */
static int64_t self_ns(const struct gprof *g, const struct sym *s)
{
	if (!(g->hz > 0))
		return 0;
	return to_int(s->hist_time / g->hz * 1e9);
}

/* The expected error of those seconds (flat.sample_err), in ns. */
static int64_t error_ns(const struct gprof *g, const struct sym *s)
{
	if (!g->flat.sample_err)
		return 0;
	return to_int(g->flat.sample_err[s - g->syms.base] * 1e9);
}

/* ---- functions (one location each) ---- */

static bool in_syms(const struct gprof *g, const struct sym *s)
{
	return s >= g->syms.base && s < g->syms.base + g->syms.len;
}

/* The function (and location) id of `s`, given on first use. */
static uint64_t func_id(struct pprof *p, const struct sym *s)
{
	size_t i = (size_t)(s - p->g->syms.base);

	if (!p->fid[i]) {
		p->by_id[p->nfuncs++] = s;
		p->fid[i] = p->nfuncs;
	}
	return p->fid[i];
}

/* The function (and location) id of a label, given on first use. */
static uint64_t label_id(struct pprof *p, int k)
{
	if (!p->label_id[k]) {
		p->by_id[p->nfuncs] = NULL;
		p->label_of[p->nfuncs++] = k;
		p->label_id[k] = p->nfuncs;
	}
	return p->label_id[k];
}

/* ---- function names ---- */

static int cmp_name_at(const void *a, const void *b, void *ctx)
{
	char **names = ctx;

	return strcmp(names[*(const size_t *)a], names[*(const size_t *)b]);
}

/* Marks dup[i] for every name that another function also has. */
static void find_dups(char **names, size_t n, bool *dup)
{
	size_t *ord = xmalloc((n ? n : 1) * sizeof *ord);

	for (size_t i = 0; i < n; i++) {
		ord[i] = i;
		dup[i] = false;
	}
	stable_sort(ord, n, sizeof *ord, cmp_name_at, names);
	for (size_t i = 1; i < n; i++)
		if (strcmp(names[ord[i - 1]], names[ord[i]]) == 0)
			dup[ord[i - 1]] = dup[ord[i]] = true;
	free(ord);
}

/* `name` plus " (SUFFIX)": the source file as the call graph's index
   shows it, or (by_addr, or with no file known) the address. */
static char *qualified(struct pprof *p, const struct sym *s, bool by_addr)
{
	struct strbuf sb = STRBUF_INIT;
	const char *file;
	int line;

	sb_puts(&sb, display_name(p->g, p->r, s));
	if (!by_addr && report_sym_file(p->g, p->r, s, &file, &line))
		sb_printf(&sb, " (%s)", path_display(p->g, file));
	else
		sb_printf(&sb, " (0x%llx)", (unsigned long long)s->addr);
	return sb_detach(&sb);
}

/* Display names, as the text reports show them.  pprof adds up the
   functions of one name (static functions of several files), so a name
   that several functions share gets the file, as in the call graph's
   index, or failing that the address. */
static void make_names(struct pprof *p)
{
	size_t n = p->nfuncs;
	bool *dup = xmalloc((n ? n : 1) * sizeof *dup);

	p->names = xmalloc((n ? n : 1) * sizeof *p->names);
	for (size_t i = 0; i < n; i++)
		p->names[i] = xstrdup(p->by_id[i] ?
			display_name(p->g, p->r, p->by_id[i]) :
			label_names[p->label_of[i]]);
	for (int pass = 0; pass < 2; pass++) {
		find_dups(p->names, n, dup);
		for (size_t i = 0; i < n; i++) {
			if (!dup[i] || !p->by_id[i])
				continue;
			free(p->names[i]);
			p->names[i] = qualified(p, p->by_id[i], pass == 1);
		}
	}
	free(dup);
}

static void put_function(struct pprof *p, const struct sym *s, uint64_t id)
{
	struct strbuf *b = &p->sub;
	const char *file;
	int line;

	sb_reset(b);
	pb_uint(b, FUNCTION_ID, id);
	pb_int(b, FUNCTION_NAME, str_id(p, p->names[id - 1]));
	pb_int(b, FUNCTION_SYSTEM_NAME, str_id(p, s ? s->name : p->names[id - 1]));
	if (s && report_sym_file(p->g, p->r, s, &file, &line)) {
		pb_int(b, FUNCTION_FILENAME, str_id(p, file));
		pb_int(b, FUNCTION_START_LINE, line);
	}
	pb_message(&p->msg, PROFILE_FUNCTION, b);
}

/* A location at the function's address, on its first line. */
static void put_location(struct pprof *p, const struct sym *s, uint64_t id)
{
	struct strbuf *b = &p->sub, *ln = &p->subsub;
	const char *file;
	int line;

	sb_reset(ln);
	pb_uint(ln, LINE_FUNCTION_ID, id);
	if (s && report_sym_file(p->g, p->r, s, &file, &line))
		pb_int(ln, LINE_LINE, line);
	sb_reset(b);
	pb_uint(b, LOCATION_ID, id);
	if (s && mapping_id(p->g, s))
		pb_uint(b, LOCATION_MAPPING_ID, mapping_id(p->g, s));
	if (s)
		pb_uint(b, LOCATION_ADDRESS, s->addr);
	pb_message(b, LOCATION_LINE, ln);
	pb_message(&p->msg, PROFILE_LOCATION, b);
}

/* The executable's address range: its symbols' lowest to highest. */
static void exe_range(const struct gprof *g, vma_t *lo, vma_t *hi)
{
	size_t n = exe_syms_len(g);

	*lo = *hi = 0;
	for (size_t i = 0; i < n; i++) {
		const struct sym *s = &g->syms.base[i];

		if (i == 0 || s->addr < *lo)
			*lo = s->addr;
		if (s->end_addr + 1 > *hi)
			*hi = s->end_addr + 1;
	}
}

static void put_build_id(struct pprof *p, const struct object_info *o)
{
	char *hex;

	if (!o->build_id_len)
		return;
	hex = xmalloc(2 * o->build_id_len + 1);
	for (size_t k = 0; k < o->build_id_len; k++)
		snprintf(hex + 2 * k, 3, "%02x", o->build_id[k]);
	pb_int(&p->sub, MAPPING_BUILD_ID, str_id(p, hex));
	free(hex);
}

/* A mapping per object: the executable's symbols' range, then each
   library's range in the model's addresses (the locations' addresses),
   with its file name and build-id; lines are known where its debug
   information was read. */
static void put_mapping(struct pprof *p, size_t k)
{
	const struct gprof *g = p->g;
	const struct object_info *o = &g->objects[k];
	struct strbuf *b = &p->sub;
	bool lines = k == 0 ? g->has_line_info : o->abfd != NULL;
	vma_t lo = o->lo, hi = o->hi + 1;

	if (k == 0)
		exe_range(g, &lo, &hi);
	sb_reset(b);
	pb_uint(b, MAPPING_ID, k + 1);
	pb_uint(b, MAPPING_MEMORY_START, lo);
	pb_uint(b, MAPPING_MEMORY_LIMIT, hi);
	pb_int(b, MAPPING_FILENAME, str_id(p, o->path));
	put_build_id(p, o);
	pb_bool(b, MAPPING_HAS_FUNCTIONS, true);
	pb_bool(b, MAPPING_HAS_FILENAMES, lines);
	pb_bool(b, MAPPING_HAS_LINE_NUMBERS, lines);
	pb_message(&p->msg, PROFILE_MAPPING, b);
}

/* ---- samples ---- */

static void put_sample(struct pprof *p, const uint64_t *locs, size_t nlocs,
                       const int64_t *values, const struct strbuf *label)
{
	struct strbuf *b = &p->sub;

	sb_reset(b);
	pb_packed_uint(b, SAMPLE_LOCATION_ID, locs, nlocs);
	pb_packed_int(b, SAMPLE_VALUE, values, NVALUES);
	if (label)
		pb_message(b, SAMPLE_LABEL, label);
	pb_message(&p->msg, PROFILE_SAMPLE, b);
}

/* A flat-profile row: its self time, and its sampling error as a numeric
   label "sampling_error" in nanoseconds. */
static void put_self_sample(struct pprof *p, const struct sym *s)
{
	struct strbuf *lb = &p->subsub;
	int64_t v[NVALUES] = { 0 };
	uint64_t loc = func_id(p, s);

	v[VAL_SAMPLES] = to_int(s->hist_time);
	v[VAL_CPU] = self_ns(p->g, s);
	sb_reset(lb);
	pb_int(lb, LABEL_KEY, str_id(p, "sampling_error"));
	pb_int(lb, LABEL_NUM, error_ns(p->g, s));
	pb_int(lb, LABEL_NUM_UNIT, str_id(p, "nanoseconds"));
	put_sample(p, &loc, 1, v, lb);
}

/* A one-frame sample of a label (the hook, no function) worth `ticks`. */
static void put_label_sample(struct pprof *p, int k, double ticks)
{
	const struct gprof *g = p->g;
	int64_t v[NVALUES] = { 0 };
	uint64_t loc;

	if (!(ticks > 0))
		return;
	loc = label_id(p, k);
	v[VAL_SAMPLES] = to_int(ticks);
	v[VAL_CPU] = g->hz > 0 ? to_int(ticks / g->hz * 1e9) : 0;
	put_sample(p, &loc, 1, v, NULL);
}

/* A sampled call stack (GMON_STACKS=1): its frames leaf first, valued
   in samples and cpu like the self samples it replaces, with the
   thread's id as a numeric label "thread".  The hook's frames are one
   "[profiling hook]" frame (as in stacks.c); a leaf at no known function
   is "[outside every function]", other such frames are left out. */
static void put_stack_sample(struct pprof *p, const struct call_stack *st,
                             uint64_t *locs)
{
	const struct gprof *g = p->g;
	struct strbuf *lb = &p->subsub;
	int64_t v[NVALUES] = { 0 };
	size_t n = 0;

	uint32_t top = st->depth;     /* past the outermost hook frame */
	for (uint32_t i = st->depth; i-- > 0;)
		if (st->frames[i] && sym_is_hook(g, st->frames[i]))
			top = i;
	if (top < st->depth)
		locs[n++] = label_id(p, LABEL_HOOK);
	else if (st->depth && !st->frames[0])
		locs[n++] = label_id(p, LABEL_OUTSIDE);
	for (uint32_t i = top < st->depth ? top + 1 : 0; i < st->depth; i++)
		if (st->frames[i] && in_syms(g, st->frames[i]))
			locs[n++] = func_id(p, st->frames[i]);
	if (n == 0)
		return;
	v[VAL_SAMPLES] = to_int((double)st->count);
	v[VAL_CPU] = g->hz > 0 ? to_int((double)st->count / g->hz * 1e9) : 0;
	sb_reset(lb);
	pb_int(lb, LABEL_KEY, str_id(p, "thread"));
	pb_int(lb, LABEL_NUM, st->thread);
	put_sample(p, locs, n, v, lb);
}

static void put_stack_samples(struct pprof *p)
{
	const struct gprof *g = p->g;
	uint32_t max = 1;

	for (size_t k = 0; k < g->nstacks; k++)
		if (g->stacks[k].depth > max)
			max = g->stacks[k].depth;
	uint64_t *locs = xmalloc((max + 1) * sizeof *locs);
	for (size_t k = 0; k < g->nstacks; k++)
		put_stack_sample(p, &g->stacks[k], locs);
	free(locs);
}

/* A call arc: [callee, caller], valued only in calls. */
static void put_arc_sample(struct pprof *p, const struct arc *a)
{
	int64_t v[NVALUES] = { 0 };
	uint64_t locs[2];

	if (!in_syms(p->g, a->parent) || !in_syms(p->g, a->child))
		return;
	locs[0] = func_id(p, a->child);
	locs[1] = func_id(p, a->parent);
	v[VAL_CALLS] = to_int((double)a->count);
	put_sample(p, locs, 2, v, NULL);
}

/* Every arc of the model, caller by caller in symbol order. */
static void put_arc_samples(struct pprof *p)
{
	const struct gprof *g = p->g;

	for (size_t i = 0; i < g->syms.len; i++)
		for (const struct arc *a = g->syms.base[i].children; a;
		     a = a->next_child)
			put_arc_sample(p, a);
}

/* ---- the profile ---- */

static void put_value_type(struct pprof *p, unsigned field, const char *type,
                           const char *unit)
{
	struct strbuf *b = &p->sub;

	sb_reset(b);
	pb_int(b, VALUE_TYPE_TYPE, str_id(p, type));
	pb_int(b, VALUE_TYPE_UNIT, str_id(p, unit));
	pb_message(&p->msg, field, b);
}

/* Real stacks, when the program recorded them, give pprof its
   inclusive (cum) time; without them, one-frame self samples. */
static bool stack_samples(const struct gprof *g)
{
	return g->nstacks > 0 && !g->thread_only;
}

/* Sample types, period, duration (the total sampled time) and comment. */
static void put_header(struct pprof *p)
{
	const struct gprof *g = p->g;
	bool rate = g->hz > 0;

	for (int i = 0; i < NVALUES; i++)
		put_value_type(p, PROFILE_SAMPLE_TYPE, sample_types[i][0],
		               sample_types[i][1]);
	pb_int(&p->msg, PROFILE_DEFAULT_SAMPLE_TYPE,
	       str_id(p, sample_types[VAL_CPU][0]));
	put_value_type(p, PROFILE_PERIOD_TYPE, sample_types[VAL_CPU][0],
	               sample_types[VAL_CPU][1]);
	pb_int(&p->msg, PROFILE_PERIOD, rate ? to_int(1.0 / g->hz * 1e9) : 0);
	pb_int(&p->msg, PROFILE_DURATION_NANOS,
	       rate ? to_int(g->totals.all / g->hz * 1e9) : 0);
	pb_int(&p->msg, PROFILE_COMMENT, str_id(p, g->arcs_from_stacks ?
	       nocalls_comment_text : stack_samples(g) ?
	       stacks_comment_text : comment_text));
}

/* Functions and locations of every symbol a sample used, then the
   mapping and the string table, which by then holds every string. */
static void put_tables(struct pprof *p)
{
	make_names(p);
	for (size_t i = 0; i < p->nfuncs; i++) {
		put_location(p, p->by_id[i], i + 1);
		put_function(p, p->by_id[i], i + 1);
	}
	for (size_t k = 0; k < p->g->nobjects; k++)
		put_mapping(p, k);
	for (size_t i = 0; i < p->nstrs; i++)
		pb_string(&p->msg, PROFILE_STRING_TABLE, p->strs[i]);
}

/* The message, gzipped (profile.proto asks for it on disk), to `out`. */
static void gzip_write(const struct gprof *g, const struct strbuf *msg,
                       FILE *out)
{
	unsigned char chunk[1 << 16];
	z_stream z;
	size_t left = msg->len;
	int flush, rc;

	memset(&z, 0, sizeof z);
	/* windowBits 15 + 16: a gzip header and trailer, not zlib's.  The
	   fastest level: the default one spent 40% of the run on a profile
	   of a million arcs (bench/docs.sh) for a file a third smaller. */
	if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
	                 Z_DEFAULT_STRATEGY) != Z_OK)
		die(g, "pprof: cannot start compression");
	z.next_in = (unsigned char *)msg->buf;
	do {
		uInt take = left > (1u << 30) ? (1u << 30) : (uInt)left;

		z.avail_in = take;
		left -= take;
		flush = left ? Z_NO_FLUSH : Z_FINISH;
		do {
			z.next_out = chunk;
			z.avail_out = sizeof chunk;
			rc = deflate(&z, flush);
			if (rc == Z_STREAM_ERROR)
				die(g, "pprof: compression failed");
			fwrite(chunk, 1, sizeof chunk - z.avail_out, out);
		} while (z.avail_out == 0);
	} while (flush != Z_FINISH);
	deflateEnd(&z);
}

static void pprof_free(struct pprof *p)
{
	for (size_t i = 0; i < p->nstrs; i++)
		free(p->strs[i]);
	free(p->strs);
	free(p->slot);
	free(p->fid);
	free((void *)p->by_id);
	free(p->label_of);
	for (size_t i = 0; p->names && i < p->nfuncs; i++)
		free(p->names[i]);
	free(p->names);
	sb_free(&p->msg);
	sb_free(&p->sub);
	sb_free(&p->subsub);
}

void pprof_print(const struct gprof *g, struct report *r)
{
	struct pprof p = { .g = g, .r = r };
	size_t n = g->syms.len + NLABELS;

	p.msg = (struct strbuf)STRBUF_INIT;
	p.sub = (struct strbuf)STRBUF_INIT;
	p.subsub = (struct strbuf)STRBUF_INIT;
	p.fid = xcalloc(n, sizeof *p.fid);
	p.by_id = xmalloc(n * sizeof *p.by_id);
	p.label_of = xmalloc(n * sizeof *p.label_of);
	str_id(&p, "");                 /* string_table[0] must be "" */
	put_header(&p);
	if (stack_samples(g)) {
		put_stack_samples(&p);
	} else {
		for (size_t i = 0; i < g->flat.nrows; i++)
			if (in_syms(g, g->flat.rows[i]))
				put_self_sample(&p, g->flat.rows[i]);
		put_label_sample(&p, LABEL_HOOK, g->totals.hook);
		put_label_sample(&p, LABEL_OUTSIDE, g->totals.outside);
	}
	/* Arcs made from the stacks (no -pg) count samples the stacks
	   already are: as calls they would be counted twice. */
	if (!g->arcs_from_stacks)
		put_arc_samples(&p);
	put_tables(&p);
	gzip_write(g, &p.msg, r->out);
	pprof_free(&p);
}
