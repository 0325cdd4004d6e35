/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlibs_io.c - owns the GMON_SHLIBS side file on disk and in memory:
 * reading it whole and checking every length, count and object id before
 * anything uses it (one message and exit status 1 on any damage), merging
 * and summing files for -s, and writing the sum.  Integers are
 * little-endian on every target (include/gmon_shlibs.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shlibs_io.h"

#include "reading/reading.h"

/* ---- decoding ---- */

struct cursor {
	const unsigned char *p;
	size_t left;
};

static uint64_t get_le(struct cursor *c, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | c->p[i];
	c->p += n;
	c->left -= (size_t)n;
	return v;
}

/* Who is reading what, for the messages. */
struct reader {
	const struct gprof *g;
	const char *name;
	struct gmsl_file *f;
};

static void damaged(const struct reader *r, const char *what)
	__attribute__((noreturn));
static void damaged(const struct reader *r, const char *what)
{
	die(r->g, "%s: %s", r->name, what);
}

static void *grow(void *v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 16;
	return xrealloc(v, *cap * size);
}

/* ---- object ids: open hashing, 1 + index per slot ---- */

static size_t id_slot(const struct gmsl_file *f, uint32_t id)
{
	size_t mask = f->id_hash_size - 1;
	size_t i = (size_t)(id * 0x9e3779b1u) & mask;
	while (f->id_hash[i] && f->objs[f->id_hash[i] - 1].id != id)
		i = (i + 1) & mask;
	return i;
}

/* The index of object `id`, or -1. */
static long find_id(const struct gmsl_file *f, uint32_t id)
{
	if (!f->id_hash_size)
		return -1;
	uint32_t v = f->id_hash[id_slot(f, id)];
	return v ? (long)v - 1 : -1;
}

/* Enters the newest object, growing the table to stay at most half full. */
static void hash_ids(struct gmsl_file *f)
{
	if (2 * f->nobjs >= f->id_hash_size) {
		free(f->id_hash);
		f->id_hash_size = f->id_hash_size ? f->id_hash_size * 2 : 64;
		f->id_hash = xcalloc(f->id_hash_size, sizeof *f->id_hash);
		for (size_t k = 0; k + 1 < f->nobjs; k++)
			f->id_hash[id_slot(f, f->objs[k].id)] = (uint32_t)k + 1;
	}
	size_t k = f->nobjs - 1;
	f->id_hash[id_slot(f, f->objs[k].id)] = (uint32_t)k + 1;
}

static uint32_t known_id(const struct reader *r, uint32_t id,
                         const char *rec)
{
	long k = find_id(r->f, id);
	if (k < 0) {
		char msg[96];
		snprintf(msg, sizeof msg, "%s record names unknown object %u",
		         rec, id);
		damaged(r, msg);
	}
	return (uint32_t)k;
}

/* ---- records ---- */

static void length_mismatch(const struct reader *r, const char *rec,
                            size_t len)
{
	char msg[96];
	snprintf(msg, sizeof msg, "%s record length %zu disagrees with its "
	         "content", rec, len);
	damaged(r, msg);
}

static void read_object(const struct reader *r, struct cursor *c)
{
	struct gmsl_file *f = r->f;
	size_t len = c->left;
	if (len < GMSL_OBJECT_FIXED)
		length_mismatch(r, "OBJECT", len);
	struct gmsl_object o = { 0 };
	o.id = (uint32_t)get_le(c, 4);
	o.bias = get_le(c, 8);
	o.lo = get_le(c, 8);
	o.hi = get_le(c, 8);
	size_t plen = (size_t)get_le(c, 2);
	if (plen > GMSL_MAX_PATH)
		damaged(r, "object path longer than 4096 bytes");
	if (c->left < plen + 2)
		length_mismatch(r, "OBJECT", len);
	if (memchr(c->p, '\0', plen))
		damaged(r, "object path holds a NUL byte");
	const unsigned char *path = c->p;
	c->p += plen;
	c->left -= plen;
	o.build_id_len = (uint16_t)get_le(c, 2);
	if (o.build_id_len > GMSL_MAX_BUILD_ID)
		damaged(r, "build-id longer than 64 bytes");
	if (c->left != o.build_id_len)
		length_mismatch(r, "OBJECT", len);
	memcpy(o.build_id, c->p, o.build_id_len);
	if (find_id(f, o.id) >= 0) {
		char msg[64];
		snprintf(msg, sizeof msg, "object id %u defined twice", o.id);
		damaged(r, msg);
	}
	if (f->nobjs >= GMSL_MAX_OBJECTS)
		damaged(r, "more than 65536 objects");
	o.path = xmalloc(plen + 1);
	memcpy(o.path, path, plen);
	o.path[plen] = '\0';
	f->objs = grow(f->objs, &f->objs_cap, f->nobjs, sizeof *f->objs);
	f->objs[f->nobjs++] = o;
	hash_ids(f);
}

/* n entries of `size` bytes must fill what the record has left exactly. */
static void check_count(const struct reader *r, const char *rec, size_t len,
                        uint64_t n, size_t left, size_t size)
{
	if (n * size != left)         /* n < 2^32, size <= 32: no overflow */
		length_mismatch(r, rec, len);
}

/* One SAMPLES (or TSAMPLES) entry: u64 address, u32 count. */
static void get_sample(struct cursor *c, uint32_t obj, struct gmsl_sample *s)
{
	s->obj = obj;
	s->addr = get_le(c, 8);
	s->count = (uint32_t)get_le(c, 4);
}

/* One ARCS (or TARCS) entry, both objects checked as record `rec`'s. */
static void get_arc(const struct reader *r, struct cursor *c, const char *rec,
                    struct gmsl_arc *a)
{
	a->from_obj = known_id(r, (uint32_t)get_le(c, 4), rec);
	a->from = get_le(c, 8);
	a->to_obj = known_id(r, (uint32_t)get_le(c, 4), rec);
	a->to = get_le(c, 8);
	a->count = get_le(c, 8);
}

static void read_samples(const struct reader *r, struct cursor *c)
{
	struct gmsl_file *f = r->f;
	size_t len = c->left;
	if (len < 8)
		length_mismatch(r, "SAMPLES", len);
	uint32_t obj = known_id(r, (uint32_t)get_le(c, 4), "SAMPLES");
	uint64_t n = get_le(c, 4);
	check_count(r, "SAMPLES", len, n, c->left, GMSL_SAMPLE_SIZE);
	for (uint64_t i = 0; i < n; i++) {
		f->samples = grow(f->samples, &f->samples_cap, f->nsamples,
		                  sizeof *f->samples);
		get_sample(c, obj, &f->samples[f->nsamples++]);
	}
}

static void read_arcs(const struct reader *r, struct cursor *c)
{
	struct gmsl_file *f = r->f;
	size_t len = c->left;
	if (len < 4)
		length_mismatch(r, "ARCS", len);
	uint64_t n = get_le(c, 4);
	check_count(r, "ARCS", len, n, c->left, GMSL_ARC_SIZE);
	for (uint64_t i = 0; i < n; i++) {
		f->arcs = grow(f->arcs, &f->arcs_cap, f->narcs, sizeof *f->arcs);
		get_arc(r, c, "ARCS", &f->arcs[f->narcs++]);
	}
}

/* ---- threads and call stacks ---- */

/* The index of thread `id`; threads are numbered 0, 1, ... in order, so
   the index is usually the id itself. */
static uint32_t known_thread(const struct reader *r, uint32_t id,
                             const char *rec)
{
	const struct gmsl_file *f = r->f;
	if (id < f->nthreads && f->threads[id].id == id)
		return id;
	for (size_t k = 0; k < f->nthreads; k++)
		if (f->threads[k].id == id)
			return (uint32_t)k;
	char msg[96];
	snprintf(msg, sizeof msg, "%s record names unknown thread %u", rec, id);
	damaged(r, msg);
}

static void read_thread(const struct reader *r, struct cursor *c)
{
	struct gmsl_file *f = r->f;
	size_t len = c->left;
	if (len < 10)
		length_mismatch(r, "THREAD", len);
	struct gmsl_thread t = { 0 }; /* no TTIMES yet */
	t.id = (uint32_t)get_le(c, 4);
	t.tid = (uint32_t)get_le(c, 4);
	size_t nlen = (size_t)get_le(c, 2);
	if (c->left != nlen)
		length_mismatch(r, "THREAD", len);
	if (memchr(c->p, '\0', nlen))
		damaged(r, "thread name holds a NUL byte");
	for (size_t k = 0; k < f->nthreads; k++)
		if (f->threads[k].id == t.id) {
			char msg[64];
			snprintf(msg, sizeof msg, "thread id %u defined twice", t.id);
			damaged(r, msg);
		}
	t.name = xmalloc(nlen + 1);
	memcpy(t.name, c->p, nlen);
	t.name[nlen] = '\0';
	f->threads = grow(f->threads, &f->threads_cap, f->nthreads,
	                  sizeof *f->threads);
	f->threads[f->nthreads++] = t;
}

/* Entries of variable size: each is checked against what is left. */
static void read_stacks(const struct reader *r, struct cursor *c)
{
	struct gmsl_file *f = r->f;
	size_t len = c->left;
	if (len < 8)
		length_mismatch(r, "STACKS", len);
	uint32_t th = known_thread(r, (uint32_t)get_le(c, 4), "STACKS");
	uint64_t n = get_le(c, 4);
	for (uint64_t i = 0; i < n; i++) {
		if (c->left < 12)
			length_mismatch(r, "STACKS", len);
		struct gmsl_stack st = { .thread = th };
		st.count = get_le(c, 8);
		st.depth = (uint16_t)get_le(c, 2);
		st.flags = (uint16_t)get_le(c, 2);
		if (st.depth == 0)
			damaged(r, "call stack of depth 0");
		if (st.depth > GMSL_MAX_DEPTH)
			damaged(r, "call stack deeper than 1024 frames");
		if (c->left < (size_t)st.depth * GMSL_FRAME_SIZE)
			length_mismatch(r, "STACKS", len);
		st.first = f->nframes;
		for (unsigned d = 0; d < st.depth; d++) {
			f->frames = grow(f->frames, &f->frames_cap, f->nframes,
			                 sizeof *f->frames);
			struct gmsl_frame *fr = &f->frames[f->nframes++];
			fr->obj = known_id(r, (uint32_t)get_le(c, 4), "STACKS");
			fr->addr = get_le(c, 8);
		}
		f->stacks = grow(f->stacks, &f->stacks_cap, f->nstacks,
		                 sizeof *f->stacks);
		f->stacks[f->nstacks++] = st;
	}
	if (c->left != 0)
		length_mismatch(r, "STACKS", len);
}

static void read_tsamples(const struct reader *r, struct cursor *c)
{
	struct gmsl_file *f = r->f;
	size_t len = c->left;
	if (len < 12)
		length_mismatch(r, "TSAMPLES", len);
	uint32_t th = known_thread(r, (uint32_t)get_le(c, 4), "TSAMPLES");
	uint32_t obj = known_id(r, (uint32_t)get_le(c, 4), "TSAMPLES");
	uint64_t n = get_le(c, 4);
	check_count(r, "TSAMPLES", len, n, c->left, GMSL_SAMPLE_SIZE);
	for (uint64_t i = 0; i < n; i++) {
		f->tsamples = grow(f->tsamples, &f->tsamples_cap, f->ntsamples,
		                   sizeof *f->tsamples);
		struct gmsl_tsample *s = &f->tsamples[f->ntsamples++];
		s->thread = th;
		get_sample(c, obj, &s->s);
	}
}

static void read_tarcs(const struct reader *r, struct cursor *c)
{
	struct gmsl_file *f = r->f;
	size_t len = c->left;
	if (len < 8)
		length_mismatch(r, "TARCS", len);
	uint32_t th = known_thread(r, (uint32_t)get_le(c, 4), "TARCS");
	uint64_t n = get_le(c, 4);
	check_count(r, "TARCS", len, n, c->left, GMSL_ARC_SIZE);
	for (uint64_t i = 0; i < n; i++) {
		f->tarcs = grow(f->tarcs, &f->tarcs_cap, f->ntarcs,
		                sizeof *f->tarcs);
		struct gmsl_tarc *t = &f->tarcs[f->ntarcs++];
		t->thread = th;
		get_arc(r, c, "TARCS", &t->a);
	}
}

/* Several SLOSS records (a file that is itself a sum) add up. */
static void read_sloss(const struct reader *r, struct cursor *c)
{
	struct gmsl_file *f = r->f;
	if (c->left != 20)
		length_mismatch(r, "SLOSS", c->left);
	uint64_t trunc = get_le(c, 8), lost = get_le(c, 8);
	uint32_t limit = (uint32_t)get_le(c, 4);
	f->stack_truncated = trunc > UINT64_MAX - f->stack_truncated ?
		UINT64_MAX : f->stack_truncated + trunc;
	f->stack_lost = lost > UINT64_MAX - f->stack_lost ?
		UINT64_MAX : f->stack_lost + lost;
	if (limit > f->depth_limit)
		f->depth_limit = limit;
	f->have_sloss = true;
}

/* PTIMES and TTIMES: shlibs_times.c decodes them. */
static void read_times(const struct reader *r, unsigned tag, struct cursor *c)
{
	char msg[96];
	if (!gmsl_times_decode(r->f, tag, c->p, c->left, msg, sizeof msg))
		damaged(r, msg);
}

static void read_header(const struct reader *r, struct cursor *c)
{
	if (c->left < GMSL_MAGIC_LEN ||
	    memcmp(c->p, GMSL_MAGIC, GMSL_MAGIC_LEN) != 0)
		damaged(r, "bad magic (not a shared-library side file)");
	if (c->left < GMSL_HDR_SIZE)
		damaged(r, "file ends inside its header");
	get_le(c, GMSL_MAGIC_LEN);
	uint32_t version = (uint32_t)get_le(c, 4);
	if (version != GMSL_VERSION) {
		char msg[64];
		snprintf(msg, sizeof msg, "unsupported version %u", version);
		damaged(r, msg);
	}
	r->f->rate = (uint32_t)get_le(c, 4);
	r->f->clock = (uint32_t)get_le(c, 4);
	if (r->f->rate == 0)
		damaged(r, "sampling rate of 0");
}

void gmsl_parse(const struct gprof *g, struct gmsl_file *f, const char *name,
                const unsigned char *data, size_t len)
{
	struct reader r = { g, name, f };
	struct cursor c = { data, len };
	memset(f, 0, sizeof *f);
	read_header(&r, &c);
	while (c.left > 0) {
		if (c.left < GMSL_REC_HEAD)
			damaged(&r, "file ends inside a record header");
		unsigned tag = (unsigned)get_le(&c, 1);
		size_t plen = (size_t)get_le(&c, 4);
		if (plen > c.left)
			damaged(&r, "file ends inside a record");
		struct cursor p = { c.p, plen };
		c.p += plen;
		c.left -= plen;
		if (tag == GMSL_TAG_OBJECT)
			read_object(&r, &p);
		else if (tag == GMSL_TAG_SAMPLES)
			read_samples(&r, &p);
		else if (tag == GMSL_TAG_ARCS)
			read_arcs(&r, &p);
		else if (tag == GMSL_TAG_THREAD)
			read_thread(&r, &p);
		else if (tag == GMSL_TAG_STACKS)
			read_stacks(&r, &p);
		else if (tag == GMSL_TAG_TSAMPLES)
			read_tsamples(&r, &p);
		else if (tag == GMSL_TAG_TARCS)
			read_tarcs(&r, &p);
		else if (tag == GMSL_TAG_SLOSS)
			read_sloss(&r, &p);
		else if (tag == GMSL_TAG_PTIMES || tag == GMSL_TAG_TTIMES)
			read_times(&r, tag, &p);
	}
	free(f->id_hash);
	f->id_hash = NULL;
	f->id_hash_size = 0;
}

/* ---- files ---- */

/* The whole file, or NULL with errno set. */
static unsigned char *slurp(FILE *fp, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = xmalloc(cap);
	for (;;) {
		n += fread(buf + n, 1, cap - n, fp);
		if (n < cap)
			break;
		if (cap > SIZE_MAX / 2) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		cap *= 2;
		buf = xrealloc(buf, cap);
	}
	if (ferror(fp)) {
		free(buf);
		if (!errno)
			errno = EIO;
		return NULL;
	}
	*len = n;
	return buf;
}

bool gmsl_has_magic(const char *path)
{
	char m[GMSL_MAGIC_LEN];
	struct stat st;
	/* Only a regular file can be looked at without taking its bytes
	   from the reader that comes next (a pipe from <(...)). */
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return false;
	bool yes = fread(m, 1, sizeof m, fp) == sizeof m &&
		memcmp(m, GMSL_MAGIC, GMSL_MAGIC_LEN) == 0;
	fclose(fp);
	return yes;
}

bool gmsl_read(const struct gprof *g, struct gmsl_file *f, const char *path)
{
	memset(f, 0, sizeof *f);
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		if (errno == ENOENT)
			return false;
		die(g, "%s: %s", path, strerror(errno));
	}
	size_t len = 0;
	errno = 0;
	unsigned char *data = slurp(fp, &len);
	int e = errno;
	fclose(fp);
	if (!data)
		die(g, "%s: %s", path, strerror(e));
	gmsl_parse(g, f, path, data, len);
	free(data);
	return true;
}

