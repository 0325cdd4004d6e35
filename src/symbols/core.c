/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * core.c - the executable: opened through BFD, its symbols read and
 * classified by GNU gprof's rules (which symbols count as functions, which
 * local names are kept), the -S external symbol table, and line lookups.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <bfd.h>
#include <libiberty/demangle.h>

#include "symbols/symbols.h"

#define ABFD(g) ((bfd *)(g)->abfd)
#define TEXT(g) ((asection *)(g)->text_sec)

/* Could BFD find source lines at all?  Without debug sections (or a link
   to a separate debug file) every lookup fails, after an expensive scan of
   the symbol table, so lookups are skipped altogether. */
bool core_has_line_info(void *file)
{
	bfd *abfd = file;
	static const char *const prefixes[] = {
		".debug", ".zdebug", ".stab", ".gnu_debuglink", ".gnu_debugaltlink",
		".line", NULL
	};
	for (asection *s = abfd->sections; s; s = s->next)
		for (const char *const *p = prefixes; *p; p++)
			if (strncmp(s->name, *p, strlen(*p)) == 0)
				return true;
	return false;
}

static void core_new_find_window(struct gprof *g);

void core_open(struct gprof *g)
{
	const char *name = g->opt.image;
	bfd *abfd;

	bfd_init();
	abfd = bfd_openr(name, NULL);
	if (!abfd) {
		fflush(stdout);
		bfd_perror(name);
		gprof_exit(1);
	}
	/* Held by the context from here, so that a caller that survives
	   the errors below (the fuzz harnesses) can close it. */
	g->abfd = abfd;
	if (!bfd_check_format(abfd, bfd_object))
		die(g, "%s: not in executable format", name);

	asection *text = bfd_get_section_by_name(abfd, ".text");
	if (!text)
		text = bfd_get_section_by_name(abfd, "$CODE$");
	if (!text)
		die(g, "can't find .text section in %s", name);

	g->text_sec = text;
	core_new_find_window(g);
	g->has_line_info = core_has_line_info(abfd);
	g->big_endian = bfd_big_endian(abfd);
	g->sign_extend_vma = bfd_get_sign_extend_vma(abfd) == 1;
	g->leading_char = bfd_get_symbol_leading_char(abfd);

	int bits = bfd_get_arch_size(abfd);
	if (bits == -1)
		bits = (int)bfd_arch_bits_per_address(abfd);
	if (bits != 32 && bits != 64)
		die(g, "address size has unexpected value of %d", bits);
	g->addr_size = bits / 8;
	objects_add_exe(g);
}

vma_t core_text_end(struct gprof *g)
{
	asection *text = TEXT(g);
	return bfd_section_vma(text) + bfd_section_size(text);
}

/* Reads the symbol table; returns how many symbols are real (the
   synthetic ones follow them). */
static long read_bfd_symbols(struct gprof *g)
{
	bfd *abfd = ABFD(g);
	long size = bfd_get_symtab_upper_bound(abfd);
	if (size < 0)
		die(g, "%s: %s", g->opt.image, bfd_errmsg(bfd_get_error()));
	asymbol **syms = xmalloc((size_t)size);
	long n = bfd_canonicalize_symtab(abfd, syms);
	if (n < 0)
		die(g, "%s: %s", g->opt.image, bfd_errmsg(bfd_get_error()));

	/* Synthetic symbols (PLT entries, function descriptors) come after. */
	long nreal = n;
	asymbol *synth = NULL;
	long nsynth = bfd_get_synthetic_symtab(abfd, n, syms, 0, NULL, &synth);
	if (nsynth > 0) {
		syms = xrealloc(syms, (size_t)(n + nsynth + 1) * sizeof *syms);
		for (long i = 0; i < nsynth; i++)
			syms[n + i] = &synth[i];
		n += nsynth;
		syms[n] = NULL;     /* BFD's symbol scans stop at NULL */
	}
	g->bfd_syms = (void **)syms;
	g->nbfd_syms = n;
	return nreal;
}

/*
 * GNU accepts a local code symbol only if every '.' in its name is followed
 * by digits ("f.123", "f.1.2", also after a ".clone." or ".constprop."
 * infix), and rejects any '$'.  Its scan steps over the terminating NUL
 * after a numeric suffix and carries on into the bytes that follow, which
 * in ELF are the next names of the string table; we reproduce that, since
 * it decides which symbols appear.  BFD's ELF string tables end in an
 * extra NUL, which ends the overrun at the last name.
 */
