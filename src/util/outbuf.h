/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * outbuf.h - a block buffer in front of a FILE (outbuf.c), for the text
 * reports that print millions of short lines.
 *
 * stdio takes a lock and makes a call per write; a big call graph made
 * four of them per line.  Printers format into this buffer instead and
 * hand stdio one block at a time.  The rule that keeps the bytes in
 * order: whoever writes to the buffer flushes it before anything else
 * writes to the FILE, and before returning to the caller.
 */
#ifndef OUTBUF_H
#define OUTBUF_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define OB_SIZE (64 * 1024)
/* The most ob_room() can give at once. */
#define OB_ROOM_MAX (OB_SIZE / 4)

struct outbuf {
	FILE *f;
	char *buf;                   /* cap bytes: OB_SIZE, or 0 after ob_free() */
	size_t len, cap;
};

void ob_init(struct outbuf *ob, FILE *f);
void ob_free(struct outbuf *ob);

/* Writes what the buffer holds to the FILE. */
void ob_flush(struct outbuf *ob);

/* The slow path of ob_write(). */
void ob_write_long(struct outbuf *ob, const char *s, size_t n);

void ob_printf(struct outbuf *ob, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Room for n bytes (n <= OB_ROOM_MAX) at the end of the buffer: the
   caller writes there, then adds what it wrote to ob->len. */
static inline char *ob_room(struct outbuf *ob, size_t n)
{
	if (ob->cap - ob->len < n)
		ob_flush(ob);
	return ob->buf + ob->len;
}

static inline void ob_write(struct outbuf *ob, const char *s, size_t n)
{
	if (ob->cap - ob->len < n) {
		ob_write_long(ob, s, n);
		return;
	}
	memcpy(ob->buf + ob->len, s, n);
	ob->len += n;
}

static inline void ob_puts(struct outbuf *ob, const char *s)
{
	ob_write(ob, s, strlen(s));
}

static inline void ob_putc(struct outbuf *ob, char c)
{
	ob_room(ob, 1)[0] = c;
	ob->len++;
}

#endif
