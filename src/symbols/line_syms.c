/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * line_syms.c - line-level symbols for -l (and -s, which records arcs by
 * call line): one symbol per run of text addresses that share a source
 * file, line and function, merged with the function symbols.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <bfd.h>

#include "symbols/symbols.h"
#include "line_bounds.h"

struct probe {
	const char *file, *func;
	unsigned line;
};

static bool probe_at(const struct gprof *g, vma_t addr, struct probe *p)
{
	return core_find_line(g, addr, &p->file, &p->func, &p->line) &&
	       p->file && p->func && p->line != 0;
}

/* BFD hands back the same strings for the same place, so pointers
   usually settle it. */
static bool same_place(const struct probe *a, const struct probe *b)
{
	return a->line == b->line &&
	       (a->file == b->file || strcmp(a->file, b->file) == 0) &&
	       (a->func == b->func || strcmp(a->func, b->func) == 0);
}

/* A line symbol as the scan finds it: kept small, since there may be one
   per few bytes of text, and made a full symbol only at the end. */
struct line_rec {
	vma_t addr;
	const char *name;
	struct source_file *file;
	int line;
	bool is_static;
};

/* Is the line symbol static?  Like the previous line symbol if that is of
   the same function and file, else like the function symbol covering it. */
static bool line_is_static(const struct symtab *funcs,
                           const struct line_rec *prev,
                           const struct line_rec *s)
{
	if (prev && prev->file == s->file && strcmp(prev->name, s->name) == 0)
		return prev->is_static;
	const struct sym *f = sym_lookup(funcs, s->addr);
	return f ? f->is_static : false;
}

/*
 * BFD may answer the first query into a compilation unit differently from
 * later ones (an inlined function's name, say), because it builds its
 * lookup tables lazily.  GNU probes all of .text twice, counting line
 * symbols on the cold pass and creating them on the warm one, and gives
 * up when the two disagree.  One pass here does both: each address is
 * probed once for the cold count, and again wherever a new symbol would
 * start, for the warm answer.
 */
struct line_scan {
	struct probe cold_prev, prev;
	bool have_cold, have_prev;
	long ncold;
};

struct line_list {
	struct line_rec *v;
	size_t n, cap;
};

static void line_push(struct gprof *g, struct line_list *l, vma_t addr,
                      const struct probe *p)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	struct line_rec *r = &l->v[l->n++];
	r->name = str_intern(g, p->func);
	r->file = source_file_intern(g, p->file);
	r->line = (int)p->line;
	r->addr = addr;
	r->is_static = line_is_static(&g->syms, l->n > 1 ? r - 1 : NULL, r);
}

/* What BFD answered at an address (or would, per the line table): ok as
   probe_at() says. */
struct answer {
	struct probe p;
	bool ok;
};

static struct answer ask(const struct gprof *g, vma_t addr)
{
	struct answer a;
	a.ok = probe_at(g, addr, &a.p);
	return a;
}

/* The byte scan's step at one address, given BFD's first answer there:
   counted for the cold pass; true when a second answer is wanted. */
static bool feed_cold(struct line_scan *ls, const struct answer *cold)
{
	if (!cold->ok)
		return false;
	if (!ls->have_cold || !same_place(&ls->cold_prev, &cold->p)) {
		ls->ncold++;
		ls->cold_prev = cold->p;
		ls->have_cold = true;
	}
	return !ls->have_prev || !same_place(&ls->prev, &cold->p);
}

/* ... and its second answer, which starts a line symbol if it is new. */
static void feed_warm(struct gprof *g, struct line_scan *ls,
                      struct line_list *l, vma_t addr,
                      const struct answer *warm)
{
	if (!warm->ok || (ls->have_prev && same_place(&ls->prev, &warm->p)))
		return;
	ls->prev = warm->p;
	ls->have_prev = true;
	line_push(g, l, addr, &warm->p);
}

static void feed(struct gprof *g, struct line_scan *ls, struct line_list *l,
                 vma_t addr, const struct answer *cold,
                 const struct answer *warm)
{
	if (feed_cold(ls, cold))
		feed_warm(g, ls, l, addr, warm);
}

/* The reference way (and the fallback): every address of .text, asked
   a second time only where a new symbol may start; `src` is the context
   whose BFD is asked (g's, or a fresh one). */
