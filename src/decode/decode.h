/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * decode.h - the way into the decode folder: the interface between the -c
 * scanner (analysis/cg_scan.c, its only user) and the per-instruction-set
 * call decoders (one file each).
 *
 * call_site.c reads one call backwards from a return address, for the
 * diagnosis's wrong-executable check (also through cg_scan.c).
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

/* A mapping symbol of the text ("$a", "$t", "$d", "$x", possibly with a
   ".suffix"): from addr up to the next mark the bytes are what the letter
   `kind` says (ARM: 'a' A32 code, 't' Thumb code, 'd' data). */
struct code_mark {
	uint64_t addr;
	char kind;
};

struct call_decode {
	const unsigned char *text;   /* the whole text section */
	uint64_t vma;                /* address of text[0] */
	size_t size;                 /* bytes in text */
	bool big_endian;             /* byte order of instruction words */
	int addr_size;               /* 4 or 8: addresses wrap at this width */
	uint64_t entry;              /* the executable's start address, as
	                                stored (ARM: bit 0 set for Thumb) */
	const struct code_mark *marks;  /* mapping symbols inside the text, */
	size_t nmarks;                  /* in address order */

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
call_decoder decode_arm;
call_decoder decode_riscv;
call_decoder decode_ppc;
call_decoder decode_s390;

/* ---- call_site.c: the call that ends at a return address ---- */

enum call_site_kind {
	CALL_DIRECT,                 /* to: the address called */
	CALL_MEMORY,                 /* to: the slot the target is read from
	                                (pc-relative, absolute, or off the
	                                GOT register: the same for one slot) */
	CALL_REGISTER                /* to: the register's number */
};

struct call_site {
	enum call_site_kind kind;
	uint64_t to;
};

/* Whether a call instruction of one of the forms compilers emit ends at
   pc (so pc is its return address), and what it calls. */
typedef bool call_site_fn(const struct call_decode *d, uint64_t pc,
                          struct call_site *s);

call_site_fn call_site_x86;
call_site_fn call_site_aarch64;
call_site_fn call_site_arm;
call_site_fn call_site_riscv;
call_site_fn call_site_ppc;
call_site_fn call_site_s390;

/* Whether n bytes at pc lie inside the text. */
static inline bool call_text_has(const struct call_decode *d, uint64_t pc,
                                 size_t n)
{
	return pc >= d->vma && pc - d->vma <= d->size &&
	       d->size - (pc - d->vma) >= n;
}

/* Narrows [*lo, *hi) to the part inside the text; false if none is. */
static inline bool call_text_clip(const struct call_decode *d, uint64_t *lo,
                                  uint64_t *hi)
{
	/* A text that ends at the top of the address space ends at 2^64,
	   which does not fit: no range runs past UINT64_MAX anyway. */
	uint64_t end = d->size > UINT64_MAX - d->vma ? UINT64_MAX
	                                             : d->vma + d->size;

	if (*lo < d->vma)
		*lo = d->vma;
	if (*hi > end)
		*hi = end;
	return *lo < *hi;
}

/*
 * Clips [*lo, *hi) to the text and moves *lo on to the first word a
 * fixed-width decoder reads: the next multiple of 4 or, with in_step, the
 * next address a multiple of 4 away from the original *lo (GNU's aarch64
 * and mips decoders step from the symbol's address as given).  False when
 * no such address lies before *hi, including when moving on would wrap
 * past the top of the address space.
 */
static inline bool call_text_words(const struct call_decode *d, uint64_t *lo,
                                   uint64_t *hi, bool in_step)
{
	uint64_t from = *lo;

	if (!call_text_clip(d, lo, hi))
		return false;
	uint64_t skip = in_step ? (from - *lo) & 3 : (0 - *lo) & 3;

	if (skip >= *hi - *lo)
		return false;
	*lo += skip;
	return true;
}

/* Decodes the instruction at pc, with `left` bytes (at least 2) of the
   range from pc on; returns its length in bytes. */
typedef size_t call_step(const struct call_decode *d, uint64_t pc,
                         uint64_t left, void *state);

/* Walks code made of 16-bit parcels and instructions of varying length
   (Thumb, RISC-V, s390) from the first halfword boundary at or after lo
   up to hi, inside the text, one step() per instruction. */
static inline void call_walk16(const struct call_decode *d, uint64_t lo,
                               uint64_t hi, call_step *step, void *state)
{
	if (!call_text_clip(d, &lo, &hi))
		return;
	for (uint64_t pc = (lo + 1) & ~(uint64_t)1; pc < hi && hi - pc >= 2;) {
		size_t n = step(d, pc, hi - pc, state);

		/* The last one: stepping past it may wrap past the top of
		   the address space. */
		if (n >= hi - pc)
			break;
		pc += n;
	}
}

/* The n bytes (1 to 8) at pc as one number, most significant byte first
   when big_endian; call_text_has(d, pc, n) must hold. */
static inline uint64_t call_text_uint(const struct call_decode *d,
                                      uint64_t pc, size_t n, bool big_endian)
{
	const unsigned char *p = d->text + (pc - d->vma);
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v = v << 8 | p[big_endian ? i : n - 1 - i];
	return v;
}

/* The 32-bit word at pc in the text's byte order; call_text_has(d, pc, 4)
   must hold. */
static inline uint32_t call_text_u32(const struct call_decode *d,
                                     uint64_t pc)
{
	return (uint32_t)call_text_uint(d, pc, 4, d->big_endian);
}

/* The low `bits` bits of v as a two's complement number. */
static inline int64_t call_sext(uint64_t v, unsigned bits)
{
	uint64_t sign = (uint64_t)1 << (bits - 1);

	v &= (sign << 1) - 1;
	return (int64_t)(v ^ sign) - (int64_t)sign;
}

/* pc + off, wrapped at the executable's address width. */
static inline uint64_t call_target(const struct call_decode *d, uint64_t pc,
                                   int64_t off)
{
	uint64_t t = pc + (uint64_t)off;

	return d->addr_size == 4 ? t & 0xffffffffu : t;
}

#endif
