/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offstk.c - the call stacks of threads blocked in the kernel
 * (GMON_CLOCK=wall with GMON_STACKS=1): one table per thread, apart from
 * stacks.c's, because its writer is another thread.  stacks.c's tables
 * are appended to by their own thread's SIGPROF handler only; these by
 * offcpu.c's sampler thread only, so each table still has one writer and
 * needs no lock: an entry's bytes are published before the slot and the
 * pool's `used` cover it, and a reader takes `used` with acquire.
 *
 * A table is mapped by the sampler thread (not a handler) at the first
 * blocked stack of its thread, at its full size without reserving
 * memory: OS_STACKS distinct stacks.  A wait seen at several ticks is
 * looked up once: offcpu.c keeps the entry's reference and adds to it.
 *
 * The side file gets them as a second STACKS record of the same thread,
 * each entry flagged GMSL_STACK_OFFCPU (include/gmon_shlibs.h), and as
 * TSAMPLES at their frame 0, so that --per-thread counts the waits.  Frame 0
 * is where offcpu.c credits the wait (the blocked PC, or the address
 * inside the call to the wrapper), the others return addresses, as the
 * reader expects of every STACKS entry.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>

#include "gmon_shlibs.h"
#include "gmon_rt.h"
#include "offcpu.h"

#define OS_STACKS 4096u      /* distinct blocked stacks per thread */
#define OS_SLOTS 8192u       /* open-addressed, at most half full */
#define OS_POOL (OS_STACKS * 256u)
#define OS_PROBE 64
#define OS_DEPTH 128u        /* the default, as stacks.c's */

struct os_entry {
	uint64_t count;
	uint32_t hash;
	uint16_t depth;
	uint16_t flags;
	uintptr_t f[];
};

struct gmon_offstk {
	uint32_t used;           /* bytes of pool holding complete entries */
	uint32_t entries;
	uint64_t lost;           /* ticks of stacks that found it full */
	uint32_t slots[OS_SLOTS];
	unsigned char pool[OS_POOL];
};

uint32_t gmon_offstk_depth(void)
{
	long d = gmon_env_number(GMON_NUM_STACK_DEPTH);
	return d > 0 ? (uint32_t)d : OS_DEPTH;
}

static size_t entry_size(uint32_t d)
{
	return sizeof(struct os_entry) + (size_t)d * sizeof(uintptr_t);
}

static uint32_t hash_frames(const uintptr_t *f, uint32_t d, int cut)
{
	uint64_t x = 0x9e3779b97f4a7c15ull ^ d ^ ((uint64_t)cut << 40);
	for (uint32_t i = 0; i < d; i++) {
		x = (x ^ (uint64_t)f[i]) * 0xff51afd7ed558ccdull;
		x ^= x >> 31;
	}
	return (uint32_t)(x >> 32) | 1;
}

static struct gmon_offstk *table_of(struct gmon_table *t)
{
	struct gmon_offstk *s = __atomic_load_n(&t->ostk, __ATOMIC_ACQUIRE);
	if (s != NULL)
		return s;
	void *m = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	__atomic_store_n(&t->ostk, (struct gmon_offstk *)m, __ATOMIC_RELEASE);
	return m;
}

static int same(const struct os_entry *e, uint32_t h, const uintptr_t *f,
                uint32_t d, uint16_t flags)
{
	if (e->hash != h || e->depth != d || e->flags != flags)
		return 0;
	return memcmp(e->f, f, (size_t)d * sizeof *f) == 0;
}

/* Append a new entry in free slot *slot; its reference, 0 if full. */
static uint32_t append(struct gmon_offstk *s, uint32_t *slot, uint32_t h,
                       const uintptr_t *f, uint32_t d, uint16_t flags, uint32_t w)
{
	size_t need = entry_size(d);
	if (s->entries >= OS_STACKS || OS_POOL - s->used < need)
		return 0;
	struct os_entry *e = (struct os_entry *)(s->pool + s->used);
	e->hash = h;
	e->depth = (uint16_t)d;
	e->flags = flags;
	memcpy(e->f, f, (size_t)d * sizeof *f);
	__atomic_store_n(&e->count, (uint64_t)w, __ATOMIC_RELAXED);
	uint32_t ref = s->used + 1;
	*slot = ref;
	s->entries++;
	__atomic_store_n(&s->used, s->used + (uint32_t)need, __ATOMIC_RELEASE);
	return ref;
}

uint32_t gmon_offstk_record(struct gmon_table *t, const uintptr_t *f, uint32_t d,
                            int cut, uint32_t w)
{
	struct gmon_offstk *s = table_of(t);
	if (s == NULL || d == 0)
		return 0;
	uint16_t flags = GMSL_STACK_OFFCPU | (cut ? GMSL_STACK_TRUNCATED : 0);
	uint32_t h = hash_frames(f, d, cut);
	for (uint32_t i = h, n = 0; n < OS_PROBE; n++, i++) {
		uint32_t *slot = &s->slots[i & (OS_SLOTS - 1)];
		if (*slot == 0) {
			uint32_t ref = append(s, slot, h, f, d, flags, w);
			if (ref == 0)
				break;
			return ref;
		}
		if (same((const struct os_entry *)(s->pool + *slot - 1), h, f, d, flags)) {
			gmon_offstk_add(t, *slot, w);
			return *slot;
		}
	}
	s->lost += w;
	return 0;
}

