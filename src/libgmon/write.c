/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * write.c - the gmon.out writer: the merge of the per-thread arc tables,
 * and the GNU version 1 file (header, histogram records, arc records)
 * written to a temporary file that is renamed into place only when
 * complete; the side file of GMON_SHLIBS and GMON_STACKS beside it.
 * (Where the text lies and its load bias: text.c.)
 *
 * Addresses go to the file as link-time addresses (runtime address minus
 * the load bias), so gprof can match them with the symbol table of a PIE.
 * Fields are written one by one in the machine's byte order, as the
 * format wants; no struct is written as it sits in memory.
 *
 * Also the output names (GMON_OUT patterns, GMON_OUT_PREFIX, the numbered
 * names of dumps) and the lock that lets one write run at a time.
 *
 * The writer may run inside a signal handler (GMON_EXIT_SIGNALS,
 * GMON_DUMP_SIGNAL), so it takes no malloc, no stdio and no qsort: its
 * scratch memory comes from mmap, names are built by hand, and the only
 * library calls left are system calls, getenv and, on failure only,
 * gmon_say (vsnprintf, strerror).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/syscall.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "gmon_format.h"
#include "gmon_shlibs.h"
#include "gmon_rt.h"

/* A histogram record holds 16-bit bins; larger bins spill into repeated
   records over the same range, which gprof adds together. */
#define BIN_MAX 65535u
/* Arc counts are 32-bit in the file; larger counts become several arc
   records for the same pair, which gprof also adds. INT32_MAX keeps the
   value positive for readers that take the field as signed. */
#define ARC_CHUNK 0x7fffffffu

/* ---- fields in the machine's byte order (outbuf.c buffers them) ---- */

static void put(struct gmon_out *o, const void *p, size_t len)
{
	gmon_out_put(o, p, len);
}

static void put_u32(struct gmon_out *o, uint32_t v)
{
	put(o, &v, sizeof v);
}

static void put_u16(struct gmon_out *o, uint16_t v)
{
	put(o, &v, sizeof v);
}

static void put_u8(struct gmon_out *o, uint8_t v)
{
	put(o, &v, 1);
}

/* Addresses are pointer-sized in the file; uintptr_t is exactly that. */
static void put_addr(struct gmon_out *o, uintptr_t v)
{
	put(o, &v, sizeof v);
}

/* ---- records ---- */

static void put_header(struct gmon_out *o)
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
static void put_hist_record(struct gmon_out *o, const uint32_t *bins, size_t first,
                            size_t end, uint32_t part)
{
	char dimen[GMON_DIMEN_LEN];
	uintptr_t lo = gmon_p.lowpc - gmon_p.bias;
	memset(dimen, 0, sizeof dimen);
	if (gmon_set.clock == GMON_CLOCK_WALL) /* at most 8: gprof's columns */
		memcpy(dimen, "wall-sec", 8);
	else
		memcpy(dimen, "seconds", 7);
	put_u8(o, GMON_TAG_TIME_HIST);
	put_addr(o, lo + ((uintptr_t)first << GMON_BIN_SHIFT));
	put_addr(o, lo + ((uintptr_t)end << GMON_BIN_SHIFT));
	put_u32(o, (uint32_t)(end - first));
	put_u32(o, (uint32_t)gmon_set.rate);
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
static void put_histogram(struct gmon_out *o)
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

static void put_arc(struct gmon_out *o, uintptr_t from, uintptr_t self, uint64_t count)
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
static void put_table_arcs(struct gmon_out *o, const struct gmon_table *t)
{
	uint32_t used = __atomic_load_n(&t->used, __ATOMIC_ACQUIRE);
	for (uint32_t i = 1; i <= used; i++)
		if (arc_wanted(&t->arcs[i]))
			put_arc(o, t->arcs[i].from, t->arcs[i].self, t->arcs[i].count);
}

/* Copy every table's wanted arcs into all[] (at most max); their number. */
static size_t gather_arcs(struct flat_arc *all, size_t max)
{
	size_t n = 0;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		uint32_t used = __atomic_load_n(&t->used, __ATOMIC_ACQUIRE);
		for (uint32_t i = 1; i <= used && n < max; i++) {
			const struct gmon_arc *a = &t->arcs[i];
			if (arc_wanted(a))
				all[n++] = (struct flat_arc){ a->from, a->self, a->count };
		}
	}
	return n;
}

