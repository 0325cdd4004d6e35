/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arm.c - -c call decoder for 32-bit ARM: BL and BLX (immediate)
 * in A32 code, the 32-bit BL and BLX encodings in Thumb code.
 *
 * GNU gprof 2.40 has no ARM decoder (it prints "-c not supported on
 * architecture armv7"); this one is gproftk's own.  Which instruction set
 * a byte belongs to comes from the ELF mapping symbols of the ARM ABI:
 * "$a" starts A32 code, "$t" Thumb code and "$d" data (a literal pool),
 * which is never decoded.  BFD clears bit 0 of Thumb function symbols, so
 * the symbols themselves cannot tell; text before the first mapping
 * symbol, or an executable without any, is taken to be in the entry
 * point's instruction set (bit 0 of the start address).  Instructions
 * are read in the file's byte order (BE8 images, whose code is
 * little-endian in a big-endian file, are not handled).
 */
#include <stdlib.h>

#include "decode.h"

/* bsearch() key: the address and the end of the marks, so that the
   comparison can look at the mark after the one it is given. */
struct arm_key {
	uint64_t pc;
	const struct code_mark *end;
};

/* 0 for the mark in force at key->pc: the last one at or before it. */
static int arm_mark_cmp(const void *key, const void *elem)
{
	const struct arm_key *k = key;
	const struct code_mark *m = elem;

	if (k->pc < m->addr)
		return -1;
	return m + 1 < k->end && m[1].addr <= k->pc;
}

/* The kind of code at pc ('a', 't' or 'd'); *next is where the next mark
   starts (UINT64_MAX after the last one). */
static char arm_kind_at(const struct call_decode *d, uint64_t pc,
                        uint64_t *next)
{
	struct arm_key key = { pc, d->marks + d->nmarks };
	const struct code_mark *m = d->nmarks ? bsearch(&key, d->marks,
	        d->nmarks, sizeof *m, arm_mark_cmp) : NULL;
	const struct code_mark *after = m ? m + 1 : d->marks;

	*next = after < key.end ? after->addr : UINT64_MAX;
	if (!m)
		return (d->entry & 1) ? 't' : 'a';
	return m->kind;
}

/* A32: BL is cond 0000-1110 with bits 27-24 1011; BLX (immediate) is cond
   1111 with bits 27-25 101, bit 24 (H) adding a halfword to the target,
   which is Thumb code.  Both add a signed 24-bit word offset to pc + 8. */
static void arm_scan_a32(const struct call_decode *d, uint64_t pc,
                         uint64_t end)
{
	if (!call_text_words(d, &pc, &end, false))
		return;
	for (; end - pc >= 4; pc += 4) {
		uint32_t w = call_text_u32(d, pc);
		int64_t off = call_sext(w, 24) * 4;

		if ((w >> 28) != 0xf && (w & 0x0f000000u) == 0x0b000000u)
			d->direct(d->ctx, call_target(d, pc + 8, off));
		else if ((w & 0xfe000000u) == 0xfa000000u)
			d->direct(d->ctx, call_target(d, pc + 8,
			                              off + ((w >> 23) & 2)));
	}
}

/* Thumb BL and BLX: first halfword 11110 S imm10, second 11 J1 x J2
   imm11, x = 1 for BL (Thumb target), 0 for BLX (A32 target, imm11's
   bit 0 must be 0, the target is word-aligned).  The offset is
   S:I1:I2:imm10:imm11:0 with I1 = !(J1 ^ S), I2 = !(J2 ^ S), from pc + 4. */
static void arm_thumb_call(const struct call_decode *d, uint64_t pc,
                           uint32_t hw1, uint32_t hw2)
{
	uint32_t s = (hw1 >> 10) & 1;
	uint32_t i1 = !(((hw2 >> 13) & 1) ^ s), i2 = !(((hw2 >> 11) & 1) ^ s);
	uint64_t bits = (uint64_t)s << 24 | i1 << 23 | i2 << 22 |
	                (hw1 & 0x3ffu) << 12 | (hw2 & 0x7ffu) << 1;
	int64_t off = call_sext(bits, 25);

	if (hw2 & 0x1000)
		d->direct(d->ctx, call_target(d, pc + 4, off));
	else if (!(hw2 & 1))
		d->direct(d->ctx, call_target(d, (pc + 4) & ~(uint64_t)3, off));
}

/* Thumb code is a sequence of halfwords; one whose top five bits are
   11101, 11110 or 11111 starts a 32-bit instruction. */
static size_t arm_thumb_step(const struct call_decode *d, uint64_t pc,
                             uint64_t left, void *state)
{
	(void)state;
	uint32_t hw1 = (uint32_t)call_text_uint(d, pc, 2, d->big_endian);

	if ((hw1 >> 11) < 0x1d)
		return 2;
	if (left >= 4) {
		uint32_t hw2 = (uint32_t)call_text_uint(d, pc + 2, 2,
		                                        d->big_endian);

		if ((hw1 & 0xf800u) == 0xf000u && (hw2 & 0xc000u) == 0xc000u)
			arm_thumb_call(d, pc, hw1, hw2);
	}
	return 4;
}

/* The range is cut at each mapping symbol and every piece decoded in its
   own instruction set; data is skipped. */
void decode_arm(const struct call_decode *d, uint64_t lo, uint64_t hi)
{
	if (!call_text_clip(d, &lo, &hi))
		return;
	for (uint64_t pc = lo, next; pc < hi; pc = next) {
		char kind = arm_kind_at(d, pc, &next);
		uint64_t end = next < hi ? next : hi;

		if (kind == 'a')
			arm_scan_a32(d, pc, end);
		else if (kind == 't')
			call_walk16(d, pc, end, arm_thumb_step, NULL);
	}
}
