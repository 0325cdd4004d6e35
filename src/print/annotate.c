/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * annotate.c - -A annotated source: each source line is printed behind a
 * 16-column annotation with the calls of the function starting there (and
 * basic-block counts with -l), followed by a table of the busiest lines
 * and a summary; -y writes each file to FILE-ann instead of stdout.  The
 * per-line symbols come from source_lines.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "print/print.h"

#define ANNO_WIDTH 16

struct line_stats {
	long executable, executed;
	uint64_t total;
	uint64_t *count;             /* per line, for the top-lines table */
};

struct anno {
	struct strbuf sb;
	uint64_t sum, *last;
	bool printed;
};

static void anno_add(struct anno *a, uint64_t v)
{
	sb_printf(&a->sb, a->printed ? ",%lu" : "%lu", (unsigned long)v);
	a->sum += v;
	*a->last = v;
	a->printed = true;
}

/*
 * The counts shown for one line: a function's calls, then the counts of
 * the blocks starting there.  With -x a line also shows the count carried
 * from above when its first block starts after it (or it has none), and a
 * block count equal to the one before it is not repeated.  A merged line
 * (several symbols) has address 0, so it always carries.
 */
static bool annotation(const struct gprof *g, const struct sym *s,
                       struct anno *a)
{
	bool all = g->opt.all_lines;

	if (s->is_func)
		anno_add(a, s->ncalls);
	else if (all && (s->nbb == 0 || s->bb[0].addr > s->addr))
		anno_add(a, *a->last);
	for (int k = 0; k < s->nbb; k++) {
		if (all && s->bb[k].count == *a->last)
			continue;
		anno_add(a, s->bb[k].count);
	}
	if (!a->printed && all)
		anno_add(a, *a->last);
	if (a->printed && a->sum < g->opt.min_count) {
		sb_reset(&a->sb);
		sb_puts(&a->sb, "#####");
	}
	return a->printed;
}

/* Prints the 16-column annotation of one line; the statistics count a
   line as executed when it shows a count, and add up calls only. */
static void annotate_line(const struct gprof *g, FILE *out,
                          const struct sym *s,
                          uint64_t *last, struct line_stats *st)
{
	struct anno a = { STRBUF_INIT, 0, last, false };

	if (!s) {
		fprintf(out, "%*s", ANNO_WIDTH, "");
		return;
	}
	st->executable++;
	if (annotation(g, s, &a)) {
		st->executed++;
		sb_puts(&a.sb, " -> ");
	}
	const char *txt = sb_str(&a.sb);
	if (strlen(txt) > ANNO_WIDTH)
		fwrite(txt, 1, ANNO_WIDTH, out);
	else
		fprintf(out, "%*s", ANNO_WIDTH, txt);
	sb_free(&a.sb);
}

struct ranked { int line; uint64_t count; };

static int cmp_ranked(const void *pa, const void *pb, void *ctx)
{
	const struct ranked *a = pa, *b = pb;
	(void)ctx;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->line - b->line;
}

static void print_top_lines(const struct gprof *g, FILE *out,
                            const struct source_file *f,
                            const struct line_stats *st)
{
	int n = f->num_lines;
	struct ranked *r = xmalloc((size_t)(n + 1) * sizeof *r);
	for (int i = 1; i <= n; i++)
		r[i - 1] = (struct ranked){ i, st->count[i] };
	stable_sort(r, (size_t)n, sizeof *r, cmp_ranked, NULL);
	fprintf(out, "\n\nTop %d Lines:\n\n     Line      Count\n\n",
	        g->opt.table_length);
	for (int i = 0; i < n && i < g->opt.table_length && r[i].count; i++)
		fprintf(out, "%9d %10lu\n", r[i].line, (unsigned long)r[i].count);
	free(r);
}

static void print_summary(FILE *out, const struct line_stats *st)
{
	double pct = st->executable ?
		100.0 * (double)st->executed / (double)st->executable : 100.0;
	double avg = st->executable ?
		(double)st->total / (double)st->executable : 0.0;
	fputs("\nExecution Summary:\n\n", out);
	fprintf(out, "%9ld   Executable lines in this file\n", st->executable);
	fprintf(out, "%9ld   Lines executed\n", st->executed);
	fprintf(out, "%9.2f   Percent of the file executed\n", pct);
	fprintf(out, "\n%9lu   Total number of line executions\n",
	        (unsigned long)st->total);
	fprintf(out, "%9.2f   Average executions per line\n", avg);
}