static void scan_bytes(struct gprof *g, const struct gprof *src,
                       struct line_scan *ls, struct line_list *l,
                       vma_t lo, vma_t hi, unsigned step)
{
	for (vma_t addr = lo; addr < hi; addr += step) {
		struct answer a = ask(src, addr);
		if (feed_cold(ls, &a)) {
			a = ask(src, addr);
			feed_warm(g, ls, l, addr, &a);
		}
	}
}

/*
 * The byte scan after a bounds scan BFD contradicted.  BFD has been asked
 * out of the byte scan's order by then, and its first answers in each
 * unit (the cold ones, which the scan counts) are gone; so the scan asks
 * a fresh copy of the executable, brought to the state g's was in before
 * line symbols (opened, symbols read, source files looked up: as
 * pipeline.c's load_symbols() does).
 */
static void scan_bytes_fresh(struct gprof *g, struct line_scan *ls,
                             struct line_list *l, vma_t lo, vma_t hi,
                             unsigned step)
{
	struct gprof *f = xcalloc(1, sizeof *f);
	f->whoami = g->whoami;
	f->opt = g->opt;
	f->map_entries = g->map_entries;     /* -R's map, read once */
	f->nmap_entries = g->nmap_entries;
	core_open(f);
	core_build_syms(f);
	core_intern_files(f);
	scan_bytes(g, f, ls, l, lo, hi, step);
	f->map_entries = NULL;               /* g's, not f's to free */
	f->nmap_entries = 0;
	core_close(f);
	free(f);
}

/* Boundaries moved up to the addresses the byte scan would probe (every
   step-th from lo); where several land on one, the line table's answer
   no longer stands. */
static void align_bounds(struct line_bounds *lb, vma_t lo, vma_t hi,
                         unsigned step)
{
	size_t n = 0;
	for (size_t i = 0; i < lb->n; i++) {
		vma_t a = lo + (lb->addr[i] - lo + step - 1) / step * step;
		if (a >= hi)
			break;
		if (n > 0 && lb->addr[n - 1] == a) {
			lb->kind[n - 1] |= lb->kind[i];
			lb->file[n - 1] = -1;
			continue;
		}
		lb->addr[n] = a;
		lb->kind[n] = lb->kind[i];
		lb->file[n] = lb->file[i];
		lb->line[n++] = lb->line[i];
	}
	lb->n = n;
}

/*
 * The answers at the boundaries, gathered before the scan.  BFD's first
 * answer inside a function can be a cold one (the symbol table's name),
 * so where a function is met for the first time BFD is asked twice, as
 * the byte scan asks it.  Elsewhere BFD has settled: the function is one
 * it named before (its name learnt then), the line and file are the line
 * table's (BFD's spelling of each file's path learnt from its answers),
 * and BFD need not be asked at all.  Asking it there anyway changes
 * nothing, so some of these guesses are checked as the scan goes, and
 * rows again at the end.
 */
struct gather {
	const struct line_bounds *lb;
	struct answer *cold, *warm;
	bool *guessed;
	const char **fname;          /* BFD's name of each file number */
	const char **func_name;      /* BFD's settled name of each function */
	struct answer settled;       /* the answer at the last boundary */
	size_t nguessed_funcs;
	bool broken;                 /* BFD disagreed with a guess */
};

/* BFD's answer at a boundary: its file's name and its function's name,
   checked against what it said before, and its line against the table. */
static void learn(struct gather *gt, size_t i, const struct answer *a)
{
	int f = gt->lb->file[i], fn = gt->lb->func[i];
	if (!a->ok)
		return;
	if (fn >= 0 && !gt->func_name[fn])
		gt->func_name[fn] = a->p.func;
	else if (fn >= 0 && strcmp(gt->func_name[fn], a->p.func) != 0)
		gt->broken = true;
	if (f < 0)
		return;
	if (a->p.line != gt->lb->line[i])
		gt->broken = true;
	else if (!gt->fname[f])
		gt->fname[f] = a->p.file;
	else if (strcmp(gt->fname[f], a->p.file) != 0)
		gt->broken = true;
}

/* The answer at boundary i from the line table and what BFD said
   before, or false when that is not known (or not to be trusted). */
