/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * core.c - the executable: opened through BFD, its symbols read and
 * classified by GNU gprof's rules (which symbols count as functions, which
 * local names are kept), the -S external symbol table, and line lookups.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bfd.h>

#include "gprof.h"

#define ABFD(g) ((bfd *)(g)->abfd)
#define TEXT(g) ((asection *)(g)->text_sec)

/* Could BFD find source lines at all?  Without debug sections (or a link
   to a separate debug file) every lookup fails, after an expensive scan of
   the symbol table, so lookups are skipped altogether. */
static bool has_line_info(bfd *abfd)
{
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
	if (!bfd_check_format(abfd, bfd_object))
		die(g, "%s: not in executable format", name);

	asection *text = bfd_get_section_by_name(abfd, ".text");
	if (!text)
		text = bfd_get_section_by_name(abfd, "$CODE$");
	if (!text)
		die(g, "can't find .text section in %s", name);

	g->abfd = abfd;
	g->text_sec = text;
	g->has_line_info = has_line_info(abfd);
	g->big_endian = bfd_big_endian(abfd);
	g->sign_extend_vma = bfd_get_sign_extend_vma(abfd) == 1;
	g->leading_char = bfd_get_symbol_leading_char(abfd);

	int bits = bfd_get_arch_size(abfd);
	if (bits == -1)
		bits = (int)bfd_arch_bits_per_address(abfd);
	if (bits != 32 && bits != 64)
		die(g, "address size has unexpected value of %d", bits);
	g->addr_size = bits / 8;
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
   0 rejected. */
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
	if (!local_name_ok(name, overrun))
		return 0;
	if (g->leading_char && name[0] != g->leading_char)
		return 0;
	if (strncmp(name, "__gnu_compiled", 14) == 0 ||
	    strncmp(name, "___gnu_compiled", 15) == 0)
		return 0;
	if (g->opt.ignore_non_func && !(sym->flags & BSF_FUNCTION))
		return 0;
	return 't';
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

void core_build_syms(struct gprof *g)
{
	bfd *abfd = ABFD(g);
	long nreal = read_bfd_symbols(g);
	asymbol **syms = (asymbol **)g->bfd_syms;
	bool func_flag = flavour_has_func_flag(abfd);

	if (g->opt.map_file)
		map_file_read(g, g->opt.map_file);
	for (long i = 0; i < g->nbfd_syms; i++) {
		int cls = classify(g, syms[i], i >= nreal);
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
		s->is_static = cls == 't';
		s->is_func = func_flag ? (syms[i]->flags & BSF_FUNCTION) != 0 : true;
		s->bfd_order = (unsigned)g->syms.len;
	}
	if (g->syms.len == 0)
		die(g, "file `%s' has no symbols", g->opt.image);
	symtab_finish(g, &g->syms, core_text_end(g));
}

/* -S: symbols from an nm-style listing ("ADDR TYPE NAME" per line), of
   which only text symbols (t, T) are used. */
void core_read_ext_symtab(struct gprof *g, const char *file)
{
	FILE *f = fopen(file, "r");
	char addr[1024], type[1024], name[1024];

	if (!f)
		die(g, "could not open %s.", file);
	while (fscanf(f, "%1023s %1023s %1023s", addr, type, name) == 3) {
		if ((type[0] != 't' && type[0] != 'T') || type[1])
			continue;
		struct sym *s = symtab_add(&g->syms);
		s->name = xstrdup(name);
		s->addr = strtoull(addr, NULL, 16);
		s->is_func = true;
		s->is_static = type[0] == 't';
		s->file_known = true;    /* no debug info for these */
		s->bfd_order = (unsigned)g->syms.len;
	}
	fclose(f);
	if (g->syms.len == 0)
		die(g, "file `%s' has no symbols", file);
	symtab_finish(g, &g->syms, core_text_end(g));
}

bool core_find_line(struct gprof *g, vma_t addr, const char **file,
                    const char **func, unsigned *line)
{
	asection *text = TEXT(g);
	*file = *func = NULL;
	*line = 0;
	if (!g->bfd_syms || !g->has_line_info)
		return false;
	return bfd_find_nearest_line(ABFD(g), text, (asymbol **)g->bfd_syms,
	                             addr - bfd_section_vma(text), file, func,
	                             line);
}

static int cmp_order(const void *pa, const void *pb, void *ctx)
{
	const struct sym *a = *(struct sym *const *)pa;
	const struct sym *b = *(struct sym *const *)pb;
	(void)ctx;
	return a->bfd_order < b->bfd_order ? -1 : a->bfd_order > b->bfd_order;
}

/* Looks up every symbol's source file in symbol-table order, which fixes
   the order of the source-file list as GNU builds it. */
void core_intern_files(struct gprof *g)
{
	size_t n = g->syms.len;
	struct sym **v = xmalloc((n + 1) * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = &g->syms.base[i];
	stable_sort(v, n, sizeof *v, cmp_order, NULL);
	for (size_t i = 0; i < n; i++)
		sym_lookup_file(g, v[i]);
	free(v);
}