static bool local_name_ok(const char *name, bool may_overrun)
{
	const char *p = name;

	for (; *p; p++) {
		if (*p == '$')
			return false;
		while (*p == '.') {
			if (strncmp(p, ".clone.", 7) == 0)
				p += 6;
			else if (strncmp(p, ".constprop.", 11) == 0)
				p += 10;
			if (isdigit((unsigned char)p[1])) {
				p++;
				while (isdigit((unsigned char)*p))
					p++;
				if (*p == '\0') {
					if (!may_overrun)
						return true;
					break;
				}
				if (*p != '.')
					return false;
			} else if (p[1] == '\0') {
				break;
			} else {
				return false;
			}
		}
		if (*p == '\0' && !may_overrun)
			return true;
	}
	return true;
}

/* What kind of symbol is this: 'T' global text, 't' kept static text,
   'x' a static function GNU rejects for its name alone (a compiler clone
   such as foo.part.0 or foo.cold: see clones.c), 0 rejected. */
static int classify(struct gprof *g, asymbol *sym, bool synthetic)
{
	bfd *abfd = ABFD(g);

	if (!sym->section || (sym->flags & BSF_DEBUGGING))
		return 0;
	if (g->opt.no_static && (sym->flags & BSF_LOCAL))
		return 0;

	int c = bfd_decode_symclass(sym);
	if (c == 'T' || c == 'W')
		return 'T';
	if (c != 't')
		return 0;

	const char *name = sym->name;
	if (!name || !*name)
		return 0;
	bool overrun = !synthetic &&
		bfd_get_flavour(abfd) == bfd_target_elf_flavour;
	bool name_ok = local_name_ok(name, overrun);
	if (!name_ok && !(sym->flags & BSF_FUNCTION))
		return 0;
	if (g->leading_char && name[0] != g->leading_char)
		return 0;
	if (strncmp(name, "__gnu_compiled", 14) == 0 ||
	    strncmp(name, "___gnu_compiled", 15) == 0)
		return 0;
	if (g->opt.ignore_non_func && !(sym->flags & BSF_FUNCTION))
		return 0;
	return name_ok ? 't' : 'x';
}

static bool flavour_has_func_flag(bfd *abfd)
{
	switch (bfd_get_flavour(abfd)) {
	case bfd_target_coff_flavour:
	case bfd_target_ecoff_flavour:
	case bfd_target_xcoff_flavour:
	case bfd_target_elf_flavour:
	case bfd_target_som_flavour:
		return true;
	default:
		return false;
	}
}

/* Has the table a symbol that classify() would keep? */
static bool any_kept(struct gprof *g, asymbol **syms, long n)
{
	for (long i = 0; i < n; i++)
		if (classify(g, syms[i], false))
			return true;
	return false;
}

/* A table BFD reads from abfd: its regular symbols, or with `dyn` its
   dynamic ones; NULL when it has no symbol classify() keeps. */
static asymbol **other_table(struct gprof *g, bfd *abfd, bool dyn, long *n)
{
	long size = dyn ? bfd_get_dynamic_symtab_upper_bound(abfd)
	                : bfd_get_symtab_upper_bound(abfd);
	if (size <= 0)
		return NULL;
	asymbol **syms = xmalloc((size_t)size + sizeof *syms);
	*n = dyn ? bfd_canonicalize_dynamic_symtab(abfd, syms)
	         : bfd_canonicalize_symtab(abfd, syms);
	if (*n <= 0 || !any_kept(g, syms, *n)) {
		free(syms);
		return NULL;
	}
	syms[*n] = NULL;
	return syms;
}

/* A stripped executable (strip --strip-all leaves no .symtab), where
   GNU gprof stops at "has no symbols": the symbols of its debug file
   found by build-id (GPROF_DEBUG_DIR, else /usr/lib/debug), as the
   shared libraries' are found, else its dynamic symbols (.dynsym: the
   functions it exports only).  The line lookups then go to the debug
   file (core_sym_line()). */
static void stripped_exe_syms(struct gprof *g)
{
	long n = 0;
	asymbol **syms = NULL;
	bfd *dbg = objects_exe_debug_file(g);
	if (dbg) {
		syms = other_table(g, dbg, false, &n);
		if (syms)
			objects_keep_exe_debug_file(g, dbg);
		else
			bfd_close(dbg);
	}
	if (!syms)
		syms = other_table(g, ABFD(g), true, &n);
	if (!syms)
		return;
	free(g->bfd_syms);
	g->bfd_syms = (void **)syms;
	g->nbfd_syms = g->nbfd_real = n;
}

