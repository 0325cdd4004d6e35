/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlibs.c - owns shared libraries in the model: each profile's side file
 * (PROFILE.shlibs, read by shlibs_io.c), the function symbols of the
 * libraries it names (through BFD), their place in the symbol table, and
 * -s's gmon.sum.shlibs.  The time and calls the side files credit to
 * them are analysis/shlib_credit.c's.
 *
 * How libraries enter the model: every library with data gets a
 * synthetic address range above the executable's highest address
 * (LIB_ALIGN-aligned, one after the other, never overlapping), and its
 * function symbols join the symbol table there, after the executable's
 * (g->shlib_first on; g->shlib_base is the first synthetic address).  So
 * every report lists them like the executable's own functions.  Arcs go
 * through the ordinary call-graph tally at those addresses (an end in the
 * executable keeps its real address).  Samples do not go through the
 * histogram: a sample's address names its function exactly, so its ticks
 * are added straight to that symbol's self time, and to g->shlib_ticks,
 * which hist_assign_samples() starts the total time from; the
 * histogram's bins keep crediting the executable's symbols only, as
 * before.  Samples in an object without symbols or between its
 * functions count in the total and go to no symbol, as GNU treats
 * samples outside every symbol.  The kernel's vDSO has no file: its
 * symbols come from gprof's own vDSO when the build-id is the same
 * (vdso.c), else one pseudo-function "[vdso]" takes its samples.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bfd.h>

#include "reading/reading.h"

/* Alignment of, and the least gap between, synthetic ranges. */
#define LIB_ALIGN ((vma_t)1 << 20)


/* One function symbol of a library, before it joins the table. */
struct lib_sym {
	vma_t addr, sec_end;         /* link-time; sec_end: its section's end */
	const char *name;
	bool is_static;
	bool is_weak;
};

/* ---- profiles that are side files ---- */

/* A side file named as a profile (gmon.out.* matching gmon.out.1.shlibs)
   is read beside its owner anyway: drop it; none left means none given. */
static void drop_side_files(struct gprof *g, struct shlibs *sl)
{
	struct options *o = &g->opt;
	const char **kept = xmalloc((o->nprofiles + 1) * sizeof *kept);
	size_t n = 0;
	for (size_t i = 0; i < o->nprofiles; i++)
		if (strcmp(o->profiles[i], "-") == 0 ||
		    !gmsl_has_magic(o->profiles[i]))
			kept[n++] = o->profiles[i];
	if (n == o->nprofiles) {
		free(kept);
		return;
	}
	if (n == 0)
		kept[n++] = "gmon.out";
	o->profiles = kept;
	o->nprofiles = n;
	sl->profiles = kept;
}

/* ---- reading the side files ---- */

static void add_file(struct shlibs *sl, struct gmsl_file *f, char *name)
{
	size_t n = sl->nfiles + 1;
	sl->files = xrealloc(sl->files, n * sizeof *sl->files);
	sl->names = xrealloc(sl->names, n * sizeof *sl->names);
	sl->files[sl->nfiles] = *f;
	sl->names[sl->nfiles] = name;
	sl->nfiles = n;
}

static uint32_t lib_of(struct shlibs *sl, const struct gmsl_object *o)
{
	if (o->id == 0)
		return 0;
	for (size_t k = 1; k < sl->nlibs; k++)
		if (gmsl_same_object(sl->libs[k].o, o))
			return (uint32_t)k;
	sl->libs = xrealloc(sl->libs, (sl->nlibs + 1) * sizeof *sl->libs);
	sl->libs[sl->nlibs] = (struct lib){ .o = o, .state = LIB_SKIPPED };
	return (uint32_t)sl->nlibs++;
}

/* The side file must sample at the profiles' rate (peeked at before they
   are read); when they have no histogram, the first side file with
   samples sets it.  A file that differs is ignored, before its libraries
   are loaded. */
