/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * line_bounds.c - owns finding where BFD's answer to a line lookup can
 * change: every row of the DWARF line tables, every start and end of a
 * debug-info range of a function, inlined subroutine or unit (and of the
 * address ranges table), of a symbol and of a section.  Between two such
 * addresses BFD reads the same row, finds the same innermost function and
 * falls back on the same symbol, so -l need not ask it about each byte.
 * With each boundary go the row of the line table there and the function
 * whose range piece holding it is shortest, from which line_syms.c guesses
 * BFD's answer where BFD has settled.  Read with elfutils' libdw and
 * libelf; without them (HAVE_LIBDW unset) there are no boundaries and the
 * caller scans every byte.  Whether a unit's line-table header reads as
 * BFD reads it is line_header.c's to say.
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
	free(lb->func);
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


/* One piece of a function's (or inlined subroutine's) range, with the
   number of its DIE. */
struct fn_range {
	uint64_t start, end;
	int func;
};

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
	struct fn_range *fr;         /* pieces of functions' ranges */
	size_t nfr, capfr;
	int nfuncs;                  /* function DIEs numbered so far */
	size_t rows;                 /* line-table rows seen, in text or not */
	size_t files;                /* file numbers given so far */
	unsigned unit;               /* units read so far */
	const unsigned char *line;   /* .debug_line, decompressed; or NULL */
	size_t line_size;
	bool big;                    /* big-endian file */
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
 * Can BFD's answers come from anything but this file's own DWARF, or its
 * text be one BFD reads in ways of its own (not code, not loaded)?  Stabs
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
		/* Only the text of an ordinary executable: BFD reads a section
		   of an unknown type, or one not loaded, in ways of its own
		   (found by the lines fuzz harness). */
		if (strcmp(name, ".text") == 0 &&
		    (sh.sh_type != SHT_PROGBITS ||
		     (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		     (SHF_ALLOC | SHF_EXECINSTR)))
			return false;
		if (strcmp(name, ".debug_info") == 0 || strcmp(name, ".zdebug_info") == 0)
			info = true;
		if (strcmp(name, ".debug_line") == 0 || strcmp(name, ".zdebug_line") == 0)
			line = true;
	}
	return info && line;
}

/* Every symbol's start and end (and the start without the Thumb bit,
   which BFD clears on ARM), from the static and dynamic tables.  A table
   libelf will not hand over whole (compressed, an entry size not an ELF
   symbol's, a size not a multiple of it) is one BFD may still read, in
   part, and find functions in that we would not: the reader fails and
   the caller scans every byte (found by the lines fuzz harness). */
static void add_symtab(struct acc *a, Elf *elf, Elf_Scn *scn,
                       const GElf_Shdr *sh)
{
	size_t ent = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Data *d = elf_getdata(scn, NULL);
	if (ent == 0 || sh->sh_entsize != ent || sh->sh_size % ent != 0 ||
	    (sh->sh_flags & SHF_COMPRESSED) || !d || d->d_type != ELF_T_SYM ||
	    d->d_size != sh->sh_size) {
		a->failed = true;
		return;
	}
	size_t n = sh->sh_size / ent;
	for (size_t i = 0; i < n && i <= INT_MAX; i++) {
		GElf_Sym s;
		if (!gelf_getsym(d, (int)i, &s)) {
			a->failed = true;
			return;
		}
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
			add_symtab(a, elf, scn, &sh);
	}
}

static bool is_function(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point;
}

/* Does BFD make a function of this DIE, or a unit whose ranges pick
   where it looks?  Blocks, labels and the rest change nothing it says. */
static bool tag_matters(int tag)
{
	return is_function(tag) || tag == DW_TAG_compile_unit ||
	       tag == DW_TAG_partial_unit;
}

static void add_fn_range(struct acc *a, uint64_t start, uint64_t end,
                         int func)
{
	if (a->failed || end <= start)
		return;
	if (a->nfr == a->capfr) {
		size_t cap = a->capfr ? a->capfr * 2 : 1024;
		struct fn_range *v = realloc(a->fr, cap * sizeof *v);
		if (!v) {
			a->failed = true;
			return;
		}
		a->fr = v;
		a->capfr = cap;
	}
	a->fr[a->nfr++] = (struct fn_range){ start, end, func };
}

/* One DIE's ranges, however written (low/high pc, DW_AT_ranges in
   .debug_ranges or .debug_rnglists), and its low pc alone. */
static void add_die_ranges(struct acc *a, Dwarf_Die *die)
{
	Dwarf_Addr base, start, end, low;
	ptrdiff_t off = 0;
	bool has_ranges = dwarf_hasattr(die, DW_AT_ranges) ||
	                  dwarf_hasattr(die, DW_AT_high_pc);

	int tag = dwarf_tag(die), func = -1;

	if (!tag_matters(tag) ||
	    (!has_ranges && !dwarf_hasattr(die, DW_AT_low_pc)))
		return;
	if (is_function(tag) && a->nfuncs < INT_MAX)
		func = a->nfuncs++;
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
		add_range(a, start, end);
		if (func >= 0)
			add_fn_range(a, start, end, func);
	}
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

/* The line table of a unit checked, if it has one. */
static bool unit_header_ok(struct acc *a, Dwarf_Die *cudie)
{
	Dwarf_Attribute attr;
	Dwarf_Word off;
	if (!dwarf_attr(cudie, DW_AT_stmt_list, &attr) ||
	    dwarf_formudata(&attr, &off) != 0 || !a->line)
		return false;
	return line_header_ok(a->line, a->line_size, a->big, off);
}

