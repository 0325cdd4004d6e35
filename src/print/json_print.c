/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json_print.c - the --output-format=json document (doc/gprof-json.schema.json)
 * and the --compare result as JSON (doc/gprof-compare.schema.json), both
 * written with the small JSON writer of json_writer.c.
 *
 * Every figure is the one the text reports print, from the same model
 * fields and the same expressions, at full precision: the text rounds
 * them, this document does not.  Times are in the profile's dimension
 * (seconds for every gmon.out glibc writes).  A figure that is not a
 * finite number (a sampling rate of 0 makes times inf or nan) is null.
 * Addresses are strings ("0x401136"): a 64-bit address does not fit the
 * 53 bits a JSON reader's double holds exactly.
 */
#include "config.h"

#include <stdlib.h>

#include "print/print.h"
#include "json_writer.h"

/* ---- the profile document ---- */

static void print_profiles(const struct gprof *g, struct jw *w)
{
	jw_key(w, "profiles");
	jw_open(w, '[', true);
	for (size_t i = 0; i < g->opt.nprofiles; i++)
		jw_str(w, g->opt.profiles[i]);
	jw_close(w, ']');
}

/* The per-call columns' unit as the flat profile's header names it
   ("ms" in "ms/call"), without the blank of the unit prefix ' '. */
static void per_call_unit(const struct gprof *g, char *buf)
{
	size_t n = 0;

	if (g->flat.unit_prefix != ' ' && g->flat.unit_prefix)
		buf[n++] = g->flat.unit_prefix;
	if (g->dimen_abbrev)
		buf[n++] = g->dimen_abbrev;
	buf[n] = '\0';
}

/* The side files' CPU and wall time, when they gave any (a key of its
   own, absent otherwise, so that other profiles' JSON stays as it was). */
static void print_run_times(const struct gprof *g, struct jw *w)
{
	if (!g->have_run_times)
		return;
	jw_key(w, "run_times");
	jw_open(w, '{', true);
	knum(w, "user_seconds", g->run_user_ns / 1e9);
	knum(w, "system_seconds", g->run_sys_ns / 1e9);
	knum(w, "wall_seconds", g->run_wall_ns / 1e9);
	jw_close(w, '}');
}

/* What 100% is (totals.c): every sample, and where each fell; the hook's
   share, or null when the hook is outside the histogram (glibc's). */
static void print_totals(const struct gprof *g, struct jw *w)
{
	const struct run_totals *t = &g->totals;
	double hz = g->hz > 0 ? g->hz : 1;

	jw_key(w, "totals");
	jw_open(w, '{', false);
	knum(w, "samples", t->all);
	knum(w, "seconds", t->all / hz);
	knum(w, "shown_seconds", t->shown / hz);
	knum(w, "outside_seconds", t->outside / hz);
	knum(w, "excluded_seconds", t->excluded / hz);
	kbool(w, "hook_measured", t->hook_measured);
	if (t->hook_measured) {
		knum(w, "hook_seconds", t->hook / hz);
		knum(w, "hook_share", t->hook_share);
		knum(w, "hook_slowdown", t->slowdown);
	} else {
		knull(w, "hook_seconds");
		knull(w, "hook_share");
		knull(w, "hook_slowdown");
	}
	jw_close(w, '}');
}

