/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_lines.c - libFuzzer harness for line mode's symbol construction
 * (-l): the DWARF reader of src/line_bounds.c and the bounds scan of
 * src/line_syms.c, run on a fuzzed executable the way the tool loads one
 * for -l (core_open, core_build_syms, core_intern_files,
 * core_build_line_syms, as pipeline.c's load_symbols() calls them).
 *
 * Input: the executable itself (an ELF file with DWARF).  It is loaded
 * twice, once with GPROF_LINE_SCAN=bytes (BFD asked about every address)
 * and once as the tool runs by default (BFD asked only at the boundaries
 * the DWARF reader finds); the two symbol tables, and whether the load
 * failed, must be the same, or the harness aborts.
 * FUZZ_LINES_DEBUG=1 prints both tables of each input to stderr;
 * FUZZ_LINES_DIFF=FILE writes them to FILE when they differ.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bfd.h>

#include "fuzz_common.h"

/* Larger texts are skipped: the byte scan asks BFD about every address
   (and a section header may claim any size when it has no contents). */
#define MAX_TEXT (256u * 1024u)

struct text {
	char *s;
	size_t n, cap;
};

static void put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(t->s ? t->s + t->n : NULL,
		                  t->s ? t->cap - t->n : 0, fmt, ap);
		va_end(ap);
		if (k < 0)
			abort();
		if (t->s && t->n + (size_t)k < t->cap) {
			t->n += (size_t)k;
			return;
		}
		size_t cap = t->cap ? t->cap : 4096;
		while (cap <= t->n + (size_t)k)
			cap *= 2;
		t->s = realloc(t->s, cap);
		if (!t->s)
			abort();
		t->cap = cap;
	}
}

/* What a load left: its exit status and, if it got that far, every
   symbol of the finished table (functions and line symbols). */
static void describe(const struct gprof *g, int st, bool built,
                     struct text *t)
{
	put(t, "status %d built %d\n", st, (int)built);
	if (!built)
		return;
	for (size_t i = 0; i < g->syms.len; i++) {
		const struct sym *s = &g->syms.base[i];
		put(t, "%#llx-%#llx %s %s:%d%s%s%s order %u\n",
		    (unsigned long long)s->addr, (unsigned long long)s->end_addr,
		    s->name ? s->name : "(null)",
		    s->file && s->file->name ? s->file->name : "(none)", s->line,
		    s->is_func ? " func" : "", s->is_static ? " static" : "",
		    s->file_known ? " known" : "", s->bfd_order);
	}
}

/* Loads `path` for -l with the given GPROF_LINE_SCAN (NULL: unset);
   false when the text is too big to scan byte by byte. */
static bool load(const char *path, const char *mode, struct text *t)
{
	static struct gprof g;
	memset(&g, 0, sizeof g);
	g.whoami = "gprof";
	g.first_output = true;
	g.opt.image = path;
	g.opt.demangle = true;
	g.opt.width = 80;
	g.opt.line_gran = true;
	if (mode)
		setenv("GPROF_LINE_SCAN", mode, 1);
	else
		unsetenv("GPROF_LINE_SCAN");
	bool built = false, too_big = false;
	int st;
	FUZZ_TRY(st) {
		core_open(&g);
		asection *text = (asection *)g.text_sec;
		if (bfd_section_size(text) > MAX_TEXT) {
			too_big = true;
		} else {
			core_build_syms(&g);
			core_intern_files(&g);
			core_build_line_syms(&g);
			built = true;
		}
	} FUZZ_END;
	unsetenv("GPROF_LINE_SCAN");
	if (!too_big)
		describe(&g, st, built, t);
	fuzz_free_context(&g, 1);
	return !too_big;
}

/* The first line where a and b differ, for the report. */
static void show_difference(const struct text *a, const struct text *b)
{
	size_t i = 0, line = 1, start = 0;
	while (i < a->n && i < b->n && a->s[i] == b->s[i]) {
		if (a->s[i] == '\n') {
			line++;
			start = i + 1;
		}
		i++;
	}
	const char *ea = memchr(a->s + start, '\n', a->n - start);
	const char *eb = memchr(b->s + start, '\n', b->n - start);
	int la = ea ? (int)(ea - (a->s + start)) : (int)(a->n - start);
	int lb = eb ? (int)(eb - (b->s + start)) : (int)(b->n - start);
	fprintf(stderr, "fuzz_lines: bounds scan differs from byte scan at "
	        "line %zu\n  bytes:  %.*s\n  bounds: %.*s\n", line,
	        la, a->s + start, lb, b->s + start);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 64)
		return 0;
	fuzz_begin();
	const char *path = fuzz_file(0, data, size);
	struct text bytes = { 0 }, bounds = { 0 };
	if (load(path, "bytes", &bytes)) {
		load(path, NULL, &bounds);
		const char *dbg = getenv("FUZZ_LINES_DEBUG");
		if (dbg && *dbg && *dbg != '0')
			fprintf(stderr, "---- bytes\n%.*s---- bounds\n%.*s",
			        (int)bytes.n, bytes.s, (int)bounds.n, bounds.s);
		if (bytes.n != bounds.n || memcmp(bytes.s, bounds.s, bytes.n) != 0) {
			show_difference(&bytes, &bounds);
			/* (libFuzzer's -close_fd_mask=3 silences stderr) */
			const char *keep = getenv("FUZZ_LINES_DIFF");
			FILE *f = keep && *keep ? fopen(keep, "w") : NULL;
			if (f) {
				fprintf(f, "---- bytes\n%.*s---- bounds\n%.*s",
				        (int)bytes.n, bytes.s, (int)bounds.n,
				        bounds.s);
				fclose(f);
			}
			abort();
		}
	}
	free(bytes.s);
	free(bounds.s);
	fuzz_end();
	return 0;
}
