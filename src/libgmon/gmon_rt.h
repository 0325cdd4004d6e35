/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmon_rt.h - internal interfaces of the libgmon runtime: the shared
 * read-mostly parameters, the per-thread arc tables, and the entry points
 * each source file offers to the others.  Nothing here is installed.
 * The files call each other one way only: lifecycle.c alone calls the
 * parts' hooks, and the base (state.c, env.c, ...) calls nothing; the
 * order is drawn in doc/libgmon.md and checked by module-deps.sh.
 */
#ifndef GMON_RT_H
#define GMON_RT_H

#include <signal.h>
#include <stdint.h>
#include <stddef.h>
#include <time.h>

#define GMON_HIDDEN __attribute__((visibility("hidden")))
#include "arch.h"
#include "cputime.h" /* the per-table slot of CPU times */
#include "ticks.h"   /* the per-table source of ticks */

/* A histogram bin covers 2^GMON_BIN_SHIFT bytes of text, as in glibc. */
#define GMON_BIN_SHIFT 2

/* Lifecycle of the runtime (gmon_p.phase). */
enum gmon_phase {
	GMON_IDLE = 0,    /* nothing started yet */
	GMON_RUNNING = 1, /* tables and histogram exist (recording or paused) */
	GMON_DONE = 2,    /* _mcleanup ran, or start-up failed: never again */
};

/* One arc: a call from a caller PC to a callee and how often it happened. */
struct gmon_arc {
	uintptr_t from;
	uintptr_t self;
	uint64_t count;
	uint32_t next; /* next arc of the same caller slot (a byte offset from
	                  the table's start, like the slots); 0 ends the chain */
};

/* Ownership of a table (gmon_table.owner). */
enum { GMON_TABLE_FREE = 0, GMON_TABLE_OWNED = 1 };

/*
 * A per-thread arc table.  Only its owning thread writes it, so counting
 * needs no atomic instruction; the writer at exit reads `used` with
 * acquire ordering and every arc below it is complete.  Tables are never
 * unmapped: when a thread exits its table goes back to the pool with its
 * counts, and the next new thread continues counting into it.
 *
 * arcs[] is reserved for `cap` entries up front but only its first
 * `committed` are accessible; the recorder asks for more (tables.c,
 * gmon_table_grow) when `used` reaches them.  The map never moves, so the
 * 32-bit offsets in the slots and links stay valid while it grows.
 */
struct gmon_table {
	volatile uint32_t busy; /* set while this thread is inside the recorder */
	uint32_t used;          /* arcs[1..used] are valid; arcs[0] is unused */
	uint32_t cap;           /* arcs[] holds cap entries */
	uint32_t *heads;        /* per caller slot: offset of its first arc */
	struct gmon_arc *arcs;
	struct gmon_table *next; /* the global list of all tables */
	int owner;               /* GMON_TABLE_FREE or GMON_TABLE_OWNED */
	/* Whatever this architecture's fast path keeps per table (usually
	   nothing; see arch.h).  Here, so the stubs' offsets stay fixed. */
	GMON_ARCH_TABLE_FIELDS
	/* The owning thread's source of ticks (ticks.c). */
	struct gmon_ticker tick;
	/* After the fields the stubs know, so their offsets stay fixed. */
	uint32_t committed;     /* arcs[0..committed) are read-write */
	uint64_t commit_bytes;  /* bytes of arcs[] committed (whole pages) */
	uint32_t cap_cut;       /* cap is below GMON_MAXARCS: address space
	                           was short when the table was mapped */
	/* Calls not counted, by cause (written by the owning thread only;
	   summed into the one line at exit, lifecycle.c's report_losses). */
	uint64_t lost_cap;      /* their new arc found the table at its cap */
	uint64_t lost_busy;     /* a signal handler interrupted the recorder */
	uint64_t lost_nomem;    /* the table could not grow */
	/* GMON_SHLIBS: calls from outside the executable, open-addressed by
	   (from, self), mapped at the first one (shlibs.c); a free slot has
	   from == 0.  Full after a few probes: counted in lost_xfull. */
	struct gmon_arc *xarcs;
	uint32_t xmask;         /* slots - 1 */
	uint64_t lost_xfull;
	/* GMON_CLOCK=wall: the owning thread's id; wall samples owed to its
	   next SIGPROF (sampler.c); offcpu.c's state about it (offcpu.h);
	   its blocked stacks (offstk.c, written by offcpu.c's thread). */
	int tid;
	uint32_t wall_owed;
	struct gmon_offcpu_slot *ocs;
	struct gmon_offstk *ostk;
	/* GMON_STACKS (stacks.c): the thread's distinct stacks, its THREAD
	   id + 1 (0: none yet), and its system id and name, cached outside
	   the handler (at setup, at exit, and when the file is written). */
	struct gmon_stacks *stk;
	uint32_t tseq;
	int ttid;
	char tname[16];
	struct gmon_cpu_slot cpu; /* its threads' times (cputime.h) */
};

