/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlibs_times.c - owns the side file's CPU-time records, PTIMES (the
 * process's user, system and wall time) and TTIMES (one thread's):
 * decoding and checking them for shlibs_io.c's reader, adding them up
 * when files are summed, and writing them back.  The layout is
 * include/gmon_shlibs.h's; integers are little-endian.
 */
#include <stdio.h>

#include "shlibs_io.h"

static uint64_t le(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* A sum of runs is as long as its runs together: wall times add up too,
   as the samples they are compared with do. */
void gmsl_times_add(struct gmsl_times *dst, const struct gmsl_times *src)
{
	if (!src->have)
		return;
	if (!dst->have)
		dst->flags = src->flags;
	dst->flags = (dst->flags & src->flags & GMSL_TTIMES_ENDED) |
		((dst->flags | src->flags) & GMSL_TTIMES_TICKS);
	dst->user_ns = add_sat(dst->user_ns, src->user_ns);
	dst->sys_ns = add_sat(dst->sys_ns, src->sys_ns);
	dst->wall_ns = add_sat(dst->wall_ns, src->wall_ns);
	dst->have = true;
}

/* The three u64 of user, system and wall ns at p. */
static struct gmsl_times times_at(const unsigned char *p, uint32_t flags)
{
	return (struct gmsl_times){ .have = true, .flags = flags,
		.user_ns = le(p, 8), .sys_ns = le(p + 8, 8),
		.wall_ns = le(p + 16, 8) };
}

/* The index of thread id in f, or -1 (threads are usually numbered in
   order, so the id is usually its index). */
static long thread_index(const struct gmsl_file *f, uint32_t id)
{
	if (id < f->nthreads && f->threads[id].id == id)
		return id;
	for (size_t k = 0; k < f->nthreads; k++)
		if (f->threads[k].id == id)
			return (long)k;
	return -1;
}

bool gmsl_times_decode(struct gmsl_file *f, unsigned tag,
                       const unsigned char *p, size_t len,
                       char *msg, size_t size)
{
	const char *rec = tag == GMSL_TAG_PTIMES ? "PTIMES" : "TTIMES";
	size_t want = tag == GMSL_TAG_PTIMES ? GMSL_PTIMES_SIZE : GMSL_TTIMES_SIZE;
	if (len != want) {
		snprintf(msg, size, "%s record length %zu disagrees with its "
		         "content", rec, len);
		return false;
	}
	if (tag == GMSL_TAG_PTIMES) {
		struct gmsl_times t = times_at(p, 0);
		gmsl_times_add(&f->ptimes, &t);
		return true;
	}
	uint32_t id = (uint32_t)le(p, 4);
	long k = thread_index(f, id);
	if (k < 0) {
		snprintf(msg, size, "TTIMES record names unknown thread %u", id);
		return false;
	}
	struct gmsl_times t = times_at(p + 8, (uint32_t)le(p + 4, 4));
	gmsl_times_add(&f->threads[k].times, &t);
	return true;
}

static void put_le(FILE *out, uint64_t v, int n)
{
	unsigned char b[8];
	for (int i = 0; i < n; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	fwrite(b, 1, (size_t)n, out);
}

static void put_times(FILE *out, const struct gmsl_times *t)
{
	put_le(out, t->user_ns, 8);
	put_le(out, t->sys_ns, 8);
	put_le(out, t->wall_ns, 8);
}

void gmsl_times_write(const struct gmsl_file *f, FILE *out)
{
	if (f->ptimes.have) {
		put_le(out, GMSL_TAG_PTIMES, 1);
		put_le(out, GMSL_PTIMES_SIZE, 4);
		put_times(out, &f->ptimes);
	}
	for (size_t k = 0; k < f->nthreads; k++) {
		const struct gmsl_thread *th = &f->threads[k];
		if (!th->times.have)
			continue;
		put_le(out, GMSL_TAG_TTIMES, 1);
		put_le(out, GMSL_TTIMES_SIZE, 4);
		put_le(out, th->id, 4);
		put_le(out, th->times.flags, 4);
		put_times(out, &th->times);
	}
}
