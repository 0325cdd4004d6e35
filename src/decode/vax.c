/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * vax.c - -c call decoder for VAX: CALLS.
 *
 * VAX instructions have variable length, so the operand specifiers after
 * a CALLS opcode are sized to find the target operand and to skip the
 * whole instruction once it is known to be a call.
 */
#include "decode.h"

enum { VAX_CALLS = 0xfb };

/* An operand specifier's mode is its high nibble; register 15 (PC) turns
   the displacement modes into PC-relative ones. */
enum vax_mode { VAX_SHORT, VAX_INDEXED, VAX_REG, VAX_DEFERRED, VAX_REL,
                VAX_REL_DEFERRED, VAX_OTHER };

/* Modes 8 and 9: autoincrement, which on PC is immediate / absolute. */
static enum vax_mode vax_autoinc_mode(int mode, int pc, int *len)
{
	*len = pc ? 5 : 1;
	if (mode == 8)
		return pc ? VAX_SHORT : VAX_REG;
	return pc ? VAX_OTHER : VAX_REG;
}

/* Classifies the specifier and sets *len to its own length (an indexed
   one is followed by its base operand, not counted here). */
static enum vax_mode vax_mode(uint8_t spec, int *len)
{
	int mode = spec >> 4, pc = (spec & 0xf) == 15;
	/* Byte, word and long displacements (modes 10-15), plus the byte. */
	static const int disp_len[] = { 2, 2, 3, 3, 5, 5 };

	*len = 1;
	if (mode < 4)
		return VAX_SHORT;                /* short literal */
	if (mode == 4)
		return VAX_INDEXED;
	if (mode <= 7)
		return mode == 6 ? VAX_DEFERRED : VAX_REG;
	if (mode <= 9)
		return vax_autoinc_mode(mode, pc, len);
	*len = disp_len[mode - 10];
	if (!pc)
		return (mode & 1) ? VAX_DEFERRED : VAX_OTHER;
	return (mode & 1) ? VAX_REL_DEFERRED : VAX_REL;
}

/* Length of the operand at pc (an indexed one includes its base). */
static int vax_operand_len(const struct call_decode *d, uint64_t pc)
{
	int len;

	if (!call_text_has(d, pc, 1))
		return 1;
	if (vax_mode(d->text[pc - d->vma], &len) == VAX_INDEXED)
		return 1 + vax_operand_len(d, pc + 1);
	return len;
}

/* A little-endian signed displacement of n = 1, 2 or 4 bytes. */
static int64_t vax_disp(const struct call_decode *d, uint64_t pc, int n)
{
	const unsigned char *p = d->text + (pc - d->vma);

	if (n == 1)
		return (int8_t)p[0];
	if (n == 2)
		return (int16_t)(p[0] | p[1] << 8);
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
	                 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

/* Whether pc holds CALLS with a literal or immediate argument count
   whose target operand (at *op) starts inside the text. */
static bool vax_calls_operand(const struct call_decode *d, uint64_t pc,
                              uint64_t *op)
{
	int len;

	if (!call_text_has(d, pc, 2) || d->text[pc - d->vma] != VAX_CALLS)
		return false;
	if (vax_mode(d->text[pc + 1 - d->vma], &len) != VAX_SHORT)
		return false;
	*op = pc + 1 + (uint64_t)vax_operand_len(d, pc + 1);
	return call_text_has(d, *op, 1);
}

/* Where scanning resumes after pc: past the call when the target operand
   at op is deferred (an indirect call) or a PC-relative address that
   became an arc; otherwise at the next byte. */
static uint64_t vax_call(const struct call_decode *d, uint64_t pc,
                         uint64_t op)
{
	int len;
	enum vax_mode m = vax_mode(d->text[op - d->vma], &len);

	if (m == VAX_DEFERRED || m == VAX_REL_DEFERRED) {
		d->indirect(d->ctx);
		return op + (uint64_t)vax_operand_len(d, op);
	}
	if (m == VAX_REL && call_text_has(d, op, (size_t)len) &&
	    d->direct(d->ctx, op + (uint64_t)len +
	                      (uint64_t)vax_disp(d, op + 1, len - 1)))
		return op + (uint64_t)len;
	return pc + 1;
}

/* Every byte may start an instruction until a call is recognised. */
void decode_vax(const struct call_decode *d, uint64_t lo, uint64_t hi)
{
	/* Every byte of a range far outside the text would be visited. */
	if (!call_text_clip(d, &lo, &hi))
		return;
	for (uint64_t pc = lo; pc < hi;) {
		uint64_t op;
		uint64_t next = vax_calls_operand(d, pc, &op) ? vax_call(d, pc, op)
		                                              : pc + 1;

		/* A call ending at the top of the address space wraps. */
		if (next <= pc)
			break;
		pc = next;
	}
}
