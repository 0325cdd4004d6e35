/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * diagnose.c - the checks behind "why is my profile empty?": a sampling
 * rate of 0, a histogram over no function of the executable, too few
 * samples, no call arcs (or no call counted at all: a program not
 * built with -pg), a profile older than the executable, a profile of
 * another program (by its call arcs and build-id), a run that spent
 * much of its time in the profiling hook.  Each
 * check's result is computed once into g->diag (print/diagnose_print.c
 * prints the most important problem as one line on stderr, and with
 * --diagnose every check).
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <bfd.h>

#include "analysis/analysis.h"
#include "cg_scan.h"

/* Fewer samples than this leave every time uncertain by more than 10%. */
#define FEW_SAMPLES 100

static const char *const names[DIAG_NCHECKS] = {
	[DIAG_RATE] = "sampling rate",
	[DIAG_RANGE] = "histogram range",
	[DIAG_AGE] = "profile age",
	[DIAG_SAMPLES] = "samples",
	[DIAG_ARCS] = "call arcs",
	[DIAG_HOOK] = "profiling hook",
	[DIAG_PROGRAM] = "program",
	[DIAG_CLONES] = "compiler clones",
};

const char *diagnose_name(enum diag_id id)
{
	return names[id];
}

static void set(struct gprof *g, enum diag_id id, enum diag_status st,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void set(struct gprof *g, enum diag_id id, enum diag_status st,
                const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g->diag[id].status = st;
	vsnprintf(g->diag[id].text, sizeof g->diag[id].text, fmt, ap);
	va_end(ap);
}

/* The profile files as the messages name them: "gmon.out", or
   "gmon.1 (and 2 more)" for a sum. */
struct who {
	char name[300];
};

static const char *who_init(struct who *w, const struct gprof *g)
{
	const char *first = g->opt.nprofiles ? g->opt.profiles[0] : "gmon.out";
	if (g->opt.nprofiles > 1)
		snprintf(w->name, sizeof w->name, "%s (and %zu more)", first,
		         g->opt.nprofiles - 1);
	else
		snprintf(w->name, sizeof w->name, "%s", first);
	return w->name;
}

static void check_rate(struct gprof *g, const char *who)
{
	if (!g->input_hist)
		set(g, DIAG_RATE, DIAG_NOT_APPLICABLE, "no histogram");
	else if (!(g->hz > 0))
		set(g, DIAG_RATE, DIAG_PROBLEM, "%s: the sampling rate is 0: "
		    "every time prints as inf or nan (the runtime wrote no "
		    "rate; its timer was never set)", who);
	else
		set(g, DIAG_RATE, DIAG_OK, "%g Hz (%s)", g->hz,
		    g->dimen[0] ? g->dimen : "seconds");
}

double diagnose_samples(const struct gprof *g)
{
	return hist_bins_total(g) + g->shlib_ticks;
}

/* Does any histogram overlap a function of the executable? */
static bool hist_meets_functions(const struct gprof *g)
{
	size_t n = exe_syms_len(g);
	if (n == 0)
		return false;
	vma_t lo = g->syms.base[0].addr, hi = g->syms.base[n - 1].end_addr;
	for (size_t i = 0; i < g->nhists; i++)
		if (g->hists[i].lowpc <= hi && g->hists[i].highpc > lo)
			return true;
	return false;
}

static void check_range(struct gprof *g, const char *who, double bins,
                        double credited)
{
	if (!g->input_hist || g->nhists == 0) {
		set(g, DIAG_RANGE, DIAG_NOT_APPLICABLE, "no histogram");
		return;
	}
	const struct histogram *h = &g->hists[0];
	if (!hist_meets_functions(g)) {
		set(g, DIAG_RANGE, DIAG_PROBLEM, "%s: the histogram covers "
		    "0x%llx-0x%llx, where %s has no function: is it the "
		    "program that wrote the profile (not a PIE loaded elsewhere, "
		    "not another build)?", who,
		    (unsigned long long)h->lowpc, (unsigned long long)h->highpc,
		    g->opt.image);
	} else if (bins > 0 && credited < 0.5 * bins) {
		set(g, DIAG_RANGE, DIAG_PROBLEM, "%s: %.0f%% of the samples lie "
		    "outside every function of %s: is it the program that "
		    "wrote the profile?", who,
		    100.0 * (bins - credited) / bins, g->opt.image);
	} else {
		set(g, DIAG_RANGE, DIAG_OK, "0x%llx-0x%llx, over functions "
		    "of %s", (unsigned long long)h->lowpc,
		    (unsigned long long)h->highpc, g->opt.image);
	}
}

static void check_samples(struct gprof *g, const char *who, double bins)
{
	double n = bins + g->shlib_ticks;
	if (!g->input_hist) {
		set(g, DIAG_SAMPLES, DIAG_PROBLEM, "%s: the profile has no "
		    "histogram: no time was sampled", who);
	} else if (n == 0) {
		set(g, DIAG_SAMPLES, DIAG_PROBLEM, "%s: no samples: the program "
		    "ran for less than one sampling period (%g s) of CPU time",
		    who, g->hz > 0 ? 1.0 / g->hz : 0.0);
	} else if (n < FEW_SAMPLES) {
		set(g, DIAG_SAMPLES, DIAG_PROBLEM, "%s: only %.0f samples: each "
		    "time is uncertain by about the square root of its samples "
		    "(the total by %.0f%%); run longer or sum runs with -s",
		    who, n, 100.0 / sqrt(n));
	} else {
		set(g, DIAG_SAMPLES, DIAG_OK, "%.0f samples (the total time "
		    "is uncertain by %.1f%%)", n, 100.0 / sqrt(n));
	}
}

static void check_arcs(struct gprof *g, const char *who)
{
	if (g->narcs > 0) {
		set(g, DIAG_ARCS, DIAG_OK, "%zu arcs", g->narcs);
	} else if (g->arc_records > 0) {
		set(g, DIAG_ARCS, DIAG_PROBLEM, "%s: %llu call-arc records, none "
		    "between functions of %s: is it the program that wrote "
		    "the profile?", who,
		    (unsigned long long)g->arc_records, g->opt.image);
	} else {
		set(g, DIAG_ARCS, DIAG_PROBLEM, "%s: no call arcs: no call was "
		    "counted (the program's code was compiled without -pg: "
		    "linking with -pg or -lgmon alone counts no call; or a "
		    "compiler that passes mcount no caller address)", who);
	}
}

/* ---- another program's profile, whatever the address ranges ----
   Two PIE programs both start near 0x1000, so a histogram of one lies
   over functions of the other and check_range() cannot tell them
   apart.  The arcs can.  A profiled function counts each call from the
   hook it calls in its prologue, so an arc's callee address is the
   return address of that call: a few bytes after the entry of a
   function, just after a call to the hook (the same target at every
   function).  Measured with gcc 12 -pg, -O0 to -O3, C and C++, glibc's
   and libgmon's hooks (doc/manual.md has the table), the hook's return
   address lies 10 to 26 bytes after the entry on x86-64 (5 to 9 with
   -mfentry), 21 to 26 on i386, 20 to 36 on aarch64, 6 to 12 on arm
   (Thumb), 10 to 24 on riscv64, 24 to 44 on ppc64le, 12 on s390x; sums
   written by -s, and hand-made profiles, name the entries themselves.
   Over 75 programs (fixtures, cross targets, static, musl, jq, xz) and
   every pair of them: no arc of a matching pair failed, and of a pair
   of different programs 43% to 100% did (tests/formats/diagnose.sh runs
   such a matrix). */
#define ENTRY_REACH 64
/* Another program's profile when at least PROGRAM_MIN_MISSES arcs of
   the sample, and more than PROGRAM_MISS_PCT percent, do not fit: about
   half way between the 0% of matching pairs and the 43% of the closest
   different pair; three misses are too many for a matching program,
   while a tiny profile of another program still has them. */
#define PROGRAM_MISS_PCT 25
#define PROGRAM_MIN_MISSES 3

struct program_fit {
	size_t checked, misses;      /* arc records of the sample */
	bool hist_elsewhere;         /* no histogram ends where the code does */
	vma_t hist_end, code_end;    /* then: the first one's, the code's */
	bool decoded;                /* the calls were read */
	enum build_id_match build_id;
	const char *side_file;       /* the side file that gave the build-id */
};

static int cmp_vma(const void *pa, const void *pb)
{
	vma_t a = *(const vma_t *)pa, b = *(const vma_t *)pb;
	return a < b ? -1 : a > b;
}

static bool is_entry(const asymbol *s)
{
	const asection *sec = s->section;
	return (s->flags & BSF_FUNCTION) && sec && !bfd_is_und_section(sec) &&
	       (sec->flags & SEC_CODE) &&
	       !(s->flags & (BSF_DEBUGGING | BSF_SECTION_SYM | BSF_FILE));
}

/* Every function entry of the executable, sorted: from its symbol table
   as read, not g->syms, which leaves out what GNU's rules drop (-a's
   static functions, clones such as foo.part.0) though they count calls
   like any function; g->syms for a -S symbol table. */
static vma_t *entries_of(const struct gprof *g, size_t *n)
{
	const asymbol *const *bs = (const asymbol *const *)g->bfd_syms;
	size_t k = 0, cap = bs ? (size_t)g->nbfd_real : exe_syms_len(g);
	vma_t *v = xmalloc((cap + 1) * sizeof *v);
	if (bs) {
		/* (an ARM Thumb function's address has bit 0 set) */
		vma_t thumb = bfd_get_arch(g->abfd) == bfd_arch_arm;
		for (long i = 0; i < g->nbfd_real; i++)
			if (is_entry(bs[i]))
				v[k++] = bfd_asymbol_value(bs[i]) & ~thumb;
	} else {
		for (size_t i = 0; i < cap; i++)
			if (g->syms.base[i].is_func)
				v[k++] = g->syms.base[i].addr;
	}
	qsort(v, k, sizeof *v, cmp_vma);
	*n = k;
	return v;
}

/* How far pc lies after the last entry of v[0..n) at or before it, or
   UINT64_MAX when none is. */
static vma_t past_entry(const vma_t *v, size_t n, vma_t pc)
{
	size_t lo = 0, hi = n;        /* the last entry <= pc: v[lo - 1] */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? pc - v[lo - 1] : UINT64_MAX;
}

/* A callee address near an entry and the call that ends there. */
struct site_at {
	vma_t pc;
	struct call_end call;
};

static int cmp_site_pc(const void *pa, const void *pb)
{
	const struct site_at *a = pa, *b = pb;
	return a->pc < b->pc ? -1 : a->pc > b->pc;
}

static int cmp_site_call(const void *pa, const void *pb)
{
	const struct site_at *a = pa, *b = pb;
	if (a->call.kind != b->call.kind)
		return a->call.kind < b->call.kind ? -1 : 1;
	return a->call.to < b->call.to ? -1 : a->call.to > b->call.to;
}

/* The hook's call: what most callee addresses near an entry are the
   return address of, each distinct address counted once (a function
   called from many places repeats its own, and another program's hot
   callee would otherwise outvote the rest). */
static bool hook_of(const struct gprof *g, const struct call_end *self,
                    const vma_t *v, size_t n, struct call_end *hook)
{
	struct site_at *s = xmalloc((g->narc_probe + 1) * sizeof *s);
	size_t k = 0, best = 0;
	for (size_t i = 0; i < g->narc_probe; i++)
		if (self[i].found &&
		    past_entry(v, n, g->arc_probe[i].self_pc) <= ENTRY_REACH)
			s[k++] = (struct site_at){ g->arc_probe[i].self_pc, self[i] };
	qsort(s, k, sizeof *s, cmp_site_pc);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (u == 0 || s[u - 1].pc != s[i].pc)
			s[u++] = s[i];
	qsort(s, u, sizeof *s, cmp_site_call);
	for (size_t i = 0, j; i < u; i = j) {
		for (j = i + 1; j < u && cmp_site_call(&s[i], &s[j]) == 0; j++)
			;
		if (j - i > best) {
			best = j - i;
			*hook = s[i].call;
		}
	}
	free(s);
	return best > 0;
}

/* The callee addresses of the sample, read as return addresses; NULL
   when the calls cannot be read (the callees are then judged by the
   entries alone).  The caller addresses are not judged: glibc's x86-64
   and aarch64 hooks read them through the frame pointer, and in code
   built -O2 that records addresses that follow no call (measured: 64%
   to 100% of the arcs of matching pairs). */
static struct call_end *read_ends(struct gprof *g)
{
	size_t n = g->narc_probe;
	vma_t *pcs = xmalloc((n + 1) * sizeof *pcs);
	struct call_end *self = xcalloc(n + 1, sizeof *self);
	for (size_t i = 0; i < n; i++)
		pcs[i] = g->arc_probe[i].self_pc;
	if (n == 0 || !cg_scan_call_ends(g, pcs, n, self)) {
		free(self);
		self = NULL;
	}
	free(pcs);
	return self;
}

/* ---- the histogram's end ----
   A profiling runtime samples the program's text: glibc's from its start
   to etext, libgmon's over every executable segment, the end rounded up
   to a whole bin.  Measured on every fixture and target: the histogram
   ends 0 to 3 bytes after etext (4-byte bins).  Two programs of the same
   toolchain overlap in address, but their code ends at the same byte
   only when the layout is the same, so a histogram that ends nowhere
   near the end of the executable's code is another program's (or a
   hand-made one's: only the arcs then judge). */
#define HIST_END_SLACK 16

/* Does h end at or just after `end`, within slack and one bin? */
static bool ends_at(const struct gprof *g, const struct histogram *h,
                    vma_t end)
{
	vma_t bin = h->num_bins ? (h->highpc - h->lowpc) / h->num_bins : 0;
	(void)g;
	return h->highpc >= end && h->highpc - end <= HIST_END_SLACK + bin;
}

/* Whether some histogram ends where the code does: at the end of the
   executable's last code section, or at its etext symbol (not at the
   end of any code section: a small program's .text of one build ends
   where another's .fini does). */
static void check_hist_end(const struct gprof *g, struct program_fit *f)
{
	bfd *abfd = g->abfd;
	if (!abfd || !g->input_hist || g->nhists == 0)
		return;
	vma_t top = 0;
	for (asection *sec = abfd->sections; sec; sec = sec->next) {
		if (!(sec->flags & SEC_CODE) || bfd_section_size(sec) == 0)
			continue;
		vma_t end = bfd_section_vma(sec) + bfd_section_size(sec);
		top = end > top ? end : top;
	}
	for (size_t i = 0; top && i < g->nhists; i++)
		if (ends_at(g, &g->hists[i], top))
			return;
	/* A runtime that samples the whole executable segment (the preload
	   runtime) ends where the segment does: where the segment also
	   holds read-only data (.rodata, .eh_frame: aarch64's default
	   layout, with no separate code segment), at the end of one of
	   those sections. */
	for (asection *sec = abfd->sections; sec; sec = sec->next) {
		flagword fl = sec->flags;
		if (!(fl & SEC_ALLOC) || !(fl & SEC_READONLY) ||
		    bfd_section_size(sec) == 0)
			continue;
		vma_t end = bfd_section_vma(sec) + bfd_section_size(sec);
		for (size_t i = 0; i < g->nhists; i++)
			if (ends_at(g, &g->hists[i], end))
				return;
	}
	const asymbol *const *bs = (const asymbol *const *)g->bfd_syms;
	for (long k = 0; bs && k < g->nbfd_real; k++) {
		const char *n = bfd_asymbol_name(bs[k]);
		if (strcmp(n, "etext") != 0 && strcmp(n, "_etext") != 0)
			continue;
		for (size_t i = 0; i < g->nhists; i++)
			if (ends_at(g, &g->hists[i], bfd_asymbol_value(bs[k])))
				return;
	}
	if (top == 0)
		return;
	f->hist_elsewhere = true;
	f->hist_end = g->hists[0].highpc;
	f->code_end = top;
}

static void program_fit(struct gprof *g, struct program_fit *f)
{
	size_t n;
	vma_t *v = entries_of(g, &n);
	struct call_end *self = read_ends(g), hook = { 0 };
	/* No entry in the code (ppc64 ELFv1 names function descriptors in
	   .opd): nothing to judge the arcs by. */
	*f = (struct program_fit){ .checked = n ? g->narc_probe : 0 };
	/* (no hook found: no arc fits but at an entry) */
	f->decoded = self != NULL;
	bool hooked = self && hook_of(g, self, v, n, &hook);
	for (size_t i = 0; i < f->checked; i++) {
		vma_t off = past_entry(v, n, g->arc_probe[i].self_pc);
		/* at the entry itself: written by -s, or by hand */
		bool fits = off == 0 || (off <= ENTRY_REACH && (!f->decoded ||
		            (hooked && self[i].found && self[i].kind == hook.kind &&
		             self[i].to == hook.to)));
		f->misses += !fits;
	}
	free(self);
	free(v);
	f->build_id = shlibs_exe_build_id(g, &f->side_file);
	check_hist_end(g, f);
}

static bool arcs_misfit(const struct program_fit *f)
{
	return f->misses >= PROGRAM_MIN_MISSES &&
	       100 * f->misses > PROGRAM_MISS_PCT * f->checked;
}

/* Do the arcs show the same program (enough of them, all near entries)? */
static bool arcs_fit(const struct program_fit *f)
{
	return f->checked >= PROGRAM_MIN_MISSES && !arcs_misfit(f);
}

/* The first bytes of a build-id in hex, for a message. */
static const char *hex_id(const unsigned char *id, size_t len, char *buf,
                          size_t size)
{
	size_t k = 0;
	for (size_t i = 0; i < len && k + 3 <= size && i < 8; i++)
		k += (size_t)snprintf(buf + k, size - k, "%02x", id[i]);
	if (len > 8 && k + 4 <= size)
		snprintf(buf + k, size - k, "...");
	return len ? buf : "none";
}

static double pct_of(size_t k, size_t n)
{
	return n ? 100.0 * (double)k / (double)n : 0;
}

static void check_program(struct gprof *g, const char *who,
                          const struct program_fit *f)
{
	const char *sample = g->arc_records > f->checked ? " (a sample of them)"
	                                                 : "";
	if (f->build_id == BUILD_ID_DIFFERS) {
		const bfd *abfd = g->abfd;
		const struct bfd_build_id *b = abfd ? abfd->build_id : NULL;
		char own[32];
		set(g, DIAG_PROGRAM, DIAG_PROBLEM, "%s was not written by %s: its "
		    "side file %s names another build of the executable (%s's "
		    "build-id is %s)", who, g->opt.image, f->side_file,
		    g->opt.image, b ? hex_id(b->data, b->size, own, sizeof own)
		                    : "none");
	} else if (arcs_misfit(f) && f->decoded) {
		set(g, DIAG_PROGRAM, DIAG_PROBLEM, "%s was not written by %s: "
		    "%.0f%% of its %llu call arcs%s name no callee just after "
		    "the profiling hook's call at a function's entry", who,
		    g->opt.image, pct_of(f->misses, f->checked),
		    (unsigned long long)g->arc_records, sample);
	} else if (arcs_misfit(f)) {
		set(g, DIAG_PROGRAM, DIAG_PROBLEM, "%s was not written by %s: "
		    "%.0f%% of its %llu call arcs%s name no callee just after a "
		    "function's entry, where a profiled function counts its "
		    "calls", who, g->opt.image, pct_of(f->misses, f->checked),
		    (unsigned long long)g->arc_records, sample);
	} else if (f->hist_elsewhere) {
		set(g, DIAG_PROGRAM, DIAG_PROBLEM, "%s was not written by %s: "
		    "its histogram ends at 0x%llx, where %s's code ends at 0x%llx "
		    "(a profiling runtime samples up to the end of the program's "
		    "code)", who, g->opt.image, (unsigned long long)f->hist_end,
		    g->opt.image, (unsigned long long)f->code_end);
	} else if (f->checked < PROGRAM_MIN_MISSES &&
	           f->build_id == BUILD_ID_UNKNOWN) {
		set(g, DIAG_PROGRAM, DIAG_NOT_APPLICABLE, "%zu call arc%s and no "
		    "build-id in a side file: too little to tell whose profile "
		    "it is", f->checked, f->checked == 1 ? "" : "s");
	} else {
		char arcs[160] = "";
		if (f->checked >= PROGRAM_MIN_MISSES)
			snprintf(arcs, sizeof arcs, "%.0f%% of %zu call arcs "
			         "checked fit its code (callee just after the "
			         "profiling hook's call, or at an entry)", 100.0 -
			         pct_of(f->misses, f->checked), f->checked);
		set(g, DIAG_PROGRAM, DIAG_OK, "%s%s%s", arcs,
		    arcs[0] && f->build_id == BUILD_ID_SAME ? "; " : "",
		    f->build_id == BUILD_ID_SAME ? "the side file's build-id is "
		    "the executable's" : "");
	}
}

/* Why the profile is of this very build although it is older than the
   executable (which cp, install or unpacking a package make newer), or
   NULL when nothing says so. */
static const char *same_build(const struct program_fit *f)
{
	if (f->build_id == BUILD_ID_DIFFERS || arcs_misfit(f))
		return NULL;
	if (f->build_id == BUILD_ID_SAME)
		return "its side file's build-id is the executable's";
	if (arcs_fit(f))
		return "its call arcs fit the executable's code";
	return NULL;
}

/* A run of a program not built with -pg (libgmon linked in, or the
   preload runtime): samples and a side file, maybe stacks, but no call
   counted.  Not a fault of the run, so the check says what the report
   gives instead and how to get counts.  False when the profile is not
   such a run (check_arcs() then speaks). */
static bool check_sampled_only(struct gprof *g, const char *who)
{
	if (!g->arcs_from_stacks &&
	    (g->input_arcs || (!shlibs_side_files(g) && g->nstacks == 0)))
		return false;
	if (g->arcs_from_stacks)
		set(g, DIAG_ARCS, DIAG_NOT_APPLICABLE, "%s: no call counts: %s "
		    "was not built with -pg; the call graph comes from the "
		    "sampled stacks and its counts are stack samples, not calls "
		    "(rebuild with -pg for exact call counts)", who,
		    g->opt.image);
	else if (g->nstacks > 0)
		set(g, DIAG_ARCS, DIAG_PROBLEM, "%s: no call counts: %s was not "
		    "built with -pg; use --stacks for a call graph from the "
		    "sampled stacks, or rebuild with -pg for exact call counts",
		    who, g->opt.image);
	else
		set(g, DIAG_ARCS, DIAG_PROBLEM, "%s: no call counts: %s was not "
		    "built with -pg; rebuild with -pg for call counts, or record "
		    "stacks (GMON_STACKS=1) and use --stacks for a call graph "
		    "from samples", who, g->opt.image);
	return true;
}

static void check_age(struct gprof *g, const struct program_fit *f)
{
	struct stat img, prof;
	if (stat(g->opt.image, &img) != 0) {
		set(g, DIAG_AGE, DIAG_NOT_APPLICABLE, "%s: not a file",
		    g->opt.image);
		return;
	}
	for (size_t i = 0; i < g->opt.nprofiles; i++) {
		const char *p = g->opt.profiles[i];
		/* (a pipe's time says nothing about the run) */
		if (stat(p, &prof) != 0 || !S_ISREG(prof.st_mode) ||
		    prof.st_mtime >= img.st_mtime)
			continue;
		const char *why = same_build(f);
		if (why) {
			set(g, DIAG_AGE, DIAG_OK, "%s is older than %s, but %s: "
			    "the same build, copied or installed after the run", p,
			    g->opt.image, why);
		} else {
			bool known = f->build_id == BUILD_ID_DIFFERS || arcs_misfit(f);
			set(g, DIAG_AGE, DIAG_PROBLEM, "%s is older than %s: the "
			    "program was rebuilt after the run that wrote it%s", p,
			    g->opt.image, known ? "" : " (by the files' times alone: "
			    "no build-id and too few call arcs to compare; a copy "
			    "of the same program also looks newer)");
		}
		return;
	}
	set(g, DIAG_AGE, DIAG_OK, "no profile is older than %s",
	    g->opt.image);
}

/* From this share of the samples on, the hook is a problem: the run was
   at least 1.25 times as slow, and the report's times are what is left. */
#define HOOK_HEAVY 0.20

/* The time the profiling hook took (totals.c), and the slow-down that
   implies. */
static void check_hook(struct gprof *g, const char *who)
{
	const struct run_totals *t = &g->totals;
	double hz = g->hz > 0 ? g->hz : 1;

	if (!g->input_hist || !(t->all > 0)) {
		set(g, DIAG_HOOK, DIAG_NOT_APPLICABLE, "no samples");
	} else if (g->arc_records == 0 && !(t->hook > 0)) {
		set(g, DIAG_HOOK, DIAG_NOT_APPLICABLE, "no call was counted, so "
		    "no profiling hook ran");
	} else if (!t->hook_measured) {
		set(g, DIAG_HOOK, DIAG_NOT_APPLICABLE, "not measured: the "
		    "program counts its calls with the C library's mcount, "
		    "outside the sampled text, so the time that took is in "
		    "no sample (profiling made the run slower by an unknown "
		    "amount)");
	} else if (t->hook_share >= HOOK_HEAVY) {
		set(g, DIAG_HOOK, DIAG_PROBLEM, "%s: %.2f s of %.2f s (%.1f%%) "
		    "in the profiling hook (counting calls): profiling made "
		    "the run about %.2f times as slow, and the functions' "
		    "times are what is left", who, t->hook / hz, t->all / hz,
		    100 * t->hook_share, t->slowdown);
	} else {
		set(g, DIAG_HOOK, DIAG_OK, "%.2f s of %.2f s (%.1f%%) in the "
		    "profiling hook: the run about %.2f times as slow",
		    t->hook / hz, t->all / hz, 100 * t->hook_share,
		    t->slowdown);
	}
}

/* ---- compiler clones: what GNU's name rule moves ---- */

/* GNU's rule is a problem worth a line when the function before the
   clones gets this share of the samples or of the calls, or more. */
#define CLONE_SHARE 0.05

/* ", most to F (N samples, M calls), G (...)" into buf. */
static void clone_owners(const struct clone_stats *c, char *buf, size_t size)
{
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < c->ntop && at < size; i++) {
		const struct clone_owner *o = &c->top[i];
		int n = snprintf(buf + at, size - at, "%s%s (%.0f samples, %llu "
		                 "calls)", i ? ", " : ", most to ", o->name,
		                 o->samples, (unsigned long long)o->calls);
		if (n < 0)
			break;
		at += (size_t)n;
	}
}

