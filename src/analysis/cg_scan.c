/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cg_scan.c - the -c static call graph: call instructions found in the
 * text become arcs with a count of 0.
 *
 * Also reads, for the diagnosis, which call ends at a return address
 * (decode/call_site.c): the decoders' only user stays this file.
 *
 * Owns everything but the decoding itself: reading .text through BFD,
 * the address range of each symbol's code, clipping it to the histograms,
 * choosing the decoder for the architecture (decode_*.c, through
 * call_decode.h) and deciding which reported call targets become arcs.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <bfd.h>

#include "analysis/analysis.h"
#include "decode/decode.h"
#include "cg_scan.h"

struct cg_scan {
	struct gprof *g;
	unsigned char *text;         /* contents of .text, owned */
	struct call_decode dec;      /* what the decoder sees */
	call_decoder *decode;
	struct sym *parent;          /* symbol whose code is being decoded */
	struct sym *indirect;        /* "<indirect child>" (alpha, mips, vax) */
	struct code_mark *marks;     /* mapping symbols in .text, owned */
};

/* One row per instruction set with a decoder, and the reader of the
   call that ends at a return address (the diagnosis's, below) where
   there is one.  GNU gprof 2.40 has the first six decoders; for the
   others it prints "-c not supported on architecture NAME" and goes on
   without static arcs, while gproftk adds the arcs of their direct
   calls (doc/gprof.md, "-c on more architectures"). */
static const struct {
	enum bfd_architecture arch;
	call_decoder *decode;
	call_site_fn *site;
} decoders[] = {
	{ bfd_arch_i386, decode_x86, call_site_x86 },
	{ bfd_arch_aarch64, decode_aarch64, call_site_aarch64 },
	{ bfd_arch_mips, decode_mips, NULL },
	{ bfd_arch_alpha, decode_alpha, NULL },
	{ bfd_arch_sparc, decode_sparc, NULL },
	{ bfd_arch_vax, decode_vax, NULL },
	{ bfd_arch_arm, decode_arm, call_site_arm },
	{ bfd_arch_riscv, decode_riscv, call_site_riscv },
	{ bfd_arch_powerpc, decode_ppc, call_site_ppc },
	{ bfd_arch_s390, decode_s390, call_site_s390 },
};

static call_decoder *decoder_for(enum bfd_architecture arch)
{
	for (size_t i = 0; i < sizeof decoders / sizeof decoders[0]; i++)
		if (decoders[i].arch == arch)
			return decoders[i].decode;
	return NULL;
}

static bool in_histogram(const struct gprof *g, vma_t addr)
{
	for (size_t i = 0; i < g->nhists; i++)
		if (g->hists[i].lowpc <= addr && addr < g->hists[i].highpc)
			return true;
	return false;
}

/* Only the part of a function that a histogram covers is scanned. */
static void clip_to_histograms(struct gprof *g, vma_t *lo, vma_t *hi)
{
	bool found = false;

	for (size_t i = 0; i < g->nhists; i++) {
		vma_t l = g->hists[i].lowpc > *lo ? g->hists[i].lowpc : *lo;
		vma_t h = g->hists[i].highpc < *hi ? g->hists[i].highpc : *hi;

		if (l >= h)
			continue;
		if (found) {
			/* GNU's message has no newline. */
			fflush(stdout);
			fprintf(stderr, "%s: found a symbol that covers several "
			        "histogram records", g->whoami);
			gprof_exit(1);
		}
		found = true;
		*lo = l;
		*hi = h;
	}
	if (!found)
		*hi = *lo;
}

/* A call to `dest` counts only if it lands exactly on a symbol's start;
   decoders may report false hits (x86 tries every byte). */
static bool direct_call(void *ctx, uint64_t dest)
{
	struct cg_scan *scan = ctx;
	struct gprof *g = scan->g;

	if (!in_histogram(g, dest))
		return false;
	struct sym *child = sym_lookup_exe(g, dest);

	if (!child || child->addr != dest)
		return false;
	debug_printf(g, DBG_CALL, "[findcall]\t0x%lx: call to %s\n",
	             (unsigned long)dest, child->name);
	arc_add(g, scan->parent, child, 0);
	return true;
}

/* An indirect call: its target is unknown, so it goes to a pseudo symbol
   outside the symbol table, as GNU does on alpha and mips.  The symbol is
   made on first use and lives as long as the arcs to it. */
static void indirect_call(void *ctx)
{
	struct cg_scan *scan = ctx;

	if (!scan->indirect) {
		scan->indirect = xcalloc(1, sizeof *scan->indirect);
		scan->indirect->name = "<indirect child>";
		scan->indirect->fract = 1.0;
		scan->indirect->cyc_head = scan->indirect;
	}
	arc_add(scan->g, scan->parent, scan->indirect, 0);
}

/* A mapping symbol: "$" and one letter, maybe followed by ".anything". */
static bool is_mapping_symbol(const asymbol *sym)
{
	const char *n = sym->name;

	return n && n[0] == '$' && n[1] >= 'a' && n[1] <= 'z' &&
	       (n[2] == '\0' || n[2] == '.') && (sym->flags & BSF_LOCAL);
}

