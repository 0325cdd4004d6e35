/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * write.c - the gmon.out writer: the executable's text bounds (widened
 * to every executable segment) and load bias, the merge of the per-thread
 * arc tables, and the GNU version 1 file (header, histogram records, arc
 * records) written to a temporary file that is renamed into place only
 * when complete.
 *
 * Addresses go to the file as link-time addresses (runtime address minus
 * the load bias), so gprof can match them with the symbol table of a PIE.
 * Fields are written one by one in the machine's byte order, as the
 * format wants; no struct is written as it sits in memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gmon_format.h"
#include "gmon_rt.h"

/* A histogram record holds 16-bit bins; larger bins spill into repeated
   records over the same range, which gprof adds together. */
#define BIN_MAX 65535u
/* Arc counts are 32-bit in the file; larger counts become several arc
   records for the same pair, which gprof also adds. INT32_MAX keeps the
   value positive for readers that take the field as signed. */
#define ARC_CHUNK 0x7fffffffu

/* ---- the executable's place in memory ---- */

struct phdr_query {
	uintptr_t addr;   /* in: a runtime address inside the executable */
	uintptr_t bias;   /* out: load bias of the object holding addr */
	uintptr_t lo, hi; /* out: runtime bounds of the segment holding addr */
	int found;
};

static int bias_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct phdr_query *q = data;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + p->p_vaddr;
		if (p->p_type == PT_LOAD && q->addr - start < p->p_memsz) {
			q->bias = info->dlpi_addr;
			q->lo = start;
			q->hi = start + p->p_memsz;
			q->found = 1;
			return 1;
		}
	}
	return 0;
}

/* The load bias of the object that contains lowpc (0 when not PIE).  The
   search does not assume the main program is listed first or has an
   empty name: musl names it, glibc does not. */
uintptr_t gmon_find_bias(uintptr_t lowpc)
{
	struct phdr_query q = { .addr = lowpc };
	dl_iterate_phdr(bias_cb, &q);
	return q.found ? q.bias : 0;
}

/* The bounds of the loaded segment that holds addr (both 0 if none). */
void gmon_find_text(uintptr_t addr, uintptr_t *lo, uintptr_t *hi)
{
	struct phdr_query q = { .addr = addr };
	dl_iterate_phdr(bias_cb, &q);
	*lo = q.found ? q.lo : 0;
	*hi = q.found ? q.hi : 0;
}

/* ---- every executable segment of the program ---- */

struct span_query {
	uintptr_t addr;    /* in: an address inside the object */
	int exec_only;     /* in: only segments with PF_X */
	uintptr_t lo, hi;  /* out: union of the object's matching segments */
	uintptr_t sum;     /* out: their total size */
};

/* Does this object hold q->addr in one of its loaded segments? */
static int holds(const struct dl_phdr_info *info, uintptr_t addr)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + p->p_vaddr;
		if (p->p_type == PT_LOAD && addr - start < p->p_memsz)
			return 1;
	}
	return 0;
}

static int span_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct span_query *q = data;
	(void)size;
	if (!holds(info, q->addr))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		if (p->p_type != PT_LOAD || p->p_memsz == 0 ||
		    (q->exec_only && !(p->p_flags & PF_X)))
			continue;
		uintptr_t start = info->dlpi_addr + p->p_vaddr;
		if (q->sum == 0 || start < q->lo)
			q->lo = start;
		if (q->sum == 0 || start + p->p_memsz > q->hi)
			q->hi = start + p->p_memsz;
		q->sum += p->p_memsz;
	}
	return 1;
}

/* The whole mapped span of the object holding addr (both 0 if none). */
void gmon_object_span(uintptr_t addr, uintptr_t *lo, uintptr_t *hi)
{
	struct span_query q = { .addr = addr };
	dl_iterate_phdr(span_cb, &q);
	*lo = q.sum ? q.lo : 0;
	*hi = q.sum ? q.hi : 0;
}

/*
 * Widen [*lo, *hi), the range the start-up code gave (normally
 * __executable_start to etext), to cover every executable segment of the
 * program too: a linker that puts .init, .plt, .text.hot, .text.unlikely,
 * .text.startup or .fini outside that range must not hide their calls
 * and samples.  One range keeps one histogram record, which every gprof
 * reads.  Should the segments lie so far apart that one range would be
 * mostly gap (more than twice what it covers, plus 1 MiB), the range is
 * left alone and the samples outside it are counted as lost instead.
 */
