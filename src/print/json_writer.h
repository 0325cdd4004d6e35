/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json_writer.h - the small JSON writer json_print.c writes its documents
 * with (json_writer.c): internal to the print folder.
 *
 * The writer formats into a block buffer (util's outbuf) and hands it to
 * the FILE when full and when the document's outermost container closes:
 * a call graph of a million arcs is some 20 million values, too many for
 * a stdio call each.
 */
#ifndef JSON_WRITER_H
#define JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "print/print.h"

#define JW_MAX_DEPTH 16

struct jw {
	struct outbuf ob;            /* in front of the FILE; flushed and
	                                freed when the document closes */
	int depth;
	bool first[JW_MAX_DEPTH];    /* nothing written yet at that depth */
	int inline_from;             /* depths from here on stay on one line */
	bool after_key;              /* a key was written, its value is next */
};

void jw_init(struct jw *w, FILE *out);
/* Writes what is buffered (jw_close() of the outermost container does). */
void jw_flush(struct jw *w);
/* Opens an object (c '{') or array ('['), on one line if one_line. */
void jw_open(struct jw *w, char c, bool one_line);
void jw_close(struct jw *w, char c);
void jw_key(struct jw *w, const char *key);
/* Values: a string (escaped), null, an integer, an address ("0x...").  */
void jw_str(struct jw *w, const char *s);
void jw_null(struct jw *w);
void jw_int(struct jw *w, int64_t v);
void jw_addr(struct jw *w, vma_t a);

/* key: value shorthands; knum writes null for inf and nan. */
void kstr(struct jw *w, const char *k, const char *s);
void knum(struct jw *w, const char *k, double v);
void kuint(struct jw *w, const char *k, uint64_t v);
void kint(struct jw *w, const char *k, int64_t v);
void kbool(struct jw *w, const char *k, bool v);
void knull(struct jw *w, const char *k);

#endif