void gmsl_free(struct gmsl_file *f)
{
	for (size_t i = 0; i < f->nobjs; i++)
		free(f->objs[i].path);
	free(f->objs);
	free(f->samples);
	free(f->arcs);
	for (size_t i = 0; i < f->nthreads; i++)
		free(f->threads[i].name);
	free(f->threads);
	free(f->stacks);
	free(f->frames);
	free(f->tsamples);
	free(f->tarcs);
	free(f->id_hash);
	memset(f, 0, sizeof *f);
}

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
	dst->objs = grow(dst->objs, &dst->objs_cap, dst->nobjs,
	                 sizeof *dst->objs);
	uint32_t k = (uint32_t)dst->nobjs++;
	dst->objs[k].path = NULL;
	copy_object(&dst->objs[k], o, k);
	return k;
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
	dst->threads = grow(dst->threads, &dst->threads_cap, dst->nthreads,
	                    sizeof *dst->threads);
	dst->threads[dst->nthreads] = (struct gmsl_thread){
		.id = id, .tid = t->tid, .name = xstrdup(t->name) };
	return (uint32_t)dst->nthreads++;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
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
			dst->frames = grow(dst->frames, &dst->frames_cap,
			                   dst->nframes, sizeof *dst->frames);
			struct gmsl_frame fr = src->frames[src->stacks[i].first + d];
			fr.obj = map[fr.obj];
			dst->frames[dst->nframes++] = fr;
		}
		dst->stacks = grow(dst->stacks, &dst->stacks_cap, dst->nstacks,
		                   sizeof *dst->stacks);
		dst->stacks[dst->nstacks++] = st;
	}
	for (size_t i = 0; i < src->ntsamples; i++) {
		dst->tsamples = grow(dst->tsamples, &dst->tsamples_cap,
		                     dst->ntsamples, sizeof *dst->tsamples);
		struct gmsl_tsample t = src->tsamples[i];
		t.thread = tmap[t.thread];
		t.s.obj = map[t.s.obj];
		dst->tsamples[dst->ntsamples++] = t;
	}
	for (size_t i = 0; i < src->ntarcs; i++) {
		dst->tarcs = grow(dst->tarcs, &dst->tarcs_cap, dst->ntarcs,
		                  sizeof *dst->tarcs);
		struct gmsl_tarc t = src->tarcs[i];
		t.thread = tmap[t.thread];
		t.a.from_obj = map[t.a.from_obj];
		t.a.to_obj = map[t.a.to_obj];
		dst->tarcs[dst->ntarcs++] = t;
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
		dst->samples = grow(dst->samples, &dst->samples_cap,
		                    dst->nsamples, sizeof *dst->samples);
		struct gmsl_sample s = src->samples[i];
		s.obj = map[s.obj];
		dst->samples[dst->nsamples++] = s;
	}
	for (size_t i = 0; i < src->narcs; i++) {
		dst->arcs = grow(dst->arcs, &dst->arcs_cap, dst->narcs,
		                 sizeof *dst->arcs);
		struct gmsl_arc a = src->arcs[i];
		a.from_obj = map[a.from_obj];
		a.to_obj = map[a.to_obj];
		dst->arcs[dst->narcs++] = a;
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
	for (size_t k = i; k < end; k++) {
		put_le(out, f->samples[k].addr, 8);
		put_le(out, f->samples[k].count, 4);
	}
	return end;
}

static size_t write_arcs(FILE *out, const struct gmsl_file *f, size_t i)
{
	size_t end = f->narcs - i < PER_RECORD ? f->narcs : i + PER_RECORD;
	put_le(out, GMSL_TAG_ARCS, 1);
	put_le(out, 4 + (end - i) * GMSL_ARC_SIZE, 4);
	put_le(out, end - i, 4);
	for (size_t k = i; k < end; k++) {
		const struct gmsl_arc *a = &f->arcs[k];
		put_le(out, a->from_obj, 4);
		put_le(out, a->from, 8);
		put_le(out, a->to_obj, 4);
		put_le(out, a->to, 8);
		put_le(out, a->count, 8);
	}
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
	for (size_t k = i; k < end; k++) {
		put_le(out, v[k].s.addr, 8);
		put_le(out, v[k].s.count, 4);
	}
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
	for (size_t k = i; k < end; k++) {
		const struct gmsl_arc *a = &v[k].a;
		put_le(out, a->from_obj, 4);
		put_le(out, a->from, 8);
		put_le(out, a->to_obj, 4);
		put_le(out, a->to, 8);
		put_le(out, a->count, 8);
	}
	return end;
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
	gmsl_times_write(f, out);
	return !ferror(out);
}