/* Gather every table's arcs, sort them by (from, self), and write each
   pair once with its summed count: a small, reproducible file.  The
   scratch array is mapped, not malloc'ed (see the top of the file). */
static void put_arcs(struct gmon_out *o)
{
	size_t total = 0;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		total += __atomic_load_n(&t->used, __ATOMIC_ACQUIRE);
	size_t bytes = (total + 1) * sizeof(struct flat_arc);
	struct flat_arc *all = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
	                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (all == MAP_FAILED) {
		for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
			put_table_arcs(o, t);
		return;
	}
	size_t n = gather_arcs(all, total);
	gmon_heapsort(all, n, sizeof *all, cmp_arc);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		uint64_t count = all[i].count;
		for (; j < n && cmp_arc(&all[i], &all[j]) == 0; j++)
			count += all[j].count;
		put_arc(o, all[i].from, all[i].self, count);
		i = j;
	}
	munmap(all, bytes);
}

/* ---- the file ---- */

static int gettid_now(void)
{
	return (int)syscall(SYS_gettid);
}

/* ---- output names, built by hand (no snprintf in a signal handler) ---- */

struct name {
	char *buf;
	size_t size, len;
	int overflow;
};

static void add_str(struct name *b, const char *s)
{
	for (; *s != '\0'; s++) {
		if (b->len + 1 >= b->size) {
			b->overflow = 1;
			return;
		}
		b->buf[b->len++] = *s;
	}
	b->buf[b->len] = '\0';
}

static void add_num(struct name *b, unsigned long long v)
{
	char digits[24];
	size_t i = sizeof digits;
	digits[--i] = '\0';
	do
		digits[--i] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	add_str(b, digits + i);
}

static void add_char(struct name *b, char c)
{
	char s[2] = { c, '\0' };
	add_str(b, s);
}

/* GMON_OUT's pattern: %p pid, %e program name, %t Unix time, %% a %.
   Any other % sequence is kept as it is.  Says whether %p was used. */
static int expand_pattern(struct name *b, const char *pat)
{
	int has_pid = 0;
	for (const char *s = pat; *s != '\0'; s++) {
		char c = s[0] == '%' ? s[1] : '\0';
		if (c == 'p') {
			add_num(b, (unsigned long long)getpid());
			has_pid = 1;
		} else if (c == 'e') {
			const char *prog = program_invocation_short_name;
			add_str(b, prog != NULL && prog[0] != '\0' ? prog : "unknown");
		} else if (c == 't') {
			add_num(b, (unsigned long long)time(NULL));
		} else if (c == '%') {
			add_char(b, '%');
		} else {
			add_char(b, s[0]);
			continue;
		}
		s++;
	}
	return has_pid;
}

/*
 * The profile's name; dump > 0 is the dump signal's numbered snapshot.
 * GMON_OUT set and empty disables output (returns 1); a non-empty
 * GMON_OUT is a pattern and wins over GMON_OUT_PREFIX=P, which names the
 * file P.PID.  Without either the file is gmon.out, except in a fork
 * child and for dumps, which write gmon.out.PID so that they never
 * replace the main profile; a fork child likewise adds .PID to a pattern
 * without %p.  Dumps add .N.  Returns -1 if the name is too long.
 */
static int output_name(char *buf, size_t size, unsigned long dump)
{
	struct name b = { buf, size, 0, 0 };
	const char *pattern = gmon_env("GMON_OUT");
	const char *prefix = gmon_env("GMON_OUT_PREFIX");
	int need_pid = gmon_p.forked || dump > 0;
	buf[0] = '\0';
	if (pattern != NULL && pattern[0] == '\0')
		return 1;
	if (pattern != NULL) {
		need_pid = !expand_pattern(&b, pattern) && gmon_p.forked;
	} else if (prefix != NULL && prefix[0] != '\0') {
		add_str(&b, prefix);
		need_pid = 1;
	} else {
		add_str(&b, "gmon.out");
	}
	if (need_pid) {
		add_char(&b, '.');
		add_num(&b, (unsigned long long)getpid());
	}
	if (dump > 0) {
		add_char(&b, '.');
		add_num(&b, dump);
	}
	return b.overflow || b.len == 0 ? -1 : 0;
}

/* GMON_OUT set and empty: no profile is written at all, not even to a
   path the program names in gmon_dump. */
int gmon_output_disabled(void)
{
	const char *pattern = gmon_env("GMON_OUT");
	return pattern != NULL && pattern[0] == '\0';
}

/* ---- one write at a time ---- */

