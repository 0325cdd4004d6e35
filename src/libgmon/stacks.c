/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stacks.c - GMON_STACKS=1: the call stack of every SIGPROF tick, walked
 * along the frame-pointer chain from the signal context, counted per
 * thread in a table of distinct stacks; and the side file's THREAD,
 * STACKS, TSAMPLES, TARCS and SLOSS records (include/gmon_shlibs.h).
 *
 * The walk runs in the SIGPROF handler: it allocates nothing, calls
 * nothing, and reads only memory it has proved to be inside the
 * interrupted thread's stack, between the interrupted stack pointer and
 * the stack's base (learned once per thread, at its setup, outside any
 * handler).  Each frame must lie above the previous one and be aligned,
 * so a frame pointer used as an ordinary register by code built without
 * one ends the walk instead of leading it astray into a fault.
 *
 * Each thread's table is reserved at its setup at its largest size
 * (GMON_STACK_TABLE distinct stacks) and committed in small steps:
 * open-addressed slots of offsets into an append-only pool of entries
 * (count, hash, depth, flags, frames).  The owning thread alone appends,
 * and publishes an entry's bytes before the slot and the pool's `used`
 * cover it, so the writer (another thread, or a dump handler) reads
 * complete entries up to `used` without a lock.
 *
 * Nothing grows inside the handler.  When the table is half full the
 * handler sets GMON_BUSY_GROW in the thread's busy flag, which sends the
 * thread's next profiled call to the recorder; the recorder calls
 * gmon_stacks_grow() there, with SIGPROF blocked, to commit twice the
 * pool and rebuild twice the slots.  A tick that finds the table full
 * before that (or at its largest) is counted as lost and reported.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "gmon_shlibs.h"
#include "gmon_rt.h"
#include "offcpu.h"
#include "unwind.h"

#define DEFAULT_DEPTH 128
/* Per thread: up to 1048576 distinct stacks by default (65536 on 32-bit
   targets, whose address space is short; GMON_STACK_TABLE sets it),
   reserved as address space for that many slots and 256 bytes of pool
   each (a stack 29 frames deep), and committed from room for 48
   stacks up, doubling (so most programs' tables grow a few times early,
   each time at the cost of rehashing what they hold). */
#define DEFAULT_STACKS (sizeof(uintptr_t) > 4 ? 1u << 20 : 1u << 16)
#define POOL_PER_STACK 256u
#define FIRST_SLOTS 64u         /* 3/4 of them: 48 stacks, in a page */
#define MAX_PROBE 64
/* Beyond this many tables, threads share exited threads' tables again
   (their THREAD record then stands for all of them). */
#define OWN_TABLES 4096

struct stk_entry {
	uint64_t count;
	uint32_t hash;
	uint16_t depth;
	uint16_t flags;
	uintptr_t f[];  /* depth runtime addresses, frame 0 first */
};

struct gmon_stacks {
	uintptr_t base;        /* the stack's highest address (exclusive) */
	uintptr_t lowest;      /* and its lowest */
	uint32_t used;         /* bytes of pool[] holding complete entries */
	uint32_t entries;
	uint64_t truncated;    /* ticks whose walk met the depth limit */
	uint64_t lost;         /* ticks not recorded: table full */
	uint32_t *slots;       /* byte offset + 1 into pool, 0: free */
	unsigned char *pool;
	uint32_t mask;         /* slots in use - 1 (a power of 2 - 1) */
	uint32_t cap;          /* distinct stacks allowed in them now */
	uint32_t committed;    /* bytes of pool[] that are read-write */
	uintptr_t scratch[GMSL_MAX_DEPTH]; /* the walk in progress */
#ifdef GMON_UW_CFI
	struct gmon_uw_cache uwc;   /* rows of call-frame rules by PC */
#endif
};

static uint32_t depth_limit = DEFAULT_DEPTH;
static uint64_t lost_untabled;   /* ticks of threads without a table */
static uint32_t next_seq;        /* THREAD ids handed out */
static uint32_t table_stacks = DEFAULT_STACKS; /* distinct stacks per table */
static uint32_t nslots;          /* a power of 2, >= table_stacks * 4 / 3 */
static uint32_t pool_bytes;      /* reserved per table, whole pages */
static uint32_t page_bytes = 4096;
static uint32_t ntables;

