/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * line_bounds.c - owns finding where BFD's answer to a line lookup can
 * change: every row of the DWARF line tables, every start and end of a
 * debug-info range of a function, inlined subroutine or unit (and of the
 * address ranges table), of a symbol and of a section.  Between two such
 * addresses BFD reads the same row, finds the same innermost function and
 * falls back on the same symbol, so -l need not ask it about each byte.
 * Read with elfutils' libdw and libelf; without them (HAVE_LIBDW unset)
 * there are no boundaries and the caller scans every byte.
 */
#include "config.h"

#include <stdlib.h>

#include "line_bounds.h"

void line_bounds_free(struct line_bounds *lb)
{
	free(lb->addr);
	free(lb->kind);
	free(lb->file);
	free(lb->line);
	*lb = (struct line_bounds){ 0 };
}

#ifndef HAVE_LIBDW

bool line_bounds_read(const char *path, uint64_t lo, uint64_t hi,
                      struct line_bounds *out)
{
	(void)path, (void)lo, (void)hi;
	*out = (struct line_bounds){ 0 };
	return false;
}

#else

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

struct bound {
	uint64_t addr;
	size_t seq;                  /* order found, kept among equal addresses */
	int file;                    /* rows: file number; others: -1 */
	unsigned line, unit;
	unsigned char kind;
	bool end_seq;
};

/* Boundaries as they are found, unsorted; only those inside the text. */
struct acc {
	struct bound *v;
	size_t n, cap;
	uint64_t lo, hi;
	size_t rows;                 /* line-table rows seen, in text or not */
	size_t files;                /* file numbers given so far */
	unsigned unit;               /* units read so far */
	bool failed;                 /* out of memory or unreadable DWARF */
};

static struct bound *push(struct acc *a, uint64_t addr, unsigned char kind)
{
	if (addr < a->lo || addr >= a->hi || a->failed)
		return NULL;
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 4096;
		struct bound *v = realloc(a->v, cap * sizeof *v);
		if (!v) {
			a->failed = true;
			return NULL;
		}
		a->v = v;
		a->cap = cap;
	}
	struct bound *b = &a->v[a->n];
	*b = (struct bound){ .addr = addr, .seq = a->n, .file = -1, .kind = kind };
	a->n++;
	return b;
}

static void add(struct acc *a, uint64_t addr, unsigned char kind)
{
	push(a, addr, kind);
}

/* A range [start, end): both ends matter, the end being where the next
   thing (or nothing) begins. */
static void add_range(struct acc *a, uint64_t start, uint64_t end)
{
	add(a, start, LB_FUNC);
	add(a, end, LB_FUNC);
}

/*
 * Can BFD's answers come from anything but this file's own DWARF?  Stabs
 * and DWARF 1 are read by other code; a debug link or an alternate file
 * (dwz) sends BFD to another file; relocatable objects need relocating.
 * Any of these, or no line table at all, and the caller scans every byte.
 */
static bool elf_usable(Elf *elf)
{
	GElf_Ehdr eh;
	size_t shstrndx;
	bool info = false, line = false;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			return false;
		if (strncmp(name, ".stab", 5) == 0 || strcmp(name, ".debug") == 0 ||
		    strcmp(name, ".gnu_debuglink") == 0 ||
		    strcmp(name, ".gnu_debugaltlink") == 0)
			return false;
		if (strcmp(name, ".debug_info") == 0 || strcmp(name, ".zdebug_info") == 0)
			info = true;
		if (strcmp(name, ".debug_line") == 0 || strcmp(name, ".zdebug_line") == 0)
			line = true;
	}
	return info && line;
}

/* Every symbol's start and end (and the start without the Thumb bit,
   which BFD clears on ARM), from the static and dynamic tables. */
static void add_symtab(struct acc *a, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d || sh->sh_entsize == 0)
		return;
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s))
			break;
		add(a, s.st_value, LB_FUNC);
		add(a, s.st_value & ~(uint64_t)1, LB_FUNC);
		add(a, s.st_value + s.st_size, LB_FUNC);
	}
}

