/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlibs_sum.c - owns the -s sum of GMON_SHLIBS side files: merging
 * files already read and checked (shlibs_io.c) under one numbering,
 * adding up the entries of the same place, and writing the sum
 * (gmon.sum.shlibs).  Integers are little-endian on every target
 * (include/gmon_shlibs.h).
 */
#include <stdlib.h>
#include <string.h>

#include "shlibs_grow.h"
#include "shlibs_io.h"

#include "reading/reading.h"

/* ---- merging and summing ---- */

bool gmsl_same_object(const struct gmsl_object *a,
                      const struct gmsl_object *b)
{
	return a->build_id_len == b->build_id_len &&
		memcmp(a->build_id, b->build_id, a->build_id_len) == 0 &&
		strcmp(a->path, b->path) == 0;
}

static void copy_object(struct gmsl_object *to, const struct gmsl_object *o,
                        uint32_t id)
{
	free(to->path);
	*to = *o;
	to->id = id;
	to->path = xstrdup(o->path);
}

static uint32_t add_object(struct gmsl_file *dst, const struct gmsl_object *o)
{
	struct gmsl_object *to = GMSL_PUSH(dst, objs);
	to->path = NULL;
	copy_object(to, o, (uint32_t)(dst->nobjs - 1));
	return (uint32_t)(dst->nobjs - 1);
}

/* dst's index for src's object o. */
static uint32_t map_object(struct gmsl_file *dst, const struct gmsl_object *o)
{
	if (o->id == 0) {
		if (!dst->objs[0].path[0] && !dst->objs[0].build_id_len)
			copy_object(&dst->objs[0], o, 0);
		return 0;
	}
	for (size_t k = 1; k < dst->nobjs; k++)
		if (gmsl_same_object(&dst->objs[k], o))
			return (uint32_t)k;
	return add_object(dst, o);
}

/* dst's index for src's thread t: the same id and name (the main thread
   of every run is thread 0, whatever its system id), else a new one. */