static uint32_t round_up(uint64_t n)
{
	return (uint32_t)((n + page_bytes - 1) & ~(uint64_t)(page_bytes - 1));
}

/* GMON_STACKS=1, GMON_STACK_DEPTH (1 to GMSL_MAX_DEPTH frames) and
   GMON_STACK_TABLE. */
void gmon_stacks_init(void)
{
	if (gmon_env_word("GMON_STACKS", "0", "1") != 1)
		return;
	long depth = gmon_env_number(GMON_NUM_STACK_DEPTH);
	if (depth != 0)
		depth_limit = (uint32_t)depth;
	long stacks = gmon_env_number(GMON_NUM_STACK_TABLE);
	if (stacks != 0)
		table_stacks = (uint32_t)stacks;
	for (nslots = 16; nslots / 4 * 3 < table_stacks; nslots *= 2)
		;
	long ps = sysconf(_SC_PAGESIZE);
	if (ps > 0 && (ps & (ps - 1)) == 0)
		page_bytes = (uint32_t)ps;
	pool_bytes = round_up(table_stacks * POOL_PER_STACK + GMSL_MAX_DEPTH *
	                      sizeof(uintptr_t) + 64);
	gmon_set.stacks = 1;
}

/* Ticks that found their thread's table of stacks full, for the exit
   summary.  (Ticks of a thread before its table exists are counted in
   SLOSS only: they are the thread's start, not a table to enlarge.) */
uint64_t gmon_stacks_lost(void)
{
	if (!gmon_set.stacks)
		return 0;
	uint64_t lost = 0;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		struct gmon_stacks *s = __atomic_load_n(&t->stk, __ATOMIC_ACQUIRE);
		if (s != NULL)
			lost += s->lost;
	}
	return lost;
}

/* Should a new thread reuse an exited thread's table?  Not while stacks
   are recorded: each thread keeps its own counts, up to OWN_TABLES. */
int gmon_stacks_recycle(void)
{
	return !gmon_set.stacks ||
	       __atomic_load_n(&ntables, __ATOMIC_RELAXED) >= OWN_TABLES;
}

/* The calling thread's name (what pthread_getname_np reads for it). */
static void self_name(struct gmon_table *t)
{
	char buf[17] = "";
	if (prctl(PR_GET_NAME, buf, 0, 0, 0) == 0) {
		buf[16] = '\0';
		memcpy(t->tname, buf, sizeof t->tname);
	}
}

/* A table: its header read-write, its slots and pool reserved without
   access, and the first of each committed.  NULL if memory is short. */
