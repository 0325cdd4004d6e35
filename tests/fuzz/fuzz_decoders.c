/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_decoders.c - libFuzzer harness for the readers of machine code: the
 * -c call decoders (src/decode_*.c, through call_decode.h), which read the
 * text of an arbitrary executable, and the riscv64 runtime's call-site
 * reader (src/libgmon/arch-riscv64.c, included below the way
 * tests/libgmon/rvsites.c runs it on the host).
 *
 * Input: a selector byte (modulo 11: decoders 0-9 in the order of the
 * table below, 10 the riscv64 call-site reader), then a header, then the
 * code bytes.
 *
 * Decoders.  Header (14 bytes, zeros past the end of the input):
 *   flags   bit 0 big_endian, bit 1 addr_size 4 (else 8), bit 2 entry
 *           address odd (ARM: Thumb), bits 3-4 what direct() answers
 *           (never, always, a hash bit of the target, target 4-aligned),
 *           bits 5-7 how the text address (vma) is made from `raw`
 *           (then lowered if need be so that the text ends at 2^64
 *           or below, 2^32 for 32-bit addresses)
 *   raw     8 bytes, little-endian
 *   lo, hi  2 bytes each: signed offsets of the range to decode from the
 *           text's start and end
 *   range   bit 0 lo = 0, bit 1 hi = UINT64_MAX, bits 2-3 scale the lo
 *           and hi offsets by 2^16; bits 4-7 the number of ARM mapping
 *           symbols, 3 bytes each (signed 2-byte offset from vma, kind)
 * The rest is the text.  It is decoded over [lo, hi) once; then the
 * harness walks the same range on its own, from each architecture's
 * manual (which bytes start an instruction, how long it is, ARM mapping
 * symbols), and decodes each instruction alone.  Abort unless:
 *   - the whole decode reports exactly the calls of the single
 *     instructions, in order (VAX, which skips a recognised call's
 *     operands, a subsequence of them); so no call is reported from
 *     outside the range or the text;
 *   - one instruction reports at most one call (PowerPC: a second, 8
 *     bytes lower, only after direct() declined the first);
 *   - every target is one the instruction's encoding can reach from it
 *     (displacement width, alignment; wrapped at 32 bits on a 32-bit
 *     target where the decoder promises to);
 *   - the plainest calls of some sets (x86 call rel32, AArch64 B/BL,
 *     SPARC CALL, s390 BRAS/BRASL %r14) are reported wherever the text
 *     lies.
 * The text is a private allocation of exactly its size, so that ASan
 * sees any read outside it.
 *
 * riscv64 call-site reader.  Header (6 bytes): flags (bits 0-1 the s0 the
 * hook gets: a valid frame, s0 == sp, misaligned, below sp; bit 2 the
 * return address just past the text), two 2-byte site offsets A and B
 * (even, at most the code's length: the return address of a call), one
 * byte of text beyond the code.  For each site, the reader is run on a
 * copy of only the bytes before the return address (ASan: it must read
 * no further), twice (the second answer comes from its cache); then both
 * sites on one copy of all the code, A, B, A, B through the shared cache,
 * must give the same answers.  An answer "the caller is in a0" or "at
 * -8(s0)" needs a call of the two forms ending at the site and, in the
 * SCAN_BYTES before it, gcc's "mv a0, ra" or a frame set-up
 * ("addi s0, sp, N" or c.addi4spn); -8(s0) may be read only for a valid
 * s0.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/decode.h"

/* ---- the riscv64 call-site reader, with its runtime stubbed ---- */

/* What arch-riscv64.c needs from the runtime, in place of gmon_rt.h. */
#define GMON_RT_H
static struct { uintptr_t lowpc, textsize; } gmon_p;
/* What the hook last did: recorded (frompc) or gave up. */
static struct {
	int recorded, dropped;
	uintptr_t frompc, selfpc;
} rt;

static void __mcount_internal(uintptr_t frompc, uintptr_t selfpc)
{
	rt.recorded++;
	rt.frompc = frompc;
	rt.selfpc = selfpc;
}

static void __gmon_no_caller(const char *why, uintptr_t selfpc)
{
	(void)why;
	rt.dropped++;
	rt.selfpc = selfpc;
}

void __gmon_riscv64_mcount(uintptr_t a0, uintptr_t selfpc, uintptr_t s0,
                         uintptr_t sp);
#include "libgmon/arch-riscv64.c"

/* FUZZ_DECODERS_DEBUG set: one line per input on stderr, what was
   decoded and found. */
static bool debug(void)
{
	static int on = -1;

	if (on < 0)
		on = getenv("FUZZ_DECODERS_DEBUG") != NULL;
	return on;
}

/* ---- input ---- */

struct input {
	const uint8_t *p;
	size_t n;
};

/* The next k (at most 8) bytes as a little-endian number; zeros past the
   end of the input. */
static uint64_t take(struct input *in, size_t k)
{
	uint64_t v = 0;

	for (size_t i = 0; i < k; i++) {
		uint64_t b = 0;

		if (in->n) {
			b = *in->p++;
			in->n--;
		}
		v |= b << (8 * i);
	}
	return v;
}

/* ---- decoders ---- */

#define P2(n) ((int64_t)1 << (n))

enum isa { X86, AARCH64, MIPS, ALPHA, SPARC, VAX, ARM, RISCV, PPC, S390,
           NDEC };

/* What each decoder's call instructions can reach: target - the
   instruction's address lies in [min, max] and is a multiple of align;
   `wraps`: targets wrap at 32 bits when addr_size is 4 (the others add
   in 64 bits, as GNU's do).  MIPS and PowerPC have checks of their own
   besides (see target_ok()). */
static const struct dec_info {
	const char *name;
	call_decoder *decode;
	bool wraps;
	int64_t min, max;
	unsigned align;
} decs[NDEC] = {
	/* call rel32: from the end of its 5 bytes */
	[X86] = { "x86", decode_x86, true, 5 - P2(31), 4 + P2(31), 1 },
	/* B/BL: imm26 words */
	[AARCH64] = { "aarch64", decode_aarch64, false, -P2(27), P2(27) - 4, 4 },
	/* JAL: same 256 MB region (target_ok()) */
	[MIPS] = { "mips", decode_mips, false, INT64_MIN, INT64_MAX, 1 },
	/* BSR: disp21 words from the next instruction */
	[ALPHA] = { "alpha", decode_alpha, false, 4 - P2(22), P2(22), 4 },
	/* CALL: disp30 words */
	[SPARC] = { "sparc", decode_sparc, false, -P2(31), P2(31) - 4, 4 },
	/* CALLS: the operand ends 2+2 to 6+5 bytes on, then disp8/16/32 */
	[VAX] = { "vax", decode_vax, false, 7 - P2(31), 10 + P2(31), 1 },
	/* A32 BL/BLX: pc + 8 + imm24 words (+ 2); Thumb: pc + 4 + 25 bits */
	[ARM] = { "arm", decode_arm, true, 8 - P2(25), P2(25) + 6, 2 },
	/* JAL 21 bits, C.JAL 12; AUIPC + JALR 32 + 12 bits from the AUIPC,
	   which may be further into the unit (max grows by its length) */
	[RISCV] = { "riscv", decode_riscv, true, -P2(31) - P2(11), P2(31), 2 },
	/* bl: LI 26 bits; bla: absolute (target_ok()) */
	[PPC] = { "ppc", decode_ppc, true, -P2(25), P2(25) - 4, 4 },
	/* BRASL: 32-bit halfword count; BRAS: 16-bit */
	[S390] = { "s390", decode_s390, true, -P2(32), P2(32) - 2, 2 },
};

/* One report: 'd' direct (with its target) or 'i' indirect. */
struct event {
	char kind;
	uint64_t target;
};

struct events {
	struct event *v;
	size_t n, cap, limit;        /* limit: more is a runaway decoder */
};

static struct run {
	enum isa isa;
	unsigned answer;             /* flags bits 3-4 */
	struct events *out;
} run;

static void push(char kind, uint64_t target)
{
	struct events *e = run.out;

	if (e->n >= e->limit) {
		fprintf(stderr, "decoders: more reports than instructions\n");
		abort();
	}
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 64;
		e->v = realloc(e->v, e->cap * sizeof *e->v);
		if (!e->v)
			abort();
	}
	e->v[e->n++] = (struct event){ kind, target };
}

