/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * call_site.c - the call instruction that ends at a return address, for
 * the diagnosis's wrong-executable check (analysis/diagnose.c, through
 * cg_scan.c): an arc's caller address is the return address of a call,
 * its callee address the return address of the profiling hook's call in
 * the callee's prologue.  Reads backwards from the address, one form of
 * call instruction after the other, per instruction set.
 */
#include "decode.h"

static bool site(struct call_site *s, enum call_site_kind kind, uint64_t to)
{
	s->kind = kind;
	s->to = to;
	return true;
}

/* ---- x86: call rel32, and call through a register or memory (FF /2) ---- */

/* The FF /2 instruction at b (after any prefix), if it ends exactly at
   pc. */
static bool x86_ff2(const struct call_decode *d, uint64_t b, uint64_t pc,
                    struct call_site *s)
{
	if (!call_text_has(d, b, 2) || d->text[b - d->vma] != 0xff)
		return false;
	unsigned modrm = d->text[b + 1 - d->vma];
	unsigned mod = modrm >> 6, reg = (modrm >> 3) & 7, rm = modrm & 7;
	uint64_t len = 2;
	if (reg != 2)
		return false;
	if (mod != 3 && rm == 4) {          /* a SIB byte */
		if (!call_text_has(d, b + 2, 1))
			return false;
		unsigned base = d->text[b + 2 - d->vma] & 7;
		len++;
		if (mod == 0 && base == 5)
			len += 4;
	}
	if (mod == 1)
		len += 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		len += 4;
	if (len != pc - b || !call_text_has(d, b, len))
		return false;
	if (mod == 3)
		return site(s, CALL_REGISTER, rm);
	if ((mod == 0 && rm == 5) || mod == 2) {
		/* a slot: pc-relative on x86-64, else absolute or relative
		   to a base register that holds the GOT, the same at every
		   call of one slot */
		uint64_t disp = (uint64_t)call_sext(call_text_uint(d, pc - 4, 4,
		                                                   false), 32);
		bool rip = mod == 0 && d->addr_size == 8;
		return site(s, CALL_MEMORY, call_target(d, rip ? pc : 0,
		                                        (int64_t)disp));
	}
	return site(s, CALL_REGISTER, modrm);
}

bool call_site_x86(const struct call_decode *d, uint64_t pc,
                   struct call_site *s)
{
	if (pc >= 5 && call_text_has(d, pc - 5, 5) &&
	    d->text[pc - 5 - d->vma] == 0xe8) {
		int64_t rel = call_sext(call_text_uint(d, pc - 4, 4, false), 32);
		return site(s, CALL_DIRECT, call_target(d, pc, rel));
	}
	for (uint64_t len = 2; len <= 8 && len <= pc; len++) {
		uint64_t b = pc - len;
		if (x86_ff2(d, b, pc, s))
			return true;
		/* a REX prefix (x86-64) or a segment override before it */
		if (len >= 3 && call_text_has(d, b, 1)) {
			unsigned p = d->text[b - d->vma];
			if (((d->addr_size == 8 && (p & 0xf0) == 0x40) ||
			     p == 0x2e || p == 0x3e || p == 0x64 || p == 0x65) &&
			    x86_ff2(d, b + 1, pc, s))
				return true;
		}
	}
	return false;
}

/* ---- aarch64: bl, blr ---- */

bool call_site_aarch64(const struct call_decode *d, uint64_t pc,
                       struct call_site *s)
{
	if (pc < 4 || !call_text_has(d, pc - 4, 4))
		return false;
	uint32_t w = call_text_u32(d, pc - 4);
	if ((w & 0xfc000000u) == 0x94000000u)
		return site(s, CALL_DIRECT,
		            call_target(d, pc - 4, call_sext(w, 26) * 4));
	if ((w & 0xfffffc1fu) == 0xd63f0000u)
		return site(s, CALL_REGISTER, (w >> 5) & 31);
	return false;
}

/* ---- arm: Thumb bl and blx, blx register; A32 bl, blx ---- */

/* Thumb-2 BL/BLX's offset: S, J1, J2, imm10 and imm11. */
static int64_t thumb_bl_offset(uint32_t hi, uint32_t lo)
{
	uint32_t sgn = (hi >> 10) & 1, j1 = (lo >> 13) & 1, j2 = (lo >> 11) & 1;
	uint32_t i1 = !(j1 ^ sgn), i2 = !(j2 ^ sgn);
	uint32_t v = sgn << 24 | i1 << 23 | i2 << 22 | (hi & 0x3ff) << 12 |
	             (lo & 0x7ff) << 1;
	return call_sext(v, 25);
}

