/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * mips.c - -c call decoder for MIPS: JAL direct, JALR indirect.
 */
#include "decode.h"

/* JAL replaces the low 28 bits of the PC, so its target stays inside the
   current 256 MB region; JALR with the return address in $ra ($31) is
   the register-indirect call. */
void decode_mips(const struct call_decode *d, uint64_t lo, uint64_t hi)
{
	/* Only the text (a range far outside it would be walked word by
	   word), from its first word in step with lo. */
	if (!call_text_words(d, &lo, &hi, true))
		return;
	/* pc >= lo: stop if pc += 4 wraps past the top of the address space */
	for (uint64_t pc = lo; pc < hi && pc >= lo; pc += 4) {
		if (!call_text_has(d, pc, 4))
			continue;
		uint32_t op = call_text_u32(d, pc);

		if ((op & 0xfc000000u) == 0x0c000000u)
			d->direct(d->ctx, (pc & ~(uint64_t)0xfffffff) |
			                  (uint64_t)((op & 0x3ffffffu) << 2));
		else if ((op & 0xfc00f83fu) == 0x0000f809u)
			d->indirect(d->ctx);
	}
}
