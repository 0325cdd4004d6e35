/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * decoders.c - unit tests of the -c call decoders (src/decode_*.c): each
 * is fed a few instructions assembled by hand from its architecture
 * manual's encodings, and the call targets it reports are checked.
 *
 * Every case gives the text as units of 1, 2 or 4 bytes written in the
 * case's byte order; the comment next to a unit names the instruction,
 * its address and, for a call, how its target is computed.  The probe
 * accepts every target (or only those listed in `accept`, as cg_scan.c
 * accepts only symbol starts) and records the accepted ones in order.
 */
#include <stdio.h>
#include <string.h>

#include "decode/decode.h"
#include "unit.h"

#define N(a) (sizeof (a) / sizeof (a)[0])
#define MAX_GOT 16

struct probe {
	const uint64_t *accept;      /* naccept == 0: every target */
	size_t naccept;
	uint64_t got[MAX_GOT];       /* accepted targets, in order */
	size_t ngot;
	size_t indirect;             /* indirect calls reported */
};

static bool probe_direct(void *ctx, uint64_t target)
{
	struct probe *p = ctx;
	bool ok = p->naccept == 0;

	for (size_t i = 0; i < p->naccept; i++)
		ok |= p->accept[i] == target;
	if (ok && p->ngot < MAX_GOT)
		p->got[p->ngot++] = target;
	return ok;
}

static void probe_indirect(void *ctx)
{
	((struct probe *)ctx)->indirect++;
}

struct dec_case {
	const char *name;
	call_decoder *decode;
	int width;                   /* bytes in each of units[] */
	const uint32_t *units;
	size_t n;
	uint64_t vma;
	bool big;
	int addr_size;
	uint64_t entry;
	const struct code_mark *marks;
	size_t nmarks;
	uint64_t lo;                 /* where decoding starts; 0: vma */
	const uint64_t *accept;
	size_t naccept;
	const uint64_t *want;
	size_t nwant;
	size_t want_indirect;
};

/* Lays the units out as bytes in the case's byte order. */
static size_t case_bytes(const struct dec_case *c, unsigned char *buf)
{
	size_t len = 0;

	for (size_t i = 0; i < c->n; i++)
		for (int b = 0; b < c->width; b++) {
			int shift = c->big ? 8 * (c->width - 1 - b) : 8 * b;

			buf[len++] = (unsigned char)(c->units[i] >> shift);
		}
	return len;
}

static bool same_targets(const struct probe *p, const struct dec_case *c)
{
	if (p->ngot != c->nwant || p->indirect != c->want_indirect)
		return false;
	return c->nwant == 0 ||
	       memcmp(p->got, c->want, c->nwant * sizeof *c->want) == 0;
}

static void run_case(const struct dec_case *c)
{
	unsigned char text[256];
	struct probe p = { .accept = c->accept, .naccept = c->naccept };
	struct call_decode d = {
		.text = text, .vma = c->vma, .size = case_bytes(c, text),
		.big_endian = c->big, .addr_size = c->addr_size,
		.entry = c->entry, .marks = c->marks, .nmarks = c->nmarks,
		.direct = probe_direct, .indirect = probe_indirect, .ctx = &p,
	};
	char name[80];

	c->decode(&d, c->lo ? c->lo : c->vma, c->vma + d.size);
	snprintf(name, sizeof name, "decode_%s", c->name);
	bool ok = same_targets(&p, c);

	if (!ok) {
		printf("  got %zu indirect and", p.indirect);
		for (size_t i = 0; i < p.ngot; i++)
			printf(" 0x%llx", (unsigned long long)p.got[i]);
		printf("\n");
	}
	unit_check(ok, name);
}

/* ---- GNU's instruction sets ---- */

/* call rel32 (E8): target = address after the 5 bytes + rel32, signed. */
static const uint32_t x86_text[] = {
	0xe8, 0x0b, 0x00, 0x00, 0x00,   /* 0x401000 call 0x401005+0x0b */
	0xe8, 0xf6, 0xff, 0xff, 0xff,   /* 0x401005 call 0x40100a-0x0a */
};
static const uint64_t x86_want[] = { 0x401010, 0x401000 };
/* i386: 0xfffffff5 + 0x20 wraps to 0x15. */
static const uint32_t i386_text[] = { 0xe8, 0x20, 0x00, 0x00, 0x00 };
static const uint64_t i386_want[] = { 0x15 };