static void check_rates(struct gprof *g, struct shlibs *sl)
{
	double hz = 0;
	for (size_t i = 0; i < g->opt.nprofiles && !sl->rate; i++)
		if (gmon_peek_rate(g, g->opt.profiles[i], &hz))
			sl->rate = hz;
	for (size_t i = 0; i < sl->nfiles; i++) {
		const struct gmsl_file *f = &sl->files[i];
		if (!sl->rate && f->nsamples)
			sl->rate = f->rate;
		if (!sl->rate || sl->rate == (double)f->rate)
			continue;
		warnx_g(g, "%s: sampling rate %u Hz differs from the profile's "
		        "%g Hz; side file ignored", sl->names[i], f->rate,
		        sl->rate);
		sl->skipped[i] = true;
	}
}

/* --per-thread: the index in f->threads of the thread a thread context
   profiles (matched by id and name, as gmsl_merge() matches threads of
   several runs), or f->nthreads when f has none such. */
size_t shlibs_thread_of(const struct gprof *g, const struct gmsl_file *f)
{
	size_t t = 0;
	for (; t < f->nthreads; t++)
		if (f->threads[t].id == g->thread_id &&
		    strcmp(f->threads[t].name, g->thread_name) == 0)
			break;
	return t;
}

/* A thread context's libraries are those its own records name: count
   them as data, so that a library only this thread's TSAMPLES or TARCS
   name still gets its symbols. */
static void count_thread_data(const struct gprof *g, struct shlibs *sl,
                              size_t i)
{
	const struct gmsl_file *f = &sl->files[i];
	const uint32_t *m = sl->map[i];
	size_t t = shlibs_thread_of(g, f);
	for (size_t k = 0; k < f->ntsamples; k++)
		if (f->tsamples[k].thread == t)
			sl->libs[m[f->tsamples[k].s.obj]].nsamples +=
				f->tsamples[k].s.count;
	for (size_t k = 0; k < f->ntarcs; k++) {
		const struct gmsl_arc *a = &f->tarcs[k].a;
		if (f->tarcs[k].thread != t)
			continue;
		sl->libs[m[a->from_obj]].narcs++;
		if (a->to_obj != a->from_obj)
			sl->libs[m[a->to_obj]].narcs++;
	}
}

/* Numbers every file's objects as libs, and counts each lib's data. */
static void map_objects(const struct gprof *g, struct shlibs *sl)
{
	sl->libs = xcalloc(1, sizeof *sl->libs);
	sl->nlibs = 1;
	sl->map = xcalloc(sl->nfiles, sizeof *sl->map);
	for (size_t i = 0; i < sl->nfiles; i++) {
		const struct gmsl_file *f = &sl->files[i];
		uint32_t *m = sl->map[i] = xmalloc((f->nobjs + 1) * sizeof *m);
		if (sl->skipped[i])
			continue;
		for (size_t k = 0; k < f->nobjs; k++)
			m[k] = lib_of(sl, &f->objs[k]);
		for (size_t k = 0; k < f->nsamples; k++)
			sl->libs[m[f->samples[k].obj]].nsamples += f->samples[k].count;
		for (size_t k = 0; k < f->narcs; k++) {
			sl->libs[m[f->arcs[k].from_obj]].narcs++;
			if (f->arcs[k].to_obj != f->arcs[k].from_obj)
				sl->libs[m[f->arcs[k].to_obj]].narcs++;
		}
		for (size_t k = 0; k < f->nframes; k++)
			sl->libs[m[f->frames[k].obj]].nframes++;
		if (g->thread_only)
			count_thread_data(g, sl, i);
	}
}

/* The side file of profile p: p + ".shlibs", malloc'ed. */
char *shlibs_side_name(const char *p)
{
	size_t n = strlen(p);
	char *name = xmalloc(n + sizeof GMSL_SUFFIX);
	memcpy(name, p, n);
	memcpy(name + n, GMSL_SUFFIX, sizeof GMSL_SUFFIX);
	return name;
}

static void read_side_files(struct gprof *g, struct shlibs *sl)
{
	for (size_t i = 0; i < g->opt.nprofiles; i++) {
		const char *p = g->opt.profiles[i];
		if (strcmp(p, "-") == 0)
			continue;
		char *name = shlibs_side_name(p);
		struct gmsl_file f;
		if (gmsl_read(g, &f, name))
			add_file(sl, &f, name);
		else
			free(name);
	}
}

