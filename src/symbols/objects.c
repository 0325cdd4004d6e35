/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * objects.c - owns the object files the symbols live in (g->objects):
 * the executable, entered when it is opened, and each shared library
 * whose symbols reading/shlibs.c placed in the model.  A library with
 * debug information keeps its BFD open here, so that its functions get
 * their source file and line as the executable's do (core_sym_line()
 * asks object_find_line()), and with -l their line symbols.  Reports
 * name a function's object through sym_object() (model/model.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bfd.h>

#include "symbols/symbols.h"

static struct object_info *objects_grow(struct gprof *g)
{
	g->objects = xrealloc(g->objects, (g->nobjects + 1) * sizeof *g->objects);
	struct object_info *o = &g->objects[g->nobjects++];
	*o = (struct object_info){ 0 };
	return o;
}

static void set_build_id(struct object_info *o, const unsigned char *id,
                         size_t n)
{
	if (!id || n == 0)
		return;
	o->build_id = xmalloc(n);
	memcpy(o->build_id, id, n);
	o->build_id_len = n;
}

/* The executable, objects[0]: its path as named to gprof and the
   build-id BFD found in its notes, if any. */
void objects_add_exe(struct gprof *g)
{
	const bfd *abfd = g->abfd;
	struct object_info *o = objects_grow(g);
	o->path = xstrdup(g->opt.image ? g->opt.image : "");
	if (abfd && abfd->build_id)
		set_build_id(o, abfd->build_id->data, abfd->build_id->size);
	o->hi = (vma_t)-1;
}

static asymbol **read_syms(bfd *abfd);

/* DEBUG_ROOT/.build-id/xx/rest.debug for build-id id[0 .. n), where
   DEBUG_ROOT is $GPROF_DEBUG_DIR or /usr/lib/debug; NULL without a
   build-id. */
char *objects_debug_path(const unsigned char *id, size_t n)
{
	const char *root = getenv("GPROF_DEBUG_DIR");
	if (!root || !*root)
		root = "/usr/lib/debug";
	if (n < 2)
		return NULL;
	size_t len = strlen(root) + 2 * n + 32;
	char *p = xmalloc(len);
	int k = snprintf(p, len, "%s/.build-id/%02x/", root, id[0]);
	for (size_t i = 1; i < n; i++)
		k += snprintf(p + k, len - (size_t)k, "%02x", id[i]);
	snprintf(p + k, len - (size_t)k, ".debug");
	return p;
}

/* The executable's debug file found by its build-id, opened, when it
   has the same build-id (a stale debug file names other addresses);
   NULL otherwise. */
void *objects_exe_debug_file(const struct gprof *g)
{
	const struct object_info *o = &g->objects[0];
	char *path = objects_debug_path(o->build_id, o->build_id_len);
	bfd *abfd = path ? bfd_openr(path, NULL) : NULL;
	free(path);
	if (abfd && (!bfd_check_format(abfd, bfd_object) || !abfd->build_id ||
	             abfd->build_id->size != o->build_id_len ||
	             memcmp(abfd->build_id->data, o->build_id,
	                    o->build_id_len) != 0)) {
		bfd_close(abfd);
		abfd = NULL;
	}
	return abfd;
}

/* The executable's symbols come from its debug file `abfd`, which is
   kept open here: the names point into it, and its lines answer for
   the executable's (core_sym_line()). */
void objects_keep_exe_debug_file(struct gprof *g, void *abfd)
{
	struct object_info *o = &g->objects[0];
	o->abfd = abfd;
	o->bfd_syms = (void **)read_syms(abfd);
}

/* The regular symbol table (for BFD's function fallback), NULL-ended;
   an empty one when the file has none. */
static asymbol **read_syms(bfd *abfd)
{
	long size = bfd_get_symtab_upper_bound(abfd);
	asymbol **syms = xmalloc(size > 0 ? (size_t)size : sizeof *syms);
	long n = size > 0 ? bfd_canonicalize_symtab(abfd, syms) : 0;
	syms[n > 0 ? n : 0] = NULL;
	return syms;
}

/* Has a library debug information BFD will read: DWARF of its own (a
   build-id debug file's included), or a .gnu_debuglink to a file BFD
   finds.  A stripped system library (libc.so.6) links to a debug file
   that is seldom installed: it is not kept open for nothing, and the
   reports do not claim lines for it. */
static bool lib_has_lines(bfd *abfd)
{
	static const char *const prefixes[] = {
		".debug_info", ".zdebug_info", ".debug_line", ".zdebug_line",
		".stab", NULL
	};
	for (asection *s = abfd->sections; s; s = s->next)
		for (const char *const *p = prefixes; *p; p++)
			if (strncmp(s->name, *p, strlen(*p)) == 0 &&
			    (bfd_section_flags(s) & SEC_HAS_CONTENTS))
				return true;
	if (!bfd_get_section_by_name(abfd, ".gnu_debuglink"))
		return false;
	char *dbg = bfd_follow_gnu_debuglink(abfd, "/usr/lib/debug");
	free(dbg);
	return dbg != NULL;
}

/* A library placed at [lo, hi] (model addresses), delta above its
   link-time ones.  Its BFD is kept (and true returned) when it has debug
   information to look lines up in; the caller closes it otherwise. */