static struct gmon_stacks *table_map(void)
{
	size_t head = round_up(sizeof(struct gmon_stacks));
	size_t slots = round_up((uint64_t)nslots * sizeof(uint32_t));
	char *m = mmap(NULL, head + slots + pool_bytes, PROT_NONE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	uint32_t n = FIRST_SLOTS < nslots ? FIRST_SLOTS : nslots;
	uint32_t pool = round_up((uint64_t)n / 4 * 3 * 86); /* 7 frames each */
	if (pool > pool_bytes)
		pool = pool_bytes;
	struct gmon_stacks *s = (struct gmon_stacks *)m;
	if (mprotect(m, head, PROT_READ | PROT_WRITE) != 0 ||
	    mprotect(m + head, round_up((uint64_t)n * sizeof(uint32_t)),
	             PROT_READ | PROT_WRITE) != 0 ||
	    mprotect(m + head + slots, pool, PROT_READ | PROT_WRITE) != 0) {
		munmap(m, head + slots + pool_bytes);
		return NULL;
	}
	s->slots = (uint32_t *)(m + head);
	s->pool = (unsigned char *)(m + head + slots);
	s->mask = n - 1;
	s->cap = n / 4 * 3 < table_stacks ? n / 4 * 3 : table_stacks;
	s->committed = pool;
	return s;
}

/*
 * Thread setup (lifecycle.c, never in a handler): the table's thread id,
 * the thread's id and name, its stack's base, and its pool.  The base
 * comes from pthread_getattr_np (for the main thread, the top of its
 * mapping); without it the walk records frame 0 only.
 */
void gmon_stacks_thread_begin(struct gmon_table *t)
{
	if (!gmon_set.stacks)
		return;
	if (t->tseq == 0) {
		t->tseq = __atomic_add_fetch(&next_seq, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&ntables, 1, __ATOMIC_RELAXED);
	}
	t->ttid = (int)syscall(SYS_gettid);
	self_name(t);
	struct gmon_stacks *s = t->stk;
	if (s == NULL && (s = table_map()) == NULL)
		return; /* its ticks count as lost */
	uintptr_t base = 0, lowest = 0;
	pthread_attr_t a;
	if (pthread_getattr_np(pthread_self(), &a) == 0) {
		void *addr;
		size_t size;
		if (pthread_attr_getstack(&a, &addr, &size) == 0) {
			lowest = (uintptr_t)addr;
			base = lowest + size;
		}
		pthread_attr_destroy(&a);
	}
	__atomic_store_n(&s->lowest, lowest, __ATOMIC_RELAXED);
	__atomic_store_n(&s->base, base, __ATOMIC_RELAXED);
	__atomic_store_n(&t->stk, s, __ATOMIC_RELEASE);
}

/* Thread exit: keep the name it had at the end (usually set after its
   start), and walk no more with its stack's bounds. */
void gmon_stacks_thread_end(struct gmon_table *t)
{
	if (!gmon_set.stacks)
		return;
	self_name(t);
	if (t->stk != NULL)
		t->stk->base = 0;
}

/* ---- the walk (SIGPROF handler) ---- */

/* Fill f[] with the interrupted PC and the return addresses above it
   (unwalk.c: call-frame information, signal frames, the frame-pointer
   chain where there is none); the depth, and *cut set when the limit
   stopped a walk that could go on.  Elsewhere a stack is frame 0. */
static uint32_t walk(const ucontext_t *uc, struct gmon_stacks *s,
                     uintptr_t *f, int *cut)
{
	*cut = 0;
#ifdef GMON_UW_CFI
	uint32_t n;
	const struct gmon_uw_obj *objs = gmon_ehobjs(&n);
	unsigned flags;
	uint32_t d = gmon_uw_walk(uc, s->lowest, s->base, objs, n, &s->uwc, f,
	                          depth_limit, &flags);
	*cut = (flags & GMON_UW_CUT) != 0;
	if (flags & GMON_UW_MISSED) {
		/* a module loaded since the last look: the thread's next
		   profiled call refreshes the objects (gmon_stacks_grow) */
		gmon_ehobjs_missed();
		*cut |= 2;
	}
	return d;
#else
	(void)s;
	f[0] = (uintptr_t)GMON_ARCH_UC_PC(uc);
	return 1;
#endif
}

static uint32_t hash_frames(const uintptr_t *f, uint32_t d, int cut)
{
	uint64_t x = 0x243f6a8885a308d3ull ^ d ^ ((uint64_t)cut << 40);
	for (uint32_t i = 0; i < d; i++) {
		x ^= (uint64_t)f[i];
		x *= 0x9e3779b97f4a7c15ull;
		x ^= x >> 29;
	}
	return (uint32_t)(x >> 32) | 1;
}

static size_t entry_size(uint32_t d)
{
	return sizeof(struct stk_entry) + (size_t)d * sizeof(uintptr_t);
}

/* Half full, and room to grow: ask the thread's next profiled call to
   grow the table (see gmon_stacks_grow).  The handler runs on the
   table's own thread, so this update of its busy flag cannot race; one
   that the recorder's end clears is asked again at the next tick. */
#ifdef GMON_PRELOAD
static void grow_pool(struct gmon_stacks *s);
static void grow_slots(struct gmon_stacks *s);
#endif
static void ask_growth(struct gmon_table *t, struct gmon_stacks *s)
{
	if ((s->entries >= s->cap / 2 && s->mask + 1 < nslots) ||
	    (s->used >= s->committed / 2 && s->committed < pool_bytes)) {
#ifdef GMON_PRELOAD
		/* libgmon-preload.so: a program without -pg makes no profiled
		   call that could grow the table, so the handler grows it.
		   Safe here: only this thread's SIGPROF handler touches the
		   slots (and SIGPROF is blocked while it runs, or while the
		   recorder of a -pg program grows them), the writer reads only
		   the append-only pool, and mprotect is a system call. */
		(void)t;
		grow_pool(s);
		grow_slots(s);
#else
		t->busy |= GMON_BUSY_GROW;
#endif
	}
}

/* The SIGPROF handler's part: count w ticks for the current stack. */
void gmon_stacks_tick(void *ctx, uint32_t w)
{
	struct gmon_table *t = gmon_cur;
	struct gmon_stacks *s = t != NULL && t != &gmon_dead_table &&
	                        t != &gmon_nomem_table ? t->stk : NULL;
	if (s == NULL) {
		__atomic_fetch_add(&lost_untabled, w, __ATOMIC_RELAXED);
		return;
	}
	int cut;
	uint32_t d = walk(ctx, s, s->scratch, &cut);
	if (cut & 2)
		t->busy |= GMON_BUSY_GROW;
	cut &= 1;
	if (cut)
		s->truncated += w;
	uint32_t h = hash_frames(s->scratch, d, cut);
	uint32_t i = h;
	for (int probe = 0; probe < MAX_PROBE; probe++, i++) {
		uint32_t *slot = &s->slots[i & s->mask];
		uint32_t off = *slot;
		if (off == 0) {
			size_t need = entry_size(d);
			if (s->entries >= s->cap || s->committed - s->used < need)
				break;
			struct stk_entry *e = (struct stk_entry *)(s->pool + s->used);
			e->hash = h;
			e->depth = (uint16_t)d;
			e->flags = cut ? GMSL_STACK_TRUNCATED : 0;
			for (uint32_t k = 0; k < d; k++)
				e->f[k] = s->scratch[k];
			__atomic_store_n(&e->count, (uint64_t)w, __ATOMIC_RELAXED);
			*slot = s->used + 1;
			s->entries++;
			__atomic_store_n(&s->used, s->used + (uint32_t)need, __ATOMIC_RELEASE);
			ask_growth(t, s);
			return;
		}
		struct stk_entry *e = (struct stk_entry *)(s->pool + off - 1);
		if (e->hash != h || e->depth != d ||
		    (e->flags & GMSL_STACK_TRUNCATED) != (cut ? GMSL_STACK_TRUNCATED : 0))
			continue;
		uint32_t k = 0;
		while (k < d && e->f[k] == s->scratch[k])
			k++;
		if (k == d) {
			/* Relaxed atomics: a 64-bit count must not tear on i386. */
			__atomic_store_n(&e->count,
			                 __atomic_load_n(&e->count, __ATOMIC_RELAXED) + w,
			                 __ATOMIC_RELAXED);
			return;
		}
	}
	s->lost += w;
	ask_growth(t, s);
}

/* ---- growth (the recorder, outside any handler of ours) ---- */

/* Put every entry of the pool in slots[0..n), from scratch. */
static void rehash(struct gmon_stacks *s, uint32_t n)
{
	memset(s->slots, 0, (size_t)n * sizeof(uint32_t));
	for (uint32_t off = 0; off < s->used;) {
		const struct stk_entry *e = (const struct stk_entry *)(s->pool + off);
		uint32_t i = e->hash;
		while (s->slots[i & (n - 1)] != 0)
			i++;
		s->slots[i & (n - 1)] = off + 1;
		off += (uint32_t)entry_size(e->depth);
	}
}

static void grow_pool(struct gmon_stacks *s)
{
	if (s->used < s->committed / 2 || s->committed >= pool_bytes)
		return;
	uint32_t want = s->committed > pool_bytes / 2 ? pool_bytes : 2 * s->committed;
	if (mprotect(s->pool + s->committed, want - s->committed,
	             PROT_READ | PROT_WRITE) == 0)
		s->committed = want;
}

static void grow_slots(struct gmon_stacks *s)
{
	uint32_t n = s->mask + 1;
	if (s->entries < s->cap / 2 || n >= nslots)
		return;
	if (mprotect(s->slots, round_up((uint64_t)2 * n * sizeof(uint32_t)),
	             PROT_READ | PROT_WRITE) != 0)
		return;
	rehash(s, 2 * n);
	s->mask = 2 * n - 1;
	s->cap = n / 2 * 3 < table_stacks ? n / 2 * 3 : table_stacks;
}

/*
 * The recorder's GMON_SLOW_STACKS, on the thread that owns the table:
 * SIGPROF is blocked meanwhile (a tick then waits, it is not lost), so
 * the handler never sees slots half rebuilt.  With a C library built
 * with -pg, the system calls' own calls come back to the recorder, find
 * it busy and are dropped: the runtime's, not the program's, so no loss.
 */
void gmon_stacks_grow(struct gmon_table *t)
{
	struct gmon_stacks *s = t->stk;
	if (s == NULL)
		return;
	uint64_t busy = t->lost_busy;
	sigset_t prof, old;
	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	pthread_sigmask(SIG_BLOCK, &prof, &old);
#ifdef GMON_UW_CFI
	if (gmon_ehobjs_stale())
		gmon_ehobjs_refresh();
#endif
	grow_pool(s);
	grow_slots(s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	t->lost_busy = busy;
}

/* ---- reset and fork ---- */

void gmon_stacks_reset(void)
{
	if (!gmon_set.stacks)
		return;
	__atomic_store_n(&lost_untabled, 0, __ATOMIC_RELAXED);
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		struct gmon_stacks *s = __atomic_load_n(&t->stk, __ATOMIC_ACQUIRE);
		if (s == NULL)
			continue;
		uint32_t used = __atomic_load_n(&s->used, __ATOMIC_ACQUIRE);
		for (uint32_t off = 0; off < used;) {
			struct stk_entry *e = (struct stk_entry *)(s->pool + off);
			__atomic_store_n(&e->count, 0, __ATOMIC_RELAXED);
			off += (uint32_t)entry_size(e->depth);
		}
		s->truncated = s->lost = 0;
	}
}

/* A fork child: every table starts empty (the forking thread's keeps
   its stack's base, its thread is the one that survives). */
void gmon_stacks_after_fork(struct gmon_table *keep)
{
	if (!gmon_set.stacks)
		return;
	lost_untabled = 0;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		struct gmon_stacks *s = t->stk;
		if (s == NULL)
			continue;
		size_t n = (size_t)(s->mask + 1) * sizeof(uint32_t);
		if (madvise(s->slots, n, MADV_DONTNEED) != 0)
			memset(s->slots, 0, n);
		s->used = s->entries = 0;
		s->truncated = s->lost = 0;
		if (t == keep)
			t->ttid = (int)syscall(SYS_gettid);
		else
			s->base = 0;
	}
}