/* ---- opening a library ---- */

static void ignored(const struct gprof *g, const struct lib *l,
                    const char *why)
{
	warnx_g(g, "%s: %s; ignoring its %llu sample%s and %llu arc%s",
	        l->o->path, why, (unsigned long long)l->nsamples,
	        l->nsamples == 1 ? "" : "s", (unsigned long long)l->narcs,
	        l->narcs == 1 ? "" : "s");
}

/* Its build-id debug file (symbols/objects.c), or NULL without a
   build-id. */
static char *debug_path(const struct gmsl_object *o)
{
	return objects_debug_path(o->build_id, o->build_id_len);
}

static bfd *open_object(const char *path)
{
	bfd *abfd = bfd_openr(path, NULL);
	if (abfd && !bfd_check_format(abfd, bfd_object)) {
		bfd_close(abfd);
		abfd = NULL;
	}
	return abfd;
}

static bool build_id_matches(bfd *abfd, const struct gmsl_object *o)
{
	const struct bfd_build_id *b = abfd->build_id;
	if (o->build_id_len == 0)
		return true;
	return b && b->size == o->build_id_len &&
		memcmp(b->data, o->build_id, o->build_id_len) == 0;
}

/* The debug file found by build-id, else the object itself when its
   build-id is the recorded one; NULL (warned) otherwise. */
static bfd *open_lib(const struct gprof *g, const struct lib *l)
{
	char *dbg = debug_path(l->o);
	bfd *abfd = dbg && access(dbg, R_OK) == 0 ? open_object(dbg) : NULL;
	free(dbg);
	if (abfd)
		return abfd;
	abfd = open_object(l->o->path);
	if (!abfd) {
		ignored(g, l, bfd_get_error() == bfd_error_system_call ?
		        strerror(errno) : "not a readable object file");
		return NULL;
	}
	if (!build_id_matches(abfd, l->o)) {
		ignored(g, l, "build-id differs from the profiled library's");
		bfd_close(abfd);
		return NULL;
	}
	return abfd;
}

/* ---- a library's function symbols ---- */

static bool is_function(const struct gprof *g, const asymbol *s)
{
	const asection *sec = s->section;
	if (!sec || bfd_is_und_section(sec) || bfd_is_com_section(sec) ||
	    !(sec->flags & SEC_CODE))
		return false;
	if (s->flags & (BSF_DEBUGGING | BSF_SECTION_SYM | BSF_FILE))
		return false;
	if (g->opt.no_static && (s->flags & BSF_LOCAL))
		return false;
	return (s->flags & BSF_FUNCTION) && s->name && s->name[0];
}

/* The name without a symbol version ("memcpy@@GLIBC_2.14"), interned. */
static const char *plain_name(struct gprof *g, const char *name)
{
	const char *at = strchr(name, '@');
	if (!at || at == name)
		return str_intern(g, name);
	char *copy = xmalloc((size_t)(at - name) + 1);
	memcpy(copy, name, (size_t)(at - name));
	copy[at - name] = '\0';
	const char *s = str_intern(g, copy);
	free(copy);
	return s;
}

/* The function symbols of one table; false when it has none. */
static bool collect(struct gprof *g, asymbol **syms, long n,
                    struct lib_sym **out, size_t *nout)
{
	size_t k = 0;
	for (long i = 0; i < n; i++)
		k += is_function(g, syms[i]);
	if (k == 0)
		return false;
	struct lib_sym *v = xmalloc(k * sizeof *v);
	k = 0;
	for (long i = 0; i < n; i++) {
		const asymbol *s = syms[i];
		if (!is_function(g, s))
			continue;
		v[k].addr = bfd_asymbol_value(s);
		v[k].sec_end = bfd_section_vma(s->section) +
			bfd_section_size(s->section);
		v[k].name = plain_name(g, s->name);
		v[k].is_static = (s->flags & BSF_LOCAL) != 0;
		v[k].is_weak = (s->flags & BSF_WEAK) != 0;
		k++;
	}
	*out = v;
	*nout = k;
	return true;
}

