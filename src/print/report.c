/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report.c - the state printers share in one run (see report.h): section
 * breaks, and how a symbol's name is shown (demangling, file/line
 * suffixes, cycle and index decorations), memoised per symbol.
 */
#include <stdlib.h>
#include <string.h>

#include "print/print.h"

void report_init(struct report *r, FILE *out, bool started)
{
	memset(r, 0, sizeof *r);
	r->out = out;
	ob_init(&r->ob, out);
	r->started = started;
}

static void free_label(struct sym_label *l)
{
	if (l->len > LABEL_INLINE)
		free(l->u.heap);
	l->len = 0;
}

static void free_labels(struct report *r)
{
	for (size_t i = 0; r->label && i < r->nshown; i++)
		free_label(&r->label[i]);
	free_label(&r->scratch);
	free(r->label_mem);
	r->label = NULL;
	r->label_mem = NULL;
}

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->nshown; i++)
		if (r->shown_owned[i])
			free((char *)r->shown[i]);
	for (size_t i = 0; i < r->nextra; i++)
		free(r->extra[i]);
	for (size_t i = 0; i < r->nshown; i++)
		free(r->loc[i].file);
	free(r->loc);
	free(r->shown);
	free(r->shown_owned);
	free(r->shown_len);
	r->shown_len = NULL;
	free_labels(r);
	ob_free(&r->ob);
	free(r->extra);
	r->shown = NULL;
	r->shown_owned = NULL;
	r->extra = NULL;
	r->loc = NULL;
	r->nshown = r->nextra = r->extra_cap = 0;
}

void report_section(struct report *r)
{
	if (r->started)
		ob_write(&r->ob, "\f\n", 2);
	ob_flush(&r->ob);
	r->started = true;
}

/* Symbols outside the table are symspec copies and -A's merged lines. */
static bool in_table(const struct gprof *g, const struct sym *s)
{
	const struct sym *base = g->syms.base;

	return base && s >= base && s < base + g->syms.len;
}

/* The memos cover g->syms, which analysis has finished growing. */
static void memo_arrays(const struct gprof *g, struct report *r)
{
	if (r->shown)
		return;
	r->nshown = g->syms.len;
	r->shown = xcalloc(r->nshown, sizeof *r->shown);
	r->shown_owned = xcalloc(r->nshown, sizeof *r->shown_owned);
	r->shown_len = xcalloc(r->nshown, sizeof *r->shown_len);
	/* One label per cache line, not two halves of two: the array
	   starts at the first 64-byte boundary of room for one more. */
	_Static_assert(sizeof *r->label == 64, "a label fills a cache line");
	r->label_mem = xcalloc(r->nshown + 1, sizeof *r->label);
	r->label = (struct sym_label *)(((uintptr_t)r->label_mem + 63) &
	                                ~(uintptr_t)63);
	r->loc = xcalloc(r->nshown, sizeof *r->loc);
}

/* A symbol's source file and line.  Analysis has looked up the files of
   the symbols it needed; any other symbol is looked up here, once, and
   the answer kept in the report, not in the model. */
bool report_sym_file(const struct gprof *g, struct report *r,
                     const struct sym *s, const char **file, int *line)
{
	if (s->file) {
		*file = s->file->name;
		*line = s->line;
		return true;
	}
	if (s->file_known)
		return false;
	if (!in_table(g, s))
		return core_sym_line(g, s, file, line);

	size_t i = (size_t)(s - g->syms.base);
	memo_arrays(g, r);
	if (!r->loc[i].known) {
		const char *f;
		int ln;
		r->loc[i].known = true;
		if (core_sym_line(g, s, &f, &ln)) {
			r->loc[i].file = xstrdup(f);
			r->loc[i].line = ln;
		}
	}
	*file = r->loc[i].file;
	*line = r->loc[i].line;
	return *file != NULL;
}

