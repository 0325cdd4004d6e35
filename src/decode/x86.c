/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * x86.c - -c call decoder for i386 and x86-64: direct `call rel32`.
 *
 * Without a full instruction-length decoder every byte is a possible
 * instruction start, as in GNU gprof; a false hit only counts when its
 * target lands exactly on a symbol, which cg_scan.c checks.
 */
#include "decode.h"

/* GNU 2.40 adds the displacement without sign extension, so it never
   finds backward calls; here the displacement is signed and every direct
   call is found. */
void decode_x86(const struct call_decode *d, uint64_t lo, uint64_t hi)
{
	/* Every byte of a range far outside the text would be visited. */
	if (!call_text_clip(d, &lo, &hi))
		return;
	for (uint64_t pc = lo; pc < hi; pc++) {
		if (!call_text_has(d, pc, 5) || d->text[pc - d->vma] != 0xe8)
			continue;
		int32_t rel = (int32_t)call_text_u32(d, pc + 1);
		uint64_t dest = pc + 5 + (uint64_t)(int64_t)rel;

		/* i386 addresses wrap at 4 GB. */
		if (d->addr_size == 4)
			dest &= 0xffffffffu;
		d->direct(d->ctx, dest);
	}
}