bool call_site_arm(const struct call_decode *d, uint64_t pc,
                   struct call_site *s)
{
	pc &= ~(uint64_t)1;                 /* a Thumb return address */
	if (pc >= 4 && call_text_has(d, pc - 4, 4)) {
		uint32_t hi = (uint32_t)call_text_uint(d, pc - 4, 2, d->big_endian);
		uint32_t lo = (uint32_t)call_text_uint(d, pc - 2, 2, d->big_endian);
		if ((hi & 0xf800) == 0xf000 && (lo & 0xd000) == 0xd000)
			return site(s, CALL_DIRECT, call_target(d, pc,
			            thumb_bl_offset(hi, lo)));
		if ((hi & 0xf800) == 0xf000 && (lo & 0xd001) == 0xc000)
			return site(s, CALL_DIRECT, call_target(d, pc & ~(uint64_t)3,
			            thumb_bl_offset(hi, lo)));
		uint32_t w = call_text_u32(d, pc - 4);
		if ((w & 0x0f000000u) == 0x0b000000u && (w >> 28) != 0xf)
			return site(s, CALL_DIRECT, call_target(d, pc + 4,
			            call_sext(w, 24) * 4));
		if ((w & 0xfe000000u) == 0xfa000000u)
			return site(s, CALL_DIRECT, call_target(d, pc + 4,
			            call_sext(w, 24) * 4 + ((w >> 23) & 2)));
		if ((w & 0x0ffffff0u) == 0x012fff30u)
			return site(s, CALL_REGISTER, w & 15);
	}
	if (pc >= 2 && call_text_has(d, pc - 2, 2)) {
		uint32_t h = (uint32_t)call_text_uint(d, pc - 2, 2, d->big_endian);
		if ((h & 0xff87) == 0x4780)
			return site(s, CALL_REGISTER, (h >> 3) & 15);
	}
	return false;
}

/* ---- riscv: jal ra, auipc ra + jalr ra, jalr ra and c.jalr ---- */

bool call_site_riscv(const struct call_decode *d, uint64_t pc,
                     struct call_site *s)
{
	if (pc >= 4 && call_text_has(d, pc - 4, 4)) {
		uint32_t w = (uint32_t)call_text_uint(d, pc - 4, 4, false);
		if ((w & 0xfff) == 0x0ef) {         /* jal ra */
			uint64_t v = (w >> 31) << 20 | ((w >> 12) & 0xff) << 12 |
			             ((w >> 20) & 1) << 11 | ((w >> 21) & 0x3ff) << 1;
			return site(s, CALL_DIRECT,
			            call_target(d, pc - 4, call_sext(v, 21)));
		}
		if ((w & 0x707f) == 0x0067 && ((w >> 7) & 31) == 1) {   /* jalr ra */
			uint32_t rs1 = (w >> 15) & 31;
			int64_t lo12 = call_sext(w >> 20, 12);
			if (pc >= 8 && call_text_has(d, pc - 8, 4)) {
				uint32_t u = (uint32_t)call_text_uint(d, pc - 8, 4, false);
				if ((u & 0x7f) == 0x17 && ((u >> 7) & 31) == rs1)
					return site(s, CALL_DIRECT, call_target(d, pc - 8,
					            call_sext(u & 0xfffff000u, 32) + lo12));
			}
			return site(s, CALL_REGISTER, rs1);
		}
	}
	if (pc >= 2 && call_text_has(d, pc - 2, 2)) {
		uint32_t h = (uint32_t)call_text_uint(d, pc - 2, 2, false);
		if ((h & 0xf07f) == 0x9002 && (h & 0x0f80))   /* c.jalr */
			return site(s, CALL_REGISTER, (h >> 7) & 31);
	}
	return false;
}

/* ---- powerpc: bl, bctrl, blrl ---- */

bool call_site_ppc(const struct call_decode *d, uint64_t pc,
                   struct call_site *s)
{
	if (pc < 4 || !call_text_has(d, pc - 4, 4))
		return false;
	uint32_t w = call_text_u32(d, pc - 4);
	if ((w & 0xfc000003u) == 0x48000001u)
		return site(s, CALL_DIRECT,
		            call_target(d, pc - 4, call_sext(w & 0x03fffffcu, 26)));
	if (w == 0x4e800421u || w == 0x4e800021u)
		return site(s, CALL_REGISTER, w);
	return false;
}

/* ---- s390: brasl, bras, basr ---- */

bool call_site_s390(const struct call_decode *d, uint64_t pc,
                    struct call_site *s)
{
	if (pc >= 6 && call_text_has(d, pc - 6, 6) &&
	    d->text[pc - 6 - d->vma] == 0xc0 &&
	    (d->text[pc - 5 - d->vma] & 0x0f) == 5)
		return site(s, CALL_DIRECT, call_target(d, pc - 6,
		            2 * call_sext(call_text_uint(d, pc - 4, 4, true), 32)));
	if (pc >= 4 && call_text_has(d, pc - 4, 4) &&
	    d->text[pc - 4 - d->vma] == 0xa7 &&
	    (d->text[pc - 3 - d->vma] & 0x0f) == 5)
		return site(s, CALL_DIRECT, call_target(d, pc - 4,
		            2 * call_sext(call_text_uint(d, pc - 2, 2, true), 16)));
	/* BASR with R2 = 0 does not branch (it only saves the address:
	   "basr %r13, 0" sets up a base register in 31-bit code) */
	if (pc >= 2 && call_text_has(d, pc - 2, 2) &&
	    d->text[pc - 2 - d->vma] == 0x0d &&
	    (d->text[pc - 1 - d->vma] & 15) != 0)
		return site(s, CALL_REGISTER, d->text[pc - 1 - d->vma] & 15);
	return false;
}