void core_read_syms(struct gprof *g)
{
	g->nbfd_real = read_bfd_symbols(g);
	if (!any_kept(g, (asymbol **)g->bfd_syms, g->nbfd_syms))
		stripped_exe_syms(g);
}

/* A stripped executable with no debug file and no function in .dynsym
   (a system program, profiled with gprof-run): GNU stops at "has no
   symbols", and so does gprof without a side file; with one, the
   libraries still have names, so one pseudo-function "[NAME]" (the
   executable's base name) over its .text takes its own samples. */
static void exe_pseudo_sym(struct gprof *g)
{
	const char *image = g->opt.image ? g->opt.image : "a.out";
	const char *base = strrchr(image, '/');
	base = base ? base + 1 : image;
	size_t n = strlen(base);
	char *name = xmalloc(n + 3);
	name[0] = '[';
	memcpy(name + 1, base, n);
	memcpy(name + 1 + n, "]", 2);
	asection *text = TEXT(g);
	struct sym *s = symtab_add(&g->syms);
	s->name = str_intern(g, name);
	s->addr = bfd_section_vma(text);
	s->is_func = true;
	s->file_known = true;    /* no debug information to look in */
	s->bfd_order = (unsigned)g->syms.len;
	free(name);
}

/* With -R, the map (g->map_entries) must have been read before: the
   pipeline reads it between core_read_syms() and this. */
void core_build_syms(struct gprof *g)
{
	bfd *abfd = ABFD(g);
	if (!g->bfd_syms)
		core_read_syms(g);
	long nreal = g->nbfd_real;
	asymbol **syms = (asymbol **)g->bfd_syms;
	bool func_flag = flavour_has_func_flag(abfd);

	size_t nkept = 0;
	char *cls_of = xmalloc((size_t)g->nbfd_syms + 1);
	for (long i = 0; i < g->nbfd_syms; i++) {
		cls_of[i] = (char)classify(g, syms[i], i >= nreal);
		nkept += cls_of[i] != 0;
	}
	/* The clones GNU drops are noted (the diagnosis says what their
	   code did to their neighbours); unless GNU's rule is asked for,
	   they are functions of their own. */
	clones_note_dropped(g, (void **)syms, cls_of, g->nbfd_syms);
	symtab_reserve(&g->syms, nkept);
	for (long i = 0; i < g->nbfd_syms; i++) {
		int cls = cls_of[i];
		if (!cls)
			continue;
		const char *obj = g->opt.map_file ?
			map_file_object(g, syms[i]->name) : NULL;
		if (obj && !*obj)
			continue;
		struct sym *s = symtab_add(&g->syms);
		s->name = obj ? obj : syms[i]->name;
		s->mapped = obj != NULL;
		s->addr = bfd_asymbol_value(syms[i]);
		s->is_static = cls != 'T';
		s->is_func = func_flag ? (syms[i]->flags & BSF_FUNCTION) != 0 : true;
		debug_printf(g, DBG_AOUT, "[core_build_syms] 0x%lx %c%s %s\n",
		             (unsigned long)s->addr, cls, s->is_func ? " func" : "",
		             s->name);
		s->bfd_order = (unsigned)g->syms.len;
	}
	free(cls_of);
	if (g->syms.len == 0 && g->exe_pseudo_ok)
		exe_pseudo_sym(g);
	if (g->syms.len == 0)
		die(g, "file `%s' has no symbols", g->opt.image);
	symtab_finish(g, &g->syms, core_text_end(g));
	clones_finish_ranges(g, core_text_end(g));
}

/* -S reads its listing in pieces of at most this many characters, each
   ending at a newline or at this length: the rest of a longer line is
   the next piece, as GNU reads it (a piece may then start a symbol of
   its own). */
#define EXT_PIECE 1022

/* -S: symbols from an nm-style listing, one "ADDR TYPE NAME" a line, of
   which only text symbols (t, T) are used; a line that does not start
   with all three (an undefined symbol's has no address) is passed over.
   The same conversions as GNU's, so that odd lines read alike: a type
   of several letters gives its first, and the name starts with the
   next. */
