/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-riscv64.c - the C half of the riscv64 hook (riscv64 builds only):
 * which register or stack slot holds a profiled function's caller.
 *
 * gcc passes the caller in a0 ("mv a0, ra" before "call _mcount", with
 * the move often scheduled a few instructions earlier) and, from -O1 on,
 * keeps no frame pointer: s0 may then hold anything.  clang passes
 * nothing (a0 is the profiled function's first argument) but always sets
 * the frame pointer ("addi s0, sp, N") in the prologue, and the return
 * address is at -8(s0).  So the code before the call tells which
 * contract applies; it is read once per call site (and cached):
 *   - "mv a0, ra" between the function's entry and the call: gcc's
 *     hand-over, the caller is a0;
 *   - else "addi s0, sp, N" there: the frame was set up (clang; or gcc
 *     -O0, whose a0 goes through another register, but which keeps the
 *     same -8(s0) slot), the caller is at -8(s0);
 *   - neither: the call is dropped and reported once, rather than
 *     recorded from a guess.
 * The instruction patterns are fixed encodings of the base ISA and the
 * C extension.
 */
#include "gmon_rt.h"

/* How far back from the call the prologue is searched.  gcc's and
   clang's instructions between the marker and the call (register saves,
   argument moves, variadic spills) stay well below this. */
#define SCAN_BYTES 384

/* mv a0, ra: compressed (c.mv) and full (addi a0, ra, 0) forms. */
#define C_MV_A0_RA 0x8506u
#define MV_A0_RA   0x00008513u
/* addi s0, sp, imm: the low 20 bits (rs1 = sp, funct3 = 0, rd = s0,
   OP-IMM); the immediate is in the top 12. */
#define ADDI_S0_SP_MASK 0x000fffffu
#define ADDI_S0_SP      0x00010413u
/* c.addi4spn s0, sp, imm: quadrant 0, funct3 0, rd' = s0 (0), and a
   nonzero immediate in bits 12:5. */
#define C_ADDI4SPN_MASK 0xe01fu
#define C_ADDI4SPN_S0   0x0000u
#define C_ADDI4SPN_IMM  0x1fe0u
/* The call: jal ra, off; or auipc ra, hi + jalr ra, lo(ra). */
#define JAL_RA_MASK   0x00000fffu
#define JAL_RA        0x000000efu
#define JALR_RA_MASK  0x000fffffu
#define JALR_RA_RA    0x000080e7u
#define AUIPC_RA_MASK 0x00000fffu
#define AUIPC_RA      0x00000097u
/* Jumps and calls: the major opcodes of jal and jalr; c.j (quadrant 1,
   funct3 101); c.jr and c.jalr (quadrant 2, funct3 100, rs2 = 0, rs1 not
   0; bit 12 tells them apart). */
#define JAL_OPCODE  0x6fu
#define JALR_OPCODE 0x67u
#define C_J_MASK    0xe003u
#define C_J         0xa001u
#define C_JR_MASK   0xe07fu
#define C_JR        0x8002u
#define C_JR_RS1    0x0f80u

enum site { SITE_UNKNOWN, SITE_A0, SITE_FRAME };

/* Code is 2-byte aligned and little-endian; a 4-byte instruction may sit
   on a 2-byte boundary, so words are read as two halves (volatile, so
   that they are never merged into one misaligned load, which a core may
   trap on). */
static uint32_t half_at(uintptr_t p)
{
	return *(const volatile uint16_t *)p;
}

static uint32_t word_at(uintptr_t p)
{
	return half_at(p) | half_at(p + 2) << 16;
}

/* Where the call that returns to ret starts (0 if it is not one that
   _mcount's callers use).  Both forms end at ret, so this is exact. */
static uintptr_t call_start(uintptr_t ret, uintptr_t lo)
{
	if (ret - lo < 8)
		return 0;
	if ((word_at(ret - 4) & JAL_RA_MASK) == JAL_RA)
		return ret - 4;
	if ((word_at(ret - 4) & JALR_RA_MASK) == JALR_RA_RA &&
	    (word_at(ret - 8) & AUIPC_RA_MASK) == AUIPC_RA)
		return ret - 8;
	return 0;
}

/* The length of the instruction whose first halfword is h (RV64GC has
   only 2- and 4-byte ones: the low two bits are 11 for 4 bytes). */
static uintptr_t insn_len(uint32_t h)
{
	return (h & 3) == 3 ? 4 : 2;
}

/* Whether the instruction at p jumps or calls: jal, jalr (any link
   register), c.j, c.jr and c.jalr.  (In RV64, c.jal's encoding is
   c.addiw.) */
static int is_transfer(uintptr_t p)
{
	uint32_t h = half_at(p);
	if (insn_len(h) == 4)
		return (h & 0x7f) == JAL_OPCODE || (h & 0x7f) == JALR_OPCODE;
	if ((h & C_J_MASK) == C_J)
		return 1;
	return (h & C_JR_MASK) == C_JR && (h & C_JR_RS1) != 0;
}

/* What the instruction at p says about the contract, if anything. */
static enum site marker_at(uintptr_t p)
{
	uint32_t h = half_at(p);
	if (insn_len(h) == 2) {
		if (h == C_MV_A0_RA)
			return SITE_A0;
		if ((h & C_ADDI4SPN_MASK) == C_ADDI4SPN_S0 && (h & C_ADDI4SPN_IMM) != 0)
			return SITE_FRAME;
		return SITE_UNKNOWN;
	}
	uint32_t w = word_at(p);
	if (w == MV_A0_RA)
		return SITE_A0;
	if ((w & ADDI_S0_SP_MASK) == ADDI_S0_SP)
		return SITE_FRAME;
	return SITE_UNKNOWN;
}

/*
 * Decide from the straight run of code that ends at the call: from the
 * function's entry to its first call, _mcount, nothing jumps or calls,
 * and nothing calls between gcc's "mv a0, ra" and the call it is for; so
 * every jump or call seen restarts the search, which keeps out markers
 * of the function before.  In that run gcc's hand-over wins over a frame
 * setup, because gcc may also point s0 at a local ("addi s0, sp, 16")
 * while clang never moves ra to a0.
 *
 * Code cannot be decoded backwards (a halfword may be the upper half of
 * a 4-byte instruction, and such halves do look like markers, e.g. in
 * "addw a2, a2, -1968"), so it is decoded forwards from SCAN_BYTES before
 * the call.  That start may fall inside an instruction, but the decode
 * falls into step at the next boundary unless a run of 4-byte
 * instructions happens to have upper halves that look like 4-byte ones
 * too; a decode that does not end exactly at the call is out of step,
 * and gives no answer.
 */
static enum site classify(uintptr_t call, uintptr_t lo)
{
	uintptr_t p = call - lo < SCAN_BYTES ? lo : call - SCAN_BYTES;
	int a0 = 0, frame = 0;
	while (p < call) {
		enum site s = marker_at(p);
		a0 |= s == SITE_A0;
		frame |= s == SITE_FRAME;
		if (is_transfer(p))
			a0 = frame = 0;
		p += insn_len(half_at(p));
	}
	if (p != call)
		return SITE_UNKNOWN;
	return a0 ? SITE_A0 : frame ? SITE_FRAME : SITE_UNKNOWN;
}

/*
 * The answer for each call site, so that the decode runs once per site,
 * not once per call: a direct-mapped cache of words packing the site's
 * offset in the text with its answer, which one plain store publishes
 * (threads and signal handlers may race on a slot; the loser just
 * decodes again).
 */
#define CACHE_SLOTS 1024
static uintptr_t site_cache[CACHE_SLOTS];

static enum site site_of(uintptr_t selfpc, uintptr_t lo)
{
	uintptr_t off = selfpc - lo;
	uintptr_t *slot = &site_cache[(off >> 1) % CACHE_SLOTS];
	uintptr_t v = __atomic_load_n(slot, __ATOMIC_RELAXED);
	if (v != 0 && v >> 2 == off)
		return (enum site)(v & 3);
	uintptr_t call = call_start(selfpc, lo);
	enum site s = call != 0 ? classify(call, lo) : SITE_UNKNOWN;
	__atomic_store_n(slot, off << 2 | (uintptr_t)s, __ATOMIC_RELAXED);
	return s;
}

/*
 * The caller, or 0 (which the recorder drops) when it cannot be known.
 * Code is read only inside the profiled text, which is mapped; a
 * profiled function outside it (in a shared library) could not be named
 * by gprof anyway.  The frame-pointer slot is read only where the
 * prologue set s0 from sp, and then sits between sp and s0 in the live
 * frame.
 */
void __gmon_riscv64_mcount(uintptr_t a0, uintptr_t selfpc, uintptr_t s0,
                         uintptr_t sp)
{
	uintptr_t lo = gmon_p.lowpc;
	if (selfpc - lo >= gmon_p.textsize) {
		__mcount_internal(0, selfpc);
		return;
	}
	enum site s = site_of(selfpc, lo);
	if (s == SITE_A0)
		__mcount_internal(a0, selfpc);
	else if (s == SITE_FRAME && s0 > sp && (s0 & 7) == 0)
		__mcount_internal(*(const uintptr_t *)(s0 - 8), selfpc);
	else
		__gmon_no_caller("riscv64: neither gcc's a0 nor a frame pointer",
		               selfpc);
}