/* B/BL: imm26 words from the instruction; B.cond and BLR are not taken. */
static const uint32_t a64_text[] = {
	0x94000004,                  /* 0x400000 bl +4 words: 0x400010 */
	0x17fffffe,                  /* 0x400004 b -2 words: 0x3ffffc */
	0x54000040,                  /* 0x400008 b.eq +8 */
	0xd63f0020,                  /* 0x40000c blr x1 */
};
static const uint64_t a64_want[] = { 0x400010, 0x3ffffc };

/* JAL: the low 28 bits of the PC become instr_index << 2. */
static const uint32_t mips_text[] = {
	0x0c100040,                  /* 0x400000 jal 0x400100 */
	0x0320f809,                  /* 0x400004 jalr $ra, $t9: indirect */
	0x08100040,                  /* 0x400008 j 0x400100: no call */
};
static const uint64_t mips_want[] = { 0x400100 };

/* BSR: opcode 0x34, disp21 words from the next instruction. */
static const uint32_t alpha_text[] = {
	0xd3400004,                  /* 0x120000000 bsr ra, 0x120000004+16 */
	0x6b5b4000,                  /* 0x120000004 jsr ra, (pv): indirect */
	0xd35ffffd,                  /* 0x120000008 bsr ra, 0x12000000c-12 */
	0xc3e00001,                  /* 0x12000000c br: no call */
	0x6bfa8001,                  /* 0x120000010 ret: no call */
};
static const uint64_t alpha_want[] = { 0x120000014, 0x120000000 };

/* CALL: disp30 words from the instruction.  GNU's test takes any word
   with a non-zero top pair of bits, so retl (10...) is reported too:
   0x1000c + 4 * 0x01c3e008 = 0x710802c. */
static const uint32_t sparc_text[] = {
	0x40000010,                  /* 0x10000 call 0x10040 */
	0x7fffffff,                  /* 0x10004 call 0x10000 */
	0x01000000,                  /* 0x10008 nop */
	0x81c3e008,                  /* 0x1000c retl */
};
static const uint64_t sparc_want[] = { 0x10040, 0x10000, 0x710802c };

/* CALLS numarg, dst: a long PC-relative dst (EF) is direct, target = end
   of the operand + disp; deferred ones (FF, register deferred 61) are
   indirect. */
static const uint32_t vax_text[] = {
	0xfb, 0x00, 0xef, 0x10, 0x00, 0x00, 0x00, /* 0x1000 calls $0, 0x1007+0x10 */
	0xfb, 0x01, 0xff, 0x00, 0x00, 0x00, 0x00, /* 0x1007 calls $1, @L^x */
	0xfb, 0x02, 0x61,                         /* 0x100e calls $2, (r1) */
	0x04,                                     /* 0x1011 ret */
};
static const uint64_t vax_want[] = { 0x1017 };

static const struct dec_case gnu_cases[] = {
	{ "x86", decode_x86, 1, x86_text, N(x86_text), 0x401000, false, 8,
	  .want = x86_want, .nwant = N(x86_want) },
	{ "i386_wrap", decode_x86, 1, i386_text, N(i386_text), 0xfffffff0,
	  false, 4, .want = i386_want, .nwant = N(i386_want) },
	{ "aarch64", decode_aarch64, 4, a64_text, N(a64_text), 0x400000,
	  false, 8, .want = a64_want, .nwant = N(a64_want) },
	{ "mips", decode_mips, 4, mips_text, N(mips_text), 0x400000, true, 4,
	  .want = mips_want, .nwant = N(mips_want), .want_indirect = 1 },
	{ "alpha", decode_alpha, 4, alpha_text, N(alpha_text), 0x120000000,
	  false, 8, .want = alpha_want, .nwant = N(alpha_want),
	  .want_indirect = 1 },
	{ "sparc", decode_sparc, 4, sparc_text, N(sparc_text), 0x10000, true,
	  4, .want = sparc_want, .nwant = N(sparc_want) },
	{ "vax", decode_vax, 1, vax_text, N(vax_text), 0x1000, false, 4,
	  .want = vax_want, .nwant = N(vax_want), .want_indirect = 2 },
};

/* ---- gproftk's own ---- */

/* ARM: A32 from 0x10000, a literal pool at 0x10010, Thumb from 0x10018.
   A32 BL: pc + 8 + imm24 * 4; BLX: the same plus H * 2.  Thumb BL: pc + 4
   + S:I1:I2:imm10:imm11:0; BLX: the same from pc + 4 rounded down to 4. */
