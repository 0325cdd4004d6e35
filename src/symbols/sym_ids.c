/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sym_ids.c - symspecs: the option arguments that include or exclude
 * symbols (funcname, file.c, file.c:func, file.c:LINE, :func.with.dots,
 * FROM/TO for arcs), resolved into the include/exclude tables that every
 * report consults.
 *
 * The tables are built the way GNU builds them, because their shape shows
 * in the output: each table holds, per spec, the runs of adjacent symbols
 * the spec matches; runs of several specs that start at the same symbol
 * collapse into the one from the spec given last; and a symbol belongs to
 * a table if the run starting closest below it reaches it.  An arc table
 * also remembers, for each run, the runs the spec's TO part matched.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <bfd.h>

#include "symbols/symbols.h"

/* The profiling machinery never appears in reports. */
static const char *const default_excluded[] = {
	"_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal",
	"__mcleanup", NULL
};

/*
 * The profiling hook: the functions every profiled call runs through to
 * be counted.  This is the tool's one list of them (the totals, the
 * diagnosis and every format ask sym_is_hook()).  It is the mcount family
 * (GNU's, glibc's, libgmon's stubs; __gnu_mcount_nc on ARM) plus the C
 * recorder, and every other function on libgmon's call-counting path is named with the prefix
 * below, so that a function added to that path is recognised by its
 * name (tests/libgmon/hooknames.sh checks libgmon's objects against this
 * rule).  A compiler clone (__mcount_internal.part.0) is its function's.
 */
static const char *const hook_names[] = {
	"mcount", "_mcount", "__mcount", "_gprof_mcount", "__fentry__",
	"__mcount_internal", "__gnu_mcount_nc", NULL
};
static const char HOOK_PREFIX[] = "__gmon_";

bool sym_name_is_hook(const char *name)
{
	/* (glibc's start files' __gmon_start__ starts the profiler: it is
	   no part of the hook, and runs once) */
	if (strncmp(name, HOOK_PREFIX, sizeof HOOK_PREFIX - 1) == 0)
		return strcmp(name, "__gmon_start__") != 0;
	size_t len = strcspn(name, ".@");    /* a clone's or version's suffix */
	for (const char *const *n = hook_names; *n; n++)
		if (strlen(*n) == len && strncmp(name, *n, len) == 0)
			return true;
	return false;
}

bool sym_is_hook(const struct gprof *g, const struct sym *s)
{
	const char *name = s->name;

	if (g->leading_char && name[0] == g->leading_char)
		name++;
	return sym_name_is_hook(name);
}

/* Does the executable call a hook it does not define?  glibc's -pg
   runtime keeps mcount in libc.so, outside the histogram, whose samples
   there are lost: the hook's time is then not measured at all. */
bool sym_hook_elsewhere(const struct gprof *g)
{
	asymbol **syms = (asymbol **)g->bfd_syms;
	bool called = false;

	for (size_t i = 0; i < exe_syms_len(g); i++)
		if (sym_is_hook(g, &g->syms.base[i]))
			return false;
	for (long i = 0; syms && i < g->nbfd_syms && !called; i++) {
		const char *name = bfd_asymbol_name(syms[i]);
		if (g->leading_char && name[0] == g->leading_char)
			name++;
		called = syms[i]->section &&
		         bfd_is_und_section(syms[i]->section) &&
		         sym_name_is_hook(name);
	}
	return called;
}

void sym_ids_add(struct gprof *g, enum spec_table t, const char *text)
{
	struct options *o = &g->opt;
	o->specs = xrealloc(o->specs, (o->nspecs + 1) * sizeof *o->specs);
	o->specs[o->nspecs].table = t;
	o->specs[o->nspecs].text = xstrdup(text);
	o->nspecs++;
}

void sym_ids_add_defaults(struct gprof *g)
{
	static const enum spec_table tabs[] = { EXCL_TIME, EXCL_GRAPH, EXCL_FLAT };
	for (const char *const *n = default_excluded; *n; n++)
		for (size_t i = 0; i < 3; i++)
			sym_ids_add(g, tabs[i], *n);
}

/* One spec without a slash.  The last colon separates a file from a line
   or function; without a colon, a dot means a file name and a leading
   digit a line number. */
