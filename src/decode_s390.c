/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * decode_s390.c - -c call decoder for s390 and s390x (z/Architecture):
 * BRASL and BRAS with %r14, the return register of the ELF ABI.
 *
 * GNU gprof 2.40 has no s390 decoder ("-c not supported on architecture
 * s390:64-bit"); this one is gproftk's own.  Instructions are big-endian
 * and 2, 4 or 6 bytes long, as the two top bits of the first byte say
 * (00, 01/10, 11), so the code is walked instruction by instruction.
 * BRAS with another register loads a literal pool's address in old
 * 31-bit code and is not a call; register-indirect BASR has no target.
 */
#include "call_decode.h"

/* Bytes in the instruction whose first byte is op. */
static size_t s390_length(unsigned op)
{
	static const size_t len[] = { 2, 4, 4, 6 };

	return len[op >> 6];
}

/* BRASL %r14 is C0 E5 and a signed 32-bit halfword count, BRAS %r14 is
   A7 E5 and a signed 16-bit one, both relative to the instruction. */
void decode_s390(const struct call_decode *d, uint64_t lo, uint64_t hi)
{
	size_t len;

	if (!call_text_clip(d, &lo, &hi))
		return;
	for (uint64_t pc = (lo + 1) & ~(uint64_t)1; pc < hi && hi - pc >= 2;
	     pc += len) {
		unsigned op = (unsigned)call_text_uint(d, pc, 2, true);

		len = s390_length(op >> 8);
		if (hi - pc < len)
			break;
		if (op == 0xc0e5)
			d->direct(d->ctx, call_target(d, pc, 2 * call_sext(
			        call_text_uint(d, pc + 2, 4, true), 32)));
		else if (op == 0xa7e5)
			d->direct(d->ctx, call_target(d, pc, 2 * call_sext(
			        call_text_uint(d, pc + 2, 2, true), 16)));
	}
}