void core_read_ext_symtab(struct gprof *g, const char *file)
{
	FILE *f = fopen(file, "r");
	char piece[EXT_PIECE + 1], name[EXT_PIECE + 1], type;
	uint64_t addr;
	struct strbuf names = STRBUF_INIT;
	size_t *at = NULL;           /* each symbol's name, in `names` */

	if (!f)
		die(g, "could not open %s.", file);
	while (fgets(piece, sizeof piece, f)) {
		if (sscanf(piece, "%" SCNx64 " %c %s", &addr, &type, name) != 3 ||
		    (type != 't' && type != 'T'))
			continue;
		struct sym *s = symtab_add(&g->syms);
		s->addr = addr;
		s->is_func = true;
		s->is_static = type == 't';
		s->file_known = true;    /* no debug info for these */
		s->bfd_order = (unsigned)g->syms.len;
		if ((g->syms.len & (g->syms.len - 1)) == 0)
			at = xrealloc(at, 2 * g->syms.len * sizeof *at);
		at[g->syms.len - 1] = names.len;
		sb_add(&names, name, strlen(name) + 1);
	}
	fclose(f);
	/* One block for all the names, which core_close() frees: a symbol
	   the table drops takes nothing with it. */
	g->name_pool = names.buf;    /* taken over: sb_detach() would copy
	                                only up to the first name's NUL */
	for (size_t i = 0; i < g->syms.len; i++)
		g->syms.base[i].name = g->name_pool + at[i];
	free(at);
	if (g->syms.len == 0)
		die(g, "file `%s' has no symbols", file);
	symtab_finish(g, &g->syms, core_text_end(g));
}

/*
 * Where DWARF names no function for an address (alignment padding, or the
 * first look into a function that DWARF knows only by DW_AT_name), BFD's
 * ELF back end picks a function symbol by scanning every symbol it was
 * given, unless the one it picked last still covers the address.  Over a
 * -l scan of all of .text that is one full scan per padding run and per
 * function: quadratic, and most of the time of -l.
 *
 * The symbol it picks is a candidate (a symbol of the section that is not
 * a file, section, object or thread-local symbol) with the greatest value
 * at or below the address; ties among candidates of that value go by size
 * and array order.  So BFD picks the same symbol, and caches the same
 * state, when it is handed only the candidates whose values lie between
 * the nearest "sure" candidate at or below the address (a function or
 * global symbol: the others may be ruled out by size or visibility, which
 * BFD does not export) and the address, in their array order.  Answers
 * with a line take their file from DWARF, never from this scan, so every
 * answer gprof uses is unchanged.  The first lookup, which loads the DWARF
 * and keeps the symbols it was given, is handed all of them; files with
 * stabs or DWARF 1 (.debug), and targets other than x86 (whose back ends
 * may judge candidates their own way), always are.
 */
struct cand {
	asymbol *sym;
	bfd_vma value;               /* sym->value, kept at hand */
	size_t idx;                  /* position in the BFD symbol array */
	bool sure;
};

struct find_window {
	bool built;                  /* the first lookup has been made */
	bool off;                    /* not usable here: hand BFD everything */
	struct cand *c;              /* by value, then array position */
	size_t n;
	struct cand *tmp;            /* one window, sorted back by position */
	asymbol **buf;               /* the window handed to BFD, NULL-ended */
	size_t cap;
	size_t end;                  /* buf is for offsets with this `end` */
	bool have_buf;
};

/* The line-lookup state lives behind a pointer, made with the BFD. */
static void core_new_find_window(struct gprof *g)
{
	g->find_window = xcalloc(1, sizeof *g->find_window);
}

/* Frees the line-lookup window (for callers that analyse more than one
   profile in a process, such as the fuzz harnesses). */
void core_free_find_window(struct gprof *g)
{
	struct find_window *w = g->find_window;
	if (!w)
		return;
	free(w->c);
	free(w->tmp);
	free(w->buf);
	free(w);
	g->find_window = NULL;
}