/* Relaxed atomics: a 64-bit count must not tear for a reader on i386. */
void gmon_offstk_add(struct gmon_table *t, uint32_t ref, uint32_t w)
{
	struct gmon_offstk *s = t->ostk;
	if (s == NULL || ref == 0 || ref > s->used)
		return;
	struct os_entry *e = (struct os_entry *)(s->pool + ref - 1);
	__atomic_store_n(&e->count, __atomic_load_n(&e->count, __ATOMIC_RELAXED) + w,
	                 __ATOMIC_RELAXED);
}

static void clear(struct gmon_table *t, int forget)
{
	struct gmon_offstk *s = __atomic_load_n(&t->ostk, __ATOMIC_ACQUIRE);
	if (s == NULL)
		return;
	s->lost = 0;
	if (forget) {
		memset(s->slots, 0, sizeof s->slots);
		s->used = s->entries = 0;
		return;
	}
	uint32_t used = __atomic_load_n(&s->used, __ATOMIC_ACQUIRE);
	for (uint32_t off = 0; off < used;) {
		struct os_entry *e = (struct os_entry *)(s->pool + off);
		__atomic_store_n(&e->count, 0, __ATOMIC_RELAXED);
		off += (uint32_t)entry_size(e->depth);
	}
}

void gmon_offstk_reset(int forget)
{
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		clear(t, forget);
}

/* Frames of e in known objects (a frame in none ends the stack). */
static uint32_t placed_depth(const struct os_entry *e)
{
	uint32_t d = 0, id;
	uint64_t a;
	while (d < e->depth && gmon_shlibs_place(e->f[d], &id, &a))
		d++;
	return d;
}

static void put_entry(struct gmon_out *o, const struct os_entry *e, uint32_t d)
{
	gmon_out_le(o, __atomic_load_n(&e->count, __ATOMIC_RELAXED), 8);
	gmon_out_le(o, d, 2);
	gmon_out_le(o, e->flags, 2);
	for (uint32_t k = 0; k < d; k++) {
		uint32_t id;
		uint64_t a;
		gmon_shlibs_place(e->f[k], &id, &a);
		gmon_out_le(o, id, 4);
		gmon_out_le(o, a, 8);
	}
}

/* The thread's own samples for --per-thread: a TSAMPLES record of one
   sample per entry, at its frame 0 (the reader adds repeats up). */
static void put_tsamples(struct gmon_out *o, uint32_t seq, struct gmon_offstk *s,
                         uint32_t used)
{
	for (uint32_t off = 0; off < used;) {
		const struct os_entry *e = (const struct os_entry *)(s->pool + off);
		uint64_t c = __atomic_load_n(&e->count, __ATOMIC_RELAXED), a;
		uint32_t id;
		off += (uint32_t)entry_size(e->depth);
		if (c == 0 || !gmon_shlibs_place(e->f[0], &id, &a))
			continue;
		gmon_out_le(o, GMSL_TAG_TSAMPLES, 1);
		gmon_out_le(o, 12 + GMSL_SAMPLE_SIZE, 4);
		gmon_out_le(o, seq, 4);
		gmon_out_le(o, id, 4);
		gmon_out_le(o, 1, 4);
		gmon_out_le(o, a & ~(uint64_t)((1u << GMON_BIN_SHIFT) - 1), 8);
		gmon_out_le(o, c > UINT32_MAX ? UINT32_MAX : c, 4);
	}
}

uint64_t gmon_offstk_put(struct gmon_out *o, uint32_t seq, struct gmon_table *t)
{
	struct gmon_offstk *s = __atomic_load_n(&t->ostk, __ATOMIC_ACQUIRE);
	if (s == NULL)
		return 0;
	uint32_t used = __atomic_load_n(&s->used, __ATOMIC_ACQUIRE), n = 0;
	uint64_t len = 8;
	for (uint32_t off = 0; off < used;) {
		const struct os_entry *e = (const struct os_entry *)(s->pool + off);
		uint32_t d = placed_depth(e);
		if (d > 0) { /* the reader refuses empty stacks */
			len += 12 + (uint64_t)d * GMSL_FRAME_SIZE;
			n++;
		}
		off += (uint32_t)entry_size(e->depth);
	}
	if (n == 0 || len > UINT32_MAX)
		return s->lost;
	gmon_out_le(o, GMSL_TAG_STACKS, 1);
	gmon_out_le(o, len, 4);
	gmon_out_le(o, seq, 4);
	gmon_out_le(o, n, 4);
	for (uint32_t off = 0; off < used;) {
		const struct os_entry *e = (const struct os_entry *)(s->pool + off);
		uint32_t d = placed_depth(e);
		if (d > 0)
			put_entry(o, e, d);
		off += (uint32_t)entry_size(e->depth);
	}
	put_tsamples(o, seq, s, used);
	return s->lost;
}
