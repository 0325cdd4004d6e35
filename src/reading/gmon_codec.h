/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmon_codec.h - the byte codec of profile files: reading fields from a
 * file (held whole in memory, or through a window that slides over a big
 * file) and writing them, in the executable's byte order and address
 * width.  Nothing here knows about records, the profile model or the
 * host: every multi-byte field is assembled byte by byte as `struct
 * gmon_codec` says, so the same file decodes the same on any machine.
 *
 * This is a leaf module: it uses only the C library, never another part
 * of src/.  It reports failures by return values and prints nothing, so
 * that its callers choose the message (GNU's wording differs from one
 * record to the next).  Memory comes from plain malloc()/realloc(): when
 * that fails, gmon_reader_open() returns false with errno as malloc left
 * it (ENOMEM), and the caller reports it as the rest of the tool does.
 *
 * Reading:
 *
 *   struct gmon_reader r;
 *   if (!gmon_reader_open(&r, f, codec, size))
 *       ... out of memory ...
 *   uint32_t n;
 *   if (!rd_u32(&r, &n))
 *       ... the file ends early ...
 *   gmon_reader_close(&r);      (the caller still closes f)
 *
 * Writing:
 *
 *   struct gmon_writer w;
 *   gmon_writer_init(&w, f, codec);
 *   wr_uint(&w, 1, 4);
 *   ...
 *   if (w.failed) ... errno says why ...
 */
#ifndef GMON_CODEC_H
#define GMON_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* How fields are laid out: taken from the executable (its BFD target),
   never from the host this runs on. */
struct gmon_codec {
	int addr_size;               /* bytes in an address: 1 to 8 (4 or 8
	                                on every usual target) */
	bool big_endian;             /* most significant byte first */
	bool sign_extend;            /* 4-byte addresses widen with their
	                                top bit (as the target's BFD
	                                backend does), else with zeros */
};

/*
 * Decodes the n (1 to 8) bytes at b as an unsigned number in c's byte
 * order.  Pure; reads exactly n bytes.
 */
uint64_t gmon_decode(const struct gmon_codec *c, const unsigned char *b,
                     int n);

/* The address at b (c->addr_size bytes), widened as rd_vma() widens it. */
uint64_t gmon_decode_vma(const struct gmon_codec *c, const unsigned char *b);

/* ---- reading ---- */

/*
 * A file being read.  The fields are private to gmon_codec.c; callers
 * only set it up with gmon_reader_open() and read `codec`.
 */
struct gmon_reader {
	struct gmon_codec codec;
	const unsigned char *start, *p, *end;   /* bytes at hand; p: next */
	FILE *f;                     /* refills the window; NULL when the
	                                whole rest is in memory */
	unsigned char *buf;          /* owned: the bytes (or the window) */
	size_t cap;
	uint64_t off;                /* file offset of `start` */
	uint64_t size;               /* file size, while f is set */
};

/*
 * Starts reading f at its current position.  `size` is the number of
 * bytes left in f if the caller knows it (a regular file, from fstat()),
 * or -1 (a pipe).  A file of unknown size or of at most GMON_WINDOW bytes
 * is read whole now; a bigger one is read through a window of GMON_WINDOW
 * bytes, refilled as fields are consumed, so memory does not grow with
 * the file.  (Knowing the size is the caller's business so that this
 * module needs nothing beyond ISO C.)
 *
 * Returns false (with errno from malloc) if memory runs out; r then owns
 * nothing.  On success r owns a buffer that gmon_reader_close() frees.
 * f stays the caller's: it must stay open until gmon_reader_close(), and
 * the caller closes it afterwards.  Read errors count as end of file.
 */
#define GMON_WINDOW (1u << 18)
bool gmon_reader_open(struct gmon_reader *r, FILE *f,
                      struct gmon_codec codec, int64_t size);

/* Frees what r owns (not the FILE).  r must be opened again to be used. */
void gmon_reader_close(struct gmon_reader *r);

/*
 * Bytes not yet read: exact for a file held in memory; for a windowed
 * file, counted from the size given to gmon_reader_open() (a file that
 * shrinks meanwhile ends early all the same).  Right after
 * gmon_reader_open() this is the length of the file.
 */
uint64_t rd_left(const struct gmon_reader *r);

/*
 * Returns the next n bytes without consuming them, or NULL if fewer than
 * n remain.  The pointer stays valid until the next call on r.  n must be
 * at most GMON_PEEK_MAX.
 */
#define GMON_PEEK_MAX 64
const unsigned char *rd_peek(struct gmon_reader *r, size_t n);

/*
 * The field readers.  Each consumes its field and returns true, or
 * returns false, consuming nothing and leaving *v unset, if the file ends
 * before the whole field.
 *
 *   rd_bytes  n raw bytes into out (no byte-order conversion)
 *   rd_skip   n bytes, discarded
 *   rd_u32    4-byte unsigned number
 *   rd_vma    an address (codec.addr_size bytes; 4-byte ones widened as
 *             codec.sign_extend says); BSD files also use it for counts
 */
bool rd_bytes(struct gmon_reader *r, void *out, size_t n);
bool rd_skip(struct gmon_reader *r, size_t n);
bool rd_u32(struct gmon_reader *r, uint32_t *v);
bool rd_vma(struct gmon_reader *r, uint64_t *v);

/*
 * Reads up to n 2-byte numbers into out[0..n-1], as many as the file
 * holds, and returns how many it read: fewer than n only at end of file
 * (then a trailing odd byte is left unread).  For histogram bins, which
 * come by the million.
 */
size_t rd_u16s(struct gmon_reader *r, uint16_t *out, size_t n);

/* ---- writing ---- */

/*
 * A file being written.  `failed` becomes true at the first short write
 * and stays so (errno then says why); the caller checks it once at the
 * end.  The FILE stays the caller's.
 */
struct gmon_writer {
	struct gmon_codec codec;
	FILE *f;
	bool failed;
};

/* Starts writing fields to f (at its current position). */
void gmon_writer_init(struct gmon_writer *w, FILE *f, struct gmon_codec codec);

/*
 * The field writers; each records a failure in w->failed.
 *
 *   wr_uint   the low n (1 to 8) bytes of v, in codec byte order
 *   wr_vma    v as an address: codec.addr_size bytes
 *   wr_bytes  n raw bytes from p
 */
void wr_uint(struct gmon_writer *w, uint64_t v, int n);
void wr_vma(struct gmon_writer *w, uint64_t v);
void wr_bytes(struct gmon_writer *w, const void *p, size_t n);

#endif