/*
 * Parameters read on every call.  `limit` is the text size while recording
 * and 0 otherwise, so a single unsigned comparison both range-checks the
 * caller and tests the on/off switch.
 */
struct gmon_params {
	uintptr_t lowpc;   /* runtime address of the start of profiled text */
	uintptr_t limit;   /* textsize when recording, else 0 */
	uintptr_t textsize;
	uintptr_t bias;    /* load bias: runtime address - link-time address */
	int phase;         /* enum gmon_phase */
	int forked;        /* this process is a fork child of a profiled one */
	int shlibs;        /* GMON_SHLIBS: calls from outside the text count too */
} __attribute__((aligned(64)));

/* What the samples measure (GMON_CLOCK), as written into the file. */
enum gmon_clock { GMON_CLOCK_CPU = 0, GMON_CLOCK_WALL = 1 };

/* Settings read once at start-up, which several parts need. */
struct gmon_settings {
	int rate;   /* GMON_RATE, samples per second (sampler.c sets it) */
	int clock;  /* GMON_CLOCK_* (sampler.c; lifecycle.c falls back to
	               CPU when offcpu.c cannot start) */
	int stacks; /* GMON_STACKS is on (stacks.c; shlibs.c turns it off
	               when it cannot map the objects the stacks need) */
};

/* state.c: defined in a file that calls nothing, read by every part. */
GMON_HIDDEN extern struct gmon_params gmon_p;
GMON_HIDDEN extern struct gmon_settings gmon_set;
/* The calling thread's table (NULL before its first profiled call). */
GMON_HIDDEN extern __thread struct gmon_table *gmon_cur;
/* Set while this thread runs one of libgmon's signal handlers. */
GMON_HIDDEN extern __thread int gmon_in_handler;

/* record.c: the C recorder, for calls the stubs' fast path leaves to it. */
GMON_HIDDEN void __mcount_internal(uintptr_t frompc, uintptr_t selfpc);
/* record.c: for a hook call that tells no caller address (clang's contract
   on some targets): says so once, sets the thread up, counts nothing.
   `why` names the cause in the message, e.g. "clang -pg on s390x". */
GMON_HIDDEN void __gmon_no_caller(const char *why, uintptr_t selfpc);

/* What the recorder asks __gmon_slowcall (stubs) to do for it. */
enum gmon_slow_op {
	GMON_SLOW_FIRST_CALL = 0,
	GMON_SLOW_GROW = 1,      /* a: the table whose arcs[] is full */
	GMON_SLOW_NO_CALLER = 2, /* a: the `why` of __gmon_no_caller */
	GMON_SLOW_XMAP = 3,      /* a: the table that needs its xarcs */
	GMON_SLOW_WALK = 4,      /* a new caller outside the executable */
	GMON_SLOW_STACKS = 5,    /* a: the table whose stacks asked to grow */
};

/* t->busy: bit 0 while the recorder runs; GMON_BUSY_GROW set by the
   SIGPROF handler (stacks.c) when the thread's table of stacks is half
   full.  Either sends the thread's next call from the stubs' fast path
   to the recorder, which grows the table there, outside any handler of
   ours, before it counts the call. */