void core_close(struct gprof *g)
{
	core_free_find_window(g);
	if (g->bfd_syms) {
		asymbol **s = (asymbol **)g->bfd_syms;
		/* the synthetic symbols are one block, starting at the first */
		for (long i = 0; i < g->nbfd_syms; i++)
			if (s[i]->flags & BSF_SYNTHETIC) {
				free(s[i]);
				break;
			}
		free(g->bfd_syms);
		g->bfd_syms = NULL;
	}
	/* After the symbols: a stripped executable's are its debug file's,
	   which objects_free() closes. */
	objects_free(g);
	if (g->abfd)
		bfd_close(ABFD(g));
	g->abfd = NULL;
	free(g->syms.base);
	free(g->name_pool);
	g->name_pool = NULL;
	free(g->syms.addrs);
	free(g->syms.bucket);
	g->syms = (struct symtab){ 0 };
	for (struct source_file *f = g->files, *next; f; f = next) {
		next = f->next;
		free(f->name);
		free(f->line);
		free(f);
	}
	g->files = NULL;
	free(g->file_table.slot);
	g->file_table = (struct file_table){ 0 };
	for (size_t i = 0; i < g->nmap_entries; i++) {
		free(g->map_entries[i].file);
		free(g->map_entries[i].func);
	}
	free(g->map_entries);
	free(g->map_files);
	g->map_entries = NULL;
	g->map_files = NULL;
	g->nmap_entries = 0;
}

