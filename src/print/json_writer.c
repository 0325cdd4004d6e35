/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json_writer.c - owns the small JSON writer of the JSON printers
 * (json_print.c): indented JSON, small objects on one line, strings
 * escaped as RFC 8259 asks, numbers in the shortest form that reads back
 * the same, addresses as strings (json_writer.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "print/print.h"
#include "json_writer.h"

void jw_init(struct jw *w, FILE *out)
{
	memset(w, 0, sizeof *w);
	w->out = out;
	w->first[0] = true;
	w->inline_from = JW_MAX_DEPTH;
}

static void jw_newline(struct jw *w, int depth)
{
	fputc('\n', w->out);
	for (int i = 0; i < depth; i++)
		fputs("  ", w->out);
}

/* What goes before a value or a key: the comma after the previous one,
   then a new line or, in a one-line container, a space. */
static void jw_sep(struct jw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	if (!w->first[w->depth])
		fputc(',', w->out);
	if (w->depth < w->inline_from)
		jw_newline(w, w->depth);
	else if (!w->first[w->depth])
		fputc(' ', w->out);
	w->first[w->depth] = false;
}

/* A string's bytes, escaped as RFC 8259 asks.  Names are bytes, not
   always UTF-8: a byte that does not start a well-formed UTF-8 sequence
   becomes U+FFFD, so the document is always valid UTF-8. */
static size_t utf8_seq(const unsigned char *p)
{
	unsigned c = p[0];
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* Overlong forms, surrogates and code points past U+10FFFF are
	   ruled out by the second byte's range. */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

static void jw_escaped(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		unsigned c = *p;
		if (c == '"' || c == '\\') {
			fputc('\\', out);
			fputc((int)c, out);
		} else if (c == '\n') {
			fputs("\\n", out);
		} else if (c == '\t') {
			fputs("\\t", out);
		} else if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
		} else if (c < 0x80) {
			fputc((int)c, out);
		} else {
			size_t n = utf8_seq(p);
			if (n == 0) {
				fputs("\\ufffd", out);
				p++;
				continue;
			}
			fwrite(p, 1, n, out);
			p += n;
			continue;
		}
		p++;
	}
	fputc('"', out);
}

void jw_open(struct jw *w, char c, bool one_line)
{
	jw_sep(w);
	fputc(c, w->out);
	if (w->depth + 1 >= JW_MAX_DEPTH)
		abort();                /* the documents nest 6 deep at most */
	w->depth++;
	w->first[w->depth] = true;
	if (one_line && w->depth < w->inline_from)
		w->inline_from = w->depth;
}

void jw_close(struct jw *w, char c)
{
	bool empty = w->first[w->depth];

	if (!empty && w->depth < w->inline_from)
		jw_newline(w, w->depth - 1);
	if (w->inline_from == w->depth)
		w->inline_from = JW_MAX_DEPTH;
	w->depth--;
	fputc(c, w->out);
	if (w->depth == 0)
		fputc('\n', w->out);
}

void jw_key(struct jw *w, const char *key)
{
	jw_sep(w);
	jw_escaped(w->out, key);
	fputs(": ", w->out);
	w->after_key = true;
}

void jw_str(struct jw *w, const char *s)
{
	jw_sep(w);
	if (s)
		jw_escaped(w->out, s);
	else
		fputs("null", w->out);
}

void jw_null(struct jw *w)
{
	jw_sep(w);
	fputs("null", w->out);
}

/* The shortest form that reads back as the same double; null for inf
   and nan, which JSON has no spelling for. */
static void jw_num(struct jw *w, double v)
{
	char buf[64];

	jw_sep(w);
	if (!isfinite(v)) {
		fputs("null", w->out);
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, w->out);
}

static void jw_uint(struct jw *w, uint64_t v)
{
	jw_sep(w);
	fprintf(w->out, "%" PRIu64, v);
}

void jw_int(struct jw *w, int64_t v)
{
	jw_sep(w);
	fprintf(w->out, "%" PRId64, v);
}

static void jw_bool(struct jw *w, bool v)
{
	jw_sep(w);
	fputs(v ? "true" : "false", w->out);
}

void jw_addr(struct jw *w, vma_t a)
{
	jw_sep(w);
	fprintf(w->out, "\"0x%" PRIx64 "\"", (uint64_t)a);
}

/* key: value shorthands */
void kstr(struct jw *w, const char *k, const char *s)
{
	jw_key(w, k);
	jw_str(w, s);
}

void knum(struct jw *w, const char *k, double v)
{
	jw_key(w, k);
	jw_num(w, v);
}

void kuint(struct jw *w, const char *k, uint64_t v)
{
	jw_key(w, k);
	jw_uint(w, v);
}

void kint(struct jw *w, const char *k, int64_t v)
{
	jw_key(w, k);
	jw_int(w, v);
}

void kbool(struct jw *w, const char *k, bool v)
{
	jw_key(w, k);
	jw_bool(w, v);
}

void knull(struct jw *w, const char *k)
{
	jw_key(w, k);
	jw_null(w);
}