/* Sections' ends and the symbols in them. */
static void add_elf_bounds(struct acc *a, Elf *elf)
{
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_flags & SHF_ALLOC)
			add_range(a, sh.sh_addr, sh.sh_addr + sh.sh_size);
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM)
			add_symtab(a, scn, &sh);
	}
}

/* Does BFD make a function of this DIE, or a unit whose ranges pick
   where it looks?  Blocks, labels and the rest change nothing it says. */
static bool tag_matters(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point || tag == DW_TAG_compile_unit ||
	       tag == DW_TAG_partial_unit;
}

/* One DIE's ranges, however written (low/high pc, DW_AT_ranges in
   .debug_ranges or .debug_rnglists), and its low pc alone. */
static void add_die_ranges(struct acc *a, Dwarf_Die *die)
{
	Dwarf_Addr base, start, end, low;
	ptrdiff_t off = 0;
	bool has_ranges = dwarf_hasattr(die, DW_AT_ranges) ||
	                  dwarf_hasattr(die, DW_AT_high_pc);

	if (!tag_matters(dwarf_tag(die)) ||
	    (!has_ranges && !dwarf_hasattr(die, DW_AT_low_pc)))
		return;
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		add_range(a, start, end);
	/* A range list we cannot read may still be one BFD reads. */
	if (off < 0 && has_ranges)
		a->failed = true;
	if (dwarf_lowpc(die, &low) == 0)
		add(a, low, LB_FUNC);
}

enum { MAX_DEPTH = 1024 };

/* Every DIE of a unit, depth first, without recursion (a damaged file
   may nest deeply). */
static void walk_unit(struct acc *a, Dwarf_Die *cudie)
{
	Dwarf_Die *stack = malloc(MAX_DEPTH * sizeof *stack);
	int depth = 0;
	if (!stack) {
		a->failed = true;
		return;
	}
	stack[0] = *cudie;
	while (depth >= 0 && !a->failed) {
		Dwarf_Die *die = &stack[depth];
		add_die_ranges(a, die);
		int r = depth + 1 < MAX_DEPTH ? dwarf_child(die, &stack[depth + 1]) : -1;
		if (r == 0) {
			depth++;
			continue;
		}
		if (r < 0 && dwarf_haschildren(die)) {
			a->failed = true;
			break;
		}
		/* no children: on to the next sibling, climbing as needed */
		while (depth > 0) {
			Dwarf_Die next;
			r = dwarf_siblingof(&stack[depth], &next);
			if (r == 0) {
				stack[depth] = next;
				break;
			}
			if (r < 0)
				a->failed = true;
			depth--;
		}
		if (depth == 0)
			break;
	}
	free(stack);
}

/* One row: its address, and its file and line for the caller to use
   instead of asking BFD. */
static bool add_row(struct acc *a, Dwarf_Line *line)
{
	Dwarf_Addr addr;
	Dwarf_Files *files;
	size_t idx;
	int no;
	bool end;
	if (dwarf_lineaddr(line, &addr) != 0 || dwarf_lineno(line, &no) != 0 ||
	    dwarf_lineendsequence(line, &end) != 0 ||
	    dwarf_line_file(line, &files, &idx) != 0)
		return false;
	struct bound *b = push(a, addr, LB_ROW);
	if (b) {
		b->file = idx < (size_t)INT_MAX - a->files ? (int)(a->files + idx) : -1;
		b->line = (unsigned)no;
		b->unit = a->unit;
		b->end_seq = end;
	}
	return true;
}

/* A unit's line table: every row's address, end-of-sequence rows too.
   Its file entries get the numbers from a->files on. */
static void add_lines(struct acc *a, Dwarf_Die *cudie)
{
	Dwarf_Lines *lines;
	Dwarf_Files *files;
	size_t n, nfiles;
	a->unit++;
	if (!dwarf_hasattr(cudie, DW_AT_stmt_list))
		return;
	if (dwarf_getsrclines(cudie, &lines, &n) != 0 ||
	    dwarf_getsrcfiles(cudie, &files, &nfiles) != 0) {
		a->failed = true;
		return;
	}
	for (size_t i = 0; i < n && !a->failed; i++)
		if (!add_row(a, dwarf_onesrcline(lines, i)))
			a->failed = true;
	a->rows += n;
	a->files += nfiles;
}

