/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlibs_io.c - owns reading the GMON_SHLIBS side file: taking it whole
 * and checking every length, count, limit and id before anything uses it
 * (one message and exit status 1 on any damage), through one table of
 * record types.  shlibs_sum.c merges, sums and writes it.  Integers are
 * little-endian on every target (include/gmon_shlibs.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "shlibs_grow.h"
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

/* The next n bytes (the caller has checked that they are there). */
static const unsigned char *get_bytes(struct cursor *c, size_t n)
{
	const unsigned char *p = c->p;
	c->p += n;
	c->left -= n;
	return p;
}

/* A NUL-terminated copy of n bytes. */
static char *copy_str(const unsigned char *p, size_t n)
{
	char *s = xmalloc(n + 1);
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* Who is reading what, for the messages. */
struct reader {
	const struct gprof *g;
	const char *name;
	struct gmsl_file *f;
};

static void damaged(const struct reader *r, const char *what)
	__attribute__((noreturn));
/* One line naming the file, the damage and the way around it: the side
   file holds part of the samples (every percentage depends on them), so
   it is not dropped unasked; --no-shlibs drops it on purpose. */
static void damaged(const struct reader *r, const char *what)
{
	size_t n = strlen(r->name), k = sizeof GMSL_SUFFIX - 1;
	int base = n > k && strcmp(r->name + n - k, GMSL_SUFFIX) == 0 ?
	           (int)(n - k) : 0;
	if (base)
		die(r->g, "%s: %s: a damaged side file (--no-shlibs reads "
		    "%.*s without it)", r->name, what, base, r->name);
	die(r->g, "%s: %s: a damaged side file (--no-shlibs reads the "
	    "profile without it)", r->name, what);
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

static void length_mismatch(const struct reader *r, const char *rec,
                            size_t len)
{
	char msg[96];
	snprintf(msg, sizeof msg, "%s record length %zu disagrees with its "
	         "content", rec, len);
	damaged(r, msg);
}

/* ---- the record types ---- */

struct rec_type;

/* One record being read: what its head named, for its entries. */
struct rec {
	const struct rec_type *type;
	size_t len;                  /* the payload's, for the messages */
	uint32_t thread, obj;        /* indexes, from the head's T and O */
	uint64_t n;                  /* entries: the head's N, else 1 */
};

typedef void decode_fn(const struct reader *r, struct cursor *c,
                       const struct rec *x);

/*
 * A row of the table.  read_record() checks the payload against `min`
 * (and `exact`), reads the head, a run of u32 words spelled by `head`:
 * T a thread id and O an object id (each must be defined by an earlier
 * record), N the entry count; then N entries of `entry` bytes must fill
 * the rest exactly, and `decode` takes each.  Entries of varying size
 * (entry 0) check their own lengths and must end the payload exactly.
 * With no head (NULL) or no N in it, `decode` takes the whole payload
 * once.  The messages name the record by `name`, its length the payload's.
 */
struct rec_type {
	unsigned tag;
	const char *name;            /* in the messages */
	size_t min;                  /* the shortest payload, head included */
	bool exact;                  /* min is the only length allowed */
	const char *head;            /* T, O, N words; NULL: none */
	size_t entry;                /* bytes per entry; 0: they vary */
	decode_fn *decode;
};

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

/* The path and build-id are checked as read: limits, then lengths. */
static void dec_object(const struct reader *r, struct cursor *c,
                       const struct rec *x)
{
	struct gmsl_object o = { 0 };
	o.id = (uint32_t)get_le(c, 4);
	o.bias = get_le(c, 8);
	o.lo = get_le(c, 8);
	o.hi = get_le(c, 8);
	size_t plen = (size_t)get_le(c, 2);
	if (plen > GMSL_MAX_PATH)
		damaged(r, "object path longer than 4096 bytes");
	if (c->left < plen + 2)
		length_mismatch(r, x->type->name, x->len);
	if (memchr(c->p, '\0', plen))
		damaged(r, "object path holds a NUL byte");
	const unsigned char *path = get_bytes(c, plen);
	o.build_id_len = (uint16_t)get_le(c, 2);
	if (o.build_id_len > GMSL_MAX_BUILD_ID)
		damaged(r, "build-id longer than 64 bytes");
	if (c->left != o.build_id_len)
		length_mismatch(r, x->type->name, x->len);
	memcpy(o.build_id, get_bytes(c, o.build_id_len), o.build_id_len);
	if (find_id(r->f, o.id) >= 0) {
		char msg[64];
		snprintf(msg, sizeof msg, "object id %u defined twice", o.id);
		damaged(r, msg);
	}
	if (r->f->nobjs >= GMSL_MAX_OBJECTS)
		damaged(r, "more than 65536 objects");
	o.path = copy_str(path, plen);
	*GMSL_PUSH(r->f, objs) = o;
	hash_ids(r->f);
}

static void dec_thread(const struct reader *r, struct cursor *c,
                       const struct rec *x)
{
	struct gmsl_file *f = r->f;
	struct gmsl_thread t = { 0 }; /* no TTIMES yet */
	t.id = (uint32_t)get_le(c, 4);
	t.tid = (uint32_t)get_le(c, 4);
	size_t nlen = (size_t)get_le(c, 2);
	if (c->left != nlen)
		length_mismatch(r, x->type->name, x->len);
	if (memchr(c->p, '\0', nlen))
		damaged(r, "thread name holds a NUL byte");
	for (size_t k = 0; k < f->nthreads; k++)
		if (f->threads[k].id == t.id) {
			char msg[64];
			snprintf(msg, sizeof msg, "thread id %u defined twice", t.id);
			damaged(r, msg);
		}
	t.name = copy_str(get_bytes(c, nlen), nlen);
	*GMSL_PUSH(f, threads) = t;
}

static void dec_sample(const struct reader *r, struct cursor *c,
                       const struct rec *x)
{
	get_sample(c, x->obj, GMSL_PUSH(r->f, samples));
}

static void dec_arc(const struct reader *r, struct cursor *c,
                    const struct rec *x)
{
	get_arc(r, c, x->type->name, GMSL_PUSH(r->f, arcs));
}

/* A stack's frames go to the file's one frame pool. */
static void dec_stack(const struct reader *r, struct cursor *c,
                      const struct rec *x)
{
	struct gmsl_file *f = r->f;
	if (c->left < 12)
		length_mismatch(r, x->type->name, x->len);
	struct gmsl_stack st = { .thread = x->thread };
	st.count = get_le(c, 8);
	st.depth = (uint16_t)get_le(c, 2);
	st.flags = (uint16_t)get_le(c, 2);
	if (st.depth == 0)
		damaged(r, "call stack of depth 0");
	if (st.depth > GMSL_MAX_DEPTH)
		damaged(r, "call stack deeper than 1024 frames");
	if (c->left < (size_t)st.depth * GMSL_FRAME_SIZE)
		length_mismatch(r, x->type->name, x->len);
	st.first = f->nframes;
	for (unsigned d = 0; d < st.depth; d++) {
		struct gmsl_frame *fr = GMSL_PUSH(f, frames);
		fr->obj = known_id(r, (uint32_t)get_le(c, 4), x->type->name);
		fr->addr = get_le(c, 8);
	}
	*GMSL_PUSH(f, stacks) = st;
}

static void dec_tsample(const struct reader *r, struct cursor *c,
                        const struct rec *x)
{
	struct gmsl_tsample *s = GMSL_PUSH(r->f, tsamples);
	s->thread = x->thread;
	get_sample(c, x->obj, &s->s);
}

static void dec_tarc(const struct reader *r, struct cursor *c,
                     const struct rec *x)
{
	struct gmsl_tarc *t = GMSL_PUSH(r->f, tarcs);
	t->thread = x->thread;
	get_arc(r, c, x->type->name, &t->a);
}

/* Several SLOSS records (a file that is itself a sum) add up. */
static void dec_sloss(const struct reader *r, struct cursor *c,
                      const struct rec *x)
{
	struct gmsl_file *f = r->f;
	(void)x;
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

/* PTIMES' and TTIMES' three u64: user, system and wall ns. */
static void get_times(struct cursor *c, struct gmsl_times *t)
{
	t->have = true;
	t->user_ns = get_le(c, 8);
	t->sys_ns = get_le(c, 8);
	t->wall_ns = get_le(c, 8);
}

/* Several PTIMES (a file that is itself a sum) add up. */
static void dec_ptimes(const struct reader *r, struct cursor *c,
                       const struct rec *x)
{
	struct gmsl_times t = { 0 };
	(void)x;
	get_times(c, &t);
	gmsl_times_add(&r->f->ptimes, &t);
}

/* So do several TTIMES of one thread. */
static void dec_ttimes(const struct reader *r, struct cursor *c,
                       const struct rec *x)
{
	struct gmsl_times t = { 0 };
	t.flags = (uint32_t)get_le(c, 4);
	get_times(c, &t);
	gmsl_times_add(&r->f->threads[x->thread].times, &t);
}

/* A new record type is a row here and a decoder above. */
static const struct rec_type rec_types[] = {
	{ .tag = GMSL_TAG_OBJECT, .name = "OBJECT", .min = GMSL_OBJECT_FIXED,
	  .decode = dec_object },
	{ .tag = GMSL_TAG_SAMPLES, .name = "SAMPLES", .min = 8, .head = "ON",
	  .entry = GMSL_SAMPLE_SIZE, .decode = dec_sample },
	{ .tag = GMSL_TAG_ARCS, .name = "ARCS", .min = 4, .head = "N",
	  .entry = GMSL_ARC_SIZE, .decode = dec_arc },
	{ .tag = GMSL_TAG_THREAD, .name = "THREAD", .min = 10,
	  .decode = dec_thread },
	{ .tag = GMSL_TAG_STACKS, .name = "STACKS", .min = 8, .head = "TN",
	  .decode = dec_stack },
	{ .tag = GMSL_TAG_TSAMPLES, .name = "TSAMPLES", .min = 12, .head = "TON",
	  .entry = GMSL_SAMPLE_SIZE, .decode = dec_tsample },
	{ .tag = GMSL_TAG_TARCS, .name = "TARCS", .min = 8, .head = "TN",
	  .entry = GMSL_ARC_SIZE, .decode = dec_tarc },
	{ .tag = GMSL_TAG_SLOSS, .name = "SLOSS", .min = 20, .exact = true,
	  .decode = dec_sloss },
	{ .tag = GMSL_TAG_PTIMES, .name = "PTIMES", .min = GMSL_PTIMES_SIZE,
	  .exact = true, .decode = dec_ptimes },
	{ .tag = GMSL_TAG_TTIMES, .name = "TTIMES", .min = GMSL_TTIMES_SIZE,
	  .exact = true, .head = "T", .decode = dec_ttimes },
};

/* The row for `tag`, or NULL: a record type from a later writer, which
   the format lets a reader skip. */
static const struct rec_type *find_type(unsigned tag)
{
	for (size_t i = 0; i < sizeof rec_types / sizeof *rec_types; i++)
		if (rec_types[i].tag == tag)
			return &rec_types[i];
	return NULL;
}

/* ---- the one reader ---- */

/* Reads the head's u32 words into x; true when one of them is a count. */
static bool read_head(const struct reader *r, struct cursor *c, struct rec *x)
{
	bool counted = false;
	for (const char *h = x->type->head; h && *h; h++) {
		uint32_t v = (uint32_t)get_le(c, 4);
		if (*h == 'T') {
			x->thread = known_thread(r, v, x->type->name);
		} else if (*h == 'O') {
			x->obj = known_id(r, v, x->type->name);
		} else {                /* N */
			x->n = v;
			counted = true;
		}
	}
	return counted;
}

static void read_record(const struct reader *r, const struct rec_type *t,
                        struct cursor *c)
{
	struct rec x = { .type = t, .len = c->left, .n = 1 };
	size_t head = t->head ? 4 * strlen(t->head) : 0;
	/* read_head() takes its words unchecked, so a row whose min left
	   out the head must still not read past the payload. */
	if (x.len < head || (t->exact ? x.len != t->min : x.len < t->min))
		length_mismatch(r, t->name, x.len);
	bool counted = read_head(r, c, &x);
	/* n < 2^32 and entry <= 32: the product cannot overflow. */
	if (counted && t->entry && x.n * t->entry != c->left)
		length_mismatch(r, t->name, x.len);
	for (uint64_t i = 0; i < x.n; i++)
		t->decode(r, c, &x);
	if (counted && c->left != 0)
		length_mismatch(r, t->name, x.len);
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
		struct cursor p = { get_bytes(&c, plen), plen };
		const struct rec_type *t = find_type(tag);
		if (t)
			read_record(&r, t, &p);
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
