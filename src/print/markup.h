/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * markup.h - writing arbitrary symbol names into DOT strings and into
 * HTML/SVG text and attributes (markup.c): escaping, invalid UTF-8, and
 * eliding long names in labels.
 *
 * Names come from symbol tables and may hold any byte: C++ names have
 * <, >, & and quotes; a corrupt table may hold bytes that are not UTF-8,
 * which Graphviz warns about and browsers mangle.  Valid UTF-8 passes
 * through; an invalid byte becomes '?'.
 */
#ifndef MARKUP_H
#define MARKUP_H

#include <stddef.h>
#include <stdio.h>

/* No limit on the characters written. */
#define MARKUP_WHOLE ((size_t)-1)

/* Writes s for the inside of a DOT double-quoted string: quotes and
   backslashes escaped, '&' as "&amp;" (Graphviz reads entities in
   labels), a newline as "\n".  At most `max` characters of s are
   written; a longer s is cut to max - 3 and "..." added. */
void markup_dot(FILE *out, const char *s, size_t max);

/* The same for HTML and SVG text and attribute values (double-quoted):
   &, <, >, " and ' become entities. */
void markup_html(FILE *out, const char *s, size_t max);

/* The characters (UTF-8 code points, an invalid byte counting as one)
   of s that markup_* with `max` would write, "..." included. */
size_t markup_width(const char *s, size_t max);

#endif