static int cmp_cand(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;
	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static bool window_usable(bfd *abfd)
{
	if (bfd_get_flavour(abfd) != bfd_target_elf_flavour ||
	    bfd_get_arch(abfd) != bfd_arch_i386)
		return false;
	for (asection *s = abfd->sections; s; s = s->next)
		if (strncmp(s->name, ".stab", 5) == 0 ||
		    strcmp(s->name, ".debug") == 0)
			return false;
	return true;
}

static void window_build(const struct gprof *g, struct find_window *w)
{
	const flagword skip = BSF_SECTION_SYM | BSF_FILE | BSF_OBJECT |
	                      BSF_THREAD_LOCAL | BSF_RELC | BSF_SRELC;
	asymbol **syms = (asymbol **)g->bfd_syms;
	w->built = true;
	w->off = !window_usable(ABFD(g));
	if (w->off)
		return;
	w->c = xmalloc(((size_t)g->nbfd_syms + 1) * sizeof *w->c);
	for (long i = 0; i < g->nbfd_syms; i++) {
		asymbol *s = syms[i];
		if (s->section != TEXT(g) || (s->flags & skip))
			continue;
		w->c[w->n].sym = s;
		w->c[w->n].value = s->value;
		w->c[w->n].idx = (size_t)i;
		w->c[w->n].sure = (s->flags & BSF_FUNCTION) || !(s->flags & BSF_LOCAL);
		w->n++;
	}
	qsort(w->c, w->n, sizeof *w->c, cmp_cand);
}

static int cmp_idx(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The candidates BFD may pick for section offset `off`, or NULL when the
   full table is needed. */
static asymbol **window_for(struct find_window *w, bfd_vma off)
{
	size_t lo = 0, hi = w->n;
	if (w->off)
		return NULL;
	/* The window depends only on the first candidate above off: scans
	   ask for one offset after another, so it is usually the last one. */
	if (w->have_buf && w->end > 0 && w->c[w->end - 1].value <= off &&
	    (w->end == w->n || off < w->c[w->end].value))
		return w->buf;
	while (lo < hi) {            /* first candidate above off */
		size_t mid = lo + (hi - lo) / 2;
		if (w->c[mid].value <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo, k = end;
	while (k > 0 && !w->c[k - 1].sure)
		k--;
	if (k == 0)
		return NULL;
	bfd_vma v0 = w->c[k - 1].value;
	size_t start = k - 1;
	while (start > 0 && w->c[start - 1].value == v0)
		start--;
	size_t n = end - start;
	if (n + 1 > w->cap) {
		w->cap = 2 * (n + 1);
		w->buf = xrealloc(w->buf, w->cap * sizeof *w->buf);
		w->tmp = xrealloc(w->tmp, w->cap * sizeof *w->tmp);
	}
	memcpy(w->tmp, w->c + start, n * sizeof *w->tmp);
	if (n > 1)
		qsort(w->tmp, n, sizeof *w->tmp, cmp_idx);
	for (size_t i = 0; i < n; i++)
		w->buf[i] = w->tmp[i].sym;
	w->buf[n] = NULL;
	w->end = end;
	w->have_buf = true;
	return w->buf;
}

/* The window is a cache behind a pointer: looking a line up changes what
   the next lookup costs, never what it answers, so a const model can be
   asked. */
bool core_find_line(const struct gprof *g, vma_t addr, const char **file,
                    const char **func, unsigned *line)
{
	struct find_window *w = g->find_window;
	asection *text = TEXT(g);
	asymbol **syms = (asymbol **)g->bfd_syms;
	bfd_vma off = addr - bfd_section_vma(text);
	*file = *func = NULL;
	*line = 0;
	if (!g->bfd_syms || !g->has_line_info || !w)
		return false;
	if (w->built) {
		asymbol **win = window_for(w, off);
		if (win)
			syms = win;
	} else {
		/* the first lookup, with every symbol, then windows */
		bool ok = bfd_find_nearest_line(ABFD(g), text, syms, off, file,
		                                func, line);
		window_build(g, w);
		return ok;
	}
	return bfd_find_nearest_line(ABFD(g), text, syms, off, file, func,
	                             line);
}

static int cmp_order(const void *pa, const void *pb, void *ctx)
{
	const struct sym *a = *(struct sym *const *)pa;
	const struct sym *b = *(struct sym *const *)pb;
	(void)ctx;
	return a->bfd_order < b->bfd_order ? -1 : a->bfd_order > b->bfd_order;
}

/* A symbol's source file and line from the debug information, or false.
   Only a line inside a function counts (GNU needs all three answers). */
bool core_sym_line(const struct gprof *g, const struct sym *s,
                   const char **file, int *line)
{
	const char *func;
	unsigned ln;
	bool found;

	if (sym_in_shlib(g, s) ||    /* in its library's own debug info */
	    (!g->has_line_info && g->objects && g->objects[0].abfd)) {
		/* (or a stripped executable's debug file) */
		const struct object_info *o = sym_object(g, s);
		found = o && object_find_line(o, s->addr, file, &func, &ln);
	} else {
		found = g->abfd && core_find_line(g, s->addr, file, &func, &ln);
	}
	if (!found || !*file || !func || ln == 0)
		return false;
	*line = (int)ln;
	return true;
}

/* File and line come from the debug information and cost a DWARF lookup,
   so analysis fetches them only for symbols whose file it needs. */
void sym_lookup_file(struct gprof *g, struct sym *s)
{
	const char *file;
	int line;

	if (s->file_known)
		return;
	s->file_known = true;
	if (!s->file && core_sym_line(g, s, &file, &line)) {
		s->file = source_file_intern(g, file);
		s->line = line;
	}
}

/* Whether libbfd would surely find `name` not mangled, as is most C
   symbols' case: in the styles that demangle by default (automatic,
   GNU v3 and Rust) a mangled name starts with '_' once any '.' or '$'
   prefix is passed over.  The report then need not read the rest of the
   name, nor call libbfd, for each of 100,000 names.  Other styles (such
   as GNAT's) are always asked, and so are names that start with the
   target's leading character: libbfd answers those with the name
   without it, mangled or not (tests/unit/demangle.c). */
static bool surely_plain(const struct gprof *g, const char *name)
{
	switch (CURRENT_DEMANGLING_STYLE) {
	case auto_demangling:
	case gnu_v3_demangling:
	case rust_demangling:
		break;
	default:
		return false;
	}
	if (g->leading_char && *name == g->leading_char)
		return false;
	while (*name == '.' || *name == '$')
		name++;
	return *name != '_';
}

/* The demangled form of `name`, malloc'd, or NULL when it is not a
   mangled name. */
char *core_demangle(const struct gprof *g, const char *name)
{
	if (surely_plain(g, name))
		return NULL;
	return bfd_demangle(ABFD(g), name, DMGL_ANSI | DMGL_PARAMS);
}

/* Looks up every symbol's source file in symbol-table order, which fixes
   the order of the source-file list as GNU builds it. */
void core_intern_files(struct gprof *g)
{
	if (g->files_interned)
		return;
	g->files_interned = true;
	size_t n = g->syms.len;
	struct sym **v = xmalloc((n + 1) * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = &g->syms.base[i];
	stable_sort(v, n, sizeof *v, cmp_order, NULL);
	for (size_t i = 0; i < n; i++)
		sym_lookup_file(g, v[i]);
	free(v);
}

/* The object file a function stands for: NULL if the map does not name
   it, "" if it is a later function of its object (to be dropped). */
const char *map_file_object(const struct gprof *g, const char *func)
{
	const struct map_entry *entries = g->map_entries;
	size_t lo = 0, hi = g->nmap_entries;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(entries[mid].func, func);
		if (c == 0) {
			while (mid > 0 && strcmp(entries[mid - 1].func, func) == 0)
				mid--;
			return entries[mid].first ? entries[mid].file : "";
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