static bool guess(struct gather *gt, size_t i, struct answer *out)
{
	const struct line_bounds *lb = gt->lb;
	int f = lb->file[i], fn = lb->func[i];
	const char *func;
	if (gt->broken || f < 0 || !gt->fname[f] || lb->line[i] == 0)
		return false;
	if (lb->kind[i] & LB_FUNC) {
		if (fn < 0 || !gt->func_name[fn])
			return false;        /* a function met for the first time */
		func = gt->func_name[fn];
	} else {
		if (!gt->settled.ok)
			return false;
		func = gt->settled.p.func;
	}
	out->ok = true;
	out->p.file = gt->fname[f];
	out->p.func = func;
	out->p.line = lb->line[i];
	return true;
}

static bool same_answer(const struct answer *a, const struct answer *b)
{
	return a->ok == b->ok && (!a->ok || same_place(&a->p, &b->p));
}

/* BFD asked at boundary i, twice as the byte scan may ask it: not only
   where a function starts, since a damaged file's first answer in a unit
   can come at a row the reader sees no function at. */
static void ask_bfd(struct gprof *g, struct gather *gt, size_t i)
{
	vma_t addr = gt->lb->addr[i];
	gt->cold[i] = ask(g, addr);
	gt->warm[i] = ask(g, addr);
	learn(gt, i, &gt->warm[i]);
}

/* Every guessed function bound is checked against BFD (1: all of them).
   One in 64 was faster (3.7 s against 8.4 s on bench/lines.sh's 1.26 MB
   program, GNU 220 s), but on damaged DWARF, where BFD and libdw read the
   file differently, an unchecked guess gave a wrong function name (the
   lines fuzz harness: tests/fuzz/crashes/lines/function-guess-wrong-...):
   exactness first. */
enum { CHECK_EVERY = 1 };

static void gather_answers(struct gprof *g, struct gather *gt)
{
	const struct line_bounds *lb = gt->lb;
	struct answer guessed;
	for (size_t i = 0; i < lb->n; i++) {
		if (!guess(gt, i, &guessed)) {
			ask_bfd(g, gt, i);
		} else if ((lb->kind[i] & LB_FUNC) &&
		           gt->nguessed_funcs++ % CHECK_EVERY == 0) {
			ask_bfd(g, gt, i);
			if (!same_answer(&gt->cold[i], &guessed) ||
			    !same_answer(&gt->warm[i], &guessed))
				gt->broken = true;
		} else {
			gt->cold[i] = gt->warm[i] = guessed;
			gt->guessed[i] = !(lb->kind[i] & LB_FUNC);
		}
		gt->settled = gt->warm[i];
	}
}

/* Some guesses, checked against BFD (every one would do no harm, but
   cost the time saved): spread over the text, and among rows where the
   table has several lines at one address.  Any miss, and the caller
   scans every byte instead. */
static void check_guesses(struct gprof *g, struct gather *gt)
{
	const struct line_bounds *lb = gt->lb;
	size_t nguess = 0, nambig = 0, seen = 0, seen_ambig = 0;
	for (size_t i = 0; i < lb->n; i++)
		if (gt->guessed[i]) {
			nguess++;
			nambig += (lb->kind[i] & LB_AMBIG) != 0;
		}
	size_t every = nguess / 1024 + 1, every_ambig = nambig / 1024 + 1;
	for (size_t i = 0; i < lb->n && !gt->broken; i++) {
		if (!gt->guessed[i])
			continue;
		bool pick = seen++ % every == 0;
		if (lb->kind[i] & LB_AMBIG)
			pick |= seen_ambig++ % every_ambig == 0;
		if (!pick)
			continue;
		struct answer a = ask(g, lb->addr[i]);
		if (!same_answer(&a, &gt->warm[i]))
			gt->broken = true;
	}
}

/* GPROF_LINE_SCAN=bytes asks BFD about every address, as a check on the
   boundaries; =bounds insists on them (tests/lines.sh compares the two). */
static const char *line_scan_mode(void)
{
	const char *e = getenv("GPROF_LINE_SCAN");
	return e ? e : "";
}

/*
 * The byte scan, over the boundaries only.  After a bound, the next
 * address would answer as BFD settled at the bound (its warm
 * answer), and so would every address up to the next boundary, which
 * changes nothing; the same holds after a row.
 */
