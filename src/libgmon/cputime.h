/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cputime.h - the interface of cputime.c, which owns the CPU and wall
 * time of the process and of each profiled thread and the side file's
 * PTIMES and TTIMES records (include/gmon_shlibs.h).  Apart from
 * gmon_rt.h so that the table's slot and the hooks stay in one place.
 */
#ifndef GMON_CPUTIME_H
#define GMON_CPUTIME_H

#include <stdint.h>

/*
 * The times of the threads that owned one arc table, in ns.  done_*
 * add up the owners that ended (beyond 4096 threads a table serves
 * several); base_* are the current owner's CPU clocks at its set-up or
 * at gmon_reset, `start` its CLOCK_MONOTONIC then (0: no owner timed).
 */
struct gmon_cpu_slot {
	uint64_t done_user, done_sys, done_wall;
	uint64_t base_user, base_sys, start;
	uint32_t listed;  /* THREAD id + 1 seen before the THREAD records
	                     were written (gmon_cputime_mark); 0: not seen */
	uint32_t ticks;   /* some user/system split came from clock ticks */
	uint32_t seq;     /* odd while the owning thread updates the slot
	                     (its start and end), so that a write running on
	                     another thread reads it whole (a seqlock) */
};

struct gmon_table;
struct gmon_out;

/* Hooks, called by lifecycle.c (reset: api.c; mark, fill: write.c). */
__attribute__((visibility("hidden"))) void gmon_cputime_init(void);
__attribute__((visibility("hidden"))) void gmon_cputime_thread_begin(struct gmon_table *t);
__attribute__((visibility("hidden"))) void gmon_cputime_thread_end(struct gmon_table *t);
__attribute__((visibility("hidden"))) void gmon_cputime_reset(void);
__attribute__((visibility("hidden"))) void gmon_cputime_after_fork(struct gmon_table *keep);
/* Before the THREAD records are written: which threads TTIMES may name. */
__attribute__((visibility("hidden"))) void gmon_cputime_mark(void);
/* PTIMES, and with GMON_STACKS one TTIMES per marked thread. */
__attribute__((visibility("hidden"))) void gmon_cputime_fill(struct gmon_out *o);

#endif
