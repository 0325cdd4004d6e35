/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * s390.c - -c call decoder for s390 and s390x (z/Architecture):
 * BRASL and BRAS with %r14, the return register of the ELF ABI.
 *
 * GNU gprof 2.40 has no s390 decoder ("-c not supported on architecture
 * s390:64-bit"); this one is gproftk's own.  Instructions are big-endian
 * and 2, 4 or 6 bytes long, as the two top bits of the first byte say
 * (00, 01/10, 11), so the code is walked instruction by instruction.
 * BRAS with another register loads a literal pool's address in old
 * 31-bit code and is not a call; register-indirect BASR has no target.
 */
#include "decode.h"

/* Bytes in the instruction whose first byte is op. */
static size_t s390_length(unsigned op)
{
	static const size_t len[] = { 2, 4, 4, 6 };

	return len[op >> 6];
}

/* BRASL %r14 is C0 E5 and a signed 32-bit halfword count, BRAS %r14 is
   A7 E5 and a signed 16-bit one, both relative to the instruction. */
static size_t s390_step(const struct call_decode *d, uint64_t pc,
                        uint64_t left, void *state)
{
	(void)state;
	unsigned op = (unsigned)call_text_uint(d, pc, 2, true);
	size_t len = s390_length(op >> 8);

	if (left < len)
		return len;
	if (op == 0xc0e5)
		d->direct(d->ctx, call_target(d, pc, 2 * call_sext(
		        call_text_uint(d, pc + 2, 4, true), 32)));
	else if (op == 0xa7e5)
		d->direct(d->ctx, call_target(d, pc, 2 * call_sext(
		        call_text_uint(d, pc + 2, 2, true), 16)));
	return len;
}

void decode_s390(const struct call_decode *d, uint64_t lo, uint64_t hi)
{
	call_walk16(d, lo, hi, s390_step, NULL);
}