/* ---- the side file's records ---- */

static void put_head(struct gmon_out *o, unsigned tag, uint64_t len)
{
	gmon_out_le(o, tag, 1);
	gmon_out_le(o, len, 4);
}

/* A live thread's current name, from /proc (async-signal-safe calls
   only: a dump may run in a handler); the cached one if that fails. */
static size_t thread_name(struct gmon_table *t, char *buf)
{
	if (t->ttid == (int)syscall(SYS_gettid)) {
		self_name(t);
	} else if (__atomic_load_n(&t->owner, __ATOMIC_ACQUIRE) == GMON_TABLE_OWNED) {
		char path[48] = "/proc/self/task/";
		char num[12];
		int n = 0;
		for (unsigned v = (unsigned)t->ttid; n == 0 || v != 0; v /= 10)
			num[n++] = (char)('0' + v % 10);
		size_t p = strlen(path);
		while (n > 0)
			path[p++] = num[--n];
		memcpy(path + p, "/comm", 6);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			char b[17];
			ssize_t r = read(fd, b, 16);
			close(fd);
			if (r > 0) {
				if (b[r - 1] == '\n')
					r--;
				memset(t->tname, 0, sizeof t->tname);
				memcpy(t->tname, b, (size_t)r);
			}
		}
	}
	size_t len = strnlen(t->tname, sizeof t->tname);
	memcpy(buf, t->tname, len);
	return len;
}