/* A section still compressed, ELF-style (SHF_COMPRESSED) or the old
   GNU way (a .zdebug name and data starting "ZLIB"), is decompressed. */
static bool decompress(Elf_Scn *scn, const GElf_Shdr *sh, bool zdebug)
{
	if (sh->sh_flags & SHF_COMPRESSED)
		return elf_compress(scn, 0, 0) >= 0;
	Elf_Data *d = zdebug ? elf_getdata(scn, NULL) : NULL;
	if (d && d->d_buf && d->d_size >= 4 && memcmp(d->d_buf, "ZLIB", 4) == 0)
		return elf_compress_gnu(scn, 0, 0) >= 0;
	return true;
}

/*
 * .debug_line (or the old .zdebug_line) as libdw reads it, decompressed.
 * libdw decompresses its sections in place when it opens the file; should
 * one still be compressed, it is done here the same way.  Two such
 * sections, or one libelf will not hand over in one piece, and there is
 * no data: every unit with a line table then fails.
 */
static void find_line_data(struct acc *a, Elf *elf)
{
	GElf_Ehdr eh;
	size_t shstrndx;
	Elf_Scn *found = NULL;
	if (!gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	a->big = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			return;
		if (strcmp(name, ".debug_line") != 0 &&
		    strcmp(name, ".zdebug_line") != 0)
			continue;
		if (found)
			return;
		found = scn;
		if (!decompress(scn, &sh, name[1] == 'z'))
			return;
	}
	Elf_Data *d = found ? elf_getdata(found, NULL) : NULL;
	if (!d || !d->d_buf || d->d_off != 0 || elf_getdata(found, d))
		return;
	a->line = d->d_buf;
	a->line_size = d->d_size;
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
	if (!unit_header_ok(a, cudie) ||
	    dwarf_getsrclines(cudie, &lines, &n) != 0 ||
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
static bool merge_group(const struct bound *b, size_t n,
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
	/* a row here, or an end of sequence: either way the row before no
	   longer reaches this address */
	return (kind & LB_ROW) != 0;
}

static int cmp_fn_range(const void *pa, const void *pb)
{
	const struct fn_range *x = pa, *y = pb;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->func < y->func ? -1 : x->func > y->func;
}

/*
 * The function BFD settles on at each boundary: of the pieces of ranges
 * holding the address, the shortest (BFD's best fit); -1 where none
 * holds it or two of one length do.  A sweep over the sorted pieces,
 * keeping those that may still hold the next address.
 */
static bool find_functions(struct acc *a, struct line_bounds *out)
{
	struct fn_range **live = malloc((a->nfr + 1) * sizeof *live);
	size_t nlive = 0, next = 0;
	if (!live)
		return false;
	if (a->nfr > 0)              /* (no pieces: fr may be NULL) */
		qsort(a->fr, a->nfr, sizeof *a->fr, cmp_fn_range);
	for (size_t k = 0; k < out->n; k++) {
		uint64_t addr = out->addr[k];
		while (next < a->nfr && a->fr[next].start <= addr)
			live[nlive++] = &a->fr[next++];
		size_t kept = 0;
		const struct fn_range *best = NULL;
		bool tie = false;
		for (size_t i = 0; i < nlive; i++) {
			const struct fn_range *r = live[i];
			if (r->end <= addr)
				continue;
			live[kept++] = live[i];
			uint64_t len = r->end - r->start;
			if (!best || len < best->end - best->start) {
				best = r;
				tie = false;
			} else if (len == best->end - best->start && r->func != best->func) {
				tie = true;
			}
		}
		nlive = kept;
		out->func[k] = best && !tie ? best->func : -1;
	}
	free(live);
	return true;
}

/* A boundary that is no row reads the row before it, if that one does
   not end its sequence. */
static void inherit_rows(struct line_bounds *out, const bool *has_row)
{
	int file = -1;
	unsigned line = 0;
	for (size_t k = 0; k < out->n; k++) {
		if (has_row[k]) {
			file = out->file[k];
			line = out->line[k];
		} else {
			out->file[k] = file;
			out->line[k] = line;
		}
	}
}

/* Sorted, one entry per address with the kinds of all its bounds. */
static bool finish(struct acc *a, struct line_bounds *out)
{
	qsort(a->v, a->n, sizeof *a->v, cmp_bound);
	out->addr = malloc((a->n + 1) * sizeof *out->addr);
	out->kind = malloc(a->n + 1);
	out->file = malloc((a->n + 1) * sizeof *out->file);
	out->line = malloc((a->n + 1) * sizeof *out->line);
	out->func = malloc((a->n + 1) * sizeof *out->func);
	bool *has_row = malloc(a->n + 1);
	out->n = 0;
	out->nfiles = a->files;
	out->nfuncs = (size_t)a->nfuncs;
	if (!out->addr || !out->kind || !out->file || !out->line ||
	    !out->func || !has_row) {
		free(has_row);
		line_bounds_free(out);
		return false;
	}
	for (size_t i = 0, j; i < a->n; i = j) {
		for (j = i + 1; j < a->n && a->v[j].addr == a->v[i].addr; j++)
			;
		has_row[out->n] = merge_group(&a->v[i], j - i, out, out->n);
		out->n++;
	}
	inherit_rows(out, has_row);
	free(has_row);
	if (!find_functions(a, out)) {
		line_bounds_free(out);
		return false;
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
		find_line_data(&a, elf);
		add_dwarf_bounds(&a, dw);
		ok = !a.failed && a.rows > 0 && finish(&a, out);
	}
	if (dw)
		dwarf_end(dw);
	if (elf)
		elf_end(elf);
	close(fd);
	free(a.v);
	free(a.fr);
	return ok;
}

#endif