/* Tries the recorded path, then each search directory with the path (if
   relative) and with its last component. */
static FILE *open_source(const struct gprof *g, const char *path)
{
	FILE *f = fopen(path, "r");
	struct strbuf sb = STRBUF_INIT;
	const char *base = strrchr(path, '/');

	for (size_t i = 0; !f && path[0] != '/' && i < g->opt.nsearch_dirs; i++) {
		sb_reset(&sb);
		sb_printf(&sb, "%s/%s", g->opt.search_dirs[i], path);
		f = fopen(sb_str(&sb), "r");
	}
	for (size_t i = 0; !f && base && i < g->opt.nsearch_dirs; i++) {
		sb_reset(&sb);
		sb_printf(&sb, "%s/%s", g->opt.search_dirs[i], base + 1);
		f = fopen(sb_str(&sb), "r");
	}
	sb_free(&sb);
	return f;
}

/* The source copied to `out` a block at a time, each line behind its
   annotation (the last line too when it has no newline). */
static void copy_annotated(const struct gprof *g, FILE *out, FILE *src,
                           const struct source_file *f, struct line_stats *st)
{
	char buf[1 << 16];
	uint64_t last = 0;
	int lineno = 1;
	bool at_start = true;
	size_t n;

	while ((n = fread(buf, 1, sizeof buf, src)) > 0) {
		for (const char *p = buf, *end = buf + n; p < end;) {
			if (at_start) {
				const struct sym *s = lineno <= f->num_lines ?
					f->line[lineno] : NULL;
				annotate_line(g, out, s, &last, st);
				at_start = false;
			}
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *stop = nl ? nl + 1 : end;
			fwrite(p, 1, (size_t)(stop - p), out);
			p = stop;
			if (nl) {
				lineno++;
				at_start = true;
			}
		}
	}
}

static void annotate_file(const struct gprof *g, FILE *out, FILE *src,
                          const struct source_file *f)
{
	struct line_stats st = { 0 };
	/* Calls count in the totals and the top lines for every line that
	   has a symbol: also where the line shows no count (its first symbol
	   is not a function) and past the end of the file (a header's line
	   numbers recorded under the including file's name). */
	st.count = xcalloc((size_t)f->num_lines + 1, sizeof *st.count);
	for (int i = 1; i <= f->num_lines; i++) {
		if (f->line[i]) {
			st.count[i] = f->line[i]->ncalls;
			st.total += f->line[i]->ncalls;
		}
	}
	copy_annotated(g, out, src, f, &st);
	if (g->opt.table_length > 0)
		print_top_lines(g, out, f, &st);
	print_summary(out, &st);
	free(st.count);
}

/* -y: FILE-ann in the current directory, written safely. */
static bool open_separate(const struct source_file *f, struct safe_file *sf,
                          struct strbuf *name)
{
	const char *base = strrchr(f->name, '/');
	sb_reset(name);
	sb_printf(name, "%s-ann", base ? base + 1 : f->name);
	if (safe_open(sf, sb_str(name)))
		return true;
	perror(sb_str(name));
	return false;
}

void annotate_sources(const struct gprof *g, struct report *r)
{
	FILE *out = r->out;
	bool first_file = true;
	struct strbuf name = STRBUF_INIT;

	for (const struct source_file *f = g->files; f; f = f->next) {
		if (f->num_lines == 0 || (g->opt.ignore_zeros && f->ncalls == 0))
			continue;
		debug_printf(g, DBG_SRC, "[annotate] %s: %d lines, %lu calls\n",
		             f->name, f->num_lines, f->ncalls);
		FILE *src = open_source(g, f->name);
		if (!src) {
			fflush(stdout);
			if (errno == ENOENT)
				warnx_g(g, "could not locate `%s'", f->name);
			else
				perror(f->name);
			continue;
		}
		if (g->opt.separate_files) {
			struct safe_file sf;
			if (open_separate(f, &sf, &name)) {
				annotate_file(g, sf.f, src, f);
				if (!safe_commit(&sf))
					perror(sb_str(&name));
			}
		} else {
			if (!first_file)
				fputc('\n', out);
			report_section(r);
			fprintf(out, "*** File %s:\n", f->name);
			annotate_file(g, out, src, f);
		}
		first_file = false;
		fclose(src);
	}
	sb_free(&name);
}