static void print_summary(const struct gprof *g, struct jw *w)
{
	jw_key(w, "summary");
	jw_open(w, '{', false);
	kbool(w, "has_histogram", g->input_hist);
	kbool(w, "has_call_graph", g->input_arcs);
	kbool(w, "has_basic_blocks", g->input_bbs);
	kstr(w, "dimension", g->dimen);
	knum(w, "sampling_rate_hz", g->hz);
	/* As the flat profile's "Each sample counts as" line. */
	knum(w, "seconds_per_sample", 1.0 / g->hz);
	knum(w, "total_samples", g->total_time);
	knum(w, "total_seconds", g->total_time / g->hz);
	if (g->flat.sample_err)
		knum(w, "total_seconds_error", g->flat.total_err);
	else
		knull(w, "total_seconds_error");
	/* As the call graph's header: "for P% of T seconds". */
	if (g->input_arcs)
		knum(w, "propagated_seconds", g->print_time / g->hz);
	else
		knull(w, "propagated_seconds");
	jw_key(w, "granularity_bytes");
	jw_int(w, hist_granularity_bytes(g));
	if (g->input_hist) {
		char unit[4];
		per_call_unit(g, unit);
		kstr(w, "per_call_unit", unit);
		knum(w, "per_call_scale", g->flat.unit_scale);
	} else {
		knull(w, "per_call_unit");
		knull(w, "per_call_scale");
	}
	kuint(w, "arc_records", g->arc_records);
	kint(w, "cycles", g->ncycles);
	/* Where the call graph's times come from: --stacks or call counts. */
	kstr(w, "call_graph_times", g->stack_times ? "call_stacks" : "call_counts");
	/* What the arcs' and functions' counts are: calls, or (no -pg)
	   the stack samples that held the call. */
	kstr(w, "call_counts", g->arcs_from_stacks ? "stack_samples" : "calls");
	print_run_times(g, w);
	print_totals(g, w);
	jw_close(w, '}');
}

