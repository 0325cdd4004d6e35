/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tables.c - the pool of per-thread arc tables: mapping one for a new
 * thread or handing it an exited thread's, growing a table the recorder
 * filled, switching recording on and off in every table, and the reset
 * of a fork child.  (A thread's set-up and exit, and the recorder's slow
 * paths, are lifecycle.c's: they call several parts.)
 *
 * Tables are mmap'd (never malloc'd: the recorder may run inside malloc or
 * a signal handler).  The caller slots are MAP_NORESERVE (address space
 * only until touched).  arcs[] is reserved for the whole cap as PROT_NONE
 * and committed with mprotect a chunk at a time, doubling, as it fills:
 * memory follows use, the map never moves (its 32-bit offsets and the
 * stubs' fast paths stay valid), and a system that refuses more memory
 * says so with an error the recorder counts, rather than with SIGSEGV or
 * the OOM killer at the first touch of a page.  They form a push-only lock-free list; the one
 * compare-and-swap per table happens when a thread first gets one, never
 * per call.  A table whose thread has exited keeps its counts and is
 * handed to the next new thread, so memory stays bounded by the largest
 * number of threads alive at once and no count is lost.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gmon_rt.h"

/* The assembly fast path hard-codes these offsets; the architecture
   header defines the ones its stubs use (arch.h). */
#ifdef GMON_P_LOWPC
_Static_assert(offsetof(struct gmon_params, lowpc) == GMON_P_LOWPC, "layout");
#endif
#ifdef GMON_P_LIMIT
_Static_assert(offsetof(struct gmon_params, limit) == GMON_P_LIMIT, "layout");
#endif
#ifdef GMON_P_SHLIBS
_Static_assert(offsetof(struct gmon_params, shlibs) == GMON_P_SHLIBS, "layout");
#endif
#ifdef GMON_T_BUSY
_Static_assert(offsetof(struct gmon_table, busy) == GMON_T_BUSY, "layout");
#endif
#ifdef GMON_ARC_FROM
_Static_assert(offsetof(struct gmon_arc, from) == GMON_ARC_FROM, "layout");
#endif
#ifdef GMON_ARC_SELF
_Static_assert(offsetof(struct gmon_arc, self) == GMON_ARC_SELF, "layout");
#endif
#ifdef GMON_ARC_COUNT
_Static_assert(offsetof(struct gmon_arc, count) == GMON_ARC_COUNT, "layout");
#endif
GMON_ARCH_TABLE_CHECKS /* the architecture's own table fields, if any */
_Static_assert(sizeof(struct gmon_table) <= GMON_HEADS_AT, "layout");

/* Returned to a thread after the profile is written: its busy flag is
   always set, so the hooks drop that thread's calls at once. */
struct gmon_table gmon_dead_table = { .busy = 1 };
/* The same for a thread whose table could not be mapped; its calls are
   counted in gmon_nomem_calls and reported at exit. */
struct gmon_table gmon_nomem_table = { .busy = 1 };
unsigned long gmon_nomem_calls;

static struct gmon_table *all_tables;
static uint32_t arcs_per_table;
static uint64_t heads_bytes;
static uint64_t page_size = 4096;

struct gmon_table *gmon_tables_head(void)
{
	return __atomic_load_n(&all_tables, __ATOMIC_ACQUIRE);
}

/* The arc cap per table, as GMON_MAXARCS would set it (arcs[0] is not
   used), for the exit summary. */
unsigned long gmon_tables_cap(void)
{
	return (unsigned long)arcs_per_table - 1;
}

/* Bytes of arcs[] committed when a table is made; it doubles from there. */
#define GMON_FIRST_COMMIT 65536u

/* Per-thread arc cap: GMON_MAXARCS, or a default that is reserved
   address space only (memory is committed as arcs appear): 2^24 arcs
   (512 MiB of address space per thread) on 64-bit targets, where address
   space is plentiful; on 32-bit ones, where it is not, 8 arcs per 256
   bytes of text, between 65536 and 2^20 arcs.  The upper bound keeps a
   table's map under the 4 GiB its offsets can span. */
static uint32_t choose_capacity(uintptr_t textsize)
{
	long v = gmon_env_number(GMON_NUM_MAXARCS);
	if (v != 0)
		return (uint32_t)v + 1;
	if (sizeof(void *) == 8)
		return 1u << 24;
	uintptr_t n = textsize / 32;
	return (uint32_t)(n < 65536 ? 65536 : n > (1u << 20) ? (1u << 20) : n);
}

void gmon_tables_init(void)
{
	GMON_ARCH_INIT();
	long ps = sysconf(_SC_PAGESIZE);
	if (ps > 0)
		page_size = (uint64_t)ps;
	arcs_per_table = choose_capacity(gmon_p.textsize);
	heads_bytes = ((uint64_t)(gmon_p.textsize >> GMON_HEAD_SHIFT) + 1) * sizeof(uint32_t);
}

/* Rounded up to whole pages of the running system (mprotect needs them;
   a 64 KiB-page kernel is possible on aarch64 and ppc64le). */
static uint64_t round_page(uint64_t n)
{
	return (n + page_size - 1) & ~(page_size - 1);
}

/*
 * Commit arcs[] up to `bytes` (whole pages, at most the reservation),
 * and set `committed` to the arcs that now fit.  Only the owning thread
 * (or table_new, before anyone sees the table) calls this, so the plain
 * stores race with nothing; the exit writer never reads past `used`.
 */
static int commit_arcs(struct gmon_table *t, uint64_t bytes)
{
	uint64_t all = round_page((uint64_t)t->cap * sizeof(struct gmon_arc));
	if (bytes > all)
		bytes = all;
	if (bytes <= t->commit_bytes)
		return -1;
	char *from = (char *)t->arcs + t->commit_bytes;
	if (mprotect(from, (size_t)(bytes - t->commit_bytes),
	             PROT_READ | PROT_WRITE) != 0)
		return -1;
	t->commit_bytes = bytes;
	uint64_t n = bytes / sizeof(struct gmon_arc);
	t->committed = n < t->cap ? (uint32_t)n : t->cap;
	return 0;
}

/* The recorder's GMON_SLOW_GROW: double the committed part of arcs[].
   With a C library built with -pg (libc_p.a), mprotect's own calls come
   back to the recorder, find the table busy and are dropped: they are
   the runtime's calls, not the program's, so those drops are no loss. */
void gmon_table_grow(struct gmon_table *t)
{
	uint64_t busy = t->lost_busy;
	commit_arcs(t, t->commit_bytes * 2);
	t->lost_busy = busy;
}

/*
 * Reserve a table of `cap` arcs: the header page and caller slots
 * read-write, arcs[] without access.  Sizes are computed in 64 bits
 * because slots and links are 32-bit offsets into the map, which must
 * therefore stay below 4 GiB.  The reservation is not MAP_NORESERVE:
 * mprotect then charges the kernel's commit accounting (and RLIMIT_DATA)
 * and fails cleanly when memory is short.
 */
static struct gmon_table *table_reserve(uint32_t cap, uint64_t *size)
{
	uint64_t arc_off = round_page(GMON_HEADS_AT + heads_bytes);
	uint64_t arcs_bytes = (uint64_t)cap * sizeof(struct gmon_arc);
	uint64_t total = arc_off + round_page(arcs_bytes);
	if (total > UINT32_MAX)
		return NULL;
	char *m = mmap(NULL, (size_t)total, PROT_NONE,
	               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return NULL;
	if (mmap(m, (size_t)arc_off, PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
	         -1, 0) == MAP_FAILED) {
		munmap(m, (size_t)total);
		return NULL;
	}
	struct gmon_table *t = (struct gmon_table *)m;
	t->heads = (uint32_t *)(m + GMON_HEADS_AT);
	t->arcs = (struct gmon_arc *)(m + arc_off);
	t->cap = cap;
	*size = total;
	return t;
}

/*
 * Map a fresh table with its first chunk of arcs committed.  Where
 * address space is short (RLIMIT_AS, a 32-bit process) a smaller cap is
 * tried, halving down to the first chunk; arcs beyond such a cap are
 * counted as lost for lack of memory, not as beyond GMON_MAXARCS.
 */
static struct gmon_table *table_new(void)
{
	uint32_t first = (uint32_t)(GMON_FIRST_COMMIT / sizeof(struct gmon_arc));
	uint64_t size = 0;
	struct gmon_table *t = NULL;
	for (uint32_t cap = arcs_per_table; t == NULL; cap /= 2) {
		t = table_reserve(cap, &size);
		if (cap <= first)
			break;
	}
	if (t == NULL)
		return NULL;
	t->cap_cut = t->cap < arcs_per_table;
	if (commit_arcs(t, round_page(GMON_FIRST_COMMIT)) != 0) {
		munmap(t, (size_t)size);
		return NULL;
	}
	return t;
}

static void push_table(struct gmon_table *t)
{
	struct gmon_table *old = __atomic_load_n(&all_tables, __ATOMIC_RELAXED);
	do
		t->next = old;
	while (!__atomic_compare_exchange_n(&all_tables, &old, t, 1,
	                                    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
}

/* Switch recording on (textsize) or off (0) in gmon_p, and in the copy
   a table may keep for the architecture's fast path; see
   gmon_copy_params() for a table handed out meanwhile. */
void gmon_set_limit(uintptr_t limit)
{
	__atomic_store_n(&gmon_p.limit, limit, __ATOMIC_SEQ_CST);
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		GMON_ARCH_TABLE_SET_LIMIT(t, limit);
}

/*
 * For an architecture whose tables carry copies of gmon_p.lowpc and
 * gmon_p.limit (GMON_ARCH_TABLE_CLAIM, i386): fill them as the table is
 * handed to a thread.  The table is already in the list, so a concurrent
 * gmon_set_limit also writes the limit copy; if that write came first and
 * ours overwrote it with an old value, gmon_p.limit has changed since we
 * read it, and we copy again.  All accesses are sequentially consistent.
 * (Unused, and so marked, where the architecture keeps no copies.)
 */
__attribute__((unused))
static void gmon_copy_params(uintptr_t *lowpc, uintptr_t *limit)
{
	uintptr_t v;
	*lowpc = gmon_p.lowpc;
	do {
		v = __atomic_load_n(&gmon_p.limit, __ATOMIC_SEQ_CST);
		__atomic_store_n(limit, v, __ATOMIC_SEQ_CST);
	} while (__atomic_load_n(&gmon_p.limit, __ATOMIC_SEQ_CST) != v);
}

/* Prepare table t for the thread that is taking it. */
static struct gmon_table *claim(struct gmon_table *t)
{
	GMON_ARCH_TABLE_CLAIM(t);
	return t;
}

/* Adopt the table of an exited thread if there is one (and recycle says
   tables may be reused), else map a new one. */
struct gmon_table *gmon_table_acquire(int recycle)
{
	for (struct gmon_table *t = recycle ? gmon_tables_head() : NULL;
	     t; t = t->next) {
		int expect = GMON_TABLE_FREE;
		if (__atomic_load_n(&t->owner, __ATOMIC_RELAXED) == GMON_TABLE_FREE &&
		    __atomic_compare_exchange_n(&t->owner, &expect, GMON_TABLE_OWNED,
		                                0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
			return claim(t);
	}
	struct gmon_table *t = table_new();
	if (t == NULL)
		return NULL;
	t->owner = GMON_TABLE_OWNED;
	push_table(t);
	return claim(t);
}

/*
 * In a fork child only the forking thread exists.  Every table restarts
 * from zero counts (the child's profile covers the child only), and the
 * tables of threads that did not survive the fork go back to the pool.
 */
void gmon_tables_after_fork(struct gmon_table *keep)
{
	gmon_nomem_calls = 0;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		uint32_t used = __atomic_load_n(&t->used, __ATOMIC_ACQUIRE);
		for (uint32_t i = 1; i <= used; i++)
			t->arcs[i].count = 0;
		t->lost_cap = t->lost_busy = t->lost_nomem = t->lost_xfull = 0;
		if (t != keep) {
			t->busy = 0;
			t->owner = GMON_TABLE_FREE;
		}
	}
}