/* Regular symbols, else (a stripped library) the dynamic ones. */
static void read_lib_syms(struct gprof *g, bfd *abfd, struct lib_sym **out,
                          size_t *nout)
{
	*out = NULL;
	*nout = 0;
	for (int dyn = 0; dyn < 2; dyn++) {
		long size = dyn ? bfd_get_dynamic_symtab_upper_bound(abfd)
		                : bfd_get_symtab_upper_bound(abfd);
		if (size <= 0)
			continue;
		asymbol **syms = xmalloc((size_t)size);
		long n = dyn ? bfd_canonicalize_dynamic_symtab(abfd, syms)
		             : bfd_canonicalize_symtab(abfd, syms);
		bool found = n > 0 && collect(g, syms, n, out, nout);
		free(syms);
		if (found)
			return;
	}
}

/* ---- placing libraries ---- */

static int cmp_lib_sym(const void *pa, const void *pb)
{
	const struct lib_sym *a = pa, *b = pb;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The address after everything the executable's symbols cover. */
static vma_t exe_top(struct gprof *g)
{
	vma_t top = core_text_end(g);
	for (size_t i = 0; i < g->syms.len; i++) {
		const struct sym *s = &g->syms.base[i];
		vma_t end = s->end_addr > s->addr ? s->end_addr : s->addr;
		if (end >= top)
			top = end == UINT64_MAX ? end : end + 1;
	}
	return top;
}

/* v + add rounded up to LIB_ALIGN into *out; false when that leaves
   less than two LIB_ALIGN below the top of the address space. */
static bool align_up(vma_t v, vma_t add, vma_t *out)
{
	const vma_t limit = UINT64_MAX - 4 * LIB_ALIGN;
	if (v > limit || add > limit - v)
		return false;
	*out = (v + add + LIB_ALIGN - 1) & ~(LIB_ALIGN - 1);
	return true;
}

/* Each symbol runs to the next one's start (GNU's rule), but never past
   its own section's end. */
static void add_syms(struct gprof *g, const struct lib *l,
                     const struct lib_sym *v, size_t n)
{
	symtab_reserve(&g->syms, g->syms.len + n);
	for (size_t i = 0; i < n; i++) {
		size_t j = i + 1;
		while (j < n && v[j].addr == v[i].addr)
			j++;
		vma_t end = v[i].sec_end;
		if (j < n && v[j].addr < end)
			end = v[j].addr;
		struct sym *s = symtab_add(&g->syms);
		s->name = v[i].name;
		s->addr = v[i].addr + l->delta;
		s->end_addr = (end > v[i].addr ? end - 1 : v[i].addr) + l->delta;
		s->is_func = true;
		s->is_static = v[i].is_static;
		/* file and line: from the library's own debug information
		   (symbols/objects.c), looked up when a report needs them */
		s->bfd_order = (unsigned)g->syms.len;
	}
}

/* Gives l the range from *base on; false when the address space is out. */
static bool place(struct gprof *g, struct lib *l, struct lib_sym *v,
                  size_t n, vma_t *base)
{
	qsort(v, n, sizeof *v, cmp_lib_sym);
	l->lo = v[0].addr;
	l->hi = v[0].addr;
	for (size_t i = 0; i < n; i++) {
		vma_t end = v[i].sec_end > v[i].addr ? v[i].sec_end - 1 : v[i].addr;
		if (end > l->hi)
			l->hi = end;
	}
	vma_t next, span = l->hi - l->lo;
	if (span > UINT64_MAX - LIB_ALIGN ||
	    !align_up(*base, span + LIB_ALIGN, &next))
		return false;
	l->delta = *base - l->lo;
	add_syms(g, l, v, n);
	*base = next;
	return true;
}

static int cmp_vma(const void *pa, const void *pb)
{
	vma_t a = *(const vma_t *)pa, b = *(const vma_t *)pb;
	return a < b ? -1 : a > b;
}

static void add_addr(vma_t **v, size_t *n, size_t *cap, vma_t a)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	(*v)[(*n)++] = a;
}

