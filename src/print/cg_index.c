/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cg_index.c - the index by function name that follows the call graph
 * (GNU's "Index by function name"), in the FSF and BSD layouts.
 */
#include <stdlib.h>
#include <string.h>

#include "print/print.h"

/* The index is sorted by name.  Comparing the names where they lie
   (all over memory) was most of its time: the first 16 bytes of each
   are copied out, as two big-endian numbers that compare as strcmp
   compares those bytes, and decide almost every pair without the names.
   The comparison's sign is strcmp's, so the stable sort keeps its exact
   order. */
struct name_key {
	uint64_t hi, lo;             /* bytes 0-7 and 8-15, NUL-padded */
	const struct sym *s;
};

static uint64_t big_endian(const unsigned char *b)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

static void make_key(struct name_key *k, const struct sym *s)
{
	unsigned char b[16] = { 0 };

	memcpy(b, s->name, strnlen(s->name, sizeof b));
	k->hi = big_endian(b);
	k->lo = big_endian(b + 8);
	k->s = s;
}

static int cmp_key(const void *pa, const void *pb, void *ctx)
{
	const struct name_key *a = *(struct name_key *const *)pa;
	const struct name_key *b = *(struct name_key *const *)pb;

	(void)ctx;
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	/* The same 16 bytes: the same name if it ended within them. */
	if ((a->lo & 0xff) == 0)
		return 0;
	return strcmp(a->s->name + 16, b->s->name + 16);
}

static void sort_by_name(const struct sym **v, size_t n)
{
	struct name_key *keys = xmalloc((n ? n : 1) * sizeof *keys);
	struct name_key **p = xmalloc((n ? n : 1) * sizeof *p);

	for (size_t i = 0; i < n; i++) {
		make_key(&keys[i], v[i]);
		p[i] = &keys[i];
	}
	stable_sort(p, n, sizeof *p, cmp_key, NULL);
	for (size_t i = 0; i < n; i++)
		v[i] = p[i]->s;
	free(p);
	free(keys);
}

/* FSF layout: each column starts at a multiple of the column width; the
   bracket is right-aligned to 5 past the column start and names are not
   truncated (a long one pushes the rest of the row right). */
static void index_entry_fsf(const struct gprof *g, struct report *r,
                            const struct sym *s, const char *idx, int *col,
                            int start)
{
	struct outbuf *out = &r->ob;
	const char *file;
	int line;
	size_t len = strlen(idx);

	*col += (int)len;
	for (; *col < start + 5; ++*col)
		ob_putc(out, ' ');
	ob_putc(out, ' ');
	ob_write(out, idx, len);
	ob_putc(out, ' ');
	if (!s->name) {
		char cyc[32];
		int n = snprintf(cyc, sizeof cyc, "<cycle %d>", s->cycle_num);

		ob_write(out, cyc, (size_t)n);
		*col += n;
		return;
	}
	const char *name = display_name_len(g, r, s, &len);

	ob_write(out, name, len);
	*col += (int)len;
	if (g->opt.line_gran || !s->is_static)
		return;
	if (report_sym_file(g, r, s, &file, &line)) {
		const char *f = path_display(g, file);

		ob_write(out, " (", 2);
		ob_puts(out, f);
		ob_putc(out, ')');
		*col += (int)strlen(f) + 3;
	}
}

static void index_entry_bsd(struct outbuf *out, const struct sym *s,
                            const char *idx)
{
	char cyc[32];
	const char *name = s->name;

	if (!name) {
		snprintf(cyc, sizeof cyc, "<cycle %d>", s->cycle_num);
		name = cyc;
	}
	ob_printf(out, "%6.6s %-19.19s", idx, name);
}

/* "[N]", or "(N)" for an entry not printed, into idx (40 bytes). */
static void fmt_index_ref(char *idx, const struct sym *s)
{
	if (s->index < 0) {
		snprintf(idx, 40, s->print_flag ? "[%d]" : "(%d)", s->index);
		return;
	}
	int n = 1 + fmt_uint(idx + 1, (uint64_t)s->index, 0, false);

	idx[0] = s->print_flag ? '[' : '(';
	idx[n++] = s->print_flag ? ']' : ')';
	idx[n] = '\0';
}

void cg_print_index(const struct gprof *g, struct report *r)
{
	struct outbuf *out = &r->ob;
	size_t total = g->syms.len + (size_t)g->ncycles, n = 0;
	const struct sym **v = xmalloc((total ? total : 1) * sizeof *v);
	int width = (g->opt.width - 1) / 3;

	for (size_t i = 0; i < g->syms.len; i++) {
		const struct sym *s = &g->syms.base[i];

		if ((g->opt.ignore_zeros && s->ncalls == 0 && s->hist_time == 0) ||
		    s->origin)
			continue;
		v[n++] = s;
	}
	sort_by_name(v, n);
	for (int i = 0; i < g->ncycles; i++)
		v[n++] = &g->cycles[i];

	ob_puts(out, "\f\nIndex by function name\n\n");
	size_t rows = (n + 2) / 3;

	for (size_t row = 0; row < rows; row++) {
		int col = 0, start = 0;

		for (size_t j = row; j < n; j += rows) {
			const struct sym *s = v[j];
			char idx[40];

			/* Sorted by name, the symbols lie all over memory:
			   each asks for the one 8 rows down (written here,
			   see report_prefetch_name()). */
			if (j + 8 < n) {
				__builtin_prefetch(&v[j + 8]->name);
				__builtin_prefetch(&v[j + 8]->index);
				report_prefetch_shown(g, r, v[j + 8]);
			}
			fmt_index_ref(idx, s);
			if (g->opt.bsd_style)
				index_entry_bsd(out, s, idx);
			else
				index_entry_fsf(g, r, s, idx, &col, start);
			start += width;
		}
		ob_putc(out, '\n');
	}
	ob_flush(out);
	free((void *)v);
}
