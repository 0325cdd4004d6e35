/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sparc.c - -c call decoder for SPARC: CALL (format 1).
 */
#include "decode.h"

/* GNU tests the two top bits for any non-zero value (CALL is 01), which
   matches many more instructions; kept for identical output.  The
   displacement is a signed 30-bit word count from the instruction. */
void decode_sparc(const struct call_decode *d, uint64_t lo, uint64_t hi)
{
	/* Only the text (a range far outside it would be walked word by
	   word), from its first word boundary. */
	if (!call_text_words(d, &lo, &hi, false))
		return;
	/* pc >= lo: stop if pc += 4 wraps past the top of the address space */
	for (uint64_t pc = lo; pc < hi && pc >= lo; pc += 4) {
		if (!call_text_has(d, pc, 4))
			continue;
		uint32_t insn = call_text_u32(d, pc);

		if (!(insn & 0xc0000000u))
			continue;
		int64_t disp = (int64_t)((insn & 0x3fffffffu) ^ 0x20000000u) -
		               0x20000000;
		d->direct(d->ctx, pc + (uint64_t)(disp * 4));
	}
}