/* What direct() says: whether the target "starts a symbol".  A function
   of the target only, so that every decode of one call gets the same. */
static bool answer_for(uint64_t t)
{
	switch (run.answer) {
	case 0:
		return false;
	case 1:
		return true;
	case 2:
		return (t * 0x9e3779b97f4a7c15u) >> 63;
	default:
		return (t & 3) == 0;
	}
}

static bool cb_direct(void *ctx, uint64_t target)
{
	const struct call_decode *d = ctx;

	if (d->addr_size == 4 && decs[run.isa].wraps && target > 0xffffffffu) {
		fprintf(stderr, "decoders: target 0x%llx past 32 bits\n",
		        (unsigned long long)target);
		abort();
	}
	push('d', target);
	return answer_for(target);
}

static void cb_indirect(void *ctx)
{
	(void)ctx;
	push('i', 0);
}

/* Whether target t is one the instruction at a (of a unit of n bytes)
   can reach. */
static bool target_ok(const struct call_decode *d, uint64_t a, uint64_t n,
                      uint64_t t)
{
	const struct dec_info *di = &decs[run.isa];
	uint64_t mask = di->wraps && d->addr_size == 4 ? 0xffffffffu
	                                               : UINT64_MAX;
	int64_t max = di->max + (run.isa == RISCV ? (int64_t)n : 0);
	uint64_t span = (uint64_t)max - (uint64_t)di->min;

	if (((t - a) & mask) % di->align != 0)
		return false;
	switch (run.isa) {
	case MIPS:
		return (t & 3) == 0 && ((t ^ a) >> 28) == 0;
	case PPC:
		/* bla: the sign-extended LI alone */
		if ((t & 3) == 0 &&
		    ((t + (uint64_t)P2(25)) & mask) < (uint64_t)P2(26))
			return true;
		break;
	default:
		break;
	}
	return span >= mask ||
	       ((t - a - (uint64_t)di->min) & mask) <= span;
}

/* Whether the unit [a, a + n) surely holds a call that must be reported:
   the plainest encodings, on the instruction sets that have them (x86
   call rel32, AArch64 B/BL, SPARC's top bits as GNU tests them, s390
   BRAS/BRASL %r14), whole inside the text. */
static bool sure_call(const struct call_decode *d, uint64_t a, uint64_t n)
{
	uint64_t off = a - d->vma, left = d->size - off;
	const unsigned char *p = d->text + off;
	uint32_t w = 0;

	for (int i = 0; i < 4 && (uint64_t)i < left; i++)
		w |= (uint32_t)p[i] << (d->big_endian ? 24 - 8 * i : 8 * i);
	switch (run.isa) {
	case X86:
		return left >= 5 && p[0] == 0xe8;
	case AARCH64:
		return left >= 4 && (w & 0x7c000000u) == 0x14000000u;
	case SPARC:
		return left >= 4 && (w >> 30) != 0;
	case S390:
		return (n == 6 && p[0] == 0xc0 && p[1] == 0xe5) ||
		       (n == 4 && p[0] == 0xa7 && p[1] == 0xe5);
	default:
		return false;
	}
}

