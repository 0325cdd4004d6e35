/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * call_decode.h - the interface between the -c scanner (cg_scan.c) and
 * the per-instruction-set call decoders (decode_*.c).
 *
 * A decoder sees plain bytes and addresses, never BFD or the profile
 * model: cg_scan.c loads the text, picks the decoder for the executable's
 * architecture and turns what the decoder reports into arcs.  Adding an
 * instruction set takes one decode_<isa>.c, its declaration below and one
 * row in cg_scan.c's decoder table.
 */
#ifndef CALL_DECODE_H
#define CALL_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct call_decode {
	const unsigned char *text;   /* the whole text section */
	uint64_t vma;                /* address of text[0] */
	size_t size;                 /* bytes in text */
	bool big_endian;             /* byte order of instruction words */
	int addr_size;               /* 4 or 8: addresses wrap at this width */

	/* A direct call to `target`.  Returns whether the target became an
	   arc (it starts a symbol in a histogram); decoders of variable-length
	   code resume after the call only then, as GNU's do. */
	bool (*direct)(void *ctx, uint64_t target);
	/* A call whose target is in a register or in memory. */
	void (*indirect)(void *ctx);
	void *ctx;                   /* passed back to both callbacks */
};

/* Report the calls found in [lo, hi), in address order.  The range may
   run past the text; only whole instructions inside it are decoded. */
typedef void call_decoder(const struct call_decode *d, uint64_t lo,
                          uint64_t hi);

call_decoder decode_x86;
call_decoder decode_aarch64;
call_decoder decode_mips;
call_decoder decode_alpha;
call_decoder decode_sparc;
call_decoder decode_vax;

/* Whether n bytes at pc lie inside the text. */
static inline bool call_text_has(const struct call_decode *d, uint64_t pc,
                                 size_t n)
{
	return pc >= d->vma && pc - d->vma <= d->size &&
	       d->size - (pc - d->vma) >= n;
}

/* The 32-bit word at pc in the text's byte order; call_text_has(d, pc, 4)
   must hold. */
static inline uint32_t call_text_u32(const struct call_decode *d,
                                     uint64_t pc)
{
	const unsigned char *p = d->text + (pc - d->vma);

	if (d->big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

#endif
