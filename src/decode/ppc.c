/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ppc.c - -c call decoder for PowerPC (32- and 64-bit, either byte
 * order): `bl` and `bla`, the I-form branches with LK = 1.
 *
 * GNU gprof 2.40 has no PowerPC decoder ("-c not supported on
 * architecture powerpc:common64"); this one is gproftk's own.  A `bl` to
 * the very next instruction only reads the program counter into the link
 * register and is not a call.  Under the 64-bit ELFv2 ABI a function
 * called from code sharing its TOC is entered at its local entry point,
 * past the two instructions of the global entry point that set r2 from
 * r12; a target that starts no symbol but follows such a pair is taken
 * as a call to the function the pair begins (cg_scan.c still checks that
 * a symbol starts there).
 */
#include "decode.h"

/* The global entry point sequences of the ELFv2 ABI, as (mask, value)
   pairs for the two words before the local entry point:
   addis r2,r12,hi / addi r2,r2,lo (position-independent), lis r2,hi /
   addi r2,r2,lo (absolute, in executables that are not PIE) and
   ld r2,-8(r12) / add r2,r2,r12 (large code model). */
static const uint32_t ppc_toc_setup[][4] = {
	{ 0xffff0000u, 0x3c4c0000u, 0xffff0000u, 0x38420000u },
	{ 0xffff0000u, 0x3c400000u, 0xffff0000u, 0x38420000u },
	{ 0xffffffffu, 0xe84cfff8u, 0xffffffffu, 0x7c426214u },
};

/* Whether the 8 bytes before target set up r2 as a global entry does.
   Outside the text (a call to _init or _fini) they cannot be read, and a
   64-bit function starting there is taken to be entered past them. */
static bool ppc_after_global_entry(const struct call_decode *d,
                                   uint64_t target)
{
	if (target < 8)
		return false;
	if (!call_text_has(d, target - 8, 8))
		return d->addr_size == 8;
	uint32_t w0 = call_text_u32(d, target - 8);
	uint32_t w1 = call_text_u32(d, target - 4);

	for (size_t i = 0; i < sizeof ppc_toc_setup / sizeof ppc_toc_setup[0];
	     i++) {
		const uint32_t *m = ppc_toc_setup[i];

		if ((w0 & m[0]) == m[1] && (w1 & m[2]) == m[3])
			return true;
	}
	return false;
}

/* Opcode 18 (bits 0-5), LI (bits 6-29) a signed word offset, AA (bit 30)
   absolute, LK (bit 31) link. */
void decode_ppc(const struct call_decode *d, uint64_t lo, uint64_t hi)
{
	if (!call_text_words(d, &lo, &hi, false))
		return;
	for (uint64_t pc = lo; hi - pc >= 4; pc += 4) {
		uint32_t insn = call_text_u32(d, pc);

		if ((insn & 0xfc000001u) != 0x48000001u)
			continue;
		int64_t off = call_sext(insn & 0x03fffffcu, 26);
		uint64_t target = call_target(d, (insn & 2) ? 0 : pc, off);

		if (target == pc + 4 || d->direct(d->ctx, target))
			continue;
		if (ppc_after_global_entry(d, target))
			d->direct(d->ctx, target - 8);
	}
}