static const uint32_t arm_a32[] = {
	0xeb00003e,                  /* 0x10000 bl 0x10008+0xf8 */
	0x1bfffffd,                  /* 0x10004 blne 0x1000c-0xc */
	0xfb00007c,                  /* 0x10008 blx 0x10010+0x1f0+2 */
	0xea000000,                  /* 0x1000c b: no call */
	0xebffffff,                  /* 0x10010 $d: a BL's bits, data */
	0xebffffff,                  /* 0x10014 $d */
};
static const uint32_t arm_thumb[] = {
	0xbf00,                      /* 0x10018 nop */
	0xf000, 0xf871,              /* 0x1001a bl 0x1001e+0xe2 */
	0xf7ff, 0xeff0,              /* 0x1001e blx 0x10020-0x20 */
	0xf8d0, 0xf000,              /* 0x10022 ldr.w pc, [r0] */
	0xd0fe,                      /* 0x10026 beq.n: with 0xf000 before
	                                it would read as a BL */
};
static const struct code_mark arm_marks[] = {
	{ 0x10000, 'a' }, { 0x10010, 'd' }, { 0x10018, 't' },
};
static const uint64_t arm_want[] = { 0x10100, 0x10000, 0x10202,
                                     0x10100, 0x10000 };
static const uint64_t arm_thumb_want[] = { 0x10100, 0x10000 };

/* Without mapping symbols the entry point's bit 0 decides: Thumb BL at
   0x10000 to 0x10004 + 0xe2; read as A32 the same bytes are no call. */
static const uint32_t arm_bare[] = { 0xf000, 0xf871 };
static const uint64_t arm_bare_want[] = { 0x100e6 };

static uint32_t arm_units[N(arm_a32) * 2 + N(arm_thumb)];

/* The A32 words as pairs of halfwords (low first), then the Thumb code. */
static void arm_layout(void)
{
	size_t n = 0;

	for (size_t i = 0; i < N(arm_a32); i++) {
		arm_units[n++] = arm_a32[i] & 0xffff;
		arm_units[n++] = arm_a32[i] >> 16;
	}
	for (size_t i = 0; i < N(arm_thumb); i++)
		arm_units[n++] = arm_thumb[i];
}

/* RISC-V, RV64: JAL rd=ra/t0 (J-immediate), AUIPC + JALR, both linking;
   parcels of 16 bits, instructions 2, 4 or 6 bytes long. */
static const uint32_t rv_text[] = {
	0x00ef, 0x1000,              /* 0x10000 jal ra, +0x100 */
	0x0001,                      /* 0x10004 c.nop */
	0x1097, 0x0000,              /* 0x10006 auipc ra, 0x1 */
	0x80e7, 0xff80,              /* 0x1000a jalr ra, -8(ra): 0x10ffe */
	0x006f, 0x0100,              /* 0x1000e j +0x10: no call */
	0xf2ef, 0xfeff,              /* 0x10012 jal t0, -0x12: 0x10000 */
	0x0517, 0x0000,              /* 0x10016 auipc a0, 0 */
	0x80e7, 0x0107,              /* 0x1001a jalr ra, 16(a5): not a0 */
	0x0097, 0x0000,              /* 0x1001e auipc ra, 0 */
	0x0001,                      /* 0x10022 c.nop */
	0x80e7, 0x0000,              /* 0x10024 jalr ra, 0(ra): not paired */
	0x001f, 0x00ef, 0x1000,      /* 0x10028 48-bit: its last two parcels
	                                would read as a jal ra */
};
static const uint64_t rv_want[] = { 0x10100, 0x10ffe, 0x10000 };
/* C.JAL (funct3 001, op 01) is RV32's; offset bit 5 is instruction bit 2.
   On RV64 the same parcel is C.ADDIW. */
static const uint32_t rv_cjal[] = { 0x2005 };   /* 0x10000 c.jal +0x20 */
static const uint64_t rv_cjal_want[] = { 0x10020 };

/* PowerPC: I-form branch, LI words, AA absolute, LK link.  f has a
   global entry (addis/addi r2) at 0x10000000 and its local entry at +8;
   a call there is a call to f. */
