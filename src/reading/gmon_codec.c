/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmon_codec.c - the byte codec of profile files: a reader that holds a
 * file in memory or slides a window over it, field decoders and encoders
 * in the executable's byte order.  A leaf: C library only; see
 * gmon_codec.h for the contracts.
 */
#include <stdlib.h>
#include <string.h>

#include "gmon_codec.h"


/* Any width, byte by byte. */
static uint64_t get_le_n(const unsigned char *b, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = (v << 8) | b[i];
	return v;
}

static uint64_t get_be_n(const unsigned char *b, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = (v << 8) | b[i];
	return v;
}

/* The usual widths spelled out: compilers turn these shifts into one
   load (and a byte swap when the orders differ), which they do not do
   for the loops above.  Arcs come by the million. */
static inline uint64_t get_le(const unsigned char *b, int n)
{
	switch (n) {
	case 2:
		return (uint64_t)b[0] | (uint64_t)b[1] << 8;
	case 4:
		return (uint64_t)b[0] | (uint64_t)b[1] << 8 |
		       (uint64_t)b[2] << 16 | (uint64_t)b[3] << 24;
	case 8:
		return (uint64_t)b[0] | (uint64_t)b[1] << 8 |
		       (uint64_t)b[2] << 16 | (uint64_t)b[3] << 24 |
		       (uint64_t)b[4] << 32 | (uint64_t)b[5] << 40 |
		       (uint64_t)b[6] << 48 | (uint64_t)b[7] << 56;
	default:
		return get_le_n(b, n);
	}
}

static inline uint64_t get_be(const unsigned char *b, int n)
{
	switch (n) {
	case 2:
		return (uint64_t)b[0] << 8 | (uint64_t)b[1];
	case 4:
		return (uint64_t)b[0] << 24 | (uint64_t)b[1] << 16 |
		       (uint64_t)b[2] << 8 | (uint64_t)b[3];
	case 8:
		return (uint64_t)b[0] << 56 | (uint64_t)b[1] << 48 |
		       (uint64_t)b[2] << 40 | (uint64_t)b[3] << 32 |
		       (uint64_t)b[4] << 24 | (uint64_t)b[5] << 16 |
		       (uint64_t)b[6] << 8 | (uint64_t)b[7];
	default:
		return get_be_n(b, n);
	}
}

static inline uint64_t get(const struct gmon_codec *c, const unsigned char *b,
                           int n)
{
	return c->big_endian ? get_be(b, n) : get_le(b, n);
}

uint64_t gmon_decode(const struct gmon_codec *c, const unsigned char *b,
                     int n)
{
	return get(c, b, n);
}

uint64_t gmon_decode_vma(const struct gmon_codec *c, const unsigned char *b)
{
	uint64_t v;
	int n = c->addr_size;

	/* The usual widths spelled out, for the fast decoders. */
	if (n == 8)
		return get(c, b, 8);
	if (n != 4)
		return get(c, b, n);
	v = get(c, b, 4);
	if (c->sign_extend && (v & 0x80000000u))
		v |= 0xffffffff00000000ull;
	return v;
}

/* ---- reading ---- */

/* Reads all of `f`; `hint` (the size, if known, plus one) sizes the
   buffer so the last read meets end-of-file without growing it.
   NULL if memory runs out. */
static unsigned char *slurp(FILE *f, size_t hint, size_t *len)
{
	size_t cap = hint ? hint : 1 << 16, n = 0, got;
	unsigned char *buf = malloc(cap);
	if (!buf)
		return NULL;
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			unsigned char *more = realloc(buf, cap *= 2);
			if (!more) {
				free(buf);
				return NULL;
			}
			buf = more;
		}
	}
	*len = n;
	return buf;
}

bool gmon_reader_open(struct gmon_reader *r, FILE *f,
                      struct gmon_codec codec, int64_t size)
{
	size_t len;
	*r = (struct gmon_reader){ .codec = codec };
	if (size > (int64_t)GMON_WINDOW) {
		r->buf = malloc(GMON_WINDOW);
		if (!r->buf)
			return false;
		r->cap = GMON_WINDOW;
		len = fread(r->buf, 1, GMON_WINDOW, f);
		/* A file that shrank since its size was taken is simply what
		   was read. */
		if (len == GMON_WINDOW) {
			r->f = f;
			r->size = (uint64_t)size;
		}
	} else {
		r->buf = slurp(f, size >= 0 ? (size_t)size + 1 : 0, &len);
		if (!r->buf)
			return false;
		r->cap = len;
	}
	r->start = r->p = r->buf;
	r->end = r->buf + len;
	return true;
}

