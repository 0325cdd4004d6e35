/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * record.c - the C recorder: every call the assembly fast path does not
 * settle by itself (a thread's first call, a new arc, a call site with
 * several callees).
 *
 * The stubs call __mcount_internal(frompc, selfpc) with the profiled
 * function's argument registers still live.  On x86 they save only the
 * general-purpose registers, so this file is compiled with
 * -mgeneral-regs-only (the architecture's LGM_ARCH_HOT_* flags in
 * libgmon.mk) and without memcpy/memset idioms: it must never touch a
 * vector or x87 register.  Anything that needs the C library goes
 * through __gmon_slowcall, which saves the whole vector state first.
 *
 * Each thread counts into its own table, so no atomic read-modify-write
 * is needed and no call is lost to contention.
 */
#include "gmon_rt.h"

/* Keep the compiler from moving table updates across the busy flag: a
   signal handler running on this thread must see it set first. */
#define SIGNAL_FENCE() __atomic_signal_fence(__ATOMIC_SEQ_CST)

/* Every helper is inlined into __mcount_internal, whatever the
   optimisation: gprof knows the profiling hook's functions by name
   (src/symbols/sym_ids.c), and a helper of its own name would be taken
   for the program's code. */
#define HOOK_PART static inline __attribute__((always_inline))

/* Slots and chain links are byte offsets from the table's start. */
HOOK_PART struct gmon_arc *arc_at(struct gmon_table *t, uint32_t off)
{
	return (struct gmon_arc *)((char *)t + off);
}

/* Make arcs[n] accessible: commit more of the reserved arcs (a system
   call, hence slowcall) unless the cap is reached.  A refusal is counted
   as the call's loss, and the exit summary reports it. */
HOOK_PART int make_room(struct gmon_table *t, uint32_t n)
{
	if (__builtin_expect(n < t->committed, 1))
		return 1;
	if (n >= t->cap) {
		if (t->cap_cut)
			t->lost_nomem++;
		else
			t->lost_cap++;
		return 0;
	}
	__gmon_slowcall(GMON_SLOW_GROW, (uintptr_t)t, 0);
	if (n < t->committed)
		return 1;
	t->lost_nomem++;
	return 0;
}

/* Append a new arc and link it at the head of its caller slot.  The arc is
   complete before `used` covers it, for the benefit of the exit writer. */
HOOK_PART void add_arc(struct gmon_table *t, uint32_t *head,
                    uintptr_t from, uintptr_t self)
{
	uint32_t n = t->used + 1;
	if (!make_room(t, n))
		return;
	struct gmon_arc *a = &t->arcs[n];
	a->from = from;
	a->self = self;
	a->count = 1;
	a->next = *head;
	__atomic_store_n(&t->used, n, __ATOMIC_RELEASE);
	*head = (uint32_t)((char *)a - (char *)t);
}

/* Find the arc in its caller slot's chain and count it.  A hit further
   down moves to the front, where the assembly fast path (which looks at
   the first arc only) will find it next time: a call site that switches
   callees, like an indirect call, then costs the slow walk only when the
   callee changes. */
HOOK_PART void count_arc(struct gmon_table *t, uintptr_t off,
                      uintptr_t from, uintptr_t self)
{
	uint32_t *head = &t->heads[off >> GMON_HEAD_SHIFT];
	uint32_t *link = head;
	for (uint32_t o = *head; o != 0;) {
		struct gmon_arc *a = arc_at(t, o);
		if (a->self == self && a->from == from) {
			a->count++;
			if (link != head) {
				*link = a->next;
				a->next = *head;
				*head = o;
			}
			return;
		}
		link = &a->next;
		o = a->next;
	}
	add_arc(t, head, from, self);
}

/*
 * GMON_SHLIBS: a call from outside the executable (a shared library, a
 * dlopen'ed module), counted in the thread's own open-addressed table of
 * (from, self) pairs, mapped at its first such call.  A new pair also
 * asks for a walk of the loaded objects, so that a module is known while
 * it is loaded even if it is gone by the time the profile is written.
 */
#define XARC_PROBES 32

HOOK_PART uint32_t xarc_hash(uintptr_t from, uintptr_t self)
{
	uint64_t x = ((uint64_t)from ^ ((uint64_t)self << 1)) * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(x >> 32);
}

HOOK_PART void count_foreign(struct gmon_table *t, uintptr_t from, uintptr_t self)
{
	if (__builtin_expect(t->xarcs == NULL, 0)) {
		__gmon_slowcall(GMON_SLOW_XMAP, (uintptr_t)t, 0);
		if (t->xarcs == NULL) {
			t->lost_nomem++;
			return;
		}
	}
	uint32_t i = xarc_hash(from, self);
	for (int probe = 0; probe < XARC_PROBES; probe++, i++) {
		struct gmon_arc *a = &t->xarcs[i & t->xmask];
		if (a->from == from && a->self == self) {
			a->count++;
			return;
		}
		if (a->from == 0) {
			/* from last: the writer takes a slot with from != 0
			   as complete (a word-sized store, even on i386). */
			a->self = self;
			a->count = 1;
			__atomic_store_n(&a->from, from, __ATOMIC_RELEASE);
			__gmon_slowcall(GMON_SLOW_WALK, 0, 0);
			return;
		}
	}
	t->lost_xfull++;
}