/* -l: the link-time addresses where the side files have data in library
   k (samples, arcs' ends, stack frames), sorted: only the functions
   holding one get line symbols, as asking BFD about every byte of a
   large library (libc's debug file) takes seconds. */
static size_t lib_addrs(const struct shlibs *sl, uint32_t k, vma_t **out)
{
	vma_t *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < sl->nfiles; i++) {
		const struct gmsl_file *f = &sl->files[i];
		const uint32_t *m = sl->map[i];
		if (sl->skipped[i])
			continue;
		for (size_t j = 0; j < f->nsamples; j++)
			if (m[f->samples[j].obj] == k)
				add_addr(&v, &n, &cap, f->samples[j].addr);
		for (size_t j = 0; j < f->narcs; j++) {
			if (m[f->arcs[j].from_obj] == k)
				add_addr(&v, &n, &cap, f->arcs[j].from);
			if (m[f->arcs[j].to_obj] == k)
				add_addr(&v, &n, &cap, f->arcs[j].to);
		}
		for (size_t j = 0; j < f->nframes; j++)
			if (m[f->frames[j].obj] == k)
				add_addr(&v, &n, &cap, f->frames[j].addr);
		for (size_t j = 0; j < f->ntsamples; j++)
			if (m[f->tsamples[j].s.obj] == k)
				add_addr(&v, &n, &cap, f->tsamples[j].s.addr);
	}
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_vma);
	*out = v;
	return n;
}

/* -l: line symbols for library l's functions that have data. */
static void lib_line_syms(struct gprof *g, const struct lib *l, size_t first)
{
	const struct shlibs *sl = g->shlibs;
	vma_t *addrs;
	size_t n = lib_addrs(sl, (uint32_t)(l - sl->libs), &addrs);
	objects_line_syms(g, g->nobjects - 1, first, addrs, n);
	free(addrs);
}

/* ---- the vDSO ---- */

/* The vDSO's symbols: from its debug file found by build-id, else from
   the vDSO of the kernel gprof runs on when its build-id is the one
   recorded (vdso.c); NULL otherwise. */
static bfd *open_vdso(const struct lib *l)
{
	char *dbg = debug_path(l->o);
	bfd *abfd = dbg && access(dbg, R_OK) == 0 ? open_object(dbg) : NULL;
	free(dbg);
	if (abfd)
		return abfd;
	return vdso_open_own(l->o->build_id, l->o->build_id_len);
}

/* The vDSO exports each function twice, a weak "clock_gettime" and a
   global "__vdso_clock_gettime": keep the global one, which says where
   the time went (the C library's own clock_gettime is another function
   of the same plain name).  A weak symbol alone at its address stays. */
static void drop_weak_twins(struct lib_sym *v, size_t *n)
{
	qsort(v, *n, sizeof *v, cmp_lib_sym);
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++) {
		bool twin = false;
		for (size_t j = i; j-- > 0 && v[j].addr == v[i].addr;)
			twin |= !v[j].is_weak;
		for (size_t j = i + 1; j < *n && v[j].addr == v[i].addr; j++)
			twin |= !v[j].is_weak;
		if (!(v[i].is_weak && twin))
			v[kept++] = v[i];
	}
	*n = kept;
}

/* A vDSO whose image is not at hand (profiled on another kernel, or no
   build-id recorded): one pseudo-function "[vdso]" over its recorded
   span and every address the side files name in it, so its samples
   keep a row.  That is expected, not an error: nothing is said. */
static void vdso_pseudo(struct gprof *g, const struct lib *l,
                        struct lib_sym **out, size_t *nout)
{
	vma_t lo = l->o->lo, hi = l->o->hi, *a;
	size_t n = lib_addrs(g->shlibs, (uint32_t)(l - g->shlibs->libs), &a);
	if (hi <= lo)
		hi = lo == UINT64_MAX ? lo : lo + 1;
	if (n > 0 && a[0] < lo)
		lo = a[0];
	if (n > 0 && a[n - 1] >= hi)
		hi = a[n - 1] == UINT64_MAX ? a[n - 1] : a[n - 1] + 1;
	free(a);
	struct lib_sym *v = xmalloc(sizeof *v);
	*v = (struct lib_sym){ .addr = lo, .sec_end = hi,
		.name = str_intern(g, "[vdso]") };
	*out = v;
	*nout = 1;
}