void gmon_reader_close(struct gmon_reader *r)
{
	free(r->buf);
	*r = (struct gmon_reader){ .codec = r->codec };
}

/* Moves what is left of the window to its start and reads more behind
   it: true if at least n bytes are then at hand.  A read that brings
   nothing ends the streaming, so a file that shrinks cannot loop. */
static bool refill(struct gmon_reader *r, size_t n)
{
	if (!r->f)
		return false;
	size_t left = (size_t)(r->end - r->p);
	memmove(r->buf, r->p, left);
	r->off += (uint64_t)(r->p - r->start);
	r->start = r->p = r->buf;
	r->end = r->buf + left;
	size_t got = fread(r->buf + left, 1, r->cap - left, r->f);
	r->end += got;
	if (got == 0)
		r->f = NULL;
	return (size_t)(r->end - r->p) >= n;
}

/* The next n bytes, consumed, or NULL (nothing consumed) at end of file. */
static inline const unsigned char *take(struct gmon_reader *r, size_t n)
{
	if ((size_t)(r->end - r->p) < n && !refill(r, n))
		return NULL;
	const unsigned char *q = r->p;
	r->p += n;
	return q;
}

uint64_t rd_left(const struct gmon_reader *r)
{
	uint64_t at = r->off + (uint64_t)(r->p - r->start);
	if (r->f)
		return r->size > at ? r->size - at : 0;
	return (uint64_t)(r->end - r->p);
}

const unsigned char *rd_peek(struct gmon_reader *r, size_t n)
{
	if ((size_t)(r->end - r->p) < n && !refill(r, n))
		return NULL;
	return r->p;
}

bool rd_bytes(struct gmon_reader *r, void *out, size_t n)
{
	const unsigned char *q = take(r, n);
	if (!q)
		return false;
	memcpy(out, q, n);
	return true;
}

bool rd_skip(struct gmon_reader *r, size_t n)
{
	return take(r, n) != NULL;
}

bool rd_u32(struct gmon_reader *r, uint32_t *v)
{
	const unsigned char *q = take(r, 4);
	if (!q)
		return false;
	*v = (uint32_t)get(&r->codec, q, 4);
	return true;
}

bool rd_vma(struct gmon_reader *r, uint64_t *v)
{
	const unsigned char *q = take(r, (size_t)r->codec.addr_size);
	if (!q)
		return false;
	*v = gmon_decode_vma(&r->codec, q);
	return true;
}

/* Decoded straight from the window, as many at a time as it holds:
   histograms are the bulk of most files. */
size_t rd_u16s(struct gmon_reader *r, uint16_t *out, size_t n)
{
	size_t done = 0;
	int hi = r->codec.big_endian ? 0 : 1;
	while (done < n) {
		if (r->end - r->p < 2 && !refill(r, 2))
			break;
		size_t m = (size_t)(r->end - r->p) / 2;
		if (m > n - done)
			m = n - done;
		const unsigned char *q = r->p;
		for (size_t k = 0; k < m; k++, q += 2)
			out[done + k] = (uint16_t)(q[hi] << 8 | q[1 - hi]);
		r->p = q;
		done += m;
	}
	return done;
}

/* ---- writing ---- */

void gmon_writer_init(struct gmon_writer *w, FILE *f, struct gmon_codec codec)
{
	*w = (struct gmon_writer){ .codec = codec, .f = f };
}

void wr_bytes(struct gmon_writer *w, const void *p, size_t n)
{
	if (fwrite(p, 1, n, w->f) != n)
		w->failed = true;
}

void wr_uint(struct gmon_writer *w, uint64_t v, int n)
{
	unsigned char b[8];
	for (int i = 0; i < n; i++)
		b[w->codec.big_endian ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
	wr_bytes(w, b, (size_t)n);
}

void wr_vma(struct gmon_writer *w, uint64_t v)
{
	wr_uint(w, v, w->codec.addr_size);
}
