/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cg_arcs.c - assembling the call graph once all arcs are read.
 *
 * Owns the analysis between reading and printing: self-call bookkeeping,
 * the -c static call graph (call instructions found in the text), cycle
 * headers, print flags and propagation fractions (top-down), time
 * propagation (bottom-up) and the order and index numbers of the entries.
 * Every step visits symbols, arcs and members in GNU gprof's order, since
 * the floating-point sums and all sort ties depend on it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <bfd.h>

#include "gprof.h"

/* ---- -c: call instructions found in the text ---- */

struct text_scan {
	struct gprof *g;
	unsigned char *text;         /* contents of .text */
	vma_t vma;
	size_t size;
	enum bfd_architecture arch;
	struct sym *indirect;        /* "<indirect child>" (alpha, mips) */
};

static bool text_has(const struct text_scan *t, vma_t pc, size_t n)
{
	return pc >= t->vma && pc - t->vma <= t->size &&
	       t->size - (pc - t->vma) >= n;
}

static uint32_t text_u32(const struct text_scan *t, vma_t pc)
{
	const unsigned char *p = t->text + (pc - t->vma);

	if (t->g->big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
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

/* A call to `dest` counts only if it lands exactly on a symbol's start. */
static bool static_arc(struct text_scan *t, struct sym *parent, vma_t dest)
{
	struct gprof *g = t->g;

	if (!in_histogram(g, dest))
		return false;
	struct sym *child = sym_lookup(&g->syms, dest);

	if (!child || child->addr != dest)
		return false;
	debug_printf(g, DBG_CALL, "[findcall]\t0x%lx: call to %s\n",
	             (unsigned long)dest, child->name);
	arc_add(g, parent, child, 0);
	return true;
}

/* An indirect call: its target is unknown, so it goes to a pseudo symbol
   outside the symbol table, as GNU does on alpha and mips. */
static void indirect_arc(struct text_scan *t, struct sym *parent)
{
	if (!t->indirect) {
		t->indirect = xcalloc(1, sizeof *t->indirect);
		t->indirect->name = "<indirect child>";
		t->indirect->fract = 1.0;
		t->indirect->cyc_head = t->indirect;
	}
	arc_add(t->g, parent, t->indirect, 0);
}

/* x86: every byte may start a `call rel32` (0xe8).  GNU 2.40 adds the
   displacement without sign extension, so it never finds backward calls;
   here the displacement is signed and every direct call is found. */
static void scan_x86(struct text_scan *t, struct sym *parent, vma_t lo,
                     vma_t hi)
{
	for (vma_t pc = lo; pc < hi; pc++) {
		if (!text_has(t, pc, 5) || t->text[pc - t->vma] != 0xe8)
			continue;
		int32_t rel = (int32_t)text_u32(t, pc + 1);
		vma_t dest = pc + 5 + (vma_t)(int64_t)rel;

		if (t->g->addr_size == 4)
			dest &= 0xffffffffu;
		static_arc(t, parent, dest);
	}
}

/* aarch64: B and BL (GNU's mask accepts both), 26-bit word offset. */
static void scan_aarch64(struct text_scan *t, struct sym *parent, vma_t lo,
                         vma_t hi)
{
	for (vma_t pc = lo; pc < hi; pc += 4) {
		if (!text_has(t, pc, 4))
			continue;
		uint32_t insn = text_u32(t, pc);

		if ((insn & 0x7c000000u) != 0x14000000u)
			continue;
		int64_t off = (int64_t)((insn & 0x3ffffffu) ^ 0x2000000u) -
		              0x2000000;
		static_arc(t, parent, pc + (vma_t)(off * 4));
	}
}

/* mips: JAL (target inside the current 256 MB region), JALR indirect. */
static void scan_mips(struct text_scan *t, struct sym *parent, vma_t lo,
                      vma_t hi)
{
	for (vma_t pc = lo; pc < hi; pc += 4) {
		if (!text_has(t, pc, 4))
			continue;
		uint32_t op = text_u32(t, pc);

		if ((op & 0xfc000000u) == 0x0c000000u)
			static_arc(t, parent, (pc & ~(vma_t)0xfffffff) |
			                      (vma_t)((op & 0x3ffffffu) << 2));
		else if ((op & 0xfc00f83fu) == 0x0000f809u)
			indirect_arc(t, parent);
	}
}

/* alpha: BSR (21-bit word displacement), JSR and JSR_COROUTINE indirect. */
static void scan_alpha(struct text_scan *t, struct sym *parent, vma_t lo,
                       vma_t hi)
{
	for (vma_t pc = (lo + 3) & ~(vma_t)3; pc < hi; pc += 4) {
		if (!text_has(t, pc, 4))
			continue;
		uint32_t insn = text_u32(t, pc), op = insn >> 26;
		uint32_t fn = (insn >> 14) & 3;

		if (op == 0x1a && (fn == 1 || fn == 3)) {
			indirect_arc(t, parent);
		} else if (op == 0x34) {
			int64_t disp = (int64_t)((insn & 0x1fffffu) ^ 0x100000u) -
			               0x100000;
			static_arc(t, parent, pc + 4 + (vma_t)(disp * 4));
		}
	}
}

/* sparc: GNU tests the two top bits for any non-zero value (CALL is 01),
   which matches many more instructions; kept for identical output. */
static void scan_sparc(struct text_scan *t, struct sym *parent, vma_t lo,
                       vma_t hi)
{
	for (vma_t pc = (lo + 3) & ~(vma_t)3; pc < hi; pc += 4) {
		if (!text_has(t, pc, 4))
			continue;
		uint32_t insn = text_u32(t, pc);

		if (!(insn & 0xc0000000u))
			continue;
		int64_t disp = (int64_t)((insn & 0x3fffffffu) ^ 0x20000000u) -
		               0x20000000;
		static_arc(t, parent, pc + (vma_t)(disp * 4));
	}
}

/* vax: an operand specifier's mode is its high nibble; register 15 (PC)
   turns the displacement modes into PC-relative ones. */
enum vax_mode { VAX_SHORT, VAX_INDEXED, VAX_REG, VAX_DEFERRED, VAX_REL,
                VAX_REL_DEFERRED, VAX_OTHER };

static enum vax_mode vax_mode(uint8_t spec, int *len)
{
	int mode = spec >> 4, pc = (spec & 0xf) == 15;
	static const int disp_len[] = { 2, 2, 3, 3, 5, 5 };

	if (mode < 4) {
		*len = 1;
		return VAX_SHORT;                /* short literal */
	}
	if (mode == 4) {
		*len = 1;                        /* plus the base operand */
		return VAX_INDEXED;
	}
	if (mode >= 5 && mode <= 7) {
		*len = 1;
		return mode == 6 ? VAX_DEFERRED : VAX_REG;
	}
	if (mode == 8 || mode == 9) {
		*len = pc ? 5 : 1;               /* immediate / absolute */
		if (mode == 8)
			return pc ? VAX_SHORT : VAX_REG;
		return pc ? VAX_OTHER : VAX_REG;
	}
	*len = disp_len[mode - 10];
	if (!pc)
		return (mode & 1) ? VAX_DEFERRED : VAX_OTHER;
	return (mode & 1) ? VAX_REL_DEFERRED : VAX_REL;
}

/* Length of the operand at pc (an indexed one includes its base). */
static int vax_operand_len(const struct text_scan *t, vma_t pc)
{
	int len;

	if (!text_has(t, pc, 1))
		return 1;
	if (vax_mode(t->text[pc - t->vma], &len) == VAX_INDEXED)
		return 1 + vax_operand_len(t, pc + 1);
	return len;
}

static int64_t vax_disp(const struct text_scan *t, vma_t pc, int n)
{
	const unsigned char *p = t->text + (pc - t->vma);

	if (n == 1)
		return (int8_t)p[0];
	if (n == 2)
		return (int16_t)(p[0] | p[1] << 8);
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
	                 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* vax: CALLS (0xfb) with a literal or immediate argument count; the
   target operand is either PC-relative (a direct call) or deferred (an
   indirect one, charged to "<indirect child>"). */
static void scan_vax(struct text_scan *t, struct sym *parent, vma_t lo,
                     vma_t hi)
{
	for (vma_t pc = lo; pc < hi;) {
		if (!text_has(t, pc, 2) || t->text[pc - t->vma] != 0xfb) {
			pc++;
			continue;
		}
		int len;
		enum vax_mode first = vax_mode(t->text[pc + 1 - t->vma], &len);

		if (first != VAX_SHORT) {
			pc++;
			continue;
		}
		vma_t op = pc + 1 + (vma_t)vax_operand_len(t, pc + 1);

		if (!text_has(t, op, 1)) {
			pc++;
			continue;
		}
		enum vax_mode m = vax_mode(t->text[op - t->vma], &len);

		if (m == VAX_DEFERRED || m == VAX_REL_DEFERRED) {
			indirect_arc(t, parent);
			pc = op + (vma_t)vax_operand_len(t, op);
		} else if (m == VAX_REL && text_has(t, op, (size_t)len) &&
		           static_arc(t, parent, op + (vma_t)len +
		                      (vma_t)vax_disp(t, op + 1, len - 1))) {
			pc = op + (vma_t)len;
		} else {
			pc++;
		}
	}
}

static bool arch_supported(enum bfd_architecture arch)
{
	return arch == bfd_arch_i386 || arch == bfd_arch_aarch64 ||
	       arch == bfd_arch_mips || arch == bfd_arch_alpha ||
	       arch == bfd_arch_sparc || arch == bfd_arch_vax;
}

static void find_calls(struct text_scan *t, struct sym *parent, vma_t lo,
                       vma_t hi)
{
	clip_to_histograms(t->g, &lo, &hi);
	debug_printf(t->g, DBG_CALL, "[findcall] %s: 0x%lx to 0x%lx\n",
	             parent->name, (unsigned long)lo, (unsigned long)hi);
	switch (t->arch) {
	case bfd_arch_i386: scan_x86(t, parent, lo, hi); break;
	case bfd_arch_aarch64: scan_aarch64(t, parent, lo, hi); break;
	case bfd_arch_mips: scan_mips(t, parent, lo, hi); break;
	case bfd_arch_alpha: scan_alpha(t, parent, lo, hi); break;
	case bfd_arch_sparc: scan_sparc(t, parent, lo, hi); break;
	case bfd_arch_vax: scan_vax(t, parent, lo, hi); break;
	default: break;
	}
}

/* Load .text for -c.  Returns false (after GNU's messages) when the
   scan cannot be done at all. */
static bool text_scan_open(struct gprof *g, struct text_scan *t)
{
	bfd *abfd = g->abfd;
	asection *sec = g->text_sec;

	memset(t, 0, sizeof *t);
	t->g = g;
	if (!abfd || !sec)
		return false;
	t->size = bfd_section_size(sec);
	t->vma = bfd_section_vma(sec);
	t->text = xmalloc(t->size);
	if (!bfd_get_section_contents(abfd, sec, t->text, 0, t->size)) {
		bfd_perror("bfd_get_section_contents");
		fprintf(stderr, "%s: can't do -c\n", g->whoami);
		free(t->text);
		t->text = NULL;
		return false;
	}
	t->arch = bfd_get_arch(abfd);
	if (!arch_supported(t->arch)) {
		fprintf(stderr, "%s: -c not supported on architecture %s\n",
		        g->whoami, bfd_printable_name(abfd));
		free(t->text);
		t->text = NULL;
		return false;
	}
	return true;
}

/* ---- assembly ---- */

/* Reset the analysis fields; a recursive arc's count moves from ncalls to
   self_calls.  With -c the symbol's own text is scanned right after, as
   GNU interleaves the two (arcs it adds are seen by later symbols). */
static void init_syms(struct gprof *g)
{
	struct text_scan t;
	bool scan = g->opt.static_call_graph && text_scan_open(g, &t);

	for (size_t i = 0; i < g->syms.len; i++) {
		struct sym *s = &g->syms.base[i];
		struct arc *self = arc_lookup(g, s, s);

		s->child_time = 0.0;
		if (self) {
			s->ncalls -= self->count;
			s->self_calls = self->count;
		} else {
			s->self_calls = 0;
		}
		s->fract = s->prop_self = s->prop_child = 0.0;
		s->print_flag = false;
		s->top_order = 0;
		s->cycle_num = 0;
		s->cyc_head = s;
		s->cyc_next = NULL;
		if (scan) {
			vma_t hi = i + 1 < g->syms.len ? g->syms.base[i + 1].addr
			                              : s->end_addr + 1;
			find_calls(&t, s, s->addr, hi);
		}
	}
	if (scan)
		free(t.text);
}

/* One header per cycle, numbered in address order of the cycle heads;
   members point to it.  Calls into the cycle from outside are its ncalls,
   calls between different members its self_calls. */
static void cycle_link(struct gprof *g)
{
	struct symtab *st = &g->syms;
	int n = 0;

	for (size_t i = 0; i < st->len; i++)
		if (st->base[i].cyc_head == &st->base[i] && st->base[i].cyc_next)
			n++;
	g->ncycles = n;
	g->cycles = xcalloc(n ? n : 1, sizeof *g->cycles);
	n = 0;
	for (size_t i = 0; i < st->len; i++) {
		struct sym *s = &st->base[i];

		if (s->cyc_head != s || !s->cyc_next)
			continue;
		struct sym *cyc = &g->cycles[n++];

		cyc->print_flag = true;
		cyc->cycle_num = n;
		cyc->cyc_head = cyc;
		cyc->cyc_next = s;
		debug_printf(g, DBG_CYCLE, "[cycle_link] %s is the head of "
		             "cycle %d\n", s->name, n);
		for (struct sym *m = s; m; m = m->cyc_next) {
			m->cycle_num = n;
			m->cyc_head = cyc;
		}
		for (struct sym *m = s; m; m = m->cyc_next)
			for (struct arc *a = m->parents; a; a = a->next_parent) {
				if (a->parent == m)
					continue;
				if (a->parent->cycle_num == n)
					cyc->self_calls += a->count;
				else
					cyc->ncalls += a->count;
			}
	}
}

static int cmp_topo(const void *pa, const void *pb, void *ctx)
{
	const struct sym *a = *(struct sym *const *)pa;
	const struct sym *b = *(struct sym *const *)pb;

	(void)ctx;
	return (a->top_order > b->top_order) - (a->top_order < b->top_order);
}

/* A symbol in no cycle inherits from its callers; a cycle inherits as a
   whole from the callers outside it, and its members copy the result. */
static void inherit_flags(struct sym *child)
{
	struct sym *head = child->cyc_head;

	if (head == child) {
		child->print_flag = false;
		child->fract = 0.0;
		for (struct arc *a = child->parents; a; a = a->next_parent) {
			if (a->parent == child)
				continue;
			child->print_flag |= a->parent->print_flag;
			/* Arcs that were never taken (-c) carry no time. */
			if (child->ncalls != 0)
				child->fract += a->parent->fract *
				                ((double)a->count / (double)child->ncalls);
		}
		return;
	}
	head->print_flag = false;
	head->fract = 0.0;
	for (struct sym *m = head->cyc_next; m; m = m->cyc_next)
		for (struct arc *a = m->parents; a; a = a->next_parent) {
			if (a->parent->cyc_head == head)
				continue;
			head->print_flag |= a->parent->print_flag;
			if (head->ncalls != 0)
				head->fract += a->parent->fract *
				               ((double)a->count / (double)head->ncalls);
		}
	for (struct sym *m = head; m; m = m->cyc_next) {
		m->print_flag = head->print_flag;
		m->fract = head->fract;
	}
}

/* -f/-e/-F/-E and friends override what was inherited; include tables
   win over exclude tables. */
static void apply_specs(struct gprof *g, struct sym *s)
{
	if (!s->print_flag) {
		if (sym_selected(g, s, INCL_GRAPH))
			s->print_flag = true;
	} else if (!sym_in(g, s, INCL_GRAPH) && sym_in(g, s, EXCL_GRAPH)) {
		s->print_flag = false;
	}
	if (s->fract == 0.0) {
		if (sym_selected(g, s, INCL_TIME))
			s->fract = 1.0;
	} else if (!sym_in(g, s, INCL_TIME) && sym_in(g, s, EXCL_TIME)) {
		s->fract = 0.0;
	}
}

/* Top-down (callers before callees): the members of a cycle are adjacent
   in topological order and handled together when the first is met. */
static void propagate_flags(struct gprof *g, struct sym **topo, size_t n)
{
	struct sym *old_head = NULL;

	for (size_t i = n; i-- > 0;) {
		struct sym *s = topo[i];

		if (s->cyc_head != old_head) {
			old_head = s->cyc_head;
			inherit_flags(s);
		}
		apply_specs(g, s);
		s->prop_self = s->hist_time * s->fract;
		g->print_time += s->prop_self;
		debug_printf(g, DBG_PROP, "[prop_flags] %s ends up with "
		             "printflag %d and prop-fract %f\n", s->name,
		             s->print_flag, s->fract);
	}
}

/* A cycle's own time is that of its members (those excluded with -E
   aside, whose fraction is 0). */
static void cycle_time(struct gprof *g)
{
	for (int i = 0; i < g->ncycles; i++) {
		struct sym *cyc = &g->cycles[i];

		for (struct sym *m = cyc->cyc_next; m; m = m->cyc_next)
			if (m->fract != 0.0)
				cyc->hist_time += m->hist_time;
		cyc->prop_self = cyc->fract * cyc->hist_time;
	}
}

/* Bottom-up: a parent collects from each child arc the share count/calls
   of the child's self and descendant time; calls into a cycle are charged
   against the cycle as a whole, calls within one carry nothing. */
static void propagate_time(struct sym *parent)
{
	if (parent->fract == 0.0)
		return;
	for (struct arc *a = parent->children; a; a = a->next_child) {
		struct sym *child = a->child;

		if (a->count == 0 || child == parent || child->fract == 0.0)
			continue;
		if (child->cyc_head != child) {
			if (parent->cycle_num == child->cycle_num)
				continue;
			if (parent->top_order <= child->top_order)
				fputs("[propagate] toporder botches\n", stderr);
			child = child->cyc_head;
		} else if (parent->top_order <= child->top_order) {
			fputs("[propagate] toporder botches\n", stderr);
			continue;
		}
		if (child->ncalls == 0)
			continue;
		double ratio = (double)a->count / (double)child->ncalls;

		a->time = child->hist_time * ratio;
		a->child_time = child->child_time * ratio;
		double share = a->time + a->child_time;
		double prop_share = parent->fract * share;

		parent->child_time += share;
		if (parent->cyc_head != parent) {
			parent->cyc_head->child_time += share;
			parent->cyc_head->prop_child += prop_share;
		}
		parent->prop_child += prop_share;
		/* The arc shows what this parent actually propagates. */
		a->time *= parent->fract;
		a->child_time *= parent->fract;
	}
}

/* Entry order: total propagated time descending; then cycle headers
   first; names without a leading '_' before those with; more calls
   first; then the raw names. */
static int cmp_total(const void *pa, const void *pb, void *ctx)
{
	const struct sym *a = *(struct sym *const *)pa;
	const struct sym *b = *(struct sym *const *)pb;
	double diff = (a->prop_self + a->prop_child) -
	              (b->prop_self + b->prop_child);

	(void)ctx;
	if (diff < 0.0)
		return 1;
	if (diff > 0.0)
		return -1;
	if (!a->name && a->cycle_num != 0)
		return -1;
	if (!b->name && b->cycle_num != 0)
		return 1;
	if (!a->name)
		return -1;
	if (!b->name)
		return 1;
	if (a->name[0] != '_' && b->name[0] == '_')
		return -1;
	if (a->name[0] == '_' && b->name[0] != '_')
		return 1;
	if (a->ncalls != b->ncalls)
		return a->ncalls > b->ncalls ? -1 : 1;
	return strcmp(a->name, b->name);
}

static struct sym **entries_by_time(struct gprof *g, size_t *nentries)
{
	size_t n = g->syms.len + (size_t)g->ncycles;
	struct sym **v = xmalloc((n ? n : 1) * sizeof *v);

	for (size_t i = 0; i < g->syms.len; i++)
		v[i] = &g->syms.base[i];
	for (int i = 0; i < g->ncycles; i++)
		v[g->syms.len + (size_t)i] = &g->cycles[i];
	stable_sort(v, n, sizeof *v, cmp_total, NULL);
	for (size_t i = 0; i < n; i++)
		v[i]->index = (int)i + 1;
	*nentries = n;
	return v;
}

struct sym **cg_assemble(struct gprof *g, size_t *nentries)
{
	struct symtab *st = &g->syms;

	init_syms(g);
	g->dfn_counter = 0;
	for (size_t i = 0; i < st->len; i++)
		if (st->base[i].top_order == 0)
			cg_dfn(g, &st->base[i]);
	cycle_link(g);

	struct sym **topo = xmalloc((st->len ? st->len : 1) * sizeof *topo);

	for (size_t i = 0; i < st->len; i++)
		topo[i] = &st->base[i];
	stable_sort(topo, st->len, sizeof *topo, cmp_topo, NULL);
	g->print_time = 0.0;
	propagate_flags(g, topo, st->len);
	cycle_time(g);
	for (size_t i = 0; i < st->len; i++)
		propagate_time(topo[i]);
	free(topo);
	return entries_by_time(g, nentries);
}