void gmon_widen_text(uintptr_t *lo, uintptr_t *hi)
{
	struct span_query q = { .addr = *lo, .exec_only = 1 };
	dl_iterate_phdr(span_cb, &q);
	if (q.sum == 0)
		return;
	uintptr_t nlo = q.lo < *lo ? q.lo : *lo;
	uintptr_t nhi = q.hi > *hi ? q.hi : *hi;
	uintptr_t covered = q.sum + (*hi - *lo);
	if (nhi - nlo > 2 * covered + ((uintptr_t)1 << 20))
		return;
	*lo = nlo;
	*hi = nhi;
}

/* ---- buffered output ---- */

struct out {
	int fd;
	int err;             /* first errno seen, 0 if none */
	size_t n;
	unsigned char buf[16384];
};

static void flush_out(struct out *o)
{
	size_t done = 0;
	while (done < o->n && o->err == 0) {
		ssize_t w = write(o->fd, o->buf + done, o->n - done);
		if (w > 0)
			done += (size_t)w;
		else if (w < 0 && errno != EINTR)
			o->err = errno;
		else if (w == 0)
			o->err = EIO;
	}
	o->n = 0;
}

static void put(struct out *o, const void *p, size_t len)
{
	const unsigned char *s = p;
	while (len > 0) {
		if (o->n == sizeof o->buf)
			flush_out(o);
		size_t k = sizeof o->buf - o->n;
		k = k < len ? k : len;
		memcpy(o->buf + o->n, s, k);
		o->n += k;
		s += k;
		len -= k;
	}
}

static void put_u32(struct out *o, uint32_t v)
{
	put(o, &v, sizeof v);
}

static void put_u16(struct out *o, uint16_t v)
{
	put(o, &v, sizeof v);
}

static void put_u8(struct out *o, uint8_t v)
{
	put(o, &v, 1);
}

/* Addresses are pointer-sized in the file; uintptr_t is exactly that. */
static void put_addr(struct out *o, uintptr_t v)
{
	put(o, &v, sizeof v);
}

/* ---- records ---- */

static void put_header(struct out *o)
{
	static const unsigned char spare[GMON_HDR_SPARE];
	put(o, GMON_MAGIC, GMON_MAGIC_LEN);
	put_u32(o, GMON_VERSION);
	put(o, spare, sizeof spare);
}

/* How many 16-bit records a bin needs (at least one). */
static uint32_t records_for(uint32_t v)
{
	return v <= BIN_MAX ? 1 : (uint32_t)((v + (uint64_t)BIN_MAX - 1) / BIN_MAX);
}

/* Record `part` (0-based) of bins [first, end): each bin's share of it. */
static void put_hist_record(struct out *o, const uint32_t *bins, size_t first,
                            size_t end, uint32_t part)
{
	char dimen[GMON_DIMEN_LEN];
	uintptr_t lo = gmon_p.lowpc - gmon_p.bias;
	memset(dimen, 0, sizeof dimen);
	memcpy(dimen, "seconds", 7);
	put_u8(o, GMON_TAG_TIME_HIST);
	put_addr(o, lo + ((uintptr_t)first << GMON_BIN_SHIFT));
	put_addr(o, lo + ((uintptr_t)end << GMON_BIN_SHIFT));
	put_u32(o, (uint32_t)(end - first));
	put_u32(o, (uint32_t)gmon_hist_rate());
	put(o, dimen, sizeof dimen);
	put_u8(o, 's');
	uint64_t floor = (uint64_t)part * BIN_MAX;
	for (size_t i = first; i < end; i++) {
		uint64_t v = bins[i] > floor ? bins[i] - floor : 0;
		put_u16(o, (uint16_t)(v > BIN_MAX ? BIN_MAX : v));
	}
}

/*
 * Usually one record covers the whole text.  When some bins exceed 65535,
 * the text is cut into runs of bins needing the same number of records,
 * and each run is written that many times: only the hot runs repeat, so a
 * huge count costs a few bytes per record, not a copy of the histogram.
 */
static void put_histogram(struct out *o)
{
	size_t nbins;
	const uint32_t *bins = gmon_hist_bins(&nbins);
	if (bins == NULL || nbins == 0)
		return;
	size_t first = 0;
	while (first < nbins) {
		uint32_t k = records_for(bins[first]);
		size_t end = first + 1;
		while (end < nbins && records_for(bins[end]) == k)
			end++;
		for (uint32_t part = 0; part < k; part++)
			put_hist_record(o, bins, first, end, part);
		first = end;
	}
}