static double share(double part, double whole)
{
	return whole > 0 ? part / whole : 0;
}

/* What this report does with the clones, when not GNU's rule. */
static void clones_here(const struct gprof *g, char *buf, size_t size)
{
	const struct clone_stats *c = &g->clones;
	if (g->opt.clones == CLONES_SEPARATE) {
		snprintf(buf, size, "here each is a function (--clones=separate)");
		return;
	}
	int n = snprintf(buf, size, "here %zu clones are credited to the "
	                 "functions they were cloned from and the others keep "
	                 "their names (--clones=merge)", c->nmerged);
	if (n > 0 && (size_t)n < size && c->internal_calls)
		snprintf(buf + n, size - (size_t)n, ", and %llu calls from "
		         "functions into their own split parts (.part) are not "
		         "shown as calls", (unsigned long long)c->internal_calls);
}

static void check_clones(struct gprof *g, const char *who, double samples)
{
	struct clone_stats *c = &g->clones;
	char owners[240], here[300];
	if (c->nranges == 0) {
		set(g, DIAG_CLONES, DIAG_OK, "no clone that GNU's rule leaves to "
		    "the function before it");
		return;
	}
	clones_tally(g);
	clone_owners(c, owners, sizeof owners);
	if (g->opt.clones != CLONES_GNU) {
		clones_here(g, here, sizeof here);
		set(g, DIAG_CLONES, DIAG_OK, "%zu clones that GNU's rule drops, which "
		    "would give their %.0f samples and %llu calls to the "
		    "functions before them%s; %s", c->nranges, c->samples,
		    (unsigned long long)c->calls, owners, here);
		return;
	}
	if (c->samples <= 0 && c->calls == 0) {
		set(g, DIAG_CLONES, DIAG_OK, "%zu clones that GNU's rule leaves to the "
		    "function before them (such as %s), none sampled or called",
		    c->nranges, c->ranges[0].name);
		return;
	}
	double fs = share(c->samples, samples);
	double fc = share((double)c->calls, (double)c->all_calls);
	set(g, DIAG_CLONES, fs >= CLONE_SHARE || fc >= CLONE_SHARE ?
	    DIAG_PROBLEM : DIAG_OK, "%s: GNU's rule gave the %.0f samples "
	    "(%.1f%%) and %llu calls (%.1f%%) of %zu compiler clones (such as "
	    "foo.part.0 or foo.cold) to the function before each%s; "
	    "--clones=merge credits them to the functions they were cloned "
	    "from", who, c->samples, 100 * fs, (unsigned long long)c->calls,
	    100 * fc, c->nranges, owners);
}

/* After gprof_analyse(): reads the model, writes g->diag only. */
void diagnose_build(struct gprof *g)
{
	double bins = hist_bins_total(g), credited = 0;
	struct who w;
	const char *who = who_init(&w, g);
	for (size_t i = 0; i < exe_syms_len(g); i++)
		credited += g->syms.base[i].hist_time;
	/* Samples in functions a symspec left out (-p NAME, -e...) are not
	   in their hist_time but did land in a function: hist.c took them
	   off the total instead. */
	double left_out = bins - (g->total_time - (double)g->shlib_ticks);
	if (left_out > 0)
		credited += left_out;

	check_rate(g, who);
	check_range(g, who, bins, credited);
	check_samples(g, who, bins);
	if (!check_sampled_only(g, who))
		check_arcs(g, who);
	struct program_fit fit;
	program_fit(g, &fit);
	check_program(g, who, &fit);
	check_age(g, &fit);
	check_hook(g, who);
	check_clones(g, who, bins);
}