static int mark_cmp(const void *a, const void *b)
{
	const struct code_mark *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The mapping symbols of .text in address order, for decoders that need
   to know code from data (ARM). */
static void read_marks(struct cg_scan *scan)
{
	struct gprof *g = scan->g;
	asymbol **syms = (asymbol **)g->bfd_syms;
	size_t n = 0;

	scan->marks = xmalloc(((size_t)g->nbfd_syms + 1) * sizeof *scan->marks);
	for (long i = 0; i < g->nbfd_syms; i++)
		if (syms[i]->section == g->text_sec &&
		    is_mapping_symbol(syms[i]))
			scan->marks[n++] = (struct code_mark){
				bfd_asymbol_value(syms[i]), syms[i]->name[1] };
	qsort(scan->marks, n, sizeof *scan->marks, mark_cmp);
	scan->dec.marks = scan->marks;
	scan->dec.nmarks = n;
}

/* Reads .text whole; false (after GNU's messages) when it cannot. */
static bool read_text(struct cg_scan *scan)
{
	struct gprof *g = scan->g;
	bfd *abfd = g->abfd;
	asection *sec = g->text_sec;
	size_t size = bfd_section_size(sec);

	scan->text = xmalloc(size);
	if (!bfd_get_section_contents(abfd, sec, scan->text, 0, size)) {
		bfd_perror("bfd_get_section_contents");
		fprintf(stderr, "%s: can't do -c\n", g->whoami);
		return false;
	}
	scan->dec = (struct call_decode){
		.text = scan->text,
		.vma = bfd_section_vma(sec),
		.size = size,
		.big_endian = g->big_endian,
		.addr_size = g->addr_size,
		.entry = bfd_get_start_address(abfd),
		.direct = direct_call,
		.indirect = indirect_call,
		.ctx = scan,
	};
	return true;
}

struct cg_scan *cg_scan_open(struct gprof *g)
{
	if (!g->abfd || !g->text_sec)
		return NULL;
	struct cg_scan *scan = xcalloc(1, sizeof *scan);

	scan->g = g;
	if (!read_text(scan)) {
		cg_scan_close(scan);
		return NULL;
	}
	bfd *abfd = g->abfd;

	scan->decode = decoder_for(bfd_get_arch(abfd));
	if (!scan->decode) {
		fprintf(stderr, "%s: -c not supported on architecture %s\n",
		        g->whoami, bfd_printable_name(abfd));
		cg_scan_close(scan);
		return NULL;
	}
	read_marks(scan);
	return scan;
}

/* A symbol's code is taken to run up to the next symbol's start (the
   last one's to just past its end), as GNU does.  Shared libraries'
   symbols (shlibs.c) have no code in the executable. */
void cg_scan_sym(struct cg_scan *scan, size_t i)
{
	struct gprof *g = scan->g;
	size_t n = exe_syms_len(g);
	if (i >= n)
		return;
	struct sym *s = &g->syms.base[i];
	vma_t lo = s->addr;
	vma_t hi = i + 1 < n ? g->syms.base[i + 1].addr : s->end_addr + 1;

	clip_to_histograms(g, &lo, &hi);
	debug_printf(g, DBG_CALL, "[findcall] %s: 0x%lx to 0x%lx\n",
	             s->name, (unsigned long)lo, (unsigned long)hi);
	scan->parent = s;
	scan->decode(&scan->dec, lo, hi);
}

/* ---- the calls that end at return addresses, for diagnose.c ---- */

static call_site_fn *site_reader_for(enum bfd_architecture arch)
{
	for (size_t i = 0; i < sizeof decoders / sizeof decoders[0]; i++)
		if (decoders[i].arch == arch)
			return decoders[i].site;
	return NULL;
}

bool cg_scan_call_ends(struct gprof *g, const uint64_t *pcs, size_t n,
                       struct call_end *out)
{
	bfd *abfd = g->abfd;
	asection *sec = g->text_sec;
	call_site_fn *read = abfd ? site_reader_for(bfd_get_arch(abfd)) : NULL;
	if (!read || !sec)
		return false;
	size_t size = bfd_section_size(sec);
	unsigned char *text = xmalloc(size ? size : 1);
	if (!bfd_get_section_contents(abfd, sec, text, 0, size)) {
		free(text);
		return false;
	}
	struct call_decode dec = {
		.text = text, .vma = bfd_section_vma(sec), .size = size,
		.big_endian = g->big_endian, .addr_size = g->addr_size,
	};
	for (size_t i = 0; i < n; i++) {
		struct call_site s = { 0 };
		out[i].found = read(&dec, pcs[i], &s);
		out[i].kind = (unsigned char)s.kind;
		out[i].to = s.to;
	}
	free(text);
	return true;
}

void cg_scan_close(struct cg_scan *scan)
{
	if (!scan)
		return;
	free(scan->text);
	free(scan->marks);
	free(scan);
}