#define GMON_BUSY_GROW 2u

/*
 * stubs-<arch>.S: saves every floating-point/vector register that can
 * carry an argument (on x86 the whole vector/x87 state), realigns the
 * stack and calls __gmon_slow_dispatch.  The recorder uses it for its rare
 * paths, which call into the C library and so may clobber the profiled
 * function's live argument registers.
 */
GMON_HIDDEN void __gmon_slowcall(int op, uintptr_t a, uintptr_t b);
/* lifecycle.c: runs the slow operation op. */
GMON_HIDDEN void __gmon_slow_dispatch(int op, uintptr_t a, uintptr_t b);

/* tables.c: per-thread tables. */
GMON_HIDDEN void gmon_tables_init(void);
GMON_HIDDEN struct gmon_table *gmon_table_acquire(int recycle);
GMON_HIDDEN void gmon_table_grow(struct gmon_table *t);
GMON_HIDDEN struct gmon_table *gmon_tables_head(void);
GMON_HIDDEN unsigned long gmon_tables_cap(void);
GMON_HIDDEN void gmon_tables_after_fork(struct gmon_table *keep);
GMON_HIDDEN void gmon_set_limit(uintptr_t limit);
GMON_HIDDEN extern struct gmon_table gmon_dead_table;
GMON_HIDDEN extern struct gmon_table gmon_nomem_table;
/* Calls dropped by threads that have gmon_nomem_table (atomic). */
GMON_HIDDEN extern unsigned long gmon_nomem_calls;

/* sampler.c: the sampling histogram. */
GMON_HIDDEN int gmon_hist_init(uintptr_t lowpc, uintptr_t textsize);
GMON_HIDDEN int gmon_hist_start(void);
GMON_HIDDEN int gmon_hist_on(void);
GMON_HIDDEN void gmon_hist_stop(void);
GMON_HIDDEN void gmon_hist_after_fork(struct gmon_table *mine);
GMON_HIDDEN void gmon_hist_thread_begin(struct gmon_table *t);
GMON_HIDDEN void gmon_hist_thread_end(struct gmon_table *t);
GMON_HIDDEN const uint32_t *gmon_hist_bins(size_t *nbins);
GMON_HIDDEN uint64_t gmon_hist_lost(void);
GMON_HIDDEN void gmon_hist_credit(uintptr_t pc, uint32_t w);

/* offcpu.c: GMON_CLOCK=wall's sampler of the threads that wait. */
GMON_HIDDEN int gmon_offcpu_start(void);
GMON_HIDDEN void gmon_offcpu_stop(void);
GMON_HIDDEN void gmon_offcpu_thread_begin(struct gmon_table *t);

/* shlibs.c: GMON_SHLIBS, samples and arcs in shared libraries. */
GMON_HIDDEN int gmon_shlibs_enabled(void);
GMON_HIDDEN void gmon_shlibs_sample(uintptr_t pc, uint32_t w);
GMON_HIDDEN void gmon_shlibs_init(void);
GMON_HIDDEN void gmon_shlibs_walk(void);
GMON_HIDDEN void gmon_shlibs_map_arcs(struct gmon_table *t);
GMON_HIDDEN void gmon_shlibs_after_fork(void);
GMON_HIDDEN void gmon_shlibs_reset(void);
GMON_HIDDEN void gmon_shlibs_quiet(int on);
GMON_HIDDEN void gmon_shlibs_losses(uint64_t *samples, uint64_t *calls);
struct gmon_out;
GMON_HIDDEN void gmon_shlibs_fill(struct gmon_out *o);

/* shlibs.c: the object holding runtime address a, and a's link-time
   address in it; 0 if no known object holds it. */
GMON_HIDDEN int gmon_shlibs_place(uintptr_t a, uint32_t *id, uint64_t *link);

