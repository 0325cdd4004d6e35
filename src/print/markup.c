/* SPDX-License-Identifier: GPL-3.0-or-later */
/* markup.c - escaping names for DOT, HTML and SVG (see markup.h). */
#include <string.h>

#include "markup.h"


/* Length of the valid UTF-8 sequence at p, or 0 when p starts an invalid
   one (overlong forms, surrogates and code points past U+10FFFF
   included). */
static size_t utf8_len(const unsigned char *p)
{
	unsigned c = p[0];
	size_t n;
	unsigned cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

static size_t count_chars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	while (*p) {
		size_t k = utf8_len(p);
		p += k ? k : 1;
		n++;
	}
	return n;
}

size_t markup_width(const char *s, size_t max)
{
	size_t n = count_chars(s);

	return n <= max ? n : (max > 3 ? max : 3);
}

typedef void (*put_fn)(FILE *out, unsigned char c);

static void put_dot(FILE *out, unsigned char c)
{
	switch (c) {
	case '"': fputs("\\\"", out); break;
	case '\\': fputs("\\\\", out); break;
	case '&': fputs("&amp;", out); break;
	case '\n': fputs("\\n", out); break;
	default:
		/* Other control characters would be invisible at best. */
		fputc(c < 0x20 || c == 0x7f ? '?' : c, out);
	}
}

static void put_html(FILE *out, unsigned char c)
{
	switch (c) {
	case '&': fputs("&amp;", out); break;
	case '<': fputs("&lt;", out); break;
	case '>': fputs("&gt;", out); break;
	case '"': fputs("&quot;", out); break;
	case '\'': fputs("&#39;", out); break;
	default:
		/* Control characters are not allowed in XML (the inline SVG). */
		fputc((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ? '?' : c,
		      out);
	}
}

static void put_escaped(FILE *out, const char *s, size_t max, put_fn put)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t keep = MARKUP_WHOLE;

	if (max != MARKUP_WHOLE && count_chars(s) > max)
		keep = max > 3 ? max - 3 : 0;
	for (size_t n = 0; *p && n < keep; n++) {
		size_t k = utf8_len(p);

		if (k == 0) {
			put(out, '?');
			p++;
		} else if (k == 1) {
			put(out, *p++);
		} else {
			fwrite(p, 1, k, out);
			p += k;
		}
	}
	if (keep != MARKUP_WHOLE)
		fputs("...", out);
}

void markup_dot(FILE *out, const char *s, size_t max)
{
	put_escaped(out, s, max, put_dot);
}

void markup_html(FILE *out, const char *s, size_t max)
{
	put_escaped(out, s, max, put_html);
}