/* The name of a source file as reports show it. */
const char *path_display(const struct gprof *g, const char *path)
{
	if (g->opt.print_path)
		return path;
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static void add_location(const struct gprof *g, struct report *r,
                         struct strbuf *sb, const struct sym *s)
{
	const char *file;
	int line;

	if (!report_sym_file(g, r, s, &file, &line))
		return;
	const char *fn = path_display(g, file);
	if (g->opt.line_gran)
		sb_printf(sb, " (%s:%d @ %lx)", fn, line,   /* a library's own */
		          (unsigned long)sym_object_addr(g, s));
	else
		sb_printf(sb, " (%s:%d)", fn, line);
}

static char *make_name(const struct gprof *g, struct report *r,
                       const struct sym *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *dem = NULL;

	if (g->opt.demangle && !g->opt.bsd_style && g->abfd)
		dem = core_demangle(g, s->name);
	sb_puts(&sb, dem ? dem : s->name);
	free(dem);
	if (g->opt.line_gran || g->opt.inline_file_names)
		add_location(g, r, &sb, s);
	return sb_detach(&sb);
}

/* A table symbol's name as shown, made only when it differs from the raw
   one (*owned then): most names of a C program are shown as they are,
   and a copy of each of 100,000 is time for nothing. */
static const char *shown_name(const struct gprof *g, struct report *r,
                              const struct sym *s, bool *owned)
{
	char *dem = NULL;

	*owned = true;
	if (g->opt.line_gran || g->opt.inline_file_names)
		return make_name(g, r, s);
	if (g->opt.demangle && !g->opt.bsd_style && g->abfd)
		dem = core_demangle(g, s->name);
	*owned = dem != NULL;
	return dem ? dem : s->name;
}

/* Symbols outside the table (symspec copies, annotation's merged lines)
   are rare: their names are made afresh and kept until report_free(). */
static const char *keep_extra(struct report *r, char *name)
{
	if (r->nextra == r->extra_cap) {
		r->extra_cap = r->extra_cap ? 2 * r->extra_cap : 16;
		r->extra = xrealloc(r->extra, r->extra_cap * sizeof *r->extra);
	}
	r->extra[r->nextra++] = name;
	return name;
}

const char *display_name(const struct gprof *g, struct report *r,
                         const struct sym *s)
{
	if (!in_table(g, s))
		return keep_extra(r, make_name(g, r, s));
	size_t i = (size_t)(s - g->syms.base);
	memo_arrays(g, r);
	if (!r->shown[i]) {
		r->shown[i] = shown_name(g, r, s, &r->shown_owned[i]);
		size_t len = strlen(r->shown[i]);
		r->shown_len[i] = len < UINT32_MAX ? (uint32_t)len : UINT32_MAX;
	}
	return r->shown[i];
}

void report_prefetch_shown(const struct gprof *g, const struct report *r,
                           const struct sym *s)
{
	if (!r->shown || !in_table(g, s))
		return;
	__builtin_prefetch(&r->shown[s - g->syms.base]);
	__builtin_prefetch(&r->shown_len[s - g->syms.base]);
}

const char *display_name_len(const struct gprof *g, struct report *r,
                             const struct sym *s, size_t *len)
{
	const char *name = display_name(g, r, s);
	if (!in_table(g, s) || r->shown_len[s - g->syms.base] == UINT32_MAX)
		*len = strlen(name);
	else
		*len = r->shown_len[s - g->syms.base];
	return name;
}

/* " <cycle N>" and " [N]" or " (N)" into buf (64 bytes); the length. */
static size_t decoration(const struct sym *s, char *buf)
{
	size_t n = 0;

	if (s->cycle_num > 0) {
		memcpy(buf, " <cycle ", 8);
		n = 8 + (size_t)fmt_uint(buf + 8, (uint64_t)s->cycle_num, 0, false);
		buf[n++] = '>';
	} else if (s->cycle_num != 0) {
		n = (size_t)snprintf(buf, 64, " <cycle %d>", s->cycle_num);
	}
	if (s->index > 0) {
		buf[n++] = ' ';
		buf[n++] = s->print_flag ? '[' : '(';
		n += (size_t)fmt_uint(buf + n, (uint64_t)s->index, 0, false);
		buf[n++] = s->print_flag ? ']' : ')';
	} else if (s->index != 0) {
		n += (size_t)snprintf(buf + n, 64 - n,
		                      s->print_flag ? " [%d]" : " (%d)", s->index);
	}
	return n;
}

/* Makes the label of s into l (which holds none). */
static void make_label(const struct gprof *g, struct report *r,
                       const struct sym *s, struct sym_label *l)
{
	char deco[64];
	size_t len, dlen = decoration(s, deco);
	const char *name = display_name_len(g, r, s, &len);
	char *text = l->u.text;

	if (len + dlen > LABEL_INLINE)
		text = l->u.heap = xmalloc(len + dlen);
	memcpy(text, name, len);
	memcpy(text + len, deco, dlen);
	l->len = len + dlen;
	l->cycle_calls = s->cyc_head ? s->cyc_head->ncalls : s->ncalls;
	l->cycle_num = s->cycle_num;
}

const struct sym_label *report_make_label(const struct gprof *g,
                                          struct report *r,
                                          const struct sym *s)
{
	if (!in_table(g, s)) {
		free_label(&r->scratch);
		make_label(g, r, s, &r->scratch);
		return &r->scratch;
	}
	memo_arrays(g, r);
	struct sym_label *l = &r->label[s - g->syms.base];

	if (l->len == 0)
		make_label(g, r, s, l);
	return l;
}

/* Name plus cycle membership and call-graph index: "a <cycle 1> [4]".
   An index in parentheses marks an entry that is not printed. */
void print_sym_name(const struct gprof *g, struct report *r,
                    const struct sym *s)
{
	const struct sym_label *l = report_label(g, r, s);

	ob_write(&r->ob, label_text(l), l->len);
}

void report_prefetch_name(const struct gprof *g, const struct report *r,
                          const struct sym *s)
{
	const struct sym_label *l = report_label_slot(g, r, s);

	if (l)
		__builtin_prefetch(l);
}