bool objects_add_lib(struct gprof *g, const char *path,
                     const unsigned char *build_id, size_t build_id_len,
                     vma_t lo, vma_t hi, vma_t delta, void *abfd)
{
	struct object_info *o = objects_grow(g);
	o->path = xstrdup(path);
	set_build_id(o, build_id, build_id_len);
	o->lo = lo;
	o->hi = hi;
	o->delta = delta;
	if (!abfd || !lib_has_lines(abfd))
		return false;
	o->abfd = abfd;
	o->bfd_syms = (void **)read_syms(abfd);
	return true;
}

/* The code section of o's file holding link-time address a. */
static asection *section_of(bfd *abfd, vma_t a)
{
	for (asection *s = abfd->sections; s; s = s->next) {
		vma_t v = bfd_section_vma(s);
		if ((bfd_section_flags(s) & SEC_CODE) && a >= v &&
		    a - v < bfd_section_size(s))
			return s;
	}
	return NULL;
}

/* File, function and line of model address addr in library o, as
   core_find_line() answers for the executable. */
bool object_find_line(const struct object_info *o, vma_t addr,
                      const char **file, const char **func, unsigned *line)
{
	*file = *func = NULL;
	*line = 0;
	if (!o->abfd)
		return false;
	vma_t a = addr - o->delta;
	asection *sec = section_of(o->abfd, a);
	if (!sec)
		return false;
	return bfd_find_nearest_line((bfd *)o->abfd, sec,
	                             (asymbol **)o->bfd_syms,
	                             a - bfd_section_vma(sec), file, func, line);
}

/* ---- -l: a library's line symbols ---- */

struct place {
	const char *file, *func;
	unsigned line;
};

static bool place_at(const struct object_info *o, vma_t a, struct place *p)
{
	return object_find_line(o, a, &p->file, &p->func, &p->line) &&
	       p->file && p->func && p->line != 0;
}

static bool same_place(const struct place *a, const struct place *b)
{
	return a->line == b->line && strcmp(a->file, b->file) == 0 &&
	       strcmp(a->func, b->func) == 0;
}

struct line_start {
	vma_t addr;
	struct place p;
};

/* Where the answer changes inside one function [lo, hi]: every address
   is asked (a library's -l is an extension: no GNU count to match), and
   asked again where the answer is new, since BFD's first answer inside
   a unit may be a colder one (line_syms.c says more). */
static size_t scan_function(const struct object_info *o, vma_t lo, vma_t hi,
                            struct line_start **v, size_t *cap)
{
	size_t n = 0;
	struct place prev = { 0 }, p;
	bool have = false;
	for (vma_t a = lo; a <= hi && a >= lo; a++) {
		if (!place_at(o, a, &p) || (have && same_place(&prev, &p)))
			continue;
		if (!place_at(o, a, &p) || (have && same_place(&prev, &p)))
			continue;
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			*v = xrealloc(*v, *cap * sizeof **v);
		}
		(*v)[n].addr = a;
		(*v)[n++].p = p;
		prev = p;
		have = true;
	}
	return n;
}

/* Does sorted addrs[0 .. n) hold an address in [lo, hi]? */
static bool any_in(const vma_t *addrs, size_t n, vma_t lo, vma_t hi)
{
	size_t a = 0, b = n;
	while (a < b) {              /* the first at or above lo */
		size_t mid = a + (b - a) / 2;
		if (addrs[mid] < lo)
			a = mid + 1;
		else
			b = mid;
	}
	return a < n && addrs[a] <= hi;
}

/* -l: the line symbols of library k, whose function symbols are
   g->syms.base[from ..] (not yet finished), for the functions holding
   one of the link-time addresses addrs[0 .. n) (sorted).  Each runs to
   the next one or to its function's end; a line symbol at a function's
   first address gives way to the function symbol, as the executable's
   do. */
void objects_line_syms(struct gprof *g, size_t k, size_t from,
                       const vma_t *addrs, size_t naddrs)
{
	const struct object_info *o = &g->objects[k];
	size_t nfuncs = g->syms.len, cap = 0;
	struct line_start *v = NULL;
	if (!o->abfd)
		return;
	for (size_t i = from; i < nfuncs; i++) {
		vma_t lo = g->syms.base[i].addr, hi = g->syms.base[i].end_addr;
		bool is_static = g->syms.base[i].is_static;
		if (!any_in(addrs, naddrs, lo - o->delta, hi - o->delta))
			continue;
		size_t n = scan_function(o, lo, hi, &v, &cap);
		symtab_reserve(&g->syms, g->syms.len + n);
		for (size_t j = 0; j < n; j++) {
			struct sym *s = symtab_add(&g->syms);
			s->name = str_intern(g, v[j].p.func);
			s->file = source_file_intern(g, v[j].p.file);
			s->line = (int)v[j].p.line;
			s->file_known = true;
			s->addr = v[j].addr;
			s->end_addr = j + 1 < n ? v[j + 1].addr - 1 : hi;
			s->is_static = is_static;
			s->bfd_order = (unsigned)g->syms.len;
		}
	}
	free(v);
}

void objects_free(struct gprof *g)
{
	for (size_t i = 0; i < g->nobjects; i++) {
		struct object_info *o = &g->objects[i];
		free(o->path);
		free(o->build_id);
		free(o->bfd_syms);
		if (o->abfd)
			bfd_close(o->abfd);
	}
	free(g->objects);
	g->objects = NULL;
	g->nobjects = 0;
}