static void put_arc(struct out *o, uintptr_t from, uintptr_t self, uint64_t count)
{
	while (count > 0) {
		uint32_t c = count > ARC_CHUNK ? ARC_CHUNK : (uint32_t)count;
		put_u8(o, GMON_TAG_CG_ARC);
		put_addr(o, from - gmon_p.bias);
		put_addr(o, self - gmon_p.bias);
		put_u32(o, c);
		count -= c;
	}
}

/* ---- merging the per-thread tables ---- */

struct flat_arc {
	uintptr_t from, self;
	uint64_t count;
};

static int cmp_arc(const void *pa, const void *pb)
{
	const struct flat_arc *a = pa, *b = pb;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->self != b->self)
		return a->self < b->self ? -1 : 1;
	return 0;
}

/* Only arcs whose callee lies in the profiled text can be named by
   gprof (the recorder already checked the caller). */
static int arc_wanted(const struct gmon_arc *a)
{
	return a->count != 0 && a->self - gmon_p.lowpc < gmon_p.textsize;
}

/* Write the arcs of one table as they are (the fallback when there is no
   memory to merge: gprof adds up repeated pairs anyway). */
static void put_table_arcs(struct out *o, const struct gmon_table *t)
{
	uint32_t used = __atomic_load_n(&t->used, __ATOMIC_ACQUIRE);
	for (uint32_t i = 1; i <= used; i++)
		if (arc_wanted(&t->arcs[i]))
			put_arc(o, t->arcs[i].from, t->arcs[i].self, t->arcs[i].count);
}

/* Gather every table's arcs, sort them by (from, self), and write each
   pair once with its summed count: a small, reproducible file. */
static void put_arcs(struct out *o)
{
	size_t total = 0;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		total += __atomic_load_n(&t->used, __ATOMIC_ACQUIRE);
	struct flat_arc *all = malloc((total + 1) * sizeof *all);
	if (all == NULL) {
		for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
			put_table_arcs(o, t);
		return;
	}
	size_t n = 0;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		uint32_t used = __atomic_load_n(&t->used, __ATOMIC_ACQUIRE);
		for (uint32_t i = 1; i <= used && n < total; i++) {
			const struct gmon_arc *a = &t->arcs[i];
			if (arc_wanted(a))
				all[n++] = (struct flat_arc){ a->from, a->self, a->count };
		}
	}
	qsort(all, n, sizeof *all, cmp_arc);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		uint64_t count = all[i].count;
		for (; j < n && cmp_arc(&all[i], &all[j]) == 0; j++)
			count += all[j].count;
		put_arc(o, all[i].from, all[i].self, count);
		i = j;
	}
	free(all);
}

/* ---- the file ---- */

/*
 * GMON_OUT_PREFIX=P names the file P.PID.  Without it the file is
 * gmon.out, except in a fork child, which writes gmon.out.PID so that it
 * never replaces its parent's profile.
 */
static int output_path(char *buf, size_t size)
{
	const char *prefix = gmon_env("GMON_OUT_PREFIX");
	long pid = (long)getpid();
	int n;
	if (prefix != NULL && prefix[0] != '\0')
		n = snprintf(buf, size, "%s.%ld", prefix, pid);
	else if (gmon_p.forked)
		n = snprintf(buf, size, "gmon.out.%ld", pid);
	else
		n = snprintf(buf, size, "gmon.out");
	return n > 0 && (size_t)n < size ? 0 : -1;
}

static void write_all(struct out *o)
{
	put_header(o);
	put_histogram(o);
	put_arcs(o);
	flush_out(o);
}

void gmon_write_profile(void)
{
	static struct out o; /* 16 KiB: too big for a thread's stack */
	char path[PATH_MAX], tmp[PATH_MAX + 32];
	if (output_path(path, sizeof path) != 0) {
		gmon_say("cannot write the profile: GMON_OUT_PREFIX is too long");
		return;
	}
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	unlink(tmp); /* a leftover of an earlier process with this pid */
	o.fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (o.fd < 0) {
		gmon_say("cannot write the profile %s: %s", path, strerror(errno));
		return;
	}
	o.err = 0;
	o.n = 0;
	write_all(&o);
	if (close(o.fd) != 0 && o.err == 0)
		o.err = errno;
	if (o.err == 0 && rename(tmp, path) != 0)
		o.err = errno;
	if (o.err != 0) {
		unlink(tmp);
		gmon_say("cannot write the profile %s: %s", path, strerror(o.err));
	}
}
