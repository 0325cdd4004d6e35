/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_cfi.c - libFuzzer harness for libgmon's call-frame unwinder: the
 * .eh_frame_hdr and .eh_frame parser, the DW_CFA interpreter, the DWARF
 * expression evaluator (src/libgmon/unwind.c, unwstep.c) and the whole
 * walk of a
 * signal context with its sigreturn frames and frame-pointer fallback
 * (src/libgmon/unwalk.c), both included below, so that the code fuzzed
 * is the code the SIGPROF handler runs, memory checks and all.
 * x86-64 hosts only (the register set is the host's).
 *
 * Input (little-endian):
 *   u8  limit       frames to walk (1..64)
 *   u8  bit 0: also scan .eh_frame's entries in the data span as
 *       ehobjs.c does for an executable without .eh_frame_hdr
 *   u16 text_off, text_len   the object's text, inside the image
 *   u16 hdr_off              its .eh_frame_hdr, inside the image
 *   u16 data_off, data_len   the readable span holding the tables
 *   u16 stack_len            bytes of stack
 *   u64 regs[17]             DWARF order, rax .. r15, rip
 *   stack bytes, then the image (the rest)
 * Registers and stack words are tagged: bit 63 set means "the image's
 * address + the low 32 bits", bit 62 "the stack's address + the low 32
 * bits", so that seeds made from a real program (make-cfi-seeds.sh)
 * keep their meaning wherever the buffers land.  The image and the
 * stack are exact-size heap copies: any read outside them, which the
 * unwinder must never make, is an ASan report.  Besides the sanitizers:
 * at most `limit` frames, frame 0 the PC given, and the same frames
 * from a second walk without a cache of rows, and from a third with
 * the cache the first one filled.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "libgmon/unwind.c"
#include "libgmon/unwstep.c"
#include "libgmon/unwalk.c"

#define HEAD 16
#define NREGS 17

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static uintptr_t untag(uint64_t v, uintptr_t image, uintptr_t stack)
{
	if (v >> 63)
		return image + (uint32_t)v;
	if (v >> 62 & 1)
		return stack + (uint32_t)v;
	return (uintptr_t)v;
}

/* A span [off, off + len) of the image, clamped to it. */
static void span(uintptr_t image, size_t size, uint64_t off, uint64_t len,
                 uintptr_t *lo, uintptr_t *hi)
{
	if (off > size)
		off = size;
	if (len > size - off)
		len = size - off;
	*lo = image + off;
	*hi = *lo + len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#if defined(__x86_64__)
	size_t fixed = HEAD + NREGS * 8;
	if (size < fixed)
		return 0;
	unsigned limit = data[0] % 64 + 1;
	size_t stack_len = le(data + 12, 2) & ~(size_t)7;
	if (stack_len > size - fixed)
		stack_len = (size - fixed) & ~(size_t)7;
	size_t image_len = size - fixed - stack_len;
	uint8_t *stack = malloc(stack_len ? stack_len : 1);
	uint8_t *image = malloc(image_len ? image_len : 1);
	memcpy(image, data + fixed + stack_len, image_len);
	uintptr_t im = (uintptr_t)image, st = (uintptr_t)stack;
	for (size_t i = 0; i + 8 <= stack_len; i += 8) {
		uintptr_t w = untag(le(data + fixed + i, 8), im, st);
		memcpy(stack + i, &w, 8);
	}
	struct gmon_uw_obj o = { 0 };
	span(im, image_len, le(data + 2, 2), le(data + 4, 2), &o.text_lo, &o.text_hi);
	span(im, image_len, le(data + 8, 2), le(data + 10, 2), &o.data_lo, &o.data_hi);
	o.hdr = im + le(data + 6, 2);
	gmon_uw_prepare(&o);
	if (data[1] & 1) {
		uintptr_t next, pc;
		for (uintptr_t a = o.data_lo; a < o.data_hi; a = next)
			if (gmon_uw_entry(&o, a, &next, &pc) < 0 || next <= a)
				break;
	}
	ucontext_t uc;
	memset(&uc, 0, sizeof uc);
	for (unsigned i = 0; i < NREGS; i++)
		uc.uc_mcontext.gregs[uc_index[i]] =
			(greg_t)untag(le(data + HEAD + 8 * i, 8), im, st);
	uintptr_t f[64], g[64], h[64];
	unsigned flags, flags2, flags3;
	static struct gmon_uw_cache cache;
	memset(&cache, 0, sizeof cache);
	uint32_t d = gmon_uw_walk(&uc, st, st + stack_len, &o, 1, &cache, f, limit, &flags);
	uint32_t d2 = gmon_uw_walk(&uc, st, st + stack_len, &o, 1, NULL, g, limit, &flags2);
	uint32_t d3 = gmon_uw_walk(&uc, st, st + stack_len, &o, 1, &cache, h, limit, &flags3);
	if (getenv("FUZZ_CFI_DEBUG") != NULL) {
		fprintf(stderr, "cfi: %u frames, flags %u:", d, flags);
		for (uint32_t i = 0; i < d; i++)
			fprintf(stderr, " %#lx", (unsigned long)(f[i] - (f[i] - im < image_len ? im : 0)));
		fprintf(stderr, "\n");
	}
	if (d < 1 || d > limit || f[0] != (uintptr_t)uc.uc_mcontext.gregs[REG_RIP] ||
	    d != d2 || flags != flags2 || memcmp(f, g, d * sizeof f[0]) != 0 ||
	    d != d3 || flags != flags3 || memcmp(f, h, d * sizeof f[0]) != 0)
		abort();
	free(stack);
	free(image);
#else
	(void)data, (void)size;
#endif
	return 0;
}
