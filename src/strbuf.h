/* SPDX-License-Identifier: GPL-3.0-or-later */
/* strbuf.h - growable string buffer (see strbuf.c). */
#ifndef STRBUF_H
#define STRBUF_H
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len, cap;
};
#define STRBUF_INIT { NULL, 0, 0 }

void sb_reset(struct strbuf *sb);
void sb_add(struct strbuf *sb, const char *s, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *sb_str(struct strbuf *sb);
char *sb_detach(struct strbuf *sb);
void sb_free(struct strbuf *sb);
#endif