static void print_histograms(const struct gprof *g, struct jw *w)
{
	jw_key(w, "histograms");
	jw_open(w, '[', false);
	for (size_t i = 0; i < g->nhists; i++) {
		const struct histogram *h = &g->hists[i];
		jw_open(w, '{', true);
		jw_key(w, "lowpc");
		jw_addr(w, h->lowpc);
		jw_key(w, "highpc");
		jw_addr(w, h->highpc);
		kuint(w, "bins", h->num_bins);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

/* The object files functions live in: the executable first, then the
   shared libraries the side files named (with their build-ids). */
static void print_objects(const struct gprof *g, struct jw *w)
{
	jw_key(w, "objects");
	jw_open(w, '[', false);
	for (size_t i = 0; i < g->nobjects; i++) {
		const struct object_info *o = &g->objects[i];
		jw_open(w, '{', true);
		kstr(w, "path", o->path);
		if (o->build_id_len) {
			char *hex = xmalloc(2 * o->build_id_len + 1);
			for (size_t k = 0; k < o->build_id_len; k++)
				snprintf(hex + 2 * k, 3, "%02x", o->build_id[k]);
			kstr(w, "build_id", hex);
			free(hex);
		} else {
			knull(w, "build_id");
		}
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

/* Where a function is: its object, its address in that object (a
   library's own link-time address, not the model's) and its source. */
static void print_place(const struct gprof *g, struct jw *w,
                        const struct sym *s)
{
	jw_key(w, "address");
	jw_addr(w, sym_object_addr(g, s));
	kstr(w, "object", sym_object_path(g, s));
}

static void print_location(const struct gprof *g, struct report *r,
                           struct jw *w, const struct sym *s)
{
	const char *file;
	int line;

	if (report_sym_file(g, r, s, &file, &line)) {
		kstr(w, "file", file);
		kint(w, "line", line);
	} else {
		knull(w, "file");
		knull(w, "line");
	}
}

/* One flat-profile row: print_row() of flat_print.c, unrounded. */
static void print_flat_row(const struct gprof *g, struct report *r,
                           struct jw *w, const struct sym *s, double *accum)
{
	*accum += s->hist_time;
	jw_open(w, '{', true);
	kstr(w, "name", display_name(g, r, s));
	kstr(w, "raw_name", s->name);
	print_place(g, w, s);
	print_location(g, r, w, s);
	knum(w, "percent", 100.0 * s->hist_time / g->flat.time_base);
	knum(w, "cumulative_seconds", *accum / g->hz);
	knum(w, "self_seconds", s->hist_time / g->hz);
	knum(w, "self_samples", s->hist_time);
	if (g->flat.sample_err)
		knum(w, "self_seconds_error", g->flat.sample_err[s - g->syms.base]);
	else
		knull(w, "self_seconds_error");
	if (g->stack_incl)
		knum(w, "inclusive_seconds", g->stack_incl[s - g->syms.base] / g->hz);
	else
		knull(w, "inclusive_seconds");
	if (sym_counted_calls(g, s) != 0) {
		double calls = (double)s->ncalls;
		kuint(w, "calls", s->ncalls);
		knum(w, "self_seconds_per_call", s->hist_time / g->hz / calls);
		knum(w, "total_seconds_per_call",
		     (s->hist_time + s->child_time) / g->hz / calls);
	} else {
		knull(w, "calls");
		knull(w, "self_seconds_per_call");
		knull(w, "total_seconds_per_call");
	}
	jw_close(w, '}');
}

static void print_flat(const struct gprof *g, struct report *r, struct jw *w)
{
	double accum = 0;

	jw_key(w, "flat_profile");
	if (!g->input_hist) {
		jw_null(w);
		return;
	}
	jw_open(w, '[', false);
	for (size_t i = 0; i < g->flat.nrows; i++)
		print_flat_row(g, r, w, g->flat.rows[i], &accum);
	jw_close(w, ']');
}

/* ---- the call graph: cg_print.c's lines, unrounded ---- */

static void kcycle(struct jw *w, const struct sym *s)
{
	if (s->cycle_num != 0)
		kint(w, "cycle", s->cycle_num);
	else
		knull(w, "cycle");
}

/* What an arc's line says of the function at its other end, gathered
   once per symbol (on first use): a big call graph's arcs name
   functions all over memory, and a line then waits for this record and
   the name instead of the symbol, its cycle head and the name memo. */
struct arc_end {
	const char *name;            /* NULL: not gathered yet */
	int index;
	int cycle;
	uint64_t cycle_calls;        /* calls into it, or into its cycle */
};

struct arc_ends {
	struct arc_end *v;           /* by symbol number */
	struct arc_end scratch;      /* a symbol outside g->syms */
};

static struct arc_end *arc_end_slot(const struct gprof *g,
                                    struct arc_ends *e, const struct sym *s)
{
	const struct sym *base = g->syms.base;

	if (base && s >= base && s < base + g->syms.len)
		return &e->v[s - base];
	e->scratch.name = NULL;
	return &e->scratch;
}

static const struct arc_end *arc_end(const struct gprof *g, struct report *r,
                                     struct arc_ends *e, const struct sym *s)
{
	struct arc_end *x = arc_end_slot(g, e, s);

	if (!x->name) {
		x->name = display_name(g, r, s);
		x->index = s->index;
		x->cycle = s->cycle_num;
		x->cycle_calls = s->cyc_head->ncalls;
	}
	return x;
}

/* A caller or callee line.  `internal`: a call to itself or within its
   cycle, for which the text shows the count alone (no time is
   propagated along it). */
static void print_arc(const struct gprof *g, struct jw *w,
                      const struct arc *a, const struct arc_end *other,
                      bool internal, uint64_t total)
{
	jw_open(w, '{', true);
	kstr(w, "name", other->name);
	kint(w, "index", other->index);
	if (other->cycle != 0)
		kint(w, "cycle", other->cycle);
	else
		knull(w, "cycle");
	kbool(w, "internal", internal);
	kuint(w, "count", a->count);
	if (internal) {
		knull(w, "total_count");
		knull(w, "self_seconds");
		knull(w, "children_seconds");
	} else {
		kuint(w, "total_count", total);
		knum(w, "self_seconds", a->time / g->hz);
		knum(w, "children_seconds", a->child_time / g->hz);
	}
	jw_close(w, '}');
}

/* Lists are short (ten lines or so), too short for asking ahead within
   one: the entries to come are prepared in stages, one entry apart, as
   in the text's call graph (cg_print.c).  Stage 3: the entry's symbol;
   2: its two ranked lists; 1: their arcs (at most PREP_MAX a list); 0:
   the records of the functions at their other ends.  Within a list, a
   line asks for the name two lines ahead. */
#define PREP_MAX 32

static void prepare_list(const struct gprof *g, struct arc_ends *e,
                         struct arc *const *ap, bool parents, int stage)
{
	if (!ap)
		return;
	if (stage == 2) {
		__builtin_prefetch(ap);
		__builtin_prefetch(ap + 8);
		return;
	}
	for (size_t k = 0; k < PREP_MAX && ap[k]; k++) {
		const struct arc *a = ap[k];
		if (stage == 1)
			__builtin_prefetch(a);
		else
			__builtin_prefetch(arc_end_slot(g, e, parents ? a->parent
			                                              : a->child));
	}
}

static void prepare_entry(const struct gprof *g, struct arc_ends *e,
                          size_t i, int stage)
{
	if (i >= g->nentries)
		return;
	const struct sym *s = g->entries[i];

	if (stage == 3) {
		for (size_t at = 0; at < sizeof *s; at += 64)
			__builtin_prefetch((const char *)s + at);
		return;
	}
	prepare_list(g, e, s->by_rank_parents, true, stage);
	prepare_list(g, e, s->by_rank_children, false, stage);
}

static void prefetch_name(const struct gprof *g, struct arc_ends *e,
                          struct arc *const *ap, size_t i, size_t n,
                          bool parents)
{
	if (i + 2 < n) {
		const struct arc *a = ap[i + 2];
		const struct arc_end *x =
			arc_end_slot(g, e, parents ? a->parent : a->child);
		if (x->name)
			__builtin_prefetch(x->name);
	}
}

/* The callers (parents) or callees of s: a caller's count is a share of
   the calls into s's cycle as a whole, a callee's of those into the
   callee's. */
static void print_arcs(const struct gprof *g, struct report *r,
                       struct jw *w, struct arc_ends *e,
                       const struct sym *s, bool parents)
{
	struct arc *const *ap = parents ? s->by_rank_parents
	                                : s->by_rank_children;
	size_t n = 0;

	jw_key(w, parents ? "callers" : "callees");
	jw_open(w, '[', false);
	while (ap && ap[n])
		n++;
	for (size_t i = 0; i < n; i++) {
		prefetch_name(g, e, ap, i, n, parents);
		const struct sym *o = parents ? ap[i]->parent : ap[i]->child;
		const struct arc_end *x = arc_end(g, r, e, o);
		bool internal = o == s ||
		                (x->cycle != 0 && x->cycle == s->cycle_num);
		print_arc(g, w, ap[i], x, internal,
		          parents ? s->cyc_head->ncalls : x->cycle_calls);
	}
	jw_close(w, ']');
}

/* The figures of an entry's own line (and of a cycle member's line). */
static void print_times(const struct gprof *g, struct jw *w,
                        const struct sym *s, bool percent)
{
	if (percent)
		knum(w, "percent", 100 * (s->prop_self + s->prop_child) /
		     g->print_time_base);
	knum(w, "self_seconds", s->prop_self / g->hz);
	knum(w, "children_seconds", s->prop_child / g->hz);
}

static void print_function_entry(const struct gprof *g, struct report *r,
                                 struct jw *w, struct arc_ends *e,
                                 const struct sym *s)
{
	kstr(w, "kind", "function");
	kstr(w, "name", display_name(g, r, s));
	kstr(w, "raw_name", s->name);
	print_place(g, w, s);
	kcycle(w, s);
	print_times(g, w, s, true);
	/* The text leaves "called" blank when there were no calls at all. */
	if (s->ncalls + s->self_calls != 0)
		kuint(w, "called", s->ncalls);
	else
		knull(w, "called");
	kuint(w, "self_calls", s->self_calls);
	kbool(w, "spontaneous", s->parents == NULL);
	print_arcs(g, r, w, e, s, true);
	print_arcs(g, r, w, e, s, false);
}

static void print_cycle_entry(const struct gprof *g, struct report *r,
                              struct jw *w, const struct sym *cyc)
{
	char name[64];

	snprintf(name, sizeof name, "<cycle %d as a whole>", cyc->cycle_num);
	kstr(w, "kind", "cycle");
	kstr(w, "name", name);
	knull(w, "raw_name");
	knull(w, "address");
	kint(w, "cycle", cyc->cycle_num);
	print_times(g, w, cyc, true);
	kuint(w, "called", cyc->ncalls);
	kuint(w, "self_calls", cyc->self_calls);
	jw_key(w, "members");
	jw_open(w, '[', false);
	for (const struct sym *m = cyc->cyc_next; m; m = m->cyc_next) {
		jw_open(w, '{', true);
		kstr(w, "name", display_name(g, r, m));
		kint(w, "index", m->index);
		print_times(g, w, m, false);
		kuint(w, "called", m->ncalls);
		kuint(w, "self_calls", m->self_calls);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void print_entries(const struct gprof *g, struct report *r,
                          struct jw *w)
{
	struct arc_ends e = { xcalloc(g->syms.len + 1, sizeof *e.v), { 0 } };

	jw_key(w, "entries");
	jw_open(w, '[', false);
	for (size_t i = 0; i < g->nentries; i++) {
		const struct sym *s = g->entries[i];
		for (int stage = 3; stage >= 0; stage--)
			prepare_entry(g, &e, i + 1 + (size_t)stage, stage);
		if (!cg_entry_shown(g, s))
			continue;
		jw_open(w, '{', false);
		kint(w, "index", s->index);
		if (!s->name && s->cycle_num != 0)
			print_cycle_entry(g, r, w, s);
		else
			print_function_entry(g, r, w, &e, s);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	free(e.v);
}

/* Every cycle, shown or not, with its members by index. */
static void print_cycles(const struct gprof *g, struct report *r,
                         struct jw *w)
{
	jw_key(w, "cycles");
	jw_open(w, '[', false);
	for (int i = 0; i < g->ncycles; i++) {
		const struct sym *cyc = &g->cycles[i];
		jw_open(w, '{', false);
		kint(w, "number", cyc->cycle_num);
		kint(w, "index", cyc->index);
		jw_key(w, "members");
		jw_open(w, '[', false);
		for (const struct sym *m = cyc->cyc_next; m; m = m->cyc_next) {
			jw_open(w, '{', true);
			kint(w, "index", m->index);
			kstr(w, "name", display_name(g, r, m));
			jw_close(w, '}');
		}
		jw_close(w, ']');
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void print_call_graph(const struct gprof *g, struct report *r,
                             struct jw *w)
{
	jw_key(w, "call_graph");
	if (!g->input_arcs) {
		jw_null(w);
		return;
	}
	jw_open(w, '{', false);
	print_entries(g, r, w);
	print_cycles(g, r, w);
	jw_close(w, '}');
}

static void print_diagnosis(const struct gprof *g, struct jw *w)
{
	static const char *const status[] = {
		[DIAG_OK] = "ok", [DIAG_PROBLEM] = "problem",
		[DIAG_NOT_APPLICABLE] = "not applicable"
	};

	jw_key(w, "diagnosis");
	jw_open(w, '[', false);
	for (int i = 0; i < DIAG_NCHECKS; i++) {
		jw_open(w, '{', true);
		kstr(w, "check", diagnose_name((enum diag_id)i));
		kstr(w, "status", status[g->diag[i].status]);
		kstr(w, "message", g->diag[i].text);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

void json_print(const struct gprof *g, struct report *r)
{
	struct jw w;

	jw_init(&w, r->out);
	jw_open(&w, '{', false);
	kstr(&w, "format", "gproftk-profile");
	kint(&w, "version", 1);
	kstr(&w, "creator", "gproftk " PACKAGE_VERSION);
	kstr(&w, "program", g->opt.image);
	print_profiles(g, &w);
	print_objects(g, &w);
	print_summary(g, &w);
	print_histograms(g, &w);
	print_flat(g, r, &w);
	print_call_graph(g, r, &w);
	print_diagnosis(g, &w);
	jw_close(&w, '}');
}

/* ---- --compare ---- */

static void print_cmp_side(struct jw *w, const char *key,
                           const struct cmp_side *s)
{
	jw_key(w, key);
	if (!s->present) {
		jw_null(w);
		return;
	}
	jw_open(w, '{', true);
	knum(w, "self_seconds", s->self);
	knum(w, "total_seconds", s->total);
	knum(w, "self_seconds_error", s->self_err);
	knum(w, "self_seconds_spread", s->self_spread);
	kuint(w, "calls", s->calls);
	jw_close(w, '}');
}

static void print_cmp_row(struct jw *w, const struct cmp_row *row)
{
	jw_open(w, '{', false);
	kstr(w, "name", row->name);
	print_cmp_side(w, "old", &row->old);
	print_cmp_side(w, "new", &row->new);
	knum(w, "delta_self_seconds", row->d_self);
	knum(w, "delta_total_seconds", row->d_total);
	knum(w, "delta_self_percent", row->d_self_pct);
	kint(w, "delta_calls", row->d_calls);
	knum(w, "delta_self_error", row->err);
	knum(w, "degrees_of_freedom", row->dof);
	knum(w, "p_value", row->p);
	kbool(w, "significant", row->significant);
	jw_close(w, '}');
}

static void print_cmp_input(struct jw *w, const char *key,
                            const struct cmp_input *in)
{
	jw_key(w, key);
	jw_open(w, '{', false);
	kstr(w, "program", in->image);
	kstr(w, "profile", in->nruns ? in->profiles[0] : NULL);
	jw_key(w, "profiles");
	jw_open(w, '[', true);
	for (size_t r = 0; r < in->nruns; r++)
		jw_str(w, in->profiles[r]);
	jw_close(w, ']');
	kuint(w, "runs", in->nruns);
	knum(w, "samples", in->samples);
	knum(w, "total_seconds", in->total);
	knum(w, "total_seconds_error", in->total_err);
	knum(w, "total_seconds_spread", in->total_spread);
	jw_close(w, '}');
}

void compare_print_json(const struct comparison *c, FILE *out)
{
	struct jw w;

	jw_init(&w, out);
	jw_open(&w, '{', false);
	kstr(&w, "format", "gproftk-comparison");
	kint(&w, "version", 2);
	kstr(&w, "creator", "gproftk " PACKAGE_VERSION);
	print_cmp_input(&w, "old", &c->old);
	print_cmp_input(&w, "new", &c->new);
	knum(&w, "delta_total_seconds", c->d_total);
	knum(&w, "delta_total_percent", c->d_total_pct);
	knum(&w, "delta_total_error", c->d_total_err);
	knum(&w, "total_degrees_of_freedom", c->total_dof);
	knum(&w, "total_p_value", c->total_p);
	kbool(&w, "total_significant", c->total_significant);
	knum(&w, "significance_level", c->alpha);
	kbool(&w, "run_variation_included", c->run_variation);
	kstr(&w, "note", c->note);
	kuint(&w, "significant_rows", c->nsignificant);
	jw_key(&w, "rows");
	jw_open(&w, '[', false);
	for (size_t i = 0; i < c->nrows; i++)
		print_cmp_row(&w, &c->rows[i]);
	jw_close(&w, ']');
	jw_close(&w, '}');
}
