/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * strbuf.h - a growable, always NUL-terminated string buffer (strbuf.c).
 *
 * A buffer starts as STRBUF_INIT (no storage yet) and owns its storage
 * until sb_detach() or sb_free().  Adding never fails: running out of
 * memory ends the program through xrealloc().  `len` counts the bytes
 * added, without the NUL; `buf` may be NULL until something is added or
 * sb_str() is called.  The buffer may hold NUL bytes added with sb_add().
 */
#ifndef STRBUF_H
#define STRBUF_H
#include <stddef.h>

struct strbuf {
	char *buf;                   /* NULL, or len bytes then a NUL */
	size_t len, cap;             /* cap: bytes allocated, NUL included */
};
#define STRBUF_INIT { NULL, 0, 0 }

/* Empties the buffer and keeps its storage for reuse. */
void sb_reset(struct strbuf *sb);

/* Appends the n bytes at s (which need not be NUL-terminated). */
void sb_add(struct strbuf *sb, const char *s, size_t n);

/* Appends the NUL-terminated string s. */
void sb_puts(struct strbuf *sb, const char *s);

/* Appends what printf(fmt, ...) would print; nothing if the format fails
   (an encoding error). */
void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The contents as a C string ("" for an empty buffer, never NULL).  The
   pointer stays valid until the next call that adds to, resets, detaches
   or frees the buffer. */
const char *sb_str(struct strbuf *sb);

/* Hands the contents over as a malloc'd string the caller frees, and
   leaves the buffer empty as after STRBUF_INIT. */
char *sb_detach(struct strbuf *sb);

/* Frees the storage and leaves the buffer as after STRBUF_INIT. */
void sb_free(struct strbuf *sb);
#endif
