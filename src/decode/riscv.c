/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * riscv.c - -c call decoder for RISC-V (RV32 and RV64): JAL, the
 * AUIPC + JALR pair that the `call` pseudo-instruction expands to, and
 * RV32's compressed C.JAL.
 *
 * GNU gprof 2.40 has no RISC-V decoder ("-c not supported on architecture
 * riscv:rv64"); this one is gproftk's own.  A call is a jump that links:
 * one whose destination register is x1 (ra) or x5 (t0), the two link
 * registers of the ISA manual (t0 serves millicode calls such as
 * `call t0, __riscv_save_0`).  Plain jumps (tail calls) and JALR through
 * a register loaded otherwise have no target to report.  Instructions are
 * little-endian parcels of 16 bits whatever the data byte order; their
 * length is read from the first parcel, so compressed code is walked
 * instruction by instruction.
 */
#include "decode.h"

enum {
	RV_AUIPC = 0x17,
	RV_JAL = 0x6f,
	RV_JALR = 0x67,
};

/* Length in bytes of the instruction whose first parcel is p: 2 unless
   the low two bits are 11, 4 unless bits 4-2 are also 111, then 6 or 8;
   longer (reserved) encodings are stepped over one parcel at a time. */
static size_t rv_length(uint32_t p)
{
	if ((p & 3) != 3)
		return 2;
	if ((p & 0x1c) != 0x1c)
		return 4;
	if ((p & 0x3f) == 0x1f)
		return 6;
	return (p & 0x7f) == 0x3f ? 8 : 2;
}

static bool rv_is_link(uint32_t reg)
{
	return reg == 1 || reg == 5;
}

/* JAL's J-type offset: imm[20|10:1|11|19:12] in bits 31-12. */
static int64_t rv_jal_offset(uint32_t insn)
{
	uint64_t imm = (uint64_t)(insn >> 31) << 20 |
	               ((insn >> 21) & 0x3ffu) << 1 |
	               ((insn >> 20) & 1u) << 11 |
	               ((insn >> 12) & 0xffu) << 12;

	return call_sext(imm, 21);
}

/* C.JAL (RV32 only; RV64 uses the encoding for C.ADDIW): funct3 001,
   op 01, offset[11|4|9:8|10|6|7|3:1|5] in bits 12-2. */
static int64_t rv_cjal_offset(uint32_t p)
{
	uint64_t imm = ((p >> 12) & 1u) << 11 | ((p >> 11) & 1u) << 4 |
	               ((p >> 9) & 3u) << 8 | ((p >> 8) & 1u) << 10 |
	               ((p >> 7) & 1u) << 6 | ((p >> 6) & 1u) << 7 |
	               ((p >> 3) & 7u) << 1 | ((p >> 2) & 1u) << 5;

	return call_sext(imm, 12);
}

/* The AUIPC just before a JALR, if any: its register and pc + its
   upper immediate. */
struct rv_auipc {
	uint64_t pc_next;            /* address right after the AUIPC */
	uint64_t base;
	uint32_t reg;
};

/* Reports the call a 32-bit instruction makes, if any, and records an
   AUIPC for the JALR that may follow. */
static void rv_insn32(const struct call_decode *d, uint64_t pc,
                      uint32_t insn, struct rv_auipc *au)
{
	uint32_t op = insn & 0x7f, rd = (insn >> 7) & 31, rs1 = (insn >> 15) & 31;

	if (op == RV_AUIPC && rd != 0) {
		*au = (struct rv_auipc){ pc + 4, call_target(d, pc,
		        call_sext(insn & 0xfffff000u, 32)), rd };
	} else if (op == RV_JAL && rv_is_link(rd)) {
		d->direct(d->ctx, call_target(d, pc, rv_jal_offset(insn)));
	} else if (op == RV_JALR && ((insn >> 12) & 7) == 0 &&
	           rv_is_link(rd) && rs1 != 0 && au->reg == rs1 &&
	           au->pc_next == pc) {
		/* JALR clears bit 0 of the sum (an odd offset is legal). */
		d->direct(d->ctx, call_target(d, au->base,
		                              call_sext(insn >> 20, 12)) &
		                  ~(uint64_t)1);
	}
}

/* One instruction: C.JAL on RV32, or a 32-bit one. */
static size_t rv_step(const struct call_decode *d, uint64_t pc,
                      uint64_t left, void *state)
{
	uint32_t p = (uint32_t)call_text_uint(d, pc, 2, false);
	size_t len = rv_length(p);

	if (len == 2 && d->addr_size == 4 && (p & 0xe003) == 0x2001)
		d->direct(d->ctx, call_target(d, pc, rv_cjal_offset(p)));
	if (len == 4 && left >= 4)
		rv_insn32(d, pc, (uint32_t)call_text_uint(d, pc, 4, false),
		          state);
	return len;
}

void decode_riscv(const struct call_decode *d, uint64_t lo, uint64_t hi)
{
	struct rv_auipc au = { 0, 0, 0 };

	call_walk16(d, lo, hi, rv_step, &au);
}