/*
 * The writer's buffer is static and a write reads every table, so writes
 * are serialised: a dump from another thread waits (up to a few seconds)
 * for the one in progress.  libgmon's own handlers never interrupt a
 * write on their thread (gmon_write_path holds their signals off); a
 * program's handler that does, by calling gmon_dump, cannot wait for it
 * and gives up with EBUSY.
 */
static int write_owner; /* thread id of the writer, 0 if none */

static int lock_writer(void)
{
	int me = gettid_now();
	for (int tries = 0; tries < 4000; tries++) {
		int none = 0;
		if (__atomic_compare_exchange_n(&write_owner, &none, me, 0,
		                                __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return 0;
		if (none == me)
			return EBUSY;
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
	return EBUSY;
}

static void unlock_writer(void)
{
	__atomic_store_n(&write_owner, 0, __ATOMIC_RELEASE);
}

static void write_all(struct gmon_out *o)
{
	put_header(o);
	put_histogram(o);
	put_arcs(o);
}

/* path + suffix + ".PID.tmp": the temporary name a file is written under. */
static int tmp_name(char *buf, size_t size, const char *path, const char *suffix)
{
	struct name b = { buf, size, 0, 0 };
	add_str(&b, path);
	add_str(&b, suffix);
	add_char(&b, '.');
	add_num(&b, (unsigned long long)getpid());
	add_str(&b, ".tmp");
	return b.overflow ? ENAMETOOLONG : 0;
}

/* The side file's contents: its header and the objects, samples and arcs
   of shlibs.c, then the stacks and threads of stacks.c (nothing when
   GMON_STACKS is off), then the CPU times of cputime.c, which may name
   only the threads marked before stacks.c wrote them.  Composed here so
   that no part calls another to write. */
static void side_fill(struct gmon_out *o)
{
	gmon_shlibs_fill(o);
	gmon_cputime_mark();
	gmon_stacks_fill(o);
	gmon_cputime_fill(o);
}

/*
 * The side file of GMON_SHLIBS, path + GMSL_SUFFIX, after gmon.out.
 * Without the switch, a side file left there by an earlier run is
 * removed: it describes a profile that no longer exists, and gprof
 * would otherwise add it to the new one.
 */
static int write_side(const char *path)
{
	char side[PATH_MAX + 16], tmp[PATH_MAX + 48];
	struct name b = { side, sizeof side, 0, 0 };
	add_str(&b, path);
	add_str(&b, GMSL_SUFFIX);
	if (b.overflow || tmp_name(tmp, sizeof tmp, path, GMSL_SUFFIX) != 0)
		return ENAMETOOLONG;
	if (!gmon_shlibs_enabled() && !gmon_set.stacks) {
		unlink(side);
		return 0;
	}
	return gmon_out_file(side, tmp, side_fill);
}

/* Write the profile so far to path, through PATH.PID.tmp in the same
   folder; 0 or an errno.  The caller's errno is left alone. */
int gmon_write_path(const char *path)
{
	char tmp[PATH_MAX + 32];
	int saved = errno;
	int err = path[0] == '\0' ? ENOENT : tmp_name(tmp, sizeof tmp, path, "");
	sigset_t old;
	gmon_signals_hold(&old); /* an exit signal would kill a half-written file */
	if (err == 0)
		err = lock_writer();
	if (err == 0) {
		gmon_shlibs_quiet(1);
		err = gmon_out_file(path, tmp, write_all);
		if (err == 0)
			err = write_side(path);
		gmon_shlibs_quiet(0);
		unlock_writer();
	}
	gmon_signals_release(&old);
	errno = saved;
	return err;
}

/* The profile under its configured name (dump > 0: numbered snapshot).
   0 if written or disabled, else an errno, reported on stderr unless
   quiet (the C API reports through errno instead). */
int gmon_write_named(unsigned long dump, int quiet)
{
	char path[PATH_MAX];
	int r = output_name(path, sizeof path, dump);
	if (r == 1)
		return 0;
	if (r < 0 && quiet)
		return ENAMETOOLONG;
	if (r < 0) {
		gmon_say("cannot write the profile: GMON_OUT or GMON_OUT_PREFIX is too long");
		return ENAMETOOLONG;
	}
	int err = gmon_write_path(path);
	if (err != 0 && !quiet)
		gmon_say("cannot write the profile %s: %s", path, strerror(err));
	return err;
}

void gmon_write_profile(void)
{
	(void)gmon_write_named(0, 0);
}