static void parse_one(const char *text, struct symspec *sp)
{
	const char *colon = strrchr(text, ':');
	memset(sp, 0, sizeof *sp);
	if (colon) {
		if (colon > text) {
			sp->file = strndup(text, (size_t)(colon - text));
			sp->file_given = true;
		}
		const char *rest = colon + 1;
		if (isdigit((unsigned char)*rest))
			sp->line = atoi(rest);
		else if (*rest)
			sp->func = xstrdup(rest);
	} else if (strchr(text, '.')) {
		sp->file = xstrdup(text);
		sp->file_given = true;
	} else if (isdigit((unsigned char)*text)) {
		sp->line = atoi(text);
	} else {
		sp->func = xstrdup(text);
	}
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* A file name in a spec stands for the first source file (newest first,
   as GNU's list runs) with that base name; NULL if there is none, and
   then the spec matches nothing. */
static const struct source_file *spec_file(struct gprof *g, const char *name)
{
	for (const struct source_file *f = g->files; f; f = f->next)
		if (strcmp(basename_of(f->name), name) == 0)
			return f;
	return NULL;
}

struct resolved {               /* a symspec with its file looked up */
	const struct symspec *sp;
	const struct source_file *file;
	uint64_t func_hash;          /* name_hash(sp->func), if any */
};

/* Every symbol is offered to every spec, and GNU's default specs alone
   are a few dozen: comparing hashes first spares most of the string
   comparisons (FNV-1a). */
static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static struct resolved resolve_spec(struct gprof *g, const struct symspec *sp)
{
	return (struct resolved){ sp, sp->file ? spec_file(g, sp->file) : NULL,
	                          sp->func ? name_hash(sp->func) : 0 };
}

/* The name specs are matched against: without the target's leading
   character. */
static const char *spec_name(const struct gprof *g, const struct sym *s)
{
	const char *name = s->name;

	if (g->leading_char && name[0] == g->leading_char)
		name++;
	return name;
}

/* `hash` is name_hash(spec_name(g, s)). */
static bool spec_match(struct gprof *g, const struct resolved *r,
                       struct sym *s, uint64_t hash)
{
	const struct symspec *sp = r->sp;
	if (sp->func && hash != r->func_hash)
		return false;
	if (sp->file_given || sp->line != 0)
		sym_lookup_file(g, s);
	if (sp->file_given && (!r->file || s->file != r->file))
		return false;
	if (sp->line != 0 && s->line != sp->line)
		return false;
	return !sp->func || strcmp(spec_name(g, s), sp->func) == 0;
}

static size_t range_push(struct spec_range **v, size_t *n, const struct sym *s,
                         size_t owner)
{
	if ((*n & (*n - 1)) == 0)        /* grow at powers of two */
		*v = xrealloc(*v, (*n ? *n * 2 : 1) * sizeof **v);
	(*v)[*n] = (struct spec_range){ s->addr, s->end_addr, owner };
	return (*n)++;
}

/* Adds symbol i to the spec's current run in `v`, or starts a run. */
static void extend(struct spec_range **v, size_t *n, size_t *at, size_t *entry,
                   const struct sym *s, size_t i, size_t owner)
{
	if (*at != 0 && *at == i)
		(*v)[*entry].end_addr = s->end_addr;
	else
		*entry = range_push(v, n, s, owner);
	*at = i + 1;
}

static void parse_specs(struct gprof *g)
{
	const struct options *o = &g->opt;
	g->spec_list = xcalloc(o->nspecs + 1, sizeof *g->spec_list);
	for (size_t i = o->nspecs; i-- > 0;) {
		struct parsed_spec *ps = &g->spec_list[g->nspec_list++];
		const char *text = o->specs[i].text, *slash = strchr(text, '/');
		char *left = slash ? strndup(text, (size_t)(slash - text))
		                   : xstrdup(text);
		ps->table = o->specs[i].table;
		parse_one(left, &ps->left);
		if (slash) {
			ps->has_right = true;
			parse_one(slash + 1, &ps->right);
		}
		debug_printf(g, DBG_IDS, "[sym_ids] table %d spec `%s'\n",
		             ps->table, text);
		free(left);
	}
}

static bool any_file_spec(const struct gprof *g)
{
	for (size_t k = 0; k < g->nspec_list; k++) {
		const struct parsed_spec *ps = &g->spec_list[k];
		if (ps->left.file_given || (ps->has_right && ps->right.file_given))
			return true;
	}
	return false;
}

/* One bit per function name the specs give, by its hash: a symbol whose
   hash has no bit set matches none of them.  0 when some spec names no
   function (a file or a line), which any symbol may match. */
static uint64_t func_filter(const struct parsed_spec *list, size_t n,
                            const struct resolved *lr,
                            const struct resolved *rr)
{
	uint64_t bits = 0;

	for (size_t k = 0; k < n; k++) {
		if (!lr[k].sp->func ||
		    (list[k].has_right && !rr[k].sp->func))
			return 0;
		bits |= UINT64_C(1) << (lr[k].func_hash % 64);
		if (list[k].has_right)
			bits |= UINT64_C(1) << (rr[k].func_hash % 64);
	}
	return bits;
}

/* Walks the symbols once, in address order, offering each to every spec
   (in reverse command-line order, as GNU's list runs).  With only the
   default specs (a few names) and 100,000 symbols, the filter spares
   nearly every symbol the walk over the specs. */
static void collect_runs(struct gprof *g)
{
	size_t n = g->nspec_list;
	struct resolved *lr = xcalloc(n + 1, sizeof *lr);
	struct resolved *rr = xcalloc(n + 1, sizeof *rr);
	for (size_t k = 0; k < n; k++) {
		struct parsed_spec *ps = &g->spec_list[k];
		lr[k] = resolve_spec(g, &ps->left);
		rr[k] = resolve_spec(g, &ps->right);
	}
	uint64_t filter = func_filter(g->spec_list, n, lr, rr);

	for (size_t i = 0; i < g->syms.len && n > 0; i++) {
		struct sym *s = &g->syms.base[i];
		uint64_t h = name_hash(spec_name(g, s));

		if (filter && !((filter >> (h % 64)) & 1))
			continue;

		for (size_t k = 0; k < n; k++) {
			struct parsed_spec *ps = &g->spec_list[k];
			struct spec_table_ranges *t = &g->tables[ps->table];
			if (spec_match(g, &lr[k], s, h)) {
				debug_printf(g, DBG_IDS, "[sym_ids] %s matches "
				             "table %d spec %zu\n", s->name,
				             ps->table, k);
				extend(&t->v, &t->n, &ps->left_at, &ps->left_entry,
				       s, i, k);
			}
			if (ps->has_right && spec_match(g, &rr[k], s, h))
				extend(&ps->rights, &ps->nrights, &ps->right_at,
				       &ps->right_entry, s, i, k);
		}
	}
	free(lr);
	free(rr);
}

static int cmp_range(const void *a, const void *b, void *ctx)
{
	vma_t x = ((const struct spec_range *)a)->addr;
	vma_t y = ((const struct spec_range *)b)->addr;
	(void)ctx;
	return x < y ? -1 : x > y;
}

/* Address order; of several runs starting at one address, the first
   (from the spec given last) is kept. */
static void finish_table(struct spec_table_ranges *t)
{
	stable_sort(t->v, t->n, sizeof *t->v, cmp_range, NULL);
	size_t kept = 0;
	for (size_t i = 0; i < t->n; i++)
		if (kept == 0 || t->v[i].addr != t->v[kept - 1].addr)
			t->v[kept++] = t->v[i];
	t->n = kept;
}

/* The run starting closest below `addr`, if it reaches `addr`. */
static const struct spec_range *table_lookup(const struct spec_table_ranges *t,
                                             vma_t addr)
{
	size_t lo = 0, hi = t->n;
	if (hi == 0 || addr < t->v[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return addr <= t->v[lo].end_addr ? &t->v[lo] : NULL;
}

void sym_ids_resolve(struct gprof *g)
{
	parse_specs(g);
	if (any_file_spec(g))
		core_intern_files(g);
	collect_runs(g);
}

void sym_ids_finish(struct gprof *g)
{
	for (int t = 0; t < NUM_TABLES; t++) {
		finish_table(&g->tables[t]);
		g->table_count[t] = g->tables[t].n;
	}
	for (size_t i = 0; i < g->syms.len; i++) {
		struct sym *s = &g->syms.base[i];
		for (int t = 0; t < NUM_TABLES; t++)
			if (table_lookup(&g->tables[t], s->addr))
				s->spec |= (uint16_t)(1u << t);
	}
	/* A merged clone is selected as its origin is (-p foo: foo.part.0's
	   samples are foo's). */
	for (size_t i = 0; i < g->syms.len; i++) {
		struct sym *s = &g->syms.base[i];
		if (s->origin)
			s->spec = s->origin->spec;
	}
}

bool sym_in(const struct gprof *g, const struct sym *s, enum spec_table t)
{
	(void)g;
	return (s->spec >> t) & 1u;
}

/* `incl` is an INCL_* table; the EXCL_* table follows it.  An include
   table that matched nothing places no restriction. */
bool sym_selected(const struct gprof *g, const struct sym *s,
                  enum spec_table incl)
{
	if (sym_in(g, s, incl))
		return true;
	return g->table_count[incl] == 0 && !sym_in(g, s, incl + 1);
}

/* Is there a run in table t holding the parent whose spec's TO side holds
   the child?  Every run is tried, as GNU does (tables are tiny). */
static bool arc_in(const struct gprof *g, enum spec_table t,
                   const struct sym *parent, const struct sym *child)
{
	const struct spec_table_ranges *tab = &g->tables[t];
	for (size_t i = 0; i < tab->n; i++) {
		const struct spec_range *r = &tab->v[i];
		if (parent->addr < r->addr || parent->addr > r->end_addr)
			continue;
		const struct parsed_spec *ps = &g->spec_list[r->owner];
		for (size_t k = 0; k < ps->nrights; k++)
			if (child->addr >= ps->rights[k].addr &&
			    child->addr <= ps->rights[k].end_addr)
				return true;
	}
	return false;
}

bool arc_selected(const struct gprof *g, const struct sym *parent,
                  const struct sym *child)
{
	/* Asked once per arc record: most runs name no arcs at all. */
	if (g->tables[INCL_ARCS].n == 0 && g->tables[EXCL_ARCS].n == 0)
		return g->table_count[INCL_ARCS] == 0;
	if (arc_in(g, INCL_ARCS, parent, child))
		return true;
	return g->table_count[INCL_ARCS] == 0 &&
	       !arc_in(g, EXCL_ARCS, parent, child);
}