static bool scan_bounds(struct gprof *g, struct line_scan *ls,
                        struct line_list *l, const struct line_bounds *lb,
                        vma_t hi, unsigned step)
{
	struct gather gt = { .lb = lb };
	gt.cold = xmalloc((lb->n + 1) * sizeof *gt.cold);
	gt.warm = xmalloc((lb->n + 1) * sizeof *gt.warm);
	gt.guessed = xcalloc(lb->n + 1, sizeof *gt.guessed);
	gt.fname = xcalloc(lb->nfiles + 1, sizeof *gt.fname);
	gt.func_name = xcalloc(lb->nfuncs + 1, sizeof *gt.func_name);
	gather_answers(g, &gt);
	check_guesses(g, &gt);
	/* A guess BFD contradicted: any answer gathered may be wrong (a
	   function's name learnt from one address and used at another), so
	   the caller scans every byte instead.  The tests insist on none. */
	if (gt.broken && strcmp(line_scan_mode(), "bounds") == 0)
		die(g, "%s: GPROF_LINE_SCAN=bounds: BFD contradicted the line "
		    "table's guesses", g->opt.image);
	for (size_t i = 0; i < lb->n && !gt.broken; i++) {
		vma_t a = lb->addr[i], next = i + 1 < lb->n ? lb->addr[i + 1] : hi;
		feed(g, ls, l, a, &gt.cold[i], &gt.warm[i]);
		/* (a no-op where the first answer was the settled one) */
		if (a + step < next)
			feed(g, ls, l, a + step, &gt.warm[i], &gt.warm[i]);
	}
	free(gt.cold);
	free(gt.warm);
	free(gt.guessed);
	free(gt.fname);
	free(gt.func_name);
	return !gt.broken;
}

/* Line symbols are collected apart, then join the (already finished)
   function symbols, and the whole table is finished again. */
void core_build_line_syms(struct gprof *g)
{
	asection *text = g->text_sec;
	vma_t lo = bfd_section_vma(text), hi = lo + bfd_section_size(text);
	unsigned step = bfd_get_arch(g->abfd) == bfd_arch_alpha ? 4 : 1;
	/* Every address is probed: a damaged header claiming more text than
	   the whole file holds would keep us (and GNU gprof) busy for ages. */
	ufile_ptr fsize = bfd_get_file_size((bfd *)g->abfd);
	if ((bfd_section_flags(text) & SEC_HAS_CONTENTS) && fsize > 0 &&
	    bfd_section_size(text) > fsize)
		die(g, "%s: section .text is larger than the file (damaged?)",
		    g->opt.image);
	struct line_list l = { 0 };
	struct line_scan ls = { 0 };
	struct line_bounds lb;

	const char *mode = line_scan_mode();
	if (*mode && strcmp(mode, "bytes") != 0 && strcmp(mode, "bounds") != 0)
		warnx_g(g, "ignoring GPROF_LINE_SCAN=%s (expected bytes or bounds)",
		        mode);
	if (strcmp(mode, "bytes") != 0 && g->bfd_syms && g->has_line_info &&
	    line_bounds_read(bfd_get_filename(g->abfd), lo, hi, &lb)) {
		align_bounds(&lb, lo, hi, step);
		bool done = scan_bounds(g, &ls, &l, &lb, hi, step);
		line_bounds_free(&lb);
		if (!done)
			scan_bytes_fresh(g, &ls, &l, lo, hi, step);
	} else if (strcmp(mode, "bounds") == 0) {
		die(g, "%s: GPROF_LINE_SCAN=bounds: no line table to scan by",
		    g->opt.image);
	} else {
		scan_bytes(g, g, &ls, &l, lo, hi, step);
	}
	/* GNU's table holds the function symbols too, and its message counts
	   them on both sides. */
	if (ls.ncold != (long)l.n)
		die(g, "somebody miscounted: ltab.len=%ld instead of %zu",
		    ls.ncold + (long)g->syms.len, l.n + g->syms.len);
	symtab_reserve(&g->syms, g->syms.len + l.n);
	for (size_t i = 0; i < l.n; i++) {
		struct line_rec *r = &l.v[i];
		struct sym *s = symtab_add(&g->syms);
		s->name = r->name;
		s->file = r->file;
		s->line = r->line;
		s->file_known = true;
		s->addr = r->addr;
		s->is_static = r->is_static;
		s->bfd_order = (unsigned)g->syms.len;
	}
	free(l.v);
	symtab_finish(g, &g->syms, hi);
}
