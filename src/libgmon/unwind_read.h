/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * unwind_read.h - the checked reading that unwind.c (the tables) and
 * unwstep.c (the expressions) share: a cursor over a range the caller
 * vouched for, and the fixed-size and LEB128 reads that never go past
 * its end (a read that would sets `bad` and yields 0).
 */
#ifndef GMON_UNWIND_READ_H
#define GMON_UNWIND_READ_H

#include <stdint.h>

/* A cursor over [p, end); bad once a read went past end. */
struct cur {
	uintptr_t p, end;
	int bad;
};

static inline uint64_t get_u(struct cur *c, unsigned n)
{
	if (c->bad || c->p > c->end || c->end - c->p < n) {
		c->bad = 1;
		return 0;
	}
	/* Fixed sizes, so that each read is one load (little-endian
	   targets only, as all three are). */
	const void *b = (const void *)c->p;
	uint64_t v;
	uint32_t v4;
	uint16_t v2;
	switch (n) {
	case 1: v = *(const uint8_t *)b; break;
	case 2: __builtin_memcpy(&v2, b, 2); v = v2; break;
	case 4: __builtin_memcpy(&v4, b, 4); v = v4; break;
	default: __builtin_memcpy(&v, b, 8); break;
	}
	c->p += n;
	return v;
}

static inline uint64_t get_uleb(struct cur *c)
{
	uint64_t v = 0;
	for (unsigned shift = 0; shift < 70; shift += 7) {
		uint64_t b = get_u(c, 1);
		if (shift < 64)
			v |= (b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	c->bad = 1;
	return 0;
}

static inline int64_t get_sleb(struct cur *c)
{
	uint64_t v = 0;
	for (unsigned shift = 0; shift < 70; shift += 7) {
		uint64_t b = get_u(c, 1);
		if (shift < 64)
			v |= (b & 0x7f) << shift;
		if (!(b & 0x80)) {
			if ((b & 0x40) && shift + 7 < 64)
				v |= ~(uint64_t)0 << (shift + 7);
			return (int64_t)v;
		}
	}
	c->bad = 1;
	return 0;
}

#endif