static const uint32_t ppc_text[] = {
	0x3c4c0002,                  /* 0x10000000 addis r2, r12, 2 */
	0x38428100,                  /* 0x10000004 addi r2, r2, -0x7f00 */
	0x7c0802a6,                  /* 0x10000008 mflr r0 */
	0x4bfffffd,                  /* 0x1000000c bl 0x10000008 (f + 8) */
	0x48000005,                  /* 0x10000010 bl .+4: no call */
	0x48000010,                  /* 0x10000014 b: no call */
	0x480000e9,                  /* 0x10000018 bl 0x10000100 */
	0x48000103,                  /* 0x1000001c bla 0x100 */
	0x48000011,                  /* 0x10000020 bl 0x10000030: no symbol,
	                                no global entry before it */
	0x60000000, 0x60000000, 0x60000000, 0x60000000,
};
static const uint64_t ppc_accept[] = { 0x10000000, 0x10000100, 0x100 };
static const uint64_t ppc_want[] = { 0x10000000, 0x10000100, 0x100 };

/* s390x, big-endian: BRASL %r14 (C0E5, I2 halfwords), BRAS %r14 (A7E5);
   length from the first byte's top bits. */
static const uint32_t s390_text[] = {
	0xc0e5, 0x0000, 0x0080,      /* 0x1000000 brasl %r14, +0x100 */
	0xa7e5, 0xfffd,              /* 0x1000006 bras %r14, -6 */
	0xc015, 0x0000, 0x0010,      /* 0x100000a brasl %r1: no call */
	0xe310, 0xc0e5, 0x0004,      /* 0x1000010 a 6-byte RXY insn with
	                                C0E5 inside */
	0x07fe,                      /* 0x1000016 br %r14 */
	0x0de1,                      /* 0x1000018 basr %r14, %r1 */
	0xa718, 0x0000,              /* 0x100001a lhi %r1, 0 */
	0xc0e5, 0xffff, 0xfff1,      /* 0x100001e brasl %r14, -0x1e */
};
static const uint64_t s390_want[] = { 0x1000100, 0x1000000, 0x1000000 };

static const struct dec_case own_cases[] = {
	{ "arm", decode_arm, 2, arm_units, N(arm_units), 0x10000, false, 4,
	  0x10000, arm_marks, N(arm_marks),
	  .want = arm_want, .nwant = N(arm_want) },
	{ "arm_from_thumb", decode_arm, 2, arm_units, N(arm_units), 0x10000,
	  false, 4, 0x10000, arm_marks, N(arm_marks), .lo = 0x1001a,
	  .want = arm_thumb_want, .nwant = N(arm_thumb_want) },
	{ "arm_entry_thumb", decode_arm, 2, arm_bare, N(arm_bare), 0x10000,
	  false, 4, .entry = 0x10001, .want = arm_bare_want,
	  .nwant = N(arm_bare_want) },
	{ "arm_entry_a32", decode_arm, 2, arm_bare, N(arm_bare), 0x10000,
	  false, 4, .entry = 0x10000 },
	{ "riscv", decode_riscv, 2, rv_text, N(rv_text), 0x10000, false, 8,
	  .want = rv_want, .nwant = N(rv_want) },
	{ "riscv_cjal_rv32", decode_riscv, 2, rv_cjal, N(rv_cjal), 0x10000,
	  false, 4, .want = rv_cjal_want, .nwant = N(rv_cjal_want) },
	{ "riscv_cjal_rv64", decode_riscv, 2, rv_cjal, N(rv_cjal), 0x10000,
	  false, 8, .want = NULL },
	{ "ppc64le", decode_ppc, 4, ppc_text, N(ppc_text), 0x10000000, false,
	  8, .accept = ppc_accept, .naccept = N(ppc_accept),
	  .want = ppc_want, .nwant = N(ppc_want) },
	{ "ppc64be", decode_ppc, 4, ppc_text, N(ppc_text), 0x10000000, true,
	  8, .accept = ppc_accept, .naccept = N(ppc_accept),
	  .want = ppc_want, .nwant = N(ppc_want) },
	{ "s390x", decode_s390, 2, s390_text, N(s390_text), 0x1000000, true,
	  8, .want = s390_want, .nwant = N(s390_want) },
};

void unit_decoders(void)
{
	arm_layout();
	for (size_t i = 0; i < N(gnu_cases); i++)
		run_case(&gnu_cases[i]);
	for (size_t i = 0; i < N(own_cases); i++)
		run_case(&own_cases[i]);
}