/* ---- loading a library ---- */

static void load_lib(struct gprof *g, struct lib *l, vma_t *base)
{
	const char *p = l->o->path;
	bool vdso = vdso_is_name(p);
	if (!vdso && (!p[0] || p[0] == '[')) {  /* other unnamed mappings */
		l->state = LIB_NO_SYMS;
		return;
	}
	bfd *abfd = vdso ? open_vdso(l) : open_lib(g, l);
	if (!abfd && !vdso)
		return;
	struct lib_sym *v = NULL;
	size_t n = 0, first = g->syms.len;
	bool kept = false;
	if (abfd)
		read_lib_syms(g, abfd, &v, &n);
	if (n > 0 && vdso)
		drop_weak_twins(v, &n);
	if (n == 0 && vdso) {
		free(v);
		vdso_pseudo(g, l, &v, &n);
	}
	if (n == 0) {
		l->state = LIB_NO_SYMS;
	} else if (place(g, l, v, n, base)) {
		l->state = LIB_LOADED;
		/* the BFD stays open for line lookups when it has debug info;
		   the vDSO is named as the kernel's maps name it */
		kept = objects_add_lib(g, vdso ? "[vdso]" : p, l->o->build_id,
		                       l->o->build_id_len, l->lo + l->delta,
		                       l->hi + l->delta, l->delta, abfd);
		if (g->opt.line_gran)
			lib_line_syms(g, l, first);
	} else {
		ignored(g, l, "no address range left for its symbols");
	}
	free(v);
	if (abfd && !kept)
		bfd_close(abfd);
}

static void load_libs(struct gprof *g, struct shlibs *sl)
{
	vma_t base = 0;
	bool ok = align_up(exe_top(g), LIB_ALIGN, &base);
	size_t first = g->syms.len;
	vma_t first_base = base;
	for (size_t k = 1; k < sl->nlibs; k++) {
		struct lib *l = &sl->libs[k];
		if (!l->nsamples && !l->narcs && !l->nframes)
			continue;
		if (ok)
			load_lib(g, l, &base);
		else
			ignored(g, l, "no address range left for its symbols");
	}
	if (g->syms.len > first) {
		g->shlib_first = first;
		g->shlib_base = first_base;
		symtab_finish_from(g, &g->syms, first);
	}
}

/* Before the symbols are resolved against symspecs: the side files of
   every profile, and the symbols of the libraries they name. */
void shlibs_load(struct gprof *g)
{
	struct shlibs *sl = xcalloc(1, sizeof *sl);
	g->shlibs = sl;
	drop_side_files(g, sl);
	if (g->opt.no_shlibs)
		return;
	read_side_files(g, sl);
	if (sl->nfiles == 0)
		return;
	sl->skipped = xcalloc(sl->nfiles, sizeof *sl->skipped);
	check_rates(g, sl);
	map_objects(g, sl);
	load_libs(g, sl);
}

/* Whether side files were read: shlibs_apply() then adds samples and
   arcs after the profiles' own. */
bool shlibs_side_files(const struct gprof *g)
{
	return g->shlibs && g->shlibs->nfiles > 0;
}

/* ---- the executable's build-id ---- */

/* Whether the side files' record of the main executable (object id 0)
   names the executable read now, by build-id; *file: the side file that
   decided (the first that differs, else the first that matches). */