/* The frames of e that fall in known objects (a walk into code no
   object holds ends there). */
static uint32_t placed_depth(const struct stk_entry *e)
{
	uint32_t d = 0, id;
	uint64_t a;
	while (d < e->depth && gmon_shlibs_place(e->f[d], &id, &a))
		d++;
	return d;
}

static void put_stacks(struct gmon_out *o, uint32_t seq, struct gmon_stacks *s,
                       uint32_t used)
{
	uint64_t len = 8;
	uint32_t n = 0;
	for (uint32_t off = 0; off < used;) {
		const struct stk_entry *e = (const struct stk_entry *)(s->pool + off);
		uint32_t d = placed_depth(e);  /* 0: PC in no object, left out */
		len += d ? 12 + (uint64_t)d * GMSL_FRAME_SIZE : 0;
		n += d != 0;
		off += (uint32_t)entry_size(e->depth);
	}
	if (n == 0 || len > UINT32_MAX)
		return;
	put_head(o, GMSL_TAG_STACKS, len);
	gmon_out_le(o, seq, 4);
	gmon_out_le(o, n, 4);
	for (uint32_t off = 0; off < used;) {
		const struct stk_entry *e = (const struct stk_entry *)(s->pool + off);
		uint32_t d = placed_depth(e);
		off += (uint32_t)entry_size(e->depth);
		if (d == 0)
			continue;
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
}

/* TSAMPLES from the stacks' frame 0: (object, bin address, count)
   gathered in a scratch map, sorted, merged, one record per object. */
struct tsample {
	uint64_t addr;
	uint64_t count;
	uint32_t obj;
};

static int ts_cmp(const void *pa, const void *pb)
{
	const struct tsample *a = pa, *b = pb;
	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return 0;
}

static void put_tsamples(struct gmon_out *o, uint32_t seq, struct gmon_stacks *s,
                         uint32_t used)
{
	size_t bytes = (size_t)(s->entries + 1) * sizeof(struct tsample);
	struct tsample *v = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
	                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (v == MAP_FAILED)
		return;
	size_t n = 0;
	for (uint32_t off = 0; off < used;) {
		const struct stk_entry *e = (const struct stk_entry *)(s->pool + off);
		uint64_t c = __atomic_load_n(&e->count, __ATOMIC_RELAXED);
		uint32_t id;
		uint64_t a;
		if (c != 0 && e->depth > 0 && gmon_shlibs_place(e->f[0], &id, &a)) {
			v[n].addr = a & ~(uint64_t)((1u << GMON_BIN_SHIFT) - 1);
			v[n].count = c;
			v[n].obj = id;
			n++;
		}
		off += (uint32_t)entry_size(e->depth);
	}
	gmon_heapsort(v, n, sizeof *v, ts_cmp);
	size_t m = 0;  /* merge equal (object, address) */
	for (size_t i = 0; i < n; i++) {
		if (m > 0 && v[m - 1].obj == v[i].obj && v[m - 1].addr == v[i].addr)
			v[m - 1].count += v[i].count;
		else
			v[m++] = v[i];
	}
	for (size_t i = 0; i < m;) {
		size_t j = i;
		while (j < m && v[j].obj == v[i].obj)
			j++;
		put_head(o, GMSL_TAG_TSAMPLES, 12 + (uint64_t)(j - i) * GMSL_SAMPLE_SIZE);
		gmon_out_le(o, seq, 4);
		gmon_out_le(o, v[i].obj, 4);
		gmon_out_le(o, j - i, 4);
		for (size_t k = i; k < j; k++) {
			gmon_out_le(o, v[k].addr, 8);
			gmon_out_le(o, v[k].count > UINT32_MAX ? UINT32_MAX : v[k].count, 4);
		}
		i = j;
	}
	munmap(v, bytes);
}

/* One arc of a thread's table: counted (o NULL) or written. */
static int tarc(struct gmon_out *o, const struct gmon_arc *a)
{
	uintptr_t from = __atomic_load_n(&a->from, __ATOMIC_ACQUIRE);
	uint64_t c = a->count;
	uint32_t fi, si;
	uint64_t fa, sa;
	if (from == 0 || c == 0 || !gmon_shlibs_place(from, &fi, &fa) ||
	    !gmon_shlibs_place(a->self, &si, &sa))
		return 0;
	if (o != NULL) {
		gmon_out_le(o, fi, 4);
		gmon_out_le(o, fa, 8);
		gmon_out_le(o, si, 4);
		gmon_out_le(o, sa, 8);
		gmon_out_le(o, c, 8);
	}
	return 1;
}

/* Counts the table's arcs, writing the first `limit` to o (not NULL). */
static uint64_t tarcs_pass(struct gmon_out *o, const struct gmon_table *t,
                           uint32_t used, uint64_t limit)
{
	uint64_t n = 0;
	for (uint32_t i = 1; i <= used; i++)
		n += (uint64_t)tarc(n < limit ? o : NULL, &t->arcs[i]);
	const struct gmon_arc *x = __atomic_load_n(&t->xarcs, __ATOMIC_ACQUIRE);
	for (uint32_t i = 0; x != NULL && i <= t->xmask; i++)
		n += (uint64_t)tarc(n < limit ? o : NULL, &x[i]);
	return n;
}

/* The thread's own calls, counted then written, as the ARCS record:
   arcs that appear meanwhile wait, vanished ones are zero entries. */
static void put_tarcs(struct gmon_out *o, uint32_t seq, const struct gmon_table *t)
{
	uint32_t used = __atomic_load_n(&t->used, __ATOMIC_ACQUIRE);
	uint64_t n = tarcs_pass(NULL, t, used, 0);
	if (n == 0 || n > (UINT32_MAX - 8) / GMSL_ARC_SIZE)
		return;
	put_head(o, GMSL_TAG_TARCS, 8 + n * GMSL_ARC_SIZE);
	gmon_out_le(o, seq, 4);
	gmon_out_le(o, n, 4);
	static const unsigned char none[GMSL_ARC_SIZE];
	for (uint64_t w = tarcs_pass(o, t, used, n); w < n; w++)
		gmon_out_put(o, none, sizeof none);
}

/* Everything per thread, in THREAD id order, then SLOSS. */
void gmon_stacks_fill(struct gmon_out *o)
{
	if (!gmon_set.stacks)
		return;
	uint64_t truncated = 0, lost = __atomic_load_n(&lost_untabled, __ATOMIC_RELAXED);
	uint32_t last = __atomic_load_n(&next_seq, __ATOMIC_ACQUIRE);
	for (uint32_t seq = 1; seq <= last; seq++) {
		struct gmon_table *t = gmon_tables_head();
		while (t != NULL && t->tseq != seq)
			t = t->next;
		if (t == NULL)
			continue;
		char name[16];
		size_t nlen = thread_name(t, name);
		put_head(o, GMSL_TAG_THREAD, 10 + nlen);
		gmon_out_le(o, seq - 1, 4);
		gmon_out_le(o, (uint32_t)t->ttid, 4);
		gmon_out_le(o, nlen, 2);
		gmon_out_put(o, name, nlen);
		struct gmon_stacks *s = __atomic_load_n(&t->stk, __ATOMIC_ACQUIRE);
		if (s != NULL) {
			uint32_t used = __atomic_load_n(&s->used, __ATOMIC_ACQUIRE);
			put_stacks(o, seq - 1, s, used);
			put_tsamples(o, seq - 1, s, used);
			truncated += s->truncated;
			lost += s->lost;
		}
		lost += gmon_offstk_put(o, seq - 1, t); /* blocked stacks */
		put_tarcs(o, seq - 1, t);
	}
	put_head(o, GMSL_TAG_SLOSS, 20);
	gmon_out_le(o, truncated, 8);
	gmon_out_le(o, lost, 8);
	gmon_out_le(o, depth_limit, 4);
}