/* Decodes the unit [a, a + n) alone, checks what it reports and appends
   it to *all. */
static void unit(const struct call_decode *d, uint64_t a, uint64_t n,
                 struct events *all)
{
	static struct events one;

	one.n = 0;
	one.limit = 2;
	run.out = &one;
	decs[run.isa].decode(d, a, a + n);
	size_t ndirect = 0;

	for (size_t i = 0; i < one.n; i++) {
		const struct event *e = &one.v[i];

		if (e->kind != 'd')
			continue;
		/* PowerPC's second try: the function whose global entry
		   point the first target may be past. */
		bool retry = run.isa == PPC && i == 1 && one.v[0].kind == 'd' &&
		             e->target == one.v[0].target - 8 &&
		             !answer_for(one.v[0].target);

		if (!retry && !target_ok(d, a, n, e->target)) {
			fprintf(stderr, "decoders: 0x%llx cannot reach 0x%llx\n",
			        (unsigned long long)a,
			        (unsigned long long)e->target);
			abort();
		}
		ndirect += !retry;
	}
	if (one.n > 1 && !(run.isa == PPC && one.n == 2 && ndirect == 1)) {
		fprintf(stderr, "decoders: %zu reports from one instruction at "
		        "0x%llx\n", one.n, (unsigned long long)a);
		abort();
	}
	if (one.n == 0 && sure_call(d, a, n)) {
		fprintf(stderr, "decoders: the call at 0x%llx is not reported\n",
		        (unsigned long long)a);
		abort();
	}
	run.out = all;
	for (size_t i = 0; i < one.n; i++)
		push(one.v[i].kind, one.v[i].target);
}

/* Lengths from the first parcel(s), per the architecture manuals. */
static uint64_t thumb_len(const struct call_decode *d, uint64_t a)
{
	const unsigned char *p = d->text + (a - d->vma);
	unsigned top = d->big_endian ? p[0] : p[1];

	/* 0b11101, 0b11110, 0b11111 in bits 15-11: a 32-bit instruction */
	return (top >> 3) >= 0x1d ? 4 : 2;
}

static uint64_t riscv_len(const struct call_decode *d, uint64_t a)
{
	unsigned b = d->text[a - d->vma];

	if ((b & 0x03) != 0x03)
		return 2;
	if ((b & 0x1c) != 0x1c)
		return 4;
	if ((b & 0x3f) == 0x1f)
		return 6;
	if ((b & 0x7f) == 0x3f)
		return 8;
	return 2;                    /* reserved: stepped over by parcels */
}

static bool riscv_is_auipc(const struct call_decode *d, uint64_t a,
                           uint64_t n)
{
	return n == 4 && (d->text[a - d->vma] & 0x7f) == 0x17;
}

static uint64_t s390_len(const struct call_decode *d, uint64_t a)
{
	static const uint64_t len[4] = { 2, 4, 4, 6 };

	return len[d->text[a - d->vma] >> 6];
}

/* Walks the halfword-aligned instructions of [a, end) (addresses) and
   decodes each one (RISC-V: each run of AUIPCs with the instruction after
   it, whose JALR may use them) alone. */
static void walk16(const struct call_decode *d, uint64_t a, uint64_t end,
                   struct events *all)
{
	uint64_t start = a = (a + 1) & ~(uint64_t)1;

	while (a < end && end - a >= 2) {
		uint64_t n = run.isa == RISCV ? riscv_len(d, a) :
		             run.isa == S390 ? s390_len(d, a) : thumb_len(d, a);

		if (end - a < n)
			break;
		a += n;
		if (run.isa == RISCV && riscv_is_auipc(d, a - n, n))
			continue;
		unit(d, start, a - start, all);
		start = a;
	}
	if (start < a)
		unit(d, start, a - start, all);
}

/* ARM: the code kind at a, from the last mapping symbol at or before it
   (or the entry point's bit 0), and where the next one starts. */
static char arm_kind(const struct call_decode *d, uint64_t a, uint64_t *next)
{
	size_t i = 0;

	while (i < d->nmarks && d->marks[i].addr <= a)
		i++;
	*next = i < d->nmarks ? d->marks[i].addr : UINT64_MAX;
	if (i == 0)
		return (d->entry & 1) ? 't' : 'a';
	return d->marks[i - 1].kind;
}

/* The instructions of [lo, hi) inside the text, each decoded alone. */
static void expected(const struct call_decode *d, uint64_t lo, uint64_t hi,
                     struct events *all)
{
	/* Offsets into the text (hi - vma, at most UINT64_MAX - vma, keeps
	   vma + chi from wrapping when the text ends at 2^64). */
	uint64_t clo = lo < d->vma ? 0 : lo - d->vma;
	uint64_t chi = hi < d->vma ? 0 : hi - d->vma;

	if (chi > d->size)
		chi = d->size;
	if (clo >= chi)
		return;
	uint64_t alo = d->vma + clo, ahi = d->vma + chi;