enum build_id_match shlibs_exe_build_id(const struct gprof *g,
                                        const char **file)
{
	const struct shlibs *sl = g->shlibs;
	const bfd *abfd = g->abfd;
	const struct bfd_build_id *own = abfd ? abfd->build_id : NULL;
	enum build_id_match m = BUILD_ID_UNKNOWN;
	*file = NULL;
	for (size_t i = 0; sl && i < sl->nfiles; i++) {
		const struct gmsl_file *f = &sl->files[i];
		for (size_t k = 0; k < f->nobjs; k++) {
			const struct gmsl_object *o = &f->objs[k];
			if (o->id != 0 || o->build_id_len == 0)
				continue;
			if (!own || own->size != o->build_id_len ||
			    memcmp(own->data, o->build_id, o->build_id_len) != 0) {
				*file = sl->names[i];
				return BUILD_ID_DIFFERS;
			}
			if (m == BUILD_ID_UNKNOWN)
				*file = sl->names[i];
			m = BUILD_ID_SAME;
		}
	}
	return m;
}

/* ---- --per-thread ---- */

static void add_thread_times(struct thread_info *t, const struct gmsl_times *tt)
{
	struct gmsl_times sum = { .have = t->have_times, .user_ns = t->user_ns,
		.sys_ns = t->sys_ns, .wall_ns = t->wall_ns };
	gmsl_times_add(&sum, tt);
	t->have_times = sum.have;
	t->user_ns = sum.user_ns;
	t->sys_ns = sum.sys_ns;
	t->wall_ns = sum.wall_ns;
}

/* The threads of every side file read (but those ignored), each once:
   matched by id and name, in the order first met, with their times. */
size_t shlibs_threads(const struct gprof *g, struct thread_info **out)
{
	const struct shlibs *sl = g->shlibs;
	struct thread_info *v = NULL;
	size_t n = 0;
	for (size_t i = 0; sl && i < sl->nfiles; i++) {
		const struct gmsl_file *f = &sl->files[i];
		if (sl->skipped[i])
			continue;
		for (size_t t = 0; t < f->nthreads; t++) {
			const struct gmsl_thread *th = &f->threads[t];
			size_t k = 0;
			while (k < n && !(v[k].id == th->id &&
			                  strcmp(v[k].name, th->name) == 0))
				k++;
			if (k == n) {
				v = xrealloc(v, (n + 1) * sizeof *v);
				v[n++] = (struct thread_info){ .id = th->id,
					.tid = th->tid, .name = th->name };
			}
			add_thread_times(&v[k], &th->times);
		}
	}
	*out = v;
	return n;
}

/* ---- -s ---- */

/* The side file of the gmon.sum just written: the sum of every side file
   read (but those ignored), through a temporary file renamed into place.
   Without any, an old one is removed, as it belongs to the old gmon.sum
   and would be read with the new one. */
void shlibs_write_sum(struct gprof *g, const char *filename)
{
	struct shlibs *sl = g->shlibs;
	struct gmsl_file sum = { 0 };
	for (size_t i = 0; sl && i < sl->nfiles; i++)
		if (!sl->skipped[i])
			gmsl_merge(&sum, &sl->files[i]);
	if (sum.nobjs == 0) {
		if (unlink(filename) != 0 && errno != ENOENT)
			warnx_g(g, "%s: %s", filename, strerror(errno));
		return;
	}
	gmsl_combine(&sum);
	struct safe_file sf;
	if (!safe_open(&sf, filename))
		die_plain("%s: %s", filename, strerror(errno));
	if (!gmsl_write(&sum, sf.f)) {
		int e = errno;
		safe_abort(&sf);
		die_plain("%s: %s", filename, strerror(e ? e : EIO));
	}
	if (!safe_commit(&sf))
		die_plain("%s: %s", filename, strerror(errno));
	gmsl_free(&sum);
}

void shlibs_free(struct gprof *g)
{
	struct shlibs *sl = g->shlibs;
	if (!sl)
		return;
	for (size_t i = 0; i < sl->nfiles; i++) {
		gmsl_free(&sl->files[i]);
		free(sl->names[i]);
		if (sl->map)
			free(sl->map[i]);
	}
	free(sl->files);
	free(sl->names);
	free(sl->skipped);
	free(sl->map);
	free(sl->libs);
	free(sl->profiles);
	free(sl);
	g->shlibs = NULL;
	for (size_t i = 0; i < g->nstacks; i++)
		free(g->stacks[i].frames);
	free(g->stacks);
	g->stacks = NULL;
	g->nstacks = 0;
}