static uint32_t map_thread(struct gmsl_file *dst, const struct gmsl_thread *t)
{
	for (size_t k = 0; k < dst->nthreads; k++)
		if (dst->threads[k].id == t->id &&
		    strcmp(dst->threads[k].name, t->name) == 0)
			return (uint32_t)k;
	uint32_t id = t->id;
	for (size_t k = 0; k < dst->nthreads; k++)
		if (dst->threads[k].id >= id)
			id = dst->threads[k].id + 1;
	*GMSL_PUSH(dst, threads) = (struct gmsl_thread){
		.id = id, .tid = t->tid, .name = xstrdup(t->name) };
	return (uint32_t)(dst->nthreads - 1);
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* A sum of runs is as long as its runs together: wall times add up too,
   as the samples they are compared with do.  A summed thread has ended
   when every part had; its split is from ticks when any part's was. */
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

static void merge_stacks(struct gmsl_file *dst, const struct gmsl_file *src,
                         const uint32_t *map)
{
	uint32_t *tmap = xmalloc((src->nthreads + 1) * sizeof *tmap);
	for (size_t k = 0; k < src->nthreads; k++) {
		tmap[k] = map_thread(dst, &src->threads[k]);
		gmsl_times_add(&dst->threads[tmap[k]].times,
		               &src->threads[k].times);
	}
	for (size_t i = 0; i < src->nstacks; i++) {
		struct gmsl_stack st = src->stacks[i];
		st.thread = tmap[st.thread];
		st.first = dst->nframes;
		for (unsigned d = 0; d < st.depth; d++) {
			struct gmsl_frame *fr = GMSL_PUSH(dst, frames);
			*fr = src->frames[src->stacks[i].first + d];
			fr->obj = map[fr->obj];
		}
		*GMSL_PUSH(dst, stacks) = st;
	}
	for (size_t i = 0; i < src->ntsamples; i++) {
		struct gmsl_tsample *t = GMSL_PUSH(dst, tsamples);
		*t = src->tsamples[i];
		t->thread = tmap[t->thread];
		t->s.obj = map[t->s.obj];
	}
	for (size_t i = 0; i < src->ntarcs; i++) {
		struct gmsl_tarc *t = GMSL_PUSH(dst, tarcs);
		*t = src->tarcs[i];
		t->thread = tmap[t->thread];
		t->a.from_obj = map[t->a.from_obj];
		t->a.to_obj = map[t->a.to_obj];
	}
	if (src->have_sloss) {
		dst->have_sloss = true;
		dst->stack_truncated = add_sat(dst->stack_truncated,
		                               src->stack_truncated);
		dst->stack_lost = add_sat(dst->stack_lost, src->stack_lost);
		if (src->depth_limit > dst->depth_limit)
			dst->depth_limit = src->depth_limit;
	}
	free(tmap);
}

void gmsl_merge(struct gmsl_file *dst, const struct gmsl_file *src)
{
	if (dst->nobjs == 0) {
		struct gmsl_object main_obj = { .path = "" };
		add_object(dst, &main_obj);
		dst->rate = src->rate;
		dst->clock = src->clock;
	}
	uint32_t *map = xmalloc((src->nobjs + 1) * sizeof *map);
	for (size_t k = 0; k < src->nobjs; k++)
		map[k] = map_object(dst, &src->objs[k]);
	for (size_t i = 0; i < src->nsamples; i++) {
		struct gmsl_sample *s = GMSL_PUSH(dst, samples);
		*s = src->samples[i];
		s->obj = map[s->obj];
	}
	for (size_t i = 0; i < src->narcs; i++) {
		struct gmsl_arc *a = GMSL_PUSH(dst, arcs);
		*a = src->arcs[i];
		a->from_obj = map[a->from_obj];
		a->to_obj = map[a->to_obj];
	}
	merge_stacks(dst, src, map);
	gmsl_times_add(&dst->ptimes, &src->ptimes);
	free(map);
}

static int cmp_sample(const void *pa, const void *pb)
{
	const struct gmsl_sample *a = pa, *b = pb;
	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

#define CMP_FIELD(a, b, f) \
	if ((a)->f != (b)->f) return (a)->f < (b)->f ? -1 : 1

static int cmp_arc(const void *pa, const void *pb)
{
	const struct gmsl_arc *a = pa, *b = pb;
	CMP_FIELD(a, b, from_obj);
	CMP_FIELD(a, b, from);
	CMP_FIELD(a, b, to_obj);
	CMP_FIELD(a, b, to);
	return 0;
}

/* Adds `from`'s count to `into`'s if the sum fits. */
static bool add_sample(void *into, const void *from)
{
	struct gmsl_sample *a = into;
	const struct gmsl_sample *b = from;
	if (b->count > UINT32_MAX - a->count)
		return false;
	a->count += b->count;
	return true;
}

static bool add_arc(void *into, const void *from)
{
	struct gmsl_arc *a = into;
	const struct gmsl_arc *b = from;
	if (b->count > UINT64_MAX - a->count)
		return false;
	a->count += b->count;
	return true;
}

/* Sorts the n entries of v and folds each into the one before it when
   they are equal and `add` finds room; returns how many are left. */
static size_t combine(void *v, size_t n, size_t size,
                      int (*cmp)(const void *, const void *),
                      bool (*add)(void *, const void *))
{
	unsigned char *b = v;
	size_t k = 0;
	if (n > 1)
		qsort(v, n, size, cmp);
	for (size_t i = 0; i < n; i++) {
		unsigned char *e = b + i * size;
		unsigned char *last = k > 0 ? b + (k - 1) * size : NULL;
		if (last && cmp(last, e) == 0 && add(last, e))
			continue;
		if (k != i)
			memcpy(b + k * size, e, size);
		k++;
	}
	return k;
}

static int cmp_tsample(const void *pa, const void *pb)
{
	const struct gmsl_tsample *a = pa, *b = pb;
	CMP_FIELD(a, b, thread);
	return cmp_sample(&a->s, &b->s);
}

static bool add_tsample(void *into, const void *from)
{
	return add_sample(&((struct gmsl_tsample *)into)->s,
	                  &((const struct gmsl_tsample *)from)->s);
}

static int cmp_tarc(const void *pa, const void *pb)
{
	const struct gmsl_tarc *a = pa, *b = pb;
	CMP_FIELD(a, b, thread);
	return cmp_arc(&a->a, &b->a);
}

static bool add_tarc(void *into, const void *from)
{
	return add_arc(&((struct gmsl_tarc *)into)->a,
	               &((const struct gmsl_tarc *)from)->a);
}

/* Stacks by thread, then frames (a truncated stack differs from a whole
   one of the same frames). */
static int cmp_stack(const void *pa, const void *pb, void *ctx)
{
	const struct gmsl_file *f = ctx;
	const struct gmsl_stack *a = pa, *b = pb;
	CMP_FIELD(a, b, thread);
	CMP_FIELD(a, b, depth);
	CMP_FIELD(a, b, flags);
	for (unsigned d = 0; d < a->depth; d++) {
		const struct gmsl_frame *x = &f->frames[a->first + d];
		const struct gmsl_frame *y = &f->frames[b->first + d];
		CMP_FIELD(x, y, obj);
		CMP_FIELD(x, y, addr);
	}
	return 0;
}

/* Sorted and summed like the rest, and the frame pool rebuilt in the new
   order, so that a written file does not depend on the inputs' order. */
static void combine_stacks(struct gmsl_file *f)
{
	if (f->nstacks == 0)
		return;
	stable_sort(f->stacks, f->nstacks, sizeof *f->stacks, cmp_stack, f);
	struct gmsl_frame *pool = xmalloc(f->nframes * sizeof *pool);
	size_t k = 0, nf = 0;
	for (size_t i = 0; i < f->nstacks; i++) {
		struct gmsl_stack *e = &f->stacks[i];
		struct gmsl_stack *last = k > 0 ? &f->stacks[k - 1] : NULL;
		if (last && cmp_stack(last, e, f) == 0 &&
		    e->count <= UINT64_MAX - last->count) {
			last->count += e->count;
			continue;
		}
		memcpy(pool + nf, f->frames + e->first, e->depth * sizeof *pool);
		f->stacks[k] = *e;
		f->stacks[k].first = nf;
		nf += e->depth;
		k++;
	}
	free(f->frames);
	f->frames = pool;
	f->nframes = f->frames_cap = nf;
	f->nstacks = k;
}

void gmsl_combine(struct gmsl_file *f)
{
	f->nsamples = combine(f->samples, f->nsamples, sizeof *f->samples,
	                      cmp_sample, add_sample);
	f->narcs = combine(f->arcs, f->narcs, sizeof *f->arcs, cmp_arc, add_arc);
	f->ntsamples = combine(f->tsamples, f->ntsamples, sizeof *f->tsamples,
	                       cmp_tsample, add_tsample);
	f->ntarcs = combine(f->tarcs, f->ntarcs, sizeof *f->tarcs, cmp_tarc,
	                    add_tarc);
	combine_stacks(f);
}

/* ---- writing ---- */

static void put_le(FILE *out, uint64_t v, int n)
{
	unsigned char b[8];
	for (int i = 0; i < n; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	fwrite(b, 1, (size_t)n, out);
}

/* One SAMPLES or TSAMPLES entry. */
static void put_sample(FILE *out, const struct gmsl_sample *s)
{
	put_le(out, s->addr, 8);
	put_le(out, s->count, 4);
}

/* One ARCS or TARCS entry. */
static void put_arc(FILE *out, const struct gmsl_arc *a)
{
	put_le(out, a->from_obj, 4);
	put_le(out, a->from, 8);
	put_le(out, a->to_obj, 4);
	put_le(out, a->to, 8);
	put_le(out, a->count, 8);
}

static void write_object(FILE *out, const struct gmsl_object *o, uint32_t id)
{
	size_t plen = strlen(o->path);
	put_le(out, GMSL_TAG_OBJECT, 1);
	put_le(out, GMSL_OBJECT_FIXED + plen + 2 + o->build_id_len, 4);
	put_le(out, id, 4);
	put_le(out, o->bias, 8);
	put_le(out, o->lo, 8);
	put_le(out, o->hi, 8);
	put_le(out, plen, 2);
	fwrite(o->path, 1, plen, out);
	put_le(out, o->build_id_len, 2);
	fwrite(o->build_id, 1, o->build_id_len, out);
}

/* Entries per SAMPLES or ARCS record: well within a u32 length. */
#define PER_RECORD (1u << 20)

/* The samples from index i on that belong to the same object, up to
   PER_RECORD; returns the index after them. */
static size_t write_samples(FILE *out, const struct gmsl_file *f, size_t i)
{
	size_t end = i;
	while (end < f->nsamples && end - i < PER_RECORD &&
	       f->samples[end].obj == f->samples[i].obj)
		end++;
	put_le(out, GMSL_TAG_SAMPLES, 1);
	put_le(out, 8 + (end - i) * GMSL_SAMPLE_SIZE, 4);
	put_le(out, f->samples[i].obj, 4);
	put_le(out, end - i, 4);
	for (size_t k = i; k < end; k++)
		put_sample(out, &f->samples[k]);
	return end;
}

static size_t write_arcs(FILE *out, const struct gmsl_file *f, size_t i)
{
	size_t end = f->narcs - i < PER_RECORD ? f->narcs : i + PER_RECORD;
	put_le(out, GMSL_TAG_ARCS, 1);
	put_le(out, 4 + (end - i) * GMSL_ARC_SIZE, 4);
	put_le(out, end - i, 4);
	for (size_t k = i; k < end; k++)
		put_arc(out, &f->arcs[k]);
	return end;
}

static void write_thread(FILE *out, const struct gmsl_thread *t)
{
	size_t n = strlen(t->name);
	if (n > UINT16_MAX)
		n = UINT16_MAX;
	put_le(out, GMSL_TAG_THREAD, 1);
	put_le(out, 10 + n, 4);
	put_le(out, t->id, 4);
	put_le(out, t->tid, 4);
	put_le(out, n, 2);
	fwrite(t->name, 1, n, out);
}

/* Bytes of stack i in a STACKS record. */
static size_t stack_size(const struct gmsl_file *f, size_t i)
{
	return 12 + (size_t)f->stacks[i].depth * GMSL_FRAME_SIZE;
}

/* The stacks from index i on of the same thread, up to PER_RECORD of
   them and 1 GiB (a stack is up to 12 KiB: the count alone would not keep
   the length within a u32). */
static size_t write_stacks(FILE *out, const struct gmsl_file *f, size_t i)
{
	size_t end = i, bytes = 8;
	while (end < f->nstacks && end - i < PER_RECORD &&
	       f->stacks[end].thread == f->stacks[i].thread &&
	       bytes + stack_size(f, end) < ((size_t)1 << 30)) {
		bytes += stack_size(f, end);
		end++;
	}
	put_le(out, GMSL_TAG_STACKS, 1);
	put_le(out, bytes, 4);
	put_le(out, f->threads[f->stacks[i].thread].id, 4);
	put_le(out, end - i, 4);
	for (size_t k = i; k < end; k++) {
		const struct gmsl_stack *st = &f->stacks[k];
		put_le(out, st->count, 8);
		put_le(out, st->depth, 2);
		put_le(out, st->flags, 2);
		for (unsigned d = 0; d < st->depth; d++) {
			put_le(out, f->frames[st->first + d].obj, 4);
			put_le(out, f->frames[st->first + d].addr, 8);
		}
	}
	return end;
}

static size_t write_tsamples(FILE *out, const struct gmsl_file *f, size_t i)
{
	const struct gmsl_tsample *v = f->tsamples;
	size_t end = i;
	while (end < f->ntsamples && end - i < PER_RECORD &&
	       v[end].thread == v[i].thread && v[end].s.obj == v[i].s.obj)
		end++;
	put_le(out, GMSL_TAG_TSAMPLES, 1);
	put_le(out, 12 + (end - i) * GMSL_SAMPLE_SIZE, 4);
	put_le(out, f->threads[v[i].thread].id, 4);
	put_le(out, v[i].s.obj, 4);
	put_le(out, end - i, 4);
	for (size_t k = i; k < end; k++)
		put_sample(out, &v[k].s);
	return end;
}

static size_t write_tarcs(FILE *out, const struct gmsl_file *f, size_t i)
{
	const struct gmsl_tarc *v = f->tarcs;
	size_t end = i;
	while (end < f->ntarcs && end - i < PER_RECORD &&
	       v[end].thread == v[i].thread)
		end++;
	put_le(out, GMSL_TAG_TARCS, 1);
	put_le(out, 8 + (end - i) * GMSL_ARC_SIZE, 4);
	put_le(out, f->threads[v[i].thread].id, 4);
	put_le(out, end - i, 4);
	for (size_t k = i; k < end; k++)
		put_arc(out, &v[k].a);
	return end;
}

static void put_times(FILE *out, const struct gmsl_times *t)
{
	put_le(out, t->user_ns, 8);
	put_le(out, t->sys_ns, 8);
	put_le(out, t->wall_ns, 8);
}

/* PTIMES, then each thread's TTIMES (after every THREAD record). */
static void write_times(FILE *out, const struct gmsl_file *f)
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

bool gmsl_write(const struct gmsl_file *f, FILE *out)
{
	fwrite(GMSL_MAGIC, 1, GMSL_MAGIC_LEN, out);
	put_le(out, GMSL_VERSION, 4);
	put_le(out, f->rate, 4);
	put_le(out, f->clock, 4);
	for (size_t k = 0; k < f->nobjs; k++)
		write_object(out, &f->objs[k], (uint32_t)k);
	for (size_t i = 0; i < f->nsamples;)
		i = write_samples(out, f, i);
	for (size_t i = 0; i < f->narcs;)
		i = write_arcs(out, f, i);
	for (size_t k = 0; k < f->nthreads; k++)
		write_thread(out, &f->threads[k]);
	for (size_t i = 0; i < f->nstacks;)
		i = write_stacks(out, f, i);
	for (size_t i = 0; i < f->ntsamples;)
		i = write_tsamples(out, f, i);
	for (size_t i = 0; i < f->ntarcs;)
		i = write_tarcs(out, f, i);
	if (f->have_sloss) {
		put_le(out, GMSL_TAG_SLOSS, 1);
		put_le(out, 20, 4);
		put_le(out, f->stack_truncated, 8);
		put_le(out, f->stack_lost, 8);
		put_le(out, f->depth_limit, 4);
	}
	write_times(out, f);
	return !ferror(out);
}