	switch (run.isa) {
	case X86:
	case VAX:
		/* every byte; x86 needs the 5 bytes of call rel32 */
		for (uint64_t o = clo; o < chi; o++)
			if (run.isa == VAX || d->size - o >= 5)
				unit(d, d->vma + o, 1, all);
		break;
	case AARCH64:
	case MIPS:
		/* words from lo on, whether or not lo is aligned */
		for (uint64_t o = clo + ((lo - alo) & 3); o < chi; o += 4)
			if (d->size - o >= 4)
				unit(d, d->vma + o, 1, all);
		break;
	case ALPHA:
	case SPARC:
	case PPC:
		/* aligned words; PowerPC's must end inside the range */
		for (uint64_t o = clo + ((0 - alo) & 3); o < chi; o += 4) {
			uint64_t a = d->vma + o;

			if (run.isa == PPC ? chi - o >= 4 : d->size - o >= 4)
				unit(d, a, run.isa == PPC ? 4 : 1, all);
		}
		break;
	case RISCV:
	case S390:
		walk16(d, alo, ahi, all);
		break;
	case ARM:
		for (uint64_t a = alo, next; a < ahi; a = next) {
			char kind = arm_kind(d, a, &next);
			uint64_t end = next < ahi ? next : ahi;

			if (kind == 'a') {
				for (uint64_t w = a + ((0 - a) & 3);
				     w >= a && w < end && end - w >= 4; w += 4)
					unit(d, w, 4, all);
			} else if (kind == 't') {
				walk16(d, a, end, all);
			}
		}
		break;
	default:
		abort();
	}
}

