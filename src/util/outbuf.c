/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * outbuf.c - the block buffer the text reports write through (see
 * outbuf.h): flushing, and the writes too long for it.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "util/util.h"

void ob_init(struct outbuf *ob, FILE *f)
{
	ob->f = f;
	ob->buf = xmalloc(OB_SIZE);
	ob->len = 0;
	ob->cap = OB_SIZE;
}

void ob_free(struct outbuf *ob)
{
	free(ob->buf);
	ob->buf = NULL;
	ob->len = ob->cap = 0;
}

/* Write errors are left in the FILE's error flag, where output_close()
   looks for them, as they are for a direct write. */
void ob_flush(struct outbuf *ob)
{
	if (ob->len)
		fwrite(ob->buf, 1, ob->len, ob->f);
	ob->len = 0;
}

/* Past the end of the buffer: flushed, then copied in, or written
   directly if it would not fit an empty buffer either. */
void ob_write_long(struct outbuf *ob, const char *s, size_t n)
{
	ob_flush(ob);
	if (n > ob->cap) {
		fwrite(s, 1, n, ob->f);
		return;
	}
	memcpy(ob->buf, s, n);
	ob->len = n;
}

void ob_printf(struct outbuf *ob, const char *fmt, ...)
{
	va_list ap, again;

	va_start(ap, fmt);
	va_copy(again, ap);
	size_t room = ob->cap - ob->len;
	int n = vsnprintf(ob->buf + ob->len, room, fmt, ap);

	if (n >= 0 && (size_t)n < room) {
		ob->len += (size_t)n;
	} else if (n >= 0) {
		/* It did not fit: what was formatted is dropped and the
		   whole text goes after what is there already. */
		ob_flush(ob);
		if ((size_t)n < ob->cap)
			ob->len = (size_t)vsnprintf(ob->buf, ob->cap, fmt, again);
		else
			vfprintf(ob->f, fmt, again);
	}
	va_end(again);
	va_end(ap);
}