/* .debug_aranges, which BFD may use to pick the unit of an address. */
static void add_aranges(struct acc *a, Dwarf *dw)
{
	Dwarf_Aranges *ar;
	size_t n;
	if (dwarf_getaranges(dw, &ar, &n) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Addr start;
		Dwarf_Word len;
		if (dwarf_getarangeinfo(dwarf_onearange(ar, i), &start, &len,
		                        NULL) == 0)
			add_range(a, start, start + len);
	}
}

static void add_dwarf_bounds(struct acc *a, Dwarf *dw)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Half version;
	uint8_t type;
	Dwarf_Die cudie, subdie;
	int r;

	while (!a->failed &&
	       (r = dwarf_get_units(dw, cu, &cu, &version, &type, &cudie,
	                            &subdie)) == 0) {
		if (type == DW_UT_skeleton || type == DW_UT_split_compile ||
		    type == DW_UT_split_type) {
			a->failed = true;    /* BFD 2.40 does not read .dwo files */
			break;
		}
		if (type != DW_UT_compile && type != DW_UT_partial)
			continue;
		add_lines(a, &cudie);
		walk_unit(a, &cudie);
	}
	if (r < 0)
		a->failed = true;
	add_aranges(a, dw);
}

static int cmp_bound(const void *pa, const void *pb)
{
	const struct bound *x = pa, *y = pb;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The bounds at one address, b[0..n), made one entry: the last row that
   does not end a sequence is the one BFD keeps; rows of two units, or
   of two lines, make the entry one to check. */
static void merge_group(const struct bound *b, size_t n,
                        struct line_bounds *out, size_t k)
{
	const struct bound *row = NULL;
	unsigned char kind = 0;
	bool units = false;
	for (size_t i = 0; i < n; i++) {
		kind |= b[i].kind;
		if (!(b[i].kind & LB_ROW) || b[i].end_seq)
			continue;
		if (row && row->unit != b[i].unit)
			units = true;
		if (row && (row->line != b[i].line || row->file != b[i].file))
			kind |= LB_AMBIG;
		row = &b[i];
	}
	out->addr[k] = b[0].addr;
	out->kind[k] = kind;
	out->file[k] = row && !units ? row->file : -1;
	out->line[k] = row ? row->line : 0;
}

/* Sorted, one entry per address with the kinds of all its bounds. */
static bool finish(struct acc *a, struct line_bounds *out)
{
	qsort(a->v, a->n, sizeof *a->v, cmp_bound);
	out->addr = malloc((a->n + 1) * sizeof *out->addr);
	out->kind = malloc(a->n + 1);
	out->file = malloc((a->n + 1) * sizeof *out->file);
	out->line = malloc((a->n + 1) * sizeof *out->line);
	out->n = 0;
	out->nfiles = a->files;
	if (!out->addr || !out->kind || !out->file || !out->line) {
		line_bounds_free(out);
		return false;
	}
	for (size_t i = 0, j; i < a->n; i = j) {
		for (j = i + 1; j < a->n && a->v[j].addr == a->v[i].addr; j++)
			;
		merge_group(&a->v[i], j - i, out, out->n++);
	}
	return true;
}

bool line_bounds_read(const char *path, uint64_t lo, uint64_t hi,
                      struct line_bounds *out)
{
	struct acc a = { .lo = lo, .hi = hi };
	bool ok = false;
	*out = (struct line_bounds){ 0 };
	if (lo >= hi || elf_version(EV_CURRENT) == EV_NONE)
		return false;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Dwarf *dw = NULL;
	if (elf && elf_usable(elf) && (dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL))) {
		add(&a, lo, LB_FUNC);
		add_elf_bounds(&a, elf);
		add_dwarf_bounds(&a, dw);
		ok = !a.failed && a.rows > 0 && finish(&a, out);
	}
	if (dw)
		dwarf_end(dw);
	if (elf)
		elf_end(elf);
	close(fd);
	free(a.v);
	return ok;
}

#endif