static int mark_cmp(const void *x, const void *y)
{
	const struct code_mark *a = x, *b = y;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

static void fail_events(const char *what, const struct events *whole,
                        const struct events *units)
{
	fprintf(stderr, "decoders: %s (whole range: %zu reports, single "
	        "instructions: %zu)\n", what, whole->n, units->n);
	for (size_t i = 0; i < whole->n || i < units->n; i++)
		fprintf(stderr, "  %c 0x%-16llx  %c 0x%llx\n",
		        i < whole->n ? whole->v[i].kind : ' ',
		        i < whole->n ? (unsigned long long)whole->v[i].target : 0,
		        i < units->n ? units->v[i].kind : ' ',
		        i < units->n ? (unsigned long long)units->v[i].target : 0);
	abort();
}

static void fuzz_decoder(enum isa isa, struct input *in)
{
	unsigned flags = (unsigned)take(in, 1);
	uint64_t raw = take(in, 8);
	int64_t lo_off = (int16_t)take(in, 2), hi_off = (int16_t)take(in, 2);
	unsigned range = (unsigned)take(in, 1);
	size_t nmarks = range >> 4;
	struct code_mark marks[15];
	int addr_size = (flags & 2) ? 4 : 8;
	uint64_t top = addr_size == 4 ? 0xffffffffu : UINT64_MAX;

	for (size_t i = 0; i < nmarks; i++) {
		marks[i].addr = (uint64_t)(int16_t)take(in, 2);
		marks[i].kind = "atdx"[take(in, 1) & 3];
	}
	/* The text: a copy of exactly its size. */
	size_t size = in->n;
	unsigned char *text = malloc(size ? size : 1);

	if (!text)
		abort();
	if (size)
		memcpy(text, in->p, size);

	/* Where it lies: the whole text inside the address space. */
	uint64_t vma;

	switch (flags >> 5) {
	case 0: vma = 0x10000; break;
	case 1: vma = 0; break;
	case 2: vma = raw & 0xffffffffu; break;
	case 3: vma = raw; break;
	case 4: vma = top - size + 1 - (raw & 0xff); break;   /* at the top */
	case 5: vma = 0x400000 + (raw & 0xffff); break;
	case 6: vma = (top >> 1) + 1 - (raw & 0xffff); break; /* sign boundary */
	default: vma = raw & 0xfffffffcu; break;
	}
	vma &= top;
	if (size && vma > top - (size - 1))
		vma = top - (size - 1);
	for (size_t i = 0; i < nmarks; i++)
		marks[i].addr = (vma + marks[i].addr) & top;
	if (nmarks)
		qsort(marks, nmarks, sizeof *marks, mark_cmp);

	struct call_decode d = {
		.text = text, .vma = vma, .size = size,
		.big_endian = flags & 1, .addr_size = addr_size,
		.entry = vma | ((flags >> 2) & 1),
		.marks = marks, .nmarks = nmarks,
		.direct = cb_direct, .indirect = cb_indirect,
	};
	d.ctx = &d;
	if (range & 4)
		lo_off *= 65536;
	if (range & 8)
		hi_off *= 65536;
	uint64_t lo = (range & 1) ? 0 : vma + (uint64_t)lo_off;
	uint64_t hi = (range & 2) ? UINT64_MAX : vma + size + (uint64_t)hi_off;

	run.isa = isa;
	run.answer = (flags >> 3) & 3;

	/* Each instruction alone, then the whole range, which may report
	   no more. */
	static struct events units, whole;

	units.n = 0;
	units.limit = SIZE_MAX;
	expected(&d, lo, hi, &units);
	whole.n = 0;
	whole.limit = units.n;
	run.out = &whole;
	decs[isa].decode(&d, lo, hi);

	if (isa != VAX) {
		bool same = whole.n == units.n;

		for (size_t i = 0; same && i < whole.n; i++)
			same = whole.v[i].kind == units.v[i].kind &&
			       whole.v[i].target == units.v[i].target;
		if (!same)
			fail_events("reports differ", &whole, &units);
	} else {
		size_t k = 0;

		for (size_t i = 0; i < units.n && k < whole.n; i++)
			k += units.v[i].kind == whole.v[k].kind &&
			     units.v[i].target == whole.v[k].target;
		if (k != whole.n)
			fail_events("not a subsequence", &whole, &units);
	}
	if (debug()) {
		fprintf(stderr, "decoders: %s vma 0x%llx size %zu [0x%llx, 0x%llx)"
		        " %zu marks: %zu reports", decs[isa].name,
		        (unsigned long long)vma, size, (unsigned long long)lo,
		        (unsigned long long)hi, nmarks, whole.n);
		for (size_t i = 0; i < whole.n && i < 16; i++)
			fprintf(stderr, " %c%llx", whole.v[i].kind,
			        (unsigned long long)whole.v[i].target);
		fprintf(stderr, "\n");
	}
	free(text);
}

/* ---- the riscv64 call-site reader ---- */

#define FAKE_A0 ((uintptr_t)0xa0a0a0a0u)
#define FAKE_FRAME ((uintptr_t)0xf4f4f4f4u)

enum rv_answer { RV_A0, RV_FRAME, RV_NONE, RV_OUTSIDE };
static const char *const rv_names[] = { "a0", "frame", "unknown", "outside" };

struct rv_call {
	const uint8_t *code;         /* all the code */
	size_t len;
	unsigned s0_kind;
	uintptr_t stack[4];          /* [1] the return address slot */
};

static uint32_t rv_half(const uint8_t *c, size_t o)
{
	return (uint32_t)c[o] | (uint32_t)c[o + 1] << 8;
}

static uint32_t rv_word(const uint8_t *c, size_t o)
{
	return rv_half(c, o) | rv_half(c, o + 2) << 16;
}

/* The hook's answer for the return address lo + off. */
static enum rv_answer rv_hook(struct rv_call *rc, uintptr_t lo, size_t off)
{
	uintptr_t sp = (uintptr_t)&rc->stack[0], s0;

	switch (rc->s0_kind) {
	case 0: s0 = (uintptr_t)&rc->stack[2]; break;
	case 1: s0 = sp; break;
	case 2: s0 = (uintptr_t)&rc->stack[2] + 4; break;
	default: s0 = sp - 16; break;
	}
	memset(&rt, 0, sizeof rt);
	__gmon_riscv64_mcount(FAKE_A0, lo + off, s0, sp);
	if (rt.recorded + rt.dropped != 1 || rt.selfpc != lo + off)
		abort();
	if (rt.dropped)
		return RV_NONE;
	if (rt.frompc == 0)
		return RV_OUTSIDE;
	if (rt.frompc == FAKE_A0)
		return RV_A0;
	if (rt.frompc == FAKE_FRAME && rc->s0_kind == 0)
		return RV_FRAME;
	abort();                     /* read from somewhere else */
}

/* An answer other than "unknown" needs a call ending at off and, before
   it, the marker the answer goes by (RISC-V unprivileged ISA encodings:
   jal ra; auipc ra + jalr ra, 0(ra); c.mv a0, ra / addi a0, ra, 0; addi
   s0, sp, N / c.addi4spn s0, sp, N). */
static void rv_check(const uint8_t *c, size_t off, enum rv_answer ans)
{
	if (ans != RV_A0 && ans != RV_FRAME)
		return;
	size_t call;

	if (off >= 8 && (rv_word(c, off - 4) & 0xfff) == 0x0ef)
		call = off - 4;
	else if (off >= 8 && (rv_word(c, off - 4) & 0xfffff) == 0x080e7 &&
	         (rv_word(c, off - 8) & 0xfff) == 0x097)
		call = off - 8;
	else
		abort();
	size_t from = call > SCAN_BYTES ? call - SCAN_BYTES : 0;

	for (size_t o = from; o + 2 <= call; o += 2) {
		uint32_t h = rv_half(c, o);
		uint32_t w = o + 4 <= call ? rv_word(c, o) : 0;

		if (ans == RV_A0 && (h == 0x8506 || w == 0x00008513))
			return;
		if (ans == RV_FRAME && ((w & 0xfffff) == 0x10413 ||
		                        ((h & 0xe01f) == 0 && (h & 0x1fe0))))
			return;
	}
	abort();
}

/* The site at off, on a copy of only the bytes before it. */
static enum rv_answer rv_alone(struct rv_call *rc, size_t off, bool outside,
                               unsigned extra)
{
	uint8_t *buf = malloc(off ? off : 1);

	if (!buf)
		abort();
	memcpy(buf, rc->code, off);
	memset(site_cache, 0, sizeof site_cache);
	gmon_p.lowpc = (uintptr_t)buf;
	gmon_p.textsize = outside ? off : off + 1 + extra;
	enum rv_answer first = rv_hook(rc, (uintptr_t)buf, off);
	enum rv_answer again = rv_hook(rc, (uintptr_t)buf, off);

	free(buf);
	if (first != again || (outside != (first == RV_OUTSIDE)))
		abort();
	rv_check(rc->code, off, first);
	return first;
}

static void fuzz_rvsites(struct input *in)
{
	unsigned flags = (unsigned)take(in, 1);
	unsigned va = (unsigned)take(in, 2), vb = (unsigned)take(in, 2);
	unsigned extra = (unsigned)take(in, 1);
	struct rv_call rc = {
		.code = in->p, .len = in->n, .s0_kind = flags & 3,
		.stack = { 0, FAKE_FRAME, 0, 0 },
	};
	bool outside = flags & 4;
	size_t sites = rc.len / 2 + 1;
	size_t off[2] = { 2 * (va % sites), 2 * (vb % sites) };
	enum rv_answer alone[2];

	for (int i = 0; i < 2; i++)
		alone[i] = rv_alone(&rc, off[i], outside, extra);
	if (debug())
		fprintf(stderr, "decoders: rvsites %zu bytes, s0 %u: site 0x%zx %s,"
		        " site 0x%zx %s\n", rc.len, rc.s0_kind, off[0],
		        rv_names[alone[0]], off[1], rv_names[alone[1]]);

	/* Both sites in one text, through one cache. */
	uint8_t *buf = malloc(rc.len ? rc.len : 1);

	if (!buf)
		abort();
	if (rc.len)
		memcpy(buf, rc.code, rc.len);
	memset(site_cache, 0, sizeof site_cache);
	gmon_p.lowpc = (uintptr_t)buf;
	gmon_p.textsize = outside ? 0 : rc.len + 1 + extra;
	for (int k = 0; k < 4; k++)
		if (rv_hook(&rc, (uintptr_t)buf, off[k & 1]) != alone[k & 1])
			abort();
	free(buf);
}

/* ---- the call that ends at a return address (decode/call_site.c) ---- */

enum site_isa { S_X86, S_AARCH64, S_ARM, S_RISCV, S_PPC, S_S390, NSITE };

static const struct {
	const char *name;
	call_site_fn *read;
} site_readers[NSITE] = {
	[S_X86] = { "x86", call_site_x86 },
	[S_AARCH64] = { "aarch64", call_site_aarch64 },
	[S_ARM] = { "arm", call_site_arm },
	[S_RISCV] = { "riscv", call_site_riscv },
	[S_PPC] = { "ppc", call_site_ppc },
	[S_S390] = { "s390", call_site_s390 },
};

/* The calls the manuals allow to end at pc: each answer the reader may
   give, and whether one of them is a plain call it must find. */
struct site_ok {
	struct call_site v[16];
	size_t n;
	bool must;
};

static void allow(struct site_ok *ok, enum call_site_kind kind, uint64_t to,
                  bool plain)
{
	if (ok->n < sizeof ok->v / sizeof ok->v[0])
		ok->v[ok->n++] = (struct call_site){ kind, to };
	ok->must |= plain;
}

/* The n bytes (at most 8) at address a of d, in order `be`; false when
   they are not all in the text. */
static bool site_bytes(const struct call_decode *d, uint64_t a, size_t n,
                       bool be, uint64_t *v)
{
	if (a < d->vma || a - d->vma > d->size || d->size - (a - d->vma) < n)
		return false;
	*v = 0;
	for (size_t i = 0; i < n; i++)
		*v = *v << 8 | d->text[a - d->vma + (be ? i : n - 1 - i)];
	return true;
}

static int64_t sx(uint64_t v, unsigned bits)
{
	uint64_t m = (uint64_t)1 << (bits - 1);

	v &= (m << 1) - 1;
	return (int64_t)((v ^ m) - m);
}

/* x86 (Intel SDM vol. 2: CALL E8 cd; CALL FF /2 with ModRM, SIB and
   displacement; one REX or segment prefix before FF).  Register forms:
   `to` is the reader's own name for the operand, not checked. */
static void site_ok_x86(const struct call_decode *d, uint64_t pc,
                        uint64_t mask, struct site_ok *ok)
{
	uint64_t v;

	if (pc >= 5 && site_bytes(d, pc - 5, 1, false, &v) && v == 0xe8 &&
	    site_bytes(d, pc - 4, 4, false, &v))
		allow(ok, CALL_DIRECT, (pc + (uint64_t)sx(v, 32)) & mask, true);
	/* (by length: b + 2 <= pc would wrap for a pc near 2^64) */
	for (uint64_t back = 2; back <= 9 && back <= pc; back++) {
		uint64_t b = pc - back, op, modrm, sib = 0;

		if (!site_bytes(d, b, 1, false, &op) || op != 0xff ||
		    !site_bytes(d, b + 1, 1, false, &modrm) ||
		    ((modrm >> 3) & 7) != 2)
			continue;
		unsigned mod = modrm >> 6, rm = modrm & 7;
		uint64_t len = 2;

		if (mod != 3 && rm == 4) {
			if (!site_bytes(d, b + 2, 1, false, &sib))
				continue;
			len++;
		}
		if (mod == 1)
			len += 1;
		else if (mod == 2 || (mod == 0 && rm == 5) ||
		         (mod == 0 && rm == 4 && (sib & 7) == 5))
			len += 4;
		if (b + len != pc)
			continue;
		if (mod == 3 || !((mod == 0 && rm == 5) || mod == 2)) {
			allow(ok, CALL_REGISTER, UINT64_MAX, false);
			continue;
		}
		site_bytes(d, pc - 4, 4, false, &v);
		bool rip = mod == 0 && d->addr_size == 8;
		allow(ok, CALL_MEMORY, ((rip ? pc : 0) + (uint64_t)sx(v, 32)) & mask,
		      false);
	}
}

static void site_ok_aarch64(const struct call_decode *d, uint64_t pc,
                            uint64_t mask, struct site_ok *ok)
{
	uint64_t w;

	if (pc < 4 || !site_bytes(d, pc - 4, 4, d->big_endian, &w))
		return;
	if ((w >> 26) == 0x25)                          /* BL imm26 */
		allow(ok, CALL_DIRECT, (pc - 4 + (uint64_t)sx(w, 26) * 4) & mask,
		      true);
	if ((w & 0xfffffc1f) == 0xd63f0000)             /* BLR Xn */
		allow(ok, CALL_REGISTER, (w >> 5) & 31, false);
}

/* ARM ARM: Thumb BL / BLX (immediate, encoding T1/T2), BLX (register)
   T1; A32 BL (cond != 1111), BLX (immediate), BLX (register). */
static void site_ok_arm(const struct call_decode *d, uint64_t pc,
                        uint64_t mask, struct site_ok *ok)
{
	uint64_t hi, lo, w, h;

	pc &= ~(uint64_t)1;
	if (pc >= 4 && site_bytes(d, pc - 4, 2, d->big_endian, &hi) &&
	    site_bytes(d, pc - 2, 2, d->big_endian, &lo) &&
	    (hi >> 11) == 0x1e && (lo >> 14) == 3 && ((lo >> 12) & 1 ||
	                                              !(lo & 1))) {
		uint64_t s = (hi >> 10) & 1, j1 = (lo >> 13) & 1,
		         j2 = (lo >> 11) & 1;
		uint64_t imm = s << 24 | (!(j1 ^ s)) << 23 | (!(j2 ^ s)) << 22 |
		               (hi & 0x3ff) << 12 | (lo & 0x7ff) << 1;
		bool bl = (lo >> 12) & 1;
		uint64_t base = bl ? pc : pc & ~(uint64_t)3;

		allow(ok, CALL_DIRECT, (base + (uint64_t)sx(imm, 25)) & mask, bl);
	}
	if (pc >= 4 && site_bytes(d, pc - 4, 4, d->big_endian, &w)) {
		if ((w >> 28) != 15 && ((w >> 24) & 15) == 11)
			allow(ok, CALL_DIRECT, (pc + 4 + (uint64_t)sx(w, 24) * 4) &
			      mask, true);
		if ((w >> 25) == 0x7d)
			allow(ok, CALL_DIRECT, (pc + 4 + (uint64_t)sx(w, 24) * 4 +
			                        ((w >> 24) & 1) * 2) & mask, false);
		if ((w >> 28) != 15 && (w & 0x0ffffff0) == 0x012fff30)
			allow(ok, CALL_REGISTER, w & 15, false);
	}
	if (pc >= 2 && site_bytes(d, pc - 2, 2, d->big_endian, &h) &&
	    (h >> 7) == (0x4780 >> 7) && (h & 7) == 0)
		allow(ok, CALL_REGISTER, (h >> 3) & 15, false);
}

/* RISC-V unprivileged ISA: JAL ra; AUIPC rX + JALR ra, lo(rX); JALR ra;
   C.JALR rs1 (rs1 != 0).  Instructions are little-endian. */
static void site_ok_riscv(const struct call_decode *d, uint64_t pc,
                          uint64_t mask, struct site_ok *ok)
{
	uint64_t w, u, h;

	if (pc >= 4 && site_bytes(d, pc - 4, 4, false, &w)) {
		if ((w & 0x7f) == 0x6f && ((w >> 7) & 31) == 1) {
			uint64_t imm = (w >> 31) << 20 | ((w >> 12) & 0xff) << 12 |
			               ((w >> 20) & 1) << 11 |
			               ((w >> 21) & 0x3ff) << 1;
			allow(ok, CALL_DIRECT, (pc - 4 + (uint64_t)sx(imm, 21)) & mask,
			      true);
		}
		if ((w & 0x7f) == 0x67 && ((w >> 12) & 7) == 0 &&
		    ((w >> 7) & 31) == 1) {
			uint64_t rs1 = (w >> 15) & 31;

			allow(ok, CALL_REGISTER, rs1, false);
			if (pc >= 8 && site_bytes(d, pc - 8, 4, false, &u) &&
			    (u & 0x7f) == 0x17 && ((u >> 7) & 31) == rs1)
				allow(ok, CALL_DIRECT, (pc - 8 +
				      (uint64_t)sx(u & 0xfffff000, 32) +
				      (uint64_t)sx(w >> 20, 12)) & mask, false);
		}
	}
	if (pc >= 2 && site_bytes(d, pc - 2, 2, false, &h) &&
	    (h & 0xf07f) == 0x9002 && ((h >> 7) & 31) != 0)
		allow(ok, CALL_REGISTER, (h >> 7) & 31, false);
}

/* Power ISA: bl (AA 0, LK 1), bctrl, blrl. */
static void site_ok_ppc(const struct call_decode *d, uint64_t pc,
                        uint64_t mask, struct site_ok *ok)
{
	uint64_t w;

	if (pc < 4 || !site_bytes(d, pc - 4, 4, d->big_endian, &w))
		return;
	if ((w >> 26) == 18 && (w & 3) == 1)
		allow(ok, CALL_DIRECT, (pc - 4 + (uint64_t)sx(w & 0x03fffffc, 26)) &
		      mask, true);
	if (w == 0x4e800421 || w == 0x4e800021)
		allow(ok, CALL_REGISTER, w, false);
}

/* z/Architecture Principles of Operation: BRASL (C0 r5), BRAS (A7 r5),
   BASR (0D): a branch only when R2 is not 0. */
static void site_ok_s390(const struct call_decode *d, uint64_t pc,
                         uint64_t mask, struct site_ok *ok)
{
	uint64_t op, v;

	if (pc >= 6 && site_bytes(d, pc - 6, 2, true, &op) &&
	    (op & 0xff0f) == 0xc005 && site_bytes(d, pc - 4, 4, true, &v))
		allow(ok, CALL_DIRECT, (pc - 6 + 2 * (uint64_t)sx(v, 32)) & mask,
		      op == 0xc0e5);
	if (pc >= 4 && site_bytes(d, pc - 4, 2, true, &op) &&
	    (op & 0xff0f) == 0xa705 && site_bytes(d, pc - 2, 2, true, &v))
		allow(ok, CALL_DIRECT, (pc - 4 + 2 * (uint64_t)sx(v, 16)) & mask,
		      op == 0xa7e5);
	if (pc >= 2 && site_bytes(d, pc - 2, 2, true, &op) &&
	    (op >> 8) == 0x0d && (op & 15) != 0)
		allow(ok, CALL_REGISTER, op & 15, false);
}

static void site_ok(enum site_isa isa, const struct call_decode *d,
                    uint64_t pc, struct site_ok *ok)
{
	uint64_t mask = d->addr_size == 4 ? 0xffffffffu : UINT64_MAX;

	ok->n = 0;
	ok->must = false;
	switch (isa) {
	case S_X86: site_ok_x86(d, pc, mask, ok); break;
	case S_AARCH64: site_ok_aarch64(d, pc, mask, ok); break;
	case S_ARM: site_ok_arm(d, pc, mask, ok); break;
	case S_RISCV: site_ok_riscv(d, pc, mask, ok); break;
	case S_PPC: site_ok_ppc(d, pc, mask, ok); break;
	default: site_ok_s390(d, pc, mask, ok); break;
	}
}

struct site_answer {
	bool found;
	struct call_site s;
};

static struct site_answer site_read(enum site_isa isa,
                                    const struct call_decode *d, uint64_t pc)
{
	struct site_answer a = { false, { CALL_DIRECT, 0 } };

	a.found = site_readers[isa].read(d, pc, &a.s);
	if (!a.found)
		a.s = (struct call_site){ CALL_DIRECT, 0 };
	return a;
}

static bool same_answer(const struct site_answer *a,
                        const struct site_answer *b)
{
	return a->found == b->found &&
	       (!a->found || (a->s.kind == b->s.kind && a->s.to == b->s.to));
}

static void site_fail(const char *why, enum site_isa isa, uint64_t pc,
                      const struct site_answer *a)
{
	fprintf(stderr, "decoders: call site (%s) at 0x%llx: %s (found %d, "
	        "kind %d, to 0x%llx)\n", site_readers[isa].name,
	        (unsigned long long)pc, why, a->found, (int)a->s.kind,
	        (unsigned long long)a->s.to);
	abort();
}

/*
 * Selector 11.  Header (12 bytes): the reader (modulo 6: x86, aarch64,
 * arm, riscv, ppc, s390); flags (bit 0 big_endian, bit 1 addr_size 4,
 * bits 2-4 how the text address is made from raw, as for the decoders,
 * bits 5-6 where the return address lies: 0 and 1 at `at` % (size + 1)
 * bytes into the text, 2 `at` bytes before it, 3 `at` bytes past its
 * end); raw (8 bytes); at (2 bytes).  The rest is the text, an
 * exact-size copy.  The reader runs twice on the text and once on a
 * copy of only the bytes before the return address (when it lies in the
 * text): all three answers must be the same.  An answer must be a call
 * the manual allows to end there (harness-side decoding above), and the
 * plainest calls (x86 E8, AArch64 BL, Thumb and A32 BL, JAL ra, bl,
 * BRASL/BRAS %r14) must be found.
 */
static void fuzz_call_site(struct input *in)
{
	enum site_isa isa = (enum site_isa)(take(in, 1) % NSITE);
	unsigned flags = (unsigned)take(in, 1);
	uint64_t raw = take(in, 8);
	uint64_t at = take(in, 2);
	int addr_size = (flags & 2) ? 4 : 8;
	uint64_t top = addr_size == 4 ? 0xffffffffu : UINT64_MAX;
	size_t size = in->n;
	unsigned char *text = malloc(size ? size : 1);

	if (!text)
		abort();
	if (size)
		memcpy(text, in->p, size);
	uint64_t vma;

	switch ((flags >> 2) & 7) {
	case 0: vma = 0x10000; break;
	case 1: vma = 0; break;
	case 2: vma = raw & 0xffffffffu; break;
	case 3: vma = raw; break;
	case 4: vma = top - size + 1 - (raw & 0xff); break;
	case 5: vma = 0x400000 + (raw & 0xffff); break;
	case 6: vma = (top >> 1) + 1 - (raw & 0xffff); break;
	default: vma = raw & 0xfffffffcu; break;
	}
	vma &= top;
	if (size && vma > top - (size - 1))
		vma = top - (size - 1);
	uint64_t pc;
	bool inside = false;

	switch ((flags >> 5) & 3) {
	case 2: pc = vma - at; break;
	case 3: pc = vma + size + at; break;
	default:
		pc = vma + at % (size + 1);
		inside = true;
		break;
	}
	struct call_decode d = {
		.text = text, .vma = vma, .size = size,
		.big_endian = flags & 1, .addr_size = addr_size,
		.entry = vma,
	};
	struct site_answer first = site_read(isa, &d, pc);
	struct site_answer again = site_read(isa, &d, pc);

	if (!same_answer(&first, &again))
		site_fail("a different answer the second time", isa, pc, &again);
	if (inside) {
		/* only the bytes before pc */
		size_t before = (size_t)(pc - vma);
		unsigned char *part = malloc(before ? before : 1);

		if (!part)
			abort();
		if (before)
			memcpy(part, text, before);
		struct call_decode p = d;

		p.text = part;
		p.size = before;
		struct site_answer cut = site_read(isa, &p, pc);

		free(part);
		if (!same_answer(&first, &cut))
			site_fail("another answer from the bytes before it alone",
			          isa, pc, &cut);
	}
	struct site_ok ok;

	site_ok(isa, &d, pc, &ok);
	if (first.found) {
		bool allowed = false;

		for (size_t i = 0; i < ok.n && !allowed; i++)
			allowed = ok.v[i].kind == first.s.kind &&
			          (ok.v[i].kind == CALL_REGISTER && isa == S_X86 ?
			           first.s.to < 256 : ok.v[i].to == first.s.to);
		if (!allowed)
			site_fail("not a call the manual allows there", isa, pc,
			          &first);
	} else if (ok.must) {
		site_fail("a plain call not found", isa, pc, &first);
	}
	if (debug())
		fprintf(stderr, "decoders: call site %s vma 0x%llx size %zu pc "
		        "0x%llx: %s kind %d to 0x%llx (%zu allowed)\n",
		        site_readers[isa].name, (unsigned long long)vma, size,
		        (unsigned long long)pc, first.found ? "found" : "none",
		        (int)first.s.kind, (unsigned long long)first.s.to, ok.n);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };

	if (size < 1)
		return 0;
	unsigned byte = (unsigned)take(&in, 1);
	unsigned which = byte % (NDEC + 1);

	/* 11 (which no committed input had as its selector, so that the
	   others keep their meaning): the call-site reader */
	if (byte == NDEC + 1)
		fuzz_call_site(&in);
	else if (which == NDEC)
		fuzz_rvsites(&in);
	else
		fuzz_decoder((enum isa)which, &in);
	return 0;
}
