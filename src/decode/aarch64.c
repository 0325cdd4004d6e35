/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * aarch64.c - -c call decoder for AArch64: B and BL.
 */
#include "decode.h"

/* GNU's mask accepts both B and BL (a tail call is a call for the graph);
   the offset is a signed 26-bit count of 4-byte words from the branch. */
void decode_aarch64(const struct call_decode *d, uint64_t lo, uint64_t hi)
{
	/* Only the text (a range far outside it would be walked word by
	   word), from its first word in step with lo. */
	if (!call_text_words(d, &lo, &hi, true))
		return;
	/* pc >= lo: stop if pc += 4 wraps past the top of the address space */
	for (uint64_t pc = lo; pc < hi && pc >= lo; pc += 4) {
		if (!call_text_has(d, pc, 4))
			continue;
		uint32_t insn = call_text_u32(d, pc);

		if ((insn & 0x7c000000u) != 0x14000000u)
			continue;
		int64_t off = (int64_t)((insn & 0x3ffffffu) ^ 0x2000000u) -
		              0x2000000;
		d->direct(d->ctx, pc + (uint64_t)(off * 4));
	}
}
