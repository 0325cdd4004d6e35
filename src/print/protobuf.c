/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * protobuf.c - the protocol buffers wire encoding used by the pprof
 * output (pprof_print.c).  Only writing: nothing here parses.
 */
#include <string.h>

#include "protobuf.h"


enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

/* Seven bits a byte, least significant first; the top bit says another
   byte follows.  A 64-bit value takes at most 10 bytes. */
static void put_varint(struct strbuf *b, uint64_t v)
{
	char buf[10];
	size_t n = 0;

	while (v >= 0x80) {
		buf[n++] = (char)(0x80 | (v & 0x7f));
		v >>= 7;
	}
	buf[n++] = (char)v;
	sb_add(b, buf, n);
}

static size_t varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static void put_key(struct strbuf *b, unsigned field, unsigned wire)
{
	put_varint(b, ((uint64_t)field << 3) | wire);
}

void pb_uint(struct strbuf *b, unsigned field, uint64_t v)
{
	put_key(b, field, WIRE_VARINT);
	put_varint(b, v);
}

void pb_int(struct strbuf *b, unsigned field, int64_t v)
{
	pb_uint(b, field, (uint64_t)v);
}

void pb_bool(struct strbuf *b, unsigned field, int v)
{
	if (v)
		pb_uint(b, field, 1);
}

void pb_bytes(struct strbuf *b, unsigned field, const void *p, size_t n)
{
	put_key(b, field, WIRE_LEN);
	put_varint(b, n);
	if (n)
		sb_add(b, p, n);
}

void pb_string(struct strbuf *b, unsigned field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

void pb_message(struct strbuf *b, unsigned field, const struct strbuf *msg)
{
	pb_bytes(b, field, msg->buf, msg->len);
}

void pb_packed_uint(struct strbuf *b, unsigned field, const uint64_t *v,
                    size_t n)
{
	size_t len = 0;

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		len += varint_len(v[i]);
	put_key(b, field, WIRE_LEN);
	put_varint(b, len);
	for (size_t i = 0; i < n; i++)
		put_varint(b, v[i]);
}

void pb_packed_int(struct strbuf *b, unsigned field, const int64_t *v,
                   size_t n)
{
	size_t len = 0;

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		len += varint_len((uint64_t)v[i]);
	put_key(b, field, WIRE_LEN);
	put_varint(b, len);
	for (size_t i = 0; i < n; i++)
		put_varint(b, (uint64_t)v[i]);
}