/* stacks.c: GMON_STACKS, call stacks and per-thread records. */
GMON_HIDDEN void gmon_stacks_init(void);
GMON_HIDDEN int gmon_stacks_recycle(void);
GMON_HIDDEN void gmon_stacks_thread_begin(struct gmon_table *t);
GMON_HIDDEN void gmon_stacks_thread_end(struct gmon_table *t);
GMON_HIDDEN void gmon_stacks_tick(void *ctx, uint32_t w);
GMON_HIDDEN void gmon_stacks_reset(void);
GMON_HIDDEN void gmon_stacks_after_fork(struct gmon_table *keep);
GMON_HIDDEN void gmon_stacks_fill(struct gmon_out *o);
GMON_HIDDEN uint64_t gmon_stacks_lost(void);
GMON_HIDDEN void gmon_stacks_grow(struct gmon_table *t);

/* write.c: the gmon.out writer. */
GMON_HIDDEN void gmon_write_profile(void);
GMON_HIDDEN int gmon_write_named(unsigned long dump, int quiet);
GMON_HIDDEN int gmon_write_path(const char *path);
GMON_HIDDEN int gmon_output_disabled(void);

/* text.c: where the executable lies in memory. */
GMON_HIDDEN uintptr_t gmon_find_bias(uintptr_t lowpc);
GMON_HIDDEN void gmon_find_text(uintptr_t addr, uintptr_t *lo, uintptr_t *hi);
GMON_HIDDEN void gmon_widen_text(uintptr_t *lo, uintptr_t *hi);
GMON_HIDDEN void gmon_object_span(uintptr_t addr, uintptr_t *lo, uintptr_t *hi);

/* outbuf.c: the writers' buffered output. */
struct gmon_out {
	int fd;
	int err;             /* first errno seen, 0 if none */
	size_t n;
	unsigned char buf[16384];
};
GMON_HIDDEN void gmon_out_put(struct gmon_out *o, const void *p, size_t len);
GMON_HIDDEN void gmon_out_le(struct gmon_out *o, uint64_t v, unsigned bytes);
GMON_HIDDEN int gmon_out_file(const char *path, const char *tmp,
                              void (*fill)(struct gmon_out *));

/* signals.c: GMON_EXIT_SIGNALS and GMON_DUMP_SIGNAL. */
GMON_HIDDEN void gmon_signals_init(void (*exit_fn)(void),
                                   void (*dump_fn)(unsigned long n));
GMON_HIDDEN void gmon_signals_after_fork(void);
GMON_HIDDEN void gmon_signals_hold(sigset_t *old);
GMON_HIDDEN void gmon_signals_release(const sigset_t *old);

/* env.c: messages on stderr, one line each, and the GMON_* settings. */
GMON_HIDDEN void gmon_say(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
GMON_HIDDEN const char *gmon_env(const char *name);

/* Limits of the numeric settings (GMON_STACK_DEPTH's is GMSL_MAX_DEPTH,
   the reader's limit).  MAX_STACKS keeps a stack pool's offsets in 32
   bits; MAXARCS_MAX keeps an arc table's map under the 4 GiB its offsets
   can span.  The default rate is samples per second of CPU time (see
   doc/libgmon.md for the measurements behind the choice). */
#define GMON_DEFAULT_RATE 1000
#define GMON_MAX_RATE 1000000
#define GMON_MAX_STACKS (1u << 23)
#define GMON_MAXARCS_MAX 100000000ul
enum gmon_num {
	GMON_NUM_RATE,
	GMON_NUM_STACK_DEPTH,
	GMON_NUM_STACK_TABLE,
	GMON_NUM_MAXARCS,
};
/* The setting's value if it is set and within its limits, else 0 (after
   one line saying why if it is set). */
GMON_HIDDEN long gmon_env_number(enum gmon_num which);
/* 0 or 1 if NAME is first or second; -1 if unset; 0 after one line
   saying so for any other value. */
GMON_HIDDEN int gmon_env_word(const char *name, const char *first,
                              const char *second);

/* heapsort.c: an in-place sort that never allocates (qsort may), for
   code that can run in a signal handler; cmp as qsort's. */
GMON_HIDDEN void gmon_heapsort(void *base, size_t n, size_t size,
                               int (*cmp)(const void *, const void *));

#include "sigmask.h"
#endif
