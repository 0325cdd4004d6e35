/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sym_ids.c - symspecs: the option arguments that include or exclude
 * symbols (funcname, file.c, file.c:func, file.c:LINE, :func.with.dots,
 * FROM/TO for arcs), parsed and resolved into the include/exclude tables
 * that every report consults.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "gprof.h"

/* The profiling machinery never appears in reports. */
static const char *const default_excluded[] = {
	"_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal",
	"__mcleanup", NULL
};

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

static bool spec_needs_file(const struct symspec *sp)
{
	return sp->file_given || sp->line != 0;
}

static bool spec_match(struct gprof *g, const struct symspec *sp, struct sym *s)
{
	if (spec_needs_file(sp))
		sym_lookup_file(g, s);
	if (sp->file_given &&
	    (!s->file || strcmp(basename_of(s->file->name), sp->file) != 0))
		return false;
	if (sp->line != 0 && s->line != sp->line)
		return false;
	if (sp->func) {
		const char *name = s->name;
		if (g->leading_char && name[0] == g->leading_char)
			name++;
		if (strcmp(name, sp->func) != 0)
			return false;
	}
	return true;
}

static void add_arc_spec(struct gprof *g, enum spec_table t, const char *left,
                         const char *right)
{
	g->arc_specs = xrealloc(g->arc_specs,
	                        (g->narc_specs + 1) * sizeof *g->arc_specs);
	struct arc_spec *as = &g->arc_specs[g->narc_specs++];
	as->table = t;
	parse_one(left, &as->from);
	parse_one(right, &as->to);
}

static void mark_table(struct gprof *g, const struct symspec *sp,
                       enum spec_table t)
{
	for (size_t i = 0; i < g->syms.len; i++) {
		struct sym *s = &g->syms.base[i];
		if (!(s->spec & (1u << t)) && spec_match(g, sp, s)) {
			s->spec |= (uint16_t)(1u << t);
			g->table_count[t]++;
		}
	}
}

/* Count the symbols an arc spec's FROM side matches: an include table of
   arcs is "empty" (no restriction) only when no FROM matched anything. */
static void count_arc_from(struct gprof *g, const struct arc_spec *as)
{
	for (size_t i = 0; i < g->syms.len; i++)
		if (spec_match(g, &as->from, &g->syms.base[i]))
			g->table_count[as->table]++;
}

/* A stand-in for a run of adjacent matching symbols, as GNU's symspec
   tables hold them: it carries the first symbol's name and no graph. */
static struct sym *range_copy(const struct sym *first, const struct sym *last)
{
	struct sym *c = xcalloc(1, sizeof *c);
	c->name = first->name;
	c->addr = first->addr;
	c->end_addr = last->end_addr;
	c->file = first->file;
	c->line = first->line;
	c->file_known = true;
	c->is_func = first->is_func;
	c->is_static = first->is_static;
	return c;
}

static size_t spec_ranges(struct gprof *g, const struct symspec *sp,
                          struct sym ***out)
{
	size_t n = 0;
	struct sym **v = NULL;
	for (size_t i = 0; i < g->syms.len; i++) {
		if (!spec_match(g, sp, &g->syms.base[i]))
			continue;
		size_t j = i;
		while (j + 1 < g->syms.len && spec_match(g, sp, &g->syms.base[j + 1]))
			j++;
		v = xrealloc(v, (n + 1) * sizeof *v);
		v[n++] = range_copy(&g->syms.base[i], &g->syms.base[j]);
		i = j;
	}
	*out = v;
	return n;
}

/*
 * GNU joins the two sides of every FROM/TO spec, whatever option gave it,
 * with a 0-count arc between its table entries.  Those arcs touch no real
 * symbol, but they enter the list of arcs that -r and -R order, first and
 * in reverse command-line order, so they are made here the same way.
 */
static void add_spec_arcs(struct gprof *g)
{
	const struct options *o = &g->opt;
	for (size_t i = o->nspecs; i-- > 0;) {
		const char *text = o->specs[i].text, *slash = strchr(text, '/');
		if (!slash)
			continue;
		char *left = strndup(text, (size_t)(slash - text));
		struct symspec from, to;
		parse_one(left, &from);
		parse_one(slash + 1, &to);
		struct sym **lv, **rv;
		size_t nl = spec_ranges(g, &from, &lv), nr = spec_ranges(g, &to, &rv);
		for (size_t a = 0; a < nl; a++)
			for (size_t b = 0; b < nr; b++)
				arc_add(g, lv[a], rv[b], 0);
		free(lv);
		free(rv);
		free(left);
	}
}

void sym_ids_resolve(struct gprof *g)
{
	const struct options *o = &g->opt;
	for (size_t i = 0; i < o->nspecs; i++) {
		const char *text = o->specs[i].text;
		enum spec_table t = o->specs[i].table;
		const char *slash = strchr(text, '/');
		char *left = slash ? strndup(text, (size_t)(slash - text))
		                   : xstrdup(text);
		if (slash && (t == INCL_ARCS || t == EXCL_ARCS)) {
			add_arc_spec(g, t, left, slash + 1);
			count_arc_from(g, &g->arc_specs[g->narc_specs - 1]);
		} else if (t != INCL_ARCS && t != EXCL_ARCS) {
			struct symspec sp;
			parse_one(left, &sp);
			mark_table(g, &sp, t);
			free(sp.file);
			free(sp.func);
		}
		debug_printf(g, DBG_IDS, "[sym_ids] table %d spec `%s'\n", t, text);
		free(left);
	}
	add_spec_arcs(g);
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

static bool arc_in(const struct gprof *g, enum spec_table t,
                   const struct sym *parent, const struct sym *child)
{
	struct gprof *mg = (struct gprof *)g;
	for (size_t i = 0; i < g->narc_specs; i++) {
		const struct arc_spec *as = &g->arc_specs[i];
		if (as->table == t &&
		    spec_match(mg, &as->from, (struct sym *)parent) &&
		    spec_match(mg, &as->to, (struct sym *)child))
			return true;
	}
	return false;
}

bool arc_selected(const struct gprof *g, const struct sym *parent,
                  const struct sym *child)
{
	if (g->narc_specs == 0)
		return true;
	if (arc_in(g, INCL_ARCS, parent, child))
		return true;
	return g->table_count[INCL_ARCS] == 0 &&
	       !arc_in(g, EXCL_ARCS, parent, child);
}
