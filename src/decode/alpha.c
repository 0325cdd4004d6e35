/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * alpha.c - -c call decoder for Alpha: BSR direct, JSR and
 * JSR_COROUTINE indirect.
 */
#include "decode.h"

enum {
	ALPHA_OP_JUMP = 0x1a,        /* memory-format jumps; kind in bits 14-15 */
	ALPHA_OP_BSR = 0x34,
	ALPHA_JUMP_JSR = 1,
	ALPHA_JUMP_JSR_COROUTINE = 3
};

/* Instructions are aligned words, so a range starting mid-word begins at
   the next one.  BSR's displacement is a signed 21-bit word count from
   the following instruction. */
void decode_alpha(const struct call_decode *d, uint64_t lo, uint64_t hi)
{
	/* Only the text (a range far outside it would be walked word by
	   word), from its first word boundary. */
	if (!call_text_words(d, &lo, &hi, false))
		return;
	/* pc >= lo: stop if pc += 4 wraps past the top of the address space */
	for (uint64_t pc = lo; pc < hi && pc >= lo; pc += 4) {
		if (!call_text_has(d, pc, 4))
			continue;
		uint32_t insn = call_text_u32(d, pc), op = insn >> 26;
		uint32_t kind = (insn >> 14) & 3;

		if (op == ALPHA_OP_JUMP && (kind == ALPHA_JUMP_JSR ||
		                            kind == ALPHA_JUMP_JSR_COROUTINE)) {
			d->indirect(d->ctx);
		} else if (op == ALPHA_OP_BSR) {
			int64_t disp = (int64_t)((insn & 0x1fffffu) ^ 0x100000u) -
			               0x100000;
			d->direct(d->ctx, pc + 4 + (uint64_t)(disp * 4));
		}
	}
}
