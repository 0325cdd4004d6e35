/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * utils.c - allocation, messages, source-file interning and the rules for
 * how a symbol's name is shown (demangling, file/line suffixes, cycle and
 * index decorations).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <bfd.h>
#include <libiberty/demangle.h>

#include "gprof.h"
#include "strbuf.h"

/* Fuzz harnesses set this to regain control instead of exiting. */
jmp_buf *gprof_exit_jmp;

void gprof_exit(int status)
{
	fflush(stdout);
	if (gprof_exit_jmp)
		longjmp(*gprof_exit_jmp, status ? status : 256);
	exit(status);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fputs("gprof: out of memory\n", stderr);
		gprof_exit(1);
	}
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) {
		fputs("gprof: out of memory\n", stderr);
		gprof_exit(1);
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("gprof: out of memory\n", stderr);
		gprof_exit(1);
	}
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

/* One message line on stderr, after whatever the report has printed;
   `who` (argv[0], as in GNU's messages) may be NULL for the few messages
   GNU prints without a program name. */
static void vmessage(const char *who, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (who)
		fprintf(stderr, "%s: ", who);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(struct gprof *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(g->whoami, fmt, ap);
	va_end(ap);
	gprof_exit(1);
}

void die_plain(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(NULL, fmt, ap);
	va_end(ap);
	gprof_exit(1);
}

void warnx_g(struct gprof *g, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(g->whoami, fmt, ap);
	va_end(ap);
}

/* Debug traces go to stdout, interleaved with the report, as GNU's do. */
void debug_printf(struct gprof *g, unsigned area, const char *fmt, ...)
{
	va_list ap;
	if (!(g->opt.debug & area))
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* ---- source files: interned by path so symbols can share them ---- */

static size_t str_hash(const char *s)
{
	size_t h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static void file_table_grow(struct file_table *files)
{
	size_t size = files->size ? files->size * 2 : 256;
	struct source_file **slot = xcalloc(size, sizeof *slot);
	for (size_t i = 0; i < files->size; i++) {
		struct source_file *f = files->slot[i];
		if (!f)
			continue;
		size_t h = str_hash(f->name) & (size - 1);
		while (slot[h])
			h = (h + 1) & (size - 1);
		slot[h] = f;
	}
	free(files->slot);
	files->slot = slot;
	files->size = size;
}

struct source_file *source_file_intern(struct gprof *g, const char *path)
{
	struct file_table *files = &g->file_table;
	if (files->count * 2 >= files->size)
		file_table_grow(files);
	size_t h = str_hash(path) & (files->size - 1);
	for (; files->slot[h]; h = (h + 1) & (files->size - 1))
		if (strcmp(files->slot[h]->name, path) == 0)
			return files->slot[h];
	struct source_file *f = xcalloc(1, sizeof *f);
	f->name = xstrdup(path);
	f->next = g->files;
	g->files = f;
	files->slot[h] = f;
	files->count++;
	return f;
}

/* Line symbols repeat their function's name many times over; one copy
   each is kept (in a table of the same shape as the file table). */
const char *str_intern(struct gprof *g, const char *s)
{
	struct file_table *t = &g->name_table;
	if (t->count * 2 >= t->size)
		file_table_grow(t);
	size_t h = str_hash(s) & (t->size - 1);
	for (; t->slot[h]; h = (h + 1) & (t->size - 1))
		if (strcmp(t->slot[h]->name, s) == 0)
			return t->slot[h]->name;
	struct source_file *f = xcalloc(1, sizeof *f);
	f->name = xstrdup(s);
	t->slot[h] = f;
	t->count++;
	return f->name;
}

/* File and line come from the debug information and cost a DWARF lookup,
   so they are fetched only for symbols whose file is actually needed. */
void sym_lookup_file(struct gprof *g, struct sym *s)
{
	const char *file, *func;
	unsigned line;

	if (s->file_known)
		return;
	s->file_known = true;
	if (s->file || !g->abfd)
		return;
	if (core_find_line(g, s->addr, &file, &func, &line) && file && func &&
	    line != 0) {
		s->file = source_file_intern(g, file);
		s->line = (int)line;
	}
}

const char *file_display(struct gprof *g, const struct source_file *f)
{
	if (g->opt.print_path)
		return f->name;
	const char *slash = strrchr(f->name, '/');
	return slash ? slash + 1 : f->name;
}

/* The name as reports print it: demangled (GNU style only), then the
   file/line suffix that -l and --inline-file-names ask for. */
const char *display_name(struct gprof *g, const struct sym *cs)
{
	struct sym *s = (struct sym *)cs;
	if (s->shown)
		return s->shown;

	struct strbuf sb = STRBUF_INIT;
	char *dem = NULL;
	if (g->opt.demangle && !g->opt.bsd_style && g->abfd)
		dem = bfd_demangle(g->abfd, s->name, DMGL_ANSI | DMGL_PARAMS);
	sb_puts(&sb, dem ? dem : s->name);
	free(dem);

	if (g->opt.line_gran || g->opt.inline_file_names) {
		sym_lookup_file(g, s);
		if (s->file) {
			const char *fn = file_display(g, s->file);
			if (g->opt.line_gran)
				sb_printf(&sb, " (%s:%d @ %lx)", fn, s->line,
				          (unsigned long)s->addr);
			else
				sb_printf(&sb, " (%s:%d)", fn, s->line);
		}
	}
	s->shown = sb_detach(&sb);
	return s->shown;
}

/* Name plus cycle membership and call-graph index: "a <cycle 1> [4]".
   An index in parentheses marks an entry that is not printed. */
void print_sym_name(struct gprof *g, FILE *out, const struct sym *s)
{
	char buf[64];
	size_t n = 0;
	fputs(display_name(g, s), out);
	if (s->cycle_num > 0) {
		memcpy(buf, " <cycle ", 8);
		n = 8 + (size_t)fmt_uint(buf + 8, (uint64_t)s->cycle_num, 0, false);
		buf[n++] = '>';
	} else if (s->cycle_num != 0) {
		n = (size_t)snprintf(buf, sizeof buf, " <cycle %d>", s->cycle_num);
	}
	if (s->index > 0) {
		buf[n++] = ' ';
		buf[n++] = s->print_flag ? '[' : '(';
		n += (size_t)fmt_uint(buf + n, (uint64_t)s->index, 0, false);
		buf[n++] = s->print_flag ? ']' : ')';
	} else if (s->index != 0) {
		n += (size_t)snprintf(buf + n, sizeof buf - n,
		                      s->print_flag ? " [%d]" : " (%d)", s->index);
	}
	fwrite(buf, 1, n, out);
}

/* Every report after the first is separated by a form feed. */
void section_break(struct gprof *g, FILE *out)
{
	if (!g->first_output)
		fputs("\f\n", out);
	g->first_output = false;
}

/* ---- fast number formatting for the reports ---- */

/* Writes v as printf("%*.*f", width, prec, v) does into buf (FMT_BUF
   bytes) and returns the length.  printf rounds the exact binary value;
   so does this, because it is used only when the scaled value is clearly
   away from a rounding tie: ties, near-ties, huge and non-finite values go
   to snprintf. */
int fmt_fixed(char *buf, double v, int width, int prec)
{
	static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6 };
	double mag = v < 0 ? -v : v;
	if (prec < 0 || prec > 6 || width > 40 || !(mag < 1e15 / p10[prec]))
		return snprintf(buf, FMT_BUF, "%*.*f", width, prec, v);
	/* a is |v| * 10^prec within half an ulp, so its fraction is within
	   a * 2^-53 of the exact one: well clear of .5, both round alike */
	double a = mag * p10[prec];
	uint64_t n = (uint64_t)a;
	double frac = a - (double)n, off = frac > 0.5 ? frac - 0.5 : 0.5 - frac;
	if (off <= a * 0x1p-50 + 0x1p-60)
		return snprintf(buf, FMT_BUF, "%*.*f", width, prec, v);
	n += frac > 0.5;
	char tmp[48];
	int len = 0;
	for (int i = 0; i < prec; i++, n /= 10)
		tmp[len++] = (char)('0' + n % 10);
	if (prec > 0)
		tmp[len++] = '.';
	do
		tmp[len++] = (char)('0' + n % 10);
	while ((n /= 10) != 0);
	if (signbit(v))
		tmp[len++] = '-';
	int pad = width > len ? width - len : 0;
	memset(buf, ' ', (size_t)pad);
	for (int i = 0; i < len; i++)
		buf[pad + i] = tmp[len - 1 - i];
	buf[pad + len] = '\0';
	return pad + len;
}

/* v as printf("%*" PRIu64) (left-aligned if `left`) into buf (32 bytes at
   least); returns the length. */
int fmt_uint(char *buf, uint64_t v, int width, bool left)
{
	char tmp[24];
	int len = 0, pad;
	do
		tmp[len++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	if (width > 31)
		width = 31;
	pad = width > len ? width - len : 0;
	int at = 0;
	if (!left)
		for (; at < pad; at++)
			buf[at] = ' ';
	for (int i = 0; i < len; i++)
		buf[at++] = tmp[len - 1 - i];
	if (left)
		for (int i = 0; i < pad; i++)
			buf[at++] = ' ';
	buf[at] = '\0';
	return at;
}