/* A call the busy flag turned away.  The dead table (profile written)
   counts nothing; the shared no-memory table counts atomically; a busy
   table is interrupted by its own thread's handler, so a plain add that
   the recorder never touches is enough. */
HOOK_PART void drop_busy(struct gmon_table *t)
{
	if (t == &gmon_dead_table)
		return;
	if (t == &gmon_nomem_table)
		__atomic_fetch_add(&gmon_nomem_calls, 1, __ATOMIC_RELAXED);
	else
		t->lost_busy++;
}

/*
 * A thread's first profiled call: the slow path sets the thread up
 * (lifecycle.c) and says, through gmon_cur, whether the call is to be
 * counted: the thread's table if it got one of its own, else NULL.
 * Before start-up (or during the set-up itself) gmon_cur stays NULL;
 * after a failure or the exit write it is a table whose calls are not
 * counted.  Counting here, not in the slow path, keeps the set-up from
 * calling back into the recorder.
 */
HOOK_PART struct gmon_table *first_call(uintptr_t frompc, uintptr_t selfpc)
{
	__gmon_slowcall(GMON_SLOW_FIRST_CALL, frompc, selfpc);
	struct gmon_table *t = gmon_cur;
	if (t == &gmon_dead_table || t == &gmon_nomem_table)
		return NULL;
	return t;
}

void __mcount_internal(uintptr_t frompc, uintptr_t selfpc)
{
	struct gmon_table *t = gmon_cur;
	if (__builtin_expect(t == NULL, 0)) {
		t = first_call(frompc, selfpc);
		if (t == NULL)
			return;
	}
	/* Callers outside the profiled text (the C library calling main, a
	   thread start, a callback) cannot be named by gprof in gmon.out:
	   skip them, as glibc does, unless GMON_SHLIBS keeps them for the
	   side file.  limit is 0 when profiling is off. */
	uintptr_t off = frompc - gmon_p.lowpc;
	int outside = off >= gmon_p.limit;
	if (__builtin_expect(outside, 0) &&
	    (!gmon_p.shlibs || gmon_p.limit == 0 || frompc == 0)) {
		/* Not counted, but the SIGPROF handler's request is served:
		   a callback from a module dlopen'ed since start may be the
		   thread's only profiled calls (stacks.c, ehobjs.c). */
		if (__builtin_expect(t->busy == GMON_BUSY_GROW, 0)) {
			t->busy = 1;
			SIGNAL_FENCE();
			__gmon_slowcall(GMON_SLOW_STACKS, (uintptr_t)t, 0);
			SIGNAL_FENCE();
			t->busy = 0;
		}
		return;
	}
	/* Re-entered from a signal handler that interrupted us on this
	   thread, or a thread without a table of its own: drop the call, and
	   count it (the stubs' fast paths send busy tables here for that). */
	uint32_t busy = t->busy;
	if (__builtin_expect(busy != 0, 0) && busy != GMON_BUSY_GROW) {
		drop_busy(t);
		return;
	}
	t->busy = 1;
	SIGNAL_FENCE();
	/* The SIGPROF handler asked for a bigger table of stacks. */
	if (__builtin_expect(busy == GMON_BUSY_GROW, 0))
		__gmon_slowcall(GMON_SLOW_STACKS, (uintptr_t)t, 0);
	if (outside)
		count_foreign(t, frompc, selfpc);
	else
		count_arc(t, off, frompc, selfpc);
	SIGNAL_FENCE();
	t->busy = 0;
}

/*
 * A hook whose compiler passes no caller address (clang -pg on s390x, an
 * unrecognised call site on riscv64): guessing would record arcs that
 * never happened, so the call is dropped, and the user is told once why
 * the call graph misses it.  The recorder still runs with a caller it
 * rejects (0), so that the thread's first call still gives it a table
 * and a sampling timer.  Behind ordinary calls only, hence the plain C.
 */
void __gmon_no_caller(const char *why, uintptr_t selfpc)
{
	static int told;
	if (!__atomic_load_n(&told, __ATOMIC_RELAXED) &&
	    __atomic_load_n(&gmon_p.phase, __ATOMIC_ACQUIRE) == GMON_RUNNING &&
	    !__atomic_exchange_n(&told, 1, __ATOMIC_RELAXED))
		__gmon_slowcall(GMON_SLOW_NO_CALLER, (uintptr_t)why, 0);
	__mcount_internal(0, selfpc);
}
